//! Fingerprints of a sequence's windows, so that two codes can be compared with a heap offset
//! (`G_a(n + k) = G_b(n)` for `n < X − k`) without keeping their values.
//!
//! A window's hash is the pair of polynomial hashes `Σ (G(i) + 1)·B^(r−1−i) mod 2^61 − 1`
//! for two fixed bases: two sequences of the same length that differ collide with probability
//! about `X / 2^61` per base (a polynomial of degree `X` has at most `X` roots), so about
//! `2^-80` for both at `X = 2^21`. A fingerprint of length `X` holds, for every offset
//! `k ≤ K`, the hash of the head `G(0..X − k)` and of the tail `G(k..X)`: code `a` shifted by
//! `k` agrees with code `b` over `n < X − k` exactly when (up to that chance) `a`'s tail `k`
//! equals `b`'s head `k`.

use serde::{Deserialize, Serialize};

/// The Mersenne prime `2^61 − 1`.
const MODULUS: u64 = (1 << 61) - 1;
/// The two bases (fixed, so that fingerprints agree across runs and machines).
const BASES: [u64; 2] = [
    0x1F3D_5B79_A2C4_E681 % MODULUS,
    0x0B5A_D4EC_EDA1_CE2B % MODULUS,
];

/// The largest heap offset `k` compared: equivalences `G_a(n + k) = G_b(n)` with `k` up to
/// this are found (the published lookup tables list offsets of one and two heaps).
pub const MAX_OFFSET: usize = 8;

fn mul(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    let folded = (product & u128::from(MODULUS)) + (product >> 61);
    let folded = folded as u64;
    if folded >= MODULUS {
        folded - MODULUS
    } else {
        folded
    }
}

fn add(a: u64, b: u64) -> u64 {
    let sum = a + b;
    if sum >= MODULUS {
        sum - MODULUS
    } else {
        sum
    }
}

fn sub(a: u64, b: u64) -> u64 {
    if a >= b {
        a - b
    } else {
        a + MODULUS - b
    }
}

fn pow(mut base: u64, mut exponent: u64) -> u64 {
    let mut result = 1;
    while exponent > 0 {
        if exponent & 1 == 1 {
            result = mul(result, base);
        }
        base = mul(base, base);
        exponent >>= 1;
    }
    result
}

/// The hashes of the heads and tails of `G(0..len)` (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// The window length `X`.
    pub len: usize,
    /// `heads[k]`: the hash of `G(0..X − k)`, as 32 hex digits.
    pub heads: Vec<String>,
    /// `tails[k]`: the hash of `G(k..X)`, as 32 hex digits.
    pub tails: Vec<String>,
}

fn hex(pair: [u64; 2]) -> String {
    format!("{:016x}{:016x}", pair[0], pair[1])
}

/// The fingerprint of `G(0..len)` for offsets `0..=MAX_OFFSET`, reading `G(i)` from `value`;
/// `None` when `len` is too short for every offset to leave a window.
pub fn fingerprint(len: usize, value: impl Fn(usize) -> u32) -> Option<Fingerprint> {
    if len <= MAX_OFFSET {
        return None;
    }
    // Prefix hashes P(j) = hash of G(0..j), kept at the indices the windows need.
    let mut at_start = [[0u64; 2]; MAX_OFFSET + 1]; // P(k)
    let mut at_end = [[0u64; 2]; MAX_OFFSET + 1]; // P(len − k)
    let mut prefix = [0u64; 2];
    for i in 0..len {
        if i <= MAX_OFFSET {
            at_start[i] = prefix;
        }
        if len - i <= MAX_OFFSET {
            at_end[len - i] = prefix;
        }
        let term = u64::from(value(i)) + 1;
        for (p, base) in prefix.iter_mut().zip(BASES) {
            *p = add(mul(*p, base), term);
        }
    }
    at_end[0] = prefix;
    let heads = (0..=MAX_OFFSET).map(|k| hex(at_end[k])).collect();
    let tails = (0..=MAX_OFFSET)
        .map(|k| {
            let mut hash = [0; 2];
            for (h, (base, (whole, start))) in hash
                .iter_mut()
                .zip(BASES.iter().zip(prefix.iter().zip(at_start[k])))
            {
                *h = sub(*whole, mul(start, pow(*base, (len - k) as u64)));
            }
            hex(hash)
        })
        .collect();
    Some(Fingerprint { len, heads, tails })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hash of a window computed directly, for the check of the prefix arithmetic.
    fn direct(values: &[u32]) -> String {
        let mut hash = [0u64; 2];
        for &v in values {
            for (h, base) in hash.iter_mut().zip(BASES) {
                *h = add(mul(*h, base), u64::from(v) + 1);
            }
        }
        hex(hash)
    }

    #[test]
    fn heads_and_tails_are_the_hashes_of_their_windows() {
        let values: Vec<u32> = (0..200u32).map(|i| (i * 7919 + i / 3) % 11).collect();
        let print = fingerprint(values.len(), |i| values[i]).unwrap();
        for k in 0..=MAX_OFFSET {
            assert_eq!(
                print.heads[k],
                direct(&values[..values.len() - k]),
                "head {k}"
            );
            assert_eq!(print.tails[k], direct(&values[k..]), "tail {k}");
        }
    }

    #[test]
    fn a_shifted_sequence_matches_at_its_offset_only() {
        let base: Vec<u32> = (0..300u32).map(|i| (i * i + 3) % 7).collect();
        let shifted: Vec<u32> = [5, 1].iter().copied().chain(base.iter().copied()).collect();
        let len = 250;
        let a = fingerprint(len, |i| shifted[i]).unwrap();
        let b = fingerprint(len, |i| base[i]).unwrap();
        // G_a(n + 2) = G_b(n).
        assert_eq!(a.tails[2], b.heads[2]);
        assert_ne!(a.tails[1], b.heads[1]);
        assert_ne!(a.tails[0], b.heads[0]);
        assert!(fingerprint(MAX_OFFSET, |_| 0).is_none());
    }
}
