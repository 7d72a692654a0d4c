//! Hostile contestants for `judge`, and hostile lines for `play`: children left behind, a judge
//! killed mid-game, programs that never read, never end a line, flood their output, or send NUL
//! bytes and bytes that are not UTF-8; and games `play` cannot play.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::case;
use crate::support::root;

/// A contestant script that forks `sleep 300`, records its own pid and the sleep's in `file`
/// (written whole, then renamed), and then waits without answering.
fn forking_contestant(dir: &Path) -> String {
    let script = dir.join("forks.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nsleep 300 &\necho \"$$ $!\" > \"$1.tmp\"\nmv \"$1.tmp\" \"$1\"\nread p\nread s\nexec sleep 300\n",
    )
    .unwrap();
    script.display().to_string()
}

/// Starts `sgscope judge rules/nim.sg 5 --time-limit LIMIT -- sh SCRIPT PIDS` in a process group
/// of its own (so that the test can clean up whatever a failure leaves).
fn start_judge(script: &str, pids: &Path, limit: &str) -> Child {
    use std::os::unix::process::CommandExt;
    Command::new(env!("CARGO_BIN_EXE_sgscope"))
        .args(["judge", "rules/nim.sg", "5", "--time-limit", limit, "--"])
        .args(["sh", script, &pids.display().to_string()])
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("the sgscope binary runs")
}

/// The pids the contestant recorded, once it has.
fn recorded(pids: &Path) -> Vec<u32> {
    let start = Instant::now();
    loop {
        if let Ok(text) = std::fs::read_to_string(pids) {
            return text
                .split_whitespace()
                .map(|p| p.parse().unwrap())
                .collect();
        }
        assert!(start.elapsed() < Duration::from_secs(20), "no pid file");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether `pid` is a live process (a zombie waiting for a reaper is dead).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat.rsplit_once(')').map(|(_, rest)| rest.trim_start());
        !matches!(state.and_then(|s| s.chars().next()), Some('Z' | 'X'))
    })
}

/// Waits up to two seconds for every pid to die; returns those still alive (then killed).
fn survivors(pids: &[u32]) -> Vec<u32> {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(2) && pids.iter().any(|&p| alive(p)) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left: Vec<u32> = pids.iter().copied().filter(|&p| alive(p)).collect();
    for p in &left {
        let _ = Command::new("kill")
            .args(["-KILL", &p.to_string()])
            .status();
    }
    left
}

fn wait_for(child: &mut Child, seconds: u64) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > Duration::from_secs(seconds) {
            let _ = child.kill();
            panic!("the judge ran past {seconds} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Judges `script` (which records its pid and its child's, then never answers) with a 1 s
/// limit, and requires both processes gone after the verdict.
fn verdict_leaves_no_process(script: &str, pids: &Path) {
    let mut judge = start_judge(script, pids, "1");
    let status = wait_for(&mut judge, 30);
    assert_eq!(status.code(), Some(1), "no line within 1 s is a loss");
    let recorded = recorded(pids);
    assert_eq!(recorded.len(), 2);
    assert_eq!(
        survivors(&recorded),
        Vec::<u32>::new(),
        "left running after the verdict"
    );
}

/// The verdict kills the contestant's whole process group: the `sleep` it forked too.
#[test]
fn a_contestants_children_end_with_the_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let script = forking_contestant(dir.path());
    verdict_leaves_no_process(&script, &dir.path().join("pids"));
}

/// A child that leaves the group for a session of its own (`setsid`) is in no group anyone
/// kills; it comes back to the judge, a child subreaper, when the contestant dies, and the
/// verdict's sweep kills it too.
#[test]
fn a_child_in_a_session_of_its_own_ends_with_the_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("escapes.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nsetsid sleep 300 &\necho \"$$ $!\" > \"$1.tmp\"\nmv \"$1.tmp\" \"$1\"\nexec sleep 300\n",
    )
    .unwrap();
    verdict_leaves_no_process(&script.display().to_string(), &dir.path().join("pids"));
}

/// A contestant script whose children leave its process group every way: a `sleep` in the
/// group, a `setsid sleep` in a session of its own, and a `sleep` that moved to a group of its
/// own (`setpgid`, by perl). It records its pid and theirs in `file` (written whole, then
/// renamed), and waits without answering.
fn escaping_contestant(dir: &Path) -> String {
    let script = dir.join("escapes-all.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nsleep 1000 &\na=$!\nsetsid sleep 1000 &\nb=$!\nperl -e 'setpgrp(0, 0); exec \"sleep\", \"1000\"' &\nc=$!\n\
         while [ \"$(awk '{print $5}' /proc/$c/stat)\" != \"$c\" ]; do sleep 0.01; done\n\
         echo \"$$ $a $b $c\" > \"$1.tmp\"\nmv \"$1.tmp\" \"$1\"\nread p\nread s\nexec sleep 1000\n",
    )
    .unwrap();
    script.display().to_string()
}

/// A judge ended by SIGTERM, SIGINT or SIGHUP exits with 128 + the signal's number, after
/// killing the contestant and every process it started: those in its group, one in a session
/// of its own (`setsid`) and one in a group of its own (`setpgid`). The kill is sent once the
/// contestant has recorded every pid, not after a fixed sleep.
#[test]
fn a_judge_ended_by_a_signal_ends_every_descendant() {
    for (signal, number) in [("TERM", 15), ("INT", 2), ("HUP", 1)] {
        let dir = tempfile::tempdir().unwrap();
        let script = escaping_contestant(dir.path());
        let pids = dir.path().join("pids");
        let mut judge = start_judge(&script, &pids, "100");
        let recorded = recorded(&pids);
        assert_eq!(recorded.len(), 4);
        Command::new("kill")
            .args([&format!("-{signal}"), &judge.id().to_string()])
            .status()
            .unwrap();
        let status = wait_for(&mut judge, 10);
        let left = survivors(&recorded);
        assert_eq!(status.code(), Some(128 + number), "SIG{signal}: {status:?}");
        assert_eq!(left, Vec::<u32>::new(), "left running after SIG{signal}");
    }
}

/// A judge ended by SIGKILL runs none of its code: its direct child goes with it
/// (PR_SET_PDEATHSIG), though not the child's own children, which nothing in the judge can
/// reach (see `play::contestant`).
#[test]
fn a_judge_ended_by_sigkill_takes_its_contestant_along() {
    let dir = tempfile::tempdir().unwrap();
    let script = forking_contestant(dir.path());
    let pids = dir.path().join("pids");
    let mut judge = start_judge(&script, &pids, "100");
    let recorded = recorded(&pids);
    Command::new("kill")
        .args(["-KILL", &judge.id().to_string()])
        .status()
        .unwrap();
    let status = wait_for(&mut judge, 10);
    assert!(!status.success(), "SIGKILL: {status:?}");
    let left = survivors(&recorded[..1]);
    survivors(&recorded);
    assert_eq!(left, Vec::<u32>::new(), "left running after SIGKILL");
}

/// A position of 40,000 heaps (about 230 KB) to a program that never reads, or one that ignores
/// SIGTERM: the verdict comes at the time limit, not after a write that never ends.
#[test]
fn a_program_that_never_reads_is_judged_at_the_time_limit() {
    let heaps: Vec<String> = (1..=40_000).map(|h| h.to_string()).collect();
    for program in [
        &["sleep", "300"][..],
        &["sh", "-c", "trap '' TERM; sleep 300"],
    ] {
        let mut args = vec!["judge", "rules/nim.sg"];
        args.extend(heaps.iter().map(String::as_str));
        args.extend(["--time-limit", "2", "--"]);
        args.extend(program);
        case(&args)
            .timeout(30)
            .run()
            .refused(1, &["no line within 2 s"]);
    }
}

/// A program that prints forever without a newline: judged once its line passes 1 MiB, under a
/// 1 GiB address space (it was an allocation abort at 4 GB). The NUL bytes it sends are
/// quoted, escaped, 200 at most.
#[test]
fn an_endless_line_is_cut_at_a_mebibyte() {
    let run = case(&["judge", "rules/nim.sg", "5", "--", "cat", "/dev/zero"])
        .timeout(30)
        .address_space(1 << 30)
        .run();
    run.refused(1, &["line 1", "longer than 1 MiB", "\\0\\0\\0", "…"]);
    assert!(run.stderr.len() < 2000, "{} bytes", run.stderr.len());
}

/// A 3 MB line is quoted by its first 200 characters, not whole.
#[test]
fn a_long_line_is_quoted_in_part() {
    let run = case(&[
        "judge",
        "rules/nim.sg",
        "5",
        "--side",
        "first",
        "--",
        "sh",
        "-c",
        "read p; read s; head -c 3000000 /dev/zero | tr '\\0' x; echo; read r",
    ])
    .timeout(30)
    .run();
    run.refused(
        1,
        &["longer than 1 MiB", &format!("`{}…`", "x".repeat(200))],
    );
    assert!(run.stderr.len() < 2000, "{} bytes", run.stderr.len());
}

/// A program flooding its output while the judge works: at most a few lines wait unread, so
/// the judge stays under 512 MiB of address space (it runs in 400 MiB; the unbounded queue took
/// 1.7 GB in 10 moves here, at about 90 MB/s).
#[test]
fn a_flood_of_lines_is_not_queued_without_limit() {
    let heaps: Vec<String> = (1..=1000).map(|h| h.to_string()).collect();
    let mut args = vec!["judge", "rules/nim.sg"];
    args.extend(heaps.iter().map(String::as_str));
    args.extend([
        "--side",
        "first",
        "--max-moves",
        "30",
        "--",
        "sh",
        "-c",
        "read p; read s; yes '1: take 1'",
    ]);
    case(&args)
        .timeout(60)
        .address_space(512 << 20)
        .run()
        .refused(1, &["a draw"]);
}

/// NUL bytes and bytes that are not UTF-8 in a program's line: shown escaped, and the line
/// called what it is.
#[test]
fn nul_and_non_utf8_bytes_are_shown_escaped() {
    let judge = |line: &str| {
        case(&[
            "judge",
            "rules/nim.sg",
            "5",
            "--side",
            "first",
            "--",
            "sh",
            "-c",
            &format!("read p; read s; printf '{line}\\n'; read r"),
        ])
        .timeout(30)
        .run()
    };
    let nul = judge("ta\\0ke 5");
    nul.refused(1, &["`ta\\0ke 5`", "not a legal move"]);
    assert!(!nul.stderr.contains('\0'));
    judge("take \\377").refused(1, &["`take \\xff`", "not UTF-8", "column 6"]);
}

/// `play` reads a line that is not UTF-8 as no move, says which line, and plays on.
#[test]
fn play_names_a_line_that_is_not_utf8_and_plays_on() {
    let run = case(&["play", "rules/nim.sg", "5", "--first", "me"])
        .stdin(b"\xff\xfe\ntake 5\n")
        .timeout(30)
        .run();
    run.answered();
    assert!(
        run.stdout.contains("Line 1, `\\xff\\xfe`, is not UTF-8") && run.stdout.contains("You win"),
        "{}",
        run.stdout
    );
}

/// `play` fed a line without end (2 MiB without a newline, like `< /dev/zero`): an error naming
/// the line once it passes 1 MiB, not a read that never ends.
#[test]
fn play_refuses_a_line_past_a_mebibyte() {
    let endless = vec![b'x'; 2 << 20];
    case(&["play", "rules/nim.sg", "5", "--first", "me"])
        .stdin(&endless)
        .timeout(30)
        .address_space(1 << 30)
        .run()
        .refused(1, &["line 1 of the input is longer than 1 MiB"]);
}

/// A hackenbush file's position is the picture itself: `play`/`judge` take no position for
/// it (and never ask for a `start` line), and misère play of it is refused.
#[test]
fn play_and_judge_of_a_hackenbush_file_take_no_position() {
    for args in [
        &["play", "rules/tree-edge-deletion.sg", "3", "--first", "me"][..],
        &["judge", "rules/tree-edge-deletion.sg", "3", "--", "cat"],
    ] {
        let run = case(args).timeout(30).run();
        run.refused(2, &["a hackenbush file is one position", "help: drop `3`"]);
        assert!(!run.stderr.contains("`start` line"));
    }
    case(&[
        "judge",
        "rules/tree-edge-deletion.sg",
        "--protocol",
        "cards",
        "--",
        "cat",
    ])
    .timeout(30)
    .run()
    .refused(2, &["a hackenbush file is judged with --protocol lines"]);
    case(&[
        "play",
        "rules/tree-edge-deletion.sg",
        "--misere",
        "--first",
        "me",
    ])
    .timeout(30)
    .run()
    .refused(2, &["misère play of a hackenbush file is not supported"]);
}
