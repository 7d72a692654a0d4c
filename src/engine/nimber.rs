//! Nimbers: Sprague–Grundy values as the values of a sum.
//!
//! By the Sprague–Grundy theorem (Sprague 1935, Grundy 1939) every impartial game in normal
//! play is equivalent to a Nim heap `*G`, and the value of a sum is the nim-sum (bitwise XOR,
//! Bouton 1901) of its components' values: `G(a + b) = G(a) ⊕ G(b)`. [`Nimber`] is that
//! value with that addition, the one place a sum's value is folded from its components'.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, BitXor, BitXorAssign};

/// A Sprague–Grundy value `*n`; `+` (and `^`) is the nim-sum, so that the value of a sum of
/// components is the sum of their nimbers: `values.iter().sum::<Nimber>()`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Nimber(pub u32);

impl Nimber {
    /// `*0`: the value of the empty sum, and of every P-position.
    pub const ZERO: Nimber = Nimber(0);

    /// The value as a number (`*n` → `n`).
    #[inline]
    pub fn value(self) -> u32 {
        self.0
    }

    /// Whether this is `*0`: a sum of this value is a P-position (the player to move loses).
    #[inline]
    pub fn is_zero(self) -> bool {
        self.0 == 0
    }
}

impl From<u32> for Nimber {
    #[inline]
    fn from(value: u32) -> Self {
        Nimber(value)
    }
}

impl From<&u32> for Nimber {
    #[inline]
    fn from(value: &u32) -> Self {
        Nimber(*value)
    }
}

impl From<&Nimber> for Nimber {
    #[inline]
    fn from(n: &Nimber) -> Self {
        *n
    }
}

impl From<Nimber> for u32 {
    #[inline]
    fn from(n: Nimber) -> Self {
        n.0
    }
}

impl<T: Into<Nimber>> Add<T> for Nimber {
    type Output = Nimber;

    /// The nim-sum with a component of value `other`: `G(a + b) = G(a) ⊕ G(b)`.
    #[inline]
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn add(self, other: T) -> Nimber {
        Nimber(self.0 ^ other.into().0)
    }
}

impl<T: Into<Nimber>> AddAssign<T> for Nimber {
    #[inline]
    #[allow(clippy::suspicious_op_assign_impl)]
    fn add_assign(&mut self, other: T) {
        self.0 ^= other.into().0;
    }
}

impl BitXor for Nimber {
    type Output = Nimber;

    /// The same nim-sum as `+`.
    #[inline]
    fn bitxor(self, other: Nimber) -> Nimber {
        Nimber(self.0 ^ other.0)
    }
}

impl BitXorAssign for Nimber {
    #[inline]
    fn bitxor_assign(&mut self, other: Nimber) {
        self.0 ^= other.0;
    }
}

/// The nim-sum of components of these values (nimbers, or plain values, owned or borrowed).
impl<T: Into<Nimber>> Sum<T> for Nimber {
    #[inline]
    fn sum<I: Iterator<Item = T>>(iter: I) -> Nimber {
        iter.fold(Nimber::ZERO, Add::add)
    }
}

impl fmt::Display for Nimber {
    /// The plain number (`3`, not `*3`), as every report prints values.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_nim_sum_is_the_xor() {
        assert_eq!(Nimber(3) + Nimber(5), Nimber(6));
        assert_eq!(Nimber(3) ^ Nimber(3), Nimber::ZERO);
        assert_eq!([1u32, 2, 3].iter().sum::<Nimber>(), Nimber::ZERO);
        assert_eq!(std::iter::empty::<u32>().sum::<Nimber>(), Nimber::ZERO);
        assert!((Nimber(7) + 7).is_zero());
        assert_eq!(Nimber(12).to_string(), "12");
    }

    proptest! {
        #[test]
        fn nimbers_form_a_group_of_exponent_two(a: u32, b: u32, c: u32) {
            let (a, b, c) = (Nimber(a), Nimber(b), Nimber(c));
            prop_assert_eq!(a + b, b + a);
            prop_assert_eq!((a + b) + c, a + (b + c));
            prop_assert_eq!(a + Nimber::ZERO, a);
            prop_assert!((a + a).is_zero());
        }
    }
}
