//! Rare and common positions: the statistics reported for octal games' *sparse space*.
//!
//! A bit mask `M` (and optionally the heap's parity) splits the positions into two classes,
//! rare and common ([`crate::theory::sparse_space`] defines them and says when the parity bit
//! may be used). Researchers report the mask that makes the rare positions fewest, how many
//! there are and where the last one is: in a sparse game such as Grundy's game the rare
//! positions stop early while the table goes on.
//!
//! The mask is the one the sparse kernel uses ([`sparse::best_mask`], a Walsh–Hadamard
//! transform of the value counts); position 0 (`G(0) = 0`, rare under almost every mask) is
//! not counted, as in the kernel.

use serde::Serialize;

use crate::engine::sparse;
use crate::engine::SgTable;
use crate::rules::TakeBreakCode;
pub use crate::theory::sparse_space::parity_bit_allowed;
use crate::theory::sparse_space::{heap_parity_offset, Mask};

/// The rare/common statistics of a table under its best mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RareStats {
    /// The value bits `M` of the mask.
    pub rare_mask: u32,
    /// The heap's parity is part of the mask.
    pub rare_parity_bit: bool,
    /// The offset the heap's parity is counted with (the splitting `k`s' parity; see
    /// [`crate::theory::sparse_space`]).
    #[serde(skip)]
    pub rare_parity_offset: u8,
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
            parity_offset: self.rare_parity_offset,
        }
    }
}

/// The statistics of `table` under its best mask, with the parity bit counted with offset `s`
/// when `parity` is `Some(s)`.
pub fn rare_stats(table: &SgTable, parity: Option<u8>) -> RareStats {
    stats_under(
        table,
        sparse::best_mask(table.iter(), table.max_value(), parity),
    )
}

/// The statistics of `table` under `mask` (a chart marks the rare positions of a mask given).
pub fn stats_under(table: &SgTable, mask: Mask) -> RareStats {
    let mut stats = RareStats {
        rare_mask: mask.values,
        rare_parity_bit: mask.parity,
        rare_parity_offset: mask.parity_offset,
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
    rare_stats(table, heap_parity_offset(code))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::analysis::testing::{code_from_digits, kernel_table};
    use crate::rules::code::Notation;

    /// The fewest rare positions among `1..len` over every mask, counted one mask at a time:
    /// the slow, independent check of the transform.
    fn fewest_rare_by_brute_force(values: &[u32], parity: Option<u8>) -> usize {
        let largest = values.iter().copied().max().unwrap_or(0);
        let bits = (32 - largest.leading_zeros()).max(1);
        let parity_masks = if parity.is_some() { 2 } else { 1 };
        let offset = u32::from(parity.unwrap_or(0));
        let mut fewest = usize::MAX;
        for parity in 0..parity_masks {
            for value_mask in 0..1u32 << bits {
                if value_mask == 0 && parity == 0 {
                    continue; // every position is rare
                }
                let rare = (1..values.len())
                    .filter(|&x| {
                        let ones = (values[x] & value_mask).count_ones()
                            + parity * ((x as u32 + offset) % 2);
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
    fn kayles_has_nine_rare_positions() {
        // Kayles, 0.77 (period 12 from n = 71, Winning Ways ch. 4): 9 rare positions, the
        // known figure, the last of them inside the preperiod.
        let table = kernel_table(&code_from_digits("77"), 2000);
        let stats = rare_stats_for_code(&code_from_digits("77"), &table);
        assert_eq!(stats.rare_count, 9, "{stats:?}");
        assert!(!stats.rare_parity_bit);
        assert!(stats.last_rare.is_some_and(|x| x < 71), "{stats:?}");
        assert_eq!(
            stats.rare_count,
            fewest_rare_by_brute_force(&table.to_vec(), None)
        );
    }

    #[test]
    fn grundys_game_mask_is_the_fewest_by_brute_force() {
        // Grundy's game (4!.0): its rare positions become few only far out (1273 below 2^20
        // under mask 254, see engine::sparse); at 3000 heaps the mask is not that one yet, but
        // the transform's choice must still be the brute-force best.
        let code = general_code("4!.0");
        let table = kernel_table(&code, 3000);
        let stats = rare_stats_for_code(&code, &table);
        let values = table.to_vec();
        assert_eq!(
            stats.rare_count,
            fewest_rare_by_brute_force(&values, Some(0))
        );
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
        let plain = rare_stats(&table, None);
        assert_eq!((plain.rare_count, plain.last_rare), (3, Some(5)));
        let with_parity = rare_stats(&table, Some(0));
        assert_eq!(
            (with_parity.rare_count, with_parity.last_rare),
            (0, None),
            "{with_parity:?}"
        );
        assert_eq!(with_parity.largest_rare_value, None);
        let empty = rare_stats(&SgTable::new(), Some(1));
        assert_eq!((empty.rare_count, empty.last_rare), (0, None));
    }

    proptest! {
        #[test]
        fn the_chosen_mask_has_the_fewest_rare_positions(
            values in prop::collection::vec(0u32..40, 1..120),
            parity in prop::option::of(0u8..2),
        ) {
            let table = SgTable::from_values(&values);
            let stats = rare_stats(&table, parity);
            prop_assert_eq!(stats.rare_count, fewest_rare_by_brute_force(&values, parity));
            prop_assert!(parity.is_some() || !stats.rare_parity_bit);
            let rare: Vec<usize> = (1..values.len())
                .filter(|&x| stats.mask().is_rare(x, values[x]))
                .collect();
            prop_assert_eq!(rare.len(), stats.rare_count);
            prop_assert_eq!(rare.last().copied(), stats.last_rare);
            prop_assert_eq!(rare.iter().map(|&x| values[x]).max(), stats.largest_rare_value);
        }
    }
}
