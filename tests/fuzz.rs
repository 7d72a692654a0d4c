//! Fuzzing the rules language and the engine (issue 14, "sgscope under hostile input").
//!
//! Random rules texts — generated from the grammar (heap and position games, parameters,
//! moves with up to three binders, ranges, arithmetic with shifts (powers of two), `%`, `/`,
//! bit operations, comparisons, `min`/`max`/`abs`/`popcount`, results that are heaps, tuples,
//! sums of tuples or `none`, and the family forms), then sometimes mutated (characters
//! inserted, deleted or replaced) or replaced by garbage — are loaded with [`rules::load`] and,
//! when they load, computed on small requests: heap tables up to n ≤ 40, boxes of at most 12
//! per coordinate, `solve` of a small sum, and the generic evaluator. Each case must end
//! without a panic, in an answer or a typed error, within a lowered step budget
//! ([`budget::with_steps_limit`], [`FUZZ_STEPS`]): the budget's estimate and its running meter
//! guarantee that every case ends quickly, whatever its rules.
//!
//! Its own test binary (`[[test]] name = "fuzz"`), so that it can be run alone:
//!
//! ```text
//! cargo test --release --test fuzz                          # 256 cases per property
//! PROPTEST_CASES=500000 cargo test --release --test fuzz    # a long run: 10^6 inputs
//!                                                           # (two properties, side by side)
//! SGSCOPE_FUZZ_REPORT=1 PROPTEST_CASES=100000 cargo test --release --test fuzz -- --nocapture
//! ```
//!
//! With `SGSCOPE_FUZZ_REPORT` set, each new slowest case is printed (with the number of cases
//! run so far), so that a long run ends with its slowest input on standard error. A failing
//! case is shrunk by proptest and saved in `proptest-regressions/fuzz.txt`, which later runs
//! replay first.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use sgscope::engine::budget;
use sgscope::engine::multi::compute_box;
use sgscope::engine::{self, EngineOptions};
use sgscope::rules::{self, SourceFile};
use sgscope::value::{evaluate::evaluate, Normal};

/// The rule steps one request may take in a fuzz case (the default is 2·10^10): a few
/// milliseconds.
const FUZZ_STEPS: u64 = 1 << 18;

/// Integers from the small to the hostile.
fn integer() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (0..8i64).prop_map(|v| v.to_string()),
        1 => prop::sample::select(&[
            "40", "64", "1000", "65536", "2147483647", "4294967296", "1000000000000",
            "9223372036854775807", "20000000",
        ][..])
        .prop_map(str::to_string),
    ]
}

/// An expression over `names`: arithmetic, shifts, bit operations, comparisons, calls.
fn expr(names: Vec<String>) -> BoxedStrategy<String> {
    let atom = prop_oneof![
        3 => prop::sample::select(names).prop_map(|n| n.to_string()),
        2 => integer(),
    ];
    atom.prop_recursive(4, 16, 3, |inner| {
        prop_oneof![
            4 => (
                inner.clone(),
                prop::sample::select(&[
                    "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "==", "!=", "<", "<=",
                    ">", ">=", "&&", "||",
                ][..]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            1 => inner.clone().prop_map(|a| format!("(1 << {a})")),
            1 => (
                prop::sample::select(&["min", "max"][..]),
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(f, a, b)| format!("{f}({a}, {b})")),
            1 => (
                prop::sample::select(&["abs", "popcount", "ctz", "-", "!"][..]),
                inner
            )
                .prop_map(|(f, a)| match f {
                    "-" | "!" => format!("{f}{a}"),
                    _ => format!("{f}({a})"),
                }),
        ]
    })
    .boxed()
}

/// A `move` statement over `coordinates` and `params`: binders, a condition, a result.
fn move_rule(coordinates: Vec<String>, params: Vec<String>) -> impl Strategy<Value = String> {
    let arity = coordinates.len();
    (0..4usize, any::<bool>(), any::<u64>()).prop_flat_map(move |(binders, labelled, seed)| {
        let mut names: Vec<String> = coordinates.iter().chain(&params).cloned().collect();
        let mut binder_strategies = Vec::new();
        for i in 0..binders {
            let name = ["t", "u", "v"][i].to_string();
            let scope = names.clone();
            binder_strategies.push((expr(scope.clone()), expr(scope), 0..3u8).prop_map(
                move |(lo, hi, kind)| match kind {
                    0 => format!("{name} in {lo}..={hi}"),
                    1 => format!("{name} in {lo}..{hi}"),
                    _ => format!("{name} = {lo}"),
                },
            ));
            names.push(["t", "u", "v"][i].to_string());
        }
        let component =
            prop::collection::vec(expr(names.clone()), arity..=arity).prop_map(move |cs| {
                if arity == 1 {
                    cs[0].clone()
                } else {
                    format!("({})", cs.join(", "))
                }
            });
        let result = prop_oneof![
            1 => Just("none".to_string()),
            4 => component.clone(),
            2 => prop::collection::vec(component, 2..4).prop_map(move |cs| {
                if arity == 1 {
                    cs.join(", ")
                } else {
                    cs.join(" + ")
                }
            }),
        ];
        (binder_strategies, prop::option::of(expr(names)), result).prop_map(
            move |(binders, condition, result)| {
                let label = if labelled {
                    format!("m{}: ", seed % 10)
                } else {
                    String::new()
                };
                let binders = binders.join(", ");
                let condition = condition.map_or(String::new(), |c| format!(" if {c}"));
                format!("move {label}{binders}{condition} => {result}")
            },
        )
    })
}

/// A whole rules file: a heap game (`n` or a named heap) or a position game of one to three
/// coordinates, parameters, one to four moves; or a family form.
fn rules_file() -> impl Strategy<Value = String> {
    let general = (0..4usize, 0..3usize, any::<bool>()).prop_flat_map(|(arity, params, named)| {
        let coordinates: Vec<String> = match arity {
            0 if named => vec!["h".into()],
            0 => vec!["n".into()],
            _ => ["x", "y", "z"][..arity]
                .iter()
                .map(|s| s.to_string())
                .collect(),
        };
        let header = match arity {
            0 if named => "heap h\n".to_string(),
            0 => String::new(),
            _ => format!("position ({})\n", coordinates.join(", ")),
        };
        let param_names: Vec<String> = ["k", "L"][..params].iter().map(|s| s.to_string()).collect();
        (
            prop::collection::vec(integer(), params..=params),
            prop::collection::vec(move_rule(coordinates, param_names.clone()), 1..5),
        )
            .prop_map(move |(values, moves)| {
                let params: String = param_names
                    .iter()
                    .zip(values)
                    .map(|(p, v)| format!("param {p} = {v}\n"))
                    .collect();
                format!("{header}{params}{}\n", moves.join("\n"))
            })
    });
    let family = prop_oneof![
        (
            prop::sample::select(&["octal", "hex", "takebreak"][..]),
            "[0-9A-F]{1,2}\\.[0-9A-F!?=\\[\\]{}+]{0,6}"
        )
            .prop_map(|(f, c)| format!("{f} {c}\n")),
        prop::collection::vec(0..12i64, 0..5).prop_map(|s| format!(
            "subtraction {{{}}}\n",
            s.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
        )),
        prop::collection::vec(1..8i64, 1..4).prop_map(|s| format!(
            "subtraction all-but {{{}}}\n",
            s.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
        )),
    ];
    prop_oneof![6 => general, 1 => family]
}

/// A text from the grammar, sometimes with a few characters inserted, deleted or replaced;
/// or printable garbage.
fn fuzz_text() -> impl Strategy<Value = String> {
    let edits = prop::collection::vec((any::<prop::sample::Index>(), "[ -~\n]", 0..3u8), 0..4);
    prop_oneof![
        5 => rules_file(),
        3 => (rules_file(), edits).prop_map(|(text, edits)| {
            let mut chars: Vec<char> = text.chars().collect();
            for (index, piece, action) in edits {
                let i = index.index(chars.len() + 1);
                let c = piece.chars().next().unwrap_or(' ');
                match action {
                    0 => chars.insert(i, c),
                    1 if i < chars.len() => {
                        chars.remove(i);
                    }
                    _ if i < chars.len() => chars[i] = c,
                    _ => {}
                }
            }
            chars.into_iter().collect()
        }),
        1 => "[ -~\n\té]{0,120}",
    ]
}

/// Cases run, and the slowest so far (with its text).
static CASES: AtomicU64 = AtomicU64::new(0);
static SLOWEST: Mutex<(Duration, String)> = Mutex::new((Duration::ZERO, String::new()));

fn report(text: &str, took: Duration) {
    let cases = CASES.fetch_add(1, Ordering::Relaxed) + 1;
    let mut slowest = SLOWEST.lock().unwrap_or_else(|e| e.into_inner());
    if took > slowest.0 {
        *slowest = (took, text.to_string());
        if std::env::var_os("SGSCOPE_FUZZ_REPORT").is_some() {
            eprintln!("slowest after {cases} cases: {took:?} for {text:?}");
        }
    }
}

/// Loads `text` and runs the engine on small requests of whatever it describes. Errors are
/// fine; a panic fails the case, and the budget keeps every request short.
fn exercise(text: &str, to: u64, side: u64) {
    let started = Instant::now();
    budget::with_steps_limit(FUZZ_STEPS, || {
        let Ok(game) = rules::load(SourceFile::new("fuzz.sg", text), &[]) else {
            return;
        };
        match game.position_program() {
            Some(program) => {
                let extents = vec![side; program.coordinates().len()];
                let _ = compute_box(&game, &extents);
                if extents.len() <= 2 {
                    let _ = evaluate(&Normal, &game, &extents);
                }
                let far: Vec<u64> = extents.iter().map(|&e| e + 1).collect();
                let _ = sgscope::solve::solve(&game, &[extents.clone(), far]);
            }
            None => {
                let _ = engine::compute(&game, to, &EngineOptions::default());
                let _ = evaluate(&Normal, &game, &[to.min(24)]);
                let _ = sgscope::solve::solve(&game, &[vec![to], vec![to / 2 + 1]]);
            }
        }
    });
    report(text, started.elapsed());
}

proptest! {
    // The default configuration: 256 cases, or `PROPTEST_CASES`.
    #![proptest_config(ProptestConfig::default())]

    /// Rules from the grammar, mutated or not, and garbage: no panic, and every case ends.
    #[test]
    fn rules_and_engine_survive_hostile_input(text in fuzz_text(), to in 0..=40u64, side in 0..=12u64) {
        exercise(&text, to, side);
    }

    /// The same on a second thread (the test harness runs the two side by side), from the
    /// grammar only: twice the inputs per run.
    #[test]
    fn grammar_rules_survive(text in rules_file(), to in 0..=40u64, side in 0..=12u64) {
        exercise(&text, to, side);
    }
}

/// Inputs found by hand or by earlier runs, kept as regressions.
#[test]
fn known_hostile_inputs() {
    for text in [
        "position (x)\nmove t in 1..=x => x + 1\n",
        "position (x)\nmove t in 1..=x, u in 0..(1 << t) => none\n",
        "move t in 1..=n, u in 0..(1 << t) => none\n",
        "move t in 0..=2147483647 - 20000000 * n => none\n",
        "position (x, y)\nmove t in 0..=4294967295 => (x + 1, y)\n",
        "position (x, y, z)\nmove t in 0..=x + y + z, u in 0..=t => (x + 1, y + t, z + u)\n",
        "position (x)\nmove t in 0..=x => x + 1, x + 2, x + 3\n",
        "move t in 0..=9223372036854775807 - n => none\n",
        // The slowest of a run of 120 000 cases (1.9 s on a loaded machine, a few ms alone).
        "position (x, y)\nmove m4:  => ((x + 1), y)\n",
    ] {
        exercise(text, 40, 12);
    }
}
