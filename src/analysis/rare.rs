//! Rare and common positions: the statistics reported for octal games' *sparse space*.
//!
//! A bit mask `M` (and optionally the heap's parity) splits the positions into two classes:
//! `x` is *rare* when `popcount(G(x) & M) + e·(x mod 2)` is even, *common* otherwise. Parity of
//! popcount is additive under XOR, so a split of two common heaps is never rare when the
//! moves' splitting `k`s all have one parity (Gangolli & Plambeck 1989, "A note on periodicity
//! in some octal games", Int. J. Game Theory 18; Siegel, *Combinatorial Game Theory*, 2013,
//! the section on sparse space). Researchers report the mask that makes the rare positions
//! fewest, how many there are and where the last one is: in a sparse game such as Grundy's
//! game the rare positions stop early while the table goes on.
//!
//! The mask is the one the sparse kernel uses ([`sparse::best_mask`], a Walsh–Hadamard
//! transform of the value counts); position 0 (`G(0) = 0`, rare under every mask) is not
//! counted, as in the kernel.

use serde::Serialize;

use crate::engine::sparse::{self, Mask};
use crate::engine::SgTable;
use crate::rules::code::Modifier;
use crate::rules::TakeBreakCode;

/// The rare/common statistics of a table under its best mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RareStats {
    /// The value bits `M` of the mask.
    pub rare_mask: u32,
    /// The heap's parity is part of the mask.
    pub rare_parity_bit: bool,
    /// Rare positions among `1..len`.
    pub rare_count: usize,
    /// The last rare position, `None` when there is none.
    pub last_rare: Option<usize>,
    /// The largest value at a rare position, `None` when there is none.
    pub largest_rare_value: Option<u32>,
}

impl RareStats {
    /// The mask these statistics use.
    pub fn mask(&self) -> Mask {
        Mask {
            values: self.rare_mask,
            parity: self.rare_parity_bit,
        }
    }
}

/// True when the heap-parity bit may be part of the mask: every `k` whose moves split a heap
/// (leave two or more heaps, not counting `=` digits, whose equal parts XOR to 0) has the
/// same parity, so that `a + b = n − k` fixes the parity sum of the parts. A code without
/// splits allows it trivially.
pub fn parity_bit_allowed(code: &TakeBreakCode) -> bool {
    let code = code.normalized();
    // One pass over the tail shows its residues when its length is even, two when it is odd.
    let ks = 0..code.digits.len() + 2 * code.tail.len();
    let mut splitting = ks.filter(|&k| {
        let digit = code.digit(k);
        digit.modifier != Modifier::Equal && digit.heaps.max_heaps().is_none_or(|most| most >= 2)
    });
    match splitting.next() {
        Some(first) => splitting.all(|k| (k - first) % 2 == 0),
        None => true,
    }
}

/// The statistics of `table` under its best mask, with the parity bit when `parity_allowed`.
pub fn rare_stats(table: &SgTable, parity_allowed: bool) -> RareStats {
    let mask = sparse::best_mask(table.iter(), table.max_value(), parity_allowed);
    let mut stats = RareStats {
        rare_mask: mask.values,
        rare_parity_bit: mask.parity,
        rare_count: 0,
        last_rare: None,
        largest_rare_value: None,
    };
    for (x, value) in table.iter().enumerate().skip(1) {
        if mask.is_rare(x, value) {
            stats.rare_count += 1;
            stats.last_rare = Some(x);
            stats.largest_rare_value = stats.largest_rare_value.max(Some(value));
        }
    }
    stats
}

/// [`rare_stats`] of a table of `code`, with the parity bit when the code allows it.
pub fn rare_stats_for_code(code: &TakeBreakCode, table: &SgTable) -> RareStats {
    rare_stats(table, parity_bit_allowed(code))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::analysis::testing::{code_from_digits, naive_table};
    use crate::rules::code::Notation;

    /// The fewest rare positions among `1..len` over every mask, counted one mask at a time:
    /// the slow, independent check of the transform.
    fn fewest_rare_by_brute_force(values: &[u32], parity_allowed: bool) -> usize {
        let largest = values.iter().copied().max().unwrap_or(0);
        let bits = (32 - largest.leading_zeros()).max(1);
        let parity_masks = if parity_allowed { 2 } else { 1 };
        let mut fewest = usize::MAX;
        for parity in 0..parity_masks {
            for value_mask in 0..1u32 << bits {
                if value_mask == 0 && parity == 0 {
                    continue; // every position is rare
                }
                let rare = (1..values.len())
                    .filter(|&x| {
                        let ones = (values[x] & value_mask).count_ones() + parity * (x as u32 % 2);
                        ones.is_multiple_of(2)
                    })
                    .count();
                fewest = fewest.min(rare);
            }
        }
        fewest
    }

    fn general_code(text: &str) -> TakeBreakCode {
        TakeBreakCode::parse(text, Notation::General, 0).expect("valid code")
    }

    #[test]
    fn parity_needs_splitting_ks_of_one_parity() {
        // 0.77 splits at k = 1 and 2; 0.051 only at 2; 0.07 only at 2; 0.137 only at 3;
        // Grundy's game 4!.0 only at 0; subtraction games and Nim never split.
        for (code, allowed) in [
            (code_from_digits("77"), false),
            (code_from_digits("051"), true),
            (code_from_digits("07"), true),
            (code_from_digits("137"), true),
            (code_from_digits("4004"), false),
            (code_from_digits("404"), true),
            (general_code("4!.0"), true),
            (general_code("0.[3]"), true),
            (TakeBreakCode::subtraction(&[1, 3, 4]), true),
            // A splitting tail of odd length reaches both parities, of even length one.
            (general_code("0.[7]"), false),
            (general_code("0.[70]"), true),
            (general_code("0.4[70]"), false),
            // `=` splits are worth 0 whatever the parts, so they do not count.
            (general_code("0.4{2}="), true),
        ] {
            assert_eq!(parity_bit_allowed(&code), allowed, "{code}");
        }
    }

    #[test]
    fn kayles_has_nine_rare_positions() {
        // Kayles, 0.77 (period 12 from n = 71, Winning Ways ch. 4): 9 rare positions, the
        // known figure, the last of them inside the preperiod.
        let table = naive_table(&code_from_digits("77"), 2000);
        let stats = rare_stats_for_code(&code_from_digits("77"), &table);
        assert_eq!(stats.rare_count, 9, "{stats:?}");
        assert!(!stats.rare_parity_bit);
        assert!(stats.last_rare.is_some_and(|x| x < 71), "{stats:?}");
        assert_eq!(
            stats.rare_count,
            fewest_rare_by_brute_force(&table.to_vec(), false)
        );
    }

    #[test]
    fn grundys_game_mask_is_the_fewest_by_brute_force() {
        // Grundy's game (4!.0): its rare positions become few only far out (1273 below 2^20
        // under mask 254, see engine::sparse); at 3000 heaps the mask is not that one yet, but
        // the transform's choice must still be the brute-force best.
        let code = general_code("4!.0");
        let table = naive_table(&code, 3000);
        let stats = rare_stats_for_code(&code, &table);
        let values = table.to_vec();
        assert_eq!(stats.rare_count, fewest_rare_by_brute_force(&values, true));
        let recount = (1..values.len())
            .filter(|&x| stats.mask().is_rare(x, values[x]))
            .collect::<Vec<_>>();
        assert_eq!(recount.len(), stats.rare_count);
        assert_eq!(recount.last().copied(), stats.last_rare);
    }

    #[test]
    fn a_table_without_rare_positions_has_no_last_one() {
        // 0 at odd x, 1 at even x ≥ 2: under mask 1 the zeros are rare unless the parity bit
        // is used, which makes every position x ≥ 1 common.
        let table = SgTable::from_values(&[0, 0, 1, 0, 1, 0, 1]);
        let plain = rare_stats(&table, false);
        assert_eq!((plain.rare_count, plain.last_rare), (3, Some(5)));
        let with_parity = rare_stats(&table, true);
        assert_eq!(
            (with_parity.rare_count, with_parity.last_rare),
            (0, None),
            "{with_parity:?}"
        );
        assert_eq!(with_parity.largest_rare_value, None);
        let empty = rare_stats(&SgTable::new(), true);
        assert_eq!((empty.rare_count, empty.last_rare), (0, None));
    }

    proptest! {
        #[test]
        fn the_chosen_mask_has_the_fewest_rare_positions(
            values in prop::collection::vec(0u32..40, 1..120),
            parity_allowed in any::<bool>(),
        ) {
            let table = SgTable::from_values(&values);
            let stats = rare_stats(&table, parity_allowed);
            prop_assert_eq!(stats.rare_count, fewest_rare_by_brute_force(&values, parity_allowed));
            prop_assert!(parity_allowed || !stats.rare_parity_bit);
            let rare: Vec<usize> = (1..values.len())
                .filter(|&x| stats.mask().is_rare(x, values[x]))
                .collect();
            prop_assert_eq!(rare.len(), stats.rare_count);
            prop_assert_eq!(rare.last().copied(), stats.last_rare);
            prop_assert_eq!(rare.iter().map(|&x| values[x]).max(), stats.largest_rare_value);
        }
    }
}
