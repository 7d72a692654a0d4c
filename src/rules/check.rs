//! Checking: names, parameters, types and the shape of a file, from the [`ast`] to a
//! [`Checked`] file whose expressions are resolved ([`CExpr`]).
//!
//! Parameters are evaluated here (with `--set` overrides), so a checked expression only refers
//! to run-time values through slots: slot 0 is the coordinate `n`, slot `1 + i` is the move's
//! binder `i`. [`CExpr::eval`] is the reference semantics of expressions; the compiled
//! [`super::Program`] must agree with it.
//!
//! Arithmetic is on `i64`, checked: overflow and division by zero are errors, never wrapping.
//! `/` is floor division and `%` the Euclidean remainder (`-7 / 2 == -4`, `-7 % 2 == 1`), so
//! that `n % d` is always in `0..|d|`, as in number theory.

use super::ast::{self, BinaryOp, Expr, ExprKind, FamilyForm, Item, SetExpr, UnaryOp};
use super::code::Notation;
use super::diagnostic::{did_you_mean, edit_distance};
use super::parser::RESERVED;
use super::{Diagnostic, Span};

/// The most heaps a single move may leave.
pub const MAX_RESULT_HEAPS: usize = 64;
/// The largest element of a subtraction set (the code needs one digit per value up to it).
pub const MAX_SUBTRACTION: i64 = 1 << 20;
/// Built-in functions.
pub const FUNCTIONS: [&str; 3] = ["min", "max", "abs"];

/// A checked rules file.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The `name` line.
    pub name: Option<String>,
    /// The `description` line.
    pub description: Option<String>,
    /// The coordinate's name (`n` unless `heap m`).
    pub coordinate: String,
    /// Parameter values after overrides, in declaration order.
    pub params: Vec<(String, i64)>,
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
    /// Binders in order; binder `i` is slot `1 + i`.
    pub binders: Vec<CheckedBinder>,
    /// The condition (a boolean expression).
    pub condition: Option<CExpr>,
    /// The heaps left (integer expressions); empty for `none`.
    pub result: Vec<CExpr>,
    /// The whole rule.
    pub span: Span,
}

/// A checked binder `x in lo..=hi` (an exclusive range is stored with `inclusive: false`).
#[derive(Clone, Debug)]
pub struct CheckedBinder {
    /// The name.
    pub name: String,
    /// First value.
    pub lo: CExpr,
    /// Bound.
    pub hi: CExpr,
    /// True for `..=`.
    pub inclusive: bool,
    /// The range's text.
    pub span: Span,
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
    /// A run-time value: 0 is the coordinate, `1 + i` binder `i`.
    Slot(usize),
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
}

/// Why an evaluation failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// The result does not fit in `i64`.
    Overflow,
    /// `/` or `%` by zero.
    DivisionByZero,
}

/// An evaluation failure and the expression it happened in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    /// What happened.
    pub kind: FaultKind,
    /// Where.
    pub span: Span,
}

impl Fault {
    /// The diagnostic for this fault at position `n` (`None` for a constant expression).
    pub fn diagnostic(&self, at: Option<(&str, u64)>) -> Diagnostic {
        let place = at.map_or(String::new(), |(name, n)| format!(" at {name} = {n}"));
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
    })
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
        }
    }

    /// The constant value, if the expression is a constant.
    pub fn as_const(&self) -> Option<i64> {
        match self.kind {
            CExprKind::Const(v) => Some(v),
            _ => None,
        }
    }
}

/// Whether an expression is a number or a condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Type {
    Int,
    Bool,
}

impl Type {
    fn describe(self) -> &'static str {
        match self {
            Type::Int => "a number",
            Type::Bool => "a condition",
        }
    }
}

/// What names mean where an expression is checked.
struct Scope<'a> {
    coordinate: &'a str,
    /// False for constant contexts (parameter defaults, subtraction sets).
    runtime: bool,
    params: &'a [(String, i64)],
    binders: &'a [String],
    /// Every binder of the move, to explain a use before binding.
    all_binders: &'a [String],
}

/// Checks a parsed file with `--set` overrides. All errors found are returned.
pub fn check(file: &ast::File, overrides: &[(String, i64)]) -> Result<Checked, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut name = None;
    let mut description = None;
    let mut coordinate: Option<(String, Span)> = None;
    for item in &file.items {
        match item {
            Item::Name { value, span } => set_once(&mut name, value, *span, "name", &mut errors),
            Item::Description { value, span } => {
                set_once(&mut description, value, *span, "description", &mut errors)
            }
            Item::Heap { name: heap, span } => {
                if coordinate.is_some() {
                    errors.push(duplicate("heap", *span));
                } else if let Err(e) =
                    check_new_name(&heap.name, heap.span, "the coordinate", &Taken::default())
                {
                    errors.push(e);
                } else {
                    coordinate = Some((heap.name.clone(), heap.span));
                }
            }
            _ => {}
        }
    }
    let coordinate = coordinate.map_or_else(|| "n".to_string(), |(c, _)| c);

    // Parameters, in order; each default may use earlier ones.
    let mut params: Vec<(String, i64)> = Vec::new();
    for item in &file.items {
        let Item::Param { name, default, .. } = item else {
            continue;
        };
        if params.iter().any(|(p, _)| *p == name.name) {
            errors.push(
                Diagnostic::new(
                    format!("parameter `{}` is declared twice", name.name),
                    name.span,
                )
                .with_label("second declaration")
                .with_help("remove one of the declarations or rename one"),
            );
            continue;
        }
        if let Err(e) = check_new_name(
            &name.name,
            name.span,
            "a parameter",
            &Taken {
                coordinate: Some(&coordinate),
                ..Taken::default()
            },
        ) {
            errors.push(e);
            continue;
        }
        let scope = Scope {
            coordinate: &coordinate,
            runtime: false,
            params: &params,
            binders: &[],
            all_binders: &[],
        };
        let value = match int_expr(default, &scope)
            .and_then(|e| e.eval(&[]).map_err(|f| f.diagnostic(None)))
        {
            Ok(v) => v,
            Err(e) => {
                errors.push(e);
                0
            }
        };
        let value = overrides
            .iter()
            .rev()
            .find(|(o, _)| *o == name.name)
            .map_or(value, |&(_, v)| v);
        params.push((name.name.clone(), value));
    }
    for (key, value) in overrides {
        if !params.iter().any(|(p, _)| p == key) {
            let help = match suggest(key, params.iter().map(|(p, _)| p.as_str())) {
                Some(s) => format!("did you mean `{s}`?"),
                None if params.is_empty() => "this file declares no parameters".to_string(),
                None => format!(
                    "the parameters are {}",
                    params
                        .iter()
                        .map(|(p, _)| format!("`{p}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            errors.push(
                Diagnostic::new(
                    format!("no parameter `{key}` (from --set {key}={value})"),
                    Span::new(0, 0),
                )
                .with_help(help),
            );
        }
    }

    // Family lines and moves.
    let mut family: Option<(CheckedFamily, Span)> = None;
    let mut moves = Vec::new();
    let mut first_move: Option<Span> = None;
    let mut saw_family_line = false;
    let constant_scope = Scope {
        coordinate: &coordinate,
        runtime: false,
        params: &params,
        binders: &[],
        all_binders: &[],
    };
    for item in &file.items {
        match item {
            Item::Family(line) => {
                if saw_family_line {
                    errors.push(
                        Diagnostic::new("only one family line is allowed", line.span)
                            .with_label("second family line")
                            .with_help(
                                "a game is one family line (or `move` rules); remove one of them",
                            ),
                    );
                    continue;
                }
                saw_family_line = true;
                if first_move.is_some() {
                    errors.push(mixed(line.span));
                    continue;
                }
                match check_family(&line.form, &constant_scope) {
                    Ok(f) => family = Some((f, line.span)),
                    Err(e) => errors.push(e),
                }
            }
            Item::Move(rule) => {
                if saw_family_line {
                    errors.push(mixed(rule.span));
                    continue;
                }
                first_move.get_or_insert(rule.span);
                match check_move(rule, &coordinate, &params) {
                    Ok(m) => moves.push(m),
                    Err(e) => errors.push(e),
                }
            }
            _ => {}
        }
    }
    let end = file
        .items
        .last()
        .map_or(Span::new(0, 0), |item| match item {
            Item::Name { span, .. }
            | Item::Description { span, .. }
            | Item::Param { span, .. }
            | Item::Heap { span, .. } => *span,
            Item::Family(f) => f.span,
            Item::Move(m) => m.span,
        });
    let rules = match family {
        Some((family, span)) => Rules::Family { family, span },
        None if first_move.is_none() && !saw_family_line => {
            errors.push(
                Diagnostic::new("this file describes no moves", Span::new(end.end, end.end))
                    .with_label("no `move` rule or family line")
                    .with_help("add `move …` or a family line such as `octal 0.07`"),
            );
            Rules::Moves(Vec::new())
        }
        None => Rules::Moves(moves),
    };
    if errors.is_empty() {
        Ok(Checked {
            name,
            description,
            coordinate,
            params,
            rules,
        })
    } else {
        errors.sort_by_key(|e| e.span.start);
        Err(errors)
    }
}

fn set_once(
    slot: &mut Option<String>,
    value: &str,
    span: Span,
    what: &str,
    errors: &mut Vec<Diagnostic>,
) {
    if slot.is_some() {
        errors.push(duplicate(what, span));
    } else {
        *slot = Some(value.to_string());
    }
}

fn duplicate(what: &str, span: Span) -> Diagnostic {
    Diagnostic::new(format!("a second `{what}` line"), span)
        .with_label("already given above")
        .with_help(format!("keep one `{what}` line"))
}

fn mixed(span: Span) -> Diagnostic {
    Diagnostic::new("a family line cannot be mixed with `move` rules", span)
        .with_label("this conflicts with an earlier line")
        .with_help("describe the game either by one family line or by `move` rules; a family line is short for moves")
}

/// The names already taken where a new name is declared.
#[derive(Default)]
struct Taken<'a> {
    coordinate: Option<&'a str>,
    params: &'a [(String, i64)],
    binders: &'a [String],
}

/// A "did you mean" candidate for `name`, but never one that shares no letter position with it
/// (`x` → `k` would be noise).
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    did_you_mean(name, candidates)
        .filter(|c| edit_distance(name, c) < name.chars().count().max(c.chars().count()))
}

/// Rejects a new name that is reserved, a function, or already taken.
fn check_new_name(name: &str, span: Span, role: &str, taken: &Taken) -> Result<(), Diagnostic> {
    let clash = if RESERVED.contains(&name) {
        Some("a keyword")
    } else if FUNCTIONS.contains(&name) {
        Some("a function")
    } else if taken.coordinate == Some(name) {
        Some("the coordinate")
    } else if taken.binders.iter().any(|b| b == name) {
        Some("an earlier binder of this move")
    } else if taken.params.iter().any(|(p, _)| p == name) {
        Some("a parameter")
    } else {
        None
    };
    match clash {
        Some(what) => Err(Diagnostic::new(
            format!("`{name}` cannot name {role}: it is already {what}"),
            span,
        )
        .with_label("choose another name")
        .with_help(
            "every name (coordinate, parameters, binders) must be distinct and not a keyword",
        )),
        None => Ok(()),
    }
}

fn check_family(form: &FamilyForm, scope: &Scope) -> Result<CheckedFamily, Diagnostic> {
    match form {
        FamilyForm::Subtraction(set) => {
            Ok(CheckedFamily::Subtraction(subtraction_set(set, scope)?))
        }
        FamilyForm::SubtractionAllBut(set) => Ok(CheckedFamily::SubtractionAllBut(
            subtraction_set(set, scope)?,
        )),
        FamilyForm::Code {
            notation,
            text,
            offset,
        } => Ok(CheckedFamily::Code {
            notation: *notation,
            text: text.clone(),
            offset: *offset,
        }),
    }
}

fn const_value(e: &Expr, scope: &Scope) -> Result<i64, Diagnostic> {
    int_expr(e, scope)?
        .eval(&[])
        .map_err(|f| f.diagnostic(None))
}

/// Evaluates a subtraction set: sorted, deduplicated, every element in `1..=MAX_SUBTRACTION`.
fn subtraction_set(set: &SetExpr, scope: &Scope) -> Result<Vec<u64>, Diagnostic> {
    let bad = |v: i64, span: Span| {
        if v <= 0 {
            Diagnostic::new(format!("subtraction set element {v} is not positive"), span)
                .with_label("a move must remove at least one token")
                .with_help("use elements ≥ 1")
        } else {
            Diagnostic::new(format!("subtraction set element {v} is too large"), span)
                .with_label(format!("at most {MAX_SUBTRACTION}"))
                .with_help("use smaller elements, or write the rule as a `move`")
        }
    };
    let mut values = Vec::new();
    match set {
        SetExpr::List(elements) => {
            for e in elements {
                let v = const_value(e, scope)?;
                if !(1..=MAX_SUBTRACTION).contains(&v) {
                    return Err(bad(v, e.span));
                }
                values.push(v as u64);
            }
        }
        SetExpr::Range(range) => {
            let lo = const_value(&range.lo, scope)?;
            let hi = const_value(&range.hi, scope)?;
            let hi = if range.inclusive {
                hi
            } else {
                hi.saturating_sub(1)
            };
            if lo <= hi {
                if lo < 1 {
                    return Err(bad(lo, range.lo.span));
                }
                if hi > MAX_SUBTRACTION {
                    return Err(bad(hi, range.hi.span));
                }
                values.extend((lo..=hi).map(|v| v as u64));
            }
        }
    }
    values.sort_unstable();
    values.dedup();
    Ok(values)
}

fn check_move(
    rule: &ast::MoveRule,
    coordinate: &str,
    params: &[(String, i64)],
) -> Result<CheckedMove, Diagnostic> {
    let mut names: Vec<String> = Vec::new();
    let mut binders = Vec::new();
    let all: Vec<String> = rule.binders.iter().map(|b| b.name.name.clone()).collect();
    for binder in &rule.binders {
        let taken = Taken {
            coordinate: Some(coordinate),
            params,
            binders: &names,
        };
        check_new_name(&binder.name.name, binder.name.span, "a binder", &taken)?;
        let scope = Scope {
            coordinate,
            runtime: true,
            params,
            binders: &names,
            all_binders: &all,
        };
        let lo = int_expr(&binder.range.lo, &scope)?;
        let hi = int_expr(&binder.range.hi, &scope)?;
        binders.push(CheckedBinder {
            name: binder.name.name.clone(),
            lo,
            hi,
            inclusive: binder.range.inclusive,
            span: binder.range.span,
        });
        names.push(binder.name.name.clone());
    }
    let scope = Scope {
        coordinate,
        runtime: true,
        params,
        binders: &names,
        all_binders: &all,
    };
    let condition = match &rule.condition {
        Some(c) => Some(typed(c, &scope, Type::Bool)?),
        None => None,
    };
    if rule.result.len() > MAX_RESULT_HEAPS {
        return Err(Diagnostic::new(
            format!("this move leaves {} heaps", rule.result.len()),
            rule.result_span,
        )
        .with_label(format!("at most {MAX_RESULT_HEAPS}"))
        .with_help("a move may leave at most 64 heaps"));
    }
    let result = rule
        .result
        .iter()
        .map(|e| int_expr(e, &scope))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(CheckedMove {
        label: rule.label.as_ref().map(|l| l.name.clone()),
        binders,
        condition,
        result,
        span: rule.span,
    })
}

fn int_expr(e: &Expr, scope: &Scope) -> Result<CExpr, Diagnostic> {
    typed(e, scope, Type::Int)
}

fn typed(e: &Expr, scope: &Scope, want: Type) -> Result<CExpr, Diagnostic> {
    let (c, ty) = expr(e, scope)?;
    if ty != want {
        let help = match want {
            Type::Int => "a comparison or `&&`/`||` gives a condition, not a number",
            Type::Bool => "compare the value, e.g. `x > 0`",
        };
        return Err(Diagnostic::new(
            format!("expected {}, found {}", want.describe(), ty.describe()),
            e.span,
        )
        .with_label(format!("this is {}", ty.describe()))
        .with_help(help));
    }
    Ok(c)
}

fn expr(e: &Expr, scope: &Scope) -> Result<(CExpr, Type), Diagnostic> {
    let span = e.span;
    let make = |kind| CExpr { kind, span };
    Ok(match &e.kind {
        ExprKind::Int(v) => (make(CExprKind::Const(*v)), Type::Int),
        ExprKind::Name(name) => (make(resolve(name, span, scope)?), Type::Int),
        ExprKind::Unary(UnaryOp::Neg, x) => (
            make(CExprKind::Neg(Box::new(typed(x, scope, Type::Int)?))),
            Type::Int,
        ),
        ExprKind::Unary(UnaryOp::Not, x) => (
            make(CExprKind::Not(Box::new(typed(x, scope, Type::Bool)?))),
            Type::Bool,
        ),
        ExprKind::Binary(op, a, b) => {
            let (operand, result) = match op {
                BinaryOp::And | BinaryOp::Or => (Type::Bool, Type::Bool),
                op if op.is_comparison() => (Type::Int, Type::Bool),
                _ => (Type::Int, Type::Int),
            };
            let a = typed(a, scope, operand)?;
            let b = typed(b, scope, operand)?;
            (
                make(CExprKind::Binary(*op, Box::new(a), Box::new(b))),
                result,
            )
        }
        ExprKind::Call(f, args) => {
            let args = args
                .iter()
                .map(|a| int_expr(a, scope))
                .collect::<Result<Vec<_>, _>>()?;
            let arity_error = |want: &str| {
                Diagnostic::new(format!("`{}` takes {want}", f.name), span)
                    .with_label(format!("{} given", args.len()))
                    .with_help(format!(
                        "e.g. `{}`",
                        if f.name == "abs" {
                            "abs(x - 3)"
                        } else {
                            "min(k, n)"
                        }
                    ))
            };
            let kind = match f.name.as_str() {
                "min" | "max" if args.is_empty() => {
                    return Err(arity_error("at least one argument"))
                }
                "min" => CExprKind::Min(args),
                "max" => CExprKind::Max(args),
                "abs" if args.len() != 1 => return Err(arity_error("exactly one argument")),
                "abs" => CExprKind::Abs(Box::new(args.into_iter().next().expect("one argument"))),
                other => {
                    let help = match suggest(other, FUNCTIONS) {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => "the functions are `min`, `max` and `abs`".to_string(),
                    };
                    return Err(
                        Diagnostic::new(format!("unknown function `{other}`"), f.span)
                            .with_label("not a function")
                            .with_help(help),
                    );
                }
            };
            (make(kind), Type::Int)
        }
    })
}

fn resolve(name: &str, span: Span, scope: &Scope) -> Result<CExprKind, Diagnostic> {
    if let Some(i) = scope.binders.iter().rposition(|b| b == name) {
        return Ok(CExprKind::Slot(1 + i));
    }
    if let Some((_, v)) = scope.params.iter().find(|(p, _)| p == name) {
        return Ok(CExprKind::Const(*v));
    }
    if name == scope.coordinate {
        if scope.runtime {
            return Ok(CExprKind::Slot(0));
        }
        return Err(Diagnostic::new(format!("`{name}` is not a constant"), span)
            .with_label("the heap size is only known while playing")
            .with_help("parameter defaults and subtraction sets may only use integers and earlier parameters"));
    }
    if scope.all_binders.iter().any(|b| b == name) {
        return Err(
            Diagnostic::new(format!("binder `{name}` is used before it is bound"), span)
                .with_label("bound later in this move")
                .with_help("reorder the binders: a range may only use the binders to its left"),
        );
    }
    let mut candidates: Vec<&str> = scope.params.iter().map(|(p, _)| p.as_str()).collect();
    candidates.extend(scope.binders.iter().map(String::as_str));
    if scope.runtime {
        candidates.push(scope.coordinate);
    }
    candidates.extend(FUNCTIONS);
    let help = match suggest(name, candidates.iter().copied()) {
        _ if FUNCTIONS.contains(&name) => {
            format!("`{name}` is a function: call it, e.g. `{name}(x, 1)`")
        }
        None if scope.runtime && suggest(name, ["none"]).is_some() => {
            "did you mean `none`? (`=> none` is a move that leaves no heap)".to_string()
        }
        _ if name == "n" && scope.runtime => {
            format!(
                "the heap size is called `{}` in this file (see its `heap` line)",
                scope.coordinate
            )
        }
        Some(s) => format!("did you mean `{s}`?"),
        None if scope.runtime => format!(
            "names in scope: {}",
            candidates
                .iter()
                .filter(|c| !FUNCTIONS.contains(c))
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => "declare it first with `param NAME = VALUE`".to_string(),
    };
    Err(Diagnostic::new(format!("unknown name `{name}`"), span)
        .with_label("not defined here")
        .with_help(help))
}

#[cfg(test)]
mod tests {
    use crate::rules::{load, Family, GameKind, SourceFile};

    /// A rules text, `--set` overrides, and the expected error text.
    type Case = (&'static str, &'static [(&'static str, i64)], &'static str);

    fn error(text: &str, overrides: &[(&str, i64)]) -> String {
        let overrides: Vec<(String, i64)> =
            overrides.iter().map(|&(k, v)| (k.to_string(), v)).collect();
        match load(SourceFile::new("rules/t.sg", text), &overrides) {
            Ok(game) => panic!("{text}: expected an error, got {game:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn rendered_errors() {
        let cases: [Case; 5] = [
            (
                "param k = 3\nsubtraktion {1, 2}\n",
                &[],
                "error: unknown family `subtraktion`\n --> rules/t.sg:2:1\n  |\n2 | subtraktion {1, 2}\n  | ^^^^^^^^^^^ expected a family name or `move`\n  |\n  = help: did you mean `subtraction`?\n",
            ),
            (
                "param k = 3\nmove x in 1..=min(kk, n) => n - x\n",
                &[],
                "error: unknown name `kk`\n --> rules/t.sg:2:19\n  |\n2 | move x in 1..=min(kk, n) => n - x\n  |                   ^^ not defined here\n  |\n  = help: did you mean `k`?\n",
            ),
            (
                "param k = 3\nsubtraction 1..=k\n",
                &[("kk", 5)],
                "error: no parameter `kk` (from --set kk=5)\n --> rules/t.sg:1:1\n  |\n1 | param k = 3\n  | ^\n  |\n  = help: did you mean `k`?\n",
            ),
            (
                "move x in 1..=3 => n - x\nmove y in 1..=2 = > n\n",
                &[],
                "error: expected `,`, `if` or `=>`, found `=`\n --> rules/t.sg:2:17\n  |\n2 | move y in 1..=2 = > n\n  |                 ^ expected `,`, `if` or `=>`\n  |\n  = help: write the arrow `=>` without a space\n",
            ),
            (
                "name \"Dawson\n",
                &[],
                "error: unterminated string\n --> rules/t.sg:1:6\n  |\n1 | name \"Dawson\n  |      ^^^^^^^ this string has no closing `\"`\n  |\n  = help: close the string with `\"` on the same line\n",
            ),
        ];
        let docs = include_str!("../../docs/rules.md");
        let mut documented = 0;
        for (text, overrides, want) in cases {
            assert_eq!(error(text, overrides), want, "{text}");
            // The examples in docs/rules.md are real output.
            if docs.contains(want.lines().next().unwrap()) {
                assert!(
                    docs.contains(want),
                    "docs/rules.md shows an outdated rendering of:\n{want}"
                );
                documented += 1;
            }
        }
        assert_eq!(documented, 2);
    }

    #[test]
    fn check_error_table() {
        let cases: [Case; 21] = [
            (
                "param k = 1\nparam k = 2\nmove => none",
                &[],
                "parameter `k` is declared twice",
            ),
            (
                "param n = 1\nmove => none",
                &[],
                "`n` cannot name a parameter: it is already the coordinate",
            ),
            (
                "param k = 2\nmove k in 1..=n => n - k",
                &[],
                "`k` cannot name a binder: it is already a parameter",
            ),
            (
                "move n in 1..=3 => 0",
                &[],
                "`n` cannot name a binder: it is already the coordinate",
            ),
            (
                "move x in 1..=2, x in 1..=2 => 0",
                &[],
                "`x` cannot name a binder: it is already an earlier binder of this move",
            ),
            (
                "move min in 1..=2 => 0",
                &[],
                "`min` cannot name a binder: it is already a function",
            ),
            (
                "octal 0.07\nmove => none",
                &[],
                "a family line cannot be mixed with `move` rules",
            ),
            (
                "move => none\nsubtraction {1}",
                &[],
                "a family line cannot be mixed with `move` rules",
            ),
            (
                "subtraction {1}\nsubtraction {2}",
                &[],
                "only one family line is allowed",
            ),
            (
                "subtraction {0}\nmove => none",
                &[],
                "subtraction set element 0 is not positive",
            ),
            ("param k = 3\n", &[], "this file describes no moves"),
            (
                "param k = n + 1\nmove => none",
                &[],
                "`n` is not a constant",
            ),
            (
                "subtraction {1, 0, 3}",
                &[],
                "subtraction set element 0 is not positive",
            ),
            (
                "subtraction {-2}",
                &[],
                "subtraction set element -2 is not positive",
            ),
            (
                "subtraction {99999999}",
                &[],
                "subtraction set element 99999999 is too large",
            ),
            ("param k = 1 / 0\nmove => none", &[], "division by zero"),
            (
                "param k = 9223372036854775807 + 1\nmove => none",
                &[],
                "arithmetic overflow",
            ),
            (
                "move x in 1..=n if x => n - x",
                &[],
                "expected a condition, found a number",
            ),
            (
                "move x in 1..=n => n - (x > 1)",
                &[],
                "expected a number, found a condition",
            ),
            ("move x in 1..=mx(n, 2) => 0", &[], "unknown function `mx`"),
            (
                "move a in 0..=n-len, len in 1..=2 => a",
                &[],
                "binder `len` is used before it is bound",
            ),
        ];
        for (text, overrides, want) in cases {
            let got = error(text, overrides);
            assert!(
                got.starts_with(&format!("error: {want}")),
                "{text}\ngot: {got}"
            );
        }
        assert!(
            error("move => none", &[("k", 1)]).contains("help: this file declares no parameters")
        );
        assert!(error(
            "param alpha = 1\nparam beta = 2\nmove => none",
            &[("zzz", 1)]
        )
        .contains("help: the parameters are `alpha`, `beta`"));
        assert!(error("move x in 1..=mx(n, 2) => 0", &[]).contains("did you mean `max`?"));
        assert!(error("param k = 1\nmove => none", &[("x", 1)])
            .contains("help: the parameters are `k`"));
        assert_eq!(
            error("subtraction {0}\nmove => none", &[])
                .matches("error:")
                .count(),
            2
        );
        let bad_set = error("subtraction {1, 0}", &[]);
        assert_eq!(bad_set.matches("error:").count(), 1, "{bad_set}");
        assert!(error("heap m\nmove x in 1..=n => n - x", &[])
            .contains("help: the heap size is called `m` in this file"));
        assert!(error("move x in 1..=n => n - y", &[]).contains("help: names in scope: `x`, `n`"));
        assert!(error("move if n > 0 => nnone", &[]).contains("help: did you mean `none`?"));
        assert!(
            error("move x in 1..=max => n - x", &[]).contains("help: `max` is a function: call it")
        );
    }

    #[test]
    fn parameters_overrides_and_families() {
        let game = load(
            SourceFile::new(
                "t.sg",
                "param k = 3\nparam m = 2*k + 1\nsubtraction 1..=m\n",
            ),
            &[("k".to_string(), 5)],
        )
        .unwrap();
        assert_eq!(
            game.params,
            vec![("k".to_string(), 5), ("m".to_string(), 11)]
        );
        assert_eq!(game.name, "subtraction 1..=m");
        let GameKind::Code { family, code } = &game.kind else {
            panic!()
        };
        assert_eq!(*family, Family::Subtraction((1..=11).collect()));
        assert_eq!(code.digits.len(), 12);
        let game = load(
            SourceFile::new("t.sg", "name \"S\"\nsubtraction all-but {5, 2, 2}\n"),
            &[],
        )
        .unwrap();
        assert_eq!(game.name, "S");
        let GameKind::Code { family, .. } = &game.kind else {
            panic!()
        };
        assert_eq!(*family, Family::SubtractionAllBut(vec![2, 5]));
        let game = load(
            SourceFile::new("rules/bash.sg", "heap m\nmove x in 1..=min(3, m) => m - x"),
            &[],
        )
        .unwrap();
        assert_eq!(
            (game.name.as_str(), game.coordinate.as_str()),
            ("bash", "m")
        );
    }
}
