//! Rules files read from a path: [`load_path`], with the bounds of [`super::source_limit`]
//! kept while reading, so that a huge file is refused without being read whole.

use std::fmt;
use std::io::Read;
use std::path::Path;

use super::{Diagnostic, Game, RulesError, SourceFile, MAX_SOURCE_BYTES};

/// Why a rules file could not be loaded from its path.
#[derive(Debug)]
pub enum PathError {
    /// Nothing can be found at the path (no such file, or a folder on the way is unreadable).
    NotFound(std::io::Error),
    /// The path is a directory.
    Directory,
    /// The path is neither a regular file nor a directory: `kind` says what it is
    /// ("a pipe", "a character device", …).
    Special {
        /// What the file is, with its article.
        kind: &'static str,
    },
    /// The file is empty.
    Empty,
    /// The file could not be read.
    Io(std::io::Error),
    /// The file's text is not a game: too large, not UTF-8, or rules with errors.
    Rules(RulesError),
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathError::NotFound(e) => write!(f, "no such file ({e})"),
            PathError::Directory => write!(f, "it is a directory, not a rules file"),
            PathError::Special { kind } => write!(f, "it is {kind}, not a regular file"),
            PathError::Empty => write!(f, "the file is empty"),
            PathError::Io(e) => write!(f, "{e}"),
            PathError::Rules(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PathError {}

impl From<RulesError> for PathError {
    fn from(e: RulesError) -> Self {
        PathError::Rules(e)
    }
}

/// Loads the game of the rules file at `path`, applying `--set NAME=VALUE` `overrides` (see
/// [`super::load`]). The file's text is named by `path` in diagnostics.
///
/// Reading is bounded: only the first [`MAX_SOURCE_BYTES`] (and one) bytes are read, or, when
/// those start a graph file, up to [`super::MAX_GRAPH_SOURCE_BYTES`] (and one); a longer file
/// is refused ([`PathError::Rules`]) without being read whole. A directory, a special file
/// (a pipe, a device) and an empty file are refused before any read.
pub fn load_path(path: &Path, overrides: &[(String, i64)]) -> Result<Game, PathError> {
    Ok(load_path_with_warnings(path, overrides)?.0)
}

/// [`load_path`], with the [`super::warn`]ings about the rules.
pub fn load_path_with_warnings(
    path: &Path,
    overrides: &[(String, i64)],
) -> Result<(Game, Vec<Diagnostic>), PathError> {
    let source = read_path(path)?;
    Ok(super::load_with_warnings(source, overrides)?)
}

/// The rules text of the file at `path`, read within the bounds of [`load_path`].
pub fn read_path(path: &Path) -> Result<SourceFile, PathError> {
    let meta = std::fs::metadata(path).map_err(PathError::NotFound)?;
    if meta.is_dir() {
        return Err(PathError::Directory);
    }
    if !meta.is_file() {
        return Err(PathError::Special {
            kind: file_kind(&meta),
        });
    }
    if meta.len() == 0 {
        return Err(PathError::Empty);
    }
    let bytes = read_bounded(path).map_err(PathError::Io)?;
    Ok(super::source_from_bytes(&path.to_string_lossy(), bytes)?)
}

/// The first bytes of the file at `path`, at most one past its [`super::source_limit`].
fn read_bounded(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let mut file = std::fs::File::open(path)?;
    (&mut file)
        .take(MAX_SOURCE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    // A graph file may be longer: read on, up to its own limit.
    let limit = super::source_limit(&bytes);
    if bytes.len() > MAX_SOURCE_BYTES && limit > MAX_SOURCE_BYTES {
        file.take((limit - bytes.len()) as u64 + 1)
            .read_to_end(&mut bytes)?;
    }
    Ok(bytes)
}

/// What a file that is neither a regular file nor a directory is, for messages.
fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = meta.file_type();
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_fifo() {
            return "a pipe";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    let _ = meta;
    "a special file"
}
