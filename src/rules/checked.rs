//! The checked program: what [`super::check`] makes of a rules file, and what lowering
//! ([`super::lower`]) and compiling ([`super::program`]) consume. Names are resolved and
//! parameters evaluated, so a checked expression ([`CExpr`]) only refers to run-time values
//! through slots: slots `0..k` are the position's `k` coordinates (one, `n`, for a heap game),
//! slot `k + i` is the move's binder `i`. [`CExpr::eval`] is the reference semantics of
//! expressions; the compiled [`super::Program`] must agree with it.
//!
//! A move's result is a flat list of coordinate expressions, `k` per component: for a heap
//! game one per heap, for `position (x, y)` two per tuple of the sum.
//!
//! Arithmetic is on `i64`, checked: overflow and division by zero are errors, never wrapping.
//! `/` is floor division and `%` the Euclidean remainder (`-7 / 2 == -4`, `-7 % 2 == 1`), so
//! that `n % d` is always in `0..|d|`, as in number theory.

use super::arith::Function;
use super::ast::{BinaryOp, Play};
use super::code::Notation;
use super::sieve::SetFn;
use super::{Diagnostic, Span};

/// A checked rules file.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The `name` line.
    pub name: Option<String>,
    /// The `description` line.
    pub description: Option<String>,
    /// The first coordinate's name (`n` unless `heap m` or `position (…)`).
    pub coordinate: String,
    /// Every coordinate's name: `[coordinate]` for a heap game.
    pub coordinates: Vec<String>,
    /// True for a `position (…)` game: moves lead to sums of tuples, which may be larger than
    /// the position moved from; false for a heap game, whose heaps must be smaller.
    pub position_game: bool,
    /// Parameter values after overrides, in declaration order.
    pub params: Vec<(String, i64)>,
    /// The `play` line: the convention and where it is written.
    pub play: Option<(Play, Span)>,
    /// The moves.
    pub rules: Rules,
}

/// The moves of a checked file.
#[derive(Clone, Debug)]
pub enum Rules {
    /// One family line.
    Family {
        /// Its form, evaluated.
        family: CheckedFamily,
        /// The line (its text, e.g. "octal 0.07", is the default game name).
        span: Span,
    },
    /// One or more `move` rules.
    Moves(Vec<CheckedMove>),
}

/// A family line with its sets evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckedFamily {
    /// `subtraction {…}` or a range: sorted, without duplicates, all positive.
    Subtraction(Vec<u64>),
    /// `subtraction all-but {…}`: sorted, without duplicates, all positive.
    SubtractionAllBut(Vec<u64>),
    /// `octal`, `hex`, `takebreak`: the code text, unparsed.
    Code {
        /// Which digits the code may use.
        notation: Notation,
        /// The text.
        text: String,
        /// Byte offset of `text` in the file.
        offset: usize,
    },
}

/// A checked `move` rule.
#[derive(Clone, Debug)]
pub struct CheckedMove {
    /// The label, if any.
    pub label: Option<String>,
    /// Binders in order; binder `i` is slot `k + i` (`k` coordinates).
    pub binders: Vec<CheckedBinder>,
    /// The condition (a boolean expression).
    pub condition: Option<CExpr>,
    /// The components left, `k` coordinate expressions each (one per heap in a heap game);
    /// empty for `none`.
    pub result: Vec<CExpr>,
    /// The whole rule.
    pub span: Span,
}

/// A checked binder: `x in lo..=hi` (an exclusive range is stored with `inclusive: false`) or
/// `d in divisors(n)`.
#[derive(Clone, Debug)]
pub struct CheckedBinder {
    /// The name.
    pub name: String,
    /// The values it takes.
    pub values: CheckedValues,
    /// The range's (or the set's call's) text.
    pub span: Span,
}

/// What a checked binder ranges over.
#[derive(Clone, Debug)]
pub enum CheckedValues {
    /// `lo..hi` or `lo..=hi`.
    Range {
        /// First value.
        lo: CExpr,
        /// Bound.
        hi: CExpr,
        /// True for `..=`.
        inclusive: bool,
    },
    /// A set function ([`super::sieve`]) and its arguments (as many as its arity).
    Set(SetFn, Vec<CExpr>),
}

impl CheckedBinder {
    /// The expressions of the binder: a range's two ends, or a set's arguments.
    pub fn expressions(&self) -> Vec<&CExpr> {
        match &self.values {
            CheckedValues::Range { lo, hi, .. } => vec![lo, hi],
            CheckedValues::Set(_, args) => args.iter().collect(),
        }
    }

    /// True for a set binder (`d in divisors(n)`).
    pub fn is_set(&self) -> bool {
        matches!(self.values, CheckedValues::Set(..))
    }
}

impl CheckedMove {
    /// The same rule over its position's coordinates in another order: coordinate `j` of the
    /// new position is coordinate `order[j]` of the old (`order` a permutation of `0..k`), in
    /// its slots and in each component of its result; the binders' slots, past the
    /// coordinates, are unchanged, and so is every span, so that an error is located in the
    /// rule as written.
    pub fn reordered(&self, order: &[usize]) -> CheckedMove {
        let arity = order.len();
        let mut new_slot = vec![0; arity];
        for (j, &old) in order.iter().enumerate() {
            new_slot[old] = j;
        }
        let rename = |s: usize| if s < arity { new_slot[s] } else { s };
        let mut rule = self.clone();
        for binder in &mut rule.binders {
            match &mut binder.values {
                CheckedValues::Range { lo, hi, .. } => {
                    lo.rename_slots(&rename);
                    hi.rename_slots(&rename);
                }
                CheckedValues::Set(_, args) => {
                    args.iter_mut().for_each(|a| a.rename_slots(&rename));
                }
            }
        }
        if let Some(condition) = &mut rule.condition {
            condition.rename_slots(&rename);
        }
        rule.result = self
            .result
            .chunks(arity)
            .flat_map(|component| order.iter().map(|&old| component[old].clone()))
            .collect();
        rule.result.iter_mut().for_each(|e| e.rename_slots(&rename));
        rule
    }

    /// True if a binder of the rule ranges over a set (`d in divisors(n)`): such a rule is
    /// never lowered to a take-and-break code ([`super::lower`]).
    pub fn has_set_binder(&self) -> bool {
        self.binders.iter().any(CheckedBinder::is_set)
    }
}

/// A resolved expression.
#[derive(Clone, Debug)]
pub struct CExpr {
    /// What it is.
    pub kind: CExprKind,
    /// Where it is written.
    pub span: Span,
}

/// Resolved expression forms. Booleans are the integers 0 and 1.
#[derive(Clone, Debug)]
pub enum CExprKind {
    /// A constant (a literal or a parameter's value).
    Const(i64),
    /// A run-time value: `0..k` the coordinates, `k + i` binder `i`.
    Slot(usize),
    /// `!e` on a number: bitwise not (two's complement, as Rust's `!`).
    BitNot(Box<CExpr>),
    /// `popcount(e)`: the number of one bits of `e` (two's complement, 64 bits).
    Popcount(Box<CExpr>),
    /// `ctz(e)`: the number of trailing zero bits of `e` (64 for 0).
    Ctz(Box<CExpr>),
    /// `bit(x, i)`: bit `i` (0..=63) of `x`, 0 or 1.
    Bit(Box<CExpr>, Box<CExpr>),
    /// `count(c1, c2, …)`: how many of the conditions hold.
    Count(Vec<CExpr>),
    /// `-e`.
    Neg(Box<CExpr>),
    /// `!e`.
    Not(Box<CExpr>),
    /// `a op b`.
    Binary(BinaryOp, Box<CExpr>, Box<CExpr>),
    /// `min(…)` (at least one argument).
    Min(Vec<CExpr>),
    /// `max(…)` (at least one argument).
    Max(Vec<CExpr>),
    /// `abs(e)`.
    Abs(Box<CExpr>),
    /// A number-theory function ([`super::arith`]) and its arguments (as many as its arity).
    Arith(Function, Vec<CExpr>),
}

/// Why an evaluation failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// The result does not fit in `i64`.
    Overflow,
    /// `/` or `%` by zero.
    DivisionByZero,
    /// A shift or bit index outside `0..=63`.
    ShiftRange,
    /// An argument outside a function's domain, e.g. `isqrt` of a negative number (the text
    /// says which).
    Domain(&'static str),
}

/// An evaluation failure and the expression it happened in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    /// What happened.
    pub kind: FaultKind,
    /// Where.
    pub span: Span,
}

/// A position, for messages: `n = 5`, or `(x, y) = (3, 4)`.
#[derive(Clone, Copy, Debug)]
pub struct Place<'a> {
    /// The coordinates' names.
    pub names: &'a [String],
    /// Their values.
    pub values: &'a [u64],
}

impl std::fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let ([name], [value]) = (self.names, self.values) {
            return write!(f, "{name} = {value}");
        }
        let list = |items: Vec<String>| items.join(", ");
        write!(
            f,
            "({}) = ({})",
            list(self.names.to_vec()),
            list(self.values.iter().map(u64::to_string).collect())
        )
    }
}

impl Fault {
    /// The diagnostic for this fault at a position (`None` for a constant expression).
    pub fn diagnostic(&self, at: Option<Place>) -> Diagnostic {
        let place = at.map_or(String::new(), |place| format!(" at {place}"));
        match self.kind {
            FaultKind::Overflow => {
                Diagnostic::new(format!("arithmetic overflow{place}"), self.span)
                    .with_label("the value does not fit in a 64-bit integer")
                    .with_help("bound the values involved (e.g. with `min`) or add a condition")
            }
            FaultKind::DivisionByZero => {
                Diagnostic::new(format!("division by zero{place}"), self.span)
                    .with_label("the divisor is 0 here")
                    .with_help("add a condition such as `if d != 0`, or start the range at 1")
            }
            FaultKind::ShiftRange => {
                Diagnostic::new(format!("shift or bit index out of range{place}"), self.span)
                    .with_label("the shift amount or bit index is not in 0..=63 here")
                    .with_help("bound it, e.g. with a binder `i in 0..20`")
            }
            FaultKind::Domain(what) => {
                Diagnostic::new(format!("argument out of range{place}"), self.span)
                    .with_label(what)
                    .with_help("add a condition, e.g. `if x >= 1`, or start the range at 1")
            }
        }
    }
}

/// `a op b` with the language's semantics: checked arithmetic, floor division, Euclidean
/// remainder, booleans as 0/1. `&&` and `||` are applied to already evaluated operands (the
/// evaluators short-circuit before calling this).
pub fn apply(op: BinaryOp, a: i64, b: i64) -> Result<i64, FaultKind> {
    use BinaryOp::*;
    let overflow = FaultKind::Overflow;
    Ok(match op {
        Add => a.checked_add(b).ok_or(overflow)?,
        Sub => a.checked_sub(b).ok_or(overflow)?,
        Mul => a.checked_mul(b).ok_or(overflow)?,
        Div | Rem if b == 0 => return Err(FaultKind::DivisionByZero),
        Div => {
            let q = a.checked_div(b).ok_or(overflow)?;
            // Round toward negative infinity.
            if (a % b != 0) && ((a < 0) != (b < 0)) {
                q - 1
            } else {
                q
            }
        }
        Rem => a.checked_rem_euclid(b).ok_or(overflow)?,
        Eq => i64::from(a == b),
        Ne => i64::from(a != b),
        Lt => i64::from(a < b),
        Le => i64::from(a <= b),
        Gt => i64::from(a > b),
        Ge => i64::from(a >= b),
        And => i64::from(a != 0 && b != 0),
        Or => i64::from(a != 0 || b != 0),
        BitAnd => a & b,
        BitOr => a | b,
        BitXor => a ^ b,
        Shl => shl(a, b)?,
        Shr => shr(a, b)?,
    })
}

/// `a << b`; bits shifted out (or into the sign) are an overflow, as for `*`.
pub fn shl(a: i64, b: i64) -> Result<i64, FaultKind> {
    let shift = shift_amount(b)?;
    let shifted = a << shift;
    if shifted >> shift != a {
        return Err(FaultKind::Overflow);
    }
    Ok(shifted)
}

/// `a >> b` (arithmetic: floor division by `2^b`).
pub fn shr(a: i64, b: i64) -> Result<i64, FaultKind> {
    Ok(a >> shift_amount(b)?)
}

/// A shift amount or bit index: `0..=63`.
fn shift_amount(b: i64) -> Result<u32, FaultKind> {
    u32::try_from(b)
        .ok()
        .filter(|&s| s < 64)
        .ok_or(FaultKind::ShiftRange)
}

/// `bit(x, i)`: bit `i` of `x` (two's complement), 0 or 1.
pub fn bit(x: i64, i: i64) -> Result<i64, FaultKind> {
    Ok((x >> shift_amount(i)?) & 1)
}

/// The direct sub-expressions of an expression's kind (borrowed as `kind` is), the lists'
/// items by `$iter`: one list of the variants for [`CExpr::children`] and its `_mut` twin.
macro_rules! children {
    ($kind:expr, $iter:ident) => {
        match $kind {
            CExprKind::Const(_) | CExprKind::Slot(_) => Vec::new(),
            CExprKind::Neg(x)
            | CExprKind::Not(x)
            | CExprKind::Abs(x)
            | CExprKind::BitNot(x)
            | CExprKind::Popcount(x)
            | CExprKind::Ctz(x) => vec![x],
            CExprKind::Binary(_, a, b) | CExprKind::Bit(a, b) => vec![a, b],
            CExprKind::Min(args)
            | CExprKind::Max(args)
            | CExprKind::Count(args)
            | CExprKind::Arith(_, args) => args.$iter().collect(),
        }
    };
}

impl CExpr {
    /// Evaluates the expression by walking the tree; `slots[0]` is `n`, `slots[1 + i]` binder
    /// `i`. This is the reference semantics.
    pub fn eval(&self, slots: &[i64]) -> Result<i64, Fault> {
        let fault = |kind| Fault {
            kind,
            span: self.span,
        };
        match &self.kind {
            CExprKind::Const(v) => Ok(*v),
            CExprKind::Slot(i) => Ok(slots[*i]),
            CExprKind::Neg(e) => e
                .eval(slots)?
                .checked_neg()
                .ok_or(fault(FaultKind::Overflow)),
            CExprKind::Not(e) => Ok(i64::from(e.eval(slots)? == 0)),
            CExprKind::Abs(e) => e
                .eval(slots)?
                .checked_abs()
                .ok_or(fault(FaultKind::Overflow)),
            CExprKind::Binary(BinaryOp::And, a, b) => {
                Ok(i64::from(a.eval(slots)? != 0 && b.eval(slots)? != 0))
            }
            CExprKind::Binary(BinaryOp::Or, a, b) => {
                Ok(i64::from(a.eval(slots)? != 0 || b.eval(slots)? != 0))
            }
            CExprKind::Binary(op, a, b) => {
                apply(*op, a.eval(slots)?, b.eval(slots)?).map_err(fault)
            }
            CExprKind::Min(args) | CExprKind::Max(args) => {
                let is_min = matches!(self.kind, CExprKind::Min(_));
                let mut best = args[0].eval(slots)?;
                for arg in &args[1..] {
                    let v = arg.eval(slots)?;
                    best = if is_min { best.min(v) } else { best.max(v) };
                }
                Ok(best)
            }
            CExprKind::BitNot(e) => Ok(!e.eval(slots)?),
            CExprKind::Popcount(e) => Ok(i64::from(e.eval(slots)?.count_ones())),
            CExprKind::Ctz(e) => Ok(i64::from(e.eval(slots)?.trailing_zeros())),
            CExprKind::Bit(x, i) => bit(x.eval(slots)?, i.eval(slots)?).map_err(fault),
            CExprKind::Count(conditions) => {
                let mut count = 0;
                for c in conditions {
                    count += i64::from(c.eval(slots)? != 0);
                }
                Ok(count)
            }
            CExprKind::Arith(f, args) => {
                let values = args
                    .iter()
                    .map(|a| a.eval(slots))
                    .collect::<Result<Vec<_>, _>>()?;
                f.apply(&values).map_err(fault)
            }
        }
    }

    /// The direct sub-expressions.
    pub fn children(&self) -> Vec<&CExpr> {
        children!(&self.kind, iter)
    }

    /// The direct sub-expressions, to change in place.
    fn children_mut(&mut self) -> Vec<&mut CExpr> {
        children!(&mut self.kind, iter_mut)
    }

    /// Renames every slot `s` of the expression to `rename(s)`.
    fn rename_slots(&mut self, rename: &dyn Fn(usize) -> usize) {
        if let CExprKind::Slot(s) = &mut self.kind {
            *s = rename(*s);
        }
        for child in self.children_mut() {
            child.rename_slots(rename);
        }
    }

    /// True if slot `slot` occurs in the expression.
    pub fn uses_slot(&self, slot: usize) -> bool {
        matches!(self.kind, CExprKind::Slot(s) if s == slot)
            || self.children().into_iter().any(|c| c.uses_slot(slot))
    }

    /// The constant value, if the expression is a constant.
    pub fn as_const(&self) -> Option<i64> {
        match self.kind {
            CExprKind::Const(v) => Some(v),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{apply, bit, BinaryOp::*, FaultKind};
    use crate::rules::{load, GameKind, SourceFile};

    #[test]
    fn bit_operations_follow_rust() {
        assert_eq!(apply(BitAnd, 12, 10), Ok(8));
        assert_eq!(apply(BitOr, 12, 10), Ok(14));
        assert_eq!(apply(BitXor, 12, 10), Ok(6));
        assert_eq!(apply(Shl, 3, 4), Ok(48));
        assert_eq!(apply(Shr, -7, 1), Ok(-4));
        assert_eq!(apply(Shl, 1, 64), Err(FaultKind::ShiftRange));
        assert_eq!(apply(Shr, 1, -1), Err(FaultKind::ShiftRange));
        assert_eq!(apply(Shl, 1 << 62, 1), Err(FaultKind::Overflow));
        assert_eq!(bit(5, 2), Ok(1));
        assert_eq!(bit(5, 1), Ok(0));
        assert_eq!(bit(-1, 63), Ok(1));
        let game = load(
            SourceFile::new(
                "t.sg",
                "position (m)\nmove i in 0..6, j = i + 1 + ctz(!m >> (i + 1)) if bit(m, i) == 1 && j < 6 && count(popcount(m) > 0, i >= 0) == 2 => m - (1 << i) + (1 << j)",
            ),
            &[],
        )
        .unwrap();
        let GameKind::General { program, .. } = &game.kind else {
            panic!()
        };
        assert!(program.is_position_game());
        let mut moves = Vec::new();
        let mut solver = crate::engine::multi::Solver::new(&game, &[63]).unwrap();
        // 0b001011: the piece at 0 jumps the empty cell 2, the piece at 1 moves to 2, the piece
        // at 3 moves to 4 (P2575's rule: to the first empty cell on the right).
        solver
            .for_each_move(&[0b001011], &mut |_, _, c| moves.push(c[0]))
            .unwrap();
        assert_eq!(moves, vec![0b001110, 0b001101, 0b010011]);
    }
}
