//! `sgscope code --sweep`: one lookup function `sg(n, k, …)` over the swept instances, compiled
//! and run in the four languages and checked against a brute force written here (the mex of
//! the options of a subtraction game, independent of sgscope's engines).

use std::path::Path;
use std::process::Command;

use crate::support::{need_tool, ok, sgscope};

/// The four languages, by their `--lang` names.
const LANGS: [&str; 4] = ["cpp", "python", "rust", "java"];

/// G(0..len) of the subtraction game with subtraction set `set`: G(n) = mex{G(n − s)}.
fn brute(set: &[u64], len: usize) -> Vec<u64> {
    let mut values: Vec<u64> = Vec::with_capacity(len);
    for n in 0..len as u64 {
        let options: Vec<u64> = set
            .iter()
            .filter(|&&s| s <= n)
            .map(|&s| values[(n - s) as usize])
            .collect();
        values.push((0..).find(|v| !options.contains(v)).unwrap());
    }
    values
}

/// The smallest `p` with `values[n + p] = values[n]` for every `n` in the list: the brute
/// force's own (pure) period.
fn own_period(values: &[u64]) -> usize {
    (1..values.len() / 2)
        .find(|&p| (0..values.len() - p).all(|n| values[n + p] == values[n]))
        .expect("the brute force repeats within its values")
}

/// One call of `sg`: `n`, then the parameters.
struct Calls {
    /// The parameter tuples.
    instances: Vec<Vec<i64>>,
    /// Each instance is called at `n = 0..=n_max`, then at each of `spots`.
    n_max: i64,
    spots: Vec<i64>,
    /// Further calls `(n, params)`, each expected to be refused.
    refused: Vec<(i64, Vec<i64>)>,
}

impl Calls {
    fn arity(&self) -> usize {
        self.instances[0].len()
    }

    fn rows(list: &[Vec<i64>], open: &str, close: &str, suffix: &str) -> String {
        list.iter()
            .map(|row| {
                let items: Vec<String> = row.iter().map(|v| format!("{v}{suffix}")).collect();
                format!("{open}{}{close}", items.join(", "))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn refused_rows(&self) -> Vec<Vec<i64>> {
        self.refused
            .iter()
            .map(|(n, p)| std::iter::once(*n).chain(p.iter().copied()).collect())
            .collect()
    }

    /// A program printing one line per call, the value or `refused`.
    fn harness(&self, lang: &str, snippet: &str) -> String {
        let d = self.arity();
        let args = |array: &str, from: usize| -> String {
            (0..d)
                .map(|i| format!("{array}[{}]", i + from))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let spots = |suffix: &str| -> String {
            self.spots
                .iter()
                .map(|s| format!("{s}{suffix}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let n_max = self.n_max;
        let refused = self.refused_rows();
        match lang {
            "cpp" => format!(
                "{snippet}\n#include <cstdio>\n\
                 template <class F> void show(F f) {{\n    \
                 try {{ std::printf(\"%lld\\n\", (long long) f()); }}\n    \
                 catch (const std::exception&) {{ std::puts(\"refused\"); }}\n}}\n\
                 int main() {{\n    \
                 static const long long P[][{d}] = {{{}}};\n    \
                 static const long long S[] = {{{}}};\n    \
                 static const long long X[][{}] = {{{}}};\n    \
                 for (const auto& p : P) {{\n        \
                 for (long long n = 0; n <= {n_max}; n++) show([&] {{ return sg(n, {}); }});\n        \
                 for (long long s : S) show([&] {{ return sg(s, {}); }});\n    }}\n    \
                 for (const auto& x : X) show([&] {{ return sg(x[0], {}); }});\n}}\n",
                Self::rows(&self.instances, "{", "}", "LL"),
                spots("LL"),
                d + 1,
                Self::rows(&refused, "{", "}", "LL"),
                args("p", 0),
                args("p", 0),
                args("x", 1),
            ),
            "python" => format!(
                "{snippet}\n\nimport sys\n_out = []\n\n\ndef _show(n, *p):\n    try:\n        \
                 _out.append(str(sg(n, *p)))\n    except (IndexError, ValueError):\n        \
                 _out.append('refused')\n\n\n\
                 for p in [{}]:\n    for n in range({}):\n        _show(n, *p)\n    \
                 for s in [{}]:\n        _show(s, *p)\n\
                 for x in [{}]:\n    _show(*x)\n\
                 sys.stdout.write('\\n'.join(_out) + '\\n')\n",
                Self::rows(&self.instances, "(", ",)", ""),
                n_max + 1,
                spots(""),
                Self::rows(&refused, "(", ",)", ""),
            ),
            "rust" => format!(
                "{snippet}\n\
                 fn show(out: &mut String, r: std::thread::Result<i64>) {{\n    \
                 match r {{\n        Ok(v) => out.push_str(&format!(\"{{v}}\\n\")),\n        \
                 Err(_) => out.push_str(\"refused\\n\"),\n    }}\n}}\n\n\
                 fn main() {{\n    std::panic::set_hook(Box::new(|_| {{}}));\n    \
                 let instances: Vec<[i64; {d}]> = vec![{}];\n    \
                 let spots: Vec<i64> = vec![{}];\n    \
                 let extra: Vec<[i64; {}]> = vec![{}];\n    \
                 let mut out = String::new();\n    \
                 for p in &instances {{\n        \
                 for n in 0..={n_max}i64 {{\n            \
                 show(&mut out, std::panic::catch_unwind(|| sg(n, {})));\n        }}\n        \
                 for &s in &spots {{\n            \
                 show(&mut out, std::panic::catch_unwind(|| sg(s, {})));\n        }}\n    }}\n    \
                 for x in &extra {{\n        \
                 show(&mut out, std::panic::catch_unwind(|| sg(x[0], {})));\n    }}\n    \
                 print!(\"{{out}}\");\n}}\n",
                Self::rows(&self.instances, "[", "]", "i64"),
                spots("i64"),
                d + 1,
                Self::rows(&refused, "[", "]", "i64"),
                args("p", 0),
                args("p", 0),
                args("x", 1),
            ),
            "java" => format!(
                "public class Main {{\n    \
                 static void show(StringBuilder out, java.util.function.LongSupplier f) {{\n        \
                 try {{ out.append(f.getAsLong()).append('\\n'); }}\n        \
                 catch (IndexOutOfBoundsException | IllegalArgumentException e) {{ out.append(\"refused\\n\"); }}\n    }}\n\n    \
                 public static void main(String[] args) {{\n        \
                 long[][] instances = {{{}}};\n        \
                 long[] spots = {{{}}};\n        \
                 long[][] extra = {{{}}};\n        \
                 StringBuilder out = new StringBuilder();\n        \
                 for (long[] p : instances) {{\n            \
                 for (long n = 0; n <= {n_max}L; n++) {{ final long m = n; show(out, () -> Sg.sg(m, {})); }}\n            \
                 for (long s : spots) show(out, () -> Sg.sg(s, {}));\n        }}\n        \
                 for (long[] x : extra) show(out, () -> Sg.sg(x[0], {}));\n        \
                 System.out.print(out);\n    }}\n}}\n\n{snippet}",
                Self::rows(&self.instances, "{", "}", "L"),
                spots("L"),
                Self::rows(&refused, "{", "}", "L"),
                args("p", 0),
                args("p", 0),
                args("x", 1),
            ),
            _ => unreachable!("one of LANGS"),
        }
    }

    /// The expected lines, from `value(n, params)`.
    fn expected(&self, value: impl Fn(u64, &[i64]) -> u64) -> Vec<String> {
        let mut lines = Vec::new();
        for p in &self.instances {
            for n in (0..=self.n_max).chain(self.spots.iter().copied()) {
                lines.push(value(n as u64, p).to_string());
            }
        }
        lines.extend(self.refused.iter().map(|_| "refused".to_string()));
        lines
    }
}

/// The tool `lang` needs, or `None` (with the skip said) when it is missing and skipping is
/// asked; a missing tool fails the test otherwise.
fn have(lang: &str) -> bool {
    need_tool(match lang {
        "cpp" => "g++",
        "python" => "python3",
        "rust" => "rustc",
        _ => "java",
    })
}

/// Compiles (where needed) and runs `source`; returns its standard output.
fn compile_and_run(lang: &str, dir: &Path, source: &str) -> String {
    let run = |cmd: &mut Command| {
        let out = cmd.output().expect("the tool runs");
        assert!(
            out.status.success(),
            "{lang}: {cmd:?} failed:\n{}\n--- source:\n{source}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let exe = dir.join(format!("run-{lang}"));
    match lang {
        "cpp" => {
            let file = dir.join("main.cpp");
            std::fs::write(&file, source).unwrap();
            run(Command::new("g++")
                .args(["-std=c++17", "-O2", "-Wall", "-Wextra", "-Werror", "-o"])
                .arg(&exe)
                .arg(&file));
            run(&mut Command::new(&exe))
        }
        "rust" => {
            let file = dir.join("main.rs");
            std::fs::write(&file, source).unwrap();
            run(Command::new("rustc")
                .args(["--edition", "2021", "-D", "warnings", "-O", "-o"])
                .arg(&exe)
                .arg(&file));
            run(&mut Command::new(&exe))
        }
        "python" => {
            let file = dir.join("main.py");
            std::fs::write(&file, source).unwrap();
            run(Command::new("python3").arg(&file))
        }
        _ => {
            let file = dir.join("Main.java");
            std::fs::write(&file, source).unwrap();
            run(Command::new("java").arg(&file))
        }
    }
}

/// `sgscope code GAME --sweep … --lang LANG` for each language, each run on `calls` and
/// compared line by line with `value`.
fn check_languages(args: &[&str], calls: &Calls, value: impl Fn(u64, &[i64]) -> u64) {
    let expected = calls.expected(value);
    let dir = tempfile::tempdir().unwrap();
    for lang in LANGS {
        let snippet = ok(&[args, &["--lang", lang]].concat());
        if !have(lang) {
            continue;
        }
        let printed = compile_and_run(lang, dir.path(), &calls.harness(lang, &snippet));
        let lines: Vec<&str> = printed.lines().collect();
        assert_eq!(lines.len(), expected.len(), "{lang}: one line per call");
        let mut i = 0;
        for p in &calls.instances {
            for n in (0..=calls.n_max).chain(calls.spots.iter().copied()) {
                assert_eq!(lines[i], expected[i], "{lang}: sg({n}, {p:?})");
                i += 1;
            }
        }
        for (n, p) in &calls.refused {
            assert_eq!(
                lines[i], "refused",
                "{lang}: sg({n}, {p:?}) must be refused"
            );
            i += 1;
        }
    }
}

const BIG: i64 = 1_000_000_000_000_000_000;

/// The Bash game, subtraction {1, …, k}: G(n) = n mod (k + 1) (Winning Ways, ch. 4; the
/// classical result). Checked against the brute force for every k ≤ 50 and n ≤ 300, and
/// against n mod (k + 1) up to n = 10^18; k = 0, 51 and −1 are not swept and are refused.
#[test]
fn bash_sweep_is_right_in_every_language() {
    let ks: Vec<i64> = (1..=50).collect();
    let brutes: Vec<Vec<u64>> = ks
        .iter()
        .map(|&k| brute(&(1..=k as u64).collect::<Vec<_>>(), 301))
        .collect();
    for (k, values) in ks.iter().zip(&brutes) {
        // The brute force agrees with the classical result, so both checks below are one.
        assert!(values
            .iter()
            .enumerate()
            .all(|(n, &v)| v == n as u64 % (*k as u64 + 1)));
    }
    let calls = Calls {
        instances: ks.iter().map(|&k| vec![k]).collect(),
        n_max: 300,
        spots: vec![
            BIG,
            BIG - 1,
            BIG + 17,
            999_999_999_999_999_989,
            1 << 62,
            i64::MAX,
        ],
        refused: vec![(5, vec![0]), (5, vec![51]), (5, vec![-1]), (-1, vec![3])],
    };
    check_languages(
        &["code", "rules/bash.sg", "--sweep", "k=1..=50"],
        &calls,
        |n, p| {
            let k = p[0] as u64;
            if n <= 300 {
                brutes[(k - 1) as usize][n as usize]
            } else {
                n % (k + 1)
            }
        },
    );
}

/// Two-element subtraction sets {a, b}: G has no formula across the instances, so each is
/// looked up in its table. Checked against the brute force for every (a, b) and n ≤ 500, and
/// at n = 10^12 by the brute force's own period, which is 2a when b is an odd multiple of a,
/// else a + b (Benesh, Ernst, Sieben, "The periodicity of nim-sequences in two-element
/// subtraction games", INTEGERS 20 (2020) #G5) — checked here too.
#[test]
fn two_element_subtraction_sweep_is_right_in_every_language() {
    let mut instances = Vec::new();
    let mut brutes = std::collections::HashMap::new();
    for a in 1..=6i64 {
        for b in a + 1..=9 {
            let values = brute(&[a as u64, b as u64], 2000);
            let p = own_period(&values);
            let cited = if b % (2 * a) == a { 2 * a } else { a + b } as usize;
            assert!(
                (0..values.len() - cited).all(|n| values[n] == values[n + cited]),
                "{{{a}, {b}}} repeats with the cited period {cited}"
            );
            brutes.insert((a, b), (values, p));
            instances.push(vec![a, b]);
        }
    }
    let calls = Calls {
        instances,
        n_max: 500,
        spots: vec![1_000_000_000_000, 1_000_000_000_007],
        refused: vec![
            (3, vec![1, 1]),
            (3, vec![2, 10]),
            (3, vec![7, 8]),
            (3, vec![0, 2]),
        ],
    };
    let rules = "param a = 1\nparam b = 2\nsubtraction {a, b}";
    check_languages(
        &["code", rules, "--sweep", "a=1..=6", "--sweep", "b=a+1..=9"],
        &calls,
        |n, p| {
            let (values, period) = &brutes[&(p[0], p[1])];
            values[(n % *period as u64) as usize]
        },
    );
}

/// The header is the contract: what is observed, what is proved, what is refused.
#[test]
fn bash_sweep_header_says_what_is_proved() {
    let snippet = ok(&[
        "code",
        "rules/bash.sg",
        "--sweep",
        "k=1..=50",
        "--lang",
        "cpp",
    ]);
    let header: Vec<&str> = snippet
        .lines()
        .take_while(|line| line.starts_with("//"))
        .collect();
    let expected = "\
// Sprague-Grundy values G(n) of Bash game, swept over k=1..=50 (50 instances).
// G(n) = n mod (k + 1) on all 50 instances.
// Observed on the swept instances, checked on every value computed (at least G(0..=3) on each);
// NOT proved for other parameter values.
// Proved for every n on each instance it covers: each one's period is proved by the
// periodicity theorem and the check covers a common period of it and the formula.
// sg refuses parameters outside the swept instances (k=1..=50): nothing is extrapolated to them.
// Generated by sgscope.";
    crate::support::assert_render(&header.join("\n"), expected);
    assert!(snippet.contains("inline std::int64_t sg(std::int64_t n, std::int64_t k)"));
    assert!(
        !snippet.contains("SG_TABLE"),
        "no table is needed:\n{snippet}"
    );
}

/// Refusals before work: a swept name also set, an unknown parameter, a bad range, a flag
/// that makes no sense with a sweep.
#[test]
fn code_sweep_refusals() {
    let err = |args: &[&str]| {
        let out = sgscope(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let base = ["code", "rules/bash.sg", "--lang", "cpp"];
    let both = err(&[&base[..], &["--set", "k=3", "--sweep", "k=1..=5"]].concat());
    assert!(
        both.contains("`k` is both set (--set) and swept (--sweep)"),
        "{both}"
    );
    let unknown = err(&[&base[..], &["--sweep", "q=1..=5"]].concat());
    assert!(
        unknown.contains("`q` is not a parameter of Bash game"),
        "{unknown}"
    );
    assert!(
        unknown.contains("help: its parameters are `k`"),
        "{unknown}"
    );
    let bad = err(&[&base[..], &["--sweep", "k=1..=x!"]].concat());
    assert!(bad.contains("is not a bound"), "{bad}");
    let later = err(&[&base[..], &["--sweep", "k=j..=5"]].concat());
    assert!(later.contains("give --sweep j=… first"), "{later}");
    let out = sgscope(&[&base[..], &["--sweep", "k=1..=5", "--to", "10"]].concat());
    assert_eq!(out.status.code(), Some(2), "--to conflicts with --sweep");
}

/// A parameter set with `--set` keeps its value in every instance of the sweep of another:
/// {1, 5} has G(n) = n mod 2 (5 is an odd multiple of 1), where the default {1, 2} has
/// n mod 3, and {2, 5} has period a + b = 7.
#[test]
fn code_sweep_keeps_the_other_parameters_set() {
    let rules = "param a = 1\nparam b = 2\nsubtraction {a, b}";
    let args = [
        "code", rules, "--set", "b=5", "--sweep", "a=1..=3", "--lang", "python",
    ];
    let snippet = ok(&args);
    crate::support::assert_has(
        &snippet,
        &[
            // One instance with a closed form is no formula of the family: every instance is
            // tabled.
            "No formula of G(n) in the parameters covers these 3 instances",
            "a=2 (period 7 from n = 0)",
            "def sg(n: int, a: int) -> int:",
        ],
    );
}
