//! Bounds on the values of the language's expressions (interval arithmetic), from bounds on
//! the coordinates and binders they read: a box's coordinates lie in `0..=extent`, a binder
//! `t in lo..=hi` between the least `lo` and the greatest `hi` can be. The machine code
//! ([`crate::engine::jit`]) leaves out the checks that bounds prove cannot fail: the overflow
//! of `+`, `-`, `*` and `<<`, the range of shift amounts and bit indices, division by zero,
//! a coordinate outside the box.
//!
//! Soundness: [`bounds`] contains every value the expression takes *without a fault* when
//! each slot takes a value within its bounds; [`Interval::exact`] of an operation contains
//! every mathematical result (before the `i64` check), so an exact interval within `i64`
//! proves that the operation cannot overflow.

use super::ast::BinaryOp;
use super::checked::{CExpr, CExprKind};

/// The integers `lo..=hi` (`i128`, so that an operation's exact result always fits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    /// The least value.
    pub lo: i128,
    /// The greatest value.
    pub hi: i128,
}

impl Interval {
    /// Every `i64`: nothing known.
    pub const ANY: Interval = Interval {
        lo: i64::MIN as i128,
        hi: i64::MAX as i128,
    };

    /// The non-negative `i64`s.
    pub const NATURAL: Interval = Interval {
        lo: 0,
        hi: i64::MAX as i128,
    };

    /// `lo..=hi`.
    pub fn new(lo: i128, hi: i128) -> Self {
        debug_assert!(lo <= hi, "an interval {lo}..={hi}");
        Interval { lo, hi }
    }

    /// The one value `v`.
    pub fn point(v: i64) -> Self {
        Interval::new(v.into(), v.into())
    }

    /// True when every value is within `lo..=hi`.
    pub fn within(&self, lo: i128, hi: i128) -> bool {
        lo <= self.lo && self.hi <= hi
    }

    /// True when every value is an `i64`.
    pub fn fits(&self) -> bool {
        self.within(Interval::ANY.lo, Interval::ANY.hi)
    }

    /// True when `v` is one of the values.
    pub fn contains(&self, v: i128) -> bool {
        self.lo <= v && v <= self.hi
    }

    /// The values also in `other`; `ANY` when none are (an operation that always faults:
    /// nothing to prove about its result).
    fn clamp_to_i64(self) -> Self {
        let (lo, hi) = (self.lo.max(Interval::ANY.lo), self.hi.min(Interval::ANY.hi));
        if lo <= hi {
            Interval::new(lo, hi)
        } else {
            Interval::ANY
        }
    }

    /// The least interval holding both.
    pub fn hull(self, other: Interval) -> Self {
        Interval::new(self.lo.min(other.lo), self.hi.max(other.hi))
    }

    /// The interval of the four corner values `f(a, b)` of a function monotone in each
    /// argument on the boxes given.
    fn corners(a: Interval, b: Interval, f: impl Fn(i128, i128) -> i128) -> Self {
        let values = [f(a.lo, b.lo), f(a.lo, b.hi), f(a.hi, b.lo), f(a.hi, b.hi)];
        let lo = values.iter().copied().min().unwrap_or(i128::MIN);
        let hi = values.iter().copied().max().unwrap_or(i128::MAX);
        Interval::new(lo, hi)
    }

    /// The exact results of `a op b` (before the `i64` check, faults aside) for `+`, `-`,
    /// `*` and `<<` (by `0..=63`); `None` for the other operators.
    pub fn exact(op: BinaryOp, a: Interval, b: Interval) -> Option<Interval> {
        use BinaryOp::*;
        match op {
            Add => Some(Interval::new(a.lo + b.lo, a.hi + b.hi)),
            Sub => Some(Interval::new(a.lo - b.hi, a.hi - b.lo)),
            // |a|, |b| <= 2^63: every product fits in i128.
            Mul => Some(Interval::corners(a, b, |x, y| x * y)),
            Shl if b.within(0, 63) => Some(Interval::corners(a, b, |x, s| x << s)),
            _ => None,
        }
    }
}

/// Bounds on `e`'s values when slot `s` is within `slots[s]` (module docs).
pub fn bounds(e: &CExpr, slots: &[Interval]) -> Interval {
    use BinaryOp::*;
    let of = |x: &CExpr| bounds(x, slots);
    let boolean = Interval::new(0, 1);
    match &e.kind {
        CExprKind::Const(v) => Interval::point(*v),
        CExprKind::Slot(s) => slots.get(*s).copied().unwrap_or(Interval::ANY),
        CExprKind::Neg(x) => {
            let x = of(x);
            Interval::new(-x.hi, -x.lo).clamp_to_i64()
        }
        CExprKind::Abs(x) => {
            let x = of(x);
            let (lo, hi) = if x.lo >= 0 {
                (x.lo, x.hi)
            } else if x.hi <= 0 {
                (-x.hi, -x.lo)
            } else {
                (0, x.hi.max(-x.lo))
            };
            Interval::new(lo, hi).clamp_to_i64()
        }
        CExprKind::BitNot(x) => {
            let x = of(x);
            Interval::new(-x.hi - 1, -x.lo - 1)
        }
        CExprKind::Popcount(_) | CExprKind::Ctz(_) => Interval::new(0, 64),
        CExprKind::Not(_) | CExprKind::Bit(..) => boolean,
        CExprKind::Count(conditions) => Interval::new(0, conditions.len() as i128),
        CExprKind::Min(args) | CExprKind::Max(args) => {
            let is_min = matches!(e.kind, CExprKind::Min(_));
            args.iter()
                .map(of)
                .reduce(|a, b| {
                    if is_min {
                        Interval::new(a.lo.min(b.lo), a.hi.min(b.hi))
                    } else {
                        Interval::new(a.lo.max(b.lo), a.hi.max(b.hi))
                    }
                })
                .unwrap_or(Interval::ANY)
        }
        CExprKind::Binary(op, a, b) => {
            let (a, b) = (of(a), of(b));
            match op {
                Add | Sub | Mul | Shl => Interval::exact(*op, a, b)
                    .map(Interval::clamp_to_i64)
                    .unwrap_or(Interval::ANY),
                // Floor division by a divisor of one sign: monotone in each argument there.
                Div if b.lo > 0 || b.hi < 0 => Interval::corners(a, b, floor_div).clamp_to_i64(),
                // The Euclidean remainder: `0..|b|`.
                Rem if !b.contains(0) => Interval::new(0, b.lo.abs().max(b.hi.abs()) - 1),
                Eq | Ne | Lt | Le | Gt | Ge | And | Or => boolean,
                BitAnd if a.lo >= 0 || b.lo >= 0 => {
                    // Non-negative when either is: at most the non-negative one.
                    let hi = match (a.lo >= 0, b.lo >= 0) {
                        (true, true) => a.hi.min(b.hi),
                        (true, false) => a.hi,
                        _ => b.hi,
                    };
                    Interval::new(0, hi)
                }
                BitOr | BitXor if a.lo >= 0 && b.lo >= 0 => {
                    // Below the next power of two past both.
                    let top = a.hi.max(b.hi) as u128;
                    let bits = 128 - top.leading_zeros();
                    Interval::new(0, (1i128 << bits) - 1).clamp_to_i64()
                }
                // Arithmetic shift by 0..=63: toward 0 (or -1), never past it.
                Shr if b.within(0, 63) => Interval::new(a.lo.min(0), a.hi.max(0)),
                _ => Interval::ANY,
            }
        }
        CExprKind::Arith(..) => Interval::ANY,
    }
}

/// False when bounds prove that evaluating `e` cannot fault (no overflow, shift out of
/// range, division by zero or function outside its domain) while each slot `s` is within
/// `slots[s]`; true when it may.
pub fn may_fault(e: &CExpr, slots: &[Interval]) -> bool {
    use BinaryOp::*;
    let min = Interval::ANY.lo;
    let own = match &e.kind {
        CExprKind::Const(_) | CExprKind::Slot(_) => false,
        CExprKind::Neg(x) | CExprKind::Abs(x) => bounds(x, slots).contains(min),
        CExprKind::Bit(_, i) => !bounds(i, slots).within(0, 63),
        CExprKind::Binary(op, a, b) => {
            let (a, b) = (bounds(a, slots), bounds(b, slots));
            match op {
                Add | Sub | Mul | Shl => !Interval::exact(*op, a, b).is_some_and(|i| i.fits()),
                Div | Rem => b.contains(0) || (a.contains(min) && b.contains(-1)),
                Shr => !b.within(0, 63),
                _ => false,
            }
        }
        CExprKind::Arith(..) => true,
        _ => false,
    };
    own || e.children().into_iter().any(|c| may_fault(c, slots))
}

/// `⌊x / y⌋` (`y` not 0), as the language's `/`.
fn floor_div(x: i128, y: i128) -> i128 {
    let q = x / y;
    if x % y != 0 && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::checked::apply;

    /// Every operator on small and extreme operands: each result without a fault lies in the
    /// bounds, computed from the operands' points and from intervals around them, and an
    /// operation [`may_fault`] calls safe does not fault.
    #[test]
    fn bounds_hold_every_result() {
        use BinaryOp::*;
        let samples: Vec<i64> = (-70..=70)
            .chain([
                i64::MIN,
                i64::MIN + 1,
                i64::MAX,
                i64::MAX - 1,
                1 << 40,
                -(1 << 40),
            ])
            .collect();
        let ops = [
            Add, Sub, Mul, Div, Rem, Eq, Ne, Lt, Le, Gt, Ge, And, Or, BitAnd, BitOr, BitXor, Shl,
            Shr,
        ];
        let expr = |op: BinaryOp| CExpr {
            kind: CExprKind::Binary(
                op,
                Box::new(CExpr {
                    kind: CExprKind::Slot(0),
                    span: Default::default(),
                }),
                Box::new(CExpr {
                    kind: CExprKind::Slot(1),
                    span: Default::default(),
                }),
            ),
            span: Default::default(),
        };
        let around = |v: i64, width: i128| {
            Interval::new(
                (i128::from(v) - width).max(Interval::ANY.lo),
                (i128::from(v) + width).min(Interval::ANY.hi),
            )
        };
        for op in ops {
            let e = expr(op);
            for &a in &samples {
                for &b in &samples {
                    let applied = apply(op, a, b);
                    for width in [0, 3] {
                        let slots = [around(a, width), around(b, width)];
                        // Proved safe: the operands themselves, and every pair of ends of
                        // their bounds, evaluate without a fault.
                        if !may_fault(&e, &slots) {
                            assert!(applied.is_ok(), "{a} {op:?} {b} faults within {slots:?}");
                            for x in [slots[0].lo, slots[0].hi] {
                                for y in [slots[1].lo, slots[1].hi] {
                                    assert!(
                                        apply(op, x as i64, y as i64).is_ok(),
                                        "{x} {op:?} {y} faults within {slots:?}"
                                    );
                                }
                            }
                        }
                        let Ok(result) = applied else {
                            continue;
                        };
                        let got = bounds(&e, &slots);
                        assert!(
                            got.contains(result.into()),
                            "{a} {op:?} {b} = {result} outside {got:?} (operands {slots:?})"
                        );
                        if let Some(exact) = Interval::exact(op, slots[0], slots[1]) {
                            assert!(exact.contains(result.into()), "{a} {op:?} {b}: {exact:?}");
                        }
                    }
                }
            }
        }
    }
}
