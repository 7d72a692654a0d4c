//! Sparse space: rare and common positions of a take-and-break game under a bit mask.
//!
//! Fix a bit mask `M` of value bits, and optionally the heap's parity as a further bit
//! (`e = 1`, else `e = 0`), counted with an offset `s`. Position `x` is *rare* when
//!
//! ```text
//! popcount(G(x) & M) + e·((x + s) mod 2)
//! ```
//!
//! is even, *common* otherwise ([`Mask::is_rare`]). Parity of popcount is additive under XOR,
//! so for a split of `m = a + b` into two heaps the option `G(a) ⊕ G(b)` has
//! `popcount((G(a) ⊕ G(b)) & M) ≡ popcount(G(a) & M) + popcount(G(b) & M)`: two common parts
//! give a value `v` with `popcount(v & M) ≡ e·(m mod 2)` (mod 2), since `a + b = m` fixes the sum
//! of the parts' parities. When every splitting `k` of the code has one parity, `m = n − k` has
//! one parity for each heap `n`, so one class of values can never come from two common parts:
//! every option of that class has a rare part ([`parity_bit_allowed`] says when `e = 1` may be
//! used; with `e = 0` this holds for any code). The offset `s` is the parity of those `k`
//! ([`heap_parity_offset`]): the option's class measured as `G(n)`'s, `popcount(v & M) +
//! e·((n + s) mod 2) ≡ e·(n − k + n + s) ≡ 0`, is then *rare*, as with `e = 0`, so that a common
//! `G(n)` — the usual case — is settled by the splits with a rare part. (With `s = 0` and odd
//! `k`, the two classes would swap roles and the parity bit would never make the rare positions
//! few: for 0.127 the mask `1 + parity` leaves 693 rare positions below 93167, as T. Czajka's
//! tables list, and no mask without it fewer than 2804.) In most octal games one mask makes the rare
//! positions few, which is what the sparse kernel ([`crate::engine::sparse`]) exploits and
//! what the rare/common statistics ([`crate::analysis::rare`]) report (Gangolli & Plambeck
//! 1989, "A note on periodicity in some octal games", Int. J. Game Theory 18; A. Flammenkamp's
//! tables of octal games; Siegel, *Combinatorial Game Theory*, AMS 2013, the section on
//! sparse space).
//!
//! Position 0 (`G(0) = 0`) is rare under every mask but those with the parity bit and `s = 1`;
//! the kernel and the statistics leave it out of their rare lists either way.

use crate::rules::code::Modifier;
use crate::rules::TakeBreakCode;

/// Which positions are rare: `popcount(v & values) + parity·((x + parity_offset) mod 2)` even
/// for value `v` at position `x` (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mask {
    /// The value bits `M`.
    pub values: u32,
    /// The heap's parity is a further bit.
    pub parity: bool,
    /// `s`, the parity of the code's splitting `k`s (0 or 1; see [`heap_parity_offset`]).
    pub parity_offset: u8,
}

impl Mask {
    /// True when position `position` with value `value` is rare under this mask.
    #[inline]
    pub fn is_rare(self, position: usize, value: u32) -> bool {
        let odd = (position + usize::from(self.parity_offset)) % 2 == 1;
        let bits = (value & self.values).count_ones() + u32::from(self.parity && odd);
        bits.is_multiple_of(2)
    }
}

/// True when the heap-parity bit may be part of the mask: every `k` whose moves split a heap
/// (leave two or more heaps, not counting `=` digits, whose equal parts XOR to 0) has the
/// same parity, so that `a + b = n − k` fixes the parity sum of the parts. A code without
/// splits allows it trivially.
pub fn parity_bit_allowed(code: &TakeBreakCode) -> bool {
    heap_parity_offset(code).is_some()
}

/// The parity `s` of the splitting `k`s when they all have one (0 for a code without splits),
/// `None` when they have both: the offset of the heap-parity bit (see the module docs).
pub fn heap_parity_offset(code: &TakeBreakCode) -> Option<u8> {
    let code = code.normalized();
    // One pass over the tail shows its residues when its length is even, two when it is odd.
    let ks = 0..code.digits.len() + 2 * code.tail.len();
    let mut splitting = ks.filter(|&k| {
        let digit = code.digit(k);
        digit.modifier != Modifier::Equal && digit.heaps.max_heaps().is_none_or(|most| most >= 2)
    });
    match splitting.next() {
        Some(first) => splitting
            .all(|k| (k - first) % 2 == 0)
            .then_some((first % 2) as u8),
        None => Some(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::code::Notation;

    fn code(text: &str) -> TakeBreakCode {
        TakeBreakCode::parse(text, Notation::General, 0).expect("valid code")
    }

    #[test]
    fn parity_needs_splitting_ks_of_one_parity() {
        // 0.77 splits at k = 1 and 2; 0.051 only at 2; 0.07 only at 2; 0.137 only at 3;
        // Grundy's game 4!.0 only at 0; subtraction games and Nim never split.
        for (code, allowed) in [
            (code("0.77"), false),
            (code("0.051"), true),
            (code("0.07"), true),
            (code("0.137"), true),
            (code("0.4004"), false),
            (code("0.404"), true),
            (code("4!.0"), true),
            (code("0.[3]"), true),
            (TakeBreakCode::subtraction(&[1, 3, 4]), true),
            // A splitting tail of odd length reaches both parities, of even length one.
            (code("0.[7]"), false),
            (code("0.[70]"), true),
            (code("0.4[70]"), false),
            // `=` splits are worth 0 whatever the parts, so they do not count.
            (code("0.4{2}="), true),
        ] {
            assert_eq!(parity_bit_allowed(&code), allowed, "{code}");
        }
        // The offset is the splitting k's parity: 0.07 and 0.051 split at 2, 0.137 and 0.127
        // at 3, Grundy's game at 0; Nim never splits.
        for (text, offset) in [
            ("0.07", 0),
            ("0.051", 0),
            ("0.137", 1),
            ("0.127", 1),
            ("4!.0", 0),
            ("0.[3]", 0),
        ] {
            assert_eq!(heap_parity_offset(&code(text)), Some(offset), "{text}");
        }
    }

    #[test]
    fn two_common_parts_give_one_class() {
        // The class argument on random-looking values: for every mask, whether a split of two
        // common parts can be rare depends on the mask and m's parity only.
        let values: Vec<u32> = (0..64u32).map(|x| (x * 37 + x / 3) % 13).collect();
        for m_values in 1..16 {
            for parity in [false, true] {
                let mask = Mask {
                    values: m_values,
                    parity,
                    parity_offset: (m_values % 2) as u8,
                };
                for m in 2..64 {
                    for a in 1..m {
                        let b = m - a;
                        if mask.is_rare(a, values[a]) || mask.is_rare(b, values[b]) {
                            continue;
                        }
                        let v = values[a] ^ values[b];
                        let class = (v & mask.values).count_ones() % 2;
                        assert_eq!(
                            class,
                            u32::from(parity) * (m as u32 % 2),
                            "{mask:?}, {a}+{b}"
                        );
                    }
                }
            }
        }
    }
}
