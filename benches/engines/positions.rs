//! Position games (issue 4): a rules file's table over a box, as `sgscope table FILE --to …`
//! computes it ([`multi::compute_box`], in rayon pools of 1 and of 2 threads: the box engine
//! computes anti-diagonal waves in parallel), against a hand-written Rust loop for the same
//! table in the same run.
//!
//! Each row checks that the three tables are equal value for value, and that the values obey
//! the game's known theory, computed with exact integer arithmetic (no floating point):
//! Wythoff's P-positions are the Beatty pairs, a P2575 row is staircase Nim.

use std::collections::BTreeSet;

use sgscope::engine::boxtable::BoxTable;
use sgscope::engine::multi;
use sgscope::rules::{self, Game, SourceFile};

use crate::measure::{ratio_text, seconds_text, time_runs, timing_text, yes_no, Timing};
use crate::{Report, Settings};

/// One line of the table.
pub struct Row {
    /// The rules file, from the repository's root.
    pub path: &'static str,
    /// The box `0..=extents[i]`.
    extents: Vec<u64>,
    /// The hand-written loop and the theory for this game.
    game: KnownGame,
    target: Target,
}

/// A goal for the rules engine on all cores (2 threads).
#[derive(Clone, Copy)]
enum Target {
    /// At most this many times the hand loop's time (medians).
    WithinTimesOfHandLoop(f64),
    /// At most this many seconds (median).
    Seconds(f64),
}

/// The games with a hand-written loop and a closed form for their values.
#[derive(Clone, Copy)]
enum KnownGame {
    Wythoff,
    P2575Row,
}

/// Cells in a row of Luogu P2575, as `param width` in `rules/p2575-row.sg`.
const P2575_WIDTH: u32 = 20;

/// The rows of the full run or, with `quick`, of the quick one (a smaller Wythoff box).
pub fn rows(quick: bool) -> Vec<Row> {
    let wythoff_side = if quick { 300 } else { 1000 };
    vec![
        // Issue 4: "Wythoff to 1000×1000 … the rules engine within 3× of" a hand-written loop.
        Row {
            path: "rules/wythoff.sg",
            extents: vec![wythoff_side, wythoff_side],
            game: KnownGame::Wythoff,
            target: Target::WithinTimesOfHandLoop(3.0),
        },
        // Issue 4: "P2575's 2^20 masks in under a second".
        Row {
            path: "rules/p2575-row.sg",
            extents: vec![(1 << P2575_WIDTH) - 1],
            game: KnownGame::P2575Row,
            target: Target::Seconds(1.0),
        },
    ]
}

impl KnownGame {
    /// The table over the box `extents`, row-major (the last coordinate fastest), as
    /// [`BoxTable::values`] holds it; written from the game's definition, sharing no code with
    /// the engine.
    fn hand_loop(self, extents: &[u64]) -> Vec<u32> {
        match self {
            KnownGame::Wythoff => {
                assert_eq!(extents[0], extents[1], "a square box");
                wythoff_hand_loop(extents[0] as usize)
            }
            KnownGame::P2575Row => {
                assert_eq!(extents, [(1 << P2575_WIDTH) - 1], "every mask");
                p2575_row_hand_loop(P2575_WIDTH)
            }
        }
    }

    /// Checks the table against the game's theory: what was confirmed, or what differs.
    fn check_theory(self, table: &BoxTable) -> Result<String, String> {
        match self {
            KnownGame::Wythoff => check_beatty_pairs(table),
            KnownGame::P2575Row => check_staircase_nim(table),
        }
    }
}

/// Wythoff's game on `0..=side × 0..=side`: take any number from one heap, or the same number
/// from both; `G(x, y)` is the mex of the options' values.
fn wythoff_hand_loop(side: usize) -> Vec<u32> {
    let width = side + 1;
    let mut values = vec![0u32; width * width];
    // `seen[v] == stamp` when an option of the current position has value v. A position has at
    // most 3 × side options, so its mex is at most that.
    let mut seen = vec![0usize; 3 * width];
    for x in 0..width {
        for y in 0..width {
            let here = x * width + y;
            let stamp = here + 1;
            for t in 1..=x {
                seen[values[here - t * width] as usize] = stamp;
            }
            for t in 1..=y {
                seen[values[here - t] as usize] = stamp;
            }
            for t in 1..=x.min(y) {
                seen[values[here - t * width - t] as usize] = stamp;
            }
            values[here] = (0..).find(|&v| seen[v] != stamp).expect("a mex") as u32;
        }
    }
    values
}

/// A row of `width` cells of Luogu P2575 as a mask (bit i = cell i, left to right): a piece
/// jumps to the first empty cell to its right, over the pieces next to it. A move raises the
/// mask, so the masks are computed from the largest down.
fn p2575_row_hand_loop(width: u32) -> Vec<u32> {
    let masks = 1usize << width;
    let mut values = vec![0u32; masks];
    for mask in (0..masks).rev() {
        // A mask has fewer than `width` moves, so the values stay below 32.
        let mut seen = 0u32;
        for cell in (0..width).filter(|&cell| mask >> cell & 1 == 1) {
            let mut target = cell + 1;
            while target < width && mask >> target & 1 == 1 {
                target += 1;
            }
            if target < width {
                seen |= 1 << values[mask - (1 << cell) + (1 << target)];
            }
        }
        values[mask] = seen.trailing_ones();
    }
    values
}

/// `⌊kφ⌋` exactly: `kφ = (k + √(5k²))/2`, and `√(5k²)` is irrational for `k ≥ 1`, so with
/// `r = ⌊√(5k²)⌋` the floor of `(k + √(5k²))/2` is that of `(k + r)/2` (both lie strictly
/// between the same two halves).
fn floor_k_phi(k: u64) -> u64 {
    (k + (5 * k * k).isqrt()) / 2
}

/// Wythoff (1907): `G(x, y) = 0` exactly at `(⌊kφ⌋, ⌊kφ²⌋)` and its mirror, `k ≥ 0`;
/// `⌊kφ²⌋ = ⌊kφ⌋ + k` since `φ² = φ + 1`.
fn check_beatty_pairs(table: &BoxTable) -> Result<String, String> {
    let side = table.extents()[0].min(table.extents()[1]);
    let mut expected = BTreeSet::new();
    let mut k = 0;
    while floor_k_phi(k) + k <= side {
        let (a, b) = (floor_k_phi(k), floor_k_phi(k) + k);
        expected.extend([vec![a, b], vec![b, a]]);
        k += 1;
    }
    let found: BTreeSet<Vec<u64>> = table
        .iter()
        .filter(|(position, value)| *value == 0 && position.iter().all(|&c| c <= side))
        .map(|(position, _)| position)
        .collect();
    if found == expected {
        Ok(format!("P-positions = Beatty pairs (⌊kφ⌋, ⌊kφ²⌋), k < {k}"))
    } else {
        let differ = found
            .symmetric_difference(&expected)
            .next()
            .expect("sets differ");
        Err(format!(
            "P-positions differ from the Beatty pairs at {differ:?}"
        ))
    }
}

/// The value of a P2575 row by staircase Nim: reading the row from the right, the empty cells
/// cut the pieces into steps 0, 1, 2, … (step 0 right of every empty cell, which cannot move).
/// A jump from step t ≥ 1 fills the empty cell ending it and empties the piece's cell: step t
/// keeps any smaller count and step t − 1 gains the rest. So `G` is the Nim sum of the odd
/// steps: a move from an odd step lowers one of them (reaching every smaller Nim sum, as in
/// Nim), a move from an even step raises one (never keeping the sum).
fn staircase_nim_value(mask: u64, width: u32) -> u32 {
    let (mut step, mut pieces, mut nim_sum) = (0, 0, 0);
    for cell in (0..width).rev() {
        if mask >> cell & 1 == 1 {
            pieces += 1;
        } else {
            if step % 2 == 1 {
                nim_sum ^= pieces;
            }
            step += 1;
            pieces = 0;
        }
    }
    if step % 2 == 1 {
        nim_sum ^= pieces;
    }
    nim_sum
}

fn check_staircase_nim(table: &BoxTable) -> Result<String, String> {
    match table
        .iter()
        .find(|(mask, value)| staircase_nim_value(mask[0], P2575_WIDTH) != *value)
    {
        None => Ok(format!(
            "G = Nim sum of the odd staircase steps; largest value {}",
            table.max_value()
        )),
        Some((mask, value)) => Err(format!(
            "G(m = {}) = {value}, staircase Nim gives {}",
            mask[0],
            staircase_nim_value(mask[0], P2575_WIDTH)
        )),
    }
}

fn load(path: &str) -> Game {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{path}: {e} (run from the repository root)"));
    rules::load(SourceFile::new(path, text), &[]).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `x ≤ 1000, y ≤ 1000`, or `m < 2^20` when the box is every mask.
fn box_text(table: &BoxTable) -> String {
    table
        .coordinates()
        .iter()
        .zip(table.extents())
        .map(|(name, &extent)| match extent.checked_add(1) {
            Some(count) if count >= 1024 && count.is_power_of_two() => {
                format!("{name} < 2^{}", count.trailing_zeros())
            }
            _ => format!("{name} ≤ {extent}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Measures one row: its cells, whether every check passed, and its target's line.
fn bench_row(
    row: &Row,
    settings: &Settings,
    pools: &[rayon::ThreadPool; 2],
) -> (Vec<String>, bool, [String; 3]) {
    let game = load(row.path);
    let (hand, hand_values) = time_runs(settings.reps, settings.repeat_below, || {
        row.game.hand_loop(&row.extents)
    });
    let engine_run = |pool: &rayon::ThreadPool| -> (Timing, BoxTable) {
        time_runs(settings.reps, settings.repeat_below, || {
            pool.install(|| multi::compute_box(&game, &row.extents))
                .unwrap_or_else(|e| panic!("{}: {e}", row.path))
        })
    };
    let (two, table) = engine_run(&pools[1]);
    let (one, table_one_thread) = engine_run(&pools[0]);

    let mut problems = Vec::new();
    if table_one_thread.values() != table.values() {
        problems.push("1 thread ≠ 2 threads".to_string());
    }
    if hand_values != table.values() {
        problems.push("the hand loop's table differs".to_string());
    }
    let confirmed = match row.game.check_theory(&table) {
        Ok(confirmed) => confirmed,
        Err(problem) => {
            problems.push(problem);
            String::new()
        }
    };
    let values = if problems.is_empty() {
        format!("agree; {confirmed}")
    } else {
        format!("**MISMATCH**: {}", problems.join("; "))
    };
    let file = row.path.rsplit('/').next().unwrap_or(row.path);
    let size = box_text(&table);
    let target = match row.target {
        Target::WithinTimesOfHandLoop(times) => {
            let ratio = two.median / hand.median;
            [
                format!("{file}, {size}: within {times:.0}× of the hand loop"),
                ratio_text(ratio),
                yes_no(ratio <= times).to_string(),
            ]
        }
        Target::Seconds(limit) => [
            format!("{file}, {size}: in ≤ {}", seconds_text(limit)),
            seconds_text(two.median),
            yes_no(two.median <= limit).to_string(),
        ],
    };
    let cells = vec![
        file.to_string(),
        size,
        timing_text(&hand),
        timing_text(&one),
        timing_text(&two),
        format!(
            "{} / {}",
            ratio_text(one.median / hand.median),
            ratio_text(two.median / hand.median)
        ),
        ratio_text(one.median / two.median),
        values,
    ];
    (cells, problems.is_empty(), target)
}

/// Measures `rows` and prints their table.
pub fn run(rows: &[Row], settings: &Settings, pools: &[rayon::ThreadPool; 2]) -> Report {
    println!("| rules file | box | hand loop (Rust) | rules engine, 1 thread | rules engine, 2 threads | rules ÷ hand loop, 1 / 2 threads | 1 ÷ 2 threads | values |");
    println!("|---|---|---|---|---|---|---|---|");
    let mut report = Report::default();
    for row in rows {
        let (cells, ok, target) = bench_row(row, settings, pools);
        println!("| {} |", cells.join(" | "));
        report.add(ok, Some(target));
    }
    println!();
    report
}
