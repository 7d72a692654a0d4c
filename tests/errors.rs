//! Bad rules get located, helpful errors: file:line:col, the line, a caret, and what to do.

use crate::support::fails;

fn error_for(rules: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.sg");
    std::fs::write(&path, rules).unwrap();
    let err = fails(&["check", path.to_str().unwrap()], 1);
    err.replace(path.to_str().unwrap(), "bad.sg")
}

#[test]
fn misspelt_family_gets_did_you_mean() {
    let err = error_for("# a game\nsubtraktion {1, 2}\n");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains("bad.sg:2:1"), "{err}");
    assert!(err.contains("2 | subtraktion {1, 2}"), "{err}");
    assert!(err.contains("^^^^^^^^^^^"), "{err}");
    assert!(err.contains("did you mean `subtraction`"), "{err}");
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
    assert!(err.contains("bad.sg:2:15"), "{err}");
    assert!(err.contains("did you mean `k`"), "{err}");
}

#[test]
fn missing_arrow_says_what_was_expected() {
    let err = error_for("move x in 1..=3 n - x\n");
    assert!(err.contains("bad.sg:1:17"), "{err}");
    assert!(err.contains("expected"), "{err}");
    assert!(err.contains("=>"), "{err}");
}

#[test]
fn unknown_set_parameter() {
    let err = fails(&["check", "rules/bash.sg", "--set", "kk=4"], 1);
    assert!(err.contains("kk"), "{err}");
    assert!(err.contains("did you mean `k`"), "{err}");
}

#[test]
fn a_move_to_a_bigger_heap_is_a_located_runtime_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grow.sg");
    std::fs::write(&path, "move x in 1..=2 => n + x\n").unwrap();
    let err = fails(&["table", path.to_str().unwrap(), "--to", "5"], 1);
    assert!(err.contains("grow.sg:1:"), "{err}");
    assert!(err.contains("n = "), "{err}");
}

#[test]
fn a_negative_heap_is_a_located_runtime_error() {
    let err = fails(&["table", "move x in 1..=3 => n - x", "--to", "5"], 1);
    assert!(err.contains("<command line>:1:"), "{err}");
    assert!(err.contains("help:"), "{err}");
}

#[test]
fn inline_rules_errors_are_located_too() {
    let err = fails(&["period", "octl 0.07"], 1);
    assert!(err.contains("<command line>:1:1"), "{err}");
    assert!(err.contains("did you mean `octal`"), "{err}");
}

#[test]
fn empty_file_says_what_to_add() {
    let err = error_for("# nothing here\n");
    assert!(err.contains("move") && err.contains("octal"), "{err}");
}

#[test]
fn exponential_partition_listing_is_refused_not_run() {
    // `?` with three or more heaps is computed by listing partitions (about exp(pi*sqrt(2n/3))).
    let err = fails(&["table", "takebreak 0.{3+}?", "--to", "400"], 1);
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
        1,
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
