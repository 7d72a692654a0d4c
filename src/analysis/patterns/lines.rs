//! Periodicity along the lines of a 2-D table: the period detector of
//! [`crate::analysis::period`] run along every row, column and diagonal `x − y = c` (the rows
//! of Wythoff's game are arithmetic-periodic: Dress, Flammenkamp and Pink, *Additive
//! periodicity of the Sprague–Grundy function of certain Nim games*, Adv. Appl. Math. 22,
//! 1999).

use serde::Serialize;

use super::oned::MIN_PERIODS;
use crate::analysis::period::{self, periods_seen};
use crate::analysis::Periodicity;
use crate::engine::boxtable::BoxTable;
use crate::engine::SgTable;

/// Which lines of a 2-D table a [`LineFamily`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LineKind {
    /// First coordinate fixed, indexed by the second.
    Rows,
    /// Second coordinate fixed, indexed by the first.
    Columns,
    /// `x − y = c` fixed, indexed by the first coordinate `x`.
    Diagonals,
}

/// The periodicity found along one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LinePeriodicity {
    /// The row's `x`, the column's `y`, or the diagonal's `c = x − y`.
    pub line: i64,
    /// The first index along the line (0, except for diagonals `c > 0`, which start at `x = c`).
    pub first: u64,
    /// How many values the line has in the box.
    pub length: usize,
    /// The periodicity along the line, its preperiod given as an index along the line (so a
    /// diagonal's preperiod is an `x`); `None` when the period detector found no period with
    /// enough evidence, or fewer than [`MIN_PERIODS`] full periods (lines are short,
    /// and a box has thousands of them, so chance agreements must be ruled out harder).
    pub periodicity: Option<Periodicity>,
}

/// The periodicity of every row, column or diagonal long enough to analyse.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineFamily {
    /// Which lines these are.
    pub kind: LineKind,
    /// One entry per line, by increasing line number.
    pub lines: Vec<LinePeriodicity>,
}

/// Lines shorter than this are not analysed (the detector needs 16 checked pairs anyway).
pub const MIN_LINE_LENGTH: usize = 18;

impl LineFamily {
    /// The period and saltus shared by every line from some line on, with that line and the
    /// largest preperiod among them, when at least three lines share it.
    pub fn uniform_tail(&self) -> Option<(i64, usize, i64)> {
        let last = self.lines.last()?.periodicity?;
        let shared = self
            .lines
            .iter()
            .rev()
            .take_while(|l| {
                l.periodicity
                    .is_some_and(|p| (p.period, p.saltus) == (last.period, last.saltus))
            })
            .count();
        let from = self.lines[self.lines.len() - shared].line;
        (shared >= 3).then_some((from, last.period, last.saltus))
    }
}

/// A table of two coordinates, read along its lines: `G(x, y)` for `0 ≤ x ≤ width`,
/// `0 ≤ y ≤ height`.
#[derive(Clone, Copy)]
pub(super) struct Grid<'a> {
    values: &'a [u32],
    /// The largest `x`.
    pub(super) width: u64,
    /// The largest `y`.
    pub(super) height: u64,
}

impl<'a> Grid<'a> {
    /// The grid of `table`, when it has exactly two coordinates.
    pub(super) fn new(table: &'a BoxTable) -> Option<Self> {
        let &[width, height] = table.extents() else {
            return None;
        };
        Some(Grid {
            values: table.values(),
            width,
            height,
        })
    }

    /// `G(x, y)`.
    pub(super) fn value(&self, x: u64, y: u64) -> u32 {
        self.values[(x * (self.height + 1) + y) as usize]
    }

    /// The line `line` of `kind` (a row's `x`, a column's `y`, a diagonal's `c = x − y`): its
    /// first index and its values along it.
    pub(super) fn line(&self, kind: LineKind, line: i64) -> (u64, Vec<u32>) {
        match kind {
            LineKind::Rows => (
                0,
                (0..=self.height)
                    .map(|y| self.value(line as u64, y))
                    .collect(),
            ),
            LineKind::Columns => (
                0,
                (0..=self.width)
                    .map(|x| self.value(x, line as u64))
                    .collect(),
            ),
            LineKind::Diagonals => {
                let first_x = line.max(0) as u64;
                let values = (first_x..=self.width)
                    .map_while(|x| {
                        let y = x as i64 - line;
                        (y <= self.height as i64).then(|| self.value(x, y as u64))
                    })
                    .collect();
                (first_x, values)
            }
        }
    }

    /// The periodicity of every line of `kind`: every row and column, and every diagonal with
    /// at least [`MIN_LINE_LENGTH`] values.
    pub(super) fn family(&self, kind: LineKind) -> LineFamily {
        let (width, height) = (self.width as i64, self.height as i64);
        let (numbers, shortest) = match kind {
            LineKind::Rows => (0..=width, 0),
            LineKind::Columns => (0..=height, 0),
            LineKind::Diagonals => (-height..=width, MIN_LINE_LENGTH),
        };
        let lines = numbers
            .map(|line| (line, self.line(kind, line)))
            .filter(|(_, (_, values))| values.len() >= shortest)
            .map(|(line, (first, values))| LinePeriodicity {
                line,
                first,
                length: values.len(),
                periodicity: period::detect(&SgTable::from_values(&values))
                    .filter(|p| periods_seen(p, values.len()) >= MIN_PERIODS)
                    .map(|p| Periodicity {
                        preperiod: p.preperiod + first as usize,
                        ..p
                    }),
            })
            .collect();
        LineFamily { kind, lines }
    }
}
