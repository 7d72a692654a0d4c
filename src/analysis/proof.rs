//! Certificates of periodicity from a theorem: when finitely many checked values prove that a
//! period found in a table continues forever.
//!
//! The theorem, its bound `B = h·max(n0, 1) + (h − 1)·p + t` and the codes it covers are
//! stated once, in [`crate::theory::periodicity`] (the sparse kernel's periodic fill uses the
//! same statement). [`certify`] checks a candidate period of a table against it: the candidate
//! must be a pure period (saltus 0) of a code the theorem covers, and the relation
//! `G(n + p) = G(n)` must hold for every `n0 ≤ n < B`, i.e. the table must hold `G(0..B + p)`;
//! otherwise the certificate is [`Certificate::NeedValues`], [`Certificate::Refuted`] or
//! [`Certificate::NotApplicable`].
//!
//! A certificate is typed data; its fields' `Display` write the text of the period report
//! (`"proved by {theorem}: {checked}"`, `"not proved: {why}"`).

use std::fmt;

use super::Periodicity;
use crate::engine::SgTable;
use crate::rules::TakeBreakCode;
pub use crate::theory::periodicity::{theorem_bound, NotCovered, Theorem};

/// What a theorem says about a period found in a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Certificate {
    /// The period continues forever: `G(n + p) = G(n)` was checked for `n0 ≤ n < bound`.
    Proved {
        /// The theorem's bound `B`.
        bound: usize,
        /// The theorem used (`Display`: its name, for people).
        theorem: Theorem,
        /// What was checked (`Display`: how, and how the bound is computed, e.g.
        /// `"G(n+34) = G(n) checked for 53 ≤ n < 2·53+34+2 = 142"`).
        checked: Checked,
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
        /// Why (`Display`: a phrase that can follow "not proved: ").
        why: NotApplicable,
    },
}

/// The values a proof checked: `G(n + period) = G(n)` for `from ≤ n < to`, `to` being the
/// bound of `theorem` for preperiod `from` and `period`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The theorem whose bound `to` is.
    pub theorem: Theorem,
    /// The period `p`.
    pub period: usize,
    /// The preperiod `n0`: the first `n` checked.
    pub from: usize,
    /// The bound `B`: the first `n` not checked.
    pub to: usize,
}

impl fmt::Display for Checked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Checked {
            theorem,
            period: p,
            from: n0,
            to: bound,
        } = *self;
        write!(
            f,
            "G(n+{p}) = G(n) checked for {n0} ≤ n < {} = {bound}",
            theorem.formula(n0, p)
        )
    }
}

/// Why no theorem proves a candidate period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotApplicable {
    /// The theorem does not cover the code.
    Code(NotCovered),
    /// The candidate's period is 0.
    ZeroPeriod,
    /// The candidate is arithmetic-periodic with this saltus, not purely periodic.
    Saltus(i64),
    /// The bound overflows for this many heaps.
    BoundOverflows {
        /// `h`.
        heaps: usize,
    },
    /// The game has general rules without an equivalent take-and-break code.
    GeneralRules,
}

impl fmt::Display for NotApplicable {
    /// A phrase that can follow "not proved: ".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotApplicable::Code(why) => why.fmt(f),
            NotApplicable::ZeroPeriod => f.write_str("a period of 0 is meaningless"),
            NotApplicable::Saltus(saltus) => write!(
                f,
                "the periodicity theorem covers pure periodicity only, and this period has saltus {saltus}"
            ),
            NotApplicable::BoundOverflows { heaps } => {
                write!(f, "the theorem's bound for {heaps} heaps overflows")
            }
            NotApplicable::GeneralRules => f.write_str(
                "no theorem applies to general rules without an equivalent take-and-break code",
            ),
        }
    }
}

/// Checks the periodicity `periodicity` of `table` (the values of `code`) against the
/// periodicity theorem and its `h`-heap extension ([`crate::theory::periodicity`]).
pub fn certify(code: &TakeBreakCode, table: &SgTable, periodicity: &Periodicity) -> Certificate {
    let not_applicable = |why: NotApplicable| Certificate::NotApplicable { why };
    let Periodicity {
        preperiod: n0,
        period: p,
        saltus,
    } = *periodicity;
    if p == 0 {
        return not_applicable(NotApplicable::ZeroPeriod);
    }
    if saltus != 0 {
        return not_applicable(NotApplicable::Saltus(saltus));
    }
    let theorem = match Theorem::for_code(code) {
        Ok(theorem) => theorem,
        Err(why) => return not_applicable(NotApplicable::Code(why)),
    };
    let (Some(bound), Some(needed_len)) = (theorem.bound(n0, p), theorem.needed_len(n0, p)) else {
        return not_applicable(NotApplicable::BoundOverflows {
            heaps: theorem.heaps,
        });
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
        theorem,
        checked: Checked {
            theorem,
            period: p,
            from: n0,
            to: bound,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::period::detect;
    use crate::analysis::testing::{code_from_digits, kernel_table};
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
        assert_eq!(kernel_table(&code, 30).to_vec(), dawson);
        let long = kernel_table(&code, 176);
        let p = detect(&long).expect("period");
        assert_eq!(p, pure(53, 34));
        match certify(&code, &long, &p) {
            Certificate::Proved {
                bound,
                theorem,
                checked,
            } => {
                assert_eq!(bound, 142);
                assert!(
                    theorem.to_string().contains("octal periodicity theorem"),
                    "{theorem}"
                );
                assert_eq!(
                    checked.to_string(),
                    "G(n+34) = G(n) checked for 53 ≤ n < 2·53+34+2 = 142"
                );
            }
            other => panic!("expected a proof, got {other:?}"),
        }
        // One value fewer: the proof needs G(175).
        let short = kernel_table(&code, 175);
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
        let table = kernel_table(&code, 12);
        assert_eq!(table.to_vec(), vec![0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2]);
        match certify(&code, &table, &pure(0, 7)) {
            Certificate::Proved { bound, checked, .. } => {
                assert_eq!(bound, 5);
                assert_eq!(
                    checked.to_string(),
                    "G(n+7) = G(n) checked for 0 ≤ n < 1+4 = 5"
                );
            }
            other => panic!("expected a proof, got {other:?}"),
        }
        let short = kernel_table(&code, 11);
        assert_eq!(
            certify(&code, &short, &pure(0, 7)),
            Certificate::NeedValues {
                up_to: 11,
                bound: 5
            }
        );
    }

    #[test]
    fn a_period_from_zero_needs_the_larger_bound() {
        // The classical bound with n0 = 0 is too small: a heap of exactly p would vanish when
        // shrunk. 0.4 (take one, leave exactly two heaps) has G = 0 0 0 1 …: G(n + 1) = G(n)
        // for n < p + t = 2, yet G(3) ≠ G(2). Our bound counts n0 = 0 as 1: B = 2 + 1 + 1 = 4.
        let code = code_from_digits("4");
        assert_eq!(kernel_table(&code, 4).to_vec(), [0, 0, 0, 1]);
        assert_eq!(
            certify(&code, &kernel_table(&code, 3), &pure(0, 1)),
            Certificate::NeedValues { up_to: 4, bound: 4 }
        );
        assert_eq!(
            certify(&code, &kernel_table(&code, 5), &pure(0, 1)),
            Certificate::Refuted { at: 2 }
        );
        // The same for one heap: 0.001 (take three, only a whole heap) has G(3) = 1 after three
        // zeros, so "a window of t values repeats" must include n = t: B = 1 + 3 = 4.
        let code = code_from_digits("001");
        assert_eq!(
            certify(&code, &kernel_table(&code, 4 + 5), &pure(0, 5)),
            Certificate::Refuted { at: 3 }
        );
    }

    #[test]
    fn wrong_candidate_is_refuted() {
        let code = code_from_digits("07");
        let table = kernel_table(&code, 200);
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
            matches!(certify(&nim, &table, &arithmetic), Certificate::NotApplicable { why } if why.to_string().contains("saltus 1"))
        );
        assert!(
            matches!(certify(&nim, &table, &pure(0, 2)), Certificate::NotApplicable { why } if why.to_string().contains("infinite"))
        );

        let mut grundy = TakeBreakCode {
            digits: vec![Digit::from_mask(4)],
            tail: vec![],
        };
        grundy.digits[0].modifier = Modifier::Unequal;
        assert!(
            matches!(certify(&grundy, &table, &pure(0, 2)), Certificate::NotApplicable { why } if why.to_string().contains("modifier"))
        );

        let mut unbounded = code_from_digits("07");
        unbounded.digits[2].heaps.at_least = Some(3);
        assert!(
            matches!(certify(&unbounded, &table, &pure(0, 2)), Certificate::NotApplicable { why } if why.to_string().contains("unboundedly"))
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
            let short = kernel_table(&code, 300);
            let Some(p) = detect(&short) else { continue };
            if let Certificate::Proved { theorem, .. } = certify(&code, &short, &p) {
                proofs += 1;
                three_heap_proofs += usize::from(theorem.to_string().contains("3 heaps"));
                let long = kernel_table(&code, 900);
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
