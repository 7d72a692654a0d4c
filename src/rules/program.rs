//! Compiled general move rules.
//!
//! Each checked expression ([`CExpr`]) is compiled once into a closure over a slot array
//! (slot 0 is `n`, slot `1 + i` the move's binder `i`), so enumerating moves does not re-walk
//! the syntax tree or look up names. [`Program::for_each_move`] enumerates the binders' ranges
//! as nested loops, tests the condition, evaluates the heaps and checks that each heap `h` is in
//! `0..n` (a move to a heap `≥ n` could make the game loop, which the engines do not support).

use std::fmt;
use std::sync::Arc;

use super::ast::BinaryOp;
use super::check::{apply, CExpr, CExprKind, CheckedMove, Fault, FaultKind};
use super::{Diagnostic, Span};

/// The largest number of values a binder's range may take at one position.
pub const MAX_RANGE_LEN: i128 = 1 << 32;

type Eval = Arc<dyn Fn(&[i64]) -> Result<i64, Fault> + Send + Sync>;

/// Compiled general move rules: clone it freely (the code is shared).
#[derive(Clone)]
pub struct Program {
    coordinate: String,
    moves: Vec<CompiledMove>,
    slots: usize,
}

#[derive(Clone)]
struct CompiledMove {
    binders: Vec<CompiledBinder>,
    condition: Option<Eval>,
    result: Vec<(Eval, Span)>,
}

#[derive(Clone)]
struct CompiledBinder {
    lo: Eval,
    hi: Eval,
    inclusive: bool,
    span: Span,
}

impl fmt::Debug for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Program")
            .field("coordinate", &self.coordinate)
            .field("moves", &self.moves.len())
            .field(
                "binders",
                &self
                    .moves
                    .iter()
                    .map(|m| m.binders.len())
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl Program {
    /// Compiles checked move rules; `coordinate` names `n` in run-time error messages.
    pub fn new(moves: &[CheckedMove], coordinate: &str) -> Self {
        let compiled = moves
            .iter()
            .map(|m| CompiledMove {
                binders: m
                    .binders
                    .iter()
                    .map(|b| CompiledBinder {
                        lo: compile(&b.lo),
                        hi: compile(&b.hi),
                        inclusive: b.inclusive,
                        span: b.span,
                    })
                    .collect(),
                condition: m.condition.as_ref().map(compile),
                result: m.result.iter().map(|e| (compile(e), e.span)).collect(),
            })
            .collect();
        let slots = 1 + moves.iter().map(|m| m.binders.len()).max().unwrap_or(0);
        Program {
            coordinate: coordinate.to_string(),
            moves: compiled,
            slots,
        }
    }

    /// Number of `move` rules.
    pub fn rule_count(&self) -> usize {
        self.moves.len()
    }

    /// Calls `visit` with the heaps of every move from position `n` (heaps of size 0 included
    /// as 0; `none` gives an empty slice). A move found by several rules, or by several binder
    /// values, is visited each time.
    ///
    /// Errors: arithmetic overflow, division by zero, a range of more than 2^32 values, or a
    /// heap outside `0..n`, each located at the expression and naming `n`.
    pub fn for_each_move(&self, n: u64, visit: &mut dyn FnMut(&[u64])) -> Result<(), Diagnostic> {
        let mut unlimited = u64::MAX;
        match self.for_each_move_within(n, &mut unlimited, visit) {
            Ok(()) | Err(Stop::OutOfBudget) => Ok(()),
            Err(Stop::Error(d)) => Err(d),
        }
    }

    /// Like [`Program::for_each_move`], but gives up with [`Stop::OutOfBudget`] once `budget`
    /// loop iterations have been spent (each binder value and each move counts one), so that a
    /// caller exploring the rules (lowering) cannot be made to run for hours.
    pub fn for_each_move_within(
        &self,
        n: u64,
        budget: &mut u64,
        visit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), Stop> {
        let Ok(n_signed) = i64::try_from(n) else {
            return Err(Stop::Error(Diagnostic::new(
                format!("position {n} is too large"),
                Span::new(0, 0),
            )));
        };
        let mut slots = vec![0i64; self.slots];
        slots[0] = n_signed;
        let mut heaps = Vec::with_capacity(8);
        let mut env = Env {
            heaps: &mut heaps,
            visit,
            at: (self.coordinate.as_str(), n),
            budget,
        };
        for m in &self.moves {
            m.run(0, &mut slots, &mut env)?;
        }
        Ok(())
    }
}

/// Why [`Program::for_each_move_within`] stopped early.
#[derive(Debug)]
pub enum Stop {
    /// A run-time error in the rules.
    Error(Diagnostic),
    /// The iteration budget ran out.
    OutOfBudget,
}

impl From<Diagnostic> for Stop {
    fn from(d: Diagnostic) -> Self {
        Stop::Error(d)
    }
}

/// What a move enumeration carries along.
struct Env<'a, 'v> {
    heaps: &'a mut Vec<u64>,
    visit: &'a mut (dyn FnMut(&[u64]) + 'v),
    at: (&'a str, u64),
    budget: &'a mut u64,
}

impl CompiledMove {
    fn run(&self, depth: usize, slots: &mut [i64], env: &mut Env) -> Result<(), Stop> {
        let at = env.at;
        let fault = |f: Fault| Stop::Error(f.diagnostic(Some(at)));
        *env.budget = env.budget.checked_sub(1).ok_or(Stop::OutOfBudget)?;
        if let Some(binder) = self.binders.get(depth) {
            let lo = (binder.lo)(slots).map_err(fault)?;
            let hi = (binder.hi)(slots).map_err(fault)?;
            let Some((lo, hi)) = range_bounds(lo, hi, binder.inclusive, binder.span, at)? else {
                return Ok(());
            };
            for value in lo..=hi {
                slots[1 + depth] = value;
                self.run(depth + 1, slots, env)?;
            }
            return Ok(());
        }
        if let Some(condition) = &self.condition {
            if condition(slots).map_err(fault)? == 0 {
                return Ok(());
            }
        }
        env.heaps.clear();
        for (eval, span) in &self.result {
            let h = eval(slots).map_err(fault)?;
            env.heaps.push(check_heap(h, *span, at)?);
        }
        (env.visit)(env.heaps);
        Ok(())
    }
}

/// The inclusive bounds of a binder's range, `None` if empty; an error if it has more than
/// [`MAX_RANGE_LEN`] values. Shared with the tree-walking interpreter.
pub fn range_bounds(
    lo: i64,
    hi: i64,
    inclusive: bool,
    span: Span,
    at: (&str, u64),
) -> Result<Option<(i64, i64)>, Diagnostic> {
    let hi = if inclusive {
        hi as i128
    } else {
        hi as i128 - 1
    };
    let lo = lo as i128;
    if lo > hi {
        return Ok(None);
    }
    if hi - lo + 1 > MAX_RANGE_LEN {
        return Err(Diagnostic::new(
            format!(
                "at {} = {}, this range has {} values",
                at.0,
                at.1,
                hi - lo + 1
            ),
            span,
        )
        .with_label("more than 2^32 values")
        .with_help("bound the range, e.g. `1..=min(k, n)`"));
    }
    Ok(Some((lo as i64, hi as i64)))
}

/// Checks that a move's heap `h` is in `0..n`. Shared with the tree-walking interpreter.
pub fn check_heap(h: i64, span: Span, at: (&str, u64)) -> Result<u64, Diagnostic> {
    let (name, n) = at;
    if h >= 0 && (h as u64) < n {
        return Ok(h as u64);
    }
    let (label, help) = if h < 0 {
        (
            "a heap cannot be negative".to_string(),
            format!("add a condition (`if x <= {name}`) or bound the range (`1..=min(k, {name})`)"),
        )
    } else {
        (
            format!("a heap must be smaller than {name} = {n}"),
            "a move to a heap as large as the one moved from could repeat forever; bound the range or add a condition"
                .to_string(),
        )
    };
    Err(Diagnostic::new(
        format!("at {name} = {n}, this move leaves a heap of {h}"),
        span,
    )
    .with_label(label)
    .with_help(help))
}

/// Compiles an expression to a closure, specialising the common shapes (a slot or constant
/// operand) so that the hot loop does few indirect calls.
fn compile(e: &CExpr) -> Eval {
    let span = e.span;
    let fault = move |kind| Fault { kind, span };
    match &e.kind {
        CExprKind::Const(v) => {
            let v = *v;
            Arc::new(move |_| Ok(v))
        }
        CExprKind::Slot(i) => {
            let i = *i;
            Arc::new(move |s| Ok(s[i]))
        }
        CExprKind::Neg(x) => {
            let x = compile(x);
            Arc::new(move |s| x(s)?.checked_neg().ok_or(fault(FaultKind::Overflow)))
        }
        CExprKind::Abs(x) => {
            let x = compile(x);
            Arc::new(move |s| x(s)?.checked_abs().ok_or(fault(FaultKind::Overflow)))
        }
        CExprKind::Not(x) => {
            let x = compile(x);
            Arc::new(move |s| Ok(i64::from(x(s)? == 0)))
        }
        CExprKind::Binary(BinaryOp::And, a, b) => {
            let (a, b) = (compile(a), compile(b));
            Arc::new(move |s| Ok(i64::from(a(s)? != 0 && b(s)? != 0)))
        }
        CExprKind::Binary(BinaryOp::Or, a, b) => {
            let (a, b) = (compile(a), compile(b));
            Arc::new(move |s| Ok(i64::from(a(s)? != 0 || b(s)? != 0)))
        }
        CExprKind::Binary(op, a, b) => {
            let op = *op;
            match (&a.kind, &b.kind) {
                (CExprKind::Slot(i), CExprKind::Const(c)) => {
                    let (i, c) = (*i, *c);
                    Arc::new(move |s| apply(op, s[i], c).map_err(fault))
                }
                (CExprKind::Slot(i), CExprKind::Slot(j)) => {
                    let (i, j) = (*i, *j);
                    Arc::new(move |s| apply(op, s[i], s[j]).map_err(fault))
                }
                _ => {
                    let (a, b) = (compile(a), compile(b));
                    Arc::new(move |s| apply(op, a(s)?, b(s)?).map_err(fault))
                }
            }
        }
        CExprKind::Min(args) | CExprKind::Max(args) => {
            let is_min = matches!(e.kind, CExprKind::Min(_));
            let args: Vec<Eval> = args.iter().map(compile).collect();
            Arc::new(move |s| {
                let mut best = args[0](s)?;
                for arg in &args[1..] {
                    let v = arg(s)?;
                    best = if is_min { best.min(v) } else { best.max(v) };
                }
                Ok(best)
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{load, GameKind, SourceFile};

    fn moves(text: &str, n: u64) -> Result<Vec<Vec<u64>>, String> {
        let game = load(SourceFile::new("t.sg", text), &[]).map_err(|e| e.to_string())?;
        let GameKind::General { program, .. } = &game.kind else {
            panic!("not general")
        };
        let mut out = Vec::new();
        program
            .for_each_move(n, &mut |h| out.push(h.to_vec()))
            .map_err(|d| d.render(&game.source))?;
        Ok(out)
    }

    #[test]
    fn enumerates_binders_conditions_and_sums() {
        assert_eq!(
            moves("move x in 1..=min(3, n) => n - x", 2).unwrap(),
            vec![vec![1], vec![0]]
        );
        assert_eq!(
            moves("move i in 0..=n-2 => i, n - 2 - i", 3).unwrap(),
            vec![vec![0, 1], vec![1, 0]]
        );
        assert_eq!(
            moves("move d in 1..n if n % d == 0 => n - d", 6).unwrap(),
            vec![vec![5], vec![4], vec![3]]
        );
        assert_eq!(
            moves("move if n >= 1 => none", 1).unwrap(),
            vec![Vec::<u64>::new()]
        );
        assert_eq!(
            moves("move if n >= 1 => none", 0).unwrap(),
            Vec::<Vec<u64>>::new()
        );
        assert_eq!(
            moves(
                "move a in 0..=n, len in 2..=3 if a + len <= n => a, n - a - len",
                3
            )
            .unwrap(),
            vec![vec![0, 1], vec![0, 0], vec![1, 0]]
        );
    }

    #[test]
    fn program_is_shareable() {
        fn assert_traits<T: Clone + std::fmt::Debug + Send + Sync>() {}
        assert_traits::<super::Program>();
    }

    #[test]
    fn errors_use_the_coordinate_name() {
        let err = moves("heap m\nmove x in 1..=2 => m - x", 1).unwrap_err();
        assert!(
            err.starts_with("error: at m = 1, this move leaves a heap of -1"),
            "{err}"
        );
        assert!(err.contains("help: add a condition (`if x <= m`)"), "{err}");
        let err = moves("move x in 0..=1 => n + x", 3).unwrap_err();
        assert!(err.contains("a heap must be smaller than n = 3"), "{err}");
    }

    #[test]
    fn run_time_errors_are_located() {
        let err = moves("move x in 1..=3 => n - x", 1).unwrap_err();
        assert_eq!(
            err,
            "error: at n = 1, this move leaves a heap of -1\n --> t.sg:1:20\n  |\n1 | move x in 1..=3 => n - x\n  |                    ^^^^^ a heap cannot be negative\n  |\n  = help: add a condition (`if x <= n`) or bound the range (`1..=min(k, n)`)\n"
        );
        assert!(moves("move => n", 4)
            .unwrap_err()
            .contains("at n = 4, this move leaves a heap of 4"));
        assert!(moves("move x in 0..=n => n / x", 4)
            .unwrap_err()
            .contains("division by zero at n = 4"));
        assert!(moves("move x in 0..=n*9223372036854775807 => 0", 4)
            .unwrap_err()
            .contains("arithmetic overflow at n = 4"));
        assert!(moves("move x in 0..=n*4294967296 => 0", 4)
            .unwrap_err()
            .contains("more than 2^32 values"));
    }
}

#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use crate::engine::{general, interp, Progress, SgTable};
    use crate::rules::{load, GameKind, SourceFile};

    /// Valid rule files, used as seeds for the token soups.
    const SEEDS: [&str; 6] = [
        "# Bash\nname \"Bash\"\nparam k = 3\nmove take: x in 1..=min(k, n) => n - x\n",
        "param L = 2\nmove len in L..=L+2, a in 0..=n-len => a, n - a - len\n",
        "move d in 1..n if n % d == 0 && !(d > 3 || d == 2) => n - d\nmove if n >= 1 => none\n",
        "subtraction all-but {2, 5}\n",
        "param m = 2*3 + 1\nsubtraction {1, m, -(-4)}\n",
        "heap h\nmove i in 0..=h-2 => i, h - 2 - i\n",
    ];

    /// A random file from a small grammar of rules: subtraction-like, split-like, conditions,
    /// parameters, `/` and `%`, several binders.
    fn expr(names: &'static [&'static str]) -> impl Strategy<Value = String> + Clone {
        let atom = prop_oneof![
            prop::sample::select(names).prop_map(str::to_string),
            (-3..6i64).prop_map(|v| v.to_string())
        ];
        atom.prop_recursive(3, 12, 2, |inner| {
            prop_oneof![
                (
                    inner.clone(),
                    prop::sample::select(&["+", "-", "*", "/", "%"][..]),
                    inner.clone()
                )
                    .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("min({a}, {b})")),
                (inner.clone(), inner).prop_map(|(a, b)| format!("max({a}, {b})")),
            ]
        })
    }

    fn condition(names: &'static [&'static str]) -> impl Strategy<Value = String> + Clone {
        (
            expr(names),
            prop::sample::select(&["<", "<=", "==", "!=", ">"][..]),
            expr(names),
        )
            .prop_map(|(a, op, b)| format!(" if {a} {op} {b}"))
    }

    /// A random file from a small grammar of rules: subtraction-like, split-like, conditions,
    /// parameters, `/` and `%`, several binders.
    fn rule_file() -> impl Strategy<Value = String> {
        const WITH_X: &[&str] = &["n", "k", "x"];
        const WITHOUT_X: &[&str] = &["n", "k"];
        let rule = prop_oneof![
            (1..4i64, prop::option::of(condition(WITH_X))).prop_map(|(a, c)| format!(
                "move x in {a}..=min(k, n){} => n - x",
                c.unwrap_or_default()
            )),
            (0..3i64, prop::option::of(condition(WITH_X))).prop_map(|(c, cond)| format!(
                "move x in 0..=n-{c}{} => x, n - {c} - x",
                cond.unwrap_or_default()
            )),
            (1..3i64, 0..3i64).prop_map(|(l, w)| format!(
                "move y in {l}..={}, x in 0..=n-y => x, n - x - y",
                l + w
            )),
            condition(WITHOUT_X).prop_map(|c| format!("move{c} => none")),
            (expr(WITH_X), condition(WITH_X))
                .prop_map(|(e, c)| format!("move x in 1..=n{c} && ({e}) >= 0 && ({e}) < n => {e}")),
        ];
        (1..5i64, prop::collection::vec(rule, 1..4))
            .prop_map(|(k, rules)| format!("param k = {k}\n{}\n", rules.join("\n")))
    }

    fn token_soup() -> impl Strategy<Value = String> {
        let pieces = prop_oneof![
            Just("move"),
            Just("param"),
            Just("in"),
            Just("if"),
            Just("=>"),
            Just("..="),
            Just(".."),
            Just("("),
            Just(")"),
            Just("{"),
            Just("}"),
            Just(","),
            Just("\n"),
            Just("n"),
            Just("x"),
            Just("-"),
            Just("*"),
            Just("/"),
            Just("%"),
            Just("0"),
            Just("99999999999999999999"),
            Just("\""),
            Just("#"),
            Just("octal"),
            Just("min("),
            Just("!"),
            Just("&&"),
            Just("none"),
            Just("é"),
            Just("subtraction"),
            Just("all-but"),
        ];
        (
            0..SEEDS.len(),
            prop::collection::vec((any::<prop::sample::Index>(), pieces, 0..3u8), 0..8),
        )
            .prop_map(|(seed, edits)| {
                let mut tokens: Vec<String> = SEEDS[seed].split(' ').map(str::to_string).collect();
                for (index, piece, action) in edits {
                    let i = index.index(tokens.len() + 1);
                    match action {
                        0 => tokens.insert(i, piece.to_string()),
                        1 if i < tokens.len() => {
                            tokens.remove(i);
                        }
                        _ if i < tokens.len() => tokens[i] = piece.to_string(),
                        _ => {}
                    }
                }
                tokens.join(" ")
            })
    }

    /// Loads `text` and runs the engine a little on whatever it describes (general rules or a
    /// code family): Ok or Err, never a panic or hang.
    fn exercise(text: &str) {
        let Ok(game) = load(SourceFile::new("fuzz.sg", text), &[]) else {
            return;
        };
        let _ = crate::engine::compute(&game, 24, &crate::engine::EngineOptions::default());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn random_strings_never_panic(text in "[ -~\n\té]{0,80}") {
            exercise(&text);
        }

        #[test]
        fn token_soups_never_panic(text in token_soup()) {
            exercise(&text);
        }

        /// The compiled program (through the general engine) and the tree-walking interpreter
        /// give the same values, or both fail at the same position.
        #[test]
        fn compiled_engine_equals_interpreter(text in rule_file()) {
            let game = load(SourceFile::new("r.sg", &text), &[]).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let GameKind::General { program, .. } = &game.kind else { unreachable!() };
            let mut table = SgTable::new();
            let compiled = general::extend(program, &mut table, 48, &mut Progress::hidden());
            let naive = interp::values(&SourceFile::new("r.sg", &text), &[], 48);
            match (compiled, naive) {
                (Ok(()), Ok(values)) => {
                    prop_assert_eq!(table.to_vec(), values);
                }
                (Err(a), Err(b)) => prop_assert_eq!(a, b),
                (a, b) => prop_assert!(false, "compiled {:?}, interpreted {:?}", a, b),
            }
        }
    }
}
