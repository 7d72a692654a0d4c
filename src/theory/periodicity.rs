//! The periodicity theorem for take-and-break codes: when finitely many checked values prove
//! that a period continues forever.
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
//! repeats) for subtraction-like codes, `h = 1` (the finite subtraction games of Winning Ways
//! ch. 4, whose periods can still be long: Althöfer & Bültermann, "Superlinear period lengths
//! in some subtraction games", Theoret. Comput. Sci. 148, 1995). Codes whose moves only remove
//! heaps (`h = 0`) are treated as `h = 1`.
//!
//! **Preperiod 0.** Counting `n0 = 0` as 1 costs `h` more checked values and is needed: the
//! classical form with `n0 = 0` is false. For 0.4 (take one token, leave exactly two heaps),
//! `G = 0 0 0 1 …` satisfies `G(n + 1) = G(n)` for `0 ≤ n < p + t = 2` but not at `n = 2`; for
//! 0.001, `G(n + 5) = G(n)` for `n < t = 3` but not at `n = 3`. The derivation below shows
//! where it breaks: shrinking a heap of exactly `p` by `p` makes it vanish, which changes the
//! number of heaps a move leaves, so the image of a legal option need not be legal.
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
//! **Conditions** ([`Theorem::for_code`], otherwise [`NotCovered`]):
//! * a finite code: with a repeating tail, `k` is unbounded and an option of `n + p` may leave a
//!   heap smaller than `p`, which cannot be shrunk (Nim is arithmetic-periodic, not periodic);
//! * no `!`, `=` or `?` modifier: resizing one heap by `p` can make two heaps equal or unequal,
//!   so the image of a legal option may break the constraint (Grundy's game, `4!.0`, is the
//!   famous open case);
//! * the digit before the point must not allow leaving one heap (a move from a heap to itself);
//! * a bounded number of heaps `h`, since `B` grows with `h`.
//!
//! Besides, the theorem is about pure periodicity (saltus 0). The relation must have been
//! checked for every `n0 ≤ n < B`, i.e. a table must hold `G(0..B + p)`
//! ([`Theorem::needed_len`]).

use std::fmt;

use crate::rules::TakeBreakCode;

/// Why [`Theorem::for_code`] does not cover a code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotCovered {
    /// A repeating tail of non-zero digits: a move may take any number of tokens.
    InfiniteCode,
    /// A `!`, `=` or `?` modifier on a digit that leaves two or more heaps.
    Modifier,
    /// The digit before the point allows leaving one heap.
    MoveToItself,
    /// A move may leave unboundedly many heaps (`{j+}`).
    UnboundedHeaps,
}

impl fmt::Display for NotCovered {
    /// A phrase that can follow "not proved: ".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotCovered::InfiniteCode => {
                "no theorem applies to infinite codes (a repeating tail lets a move take any number of tokens)"
            }
            NotCovered::Modifier => {
                "no theorem applies to codes with a `!`, `=` or `?` modifier (resizing one heap can break the constraint on heap sizes)"
            }
            NotCovered::MoveToItself => {
                "the digit before the point allows a move from a heap to itself"
            }
            NotCovered::UnboundedHeaps => {
                "no theorem applies when a move may leave unboundedly many heaps"
            }
        })
    }
}

/// The theorem's parameters for a code it covers: at most `heaps` heaps are left by a move
/// (`h`, at least 1) and the last non-zero digit is at `last_digit` (`t`).
///
/// `Display` writes the theorem's name, for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theorem {
    /// `h`: the most heaps a move leaves (codes that only remove heaps count as 1).
    pub heaps: usize,
    /// `t`: the position of the last non-zero digit.
    pub last_digit: usize,
}

impl Theorem {
    /// The theorem for `code` (read in its [normalized](TakeBreakCode::normalized) form, so a
    /// modifier on a digit that leaves at most one heap does not count), or why it does not
    /// apply. Only the code's conditions are checked here; the period must also be pure.
    pub fn for_code(code: &TakeBreakCode) -> Result<Theorem, NotCovered> {
        let code = code.normalized();
        if !code.is_finite() {
            return Err(NotCovered::InfiniteCode);
        }
        if code.has_modifiers() {
            return Err(NotCovered::Modifier);
        }
        if code.digit(0).heaps.allows(1) {
            return Err(NotCovered::MoveToItself);
        }
        let Some(most_heaps) = code.max_heaps() else {
            return Err(NotCovered::UnboundedHeaps);
        };
        Ok(Theorem {
            heaps: (most_heaps as usize).max(1),
            // A finite code with no non-zero digit has no moves: any t works, take 0.
            last_digit: code.last_nonzero().unwrap_or(0),
        })
    }

    /// The theorem's bound `B` for preperiod `n0` and period `p`: `G(n + p) = G(n)` for
    /// `n0 ≤ n < B` proves it for every `n ≥ n0` (see [`theorem_bound`]).
    pub fn bound(&self, preperiod: usize, period: usize) -> Option<usize> {
        theorem_bound(self.heaps, preperiod, period, self.last_digit)
    }

    /// How many values `G(0..B + p)` a proof of `(n0, p)` needs: the relation is checked for
    /// `n0 ≤ n < B`, which reads `G(B − 1 + p)`. `None` on overflow.
    pub fn needed_len(&self, preperiod: usize, period: usize) -> Option<usize> {
        self.bound(preperiod, period)?.checked_add(period)
    }

    /// The bound as arithmetic a reader can redo: `2·52+34+2` for `h = 2`, `n0 = 52`, `p = 34`,
    /// `t = 2`.
    pub fn formula(&self, preperiod: usize, period: usize) -> String {
        // n0 = 0 is counted as 1 (see the module docs).
        let n0 = preperiod.max(1);
        let first = if self.heaps == 1 {
            n0.to_string()
        } else {
            format!("{}·{n0}", self.heaps)
        };
        let middle = match self.heaps {
            1 => String::new(),
            2 => format!("+{period}"),
            h => format!("+{}·{period}", h - 1),
        };
        format!("{first}{middle}+{}", self.last_digit)
    }
}

impl fmt::Display for Theorem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.heaps {
            1 => f.write_str(
                "the periodicity theorem for subtraction games (moves leave at most one heap)",
            ),
            2 => f.write_str("the octal periodicity theorem (Guy–Smith)"),
            h => write!(
                f,
                "the periodicity theorem (Guy–Smith) extended to moves leaving up to {h} heaps"
            ),
        }
    }
}

/// `B = h·max(n0, 1) + (h − 1)·p + t` for `h = heaps ≥ 1`, or `None` on overflow (or for
/// `heaps = 0`, which [`Theorem::for_code`] counts as 1).
pub fn theorem_bound(
    heaps: usize,
    preperiod: usize,
    period: usize,
    last_digit: usize,
) -> Option<usize> {
    heaps
        .checked_mul(preperiod.max(1))?
        .checked_add(heaps.checked_sub(1)?.checked_mul(period)?)?
        .checked_add(last_digit)
}

/// Why a code's values can never be arithmetic-periodic (`G(n + p) = G(n) + s` with `s ≠ 0`
/// from some `n0` on): a period search must then offer no saltus, whatever a finite table
/// suggests (`subtraction 1..=k` shows `G(n) = n` for every `n ≤ k`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoSaltus {
    /// Every move leaves at most one heap, from a finite code: a heap has at most `t + 1`
    /// options (`t` the last non-zero digit), so `G(n) ≤ t + 1` for every `n`.
    BoundedOptions,
    /// A finite octal code `0.d1d2…` (moves leave at most two heaps, nothing before the point,
    /// no `!`, `=` or `?`): finite octal
    /// games are not arithmetic-periodic (Austin 1976; Horrocks & Nowakowski, "Regularity in
    /// the G-sequences of octal games with a pass", INTEGERS 3 (2003) #G1).
    FiniteOctal,
}

impl fmt::Display for NoSaltus {
    /// A phrase that can follow "no saltus is possible: ".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NoSaltus::BoundedOptions => {
                "every move leaves at most one heap, so a heap has at most t + 1 options and its value is at most t + 1"
            }
            NoSaltus::FiniteOctal => {
                "finite octal games are not arithmetic-periodic (Austin 1976; Horrocks & Nowakowski 2003)"
            }
        })
    }
}

/// The theorem by which `code` is never arithmetic-periodic, if one applies (see [`NoSaltus`]).
pub fn no_saltus(code: &TakeBreakCode) -> Option<NoSaltus> {
    let code = code.normalized();
    if !code.is_finite() {
        return None;
    }
    match code.max_heaps()? {
        0 | 1 => Some(NoSaltus::BoundedOptions),
        // Austin's theorem is about codes `0.d1d2…`: a digit before the point (splitting a
        // heap without taking from it) is left out.
        2 if code.digits.first().is_none_or(|d| d.is_empty())
            && code
                .digits
                .iter()
                .all(|d| d.modifier == crate::rules::code::Modifier::None) =>
        {
            Some(NoSaltus::FiniteOctal)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::code::Notation;

    fn theorem(text: &str) -> Result<Theorem, NotCovered> {
        Theorem::for_code(&TakeBreakCode::parse(text, Notation::General, 0).unwrap())
    }

    /// True when `G(n + p) = G(n)` for `n0 ≤ n < to` in `values`.
    fn relation_holds(values: &[u32], n0: usize, p: usize, to: usize) -> bool {
        (n0..to).all(|n| values[n + p] == values[n])
    }

    #[test]
    fn three_heap_bound_by_hand() {
        // Hex 0.F (take 1, leave up to three heaps), a hypothetical n0 = 10, p = 4, t = 1, h = 3:
        // B = 3·10 + 2·4 + 1 = 39.
        assert_eq!(theorem_bound(3, 10, 4, 1), Some(39));
        let hex = Theorem {
            heaps: 3,
            last_digit: 1,
        };
        assert_eq!(hex.formula(10, 4), "3·10+2·4+1");
        assert_eq!(theorem_bound(2, 0, 7, 4), Some(2 + 7 + 4));
        assert_eq!(theorem_bound(usize::MAX, 2, 1, 0), None);
        assert_eq!(theorem_bound(0, 2, 1, 0), None);
    }

    #[test]
    fn the_classical_bound_with_preperiod_0_is_too_small() {
        // 0.4: take one token and leave exactly two heaps; G(0..4) = 0 0 0 1 (G(3): 3 → 1 + 1).
        let values = [0, 0, 0, 1];
        let t = theorem("0.4").unwrap();
        assert_eq!(
            t,
            Theorem {
                heaps: 2,
                last_digit: 1
            }
        );
        // The classical form 2·n0 + p + t = 2 for n0 = 0, p = 1: the relation holds for n < 2
        // and the table has the 2 + 1 values it reads, yet G(3) ≠ G(2).
        let (n0, p) = (0, 1);
        let classical = 2 * n0 + p + t.last_digit;
        assert_eq!(classical, 2);
        assert!(relation_holds(&values, n0, p, classical));
        assert!(!relation_holds(&values, 0, 1, 3));
        // Ours counts n0 = 0 as 1: B = 2·1 + 1 + 1 = 4, which includes the failing n = 2.
        assert_eq!(t.bound(0, 1), Some(4));
        assert_eq!(t.needed_len(0, 1), Some(5));
        assert_eq!(t.formula(0, 1), "2·1+1+1");
        // For n0 ≥ 1 the two forms agree.
        for (n0, p) in [(1, 1), (53, 34)] {
            assert_eq!(t.bound(n0, p), Some(2 * n0 + p + t.last_digit));
        }
        // One heap: 0.001 (take three, only a whole heap) has G(3) = 1 after three zeros, so
        // "a window of t values repeats" must include n = t: B = 1 + 3 = 4.
        let t = theorem("0.001").unwrap();
        assert_eq!(t.bound(0, 5), Some(4));
        let values = [0, 0, 0, 1, 0, 0, 0, 0, 0];
        assert!(relation_holds(&values, 0, 5, 3));
        assert!(!relation_holds(&values, 0, 5, 4));
    }

    #[test]
    fn codes_the_theorem_covers() {
        assert_eq!(
            theorem("0.07"),
            Ok(Theorem {
                heaps: 2,
                last_digit: 2
            })
        );
        assert_eq!(theorem("0.0F").map(|t| t.heaps), Ok(3));
        // Subtraction {1, 3, 4} leaves at most one heap; 0.1 and 0.0 only remove heaps or
        // nothing at all and count as one heap.
        let subtraction = Theorem::for_code(&TakeBreakCode::subtraction(&[1, 3, 4]));
        assert_eq!(
            subtraction,
            Ok(Theorem {
                heaps: 1,
                last_digit: 4
            })
        );
        assert_eq!(theorem("0.1").map(|t| t.heaps), Ok(1));
        assert_eq!(
            theorem("0.0"),
            Ok(Theorem {
                heaps: 1,
                last_digit: 0
            })
        );
        assert_eq!(theorem("0.[3]"), Err(NotCovered::InfiniteCode));
        assert_eq!(theorem("4!.0"), Err(NotCovered::Modifier));
        assert_eq!(theorem("0.7="), Err(NotCovered::Modifier));
        assert_eq!(theorem("0.{2+}"), Err(NotCovered::UnboundedHeaps));
        // A modifier on a digit that leaves at most one heap constrains nothing.
        let mut plain = TakeBreakCode::subtraction(&[1]);
        plain.digits[1].modifier = crate::rules::code::Modifier::Unequal;
        assert_eq!(Theorem::for_code(&plain).map(|t| t.heaps), Ok(1));
        assert!(NotCovered::Modifier.to_string().contains("modifier"));
        assert_eq!(
            theorem("0.07").unwrap().to_string(),
            "the octal periodicity theorem (Guy–Smith)"
        );
    }
}
