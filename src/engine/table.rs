//! Storage for a Sprague–Grundy table `G(0), G(1), …` in the narrowest integer type that fits.
//!
//! Most games have small values (Dawson's Kayles never exceeds 9), so a table starts as `u8`
//! and is widened to `u16` and then `u32` only when a value needs it. Memory per value is what
//! limits how far a table can go, so this matters more than the cost of the occasional widening.

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

/// The values, in one of three widths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Storage {
    /// Every value is below 256.
    U8(Vec<u8>),
    /// Every value is below 65536.
    U16(Vec<u16>),
    /// Anything else.
    U32(Vec<u32>),
}

/// A Sprague–Grundy table: `get(n)` is `G(n)` for `n < len()`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgTable {
    storage: Storage,
    max_value: u32,
}

impl Default for SgTable {
    fn default() -> Self {
        Self::new()
    }
}

impl SgTable {
    /// An empty table (stored as `u8` until a value needs more).
    pub fn new() -> Self {
        SgTable {
            storage: Storage::U8(Vec::new()),
            max_value: 0,
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
        match &self.storage {
            Storage::U8(v) => v.len(),
            Storage::U16(v) => v.len(),
            Storage::U32(v) => v.len(),
        }
    }

    /// True when no value has been computed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `G(n)`. Panics if `n >= len()`.
    #[inline]
    pub fn get(&self, n: usize) -> u32 {
        match &self.storage {
            Storage::U8(v) => v[n] as u32,
            Storage::U16(v) => v[n] as u32,
            Storage::U32(v) => v[n],
        }
    }

    /// The largest value in the table (0 for an empty table).
    pub fn max_value(&self) -> u32 {
        self.max_value
    }

    /// Bytes used per stored value (1, 2 or 4).
    pub fn bytes_per_value(&self) -> usize {
        match &self.storage {
            Storage::U8(_) => 1,
            Storage::U16(_) => 2,
            Storage::U32(_) => 4,
        }
    }

    /// Reserves room for `additional` more values.
    pub fn reserve(&mut self, additional: usize) {
        match &mut self.storage {
            Storage::U8(v) => v.reserve(additional),
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
            Storage::U16(v) => v.push(value as u16),
            Storage::U32(v) => v.push(value),
        }
    }

    /// Makes sure values up to `value` can be stored.
    pub fn widen_for(&mut self, value: u32) {
        let storage = std::mem::replace(&mut self.storage, Storage::U8(Vec::new()));
        self.storage = match storage {
            Storage::U8(v) if value > u8::MAX as u32 => {
                if value > u16::MAX as u32 {
                    Storage::U32(v.into_iter().map(u32::from).collect())
                } else {
                    Storage::U16(v.into_iter().map(u16::from).collect())
                }
            }
            Storage::U16(v) if value > u16::MAX as u32 => {
                Storage::U32(v.into_iter().map(u32::from).collect())
            }
            other => other,
        };
    }

    /// Keeps only the first `len` values.
    pub fn truncate(&mut self, len: usize) {
        match &mut self.storage {
            Storage::U8(v) => v.truncate(len),
            Storage::U16(v) => v.truncate(len),
            Storage::U32(v) => v.truncate(len),
        }
        self.max_value = self.iter().max().unwrap_or(0);
    }

    /// A copy of the first `len` values (all of them if `len >= self.len()`), in the same width.
    pub fn prefix(&self, len: usize) -> SgTable {
        let len = len.min(self.len());
        let storage = match &self.storage {
            Storage::U8(v) => Storage::U8(v[..len].to_vec()),
            Storage::U16(v) => Storage::U16(v[..len].to_vec()),
            Storage::U32(v) => Storage::U32(v[..len].to_vec()),
        };
        let mut table = SgTable {
            storage,
            max_value: 0,
        };
        table.max_value = table.iter().max().unwrap_or(0);
        table
    }

    /// The raw storage, for kernels that want a typed slice.
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
    use super::*;

    #[test]
    fn widens_only_when_needed_and_keeps_values() {
        let mut t = SgTable::new();
        t.push(3);
        t.push(255);
        assert_eq!(t.bytes_per_value(), 1);
        t.push(256);
        assert_eq!(t.bytes_per_value(), 2);
        t.push(70_000);
        assert_eq!(t.bytes_per_value(), 4);
        assert_eq!(t.to_vec(), vec![3, 255, 256, 70_000]);
        assert_eq!(t.max_value(), 70_000);
        t.truncate(2);
        assert_eq!(t.max_value(), 255);
    }
}
