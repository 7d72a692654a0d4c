//! Take-and-break codes: the data type every heap game is lowered to when it can be.
//!
//! A code `d0.d1d2d3…` says, for each `k`, what a player may do after removing `k` tokens
//! from one heap: digit `d_k` is a set of heap counts, bit `j` meaning "leave exactly `j`
//! non-empty heaps" (Guy & Smith 1956; Winning Ways ch. 4). Octal games have digits 0–7
//! (leave at most two heaps), hexadecimal games 0–F (up to three).
//!
//! CGSuite's generalised notation (parsed by [`TakeBreakCode::parse`]):
//! * digits `0-9`, `A-Z` (values 10–35, so up to five heaps) and `{2,3}` (explicit heap counts)
//!   or `{2+}` (two or more heaps);
//! * a modifier after a digit: `!` the heaps left must all differ in size, `=` they must all be
//!   equal, `?` they must not all be equal;
//! * a repeating tail in brackets: `0.[3]` is Nim, `0.3[3]`… (the bracketed digits repeat forever).
//!
//! The digit `d0` (before the point) removes nothing, so it may only split: its bits 0 and 1
//! are rejected (bit 1 would be a move from a heap to itself).

use std::fmt;

use super::diagnostic::{Diagnostic, Span};

/// How many heaps a move may leave: a set of counts, possibly "`j` or more".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HeapCounts {
    /// Bit `j` set: the move may leave exactly `j` non-empty heaps (`j < 64`).
    pub mask: u64,
    /// `Some(j)`: the move may also leave any number of heaps from `j` on (`{j+}`).
    pub at_least: Option<u32>,
}

impl HeapCounts {
    /// True if leaving `j` heaps is allowed.
    pub fn allows(&self, j: u32) -> bool {
        (j < 64 && self.mask & (1 << j) != 0) || self.at_least.is_some_and(|m| j >= m)
    }

    /// True if no move of this digit is possible.
    pub fn is_empty(&self) -> bool {
        self.mask == 0 && self.at_least.is_none()
    }

    /// The largest heap count allowed, or `None` when unbounded (`{j+}`).
    pub fn max_heaps(&self) -> Option<u32> {
        if self.at_least.is_some() {
            None
        } else if self.mask == 0 {
            Some(0)
        } else {
            Some(63 - self.mask.leading_zeros())
        }
    }
}

/// A constraint on the sizes of the heaps a move leaves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Modifier {
    /// No constraint.
    #[default]
    None,
    /// `!`: the heaps left must all have different sizes (Grundy's game is `4!.0`).
    Unequal,
    /// `=`: the heaps left must all have the same size.
    Equal,
    /// `?`: the heaps left must not all have the same size.
    NotAllEqual,
}

/// One digit of a code: the heap counts a move may leave, and a constraint on their sizes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Digit {
    /// Allowed numbers of heaps left.
    pub heaps: HeapCounts,
    /// Constraint on the sizes of the heaps left.
    pub modifier: Modifier,
}

impl Digit {
    /// A plain digit with bit mask `mask` (e.g. 7 for "leave 0, 1 or 2 heaps").
    pub fn from_mask(mask: u64) -> Self {
        Digit { heaps: HeapCounts { mask, at_least: None }, modifier: Modifier::None }
    }

    /// True if this digit allows no move.
    pub fn is_empty(&self) -> bool {
        self.heaps.is_empty()
    }
}

/// A take-and-break code such as `0.07`, `4!.0` or `0.[3]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TakeBreakCode {
    /// `digits[k]` applies when `k` tokens are removed; `digits[0]` is the digit before the point.
    pub digits: Vec<Digit>,
    /// Digits repeated forever after `digits` (empty for a finite code).
    pub tail: Vec<Digit>,
}

impl TakeBreakCode {
    /// The digit for removing `k` tokens (the empty digit past the end of a finite code).
    pub fn digit(&self, k: usize) -> Digit {
        if k < self.digits.len() {
            self.digits[k]
        } else if self.tail.is_empty() {
            Digit::default()
        } else {
            self.tail[(k - self.digits.len()) % self.tail.len()]
        }
    }

    /// True when only finitely many digits are non-zero.
    pub fn is_finite(&self) -> bool {
        self.tail.iter().all(Digit::is_empty)
    }

    /// For a finite code, the largest `k` whose digit is non-zero (`t` in the periodicity
    /// theorem); `None` for an infinite code or one with no moves at all.
    pub fn last_nonzero(&self) -> Option<usize> {
        if !self.is_finite() {
            return None;
        }
        self.digits.iter().rposition(|d| !d.is_empty())
    }

    /// The most heaps any move may leave, or `None` when unbounded.
    pub fn max_heaps(&self) -> Option<u32> {
        let mut most = 0;
        for d in self.digits.iter().chain(&self.tail) {
            most = most.max(d.heaps.max_heaps()?);
        }
        Some(most)
    }

    /// True if any digit carries a `!`, `=` or `?` modifier.
    pub fn has_modifiers(&self) -> bool {
        self.digits.iter().chain(&self.tail).any(|d| d.modifier != Modifier::None)
    }

    /// The subtraction game with finite set `set`: digit 3 (leave 0 or 1 heap) at each `k` in it.
    pub fn subtraction(set: &[u64]) -> Self {
        let len = set.iter().max().map_or(1, |&m| m as usize + 1);
        let mut digits = vec![Digit::default(); len];
        for &k in set {
            digits[k as usize] = Digit::from_mask(3);
        }
        TakeBreakCode { digits, tail: Vec::new() }
    }

    /// The subtraction game "take any number except those in `excluded`" (digit 3 repeating).
    pub fn subtraction_all_but(excluded: &[u64]) -> Self {
        let len = excluded.iter().max().map_or(1, |&m| m as usize + 1);
        let mut digits = vec![Digit::from_mask(3); len];
        digits[0] = Digit::default();
        for &k in excluded {
            digits[k as usize] = Digit::default();
        }
        TakeBreakCode { digits, tail: vec![Digit::from_mask(3)] }
    }
}

/// Which digits a code may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// `octal`: digits 0–7.
    Octal,
    /// `hex`: digits 0–F.
    Hex,
    /// `takebreak`: the full generalised notation.
    General,
}

impl TakeBreakCode {
    /// STUB: parses `text` (which starts at byte `offset` of the rules file).
    pub fn parse(_text: &str, _notation: Notation, _offset: usize) -> Result<Self, Diagnostic> {
        unimplemented!()
    }
}

impl fmt::Display for TakeBreakCode {
    fn fmt(&self, _f: &mut fmt::Formatter<'_>) -> fmt::Result {
        unimplemented!()
    }
}

#[allow(dead_code)]
fn _stub(_: Span) {}
