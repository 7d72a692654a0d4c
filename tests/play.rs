//! `play` through its standard input, and `judge` against scripted and sample programs
//! (ABC278 G's protocol with `examples/abc278g.rs`, a contestant's solution).

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use crate::support::{assert_has, root};

/// `sgscope play ARGS` with `input` typed on its standard input.
fn play(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sgscope"))
        .arg("play")
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sgscope runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "play {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_person_wins_nim_by_the_hinted_moves() {
    // 1 + 2 has XOR 3: the winning move leaves 1 + 1; the computer, lost, takes the first
    // heap; the last token is ours.
    let out = play(
        &["rules/nim.sg", "1", "2", "--first", "me"],
        "hint\n2: take 1\ntake 1\n",
    );
    assert_has(
        &out,
        &[
            "position: 1 + 2   (your move)",
            "Winning moves:\n  2: take 1 → 1 + 1",
            "you: 2: take 1 → 1 + 1",
            "computer: 1: take 1 → 1",
            "you: take 1 → nothing",
            "The computer has no move.\nYou win.",
        ],
    );
}

#[test]
fn illegal_and_ambiguous_moves_are_refused_with_the_legal_ones() {
    let out = play(
        &["rules/nim.sg", "2", "3", "--first", "me"],
        "take 5\ntake 1\n= 2 + 2\nquit\n",
    );
    assert_has(
        &out,
        &[
            "`take 5` is not a legal move here. Legal moves:\n  1: take 1 → 1 + 3\n  1: take 2 → 3\n",
            "`take 1` fits moves of components 1, 2: write the component first, e.g. `1: take 1`",
            // The position left names the move too.
            "you: 2: take 1 → 2 + 2",
            // 2 + 2 is lost for the computer: it makes the first move.
            "computer: 1: take 1 → 1 + 2",
            "Bye.",
        ],
    );
}

#[test]
fn the_computer_plays_first_and_wins_a_won_position() {
    // Subtraction {1, 3, 4}: G(2) = 0 is lost for the mover; from 5 the computer's winning
    // move leaves 2 (5 − 3) or 1? G(1) = 1, so the move is to a 0: 5 − 3 = 2.
    let out = play(
        &["rules/subtraction-134.sg", "5", "--first", "computer"],
        "take 1\n",
    );
    assert_has(
        &out,
        &["computer: ", "→ 2", "you: take 1 → 1", "The computer wins."],
    );
}

#[test]
fn misere_play_gives_the_last_move_to_the_loser() {
    // Misère Nim 1 + 1: after two moves the person, with no move, wins.
    let out = play(
        &["rules/nim.sg", "1", "1", "--misere", "--first", "me"],
        "hint\ntake 1\n",
    );
    assert_has(
        &out,
        &[
            "Winning moves:",
            "computer: take 1 → nothing",
            "You have no move.\nYou win.",
        ],
    );
}

#[test]
fn a_graph_with_a_cycle_is_played_to_a_draw() {
    // rules/graph-cycle.sg: e is a draw; the good moves keep the token on the cycle a ⇄ b.
    let out = play(
        &["rules/graph-cycle.sg", "--first", "me", "--max-moves", "4"],
        "hint\na\na\n",
    );
    assert_has(
        &out,
        &[
            "No move wins; these keep the draw:\n  edge → a",
            "you: edge → a",
            "computer: edge → b",
            "4 moves played: a draw",
        ],
    );
}

#[test]
fn who_moves_first_is_asked_when_not_given() {
    let out = play(&["rules/nim.sg", "3"], "maybe\nme\ntake 3\n");
    assert_has(
        &out,
        &[
            "Who moves first, me or computer? Who moves first",
            "You win.",
        ],
    );
}

/// `sgscope judge ARGS -- PROGRAM…`.
fn judge(args: &[&str], program: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sgscope"))
        .arg("judge")
        .args(args)
        .arg("--")
        .args(program)
        .current_dir(root())
        .output()
        .expect("sgscope runs")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn judge_reports_a_win_an_illegal_move_a_false_none_and_silence() {
    let sh = |script: &str| vec!["sh".to_string(), "-c".to_string(), script.to_string()];
    let run = |args: &[&str], script: &str| {
        let program = sh(script);
        let program: Vec<&str> = program.iter().map(String::as_str).collect();
        judge(args, &program)
    };
    // Nim 5: take all five and the judge has no move.
    let won = run(
        &["rules/nim.sg", "5", "--transcript"],
        "read p; read s; echo first; echo 'take 5'; read r; test \"$r\" = none",
    );
    assert!(won.status.success(), "{}", text(&won));
    assert_has(
        &text(&won),
        &[
            "judge:   position 5\njudge:   side choose\nprogram: first\nprogram: take 5\njudge:   none",
            "the program won after 1 move (the program's side wins with perfect play)",
        ],
    );
    // An illegal move is named with its line.
    let illegal = run(
        &["rules/nim.sg", "5"],
        "read p; read s; echo first; echo 'take 9'; read r",
    );
    assert_eq!(illegal.status.code(), Some(1));
    assert_has(
        &text(&illegal),
        &["error: the program's line 2, `take 9`, after 0 moves: `take 9` is not a legal move here"],
    );
    // `none` while a move exists.
    let none = run(
        &["rules/nim.sg", "5", "--side", "first"],
        "read p; read s; echo none; read r",
    );
    assert_has(
        &text(&none),
        &["the program said it has no move, but it has 5 (e.g. `take 1`)"],
    );
    // Silence past the time limit, and a program that exits.
    let slow = run(
        &["rules/nim.sg", "5", "--time-limit", "0.3"],
        "read p; read s; sleep 5",
    );
    assert_has(
        &text(&slow),
        &["did not send `first` or `second` after 0 moves: no line within 0.3 s"],
    );
    let gone = run(&["rules/nim.sg", "5", "--side", "first"], "true");
    assert_has(&text(&gone), &["the program closed its output (it exited)"]);
    // The judge plays perfectly: second on a lost sum, the program loses whatever it does.
    let lost = run(
        &["rules/nim.sg", "2", "2", "--side", "first"],
        "read p; read s; echo '1: take 2'; read r; echo none",
    );
    assert_has(
        &text(&lost),
        &["the program lost after 2 moves: it had no move left (the program's side loses against perfect play)"],
    );
}

/// The sample solution of ABC278 G (`examples/abc278g.rs`, std only), compiled once per test
/// run by `rustc -O` into a temporary folder: no cargo inside the tests, and the same binary
/// whichever profile or test filter runs them.
fn sample_solution() -> PathBuf {
    static BUILT: std::sync::OnceLock<(tempfile::TempDir, PathBuf)> = std::sync::OnceLock::new();
    let (_dir, exe) = BUILT.get_or_init(|| {
        assert!(
            crate::support::need_tool("rustc"),
            "rustc is part of the toolchain"
        );
        let dir = tempfile::tempdir().unwrap();
        let exe = dir
            .path()
            .join(format!("abc278g{}", std::env::consts::EXE_SUFFIX));
        let out = Command::new("rustc")
            .args(["--edition", "2021", "-O", "-o"])
            .arg(&exe)
            .arg(root().join("examples/abc278g.rs"))
            .output()
            .expect("rustc runs");
        assert!(
            out.status.success(),
            "rustc examples/abc278g.rs failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        (dir, exe)
    });
    exe.clone()
}

#[test]
fn abc278g_sample_solution_passes_and_a_naive_one_fails() {
    let solution = sample_solution();
    let solution = solution.to_str().unwrap();
    // Both strategies of the solution: the mirror (L < R, or N − L even) and Grundy values
    // (L = R, N − L odd), against the judge's perfect play in the contest's protocol.
    for (n, l, r) in [
        (10, 2, 3),
        (11, 3, 3),
        (12, 3, 3),
        (30, 4, 4),
        (200, 5, 5),
        (57, 1, 9),
    ] {
        let (n, l, r) = (n.to_string(), format!("L={l}"), format!("R={r}"));
        let args = [
            "rules/abc278g.sg",
            &n,
            "--set",
            &l,
            "--set",
            &r,
            "--protocol",
            "cards",
            "--header",
            "{n} {L} {R}",
        ];
        // The Rust sample and its Python port (the README's example) alike.
        for program in [&[solution][..], &["python3", "examples/abc278g.py"]] {
            let out = judge(&args, program);
            assert!(
                out.status.success(),
                "{program:?}, N = {n}, {l}, {r}: {}",
                text(&out)
            );
            assert_has(&text(&out), &["the program won after"]);
        }
    }
    // The naive player (always the first block of L cards) loses to perfect play on 12, L = R = 3
    // (G(12) ≠ 0 but taking cards 1..3 leaves G(9) ≠ 0).
    let args = [
        "rules/abc278g.sg",
        "12",
        "--set",
        "L=3",
        "--set",
        "R=3",
        "--protocol",
        "cards",
        "--header",
        "{n} {L} {R}",
        "--transcript",
    ];
    let out = judge(&args, &[solution, "--wrong"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_has(
        &text(&out),
        &[
            "judge:   12 3 3\nprogram: First\nprogram: 1 3\n",
            "program: 0 0\njudge:   -1 -1",
            "error: the program lost after",
        ],
    );
    // An illegal card range is refused with -1 -1 and its line.
    let out = judge(
        &[
            "rules/abc278g.sg",
            "6",
            "--set",
            "L=2",
            "--set",
            "R=2",
            "--protocol",
            "cards",
            "--header",
            "{n} {L} {R}",
        ],
        &[
            "sh",
            "-c",
            "read h; echo First; echo '5 3'; read r; test \"$r\" = '-1 -1'",
        ],
    );
    assert_has(
        &text(&out),
        &["the program's line 2, `5 3`, after 0 moves: cards 5..=7 are not all on the table"],
    );
}

/// A triangle on the ground 0 with a stalk 2-3-4 on top, and two parallel edges 0-5: the
/// triangle and the pair fused are five loops (`*1`), the stalk `*2`, so G = 3 and the one
/// winning cut shortens the stalk.
const HACKENBUSH: &str =
    "hackenbush\nground 0\nedge 0 1\nedge 1 2\nedge 2 0\nedge 2 3\nedge 3 4\nedge 0 5\nedge 0 5\n";

fn hackenbush_file() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sg");
    std::fs::write(&path, HACKENBUSH).unwrap();
    let path = path.display().to_string();
    (dir, path)
}

/// A session of Hackenbush cuts, compared whole: the hint, a cut of one of two parallel edges
/// (named with its place in the file), an illegal cut answered with the legal ones, `edge K`.
#[test]
fn a_hackenbush_session_is_played_cut_by_cut() {
    let (_dir, path) = hackenbush_file();
    let out = play(
        &[&path, "--first", "me"],
        "hint\ncut 0 5\ncut 3 4\nedge 3\nmoves\ncut 5 0\n",
    );
    let expected = "h: ground 0: 0-1 1-2 2-0 2-3 3-4 0-5 0-5. Type a cut as `cut U V` (e.g. `cut 0 1`; `cut U V K` for the edge at place K of the file when several join U and V, or `edge K`); `moves` lists them, `hint` shows the winning ones, `quit` ends.
position: ground 0: 0-1 1-2 2-0 2-3 3-4 0-5 0-5   (your move)
> Winning moves:
  cut 3 4 → ground 0: 0-1 1-2 2-0 2-3 0-5 0-5
> you: cut 0 5 6 → ground 0: 0-1 1-2 2-0 2-3 3-4 0-5
computer: cut 2 3 → ground 0: 0-1 1-2 2-0 0-5
position: ground 0: 0-1 1-2 2-0 0-5   (your move)
> `cut 3 4` is not a legal move here. Legal moves:
  cut 0 1 → ground 0: 1-2 2-0 0-5
  cut 1 2 → ground 0: 0-1 2-0 0-5
  cut 2 0 → ground 0: 0-1 1-2 0-5
  cut 0 5 → ground 0: 0-1 1-2 2-0
> you: cut 2 0 → ground 0: 0-1 1-2 0-5
computer: cut 1 2 → ground 0: 0-1 0-5
position: ground 0: 0-1 0-5   (your move)
>   cut 0 1 → ground 0: 0-5
  cut 0 5 → ground 0: 0-1
> you: cut 0 5 → ground 0: 0-1
computer: cut 0 1 → ground 0: no edge standing
You have no move.
The computer wins.
";
    assert_eq!(out, expected);
}

/// A contestant in python that values every position by brute force (the game tree over sets
/// of standing edges): it parses the `position` line, cuts as `cut U V K`, and follows the
/// judge's `cut U V` and `cut U V K`.
const HACKENBUSH_CONTESTANT: &str = r#"
import sys
from functools import lru_cache

def words():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.split()

position = words()
assert position[:2] == ["position", "ground"], position
ground = position[2].rstrip(":")
edges = [tuple(w.split("-")) for w in position[3:]]
side = words()

def joined(standing):
    reached, grew = {ground}, True
    while grew:
        grew = False
        for i in standing:
            a, b = edges[i]
            if (a in reached) != (b in reached):
                reached |= {a, b}
                grew = True
    return frozenset(i for i in standing if edges[i][0] in reached)

@lru_cache(maxsize=None)
def value(standing):
    options = {value(joined(standing - {i})) for i in standing}
    g = 0
    while g in options:
        g += 1
    return g

standing = frozenset(range(len(edges)))
mine = side == ["side", "first"]
while True:
    if mine:
        cuts = sorted(standing)
        if not cuts:
            print("none", flush=True)
            break
        i = ([c for c in cuts if value(joined(standing - {c})) == 0] or cuts)[0]
        print("cut %s %s %d" % (edges[i][0], edges[i][1], i + 1), flush=True)
        standing = joined(standing - {i})
    else:
        move = words()
        if move[0] != "cut":
            break
        ends = sorted(move[1:3])
        if len(move) > 3:
            i = int(move[3]) - 1
        else:
            i = min(c for c in standing if sorted(edges[c]) == ends)
        standing = joined(standing - {i})
    mine = not mine
"#;

/// `judge` of a Hackenbush file: a correct contestant wins from the N-position, one that cuts
/// an edge that is not there gets the verdict naming its line.
#[test]
fn judge_plays_hackenbush_cuts() {
    let (dir, path) = hackenbush_file();
    let script = dir.path().join("contestant.py");
    std::fs::write(&script, HACKENBUSH_CONTESTANT).unwrap();
    let won = judge(
        &[&path, "--side", "first", "--transcript"],
        &["python3", script.to_str().unwrap()],
    );
    assert!(won.status.success(), "{}", text(&won));
    assert_has(
        &text(&won),
        &[
            "judge:   position ground 0: 0-1 1-2 2-0 2-3 3-4 0-5 0-5\njudge:   side first\nprogram: cut 3 4 5\n",
            "the program won after",
            "(the program's side wins with perfect play)",
        ],
    );
    let illegal = judge(
        &[&path, "--side", "first"],
        &["sh", "-c", "read p; read s; echo 'cut 3 9'; read r"],
    );
    assert_eq!(illegal.status.code(), Some(1));
    assert_has(
        &text(&illegal),
        &["error: the program's line 1, `cut 3 9`, after 0 moves: `cut 3 9` is not a legal move here"],
    );
}

/// A graph file's node names are read one way by `solve` and `play` (`GraphGame::nodes_of_sum`):
/// an integer name in any spelling (`01` is node `1`), tokens joined by `+` or spaces. `play`
/// refused `01` that `solve` took.
#[test]
fn solve_and_play_read_node_names_alike() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.sg");
    std::fs::write(&path, "edge 1 2\nedge 2 3\nedge 7 3\n").unwrap();
    let path = path.to_str().unwrap();
    for position in ["01", "1 + 007", "1 7"] {
        let solved = crate::support::ok(&["solve", path, position]);
        assert!(solved.starts_with("position: 1"), "{position}: {solved}");
        let played = play(&[path, position, "--first", "me"], "quit\n");
        assert!(played.contains("Bye."), "{position}: {played}");
    }
}
