//! `check` says which engine runs a file and why (issue 12 item 2), and `check --explain`
//! estimates `table --to N`.

use crate::support::{assert_has, ok};

/// `check` of a rules file with this text, its path shown as `t.sg`.
fn check_file(rules: &str, extra: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.sg");
    std::fs::write(&path, rules).unwrap();
    let path = path.to_str().unwrap();
    let mut args = vec!["check", path];
    args.extend_from_slice(extra);
    ok(&args).replace(path, "t.sg")
}

#[test]
fn check_names_the_code_a_file_runs_on() {
    let out = ok(&["check", "rules/grundys-game.sg"]);
    assert_has(
        &out,
        &["  engine: take-and-break code 4!.0; the sparse kernel past n = 4096\n"],
    );
    // Grundy's game spelled with floor division lowers to the same code.
    let out = check_file("move split: a in 1..=(n-1)/2 => a, n - a\n", &[]);
    assert_has(
        &out,
        &["  engine: take-and-break code 4!.0, lowered from the rules (equal to them at every n <= 176); the sparse kernel past n = 4096\n"],
    );
    let out = check_file("move a in 1..=n/2 => a, n - a\n", &[]);
    assert_has(&out, &["engine: take-and-break code 4.0, lowered"]);
    let out = ok(&["check", "rules/wythoff.sg"]);
    assert_has(&out, &["engine: general rules over boxes of positions"]);
}

#[test]
fn check_says_why_rules_do_not_lower_with_a_caret() {
    let out = check_file(
        "# take an even number\nmove x in 1..=n if x % 2 == 0 => n - x\n",
        &[],
    );
    let expected = "ok: t.sg: t
  engine: general rules interpreter (the rules do not lower to a take-and-break code: a remainder `%` in the condition)
note: `x % 2` does not lower to a take-and-break code
 --> t.sg:2:20
  |
2 | move x in 1..=n if x % 2 == 0 => n - x
  |                    ^^^^^ a remainder `%` in the condition
  |
  = help: to take only multiples of 2, step the binder instead: bind `y` over `x`'s range divided by 2 (e.g. `y in 1..=n / 2`) and write `2 * y` for `x`, which lowers
";
    assert_eq!(out, expected);
    // The rewrite the hint suggests does lower.
    let out = check_file("move y in 1..=n / 2 => n - 2 * y\n", &[]);
    assert_has(&out, &["engine: take-and-break code 0.[03], lowered"]);
}

#[test]
fn check_gives_the_rewrite_that_would_lower() {
    let out = check_file("move split: a in 1..=min(3, n/2) => a, n - a\n", &[]);
    assert_has(
        &out,
        &[
            "engine: general rules interpreter (rule `split` does not lower to a take-and-break code: a division inside `min`/`max` in a binder's range)",
            " --> t.sg:1:29\n",
            "  |                             ^^^ a division inside `min`/`max` in a binder's range",
            "= help: bound the binder without the division and add it as a condition: `min(…, n)` in the range and `if 2 * x <= n` for `x <= n/2`",
        ],
    );
    // `abs` in a bound: the hint says how to write it without.
    let out = check_file("move a in 1..=abs(n - 4) if a <= n => n - a\n", &[]);
    assert_has(
        &out,
        &["`abs` in a binder's range", "= help: write `abs(e) <= c`"],
    );
    // Several rules: the one that blocks is named.
    let out = check_file(
        "move x in 1..=min(2, n) => n - x\nmove cut: x in 1..n if x % 3 == 0 => n - x\n",
        &[],
    );
    assert_has(&out, &["rule `cut` does not lower", " --> t.sg:2:24\n"]);
    // Affine rules that are no code: the first heap where they differ from one.
    let out = ok(&["check", "rules/take-half.sg"]);
    assert_has(
        &out,
        &[
            "rule `take` does not lower to a take-and-break code: at n = 3 its moves are not those of any take-and-break code",
            "at n = 3 the code 0.22222222222222… fitting the smaller heaps would also leave 1, which these rules do not",
        ],
    );
}

#[test]
fn check_explain_estimates_table_sizes() {
    let out = ok(&["check", "rules/grundys-game.sg", "--explain"]);
    assert_has(
        &out,
        &[
            "estimated cost of `table --to N` (estimates before any work, within a factor of two or three):",
            "        10^3",
            "        10^6",
            "values by the sparse kernel",
        ],
    );
    // General rules: rule steps.
    let out = ok(&["check", "rules/take-half.sg", "--explain"]);
    assert_has(&out, &["10^3", "rule steps"]);
    // Without --explain, no estimates.
    assert!(!ok(&["check", "rules/grundys-game.sg"]).contains("estimated cost"));
}
