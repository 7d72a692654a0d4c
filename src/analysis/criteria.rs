//! Closed-form tests "this position is a P-position", found on a computed box and usable far
//! beyond it (`solve` on contest-size positions).
//!
//! [`find_criteria`] tries a few families of criteria known from the literature and keeps every
//! one that agrees with the table on *every* position of the box (checked exhaustively, and only
//! with at least [`MIN_P_POSITIONS`] P-positions in the box). A criterion that holds on a box is
//! evidence, not a proof: the reports say "not proved beyond".
//!
//! * **XOR of a subset of the coordinates is 0.** Nim: the XOR of every heap (Bouton, *Nim, a
//!   game with a complete mathematical theory*, Ann. Math. 3, 1902); staircase Nim: the XOR of
//!   the odd steps (moves on even steps can be reversed). Every non-empty subset is tried for up
//!   to [`MAX_SUBSET_ARITY`] coordinates, the whole set beyond.
//! * **Moore's Nim_k.** For every binary digit, the number of coordinates with a 1 there is
//!   divisible by `m = k + 1` (Moore, *A generalization of the game called Nim*, Ann. Math. 11,
//!   1910). `m = 2` is the XOR of every coordinate, so only the smallest `m ≥ 3` that fits is
//!   reported, and only when the XOR criterion does not fit.
//! * **Wythoff's pairs** (two coordinates): `{x, y} = {⌊kφ⌋, ⌊kφ²⌋}` for some `k ≥ 0`
//!   (Wythoff 1907), with `⌊kφ²⌋ = ⌊kφ⌋ + k` (Beatty 1926). It is computed exactly for any
//!   `u64` coordinates: `⌊kφ⌋ = ⌊(k + √(5k²))/2⌋ = (k + isqrt(5k²)) div 2`, since `k` is an
//!   integer and `√(5k²)` is irrational for `k > 0`. Claimed only when the exact Beatty fit of
//!   [`super::patterns::beatty`] contains `φ`.
//! * **Thresholds** (two coordinates): for every `x` the P-positions `(x, y)` are exactly
//!   `y < t(x)`, with `t` one of [`Threshold`]: the smallest term of `x`'s Zeckendorf sum
//!   (Fibonacci Nim as `(n, limit)`: P iff `limit <` that term; Whinihan, *Fibonacci Nim*,
//!   Fibonacci Quarterly 1, 1963), the lowest set bit of `x` (take at most what the opponent
//!   just took), or a constant.
//! * **Residue classes** (two or more coordinates): whether a position is a P-position depends
//!   only on its coordinates modulo one `m`, `2 ≤ m ≤` [`MAX_RESIDUE_MODULUS`] (the smallest
//!   that fits is kept), e.g. the knight that moves toward a corner, whose P-positions come in
//!   2×2 blocks repeating every 4 (Winning Ways ch. 12, "Knights"). Tried only when every
//!   coordinate of the box spans at least [`RESIDUE_PERIODS`] periods, so that each class is
//!   seen several times.
//! * **A start line of its own** (two coordinates, when nothing above fits the whole box): one
//!   of the criteria above (XOR, Moore, thresholds) on every position off the line
//!   `c = 0` of one coordinate, and on that line the P-positions are exactly those whose other
//!   coordinate is below a bound read off the line (often: only the origin). A start row whose
//!   moves differ from the rest is common: Fibonacci Nim as `(n, limit)` whose first move may
//!   take the whole pile (Luogu P6487) has the row `limit = 0` as its starts, all N-positions
//!   but `(0, 0)` since taking everything wins, and Whinihan's threshold everywhere else. The
//!   whole criterion, line included, is checked on every position like the others.
//! * **One coordinate:** the patterns of [`super::patterns::oned::p_position_patterns`] (residue
//!   classes, arithmetic progressions, Fibonacci numbers, powers of two).

use std::fmt;

use serde::Serialize;

use super::patterns::beatty::golden_pairs;
use super::patterns::oned::{self, OneDimPattern, MIN_P_POSITIONS};
use crate::engine::boxtable::BoxTable;
use crate::engine::shape;

/// Every non-empty subset of the coordinates is tried as an XOR criterion up to this arity.
pub const MAX_SUBSET_ARITY: usize = 8;

/// The largest modulus tried by the residue-class family.
pub const MAX_RESIDUE_MODULUS: u64 = 12;

/// Residue classes are tried for a modulus `m` only when every coordinate takes `m·` this many
/// values in the box.
pub const RESIDUE_PERIODS: u64 = 3;

/// The function `t` of a [`PCriterion::Threshold`]; `None` means "no bound" (every `y`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Threshold {
    /// The smallest term of the Zeckendorf sum of `x` (no bound at `x = 0`).
    SmallestZeckendorfTerm,
    /// The lowest set bit of `x`, `x & −x` (no bound at `x = 0`).
    LowestSetBit,
    /// The same bound for every `x`.
    Constant(u64),
}

/// The recognised thresholds other than constants, with their names (a table, not branches).
const THRESHOLDS: [(Threshold, &str); 2] = [
    (
        Threshold::SmallestZeckendorfTerm,
        "the smallest term of {x}'s Zeckendorf sum",
    ),
    (Threshold::LowestSetBit, "the lowest set bit of {x}"),
];

impl Threshold {
    /// `t(x)`, or `None` when every `y` is below it.
    pub fn at(self, x: u64) -> Option<u64> {
        match self {
            Threshold::SmallestZeckendorfTerm => smallest_zeckendorf_term(x),
            Threshold::LowestSetBit => (x != 0).then(|| x & x.wrapping_neg()),
            Threshold::Constant(c) => Some(c),
        }
    }

    fn describe(self, x: &str) -> String {
        match self {
            Threshold::Constant(c) => c.to_string(),
            other => THRESHOLDS
                .iter()
                .find(|(t, _)| *t == other)
                .map(|(_, name)| name.replace("{x}", x))
                .expect("every non-constant threshold is in the table"),
        }
    }
}

/// The smallest term of the Zeckendorf sum of `n` (its representation as a sum of
/// non-consecutive Fibonacci numbers 1, 2, 3, 5, …; Zeckendorf 1972), `None` for 0. Greedy:
/// subtract the largest Fibonacci number that fits until nothing is left.
pub fn smallest_zeckendorf_term(mut n: u64) -> Option<u64> {
    // From the largest Fibonacci number that fits, down to the last term (n = 0 after it).
    let top = FIBONACCI.partition_point(|&f| f <= n);
    let mut smallest = None;
    for &f in FIBONACCI[..top].iter().rev() {
        if f <= n {
            n -= f;
            smallest = Some(f);
            if n == 0 {
                break;
            }
        }
    }
    smallest
}

/// The Fibonacci numbers 1, 2, 3, 5, … below 2^64 (there are 92).
const FIBONACCI: [u64; 92] = {
    let mut f = [1u64; 92];
    f[1] = 2;
    let mut i = 2;
    while i < f.len() {
        f[i] = f[i - 1] + f[i - 2];
        i += 1;
    }
    f
};

/// `⌊kφ⌋` exactly, for `k` up to `2^64/√5 ≈ 8.2·10^18` (module docs), where `5k²` still fits
/// in 128 bits; that covers every pair `(⌊kφ⌋, ⌊kφ⌋ + k)` of 64-bit coordinates (`kφ² < 2^64`).
/// [`is_wythoff_pair`] decides membership for any `u64` without this bound.
pub fn floor_k_phi(k: u64) -> u128 {
    debug_assert!(k <= 8_000_000_000_000_000_000, "5k² must fit in 128 bits");
    let k = u128::from(k);
    (k + (5 * k * k).isqrt()) / 2
}

/// Whether `a = ⌊kφ⌋`, for any `a` and `k`: `k = 0 = a`, or `j = a − k ≥ 0` with
/// `j(j + k) < k² < (j + 1)(j + 1 + k)`, since `⌊kφ⌋ = k + ⌊k/φ⌋` and `k/φ` is the positive
/// root of `t² + kt − k²` (irrational for `k > 0`). Every product is below 2^128, unlike `5k²`
/// for `k` near 2^64. The code `code` writes for Wythoff's pairs tests the same inequalities.
pub fn is_wythoff_pair(a: u64, k: u64) -> bool {
    if k == 0 {
        return a == 0;
    }
    let Some(j) = a.checked_sub(k) else {
        return false;
    };
    let (j, a, k) = (u128::from(j), u128::from(a), u128::from(k));
    j * a < k * k && k * k < (j + 1) * (a + 1)
}

/// A closed-form test "the position is a P-position".
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PCriterion {
    /// The XOR of the coordinates at these indices is 0.
    Xor {
        /// Indices of the coordinates, increasing.
        coordinates: Vec<usize>,
    },
    /// For every binary digit, the number of coordinates with a 1 there is divisible by
    /// `modulus` (Moore's Nim_k with `k = modulus − 1`).
    Moore {
        /// `m ≥ 3`.
        modulus: u32,
    },
    /// `{x, y} = {⌊kφ⌋, ⌊kφ²⌋}` for some `k ≥ 0`.
    Wythoff,
    /// `position[limit] < t(position[value])`.
    Threshold {
        /// The coordinate `t` is applied to.
        value: usize,
        /// The coordinate compared with the bound.
        limit: usize,
        /// The bound.
        threshold: Threshold,
    },
    /// The coordinates modulo `modulus` are one of `residues`.
    Residues {
        /// `m ≥ 2`.
        modulus: u64,
        /// The residue tuples of the P-positions, in increasing order.
        residues: Vec<Vec<u64>>,
    },
    /// Two coordinates: on the line `position[coordinate] = at`, P exactly when the other
    /// coordinate is below `below`; off it, `rest`.
    Line {
        /// The coordinate fixed on the line.
        coordinate: usize,
        /// Its value on the line.
        at: u64,
        /// On the line, the P-positions are those whose other coordinate is below this.
        below: u64,
        /// The criterion off the line.
        rest: Box<PCriterion>,
    },
    /// One coordinate: a P-position pattern.
    OneDim {
        /// The pattern.
        pattern: OneDimPattern,
    },
}

impl PCriterion {
    /// Whether the criterion calls `position` a P-position.
    pub fn is_p(&self, position: &[u64]) -> bool {
        match self {
            PCriterion::Xor { coordinates } => {
                coordinates.iter().fold(0, |a, &i| a ^ position[i]) == 0
            }
            PCriterion::Moore { modulus } => (0..64).all(|bit| {
                let ones = position.iter().filter(|&&c| c >> bit & 1 == 1).count();
                (ones as u32).is_multiple_of(*modulus)
            }),
            PCriterion::Wythoff => {
                let (a, b) = (position[0].min(position[1]), position[0].max(position[1]));
                is_wythoff_pair(a, b - a)
            }
            PCriterion::Threshold {
                value,
                limit,
                threshold,
            } => threshold
                .at(position[*value])
                .is_none_or(|t| position[*limit] < t),
            PCriterion::Residues { modulus, residues } => {
                let reduced: Vec<u64> = position.iter().map(|c| c % modulus).collect();
                residues.binary_search(&reduced).is_ok()
            }
            PCriterion::Line {
                coordinate,
                at,
                below,
                rest,
            } => {
                if position[*coordinate] == *at {
                    position[1 - coordinate] < *below
                } else {
                    rest.is_p(position)
                }
            }
            PCriterion::OneDim { pattern } => pattern.contains(position[0]),
        }
    }

    /// The criterion in words, with the coordinates' names.
    pub fn describe(&self, names: &[String]) -> String {
        match self {
            PCriterion::Xor { coordinates } if coordinates.len() == 1 => {
                format!("{} = 0", names[coordinates[0]])
            }
            PCriterion::Xor { coordinates } => {
                let terms: Vec<&str> = coordinates.iter().map(|&i| names[i].as_str()).collect();
                format!("the XOR {} is 0", terms.join(" ⊕ "))
            }
            PCriterion::Moore { modulus } => format!(
                "for every binary digit, the number of {} with a 1 there is divisible by \
                 {modulus} (Moore's Nim_{})",
                names.join(", "),
                modulus - 1
            ),
            PCriterion::Wythoff => format!(
                "{{{}, {}}} = {{⌊kφ⌋, ⌊kφ²⌋}} for some k ≥ 0 (Wythoff's pairs)",
                names[0], names[1]
            ),
            PCriterion::Threshold {
                value,
                limit,
                threshold,
            } => {
                let (x, y) = (&names[*value], &names[*limit]);
                let mut text = format!("{y} < {}", threshold.describe(x));
                if threshold.at(0).is_none() {
                    text.push_str(&format!(" (every {y} when {x} = 0)"));
                }
                text
            }
            PCriterion::Residues { modulus, residues } => {
                let tuple = |r: &Vec<u64>| {
                    let parts: Vec<String> = r.iter().map(u64::to_string).collect();
                    format!("({})", parts.join(", "))
                };
                let listed: Vec<String> = residues.iter().map(tuple).collect();
                format!(
                    "({}) mod {modulus} is one of {}",
                    names.join(", "),
                    listed.join(", ")
                )
            }
            PCriterion::Line {
                coordinate,
                at,
                below,
                rest,
            } => {
                let (c, other) = (&names[*coordinate], &names[1 - coordinate]);
                let on_line = match below {
                    0 => "none".to_string(),
                    1 => format!("only {other} = 0"),
                    b => format!("exactly {other} < {b}"),
                };
                format!(
                    "{} when {c} ≠ {at}; when {c} = {at}, {on_line}",
                    rest.describe(names)
                )
            }
            PCriterion::OneDim { pattern } => match pattern {
                OneDimPattern::ResidueClasses { .. } => pattern.describe(&names[0]),
                _ => format!("{} is one of {}", names[0], pattern.describe(&names[0])),
            },
        }
    }
}

/// Every criterion of the families in the module docs that agrees with `table` on every
/// position of its box; empty when the box has fewer than [`MIN_P_POSITIONS`] P-positions.
pub fn find_criteria(table: &BoxTable) -> Vec<PCriterion> {
    let p_positions = table.values().iter().filter(|&&v| v == 0).count();
    if p_positions < MIN_P_POSITIONS {
        return Vec::new();
    }
    let arity = table.dimension();
    let holds = |c: &PCriterion| holds_on_box(table, c);
    let mut found: Vec<PCriterion> = xor_subsets(arity)
        .map(|coordinates| PCriterion::Xor { coordinates })
        .filter(holds)
        .collect();
    let nim = PCriterion::Xor {
        coordinates: (0..arity).collect(),
    };
    if arity >= 2 && !found.contains(&nim) {
        found.extend(
            (3..=arity as u32 + 1)
                .map(|modulus| PCriterion::Moore { modulus })
                .find(holds),
        );
    }
    if arity == 2 {
        if golden_pairs(table) && holds(&PCriterion::Wythoff) {
            found.push(PCriterion::Wythoff);
        }
        found.extend(threshold_candidates(table).into_iter().filter(holds));
    }
    if arity >= 2 && found.is_empty() {
        found.extend(residue_classes(table));
    }
    if arity == 2 && found.is_empty() {
        found.extend(start_lines(table));
    }
    if arity == 1 {
        let report = oned::p_position_patterns(table.values());
        found.extend(
            report
                .patterns
                .into_iter()
                .map(|pattern| PCriterion::OneDim { pattern })
                .filter(holds),
        );
    }
    found
}

/// The residue-class criterion with the smallest modulus that fits `table` (module docs).
fn residue_classes(table: &BoxTable) -> Option<PCriterion> {
    let extents = table.extents();
    let smallest_side = extents.iter().map(|&e| e + 1).min()?;
    (2..=MAX_RESIDUE_MODULUS)
        .take_while(|&m| m * RESIDUE_PERIODS <= smallest_side)
        .find_map(|modulus| {
            // The P/N status of each residue tuple, which every position must agree with.
            let mut status: std::collections::BTreeMap<Vec<u64>, bool> = Default::default();
            let mut position = vec![0u64; extents.len()];
            for &value in table.values() {
                let reduced: Vec<u64> = position.iter().map(|c| c % modulus).collect();
                if *status.entry(reduced).or_insert(value == 0) != (value == 0) {
                    return None;
                }
                shape::step(extents, &mut position);
            }
            let residues = status
                .into_iter()
                .filter_map(|(r, is_p)| is_p.then_some(r))
                .collect();
            Some(PCriterion::Residues { modulus, residues })
        })
}

/// The criteria with a start line of their own (module docs) that hold on `table`: for each
/// coordinate, the line where it is 0, its bound read off the line (the first N-position on
/// it; a line of P-positions only is no exception to read), and every XOR, Moore and
/// threshold candidate off it; each is checked on every position.
fn start_lines(table: &BoxTable) -> Vec<PCriterion> {
    let mut found = Vec::new();
    for coordinate in 0..2 {
        let other = 1 - coordinate;
        let below = (0..=table.extents()[other]).position(|v| {
            let mut p = [0u64; 2];
            p[other] = v;
            table.get(&p) != Some(0)
        });
        let Some(below) = below else { continue };
        let rests = xor_subsets(2)
            .map(|coordinates| PCriterion::Xor { coordinates })
            .chain(std::iter::once(PCriterion::Moore { modulus: 3 }))
            .chain(threshold_candidates(table));
        found.extend(
            rests
                .map(|rest| PCriterion::Line {
                    coordinate,
                    at: 0,
                    below: below as u64,
                    rest: Box::new(rest),
                })
                .filter(|c| holds_on_box(table, c)),
        );
    }
    found
}

/// The subsets tried by the XOR family, as increasing index lists.
fn xor_subsets(arity: usize) -> Box<dyn Iterator<Item = Vec<usize>>> {
    if arity > MAX_SUBSET_ARITY {
        return Box::new(std::iter::once((0..arity).collect()));
    }
    Box::new(
        (1u32..1 << arity).map(move |mask| (0..arity).filter(|&i| mask >> i & 1 == 1).collect()),
    )
}

/// The threshold criteria worth checking on a 2-D table, in both orientations: the table's
/// recognisers, and the constant read off the line `x = 0`.
fn threshold_candidates(table: &BoxTable) -> Vec<PCriterion> {
    let mut candidates = Vec::new();
    for (value, limit) in [(0, 1), (1, 0)] {
        let mut first_line = (0..=table.extents()[limit]).map(|y| {
            let mut p = [0u64; 2];
            p[limit] = y;
            table.get(&p) == Some(0)
        });
        let constant = first_line.position(|is_p| !is_p).map(|c| c as u64);
        let thresholds = THRESHOLDS
            .iter()
            .map(|&(t, _)| t)
            .chain(constant.map(Threshold::Constant));
        candidates.extend(thresholds.map(|threshold| PCriterion::Threshold {
            value,
            limit,
            threshold,
        }));
    }
    candidates
}

/// True when `criterion` calls exactly the P-positions of `table` P (every position checked).
pub fn holds_on_box(table: &BoxTable, criterion: &PCriterion) -> bool {
    let extents = table.extents();
    let mut position = vec![0u64; extents.len()];
    for &value in table.values() {
        if criterion.is_p(&position) != (value == 0) {
            return false;
        }
        shape::step(extents, &mut position);
    }
    true
}

/// The criteria of a box, with what they were checked on: the `patterns` report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CriteriaReport {
    /// The coordinates' names.
    pub coordinates: Vec<String>,
    /// The largest value of each coordinate in the box.
    pub extents: Vec<u64>,
    /// Positions in the box.
    pub positions: usize,
    /// P-positions in the box.
    pub p_positions: usize,
    /// Every criterion that holds on the whole box (empty when none does).
    pub criteria: Vec<PCriterion>,
}

impl CriteriaReport {
    /// The criteria of `table`.
    pub fn of(table: &BoxTable) -> Self {
        CriteriaReport {
            coordinates: table.coordinates().to_vec(),
            extents: table.extents().to_vec(),
            positions: table.size(),
            p_positions: table.values().iter().filter(|&&v| v == 0).count(),
            criteria: find_criteria(table),
        }
    }

    /// `0 ≤ x ≤ 10, 0 ≤ y ≤ 20`.
    pub fn box_text(&self) -> String {
        self.coordinates
            .iter()
            .zip(&self.extents)
            .map(|(name, e)| format!("0 ≤ {name} ≤ {e}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for CriteriaReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counted = format!(
            "{} positions, {} P-positions",
            self.positions, self.p_positions
        );
        let range = self.box_text();
        if self.criteria.is_empty() {
            let why = if self.p_positions < MIN_P_POSITIONS {
                "too few P-positions for a criterion".to_string()
            } else {
                "none of the criteria (XOR of coordinates, Moore's Nim_k, Wythoff's pairs, \
                 thresholds, residue classes, one-coordinate patterns) fits"
                    .to_string()
            };
            return writeln!(f, "P-position criteria on {range} ({counted}): {why}");
        }
        for criterion in &self.criteria {
            writeln!(
                f,
                "P-positions: {} on every position of {range} ({counted}; not proved beyond)",
                criterion.describe(&self.coordinates)
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::patterns::beatty::tests::wythoff;
    use crate::engine::mex::mex_of;
    use crate::engine::BoxShape;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// Moore's Nim_k on `heaps` coordinates up to `side`, by a naive mex over every move (take
    /// from 1..=k heaps, any positive amounts).
    fn nim_k(k: usize, heaps: usize, side: u64) -> BoxTable {
        let coordinates: Vec<String> = (1..=heaps).map(|i| format!("h{i}")).collect();
        let extents = vec![side; heaps];
        let mut values: Vec<u32> = Vec::new();
        let layout = BoxShape::new(&extents);
        for p in layout.positions() {
            // Every position below p, coordinate-wise, with 1..=k coordinates changed.
            let below = BoxShape::new(&p);
            let options = below.positions().filter_map(|q| {
                let changed = q.iter().zip(&p).filter(|(a, b)| a != b).count();
                (1..=k)
                    .contains(&changed)
                    .then(|| values[layout.index(&q).unwrap()])
            });
            let v = mex_of(options);
            values.push(v);
        }
        BoxTable::new(coordinates, extents, values)
    }

    #[test]
    fn moores_nim_k_is_found_with_m_equal_to_k_plus_one() {
        // Moore 1910: P iff every binary digit's count of ones is divisible by k + 1.
        let table = nim_k(1, 3, 7);
        assert_eq!(
            find_criteria(&table),
            vec![PCriterion::Xor {
                coordinates: vec![0, 1, 2]
            }]
        );
        for k in 2..=3 {
            let table = nim_k(k, 4, 5);
            assert_eq!(
                find_criteria(&table),
                vec![PCriterion::Moore {
                    modulus: k as u32 + 1
                }],
                "k = {k}"
            );
        }
        let text = PCriterion::Moore { modulus: 3 }.describe(&names(&["a", "b", "c", "d"]));
        assert!(text.contains("divisible by 3 (Moore's Nim_2)"), "{text}");
    }

    #[test]
    fn staircase_nim_is_the_xor_of_the_odd_steps() {
        // Staircase Nim: P iff the Nim sum of the odd steps is 0 (by definition here, checked
        // against the engine in tests/multi.rs).
        let table = BoxTable::from_fn(names(&["s1", "s2", "s3", "s4"]), vec![5; 4], |p| {
            (p[0] ^ p[2]) as u32
        });
        let found = find_criteria(&table);
        assert_eq!(
            found,
            vec![PCriterion::Xor {
                coordinates: vec![0, 2]
            }]
        );
        assert_eq!(
            found[0].describe(table.coordinates()),
            "the XOR s1 ⊕ s3 is 0"
        );
    }

    #[test]
    fn wythoff_is_recognised_and_exact_far_beyond_the_box() {
        let table = wythoff(80);
        let found = find_criteria(&table);
        assert_eq!(found, vec![PCriterion::Wythoff]);
        // The pairs by their definition (Wythoff 1907): a_k is the smallest number not yet
        // used, b_k = a_k + k; this generates them greedily, independently of φ.
        let mut used = std::collections::BTreeSet::new();
        let mut a = 0u64;
        for k in 0..2000u64 {
            while used.contains(&a) {
                a += 1;
            }
            used.insert(a);
            used.insert(a + k);
            assert_eq!(floor_k_phi(k), u128::from(a), "k = {k}");
            assert!(PCriterion::Wythoff.is_p(&[a, a + k]) && PCriterion::Wythoff.is_p(&[a + k, a]));
            assert!(!PCriterion::Wythoff.is_p(&[a + 1, a + k]));
        }
    }

    #[test]
    fn wythoff_pairs_are_decided_for_every_u64() {
        let mut seed = 0x2252u64;
        for i in 0..5000u64 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let k = if i < 100 { i } else { seed >> (2 + seed % 60) };
            let a = floor_k_phi(k) as u64;
            assert!(is_wythoff_pair(a, k), "k = {k}");
            assert!(!is_wythoff_pair(a + 1, k) && !is_wythoff_pair(a.wrapping_sub(1), k));
        }
        // Past 2^64/√5, where 5k² overflows 128 bits: no pair, and no overflow either.
        for k in [u64::MAX, u64::MAX - 1, 9_000_000_000_000_000_000] {
            for a in [0, 1, k, u64::MAX] {
                assert!(!is_wythoff_pair(a, k), "({a}, {k})");
            }
            assert!(
                !PCriterion::Wythoff.is_p(&[0, k])
                    && !PCriterion::Wythoff.is_p(&[u64::MAX, u64::MAX - k])
            );
        }
    }

    /// `⌊k·φ⌋` with φ to 60 decimal digits in u128 fixed point with 10^30 scale, for
    /// k < 10^8 (so k·φ·10^30 < 2^128), compared with the isqrt formula at big k too.
    #[test]
    fn floor_k_phi_agrees_with_a_fixed_point_golden_ratio() {
        // φ = 1.618033988749894848204586834365638117720309179805762862135…
        const PHI_E30: u128 = 1_618_033_988_749_894_848_204_586_834_365;
        const SCALE: u128 = 1_000_000_000_000_000_000_000_000_000_000;
        for k in [1u64, 7, 12_345, 99_999_989, 31_415_926, 2_718_281] {
            assert_eq!(floor_k_phi(k), u128::from(k) * PHI_E30 / SCALE, "k = {k}");
        }
        // For large k, ⌊kφ⌋ is the a with a² + ak − k² < 0 < (a+1)² + (a+1)k − k² when
        // k ≥ 1 (the roots of a² + ak − k² are k(−1 ± √5)/2, and kφ − k = k(√5 − 1)/2).
        for k in [
            10u64.pow(9),
            1_618_033_988,
            10u64.pow(15),
            10u64.pow(18),
            u64::MAX / 3,
        ] {
            let a = floor_k_phi(k) - u128::from(k);
            let k = u128::from(k);
            let f = |a: u128| (a * a + a * k) as i128 - (k * k) as i128;
            assert!(f(a) < 0 && f(a + 1) > 0, "k = {k}");
        }
    }

    #[test]
    fn zeckendorf_terms_agree_with_the_recursive_rule() {
        // z(n) = n when n is a Fibonacci number, else z(n − the largest Fibonacci number below
        // n) (Zeckendorf's greedy sum), with the Fibonacci numbers listed here by addition.
        let mut fib = vec![1u64, 2];
        while let Some(next) = fib[fib.len() - 1].checked_add(fib[fib.len() - 2]) {
            fib.push(next);
        }
        fn z(n: u64, fib: &[u64]) -> u64 {
            let largest = *fib.iter().rev().find(|&&f| f <= n).unwrap();
            if largest == n {
                n
            } else {
                z(n - largest, fib)
            }
        }
        let mut seed = 12345u64;
        let random = (0..2000).map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed >> (seed % 64)
        });
        for n in (1..3000u64).chain(random).chain(fib.iter().copied()) {
            if n > 0 {
                assert_eq!(smallest_zeckendorf_term(n), Some(z(n, &fib)), "n = {n}");
            }
        }
    }

    #[test]
    fn zeckendorf_terms() {
        // 100 = 89 + 8 + 3, 10^15's smallest term is 3 (computed greedily by hand).
        assert_eq!(smallest_zeckendorf_term(100), Some(3));
        assert_eq!(smallest_zeckendorf_term(0), None);
        assert_eq!(smallest_zeckendorf_term(89), Some(89));
        assert_eq!(
            smallest_zeckendorf_term(u64::MAX).map(|t| t > 0),
            Some(true)
        );
    }

    /// Fibonacci Nim as (n, limit): take 1..=min(limit, n), the next limit is min(2t, n − t).
    fn fibonacci_nim(side: u64) -> BoxTable {
        let s = side as usize;
        let mut g = vec![vec![0u32; s + 1]; s + 1];
        for n in 0..=s {
            for limit in 0..=s {
                g[n][limit] = mex_of((1..=limit.min(n)).map(|t| g[n - t][(2 * t).min(n - t)]));
            }
        }
        BoxTable::from_fn(names(&["n", "limit"]), vec![side, side], |p| {
            g[p[0] as usize][p[1] as usize]
        })
    }

    #[test]
    fn fibonacci_nim_is_the_zeckendorf_threshold() {
        let table = fibonacci_nim(60);
        let found = find_criteria(&table);
        let zeckendorf = PCriterion::Threshold {
            value: 0,
            limit: 1,
            threshold: Threshold::SmallestZeckendorfTerm,
        };
        assert_eq!(found, vec![zeckendorf.clone()]);
        assert_eq!(
            zeckendorf.describe(table.coordinates()),
            "limit < the smallest term of n's Zeckendorf sum (every limit when n = 0)"
        );
    }

    /// Fibonacci Nim whose start `(n, 0)` may take any number up to the whole pile (Luogu
    /// P6487): the start row is N but at `(0, 0)`, Whinihan's threshold elsewhere.
    fn fibonacci_nim_whole(side: u64) -> BoxTable {
        let s = side as usize;
        let mut g = vec![vec![0u32; s + 1]; s + 1];
        for n in 0..=s {
            for limit in 0..=s {
                let most = if limit == 0 { n } else { limit.min(n) };
                g[n][limit] = mex_of((1..=most).map(|t| g[n - t][(2 * t).min(n - t)]));
            }
        }
        BoxTable::from_fn(names(&["n", "limit"]), vec![side, side], |p| {
            g[p[0] as usize][p[1] as usize]
        })
    }

    #[test]
    fn a_start_row_of_its_own_is_an_explicit_exception() {
        let table = fibonacci_nim_whole(60);
        let zeckendorf = PCriterion::Threshold {
            value: 0,
            limit: 1,
            threshold: Threshold::SmallestZeckendorfTerm,
        };
        // The threshold alone fails on the start row: (n, 0) is N for n ≥ 1.
        assert!(!holds_on_box(&table, &zeckendorf));
        let found = find_criteria(&table);
        let line = PCriterion::Line {
            coordinate: 1,
            at: 0,
            below: 1,
            rest: Box::new(zeckendorf),
        };
        assert_eq!(found, vec![line.clone()]);
        assert_eq!(
            line.describe(table.coordinates()),
            "limit < the smallest term of n's Zeckendorf sum (every limit when n = 0) when \
             limit ≠ 0; when limit = 0, only n = 0"
        );
        // Far beyond the box: the start row is N, the rest follows Zeckendorf.
        assert!(line.is_p(&[0, 0]) && !line.is_p(&[1_304_969_544_928_657, 0]));
        assert!(line.is_p(&[1_304_969_544_928_657, 1_304_969_544_928_656]));
        assert!(!line.is_p(&[1_000_000_000_000_000, 3]) && line.is_p(&[1_000_000_000_000_000, 2]));
        // One more P-position off the line: no criterion, with or without the exception.
        let spoiled = BoxTable::from_fn(names(&["n", "limit"]), vec![60, 60], |p| {
            if p == [40, 30] {
                0
            } else {
                table.get(p).unwrap()
            }
        });
        assert!(find_criteria(&spoiled).is_empty());
        // A second P-position on the line that is not an initial segment: none either.
        let spoiled = BoxTable::from_fn(names(&["n", "limit"]), vec![60, 60], |p| {
            if p == [7, 0] {
                0
            } else {
                table.get(p).unwrap()
            }
        });
        assert!(find_criteria(&spoiled).is_empty());
    }

    #[test]
    fn lowest_bit_and_constant_thresholds() {
        // "Take at most what the opponent just took" as (n, limit): P iff limit < lowbit(n).
        let s = 40usize;
        let mut g = vec![vec![0u32; s + 1]; s + 1];
        for n in 0..=s {
            for limit in 0..=s {
                g[n][limit] = mex_of((1..=limit.min(n)).map(|t| g[n - t][t.min(n - t)]));
            }
        }
        let table = BoxTable::from_fn(names(&["n", "limit"]), vec![40, 40], |p| {
            g[p[0] as usize][p[1] as usize]
        });
        assert_eq!(
            find_criteria(&table),
            vec![PCriterion::Threshold {
                value: 0,
                limit: 1,
                threshold: Threshold::LowestSetBit
            }]
        );
        // P iff x < 3, transposed: the value coordinate is the second.
        let table = BoxTable::from_fn(names(&["x", "y"]), vec![10, 10], |p| u32::from(p[0] >= 3));
        assert_eq!(
            find_criteria(&table),
            vec![PCriterion::Threshold {
                value: 1,
                limit: 0,
                threshold: Threshold::Constant(3)
            }]
        );
    }

    #[test]
    fn knight_like_tables_have_residue_classes() {
        // G(x, y) = ((x / 2) + (y / 2)) mod 2 has P-positions in 2×2 blocks repeating every 4.
        let table = BoxTable::from_fn(names(&["x", "y"]), vec![20, 20], |p| {
            ((p[0] / 2 + p[1] / 2) % 2) as u32
        });
        let found = find_criteria(&table);
        assert_eq!(found.len(), 1, "{found:?}");
        let PCriterion::Residues { modulus, residues } = &found[0] else {
            panic!("{found:?}")
        };
        assert_eq!(*modulus, 4);
        assert_eq!(residues.len(), 8, "(x/2 + y/2) even: 8 of the 16 classes");
        assert!(found[0].is_p(&[4_000_000_000_001, 1]) && !found[0].is_p(&[2, 1]));
        // A box too small for three periods of 4 in each coordinate claims nothing.
        let small = BoxTable::from_fn(names(&["x", "y"]), vec![10, 20], |p| {
            ((p[0] / 2 + p[1] / 2) % 2) as u32
        });
        assert!(find_criteria(&small).is_empty());
        // One position off the pattern: no criterion.
        let table = BoxTable::from_fn(names(&["x", "y"]), vec![20, 20], |p| {
            u32::from(p == [17, 1]) + ((p[0] / 2 + p[1] / 2) % 2) as u32
        });
        assert!(find_criteria(&table).is_empty());
        let report = CriteriaReport::of(&table);
        assert!(
            report.to_string().contains("none of the criteria"),
            "{report}"
        );
        // Too few P-positions: only (0, 0).
        let table = BoxTable::from_fn(names(&["x", "y"]), vec![20, 20], |p| (p[0] + p[1]) as u32);
        assert!(CriteriaReport::of(&table)
            .to_string()
            .contains("too few P-positions"));
    }

    #[test]
    fn one_coordinate_reuses_the_sequence_patterns() {
        // Subtraction {1, 2, 3}: P iff n ≡ 0 (mod 4) (Winning Ways ch. 4).
        let table = BoxTable::from_fn(names(&["n"]), vec![99], |p| (p[0] % 4) as u32);
        let found = find_criteria(&table);
        assert_eq!(found.len(), 1);
        assert!(found[0].is_p(&[4_000_000_000_000]) && !found[0].is_p(&[4_000_000_000_001]));
        assert_eq!(
            found[0].describe(table.coordinates()),
            "n ≡ 0 (mod 4) for n ≥ 0"
        );
    }

    proptest::proptest! {
        #[test]
        fn a_criterion_found_holds_on_every_position(
            extents in proptest::collection::vec(0u64..6, 1..4),
            mask in 1usize..8,
            noise in 0u64..1000,
            exact in proptest::bool::ANY,
        ) {
            // P iff the XOR of a subset is 0, with some positions flipped unless `exact`.
            let arity = extents.len();
            let subset: Vec<usize> = (0..arity).filter(|&i| mask >> i & 1 == 1).collect();
            let subset = if subset.is_empty() { vec![0] } else { subset };
            let xor = PCriterion::Xor { coordinates: subset };
            let table = BoxTable::from_fn(
                (0..arity).map(|i| format!("c{i}")).collect(),
                extents,
                |p| {
                    let h = p.iter().fold(noise, |a, &c| a.wrapping_mul(31).wrapping_add(c));
                    let flipped = !exact && h % 7 == 0;
                    u32::from(xor.is_p(p) == flipped)
                },
            );
            let found = find_criteria(&table);
            for criterion in &found {
                for (p, v) in table.iter() {
                    proptest::prop_assert_eq!(criterion.is_p(&p), v == 0, "{:?} at {:?}", criterion, p);
                }
            }
            let p_positions = table.values().iter().filter(|&&v| v == 0).count();
            if exact && p_positions >= MIN_P_POSITIONS {
                proptest::prop_assert!(found.contains(&xor), "{:?} not in {:?}", xor, found);
            }
        }
    }
}
