//! The machine-code kernel (`engine::jit`) against the tree-walking interpreter
//! (`oracle::interp`) on random rules files (issue 27): every binder kind (inclusive and
//! exclusive ranges, `j = e`, a pinned last binder, the set binders `divisors`, `bits`,
//! `primes`, `prime_powers`), conditions with `&&`, `||`, `count`, `bit`, `ctz`,
//! `popcount`, `gcd`, shifts, `min`/`max`/`abs`, `/` and `%` (floor and Euclidean, negative
//! operands included), results that are heaps, sums of heaps, `none`, tuples and sums of
//! tuples, conditions that use the last binder only in comparisons (read piece by piece as
//! lines), tests of one bit of a word in the last binder (only the bits needed visited) — and
//! rules that fail at run time, whose error must be the interpreter's. The
//! running meter must stop a compiled run at the same heap and rule as the interpreter's
//! count of steps says.

use std::ops::ControlFlow;

use proptest::prelude::*;
use sgscope::engine::budget::Meter;
use sgscope::engine::general::{self, GeneralStop};
use sgscope::engine::jit::{self, Kernel};
use sgscope::engine::multi::{compute_box, compute_box_in_order, Order};
use sgscope::engine::{BoxShape, Progress, SgTable};
use sgscope::oracle::interp;
use sgscope::rules::program::Scratch;
use sgscope::rules::{load, Game, GameKind, Program, SourceFile};

fn program(game: &Game) -> &Program {
    match &game.kind {
        GameKind::General { program, .. } => program,
        _ => panic!("not a rules game"),
    }
}

fn heap_binder() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("x in 1..=n".to_string()),
        Just("x in 0..n".to_string()),
        (1..6i64).prop_map(|k| format!("x in 1..=min({k}, n)")),
        Just("x in 1..=n / 2".to_string()),
        Just("x in 2..n - 1".to_string()),
        Just("x in divisors(n)".to_string()),
        Just("x in bits(n)".to_string()),
        Just("x in primes(2, n)".to_string()),
        Just("x in prime_powers(2, n)".to_string()),
        Just("x in 0..=n, y in 0..=x".to_string()),
        Just("x in 1..=n, y = n - x".to_string()),
        Just("x in bits(n), y in 0..x".to_string()),
        Just("x in 1..=n, y in 1..=abs(n - 3 * x)".to_string()),
        Just("x in -3..=n - 5".to_string()),
        // Ranges within 0..=63, where a test of bit `x` visits only the bits it needs.
        Just("x in 0..min(n, 62)".to_string()),
        Just("x in 1..=min(n, 63)".to_string()),
    ]
}

fn condition() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just(String::new()),
        (2..5i64, 0..3i64).prop_map(|(m, r)| format!("if x % {m} != {r}")),
        Just("if n / (x + 1) >= 2".to_string()),
        Just("if gcd(n, x) == 1".to_string()),
        Just("if popcount(x) <= 2 && x <= n".to_string()),
        Just("if bit(n, 0) == 1 || x > 2".to_string()),
        Just("if count(x > 1, n % 2 == 0, x < 5) >= 2".to_string()),
        Just("if ctz(x) < 3 && x >= 1".to_string()),
        Just("if max(x, 2) <= min(n, 9)".to_string()),
        Just("if x == n / 2".to_string()),
        Just("if n > 3 && x == n - 2".to_string()),
        Just("if (x << 1) <= n".to_string()),
        Just("if (n >> 1) ^ x != 1".to_string()),
        Just("if -x / 2 >= -n / 3".to_string()),
        Just("if (x - 7) % 3 == 1".to_string()),
        Just("if !(x & 1 == 1)".to_string()),
        // The last binder only in comparisons of affine sides (read as lines between the
        // points where a comparison changes): slopes 1, 2, 3 and -2, `!=`, `count`, and a
        // product that overflows from x = 7 on (the interpreter's error).
        Just("if x > n - 4 || 2 * x < n".to_string()),
        Just("if 3 * x - n != 2 && x + 1 < n".to_string()),
        Just("if count(x > 2, x < n - 1, n % 3 == 0) == 2".to_string()),
        Just("if -2 * x + n >= 1 && x != 3".to_string()),
        Just("if x * 1537228672809129301 < n".to_string()),
        // Faults that bounds on the operands must not hide (a shift past 63 or losing bits,
        // a division by zero, an overflow), and operations whose bounds prove them safe.
        Just("if (1 << x) > n".to_string()),
        Just("if n / (x - 3) >= 1".to_string()),
        Just("if (n * 1152921504606846976) % (x + 1) == 0".to_string()),
        Just("if (n << 2) - x * 3 >= (x >> 1) + n % 7".to_string()),
        // Tests of bit `x` of a word (the loop visits only the bits they need), after
        // conjuncts that cannot fault or that may (division by zero: every value visited),
        // and tests that are not of one bit of `x`.
        Just("if bit(n, x) == 1 && n - x > 0".to_string()),
        Just("if !(bit(n + 1, x) == 1) && x % 2 == 0".to_string()),
        Just("if x != 0 && bit(n, x) != 0".to_string()),
        Just("if 0 == bit(n * 3, x)".to_string()),
        Just("if n / x >= 1 && bit(n, x) == 0".to_string()),
        Just("if bit(n, x) == 2 || x == 1".to_string()),
        Just("if bit(n, x - 2) == 1".to_string()),
        Just("if bit(n, x) != 1 && popcount(n & ((1 << x) - 1)) == x".to_string()),
    ]
}

fn heap_result() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("n - x".to_string()),
        Just("n - x".to_string()),
        Just("n - x, x - 1".to_string()),
        Just("(n - x) / 2".to_string()),
        Just("none".to_string()),
        Just("x / 2, n - 1 - x".to_string()),
        Just("max(0, n - 2 * x)".to_string()),
        Just("n - 1 - x % n".to_string()),
        Just("n - x - 1".to_string()),
        Just("(n - x) / 2, (n - x) / 3".to_string()),
        Just("n - x, 0".to_string()),
        // Sums of lines in the binder (read along the table), one maybe negative.
        Just("x - 1, n - x, 1".to_string()),
        Just("n - 1 - x, x".to_string()),
    ]
}

fn heap_rule() -> impl Strategy<Value = String> {
    (heap_binder(), condition(), heap_result()).prop_map(|(binder, condition, result)| {
        // `y` of two binders is used in the result only by some forms; use it in a
        // condition too so that both loops run.
        let condition = if binder.contains(", y") && condition.is_empty() {
            "if y % 2 == 0".to_string()
        } else {
            condition
        };
        format!("move {binder} {condition} => {result}")
    })
}

fn position_rule() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("move t in 1..=x => (x - t, y)".to_string()),
        Just("move t in 1..=min(x, y) => (x - t, y - t)".to_string()),
        (1..3i64, 0..3i64).prop_map(|(a, b)| format!(
            "move t in 1..=x + y if {a} * t <= x && {b} * t <= y => (x - {a} * t, y - {b} * t)"
        )),
        Just("move t in 1..x => (t, y) + (x - t, y)".to_string()),
        Just("move t in bits(y) => (x, y - (1 << t))".to_string()),
        Just("move d in divisors(x) if d < x => (x - d, y)".to_string()),
        Just("move t in 0..y, u = y - 1 - t if t <= u => (x, t) + (0, u)".to_string()),
        Just("move if x >= 2 => (x - 2, y + 1)".to_string()),
        Just("move if y >= 2 && x >= 1 => (x - 1, y - 2)".to_string()),
        // Comparisons with a constant that bound a coordinate inside the rule, on either side
        // (a move past the box where the bound does not fit in it).
        Just("move if y <= 4 && 2 <= x => (x - 2, y + 1)".to_string()),
        Just("move if 3 < x && y < 6 => (x - 4, y + 1)".to_string()),
        Just("move t in 1..=y if popcount(t) == 1 => (x, y - t)".to_string()),
        Just("move t in 1..=y / 2 => (x, y - t)".to_string()),
        Just("move t in 1..=x if t == x / 2 + 1 => (x - t, y)".to_string()),
        Just("move t in 1..=x => (x - t, y - 1)".to_string()),
        // Sums of lines in the last binder: three components, a condition that does not use
        // it, ends past the box (computed on demand) or negative (an error).
        Just("move t in 1..y => (x, t) + (x, y - t) + (0, 1)".to_string()),
        Just("move t in 1..=y if x % 2 == 1 => (x - 1, t) + (x, y - t)".to_string()),
        Just("move t in 0..=x + 1 if y >= 1 => (t, y - 1) + (x + 1 - t, 0)".to_string()),
        Just("move u in 0..=y, t in 0..=x if u < y => (t, u) + (x - t - 1, u)".to_string()),
        // Conditions that use the last binder only in comparisons of affine sides (Nim_k's
        // `count(ta > 0, tb > 0) == 1`), ranges longer than the moves.
        Just("move a in 0..=x, b in 0..=y if count(a > 0, b > 0) == 1 => (x - a, y - b)".to_string()),
        Just("move a in 0..=x, b in 0..=y if count(a > 0, b > 0) >= 1 && 3 * b != a + 2 => (x - a, y - b)".to_string()),
        Just("move t in 1..=x + 1 if t <= x && 2 * t != y => (x - t, y)".to_string()),
        Just("move t in 0..=y if x > 0 && (t < 2 || t > y - 2) => (x - 1, y - t)".to_string()),
        Just("move t in 1..=x + y if t <= x && t + y >= 3 => (x - t, y)".to_string()),
        // Tests of bit `t` of a word (the loop visits only the bits they need).
        Just("move t in 0..=min(y, 30) if bit(x, t) == 1 => (x - (1 << t), y)".to_string()),
        Just("move t in 0..y if bit(x + y, t) == 0 && t < 5 => (x, y - t - 1)".to_string()),
        Just("move t in 0..4 if x > 0 && !(1 == bit(y, t)) && t <= y => (x - 1, y - t)".to_string()),
    ]
}

/// Rules with one `min`/`max` in the last binder (read as two lines, split where its
/// arguments cross: rising, falling or parallel), past the box, negative (an error: always
/// `-1`, so that the error reads the same wherever the search meets it first) or not affine.
/// Every rule lowers `x`, or keeps it and lowers `y`: the games end.
fn piecewise_rule() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "move t in 1..=x => (x - t, min(2 * t, x - t))",
        "move t in 1..=x => (x - t, max(y - t, 0))",
        "move t in 0..y if x > 0 => (min(x - 1, y - t), t)",
        "move t in 1..=x => (x - t, max(y - 3 * t, 2 * t - x) + x)",
        "move t in 1..=x => (x - t, min(t + 1, t + y) - t)",
        "move t in 1..=x => (x - t, min(y, 2 * t) - 1)",
        "move t in 1..=x => (x - t, min(2 * y, 3 * t) / 2)",
        "move t in 1..=x => (x - t, max(y / 2, t / 2))",
        "move t in 1..=x if y % 3 != 1 => (max(x - 2 * t, x / 2), min(y + t, 20))",
        "move t in 1..=y => (x, y - t)",
        "move t in 1..=x => (x - t, y)",
    ])
    .prop_map(str::to_string)
}

/// The box `0..=extents[i]` of the position game `(x, y)` with `rules`: the interpreter's
/// values, or the same error (the search may meet it first at another position).
fn same_box_as_the_interpreter(rules: &[String], extents: &[u64]) -> Result<(), TestCaseError> {
    let text = format!("position (x, y)\n{}", rules.join("\n"));
    let source = SourceFile::new("t.sg", &text);
    let game = load(source.clone(), &[]).unwrap();
    let want = interp::position_values(&source, &[], extents);
    // In waves too (runs of positions by the machine code, whatever the box's size).
    let waves = compute_box_in_order(&game, extents, Order::Waves);
    let got = compute_box(&game, extents);
    if let (Ok(waves), Ok(got)) = (&waves, &got) {
        prop_assert_eq!(waves.values(), got.values(), "{}", text);
    }
    prop_assert_eq!(waves.is_ok(), got.is_ok(), "{}", text);
    match (want, got) {
        (Ok(want), Ok(got)) => prop_assert_eq!(got.values(), &want[..], "{}", text),
        (Err(want), Err(got)) => {
            let what = want.message.rsplit(", ").next().unwrap_or_default();
            prop_assert!(got.to_string().contains(what), "{text}: {got} vs {want:?}")
        }
        (want, got) => prop_assert!(false, "{text}: interpreter {want:?}, engine {got:?}"),
    }
    Ok(())
}

/// The interpreter's steps at every heap, to the first that fails (`Err`: its message).
fn interpreter_steps(program: &Program, len: u64) -> Vec<u64> {
    let mut steps = Vec::new();
    for n in 0..len {
        let mut budget = u64::MAX;
        if program
            .for_each_move_within(n, &mut budget, &mut |_| {})
            .is_err()
        {
            break;
        }
        steps.push(u64::MAX - budget);
    }
    steps
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Heap games: the same table (or the same error, after the same values) as the
    /// interpreter.
    #[test]
    fn heap_rules_compile_to_the_interpreters_values(
        rules in prop::collection::vec(heap_rule(), 1..4),
        len in 1..70usize,
    ) {
        let text = rules.join("\n");
        let source = SourceFile::new("t.sg", &text);
        let game = load(source.clone(), &[]);
        prop_assume!(game.is_ok());
        let game = game.unwrap();
        let want = interp::values(&source, &[], len);
        let mut table = SgTable::new();
        let got = general::extend(program(&game), &mut table, len, &mut Progress::hidden());
        match (want, got) {
            (Ok(want), Ok(())) => prop_assert_eq!(table.to_vec(), want, "{}", text),
            (Err(want), Err(got)) => {
                prop_assert_eq!(&got.message, &want.message, "{}", text);
                prop_assert_eq!(got.span, want.span, "{}", text);
            }
            (want, got) => prop_assert!(false, "{text}: interpreter {want:?}, engine {got:?}"),
        }
    }

    /// Position games: the same box as the interpreter.
    #[test]
    fn position_rules_compile_to_the_interpreters_values(
        rules in prop::collection::vec(position_rule(), 1..4),
        ex in 0..12u64,
        ey in 0..12u64,
    ) {
        same_box_as_the_interpreter(&rules, &[ex, ey])?;
    }

    /// Rules read as two lines ([`piecewise_rule`]): the interpreter's values or its error.
    #[test]
    fn piecewise_lines_give_the_interpreters_values(
        rules in prop::collection::vec(piecewise_rule(), 1..4),
        ex in 0..14u64,
        ey in 0..14u64,
    ) {
        same_box_as_the_interpreter(&rules, &[ex, ey])?;
    }

    /// A budget of `limit` steps stops the compiled run at the heap where the interpreter's
    /// count of steps passes it, in the rule running then.
    #[test]
    fn the_meter_stops_compiled_runs_where_the_interpreter_does(
        rules in prop::collection::vec(heap_rule(), 1..3),
        fraction in 0.0..1.0f64,
    ) {
        let text = rules.join("\n");
        let game = load(SourceFile::new("t.sg", &text), &[]);
        prop_assume!(game.is_ok());
        let game = game.unwrap();
        let program = program(&game);
        let steps = interpreter_steps(program, 60);
        let total: u64 = steps.iter().sum();
        prop_assume!(total > 0);
        let limit = (total as f64 * fraction) as u64;
        // The heap at which the cumulative count first passes `limit`, and the rule that was
        // running: the interpreter's own run from there with what is left.
        let mut spent = 0;
        let mut expected = None;
        for (n, &s) in steps.iter().enumerate() {
            if spent + s > limit {
                let mut scratch = Scratch::default();
                let mut left = limit - spent;
                let stopped = program.for_each_option(
                    &[n as u64],
                    &mut scratch,
                    &mut left,
                    &mut |_, _, _| ControlFlow::Continue(()),
                );
                prop_assert!(stopped.is_err());
                expected = Some((n as u64, scratch.out_of_budget_in()));
                break;
            }
            spent += s;
        }
        let mut table = SgTable::new();
        let mut meter = Meter::new(limit);
        let got = general::extend_within(
            program,
            &mut table,
            steps.len(),
            &mut Progress::hidden(),
            &mut meter,
        );
        match (expected, got) {
            (None, Ok(())) => {}
            (Some((at, rule)), Err(GeneralStop::OutOfBudget { at: got_at, rule: got_rule })) => {
                prop_assert_eq!((got_at, got_rule), (at, rule), "{}", text);
                prop_assert_eq!(table.len() as u64, at);
            }
            (expected, got) => {
                prop_assert!(false, "{text}: expected a stop at {expected:?}, got {got:?}")
            }
        }
    }
}

proptest! {
    // Each case computes a box of 4096 positions or more with the oracle: fewer cases.
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// Three-coordinate boxes (at least 4096 positions, so that the engine looks for the
    /// region the moves stay in) whose moves carry `t` from one coordinate to lower ones, as
    /// staircase Nim's coins: a move may raise a coordinate past the box, keep some sums of
    /// coordinates from growing or not (a gain of 2), lower a weighted potential or only the
    /// coordinates read backwards (the game always ends: the oracle has no cycle check). The
    /// interpreter's values.
    #[test]
    fn transfer_moves_leaving_the_box(
        transfers in prop::collection::vec((1..3usize, 0..2usize, 1..3u64, 0..3u64), 1..4),
        e in prop::collection::vec(15..19u64, 3),
    ) {
        let names = ["a", "b", "c"];
        let rules: Vec<String> = transfers
            .iter()
            .map(|&(from, to, gain, other_gain)| {
                let to = to.min(from - 1);
                // The coordinate below `from` other than `to`, if any.
                let other = (0..from).find(|&i| i != to);
                let result: Vec<String> = (0..3)
                    .map(|i| {
                        let mut c = names[i].to_string();
                        if i == from {
                            c += " - t";
                        }
                        if i == to {
                            c += &format!(" + {gain} * t");
                        }
                        if Some(i) == other && other_gain > 0 {
                            c += &format!(" + {}", other_gain - 1);
                        }
                        c
                    })
                    .collect();
                format!("move t in 1..={} => ({})", names[from], result.join(", "))
            })
            .chain(["move t in 1..=a => (a - t, b, c)".to_string()])
            .collect();
        let text = format!("position (a, b, c)\n{}", rules.join("\n"));
        let source = SourceFile::new("t.sg", &text);
        let game = load(source.clone(), &[]).unwrap();
        let want = interp::position_values(&source, &[], &e).unwrap();
        let got = compute_box(&game, &e).unwrap();
        prop_assert_eq!(got.values(), &want[..], "{}", text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The compiled lister of a game whose moves may cycle (`Kernel::compile_box_lister`, the
    /// loopy tables' move listing): every position's options in the box, in the tree-walking
    /// interpreter's order; when it hands a position back, the interpreter finds an option
    /// outside the box there, or a rule error.
    #[test]
    fn compiled_listers_list_the_interpreters_moves(
        rules in prop::collection::vec(
            prop_oneof![
                position_rule().prop_filter("one component", |r| !r.contains(") +")),
                Just("move if x >= 1 => (x - 1, y + 1)".to_string()),
                Just("move t in 1..=y if x + t <= 9 => (x + t, y - t)".to_string()),
                Just("move t in 0..=2 => (x + t, y)".to_string()),
            ],
            1..4,
        ),
        ex in 0..10u64,
        ey in 0..10u64,
    ) {
        let text = format!("position (x, y)\n{}", rules.join("\n"));
        let game = load(SourceFile::new("t.sg", &text), &[]).unwrap();
        let program = program(&game);
        let shape = BoxShape::new(&[ex, ey]);
        let lister = Kernel::compile_box_lister(program, shape.extents(), shape.strides())
            .expect("single-component rules compile");
        let mut scratch = jit::Scratch::default();
        for index in 0..shape.len() {
            let position = shape.position(index);
            let want = interp::moves(program.checked_moves(), program.coordinates(), true, &position);
            let listed = lister.box_options(&position, u64::MAX, &mut scratch);
            match (listed, want) {
                (Some((got, steps)), Ok(want)) => {
                    let want: Vec<u32> = want
                        .iter()
                        .map(|option| shape.index(option).expect("listed: in the box") as u32)
                        .collect();
                    prop_assert_eq!(got, &want[..], "{} at {:?}", text, position);
                    // The same rule steps as the interpreter's enumeration (the meter's).
                    let counted = interpreter_option_steps(program, &position);
                    prop_assert_eq!(Some(steps), counted, "{} at {:?}", text, position);
                }
                (Some((got, _)), Err(e)) => {
                    prop_assert!(false, "{text} at {position:?}: listed {got:?}, interpreter {e:?}")
                }
                (None, Ok(want)) => prop_assert!(
                    want.iter().any(|option| shape.index(option).is_none()),
                    "{text} at {position:?}: handed back, interpreter lists {want:?}"
                ),
                (None, Err(_)) => {}
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The same rules over the coordinates in another order (`Program::reordered`, how an
    /// enlarged box is stored with its longest lines contiguous) move as the rules written:
    /// at every position `(y, x)` they list the options of `(x, y)`, each read backwards, in
    /// the same order, or fail alike (the tree-walking interpreter on both).
    #[test]
    fn reordered_rules_move_as_written(
        rules in prop::collection::vec(position_rule(), 1..4),
        ex in 0..8u64,
        ey in 0..8u64,
    ) {
        let text = format!("position (x, y)\n{}", rules.join("\n"));
        let game = load(SourceFile::new("t.sg", &text), &[]).unwrap();
        let written = program(&game);
        let swapped = written.reordered(&[1, 0]);
        prop_assert_eq!(swapped.coordinates(), &["y".to_string(), "x".to_string()][..]);
        let arity = 2;
        for position in BoxShape::new(&[ex, ey]).positions() {
            let want = interp::moves(written.checked_moves(), written.coordinates(), true, &position);
            let backwards = [position[1], position[0]];
            let got = interp::moves(swapped.checked_moves(), swapped.coordinates(), true, &backwards);
            match (want, got) {
                (Ok(want), Ok(got)) => {
                    let want: Vec<Vec<u64>> = want
                        .iter()
                        .map(|option| {
                            option.chunks(arity).flat_map(|c| [c[1], c[0]]).collect()
                        })
                        .collect();
                    prop_assert_eq!(got, want, "{} at {:?}", text, position);
                }
                (Err(want), Err(got)) => prop_assert_eq!(got.span, want.span, "{}", text),
                (want, got) => prop_assert!(false, "{text} at {position:?}: {want:?} vs {got:?}"),
            }
        }
    }
}

/// The window of `x in 1..=n/2 => n - x` (the options `G(n - n/2 .. n)`) next to other moves
/// that mark values the window lacks: the mex must skip them. Known values: take at most half
/// has `G(2m) = m`, `G(2m + 1) = G(m)` (OEIS A025480); checked here against the interpreter.
#[test]
fn windows_and_marks_together() {
    for text in [
        "move x in 1..=n / 2 => n - x",
        "move x in 1..=n / 2 => n - x\nmove if n >= 3 => n - 3, 1",
        "move x in 1..=n / 2 => n - x\nmove x in 1..=n / 3 => n - x, x",
        "move x in 2..=n / 2 => n - x\nmove x in 1..=min(2, n) => n - x",
        "move x in 1..n => x\nmove x in 1..=n / 2 => n - 2 * x",
    ] {
        let source = SourceFile::new("t.sg", text);
        let game = load(source.clone(), &[]).unwrap();
        let mut table = SgTable::new();
        general::extend(program(&game), &mut table, 600, &mut Progress::hidden()).unwrap();
        assert_eq!(
            table.to_vec(),
            interp::values(&source, &[], 600).unwrap(),
            "{text}"
        );
    }
}

/// Boxes whose moves leave them (a knight toward the corner, Winning Ways ch. 12: the box is
/// computed within the larger box the moves stay in, then cropped) and boxes whose waves go
/// by one coordinate (Fibonacci Nim, whose moves may raise the limit): the interpreter's
/// values, and a rule error the same as without the larger box.
/// Two-heap Nim as a position game, `G(x, y) = x ⊕ y` (Bouton 1901): values past the 256
/// marks a run starts with, in waves and in a sweep (the marks grow mid-run); and options
/// past the marks where the mex is not (`G(260, 257) = 5`, its options `256 + k` for every
/// `k < 256` beside `0..=4`).
#[test]
fn runs_grow_their_marks() {
    let text = "position (x, y)\nmove t in 1..=x => (x - t, y)\nmove t in 1..=y => (x, y - t)";
    let game = load(SourceFile::new("t.sg", text), &[]).unwrap();
    for order in [Order::Auto, Order::Waves, Order::Search] {
        for (ex, ey) in [(700, 5), (300, 300)] {
            let got = compute_box_in_order(&game, &[ex, ey], order).unwrap();
            let want: Vec<u32> = (0..=ex)
                .flat_map(|x| (0..=ey).map(move |y| (x ^ y) as u32))
                .collect();
            assert_eq!(got.values(), &want[..], "{order:?} {ex}x{ey}");
        }
    }
}

/// A line of options whose values are past the marks while the mex is not: `(0, y)` is a
/// Nim heap of `y`, and `(1, y)` moves to the heaps `0..=4`, `261` and `262`, so
/// `G(1, y) = 5`. The machine code, with fresh marks (256 of them), values `(1, y)` from the
/// interpreter's table: a value marks the slot of its low bits (261 the slot of 5), and the
/// code must see that it read values past the marks, not take slot 5 for a 5.
#[test]
fn options_past_the_marks_are_not_their_low_bits() {
    let text = "position (x, y)
move t in 1..=y if x == 0 => (0, y - t)
move t in 0..=4 if x == 1 => (0, t)
move t in 261..=262 if x == 1 => (0, t)";
    let source = SourceFile::new("t.sg", text);
    let game = load(source.clone(), &[]).unwrap();
    let shape = BoxShape::new(&[1, 300]);
    let values = interp::position_values(&source, &[], shape.extents()).unwrap();
    let kernel = Kernel::compile_box(program(&game), shape.extents(), shape.strides()).unwrap();
    for y in [0, 7, 300] {
        let valued = kernel.box_value(&[1, y], &values, u64::MAX, &mut jit::Scratch::default());
        assert!(
            matches!(valued, jit::Valued::Value(5, _)),
            "G(1, {y}): {valued:?}"
        );
    }
    let got = compute_box(&game, shape.extents()).unwrap();
    assert_eq!(got.values(), &values[..]);
}

/// The survey of a box in waves lists moves in machine code; the indices it lists must not be
/// taken for the marks of a mex later (found by the proptest above: G(4, 0) came out 3).
#[test]
fn listed_moves_leave_no_marks() {
    let text = "position (x, y)\nmove t in 1..=x + y if t <= x && t + y >= 3 => (x - t, y)\nmove t in 1..=x if t == x / 2 + 1 => (x - t, y)";
    let source = SourceFile::new("t.sg", text);
    let game = load(source.clone(), &[]).unwrap();
    let want = interp::position_values(&source, &[], &[10, 11]).unwrap();
    let got = compute_box_in_order(&game, &[10, 11], Order::Waves).unwrap();
    assert_eq!(got.values(), &want[..]);
}

/// Moves that lower `y` and may raise `x`: waves of `y`, each a column of the box (300
/// positions a row apart, shared with the partner thread); the interpreter's values.
#[test]
fn columns_as_waves() {
    let text = "position (x, y)
move t in 1..=min(y, 3) => (min(x + t, 299), y - t)
move if y >= 1 => (x / 2, y - 1)";
    let source = SourceFile::new("t.sg", text);
    let game = load(source.clone(), &[]).unwrap();
    let want = interp::position_values(&source, &[], &[299, 299]).unwrap();
    let got = compute_box(&game, &[299, 299]).unwrap();
    assert_eq!(got.values(), &want[..]);
}

/// A knight's diagonals shared with a partner thread, one of them faulting in the partner's
/// half (`x / (y - 350)` at `y = 350`, on the diagonal `x + y = 601`): the error of the first
/// faulting position in the wave's order, as when one thread sweeps it.
#[test]
fn a_fault_in_a_shared_wave_is_the_first_in_its_order() {
    let text = "position (x, y)
move if x >= 2 => (x - 2, y + 1)
move if x >= 2 && y >= 1 => (x - 2, y - 1)
move if y >= 2 => (x + 1, y - 2)
move if x >= 1 && y >= 2 => (x - 1, y - 2)
move if x + y > 600 && x >= 1 => (x / (y - 350) * 0 + x - 1, y)";
    let game = load(SourceFile::new("t.sg", text), &[]).unwrap();
    let got = compute_box(&game, &[400, 400]).unwrap_err().to_string();
    assert!(
        got.contains("division by zero at (x, y) = (251, 350)"),
        "{got}"
    );
}

/// Boxes of three coordinates and more go first in waves of rows, shared with a partner
/// thread: Moore's Nim_k, whose moves all lower the coordinates but the last or keep them;
/// and a game with a move that lowers the potential `2a + b + c` but raises the part of it
/// before the row's (`(a + 1, b, c - 5)`), which meets a row not valued yet and hands the box
/// back to the waves. Both against the interpreter.
#[test]
fn waves_of_rows_and_their_fallback() {
    let stepping = "position (a, b, c)
move t in 1..=c => (a, b, c - t)
move if c >= 5 && a < 12 => (a + 1, b, c - 5)
move if a >= 1 && b < 12 => (a - 1, b + 1, c)";
    let nim_k = std::fs::read_to_string("rules/nim-k.sg").unwrap();
    for (path, text, extents) in [
        ("rules/nim-k.sg", nim_k.as_str(), &[8u64, 8, 8, 8][..]),
        ("stepping.sg", stepping, &[12, 12, 40]),
    ] {
        let source = SourceFile::new(path, text);
        let game = load(source.clone(), &[]).unwrap();
        let want = interp::position_values(&source, &[], extents).unwrap();
        let got = compute_box(&game, extents).unwrap();
        assert_eq!(got.values(), &want[..], "{path} {extents:?}");
    }
}

#[test]
fn enlarged_boxes_and_single_coordinate_waves() {
    for (path, extents) in [
        ("rules/knight.sg", &[70u64, 70][..]),
        ("rules/knight.sg", &[90, 50]),
        // Diagonals of 256 positions and more: shared with a partner thread.
        ("rules/knight.sg", &[400, 300]),
        ("rules/fibonacci-nim.sg", &[80, 80]),
        ("rules/staircase-nim.sg", &[8, 8, 8, 8]),
        ("rules/staircase-nim.sg", &[9, 6, 8, 7]),
        // Over 2^16 positions in the region: waves of rows shared with a partner thread.
        ("rules/staircase-nim.sg", &[12, 12, 12, 12]),
    ] {
        let source = SourceFile::new(path, std::fs::read_to_string(path).unwrap());
        let game = load(source.clone(), &[]).unwrap();
        let want = interp::position_values(&source, &[], extents).unwrap();
        let got = compute_box(&game, extents).unwrap();
        assert_eq!(got.values(), &want[..], "{path} {extents:?}");
    }
    // Moves that leave the box and lower the sum, and a rule that fails on the box's far
    // positions: the error of the box asked, not a value.
    let text = "position (x, y)\nmove if x >= 2 => (x - 2, y + 1)\nmove if y >= 2 => (x + 1, y - 2)\nmove if x + y > 130 => (x - 200, y)";
    let source = SourceFile::new("t.sg", text);
    let game = load(source.clone(), &[]).unwrap();
    let want = interp::position_values(&source, &[], &[70, 70]).unwrap_err();
    let got = compute_box(&game, &[70, 70]).unwrap_err().to_string();
    assert!(got.contains("leaves x = -"), "{got} vs {want:?}");
}

/// A condition whose conjunct says that the bits between two binders are all ones (P2575's
/// natural spelling, `popcount(m & ((1 << e) - (1 << (i + 1)))) == e - i - 1`) ends the loop
/// over `e` at its first failure (`rules::program::closing_conjunct`), whichever place the
/// conjunct takes, with or without a bit test before it; a near miss (`== e - i`) is not
/// taken for one. On every mask of 10 cells: the interpreter's values, and at every position
/// the interpreter's options and rule steps (the meter's).
#[test]
fn closing_conjuncts_end_loops_with_the_interpreters_values_and_steps() {
    let jump = "m - (1 << i) + (1 << e)";
    let between = "popcount(m & ((1 << e) - (1 << (i + 1)))) == e - i - 1";
    for condition in [
        format!("bit(m, e) == 0 && {between}"),
        format!("{between} && bit(m, e) == 0"),
        "popcount(((1 << e) - (1 << (1 + i))) & m) == e - (i + 1) && e % 3 != 0 && bit(m, e) == 0"
            .to_string(),
        "bit(m, e) == 0 && popcount(m & ((1 << e) - (1 << (i + 1)))) == e - i".to_string(),
        // No bit test: the plain loop over `e` (to a smaller mask, the same option maybe
        // several times).
        format!("{between} && e % 2 == 0 => (m - (1 << i))"),
    ] {
        let rule = if condition.contains("=>") {
            condition
        } else {
            format!("{condition} => ({jump})")
        };
        let text = format!("position (m)\nmove i in bits(m), e in i + 1..10 if {rule}");
        let source = SourceFile::new("t.sg", &text);
        let game = load(source.clone(), &[]).unwrap();
        let want = interp::position_values(&source, &[], &[1023]).unwrap();
        let got = compute_box(&game, &[1023]).unwrap();
        assert_eq!(got.values(), &want[..], "{text}");
        lists_the_interpreters_moves_and_steps(&game, &[1023], &text);
    }
}

/// A conjunct never up in the two last binders (Moore's Nim_k's `count(ta > 0, …) <= k`)
/// ends the loop of the binder before the last where it fails with the last binder at its
/// start (`rules::program::pruning_conjunct`), spending the steps of the values skipped: in
/// several spellings (`<`, `!(… > …)`, a range written `0..x + 1`, another conjunct first, the
/// last binder's range empty at some positions), and where it must not apply (the last
/// binder's range using the binder before it; a line, whose steps count only where its
/// condition holds). On every position of the box: the interpreter's values, and the
/// interpreter's options and rule steps (the meter's).
#[test]
fn pruning_conjuncts_end_loops_with_the_interpreters_values_and_steps() {
    let nim_k = |binders: &str, condition: &str| {
        format!("position (a, b, c)\nmove {binders} if {condition} => (a - ta, b - tb, c - tc)")
    };
    let all = "ta in 0..=a, tb in 0..=b, tc in 0..=c";
    let counted = "count(ta > 0, tb > 0, tc > 0)";
    for text in [
        nim_k(all, &format!("{counted} >= 1 && {counted} <= 1")),
        nim_k(all, &format!("{counted} < 3 && {counted} >= 1")),
        nim_k(all, &format!("a + tc != 5 && !({counted} > 1) && {counted} > 0")),
        nim_k(
            "ta in 0..a + 1, tb in 0..b + 1, tc in 1..=c - a",
            &format!("{counted} <= 1 + a % 2"),
        ),
        nim_k("ta in 0..=a, tb in 0..=b, tc in tb..=c", &format!("{counted} >= 1 && ({counted} == 2 || tb + tc <= 1)")),
        nim_k("ta in 0..=a, tb in 0..=b, tc in tb..=c", &format!("{counted} <= 1 && {counted} > 0")),
        "position (a, b, c)\nmove ta in 0..=a, tb in 0..=b, tc in 1..=c if count(ta > 0, tb > 0) <= 1 => (a - ta, b - tb, c - tc)".to_string(),
    ] {
        let source = SourceFile::new("t.sg", &text);
        let game = load(source.clone(), &[]).unwrap();
        let extents = [5u64, 6, 7];
        let want = interp::position_values(&source, &[], &extents).unwrap();
        let got = compute_box(&game, &extents).unwrap();
        assert_eq!(got.values(), &want[..], "{text}");
        lists_the_interpreters_moves_and_steps(&game, &extents, &text);
    }
}

/// At every position of the box `0..=extents[i]`, the compiled lister's options and rule
/// steps are the interpreter's (`text`: the rules, for the messages).
fn lists_the_interpreters_moves_and_steps(game: &Game, extents: &[u64], text: &str) {
    let program = program(game);
    let shape = BoxShape::new(extents);
    let lister = Kernel::compile_box_lister(program, shape.extents(), shape.strides())
        .expect("the rules compile");
    let mut scratch = jit::Scratch::default();
    for index in 0..shape.len() {
        let position = shape.position(index);
        let want = interp::moves(
            program.checked_moves(),
            program.coordinates(),
            true,
            &position,
        );
        let (listed, steps) = lister
            .box_options(&position, u64::MAX, &mut scratch)
            .expect("every option in the box");
        let want: Vec<u32> = (want.unwrap().iter())
            .map(|option| shape.index(option).unwrap() as u32)
            .collect();
        assert_eq!(listed, &want[..], "{text} at {position:?}");
        let counted = interpreter_option_steps(program, &position);
        assert_eq!(Some(steps), counted, "{text} at {position:?}");
    }
}

/// The rule steps the interpreter's enumeration of the options of `position` spends (the
/// meter's), `None` when it fails.
fn interpreter_option_steps(program: &Program, position: &[u64]) -> Option<u64> {
    let mut budget = u64::MAX;
    let counted = program.for_each_option(
        position,
        &mut Scratch::default(),
        &mut budget,
        &mut |_, _, _| ControlFlow::Continue(()),
    );
    counted.ok().map(|_| u64::MAX - budget)
}
