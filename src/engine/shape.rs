//! The one row-major layout of a box of positions.
//!
//! A box is `0..=extents[0] × 0..=extents[1] × …`; its positions are stored row-major (the
//! last coordinate varies fastest), so position `[x0, x1, …]` sits at the flat index
//! `Σ x_i · stride_i` with `stride_i = Π_{j > i} (extents[j] + 1)`. Every table of a box (the
//! engine's kernels, [`crate::engine::BoxTable`], the value rules' recursions, the exporters,
//! the analyses) indexes, steps and counts its positions through [`BoxShape`] and [`step`].

/// The shape of the box `0..=extents[i]`: its extents, row-major strides and number of
/// positions, which fits in a `usize` ([`BoxShape::checked`] says when it does not).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BoxShape {
    extents: Vec<u64>,
    strides: Vec<usize>,
    /// `⌊2^64 / stride⌋ + 1` for each stride (0 for a stride past `u32`): the quotient
    /// of an index below `2^32` by the stride is the high half of its product with this
    /// (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019), without the
    /// division that would otherwise cost most of decoding a position.
    reciprocals: Vec<u64>,
    len: usize,
}

impl BoxShape {
    /// The box `0..=extents[i]`.
    ///
    /// # Panics
    /// If its number of positions does not fit in a `usize` (callers check the request's
    /// budget first; [`BoxShape::checked`] is the fallible form).
    pub fn new(extents: &[u64]) -> Self {
        Self::checked(extents).expect("the box's positions fit in a usize")
    }

    /// The box `0..=extents[i]`, or `None` when its number of positions overflows a `usize`.
    pub fn checked(extents: &[u64]) -> Option<Self> {
        let mut strides = vec![1usize; extents.len()];
        let mut len = 1usize;
        for (stride, &extent) in strides.iter_mut().zip(extents).rev() {
            *stride = len;
            let side = usize::try_from(extent).ok()?.checked_add(1)?;
            len = len.checked_mul(side)?;
        }
        let reciprocals = strides
            .iter()
            .map(|&stride| match u32::try_from(stride) {
                Ok(stride) if stride > 1 => u64::MAX / u64::from(stride) + 1,
                _ => 0,
            })
            .collect();
        Some(BoxShape {
            extents: extents.to_vec(),
            strides,
            reciprocals,
            len,
        })
    }

    /// The largest value of each coordinate.
    #[inline]
    pub fn extents(&self) -> &[u64] {
        &self.extents
    }

    /// Number of coordinates.
    #[inline]
    pub fn dimension(&self) -> usize {
        self.extents.len()
    }

    /// Number of positions (at least 1: a box is never empty).
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: every box holds the position `[0, 0, …]`.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The row-major strides: how far the flat index moves when coordinate `i` grows by one.
    #[inline]
    pub fn strides(&self) -> &[usize] {
        &self.strides
    }

    /// Whether `position` lies in the box (as many coordinates, each within its extent).
    #[inline]
    pub fn contains(&self, position: &[u64]) -> bool {
        position.len() == self.extents.len()
            && position.iter().zip(&self.extents).all(|(c, e)| c <= e)
    }

    /// The flat index of `position`, or `None` outside the box.
    #[inline]
    pub fn index(&self, position: &[u64]) -> Option<usize> {
        if position.len() != self.extents.len() {
            return None;
        }
        let mut index = 0;
        for ((&c, &e), &stride) in position.iter().zip(&self.extents).zip(&self.strides) {
            if c > e {
                return None;
            }
            index += c as usize * stride;
        }
        Some(index)
    }

    /// The position at flat `index` (`index < len()`).
    pub fn position(&self, index: usize) -> Vec<u64> {
        let mut position = Vec::with_capacity(self.extents.len());
        self.write_position(index, &mut position);
        position
    }

    /// The position at flat `index`, written into `out` (cleared first): no allocation once
    /// `out` has room.
    #[inline]
    pub fn write_position(&self, mut index: usize, out: &mut Vec<u64>) {
        out.clear();
        for (&stride, &reciprocal) in self.strides.iter().zip(&self.reciprocals) {
            let quotient = if stride == 1 {
                index
            } else if reciprocal != 0 && index <= u32::MAX as usize {
                ((u128::from(reciprocal) * index as u128) >> 64) as usize
            } else {
                index / stride
            };
            out.push(quotient as u64);
            index -= quotient * stride;
        }
    }

    /// Moves `position` to the next one in row-major order; false (and `position` back at
    /// `[0, 0, …]`) after the last.
    #[inline]
    pub fn step(&self, position: &mut [u64]) -> bool {
        step(&self.extents, position)
    }

    /// Every position, in row-major order.
    pub fn positions(&self) -> Positions<'_> {
        Positions {
            extents: &self.extents,
            next: Some(vec![0; self.extents.len()]),
        }
    }
}

/// Moves `position` to the next position of the box `0..=extents[i]` in row-major order (the
/// last coordinate fastest); false (and `position` back at `[0, 0, …]`) after the last. For
/// boxes too large to index ([`BoxShape::checked`]), such as the budget's samples.
#[inline]
pub fn step(extents: &[u64], position: &mut [u64]) -> bool {
    for (c, &extent) in position.iter_mut().zip(extents).rev() {
        if *c < extent {
            *c += 1;
            return true;
        }
        *c = 0;
    }
    false
}

/// The positions of a box in row-major order ([`BoxShape::positions`]).
#[derive(Clone, Debug)]
pub struct Positions<'a> {
    extents: &'a [u64],
    next: Option<Vec<u64>>,
}

impl Iterator for Positions<'_> {
    type Item = Vec<u64>;

    fn next(&mut self) -> Option<Vec<u64>> {
        let current = self.next.take()?;
        let mut following = current.clone();
        if step(self.extents, &mut following) {
            self.next = Some(following);
        }
        Some(current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_box_is_laid_out_row_major() {
        let shape = BoxShape::new(&[2, 3]);
        assert_eq!((shape.len(), shape.dimension()), (12, 2));
        assert_eq!(shape.strides(), &[4, 1]);
        assert_eq!(shape.index(&[1, 0]), Some(4));
        assert_eq!(shape.index(&[2, 3]), Some(11));
        assert_eq!(shape.index(&[3, 0]), None);
        assert_eq!(shape.index(&[0, 4]), None);
        assert_eq!(shape.index(&[1]), None);
        assert_eq!(shape.position(5), vec![1, 1]);
        let listed: Vec<_> = shape.positions().take(5).collect();
        assert_eq!(listed, [[0, 0], [0, 1], [0, 2], [0, 3], [1, 0]]);
        assert!(shape.contains(&[2, 3]) && !shape.contains(&[2, 4]));
        assert!(!shape.is_empty());
    }

    #[test]
    fn a_box_of_no_coordinates_has_one_position() {
        let shape = BoxShape::new(&[]);
        assert_eq!(shape.len(), 1);
        assert_eq!(shape.positions().collect::<Vec<_>>(), [Vec::<u64>::new()]);
        assert_eq!(shape.index(&[]), Some(0));
    }

    #[test]
    fn a_box_too_large_to_index_is_refused() {
        assert!(BoxShape::checked(&[u64::MAX]).is_none());
        assert!(BoxShape::checked(&[u32::MAX as u64; 3]).is_none());
        assert!(BoxShape::checked(&[0, u32::MAX as u64]).is_some());
    }

    #[test]
    fn stepping_wraps_after_the_last_position() {
        let mut position = [1, 2];
        assert!(!step(&[1, 2], &mut position));
        assert_eq!(position, [0, 0]);
        let mut position = [0, 2];
        assert!(step(&[1, 2], &mut position));
        assert_eq!(position, [1, 0]);
    }

    proptest! {
        #[test]
        fn index_and_position_round_trip(extents in proptest::collection::vec(0u64..6, 0..5)) {
            let shape = BoxShape::new(&extents);
            let mut count = 0;
            for (i, position) in shape.positions().enumerate() {
                prop_assert_eq!(shape.index(&position), Some(i));
                prop_assert_eq!(shape.position(i), position.clone());
                let by_strides: usize = position
                    .iter()
                    .zip(shape.strides())
                    .map(|(&c, &s)| c as usize * s)
                    .sum();
                prop_assert_eq!(by_strides, i);
                count += 1;
            }
            prop_assert_eq!(count, shape.len());
            prop_assert_eq!(
                count as u128,
                extents.iter().map(|&e| u128::from(e) + 1).product::<u128>()
            );
        }
    }

    /// The quotients by reciprocal ([`BoxShape::write_position`]) are the divisions'.
    #[test]
    fn positions_decode_as_by_division() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut out = Vec::new();
        for extents in [
            vec![4000, 4000],
            vec![88, 66, 44, 22],
            vec![0, 5, 0],
            vec![65535, 65535],
            vec![1, 2, 3, 4, 5, 6, 7, 8],
            vec![3, 1 << 33],
        ] {
            let shape = BoxShape::new(&extents);
            let mut indices = vec![0, shape.len() - 1, (u32::MAX as usize).min(shape.len() - 1)];
            indices.extend((0..2000).map(|_| next() as usize % shape.len()));
            for index in indices {
                shape.write_position(index, &mut out);
                let mut rest = index;
                let want: Vec<u64> = shape
                    .strides()
                    .iter()
                    .map(|&s| {
                        let q = rest / s;
                        rest %= s;
                        q as u64
                    })
                    .collect();
                assert_eq!(out, want, "{extents:?} at {index}");
                assert_eq!(shape.index(&out), Some(index));
            }
        }
    }
}
