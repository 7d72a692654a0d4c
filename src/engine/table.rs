//! Storage for a Sprague–Grundy table `G(0), G(1), …` in the narrowest form that fits.
//!
//! Most games have small values (Dawson's Kayles never exceeds 9), so a table starts as `u8`
//! and is widened only when a value needs it: in large tables (see [`PACK_FROM`]) to 9 bits
//! (values up to 511: the low byte of each value plus a plane of ninth bits, 1.125 bytes per
//! value), then `u16`, then `u32`. Memory per value is what limits how far a table can go, so
//! this matters more than the cost of the occasional widening: Grundy's game stays below 512 far
//! beyond 2^28 (its largest value up to 2^28 is 280), so a table of 2^28 values takes 288 MiB
//! instead of the 512 MiB of `u16`.
//!
//! Kernels read a table through [`Values`], implemented by plain slices and by [`Packed9`].

/// One Sprague–Grundy value in a storage width. Implemented for `u8`, `u16` and `u32`.
pub trait SgValue: Copy + Send + Sync + Default + 'static {
    /// The largest value this width holds.
    const MAX: u32;
    /// Converts a stored value to `u32`.
    fn to_u32(self) -> u32;
    /// Converts a `u32` known to be at most [`SgValue::MAX`].
    fn from_u32(v: u32) -> Self;
}

macro_rules! impl_sg_value {
    ($($t:ty),*) => {$(
        impl SgValue for $t {
            const MAX: u32 = <$t>::MAX as u32;
            #[inline(always)]
            fn to_u32(self) -> u32 { self as u32 }
            #[inline(always)]
            fn from_u32(v: u32) -> Self { v as $t }
        }
    )*};
}
impl_sg_value!(u8, u16, u32);

/// Read access to `G(0..len)` for the kernels, whatever the storage.
pub trait Values: Sync {
    /// The largest value the storage can hold (flag sets pick a fixed size from it).
    const MAX: u32;
    /// Number of values.
    fn len(&self) -> usize;
    /// True when there are no values.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// `G(i)`. Panics if `i >= len()`.
    fn at(&self, i: usize) -> u32;
    /// Writes `G(a) ⊕ G(m − a)` to `out[a − from]` for `from ≤ a < from + out.len()`: the
    /// values of the splits of a heap of `m` into `a` and `m − a` (`out.len() ≤ 32`, and
    /// `from + out.len() ≤ m + 1 − from`, so that the pairs exist).
    fn pair_xors(&self, m: usize, from: usize, out: &mut [u32]);
}

impl<T: SgValue> Values for [T] {
    const MAX: u32 = T::MAX;

    #[inline(always)]
    fn len(&self) -> usize {
        <[T]>::len(self)
    }

    #[inline(always)]
    fn at(&self, i: usize) -> u32 {
        self[i].to_u32()
    }

    #[inline(always)]
    fn pair_xors(&self, m: usize, from: usize, out: &mut [u32]) {
        let to = from + out.len();
        let pairs = self[from..to]
            .iter()
            .zip(self[m + 1 - to..=m - from].iter().rev());
        for (xor, (&x, &y)) in out.iter_mut().zip(pairs) {
            *xor = x.to_u32() ^ y.to_u32();
        }
    }
}

/// Values up to 511 in 9 bits each: the low bytes, and the ninth bits packed 64 to a word
/// (bit `i % 64` of word `i / 64` is bit 8 of `G(i)`; bits past the end are zero).
///
/// Reading a value touches two arrays, but the kernels read neighbouring values heap after
/// heap, so both stay in the cache; a block of split values takes two unaligned 64-bit reads
/// of the bit plane (see [`Values::pair_xors`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Packed9 {
    low: Vec<u8>,
    high: Vec<u64>,
}

impl Packed9 {
    /// The largest value a `Packed9` holds.
    pub const MAX: u32 = 511;

    /// Values below 256, as their low bytes (the allocation is kept).
    fn from_bytes(low: Vec<u8>) -> Self {
        let mut high = Vec::with_capacity(low.capacity().div_ceil(64));
        high.resize(low.len().div_ceil(64), 0);
        Packed9 { low, high }
    }

    fn reserve(&mut self, additional: usize) {
        self.low.reserve(additional);
        let words = (self.low.len() + additional).div_ceil(64);
        self.high.reserve(words.saturating_sub(self.high.len()));
    }

    /// Appends a value up to [`Packed9::MAX`].
    fn push(&mut self, value: u32) {
        debug_assert!(value <= Self::MAX);
        let i = self.low.len();
        self.low.push(value as u8);
        if i.is_multiple_of(64) {
            self.high.push(0);
        }
        self.high[i / 64] |= u64::from(value >> 8 & 1) << (i % 64);
    }

    fn truncate(&mut self, len: usize) {
        if len >= self.low.len() {
            return;
        }
        self.low.truncate(len);
        self.high.truncate(len.div_ceil(64));
        self.clear_bits_past_end();
    }

    /// A copy of the first `len ≤ self.len()` values (only those: a resumed search takes
    /// short prefixes of a long table).
    fn prefix(&self, len: usize) -> Self {
        let mut copy = Packed9 {
            low: self.low[..len].to_vec(),
            high: self.high[..len.div_ceil(64)].to_vec(),
        };
        copy.clear_bits_past_end();
        copy
    }

    /// Zeroes the bits of the plane's last word past the last value.
    fn clear_bits_past_end(&mut self) {
        let len = self.low.len();
        if let Some(last) = self.high.last_mut().filter(|_| !len.is_multiple_of(64)) {
            *last &= (1u64 << (len % 64)) - 1;
        }
    }

    /// Bits `at..at + count` of the bit plane (`count ≤ 64`), bit `at` lowest.
    #[inline(always)]
    fn high_bits(&self, at: usize, count: usize) -> u64 {
        let word = at / 64;
        let next = self.high.get(word + 1).copied().unwrap_or(0);
        let both = u128::from(next) << 64 | u128::from(self.high[word]);
        (both >> (at % 64)) as u64 & (u64::MAX >> (64 - count))
    }
}

/// `SPREAD_BITS[b]`: byte `i` is bit `i` of `b` (little-endian).
static SPREAD_BITS: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            table[b] |= ((b as u64 >> i) & 1) << (8 * i);
            i += 1;
        }
        b += 1;
    }
    table
};

impl Values for Packed9 {
    const MAX: u32 = Packed9::MAX;

    #[inline(always)]
    fn len(&self) -> usize {
        self.low.len()
    }

    #[inline(always)]
    fn at(&self, i: usize) -> u32 {
        u32::from(self.low[i]) | ((self.high[i / 64] >> (i % 64) & 1) as u32) << 8
    }

    #[inline(always)]
    fn pair_xors(&self, m: usize, from: usize, out: &mut [u32]) {
        let count = out.len();
        if count == 0 {
            return;
        }
        let to = from + count;
        let lows = &self.low[from..to];
        let highs = &self.low[m + 1 - to..=m - from];
        // Bit `i` of `upper`: the ninth bit of `G(m − from − i)`, the partner of `from + i`.
        let upper = self.high_bits(m + 1 - to, count).reverse_bits() >> (64 - count);
        let ninth = (self.high_bits(from, count) ^ upper).to_le_bytes();
        // One byte (0 or 1) per pair, so that the loop below runs on vectors (a variable shift
        // per lane would not).
        let mut ninths = [0u8; 32];
        for (lanes, &bits) in ninths.chunks_exact_mut(8).zip(&ninth) {
            lanes.copy_from_slice(&SPREAD_BITS[bits as usize].to_le_bytes());
        }
        let pairs = lows.iter().zip(highs.iter().rev()).zip(&ninths);
        for (xor, ((&x, &y), &bit)) in out.iter_mut().zip(pairs) {
            *xor = u32::from(x ^ y) | u32::from(bit) << 8;
        }
    }
}

/// Tables of at least this many values (`2^25`: 64 MiB as `u16`) store values from 256 to 511
/// in 9 bits; smaller ones use `u16`. Reading 9-bit values costs the sparse kernel about a
/// quarter more time (octal 0.6 to 4·10^6: 9.5 s against 7.5 s), which only pays where memory
/// is the limit.
pub const PACK_FROM: usize = 1 << 25;

/// The values, in one of four widths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Storage {
    /// Every value is below 256.
    U8(Vec<u8>),
    /// Every value is below 512.
    U9(Packed9),
    /// Every value is below 65536.
    U16(Vec<u16>),
    /// Anything else.
    U32(Vec<u32>),
}

/// Calls `$body` with `$values` bound to the storage as a `&impl Values` (a slice or a
/// [`Packed9`]), so that one generic kernel serves every width.
macro_rules! with_values {
    ($storage:expr, |$values:ident| $body:expr) => {
        match $storage {
            $crate::engine::table::Storage::U8(v) => {
                let $values = v.as_slice();
                $body
            }
            $crate::engine::table::Storage::U9(v) => {
                let $values = v;
                $body
            }
            $crate::engine::table::Storage::U16(v) => {
                let $values = v.as_slice();
                $body
            }
            $crate::engine::table::Storage::U32(v) => {
                let $values = v.as_slice();
                $body
            }
        }
    };
}
pub(crate) use with_values;

/// A Sprague–Grundy table: `get(n)` is `G(n)` for `n < len()`. Two tables are equal when they
/// hold the same values, whatever their storage.
#[derive(Clone, Debug)]
pub struct SgTable {
    storage: Storage,
    max_value: u32,
    /// Values from 256 to 511 are stored in 9 bits when the table holds or has room for at
    /// least this many values (see [`PACK_FROM`]).
    pack_from: usize,
}

impl Default for SgTable {
    fn default() -> Self {
        Self::new()
    }
}

impl PartialEq for SgTable {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for SgTable {}

impl SgTable {
    /// An empty table (stored as `u8` until a value needs more).
    pub fn new() -> Self {
        SgTable {
            storage: Storage::U8(Vec::new()),
            max_value: 0,
            pack_from: PACK_FROM,
        }
    }

    /// An empty table that is never stored in 9 bits: always a plain slice (for copies that
    /// kernels read as slices; see also [`SgTable::unpack`]).
    pub fn unpacked() -> Self {
        SgTable::packed_from(usize::MAX)
    }

    /// An empty table that stores values from 256 to 511 in 9 bits once it holds or has room
    /// for `len` values (0: always; [`SgTable::new`] uses [`PACK_FROM`]).
    pub fn packed_from(len: usize) -> Self {
        SgTable {
            pack_from: len,
            ..SgTable::new()
        }
    }

    /// A table holding `values`, stored in the narrowest width that fits them.
    pub fn from_values(values: &[u32]) -> Self {
        let mut table = SgTable::new();
        table.reserve(values.len());
        for &v in values {
            table.push(v);
        }
        table
    }

    /// Number of values, i.e. the table covers `0..len()`.
    pub fn len(&self) -> usize {
        with_values!(&self.storage, |values| values.len())
    }

    /// True when no value has been computed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `G(n)`. Panics if `n >= len()`.
    #[inline]
    pub fn get(&self, n: usize) -> u32 {
        with_values!(&self.storage, |values| values.at(n))
    }

    /// The largest value in the table (0 for an empty table).
    pub fn max_value(&self) -> u32 {
        self.max_value
    }

    /// Bits stored per value: 8, 9, 16 or 32.
    pub fn value_bits(&self) -> u32 {
        match &self.storage {
            Storage::U8(_) => 8,
            Storage::U9(_) => 9,
            Storage::U16(_) => 16,
            Storage::U32(_) => 32,
        }
    }

    /// Reserves room for `additional` more values.
    pub fn reserve(&mut self, additional: usize) {
        match &mut self.storage {
            Storage::U8(v) => v.reserve(additional),
            Storage::U9(v) => v.reserve(additional),
            Storage::U16(v) => v.reserve(additional),
            Storage::U32(v) => v.reserve(additional),
        }
    }

    /// Appends `G(len())`, widening the storage first if `value` does not fit.
    pub fn push(&mut self, value: u32) {
        self.widen_for(value);
        self.max_value = self.max_value.max(value);
        match &mut self.storage {
            Storage::U8(v) => v.push(value as u8),
            Storage::U9(v) => v.push(value),
            Storage::U16(v) => v.push(value as u16),
            Storage::U32(v) => v.push(value),
        }
    }

    /// Makes sure values up to `value` can be stored. From `u8` to 9 bits the low bytes stay
    /// where they are (only the bit plane is allocated); other widenings copy the table.
    pub fn widen_for(&mut self, value: u32) {
        let fits = match &self.storage {
            Storage::U8(_) => value <= u8::MAX.into(),
            Storage::U9(_) => value <= Packed9::MAX,
            Storage::U16(_) => value <= u16::MAX.into(),
            Storage::U32(_) => true,
        };
        if fits {
            return;
        }
        let storage = std::mem::replace(&mut self.storage, Storage::U8(Vec::new()));
        self.storage = match storage {
            Storage::U8(v) if value <= Packed9::MAX && v.capacity() >= self.pack_from => {
                Storage::U9(Packed9::from_bytes(v))
            }
            other => {
                let old = with_values!(&other, |values| (0..values.len())
                    .map(|i| values.at(i))
                    .collect::<Vec<u32>>());
                if value <= u16::MAX.into() {
                    Storage::U16(old.into_iter().map(|v| v as u16).collect())
                } else {
                    Storage::U32(old)
                }
            }
        };
    }

    /// Stores 9-bit values as `u16` (a copy of the table), for kernels that read plain slices
    /// only: the dense take-and-break kernel, whose `O(n²)` work keeps its tables far below the
    /// sizes where the saving matters. Later values keep the wider storage.
    pub fn unpack(&mut self) {
        if let Storage::U9(packed) = &self.storage {
            let values = (0..packed.len()).map(|i| packed.at(i) as u16).collect();
            self.storage = Storage::U16(values);
        }
    }

    /// Keeps only the first `len` values.
    pub fn truncate(&mut self, len: usize) {
        match &mut self.storage {
            Storage::U8(v) => v.truncate(len),
            Storage::U9(v) => v.truncate(len),
            Storage::U16(v) => v.truncate(len),
            Storage::U32(v) => v.truncate(len),
        }
        self.max_value = self.iter().max().unwrap_or(0);
    }

    /// Removes the values from `at` on and returns them as a table (for setting a long tail
    /// aside; [`SgTable::append`] puts it back).
    pub fn split_off(&mut self, at: usize) -> SgTable {
        let mut tail = SgTable::packed_from(self.pack_from);
        tail.reserve(self.len().saturating_sub(at));
        (at..self.len()).for_each(|n| tail.push(self.get(n)));
        self.truncate(at);
        tail
    }

    /// Appends every value of `other`.
    pub fn append(&mut self, other: SgTable) {
        other.iter().for_each(|v| self.push(v));
    }

    /// A copy of the first `len` values (all of them if `len >= self.len()`), in the same width.
    pub fn prefix(&self, len: usize) -> SgTable {
        let len = len.min(self.len());
        let storage = match &self.storage {
            Storage::U8(v) => Storage::U8(v[..len].to_vec()),
            Storage::U9(v) => Storage::U9(v.prefix(len)),
            Storage::U16(v) => Storage::U16(v[..len].to_vec()),
            Storage::U32(v) => Storage::U32(v[..len].to_vec()),
        };
        let mut table = SgTable {
            storage,
            max_value: 0,
            pack_from: self.pack_from,
        };
        table.max_value = table.iter().max().unwrap_or(0);
        table
    }

    /// The raw storage, for kernels (read it through `with_values!`).
    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    /// All values in order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len()).map(move |n| self.get(n))
    }

    /// All values as `u32`.
    pub fn to_vec(&self) -> Vec<u32> {
        self.iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn widens_only_when_needed_and_keeps_values() {
        let mut t = SgTable::packed_from(0);
        t.push(3);
        t.push(255);
        assert_eq!(t.value_bits(), 8);
        t.push(256);
        assert_eq!(t.value_bits(), 9);
        t.push(511);
        assert_eq!(t.value_bits(), 9);
        t.push(512);
        assert_eq!(t.value_bits(), 16);
        t.push(70_000);
        assert_eq!(t.value_bits(), 32);
        assert_eq!(t.to_vec(), vec![3, 255, 256, 511, 512, 70_000]);
        assert_eq!(t.max_value(), 70_000);
        t.truncate(2);
        assert_eq!(t.max_value(), 255);
    }

    #[test]
    fn large_tables_pack_nine_bits() {
        let mut t = SgTable::new();
        t.reserve(PACK_FROM);
        t.push(300);
        assert_eq!(t.value_bits(), 9);
        let mut small = SgTable::new();
        small.reserve(PACK_FROM - 1);
        small.push(300);
        assert_eq!(small.value_bits(), 16);
    }

    #[test]
    fn unpacked_tables_skip_nine_bits() {
        let mut t = SgTable::unpacked();
        t.push(300);
        assert_eq!(t.value_bits(), 16);
        assert_eq!(SgTable::from_values(&[1, 300, 2]).value_bits(), 16);
        let mut packed = SgTable::packed_from(0);
        [1, 300, 2].into_iter().for_each(|v| packed.push(v));
        assert_eq!(packed.value_bits(), 9);
        packed.unpack();
        assert_eq!(packed.value_bits(), 16);
        packed.push(400);
        assert_eq!(packed.value_bits(), 16);
        assert_eq!(packed.to_vec(), vec![1, 300, 2, 400]);
        assert_eq!(packed, SgTable::from_values(&[1, 300, 2, 400]));
    }

    /// Values below 512 with the ninth bit set in irregular places, `len` of them.
    fn nine_bit_values(len: usize, seed: u64) -> Vec<u32> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % 512) as u32
            })
            .collect()
    }

    proptest! {
        /// The packed reads (`at`, the blocks of split values) agree with a plain `u32` slice,
        /// for blocks at every offset against the 64-bit words of the bit plane.
        #[test]
        fn packed_reads_match_plain_values(len in 1usize..400, seed: u64, cut in 0usize..400) {
            let values = nine_bit_values(len, seed);
            let mut packed = SgTable::packed_from(0);
            packed.widen_for(300);
            values.iter().for_each(|&v| packed.push(v));
            let Storage::U9(packed) = packed.storage() else { panic!("not packed") };
            prop_assert_eq!(Values::len(packed), len);
            for (i, &v) in values.iter().enumerate() {
                prop_assert_eq!(packed.at(i), v);
            }
            let plain = values.as_slice();
            let m = len - 1;
            for from in 0..=m / 2 {
                let count = (m + 1 - 2 * from).min(32).min(cut % 33);
                let (mut a, mut b) = ([0u32; 32], [0u32; 32]);
                packed.pair_xors(m, from, &mut a[..count]);
                plain.pair_xors(m, from, &mut b[..count]);
                prop_assert_eq!(a, b);
            }
            let mut truncated = SgTable::packed_from(0);
            truncated.widen_for(300);
            values.iter().for_each(|&v| truncated.push(v));
            let prefix = truncated.prefix(cut.min(len));
            let mut split = truncated.clone();
            let tail = split.split_off(cut.min(len));
            prop_assert_eq!(&split, &prefix);
            split.append(tail);
            prop_assert_eq!(&split, &truncated);
            truncated.truncate(cut.min(len));
            prop_assert_eq!(truncated.to_vec(), values[..cut.min(len)].to_vec());
            prop_assert_eq!(prefix.storage(), truncated.storage());
        }
    }
}
