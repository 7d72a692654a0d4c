//! Position games of many coordinates (issue 22, item 5): a Nim of 20 heaps written as one
//! 20-coordinate position loads, `check`s and `solve`s, checked against Bouton's theorem; and
//! the pursuit game of Luogu P4576 (`rules/pursuit.sg`), a loopy game whose moves leave any
//! small box, checked against an independent retrograde analysis of the board.

use std::collections::BTreeSet;

use sgscope::rules::{load, Game, SourceFile};
use sgscope::solve::{self, Method};
use sgscope::value::loopy::LoopyTable;
use sgscope::value::Outcome;

use crate::support::{assert_has, assert_render, fails, ok};

/// Nim on `heaps` heaps as one position game: `move take_i: t in 1..=h_i => (…, h_i - t, …)`.
fn nim_text(heaps: usize, first_range: &str) -> String {
    let names: Vec<String> = (0..heaps).map(|i| format!("h{i}")).collect();
    let mut text = format!(
        "name \"Nim on {heaps} heaps\"\nposition ({})\n",
        names.join(", ")
    );
    for (i, v) in names.iter().enumerate() {
        let range = if i == 0 {
            first_range.to_string()
        } else {
            format!("1..={v}")
        };
        let result: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(j, w)| {
                if i == j {
                    format!("{v} - t")
                } else {
                    w.clone()
                }
            })
            .collect();
        text += &format!("move take{i}: t in {range} => ({})\n", result.join(", "));
    }
    text
}

fn nim20() -> Game {
    load(SourceFile::new("<nim20>", nim_text(20, "1..=h0")), &[]).unwrap()
}

/// A fixed pseudo-random sequence (xorshift64), so that failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A 20-coordinate position with values 0..=3, mostly 0 and 1, reaching at most `cap`
    /// positions (∏ (h + 1)).
    fn position(&mut self, cap: u64) -> Vec<u64> {
        loop {
            let p: Vec<u64> = (0..20)
                .map(|_| [0, 0, 0, 1, 1, 1, 2, 3][(self.next() % 8) as usize])
                .collect();
            if p.iter().map(|h| h + 1).product::<u64>() <= cap {
                return p;
            }
        }
    }
}

#[test]
fn nim_of_20_heaps_loads_and_checks() {
    let text = nim_text(20, "1..=h0");
    let out = ok(&["check", &text]);
    assert_has(&out, &["ok:", "Nim on 20 heaps"]);
    // A rule error at small positions is still found without the box `0..=4`: `1..=h0 + 1`
    // takes one more than the heap.
    // The whole render: no `--to` advice (check has no box to enlarge).
    let err = fails(&["check", &nim_text(20, "1..=h0 + 1")], 1);
    let names: Vec<String> = (0..20).map(|i| format!("h{i}")).collect();
    assert_render(
        &err,
        &format!(
            "error: at ({}) = ({}), the move `take0` leaves h0 = -1\n \
             --> <command line>:3:33\n  \
             |\n\
             3 | move take0: t in 1..=h0 + 1 => (h0 - t, {})\n  \
             | {}^^^^^^ a coordinate cannot be negative\n  \
             |\n  \
             = help: add a condition (`if t <= h0`) or bound the range (`1..=h0`)\n",
            names.join(", "),
            ["0"; 20].join(", "),
            names[1..].join(", "),
            " ".repeat(32)
        ),
    );
}

#[test]
fn nim_of_20_heaps_is_bouton() {
    // Bouton 1901: the value of a sum is the XOR of every heap of every component; a move
    // from heap h wins exactly when it leaves h ⊕ X < h (X the XOR of the whole sum).
    let game = nim20();
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut searched = 0;
    for round in 0..40 {
        let parts = 1 + round % 3;
        let components: Vec<Vec<u64>> = (0..parts).map(|_| rng.position(1 << 10)).collect();
        let x = components.iter().flatten().fold(0, |a, &h| a ^ h);
        let report = solve::solve(&game, &components).unwrap();
        assert_eq!(report.value, Some(x as u32), "{components:?}");
        let outcome = Outcome::of_p(x == 0);
        assert_eq!(report.outcome, outcome, "{components:?}");
        let expected: BTreeSet<(usize, Vec<u64>)> = components
            .iter()
            .enumerate()
            .flat_map(|(i, c)| {
                (0..c.len()).filter(|&j| c[j] ^ x < c[j]).map(move |j| {
                    let mut after = c.clone();
                    after[j] ^= x;
                    (i, after)
                })
            })
            .collect();
        let got: BTreeSet<(usize, Vec<u64>)> = report
            .winning_moves
            .iter()
            .map(|m| {
                assert_eq!(m.result.len(), 1);
                (m.component, m.result[0].clone())
            })
            .collect();
        assert_eq!(got.len(), report.winning_moves.len(), "a move listed twice");
        assert_eq!(got, expected, "{components:?}");
        // The sum's box (the largest of each coordinate), when 16 times what it reaches and
        // not small, gives way to the search over the positions reached.
        let box_positions: u64 = (0..20)
            .map(|j| components.iter().map(|c| c[j]).max().unwrap() + 1)
            .product();
        let reached: u64 = components
            .iter()
            .map(|c| c.iter().map(|h| h + 1).product::<u64>())
            .sum();
        if box_positions >= 1 << 16 && 16 * reached <= box_positions {
            searched += 1;
            assert!(
                matches!(report.method, Method::Reachable { .. }),
                "{:?}",
                report.method
            );
        }
    }
    assert!(searched >= 5, "{searched} sums by the search");
}

#[test]
fn the_json_says_how_many_positions_were_searched() {
    let text = nim_text(20, "1..=h0");
    let a = "(1,0,1,1,0,1,0,1,1,1,0,0,1,1,0,1,0,1,1,0)";
    let b = "(0,1,0,0,1,0,1,0,0,0,1,1,0,0,1,0,1,0,0,2)";
    let out = ok(&["solve", &text, &format!("{a} + {b}"), "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    // 12 ones XOR 7 ones and a 2: 0 ⊕ 1 ⊕ 2 = 3.
    assert_eq!(json["value"], 3);
    assert_eq!(json["outcome"], "N");
    // 2^12 positions below a, 2^7 · 3 below b, the empty position counted once.
    assert_eq!(json["reachable_positions"], 4096 + 384 - 1);
    assert!(
        json["method"].as_str().unwrap().contains("reachable"),
        "{json}"
    );
    let text_out = ok(&["solve", &text, &format!("{a} + {b}")]);
    assert_has(&text_out, &["4479 positions reachable", "G = 3"]);
    // Far too many positions: refused at once, saying what to do, with no flag named.
    let all3 = format!("({})", vec!["3"; 20].join(","));
    let err = fails(&["solve", &text, &all3], 1);
    assert_has(
        &err,
        &["20 coordinates", "help: ask about a position with smaller"],
    );
    assert!(!err.contains("--"), "{err}");
}

/// Squares are 0-based `(row, column)` packed as `r * n + c`.
struct Board {
    n: usize,
}

impl Board {
    /// The squares a piece on `s` reaches by 1..=`reach` steps in one direction.
    fn steps(&self, s: usize, reach: usize) -> Vec<usize> {
        let (r, c) = ((s / self.n) as i64, (s % self.n) as i64);
        let mut out = Vec::new();
        for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            for d in 1..=reach as i64 {
                let (r2, c2) = (r + dr * d, c + dc * d);
                if (0..self.n as i64).contains(&r2) && (0..self.n as i64).contains(&c2) {
                    out.push(r2 as usize * self.n + c2 as usize);
                }
            }
        }
        out
    }
}

/// An independent retrograde analysis of P4576 by rounds: state `(turn, white, black)`; a
/// state with both pieces on one square has no move (the mover was captured). Round `k`
/// decides the states of remoteness `k`: odd `k` a win (a move to a loss of remoteness
/// `k − 1`), even `k` a loss (every move to a decided win). `None` is a draw.
fn pursuit_reference(n: usize) -> Vec<Option<(bool, u32)>> {
    let board = Board { n };
    let squares = n * n;
    let index = |t: usize, w: usize, b: usize| (t * squares + w) * squares + b;
    let options = |t: usize, w: usize, b: usize| -> Vec<usize> {
        if w == b {
            return Vec::new();
        }
        if t == 0 {
            board
                .steps(w, 1)
                .into_iter()
                .map(|w2| index(1, w2, b))
                .collect()
        } else {
            board
                .steps(b, 2)
                .into_iter()
                .map(|b2| index(0, w, b2))
                .collect()
        }
    };
    let states: Vec<(usize, usize, usize)> = (0..2)
        .flat_map(|t| (0..squares).flat_map(move |w| (0..squares).map(move |b| (t, w, b))))
        .collect();
    // (wins, remoteness) once decided.
    let mut result: Vec<Option<(bool, u32)>> = vec![None; states.len()];
    let mut quiet = 0;
    let mut k = 0u32;
    while quiet < 2 {
        let mut decided = Vec::new();
        for &(t, w, b) in &states {
            let s = index(t, w, b);
            if result[s].is_some() {
                continue;
            }
            let opts = options(t, w, b);
            let value = if k % 2 == 1 {
                opts.iter()
                    .any(|&o| result[o] == Some((false, k - 1)))
                    .then_some((true, k))
            } else {
                opts.iter()
                    .all(|&o| matches!(result[o], Some((true, _))))
                    .then_some((false, k))
            };
            if let Some(v) = value {
                decided.push((s, v));
            }
        }
        quiet = if decided.is_empty() { quiet + 1 } else { 0 };
        for (s, v) in decided {
            result[s] = Some(v);
        }
        k += 1;
    }
    result
}

fn pursuit(n: usize) -> Game {
    let text = std::fs::read_to_string("rules/pursuit.sg").unwrap();
    load(
        SourceFile::new("rules/pursuit.sg", &text),
        &[("n".to_string(), n as i64)],
    )
    .unwrap()
}

#[test]
fn pursuit_is_p4576_on_every_start() {
    for n in 2..=8usize {
        let game = pursuit(n);
        let reference = pursuit_reference(n);
        let squares = n * n;
        // Every state on the board, 1-based as in the rules file and the problem's input.
        let mut positions = Vec::new();
        for t in 0..2u64 {
            for w in 0..squares {
                for b in 0..squares {
                    let (wr, wc, br, bc) = (w / n, w % n, b / n, b % n);
                    positions.push((
                        (t as usize * squares + w) * squares + b,
                        vec![
                            t,
                            wr as u64 + 1,
                            wc as u64 + 1,
                            br as u64 + 1,
                            bc as u64 + 1,
                        ],
                    ));
                }
            }
        }
        let starts: Vec<Vec<u64>> = positions.iter().map(|(_, p)| p.clone()).collect();
        let table = LoopyTable::reachable(&game, &starts).unwrap();
        for (s, position) in &positions {
            let node = table.node_of(position).unwrap() as usize;
            let got = match table.outcome[node] {
                Outcome::N => Some((true, table.remoteness(node).unwrap())),
                Outcome::P => Some((false, table.remoteness(node).unwrap())),
                Outcome::D => None,
            };
            assert_eq!(got, reference[*s], "n = {n}, {position:?}");
            // P4576: "WHITE 1" when the pieces start next to each other, else BLACK wins.
            let (t, wr, wc, br, bc) = (
                position[0],
                position[1],
                position[2],
                position[3],
                position[4],
            );
            if t == 0 && (wr, wc) != (br, bc) {
                let adjacent = wr.abs_diff(br) + wc.abs_diff(bc) == 1;
                match got {
                    Some((true, 1)) => assert!(adjacent, "{position:?}"),
                    Some((false, r)) => assert!(!adjacent && r % 2 == 0, "{position:?}"),
                    other => panic!("n = {n}, {position:?}: {other:?}"),
                }
            }
        }
    }
}

#[test]
fn pursuit_checks_and_solves_from_the_command_line() {
    for n in ["8", "20"] {
        let out = ok(&["check", "rules/pursuit.sg", "--set", &format!("n={n}")]);
        assert_has(&out, &["ok:", "its moves can cycle"]);
    }
    // The problem's sample: `2 1 1 2 2` is "BLACK 2".
    let out = ok(&[
        "solve",
        "rules/pursuit.sg",
        "(0, 1, 1, 2, 2)",
        "--set",
        "n=2",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["outcome"], "P", "{json}");
    assert_eq!(json["remoteness"], 2, "{json}");
    // Next to each other: "WHITE 1".
    let out = ok(&["solve", "rules/pursuit.sg", "(0, 4, 4, 4, 5)"]);
    assert_has(&out, &["remoteness 1", "the first player wins"]);
}
