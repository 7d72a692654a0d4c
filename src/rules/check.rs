//! Checking: names, parameters, types and the shape of a file, from the [`ast`] to a
//! [`Checked`] file whose expressions are resolved (the [`super::checked`] program).
//!
//! Parameters are evaluated here (with `--set` overrides), so a checked expression only refers
//! to run-time values through slots (see [`super::checked`]). Names are resolved against the
//! coordinates, the parameters and the move's binders; a misspelt one gets a "did you mean"
//! ([`super::names`]). Every error found is returned, sorted by position.

use super::arith::Function;
use super::ast::{self, BinaryOp, Expr, ExprKind, FamilyForm, Item, Play, SetExpr, UnaryOp};
use super::checked::{CExprKind, CheckedBinder, CheckedValues};
use super::names::{suggest, FUNCTIONS, RESERVED};
use super::sieve::SetFn;
use super::{Diagnostic, Span};

// The checked program's types, also under this path for the engine's tree-walking interpreter.
pub use super::checked::{CExpr, Checked, CheckedFamily, CheckedMove, Fault, Place, Rules};

/// The most heaps a single move may leave.
pub const MAX_RESULT_HEAPS: usize = 64;
/// The largest element of a subtraction set (the code needs one digit per value up to it).
pub const MAX_SUBTRACTION: i64 = 1 << 20;

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
    coordinates: &'a [String],
    /// True in a `position (…)` game.
    position_game: bool,
    /// False for constant contexts (parameter defaults, subtraction sets).
    runtime: bool,
    params: &'a [(String, i64)],
    binders: &'a [String],
    /// Every binder of the move, to explain a use before binding.
    all_binders: &'a [String],
}

impl<'a> Scope<'a> {
    /// A constant context (parameter defaults, family lines): parameters and coordinates
    /// are known, no binder is.
    fn constant(
        coordinates: &'a [String],
        position_game: bool,
        params: &'a [(String, i64)],
    ) -> Self {
        Scope {
            coordinates,
            position_game,
            runtime: false,
            params,
            binders: &[],
            all_binders: &[],
        }
    }
}

/// Checks a parsed file with `--set` overrides. All errors found are returned.
pub fn check(file: &ast::File, overrides: &[(String, i64)]) -> Result<Checked, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let header = header(file, &mut errors);
    let params = params(file, &header, overrides, &mut errors);
    let rules = rules(file, &header, &params, &mut errors);
    if errors.is_empty() {
        Ok(Checked {
            name: header.name,
            description: header.description,
            coordinate: header.coordinates[0].clone(),
            coordinates: header.coordinates,
            position_game: header.position_game,
            params,
            play: header.play,
            rules,
        })
    } else {
        errors.sort_by_key(|e| e.span.start);
        Err(errors)
    }
}

/// The lines that say what the game is called and what its positions are.
struct Header {
    name: Option<String>,
    description: Option<String>,
    play: Option<(Play, Span)>,
    /// The coordinates: `heap m`, `position (x, y)`, or `n` by default.
    coordinates: Vec<String>,
    position_game: bool,
}

/// The `name`, `description`, `play`, `heap` and `position` lines.
fn header(file: &ast::File, errors: &mut Vec<Diagnostic>) -> Header {
    let mut name = None;
    let mut description = None;
    let mut play: Option<(Play, Span)> = None;
    let mut declared: Option<(Vec<String>, bool, &'static str)> = None;
    for item in &file.items {
        match item {
            Item::Name { value, span } => set_once(&mut name, value, *span, "name", errors),
            Item::Description { value, span } => {
                set_once(&mut description, value, *span, "description", errors)
            }
            Item::Play { play: p, span } => {
                if play.is_some() {
                    errors.push(duplicate("play", *span));
                } else {
                    play = Some((*p, *span));
                }
            }
            Item::Heap { name: heap, span } => {
                let names = std::slice::from_ref(heap);
                declare(&mut declared, names, false, "heap", *span, errors)
            }
            Item::Position { names, span } => {
                declare(&mut declared, names, true, "position", *span, errors)
            }
            _ => {}
        }
    }
    let (coordinates, position_game) = declared
        .map(|(names, position_game, _)| (names, position_game))
        .unwrap_or_else(|| (vec!["n".to_string()], false));
    Header {
        name,
        description,
        play,
        coordinates,
        position_game,
    }
}

/// A `heap` or `position` line (`keyword`) naming the coordinates `names`: kept in `declared`
/// when it is the first such line and every name is new.
fn declare(
    declared: &mut Option<(Vec<String>, bool, &'static str)>,
    names: &[ast::Ident],
    position_game: bool,
    keyword: &'static str,
    span: Span,
    errors: &mut Vec<Diagnostic>,
) {
    if let Some((_, _, first)) = declared {
        errors.push(if *first == keyword {
            duplicate(keyword, span)
        } else {
            Diagnostic::new("a file has either a `heap` or a `position` line", span)
                .with_label(format!("conflicts with the `{first}` line above"))
                .with_help("`heap m` names the heap of a heap game; `position (x, y)` the coordinates of a position game")
        });
        return;
    }
    let mut accepted: Vec<String> = Vec::new();
    for ident in names {
        let role = if position_game {
            "a coordinate"
        } else {
            "the coordinate"
        };
        let taken = Taken {
            coordinates: &accepted,
            ..Taken::default()
        };
        match check_new_name(&ident.name, ident.span, role, &taken) {
            Ok(()) => accepted.push(ident.name.clone()),
            Err(e) => errors.push(e),
        }
    }
    if accepted.len() == names.len() {
        *declared = Some((accepted, position_game, keyword));
    }
}

/// The parameters, in order, with the `--set` overrides; each default may use earlier ones.
fn params(
    file: &ast::File,
    header: &Header,
    overrides: &[(String, i64)],
    errors: &mut Vec<Diagnostic>,
) -> Vec<(String, i64)> {
    let mut params: Vec<(String, i64)> = Vec::new();
    for item in &file.items {
        let Item::Param { name, default, .. } = item else {
            continue;
        };
        if let Err(e) = check_param_name(name, &header.coordinates, &params) {
            errors.push(e);
            continue;
        }
        let scope = Scope::constant(&header.coordinates, header.position_game, &params);
        let value = int_expr(default, &scope)
            .and_then(|e| e.eval(&[]).map_err(|f| f.diagnostic(None)))
            .unwrap_or_else(|e| {
                errors.push(e);
                0
            });
        let value = overrides
            .iter()
            .rev()
            .find(|(o, _)| *o == name.name)
            .map_or(value, |&(_, v)| v);
        params.push((name.name.clone(), value));
    }
    for (key, value) in overrides {
        if !params.iter().any(|(p, _)| p == key) {
            errors.push(unknown_override(key, *value, &params, file));
        }
    }
    params
}

/// A parameter's name is new: no second declaration, no coordinate's or reserved name.
fn check_param_name(
    name: &ast::Ident,
    coordinates: &[String],
    params: &[(String, i64)],
) -> Result<(), Diagnostic> {
    if params.iter().any(|(p, _)| *p == name.name) {
        return Err(Diagnostic::new(
            format!("parameter `{}` is declared twice", name.name),
            name.span,
        )
        .with_label("second declaration")
        .with_help("remove one of the declarations or rename one"));
    }
    let taken = Taken {
        coordinates,
        ..Taken::default()
    };
    check_new_name(&name.name, name.span, "a parameter", &taken)
}

/// The family line or the `move` rules.
fn rules(
    file: &ast::File,
    header: &Header,
    params: &[(String, i64)],
    errors: &mut Vec<Diagnostic>,
) -> Rules {
    let mut family: Option<(CheckedFamily, Span)> = None;
    let mut moves = Vec::new();
    let mut first_move: Option<Span> = None;
    let mut saw_family_line = false;
    let constant_scope = Scope::constant(&header.coordinates, header.position_game, params);
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
                match check_move(rule, &header.coordinates, header.position_game, params) {
                    Ok(m) => moves.push(m),
                    Err(e) => errors.push(e),
                }
            }
            _ => {}
        }
    }
    match family {
        Some((family, span)) => Rules::Family { family, span },
        None if first_move.is_none() && !saw_family_line => {
            let end = end_of(file);
            errors.push(
                Diagnostic::new("this file describes no moves", Span::new(end, end))
                    .with_label("no `move` rule or family line")
                    .with_help("add `move …` or a family line such as `octal 0.07`"),
            );
            Rules::Moves(Vec::new())
        }
        None => Rules::Moves(moves),
    }
}

/// Where the last item of `file` ends (0 for an empty file).
fn end_of(file: &ast::File) -> usize {
    file.items.last().map_or(0, |item| match item {
        Item::Name { span, .. }
        | Item::Description { span, .. }
        | Item::Param { span, .. }
        | Item::Heap { span, .. }
        | Item::Play { span, .. }
        | Item::Position { span, .. } => span.end,
        Item::Family(f) => f.span.end,
        Item::Move(m) => m.span.end,
    })
}

/// `--set key=value` names no parameter: point at the parameter it probably means, or at no
/// line (the error is in the command line, not in the file), and list the parameters.
fn unknown_override(
    key: &str,
    value: i64,
    params: &[(String, i64)],
    file: &ast::File,
) -> Diagnostic {
    let message = format!("no parameter `{key}` (from --set {key}={value})");
    if params.is_empty() {
        return Diagnostic::unlocated(message).with_help(format!(
            "this file declares no parameters: remove `--set {key}={value}`"
        ));
    }
    let names = params
        .iter()
        .map(|(p, _)| format!("`{p}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let declared = |name: &str| {
        file.items.iter().find_map(|item| match item {
            Item::Param { name: ident, .. } if ident.name == name => Some(ident.span),
            _ => None,
        })
    };
    let suggestion = suggest(key, params.iter().map(|(p, _)| p.as_str()));
    match suggestion.and_then(|s| Some((s, declared(s)?))) {
        Some((s, span)) => Diagnostic::new(message, span)
            .with_label(format!("the parameter `{s}` is declared here"))
            .with_help(format!(
                "did you mean `{s}`? (--set {s}={value}; the parameters are {names})"
            )),
        None => Diagnostic::unlocated(message).with_help(format!("the parameters are {names}")),
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

/// The error for a line that may be written once (`name`, `play`, a graph file's `start`).
pub(super) fn duplicate(what: &str, span: Span) -> Diagnostic {
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
    coordinates: &'a [String],
    params: &'a [(String, i64)],
    binders: &'a [String],
}

/// Rejects a new name that is reserved, a function, or already taken.
fn check_new_name(name: &str, span: Span, role: &str, taken: &Taken) -> Result<(), Diagnostic> {
    let clash = if RESERVED.contains(&name) {
        Some("a keyword")
    } else if FUNCTIONS.contains(&name) {
        Some("a function")
    } else if SetFn::from_name(name).is_some() {
        Some("a set function")
    } else if taken.coordinates.iter().any(|c| c == name) {
        Some(if taken.coordinates.len() == 1 {
            "the coordinate"
        } else {
            "a coordinate"
        })
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
    coordinates: &[String],
    position_game: bool,
    params: &[(String, i64)],
) -> Result<CheckedMove, Diagnostic> {
    let mut names: Vec<String> = Vec::new();
    let mut binders = Vec::new();
    let all: Vec<String> = rule.binders.iter().map(|b| b.name.name.clone()).collect();
    // The scope of the move with nothing bound yet; each binder sees the ones before it.
    let unbound = Scope {
        runtime: true,
        all_binders: &all,
        ..Scope::constant(coordinates, position_game, params)
    };
    for binder in &rule.binders {
        let taken = Taken {
            coordinates,
            params,
            binders: &names,
        };
        check_new_name(&binder.name.name, binder.name.span, "a binder", &taken)?;
        let scope = Scope {
            binders: &names,
            ..unbound
        };
        let (values, span) = match &binder.values {
            ast::BinderValues::Range(range) => (
                CheckedValues::Range {
                    lo: int_expr(&range.lo, &scope)?,
                    hi: int_expr(&range.hi, &scope)?,
                    inclusive: range.inclusive,
                },
                range.span,
            ),
            ast::BinderValues::Set {
                function,
                args,
                span,
            } => (set_binder(function, args, *span, &scope)?, *span),
        };
        binders.push(CheckedBinder {
            name: binder.name.name.clone(),
            values,
            span,
        });
        names.push(binder.name.name.clone());
    }
    let scope = Scope {
        binders: &names,
        ..unbound
    };
    let condition = match &rule.condition {
        Some(c) => Some(typed(c, &scope, Type::Bool)?),
        None => None,
    };
    let mut result = Vec::new();
    for e in &rule.result {
        result_components(e, &scope, &mut result)?;
    }
    let components = result.len() / coordinates.len();
    if components > MAX_RESULT_HEAPS {
        let what = if position_game { "positions" } else { "heaps" };
        return Err(Diagnostic::new(
            format!("this move leaves {components} {what}"),
            rule.result_span,
        )
        .with_label(format!("at most {MAX_RESULT_HEAPS}"))
        .with_help(format!("a move may leave at most 64 {what}")));
    }
    Ok(CheckedMove {
        label: rule.label.as_ref().map(|l| l.name.clone()),
        binders,
        condition,
        result,
        span: rule.span,
    })
}

/// The set of a binder `x in f(args)`: `f` must be a set function ([`SetFn`]) given as many
/// numbers as it takes.
fn set_binder(
    function: &ast::Ident,
    args: &[Expr],
    span: Span,
    scope: &Scope,
) -> Result<CheckedValues, Diagnostic> {
    let sets = || {
        SetFn::ALL
            .map(|f| format!("`{}`", f.example().split_once(" in ").map_or("", |e| e.1)))
            .join(", ")
    };
    let Some(set) = SetFn::from_name(&function.name) else {
        let name = &function.name;
        let (message, label, help) = if FUNCTIONS.contains(&name.as_str()) {
            (
                format!("`{name}` is a function, not a set"),
                "not a set",
                format!(
                    "a binder takes the values of a range `lo..=hi` or of a set: {}; to bind one value, write `x = {name}(…)`",
                    sets()
                ),
            )
        } else {
            let help = match suggest(name, SetFn::ALL.map(SetFn::name)) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!("the sets are {}", sets()),
            };
            (
                format!("unknown set function `{name}`"),
                "not a set function",
                help,
            )
        };
        return Err(Diagnostic::new(message, function.span)
            .with_label(label)
            .with_help(help));
    };
    if args.len() != set.arity() {
        let want = if set.arity() == 1 {
            "exactly one argument"
        } else {
            "two arguments"
        };
        return Err(
            Diagnostic::new(format!("`{}` takes {want}", set.name()), span)
                .with_label(format!("{} given", args.len()))
                .with_help(format!("e.g. `{}`", set.example())),
        );
    }
    let args = args
        .iter()
        .map(|a| int_expr(a, scope))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(CheckedValues::Set(set, args))
}

/// Checks one entry of a move's result list, appending its coordinate expressions to `out`:
/// a heap (heap games and one-coordinate positions), a tuple `(a, b)` of the position's arity,
/// or a `+`-sum of tuples.
fn result_components(e: &Expr, scope: &Scope, out: &mut Vec<CExpr>) -> Result<(), Diagnostic> {
    let arity = scope.coordinates.len();
    let example = || format!("({})", scope.coordinates.join(", "));
    match &e.kind {
        ExprKind::Binary(BinaryOp::Add, a, b) if has_tuple(a) || has_tuple(b) => {
            result_components(a, scope, out)?;
            result_components(b, scope, out)
        }
        ExprKind::Tuple(_) if !scope.position_game => Err(Diagnostic::new(
            "a heap game's move leaves heaps, not tuples",
            e.span,
        )
        .with_label("a tuple")
        .with_help("name the coordinates of a position game first, e.g. `position (x, y)`")),
        ExprKind::Tuple(items) if items.len() != arity => Err(Diagnostic::new(
            format!(
                "this position has {} coordinates, but positions are {}",
                items.len(),
                example()
            ),
            e.span,
        )
        .with_label(format!("expected {arity}"))
        .with_help(format!(
            "write one value per coordinate, e.g. `{}`",
            example()
        ))),
        ExprKind::Tuple(items) => {
            for item in items {
                out.push(int_expr(item, scope)?);
            }
            Ok(())
        }
        _ if arity == 1 => {
            out.push(int_expr(e, scope)?);
            Ok(())
        }
        _ => Err(Diagnostic::new(
            format!("expected a position {}, found a number", example()),
            e.span,
        )
        .with_label("not a tuple")
        .with_help(format!(
            "write the position the move leads to as a tuple, e.g. `{}`; join several with `+`",
            example()
        ))),
    }
}

/// True if `e` is a tuple or a `+`-sum with a tuple in it.
fn has_tuple(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Tuple(_) => true,
        ExprKind::Binary(BinaryOp::Add, a, b) => has_tuple(a) || has_tuple(b),
        _ => false,
    }
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
        ExprKind::Unary(UnaryOp::Not, x) => {
            // As in Rust: logical not of a condition, bitwise not of a number.
            let (inner, ty) = expr(x, scope)?;
            let kind = match ty {
                Type::Bool => CExprKind::Not(Box::new(inner)),
                Type::Int => CExprKind::BitNot(Box::new(inner)),
            };
            (make(kind), ty)
        }
        ExprKind::Tuple(_) => {
            return Err(
                Diagnostic::new("a tuple is only allowed as a move's result", span)
                    .with_label("a tuple here")
                    .with_help("use the coordinates one by one, e.g. `x + y`"),
            )
        }
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
        ExprKind::Call(f, _) if SetFn::from_name(&f.name).is_some() => {
            let set = SetFn::from_name(&f.name).expect("just found");
            return Err(Diagnostic::new(
                format!("`{}(…)` is a set of values, not a number", set.name()),
                span,
            )
            .with_label("a set")
            .with_help(format!(
                "a set gives a binder its values: `move {} => …`",
                set.example()
            )));
        }
        ExprKind::Call(f, args) => {
            // `count` counts conditions; every other function takes numbers.
            let argument_type = if f.name == "count" {
                Type::Bool
            } else {
                Type::Int
            };
            let args = args
                .iter()
                .map(|a| typed(a, scope, argument_type))
                .collect::<Result<Vec<_>, _>>()?;
            let given = args.len();
            let arity_error = |want: &str| {
                Diagnostic::new(format!("`{}` takes {want}", f.name), span)
                    .with_label(format!("{given} given"))
                    .with_help(format!(
                        "e.g. `{}`",
                        match f.name.as_str() {
                            "abs" => "abs(x - 3)",
                            "popcount" => "popcount(m)",
                            "ctz" => "ctz(m)",
                            "bit" => "bit(m, i)",
                            "count" => "count(a > 0, b > 0)",
                            name =>
                                Function::from_name(name).map_or("min(k, n)", Function::example),
                        }
                    ))
            };
            let one = |args: Vec<CExpr>| -> Result<Box<CExpr>, Diagnostic> {
                match <[CExpr; 1]>::try_from(args) {
                    Ok([x]) => Ok(Box::new(x)),
                    Err(_) => Err(arity_error("exactly one argument")),
                }
            };
            let kind = match f.name.as_str() {
                "min" | "max" if args.is_empty() => {
                    return Err(arity_error("at least one argument"))
                }
                "min" => CExprKind::Min(args),
                "max" => CExprKind::Max(args),
                "abs" => CExprKind::Abs(one(args)?),
                "popcount" => CExprKind::Popcount(one(args)?),
                "ctz" => CExprKind::Ctz(one(args)?),
                "bit" => match <[CExpr; 2]>::try_from(args) {
                    Ok([x, i]) => CExprKind::Bit(Box::new(x), Box::new(i)),
                    Err(_) => return Err(arity_error("two arguments")),
                },
                "count" if args.is_empty() => return Err(arity_error("at least one argument")),
                "count" => CExprKind::Count(args),
                name if Function::from_name(name).is_some() => {
                    let function = Function::from_name(name).expect("just found");
                    if args.len() != function.arity() {
                        return Err(arity_error(if function.arity() == 1 {
                            "exactly one argument"
                        } else {
                            "two arguments"
                        }));
                    }
                    // The predicates are conditions (0 or 1 at run time), as comparisons are.
                    let ty = if function.is_predicate() {
                        Type::Bool
                    } else {
                        Type::Int
                    };
                    return Ok((make(CExprKind::Arith(function, args)), ty));
                }
                other => {
                    let help = match suggest(other, FUNCTIONS) {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => format!(
                            "the functions are {}",
                            FUNCTIONS.map(|f| format!("`{f}`")).join(", ")
                        ),
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
    let arity = scope.coordinates.len();
    if let Some(i) = scope.binders.iter().rposition(|b| b == name) {
        return Ok(CExprKind::Slot(arity + i));
    }
    if let Some((_, v)) = scope.params.iter().find(|(p, _)| p == name) {
        return Ok(CExprKind::Const(*v));
    }
    if let Some(i) = scope.coordinates.iter().position(|c| c == name) {
        if scope.runtime {
            return Ok(CExprKind::Slot(i));
        }
        let label = if scope.position_game {
            "a coordinate is only known while playing"
        } else {
            "the heap size is only known while playing"
        };
        return Err(Diagnostic::new(format!("`{name}` is not a constant"), span)
            .with_label(label)
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
        candidates.extend(scope.coordinates.iter().map(String::as_str));
    }
    candidates.extend(FUNCTIONS);
    let help = match suggest(name, candidates.iter().copied()) {
        _ if SetFn::from_name(name).is_some() => {
            let set = SetFn::from_name(name).expect("just found");
            format!(
                "`{name}` is a set function: bind its values, e.g. `{}`",
                set.example()
            )
        }
        _ if FUNCTIONS.contains(&name) => {
            let call = Function::from_name(name)
                .map_or(format!("{name}(x, 1)"), |f| f.example().to_string());
            format!("`{name}` is a function: call it, e.g. `{call}`")
        }
        None if scope.runtime && suggest(name, ["none"]).is_some() => {
            "did you mean `none`? (`=> none` is a move that leaves no heap)".to_string()
        }
        _ if name == "n" && scope.runtime && scope.position_game => {
            format!(
                "the coordinates are {} in this file (see its `position` line)",
                scope
                    .coordinates
                    .iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
        _ if name == "n" && scope.runtime => {
            format!(
                "the heap size is called `{}` in this file (see its `heap` line)",
                scope.coordinates[0]
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
    use super::{CheckedFamily, Rules};
    use crate::rules::{load, GameKind, SourceFile};

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

    /// Each case's rendered error must begin with `error: ` and the expected message.
    fn assert_first_errors(cases: &[Case]) {
        for &(text, overrides, want) in cases {
            let got = error(text, overrides);
            assert!(
                got.starts_with(&format!("error: {want}")),
                "{text}\ngot: {got}"
            );
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
                "# Bash\nparam k = 3\nsubtraction 1..=k\n",
                &[("kk", 5)],
                "error: no parameter `kk` (from --set kk=5)\n --> rules/t.sg:2:7\n  |\n2 | param k = 3\n  |       ^ the parameter `k` is declared here\n  |\n  = help: did you mean `k`? (--set k=5; the parameters are `k`)\n",
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
        let cases: [Case; 31] = [
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
            // Set binders.
            (
                "move d in divisor(n) => n - d",
                &[],
                "unknown set function `divisor`",
            ),
            (
                "move d in divisors(n, 2) => n - d",
                &[],
                "`divisors` takes exactly one argument",
            ),
            (
                "move p in primes(n) => n - p",
                &[],
                "`primes` takes two arguments",
            ),
            (
                "move d in gcd(n, 2) => n - d",
                &[],
                "`gcd` is a function, not a set",
            ),
            (
                "move if divisors(n) > 1 => none",
                &[],
                "`divisors(…)` is a set of values, not a number",
            ),
            (
                "move x in 1..=n => n - prime_powers(1, x)",
                &[],
                "`prime_powers(…)` is a set of values, not a number",
            ),
            (
                "move bits in 1..=n => n - bits",
                &[],
                "`bits` cannot name a binder: it is already a set function",
            ),
            (
                "move x in 1..=divisors => n - x",
                &[],
                "unknown name `divisors`",
            ),
            (
                "move d in divisors(n > 1) => 0",
                &[],
                "expected a number, found a condition",
            ),
            (
                "move d in divisors(e), e in 1..=n => 0",
                &[],
                "binder `e` is used before it is bound",
            ),
        ];
        assert_first_errors(&cases);
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
        assert!(
            error("move d in divisor(n) => n - d", &[]).contains("help: did you mean `divisors`?")
        );
        assert!(error("move d in zzz(n) => n - d", &[]).contains(
            "help: the sets are `divisors(n)`, `primes(2, n)`, `prime_powers(2, n)`, `bits(n)`"
        ));
        assert!(error("move x in 1..=divisors => n - x", &[]).contains(
            "help: `divisors` is a set function: bind its values, e.g. `d in divisors(n)`"
        ));
        assert!(error("move d in gcd(n, 2) => n - d", &[]).contains("write `x = gcd(…)`"));
    }

    /// Set binders' errors are located like the others: the call (arity), the name
    /// (unknown set), the run-time fault at the call with the position.
    #[test]
    fn set_binder_errors_are_located() {
        assert_eq!(
            error("move d in divisors(n, 2) if d < n => n - d\n", &[]),
            "error: `divisors` takes exactly one argument\n --> rules/t.sg:1:11\n  |\n1 | move d in divisors(n, 2) if d < n => n - d\n  |           ^^^^^^^^^^^^^^ 2 given\n  |\n  = help: e.g. `d in divisors(n)`\n"
        );
        assert!(error("move d in divisorz(n) => 0\n", &[])
            .contains(" --> rules/t.sg:1:11\n  |\n1 | move d in divisorz(n) => 0\n  |           ^^^^^^^^ not a set function\n"));
        // `check` runs the smallest heaps: `bits` of a negative number fails at n = 0.
        let game = load(
            SourceFile::new("rules/t.sg", "move i in bits(n - 1) => n - (1 << i)\n"),
            &[],
        )
        .unwrap();
        let GameKind::General { program, lowered } = &game.kind else {
            panic!()
        };
        assert!(lowered.is_none());
        let e = program.for_each_move(0, &mut |_| {}).unwrap_err();
        assert_eq!(e.message, "argument out of range at n = 0");
        assert_eq!(e.span, crate::rules::Span::new(10, 21));
    }

    #[test]
    fn position_game_errors() {
        let cases: [Case; 10] = [
            (
                "position (x, y)\nmove t in 1..=x => (x - t, y, 0)",
                &[],
                "this position has 3 coordinates, but positions are (x, y)",
            ),
            (
                "position (x, y)\nmove t in 1..=x => x - t",
                &[],
                "expected a position (x, y), found a number",
            ),
            (
                "position (x, y)\nmove t in 1..=x => (x - t, y) + 1",
                &[],
                "expected a position (x, y), found a number",
            ),
            (
                "move t in 1..=n => (n - t, 0)",
                &[],
                "a heap game's move leaves heaps, not tuples",
            ),
            (
                "position (x, y)\nmove t in 1..=z => (x - t, y)",
                &[],
                "unknown name `z`",
            ),
            (
                "heap m\nposition (x, y)\nmove => none",
                &[],
                "a file has either a `heap` or a `position` line",
            ),
            (
                "position (x, x)\nmove => none",
                &[],
                "`x` cannot name a coordinate: it is already",
            ),
            (
                "position (x, y)\nmove if (x, y) == 0 => none",
                &[],
                "a tuple is only allowed as a move's result",
            ),
            (
                "position (x, y)\nmove if count(x, y) > 0 => none",
                &[],
                "expected a condition, found a number",
            ),
            (
                "move if bit(n) == 1 => none",
                &[],
                "`bit` takes two arguments",
            ),
        ];
        assert_first_errors(&cases);
        assert!(error("position (x, y)\nmove => (n, y)", &[])
            .contains("help: the coordinates are `x`, `y` in this file"));
    }

    /// The evaluated family line of `text`.
    fn checked_family(text: &str, overrides: &[(String, i64)]) -> CheckedFamily {
        let file = crate::rules::parser::parse(text).unwrap();
        match super::check(&file, overrides).unwrap().rules {
            Rules::Family { family, .. } => family,
            Rules::Moves(_) => panic!("{text}: not a family line"),
        }
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
        let GameKind::Code { code } = &game.kind else {
            panic!()
        };
        let family = checked_family(
            "param k = 3\nparam m = 2*k + 1\nsubtraction 1..=m\n",
            &[("k".to_string(), 5)],
        );
        assert_eq!(family, CheckedFamily::Subtraction((1..=11).collect()));
        assert_eq!(code.digits.len(), 12);
        let game = load(
            SourceFile::new("t.sg", "name \"S\"\nsubtraction all-but {5, 2, 2}\n"),
            &[],
        )
        .unwrap();
        assert_eq!(game.name, "S");
        assert!(matches!(game.kind, GameKind::Code { .. }));
        let family = checked_family("name \"S\"\nsubtraction all-but {5, 2, 2}\n", &[]);
        assert_eq!(family, CheckedFamily::SubtractionAllBut(vec![2, 5]));
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
