//! The mask choice: the mask with the fewest rare positions, for every mask at once by a
//! Walsh–Hadamard transform of the value counts (see the [module docs](super)). What "rare"
//! means is [`crate::theory::sparse_space`]'s.

pub use crate::theory::sparse_space::Mask;

/// The mask uses at most this many value bits (the transform has `2^(bits + 1)` entries).
const MASK_BITS: u32 = 20;

/// Picks the mask with the fewest rare positions among `1..values.len()`
/// (see the module docs), `largest` being the largest of them; `parity` allows the heap-parity
/// bit with that offset ([`crate::theory::sparse_space::heap_parity_offset`]).
pub fn best_mask(values: impl Iterator<Item = u32>, largest: u32, parity: Option<u8>) -> Mask {
    let bits = (32 - largest.leading_zeros()).clamp(1, MASK_BITS);
    let low = (1u32 << bits) - 1;
    let size = 1usize << (bits + u32::from(parity.is_some()));
    let mut h = vec![0i64; size];
    for (x, v) in values.enumerate().skip(1) {
        let parity_bit = match parity {
            Some(offset) => ((x + usize::from(offset)) % 2) << bits,
            None => 0,
        };
        h[(v & low) as usize | parity_bit] += 1;
    }
    // In-place Walsh–Hadamard transform: h[M] becomes Σ_i h[i] (−1)^popcount(i & M).
    let mut half = 1;
    while half < size {
        for block in (0..size).step_by(2 * half) {
            for i in block..block + half {
                let (a, b) = (h[i], h[i + half]);
                h[i] = a + b;
                h[i + half] = a - b;
            }
        }
        half *= 2;
    }
    // Mask 0 makes every value rare; among the rest take the least #rare − #common.
    let best = (1..size).min_by_key(|&m| (h[m], m)).unwrap_or(1);
    Mask {
        values: best as u32 & low,
        parity: parity.is_some() && best >> bits != 0,
        parity_offset: parity.unwrap_or(0),
    }
}

#[cfg(test)]
mod tests {
    use super::super::kernel::Kernel;
    use super::super::testing::*;
    use super::*;
    use crate::engine::SgTable;

    #[test]
    fn the_transform_finds_the_mask_with_fewest_rare_positions() {
        // Values 1, 2, …, 3 after G(0): masks 1 and 2 leave three rare positions, 3 only one.
        let values = [0, 1, 2, 1, 2, 1, 2, 3];
        let mask = best_mask(values.iter().copied(), 3, None);
        assert_eq!(mask.values, 3);
        // G(x) = 0 at odd x and 1 at even x: value 0 is rare under every value mask, but with
        // the parity bit (mask 1) every position x ≥ 1 is common.
        let values: Vec<u32> = (0..40).map(|x| (x % 2 == 0) as u32).collect();
        let rare = |mask: Mask| (1..40).filter(|&x| mask.is_rare(x, values[x])).count();
        let mask = best_mask(values.iter().copied(), 1, Some(0));
        assert_eq!(
            mask,
            Mask {
                values: 1,
                parity: true,
                parity_offset: 0,
            }
        );
        assert_eq!(rare(mask), 0);
        assert_eq!(rare(best_mask(values.iter().copied(), 1, None)), 20);
    }

    #[test]
    fn heap_parity_in_the_mask() {
        // 0.051 splits only at k = 2; its rare positions are few only with the parity bit.
        let code = code("0.051");
        let len = 20_000;
        let values = dense_values(&code, len);
        let kernel = Kernel::new(&code, &SgTable::from_values(&values[..3_000]));
        assert!(
            kernel.mask.parity && kernel.rare.len() < 10,
            "{:?}",
            kernel.mask
        );
        assert_eq!(sparse_values(&code, len), values);
        // 0.77 splits at k = 1 and k = 2, so the parity bit would make no class exact.
        let kayles = Kernel::new(&self::code("0.77"), &SgTable::new());
        assert_eq!(kayles.parity_offset, None);
    }

    #[test]
    fn the_parity_bit_counts_from_the_splitting_k() {
        // 0.127 splits only at k = 3: with the offset, mask 1 + parity leaves 693 rare
        // positions in 1..=93166 (T. Czajka's octal-games tables list 0.127 as "1+pos", 693
        // rare); counted from x mod 2 the same mask would leave the 92473 others.
        let code = code("0.127");
        let values = dense_values(&code, 93_167);
        let mask = best_mask(values.iter().copied(), 63, Some(1));
        assert_eq!((mask.values, mask.parity, mask.parity_offset), (1, true, 1));
        let rare = (1..values.len())
            .filter(|&x| mask.is_rare(x, values[x]))
            .count();
        assert_eq!(rare, 693);
        let unshifted = Mask {
            parity_offset: 0,
            ..mask
        };
        let rare = (1..values.len())
            .filter(|&x| unshifted.is_rare(x, values[x]))
            .count();
        assert_eq!(rare, 92_473);
    }
}
