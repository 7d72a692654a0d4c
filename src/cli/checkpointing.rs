//! `--checkpoint` and `--resume`: start from a saved table, save every two minutes and on
//! Ctrl-C, and tell the user how to go on; and the check, before any work, that the files a
//! command will write can be written ([`check_output`], [`Checkpointing::check_paths`]).
//!
//! A checkpoint that cannot be saved during a run costs the run nothing: a warning says so, the
//! next save is tried two minutes later, and the finished table is still written to `-o`. Only
//! a Ctrl-C whose checkpoint cannot be saved ends with that error.

use std::io::ErrorKind;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::checkpoint::{self, Fingerprint, Saver};
use crate::engine::{EngineError, SgTable};
use crate::fs;
use crate::rules::Game;
use crate::value::BetweenChunks;

use super::args::Checkpointing;
use super::CliError;

/// Set by the Ctrl-C handler (or a closed standard error), read by the engine's hook between
/// chunks.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// For the tests that interrupt a run or damage its files while it runs, without timing: with
/// `SGSCOPE_TEST_GATE=FILE`, a run with `--checkpoint` creates `FILE` after its first values and
/// waits (at most a minute) until the test has done its deed and removed it.
const TEST_GATE: &str = "SGSCOPE_TEST_GATE";

/// Creates `gate` and waits until it is removed (at most a minute).
fn hold_at(gate: &Path) {
    if std::fs::write(gate, b"").is_err() {
        return;
    }
    let start = std::time::Instant::now();
    while gate.exists() && start.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// Set while a run with `--checkpoint` is under way: a closed standard error then stops it at
/// the next chunk, its checkpoint saved, instead of ending the process at once.
static SAVING: AtomicBool = AtomicBool::new(false);

/// Standard error was closed while a run with `--checkpoint` was under way: asks it to stop at
/// the next chunk and save its table, as a Ctrl-C does. False when no such run is under way
/// (the caller then ends the process: nothing would be saved).
pub(super) fn stop_and_save() -> bool {
    if SAVING.load(Ordering::SeqCst) {
        INTERRUPTED.store(true, Ordering::SeqCst);
        true
    } else {
        false
    }
}

impl Checkpointing {
    /// The table to start from: the `--resume` file's values, or nothing. A missing file is
    /// no error when it is also the `--checkpoint` file (the first run of a resumable command).
    fn initial_table(&self, fingerprint: &Fingerprint) -> Result<SgTable, CliError> {
        let Some(resume) = &self.resume else {
            return Ok(SgTable::new());
        };
        if !resume.exists() && self.checkpoint.as_ref() == Some(resume) {
            return Ok(SgTable::new());
        }
        Ok(checkpoint::load(resume, fingerprint)?)
    }

    /// Runs `work` on the initial table; with `--checkpoint`, hands it a hook that saves every
    /// [`checkpoint::CHECKPOINT_EVERY`] and on Ctrl-C, and saves the finished table (unless
    /// it is shorter than the one resumed from the same file). Returns the table `work`
    /// returns, along with its other result.
    pub fn run<T>(
        &self,
        game: &Game,
        args: &[String],
        work: impl FnOnce(SgTable, Option<&BetweenChunks<'_>>) -> Result<(SgTable, T), EngineError>,
    ) -> Result<(SgTable, T), CliError> {
        let fingerprint = Fingerprint::of(game);
        let initial = self.initial_table(&fingerprint)?;
        let Some(path) = &self.checkpoint else {
            return Ok(work(initial, None)?);
        };
        // Without --checkpoint Ctrl-C keeps its default (the process ends at once). With it,
        // the first Ctrl-C asks the engine to stop at the next chunk, a second one ends the
        // process as usual.
        if let Err(e) = ctrlc::set_handler(|| {
            if INTERRUPTED.swap(true, Ordering::SeqCst) {
                // `exit` runs no destructors: remove the half-written files first.
                fs::remove_temporaries();
                std::process::exit(130);
            }
        }) {
            warn(&format!(
                "warning: cannot catch Ctrl-C ({e}); checkpoints are saved every two minutes only"
            ));
        }
        SAVING.store(true, Ordering::SeqCst);
        struct Done;
        impl Drop for Done {
            fn drop(&mut self) {
                SAVING.store(false, Ordering::SeqCst);
            }
        }
        let _done = Done;
        let mut saver = Saver::new(
            path,
            fingerprint,
            checkpoint::CHECKPOINT_EVERY,
            &INTERRUPTED,
        );
        if self.resume.as_ref() == Some(path) {
            saver.saved_len = initial.len();
        }
        let mut warned = false;
        let mut gate = std::env::var_os(TEST_GATE).map(std::path::PathBuf::from);
        let result = {
            // The hook is called from one thread, between chunks: a `RefCell` lends it to the
            // shared `&dyn Fn` a request holds.
            let hook = std::cell::RefCell::new(|table: &SgTable| {
                if !table.is_empty() {
                    if let Some(gate) = gate.take() {
                        hold_at(&gate);
                    }
                }
                let flow = saver.between_chunks(table);
                if let Some(error) = saver.error.as_ref().filter(|_| !warned) {
                    warn(&format!(
                        "warning: {error}; the run goes on (the next save is tried in two minutes)"
                    ));
                    warned = true;
                }
                flow
            });
            let between_chunks = |table: &SgTable| (hook.borrow_mut())(table);
            work(initial, Some(&between_chunks))
        };
        match result {
            // Stopped by Ctrl-C, whose checkpoint could not be saved.
            Err(EngineError::Interrupted { .. }) if saver.error.is_some() => {
                Err(saver.error.take().expect("checked").into())
            }
            Err(EngineError::Interrupted { at }) => Err(CliError::Interrupted {
                at,
                file: path.clone(),
                resume: resume_command(path, args),
            }),
            Err(e) => Err(e.into()),
            Ok((table, other)) => {
                if table.len() > saver.saved_len || self.resume.as_ref() != Some(path) {
                    // The finished table matters more than its checkpoint: warn, and go on to
                    // write it.
                    if let Err(error) = saver.save(&table) {
                        warn(&format!(
                            "warning: {error}; the result is written all the same"
                        ));
                    }
                }
                Ok((table, other))
            }
        }
    }
}

/// Writes a warning line to standard error (nothing when it is closed: the run goes on).
fn warn(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The command line of this process with `--resume FILE` added (unless it is there already),
/// quoted for a POSIX shell.
fn resume_command(file: &Path, args: &[String]) -> String {
    let mut args = args.to_vec();
    let has_resume = args
        .iter()
        .any(|a| a == "--resume" || a.starts_with("--resume="));
    if !has_resume {
        args.push("--resume".into());
        args.push(file.to_string_lossy().into_owned());
    }
    std::iter::once("sgscope".to_string())
        .chain(args.iter().map(|a| shell_quote(a)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `a` as one word for a POSIX shell: unchanged when it is plain, else in single quotes.
fn shell_quote(a: &str) -> String {
    let plain = !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

impl Checkpointing {
    /// Checks, before any work, that `output` (`-o`, unless it is `-` or absent) and the
    /// `--checkpoint` file can be written, so that a long run is not thrown away at its end.
    pub fn check_paths(&self, output: Option<&str>) -> Result<(), CliError> {
        if let (Some(out), Some(checkpoint)) = (output.filter(|o| *o != "-"), &self.checkpoint) {
            if same_file(Path::new(out), checkpoint) {
                return Err(super::usage_with_help(
                    format!(
                        "-o {out} and --checkpoint {} are one file: the table would overwrite its checkpoint",
                        checkpoint.display()
                    ),
                    format!("give the checkpoint its own file, e.g. --checkpoint {out}.ckpt"),
                ));
            }
        }
        check_output(output)?;
        match &self.checkpoint {
            Some(path) => check_path("--checkpoint", path),
            None => Ok(()),
        }
    }

    /// Refuses `--checkpoint`/`--resume` for a position game (they save heap tables).
    pub fn refuse_for_positions(&self) -> Result<(), CliError> {
        if self.checkpoint.is_some() || self.resume.is_some() {
            return Err(CliError::Usage(
                "--checkpoint and --resume save heap tables; a position game's box is computed in one run".into(),
            ));
        }
        Ok(())
    }
}

/// Whether `a` and `b` name one file: the same path, or (when both exist) the same file
/// through links; two paths that do not exist yet are compared by their folders' real paths.
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    if a == b {
        return true;
    }
    if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
        return x.dev() == y.dev() && x.ino() == y.ino();
    }
    let real = |p: &Path| {
        let folder = match p.parent() {
            Some(f) if !f.as_os_str().is_empty() => f,
            _ => Path::new("."),
        };
        Some(std::fs::canonicalize(folder).ok()?.join(p.file_name()?))
    };
    matches!((real(a), real(b)), (Some(x), Some(y)) if x == y)
}

/// Checks, before any work, that the `-o` file `output` can be written (nothing to check for
/// standard output, `-` or no `-o`).
pub fn check_output(output: Option<&str>) -> Result<(), CliError> {
    match output {
        Some(path) if path != "-" => check_path("-o", Path::new(path)),
        _ => Ok(()),
    }
}

/// [`fs::check_writable`] for the file given to `flag`, with what to do about a failure.
pub(super) fn check_path(flag: &str, path: &Path) -> Result<(), CliError> {
    fs::check_writable(path).map_err(|error| {
        let help = match error.source.kind() {
            ErrorKind::NotFound => {
                format!("create the folder first, or give {flag} a file in a folder that exists")
            }
            ErrorKind::IsADirectory => {
                format!(
                    "give {flag} a file name, e.g. {}",
                    path.join("NAME").display()
                )
            }
            _ => format!("give {flag} a file in a folder you can write to"),
        };
        super::usage_with_help(
            format!("cannot write {flag} {}: {}", path.display(), error.source),
            help,
        )
    })
}
