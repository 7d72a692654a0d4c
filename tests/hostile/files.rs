//! Hostile files and streams around the table commands: forged checkpoints, `-o` through a
//! dangling link or onto the checkpoint, unwritable outputs, standard output full or closed,
//! standard error closed while progress is printed, and a graph's JSON table streamed.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::case;
use crate::support::root;

fn fnv64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A checkpoint of `octal 0.6` written by sgscope, split at its values: (the bytes before the
/// width byte, the number of values).
fn genuine_checkpoint(dir: &Path) -> (Vec<u8>, u64) {
    let path = dir.join("genuine.ckpt");
    case(&[
        "table",
        "octal 0.6",
        "--to",
        "100",
        "--checkpoint",
        text(&path),
        "-o",
        "/dev/null",
    ])
    .run()
    .answered();
    let bytes = std::fs::read(&path).unwrap();
    let label = u32::from_le_bytes(bytes[20..24].try_into().unwrap()) as usize;
    let width_at = 24 + label;
    let len = u64::from_le_bytes(bytes[width_at + 1..width_at + 9].try_into().unwrap());
    (bytes[..width_at].to_vec(), len)
}

/// Values forged to 0xffffffff under a valid checksum aborted allocating sets sized by them;
/// a take-and-break code's `G(n)` is at most `2n`, checked as the file is read.
#[test]
fn a_checkpoint_with_forged_values_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (head, len) = genuine_checkpoint(dir.path());
    let mut body = head;
    body.push(4);
    body.extend(len.to_le_bytes());
    for _ in 0..len {
        body.extend(u32::MAX.to_le_bytes());
    }
    body.extend(fnv64(&body).to_le_bytes());
    let forged = dir.path().join("forged.ckpt");
    std::fs::write(&forged, &body).unwrap();
    case(&[
        "table",
        "octal 0.6",
        "--resume",
        text(&forged),
        "--to",
        "3000",
        "-o",
        "/dev/null",
    ])
    .timeout(30)
    .run()
    .refused(
        1,
        &["forged.ckpt", "damaged", "G(0) = 4294967295", "delete it"],
    );
}

/// A (sparse) checkpoint file of 64 GiB whose header claims as many values was hashed whole
/// before its size was looked at (over 60 s); its size is now checked against the memory
/// available first. (On a machine with more than 64 GiB available this case would hash it.)
#[test]
fn a_checkpoint_claiming_64_gib_is_refused_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let (head, _) = genuine_checkpoint(dir.path());
    let values: u64 = 16 << 30;
    let mut start = head;
    start.push(4);
    start.extend(values.to_le_bytes());
    let path = dir.path().join("huge.ckpt");
    let file = std::fs::File::create(&path).unwrap();
    std::io::Write::write_all(&mut &file, &start).unwrap();
    file.set_len(start.len() as u64 + 4 * values + 8).unwrap();
    drop(file);
    case(&[
        "table",
        "octal 0.6",
        "--resume",
        text(&path),
        "-o",
        "/dev/null",
    ])
    .timeout(20)
    .run()
    .refused(1, &["huge.ckpt", "17179869184 values", "memory available"]);
}

/// `-o` through a dangling symbolic link replaced the link with a file; the README says the
/// link stays: the file it names is written.
#[test]
fn output_through_a_dangling_link_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("latest.csv");
    std::os::unix::fs::symlink("run-1.csv", &link).unwrap();
    case(&[
        "table",
        "octal 0.07",
        "--to",
        "10",
        "--format",
        "csv",
        "-o",
        text(&link),
    ])
    .run()
    .answered();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let written = std::fs::read_to_string(dir.path().join("run-1.csv")).unwrap();
    assert!(written.starts_with("n,sg\n0,0\n"), "{written}");
}

/// `-o F --checkpoint F` was accepted and the checkpoint lost under the table.
#[test]
fn output_onto_the_checkpoint_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("run.out");
    case(&[
        "table",
        "octal 0.07",
        "--to",
        "100",
        "-o",
        text(&file),
        "--checkpoint",
        text(&file),
    ])
    .run()
    .refused(2, &["one file", "--checkpoint"]);
    assert!(!file.exists());
}

/// One rule for an `-o` that cannot be written: refused up front with exit 2, `census` as the
/// table commands (it exited 1).
#[test]
fn an_unwritable_output_is_exit_2_everywhere() {
    let out = "/nonexistent-folder/out.csv";
    case(&["table", "octal 0.07", "--to", "10", "-o", out])
        .run()
        .refused(2, &["-o", "does not exist"]);
    case(&["census", "octal", "--digits", "1", "-o", out])
        .run()
        .refused(2, &["-o", "does not exist"]);
    case(&["census", "merge", "/dev/null", "--report", out])
        .run()
        .refused(2, &["--report", "does not exist"]);
}

/// Runs `sgscope args` with standard output and standard error as given, killed after
/// `timeout`: its exit status and standard error (empty when it is not piped).
fn run_with(
    args: &[&str],
    stdout: Stdio,
    stderr: Stdio,
    close_early: bool,
    timeout: Duration,
) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sgscope"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .unwrap();
    if close_early {
        // The reader goes away before anything is written.
        drop(child.stdout.take());
    }
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            panic!("sgscope {args:?} ran past {timeout:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    if let Some(mut stream) = child.stderr.take() {
        let _ = stream.read_to_string(&mut err);
    }
    (status.code(), err)
}

/// `--help > /dev/full` exited 0 with the help lost.
#[test]
fn help_into_a_full_device_fails() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let (code, err) = run_with(
        &["--help"],
        Stdio::from(full),
        Stdio::piped(),
        false,
        Duration::from_secs(30),
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("error: cannot write -"), "{err}");
}

/// A graph file's table into a closed pipe exited 1 "Broken pipe"; a reader that went away
/// is a quiet success, as for every other table.
#[test]
fn a_graph_table_into_a_closed_pipe_is_quiet() {
    let dir = tempfile::tempdir().unwrap();
    let chain = dir.path().join("chain.sg");
    let mut rules = String::from("name \"chain\"\n");
    for i in 0..20_000 {
        rules += &format!("edge {i} {}\n", i + 1);
    }
    std::fs::write(&chain, rules).unwrap();
    for format in ["csv", "text", "json"] {
        let (code, err) = run_with(
            &["table", text(&chain), "--format", format],
            Stdio::piped(),
            Stdio::piped(),
            true,
            Duration::from_secs(30),
        );
        assert_eq!(code, Some(0), "--format {format}: {err}");
        assert!(err.is_empty(), "--format {format}: {err}");
    }
}

/// Standard error closed while progress is printed (`2> >(head -c 1)`) panicked (exit 101);
/// it now ends the run quietly, as a closed standard output does. The first progress line
/// comes after 10 s.
#[test]
fn a_closed_standard_error_ends_the_run_quietly() {
    assert_eq!(run_with_stderr_closed(&[]), Some(0));
}

/// With `--checkpoint`, the run first stops at its next chunk and saves its table (ending at
/// once lost the work since the last save, up to two minutes of it).
#[test]
fn a_closed_standard_error_saves_the_checkpoint_first() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("run.ckpt");
    let code = run_with_stderr_closed(&["--checkpoint", text(&checkpoint)]);
    assert_eq!(code, Some(0));
    let saved = std::fs::metadata(&checkpoint).map(|m| m.len()).unwrap_or(0);
    // The first save would come two minutes in; ten seconds of 4!.0 are past 10^5 values (a
    // byte or more each) even on a busy machine.
    assert!(saved > 100_000, "the checkpoint holds {saved} bytes");
}

/// The exit status of `table 'takebreak 4!.0' --to 3000000 -o /dev/null EXTRA…` run with its
/// standard error closed; fails past 60 s.
fn run_with_stderr_closed(extra: &[&str]) -> Option<i32> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sgscope"))
        .args([
            "table",
            "takebreak 4!.0",
            "--to",
            "3000000",
            "-o",
            "/dev/null",
        ])
        .args(extra)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the run went on past 60 s with standard error closed");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    status.code()
}

/// `table --format json` of a 2.5·10^6-node graph aborted at 3.9 GB: the whole JSON tree was
/// built before it was written. Scaled down: 10^6 nodes under 1 GiB of address space (the
/// tree took 1.9 GB; streamed, the run takes 230 MB).
#[test]
fn a_large_graph_json_table_is_streamed() {
    let dir = tempfile::tempdir().unwrap();
    let chain = dir.path().join("chain.sg");
    let mut rules = String::from("name \"chain\"\n");
    for i in 0..1_000_000 {
        rules += &format!("edge {i} {}\n", i + 1);
    }
    std::fs::write(&chain, rules).unwrap();
    let out = dir.path().join("chain.json");
    case(&["table", text(&chain), "--format", "json", "-o", text(&out)])
        .address_space(1 << 30)
        .run()
        .answered();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(json["positions"].as_array().unwrap().len(), 1_000_001);
    assert_eq!(json["counts"]["P"], 500_001);
}
