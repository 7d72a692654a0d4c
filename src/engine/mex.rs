//! The mex core shared by every kernel: a growable bitset of option values.
//!
//! `mex(S)` is the least non-negative integer not in `S`; the Sprague–Grundy value of a position
//! is the mex of its options' values (Sprague 1935, Grundy 1939).

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

    /// True if `value` is in the set.
    #[inline]
    pub fn contains(&self, value: u32) -> bool {
        let word = (value / 64) as usize;
        word < self.words.len() && self.words[word] & (1u64 << (value % 64)) != 0
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
}
