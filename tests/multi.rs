//! Position games (`position (x, y)`): known values from the literature, hand-written loops,
//! and the command line (`table`, `plot`, `solve`) with its errors.

use std::collections::HashMap;

use sgscope::engine::boxtable::BoxTable;
use sgscope::engine::multi::compute_box;
use sgscope::rules::{load, SourceFile};

use crate::support::{assert_has, assert_render, fails, ok, root};

fn table(file: &str, sets: &[(&str, i64)], extents: &[u64]) -> BoxTable {
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    let sets: Vec<(String, i64)> = sets.iter().map(|&(k, v)| (k.to_string(), v)).collect();
    let game = load(SourceFile::new(file, text), &sets).unwrap();
    compute_box(&game, extents).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn p_positions(table: &BoxTable) -> Vec<Vec<u64>> {
    table
        .iter()
        .filter(|(_, v)| *v == 0)
        .map(|(p, _)| p)
        .collect()
}

#[test]
fn wythoff_p_positions_are_beatty_pairs() {
    // Wythoff 1907: (⌊kφ⌋, ⌊kφ²⌋) and mirrors, φ the golden ratio; ⌊kφ²⌋ = ⌊kφ⌋ + k.
    let table = table("rules/wythoff.sg", &[], &[150, 150]);
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut want = Vec::new();
    for k in 0..=150u64 {
        let a = (k as f64 * phi).floor() as u64;
        for p in [vec![a, a + k], vec![a + k, a]] {
            if p[0] <= 150 && p[1] <= 150 && !want.contains(&p) {
                want.push(p);
            }
        }
    }
    want.sort();
    assert_eq!(p_positions(&table), want);
}

#[test]
fn fibonacci_nim_is_lost_exactly_at_fibonacci_numbers() {
    // Whinihan 1963: the first player loses (n, n − 1) exactly when n is a Fibonacci number
    // (`whole = 0`: the first take may not be the whole pile).
    let table = table("rules/fibonacci-nim.sg", &[("whole", 0)], &[120, 120]);
    let fibonacci = [1u64, 2, 3, 5, 8, 13, 21, 34, 55, 89];
    for n in 1..=120u64 {
        let lost = table.get(&[n, n - 1]) == Some(0);
        assert_eq!(lost, fibonacci.contains(&n), "n = {n}");
    }
}

#[test]
fn fibonacci_nim_solve_gives_the_smallest_zeckendorf_term() {
    // The winning first takes of P6487 start with the smallest term of n's Zeckendorf sum.
    let fibonacci = [1u64, 2, 3, 5, 8, 13, 21, 34, 55];
    for n in [4u64, 6, 7, 10, 11, 12, 17, 30, 50] {
        let mut rest = n;
        let mut smallest = 0;
        for &f in fibonacci.iter().rev() {
            if f <= rest {
                rest -= f;
                smallest = f;
            }
        }
        let out = solve_fibonacci_nim(n);
        let first = out.lines().nth(3).unwrap_or_default();
        assert!(
            first.ends_with(&format!("t = {smallest}")),
            "n = {n}: {out}"
        );
    }
    let out = ok(&["solve", "rules/fibonacci-nim.sg", "(13, 12)"]);
    assert!(out.contains("G = 0: the first player loses"), "{out}");
}

/// Moore 1910: P iff every binary digit's count of ones is divisible by k + 1.
fn moore_criterion(heaps: &[u64], k: u64) -> bool {
    (0..64).all(|bit| {
        let ones = heaps.iter().filter(|&&h| h >> bit & 1 == 1).count() as u64;
        ones.is_multiple_of(k + 1)
    })
}

#[test]
fn nim_k_follows_moores_criterion() {
    for k in [1, 2, 3] {
        let table = table("rules/nim-k.sg", &[("k", k)], &[5, 5, 5, 5]);
        for (p, v) in table.iter() {
            assert_eq!(v == 0, moore_criterion(&p, k as u64), "k = {k}, {p:?}");
        }
    }
}

#[test]
fn staircase_nim_depends_on_the_odd_steps() {
    // A position is P exactly when the Nim sum of the odd steps is 0.
    let table = table("rules/staircase-nim.sg", &[], &[4, 4, 4, 4]);
    for (p, v) in table.iter() {
        assert_eq!(v == 0, p[0] ^ p[2] == 0, "{p:?}");
    }
}

/// G of a P2575 row of `width` cells by a hand-written brute force (move each piece to the
/// first empty cell to its right), memoised.
fn p2575_by_hand(mask: u64, width: u32, memo: &mut HashMap<u64, u32>) -> u32 {
    if let Some(&v) = memo.get(&mask) {
        return v;
    }
    let mut options = Vec::new();
    for i in 0..width {
        if mask >> i & 1 == 0 {
            continue;
        }
        if let Some(j) = (i + 1..width).find(|&j| mask >> j & 1 == 0) {
            let next = mask & !(1 << i) | 1 << j;
            options.push(p2575_by_hand(next, width, memo));
        }
    }
    let value = (0..).find(|v| !options.contains(v)).unwrap();
    memo.insert(mask, value);
    value
}

#[test]
fn p2575_row_matches_a_brute_force() {
    for width in [6u32, 10] {
        let table = table(
            "rules/p2575-row.sg",
            &[("width", width as i64)],
            &[(1 << width) - 1],
        );
        let mut memo = HashMap::new();
        for (p, v) in table.iter() {
            assert_eq!(v, p2575_by_hand(p[0], width, &mut memo), "{p:?}");
        }
    }
}

#[test]
fn knight_matches_a_hand_written_loop() {
    // Moves (−2, +1), (−2, −1), (+1, −2), (−1, −2) that stay on the board all lower x + y, so a
    // loop over x + y computes the values (the board is cut at 3·N, beyond any reachable cell).
    const N: usize = 30;
    let side = 3 * N;
    let mut g = vec![vec![0u32; side]; side];
    for sum in 0..side {
        for x in 0..=sum {
            let y = sum - x;
            if x >= side || y >= side {
                continue;
            }
            let mut options = Vec::new();
            let moves = [(-2i64, 1i64), (-2, -1), (1, -2), (-1, -2)];
            for (dx, dy) in moves {
                let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                if nx >= 0 && ny >= 0 && (nx as usize) < side && (ny as usize) < side {
                    options.push(g[nx as usize][ny as usize]);
                }
            }
            g[x][y] = (0..).find(|v| !options.contains(v)).unwrap();
        }
    }
    let table = table("rules/knight.sg", &[], &[N as u64, N as u64]);
    for (p, v) in table.iter() {
        assert_eq!(v, g[p[0] as usize][p[1] as usize], "{p:?}");
    }
}

/// Wythoff's game with the moves (t, 2t) and (2t, t) added: its P-positions fit none of the
/// criteria families.
const EXTENDED_WYTHOFF: &str = "position (x, y)
move a: t in 1..=x => (x - t, y)
move b: t in 1..=y => (x, y - t)
move c: t in 1..=min(x, y) => (x - t, y - t)
move d: t in 1..=min(x, y / 2) => (x - t, y - 2 * t)
move e: t in 1..=min(x / 2, y) => (x - 2 * t, y - t)";

/// The knight's P-positions are the cells with `x mod 4` and `y mod 4` both in {0, 1} (Winning
/// Ways ch. 12, "Knights"; checked on the box by `knight_matches_a_hand_written_loop`'s loop):
/// `solve` beyond the box decides by that residue pattern and finds the move back into it.
#[test]
fn knight_beyond_the_box_by_residue_classes() {
    let is_p = |x: u64, y: u64| x % 4 <= 1 && y % 4 <= 1;
    for (x, y) in [
        (100_000_000_000u64, 5u64),
        (100_000_000_001, 4),
        (99_999_999_999, 7),
    ] {
        let out = ok(&["solve", "rules/knight.sg", &format!("({x}, {y})")]);
        assert!(out.contains("(x, y) mod 4 is one of"), "{out}");
        if is_p(x, y) {
            assert!(out.contains("the first player loses"), "{out}");
        } else {
            assert!(out.contains("the first player wins"), "{out}");
            // Every winning move printed lands on a P-position of the pattern.
            let landed: Vec<(u64, u64)> = out
                .lines()
                .filter_map(|l| l.split_once("→ (")?.1.split_once(')')?.0.split_once(", "))
                .map(|(a, b)| (a.trim().parse().unwrap(), b.trim().parse().unwrap()))
                .collect();
            assert!(!landed.is_empty(), "{out}");
            assert!(landed.iter().all(|&(a, b)| is_p(a, b)), "{out}");
        }
    }
}

#[test]
fn table_formats_for_two_coordinates() {
    let csv = ok(&[
        "table",
        "rules/wythoff.sg",
        "--to",
        "x=2,y=1",
        "--format",
        "csv",
    ]);
    assert_eq!(csv, "x,y,sg\n0,0,0\n0,1,1\n1,0,1\n1,1,2\n2,0,2\n2,1,0\n");
    let matrix = ok(&[
        "table",
        "rules/wythoff.sg",
        "--to",
        "2",
        "--format",
        "matrix",
    ]);
    assert_eq!(matrix.lines().count(), 3, "{matrix}");
    assert!(matrix.starts_with("0,1,2"), "{matrix}");
    let text = ok(&["table", "rules/wythoff.sg", "--to", "5", "--color", "never"]);
    assert!(text.contains("0*"), "{text}");
    let json = ok(&["table", "rules/wythoff.sg", "--to", "3", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(json.to_string().contains("\"x\""), "{json}");
}

/// Wythoff's game on x ≤ 10^7 has millions of moves at every position: refused at once with
/// the estimate, instead of running for days.
#[test]
fn boxes_with_hours_of_rule_steps_are_refused_before_any_work() {
    let err = fails(&["table", "rules/wythoff.sg", "--to", "x=10000000,y=2"], 2);
    assert_has(
        &err,
        &[
            "0 ≤ x ≤ 10000000, 0 ≤ y ≤ 2 would take more than 2e10 rule steps",
            "help: ask for a smaller --to",
        ],
    );
}

#[test]
fn plot_draws_a_heat_map() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wythoff.svg");
    let path = path.to_str().unwrap();
    ok(&["plot", "rules/wythoff.sg", "--to", "30", "-o", path]);
    let svg = std::fs::read_to_string(path).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..100.min(svg.len())]);
    let err = fails(&["plot", "rules/staircase-nim.sg", "-o", path], 2);
    assert!(err.contains("a heat map needs two coordinates"), "{err}");
    // One coordinate: the chart of G against the coordinate, as for heap games.
    let chart = dir.path().join("row.svg");
    let chart = chart.to_str().unwrap();
    ok(&["plot", "rules/p2575-row.sg", "--to", "255", "-o", chart]);
    let svg = std::fs::read_to_string(chart).unwrap();
    assert!(
        svg.contains("G(m)") && svg.contains("P2575 row"),
        "{svg:.300}"
    );
}

#[test]
fn solve_lists_every_winning_move() {
    let out = ok(&["solve", "rules/wythoff.sg", "(3, 4) + (5, 2)"]);
    assert_eq!(
        out,
        "position: (3, 4) + (5, 2)\nG = 6: the first player wins\nwinning moves (3):\n  component 1: (3, 4) → (0, 4)   by `take_x`, t = 3\n  component 1: (3, 4) → (3, 1)   by `take_y`, t = 3\n  component 2: (5, 2) → (0, 2)   by `take_x`, t = 5\n"
    );
    let out = ok(&["solve", "rules/wythoff.sg", "(3,5)"]);
    assert!(out.contains("G = 0: the first player loses"), "{out}");
    // Heap games: Nim 3 5 7 has value 1 (Bouton 1901); the winning moves take one token.
    let out = ok(&["solve", "rules/nim.sg", "3", "5", "7"]);
    assert!(out.starts_with("position: 3 + 5 + 7\nG = 1"), "{out}");
    assert_eq!(out.matches(" → ").count(), 3, "{out}");
    let out = ok(&["solve", "rules/bash.sg", "10"]);
    assert!(
        out.contains("10 → 8   by the code 0.333, take = 2"),
        "{out}"
    );
    let out = ok(&["solve", "move take: x in 1..=min(3, n) => n - x", "10"]);
    assert!(out.contains("10 → 8   by `take`, x = 2"), "{out}");
}

#[test]
fn bad_position_game_requests() {
    for (args, render) in [
        (
            &["solve", "rules/wythoff.sg", "(3, 4, 5)"][..],
            r"
error: `3, 4, 5` has 3 coordinates, not 2 in the position `(3, 4, 5)`
  help: write tuples of 2 numbers joined by `+`, e.g. `(3, 3) + (1, 1)`
",
        ),
        (
            &["solve", "rules/nim.sg", "3", "x"],
            r"
error: `x` is not a non-negative integer in the position `3 x`
  help: write heaps as numbers, e.g. `3 5 7` or `3 + 5 + 7`
",
        ),
        (
            &["table", "rules/wythoff.sg", "--to", "z=3"],
            "error: --to names `z`, but the coordinates are `x`, `y`\n",
        ),
        (
            &["table", "rules/nim.sg", "--format", "matrix"],
            "error: --format matrix is a grid of a position game (`position (x, y)`); a heap \
             game's table is text, csv or json\n",
        ),
    ] {
        assert_render(&fails(args, 2), render);
    }
    // Moves that cycle are no longer refused: the box is valued as a loopy game (the cycle's
    // error, with the rule, is still what `solve`'s normal-play engine reports first).
    let out = ok(&[
        "table",
        "position (x, y)\nmove swap: if x != y => (y, x)",
        "--to",
        "2",
        "--format",
        "csv",
    ]);
    assert!(
        out.contains("0,1,D,,inf{}") && out.contains("1,1,P,0,0"),
        "{out}"
    );
    let game = sgscope::rules::load(
        sgscope::rules::SourceFile::new("t.sg", "position (x, y)\nmove swap: if x != y => (y, x)"),
        &[],
    )
    .unwrap();
    let err = sgscope::engine::multi::compute_box(&game, &[2, 2])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("the moves can cycle") && err.contains("→ (1, 0)   by `swap`"),
        "{err}"
    );
    let err = fails(
        &[
            "table",
            "position (x, y)\nmove t in 1..=2 => (x - t, y)",
            "--to",
            "2",
        ],
        1,
    );
    assert!(
        err.contains("error: at (x, y) = (0, 0), this move leaves x = -1"),
        "{err}"
    );
    let err = fails(&["table", "rules/wythoff.sg", "--checkpoint", "w.ckpt"], 2);
    assert!(
        err.contains("--checkpoint and --resume save heap tables"),
        "{err}"
    );
    let err = fails(&["solve", "takebreak 0.[F]", "1000"], 2);
    assert!(err.contains("would take too long"), "{err}");
    // A game that runs away from the box is stopped at a bound on the positions outside it.
    let err = fails(
        &["table", "position (x, y)\nmove => (x + 1, y)", "--to", "3"],
        1,
    );
    assert!(
        err.contains("positions outside the box were needed") && err.contains("help: enlarge"),
        "{err}"
    );
    let err = fails(&["check", "position (x, y)\nmove => (x, y, 1)"], 1);
    assert!(err.contains("this position has 3 coordinates"), "{err}");
}

#[test]
fn patterns_find_beatty_pairs_and_fibonacci_numbers() {
    let out = ok(&["patterns", "rules/wythoff.sg", "--to", "120"]);
    assert_has(
        &out,
        &["b_k − a_k = k for every k", "φ ≈ 1.618034 lies in it"],
    );
    let out = ok(&[
        "patterns",
        "rules/fibonacci-nim.sg",
        "--to",
        "60",
        "--set",
        "whole=0",
    ]);
    assert!(
        out.contains("n − limit = 1: P-positions are the Fibonacci numbers"),
        "{out}"
    );
    let json = ok(&["patterns", "rules/bash.sg", "--to", "100", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["p_positions"], 26, "{json}");
    let err = fails(&["period", "rules/wythoff.sg"], 2);
    assert!(err.contains("try `sgscope patterns`"), "{err}");
}

/// The smallest term of `n`'s Zeckendorf sum, greedily from the Fibonacci numbers below `n`.
fn smallest_zeckendorf_term(n: u64) -> u64 {
    let mut fibonacci = vec![1u64, 2];
    while fibonacci[fibonacci.len() - 1] <= n {
        fibonacci.push(fibonacci[fibonacci.len() - 1] + fibonacci[fibonacci.len() - 2]);
    }
    let (mut rest, mut smallest) = (n, 0);
    for &f in fibonacci.iter().rev() {
        if f <= rest {
            rest -= f;
            smallest = f;
        }
    }
    smallest
}

/// The positions after ` → ` in `solve`'s list of moves.
fn move_results(out: &str) -> Vec<Vec<u64>> {
    out.lines()
        .filter_map(|line| line.split_once(" → ("))
        .map(|(_, rest)| {
            let inner = &rest[..rest.find(')').unwrap()];
            inner.split(", ").map(|c| c.parse().unwrap()).collect()
        })
        .collect()
}

/// `solve` for the start `(n, n − 1)` of Whinihan's Fibonacci Nim (`whole = 0`).
fn solve_fibonacci_nim(n: u64) -> String {
    ok(&[
        "solve",
        "rules/fibonacci-nim.sg",
        &format!("({n}, {})", n - 1),
        "--set",
        "whole=0",
    ])
}

/// The takes `t = …` of `solve`'s winning moves, in the order listed.
fn winning_takes(out: &str) -> Vec<u64> {
    out.lines()
        .filter(|line| line.contains(" → "))
        .filter_map(|line| line.rsplit_once(", t = "))
        .map(|(_, t)| t.parse().unwrap())
        .collect()
}

#[test]
fn p6487_fibonacci_nim_beyond_the_box() {
    // Luogu P6487, n ≤ 10^15, the default `whole = 1`: from the start (n, 0) the first take
    // may be the whole pile, and the smallest winning first take is the smallest term of n's
    // Zeckendorf sum, which is n itself exactly when n is a Fibonacci number (Whinihan 1963).
    // The Zeckendorf terms are computed here by the greedy loop above, not by sgscope.
    // F_73 = 1304969544928657 and F_88 (counting 1, 2, 3, 5, … from F_2) are Fibonacci numbers.
    for n in [
        1_000_000_000_000_000u64,
        999_999_999_999_999,
        123_456_789_012_345,
        4_000_000_000_000_000_000,
        1_304_969_544_928_657,
        1_779_979_416_004_714_189,
    ] {
        let smallest = smallest_zeckendorf_term(n);
        assert!(
            smallest < 1000 || smallest == n,
            "n = {n}: pick n whose first take is within the cap, or a Fibonacci number"
        );
        let out = ok(&["solve", "rules/fibonacci-nim.sg", &format!("({n}, 0)")]);
        assert_has(
            &out,
            &[
                "by the pattern: limit < the smallest term of n's Zeckendorf sum",
                "when limit = 0, only n = 0",
                "not proved beyond",
                "the first player wins",
            ],
        );
        let takes = winning_takes(&out);
        assert_eq!(takes.first(), Some(&smallest), "n = {n}: {out}");
        // Taking the whole pile always wins, found at the top of the range.
        assert_eq!(takes.last(), Some(&n), "n = {n}: {out}");
        assert!(takes.windows(2).all(|w| w[0] < w[1]), "{out}");
        // Every listed take leads to a P-position by Whinihan's rule (limit below the
        // smallest term of what is left), or to the empty heap.
        for (t, result) in takes.iter().zip(move_results(&out)) {
            let left = n - t;
            assert_eq!(result, [left, (2 * t).min(left)], "{out}");
            assert!(
                left == 0 || result[1] < smallest_zeckendorf_term(left),
                "{out}"
            );
        }
    }
    // Whinihan's game (`whole = 0`): the first player loses (n, n − 1) iff n is a Fibonacci
    // number, and otherwise the smallest winning first take is the smallest Zeckendorf term.
    for n in [1_000_000_000_000_000u64, 123_456_789_012_345] {
        let out = solve_fibonacci_nim(n);
        assert_has(
            &out,
            &[
                "by the pattern: limit < the smallest term of n's Zeckendorf sum",
                "the first player wins",
            ],
        );
        assert_eq!(
            winning_takes(&out).first(),
            Some(&smallest_zeckendorf_term(n)),
            "n = {n}: {out}"
        );
    }
    for n in [1_304_969_544_928_657u64, 1_779_979_416_004_714_189] {
        assert_eq!(smallest_zeckendorf_term(n), n, "{n} is a Fibonacci number");
        let out = solve_fibonacci_nim(n);
        assert!(
            out.contains("the first player loses: a P-position by the pattern"),
            "{out}"
        );
    }
}

/// Whether `(a, b)` is a Wythoff pair `(⌊kφ⌋, ⌊kφ⌋ + k)` in either order, by exact integer
/// comparisons: `m = ⌊kφ⌋` iff `2m − k ≤ k√5 < 2m + 2 − k` (as `kφ = (k + k√5)/2`).
fn wythoff_p(x: u64, y: u64) -> bool {
    let (m, k) = (i128::from(x.min(y)), i128::from(x.max(y) - x.min(y)));
    let five_k2 = 5 * k * k;
    let low = 2 * m - k;
    let high = 2 * m + 2 - k;
    (low < 0 || low * low <= five_k2) && high > 0 && high * high > five_k2
}

#[test]
fn p2252_wythoff_beyond_the_box() {
    // Luogu P2252, a, b ≤ 10^9: lose iff (a, b) is a Wythoff pair (Wythoff 1907).
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut positions = Vec::new();
    for k in [123_456_789u64, 600_000_001] {
        // The pair near k·φ, by floating point then the exact test.
        let m = (k as f64 * phi) as u64;
        let m = (m - 2..=m + 2).find(|&m| wythoff_p(m, m + k)).unwrap();
        positions.extend([(m, m + k), (m + k, m), (m + 1, m + k)]);
    }
    positions.push((1_000_000_000, 1_000_000_000));
    for (a, b) in positions {
        let out = ok(&["solve", "rules/wythoff.sg", &format!("({a}, {b})")]);
        assert!(
            out.contains("(Wythoff's pairs), which holds on every position"),
            "{out}"
        );
        let lost = out.contains("the first player loses");
        assert_eq!(lost, wythoff_p(a, b), "({a}, {b}): {out}");
        for result in move_results(&out) {
            assert!(wythoff_p(result[0], result[1]), "({a}, {b}): {out}");
        }
    }
}

#[test]
fn nim_k_with_big_heaps_by_moores_criterion() {
    // Heaps whose binary digits each have a 1 in no heap or in exactly 3: P for k = 2.
    let mut heaps = [0u64; 4];
    for bit in 0..40 {
        match bit % 5 {
            0 => {}
            skip => (0..4)
                .filter(|&h| h != skip - 1)
                .for_each(|h| heaps[h] |= 1 << bit),
        }
    }
    assert!(moore_criterion(&heaps, 2) && !moore_criterion(&heaps, 1));
    let show = |h: &[u64]| format!("({}, {}, {}, {})", h[0], h[1], h[2], h[3]);
    let out = ok(&["solve", "rules/nim-k.sg", "--set", "k=2", &show(&heaps)]);
    assert_has(
        &out,
        &["divisible by 3 (Moore's Nim_2)", "the first player loses"],
    );
    // One token more on the last heap: a win, and the moves found lead to P-positions.
    heaps[3] += 1;
    let out = ok(&["solve", "rules/nim-k.sg", "--set", "k=2", &show(&heaps)]);
    assert!(out.contains("the first player wins"), "{out}");
    let results = move_results(&out);
    assert!(!results.is_empty(), "{out}");
    assert!(results.iter().all(|r| moore_criterion(r, 2)), "{out}");
}

#[test]
fn solve_beyond_the_box_refuses_what_no_pattern_decides() {
    let err = fails(
        &["solve", "rules/wythoff.sg", "(1000000000000, 1) + (2, 3)"],
        1,
    );
    assert!(err.contains("a sum of 2 needs their SG values"), "{err}");
    let err = fails(&["solve", EXTENDED_WYTHOFF, "(100000000000, 5)"], 1);
    assert_has(
        &err,
        &[
            "no P-position pattern holds on every position of 0 ≤ x ≤",
            "help: ask about smaller positions",
        ],
    );
    assert!(!err.contains("--to"), "{err}");
    let err = fails(&["solve", "rules/nim.sg", "1000000000000000"], 2);
    assert!(
        err.contains("help: solve computes every heap up to the largest"),
        "{err}"
    );
    assert!(!err.contains("--to"), "{err}");
}

#[test]
fn patterns_report_criteria_for_every_rules_file() {
    // Moore 1910 (k = 1 is Nim, Bouton 1902); staircase Nim: the odd steps (P3480).
    for (k, criterion) in [
        (1, "the XOR a ⊕ b ⊕ c ⊕ d is 0"),
        (2, "divisible by 3 (Moore's Nim_2)"),
        (3, "divisible by 4 (Moore's Nim_3)"),
    ] {
        let out = ok(&[
            "patterns",
            "rules/nim-k.sg",
            "--set",
            &format!("k={k}"),
            "--to",
            "5",
        ]);
        assert!(out.contains(criterion), "k = {k}: {out}");
        assert_eq!(out.lines().count(), 1, "k = {k}: {out}");
        assert_has(&out, &["(1296 positions,", "not proved beyond"]);
    }
    let out = ok(&["patterns", "rules/staircase-nim.sg", "--to", "6"]);
    assert!(
        out.starts_with(
            "P-positions: the XOR s1 ⊕ s3 is 0 on every position of 0 ≤ s1 ≤ 6, 0 ≤ s2 ≤ 6,"
        ),
        "{out}"
    );
    let json = ok(&["patterns", "rules/staircase-nim.sg", "--to", "4", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["criteria"][0]["kind"], "xor", "{json}");
    assert_eq!(
        json["criteria"][0]["coordinates"],
        serde_json::json!([0, 2])
    );
    // Two coordinates: the line analysis, then the criteria.
    let out = ok(&["patterns", "rules/wythoff.sg", "--to", "60"]);
    assert!(
        out.contains("{x, y} = {⌊kφ⌋, ⌊kφ²⌋} for some k ≥ 0 (Wythoff's pairs) on every position"),
        "{out}"
    );
    let out = ok(&["patterns", "rules/fibonacci-nim.sg", "--to", "60", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let criterion = &json["criteria"]["criteria"][0];
    assert_eq!(criterion["kind"], "line", "{json}");
    assert_eq!(criterion["below"], 1, "{json}");
    assert_eq!(
        criterion["rest"]["threshold"]["kind"], "smallest_zeckendorf_term",
        "{json}"
    );
    let out = ok(&["patterns", EXTENDED_WYTHOFF, "--to", "40"]);
    assert!(out.contains("none of the criteria"), "{out}");
    // One coordinate: the sequence patterns, and none fits a P2575 row.
    let out = ok(&[
        "patterns",
        "rules/p2575-row.sg",
        "--set",
        "width=8",
        "--to",
        "255",
    ]);
    assert!(out.contains("no simple pattern"), "{out}");
}

/// `--table`: the box's lookup, although Wythoff's pairs are found on the box (without it,
/// `code` writes `is_p`: `tests/codegen_criteria.rs`).
#[test]
fn code_emits_a_lookup_for_the_box() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wythoff.py");
    ok(&[
        "code",
        "rules/wythoff.sg",
        "--lang",
        "python",
        "--table",
        "--to",
        "x=12,y=9",
        "-o",
        path.to_str().unwrap(),
    ]);
    let code = std::fs::read_to_string(&path).unwrap();
    assert!(code.contains("def sg(x: int, y: int) -> int:"), "{code}");
    let table = table("rules/wythoff.sg", &[], &[12, 9]);
    if std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        let script = format!(
            "import sys; sys.path.insert(0, {:?}); import wythoff\nprint(' '.join(str(wythoff.sg(x, y)) for x in range(13) for y in range(10)))\ntry:\n    wythoff.sg(13, 0)\nexcept IndexError:\n    print('refused')",
            dir.path().to_str().unwrap()
        );
        let out = std::process::Command::new("python3")
            .args(["-c", &script])
            .output()
            .unwrap();
        let out = String::from_utf8(out.stdout).unwrap();
        let want: Vec<String> = table.values().iter().map(u32::to_string).collect();
        assert_eq!(out, format!("{}\nrefused\n", want.join(" ")));
    }
}
