//! Finding preperiod, period and saltus in a finite table `G(0..=N)`.
//!
//! A sequence is *ultimately periodic* with preperiod `n0`, period `p` and saltus `s` when
//! `G(n + p) = G(n) + s` for every `n ≥ n0`; `s = 0` is ordinary periodicity, `s ≠ 0`
//! arithmetic periodicity (Winning Ways ch. 4; Siegel, *Combinatorial Game Theory*, 2013,
//! §IV.2). A finite table can only suggest such a pattern; [`super::proof`] turns a suggestion
//! into a theorem where one applies.
//!
//! # Method
//!
//! For each candidate `p = 1, 2, …, (N + 1) / 2`, scan `n = N − p, N − p − 1, …` backwards and
//! stop at the first `n` with `G(n + p) − G(n) ≠ s`: the next index is the smallest preperiod
//! for that `p`. Pure periods are tried first (every `p` with `s = 0`); only if none is accepted
//! are arithmetic periods tried, with `s = G(N) − G(N − p)` read off the last pair.
//!
//! # Acceptance
//!
//! A candidate is accepted only with evidence that is unlikely to be chance (see
//! [`MIN_CHECKED_PAIRS`]): at least two full periods after the preperiod (`N + 1 − n0 ≥ 2p`),
//! and at least [`MIN_CHECKED_PAIRS`] pairs `(n, n + p)` checked.
//!
//! # Cost
//!
//! The scan for one `p` costs one comparison per matching pair plus one for the mismatch. A
//! rejected `p` matched fewer than `max(p, MIN_CHECKED_PAIRS)` pairs, and the first accepted
//! `p` ends the search. For a periodic table (period 34, `N = 10^6`) the smaller `p` fail
//! within a few comparisons each, so detection is `O(N)` at most (the accepted scan) and takes
//! milliseconds. For a table with no period, typical SG sequences mismatch within a handful of
//! pairs, so the `(N + 1) / 2` candidates cost `O(N)` in practice; the adversarial worst case
//! (a sequence for which nearly every `p` matches about `p` pairs from the end) is `O(N²)`.

use super::Periodicity;
use crate::engine::table::{with_values, Values};
use crate::engine::SgTable;

/// The fewest pairs `(n, n + p)` with `n ≥ n0` that must agree before a period is accepted.
///
/// Two full periods alone are too little for small `p`: "period 1" would be accepted whenever
/// the last two values happen to be equal. SG values of the games studied here take few
/// distinct values (often 2–8), so each chance agreement has probability around 1/2 or more
/// for two-valued stretches; 16 agreements by chance then have probability about `2^-16` per
/// candidate, while every real period in a table of a few hundred values or more clears the bar
/// easily. (A proved period needs no such evidence: the search in [`super::find_period`] may
/// prove one in a shorter table, see [`earliest_provable`].)
pub const MIN_CHECKED_PAIRS: usize = 16;

/// The periodicity of `table` (smallest pure period first, else smallest arithmetic period with
/// a positive saltus), or `None` when no candidate has enough evidence (see the module docs).
pub fn detect(table: &SgTable) -> Option<Periodicity> {
    detect_with(table, Evidence::default())
}

/// What is known of the game before looking at its table, which limits what
/// [`detect_with`] may accept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Evidence {
    /// A theorem rules out a saltus ([`crate::theory::periodicity::no_saltus`]): only pure
    /// periods are candidates.
    pub pure_only: bool,
    /// Pairs `(n, n + p)` count as evidence only from `n = from` on: the game's scale
    /// ([`crate::rules::Game::scale`]). Below it some moves do not exist yet, so the table shows
    /// a truncated game — `subtraction 1..=k` has `G(n) = n` up to `k`, "period 1, saltus 1"
    /// on any table shorter than `k` — and agreement there says nothing about larger heaps.
    /// The margin past the scale is that of [`has_enough_evidence`], counted from `from`: two
    /// full periods, [`MIN_CHECKED_PAIRS`] pairs, and a quarter of the table.
    pub from: usize,
}

/// [`detect`] under what is known of the game (see [`Evidence`]).
pub fn detect_with(table: &SgTable, evidence: Evidence) -> Option<Periodicity> {
    with_values!(table.storage(), |values| detect_in(values, evidence))
}

/// Full periods seen after the preperiod in a table of `len` values: `(len − n0) / p`.
pub fn periods_seen(periodicity: &Periodicity, len: usize) -> f64 {
    len.saturating_sub(periodicity.preperiod) as f64 / periodicity.period.max(1) as f64
}

/// True when a candidate with preperiod `preperiod` and period `period` in a table of `len`
/// values has enough evidence: two full periods, [`MIN_CHECKED_PAIRS`] checked pairs, and a
/// periodic part covering at least a quarter of the table.
///
/// The last condition matters because up to `len / 2` periods are tried: with hundreds of
/// thousands of candidates, some short period agrees with the last few dozen values by chance
/// (0.16 searched to n = 700000 reported "period 3 from n = 699979" instead of its real
/// period 149459), and being the smallest it would win over the real period. It never delays a
/// proof: the periodicity theorem needs values up to about `2·n0 + 2p`, where the periodic part
/// is already half the table, and the search schedules its sizes with [`earliest_provable`],
/// which needs no evidence.
pub fn has_enough_evidence(preperiod: usize, period: usize, len: usize) -> bool {
    let after = len.saturating_sub(preperiod);
    after >= 2 * period && after - period >= MIN_CHECKED_PAIRS && 4 * after >= len
}

fn detect_in<V: Values + ?Sized>(values: &V, evidence: Evidence) -> Option<Periodicity> {
    let len = values.len();
    let max_period = len / 2;
    let pure = (1..=max_period).find_map(|p| accepted(values, p, 0, evidence.from));
    if evidence.pure_only {
        return pure;
    }
    pure.or_else(|| {
        (1..=max_period).find_map(|p| {
            let last = len - 1;
            let saltus = values.at(last) as i64 - values.at(last - p) as i64;
            // A negative saltus cannot continue forever (values would become negative), and
            // zero was covered by the pure search.
            if saltus > 0 {
                accepted(values, p, saltus, evidence.from)
            } else {
                None
            }
        })
    })
}

/// The pure candidate `(n0, p)` whose proof could close soonest, with the table length it
/// needs: among all `p` with at least one matching pair `G(n + p) = G(n)` after their smallest
/// preperiod `n0`, the one with the smallest `needed_len(n0, p)` (the smallest `p` on ties);
/// `None` when no `p` matches a pair or every length overflows.
///
/// This is no evidence of a period (a single chance pair qualifies); it says how far a search
/// must compute before a proof of any period it could still find is possible. `needed_len`
/// must grow with both arguments, as the theorem's `h·max(n0, 1) + h·p + t` does.
///
/// Two facts keep the scan `O(len)` on typical tables: `needed_len(0, p)` bounds every
/// candidate with period `p` or more from below, so the scan stops once it reaches the best
/// length found; and a multiple `k·p ≤ m + p` of a period `p` matching `m` pairs has a preperiod
/// at least `n0(p)` (if `G(n0 − 1 + k·p) = G(n0 − 1)`, then, both `n0 − 1 + k·p` and
/// `n0 − 1 + p` lying in the `p`-periodic tail, `G(n0 − 1 + p) = G(n0 − 1)`, against the
/// choice of `n0`), hence needs more values and is skipped: the long scans of a real period's
/// multiples are never made.
pub fn earliest_provable(
    table: &SgTable,
    needed_len: impl Fn(usize, usize) -> Option<usize>,
) -> Option<(Periodicity, usize)> {
    with_values!(table.storage(), |values| earliest_provable_in(
        values,
        &needed_len
    ))
}

fn earliest_provable_in<V: Values + ?Sized>(
    values: &V,
    needed_len: &impl Fn(usize, usize) -> Option<usize>,
) -> Option<(Periodicity, usize)> {
    let len = values.len();
    let mut best: Option<(Periodicity, usize)> = None;
    // Bit `p` set: `p` is a multiple of a smaller period that needs fewer values.
    let mut dominated = vec![0u64; len / 64 + 1];
    for period in 1..len {
        let lower_bound = needed_len(0, period);
        if best.is_some_and(|(_, best_len)| lower_bound.is_none_or(|l| l >= best_len)) {
            break;
        }
        if dominated[period / 64] & (1 << (period % 64)) != 0 {
            continue;
        }
        let preperiod = smallest_preperiod(values, period, 0);
        let matched = len - period - preperiod;
        if matched == 0 {
            continue;
        }
        for multiple in (2 * period..=(matched + period).min(len - 1)).step_by(period) {
            dominated[multiple / 64] |= 1 << (multiple % 64);
        }
        let Some(needed) = needed_len(preperiod, period) else {
            continue;
        };
        if best.is_none_or(|(_, best_len)| needed < best_len) {
            let candidate = Periodicity {
                preperiod,
                period,
                saltus: 0,
            };
            best = Some((candidate, needed));
        }
    }
    best
}

/// The candidate `(n0, p, s)` with the smallest `n0` for `p` and `s`, if it has enough evidence.
fn accepted<V: Values + ?Sized>(
    values: &V,
    period: usize,
    saltus: i64,
    evidence_from: usize,
) -> Option<Periodicity> {
    let preperiod = smallest_preperiod(values, period, saltus);
    has_enough_evidence(preperiod.max(evidence_from), period, values.len()).then_some(Periodicity {
        preperiod,
        period,
        saltus,
    })
}

/// The smallest `n0` such that `G(n + p) = G(n) + s` for all `n0 ≤ n` with `n + p < len`,
/// scanning back from the end and stopping at the first mismatch.
fn smallest_preperiod<V: Values + ?Sized>(values: &V, period: usize, saltus: i64) -> usize {
    let heads = values.len() - period;
    let matching = (0..heads)
        .rev()
        .take_while(|&n| values.at(n + period) as i64 - values.at(n) as i64 == saltus)
        .count();
    heads - matching
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A well-mixed hash of `n` (SplitMix64's finaliser), for sequences with no structure.
    /// (A plain multiplicative hash will not do: `n·φ mod 1` has near-periods at Fibonacci
    /// numbers, which the detector rightly finds.)
    fn scrambled(n: u32) -> u32 {
        let mut z = (n as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) as u32
    }

    /// `prefix` followed by `cycle` repeated `repeats` times, with `saltus` added per cycle.
    fn sequence(prefix: &[u32], cycle: &[u32], saltus: u32, repeats: usize) -> SgTable {
        let mut values = prefix.to_vec();
        for r in 0..repeats as u32 {
            values.extend(cycle.iter().map(|&v| v + r * saltus));
        }
        SgTable::from_values(&values)
    }

    #[test]
    fn pure_period_with_preperiod() {
        // Preperiod 3: the prefix [5, 5, 4] does not continue the cycle.
        let table = sequence(&[5, 5, 4], &[0, 1, 2, 0, 3], 0, 10);
        assert_eq!(
            detect(&table),
            Some(Periodicity {
                preperiod: 3,
                period: 5,
                saltus: 0
            })
        );
    }

    #[test]
    fn preperiod_is_the_smallest_one() {
        // The prefix ends with the cycle's last value, so the periodic part starts one earlier.
        let table = sequence(&[7, 3], &[0, 1, 2, 3], 0, 10);
        assert_eq!(
            detect(&table),
            Some(Periodicity {
                preperiod: 1,
                period: 4,
                saltus: 0
            })
        );
    }

    #[test]
    fn subtraction_134_values() {
        // Subtraction game {1, 3, 4}: G = 0 1 0 1 2 3 2 repeating from n = 0 (Winning Ways ch. 4).
        let table = sequence(&[], &[0, 1, 0, 1, 2, 3, 2], 0, 20);
        assert_eq!(
            detect(&table),
            Some(Periodicity {
                preperiod: 0,
                period: 7,
                saltus: 0
            })
        );
    }

    #[test]
    fn smallest_period_not_a_multiple() {
        // Period 3 repeats, so 6, 9, … also fit; the smallest must be reported.
        let table = sequence(&[], &[1, 0, 2], 0, 40);
        assert_eq!(detect(&table).map(|p| p.period), Some(3));
        // A cycle that is itself two copies of a smaller one.
        let table = sequence(&[9], &[1, 2, 1, 2], 0, 20);
        assert_eq!(
            detect(&table),
            Some(Periodicity {
                preperiod: 1,
                period: 2,
                saltus: 0
            })
        );
    }

    #[test]
    fn arithmetic_period() {
        // Nim: G(n) = n, period 1 with saltus 1.
        let nim: Vec<u32> = (0..100).collect();
        assert_eq!(
            detect(&SgTable::from_values(&nim)),
            Some(Periodicity {
                preperiod: 0,
                period: 1,
                saltus: 1
            })
        );
        // 0 1 2 | 2 3 4 | 4 5 6 …: saltus 2 per period 3, after a preperiod of 2.
        let table = sequence(&[4, 4], &[0, 1, 2], 2, 12);
        assert_eq!(
            detect(&table),
            Some(Periodicity {
                preperiod: 2,
                period: 3,
                saltus: 2
            })
        );
    }

    #[test]
    fn pure_period_preferred_to_arithmetic() {
        // Constant: both (p = 1, s = 0) and nothing else; must be pure.
        let table = SgTable::from_values(&[3; 40]);
        assert_eq!(
            detect(&table),
            Some(Periodicity {
                preperiod: 0,
                period: 1,
                saltus: 0
            })
        );
    }

    #[test]
    fn no_period_in_a_non_repeating_sequence() {
        // Pseudo-random values in 0..4: no period, no saltus.
        let values: Vec<u32> = (0..400u32).map(|n| scrambled(n) >> 30).collect();
        assert_eq!(detect(&SgTable::from_values(&values)), None);
        // Distinct pseudo-random values never repeat.
        let values: Vec<u32> = (0..300u32).map(|n| scrambled(n) >> 8).collect();
        assert_eq!(detect(&SgTable::from_values(&values)), None);
        assert_eq!(detect(&SgTable::new()), None);
        assert_eq!(detect(&SgTable::from_values(&[1])), None);
    }

    #[test]
    fn two_full_periods_are_required() {
        // A cycle of 20 after a prefix: 2 full periods plus one value is accepted …
        let cycle: Vec<u32> = (0..20).map(|v| v % 7 + (v / 7) * 3).collect();
        let mut values = vec![50, 51, 52];
        values.extend(cycle.iter().chain(&cycle));
        values.push(cycle[0]);
        assert_eq!(
            detect(&SgTable::from_values(&values)).map(|p| (p.preperiod, p.period)),
            Some((3, 20))
        );
        // … while one value short of two full periods is not.
        values.truncate(values.len() - 2);
        assert_eq!(detect(&SgTable::from_values(&values)), None);
    }

    #[test]
    fn minimum_checked_pairs_is_required() {
        // Period 2 after a non-periodic prefix: exactly MIN_CHECKED_PAIRS pairs is accepted …
        let prefix: Vec<u32> = (10..40).collect();
        let tail_len = 2 + MIN_CHECKED_PAIRS;
        let mut values = prefix.clone();
        values.extend((0..tail_len as u32).map(|i| i % 2));
        assert_eq!(
            detect(&SgTable::from_values(&values)),
            Some(Periodicity {
                preperiod: prefix.len(),
                period: 2,
                saltus: 0
            })
        );
        // … one fewer is not, although it has many more than two full periods.
        values.pop();
        assert!(!has_enough_evidence(prefix.len(), 2, values.len()));
        assert_eq!(detect(&SgTable::from_values(&values)), None);
    }

    #[test]
    fn wide_storage_is_read() {
        let table = sequence(&[1], &[300, 70_000, 5], 0, 10);
        assert_eq!(table.value_bits(), 32);
        assert_eq!(
            detect(&table),
            Some(Periodicity {
                preperiod: 1,
                period: 3,
                saltus: 0
            })
        );
    }

    #[test]
    fn periods_seen_counts_full_periods() {
        let p = Periodicity {
            preperiod: 52,
            period: 34,
            saltus: 0,
        };
        assert_eq!(periods_seen(&p, 52 + 34 * 27 + 17), 27.5);
    }

    #[test]
    fn large_tables_are_fast() {
        // Not a timing assertion: a quadratic scan would make this test take minutes.
        // The cycle is pseudo-random: a cycle with inner structure (say `v·7 mod 11`) would
        // rightly show a smaller local period over its last copy.
        let cycle: Vec<u32> = (0..34u32).map(|v| scrambled(v) >> 29).collect();
        let mut prefix = vec![0; 52];
        prefix[51] = cycle[33] + 1;
        let table = sequence(&prefix, &cycle, 0, 1_000_000 / 34);
        assert_eq!(
            detect(&table).map(|p| (p.preperiod, p.period)),
            Some((52, 34))
        );
        let values: Vec<u32> = (0..1_000_000u32).map(|n| scrambled(n) >> 28).collect();
        assert_eq!(detect(&SgTable::from_values(&values)), None);
    }

    /// The definition, computed the slow way: for each `p` (pure first, then arithmetic with
    /// the saltus of the last pair), the smallest `n0` from which every pair agrees.
    fn detect_by_definition(values: &[u32]) -> Option<Periodicity> {
        let len = values.len();
        let fits = |p: usize, s: i64, n0: usize| {
            (n0..len - p).all(|n| values[n + p] as i64 - values[n] as i64 == s)
        };
        let try_period = |p: usize, s: i64| {
            let n0 = (0..=len - p)
                .find(|&n0| fits(p, s, n0))
                .expect("n0 = len - p has no pairs");
            has_enough_evidence(n0, p, len).then_some(Periodicity {
                preperiod: n0,
                period: p,
                saltus: s,
            })
        };
        (1..=len / 2).find_map(|p| try_period(p, 0)).or_else(|| {
            (1..=len / 2).find_map(|p| {
                let s = values[len - 1] as i64 - values[len - 1 - p] as i64;
                if s > 0 {
                    try_period(p, s)
                } else {
                    None
                }
            })
        })
    }

    /// [`earliest_provable`] the slow way: every `p` with a matching pair, its preperiod by
    /// the definition, the smallest length (then the smallest `p`).
    fn earliest_by_definition(
        values: &[u32],
        needed_len: impl Fn(usize, usize) -> Option<usize>,
    ) -> Option<(Periodicity, usize)> {
        let len = values.len();
        (1..len)
            .filter_map(|p| {
                let n0 =
                    (0..len - p).find(|&n0| (n0..len - p).all(|n| values[n + p] == values[n]))?;
                let candidate = Periodicity {
                    preperiod: n0,
                    period: p,
                    saltus: 0,
                };
                Some((candidate, needed_len(n0, p)?))
            })
            .min_by_key(|&(candidate, needed)| (needed, candidate.period))
    }

    /// The octal theorem's length `2·max(n0, 1) + 2p + t` with `t = 2`, or a steeper one.
    fn needed_len(heaps: usize) -> impl Fn(usize, usize) -> Option<usize> {
        move |n0, p| Some(heaps * n0.max(1) + heaps * p + 2)
    }

    #[test]
    fn earliest_provable_by_hand() {
        // 5 5 4 | 0 1 2 0 3 | 0 1 2 0 3 | 0 1: period 5 from n0 = 3 with 7 pairs; the proof
        // needs 2·3 + 2·5 + 2 = 18 values. Period 10 matches from 3 too but needs more.
        let table = sequence(&[5, 5, 4], &[0, 1, 2, 0, 3], 0, 3);
        let table = table.prefix(15);
        let expected = Periodicity {
            preperiod: 3,
            period: 5,
            saltus: 0,
        };
        assert_eq!(
            earliest_provable(&table, needed_len(2)),
            Some((expected, 18))
        );
        // No repeated pair at all: nothing to schedule.
        assert_eq!(
            earliest_provable(&SgTable::from_values(&[0, 1, 2, 3]), needed_len(2)),
            None
        );
    }

    /// A prefix of up to 40 values below 4, then a cycle of up to `cycle_len - 1` values
    /// below `cycle_values` repeated with a saltus of at most `max_saltus`, cut at any length
    /// below `max_len`: periodic tails of every kind, including too short to be accepted.
    fn eventually_periodic(
        cycle_values: u32,
        cycle_len: usize,
        max_saltus: u32,
        max_len: usize,
    ) -> impl proptest::strategy::Strategy<Value = SgTable> {
        use proptest::collection::vec;
        use proptest::strategy::Strategy;
        (
            vec(0u32..4, 0..40),
            vec(0..cycle_values, 1..cycle_len),
            0..=max_saltus,
            0..max_len,
        )
            // `len` repeats are at least `len` values, since a cycle is not empty.
            .prop_map(|(prefix, cycle, saltus, len)| {
                sequence(&prefix, &cycle, saltus, len).prefix(len)
            })
    }

    proptest::proptest! {
        #[test]
        fn earliest_provable_agrees_with_the_definition(
            table in eventually_periodic(3, 20, 0, 120),
            heaps in 1usize..4,
        ) {
            proptest::prop_assert_eq!(
                earliest_provable(&table, needed_len(heaps)),
                earliest_by_definition(&table.to_vec(), needed_len(heaps))
            );
        }

        #[test]
        fn detect_agrees_with_the_definition(table in eventually_periodic(4, 30, 1, 140)) {
            proptest::prop_assert_eq!(detect(&table), detect_by_definition(&table.to_vec()));
        }
    }
}
