//! Floor division rewritten away, so that rules spelled with `/` pass lowering's affine gate
//! ([`super::lower`], step 1).
//!
//! Users write "at most half" bounds with integer division: `a in 1..=(n-1)/2`, `a in 1..=n/2`,
//! `a in 1..(n+1)/2`, `a < n/2`, `a <= (n-1)/2`, `n >> 1`, `floor_div(n, 2)`. Each is exactly an
//! affine constraint, by one fact about floor division (`/` is floor division, see
//! [`super::checked`]): for an integer `c ≥ 1`, `F = ⌊E / c⌋` is the one integer with
//! `c·F ≤ E < c·F + c`. Hence, for every integer `X`:
//!
//! * `F ≥ X ⇔ E ≥ c·X` (⇒: `E ≥ c·F ≥ c·X`; ⇐: `E/c ≥ X` and `X` is an integer, so `⌊E/c⌋ ≥ X`);
//! * `F > X ⇔ F ≥ X + 1 ⇔ E ≥ c·X + c`;
//! * `F ≤ X ⇔ ¬(F > X) ⇔ E ≤ c·X + c − 1`;
//! * `F < X ⇔ ¬(F ≥ X) ⇔ E < c·X`;
//! * `F = X ⇔ c·X ≤ E ≤ c·X + c − 1`, and `F ≠ X` its negation.
//!
//! A divisor `c ≤ −1` is the divisor `−c` of `−E` (`⌊E/c⌋ = ⌊(−E)/(−c)⌋`), and `e >> s` is
//! `⌊e / 2^s⌋`. A side of a comparison `F + Y` (or `Y − F`) with `Y` free of division is moved
//! across: `F + Y op Z ⇔ F op Z − Y`, `Y − F op Z ⇔ F op' Y − Z` with `op'` the mirrored
//! comparison. So any comparison with one floor quotient, of coefficient ±1, on one side
//! becomes affine. Nothing else changes: `E` may itself use `n` and the binders (`(n - a) / 2`).
//!
//! A binder `x in lo..=F + Y` becomes `x in lo..=max(E + c·Y, 0)` with the condition
//! `x <= F + Y` (rewritten as above). The new range contains the old one, since
//! `⌊E'/c⌋ ≤ max(E', 0)` for `c ≥ 1` (for `E' ≥ 0`, `⌊E'/c⌋ ≤ E'`; for `E' < 0` it is negative),
//! and the condition removes exactly the values added. A lower bound `lo = F + Y` becomes
//! `min(E + c·Y, 0)` (as `⌊E'/c⌋ ≥ min(E', 0)`) with `x >= F + Y`; an exclusive range the
//! condition `x < F + Y`. The rewritten rule has exactly the original's moves at every `n ≥ 0`
//! (and the unit tests compare both programs' moves), with no division left: the affine
//! argument of lowering then applies to it, and its constants and multipliers (now including
//! each `c`) give the verification bound.
//!
//! What cannot be rewritten (a divisor that is not a constant, a quotient scaled or added to
//! another quotient, a quotient inside `min`, or in a result) is returned as a [`Blocker`],
//! located, with the kind of expression that blocks.

use super::arith::Function;
use super::ast::BinaryOp;
use super::checked::{CExpr, CExprKind, CheckedBinder, CheckedMove, CheckedValues};
use super::Span;

/// Where in a rule an expression is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// A binder's range.
    Bound,
    /// The `if` condition.
    Condition,
    /// A heap of the result.
    Result,
}

/// What kind of expression keeps a rule from being affine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockerKind {
    /// `/`, `>>` or `floor_div` by a value that is not a constant.
    DivisionByVariable,
    /// A floor quotient used otherwise than as a whole side of a comparison or a bound (plus
    /// terms free of division): scaled, beside another quotient, inside `min`/`max`, nested.
    DivisionNotAlone {
        /// The quotient is an argument of `min` or `max` (in a binder's bound).
        in_min_max: bool,
    },
    /// A floor quotient in a result: the heaps left are not `n` minus the amounts removed.
    DivisionInResult,
    /// `%`; `of_binder`: of a binder (`x % 2 == 0`), not of `n`.
    Remainder {
        /// The dividend is a binder.
        of_binder: bool,
    },
    /// A product of two values that both change with the position or the binders.
    Product,
    /// `abs`.
    Abs,
    /// Bitwise operations: `&`, `|`, `^`, `<<`, `!` on numbers, `popcount`, `ctz`, `bit`.
    Bits,
    /// `count(…)`.
    Count,
    /// A number-theory function other than `floor_div` by a constant.
    Function(Function),
}

/// The first expression of a rule that lowering cannot read as affine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocker {
    /// What it is.
    pub kind: BlockerKind,
    /// Where it is written.
    pub span: Span,
    /// In which part of the rule.
    pub part: Part,
}

/// `moves` with every floor quotient rewritten into affine constraints (module
/// documentation), or the first expression that is not affine even so.
pub fn linearize_moves(moves: &[CheckedMove], arity: usize) -> Result<Vec<CheckedMove>, Blocker> {
    moves.iter().map(|m| linearize_move(m, arity)).collect()
}

fn linearize_move(m: &CheckedMove, arity: usize) -> Result<CheckedMove, Blocker> {
    let mut extra: Vec<CExpr> = Vec::new();
    let mut binders = Vec::with_capacity(m.binders.len());
    for (i, b) in m.binders.iter().enumerate() {
        let slot = CExpr {
            kind: CExprKind::Slot(arity + i),
            span: b.span,
        };
        // Set binders never reach lowering's gate (`try_lower_moves` refuses them first).
        let CheckedValues::Range {
            lo: b_lo,
            hi: b_hi,
            inclusive,
        } = &b.values
        else {
            binders.push(b.clone());
            continue;
        };
        let hi_op = if *inclusive {
            BinaryOp::Le
        } else {
            BinaryOp::Lt
        };
        let (lo, lo_condition) = loosen(b_lo, &slot, BinaryOp::Ge, false)?;
        let (hi, hi_condition) = loosen(b_hi, &slot, hi_op, true)?;
        extra.extend(lo_condition);
        extra.extend(hi_condition);
        binders.push(CheckedBinder {
            name: b.name.clone(),
            values: CheckedValues::Range {
                lo,
                hi,
                inclusive: *inclusive,
            },
            span: b.span,
        });
    }
    let condition = m
        .condition
        .as_ref()
        .map(|c| linearize(c, Part::Condition))
        .transpose()?;
    let result = m
        .result
        .iter()
        .map(|e| affine_or_blocker(e, Part::Result).map(|()| e.clone()))
        .collect::<Result<Vec<_>, _>>()?;
    let condition = extra
        .into_iter()
        .chain(condition)
        .reduce(|a, b| binary(BinaryOp::And, a, b));
    Ok(CheckedMove {
        label: m.label.clone(),
        binders,
        condition,
        result,
        span: m.span,
    })
}

/// A binder bound with a floor quotient: the loose affine bound and the condition `x op bound`
/// that makes it exact; an affine bound unchanged.
fn loosen(
    bound: &CExpr,
    slot: &CExpr,
    op: BinaryOp,
    upper: bool,
) -> Result<(CExpr, Option<CExpr>), Blocker> {
    if super::lower::is_affine(bound) {
        return Ok((bound.clone(), None));
    }
    let in_min_max = |e: &CExpr| match &e.kind {
        CExprKind::Min(args) | CExprKind::Max(args) => {
            args.iter().find(|a| !super::lower::is_affine(a)).map(|a| {
                let inner = first_blocker(a, Part::Bound);
                match inner.kind {
                    BlockerKind::DivisionNotAlone { .. } | BlockerKind::DivisionByVariable
                        if floor_of(a).is_some() =>
                    {
                        Blocker {
                            kind: BlockerKind::DivisionNotAlone { in_min_max: true },
                            ..inner
                        }
                    }
                    _ => inner,
                }
            })
        }
        _ => None,
    };
    if let Some(blocker) = in_min_max(bound) {
        return Err(blocker);
    }
    let side = split_side(bound, Part::Bound)?;
    let Side::Floored {
        sign: 1,
        ref numerator,
        c,
        ref rest,
    } = side
    else {
        return Err(first_blocker(bound, Part::Bound));
    };
    let shifted = binary(
        BinaryOp::Add,
        numerator.clone(),
        binary(BinaryOp::Mul, constant(c, bound.span), rest.clone()),
    );
    let zero = constant(0, bound.span);
    let kind = if upper {
        CExprKind::Max(vec![shifted, zero])
    } else {
        CExprKind::Min(vec![shifted, zero])
    };
    let loose = CExpr {
        kind,
        span: bound.span,
    };
    let condition = comparison(op, slot.clone(), bound.clone(), bound.span, Part::Bound)?;
    Ok((loose, Some(condition)))
}

/// `e` with every comparison that has a floor quotient rewritten.
fn linearize(e: &CExpr, part: Part) -> Result<CExpr, Blocker> {
    match &e.kind {
        CExprKind::Binary(op, a, b) if op.is_comparison() => {
            comparison(*op, (**a).clone(), (**b).clone(), e.span, part)
        }
        CExprKind::Binary(op @ (BinaryOp::And | BinaryOp::Or), a, b) => Ok(CExpr {
            kind: CExprKind::Binary(
                *op,
                Box::new(linearize(a, part)?),
                Box::new(linearize(b, part)?),
            ),
            span: e.span,
        }),
        CExprKind::Not(a) => Ok(CExpr {
            kind: CExprKind::Not(Box::new(linearize(a, part)?)),
            span: e.span,
        }),
        _ => affine_or_blocker(e, part).map(|()| e.clone()),
    }
}

fn affine_or_blocker(e: &CExpr, part: Part) -> Result<(), Blocker> {
    if super::lower::is_affine(e) {
        Ok(())
    } else {
        Err(first_blocker(e, part))
    }
}

/// A side of a comparison: affine, or `sign · ⌊numerator / c⌋ + rest` with `rest` affine.
enum Side {
    Affine,
    Floored {
        sign: i64,
        numerator: CExpr,
        c: i64,
        rest: CExpr,
    },
}

/// `l op r` rewritten without floor quotients (module documentation).
fn comparison(op: BinaryOp, l: CExpr, r: CExpr, span: Span, part: Part) -> Result<CExpr, Blocker> {
    let (left, right) = (split_side(&l, part)?, split_side(&r, part)?);
    let (op, floored, other) = match (left, right) {
        (Side::Affine, Side::Affine) => {
            return Ok(CExpr {
                kind: CExprKind::Binary(op, Box::new(l), Box::new(r)),
                span,
            })
        }
        (Side::Floored { .. }, Side::Floored { .. }) => {
            return Err(Blocker {
                kind: BlockerKind::DivisionNotAlone { in_min_max: false },
                span: r.span,
                part,
            })
        }
        (f @ Side::Floored { .. }, Side::Affine) => (op, f, r),
        (Side::Affine, f @ Side::Floored { .. }) => (mirror(op), f, l),
    };
    let Side::Floored {
        sign,
        numerator,
        c,
        rest,
    } = floored
    else {
        unreachable!("one side is floored")
    };
    // sign·F + rest op other  ⇔  sign·F op other − rest.
    let x = binary(BinaryOp::Sub, other, rest);
    let (op, x) = if sign == 1 {
        (op, x)
    } else {
        (
            mirror(op),
            CExpr {
                kind: CExprKind::Neg(Box::new(x)),
                span,
            },
        )
    };
    let cx = binary(BinaryOp::Mul, constant(c, span), x);
    let e = numerator;
    let plus = |a: CExpr, k: i64| binary(BinaryOp::Add, a, constant(k, span));
    let cmp = |op, a, b| binary(op, a, b);
    Ok(match op {
        BinaryOp::Le => cmp(BinaryOp::Le, e, plus(cx, c - 1)),
        BinaryOp::Lt => cmp(BinaryOp::Lt, e, cx),
        BinaryOp::Ge => cmp(BinaryOp::Ge, e, cx),
        BinaryOp::Gt => cmp(BinaryOp::Ge, e, plus(cx, c)),
        BinaryOp::Eq | BinaryOp::Ne => {
            let both = binary(
                BinaryOp::And,
                cmp(BinaryOp::Ge, e.clone(), cx.clone()),
                cmp(BinaryOp::Le, e, plus(cx, c - 1)),
            );
            if op == BinaryOp::Eq {
                both
            } else {
                CExpr {
                    kind: CExprKind::Not(Box::new(both)),
                    span,
                }
            }
        }
        _ => unreachable!("a comparison"),
    })
}

/// `a op b ⇔ b mirror(op) a`.
fn mirror(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Gt,
        BinaryOp::Le => BinaryOp::Ge,
        BinaryOp::Gt => BinaryOp::Lt,
        BinaryOp::Ge => BinaryOp::Le,
        other => other,
    }
}

/// Reads `e` as a sum of terms with at most one floor quotient of coefficient ±1.
fn split_side(e: &CExpr, part: Part) -> Result<Side, Blocker> {
    if super::lower::is_affine(e) {
        return Ok(Side::Affine);
    }
    let mut terms = Vec::new();
    collect_terms(e, 1, &mut terms);
    let mut floored = None;
    let mut rest: Option<CExpr> = None;
    for (sign, term) in terms {
        if super::lower::is_affine(term) {
            let term = if sign == 1 {
                term.clone()
            } else {
                CExpr {
                    kind: CExprKind::Neg(Box::new(term.clone())),
                    span: term.span,
                }
            };
            rest = Some(match rest {
                None => term,
                Some(r) => binary(BinaryOp::Add, r, term),
            });
            continue;
        }
        match floor_of(term) {
            Some(Ok((numerator, c))) if floored.is_none() => floored = Some((sign, numerator, c)),
            Some(Ok(_)) => {
                return Err(Blocker {
                    kind: BlockerKind::DivisionNotAlone { in_min_max: false },
                    span: term.span,
                    part,
                })
            }
            Some(Err(blocker)) => return Err(Blocker { part, ..blocker }),
            None => return Err(first_blocker(term, part)),
        }
    }
    let (sign, numerator, c) = floored.expect("a non-affine side has a non-affine term");
    Ok(Side::Floored {
        sign,
        numerator,
        c,
        rest: rest.unwrap_or_else(|| constant(0, e.span)),
    })
}

/// The terms of a sum, with their signs (through `+`, `-` and negation).
fn collect_terms<'a>(e: &'a CExpr, sign: i64, out: &mut Vec<(i64, &'a CExpr)>) {
    match &e.kind {
        CExprKind::Binary(BinaryOp::Add, a, b) => {
            collect_terms(a, sign, out);
            collect_terms(b, sign, out);
        }
        CExprKind::Binary(BinaryOp::Sub, a, b) => {
            collect_terms(a, sign, out);
            collect_terms(b, -sign, out);
        }
        CExprKind::Neg(a) => collect_terms(a, -sign, out),
        _ => out.push((sign, e)),
    }
}

/// `⌊E / c⌋` with `c ≥ 1` and `E` affine, if `e` is a floor quotient: `Some(Err)` when it is one
/// whose divisor is not a constant or whose numerator is not affine.
fn floor_of(e: &CExpr) -> Option<Result<(CExpr, i64), Blocker>> {
    let (numerator, divisor) = match &e.kind {
        CExprKind::Binary(BinaryOp::Div, a, b) => (&**a, Divisor::Expr(b)),
        CExprKind::Arith(Function::FloorDiv, args) if args.len() == 2 => {
            (&args[0], Divisor::Expr(&args[1]))
        }
        CExprKind::Binary(BinaryOp::Shr, a, b) => (&**a, Divisor::Shift(b)),
        _ => return None,
    };
    let variable = || {
        Err(Blocker {
            kind: BlockerKind::DivisionByVariable,
            span: e.span,
            part: Part::Condition,
        })
    };
    let c = match divisor {
        Divisor::Expr(b) if is_constant(b) => match b.eval(&[]) {
            Ok(c) if c != 0 && c != i64::MIN => c,
            _ => return Some(variable()),
        },
        Divisor::Shift(b) if is_constant(b) => match b.eval(&[]) {
            Ok(s @ 0..=62) => 1i64 << s,
            _ => return Some(variable()),
        },
        _ => return Some(variable()),
    };
    if !super::lower::is_affine(numerator) {
        return Some(Err(first_blocker(numerator, Part::Condition)));
    }
    Some(Ok(if c > 0 {
        (numerator.clone(), c)
    } else {
        (
            CExpr {
                kind: CExprKind::Neg(Box::new(numerator.clone())),
                span: numerator.span,
            },
            -c,
        )
    }))
}

enum Divisor<'a> {
    Expr(&'a CExpr),
    Shift(&'a CExpr),
}

/// The first (outermost, then leftmost) sub-expression of a non-affine `e` that is not affine
/// by itself.
pub fn first_blocker(e: &CExpr, part: Part) -> Blocker {
    let here = |kind| Blocker {
        kind,
        span: e.span,
        part,
    };
    match &e.kind {
        CExprKind::Binary(BinaryOp::Div | BinaryOp::Shr, _, _)
        | CExprKind::Arith(Function::FloorDiv, _) => match floor_of(e) {
            Some(Err(b)) => Blocker { part, ..b },
            _ if part == Part::Result => here(BlockerKind::DivisionInResult),
            _ => here(BlockerKind::DivisionNotAlone { in_min_max: false }),
        },
        CExprKind::Binary(BinaryOp::Rem, a, _) => here(BlockerKind::Remainder {
            // Heap games: slot 0 is `n`, binders from slot 1.
            of_binder: matches!(a.kind, CExprKind::Slot(s) if s >= 1),
        }),
        CExprKind::Binary(
            BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor | BinaryOp::Shl,
            _,
            _,
        )
        | CExprKind::BitNot(_)
        | CExprKind::Popcount(_)
        | CExprKind::Ctz(_)
        | CExprKind::Bit(_, _) => here(BlockerKind::Bits),
        CExprKind::Count(_) => here(BlockerKind::Count),
        CExprKind::Abs(_) => here(BlockerKind::Abs),
        CExprKind::Arith(f, _) => here(BlockerKind::Function(*f)),
        CExprKind::Binary(BinaryOp::Mul, a, b)
            if !is_constant(a)
                && !is_constant(b)
                && super::lower::is_affine(a)
                && super::lower::is_affine(b) =>
        {
            here(BlockerKind::Product)
        }
        _ => e
            .children()
            .into_iter()
            .find(|c| !super::lower::is_affine(c))
            .map_or(here(BlockerKind::Product), |c| first_blocker(c, part)),
    }
}

fn is_constant(e: &CExpr) -> bool {
    !matches!(e.kind, CExprKind::Slot(_)) && e.children().into_iter().all(is_constant)
}

fn constant(v: i64, span: Span) -> CExpr {
    CExpr {
        kind: CExprKind::Const(v),
        span,
    }
}

fn binary(op: BinaryOp, a: CExpr, b: CExpr) -> CExpr {
    let span = a.span.to(b.span);
    CExpr {
        kind: CExprKind::Binary(op, Box::new(a), Box::new(b)),
        span,
    }
}
