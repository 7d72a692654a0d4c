//! `sgscope code` output compiles, reproduces the table and extrapolates to n = 10^18.

use std::path::Path;
use std::process::Command;

use crate::support::{csv_values, need_tool, ok};

const BIG: u64 = 1_000_000_000_000_000_000;

fn table(game: &str, to: u64) -> Vec<u64> {
    let csv = ok(&["table", game, "--to", &to.to_string(), "--format", "csv"]);
    csv_values(&csv).into_iter().map(u64::from).collect()
}

/// G(n) for a pure period (n0, p) from the table.
fn periodic(values: &[u64], n0: u64, p: u64, n: u64) -> u64 {
    if n < values.len() as u64 {
        values[n as usize]
    } else {
        values[(n0 + (n - n0) % p) as usize]
    }
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().expect("tool runs");
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Writes the snippet for `game` in `lang` plus a harness printing sg(0..=to) and sg(queries).
fn snippet(dir: &Path, game: &str, lang: &str, file: &str) -> String {
    let path = dir.join(file);
    ok(&["code", game, "--lang", lang, "-o", path.to_str().unwrap()]);
    std::fs::read_to_string(&path).unwrap()
}

fn queries() -> Vec<u64> {
    vec![
        BIG,
        BIG - 1,
        BIG + 17,
        999_999_999_999_999_989,
        u64::pow(2, 62),
    ]
}

fn check_output(out: &str, values: &[u64], expected_big: &[u64]) {
    let got: Vec<u64> = out.split_whitespace().map(|v| v.parse().unwrap()).collect();
    assert_eq!(
        &got[..values.len()],
        values,
        "the snippet reproduces the table"
    );
    assert_eq!(
        &got[values.len()..],
        expected_big,
        "the snippet extrapolates the period"
    );
}

#[test]
fn python_cpp_and_rust_snippets_for_dawsons_kayles() {
    let dir = tempfile::tempdir().unwrap();
    let values = table("rules/dawsons-kayles.sg", 3000);
    let big: Vec<u64> = queries()
        .iter()
        .map(|&n| periodic(&values, 53, 34, n))
        .collect();
    let qs: Vec<String> = queries().iter().map(u64::to_string).collect();

    if need_tool("python3") {
        let code = snippet(dir.path(), "rules/dawsons-kayles.sg", "python", "sg.py");
        let harness = format!(
            "{code}\nfor n in range(3001): print(sg(n))\nfor n in [{}]: print(sg(n))\n",
            qs.join(", ")
        );
        std::fs::write(dir.path().join("run.py"), harness).unwrap();
        check_output(
            &run(Command::new("python3").arg(dir.path().join("run.py"))),
            &values,
            &big,
        );
    }
    if need_tool("g++") {
        let code = snippet(dir.path(), "rules/dawsons-kayles.sg", "cpp", "sg.hpp");
        let harness = format!(
            "{code}\n#include <cstdio>\nint main() {{ for (long long n = 0; n <= 3000; n++) std::printf(\"%lld\\n\", (long long)sg(n));\n for (unsigned long long n : {{{}ULL}}) std::printf(\"%lld\\n\", (long long)sg((long long)n)); }}\n",
            qs.join("ULL, ")
        );
        std::fs::write(dir.path().join("run.cpp"), harness).unwrap();
        let exe = dir.path().join("run-cpp");
        run(Command::new("g++")
            .args(["-std=c++17", "-O1", "-o"])
            .arg(&exe)
            .arg(dir.path().join("run.cpp")));
        check_output(&run(&mut Command::new(&exe)), &values, &big);
    }
    if need_tool("rustc") {
        let code = snippet(dir.path(), "rules/dawsons-kayles.sg", "rust", "sg.rs");
        let harness = format!(
            "{code}\nfn main() {{ for n in 0..=3000i64 {{ println!(\"{{}}\", sg(n)); }}\n for n in [{}] {{ println!(\"{{}}\", sg(n)); }} }}\n",
            qs.iter().map(|q| format!("{q}i64")).collect::<Vec<_>>().join(", ")
        );
        std::fs::write(dir.path().join("run.rs"), harness).unwrap();
        let exe = dir.path().join("run-rs");
        run(Command::new("rustc")
            .args(["--edition", "2021", "-O", "-o"])
            .arg(&exe)
            .arg(dir.path().join("run.rs")));
        check_output(&run(&mut Command::new(&exe)), &values, &big);
    }
}

/// Nim's saltus is found by the stop rule, not proved by a theorem: by default the snippet is
/// the guarded table, whose header names the observed period; `--extrapolate` extends it.
#[test]
fn python_snippet_with_a_saltus_nim() {
    if !need_tool("python3") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let guarded = snippet(dir.path(), "rules/nim.sg", "python", "guarded.py");
    assert!(
        guarded.contains("a period p = 1 from n0 = 0 (saltus 1) is observed on G(0..="),
        "{guarded}"
    );
    std::fs::write(
        dir.path().join("guarded_run.py"),
        format!("{guarded}\nprint(sg(1000))\nsg(1001)\n"),
    )
    .unwrap();
    let out = Command::new("python3")
        .arg(dir.path().join("guarded_run.py"))
        .output()
        .unwrap();
    assert!(
        !out.status.success(),
        "sg(1001) beyond the guarded table must fail"
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "1000");

    let path = dir.path().join("nim.py");
    let args = ["code", "rules/nim.sg", "--lang", "python", "--extrapolate"];
    ok(&[&args[..], &["-o", path.to_str().unwrap()]].concat());
    let code = std::fs::read_to_string(&path).unwrap();
    assert!(code.contains("Periodicity observed, NOT proved"), "{code}");
    let harness = format!("{code}\nprint(sg(10**18), sg(12345))\n");
    std::fs::write(dir.path().join("run.py"), harness).unwrap();
    let out = run(Command::new("python3").arg(dir.path().join("run.py")));
    assert_eq!(out.trim(), "1000000000000000000 12345");
}

/// HDU 4764 (Stone): the Bash game with k up to 10^9 in the statement; its accepted solutions
/// decide by `(N − 1) mod (k + 1)`, i.e. G(n) = n mod (k + 1) for subtraction {1, …, k}
/// (Winning Ways ch. 4). The lookup `code` writes must give that at every n up to 10^18, for
/// small k and for k past the sizes at which a stop rule once offered "period 1, saltus 1"
/// (any k ≥ 2047), since the period k + 1 is proved by the periodicity theorem.
#[test]
fn bash_lookups_are_right_for_large_k() {
    if !need_tool("python3") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ks: Vec<u64> = (1..=30).chain([2047, 3000, 100_000]).collect();
    let mut harness = String::new();
    let mut expected = Vec::new();
    let mut queries = queries();
    queries.extend([
        0, 1, 2046, 2047, 2048, 3001, 3002, 6003, 100_000, 100_001, 200_002,
    ]);
    for k in &ks {
        let path = dir.path().join(format!("bash_{k}.py"));
        let game = format!("subtraction 1..={k}");
        let out = crate::support::sgscope(&[
            "code",
            &game,
            "--lang",
            "python",
            "-o",
            path.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{game}: {out:?}");
        assert!(
            out.stderr.is_empty(),
            "{game}: a proved period needs no warning: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let code = std::fs::read_to_string(&path).unwrap();
        assert!(code.contains("Periodicity proved"), "{game}");
        harness.push_str(&format!(
            "exec(open({:?}).read())\nprint(*[sg(n) for n in {:?}])\n",
            path.to_str().unwrap(),
            queries
        ));
        expected.push(
            queries
                .iter()
                .map(|n| (n % (k + 1)).to_string())
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    std::fs::write(dir.path().join("run.py"), harness).unwrap();
    let out = run(Command::new("python3").arg(dir.path().join("run.py")));
    let got: Vec<&str> = out.lines().collect();
    for (i, k) in ks.iter().enumerate() {
        assert_eq!(got[i], expected[i], "k = {k}");
    }
}

#[test]
fn without_a_period_the_snippet_guards_its_table() {
    if !need_tool("python3") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grundy.py");
    ok(&[
        "code",
        "rules/grundys-game.sg",
        "--lang",
        "python",
        "--max",
        "2000",
        "--to",
        "500",
        "-o",
        path.to_str().unwrap(),
    ]);
    let code = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        dir.path().join("run.py"),
        format!("{code}\nprint(sg(500))\nsg(501)\n"),
    )
    .unwrap();
    let out = Command::new("python3")
        .arg(dir.path().join("run.py"))
        .output()
        .unwrap();
    assert!(
        !out.status.success(),
        "sg(501) beyond the table must fail loudly"
    );
    let values = table("rules/grundys-game.sg", 500);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        values[500].to_string()
    );
}

/// The divisor game has no period, but G(n) = ctz(n) for n ≥ 1 (OEIS A007814) on the whole
/// table searched: the snippet extrapolates that formula, saying it is not proved.
#[test]
fn the_divisor_game_gets_its_ctz_formula() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("divisor.py");
    let args = [
        "code",
        "rules/divisor-game.sg",
        "--lang",
        "python",
        "--max",
        "600",
    ];
    let out = crate::support::sgscope(&[&args[..], &["-o", path.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("not proved"));
    let code = std::fs::read_to_string(&path).unwrap();
    assert!(code.contains("Formula observed on G(0..="), "{code}");
    if !need_tool("python3") {
        return;
    }
    let values = table("rules/divisor-game.sg", 600);
    std::fs::write(
        dir.path().join("run.py"),
        format!("{code}\nfor n in range(601): print(sg(n))\nprint(sg(10**18), sg(3 * 2**60))\n"),
    )
    .unwrap();
    let out = run(Command::new("python3").arg(dir.path().join("run.py")));
    let lines: Vec<&str> = out.lines().collect();
    let printed: Vec<u64> = lines[..601].iter().map(|l| l.parse().unwrap()).collect();
    assert_eq!(printed, values);
    assert_eq!(lines[601], "18 60");
}
