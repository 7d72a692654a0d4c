//! The one place the command line writes to: standard output and standard error, as writers
//! handed to each subcommand (so that tests can run the CLI in-process and read both).
//!
//! A closed pipe on standard output (`sgscope check rules/*.sg | head -1`) is not an error:
//! every write goes through here, fails with [`FsError`] naming `-`, and [`super::run_with`]
//! ends with exit code 0, as ripgrep does.

use std::io::{self, Write};
use std::path::PathBuf;

use crate::fs::{self, FsError};

/// Standard output and standard error of one run.
pub struct Console<'a> {
    out: &'a mut dyn Write,
    err: &'a mut dyn Write,
}

impl<'a> Console<'a> {
    /// A console writing to `out` and `err`.
    pub fn new(out: &'a mut dyn Write, err: &'a mut dyn Write) -> Self {
        Console { out, err }
    }

    /// Writes `text` to standard output.
    pub fn print(&mut self, text: &str) -> Result<(), FsError> {
        self.write_to("-", |out| out.write_all(text.as_bytes()))
    }

    /// Writes a line to standard error; a failure there has nowhere to be reported, so it is
    /// ignored.
    pub fn note(&mut self, line: &str) {
        let _ = writeln!(self.err, "{line}");
        let _ = self.err.flush();
    }

    /// The standard error writer (for the final error message).
    pub fn err(&mut self) -> &mut dyn Write {
        self.err
    }

    /// Standard output, unbuffered: for a dialogue (`play`), whose lines must appear before
    /// the next one is read.
    pub fn out(&mut self) -> &mut dyn Write {
        self.out
    }

    /// Writes `path` with `write`: standard output for `-` (flushed at the end), otherwise the
    /// file, atomically ([`fs::write_atomically`]).
    pub fn write_to(
        &mut self,
        path: &str,
        write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Result<(), FsError> {
        if path != "-" {
            return fs::write_atomically(path, write);
        }
        let stdout_error = |source| FsError {
            action: "write",
            path: PathBuf::from("-"),
            source,
        };
        let mut buffered = io::BufWriter::with_capacity(1 << 16, &mut *self.out);
        write(&mut buffered).map_err(stdout_error)?;
        buffered.flush().map_err(stdout_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_output_and_files() {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let mut console = Console::new(&mut out, &mut err);
        console.print("one\n").unwrap();
        console.write_to("-", |w| w.write_all(b"two\n")).unwrap();
        console.note("a note");
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("t.txt");
        let target_name = target.to_str().unwrap();
        console
            .write_to(target_name, |w| w.write_all(b"file"))
            .unwrap();
        // A failed write leaves the target as it was.
        let failed = console.write_to(target_name, |w| {
            w.write_all(b"partial")?;
            Err(io::Error::other("stop"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "file");
        assert_eq!(String::from_utf8(out).unwrap(), "one\ntwo\n");
        assert_eq!(String::from_utf8(err).unwrap(), "a note\n");
    }

    #[test]
    fn a_closed_pipe_is_reported_as_one() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let (mut out, mut err) = (Closed, Vec::new());
        let mut console = Console::new(&mut out, &mut err);
        let error = console.print("x").unwrap_err();
        assert!(error.is_broken_pipe(), "{error}");
        assert_eq!(error.path, PathBuf::from("-"));
    }
}
