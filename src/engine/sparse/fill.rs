//! The periodic fill: once the table proves its own period by the periodicity theorem
//! ([`crate::theory::periodicity`]), the rest of the table is that period repeated.

use crate::engine::SgTable;
use crate::theory::periodicity::Theorem;

/// If the periodicity theorem proves a period from `table` (see [`proven_period`]), extends
/// `table` to `len` values by it and returns the period.
pub(super) fn fill_proven_period(
    table: &mut SgTable,
    len: usize,
    theorem: &Theorem,
) -> Option<usize> {
    let (_, period) = proven_period(table, theorem)?;
    fill_by_period(table, len, period);
    Some(period)
}

/// Extends `table` to `len` values by `period`, a period proved from a prefix of it (the
/// proof holds for every `n ≥ n0`, and the table is longer than `n0 + period`).
pub(super) fn fill_by_period(table: &mut SgTable, len: usize, period: usize) {
    table.reserve(len.saturating_sub(table.len()));
    for n in table.len()..len {
        table.push(table.get(n - period));
    }
}

/// A preperiod `n0` and period `p` that `theorem` proves from `table`: `G(n + p) = G(n)` for
/// `n0 ≤ n < B`, with the bound `B` of [`Theorem::bound`], so that the table holds the
/// [`Theorem::needed_len`] values `G(0..B + p)`. Tries `p = 1, 2, …` while a proof from
/// `n0 = 0` could fit; each try compares from the end of the table down to its first mismatch,
/// and the search gives up after about `8·len` comparisons.
fn proven_period(table: &SgTable, theorem: &Theorem) -> Option<(usize, usize)> {
    let len = table.len();
    let fits = |n0, p| {
        theorem
            .needed_len(n0, p)
            .is_some_and(|needed| needed <= len)
    };
    let mut budget = 8 * len + 1024;
    // `needed_len(n0, p)` grows with `n0` and `p`: no larger period fits once `(0, p)` does not.
    for period in (1..).take_while(|&p| fits(0, p)) {
        // The last `n` with `G(n) ≠ G(n + p)`, plus one.
        let mut preperiod = 0;
        for n in (0..len - period).rev() {
            budget = budget.checked_sub(1)?;
            if table.get(n) != table.get(n + period) {
                preperiod = n + 1;
                break;
            }
        }
        if fits(preperiod, period) {
            return Some((preperiod, period));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::{extend_with, Policy, SparseState};
    use super::*;
    use crate::engine::{takebreak, Progress};

    fn theorem(text: &str) -> Theorem {
        Theorem::for_code(&code(text)).unwrap()
    }

    #[test]
    fn the_theorem_proves_a_period_exactly_at_its_bound() {
        // Dawson's Kayles (t = 2): period 34 from 53 needs 2·53 + 2·34 + 2 = 176 values.
        let dawson = theorem("0.07");
        let values = dense_values(&code("0.07"), 176);
        assert_eq!(
            proven_period(&SgTable::from_values(&values), &dawson),
            Some((53, 34))
        );
        let short = SgTable::from_values(&values[..175]);
        assert_eq!(proven_period(&short, &dawson), None);
        // Kayles: period 12 from 71 (Guy & Smith 1956), 2·71 + 2·12 + 2 = 168 values.
        let kayles = theorem("0.77");
        let values = dense_values(&code("0.77"), 168);
        assert_eq!(
            proven_period(&SgTable::from_values(&values), &kayles),
            Some((71, 12))
        );
        assert_eq!(
            proven_period(&SgTable::from_values(&values[..167]), &kayles),
            None
        );
        // An empty or tiny table proves nothing.
        let no_digits = Theorem {
            heaps: 2,
            last_digit: 0,
        };
        assert_eq!(proven_period(&SgTable::new(), &no_digits), None);
        assert_eq!(proven_period(&SgTable::from_values(&[0]), &no_digits), None);
    }

    #[test]
    fn a_period_from_0_needs_the_bound_that_counts_n0_as_1() {
        // 0.4 (take one token, leave exactly two heaps): G = 0 0 0 1 …. G(0..3) = 0 0 0 has
        // G(n + 1) = G(n) for n < 2 = 2·n0 + p + t with n0 = 0 (the classical bound) and holds
        // the 2·n0 + 2·p + t = 3 values that bound reads: a fill by it would give G(3) = 0.
        // The theorem counts n0 = 0 as 1: B = 2·1 + 1 + 1 = 4, so period 1 from 0 needs 5
        // values, and G(3) refutes it.
        let code = code("0.4");
        let values = dense_values(&code, 8);
        assert_eq!(values[..4], [0, 0, 0, 1]);
        let theorem = theorem("0.4");
        assert_eq!(theorem.needed_len(0, 1), Some(5));
        let mut table = SgTable::from_values(&values[..3]);
        assert_eq!(proven_period(&table, &theorem), None);
        assert!(fill_proven_period(&mut table, 8, &theorem).is_none());
        assert_eq!(table.to_vec(), values[..3]);
        // Through the kernel, which tries the theorem when the table reaches 4 values.
        let policy = Policy::new(false, true);
        let call = extend_with(
            &code,
            &mut table,
            8,
            &mut Progress::hidden(),
            policy,
            &mut SparseState::default(),
        );
        assert!(call.0);
        assert_eq!(table.to_vec(), values);
    }

    /// A run in chunks (a checkpointed `table`) tries the theorem only when a chunk starts or
    /// passes a power of two; once it proved the period, every later chunk is filled by it
    /// (Dawson's Kayles to 10^6 with a checkpoint took 110 s when the chunks after the proof
    /// went back to the dense kernel).
    #[test]
    fn a_proven_period_is_kept_for_the_next_chunks() {
        let code = code("0.07");
        let values = dense_values(&code, 20_000);
        let mut table = SgTable::from_values(&values[..4096]);
        let mut state = SparseState::default();
        let policy = Policy::new(true, true);
        for len in [5_000, 7_001, 12_345, 20_000] {
            let call = extend_with(
                &code,
                &mut table,
                len,
                &mut Progress::hidden(),
                policy,
                &mut state,
            );
            assert!(call.0, "{len}");
            assert_eq!(state.proven, Some((code.clone(), 34)), "{len}");
        }
        assert_eq!(table.to_vec(), values);
        // Another code's period is not used.
        let kayles = super::super::testing::code("0.77");
        let mut other = SgTable::from_values(&dense_values(&kayles, 5_000));
        extend_with(
            &kayles,
            &mut other,
            6_000,
            &mut Progress::hidden(),
            policy,
            &mut state,
        );
        assert_eq!(other.to_vec(), dense_values(&kayles, 6_000));
    }

    #[test]
    fn periodic_games_are_filled_by_their_proven_period() {
        // Through the wiring, from empty tables and in steps; values as the dense kernel's.
        for text in ["0.07", "0.77", "0.137", "4.07", "0.0"] {
            let code = code(text);
            let mut table = SgTable::new();
            for len in [50, 5_000, 30_000] {
                takebreak::extend(&code, &mut table, len, &mut Progress::hidden());
            }
            assert_eq!(table.to_vec(), dense_values(&code, 30_000), "{text}");
        }
    }

    #[test]
    fn no_period_fill_for_modified_codes() {
        // 4!.0 and 0.4! have no proved period; a `!` or `=` code must never be filled by
        // one, even when its values repeat: 0.3= is 0.3 (no split of two heaps allowed),
        // but the kernel still refuses the theorem and computes every value.
        let code = code("0.34=");
        let mut table = SgTable::new();
        assert!(
            extend_with(
                &code,
                &mut table,
                5_000,
                &mut Progress::hidden(),
                Policy::new(true, true),
                &mut SparseState::default(),
            )
            .0
        );
        assert_eq!(table.to_vec(), dense_values(&code, 5_000));
    }
}
