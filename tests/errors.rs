//! Bad rules get located, helpful errors: file:line:col, the line, a caret, and what to do.

use crate::support::{assert_has, error_for, fails};

#[test]
fn misspelt_family_gets_did_you_mean() {
    let err = error_for("# a game\nsubtraktion {1, 2}\n");
    assert!(err.starts_with("error: "), "{err}");
    assert_has(
        &err,
        &[
            "bad.sg:2:1",
            "2 | subtraktion {1, 2}",
            "^^^^^^^^^^^",
            "did you mean `subtraction`",
        ],
    );
}

#[test]
fn non_octal_digit_points_at_the_digit() {
    let err = error_for("octal 0.08\n");
    assert!(err.contains("bad.sg:1:10"), "{err}");
    assert!(err.contains("hex") || err.contains("takebreak"), "{err}");
}

#[test]
fn unknown_name_in_a_move_gets_did_you_mean() {
    let err = error_for("param k = 3\nmove x in 1..=kk => n - x\n");
    assert_has(&err, &["bad.sg:2:15", "did you mean `k`"]);
}

#[test]
fn missing_arrow_says_what_was_expected() {
    let err = error_for("move x in 1..=3 n - x\n");
    assert_has(&err, &["bad.sg:1:17", "expected", "=>"]);
}

#[test]
fn unknown_set_parameter() {
    let err = fails(&["check", "rules/bash.sg", "--set", "kk=4"], 1);
    assert_has(&err, &["kk", "did you mean `k`"]);
}

#[test]
fn a_move_to_a_bigger_heap_is_a_located_runtime_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grow.sg");
    std::fs::write(&path, "move x in 1..=2 => n + x\n").unwrap();
    let err = fails(&["table", path.to_str().unwrap(), "--to", "5"], 1);
    assert_has(&err, &["grow.sg:1:", "n = "]);
}

#[test]
fn a_negative_heap_is_a_located_runtime_error() {
    let err = fails(&["table", "move x in 1..=3 => n - x", "--to", "5"], 1);
    assert_has(&err, &["<command line>:1:", "help:"]);
}

#[test]
fn inline_rules_errors_are_located_too() {
    let err = fails(&["period", "octl 0.07"], 1);
    assert_has(&err, &["<command line>:1:1", "did you mean `octal`"]);
}

#[test]
fn empty_file_says_what_to_add() {
    let err = error_for("# nothing here\n");
    assert!(err.contains("move") && err.contains("octal"), "{err}");
}

#[test]
fn exponential_partition_listing_is_refused_not_run() {
    // `?` with three or more heaps is computed by listing partitions (about exp(pi*sqrt(2n/3))).
    let err = fails(&["table", "takebreak 0.{3+}?", "--to", "400"], 2);
    assert!(
        err.contains("partitions") && err.contains("help: ask for --to/--max below"),
        "{err}"
    );
}

#[test]
fn period_search_stops_where_listing_becomes_infeasible() {
    let out = crate::support::ok(&["period", "takebreak 0.{3+}?", "--json"]);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let computed = report["values_computed"].as_u64().unwrap();
    assert!((50..1000).contains(&computed), "{report}");
    assert!(
        report["reason"]
            .as_str()
            .unwrap()
            .contains("the search stopped at n ="),
        "{report}"
    );
}

#[test]
fn rules_with_huge_ranges_are_refused_not_run() {
    let err = fails(
        &[
            "table",
            "move x in 1..=1000000000 if x < n => n - x",
            "--to",
            "100",
        ],
        2,
    );
    assert!(
        err.contains("at n = 100") && err.contains("help: bound the ranges"),
        "{err}"
    );
}

#[test]
fn a_file_full_of_errors_shows_the_first_twenty_and_counts_the_others() {
    let at_lines = |n: usize| "@\n".repeat(n);
    let err = error_for(&at_lines(20_000));
    assert_eq!(err.matches("error: unexpected character `@`").count(), 20);
    assert!(err.contains("bad.sg:20:1"), "{err}");
    assert!(!err.contains("bad.sg:21:1"), "{err}");
    assert!(
        err.ends_with("\n\nerror: … and 19980 more errors\n"),
        "{}",
        &err[err.len() - 200..]
    );
    // Up to 20 errors, every one is shown and there is no count; one more is counted.
    let twenty = error_for(&at_lines(20));
    assert_eq!(twenty.matches("error: ").count(), 20, "{twenty}");
    assert!(!twenty.contains("more error"), "{twenty}");
    let twenty_one = error_for(&at_lines(21));
    assert!(twenty_one.starts_with(&twenty), "{twenty_one}");
    assert!(
        twenty_one.ends_with("\nerror: … and 1 more error\n"),
        "{twenty_one}"
    );
    // Syntax errors (one per line) and checking errors are capped alike.
    let syntax = error_for(&"move x =>\n".repeat(50));
    assert_eq!(syntax.matches("error: expected").count(), 20, "{syntax}");
    assert!(
        syntax.ends_with("error: … and 30 more errors\n"),
        "{syntax}"
    );
    let checking = error_for(&"move => m\n".repeat(50));
    assert_eq!(checking.matches("error: unknown name `m`").count(), 20);
    assert!(
        checking.ends_with("error: … and 30 more errors\n"),
        "{checking}"
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
    let err = fails(&["check", &path], 1);
    assert_eq!(err.matches("error: unexpected character `@`").count(), 20);
    assert!(err.contains("error: … and 19980 more errors"), "{err}");
}

#[test]
fn a_long_line_is_cut_around_the_caret() {
    let dir = tempfile::tempdir().unwrap();
    let line = format!("move x in 1..=3 => n - x {}", "y".repeat(200_000));
    let path = write_file(&dir, "long.sg", line.as_bytes());
    let err = fails(&["check", &path], 1);
    assert!(err.len() < 1000, "{} bytes of stderr", err.len());
    assert!(err.contains(":1:26"), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    let shown = lines.iter().find(|l| l.starts_with("1 | ")).unwrap();
    let caret = lines.iter().find(|l| l.contains('^')).unwrap();
    // The caret is under the first `y`; the line is cut 60 characters after the caret (itself
    // cut to 60 wide), and ends with `…`.
    let column = caret.chars().position(|c| c == '^').unwrap();
    assert_eq!(shown.chars().nth(column), Some('y'), "{err}");
    assert!(
        shown.ends_with('…') && caret.contains(&format!(" {} expected", "^".repeat(60))),
        "{err}"
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
    let err = fails(&["check", &path], 1);
    assert_has(
        &err,
        &[
            "larger than 1048576 bytes (1 MiB)",
            "big.sg:31776:",
            "help: ",
        ],
    );
}

#[test]
fn directories_devices_and_empty_files_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let err = fails(&["check", dir.path().to_str().unwrap()], 1);
    assert!(err.contains("is a directory"), "{err}");
    let err = fails(&["check", "/dev/null"], 1);
    assert!(err.contains("not a regular file"), "{err}");
    let empty = write_file(&dir, "empty.sg", b"");
    let err = fails(&["check", &empty], 1);
    assert!(err.contains("the file is empty"), "{err}");
    assert!(!err.contains("no such file"), "{err}");
}

#[test]
fn invalid_utf8_is_located() {
    let err = error_for_bytes(b"move x in 1..=n => n - x\n# caf\xe9\n");
    assert_has(
        &err,
        &[
            "not valid UTF-8: byte 0xE9 at byte offset 30",
            "bad.sg:2:6",
            "help: ",
        ],
    );
}

fn error_for_bytes(rules: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = write_file(&dir, "bad.sg", rules);
    fails(&["check", &path], 1).replace(&path, "bad.sg")
}

#[test]
fn a_set_value_out_of_range_is_too_large() {
    let err = fails(
        &["check", "rules/bash.sg", "--set", "k=100000000000000000000"],
        2,
    );
    assert_has(
        &err,
        &[
            "is too large",
            "-9223372036854775808 to 9223372036854775807",
        ],
    );
}

#[test]
fn a_negative_to_gets_our_message() {
    let err = fails(&["table", "rules/kayles.sg", "--to", "-1"], 2);
    assert!(
        err.contains("`--to` must be a non-negative integer"),
        "{err}"
    );
    assert!(!err.contains("'-- -1'"), "{err}");
    for command in ["period", "code"] {
        let mut args = vec![command, "rules/kayles.sg", "--max", "-1"];
        if command == "code" {
            args.extend(["--lang", "cpp"]);
        }
        let err = fails(&args, 2);
        assert!(
            err.contains("`--max` must be a non-negative integer (not -1)"),
            "{command}: {err}"
        );
        assert!(!err.contains("'-- -1'"), "{command}: {err}");
    }
}

#[test]
fn an_unknown_set_parameter_points_at_the_parameter_or_at_no_line() {
    let err = fails(&["check", "rules/bash.sg", "--set", "kk=5"], 1);
    assert_has(
        &err,
        &["rules/bash.sg:5:7", "| param k = 3", "did you mean `k`"],
    );
    let err = fails(&["check", "rules/nim.sg", "--set", "kk=5"], 1);
    assert!(err.contains(" --> rules/nim.sg\n"), "{err}");
    assert!(!err.contains(" | #"), "no comment line is shown: {err}");
    assert!(
        err.contains("declares no parameters: remove `--set kk=5`"),
        "{err}"
    );
}

#[test]
fn heaps_without_an_arrow_get_a_help_line() {
    let err = fails(&["check", "move m: n + 1"], 1);
    assert!(err.contains("<command line>:1:11"), "{err}");
    assert!(
        err.contains("help: ") && err.contains("`move m: => n - 1`"),
        "{err}"
    );
}

#[test]
fn an_always_empty_range_is_a_warning() {
    let out = crate::support::sgscope(&["table", "rules/bash.sg", "--set", "k=-1", "--to", "5"]);
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("warning: the subtraction set is empty (with k = -1)"),
        "{err}"
    );
    assert!(err.contains("rules/bash.sg:6:1"), "{err}");
    let out = crate::support::sgscope(&[
        "check",
        "param k = 3\nmove x in 1..=min(k, n) => n - x",
        "--set",
        "k=-1",
    ]);
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_has(
        &err,
        &["warning: the range of `x` is empty", "<command line>:2:11"],
    );
    // No warning without the override.
    let out = crate::support::sgscope(&["check", "rules/bash.sg"]);
    assert!(out.stderr.is_empty());
}

#[test]
fn check_evaluates_the_smallest_positions() {
    let err = fails(&["check", "move m: => n + 1"], 1);
    assert_has(
        &err,
        &[
            "at n = 0, this move leaves a heap of 1",
            "<command line>:1:12",
            "help: ",
        ],
    );
    let err = fails(&["check", "move x in 1..=2 if n == 9 => n + x"], 1);
    assert!(err.contains("at n = 9"), "{err}");
}

#[test]
fn threads_are_bounded_by_the_cores() {
    let err = fails(
        &["--threads", "65535", "table", "rules/nim.sg", "--to", "10"],
        2,
    );
    assert_has(&err, &["--threads must be from 1 to", "per core"]);
}

#[test]
fn number_theory_functions_check_their_arity() {
    let err = error_for("# a game\nmove x in 1..=n if is_prime(x, 2) => n - x\n");
    assert_has(
        &err,
        &[
            "bad.sg:2:20",
            "`is_prime` takes exactly one argument",
            "^^^^^^^^^^^^^^",
            "2 given",
            "e.g. `is_prime(x)`",
        ],
    );
    let err = error_for("# a game\nmove x in 1..=n if gcd(x) == 1 => n - x\n");
    assert_has(
        &err,
        &[
            "bad.sg:2:20",
            "`gcd` takes two arguments",
            "e.g. `gcd(n, k)`",
        ],
    );
}

#[test]
fn misspelt_number_theory_function_gets_did_you_mean() {
    let err = error_for("# a game\nmove x in 1..=n if is_prme(x) => n - x\n");
    assert_has(&err, &["bad.sg:2:20", "did you mean `is_prime`"]);
}

#[test]
fn number_theory_faults_are_located_at_run_time() {
    let err = fails(
        &[
            "check",
            "move x in 1..=n if floor_div(x, n - 3) >= 0 => n - x",
        ],
        1,
    );
    assert_has(
        &err,
        &["division by zero at n = 3", "<command line>:1:20", "help: "],
    );
    let err = fails(
        &["check", "move x in 1..=n if v_p(n - 2, 2) > 0 => n - x"],
        1,
    );
    assert_has(
        &err,
        &["argument out of range at n = 1", "`v_p(x, p)` needs x >= 1"],
    );
    let err = fails(
        &[
            "table",
            "move x in 1..=1 if lcm(n, 4611686018427387903) > 0 => n - x",
            "--to",
            "5",
        ],
        1,
    );
    assert_has(&err, &["arithmetic overflow at n = ", "lcm("]);
}

/// `--format matrix` of a table that is not a grid of normal values is refused with exit 2 (it
/// printed the text table with exit 0); the whole message is compared.
#[test]
fn matrix_of_a_table_that_is_no_grid_is_refused_whole() {
    let grid = "error: --format matrix is a grid of normal values of a position game's box;";
    for (args, why) in [
        (
            &["table", "rules/graph-cycle.sg", "--format", "matrix"][..],
            "a graph file's table is one row per node",
        ),
        (
            &["table", "rules/tree-edge-deletion.sg", "--format", "matrix"][..],
            "a graph file's table is one row per node",
        ),
        (
            &["table", "rules/nim.sg", "--misere", "--format", "matrix"][..],
            "a misère table is one row per position",
        ),
        (
            &[
                "table",
                "rules/loopy-heap.sg",
                "--to",
                "5",
                "--format",
                "matrix",
            ][..],
            "a loopy game's table is one row per position (outcome, remoteness, value)",
        ),
    ] {
        let stderr = fails(args, 2);
        let message = stderr
            .lines()
            .find(|line| line.starts_with("error:"))
            .unwrap_or("");
        assert_eq!(
            message,
            format!("{grid} {why}: ask for text, csv or json"),
            "{args:?}"
        );
    }
}
