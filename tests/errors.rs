//! Bad rules get located, helpful errors: file:line:col, the line, a caret, and what to do.
//!
//! Every test compares the whole stderr (and the exit code), as `src/rules/check.rs` does for
//! the rules' own errors. What depends on the machine is replaced explicitly before comparing:
//! a temporary rules file is shown as `bad.sg` ([`error_for`]), a temporary folder as `DIR`
//! ([`fails_in`]), the number of cores is computed.

use crate::support::{assert_render, error_for, fails, render_mismatch, sgscope};

/// `sgscope args` must fail with exit `code`; its whole stderr, with `dir` written `DIR`.
fn fails_in(dir: &tempfile::TempDir, args: &[&str], code: i32) -> String {
    fails(args, code).replace(dir.path().to_str().unwrap(), "DIR")
}

/// `sgscope args` must succeed; its whole stderr.
fn warns(args: &[&str]) -> String {
    let out = sgscope(args);
    assert!(out.status.success(), "sgscope {args:?}: {out:?}");
    String::from_utf8(out.stderr).unwrap()
}

/// Commands, their exit code and their whole stderr.
type Case<'a> = (&'a [&'a str], i32, &'a str);

#[track_caller]
fn assert_cases(cases: &[Case]) {
    for &(args, code, render) in cases {
        if let Some(report) = render_mismatch(&fails(args, code), render) {
            panic!("sgscope {args:?}: {report}");
        }
    }
}

#[test]
fn misspelt_family_gets_did_you_mean() {
    assert_render(
        &error_for("# a game\nsubtraktion {1, 2}\n"),
        r"
error: unknown family `subtraktion`
 --> bad.sg:2:1
  |
2 | subtraktion {1, 2}
  | ^^^^^^^^^^^ expected a family name or `move`
  |
  = help: did you mean `subtraction`?
",
    );
}

#[test]
fn non_octal_digit_points_at_the_digit() {
    assert_render(
        &error_for("octal 0.08\n"),
        r"
error: `8` is not an octal digit
 --> bad.sg:1:10
  |
1 | octal 0.08
  |          ^
  |
  = help: octal digits are 0–7; use `hex` or `takebreak` for larger digits
",
    );
}

#[test]
fn unknown_name_in_a_move_gets_did_you_mean() {
    assert_render(
        &error_for("param k = 3\nmove x in 1..=kk => n - x\n"),
        r"
error: unknown name `kk`
 --> bad.sg:2:15
  |
2 | move x in 1..=kk => n - x
  |               ^^ not defined here
  |
  = help: did you mean `k`?
",
    );
}

#[test]
fn missing_arrow_says_what_was_expected() {
    assert_render(
        &error_for("move x in 1..=3 n - x\n"),
        r"
error: expected `,`, `if` or `=>`, found `n`
 --> bad.sg:1:17
  |
1 | move x in 1..=3 n - x
  |                 ^ expected `,`, `if` or `=>`
",
    );
}

#[test]
fn a_move_to_a_bigger_heap_is_a_located_runtime_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_file(&dir, "grow.sg", b"move x in 1..=2 => n + x\n");
    assert_render(
        &fails_in(&dir, &["table", &path, "--to", "5"], 1),
        r"
error: at n = 0, this move leaves a heap of 1
 --> DIR/grow.sg:1:20
  |
1 | move x in 1..=2 => n + x
  |                    ^^^^^ a heap must be smaller than n = 0
  |
  = help: a move to a heap as large as the one moved from could repeat forever; bound the range or add a condition (or, for a heap that may grow, write `position (n)`: a game whose moves cycle is then solved as a loopy game)
",
    );
}

#[test]
fn a_negative_heap_is_a_located_runtime_error() {
    assert_cases(&[(
        &["table", "move x in 1..=3 => n - x", "--to", "5"],
        1,
        r"
error: at n = 0, this move leaves a heap of -1
 --> <command line>:1:20
  |
1 | move x in 1..=3 => n - x
  |                    ^^^^^ a heap cannot be negative
  |
  = help: add a condition (`if x <= n`) or bound the range (`1..=min(k, n)`)
",
    )]);
}

#[test]
fn inline_rules_errors_are_located_too() {
    assert_cases(&[(
        &["period", "octl 0.07"],
        1,
        r"
error: unknown family `octl`
 --> <command line>:1:1
  |
1 | octl 0.07
  | ^^^^ expected a family name or `move`
  |
  = help: did you mean `octal`?
",
    )]);
}

#[test]
fn empty_file_says_what_to_add() {
    assert_render(
        &error_for("# nothing here\n"),
        r"
error: this file describes no moves
 --> bad.sg:1:1
  |
1 | # nothing here
  | ^ no `move` rule or family line
  |
  = help: add `move …` or a family line such as `octal 0.07`
",
    );
}

#[test]
fn exponential_partition_listing_is_refused_not_run() {
    // `?` with three or more heaps is computed by listing partitions (about exp(pi*sqrt(2n/3))).
    assert_cases(&[(
        &["table", "takebreak 0.{3+}?", "--to", "400"],
        2,
        r"
error: G(0..=400) of this code would list more than 2e10 partitions: its `!`/`?` digits that leave three or more heaps are computed one partition at a time
  help: ask for --to/--max below 96
",
    )]);
}

#[test]
fn period_search_stops_where_listing_becomes_infeasible() {
    let out = crate::support::ok(&["period", "takebreak 0.{3+}?", "--json"]);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    // n = 96 is the bound `table --to 400` names above (`ask for --to/--max below 96`).
    assert_eq!(report["values_computed"], 97, "{report}");
    assert_eq!(
        report["reason"],
        "not proved: the periodicity theorem covers pure periodicity only, and this period has \
         saltus 1; the period held over 31.7 periods (n ≤ 96) (the search stopped at n = 96, not \
         65536: beyond it this code's `!`/`?` digits with three or more heaps would list more \
         than 2e10 partitions)",
        "{report}"
    );
}

#[test]
fn rules_with_huge_ranges_are_refused_not_run() {
    assert_cases(&[(
        &[
            "table",
            "move x in 1..=1000000000 if x < n => n - x",
            "--to",
            "100",
        ],
        2,
        r"
error: G(0..=100) would take more than 2e10 rule steps (about 1.0e11: binder values and moves, estimated from 101 of its positions and the rules' ranges; about 1.0e9 at n = 100 alone): hours of work
  help: bound the ranges by n (e.g. `x in 1..=n`), or ask for a smaller --to/--max
",
    )]);
}

/// The render of the stray `@` on line `line` of `path` (a file of `@` lines).
fn stray_at(path: &str, line: usize) -> String {
    let pad = " ".repeat(line.to_string().len());
    format!(
        "error: unexpected character `@`\n\
         {pad}--> {path}:{line}:1\n\
         {pad} |\n\
         {line} | @\n\
         {pad} | ^ not part of the rules language\n\
         {pad} |\n\
         {pad} = help: remove it, or start a comment with `#`\n"
    )
}

/// The first `shown` renders of `render(line)`, a blank line between them, then the count of
/// the `more` others (none when `more` is 0).
fn capped(render: impl Fn(usize) -> String, shown: usize, more: usize) -> String {
    let mut out: Vec<String> = (1..=shown).map(render).collect();
    match more {
        0 => {}
        1 => out.push("error: … and 1 more error\n".to_string()),
        _ => out.push(format!("error: … and {more} more errors\n")),
    }
    out.join("\n")
}

#[test]
fn a_file_full_of_errors_shows_the_first_twenty_and_counts_the_others() {
    let at_lines = |n: usize| "@\n".repeat(n);
    let at = |line| stray_at("bad.sg", line);
    assert_render(&error_for(&at_lines(20_000)), &capped(at, 20, 19_980));
    // Up to 20 errors, every one is shown and there is no count; one more is counted.
    assert_render(&error_for(&at_lines(20)), &capped(at, 20, 0));
    assert_render(&error_for(&at_lines(21)), &capped(at, 20, 1));
    // Syntax errors (one per line) and checking errors are capped alike.
    let syntax = |line: usize| {
        let pad = " ".repeat(line.to_string().len());
        format!(
            "error: expected `in` or `=`, found `=>`\n\
             {pad}--> bad.sg:{line}:8\n\
             {pad} |\n\
             {line} | move x =>\n\
             {pad} |        ^^ expected `in` or `=`\n\
             {pad} |\n\
             {pad} = help: binders are written `x in 1..=n` (or `x = …`); the heaps a move \
             leaves come after `=>`, e.g. `move x in 1..=n => n - x` or `move => n - 1`\n"
        )
    };
    assert_render(
        &error_for(&"move x =>\n".repeat(50)),
        &capped(syntax, 20, 30),
    );
    let checking = |line: usize| {
        let pad = " ".repeat(line.to_string().len());
        format!(
            "error: unknown name `m`\n\
             {pad}--> bad.sg:{line}:9\n\
             {pad} |\n\
             {line} | move => m\n\
             {pad} |         ^ not defined here\n\
             {pad} |\n\
             {pad} = help: names in scope: `n`\n"
        )
    };
    assert_render(
        &error_for(&"move => m\n".repeat(50)),
        &capped(checking, 20, 30),
    );
}

// Issue 14 ("sgscope under hostile input"): the rules/loading side and the messages.

fn write_file(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn many_errors_stop_after_twenty() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_file(&dir, "at.sg", "@\n".repeat(20_000).as_bytes());
    assert_render(
        &fails_in(&dir, &["check", &path], 1),
        &capped(|line| stray_at("DIR/at.sg", line), 20, 19_980),
    );
}

#[test]
fn a_long_line_is_cut_around_the_caret() {
    let dir = tempfile::tempdir().unwrap();
    let line = format!("move x in 1..=3 => n - x {}", "y".repeat(200_000));
    let path = write_file(&dir, "long.sg", line.as_bytes());
    // The caret is under the first `y`, cut to 60 wide; the line is cut 60 characters after
    // the caret and ends with `…`; the token quoted in the message is cut in its middle.
    let y = |n: usize| "y".repeat(n);
    assert_render(
        &fails_in(&dir, &["check", &path], 1),
        &format!(
            "error: expected `,` or end of line, found `{}…{}`\n \
             --> DIR/long.sg:1:26\n  \
             |\n\
             1 | move x in 1..=3 => n - x {}…\n  \
             | {}{} expected `,` or end of line\n",
            y(30),
            y(15),
            y(120),
            " ".repeat(25),
            "^".repeat(60)
        ),
    );
}

#[test]
fn a_file_over_one_mib_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_file(
        &dir,
        "big.sg",
        "move x in 1..=min(3, n) => n - x\n"
            .repeat(40_000)
            .as_bytes(),
    );
    // 31775 lines of 33 bytes make 1048575 bytes: the first byte past the limit is the `o` of
    // line 31776.
    assert_render(
        &fails_in(&dir, &["check", &path], 1),
        r"
error: the rules text is larger than 1048576 bytes (1 MiB), the most sgscope reads
     --> DIR/big.sg:31776:2
      |
31776 | mo
      |  ^ the limit is reached here
      |
      = help: a game needs a few lines: describe its moves with ranges (`x in 1..=k`) and conditions instead of one line per move
",
    );
}

#[test]
fn directories_devices_and_empty_files_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let empty = write_file(&dir, "empty.sg", b"");
    for (path, render) in [
        (
            dir.path().to_str().unwrap(),
            "error: cannot read `DIR`: it is a directory, not a rules file (give a file, e.g. \
             rules/kayles.sg)\n",
        ),
        (
            "/dev/null",
            "error: cannot read `/dev/null`: it is a character device, not a regular file (give \
             a rules file, e.g. rules/kayles.sg)\n",
        ),
        (
            &empty,
            "error: cannot read `DIR/empty.sg`: the file is empty (a rules file holds `move …` \
             rules or a family line such as `octal 0.07`)\n",
        ),
    ] {
        assert_render(&fails_in(&dir, &["check", path], 1), render);
    }
}

#[test]
fn invalid_utf8_is_located() {
    // The line is shown with U+FFFD in place of the byte.
    assert_render(
        &error_for_bytes(b"move x in 1..=n => n - x\n# caf\xe9\n"),
        r"
error: the rules text is not valid UTF-8: byte 0xE9 at byte offset 30
 --> bad.sg:2:6
  |
2 | # caf�
  |      ^ not UTF-8 (shown as �)
  |
  = help: save the file as UTF-8 text (e.g. `iconv -f latin1 -t utf-8`), or remove the byte
",
    );
}

fn error_for_bytes(rules: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = write_file(&dir, "bad.sg", rules);
    fails(&["check", &path], 1).replace(&path, "bad.sg")
}

#[test]
fn a_set_value_out_of_range_is_too_large() {
    assert_cases(&[(
        &["check", "rules/bash.sg", "--set", "k=100000000000000000000"],
        2,
        r"
error: invalid value 'k=100000000000000000000' for '--set <NAME=VALUE>': `100000000000000000000` is too large (in --set k=100000000000000000000): parameter values are integers from -9223372036854775808 to 9223372036854775807

For more information, try '--help'.
",
    )]);
}

#[test]
fn a_negative_to_gets_our_message() {
    // Our message, not clap's "unexpected argument" with its `-- -1` advice.
    let max = r"
error: invalid value '-1' for '--max <N>': `--max` must be a non-negative integer (not -1), e.g. --max 65536

For more information, try '--help'.
";
    assert_cases(&[
        (
            &["table", "rules/kayles.sg", "--to", "-1"],
            2,
            r"
error: invalid value '-1' for '--to <N>': `--to` must be a non-negative integer (not -1), e.g. --to 100

For more information, try '--help'.
",
        ),
        (&["period", "rules/kayles.sg", "--max", "-1"], 2, max),
        (
            &["code", "rules/kayles.sg", "--max", "-1", "--lang", "cpp"],
            2,
            max,
        ),
    ]);
}

#[test]
fn an_unknown_set_parameter_points_at_the_parameter_or_at_no_line() {
    assert_cases(&[
        (
            &["check", "rules/bash.sg", "--set", "kk=5"],
            1,
            r"
error: no parameter `kk` (from --set kk=5)
 --> rules/bash.sg:5:7
  |
5 | param k = 3
  |       ^ the parameter `k` is declared here
  |
  = help: did you mean `k`? (--set k=5; the parameters are `k`)
",
        ),
        // No parameter to point at: the file is named, no (comment) line is shown.
        (
            &["check", "rules/nim.sg", "--set", "kk=5"],
            1,
            r"
error: no parameter `kk` (from --set kk=5)
 --> rules/nim.sg
  |
  = help: this file declares no parameters: remove `--set kk=5`
",
        ),
    ]);
}

#[test]
fn heaps_without_an_arrow_get_a_help_line() {
    assert_cases(&[(
        &["check", "move m: n + 1"],
        1,
        r"
error: expected `in` or `=`, found `+`
 --> <command line>:1:11
  |
1 | move m: n + 1
  |           ^ expected `in` or `=`
  |
  = help: binders are written `x in 1..=n` (or `x = …`); the heaps a move leaves come after `=>`, e.g. `move m: x in 1..=n => n - x` or `move m: => n - 1`
",
    )]);
}

#[test]
fn an_always_empty_range_is_a_warning() {
    assert_render(
        &warns(&["table", "rules/bash.sg", "--set", "k=-1", "--to", "5"]),
        r"
warning: the subtraction set is empty (with k = -1), so no move is possible
 --> rules/bash.sg:6:1
  |
6 | subtraction 1..=k
  | ^^^^^^^^^^^^^^^^^ no move
  |
  = help: every position has value 0: check the set's bounds (and the --set values)
",
    );
    assert_render(
        &warns(&[
            "check",
            "param k = 3\nmove x in 1..=min(k, n) => n - x",
            "--set",
            "k=-1",
        ]),
        r"
warning: the range of `x` is empty for every position tried (n = 0..=16) (with k = -1)
 --> <command line>:2:11
  |
2 | move x in 1..=min(k, n) => n - x
  |           ^^^^^^^^^^^^^ always empty
  |
  = help: this move never applies: check the range's bounds (and the --set values)
",
    );
    // No warning without the override.
    assert_render(&warns(&["check", "rules/bash.sg"]), "");
}

#[test]
fn check_evaluates_the_smallest_positions() {
    let grow = "a move to a heap as large as the one moved from could repeat forever; bound the \
                range or add a condition (or, for a heap that may grow, write `position (n)`: a \
                game whose moves cycle is then solved as a loopy game)";
    assert_cases(&[
        (
            &["check", "move m: => n + 1"],
            1,
            &format!(
                r"
error: at n = 0, this move leaves a heap of 1
 --> <command line>:1:12
  |
1 | move m: => n + 1
  |            ^^^^^ a heap must be smaller than n = 0
  |
  = help: {grow}
"
            ),
        ),
        (
            &["check", "move x in 1..=2 if n == 9 => n + x"],
            1,
            &format!(
                r"
error: at n = 9, this move leaves a heap of 10
 --> <command line>:1:30
  |
1 | move x in 1..=2 if n == 9 => n + x
  |                              ^^^^^ a heap must be smaller than n = 9
  |
  = help: {grow}
"
            ),
        ),
    ]);
}

#[test]
fn threads_are_bounded_by_the_cores() {
    // The number of cores is the machine's; the binary reads it the same way.
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    assert_cases(&[(
        &["--threads", "65535", "table", "rules/nim.sg", "--to", "10"],
        2,
        &format!(
            "error: invalid value '65535' for '--threads <N>': --threads must be from 1 to {} (4 \
             per core; this machine has {cores}): more threads than that only slow the run \
             down\n\nFor more information, try '--help'.\n",
            4 * cores
        ),
    )]);
}

#[test]
fn number_theory_functions_check_their_arity() {
    assert_render(
        &error_for("# a game\nmove x in 1..=n if is_prime(x, 2) => n - x\n"),
        r"
error: `is_prime` takes exactly one argument
 --> bad.sg:2:20
  |
2 | move x in 1..=n if is_prime(x, 2) => n - x
  |                    ^^^^^^^^^^^^^^ 2 given
  |
  = help: e.g. `is_prime(x)`
",
    );
    assert_render(
        &error_for("# a game\nmove x in 1..=n if gcd(x) == 1 => n - x\n"),
        r"
error: `gcd` takes two arguments
 --> bad.sg:2:20
  |
2 | move x in 1..=n if gcd(x) == 1 => n - x
  |                    ^^^^^^ 1 given
  |
  = help: e.g. `gcd(n, k)`
",
    );
}

#[test]
fn misspelt_number_theory_function_gets_did_you_mean() {
    assert_render(
        &error_for("# a game\nmove x in 1..=n if is_prme(x) => n - x\n"),
        r"
error: unknown function `is_prme`
 --> bad.sg:2:20
  |
2 | move x in 1..=n if is_prme(x) => n - x
  |                    ^^^^^^^ not a function
  |
  = help: did you mean `is_prime`?
",
    );
}

#[test]
fn number_theory_faults_are_located_at_run_time() {
    assert_cases(&[
        (
            &[
                "check",
                "move x in 1..=n if floor_div(x, n - 3) >= 0 => n - x",
            ],
            1,
            r"
error: division by zero at n = 3
 --> <command line>:1:20
  |
1 | move x in 1..=n if floor_div(x, n - 3) >= 0 => n - x
  |                    ^^^^^^^^^^^^^^^^^^^ the divisor is 0 here
  |
  = help: add a condition such as `if d != 0`, or start the range at 1
",
        ),
        (
            &["check", "move x in 1..=n if v_p(n - 2, 2) > 0 => n - x"],
            1,
            r"
error: argument out of range at n = 1
 --> <command line>:1:20
  |
1 | move x in 1..=n if v_p(n - 2, 2) > 0 => n - x
  |                    ^^^^^^^^^^^^^ `v_p(x, p)` needs x >= 1
  |
  = help: add a condition, e.g. `if x >= 1`, or start the range at 1
",
        ),
        // lcm(4, 2^62 - 1) = 4 * (2^62 - 1) > 2^63 - 1: n = 4 is the first to overflow.
        (
            &[
                "table",
                "move x in 1..=1 if lcm(n, 4611686018427387903) > 0 => n - x",
                "--to",
                "5",
            ],
            1,
            r"
error: arithmetic overflow at n = 4
 --> <command line>:1:20
  |
1 | move x in 1..=1 if lcm(n, 4611686018427387903) > 0 => n - x
  |                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^ the value does not fit in a 64-bit integer
  |
  = help: bound the values involved (e.g. with `min`) or add a condition
",
        ),
    ]);
}

/// `--format matrix` of a table that is not a grid of normal values is refused with exit 2 (it
/// printed the text table with exit 0); the whole message is compared.
#[test]
fn matrix_of_a_table_that_is_no_grid_is_refused_whole() {
    let refusal = |why: &str| {
        format!(
            "error: --format matrix is a grid of normal values of a position game's box; {why}: \
             ask for text, csv or json\n"
        )
    };
    let graph = refusal("a graph file's table is one row per node");
    // The loopy table first says why the game is loopy (a note), then refuses.
    let loopy = format!(
        "note: the moves can cycle (1 → 3 → 2 → 1), so every position is valued as a loopy \
         game: outcome (P, N or D for a draw), remoteness and generalized Sprague–Grundy value\n{}",
        refusal("a loopy game's table is one row per position (outcome, remoteness, value)")
    );
    assert_cases(&[
        (
            &["table", "rules/graph-cycle.sg", "--format", "matrix"],
            2,
            &graph,
        ),
        (
            &["table", "rules/tree-edge-deletion.sg", "--format", "matrix"],
            2,
            &graph,
        ),
        (
            &["table", "rules/nim.sg", "--misere", "--format", "matrix"],
            2,
            &refusal("a misère table is one row per position"),
        ),
        (
            &[
                "table",
                "rules/loopy-heap.sg",
                "--to",
                "5",
                "--format",
                "matrix",
            ],
            2,
            &loopy,
        ),
    ]);
}

/// A misère table past the budget of its search over sums is refused like the refusals up
/// front: the message and its help line, no place in the rules text (it pointed at
/// `<command line>:1:1`, the first character of `octal 0.77`, which no rule is to blame for).
/// The run takes some seconds, so a progress line may come first: it is dropped.
#[test]
fn a_misere_table_past_its_search_over_sums_points_at_no_rule() {
    let err = fails(&["table", "octal 0.77", "--misere", "--to", "100000"], 1);
    let err: String = err
        .split_inclusive('\n')
        .filter(|line| !line.starts_with("progress: "))
        .collect();
    assert_render(
        &err,
        r"
error: at n = 54, the misère search over sums (run from the positions asked) passed the budget of 400000 sums of components (about 45.8 MiB): G⁻ and the genus of the heaps 0..54 were computed, of 100001 values; this table is not printed partially
  help: ask for --to/--max below 54
",
    );
}
