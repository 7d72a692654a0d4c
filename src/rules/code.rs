//! Take-and-break codes: the data type every heap game is lowered to when it can be.
//!
//! A code `d0.d1d2d3…` says, for each `k`, what a player may do after removing `k` tokens
//! from one heap: digit `d_k` is a set of heap counts, bit `j` meaning "leave exactly `j`
//! non-empty heaps" (Guy & Smith 1956; Winning Ways ch. 4). Octal games have digits 0–7
//! (leave at most two heaps), hexadecimal games 0–F (up to three).
//!
//! CGSuite's generalised notation (parsed by [`TakeBreakCode::parse`]):
//! * digits `0-9`, `A-Z` (values 10–35, so up to five heaps; lower case is accepted too) and
//!   `{2,3}` (explicit heap counts, each below 64) or `{2+}` (two or more heaps), combinable
//!   as `{0,1,3+}`;
//! * a modifier after a digit: `!` the heaps left must all differ in size, `=` they must all be
//!   equal, `?` they must not all be equal. A modifier constrains only moves that leave two or
//!   more heaps; a move leaving zero or one heap is always allowed by its digit;
//! * a repeating tail in brackets, last: `0.[3]` is Nim, `0.3[37]` is `0.3373737…`.
//!
//! The `octal` notation allows only the digits 0–7 and `hex` only 0–F; both allow a tail but
//! not `{…}` or modifiers. The digit before the point may be omitted (`.07` is `0.07`) and so
//! may the point when nothing follows it (`4` is `4.`). A code with no move (`0.0`) is valid.
//!
//! The digit `d0` (before the point) removes nothing, so it may only split: its bits 0 and 1
//! are rejected (bit 1 would be a move from a heap to itself). Codes are kept
//! [normalized](TakeBreakCode::normalized), and `Display` writes the text that parses back.

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
        Digit {
            heaps: HeapCounts {
                mask,
                at_least: None,
            },
            modifier: Modifier::None,
        }
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

    /// The heap size past which every move of the code is available: the last non-zero digit
    /// `t` of a finite code, the digits before the tail plus one tail period of an infinite one.
    /// Below it a table shows a truncated game (`subtraction 1..=k` has `G(n) = n` for `n ≤ k`),
    /// so a period search counts no evidence there (see [`crate::analysis::period::Evidence`]).
    pub fn scale(&self) -> usize {
        if self.is_finite() {
            self.last_nonzero().unwrap_or(0)
        } else {
            self.digits.len() + self.tail.len()
        }
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
        self.digits
            .iter()
            .chain(&self.tail)
            .any(|d| d.modifier != Modifier::None)
    }

    /// The subtraction game with finite set `set`: digit 3 (leave 0 or 1 heap) at each `k` in it.
    pub fn subtraction(set: &[u64]) -> Self {
        let len = set.iter().max().map_or(1, |&m| m as usize + 1);
        let mut digits = vec![Digit::default(); len];
        for &k in set {
            digits[k as usize] = Digit::from_mask(3);
        }
        TakeBreakCode {
            digits,
            tail: Vec::new(),
        }
    }

    /// The subtraction game "take any number except those in `excluded`" (digit 3 repeating).
    pub fn subtraction_all_but(excluded: &[u64]) -> Self {
        let len = excluded.iter().max().map_or(1, |&m| m as usize + 1);
        let mut digits = vec![Digit::from_mask(3); len];
        digits[0] = Digit::default();
        for &k in excluded {
            digits[k as usize] = Digit::default();
        }
        TakeBreakCode {
            digits,
            tail: vec![Digit::from_mask(3)],
        }
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

impl HeapCounts {
    /// The same set of counts in canonical form: `{j+}` lowered over any explicit counts just
    /// below it (`{2,3+}` becomes `{2+}`), and explicit counts it already covers dropped.
    pub fn normalized(self) -> Self {
        let Some(mut from) = self.at_least else {
            return self;
        };
        while from > 0 && from <= 64 && self.mask & (1 << (from - 1)) != 0 {
            from -= 1;
        }
        let mask = if from >= 64 {
            self.mask
        } else {
            self.mask & ((1u64 << from) - 1)
        };
        HeapCounts {
            mask,
            at_least: Some(from),
        }
    }
}

impl Digit {
    /// The same digit in canonical form: counts [normalized](HeapCounts::normalized), a
    /// modifier dropped where it cannot matter (no move leaves two or more heaps), and `?`
    /// written `!` where they agree (at most two heaps: "not all equal" is "different").
    pub fn normalized(self) -> Self {
        let heaps = self.heaps.normalized();
        let modifier = match (heaps.max_heaps(), self.modifier) {
            (Some(most), _) if most <= 1 => Modifier::None,
            (Some(2), Modifier::NotAllEqual) => Modifier::Unequal,
            (_, modifier) => modifier,
        };
        Digit { heaps, modifier }
    }
}

impl TakeBreakCode {
    /// Parses `text`, a code in `notation` that starts at byte `offset` of the rules file (so
    /// that errors point into the file).
    ///
    /// The result is [normalized](TakeBreakCode::normalized): `0.070` gives the same code as
    /// `0.07`, and `0.3[3]` the same as `0.[3]`. A code with no move at all (`0.0`) is accepted;
    /// every value of its game is 0. Surrounding whitespace is ignored.
    pub fn parse(text: &str, notation: Notation, offset: usize) -> Result<Self, Diagnostic> {
        CodeParser {
            text,
            notation,
            offset,
            pos: 0,
        }
        .code()
    }

    /// The same code in canonical form: digits [normalized](Digit::normalized), trailing empty
    /// digits of a finite code dropped (keeping `d0`), the repeating tail cut to its shortest
    /// period and rolled back into the finite part (`0.37[37]` becomes `0.[37]`), and an
    /// all-empty tail removed. Two codes with the same moves usually normalize to equal values.
    pub fn normalized(&self) -> Self {
        let mut digits: Vec<Digit> = self.digits.iter().map(|d| d.normalized()).collect();
        let mut tail: Vec<Digit> = self.tail.iter().map(|d| d.normalized()).collect();
        if tail.iter().all(Digit::is_empty) {
            tail.clear();
        }
        if digits.is_empty() {
            // The tail starts at k = 0: its first digit is `d0`.
            match tail.first().copied() {
                Some(first) => {
                    digits.push(first);
                    tail.rotate_left(1);
                }
                None => digits.push(Digit::default()),
            }
        }
        if let Some(period) = (1..=tail.len()).find(|&p| {
            tail.len().is_multiple_of(p) && (p..tail.len()).all(|i| tail[i] == tail[i - p])
        }) {
            tail.truncate(period);
        }
        if tail.is_empty() {
            while digits.len() > 1 && digits.last().is_some_and(Digit::is_empty) {
                digits.pop();
            }
        } else {
            while digits.len() > 1 && digits.last() == tail.last() {
                digits.pop();
                tail.rotate_right(1);
            }
        }
        TakeBreakCode { digits, tail }
    }
}

/// Shown with errors about the overall shape of a code.
const SHAPE_HELP: &str = "a code is written `d0.d1d2…`, e.g. `0.07`, `4!.0` or `0.[3]`";

/// A recursive-descent parser over the bytes of one code; `pos` indexes `text`.
struct CodeParser<'a> {
    text: &'a str,
    notation: Notation,
    offset: usize,
    pos: usize,
}

impl CodeParser<'_> {
    fn code(mut self) -> Result<TakeBreakCode, Diagnostic> {
        let end = self.text.trim_end().len();
        self.text = &self.text[..end];
        self.pos = end - self.text.trim_start().len();
        if self.pos == end {
            return Err(self
                .error("empty code", self.pos, self.pos)
                .with_help(SHAPE_HELP));
        }
        let start = self.pos;
        // The digit before the point may be omitted (`.07` is `0.07`).
        let (d0, d0_span) = if self.peek() == Some(b'.') {
            (Digit::default(), None)
        } else {
            let digit_start = self.pos;
            let d0 = self.digit()?;
            (d0, Some((digit_start, self.pos)))
        };
        let mut code = TakeBreakCode {
            digits: vec![d0],
            tail: Vec::new(),
        };
        match self.peek() {
            None => {}
            Some(b'.') => {
                self.pos += 1;
                if d0_span.is_none() && self.peek().is_none() {
                    return Err(self
                        .error("a code needs digits", start, self.pos)
                        .with_label("only a point")
                        .with_help(SHAPE_HELP));
                }
                self.after_point(&mut code)?;
            }
            Some(b'[') => {
                return Err(self
                    .error(
                        "a repeating tail `[…]` must come after the point",
                        self.pos,
                        self.pos + 1,
                    )
                    .with_help("write e.g. `0.[3]` for Nim"));
            }
            Some(_) if self.at_digit_start() => {
                let rest = &self.text[start..];
                return Err(self
                    .error(
                        "only one digit may come before the point",
                        self.pos,
                        self.pos + 1,
                    )
                    .with_label("second digit before the point")
                    .with_help(format!(
                        "the digit before the point splits a heap without removing tokens; \
                         did you mean `0.{rest}`?"
                    )));
            }
            Some(_) => return Err(self.unexpected()),
        }
        if let Some((from, to)) = d0_span {
            if d0.heaps.allows(0) || d0.heaps.allows(1) {
                return Err(self
                    .error(
                        "the digit before the point may not allow leaving 0 or 1 heaps",
                        from,
                        to,
                    )
                    .with_help(
                        "the digit before the point removes nothing, so it may only split a heap \
                         into two or more (e.g. `4.0`: split into two heaps)",
                    ));
            }
        }
        Ok(code.normalized())
    }

    /// Digits after the point, then an optional repeating tail that must end the code.
    fn after_point(&mut self, code: &mut TakeBreakCode) -> Result<(), Diagnostic> {
        while let Some(byte) = self.peek() {
            match byte {
                b'[' => return self.tail(code),
                b'.' => {
                    return Err(self
                        .error("a code has only one point", self.pos, self.pos + 1)
                        .with_help(SHAPE_HELP))
                }
                _ => code.digits.push(self.digit()?),
            }
        }
        Ok(())
    }

    fn tail(&mut self, code: &mut TakeBreakCode) -> Result<(), Diagnostic> {
        let open = self.pos;
        self.pos += 1;
        loop {
            match self.peek() {
                None => {
                    return Err(self
                        .error("unclosed `[`", open, self.pos)
                        .with_label("this repeating tail is never closed")
                        .with_help("close it with `]`, e.g. `0.[3]`"))
                }
                Some(b']') => break,
                Some(b'[') => {
                    return Err(self
                        .error(
                            "a repeating tail cannot contain another `[`",
                            self.pos,
                            self.pos + 1,
                        )
                        .with_help("write the repeating digits once, e.g. `0.3[37]`"))
                }
                Some(_) => code.tail.push(self.digit()?),
            }
        }
        if code.tail.is_empty() {
            return Err(self
                .error("empty repeating tail", open, self.pos + 1)
                .with_help(
                    "put the digits that repeat inside, e.g. `0.[3]`, or remove the brackets",
                ));
        }
        self.pos += 1;
        if self.pos < self.text.len() {
            return Err(self
                .error(
                    "the repeating tail `[…]` must come last",
                    self.pos,
                    self.text.len(),
                )
                .with_label("nothing may follow `]`")
                .with_help("move these digits inside the brackets or before them"));
        }
        Ok(())
    }

    /// One digit: a character or a `{…}` set, then an optional modifier.
    fn digit(&mut self) -> Result<Digit, Diagnostic> {
        let start = self.pos;
        let heaps = match self.peek() {
            Some(b'{') => {
                if self.notation != Notation::General {
                    return Err(self
                        .error(
                            "heap-count sets `{…}` need the `takebreak` form",
                            start,
                            start + 1,
                        )
                        .with_help(format!("write `takebreak {}`", self.text.trim())));
                }
                self.heap_set()?
            }
            Some(byte) if byte.is_ascii_alphanumeric() => {
                let value = (byte as char).to_digit(36).unwrap_or(0);
                self.check_digit_value(value)?;
                self.pos += 1;
                HeapCounts {
                    mask: u64::from(value),
                    at_least: None,
                }
            }
            Some(b'!' | b'=' | b'?') => {
                return Err(self
                    .error("a modifier must follow a digit", start, start + 1)
                    .with_help("write it right after the digit it constrains, e.g. `4!.0`"))
            }
            _ => return Err(self.unexpected()),
        };
        let mut digit = Digit {
            heaps,
            modifier: Modifier::None,
        };
        if let Some(modifier) = self.peek().and_then(modifier_of) {
            if self.notation != Notation::General {
                return Err(self
                    .error(
                        "modifiers `!`, `=`, `?` need the `takebreak` form",
                        self.pos,
                        self.pos + 1,
                    )
                    .with_help(format!("write `takebreak {}`", self.text.trim())));
            }
            digit.modifier = modifier;
            self.pos += 1;
            if self.peek().and_then(modifier_of).is_some() {
                return Err(self
                    .error("a digit takes at most one modifier", self.pos, self.pos + 1)
                    .with_help("`!`: heaps all different, `=`: all equal, `?`: not all equal"));
            }
        }
        Ok(digit)
    }

    fn check_digit_value(&self, value: u32) -> Result<(), Diagnostic> {
        let shown = &self.text[self.pos..self.pos + 1];
        let (limit, message, help) = match self.notation {
            Notation::Octal => (
                7,
                format!("`{shown}` is not an octal digit"),
                "octal digits are 0–7; use `hex` or `takebreak` for larger digits",
            ),
            Notation::Hex => (
                15,
                format!("`{shown}` is not a hexadecimal digit"),
                "hexadecimal digits are 0–9 and A–F; use `takebreak` for digits up to Z or `{…}` sets",
            ),
            Notation::General => return Ok(()),
        };
        if value > limit {
            return Err(self.error(message, self.pos, self.pos + 1).with_help(help));
        }
        Ok(())
    }

    /// `{2,3}`, `{2+}`, `{0,1,3+}`: explicit heap counts below 64, `j+` for "`j` or more".
    fn heap_set(&mut self) -> Result<HeapCounts, Diagnostic> {
        let open = self.pos;
        self.pos += 1;
        let mut counts = HeapCounts::default();
        let mut items = 0;
        loop {
            self.skip_spaces();
            match self.peek() {
                None => return Err(self.unclosed_set(open)),
                Some(b'}') if items == 0 => {
                    return Err(self
                        .error("empty heap-count set", open, self.pos + 1)
                        .with_help("write `0` for a digit that allows no move"))
                }
                Some(b'}') => break,
                Some(byte) if byte.is_ascii_digit() => {}
                Some(_) => {
                    return Err(self
                        .error("expected a heap count", self.pos, self.pos + 1)
                        .with_label("a number below 64, or `j+` for `j` or more")
                        .with_help("e.g. `{2,3}` or `{2+}`"))
                }
            }
            let start = self.pos;
            let mut count: u32 = 0;
            while let Some(byte @ b'0'..=b'9') = self.peek() {
                count = count
                    .saturating_mul(10)
                    .saturating_add(u32::from(byte - b'0'));
                self.pos += 1;
            }
            if count >= 64 {
                return Err(self
                    .error(
                        format!("heap count {} is too large", &self.text[start..self.pos]),
                        start,
                        self.pos,
                    )
                    .with_help("counts must be below 64; use `{j+}` for `j` or more heaps"));
            }
            if self.peek() == Some(b'+') {
                self.pos += 1;
                counts.at_least = Some(counts.at_least.map_or(count, |j| j.min(count)));
            } else {
                counts.mask |= 1 << count;
            }
            items += 1;
            self.skip_spaces();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {}
                None => return Err(self.unclosed_set(open)),
                Some(_) => {
                    return Err(self
                        .error("expected `,` or `}`", self.pos, self.pos + 1)
                        .with_help("separate heap counts with commas, e.g. `{2,3}`"))
                }
            }
        }
        self.pos += 1;
        Ok(counts.normalized())
    }

    fn unclosed_set(&self, open: usize) -> Diagnostic {
        self.error("unclosed `{`", open, self.pos)
            .with_label("this heap-count set is never closed")
            .with_help("close it with `}`, e.g. `{2,3}`")
    }

    fn unexpected(&self) -> Diagnostic {
        let shown = self.text[self.pos..].chars().next().unwrap_or(' ');
        let message = match shown {
            ']' => "unmatched `]`".to_string(),
            '}' => "unmatched `}`".to_string(),
            _ => format!(
                "unexpected character `{}` in a code",
                shown.escape_default()
            ),
        };
        self.error(message, self.pos, self.pos + shown.len_utf8())
            .with_help(SHAPE_HELP)
    }

    fn at_digit_start(&self) -> bool {
        self.peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'{')
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    /// An error covering bytes `start..end` of the code, placed in the rules file.
    fn error(&self, message: impl Into<String>, start: usize, end: usize) -> Diagnostic {
        Diagnostic::new(message, Span::new(self.offset + start, self.offset + end))
    }
}

fn modifier_of(byte: u8) -> Option<Modifier> {
    match byte {
        b'!' => Some(Modifier::Unequal),
        b'=' => Some(Modifier::Equal),
        b'?' => Some(Modifier::NotAllEqual),
        _ => None,
    }
}

impl fmt::Display for HeapCounts {
    /// One digit character `0-9A-Z` when the counts fit one, else `{2,5}`, `{0,1,3+}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at_least.is_none() && self.mask < 36 {
            let c = char::from_digit(self.mask as u32, 36).unwrap_or('?');
            return write!(f, "{}", c.to_ascii_uppercase());
        }
        let mut items: Vec<String> = (0..64)
            .filter(|&j| self.mask & (1 << j) != 0)
            .map(|j| j.to_string())
            .collect();
        if let Some(j) = self.at_least {
            items.push(format!("{j}+"));
        }
        write!(f, "{{{}}}", items.join(","))
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.heaps)?;
        match self.modifier {
            Modifier::None => Ok(()),
            Modifier::Unequal => write!(f, "!"),
            Modifier::Equal => write!(f, "="),
            Modifier::NotAllEqual => write!(f, "?"),
        }
    }
}

impl fmt::Display for TakeBreakCode {
    /// CGSuite-style text, e.g. `0.07`, `4!.0`, `0.[3]`, `0.{2+}`; [`TakeBreakCode::parse`]
    /// reads it back as the [normalized](TakeBreakCode::normalized) code (in the `takebreak`
    /// notation, or `octal`/`hex` when the digits fit).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.digits.is_empty() {
            // Not produced by the parser; show the same game with `d0` split off the tail.
            return self.normalized().fmt(f);
        }
        write!(f, "{}.", self.digits[0])?;
        for digit in &self.digits[1..] {
            write!(f, "{digit}")?;
        }
        if !self.tail.is_empty() {
            write!(f, "[")?;
            for digit in &self.tail {
                write!(f, "{digit}")?;
            }
            write!(f, "]")?;
        } else if self.digits.len() == 1 {
            write!(f, "0")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn general(text: &str) -> TakeBreakCode {
        TakeBreakCode::parse(text, Notation::General, 0).unwrap()
    }

    fn masks(code: &TakeBreakCode) -> (Vec<u64>, Vec<u64>) {
        let mask = |d: &Digit| d.heaps.mask;
        (
            code.digits.iter().map(mask).collect(),
            code.tail.iter().map(mask).collect(),
        )
    }

    /// Parses `text` (placed at byte 10 of a file) expecting an error; returns it.
    fn error(text: &str, notation: Notation) -> Diagnostic {
        TakeBreakCode::parse(text, notation, 10).expect_err(text)
    }

    #[test]
    fn parses_octal_hex_and_general_digits() {
        assert_eq!(
            masks(&TakeBreakCode::parse("0.07", Notation::Octal, 0).unwrap()),
            (vec![0, 0, 7], vec![])
        );
        assert_eq!(
            masks(&TakeBreakCode::parse("0.Fa", Notation::Hex, 0).unwrap()),
            (vec![0, 15, 10], vec![])
        );
        assert_eq!(masks(&general("0.Z")), (vec![0, 35], vec![]));
        assert_eq!(masks(&general(".07")), masks(&general("0.07")));
        assert_eq!(masks(&general(" 0.07\n")), masks(&general("0.07")));
        // `4` alone is `4.`: split a heap in two, nothing else.
        assert_eq!(masks(&general("4")), (vec![4], vec![]));
        assert_eq!(general("4"), general("4.0"));
    }

    #[test]
    fn parses_generalised_digits_modifiers_and_tails() {
        let grundy = general("4!.0");
        assert_eq!(
            grundy.digits,
            vec![Digit {
                heaps: HeapCounts {
                    mask: 4,
                    at_least: None
                },
                modifier: Modifier::Unequal
            }]
        );
        let sets = general("0.{2,3}{0,1,3+}");
        assert_eq!(
            sets.digits[1].heaps,
            HeapCounts {
                mask: 12,
                at_least: None
            }
        );
        assert_eq!(
            sets.digits[2].heaps,
            HeapCounts {
                mask: 3,
                at_least: Some(3)
            }
        );
        // `{2,3+}` is `{2+}`, `?` on at most two heaps is `!`, spaces inside braces are fine.
        assert_eq!(general("0.{ 2, 3+ }"), general("0.{2+}"));
        assert_eq!(general("0.6?"), general("0.6!"));
        assert_eq!(general("0.8=").digits[1].modifier, Modifier::Equal);
        let nim = general("0.[3]");
        assert_eq!(masks(&nim), (vec![0], vec![3]));
        assert_eq!(nim.digit(1000).heaps.mask, 3);
        assert_eq!(masks(&general("0.3[37]")), (vec![0, 3], vec![3, 7]));
        assert_eq!(general("0.3[3]"), nim);
        assert_eq!(general("0.37[37]"), general("0.[37]"));
        assert_eq!(general("0.0[0]"), general("0.0"));
    }

    #[test]
    fn a_code_with_no_move_is_valid() {
        let empty = general("0.0");
        assert!(empty.digits.iter().all(Digit::is_empty));
        assert_eq!(empty.last_nonzero(), None);
    }

    #[test]
    fn display_is_canonical() {
        for (text, shown) in [
            ("0.07", "0.07"),
            ("0.070", "0.07"),
            ("4!.0", "4!.0"),
            ("4!", "4!.0"),
            ("0.3[3]", "0.[3]"),
            ("0.{2+}", "0.{2+}"),
            ("0.{2,3+}", "0.{2+}"),
            ("0.{2,5}", "0.{2,5}"),
            ("0.c", "0.C"),
            ("0.{0,1,3+}?", "0.{0,1,3+}?"),
            ("{2+}=.1", "{2+}=.1"),
        ] {
            assert_eq!(general(text).to_string(), shown, "{text}");
        }
    }

    #[test]
    fn errors_point_at_the_problem() {
        let e = error("0.08", Notation::Octal);
        assert_eq!(
            (e.message.as_str(), e.span),
            ("`8` is not an octal digit", Span::new(13, 14))
        );
        assert!(e.help.unwrap().contains("use `hex` or `takebreak`"));
        let e = error("0.G", Notation::Hex);
        assert_eq!(
            (e.message.as_str(), e.span),
            ("`G` is not a hexadecimal digit", Span::new(12, 13))
        );
        let e = error("0.0x%", Notation::General);
        assert_eq!(
            (e.message.as_str(), e.span),
            ("unexpected character `%` in a code", Span::new(14, 15))
        );
        let e = error("0.{2,3", Notation::General);
        assert_eq!(
            (e.message.as_str(), e.span),
            ("unclosed `{`", Span::new(12, 16))
        );
        let e = error("0.3[37", Notation::General);
        assert_eq!(
            (e.message.as_str(), e.span),
            ("unclosed `[`", Span::new(13, 16))
        );
        let e = error("0.[3]7", Notation::General);
        assert_eq!(
            (e.message.as_str(), e.span),
            ("the repeating tail `[…]` must come last", Span::new(15, 16))
        );
        let e = error("", Notation::Octal);
        assert_eq!(
            (e.message.as_str(), e.span),
            ("empty code", Span::new(10, 10))
        );
        let e = error("  .", Notation::Octal);
        assert_eq!(e.message, "a code needs digits");
        let e = error("7.0", Notation::Octal);
        assert_eq!(
            (e.message.as_str(), e.span),
            (
                "the digit before the point may not allow leaving 0 or 1 heaps",
                Span::new(10, 11)
            )
        );
        assert!(e
            .help
            .unwrap()
            .contains("removes nothing, so it may only split a heap into two or more"));
        let e = error("{1+}.0", Notation::General);
        assert_eq!(e.span, Span::new(10, 14));
        let e = error("07", Notation::Octal);
        assert_eq!(
            (e.message.as_str(), e.span),
            (
                "only one digit may come before the point",
                Span::new(11, 12)
            )
        );
        assert!(e.help.unwrap().contains("did you mean `0.07`?"));
        let e = error("0.4!", Notation::Octal);
        assert_eq!(
            (e.message.as_str(), e.span),
            (
                "modifiers `!`, `=`, `?` need the `takebreak` form",
                Span::new(13, 14)
            )
        );
        let e = error("0.{2}", Notation::Hex);
        assert_eq!(e.span, Span::new(12, 13));
        let e = error("0.{64}", Notation::General);
        assert_eq!(
            (e.message.as_str(), e.span),
            ("heap count 64 is too large", Span::new(13, 15))
        );
        let e = error("0.{}", Notation::General);
        assert_eq!(
            (e.message.as_str(), e.span),
            ("empty heap-count set", Span::new(12, 14))
        );
        let e = error("0.[]", Notation::General);
        assert_eq!(
            (e.message.as_str(), e.span),
            ("empty repeating tail", Span::new(12, 14))
        );
        let e = error("0.7.7", Notation::General);
        assert_eq!(
            (e.message.as_str(), e.span),
            ("a code has only one point", Span::new(13, 14))
        );
        let e = error("0.!7", Notation::General);
        assert_eq!(
            (e.message.as_str(), e.span),
            ("a modifier must follow a digit", Span::new(12, 13))
        );
        let e = error("0.4!!", Notation::General);
        assert_eq!(
            (e.message.as_str(), e.span),
            ("a digit takes at most one modifier", Span::new(14, 15))
        );
        let e = error("0.]", Notation::General);
        assert_eq!(
            (e.message.as_str(), e.span),
            ("unmatched `]`", Span::new(12, 13))
        );
        // A multi-byte character is underlined whole.
        let e = error("0.0é", Notation::General);
        assert_eq!(e.span, Span::new(13, 15));
    }

    /// Canonical codes: normalized digits, `d0` split-only.
    fn code_strategy() -> impl Strategy<Value = TakeBreakCode> {
        let digit = (
            0u64..1 << 40,
            prop::option::weighted(0.2, 0u32..64),
            0usize..4,
        )
            .prop_map(|(mask, at_least, m)| {
                // Mostly small masks, so that single characters are exercised as well as braces.
                let mask = if mask % 3 == 0 { mask } else { mask % 36 };
                let modifier = [
                    Modifier::None,
                    Modifier::Unequal,
                    Modifier::Equal,
                    Modifier::NotAllEqual,
                ][m];
                Digit {
                    heaps: HeapCounts { mask, at_least },
                    modifier,
                }
            });
        let d0 = digit.clone().prop_map(|mut d| {
            d.heaps.mask &= !3;
            d.heaps.at_least = d.heaps.at_least.map(|j| j.max(2));
            d
        });
        (
            d0,
            prop::collection::vec(digit.clone(), 0..6),
            prop::collection::vec(digit, 0..4),
        )
            .prop_map(|(d0, mut digits, tail)| {
                digits.insert(0, d0);
                TakeBreakCode { digits, tail }.normalized()
            })
    }

    proptest! {
        #[test]
        fn display_round_trips(code in code_strategy()) {
            let text = code.to_string();
            let parsed = TakeBreakCode::parse(&text, Notation::General, 0);
            prop_assert_eq!(parsed, Ok(code), "{}", text);
        }

        #[test]
        fn normalizing_twice_changes_nothing(code in code_strategy()) {
            prop_assert_eq!(code.normalized(), code);
        }

        #[test]
        fn never_panics_on_any_text(text in "[0-9a-zA-Z.!=?{}\\[\\],+ é%-]{0,12}") {
            for notation in [Notation::Octal, Notation::Hex, Notation::General] {
                if let Err(e) = TakeBreakCode::parse(&text, notation, 5) {
                    prop_assert!(e.span.start >= 5 && e.span.end <= 5 + text.len(), "{:?} for {:?}", e, text);
                }
            }
        }

        #[test]
        fn never_panics_on_arbitrary_unicode(text in any::<String>()) {
            let _ = TakeBreakCode::parse(&text, Notation::General, 0);
        }
    }
}
