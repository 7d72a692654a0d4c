//! The P-positions of a sequence against simple descriptions.
//!
//! [`p_position_patterns`] tests the P-positions `{n : G(n) = 0}` of a finite table against
//! simple descriptions, each of which must hold on the *whole* range computed:
//!
//! * residue classes: from some `n0` on, `n` is a P-position iff `n mod m ∈ R` (subtraction
//!   games, e.g. `n ≡ 0 (mod k + 1)` for the subtraction set `{1, …, k}`, Winning Ways ch. 4).
//!   Found by running the period detector of [`crate::analysis::period`] on the 0/1 indicator
//!   of P-positions, so the same evidence rules apply;
//! * arithmetic progressions `a + d·k`, possibly after a few exceptions;
//! * the Fibonacci numbers `1, 2, 3, 5, 8, …` (Fibonacci Nim, Whinihan 1963);
//! * the powers of two `1, 2, 4, 8, …` and the numbers `2^k − 1`.
//!
//! Position 0 has no moves, so it is always a P-position of a normal-play game; for the
//! Fibonacci numbers and the powers of two it is allowed besides the pattern's members.
//! A pattern is claimed only with [`MIN_P_POSITIONS`] P-positions fitting it (and, for residue
//! classes, at least [`MIN_PERIODS`] periods).

use serde::Serialize;

use crate::analysis::period::{self, periods_seen};
use crate::engine::SgTable;

/// The fewest P-positions that must fit a pattern before it is claimed.
pub const MIN_P_POSITIONS: usize = 5;

/// The fewest full periods of the P-position indicator before residue classes are claimed.
pub const MIN_PERIODS: f64 = 3.0;

/// P-positions listed in full in a report (the rest are counted).
pub(super) const LISTED: usize = 12;

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
                from, exceptions, ..
            } if n < *from => exceptions.contains(&n),
            OneDimPattern::ResidueClasses {
                modulus, residues, ..
            } => residues.contains(&(n % modulus)),
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::mex::mex_of;

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

    proptest::proptest! {
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
