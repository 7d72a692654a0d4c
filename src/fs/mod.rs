//! Files, at the bottom of the crate: the atomic writer that every output file goes through
//! (exports, charts, checkpoints), and its error. Nothing here knows about games.

mod atomic;

use std::path::PathBuf;

use thiserror::Error;

pub use atomic::{check_writable, remove_temporaries, write_atomically, AtomicFile};

/// A file operation that failed, with the file the user asked for.
#[derive(Debug, Error)]
#[error("cannot {action} {}: {source}", .path.display())]
pub struct FsError {
    /// What was being done, e.g. "write" or "create a temporary file next to".
    pub action: &'static str,
    /// The file the user asked for (`-` for standard output).
    pub path: PathBuf,
    /// The operating system's error.
    #[source]
    pub source: std::io::Error,
}

impl FsError {
    /// Whether the reader of standard output went away (`sgscope … | head`): not a failure.
    pub fn is_broken_pipe(&self) -> bool {
        self.source.kind() == std::io::ErrorKind::BrokenPipe
    }
}
