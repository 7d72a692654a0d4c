//! `sgscope census`: a small census equals the per-code `period` results; shard processes
//! (N = 1, 2, 5) merge to the output of one run, also after a killed shard is resumed.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{fails, ok, root};

/// The bounds of the test censuses: small, so that each runs in seconds.
const BOUNDS: [&str; 4] = ["--max", "1024", "--sparse-max", "4096"];

/// The rows of a JSON-lines census output, without their timing field.
fn rows(jsonl: &str) -> Vec<Value> {
    jsonl
        .lines()
        .map(|line| {
            let mut row: Value = serde_json::from_str(line).expect("a JSON row");
            row.as_object_mut().unwrap().remove("seconds");
            row
        })
        .collect()
}

fn census_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["census", "octal", "--digits", "2"];
    args.extend(BOUNDS);
    args.extend(extra);
    args
}

#[test]
fn a_two_digit_census_equals_period_code_by_code() {
    let whole = rows(&ok(&census_args(&["--format", "jsonl"])));
    assert_eq!(whole.len(), 128);
    for row in &whole {
        let code = row["code"].as_str().unwrap();
        // A sparse code unsolved at --max goes on to --sparse-max: `period` with the bound
        // the census used.
        let max = if row["values_computed"].as_u64().unwrap() > 1025 {
            "4096"
        } else {
            "1024"
        };
        let period: Value = serde_json::from_str(&ok(&[
            "period",
            &format!("octal {code}"),
            "--max",
            max,
            "--json",
        ]))
        .unwrap();
        for field in [
            "preperiod",
            "period",
            "proved",
            "values_computed",
            "max_value",
            "max_value_at",
        ] {
            assert_eq!(row[field], period[field], "{code}: {field}");
        }
    }
    // Dawson's Kayles, and 0.4 = 0.07 with one more heap (Winning Ways ch. 4):
    // G_0.4(n + 1) = G_0.07(n).
    let find = |code: &str| whole.iter().find(|r| r["code"] == code).unwrap();
    let (dawson, four) = (find("0.07"), find("0.4"));
    assert_eq!(
        (dawson["preperiod"].as_u64(), dawson["period"].as_u64()),
        (Some(53), Some(34))
    );
    assert_eq!(dawson["class"], four["class"]);
    assert_eq!(
        (dawson["offset"].as_u64(), four["offset"].as_u64()),
        (Some(0), Some(1))
    );
    // Kayles, 0.77 (period 12, OEIS A002186), and 4.4, which the lookup table of
    // tczajka/octal-games (GameLookup.md, row 4.x) lists as .77: here with its offset.
    let (kayles, split) = (find("0.77"), find("4.4"));
    assert_eq!(kayles["period"].as_u64(), Some(12));
    assert_eq!(kayles["class"], split["class"]);
    assert_eq!(split["offset"].as_u64(), Some(1));
}

fn run_shards(dir: &Path, count: usize) -> Vec<String> {
    let children: Vec<_> = (1..=count)
        .map(|k| {
            let file = dir.join(format!("s{k}-of-{count}.jsonl"));
            let shard = format!("{k}/{count}");
            let child = Command::new(env!("CARGO_BIN_EXE_sgscope"))
                .args(census_args(&[
                    "--shard",
                    &shard,
                    "--shard-file",
                    file.to_str().unwrap(),
                ]))
                .current_dir(root())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("a shard starts");
            (child, file)
        })
        .collect();
    children
        .into_iter()
        .map(|(child, file)| {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            file.to_str().unwrap().to_string()
        })
        .collect()
}

fn merged(files: &[String]) -> Vec<Value> {
    let mut args = vec!["census", "merge"];
    args.extend(files.iter().map(String::as_str));
    args.extend(["--format", "jsonl"]);
    rows(&ok(&args))
}

#[test]
fn shards_merge_to_the_output_of_one_run() {
    let whole = rows(&ok(&census_args(&["--format", "jsonl"])));
    let markdown = ok(&census_args(&[]));
    let dir = tempfile::tempdir().unwrap();
    for count in [1, 2, 5] {
        let files = run_shards(dir.path(), count);
        assert_eq!(merged(&files), whole, "{count} shards");
        let mut args = vec!["census", "merge"];
        args.extend(files.iter().map(String::as_str));
        assert_eq!(ok(&args), markdown, "{count} shards, Markdown");
    }
    // A shard missing, or given twice, is refused.
    let files = run_shards(dir.path(), 2);
    let error = fails(&["census", "merge", &files[0]], 1);
    assert!(error.contains("shards 2/2 are missing"), "{error}");
    let error = fails(&["census", "merge", &files[0], &files[0]], 1);
    assert!(error.contains("are both shard 1/2"), "{error}");
}

#[test]
fn a_killed_shard_resumes_without_losing_or_repeating_codes() {
    // Bounds at which shard 1/2 takes a few seconds, so that it is killed mid-run.
    let bounds = ["--max", "16384", "--sparse-max", "16384"];
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s1.jsonl");
    let file_text = file.to_str().unwrap();
    let mut shard_args = vec!["census", "octal", "--digits", "2"];
    shard_args.extend(bounds);
    shard_args.extend(["--shard", "1/2", "--shard-file", file_text]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_sgscope"))
        .args(&shard_args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        let lines = std::fs::read_to_string(&file).map_or(0, |t| t.lines().count());
        if lines >= 6 || started.elapsed() > Duration::from_secs(120) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let kept = text.lines().count() - 1;
    assert!(
        kept < 64,
        "the shard finished before it was killed: raise the bounds"
    );
    // A kill in the middle of a write leaves a torn last line.
    std::fs::write(&file, format!("{text}{{\"code\":\"0.7\",\"prep")).unwrap();
    let error = fails(&["census", "merge", file_text], 1);
    assert!(error.contains("cut short"), "{error}");
    let resumed = ok(&shard_args);
    assert!(resumed.contains("shard 1/2: 64 codes done"), "{resumed}");
    let codes: Vec<String> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let json = l.rsplit_once(' ').unwrap().0;
            serde_json::from_str::<Value>(json).unwrap()["code"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let mut unique = codes.clone();
    unique.sort();
    unique.dedup();
    assert_eq!((codes.len(), unique.len()), (64, 64), "each code once");
    let mut second = shard_args.clone();
    let other = dir.path().join("s2.jsonl");
    let last = second.len() - 1;
    second[last - 2] = "2/2";
    second[last] = other.to_str().unwrap();
    ok(&second);
    let mut whole_args = vec!["census", "octal", "--digits", "2"];
    whole_args.extend(bounds);
    whole_args.extend(["--format", "jsonl"]);
    let whole = rows(&ok(&whole_args));
    assert_eq!(
        merged(&[file_text.to_string(), other.to_str().unwrap().to_string()]),
        whole
    );
}

#[test]
fn bad_census_arguments_are_refused_with_help() {
    let error = fails(&["census", "octal", "--digits", "3", "--shard", "3/2"], 2);
    assert!(error.contains("slice 3 of 2 does not exist"), "{error}");
    let error = fails(
        &[
            "census",
            "octal",
            "--digits",
            "2",
            "--max",
            "100",
            "--sparse-max",
            "10",
        ],
        2,
    );
    assert!(
        error.contains("--sparse-max 10 is below --max 100"),
        "{error}"
    );
    let error = fails(&["census", "octal", "--digits", "1", "--max", "0"], 2);
    assert!(
        error.contains("--max 0 is too small for a census"),
        "{error}"
    );
    let error = fails(&["census", "octal", "--digits", "9"], 2);
    assert!(error.contains("9"), "{error}");
    let error = fails(
        &[
            "census", "octal", "--digits", "1", "--shard", "1/2", "-o", "x.csv",
        ],
        2,
    );
    assert!(error.contains("census merge"), "{error}");
}

#[test]
fn first_cousins_are_one_heap_apart() {
    // theory::cousin: G_A(n + 1) = G_B(n) for every code A with d0 ∈ {0, 4} and d1 even.
    // Checked on every such code of at most three digits, to heap 400, against the tables
    // the engine computes for both codes independently.
    use sgscope::census::Family;
    use sgscope::engine::{self, EngineOptions};
    use sgscope::rules::{self, SourceFile};
    use sgscope::theory::cousin::first_cousin;
    let table = |code: &str, to: u64| {
        let game = rules::load(SourceFile::new("<t>", format!("octal {code}")), &[]).unwrap();
        engine::compute(&game, to, &EngineOptions::default())
            .unwrap()
            .to_vec()
    };
    let mut checked = 0;
    for code in (Family::Octal { digits: 3 }).codes() {
        let Some(cousin) = first_cousin(&code) else {
            continue;
        };
        let (a, b) = (table(&code, 401), table(&cousin, 400));
        assert_eq!(&a[1..], &b[..], "{code} and its cousin {cousin}");
        checked += 1;
    }
    // d0 ∈ {0, 4}, d1 ∈ {0, 2, 4, 6}, any d2, d3: 2 · 4 · 64 codes, less 0.0 (no move).
    assert_eq!(checked, 511);
}

#[test]
fn the_census_report_notes_first_cousins() {
    let out = ok(&["census", "octal", "--digits", "1", "--max", "4096"]);
    assert!(out.contains("## First cousins"), "{out}");
    // 0.4's cousin 0.07 is outside a one-digit census; 4.0's cousin 0.7 is inside.
    assert!(out.contains("4.0 (+1, first cousin 0.7)"), "{out}");
    assert!(out.contains("every such pair is in one class"), "{out}");
}
