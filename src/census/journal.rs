//! Shard files: the journal of a census run, resumable and checksummed.
//!
//! A shard file is JSON lines, each followed by a space and the 16-hex-digit FNV-1a checksum
//! of its JSON text. The first line is the [`Header`] (format version, configuration, shard);
//! each further line is one finished [`Record`], appended and synced to disk as soon as its
//! code is done. A run killed mid-write leaves at most one torn last line: [`Journal::open`]
//! drops it (truncating the file to its last whole record) and the run goes on with the codes
//! not yet in the file, so no finished code is lost or computed twice. A line that fails its
//! checksum anywhere else, or a file of another census, is an error rather than a silent
//! repair. [`read`] (for `census merge`) accepts only whole files.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{Config, Record, Shard, FORMAT_VERSION};

/// The first line of a shard file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// [`FORMAT_VERSION`].
    pub sgscope_census: u32,
    /// What the census surveys.
    pub config: Config,
    /// Which slice this file holds.
    pub shard: Shard,
    /// How many codes the slice holds.
    pub codes: usize,
}

/// Why a shard file could not be used.
#[derive(Debug, Error)]
pub enum JournalError {
    /// Reading or writing failed.
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        /// What was being done.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// A line is not what was written.
    #[error("{}:{line}: {reason}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The 1-based line.
        line: usize,
        /// What is wrong, and what to do.
        reason: String,
    },
    /// The file belongs to another census or another slice.
    #[error("{} is {found}, not {expected}: give another --shard-file, or remove this one to start over", path.display())]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What this run is.
        expected: String,
        /// What the file is.
        found: String,
    },
}

/// FNV-1a, 64 bits: the checksum of a line's JSON text.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn line_of(json: &str) -> String {
    format!("{json} {:016x}\n", checksum(json.as_bytes()))
}

/// The JSON text of a line, when its checksum holds.
fn checked(line: &str) -> Result<&str, String> {
    let Some((json, sum)) = line.rsplit_once(' ') else {
        return Err("no checksum: the line was cut short".into());
    };
    match u64::from_str_radix(sum, 16) {
        Ok(sum) if sum == checksum(json.as_bytes()) && json.starts_with('{') => Ok(json),
        _ => Err("the checksum does not match the line: the file was cut or altered".into()),
    }
}

fn describe(header: &Header) -> String {
    format!(
        "shard {}/{} of the {} census to max {} (sparse max {})",
        header.shard.index + 1,
        header.shard.count,
        header.config.family.slug(),
        header.config.max,
        header.config.sparse_max
    )
}

/// An open shard file that finished records are appended to.
pub struct Journal {
    file: File,
    path: PathBuf,
}

impl Journal {
    /// Opens (or creates) the shard file at `path` for `header`, returning the records it
    /// already holds. A torn last line is dropped; see the module docs.
    pub fn open(path: &Path, header: &Header) -> Result<(Journal, Vec<Record>), JournalError> {
        let io = |action| {
            move |source| JournalError::Io {
                action,
                path: path.to_path_buf(),
                source,
            }
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io("open"))?;
        let mut text = String::new();
        io::Read::read_to_string(&mut file, &mut text).map_err(io("read"))?;
        let mut records = Vec::new();
        if text.is_empty() {
            let json = serde_json::to_string(header).expect("a header serializes");
            file.write_all(line_of(&json).as_bytes())
                .and_then(|()| file.sync_data())
                .map_err(io("write"))?;
        } else {
            let (found, whole_len) = parse(path, &text, &mut records, true)?;
            if found != *header {
                return Err(JournalError::Mismatch {
                    path: path.to_path_buf(),
                    expected: describe(header),
                    found: describe(&found),
                });
            }
            if whole_len < text.len() {
                file.set_len(whole_len as u64).map_err(io("truncate"))?;
            }
            file.seek(SeekFrom::End(0)).map_err(io("seek"))?;
        }
        Ok((
            Journal {
                file,
                path: path.to_path_buf(),
            },
            records,
        ))
    }

    /// Appends `record` and syncs it to disk.
    pub fn append(&mut self, record: &Record) -> Result<(), JournalError> {
        let json = serde_json::to_string(record).expect("a record serializes");
        self.file
            .write_all(line_of(&json).as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|source| JournalError::Io {
                action: "write",
                path: self.path.clone(),
                source,
            })
    }
}

/// Parses a shard file's text into its header and `records`, returning the byte length of its
/// whole lines. With `allow_torn_tail`, a last line without its newline or checksum is left
/// out (a run killed mid-write); otherwise it is an error.
fn parse(
    path: &Path,
    text: &str,
    records: &mut Vec<Record>,
    allow_torn_tail: bool,
) -> Result<(Header, usize), JournalError> {
    let corrupt = |line: usize, reason: String| JournalError::Corrupt {
        path: path.to_path_buf(),
        line,
        reason,
    };
    let mut header = None;
    let mut whole_len = 0;
    let mut lines = text.split_inclusive('\n').enumerate().peekable();
    while let Some((i, raw)) = lines.next() {
        let last = lines.peek().is_none();
        let line = raw.strip_suffix('\n');
        let json = match line.map(checked) {
            Some(Ok(json)) => json,
            Some(Err(reason)) if !(last && allow_torn_tail) => return Err(corrupt(i + 1, reason)),
            None if !allow_torn_tail => return Err(corrupt(
                i + 1,
                "the last line is cut short: the shard did not finish; run it again to resume it"
                    .into(),
            )),
            _ => break,
        };
        if header.is_none() {
            let found: Header = serde_json::from_str(json)
                .map_err(|e| corrupt(i + 1, format!("not a census shard header: {e}")))?;
            if found.sgscope_census != FORMAT_VERSION {
                return Err(corrupt(
                    i + 1,
                    format!(
                        "a shard of format {} (this sgscope writes format {FORMAT_VERSION}): run the census again with this version",
                        found.sgscope_census
                    ),
                ));
            }
            header = Some(found);
        } else {
            records.push(
                serde_json::from_str(json)
                    .map_err(|e| corrupt(i + 1, format!("not a census record: {e}")))?,
            );
        }
        whole_len += raw.len();
    }
    let header = header.ok_or_else(|| {
        corrupt(
            1,
            "the file has no header line: it is not a census shard file".into(),
        )
    })?;
    Ok((header, whole_len))
}

/// Reads a whole shard file (for `census merge`): its header and records; a torn or altered
/// line anywhere is an error.
pub fn read(path: &Path) -> Result<(Header, Vec<Record>), JournalError> {
    let file = File::open(path).map_err(|source| JournalError::Io {
        action: "open",
        path: path.to_path_buf(),
        source,
    })?;
    let mut text = String::new();
    for line in BufReader::new(file).lines() {
        let line = line.map_err(|source| JournalError::Io {
            action: "read",
            path: path.to_path_buf(),
            source,
        })?;
        text.push_str(&line);
        text.push('\n');
    }
    let mut records = Vec::new();
    let (header, _) = parse(path, &text, &mut records, false)?;
    Ok((header, records))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::census::Family;

    fn header() -> Header {
        Header {
            sgscope_census: FORMAT_VERSION,
            config: Config {
                family: Family::Octal { digits: 1 },
                max: 100,
                sparse_max: 100,
            },
            shard: Shard::WHOLE,
            codes: 16,
        }
    }

    fn record(code: &str) -> Record {
        crate::census::run_code(&header().config, code).unwrap()
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_the_run_resumes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        let (mut journal, found) = Journal::open(&path, &header()).unwrap();
        assert!(found.is_empty());
        journal.append(&record("0.07")).unwrap();
        journal.append(&record("0.4")).unwrap();
        drop(journal);
        // Kill mid-write: half of a third line.
        let whole = std::fs::read_to_string(&path).unwrap();
        let mut text = whole.clone();
        text.push_str("{\"code\":\"0.6\",\"prep");
        std::fs::write(&path, &text).unwrap();
        assert!(matches!(
            read(&path),
            Err(JournalError::Corrupt { line: 4, .. })
        ));
        let (_, found) = Journal::open(&path, &header()).unwrap();
        assert_eq!(
            found.iter().map(|r| r.code.as_str()).collect::<Vec<_>>(),
            ["0.07", "0.4"]
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), whole);
    }

    #[test]
    fn an_altered_line_or_another_census_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        let (mut journal, _) = Journal::open(&path, &header()).unwrap();
        journal.append(&record("0.07")).unwrap();
        journal.append(&record("0.4")).unwrap();
        drop(journal);
        let mut other = header();
        other.config.max = 200;
        assert!(matches!(
            Journal::open(&path, &other),
            Err(JournalError::Mismatch { .. })
        ));
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(
            &path,
            text.replacen("\"code\":\"0.07\"", "\"code\":\"0.17\"", 1),
        )
        .unwrap();
        let error = Journal::open(&path, &header()).err().unwrap();
        assert!(
            error
                .to_string()
                .contains(":2: the checksum does not match"),
            "{error}"
        );
    }
}
