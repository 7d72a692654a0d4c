//! `--checkpoint` and `--resume`: an interrupted long run loses no finished work, and a resumed
//! run gives exactly the table of an uninterrupted one.

use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::support::{assert_has, fails, ok, root};

/// Grundy's game has no known period, so its table cannot be filled from one: 2^20
/// positions take a few seconds (the sparse kernel did 150000 in under one).
const GRUNDY: &str = "takebreak 4!.0";
const N: &str = "1048576";

fn path_arg(path: &std::path::Path) -> String {
    path.to_string_lossy().into_owned()
}

#[test]
fn ctrl_c_saves_a_checkpoint_and_the_resumed_table_is_identical() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = path_arg(&dir.path().join("grundy.ckpt"));
    let part = path_arg(&dir.path().join("part.csv"));
    let gate = dir.path().join("gate");
    let child = Command::new(env!("CARGO_BIN_EXE_sgscope"))
        .args(["table", GRUNDY, "--to", N, "--format", "csv"])
        .args(["-o", &part, "--checkpoint", &ckpt])
        .env("SGSCOPE_TEST_GATE", &gate)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the sgscope binary runs");
    // Ctrl-C once the first chunk is computed (the run waits at the gate meanwhile).
    at_the_gate(&gate, || {
        let kill = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
    });
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "stderr:\n{stderr}");
    assert!(stderr.starts_with("interrupted at n = "), "{stderr}");
    assert_has(
        &stderr,
        &[
            &format!("checkpoint saved to {ckpt}; resume with: sgscope table"),
            &format!("--resume {ckpt}"),
        ],
    );
    assert!(
        !std::path::Path::new(&part).exists(),
        "no half-written output"
    );
    let at: usize = stderr["interrupted at n = ".len()..]
        .split(';')
        .next()
        .unwrap()
        .parse()
        .expect("a number");
    assert!(at > 0 && at <= 1 << 20, "{stderr}");

    // The checkpoint holds G(0..at): one value byte per position plus a small header.
    let size = std::fs::metadata(&ckpt).unwrap().len() as usize;
    assert!(size > at && size < at + 100, "{size} bytes for {at} values");

    // Resume, exactly as the message says (same flags plus --resume).
    ok(&[
        "table",
        GRUNDY,
        "--to",
        N,
        "--format",
        "csv",
        "-o",
        &part,
        "--checkpoint",
        &ckpt,
        "--resume",
        &ckpt,
    ]);
    let full = ok(&["table", GRUNDY, "--to", N, "--format", "csv"]);
    assert_eq!(std::fs::read_to_string(&part).unwrap(), full);
}

#[test]
fn the_same_command_starts_and_resumes_and_table_and_period_share_checkpoints() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = path_arg(&dir.path().join("t.ckpt"));
    // First run: the --resume file does not exist yet because it is the --checkpoint file.
    let args = [
        "period",
        "octal 0.007",
        "--max",
        "3000",
        "--checkpoint",
        &ckpt,
        "--resume",
        &ckpt,
    ];
    // The reports are equal but for the `time:` line, which differs per run.
    let untimed = |report: String| {
        let lines = report.lines().filter(|l| !l.starts_with("time:"));
        lines.collect::<Vec<_>>().join("\n")
    };
    let first = untimed(ok(&args));
    assert!(first.contains("reason:"), "{first}");
    assert!(std::path::Path::new(&ckpt).exists());
    assert_eq!(untimed(ok(&args)), first);
    assert_eq!(
        untimed(ok(&["period", "octal 0.007", "--max", "3000"])),
        first
    );
    // The checkpoint of `period` serves `table`, shorter or longer.
    for to in ["100", "5000"] {
        let resumed = ok(&[
            "table",
            "octal 0.007",
            "--to",
            to,
            "--format",
            "csv",
            "--resume",
            &ckpt,
        ]);
        let fresh = ok(&["table", "octal 0.007", "--to", to, "--format", "csv"]);
        assert_eq!(resumed, fresh, "--to {to}");
    }
    // Rules that lower to the same code compute the same table, so they share it too.
    let json = ok(&["period", "octal 0.07", "--json", "--checkpoint", &ckpt]);
    let general = ok(&[
        "period",
        "rules/colouring-game.sg",
        "--json",
        "--resume",
        &ckpt,
    ]);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&general).unwrap()["period"],
        serde_json::from_str::<serde_json::Value>(&json).unwrap()["period"]
    );
}

#[test]
fn a_checkpoint_of_another_game_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = path_arg(&dir.path().join("dawson.ckpt"));
    ok(&["table", "octal 0.07", "--to", "500", "--checkpoint", &ckpt]);
    let err = fails(
        &["table", "octal 0.77", "--to", "500", "--resume", &ckpt],
        1,
    );
    assert!(
        err.contains(&format!(
            "error: checkpoint {ckpt} was made for game `octal 0.07`, not `octal 0.77`"
        )),
        "{err}"
    );
    // General rules: a parameter value is part of the game.
    let rules = dir.path().join("half.sg");
    std::fs::write(
        &rules,
        "name \"half\"\nparam k = 1\nmove m: x in k..=n/2 => n - x\n",
    )
    .unwrap();
    let rules = path_arg(&rules);
    ok(&[
        "table",
        &rules,
        "--set",
        "k=2",
        "--to",
        "300",
        "--checkpoint",
        &ckpt,
    ]);
    let err = fails(&["table", &rules, "--set", "k=3", "--resume", &ckpt], 1);
    assert!(
        err.contains("was made for game `half with k=2`, not `half with k=3`"),
        "{err}"
    );
    let resumed = ok(&[
        "table", &rules, "--set", "k=2", "--to", "600", "--resume", &ckpt,
    ]);
    let fresh = ok(&["table", &rules, "--set", "k=2", "--to", "600"]);
    assert_eq!(resumed, fresh);
}

#[test]
fn a_damaged_or_foreign_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("k.ckpt");
    let arg = path_arg(&ckpt);
    ok(&["table", "octal 0.77", "--to", "2000", "--checkpoint", &arg]);
    let mut bytes = std::fs::read(&ckpt).unwrap();
    bytes[1000] ^= 4;
    std::fs::write(&ckpt, &bytes).unwrap();
    let err = fails(&["table", "octal 0.77", "--resume", &arg], 1);
    assert!(
        err.contains("is damaged (checksum mismatch)") && err.contains("delete it to start over"),
        "{err}"
    );
    std::fs::write(&ckpt, &bytes[..bytes.len() / 2]).unwrap();
    let err = fails(&["period", "octal 0.77", "--resume", &arg], 1);
    assert!(err.contains("is damaged"), "{err}");
    std::fs::write(&ckpt, "n,sg\n0,0\n").unwrap();
    let err = fails(&["table", "octal 0.77", "--resume", &arg], 1);
    assert!(err.contains("is not an sgscope checkpoint"), "{err}");
    let missing = path_arg(&dir.path().join("missing.ckpt"));
    let err = fails(&["table", "octal 0.77", "--resume", &missing], 1);
    assert!(err.contains("cannot read checkpoint"), "{err}");
}

/// Issue 14, item 6: a path that cannot be written is refused before the work, naming the path
/// and what to do, for every subcommand that writes files (it used to fail after the whole run,
/// throwing the result away).
#[test]
fn unwritable_paths_are_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let missing = path_arg(&dir.path().join("nodir/F"));
    let folder = path_arg(dir.path());
    let csv = path_arg(&dir.path().join("t.csv"));
    let cases: [&[&str]; 6] = [
        &[
            "table",
            GRUNDY,
            "--to",
            N,
            "-o",
            &csv,
            "--checkpoint",
            &missing,
        ],
        &["table", GRUNDY, "--to", N, "-o", &missing],
        &["period", GRUNDY, "--max", N, "--checkpoint", &missing],
        &["plot", GRUNDY, "--to", N, "-o", &format!("{missing}.png")],
        &["code", GRUNDY, "--lang", "cpp", "--to", N, "-o", &missing],
        &["table", GRUNDY, "--to", N, "-o", &folder],
    ];
    for args in cases {
        let err = fails(args, 2);
        assert!(err.starts_with("error: cannot write "), "{args:?}: {err}");
        assert!(err.contains("  help: "), "{args:?}: {err}");
        if args.last() == Some(&folder.as_str()) {
            assert!(err.contains("it is a folder, not a file"), "{err}");
        } else {
            assert!(
                err.contains(&missing) && err.contains("nodir does not exist"),
                "{err}"
            );
            assert!(err.contains("create the folder first"), "{err}");
        }
    }
    assert!(!std::path::Path::new(&csv).exists());
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no probe left"
    );
}

/// Issue 14, item 6: a checkpoint that cannot be saved during the run (its folder removed
/// after the start) costs a warning, not the result.
#[test]
fn a_checkpoint_that_cannot_be_saved_still_gives_the_result() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let ckpt = path_arg(&sub.join("grundy.ckpt"));
    let out = path_arg(&dir.path().join("grundy.csv"));
    let gate = dir.path().join("gate");
    let child = Command::new(env!("CARGO_BIN_EXE_sgscope"))
        .args(["table", GRUNDY, "--to", N, "--format", "csv"])
        .args(["-o", &out, "--checkpoint", &ckpt])
        .env("SGSCOPE_TEST_GATE", &gate)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the sgscope binary runs");
    at_the_gate(&gate, || std::fs::remove_dir_all(&sub).unwrap());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "stderr:\n{stderr}");
    assert!(
        stderr.contains("warning: cannot save checkpoint")
            && stderr.contains("the result is written all the same"),
        "{stderr}"
    );
    let full = ok(&["table", GRUNDY, "--to", N, "--format", "csv"]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), full);
}

/// Issue 14, item 10: `kill -9` while `-o` is being written leaves its temporary file behind
/// (nothing can run then); the next write of the same file removes it.
#[test]
fn a_killed_run_leaves_no_temporary_file_after_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("dawson.csv");
    let temporaries = || -> Vec<String> {
        std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with(".dawson.csv.sgscope-tmp."))
            .collect()
    };
    // Dawson's Kayles is filled by its period at once: the run is mostly writing the file.
    let mut caught = false;
    for to in ["3000000", "10000000", "30000000"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sgscope"))
            .args(["table", "octal 0.07", "--to", to, "--format", "csv"])
            .args(["-o", &path_arg(&out)])
            .current_dir(root())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the sgscope binary runs");
        let started = Instant::now();
        while child.try_wait().unwrap().is_none() && started.elapsed() < Duration::from_secs(60) {
            if !temporaries().is_empty() {
                child.kill().unwrap();
                caught = true;
                break;
            }
            sleep(Duration::from_millis(1));
        }
        child.wait().unwrap();
        // Killed just after the rename: try again.
        caught &= !temporaries().is_empty();
        if caught {
            break;
        }
    }
    assert!(caught, "no run was caught writing its output");
    assert_eq!(temporaries().len(), 1, "kill -9 leaves the temporary file");
    ok(&[
        "table",
        "octal 0.07",
        "--to",
        "100",
        "--format",
        "csv",
        "-o",
        &path_arg(&out),
    ]);
    assert_eq!(temporaries(), Vec::<String>::new());
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .starts_with("n,sg\n0,0\n"));
}

/// Waits until a run started with `SGSCOPE_TEST_GATE=gate` has finished its first chunk and
/// waits at the gate, does `deed`, then lets the run go on.
fn at_the_gate(gate: &std::path::Path, deed: impl FnOnce()) {
    let started = Instant::now();
    while !gate.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the run never reached its first chunk"
        );
        sleep(Duration::from_millis(5));
    }
    deed();
    std::fs::remove_file(gate).unwrap();
}
