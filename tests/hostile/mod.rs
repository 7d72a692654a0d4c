//! Hostile input (issue 23): forged files, endless streams, misbehaving contestants and requests
//! far past any budget. Each case runs the real binary under a harness that enforces the bound
//! the issue sets — a wall-clock timeout and an address-space limit — and then asserts a clear
//! answer or a clear error: exit status 0, 1 or 2, never a panic (101), an abort (134) or a kill.
//!
//! The bounds are enforced by the harness, not asserted as timings: a case that runs past its
//! timeout is killed (with its whole process group) and fails with what it printed so far.

mod census;
mod files;
mod graph;
mod judge;
mod misere;

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::root;

/// The address-space limit of every case unless it asks for another: the 8 GiB.
pub const ADDRESS_SPACE: u64 = 8 << 30;

/// What one bounded run produced.
#[derive(Debug)]
pub struct Bounded {
    /// The exit status, `None` when a signal ended it.
    pub code: Option<i32>,
    /// Standard output, lossily decoded.
    pub stdout: String,
    /// Standard error, lossily decoded.
    pub stderr: String,
}

/// One hostile case: `sgscope args`, with `stdin`, killed after `timeout`, under `address_space`.
pub struct Case<'a> {
    args: Vec<String>,
    stdin: Option<&'a [u8]>,
    timeout: Duration,
    address_space: u64,
}

/// A case running `sgscope args` with the default bounds (60 s, 8 GiB).
pub fn case<S: AsRef<str>>(args: &[S]) -> Case<'static> {
    Case {
        args: args.iter().map(|a| a.as_ref().to_owned()).collect(),
        stdin: None,
        timeout: Duration::from_secs(60),
        address_space: ADDRESS_SPACE,
    }
}

impl<'a> Case<'a> {
    /// Feeds `bytes` on standard input (otherwise standard input is empty).
    pub fn stdin(self, bytes: &'a [u8]) -> Case<'a> {
        Case {
            stdin: Some(bytes),
            ..self
        }
    }

    /// Kills the run after `seconds`.
    pub fn timeout(self, seconds: u64) -> Case<'a> {
        Case {
            timeout: Duration::from_secs(seconds),
            ..self
        }
    }

    /// Limits the address space to `bytes`.
    pub fn address_space(self, bytes: u64) -> Case<'a> {
        Case {
            address_space: bytes,
            ..self
        }
    }

    /// Runs the case; panics (failing the test) if it outlives its timeout.
    pub fn run(self) -> Bounded {
        // `prlimit` sets the limit on the process it execs, so the limit covers only sgscope.
        let mut command = Command::new("prlimit");
        command
            .arg(format!("--as={}", self.address_space))
            .arg("--")
            .arg(env!("CARGO_BIN_EXE_sgscope"))
            .args(&self.args)
            .current_dir(root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let start = Instant::now();
        let mut child = command
            .spawn()
            .expect("prlimit runs (util-linux; .ci/run installs it)");
        let pgid = child.id() as i32;
        let mut input = child.stdin.take().expect("piped");
        let stdin = self.stdin.map(<[u8]>::to_vec).unwrap_or_default();
        // Writing and reading on their own threads: a case that never reads its input or
        // floods its output must not block the harness.
        let writer = std::thread::spawn(move || {
            let _ = input.write_all(&stdin);
        });
        let mut out = child.stdout.take().expect("piped");
        let mut err = child.stderr.take().expect("piped");
        let out_reader = std::thread::spawn(move || read_capped(&mut out));
        let err_reader = std::thread::spawn(move || read_capped(&mut err));
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait works") {
                break status;
            }
            if start.elapsed() > self.timeout {
                kill_group(pgid);
                let _ = child.wait();
                let stderr = err_reader.join().unwrap_or_default();
                panic!(
                    "sgscope {:?} ran past {:?} (killed); stderr so far:\n{}",
                    self.args, self.timeout, stderr
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        // Anything the run left in its process group goes now, so a leak shows as a failure
        // in the case that checks for it, not as a stuck reader here.
        kill_group(pgid);
        let _ = writer.join();
        Bounded {
            code: std::os::unix::process::ExitStatusExt::signal(&status)
                .map_or(status.code(), |_| None),
            stdout: out_reader.join().unwrap_or_default(),
            stderr: err_reader.join().unwrap_or_default(),
        }
    }
}

/// Reads a stream to its end, keeping the first 1 MiB (a flood must not exhaust the harness).
fn read_capped(stream: &mut impl Read) -> String {
    const KEEP: usize = 1 << 20;
    let mut kept = Vec::new();
    let mut buffer = [0u8; 1 << 16];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = KEEP.saturating_sub(kept.len());
                kept.extend_from_slice(&buffer[..n.min(room)]);
            }
        }
    }
    String::from_utf8_lossy(&kept).into_owned()
}

fn kill_group(pgid: i32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pgid}")])
        .stderr(Stdio::null())
        .status();
}

impl Bounded {
    /// Requires a clean end: an answer (0) or an error (1 or 2) with an `error:` line, never a
    /// panic, an abort or a signal.
    #[track_caller]
    pub fn survived(&self) -> &Self {
        assert!(
            matches!(self.code, Some(0..=2)),
            "expected exit 0, 1 or 2, got {:?}\nstdout:\n{}\nstderr:\n{}",
            self.code,
            tail(&self.stdout),
            tail(&self.stderr)
        );
        assert!(
            !self.stderr.contains("panicked") && !self.stderr.contains("memory allocation of"),
            "a panic or an allocation failure:\n{}",
            tail(&self.stderr)
        );
        if self.code != Some(0) {
            assert!(
                self.stderr.contains("error:"),
                "a failure without an `error:` line:\n{}",
                tail(&self.stderr)
            );
        }
        self
    }

    /// Requires a refusal with exit status `code` whose message contains every one of `parts`.
    #[track_caller]
    pub fn refused(&self, code: i32, parts: &[&str]) -> &Self {
        self.survived();
        assert_eq!(
            self.code,
            Some(code),
            "expected exit {code}\nstderr:\n{}",
            tail(&self.stderr)
        );
        for part in parts {
            assert!(
                self.stderr.contains(part),
                "missing {part:?} in:\n{}",
                tail(&self.stderr)
            );
        }
        self
    }

    /// Requires an answer (exit 0).
    #[track_caller]
    pub fn answered(&self) -> &Self {
        self.survived();
        assert_eq!(
            self.code,
            Some(0),
            "expected an answer\nstderr:\n{}",
            tail(&self.stderr)
        );
        self
    }
}

/// The last 4 KiB of an output, for failure messages.
fn tail(text: &str) -> &str {
    let mut start = text.len().saturating_sub(4096);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

/// The harness itself: an answer passes, a usage error is a refusal, and a run past its timeout
/// fails the test rather than hanging it.
#[test]
fn harness_bounds_a_run() {
    case(&["table", "octal 0.6", "--to", "20"])
        .stdin(b"")
        .address_space(1 << 30)
        .run()
        .answered();
    case(&["table", "octal 0.6", "--to", "x"])
        .run()
        .refused(2, &["--to"]);
    let stuck = std::panic::catch_unwind(|| {
        case(&["judge", "rules/nim.sg", "3", "--", "sleep", "30"])
            .timeout(1)
            .run()
    });
    assert!(stuck.is_err(), "a run past its timeout must fail the case");
}
