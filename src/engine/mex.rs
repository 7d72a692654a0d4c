//! The mex core shared by every kernel: a growable bitset of option values.
//!
//! `mex(S)` is the least non-negative integer not in `S`; the Sprague–Grundy value of a position
//! is the mex of its options' values (Sprague 1935, Grundy 1939).

use super::table::{SgValue, Values};
use super::Nimber;

/// A set of small non-negative integers as a bitset, cleared and reused between positions.
#[derive(Clone, Debug, Default)]
pub struct MexSet {
    words: Vec<u64>,
}

impl MexSet {
    /// An empty set with room for values below `capacity` without reallocating.
    pub fn with_capacity(capacity: usize) -> Self {
        MexSet {
            words: vec![0; capacity.div_ceil(64).max(1)],
        }
    }

    /// Removes every value, keeping the allocation.
    #[inline]
    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }

    /// Adds `value`.
    #[inline]
    pub fn insert(&mut self, value: u32) {
        let word = (value / 64) as usize;
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1u64 << (value % 64);
    }

    /// Adds `64 · index + i` for every bit `i` of `bits`.
    #[inline]
    pub fn insert_word(&mut self, index: usize, bits: u64) {
        if bits == 0 {
            return;
        }
        if index >= self.words.len() {
            self.words.resize(index + 1, 0);
        }
        self.words[index] |= bits;
    }

    /// True if `value` is in the set.
    #[inline]
    pub fn contains(&self, value: u32) -> bool {
        let word = (value / 64) as usize;
        word < self.words.len() && self.words[word] & (1u64 << (value % 64)) != 0
    }

    /// The values from `64 · index` to `64 · index + 63` as the bits of one word (bit `i` for
    /// `64 · index + i`), 0 past the storage.
    #[inline]
    pub fn word(&self, index: usize) -> u64 {
        self.words.get(index).copied().unwrap_or(0)
    }

    /// Adds every value of `other` (used to merge per-thread partial sets).
    pub fn union_with(&mut self, other: &MexSet) {
        if other.words.len() > self.words.len() {
            self.words.resize(other.words.len(), 0);
        }
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= *b;
        }
    }

    /// The least value not in the set.
    #[inline]
    pub fn mex(&self) -> u32 {
        for (i, &w) in self.words.iter().enumerate() {
            if w != u64::MAX {
                return i as u32 * 64 + (!w).trailing_zeros();
            }
        }
        self.words.len() as u32 * 64
    }

    /// The mex of the values of a position's moves (the Sprague–Grundy value of the position,
    /// by the mex rule), each move listed as the positions it leaves (a sum: their values
    /// XORed) and ended by `end`. Clears the set first.
    pub fn mex_of_sums<T: Copy + PartialEq>(
        &mut self,
        moves: &[T],
        end: T,
        value: impl Fn(T) -> u32,
    ) -> u32 {
        self.clear();
        let mut xor = Nimber::ZERO;
        for &part in moves {
            if part == end {
                self.insert(xor.value());
                xor = Nimber::ZERO;
            } else {
                xor += value(part);
            }
        }
        self.mex()
    }
}

/// A set of option values as one byte per value (1 = present), for kernels that insert many
/// values per position and take the mex rarely (the [sparse](super::sparse) kernel).
///
/// An insert is one plain store, with no dependency on earlier inserts (a bitset's
/// read-modify-write of a shared word serializes them), so blocks of inserts overlap in the
/// pipeline. The capacity is a power of two: the XOR of values below `2^b` is below `2^b`, so
/// a set sized for a table's largest value holds every XOR of two of its values.
#[derive(Clone, Debug)]
pub struct FlagSet {
    flags: Vec<u8>,
}

/// Eight present flags, read as one word.
const ALL_PRESENT: u64 = u64::from_ne_bytes([1; 8]);

impl FlagSet {
    /// An empty set holding values up to at least `largest`, and every XOR of two such values.
    pub fn for_values_up_to(largest: u32) -> Self {
        let mut set = FlagSet { flags: Vec::new() };
        set.fit(largest);
        set
    }

    /// Makes room for values up to `largest` and their XORs (a no-op when they fit already);
    /// at least 256 values.
    #[inline]
    pub fn fit(&mut self, largest: u32) {
        if largest as usize >= self.flags.len() {
            let capacity = (largest as usize + 1).next_power_of_two().max(256);
            self.flags.resize(capacity, 0);
        }
    }

    /// Removes every value.
    #[inline]
    pub fn clear(&mut self) {
        self.flags.fill(0);
    }

    /// Adds `value`, which must fit (see [`FlagSet::fit`]).
    #[inline(always)]
    pub fn insert(&mut self, value: u32) {
        self.flags[value as usize] = 1;
    }

    /// True if `value` is in the set.
    #[inline]
    pub fn contains(&self, value: u32) -> bool {
        self.flags.get(value as usize) == Some(&1)
    }

    /// Adds `G(a) ⊕ G(m − a)` for `from ≤ a < to` (`to ≤ m + 1 − from`, so that the pairs
    /// exist): the values of the splits of a heap of `m` into `a` and `m − a`.
    ///
    /// The XORs of a block are computed first (vector instructions, reversing the upper
    /// parts) and stored after.
    #[inline]
    pub fn insert_pairs<V: Values + ?Sized>(&mut self, g: &V, m: usize, from: usize, to: usize) {
        const BLOCK: usize = 32;
        let mut xors = [0u32; BLOCK];
        for start in (from..to).step_by(BLOCK) {
            let count = (to - start).min(BLOCK);
            g.pair_xors(m, start, &mut xors[..count]);
            self.insert_xors::<V>(xors[..count].iter().copied());
        }
    }

    /// Adds `low[i] ⊕ high[high.len() − 1 − i]` for every `i` (`low` and `high` of equal length):
    /// [`FlagSet::insert_pairs`] with the two parts of the splits given as separate slices.
    #[inline]
    pub fn insert_zipped<T: SgValue>(&mut self, low: &[T], high: &[T]) {
        const BLOCK: usize = 32;
        debug_assert_eq!(low.len(), high.len());
        for (lows, highs) in low.chunks(BLOCK).zip(high.rchunks(BLOCK)) {
            let mut xors = [0u32; BLOCK];
            let pairs = lows.iter().zip(highs.iter().rev());
            for (xor, (&x, &y)) in xors.iter_mut().zip(pairs) {
                *xor = x.to_u32() ^ y.to_u32();
            }
            self.insert_xors::<[T]>(xors[..lows.len()].iter().copied());
        }
    }

    /// The flags, one byte per value below the capacity.
    pub fn as_bytes(&self) -> &[u8] {
        &self.flags
    }

    /// Makes the set hold exactly the values flagged in `flags` (from [`FlagSet::as_bytes`] of
    /// a set whose capacity is at most this one's).
    #[inline]
    pub fn reset_to(&mut self, flags: &[u8]) {
        let (head, tail) = self.flags.split_at_mut(flags.len());
        head.copy_from_slice(flags);
        tail.fill(0);
    }

    /// Adds every value of `xors`, each the XOR of two values of a table stored as `V`. The
    /// values of a `u8` table and their XORs are below 256, and those of a set of capacity
    /// `2^b` below `2^b` (see [`FlagSet::fit`]), so the common sizes store into a fixed array
    /// without bounds checks.
    #[inline]
    pub fn insert_xors<V: Values + ?Sized>(&mut self, xors: impl Iterator<Item = u32>) {
        if V::MAX <= u8::MAX as u32 {
            self.insert_below::<256>(xors);
        } else {
            match self.flags.len() {
                512 => self.insert_below::<512>(xors),
                1024 => self.insert_below::<1024>(xors),
                _ => xors.for_each(|x| self.insert(x)),
            }
        }
    }

    /// Adds `xors`, every one below `N` (a power of two at most the capacity).
    #[inline(always)]
    fn insert_below<const N: usize>(&mut self, xors: impl Iterator<Item = u32>) {
        let flags: &mut [u8; N] = (&mut self.flags[..N])
            .try_into()
            .expect("the set has at least N flags");
        xors.for_each(|x| {
            debug_assert!((x as usize) < N, "{x} does not fit a set of {N}");
            // A no-op mask for values that fit; it lets the compiler drop the bounds check.
            flags[x as usize & (N - 1)] = 1;
        });
    }

    /// The least value not in the set.
    pub fn mex(&self) -> u32 {
        let words = self
            .flags
            .chunks_exact(8)
            .map(|chunk| u64::from_ne_bytes(chunk.try_into().expect("chunks of eight bytes")));
        for (i, word) in words.enumerate() {
            if word != ALL_PRESENT {
                // The first byte that is not 1: bytes are 0 or 1, so `word ^ ALL_PRESENT`
                // has a 1 exactly in the absent bytes.
                let absent = (word ^ ALL_PRESENT).to_le();
                return (8 * i) as u32 + absent.trailing_zeros() / 8;
            }
        }
        self.flags.len() as u32
    }
}

/// The mex of the values yielded by `values`; a convenience for simple engines and tests.
pub fn mex_of(values: impl IntoIterator<Item = u32>) -> u32 {
    let mut set = MexSet::with_capacity(64);
    for v in values {
        set.insert(v);
    }
    set.mex()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mex_of_small_sets() {
        assert_eq!(mex_of([]), 0);
        assert_eq!(mex_of([1, 2]), 0);
        assert_eq!(mex_of([0, 1, 3]), 2);
        assert_eq!(mex_of(0..64), 64);
        assert_eq!(mex_of((0..200).filter(|&v| v != 130)), 130);
    }

    #[test]
    fn union_and_clear() {
        let mut a = MexSet::with_capacity(8);
        let mut b = MexSet::with_capacity(8);
        a.insert(0);
        b.insert(1);
        b.insert(100);
        a.union_with(&b);
        assert!(a.contains(100));
        assert_eq!(a.mex(), 2);
        a.clear();
        assert_eq!(a.mex(), 0);
    }

    #[test]
    fn flag_set_agrees_with_the_bitset() {
        // Every mex position inside and across the eight-byte words, and a full set.
        for missing in [0, 1, 7, 8, 63, 64, 100, 127, 128] {
            let mut flags = FlagSet::for_values_up_to(100);
            let values = (0..128).filter(|&v| v != missing);
            values.clone().for_each(|v| flags.insert(v));
            assert_eq!(flags.mex(), mex_of(values.clone()), "{missing}");
            assert!(!flags.contains(missing));
            flags.clear();
            assert_eq!(flags.mex(), 0);
        }
        let mut small = FlagSet::for_values_up_to(3);
        (0..64).for_each(|v| small.insert(v));
        assert_eq!(small.mex(), 64);
        small.fit(64);
        assert_eq!(small.mex(), 64);
    }

    #[test]
    fn flag_set_pairs_are_the_split_values() {
        let g: [u8; 9] = [0, 1, 2, 0, 1, 2, 3, 1, 4];
        let mut flags = FlagSet::for_values_up_to(4);
        // Heap 8 into 2 + 6 and 3 + 5: G(2) ⊕ G(6) = 1, G(3) ⊕ G(5) = 2.
        flags.insert_pairs(g.as_slice(), 8, 2, 4);
        assert!(flags.contains(1) && flags.contains(2));
        assert_eq!(flags.mex(), 0);
    }
}
