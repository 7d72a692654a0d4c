//! README.md and the guide stay honest: their examples are run and their output compared.
//!
//! The documents are README.md and every markdown file under `docs/` (walked, so a new guide
//! page is covered without listing it). README.md must have console examples; a page under
//! `docs/` may have none.
//!
//! In a fenced block tagged `console`, each line starting with `$ ` is a command and the lines
//! up to the next `$ ` line (or the end of the block) are its expected stdout, exactly:
//!
//! ````text
//! ```console
//! $ sgscope table 'subtraction {1, 2}' --to 2 --format csv
//! n,sg
//! 0,0
//! 1,1
//! 2,2
//! ```
//! ````
//!
//! * Commands run from the repository root. Only two are allowed: `sgscope ...` (the binary
//!   under test) and `cat FILE...` (prints the files). Any other command fails the test.
//! * Arguments are split shell-style: whitespace separates, `'...'` and `"..."` quote (no
//!   escapes inside). There is no shell: unquoted `| ; & < > * ? $ \` `` ` `` and backslashes are
//!   rejected, so a document never shows a pipe, glob or redirect that the test did not run.
//! * A command may end with ` 2>&1`: the output compared is then stdout followed by stderr.
//!   Without it, stderr is ignored. Progress lines (`progress: …`, printed 10 s into a run when
//!   stderr is no terminal) depend on the machine's load and are dropped from that stderr.
//! * Exit status: the command must succeed, except when it ends with ` 2>&1` and its expected
//!   output starts with `error:`; it must then fail (an error example).
//! * Comparison ignores trailing whitespace on each line and trailing blank lines. A mismatch
//!   shows the document and line, the command and a line diff (`-` expected, `+` actual).
//! * `<number>` in an expected line stands for one decimal number (digits, an optional
//!   fraction and exponent), for what differs from run to run: timings such as
//!   `time:       <number> s, <number> values/s`. The rest of the line is compared exactly.
//!
//! In `sh` blocks (shown, not run), each line starting with `sgscope ` must name an existing
//! subcommand.

use std::fmt::Write as _;
use std::process::Command;

use clap::CommandFactory;

use crate::support::{assert_has, root};

/// One `$ ` command of a `console` block and its expected output.
#[derive(Debug, PartialEq)]
struct Example {
    /// 1-based line of the `$ ` line in the document.
    line: usize,
    /// The command, without `$ ` and without ` 2>&1`.
    command: String,
    /// Whether the command ended with ` 2>&1` (compare stdout then stderr).
    merge_stderr: bool,
    /// The expected output, one entry per line.
    expected: Vec<String>,
}

/// A fenced block's info string, if `line` opens or closes a fence.
fn fence(line: &str) -> Option<&str> {
    line.trim_start().strip_prefix("```").map(str::trim)
}

/// The fenced blocks tagged `tag`, as (1-based line of the first content line, lines).
fn blocks<'a>(doc: &'a str, tag: &str) -> Vec<(usize, Vec<&'a str>)> {
    let mut out = Vec::new();
    let mut lines = doc.lines().enumerate();
    while let Some((_, line)) = lines.next() {
        let Some(info) = fence(line) else { continue };
        let wanted = info.split_whitespace().next() == Some(tag);
        let mut body = Vec::new();
        let mut first = None;
        for (i, l) in lines.by_ref() {
            if fence(l).is_some() {
                break;
            }
            first.get_or_insert(i + 1);
            body.push(l);
        }
        if wanted {
            out.push((first.unwrap_or(0), body));
        }
    }
    out
}

/// The examples of every `console` block of `doc`; output lines before a block's first `$ `
/// line are an error.
fn examples(doc: &str) -> Result<Vec<Example>, String> {
    let mut out = Vec::new();
    for (start, body) in blocks(doc, "console") {
        let mut current: Option<Example> = None;
        for (k, line) in body.iter().enumerate() {
            if let Some(cmd) = line.strip_prefix("$ ") {
                out.extend(current.take());
                let cmd = cmd.trim();
                let (command, merge_stderr) = match cmd.strip_suffix("2>&1") {
                    Some(c) if c.ends_with(' ') => (c.trim_end(), true),
                    _ => (cmd, false),
                };
                current = Some(Example {
                    line: start + k,
                    command: command.to_string(),
                    merge_stderr,
                    expected: Vec::new(),
                });
            } else if let Some(ex) = current.as_mut() {
                ex.expected.push(line.to_string());
            } else if !line.trim().is_empty() {
                return Err(format!(
                    "line {}: output before any `$ ` command in a console block: {line:?}",
                    start + k
                ));
            }
        }
        out.extend(current);
    }
    Ok(out)
}

/// Splits a command line shell-style: whitespace separates words, `'...'` and `"..."` quote
/// (no escapes). Unquoted shell metacharacters and backslashes are errors.
fn split_args(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some(q) if q == c => break,
                        Some(q) => w.push(q),
                        None => return Err(format!("unterminated {c} quote in `{line}`")),
                    }
                }
            }
            c if c.is_whitespace() => words.extend(word.take()),
            '|' | ';' | '&' | '<' | '>' | '*' | '?' | '$' | '`' | '\\' => {
                return Err(format!(
                    "unquoted `{c}` in `{line}`: the documents' examples run without a shell"
                ));
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// The lines of `text` as compared: trailing whitespace trimmed, trailing blank lines dropped.
fn normalize<S: AsRef<str>>(lines: impl IntoIterator<Item = S>) -> Vec<String> {
    let mut out: Vec<String> = lines
        .into_iter()
        .map(|l| l.as_ref().trim_end().to_string())
        .collect();
    while out.last().is_some_and(String::is_empty) {
        out.pop();
    }
    out
}

/// Stands for one number in an expected line (see the module docs).
const NUMBER: &str = "<number>";

/// True when `expected` contains [`NUMBER`] and `actual` is `expected` with a decimal number
/// in place of each.
fn matches_placeholders(expected: &str, actual: &str) -> bool {
    let mut parts = expected.split(NUMBER);
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    let mut any = false;
    for literal in parts {
        any = true;
        let Some(after) = skip_number(rest) else {
            return false;
        };
        let Some(after) = after.strip_prefix(literal) else {
            return false;
        };
        rest = after;
    }
    any && rest.is_empty()
}

/// `text` after the decimal number it starts with (`12`, `0.25`, `1.5e-7`), if it starts with one.
fn skip_number(text: &str) -> Option<&str> {
    let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let whole = digits(text);
    if whole == 0 {
        return None;
    }
    let mut rest = &text[whole..];
    if let Some(fraction) = rest.strip_prefix('.').filter(|f| digits(f) > 0) {
        rest = &fraction[digits(fraction)..];
    }
    if let Some(exponent) = rest.strip_prefix(['e', 'E']) {
        let exponent = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
        if digits(exponent) > 0 {
            rest = &exponent[digits(exponent)..];
        }
    }
    Some(rest)
}

/// A line diff (longest common subsequence): ` ` common, `-` expected only, `+` actual only.
fn diff(expected: &[String], actual: &[String]) -> String {
    let (n, m) = (expected.len(), actual.len());
    // lcs[i][j]: length of the LCS of expected[i..] and actual[j..].
    let mut lcs = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if expected[i] == actual[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut out = String::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && expected[i] == actual[j] {
            let _ = writeln!(out, "  {}", expected[i]);
            (i, j) = (i + 1, j + 1);
        } else if j == m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1]) {
            let _ = writeln!(out, "- {}", expected[i]);
            i += 1;
        } else {
            let _ = writeln!(out, "+ {}", actual[j]);
            j += 1;
        }
    }
    out
}

/// Runs `ex` (of the document `name`) and compares its output; the error is a readable report.
fn check(name: &str, ex: &Example) -> Result<(), String> {
    let redirect = if ex.merge_stderr { " 2>&1" } else { "" };
    let at = format!("{name} line {}: `$ {}{redirect}`", ex.line, ex.command);
    let args = split_args(&ex.command).map_err(|e| format!("{at}: {e}"))?;
    let expected = normalize(&ex.expected);
    let expect_error = ex.merge_stderr && expected.first().is_some_and(|l| l.starts_with("error:"));
    let (success, stdout, stderr) = match args.first().map(String::as_str) {
        Some("sgscope") => {
            let out = Command::new(env!("CARGO_BIN_EXE_sgscope"))
                .args(&args[1..])
                .current_dir(root())
                .output()
                .map_err(|e| format!("{at}: cannot run sgscope: {e}"))?;
            (
                out.status.success(),
                String::from_utf8_lossy(&out.stdout).into_owned(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            )
        }
        Some("cat") if args.len() > 1 => {
            let mut text = String::new();
            for file in &args[1..] {
                let content = std::fs::read_to_string(root().join(file))
                    .map_err(|e| format!("{at}: cannot read {file}: {e}"))?;
                text.push_str(&content);
            }
            (true, text, String::new())
        }
        Some(other) => {
            return Err(format!(
                "{at}: unsupported command `{other}` (only `sgscope ...` and `cat FILE...` are run)"
            ))
        }
        None => return Err(format!("{at}: empty command")),
    };
    let mut output = stdout;
    if ex.merge_stderr {
        output.push_str(&without_progress(&stderr));
    }
    let mut actual = normalize(output.lines());
    // A line that matches its placeholders is taken as equal to the expected one.
    for (actual, expected) in actual.iter_mut().zip(&expected) {
        if matches_placeholders(expected, actual) {
            actual.clone_from(expected);
        }
    }
    let mut problems = Vec::new();
    if expect_error && success {
        problems.push("expected failure (an `error:` example), but it succeeded".to_string());
    } else if !expect_error && !success {
        problems.push(format!("it failed; stderr:\n{stderr}"));
    }
    if actual != expected {
        problems.push(format!(
            "output differs (- expected, + actual):\n{}",
            diff(&expected, &actual)
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{at}\n{}", problems.join("\n")))
    }
}

/// `stderr` without its progress lines, which come or not with the machine's load.
fn without_progress(stderr: &str) -> String {
    stderr
        .split_inclusive('\n')
        .filter(|line| !line.starts_with("progress: "))
        .collect()
}

/// Runs every console example of `doc` (named `name` in reports); fails if there is none or any
/// fails, listing them all.
fn check_doc(name: &str, doc: &str) -> Result<usize, String> {
    let examples = examples(doc).map_err(|e| format!("{name}: {e}"))?;
    if examples.is_empty() {
        return Err(format!("{name}: no ```console block with a `$ ` command"));
    }
    let failures: Vec<String> = examples
        .iter()
        .filter_map(|e| check(name, e).err())
        .collect();
    if failures.is_empty() {
        Ok(examples.len())
    } else {
        Err(failures.join("\n\n"))
    }
}

/// Lines of `sh` blocks of `doc` (named `name`) starting with `sgscope ` whose subcommand does
/// not exist.
fn unknown_subcommands(name: &str, doc: &str) -> Vec<String> {
    let cli = sgscope::cli::Cli::command();
    let known: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
    let mut bad = Vec::new();
    for (start, body) in blocks(doc, "sh") {
        for (k, line) in body.iter().enumerate() {
            let line = line.trim_start();
            let line = line.strip_prefix("$ ").unwrap_or(line);
            let Some(rest) = line.strip_prefix("sgscope ") else {
                continue;
            };
            let sub = rest.split_whitespace().next().unwrap_or("");
            if !known.contains(&sub) {
                bad.push(format!(
                    "{name} line {}: `{line}`: `{sub}` is not a subcommand ({})",
                    start + k,
                    known.join(", ")
                ));
            }
        }
    }
    bad
}

/// The documents whose examples are checked, as (path from the root, text): README.md, which
/// must exist, then every `.md` file under `docs/`, sorted.
fn documents() -> Vec<(String, String)> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let entries = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{} must be readable: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a readable entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    walk(&root().join("docs"), &mut paths);
    paths.sort();
    paths.insert(0, root().join("README.md"));
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{} must be readable: {e}", path.display()));
            (crate::support::rel(&path), text)
        })
        .collect()
}

#[test]
fn readme_console_examples_match_the_binary() {
    let mut failures = Vec::new();
    for (name, doc) in documents() {
        // README.md needs examples; a page under docs/ may have none.
        if name != "README.md" && examples(&doc).is_ok_and(|e| e.is_empty()) {
            continue;
        }
        if let Err(e) = check_doc(&name, &doc) {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "console examples:\n{}",
        failures.join("\n\n")
    );
}

#[test]
fn readme_sh_commands_name_existing_subcommands() {
    let bad: Vec<String> = documents()
        .iter()
        .flat_map(|(name, doc)| unknown_subcommands(name, doc))
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The walk finds the guide's pages and their examples: a guide page moved or renamed out of
/// `docs/` would leave its examples unchecked.
#[test]
fn the_guide_pages_are_checked() {
    let docs = documents();
    assert_eq!(docs[0].0, "README.md");
    let with_examples: Vec<&str> = docs
        .iter()
        .filter(|(_, doc)| examples(doc).is_ok_and(|e| !e.is_empty()))
        .map(|(name, _)| name.as_str())
        .collect();
    for page in [
        "README.md",
        "docs/guide/tutorial.md",
        "docs/guide/commands.md",
        "docs/guide/position-games.md",
        "docs/guide/misere-play.md",
        "docs/guide/loopy-graphs-hackenbush.md",
    ] {
        assert!(with_examples.contains(&page), "{page}: {with_examples:?}");
    }
}

/// A fake README for the harness's own tests.
const FIXTURE: &str = "# Fake

Some text.

```console
$ sgscope table 'subtraction {1, 2}' --to 5 --format csv
n,sg
0,0
1,1
2,2
3,0
4,1
5,2

$ cat rules/bash.sg   
```

```sh
sgscope period rules/kayles.sg
cargo build --release
```
";

#[test]
fn split_args_handles_quotes_and_braces() {
    assert_eq!(
        split_args("sgscope code 'subtraction {1, 3, 4}' --lang cpp").unwrap(),
        ["sgscope", "code", "subtraction {1, 3, 4}", "--lang", "cpp"]
    );
    assert_eq!(
        split_args(r#"  a "b c"  'd "e"' x'y z'"w"  "#).unwrap(),
        ["a", "b c", r#"d "e""#, "xy zw"]
    );
    assert_eq!(split_args("a '' b").unwrap(), ["a", "", "b"]);
    assert_eq!(
        split_args("sgscope check 'rules/*.sg'").unwrap(),
        ["sgscope", "check", "rules/*.sg"]
    );
    assert!(split_args("a 'b").is_err());
    assert!(split_args("sgscope check rules/*.sg").is_err());
    assert!(split_args("sgscope table x | head").is_err());
}

#[test]
fn examples_are_parsed_with_their_output() {
    let doc = "```console\n$ sgscope a\nx\n\n$ sgscope b 2>&1\nerror: y\n```\n";
    assert_eq!(
        examples(doc).unwrap(),
        [
            Example {
                line: 2,
                command: "sgscope a".into(),
                merge_stderr: false,
                expected: vec!["x".into(), "".into()],
            },
            Example {
                line: 5,
                command: "sgscope b".into(),
                merge_stderr: true,
                expected: vec!["error: y".into()],
            },
        ]
    );
    assert!(examples("```console\norphan\n$ sgscope a\n```\n").is_err());
    assert!(examples("```sh\nsgscope a\n```\n").unwrap().is_empty());
}

#[test]
fn fixture_passes() {
    let bash = std::fs::read_to_string(root().join("rules/bash.sg")).unwrap();
    let doc = FIXTURE.replace(
        "$ cat rules/bash.sg   \n",
        &format!("$ cat rules/bash.sg\n{bash}"),
    );
    assert_eq!(check_doc("README.md", &doc), Ok(2));
    assert!(unknown_subcommands("README.md", &doc).is_empty());
}

#[test]
fn wrong_output_is_reported_with_a_diff() {
    let doc = FIXTURE.replace("4,1\n", "4,7\n");
    let err = check_doc("README.md", &doc).unwrap_err();
    assert_has(
        &err,
        &[
            "README.md line 6: `$ sgscope table",
            "  3,0\n- 4,7\n+ 4,1\n  5,2\n",
        ],
    );
    // `cat rules/bash.sg` with no expected output: the file is not empty.
    assert!(
        err.contains("README.md line 15: `$ cat rules/bash.sg`"),
        "{err}"
    );
}

#[test]
fn placeholders_match_numbers_only() {
    let line = "time:       <number> s, <number> values/s";
    assert!(matches_placeholders(
        line,
        "time:       0.004 s, 250000 values/s"
    ));
    assert!(matches_placeholders(
        "\"seconds\": <number>,",
        "\"seconds\": 1.5e-7,"
    ));
    assert!(!matches_placeholders(
        line,
        "time:       fast s, 250000 values/s"
    ));
    assert!(!matches_placeholders(
        line,
        "time:       0.004 s, 250000 values/s!"
    ));
    assert!(!matches_placeholders(
        line,
        "time: 0.004 s, 250000 values/s"
    ));
    assert!(!matches_placeholders("no placeholder", "no placeholder"));
    // In a document: the placeholder line passes, a changed literal fails.
    let doc = "```console\n$ sgscope period 'octal 0.07'\n";
    let out = Command::new(env!("CARGO_BIN_EXE_sgscope"))
        .args(["period", "octal 0.07"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let time = stdout.lines().last().unwrap();
    assert!(time.starts_with("time:"), "{stdout}");
    let body = stdout.replace(time, line);
    assert_eq!(check_doc("README.md", &format!("{doc}{body}```\n")), Ok(1));
    let wrong = stdout.replace(time, "time:       <number> s, <number> values per second");
    assert!(check_doc("README.md", &format!("{doc}{wrong}```\n")).is_err());
}

#[test]
fn error_examples_need_2_and_1_and_a_failure() {
    let msg = "error: unknown statement `bogus`";
    let run = |cmd: &str, out: &str| {
        check_doc("README.md", &format!("```console\n$ {cmd}\n{out}\n```\n"))
    };
    let err = run("sgscope table bogus 2>&1", msg).unwrap_err();
    // The expected text is only the first line of the message: the diff shows the rest.
    assert!(err.contains("output differs"), "{err}");
    assert!(!err.contains("it failed"), "{err}");
    // Without 2>&1 the failure itself is reported.
    let err = run("sgscope table bogus", "").unwrap_err();
    assert!(
        err.contains("it failed; stderr:\nerror: unknown statement"),
        "{err}"
    );
    // An `error:` example that succeeds is wrong too.
    let err = run("sgscope check rules/bash.sg 2>&1", "error: nope").unwrap_err();
    assert!(err.contains("expected failure"), "{err}");
}

#[test]
fn full_error_example_passes() {
    let out = Command::new(env!("CARGO_BIN_EXE_sgscope"))
        .args(["table", "bogus"])
        .current_dir(root())
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let doc = format!("```console\n$ sgscope table bogus --to 5 2>&1\n{stderr}```\n");
    assert_eq!(check_doc("README.md", &doc), Ok(1));
}

#[test]
fn other_commands_and_bad_subcommands_fail() {
    let err = check_doc("README.md", "```console\n$ ls rules\nbash.sg\n```\n").unwrap_err();
    assert!(err.contains("unsupported command `ls`"), "{err}");
    assert!(check_doc("README.md", "no blocks here\n").is_err());
    let bad = unknown_subcommands(
        "README.md",
        "```sh\nsgscope tabel x\n$ sgscope plot y\n```\n",
    );
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(bad[0].contains("`tabel` is not a subcommand"), "{}", bad[0]);
}

#[test]
fn progress_lines_are_dropped_from_stderr_only() {
    let stderr = "progress: n = 46 of 100000 (0%), 4.5 values/s, about 6 h 7 min left\n\
                  error: at n = 54\n  help: progress: is kept inside a line\n";
    assert_eq!(
        without_progress(stderr),
        "error: at n = 54\n  help: progress: is kept inside a line\n"
    );
}
