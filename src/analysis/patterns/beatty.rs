//! The P-positions `(a_k, b_k)`, `a_k ≤ b_k`, of a symmetric 2-D table, ordered, and how
//! they fit Wythoff's and Beatty's descriptions: `b_k − a_k = k` (Wythoff 1907), and
//! `a_k = ⌊kα⌋`, where the `α` allowed by every `k` is the intersection of the intervals
//! `[a_k / k, (a_k + 1) / k)`, computed exactly with fractions. For Wythoff's game the
//! intervals shrink onto the golden ratio `φ`, and `b_k = ⌊kφ²⌋` (Beatty's theorem, Beatty
//! 1926: `⌊kα⌋` and `⌊kβ⌋` partition the positive integers when `1/α + 1/β = 1`).

use std::cmp::Ordering;

use serde::Serialize;

use super::lines::Grid;
use crate::engine::boxtable::BoxTable;

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

/// Whether a 2-D table is symmetric and its P-pairs fit Wythoff's description: `b_k − a_k = k`
/// and Beatty fits `a_k = ⌊kα⌋`, `b_k = ⌊kβ⌋` whose intervals contain `φ` and `φ²`.
pub fn golden_pairs(table: &BoxTable) -> bool {
    Grid::new(table)
        .and_then(symmetric_p_pairs)
        .is_some_and(|pairs| {
            pairs.difference_fails_at.is_none() && pairs.alpha.golden && pairs.beta.golden
        })
}

/// The P-pairs of a 2-D table when `G(x, y) = G(y, x)` throughout the square part of its box.
pub(super) fn symmetric_p_pairs(grid: Grid) -> Option<PPairs> {
    let value = |x: u64, y: u64| grid.value(x, y);
    let side = grid.width.min(grid.height);
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::engine::mex::mex_of;

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
        BoxTable::from_fn(
            vec!["x".to_string(), "y".to_string()],
            vec![side, side],
            |p| g[p[0] as usize][p[1] as usize],
        )
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
}
