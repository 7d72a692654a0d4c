//! Patterns in where the P-positions lie, and periodicity along the lines of a 2-D table.
//!
//! * [`oned`]: the P-positions `{n : G(n) = 0}` of a sequence against simple descriptions
//!   (residue classes, arithmetic progressions, the Fibonacci numbers, powers of two);
//! * [`lines`]: the period detector along every row, column and diagonal of a 2-D table;
//! * [`beatty`]: the P-pairs `(a_k, b_k)` of a symmetric 2-D table, `b_k − a_k = k` and the
//!   exact fit `a_k = ⌊kα⌋`;
//! * [`formula`]: closed forms of the values `G` themselves (`n mod k`, `ctz(n)`, linear forms
//!   on residue classes, `f(x) ⊕ g(y)`, nim products, …), each checked on every value;
//! * [`winning`]: the smallest winning move of every N-position and a closed form of it as a
//!   function of the position (`t` = the smallest Zeckendorf term of `n` in Fibonacci Nim,
//!   `n mod (k + 1)` in the Bash game), observed on every N-position of the box;
//! * [`analyse_box`] puts them together into the 2-D report, [`BoxPatternReport`], and a
//!   private `render` module writes the reports as text.
//!
//! The dependencies run one way: `oned` and `lines` use only the period detector, `beatty`
//! reads a table through `lines`' grid; [`super::criteria`] (closed-form P-position tests on
//! a box of any number of coordinates) uses `oned` and `beatty`; the 2-D report of this module
//! uses them all, the criteria included, and nothing below it uses the report.
//!
//! # Two coordinates
//!
//! [`analyse_box`] runs the detector of [`lines`] along every row, column and diagonal
//! `x − y = c` of a 2-D [`BoxTable`], lists the P-pairs of a symmetric table with their
//! [`beatty`] fits, and gives the diagonals `x − y = c` for small `|c|` the one-coordinate
//! P-pattern of [`oned`], indexed by `x`: Fibonacci Nim as `(n, limit)` starts from
//! `(n, n − 1)`, and those P-positions are the Fibonacci numbers. The report ends with the
//! closed-form criteria of [`super::criteria`], which are also what a box of any other number
//! of coordinates is reported with.

pub mod beatty;
pub mod findings;
pub mod formula;
pub mod lines;
pub mod oned;
mod render;
pub mod winning;

use serde::Serialize;
use thiserror::Error;

use super::criteria::CriteriaReport;
use crate::engine::boxtable::BoxTable;
use crate::engine::Hint;
pub use beatty::{beatty_fit, golden_pairs, BeattyFit, PPairs};
pub use findings::Findings;
pub use formula::{find_box, find_sequence, nim_product, Formula, FormulaReport};
use lines::Grid;
pub use lines::{LineFamily, LineKind, LinePeriodicity, MIN_LINE_LENGTH};
pub use oned::{
    p_position_patterns, p_position_patterns_from, OneDimPattern, PPositionReport, MIN_PERIODS,
    MIN_P_POSITIONS,
};
pub use winning::{find_smallest_move, MoveFunction, SmallestMove, SmallestMoveReport};

/// Diagonals `x − y = c` with `|c|` up to this get their own P-position pattern.
pub const PATTERN_DIAGONALS: i64 = 3;

/// Why a table cannot be analysed by [`analyse_box`].
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PatternError {
    /// Rows, columns and diagonals need exactly two coordinates.
    #[error("line patterns need exactly two coordinates, but the table has {dimension}")]
    Dimension {
        /// The table's number of coordinates.
        dimension: usize,
    },
}

impl PatternError {
    /// What to do about it (the command line words it).
    pub fn hint(&self) -> Option<Hint> {
        match self {
            PatternError::Dimension { .. } => Some(Hint::PeriodOfSequence),
        }
    }
}

/// What [`analyse_box`] found in a 2-D table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoxPatternReport {
    /// The two coordinates' names.
    pub coordinates: [String; 2],
    /// Their largest values in the box.
    pub extents: [u64; 2],
    /// Every row `x = r`, along the second coordinate.
    pub rows: LineFamily,
    /// Every column `y = c`, along the first coordinate.
    pub columns: LineFamily,
    /// Every diagonal `x − y = c` with at least [`MIN_LINE_LENGTH`] values, along `x`.
    pub diagonals: LineFamily,
    /// Whether `G(x, y) = G(y, x)` throughout the square part of the box.
    pub symmetric: bool,
    /// The P-pairs of a symmetric table.
    pub p_pairs: Option<PPairs>,
    /// The P-positions along the diagonals `x − y = c`, `|c| ≤` [`PATTERN_DIAGONALS`], by `x`.
    pub diagonal_p_positions: Vec<(i64, PPositionReport)>,
    /// The closed-form P-position criteria that hold on the whole box.
    pub criteria: CriteriaReport,
    /// The simplest closed form of the values themselves, if one holds on the whole box.
    pub formula: FormulaReport,
}

/// Analyses the rows, columns, diagonals and P-positions of a 2-D table (see the module docs).
pub fn analyse_box(table: &BoxTable) -> Result<BoxPatternReport, PatternError> {
    let grid = Grid::new(table).ok_or(PatternError::Dimension {
        dimension: table.dimension(),
    })?;
    let p_pairs = beatty::symmetric_p_pairs(grid);
    let diagonal_p_positions = (-PATTERN_DIAGONALS..=PATTERN_DIAGONALS)
        .filter(|&c| c <= grid.width as i64 && -c <= grid.height as i64)
        .map(|c| {
            let (first, values) = grid.line(LineKind::Diagonals, c);
            (c, p_position_patterns_from(first, &values))
        })
        .collect();
    Ok(BoxPatternReport {
        coordinates: [
            table.coordinates()[0].clone(),
            table.coordinates()[1].clone(),
        ],
        extents: [grid.width, grid.height],
        rows: grid.family(LineKind::Rows),
        columns: grid.family(LineKind::Columns),
        diagonals: grid.family(LineKind::Diagonals),
        symmetric: p_pairs.is_some(),
        p_pairs,
        diagonal_p_positions,
        criteria: CriteriaReport::of(table),
        formula: formula::find_box(table).expect("a 2-D table"),
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::engine::mex::mex_of;

    pub(crate) use super::beatty::tests::wythoff;

    fn names() -> Vec<String> {
        vec!["x".to_string(), "y".to_string()]
    }

    #[test]
    fn wythoff_pairs_rows_and_golden_ratio() {
        let table = wythoff(120);
        let report = analyse_box(&table).unwrap();
        assert!(report.symmetric);
        let pairs = report.p_pairs.as_ref().unwrap();
        // Wythoff 1907: the P-positions are (⌊kφ⌋, ⌊kφ²⌋), b_k − a_k = k.
        let phi = (1.0 + 5f64.sqrt()) / 2.0;
        for (k, &(a, b)) in pairs.pairs.iter().enumerate() {
            assert_eq!(a, (k as f64 * phi).floor() as u64);
            assert_eq!(b, a + k as u64);
        }
        assert_eq!(
            &pairs.pairs[..5],
            &[(0, 0), (1, 2), (3, 5), (4, 7), (6, 10)]
        );
        assert_eq!(pairs.difference_fails_at, None);
        assert!(pairs.alpha.golden && pairs.beta.golden);
        // Row 0 is Nim on one heap, G(0, y) = y: period 1, saltus 1; row 1 is 1 2 0 | 4 5 3 | …
        let row = |x: usize| report.rows.lines[x].periodicity.unwrap();
        assert_eq!((row(0).period, row(0).saltus), (1, 1));
        assert_eq!((row(1).period, row(1).saltus), (3, 3));
        assert!(report
            .rows
            .lines
            .iter()
            .take(6)
            .all(|l| l.periodicity.is_some_and(|p| p.saltus > 0)));
        let text = report.to_string();
        assert!(text.contains("b_k − a_k = k for every k"), "{text}");
        assert!(text.contains("φ ≈ 1.618034 lies in it"), "{text}");
        assert!(
            text.contains("x = 0: additively periodic, period 1, saltus 1 from y ≥ 0"),
            "{text}"
        );
    }

    #[test]
    fn two_heap_nim_has_p_positions_on_the_diagonal() {
        // G(x, y) = x ⊕ y (Bouton 1901): P-positions (k, k), b_k − a_k = 0.
        let table = BoxTable::from_fn(names(), vec![63, 63], |p| (p[0] ^ p[1]) as u32);
        let report = analyse_box(&table).unwrap();
        let pairs = report.p_pairs.as_ref().unwrap();
        assert_eq!(pairs.pairs.len(), 64);
        assert_eq!(pairs.difference_fails_at, Some(1));
        assert!(!pairs.alpha.golden);
        // Every row x of x ⊕ y has period 2^(⌊log2 x⌋ + 1) … with saltus; row 0 is y itself.
        assert_eq!(report.rows.lines[0].periodicity.map(|p| p.saltus), Some(1));
        // The main diagonal is all P-positions: residue 0 mod 1.
        let (c, main) = &report.diagonal_p_positions[3];
        assert_eq!(*c, 0);
        assert_eq!(main.p_positions, 64);
        assert!(matches!(
            &main.patterns[0],
            OneDimPattern::ResidueClasses { modulus: 1, .. }
        ));
        assert!(report
            .to_string()
            .contains("x − y = 0: P-positions are every x ≥ 0 (checked for 0 ≤ x ≤ 63)"));
        // The JSON report carries every line and the fits.
        let json: serde_json::Value = serde_json::to_value(&report).unwrap();
        assert_eq!(json["rows"]["kind"], "rows");
        assert_eq!(json["rows"]["lines"].as_array().unwrap().len(), 64);
        assert_eq!(json["rows"]["lines"][0]["periodicity"]["saltus"], 1);
        assert_eq!(json["p_pairs"]["pairs"][5], serde_json::json!([5, 5]));
        assert_eq!(json["p_pairs"]["alpha"]["golden"], false);
        assert_eq!(
            json["diagonal_p_positions"][3][1]["patterns"][0]["kind"],
            "residue_classes"
        );
    }

    #[test]
    fn fibonacci_nim_starting_positions_are_fibonacci_numbers() {
        // Fibonacci Nim (Whinihan 1963): from (n, limit) take 1 ≤ t ≤ limit tokens, leaving the
        // opponent a limit of 2t (capped at what remains); the game starts at (n, n − 1) and the
        // first player loses iff n is a Fibonacci number.
        let (max_n, max_limit) = (90u64, 90u64);
        let mut g = vec![vec![0u32; max_limit as usize + 1]; max_n as usize + 1];
        for n in 0..=max_n as usize {
            for limit in 0..=max_limit as usize {
                g[n][limit] = mex_of((1..=limit.min(n)).map(|t| g[n - t][(2 * t).min(n - t)]));
            }
        }
        let table = BoxTable::from_fn(
            vec!["n".to_string(), "limit".to_string()],
            vec![max_n, max_limit],
            |p| g[p[0] as usize][p[1] as usize],
        );
        let report = analyse_box(&table).unwrap();
        assert!(!report.symmetric && report.p_pairs.is_none());
        let (c, starts) = report
            .diagonal_p_positions
            .iter()
            .find(|(c, _)| *c == 1)
            .unwrap();
        assert_eq!(*c, 1);
        assert_eq!(starts.first, 1);
        assert_eq!(starts.patterns, vec![OneDimPattern::Fibonacci]);
        let text = report.to_string();
        assert!(
            text.contains("n − limit = 1: P-positions are the Fibonacci numbers"),
            "{text}"
        );
        assert!(text.contains("not symmetric"));
    }

    #[test]
    fn other_dimensions_are_refused() {
        let table = BoxTable::from_fn(vec!["n".to_string()], vec![9], |p| p[0] as u32);
        let error = analyse_box(&table).unwrap_err();
        assert_eq!(error, PatternError::Dimension { dimension: 1 });
        assert!(error.to_string().contains("exactly two coordinates"));
    }

    #[test]
    fn uniform_rows_are_summarised() {
        // G(x, y) = (x + y) mod 3: every row has period 3; the summary says so once.
        let table = BoxTable::from_fn(names(), vec![20, 40], |p| ((p[0] + p[1]) % 3) as u32);
        let report = analyse_box(&table).unwrap();
        assert_eq!(report.rows.uniform_tail(), Some((0, 3, 0)));
        let text = report.to_string();
        assert!(
            text.contains("every row x ≥ 0 up to 20: period 3"),
            "{text}"
        );
        assert!(text.contains("x = 0..20: period 3 from y ≥ 0"), "{text}");
    }

    proptest::proptest! {
        #[test]
        fn any_small_box_is_analysed_and_reported(
            width in 0u64..25,
            height in 0u64..25,
            seed in 0u64..1000,
        ) {
            let table = BoxTable::from_fn(names(), vec![width, height], |p| {
                ((p[0] * 31 + p[1] * 17 + seed) % 5 % 3) as u32
            });
            let report = analyse_box(&table).unwrap();
            proptest::prop_assert_eq!(report.rows.lines.len() as u64, width + 1);
            proptest::prop_assert_eq!(report.columns.lines.len() as u64, height + 1);
            proptest::prop_assert!(report.to_string().starts_with("Patterns in the box"));
            proptest::prop_assert!(serde_json::to_string(&report).is_ok());
        }
    }
}
