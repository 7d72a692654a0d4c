//! One budget for every request (issue 14, "sgscope under hostile input"): refused before any
//! work when the estimate is past it, stopped while running when the estimate was wrong, each
//! with a located message and the numbers. Each case is a regression test of a request that
//! once ran for hours, or grew until the allocator aborted.

use sgscope::engine::budget::{self, with_steps_limit};
use sgscope::engine::multi::compute_box;
use sgscope::engine::{self, EngineError, EngineOptions};
use sgscope::rules::{load, Game, SourceFile};

use crate::support::{assert_has, assert_render, fails, ok};

fn game(text: &str) -> Game {
    load(SourceFile::new("g.sg", text), &[]).unwrap_or_else(|e| panic!("{e}"))
}

/// A move that leaves the box and keeps going (each position outside it has more moves than
/// the last) grew to 2.5 GB and aborted: it stops at once, pointing at the move. The steps
/// taken and allowed are shown whole: rounded, they read "1.8e7, more than the 1.8e7".
#[test]
fn moves_leaving_the_box_for_good_stop_at_the_move() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.sg");
    std::fs::write(&path, "position (x)\nmove t in 1..=x => x + 1\n").unwrap();
    let err = fails(&["table", path.to_str().unwrap(), "--to", "3"], 1)
        .replace(dir.path().to_str().unwrap(), "DIR");
    assert_render(
        &err,
        r"
error: at x = 4225, the moves keep leaving the box: 4223 positions outside it took 17863282 rule steps, more than the 17858304 allowed (as many as the box is estimated to take, at least 1.7e7, and 256 a position); 0 of the box's 4 positions were valued
 --> DIR/g.sg:2:1
  |
2 | move t in 1..=x => x + 1
  | ^^^^^^^^^^^^^^^^^^^^^^^^ this move leads outside the box
  help: enlarge the box with --to, or bound the moves
",
    );
}

/// A range of `2^t` values inside a loop over `t`: the estimate sees the growth from the
/// ranges (it ran forever as a position game, and was refused only after 6.8 s as a heap game).
#[test]
fn ranges_growing_inside_loops_are_refused_at_once() {
    let err = fails(
        &[
            "table",
            "position (x)\nmove t in 1..=x, u in 0..(1 << t) => none",
            "--to",
            "40",
        ],
        2,
    );
    assert!(
        err.starts_with("error: the box 0 ≤ x ≤ 40 would take more than 2e10 rule steps (about "),
        "{err}"
    );
    assert!(err.contains("help: ask for a smaller --to"), "{err}");
    let err = fails(
        &[
            "table",
            "move t in 1..=n, u in 0..(1 << t) => none",
            "--to",
            "40",
        ],
        // Refused up front: 2, as for the position game above (it was 1 for heap games).
        2,
    );
    assert!(
        err.starts_with("error: G(0..=40) would take more than 2e10 rule steps (about "),
        "{err}"
    );
    assert!(err.contains("help: bound the ranges by n"), "{err}");
}

/// Huge ranges at small n and none at the top: the samples cover the whole table.
#[test]
fn huge_ranges_below_the_top_are_refused() {
    let err = fails(
        &[
            "table",
            "move t in 0..=2147483647 - 20000000 * n => none",
            "--to",
            "149",
        ],
        2,
    );
    assert!(
        err.starts_with("error: G(0..=149) would take more than 2e10 rule steps (about 1.2e11"),
        "{err}"
    );
}

/// Nim's table is quadratic (10^6 in 5.6 s, 4·10^6 in 93 s): 10^9 would take months, and is
/// refused with the estimate, without the up-front note; a long but reasonable request is not.
#[test]
fn tables_estimated_far_past_the_budget_are_refused() {
    for (game, to) in [("rules/nim.sg", "200000000"), ("octal 0.[7]", "200000")] {
        let err = fails(&["table", game, "--to", to], 2);
        assert!(
            err.starts_with(&format!("error: G(0..={to}) would take about ")),
            "{err}"
        );
        assert_has(
            &err,
            &[
                ", far past the budget of 6 h\n",
                "help: ask for a smaller --to/--max",
            ],
        );
        assert!(!err.contains("note:"), "{err}");
    }
    let nim = game("move take: x in 1..=n => n - x");
    let estimate = engine::estimate::estimate(&nim, 0, 10_000_000).unwrap();
    assert!(
        (60.0..budget::TIME_LIMIT_SECONDS).contains(&estimate.seconds),
        "{estimate:?}"
    );
    assert!(budget::check_time(&nim, 0, 10_000_000).is_ok());
    assert!(budget::check_time(&game("hex 0.9"), 0, 65536).is_ok());
    assert!(budget::check_time(&game("takebreak 4!.0"), 0, 1 << 30).is_ok());
    // What the shipped files and the suite compute is small; the default period search too.
    ok(&["period", "rules/nim.sg"]);
}

/// `solve` of a code's heap whose moves are not listed: refused before its table is computed
/// (it took 17.9 s), with a help line.
#[test]
fn solve_refuses_unlisted_heaps_before_the_table() {
    let err = fails(&["solve", "takebreak 4!.0", "10000000"], 2);
    assert_has(
        &err,
        &[
            "would take too long",
            "\n  help: ask about heaps of at most 20000 tokens",
        ],
    );
}

/// The running meter: work the samples do not see (one expensive position among many) stops
/// at the budget, saying where and how far the table got.
#[test]
fn the_running_meter_stops_what_the_estimate_missed() {
    let heap = game("move t in 0..=count(n == 7777) * 1000000 => none");
    let err = with_steps_limit(500_000, || {
        engine::compute(&heap, 100_000, &EngineOptions::default())
    })
    .unwrap_err();
    assert!(matches!(err, EngineError::OverBudget { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.starts_with("error: at n = 7777, the rules passed the budget of 5e5 rule steps (binder values and moves): G(0..7777) was computed, of 100001 values\n --> g.sg:1:1"),
        "{text}"
    );
    assert!(text.contains("this rule was running"), "{text}");
    assert_eq!(err.hint(), Some(engine::Hint::BoundRanges));

    // A box: the parallel waves share one meter.
    let boxed = game("position (x, y)\nmove t in 0..=count(x == 77 && y == 5) * 1000000 => none");
    let err = with_steps_limit(500_000, || compute_box(&boxed, &[200, 200])).unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with(
            "error: at (x, y) = (77, 5), the rules passed the budget of 5e5 rule steps"
        ),
        "{text}"
    );
    assert!(
        text.contains("of the box's 40401 positions were valued"),
        "{text}"
    );
    // With the default budget both are computed.
    assert!(engine::compute(&heap, 10_000, &EngineOptions::default()).is_ok());
}
