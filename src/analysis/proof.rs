//! Certificates of periodicity from a theorem: when finitely many checked values prove that a
//! period found in a table continues forever.
//!
//! # The theorem
//!
//! **Octal periodicity theorem** (Guy & Smith 1956; Winning Ways ch. 4; Siegel, *Combinatorial
//! Game Theory*, 2013, Thm IV.2.7). Let a take-and-break game have finitely many non-zero code
//! digits, the last one at `t`, and let its moves leave at most two heaps. If
//! `G(n + p) = G(n)` for all `n0 ≤ n < 2·n0 + p + t`, then `G(n + p) = G(n)` for all `n ≥ n0`.
//!
//! We use the same induction for codes whose moves leave at most `h` heaps (any `h ≥ 1`), with
//! the bound
//!
//! ```text
//! B = h·n0' + (h − 1)·p + t,   n0' = max(n0, 1)
//! ```
//!
//! which is the classical `2·n0 + p + t` for `h = 2` and `n0 + t` (a window of `t` values
//! repeats) for subtraction-like codes, `h = 1`. Codes whose moves only remove heaps (`h = 0`)
//! are treated as `h = 1`. Counting `n0 = 0` as 1 costs `h` more checked values and is needed:
//! for 0.4 (take one token, leave exactly two heaps), `G = 0 0 0 1 …` satisfies
//! `G(n + 1) = G(n)` for `0 ≤ n < p + t = 2` but not at `n = 2`; for 0.001, `G(n + 5) = G(n)`
//! for `n < t = 3` but not at `n = 3` (both are regression tests below).
//!
//! **Derivation.** Assume `G(m + p) = G(m)` for `n0 ≤ m < n`, where `n ≥ B`; we show it for `n`.
//! An option of heap `n + p` removes `k ≤ t` tokens and leaves `j` non-empty heaps
//! `a1 ≥ a2 ≥ … ≥ aj` with `a1 + … + aj = n + p − k`. Since `n ≥ B > t ≥ k`, no move from `n`
//! or `n + p` leaves zero heaps, so `j ≥ 1`. The largest heap satisfies
//! `a1 ≥ (n + p − t) / h ≥ n0' + p` exactly when `n ≥ B`, so shrinking it by `p` gives heaps
//! `a1 − p, a2, …, aj`: still `j` non-empty heaps (here `n0' ≥ 1` matters: a heap of exactly
//! `p` would vanish and change the heap count), removing the same `k`, hence a legal option of
//! `n`. As `n0 ≤ a1 − p < n`, the hypothesis gives `G(a1) = G(a1 − p)`, so both options have the
//! same nim-sum. Conversely an option `b1 ≥ … ≥ bj` of `n` has `b1 ≥ (n − t) / h ≥ n0`, and
//! growing `b1` by `p` gives a legal option of `n + p` of the same value. The two option sets
//! have the same values, hence the same mex: `G(n + p) = G(n)`.
//!
//! **Conditions** (otherwise the certificate is [`Certificate::NotApplicable`]):
//! * pure periodicity (saltus 0);
//! * a finite code: with a repeating tail, `k` is unbounded and an option of `n + p` may leave a
//!   heap smaller than `p`, which cannot be shrunk (Nim is arithmetic-periodic, not periodic);
//! * a bounded number of heaps `h`, since `B` grows with `h`;
//! * no `!`, `=` or `?` modifier: resizing one heap by `p` can make two heaps equal or unequal,
//!   so the image of a legal option may break the constraint (Grundy's game, `4!.0`, is the
//!   famous open case);
//! * the digit before the point must not allow leaving one heap (a move from a heap to itself).
//!
//! The relation must have been checked for every `n0 ≤ n < B`, i.e. the table must hold
//! `G(0..B + p)`; otherwise the certificate is [`Certificate::NeedValues`].

use super::Periodicity;
use crate::engine::SgTable;
use crate::rules::TakeBreakCode;

/// What a theorem says about a period found in a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Certificate {
    /// The period continues forever: `G(n + p) = G(n)` was checked for `n0 ≤ n < bound`.
    Proved {
        /// The theorem's bound `B`.
        bound: usize,
        /// The theorem used, for people.
        theorem: String,
        /// What was checked and how the bound is computed, e.g.
        /// `"G(n+34) = G(n) checked for 52 ≤ n < 2·52+34+2 = 140"`.
        checked: String,
    },
    /// The theorem applies, but the table is too short to check up to its bound.
    NeedValues {
        /// The largest `n` whose value the proof needs: compute `G(0..=up_to)`.
        up_to: usize,
        /// The theorem's bound `B` (`up_to = B + p − 1`).
        bound: usize,
    },
    /// The relation fails at `n` (`n0 ≤ n < B`): the candidate period is not a period.
    Refuted {
        /// An index with `G(n + p) ≠ G(n)`.
        at: usize,
    },
    /// No theorem covers this game or this kind of periodicity.
    NotApplicable {
        /// Why, as a phrase that can follow "not proved: ".
        why: String,
    },
}

/// The theorem's parameters for a code it covers: at most `heaps` heaps are left by a move
/// (`h`, at least 1) and the last non-zero digit is at `last_digit` (`t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theorem {
    /// `h`: the most heaps a move leaves (codes that only remove heaps count as 1).
    pub heaps: usize,
    /// `t`: the position of the last non-zero digit.
    pub last_digit: usize,
}

impl Theorem {
    /// The theorem for `code`, or why it does not apply (as a phrase that can follow
    /// "not proved: "). Only the code's conditions are checked here; the period must also be
    /// pure (see [`certify`]).
    pub fn for_code(code: &TakeBreakCode) -> Result<Theorem, String> {
        if !code.is_finite() {
            return Err(
                "no theorem applies to infinite codes (a repeating tail lets a move take any number of tokens)"
                    .into(),
            );
        }
        if code.has_modifiers() {
            return Err(
                "no theorem applies to codes with a `!`, `=` or `?` modifier (resizing one heap can break the constraint on heap sizes)"
                    .into(),
            );
        }
        if code.digit(0).heaps.allows(1) {
            return Err("the digit before the point allows a move from a heap to itself".into());
        }
        let Some(most_heaps) = code.max_heaps() else {
            return Err("no theorem applies when a move may leave unboundedly many heaps".into());
        };
        Ok(Theorem {
            heaps: (most_heaps as usize).max(1),
            // A finite code with no non-zero digit has no moves: any t works, take 0.
            last_digit: code.last_nonzero().unwrap_or(0),
        })
    }

    /// The theorem's bound `B` for preperiod `n0` and period `p` (see [`theorem_bound`]).
    pub fn bound(&self, preperiod: usize, period: usize) -> Option<usize> {
        theorem_bound(self.heaps, preperiod, period, self.last_digit)
    }

    /// How many values `G(0..B + p)` a proof of `(n0, p)` needs: the relation is checked for
    /// `n0 ≤ n < B`, which reads `G(B − 1 + p)`. `None` on overflow.
    pub fn needed_len(&self, preperiod: usize, period: usize) -> Option<usize> {
        self.bound(preperiod, period)?.checked_add(period)
    }
}

/// Checks the periodicity `periodicity` of `table` (the values of `code`) against the
/// periodicity theorem and its `h`-heap extension (see the module docs).
pub fn certify(code: &TakeBreakCode, table: &SgTable, periodicity: &Periodicity) -> Certificate {
    let not_applicable = |why: String| Certificate::NotApplicable { why };
    let Periodicity {
        preperiod: n0,
        period: p,
        saltus,
    } = *periodicity;
    if p == 0 {
        return not_applicable("a period of 0 is meaningless".into());
    }
    if saltus != 0 {
        return not_applicable(format!(
            "the periodicity theorem covers pure periodicity only, and this period has saltus {saltus}"
        ));
    }
    let theorem = match Theorem::for_code(code) {
        Ok(theorem) => theorem,
        Err(why) => return not_applicable(why),
    };
    let Theorem {
        heaps: h,
        last_digit: t,
    } = theorem;
    let (Some(bound), Some(needed_len)) = (theorem.bound(n0, p), theorem.needed_len(n0, p)) else {
        return not_applicable(format!("the theorem's bound for {h} heaps overflows"));
    };
    // Check the relation ourselves rather than trust the caller's candidate.
    let checked_to = bound.min(table.len().saturating_sub(p));
    if let Some(at) = (n0..checked_to).find(|&n| table.get(n + p) != table.get(n)) {
        return Certificate::Refuted { at };
    }
    if table.len() < needed_len {
        return Certificate::NeedValues {
            up_to: needed_len - 1,
            bound,
        };
    }
    Certificate::Proved {
        bound,
        theorem: theorem_name(h),
        checked: format!(
            "G(n+{p}) = G(n) checked for {n0} ≤ n < {} = {bound}",
            bound_formula(h, n0, p, t)
        ),
    }
}

/// `B = h·max(n0, 1) + (h − 1)·p + t`, or `None` on overflow.
pub fn theorem_bound(
    heaps: usize,
    preperiod: usize,
    period: usize,
    last_digit: usize,
) -> Option<usize> {
    heaps
        .checked_mul(preperiod.max(1))?
        .checked_add((heaps - 1).checked_mul(period)?)?
        .checked_add(last_digit)
}

fn theorem_name(heaps: usize) -> String {
    match heaps {
        1 => "the periodicity theorem for subtraction games (moves leave at most one heap)".into(),
        2 => "the octal periodicity theorem (Guy–Smith)".into(),
        h => {
            format!("the periodicity theorem (Guy–Smith) extended to moves leaving up to {h} heaps")
        }
    }
}

/// The bound as arithmetic a reader can redo: `2·52+34+2` for `h = 2`, `n0 = 52`, `p = 34`,
/// `t = 2`.
fn bound_formula(heaps: usize, preperiod: usize, period: usize, last_digit: usize) -> String {
    // n0 = 0 is counted as 1 (see the module docs).
    let n0 = preperiod.max(1);
    let first = if heaps == 1 {
        n0.to_string()
    } else {
        format!("{heaps}·{n0}")
    };
    let middle = match heaps {
        1 => String::new(),
        2 => format!("+{period}"),
        h => format!("+{}·{period}", h - 1),
    };
    format!("{first}{middle}+{last_digit}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::period::detect;
    use crate::analysis::testing::{code_from_digits, naive_table};
    use crate::rules::code::{Digit, Modifier};

    fn pure(preperiod: usize, period: usize) -> Periodicity {
        Periodicity {
            preperiod,
            period,
            saltus: 0,
        }
    }

    #[test]
    fn dawsons_kayles_bound_by_hand() {
        // 0.07: n0 = 53, p = 34 (Winning Ways ch. 4: the last exceptional value is G(52)),
        // t = 2, h = 2: B = 2·53 + 34 + 2 = 142, so the proof needs G(0..=141 + 34) = G(0..=175).
        let code = code_from_digits("07");
        // The first values (Winning Ways ch. 4, Dawson's Kayles table).
        let dawson = [
            0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1,
            0,
        ];
        assert_eq!(naive_table(&code, 30).to_vec(), dawson);
        let long = naive_table(&code, 176);
        let p = detect(&long).expect("period");
        assert_eq!(p, pure(53, 34));
        match certify(&code, &long, &p) {
            Certificate::Proved {
                bound,
                theorem,
                checked,
            } => {
                assert_eq!(bound, 142);
                assert!(theorem.contains("octal periodicity theorem"), "{theorem}");
                assert_eq!(
                    checked,
                    "G(n+34) = G(n) checked for 53 ≤ n < 2·53+34+2 = 142"
                );
            }
            other => panic!("expected a proof, got {other:?}"),
        }
        // One value fewer: the proof needs G(175).
        let short = naive_table(&code, 175);
        assert_eq!(
            certify(&code, &short, &p),
            Certificate::NeedValues {
                up_to: 175,
                bound: 142
            }
        );
    }

    #[test]
    fn subtraction_134_bound_by_hand() {
        // Subtraction {1, 3, 4}: G = 0 1 0 1 2 3 2 repeating from 0 (Winning Ways ch. 4).
        // h = 1, t = 4, n0 = 0 counted as 1: B = 1 + 4 = 5, needs G(0..=5 + 7 − 1 = 11).
        let code = TakeBreakCode::subtraction(&[1, 3, 4]);
        let table = naive_table(&code, 12);
        assert_eq!(table.to_vec(), vec![0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2]);
        match certify(&code, &table, &pure(0, 7)) {
            Certificate::Proved { bound, checked, .. } => {
                assert_eq!(bound, 5);
                assert_eq!(checked, "G(n+7) = G(n) checked for 0 ≤ n < 1+4 = 5");
            }
            other => panic!("expected a proof, got {other:?}"),
        }
        let short = naive_table(&code, 11);
        assert_eq!(
            certify(&code, &short, &pure(0, 7)),
            Certificate::NeedValues {
                up_to: 11,
                bound: 5
            }
        );
    }

    #[test]
    fn three_heap_bound_by_hand() {
        // Hex 0.F (take 1, leave up to three heaps), a hypothetical n0 = 10, p = 4, t = 1, h = 3:
        // B = 3·10 + 2·4 + 1 = 39.
        assert_eq!(theorem_bound(3, 10, 4, 1), Some(39));
        assert_eq!(bound_formula(3, 10, 4, 1), "3·10+2·4+1");
        assert_eq!(theorem_bound(2, 0, 7, 4), Some(2 + 7 + 4));
        assert_eq!(theorem_bound(usize::MAX, 2, 1, 0), None);
    }

    #[test]
    fn a_period_from_zero_needs_the_larger_bound() {
        // The classical bound with n0 = 0 is too small: a heap of exactly p would vanish when
        // shrunk. 0.4 (take one, leave exactly two heaps) has G = 0 0 0 1 …: G(n + 1) = G(n)
        // for n < p + t = 2, yet G(3) ≠ G(2). Our bound counts n0 = 0 as 1: B = 2 + 1 + 1 = 4.
        let code = code_from_digits("4");
        assert_eq!(naive_table(&code, 4).to_vec(), [0, 0, 0, 1]);
        assert_eq!(
            certify(&code, &naive_table(&code, 3), &pure(0, 1)),
            Certificate::NeedValues { up_to: 4, bound: 4 }
        );
        assert_eq!(
            certify(&code, &naive_table(&code, 5), &pure(0, 1)),
            Certificate::Refuted { at: 2 }
        );
        // The same for one heap: 0.001 (take three, only a whole heap) has G(3) = 1 after three
        // zeros, so "a window of t values repeats" must include n = t: B = 1 + 3 = 4.
        let code = code_from_digits("001");
        assert_eq!(
            certify(&code, &naive_table(&code, 4 + 5), &pure(0, 5)),
            Certificate::Refuted { at: 3 }
        );
    }

    #[test]
    fn wrong_candidate_is_refuted() {
        let code = code_from_digits("07");
        let table = naive_table(&code, 200);
        // 34 is the period only from 53 on; G(52 + 34) ≠ G(52).
        assert_eq!(
            certify(&code, &table, &pure(40, 34)),
            Certificate::Refuted { at: 52 }
        );
    }

    #[test]
    fn not_applicable_cases() {
        let table = SgTable::from_values(&(0..64).collect::<Vec<_>>());
        let nim = TakeBreakCode {
            digits: vec![Digit::default()],
            tail: vec![Digit::from_mask(3)],
        };
        let arithmetic = Periodicity {
            preperiod: 0,
            period: 1,
            saltus: 1,
        };
        assert!(
            matches!(certify(&nim, &table, &arithmetic), Certificate::NotApplicable { why } if why.contains("saltus 1"))
        );
        assert!(
            matches!(certify(&nim, &table, &pure(0, 2)), Certificate::NotApplicable { why } if why.contains("infinite"))
        );

        let mut grundy = TakeBreakCode {
            digits: vec![Digit::from_mask(4)],
            tail: vec![],
        };
        grundy.digits[0].modifier = Modifier::Unequal;
        assert!(
            matches!(certify(&grundy, &table, &pure(0, 2)), Certificate::NotApplicable { why } if why.contains("modifier"))
        );

        let mut unbounded = code_from_digits("07");
        unbounded.digits[2].heaps.at_least = Some(3);
        assert!(
            matches!(certify(&unbounded, &table, &pure(0, 2)), Certificate::NotApplicable { why } if why.contains("unboundedly"))
        );
    }

    #[test]
    fn proved_periods_hold_far_beyond_the_checked_values() {
        // Soundness: for small octal and hex codes, whenever the certificate closes on a table
        // of 300 values, the period must still hold on 900 values (naively computed).
        let mut proofs = 0;
        let mut three_heap_proofs = 0;
        let names = [
            "03", "05", "06", "07", "13", "15", "16", "17", "31", "33", "35", "37", "51", "53",
            "73", "77", "4", "F", "F0", "B", "B3", "0F", "3F",
        ];
        for name in names {
            let code = code_from_digits(name);
            let short = naive_table(&code, 300);
            let Some(p) = detect(&short) else { continue };
            if let Certificate::Proved { theorem, .. } = certify(&code, &short, &p) {
                proofs += 1;
                three_heap_proofs += usize::from(theorem.contains("3 heaps"));
                let long = naive_table(&code, 900);
                for n in p.preperiod..900 - p.period {
                    assert_eq!(
                        long.get(n + p.period),
                        long.get(n),
                        "0.{name}: n = {n}, {p:?}"
                    );
                }
            }
        }
        assert!(
            three_heap_proofs >= 3,
            "only {three_heap_proofs} proofs for three heaps closed"
        );
        assert!(proofs >= 10, "only {proofs} proofs closed");
    }
}
