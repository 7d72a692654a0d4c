//! The judge's side of a contestant's process: started in a process group of its own, fed and
//! read by two threads so that neither a program that never reads nor one that floods its output
//! can block the judge or exhaust its memory, and killed — the whole group — on every way out.
//!
//! * **Process group.** The program runs in a new process group (`setpgid(0, 0)`), and the
//!   judge sends `SIGKILL` to the whole group at the verdict and when it is dropped (an error or
//!   a panic on the way). A program's own children (`sleep 300 &`) are in its group and go with
//!   it.
//! * **Children that leave the group.** A child that starts a session of its own (`setsid`) or
//!   moves to another group (`setpgid`) is in no group the judge kills. The judge makes itself a
//!   *child subreaper* (`prctl(PR_SET_CHILD_SUBREAPER)`), so such a child, once the program
//!   above it has died, is re-parented to the judge instead of to `init`; after killing a group
//!   the judge kills and reaps every child of its own that sits in another session — only
//!   contestants' descendants can be there, since everything the judge starts itself stays in
//!   its session.
//! * **Signals.** `SIGINT`, `SIGTERM` and `SIGHUP` (when their disposition is the default) get
//!   a handler that kills every contestant's group at once and wakes a dedicated thread through
//!   a pipe (the only async-signal-safe way to hand over). That thread kills every descendant
//!   of the judge, found by the parent links in `/proc` (so those that called `setsid` or
//!   `setpgid` too), reaps them, repeats while killed parents hand their own children to the
//!   judge, the subreaper (at most 2 s), and exits with status `128 + signal`.
//! * **What cannot be caught.** `SIGKILL` of the judge runs no code of the judge. The program
//!   is started with `prctl(PR_SET_PDEATHSIG, SIGKILL)`, so the kernel kills it when the thread
//!   that started it ends; its children in its process group lose their parent but not their
//!   group, and nothing is left to kill them: they survive, as do those in other sessions. The
//!   judge's own parent (a shell, a harness) can kill the group itself. Linux only.
//! * **Writing.** Lines go to the program through a thread: a program that never reads blocks
//!   that thread only, and the judge's time limit runs as usual (the thread ends when the group
//!   is killed and the pipe breaks).
//! * **Reading.** Lines longer than [`LINE_LIMIT`] are cut there and passed on as
//!   [`Incoming::TooLong`] at once (a program that prints forever without a newline is judged as
//!   soon as it passes the limit), and at most [`QUEUED`] lines wait unread: a flood blocks the
//!   program, not the judge's memory.

use std::io::{self, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::Once;
use std::time::Duration;

use super::{read_line_capped, skip_line, Line, LINE_LIMIT};

/// Lines read from the program and not yet taken by the judge, at most.
pub const QUEUED: usize = 16;

/// The bytes of an over-long line kept to quote it.
const KEPT_OF_LONG: usize = 1024;

/// What the reader thread passes on from the program's output.
#[derive(Debug)]
pub enum Incoming {
    /// A line, without its `\n` (or `\r\n`); the bytes as sent, UTF-8 or not.
    Line(Vec<u8>),
    /// A line longer than [`LINE_LIMIT`]: its first bytes. The rest is read and dropped.
    TooLong(Vec<u8>),
    /// Reading failed.
    Failed(io::Error),
}

/// A running contestant: its process group, the thread writing to it and the one reading it.
pub struct Contestant {
    child: Child,
    /// The process group (the child's pid), killed on drop unless already killed and reaped.
    group: Option<i32>,
    to_program: Option<Sender<String>>,
    /// The program's lines, in order.
    pub lines: Receiver<Incoming>,
}

impl Contestant {
    /// Starts `command` in a process group of its own, its standard input and output piped to
    /// the judge, its standard error inherited.
    pub fn spawn(command: &mut Command) -> io::Result<Contestant> {
        install_signal_handlers();
        become_subreaper();
        let parent = std::process::id() as libc::pid_t;
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .process_group(0);
        // SAFETY: the closure runs in the child between fork and exec; it calls only prctl(2)
        // and getppid(2), which are async-signal-safe, and allocates nothing.
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) == -1 {
                    return Err(io::Error::last_os_error());
                }
                // The judge died before the line above took effect: do not run orphaned.
                if libc::getppid() != parent {
                    return Err(io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
        let mut child = command.spawn()?;
        let group = child.id() as i32;
        register(group);
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");

        let (to_program, outgoing) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            let mut stdin = stdin;
            for line in outgoing {
                // A program that has exited is noticed when its answer is due.
                if stdin.write_all(line.as_bytes()).is_err() {
                    break;
                }
            }
        });

        let (sender, lines) = mpsc::sync_channel(QUEUED);
        std::thread::spawn(move || read_lines(stdout, sender));
        Ok(Contestant {
            child,
            group: Some(group),
            to_program: Some(to_program),
            lines,
        })
    }

    /// Queues `line` (and a newline) for the program; never blocks.
    pub fn send(&self, line: &str) {
        if let Some(to_program) = &self.to_program {
            let _ = to_program.send(format!("{line}\n"));
        }
    }

    /// Closes the program's input (once the lines queued are written), gives it a moment to
    /// exit, then kills its whole process group and reaps it.
    pub fn finish(mut self) {
        drop(self.to_program.take());
        for _ in 0..50 {
            if self.exited() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill_group();
    }

    /// Whether the program has exited, without reaping it: while it is not reaped its pid,
    /// which names its group, cannot be reused.
    fn exited(&self) -> bool {
        // SAFETY: an all-zero siginfo_t is a valid value of this plain C struct.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: waitid writes only into `info`; WNOWAIT leaves the child to `Child::wait`.
        let status = unsafe {
            libc::waitid(
                libc::P_PID,
                self.child.id() as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            )
        };
        // SAFETY: waitid filled `info` (si_pid stays 0 when no child has exited).
        status != 0 || unsafe { info.si_pid() } != 0
    }

    /// `SIGKILL` to the whole group, then the program reaped, then the descendants that left
    /// the group and have come back to the judge (module documentation): once.
    fn kill_group(&mut self) {
        // A signal is ending the judge: its cleanup thread kills everything and exits with the
        // signal's status, which a verdict reached meanwhile (the program killed by the
        // handler) must not pre-empt.
        while SIGNALLED.load(Ordering::SeqCst) != 0 {
            std::thread::park_timeout(Duration::from_secs(1));
        }
        if let Some(group) = self.group.take() {
            kill(group);
            unregister(group);
            let _ = self.child.wait();
            kill_adopted_orphans();
        }
    }
}

impl Drop for Contestant {
    fn drop(&mut self) {
        self.kill_group();
    }
}

/// The reader thread: the program's lines, each at most [`LINE_LIMIT`] bytes, through a
/// bounded queue.
fn read_lines(stdout: std::process::ChildStdout, sender: SyncSender<Incoming>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        let (item, long) = match read_line_capped(&mut reader, &mut line, LINE_LIMIT) {
            Ok(None) => return,
            Ok(Some(Line::Whole)) => (Incoming::Line(line), false),
            Ok(Some(Line::TooLong)) => {
                line.truncate(KEPT_OF_LONG);
                line.shrink_to_fit();
                (Incoming::TooLong(line), true)
            }
            Err(error) => {
                let _ = sender.send(Incoming::Failed(error));
                return;
            }
        };
        if sender.send(item).is_err() {
            return;
        }
        if long && skip_line(&mut reader).is_err() {
            return;
        }
    }
}

/// Process groups of contestants running now, for the signal handler (0: a free slot). A
/// fixed array of atomics: the handler may read it while it changes, and allocates nothing.
static GROUPS: [AtomicI32; 64] = [const { AtomicI32::new(0) }; 64];

fn register(group: i32) {
    // More than 64 contestants at once: the rest are still killed at their verdict and on drop.
    for slot in &GROUPS {
        if slot
            .compare_exchange(0, group, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
    }
}

fn unregister(group: i32) {
    for slot in &GROUPS {
        let _ = slot.compare_exchange(group, 0, Ordering::SeqCst, Ordering::SeqCst);
    }
}

/// Makes the judge a child subreaper, once (a failure only loses the sweep of orphans).
fn become_subreaper() {
    static ONCE: Once = Once::new();
    // SAFETY: prctl(2) with an integer argument; it touches no memory of ours.
    ONCE.call_once(|| unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong);
    });
}

/// Kills and reaps every child of this process that is in another session than ours: orphans
/// of contestants that left their group, re-parented here because we are a subreaper.
fn kill_adopted_orphans() {
    let me = std::process::id() as i32;
    // SAFETY: getsid(2) of the calling process touches no memory.
    let session = unsafe { libc::getsid(0) };
    // A few rounds: killing a session leader re-parents its own children here in turn.
    for _ in 0..4 {
        let mut found = false;
        for (pid, (_, ppid, sid)) in processes() {
            if ppid == me && sid != session {
                found = true;
                // SAFETY: kill(2) and waitpid(2) on our own child; waitpid writes nothing (a
                // null status pointer).
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                    libc::waitpid(pid, std::ptr::null_mut(), 0);
                }
            }
        }
        if !found {
            return;
        }
    }
}

fn kill(group: i32) {
    // SAFETY: kill(2) with a negative pid signals the process group; it touches no memory.
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
}

/// The signals that end the judge and whose default would leave the contestants running.
const ENDING: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// The write end of the pipe from the signal handler to the cleanup thread (-1: none).
static WAKE: AtomicI32 = AtomicI32::new(-1);

/// The signal ending the judge, once the cleanup thread has it in hand (0: none).
static SIGNALLED: AtomicI32 = AtomicI32::new(0);

/// Installs, once, a handler for each signal of [`ENDING`] whose disposition is the default
/// (an ignored signal stays ignored; a handler someone else installed is left alone), and the
/// thread that ends the judge cleanly when one arrives.
///
/// The handler, which may run on any thread, does only what is async-signal-safe: it kills
/// every contestant's group at once (the common case is then already settled) and writes the
/// signal's number to a pipe. The cleanup thread reads it and does the rest, which needs
/// `/proc` and allocation: it kills every descendant of the judge — the processes that left
/// the group by `setsid` or `setpgid` included, found by their parent links, and those that
/// come back to the judge, a subreaper, as their parents die — reaps them, and exits with
/// `128 + signal`, the status a shell gives a program ended by that signal.
fn install_signal_handlers() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let mut fds = [-1 as libc::c_int; 2];
        // SAFETY: pipe2(2) writes two descriptors into `fds`.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) } != 0 {
            return;
        }
        let [read_end, write_end] = fds;
        // The reading end blocks: the thread sleeps until a signal comes.
        // SAFETY: fcntl(2) on a descriptor we own.
        unsafe {
            libc::fcntl(read_end, libc::F_SETFL, 0);
        }
        let spawned = std::thread::Builder::new()
            .name("sgscope-signals".into())
            .spawn(move || cleanup_on_signal(read_end));
        if spawned.is_err() {
            // No cleanup thread: the handler falls back to killing the groups and re-raising.
            // SAFETY: closing descriptors we own.
            unsafe {
                libc::close(read_end);
                libc::close(write_end);
            }
        } else {
            WAKE.store(write_end, Ordering::SeqCst);
        }
        for signal in ENDING {
            // SAFETY: sigaction(2) with valid pointers to zero-initialised plain C structs; the
            // handler below is async-signal-safe.
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, std::ptr::null(), &mut old) != 0
                    || old.sa_sigaction != libc::SIG_DFL
                {
                    continue;
                }
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_ending_signal as *const () as libc::sighandler_t;
                libc::sigemptyset(&mut action.sa_mask);
                // Every ending signal is held while the handler runs: a second one waits.
                for other in ENDING {
                    libc::sigaddset(&mut action.sa_mask, other);
                }
                action.sa_flags = libc::SA_RESTART;
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    });
}

/// Kills every contestant's group, then wakes the cleanup thread with the signal's number;
/// without that thread (or if the pipe cannot take the byte), lets `signal` end the process by
/// its default action.
extern "C" fn on_ending_signal(signal: libc::c_int) {
    kill_registered_groups();
    let wake = WAKE.load(Ordering::SeqCst);
    let byte = signal as u8;
    if wake >= 0 {
        SIGNALLED.store(signal, Ordering::SeqCst);
        // SAFETY: write(2) of one byte from the stack is async-signal-safe.
        if unsafe { libc::write(wake, (&byte as *const u8).cast(), 1) } == 1 {
            return;
        }
        SIGNALLED.store(0, Ordering::SeqCst);
    }
    // SAFETY: signal(2) back to the default and raise(3) are async-signal-safe; the signal is
    // blocked while this handler runs, and ends the process once it returns.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

fn kill_registered_groups() {
    for slot in &GROUPS {
        let group = slot.load(Ordering::SeqCst);
        if group > 0 {
            kill(group);
        }
    }
}

/// The cleanup thread: waits for a signal's number on `read_end`, then kills and reaps every
/// descendant of the judge and exits with `128 + signal` (see [`install_signal_handlers`]).
fn cleanup_on_signal(read_end: libc::c_int) {
    let mut byte = 0u8;
    loop {
        // SAFETY: read(2) of one byte into a local.
        let n = unsafe { libc::read(read_end, (&mut byte as *mut u8).cast(), 1) };
        if n == 1 {
            break;
        }
        if n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
            continue;
        }
        return;
    }
    let signal = libc::c_int::from(byte);
    kill_registered_groups();
    kill_descendants(Duration::from_secs(2));
    // SAFETY: _exit(2) ends the process at once, without running destructors or flushing
    // buffers the other threads may be using.
    unsafe { libc::_exit(128 + signal) }
}

/// Kills (`SIGKILL`) every process descended from this one — by parent links in `/proc`, so
/// that the processes that left their group or session are found too — and reaps those that
/// are (or become, this process being a subreaper) its children, in rounds until none is left
/// or `patience` has passed.
fn kill_descendants(patience: Duration) {
    let me = std::process::id() as i32;
    let start = std::time::Instant::now();
    loop {
        let found = descendants(me);
        for &pid in &found {
            // SAFETY: kill(2) touches no memory.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
        // Reap whatever has ended among our children (contestants, and adopted orphans).
        // SAFETY: waitpid(2) with a null status pointer writes nothing.
        while unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) } > 0 {}
        if found.is_empty() || start.elapsed() > patience {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The live processes descended from `root` (not `root` itself): the parent links of every
/// process in `/proc`, followed down from `root`. Zombies are left out (only a reaper ends
/// them).
fn descendants(root: i32) -> Vec<i32> {
    let mut parent_of: Vec<(i32, i32)> = Vec::new();
    for (pid, (state, ppid, _)) in processes() {
        if state != 'Z' && state != 'X' {
            parent_of.push((pid, ppid));
        }
    }
    let mut found = Vec::new();
    let mut frontier = vec![root];
    while let Some(parent) = frontier.pop() {
        for &(pid, ppid) in &parent_of {
            if ppid == parent && pid != root && !found.contains(&pid) {
                found.push(pid);
                frontier.push(pid);
            }
        }
    }
    found
}

/// Every process of `/proc` with its [`stat_of`] (none when `/proc` cannot be read).
fn processes() -> impl Iterator<Item = (i32, (char, i32, i32))> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| Some((pid, stat_of(pid)?)))
}

/// The state, parent and session of process `pid`, from `/proc/PID/stat`.
fn stat_of(pid: i32) -> Option<(char, i32, i32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command's closing parenthesis: state, ppid, pgrp, session.
    let rest = stat.rsplit_once(')')?.1;
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    let _pgrp = fields.next()?;
    let session = fields.next()?.parse().ok()?;
    Some((state, ppid, session))
}
