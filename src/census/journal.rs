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
    /// Another run holds the file (it is locked while a run appends to it).
    #[error("{} is in use by another run of this shard (the file is locked while a run appends to it): wait for that run to end, or give this one another --shard-file", path.display())]
    Locked {
        /// The file.
        path: PathBuf,
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

/// The longest header line read: a header is about 150 bytes, so a longer first line is not
/// one (and reading stops there, whatever the file is: `/dev/zero` included).
pub const MAX_HEADER_LINE: usize = 1 << 16;

/// The longest record line read (256 MiB): a record keeps at most a few values per heap
/// computed, so a longer line is a damaged or forged file, refused before it is read whole.
pub const MAX_RECORD_LINE: usize = 1 << 28;

impl Journal {
    /// Opens (or creates) the shard file at `path` for `header`, returning the records it
    /// already holds. A torn last line is dropped; see the module docs. The file is locked
    /// (an advisory `flock`) for as long as the journal is open, so that a second run given the
    /// same file refuses it rather than interleaving its records.
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
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(JournalError::Locked {
                    path: path.to_path_buf(),
                })
            }
            Err(std::fs::TryLockError::Error(source)) => return Err(io("lock")(source)),
        }
        let metadata = file.metadata().map_err(io("read"))?;
        if !metadata.is_file() {
            return Err(io("use")(io::Error::other(
                "it is not a regular file: give --shard-file a file name",
            )));
        }
        let mut records = Vec::new();
        let empty = metadata.len() == 0;
        if empty {
            let json = serde_json::to_string(header).expect("a header serializes");
            file.write_all(line_of(&json).as_bytes())
                .and_then(|()| file.sync_data())
                .map_err(io("write"))?;
        } else {
            let (found, whole_len, read_len) =
                parse(path, BufReader::new(&file), &mut records, true)?;
            if found != *header {
                return Err(JournalError::Mismatch {
                    path: path.to_path_buf(),
                    expected: describe(header),
                    found: describe(&found),
                });
            }
            if whole_len < read_len {
                file.set_len(whole_len).map_err(io("truncate"))?;
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

/// Reads one line of at most `cap` bytes into `line` (its newline included, if it has one);
/// `Ok(false)` at the end of the input. A line longer than `cap` is left cut at `cap + 1`
/// bytes without its newline, for the caller to refuse.
fn read_line<R: BufRead>(reader: &mut R, cap: usize, line: &mut Vec<u8>) -> io::Result<bool> {
    line.clear();
    let read = io::Read::take(&mut *reader, cap as u64 + 1).read_until(b'\n', line)?;
    Ok(read > 0)
}

/// Why a header read from a file cannot be one this sgscope wrote: a shard index past the
/// count, a family outside the census's ranges, a code count that is not the slice's.
fn check_header(header: &Header) -> Result<(), String> {
    if let Some(reason) = header.config.family.out_of_range() {
        return Err(format!("the header claims {reason}"));
    }
    let total = header.config.family.len();
    let Shard { index, count } = header.shard;
    if count == 0 || index >= count || count > total {
        return Err(format!(
            "the header claims shard {} of {count}, which a census of {total} codes does not have",
            index.saturating_add(1)
        ));
    }
    let codes = header.shard.len_of(total);
    if header.codes != codes {
        return Err(format!(
            "the header claims {} codes, but shard {}/{count} of this census holds {codes}",
            header.codes,
            index + 1
        ));
    }
    Ok(())
}

/// Parses a shard file read from `reader` into its header and `records`, returning the byte
/// length of its whole lines and of all it read. With `allow_torn_tail`, a last line without
/// its newline or checksum is left out (a run killed mid-write); otherwise it is an error.
/// Every line is read with a length cap and the header's counts are checked before anything
/// is sized by them: a forged or endless file is a located error.
fn parse(
    path: &Path,
    mut reader: impl BufRead,
    records: &mut Vec<Record>,
    allow_torn_tail: bool,
) -> Result<(Header, u64, u64), JournalError> {
    let corrupt = |line: usize, reason: String| JournalError::Corrupt {
        path: path.to_path_buf(),
        line,
        reason,
    };
    let io = |source| JournalError::Io {
        action: "read",
        path: path.to_path_buf(),
        source,
    };
    let mut header: Option<Header> = None;
    let mut whole_len = 0u64;
    let mut read_len = 0u64;
    let mut raw = Vec::new();
    for i in 0.. {
        let cap = if header.is_none() {
            MAX_HEADER_LINE
        } else {
            MAX_RECORD_LINE
        };
        if !read_line(&mut reader, cap, &mut raw).map_err(io)? {
            break;
        }
        read_len += raw.len() as u64;
        let line_no = i + 1;
        let complete = raw.last() == Some(&b'\n');
        if !complete && raw.len() > cap {
            let what = if header.is_none() {
                "a header"
            } else {
                "a census record"
            };
            return Err(corrupt(
                line_no,
                format!(
                    "a line longer than {} bytes is not {what}: the file is not a census shard file, or is damaged",
                    cap
                ),
            ));
        }
        let last = !complete || reader.fill_buf().map_err(io)?.is_empty();
        let text = std::str::from_utf8(&raw)
            .map_err(|_| "the line is not UTF-8 text: the file was cut or altered".to_string());
        let json = match text.map(|t| t.strip_suffix('\n')) {
            Ok(Some(line)) => checked(line),
            Ok(None) => Err(String::new()),
            Err(reason) => Err(reason),
        };
        let json = match json {
            Ok(json) => json,
            Err(_) if header.is_none() && last && allow_torn_tail => {
                return Err(corrupt(
                    line_no,
                    "the header line is cut short (the run was stopped while it created the file, before any code finished): delete the file and run the command again".into(),
                ));
            }
            Err(_) if last && allow_torn_tail => break,
            Err(reason) if reason.is_empty() => return Err(corrupt(
                line_no,
                "the last line is cut short: the shard did not finish; run it again to resume it"
                    .into(),
            )),
            Err(reason) => return Err(corrupt(line_no, reason)),
        };
        match &header {
            None => {
                let found: Header = serde_json::from_str(json)
                    .map_err(|e| corrupt(line_no, format!("not a census shard header: {e}")))?;
                if found.sgscope_census != FORMAT_VERSION {
                    return Err(corrupt(
                        line_no,
                        format!(
                            "a shard of format {} (this sgscope writes format {FORMAT_VERSION}): run the census again with this version",
                            found.sgscope_census
                        ),
                    ));
                }
                check_header(&found).map_err(|reason| {
                    corrupt(
                        line_no,
                        format!(
                            "{reason}: the file was altered; delete it and run the shard again"
                        ),
                    )
                })?;
                header = Some(found);
            }
            Some(found) => {
                if records.len() >= found.codes {
                    return Err(corrupt(
                        line_no,
                        format!(
                            "more records than the shard's {} codes: the file was altered (or two runs wrote it); delete it and run the shard again",
                            found.codes
                        ),
                    ));
                }
                records.push(
                    serde_json::from_str(json)
                        .map_err(|e| corrupt(line_no, format!("not a census record: {e}")))?,
                );
            }
        }
        whole_len += raw.len() as u64;
    }
    let header = header.ok_or_else(|| {
        corrupt(
            1,
            "the file has no header line: it is not a census shard file".into(),
        )
    })?;
    Ok((header, whole_len, read_len))
}

/// Reads a whole shard file (for `census merge`): its header and records; a torn or altered
/// line anywhere is an error.
pub fn read(path: &Path) -> Result<(Header, Vec<Record>), JournalError> {
    let file = File::open(path).map_err(|source| JournalError::Io {
        action: "open",
        path: path.to_path_buf(),
        source,
    })?;
    let mut records = Vec::new();
    let (header, _, _) = parse(path, BufReader::new(file), &mut records, false)?;
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
