//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root (where `rules/` and `README.md` are).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `sgscope` with `args` from the repository root.
pub fn sgscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sgscope"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the sgscope binary runs")
}

/// Runs `sgscope` and requires success; returns stdout.
pub fn ok(args: &[&str]) -> String {
    let out = sgscope(args);
    assert!(
        out.status.success(),
        "sgscope {args:?} failed with {:?}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// Runs `sgscope` and requires failure with exit code `code`; returns stderr.
pub fn fails(args: &[&str], code: i32) -> String {
    let out = sgscope(args);
    assert_eq!(
        out.status.code(),
        Some(code),
        "sgscope {args:?}: expected exit {code}\nstdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stderr).expect("utf-8 output")
}

/// The values of a `table --format csv` output.
pub fn csv_values(csv: &str) -> Vec<u32> {
    csv.lines()
        .skip(1)
        .map(|l| {
            l.split(',')
                .nth(1)
                .expect("two columns")
                .parse()
                .expect("a value")
        })
        .collect()
}

/// Every `rules/*.sg` file, sorted.
pub fn rules_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("rules"))
        .expect("rules/ exists")
        .map(|e| e.expect("readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sg"))
        .collect();
    files.sort();
    files
}

/// `path` relative to the root, as a string argument.
pub fn rel(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

/// Asserts that `text` contains every one of `parts`, showing the whole text when one is missing.
#[track_caller]
pub fn assert_has(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "missing {part:?} in:\n{text}");
    }
}

/// A random octal code of 1 to `max_digits` digits (`0.d1d2…`), for property tests.
pub fn octal_code(max_digits: usize) -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::strategy::Strategy;
    proptest::collection::vec(0u8..8, 1..max_digits + 1).prop_map(|digits| {
        format!(
            "octal 0.{}",
            digits.iter().map(u8::to_string).collect::<String>()
        )
    })
}

/// A random heap rule: take `x` from a range, possibly splitting the rest in two.
pub fn heap_rules() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::any;
    use proptest::strategy::Strategy;
    (1i64..4, 0i64..3, any::<bool>()).prop_map(|(lo, extra, split)| {
        if split {
            format!(
                "move x in {lo}..={} , a in 0..=(n - x) / 2 if x <= n => a, n - x - a",
                lo + extra
            )
        } else {
            format!("move x in {lo}..={} if x <= n => n - x", lo + extra)
        }
    })
}

/// The error `check` prints for a rules file with this text, its path shown as `bad.sg`.
pub fn error_for(rules: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.sg");
    std::fs::write(&path, rules).unwrap();
    let err = fails(&["check", path.to_str().unwrap()], 1);
    err.replace(path.to_str().unwrap(), "bad.sg")
}

/// Whether the tests that need `tool` (a compiler or interpreter that runs generated code) can
/// run. A missing tool fails them (`.ci/run` installs g++, a JDK and python3): a skipped
/// language would pass silently. `SGSCOPE_SKIP_MISSING_TOOLS=1` asks to skip them instead, and
/// each skip is said on stderr.
pub fn need_tool(tool: &str) -> bool {
    let found = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("SGSCOPE_SKIP_MISSING_TOOLS").is_some_and(|v| v == "1"),
            "`{tool}` is needed to run the generated code (.ci/run installs it; \
             SGSCOPE_SKIP_MISSING_TOOLS=1 skips these checks)"
        );
        eprintln!("{tool} not found: skipped (SGSCOPE_SKIP_MISSING_TOOLS=1)");
    }
    found
}

/// Asserts that `actual` (a whole stderr) is exactly `expected`. A leading newline of
/// `expected` is dropped, so a render can be written as a raw string starting on its own line.
/// A mismatch shows both renders whole and the first line that differs.
#[track_caller]
pub fn assert_render(actual: &str, expected: &str) {
    if let Some(report) = render_mismatch(actual, expected) {
        panic!("{report}");
    }
}

/// What [`assert_render`] reports when `actual` is not `expected`; `None` when they are equal.
pub fn render_mismatch(actual: &str, expected: &str) -> Option<String> {
    let expected = expected.strip_prefix('\n').unwrap_or(expected);
    if actual == expected {
        return None;
    }
    let first = actual
        .split('\n')
        .zip(expected.split('\n'))
        .position(|(a, e)| a != e)
        .map_or_else(
            || "one is a prefix of the other".to_string(),
            |i| format!("first at line {}", i + 1),
        );
    Some(format!(
        "the render differs ({first})\n--- expected:\n{expected}\n--- actual:\n{actual}\n---"
    ))
}
