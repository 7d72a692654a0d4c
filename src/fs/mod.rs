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
        is_broken_pipe(&self.source)
    }
}

/// Whether `error` is a closed pipe (`EPIPE`), also when a writer wrapped it in an error of
/// its own (a formatter, an encoder).
pub fn is_broken_pipe(error: &std::io::Error) -> bool {
    /// `EPIPE` on Linux and the BSDs.
    const EPIPE: i32 = 32;
    if error.kind() == std::io::ErrorKind::BrokenPipe || error.raw_os_error() == Some(EPIPE) {
        return true;
    }
    let mut inner: Option<&(dyn std::error::Error + 'static)> = error
        .get_ref()
        .map(|e| e as &(dyn std::error::Error + 'static));
    while let Some(e) = inner {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            if io.kind() == std::io::ErrorKind::BrokenPipe || io.raw_os_error() == Some(EPIPE) {
                return true;
            }
        }
        inner = e.source();
    }
    false
}
