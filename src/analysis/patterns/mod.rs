//! Patterns in where the P-positions lie, and periodicity along the lines of a 2-D table.
//!
//! # One coordinate
//!
//! [`p_position_patterns`] tests the P-positions `{n : G(n) = 0}` of a finite table against
//! simple descriptions, each of which must hold on the *whole* range computed:
//!
//! * residue classes: from some `n0` on, `n` is a P-position iff `n mod m ∈ R` (subtraction
//!   games, e.g. `n ≡ 0 (mod k + 1)` for the subtraction set `{1, …, k}`, Winning Ways ch. 4).
//!   Found by running the period detector of [`super::period`] on the 0/1 indicator of
//!   P-positions, so the same evidence rules apply;
//! * arithmetic progressions `a + d·k`, possibly after a few exceptions;
//! * the Fibonacci numbers `1, 2, 3, 5, 8, …` (Fibonacci Nim, Whinihan 1963);
//! * the powers of two `1, 2, 4, 8, …` and the numbers `2^k − 1`.
//!
//! Position 0 has no moves, so it is always a P-position of a normal-play game; for the
//! Fibonacci numbers and the powers of two it is allowed besides the pattern's members.
//! A pattern is claimed only with [`MIN_P_POSITIONS`] P-positions fitting it (and, for residue
//! classes, at least [`MIN_PERIODS`] periods).
//!
//! # Two coordinates
//!
//! [`analyse_box`] runs the period detector along every row, column and diagonal
//! `x − y = c` of a 2-D [`BoxTable`] (the rows of Wythoff's game are arithmetic-periodic:
//! Dress, Flammenkamp and Pink, *Additive periodicity of the Sprague–Grundy function of
//! certain Nim games*, Adv. Appl. Math. 22, 1999), lists the P-positions `(a_k, b_k)`,
//! `a_k ≤ b_k`, of a symmetric table, checks `b_k − a_k = k` (Wythoff 1907) and fits
//! `a_k = ⌊kα⌋`: the `α` allowed by every `k` is the intersection of the intervals
//! `[a_k / k, (a_k + 1) / k)`, computed exactly with fractions. For Wythoff's game the
//! intervals shrink onto the golden ratio `φ`, and `b_k = ⌊kφ²⌋` (Beatty's theorem, Beatty
//! 1926: `⌊kα⌋` and `⌊kβ⌋` partition the positive integers when `1/α + 1/β = 1`).
//! The diagonals `x − y = c` for small `|c|` also get the one-coordinate P-pattern, indexed by
//! `x`: Fibonacci Nim as `(n, limit)` starts from `(n, n − 1)`, and those P-positions are the
//! Fibonacci numbers.
//!
//! The 2-D report ends with the closed-form criteria of [`super::criteria`], which are also
//! what a box of any other number of coordinates is reported with.

use std::cmp::Ordering;
use std::fmt;

use serde::Serialize;
use thiserror::Error;

use super::criteria::CriteriaReport;
use super::period::{self, periods_seen};
use super::Periodicity;
use crate::engine::boxtable::BoxTable;
use crate::engine::SgTable;

/// The fewest P-positions that must fit a pattern before it is claimed.
pub const MIN_P_POSITIONS: usize = 5;

/// The fewest full periods of the P-position indicator before residue classes are claimed.
pub const MIN_PERIODS: f64 = 3.0;

/// Diagonals `x − y = c` with `|c|` up to this get their own P-position pattern.
pub const PATTERN_DIAGONALS: i64 = 3;

/// P-positions listed in full in a report (the rest are counted).
const LISTED: usize = 12;

/// A description of the P-positions that holds on the whole range checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OneDimPattern {
    /// For `n ≥ from`, `n` is a P-position iff `n mod modulus` is one of `residues`; below
    /// `from` the P-positions are exactly `exceptions`.
    ResidueClasses {
        /// The period `m` of the P-positions.
        modulus: u64,
        /// The residues `r` with `n ≡ r (mod m)` a P-position, increasing.
        residues: Vec<u64>,
        /// Where the rule starts.
        from: u64,
        /// The P-positions before `from`.
        exceptions: Vec<u64>,
    },
    /// The P-positions are `exceptions` followed by `start + difference·k` for `k ≥ 0`.
    ArithmeticProgression {
        /// The first term.
        start: u64,
        /// The common difference.
        difference: u64,
        /// The P-positions before `start`.
        exceptions: Vec<u64>,
    },
    /// The P-positions other than 0 are the Fibonacci numbers 1, 2, 3, 5, 8, …
    Fibonacci,
    /// The P-positions other than 0 are the powers of two 1, 2, 4, 8, …
    PowersOfTwo,
    /// The P-positions are the numbers `2^k − 1`: 0, 1, 3, 7, 15, …
    PowersOfTwoMinusOne,
}

/// The P-positions of a sequence `G(first), …, G(last)` and every pattern that fits them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PPositionReport {
    /// The first index checked.
    pub first: u64,
    /// The last index checked (every pattern holds on `first..=last`).
    pub last: u64,
    /// How many P-positions there are in the range.
    pub p_positions: usize,
    /// The first few of them.
    pub listed: Vec<u64>,
    /// Every pattern that fits (empty when none does).
    pub patterns: Vec<OneDimPattern>,
}

/// The P-positions of `G(0..values.len())` and every pattern that fits them.
pub fn p_position_patterns(values: &[u32]) -> PPositionReport {
    p_position_patterns_from(0, values)
}

/// [`p_position_patterns`] for a sequence whose first value is at index `first`
/// (`values[i] = G(first + i)`), e.g. a diagonal of a 2-D table indexed by its `x`.
pub fn p_position_patterns_from(first: u64, values: &[u32]) -> PPositionReport {
    let positions: Vec<u64> = (first..)
        .zip(values)
        .filter(|&(_, &v)| v == 0)
        .map(|(n, _)| n)
        .collect();
    let last = (first + values.len() as u64).saturating_sub(1);
    let mut patterns = Vec::new();
    if let Some(residues) = residue_classes(first, values, &positions) {
        patterns.push(residues);
    }
    let single_residue = matches!(
        patterns.first(),
        Some(OneDimPattern::ResidueClasses { residues, .. }) if residues.len() == 1
    );
    if !single_residue {
        patterns.extend(arithmetic_progression(&positions, last));
    }
    let sets: [(OneDimPattern, Membership, bool); 3] = [
        (OneDimPattern::Fibonacci, is_fibonacci, true),
        (OneDimPattern::PowersOfTwo, u64::is_power_of_two, true),
        (
            OneDimPattern::PowersOfTwoMinusOne,
            |n| (n + 1).is_power_of_two(),
            false,
        ),
    ];
    for (pattern, member, zero_allowed) in sets {
        if is_exactly(&positions, first, last, member, zero_allowed) {
            patterns.push(pattern);
        }
    }
    PPositionReport {
        first,
        last,
        p_positions: positions.len(),
        listed: positions.iter().copied().take(LISTED).collect(),
        patterns,
    }
}

/// Residue classes from the period of the 0/1 indicator of P-positions, if it has enough
/// evidence and at least one residue.
fn residue_classes(first: u64, values: &[u32], positions: &[u64]) -> Option<OneDimPattern> {
    let indicator: Vec<u32> = values.iter().map(|&v| u32::from(v == 0)).collect();
    let found = period::detect(&SgTable::from_values(&indicator))?;
    if found.saltus != 0 || periods_seen(&found, values.len()) < MIN_PERIODS {
        return None;
    }
    let from = first + found.preperiod as u64;
    let modulus = found.period as u64;
    let mut residues: Vec<u64> = positions
        .iter()
        .filter(|&&n| n >= from && n < from + modulus)
        .map(|n| n % modulus)
        .collect();
    residues.sort_unstable();
    let in_rule = positions.iter().filter(|&&n| n >= from).count();
    (!residues.is_empty() && in_rule >= MIN_P_POSITIONS).then(|| OneDimPattern::ResidueClasses {
        modulus,
        residues,
        from,
        exceptions: positions.iter().copied().filter(|&n| n < from).collect(),
    })
}

/// The longest run of equally spaced P-positions at the end, if it has enough terms and the
/// next term would lie beyond `last` (so none is missing).
fn arithmetic_progression(positions: &[u64], last: u64) -> Option<OneDimPattern> {
    let [.., before, end] = positions else {
        return None;
    };
    let difference = end - before;
    let gaps = positions
        .windows(2)
        .rev()
        .take_while(|w| w[1] - w[0] == difference)
        .count();
    let start_index = positions.len() - 1 - gaps;
    (gaps + 1 >= MIN_P_POSITIONS && end + difference > last).then(|| {
        OneDimPattern::ArithmeticProgression {
            start: positions[start_index],
            difference,
            exceptions: positions[..start_index].to_vec(),
        }
    })
}

/// Membership in a set of integers.
type Membership = fn(u64) -> bool;

/// True when the P-positions in `first..=last` are exactly the members of a set there (0
/// may also be a P-position when `zero_allowed`), with at least [`MIN_P_POSITIONS`] members.
fn is_exactly(
    positions: &[u64],
    first: u64,
    last: u64,
    member: Membership,
    zero_allowed: bool,
) -> bool {
    let mut members = (first..=last).filter(|&n| member(n));
    let fits = positions
        .iter()
        .filter(|&&n| !(zero_allowed && n == 0 && !member(0)))
        .all(|&n| members.next() == Some(n))
        && members.next().is_none();
    let count = (first..=last).filter(|&n| member(n)).count();
    fits && count >= MIN_P_POSITIONS
}

/// True for the Fibonacci numbers `1, 2, 3, 5, 8, …` (`F_k` for `k ≥ 2`).
fn is_fibonacci(n: u64) -> bool {
    let (mut a, mut b) = (1u64, 2u64);
    while a < n {
        (a, b) = (b, a.saturating_add(b));
    }
    a == n
}

impl OneDimPattern {
    /// Whether the pattern names `n` as a P-position (0 counts for the Fibonacci numbers and
    /// the powers of two, which allow it besides their members).
    pub fn contains(&self, n: u64) -> bool {
        match self {
            OneDimPattern::ResidueClasses {
                modulus,
                residues,
                from,
                exceptions,
            } => {
                if n >= *from {
                    residues.contains(&(n % modulus))
                } else {
                    exceptions.contains(&n)
                }
            }
            OneDimPattern::ArithmeticProgression {
                start,
                difference,
                exceptions,
            } => {
                exceptions.contains(&n) || (n >= *start && (n - start).is_multiple_of(*difference))
            }
            OneDimPattern::Fibonacci => n == 0 || is_fibonacci(n),
            OneDimPattern::PowersOfTwo => n == 0 || n.is_power_of_two(),
            OneDimPattern::PowersOfTwoMinusOne => {
                n.checked_add(1).is_some_and(u64::is_power_of_two)
            }
        }
    }

    /// The pattern in words, with `index` as the name of the position (e.g. `n`).
    pub fn describe(&self, index: &str) -> String {
        match self {
            OneDimPattern::ResidueClasses {
                modulus,
                residues,
                from,
                exceptions,
            } => {
                let residues: Vec<String> = residues.iter().map(u64::to_string).collect();
                let mut text = if *modulus == 1 {
                    format!("every {index} ≥ {from}")
                } else {
                    format!(
                        "{index} ≡ {} (mod {modulus}) for {index} ≥ {from}",
                        residues.join(" or ")
                    )
                };
                if !exceptions.is_empty() {
                    text.push_str(&format!(", and {} before", list(exceptions)));
                }
                text
            }
            OneDimPattern::ArithmeticProgression {
                start,
                difference,
                exceptions,
            } => {
                let progression = format!("{start} + {difference}k (k ≥ 0)");
                if exceptions.is_empty() {
                    progression
                } else {
                    format!("{}, then {progression}", list(exceptions))
                }
            }
            OneDimPattern::Fibonacci => "the Fibonacci numbers 1, 2, 3, 5, 8, …".to_string(),
            OneDimPattern::PowersOfTwo => "the powers of two 1, 2, 4, 8, …".to_string(),
            OneDimPattern::PowersOfTwoMinusOne => "the numbers 2^k − 1: 0, 1, 3, 7, …".to_string(),
        }
    }
}

impl fmt::Display for OneDimPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe("n"))
    }
}

/// `a, b, c` for a short list, `a, b, … (n in all)` for a long one.
fn list(items: &[u64]) -> String {
    let shown: Vec<String> = items.iter().take(LISTED).map(u64::to_string).collect();
    if items.len() > LISTED {
        format!("{}, … ({} in all)", shown.join(", "), items.len())
    } else {
        shown.join(", ")
    }
}

impl PPositionReport {
    /// The report in words, with `index` as the name of the position (e.g. `n`).
    pub fn describe(&self, index: &str) -> String {
        let range = format!("{} ≤ {index} ≤ {}", self.first, self.last);
        let count = self.p_positions;
        if count == 0 {
            return format!("no P-positions for {range}");
        }
        let mut listed = list(&self.listed);
        if count > self.listed.len() {
            listed = format!("{listed}, … ({count} in all)");
        }
        match self.patterns.as_slice() {
            [] if count < MIN_P_POSITIONS => format!(
                "only {count} P-position{} ({listed}) for {range}: too few for a pattern",
                if count == 1 { "" } else { "s" }
            ),
            [] => format!(
                "P-positions {listed}: no simple pattern (residue classes, arithmetic \
                 progression, Fibonacci numbers, powers of two) fits {range}"
            ),
            patterns => {
                let described: Vec<String> = patterns.iter().map(|p| p.describe(index)).collect();
                format!(
                    "P-positions are {} (checked for {range})",
                    described.join("; equally, ")
                )
            }
        }
    }
}

impl fmt::Display for PPositionReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe("n"))
    }
}

/// Why a table cannot be analysed by [`analyse_box`].
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PatternError {
    /// Rows, columns and diagonals need exactly two coordinates.
    #[error(
        "line patterns need exactly two coordinates, but the table has {dimension}\n  \
         help: a one-coordinate table is analysed by `period` as a sequence"
    )]
    Dimension {
        /// The table's number of coordinates.
        dimension: usize,
    },
}

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
    /// diagonal's preperiod is an `x`); `None` when the detector of [`super::period`] found no
    /// period with enough evidence, or fewer than [`MIN_PERIODS`] full periods (lines are short,
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

/// The P-positions `(a_k, b_k)` with `a_k ≤ b_k` of a symmetric 2-D table, and how they fit
/// Wythoff's and Beatty's descriptions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PPairs {
    /// The side `S` of the square `0..=S × 0..=S` the pairs were read from.
    pub side: u64,
    /// The pairs, ordered by `a_k` (then `b_k`).
    pub pairs: Vec<(u64, u64)>,
    /// The first `k` with `b_k − a_k ≠ k`, or `None` when it holds for every pair.
    pub difference_fails_at: Option<usize>,
    /// The fit `a_k = ⌊kα⌋` for every `k ≥ 1`.
    pub alpha: BeattyFit,
    /// The fit `b_k = ⌊kβ⌋` for every `k ≥ 1`.
    pub beta: BeattyFit,
}

/// The numbers `α` with `s_k = ⌊kα⌋` for every `k ≥ 1` of a sequence `s`: the intersection
/// of the intervals `[s_k / k, (s_k + 1) / k)`, kept as exact fractions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BeattyFit {
    /// `k ≥ 1` terms used.
    pub terms: usize,
    /// The interval `[low, high)` as fractions `(numerator, denominator)`, when not empty.
    pub interval: Option<((u64, u64), (u64, u64))>,
    /// The same interval in floating point.
    pub low: f64,
    /// Upper end (excluded).
    pub high: f64,
    /// The first `k` whose interval does not meet the earlier ones, when the fit fails.
    pub fails_at: Option<usize>,
    /// Whether the golden ratio `φ` (for `α`) or `φ² = φ + 1` (for `β`) lies in the interval.
    pub golden: bool,
}

/// Compares `a/b` with `c/d` (positive denominators) exactly.
fn compare_fractions((a, b): (u64, u64), (c, d): (u64, u64)) -> Ordering {
    (u128::from(a) * u128::from(d)).cmp(&(u128::from(c) * u128::from(b)))
}

/// Compares `p/q` with `φ + shift`, exactly: `φ + shift < p/q` iff `√5 < 2p/q − 1 − 2·shift`.
fn compare_with_golden((p, q): (u64, u64), shift: u64) -> Ordering {
    // 2p − q(1 + 2·shift) against q√5, both sides squared when non-negative.
    let left = 2 * i128::from(p) - i128::from(q) * (1 + 2 * i128::from(shift));
    if left < 0 {
        return Ordering::Less;
    }
    (left * left).cmp(&(5 * i128::from(q) * i128::from(q)))
}

/// Fits `sequence[k] = ⌊kα⌋` for `k ≥ 1`; `golden_shift` 0 tests `φ`, 1 tests `φ + 1 = φ²`.
pub fn beatty_fit(sequence: &[u64], golden_shift: u64) -> BeattyFit {
    let mut low = (0u64, 1u64);
    let mut high = (u64::MAX, 1u64);
    // ⌊0·α⌋ = 0 whatever α is.
    let mut fails_at = sequence.first().is_some_and(|&s| s != 0).then_some(0);
    for (k, &s) in sequence.iter().enumerate().skip(1) {
        if fails_at.is_some() {
            break;
        }
        let k = k as u64;
        let (term_low, term_high) = ((s, k), (s + 1, k));
        if compare_fractions(term_low, low) == Ordering::Greater {
            low = term_low;
        }
        if compare_fractions(term_high, high) == Ordering::Less {
            high = term_high;
        }
        if compare_fractions(low, high) != Ordering::Less {
            fails_at = Some(k as usize);
            break;
        }
    }
    let terms = sequence.len().saturating_sub(1);
    let fits = fails_at.is_none() && terms > 0;
    let as_f64 = |(n, d): (u64, u64)| n as f64 / d as f64;
    BeattyFit {
        terms,
        interval: fits.then_some((low, high)),
        low: as_f64(low),
        high: as_f64(high),
        fails_at,
        golden: fits
            && compare_with_golden(low, golden_shift) != Ordering::Greater
            && compare_with_golden(high, golden_shift) == Ordering::Greater,
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
}

/// Analyses the rows, columns, diagonals and P-positions of a 2-D table (see the module docs).
pub fn analyse_box(table: &BoxTable) -> Result<BoxPatternReport, PatternError> {
    let &[width, height] = table.extents() else {
        return Err(PatternError::Dimension {
            dimension: table.dimension(),
        });
    };
    let value = |x: u64, y: u64| table.values()[(x * (height + 1) + y) as usize];
    let rows = family(
        LineKind::Rows,
        (0..=width as i64).map(|x| {
            let x = x as u64;
            (x as i64, 0, (0..=height).map(|y| value(x, y)).collect())
        }),
    );
    let columns = family(
        LineKind::Columns,
        (0..=height as i64).map(|y| {
            let y = y as u64;
            (y as i64, 0, (0..=width).map(|x| value(x, y)).collect())
        }),
    );
    let diagonal = |c: i64| -> (i64, u64, Vec<u32>) {
        let first_x = c.max(0) as u64;
        let values = (first_x..=width)
            .map_while(|x| {
                let y = x as i64 - c;
                (y <= height as i64).then(|| value(x, y as u64))
            })
            .collect();
        (c, first_x, values)
    };
    let diagonals = family(
        LineKind::Diagonals,
        (-(height as i64)..=width as i64)
            .map(diagonal)
            .filter(|(_, _, values)| values.len() >= MIN_LINE_LENGTH),
    );
    let p_pairs = symmetric_p_pairs(table);
    let symmetric = p_pairs.is_some();
    let diagonal_p_positions = (-PATTERN_DIAGONALS..=PATTERN_DIAGONALS)
        .filter(|&c| c <= width as i64 && -c <= height as i64)
        .map(|c| {
            let (c, first, values) = diagonal(c);
            (c, p_position_patterns_from(first, &values))
        })
        .collect();
    Ok(BoxPatternReport {
        coordinates: [
            table.coordinates()[0].clone(),
            table.coordinates()[1].clone(),
        ],
        extents: [width, height],
        rows,
        columns,
        diagonals,
        symmetric,
        p_pairs,
        diagonal_p_positions,
        criteria: CriteriaReport::of(table),
    })
}

/// Detects the periodicity of each `(line, first index, values)`.
fn family(kind: LineKind, lines: impl Iterator<Item = (i64, u64, Vec<u32>)>) -> LineFamily {
    let lines = lines
        .map(|(line, first, values)| LinePeriodicity {
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

/// Whether a 2-D table is symmetric and its P-pairs fit Wythoff's description: `b_k − a_k = k`
/// and Beatty fits `a_k = ⌊kα⌋`, `b_k = ⌊kβ⌋` whose intervals contain `φ` and `φ²`.
pub fn golden_pairs(table: &BoxTable) -> bool {
    symmetric_p_pairs(table).is_some_and(|pairs| {
        pairs.difference_fails_at.is_none() && pairs.alpha.golden && pairs.beta.golden
    })
}

/// The P-pairs of a 2-D table when `G(x, y) = G(y, x)` throughout the square part of its box.
fn symmetric_p_pairs(table: &BoxTable) -> Option<PPairs> {
    let &[width, height] = table.extents() else {
        return None;
    };
    let value = |x: u64, y: u64| table.values()[(x * (height + 1) + y) as usize];
    let side = width.min(height);
    let symmetric = (0..=side).all(|x| (0..x).all(|y| value(x, y) == value(y, x)));
    symmetric.then(|| p_pairs(side, value))
}

/// The P-positions `(a, b)`, `a ≤ b ≤ side`, ordered, with the Wythoff and Beatty checks.
fn p_pairs(side: u64, value: impl Fn(u64, u64) -> u32) -> PPairs {
    let pairs: Vec<(u64, u64)> = (0..=side)
        .flat_map(|a| (a..=side).map(move |b| (a, b)))
        .filter(|&(a, b)| value(a, b) == 0)
        .collect();
    let difference_fails_at = pairs
        .iter()
        .enumerate()
        .position(|(k, &(a, b))| b - a != k as u64);
    let firsts: Vec<u64> = pairs.iter().map(|p| p.0).collect();
    let seconds: Vec<u64> = pairs.iter().map(|p| p.1).collect();
    PPairs {
        side,
        difference_fails_at,
        alpha: beatty_fit(&firsts, 0),
        beta: beatty_fit(&seconds, 1),
        pairs,
    }
}

impl LineKind {
    /// How a line of this kind is named, e.g. `x = 3` or `x − y = -1`, from its number.
    fn name(self, coordinates: &[String; 2], line: i64) -> String {
        let [x, y] = coordinates;
        match self {
            LineKind::Rows => format!("{x} = {line}"),
            LineKind::Columns => format!("{y} = {line}"),
            LineKind::Diagonals => format!("{x} − {y} = {line}"),
        }
    }

    /// The coordinate the line is indexed by.
    fn index(self, coordinates: &[String; 2]) -> &str {
        match self {
            LineKind::Rows => &coordinates[1],
            LineKind::Columns | LineKind::Diagonals => &coordinates[0],
        }
    }

    fn noun(self) -> &'static str {
        match self {
            LineKind::Rows => "row",
            LineKind::Columns => "column",
            LineKind::Diagonals => "diagonal",
        }
    }

    fn title(self) -> &'static str {
        match self {
            LineKind::Rows => "Rows",
            LineKind::Columns => "Columns",
            LineKind::Diagonals => "Diagonals",
        }
    }
}

/// Runs of consecutive lines shown in a report before the rest are only counted.
const LISTED_RUNS: usize = 12;

impl LineFamily {
    /// Writes a summary and the runs of consecutive lines with the same period and saltus.
    fn describe(&self, f: &mut fmt::Formatter<'_>, coordinates: &[String; 2]) -> fmt::Result {
        let kind = self.kind;
        let index = kind.index(coordinates);
        writeln!(f, "{} (along {index}):", kind.title())?;
        if self.lines.is_empty() {
            return writeln!(f, "  none with at least {MIN_LINE_LENGTH} values");
        }
        if let Some((from, period, saltus)) = self.uniform_tail() {
            let last = self.lines.last().map_or(from, |l| l.line);
            writeln!(
                f,
                "  every {} {} up to {}: {}",
                kind.noun(),
                kind.name(coordinates, from).replace(" = ", " ≥ "),
                last,
                periodicity_words(period, saltus)
            )?;
        }
        let runs = runs(&self.lines);
        for run in runs.iter().take(LISTED_RUNS) {
            let (first, last) = (run[0], run[run.len() - 1]);
            let mut name = kind.name(coordinates, first.line);
            if run.len() > 1 {
                name.push_str(&format!("..{}", last.line));
            }
            match first.periodicity {
                None => writeln!(f, "  {name}: no period found")?,
                Some(p) => {
                    let preperiods = run
                        .iter()
                        .filter_map(|l| l.periodicity.map(|p| p.preperiod));
                    let (low, high) =
                        preperiods.fold((usize::MAX, 0), |(lo, hi), n| (lo.min(n), hi.max(n)));
                    let from = if low == high {
                        format!("{index} ≥ {low}")
                    } else {
                        format!("{index} ≥ {low}..{high}")
                    };
                    writeln!(
                        f,
                        "  {name}: {} from {from}",
                        periodicity_words(p.period, p.saltus)
                    )?;
                }
            }
        }
        if runs.len() > LISTED_RUNS {
            writeln!(
                f,
                "  … {} more runs (see the JSON report)",
                runs.len() - LISTED_RUNS
            )?;
        }
        Ok(())
    }
}

/// Groups consecutive lines with the same period and saltus (or no period).
fn runs(lines: &[LinePeriodicity]) -> Vec<&[LinePeriodicity]> {
    let key = |l: &LinePeriodicity| l.periodicity.map(|p| (p.period, p.saltus));
    lines.chunk_by(|a, b| key(a) == key(b)).collect()
}

fn periodicity_words(period: usize, saltus: i64) -> String {
    if saltus == 0 {
        format!("period {period}")
    } else {
        format!("additively periodic, period {period}, saltus {saltus}")
    }
}

impl fmt::Display for BoxPatternReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y] = &self.coordinates;
        let [width, height] = self.extents;
        writeln!(
            f,
            "Patterns in the box 0 ≤ {x} ≤ {width}, 0 ≤ {y} ≤ {height} (a period needs {MIN_PERIODS} full \
             periods and 16 matching pairs along a line):"
        )?;
        for family in [&self.rows, &self.columns, &self.diagonals] {
            family.describe(f, &self.coordinates)?;
        }
        match &self.p_pairs {
            None => writeln!(
                f,
                "P-positions: the table is not symmetric, so no pairs (a_k, b_k) are formed"
            )?,
            Some(pairs) => pairs.describe(f, &self.coordinates)?,
        }
        writeln!(f, "P-positions along the diagonals (indexed by {x}):")?;
        for (c, report) in &self.diagonal_p_positions {
            writeln!(f, "  {x} − {y} = {c}: {}", report.describe(x))?;
        }
        write!(f, "{}", self.criteria)
    }
}

impl PPairs {
    fn describe(&self, f: &mut fmt::Formatter<'_>, coordinates: &[String; 2]) -> fmt::Result {
        let [x, y] = coordinates;
        let side = self.side;
        let shown: Vec<String> = self
            .pairs
            .iter()
            .take(LISTED)
            .map(|(a, b)| format!("({a}, {b})"))
            .collect();
        let more = if self.pairs.len() > LISTED {
            ", …"
        } else {
            ""
        };
        writeln!(
            f,
            "P-positions ({x}, {y}) = (a_k, b_k) with a_k ≤ b_k ≤ {side} (the table is \
             symmetric): {} pairs {}{more}",
            self.pairs.len(),
            shown.join(", ")
        )?;
        let terms = self.pairs.len();
        if terms < MIN_P_POSITIONS {
            return writeln!(f, "  too few pairs for a pattern");
        }
        match self.difference_fails_at {
            None => writeln!(f, "  b_k − a_k = k for every k ≤ {}", terms - 1)?,
            Some(k) => writeln!(f, "  b_k − a_k = k fails at k = {k}")?,
        }
        for (name, variable, fit, golden) in [
            ("a_k = ⌊kα⌋", "α", &self.alpha, "φ"),
            ("b_k = ⌊kβ⌋", "β", &self.beta, "φ²"),
        ] {
            match (fit.interval, fit.fails_at) {
                (Some(_), _) => writeln!(
                    f,
                    "  {name} for 1 ≤ k ≤ {}: {} ∈ [{:.6}, {:.6}), midpoint {:.6}; {golden} ≈ {:.6} {} in it",
                    fit.terms,
                    variable,
                    fit.low,
                    fit.high,
                    (fit.low + fit.high) / 2.0,
                    golden_value(golden),
                    if fit.golden { "lies" } else { "does not lie" }
                )?,
                (None, Some(k)) => writeln!(f, "  {name}: no number fits (fails at k = {k})")?,
                (None, None) => writeln!(f, "  {name}: no terms to fit")?,
            }
        }
        Ok(())
    }
}

fn golden_value(name: &str) -> f64 {
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    if name == "φ" {
        phi
    } else {
        phi + 1.0
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::engine::mex::mex_of;

    fn names() -> Vec<String> {
        vec!["x".to_string(), "y".to_string()]
    }

    /// Wythoff's game by its definition: take any number from one heap, or the same number
    /// from both (Wythoff 1907), with G by a naive mex over every move (shared with the
    /// exporters' tests).
    pub(crate) fn wythoff(side: u64) -> BoxTable {
        let n = side as usize + 1;
        let mut g = vec![vec![0u32; n]; n];
        for x in 0..n {
            for y in 0..n {
                let moves = (0..x)
                    .map(|a| g[a][y])
                    .chain((0..y).map(|b| g[x][b]))
                    .chain((1..=x.min(y)).map(|t| g[x - t][y - t]));
                g[x][y] = mex_of(moves);
            }
        }
        BoxTable::from_fn(names(), vec![side, side], |p| {
            g[p[0] as usize][p[1] as usize]
        })
    }

    /// G of the subtraction game with subtraction set `{1, …, k}`, naively.
    fn subtraction_up_to(k: usize, len: usize) -> Vec<u32> {
        let mut values = Vec::with_capacity(len);
        for n in 0..len {
            values.push(mex_of((1..=k.min(n)).map(|t| values[n - t])));
        }
        values
    }

    /// A sequence whose P-positions are exactly `members`.
    fn with_p_positions(len: u64, member: impl Fn(u64) -> bool) -> Vec<u32> {
        (0..len).map(|n| u32::from(!member(n))).collect()
    }

    #[test]
    fn subtraction_games_have_one_residue_class() {
        // Subtraction set {1, …, k}: G(n) = n mod (k + 1), P-positions n ≡ 0 (mod k + 1)
        // (Winning Ways ch. 4).
        for k in 1..=5 {
            let report = p_position_patterns(&subtraction_up_to(k, 200));
            assert_eq!(
                report.patterns,
                vec![OneDimPattern::ResidueClasses {
                    modulus: k as u64 + 1,
                    residues: vec![0],
                    from: 0,
                    exceptions: vec![],
                }],
                "k = {k}"
            );
            assert_eq!(report.last, 199);
        }
        let text = p_position_patterns(&subtraction_up_to(3, 100)).to_string();
        assert_eq!(
            text,
            "P-positions are n ≡ 0 (mod 4) for n ≥ 0 (checked for 0 ≤ n ≤ 99)"
        );
    }

    #[test]
    fn several_residues_and_exceptions() {
        // P-positions 0, 3 and then n ≡ 1 or 2 (mod 6) from n = 7; the rule already holds
        // from n = 4, since 4, 5 and 6 are neither P-positions nor ≡ 1, 2 (mod 6).
        let values = with_p_positions(120, |n| {
            n == 0 || n == 3 || (n >= 7 && (n % 6 == 1 || n % 6 == 2))
        });
        let report = p_position_patterns(&values);
        assert_eq!(
            report.patterns,
            vec![OneDimPattern::ResidueClasses {
                modulus: 6,
                residues: vec![1, 2],
                from: 4,
                exceptions: vec![0, 3],
            }]
        );
        assert_eq!(
            report.to_string(),
            "P-positions are n ≡ 1 or 2 (mod 6) for n ≥ 4, and 0, 3 before (checked for 0 ≤ n ≤ 119)"
        );
        let values = with_p_positions(120, |n| n % 5 == 0 || n % 5 == 2);
        assert_eq!(
            p_position_patterns(&values).patterns,
            vec![OneDimPattern::ResidueClasses {
                modulus: 5,
                residues: vec![0, 2],
                from: 0,
                exceptions: vec![],
            }]
        );
    }

    #[test]
    fn fibonacci_powers_of_two_and_mersenne_numbers() {
        let fib = [1, 2, 3, 5, 8, 13, 21, 34, 55, 89];
        let report = p_position_patterns(&with_p_positions(100, |n| n == 0 || fib.contains(&n)));
        assert_eq!(report.patterns, vec![OneDimPattern::Fibonacci]);
        let report = p_position_patterns(&with_p_positions(100, |n| n.is_power_of_two()));
        assert_eq!(report.patterns, vec![OneDimPattern::PowersOfTwo]);
        assert!(report.to_string().contains("powers of two"));
        let report = p_position_patterns(&with_p_positions(100, |n| (n + 1).is_power_of_two()));
        assert_eq!(report.patterns, vec![OneDimPattern::PowersOfTwoMinusOne]);
        // One Fibonacci number missing, or one extra P-position, and the pattern is gone.
        let report = p_position_patterns(&with_p_positions(100, |n| fib.contains(&n) && n != 21));
        assert!(report.patterns.is_empty());
        let report = p_position_patterns(&with_p_positions(100, |n| fib.contains(&n) || n == 50));
        assert!(report.patterns.is_empty());
    }

    #[test]
    fn arithmetic_progression_after_exceptions() {
        // The progression starts too late for residue classes (the periodic part must cover a
        // quarter of the table), but the tail is an arithmetic progression.
        let values = with_p_positions(200, |n| {
            [0, 2, 5, 9, 100, 157].contains(&n) || (n >= 160 && n % 5 == 0)
        });
        let report = p_position_patterns(&values);
        assert_eq!(
            report.patterns,
            vec![OneDimPattern::ArithmeticProgression {
                start: 160,
                difference: 5,
                exceptions: vec![0, 2, 5, 9, 100, 157],
            }]
        );
        assert!(report
            .to_string()
            .contains("0, 2, 5, 9, 100, 157, then 160 + 5k"));
    }

    #[test]
    fn no_pattern_is_said_so() {
        // Nim: G(n) = n, only 0 is a P-position.
        let nim: Vec<u32> = (0..50).collect();
        let report = p_position_patterns(&nim);
        assert!(report.patterns.is_empty());
        assert!(report.to_string().contains("too few for a pattern"));
        // Squares: 0, 1, 4, 9, … fit none of the patterns.
        let values = with_p_positions(200, |n| (n as f64).sqrt().fract() == 0.0);
        let report = p_position_patterns(&values);
        assert!(report.patterns.is_empty());
        assert!(report.to_string().contains("no simple pattern"), "{report}");
    }

    #[test]
    fn beatty_fit_is_exact() {
        // a_k = ⌊k·√2⌋: the interval contains √2 and not φ.
        let seq: Vec<u64> = (0..60)
            .map(|k| (k as f64 * 2f64.sqrt()).floor() as u64)
            .collect();
        let fit = beatty_fit(&seq, 0);
        assert!(fit.interval.is_some() && !fit.golden);
        assert!(fit.low <= 2f64.sqrt() && 2f64.sqrt() < fit.high);
        // 1, 3, 3 is no Beatty sequence: k = 2 needs α ≥ 3/2, k = 3 needs α < 4/3.
        let fit = beatty_fit(&[0, 1, 3, 3], 0);
        assert_eq!(fit.interval, None);
        assert_eq!(fit.fails_at, Some(3));
        assert_eq!(beatty_fit(&[1, 2, 3], 0).fails_at, Some(0));
        // 1, 2, 3, 5 is ⌊1.3k⌋: the interval is [5/4, 4/3).
        assert_eq!(
            beatty_fit(&[0, 1, 2, 3, 5], 0).interval,
            Some(((5, 4), (4, 3)))
        );
        // Exact comparisons with φ ≈ 1.6180339887: 21/13 < φ < 13/8, 34/21 > φ.
        assert_eq!(compare_with_golden((21, 13), 0), Ordering::Less);
        assert_eq!(compare_with_golden((13, 8), 0), Ordering::Greater);
        assert_eq!(compare_with_golden((34, 21), 0), Ordering::Greater);
        assert_eq!(compare_with_golden((55, 21), 1), Ordering::Greater);
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

        #[test]
        fn claimed_residue_classes_hold_on_the_whole_range(
            prefix in proptest::collection::vec(0u32..3, 0..20),
            cycle in proptest::collection::vec(0u32..3, 1..8),
            len in 0usize..150,
        ) {
            let values: Vec<u32> = prefix.iter().copied().chain(cycle.iter().copied().cycle()).take(len).collect();
            let report = p_position_patterns(&values);
            for pattern in &report.patterns {
                // Each claim at every n; 0 is a P-position besides the Fibonacci numbers and
                // the powers of two only when the table says so.
                let allows_zero = matches!(pattern, OneDimPattern::Fibonacci | OneDimPattern::PowersOfTwo);
                let claims = |n: u64| if n == 0 && allows_zero { values[0] == 0 } else { pattern.contains(n) };
                for (n, &v) in values.iter().enumerate() {
                    proptest::prop_assert_eq!(claims(n as u64), v == 0, "{} at n = {}", pattern, n);
                }
            }
        }
    }
}
