//! Checkpoint files: the computed prefix `G(0..len)` of a table, saved so that an interrupted
//! long run (Ctrl-C, a killed job) loses no finished work and can be resumed with `--resume`.
//!
//! Why a format of our own: the file must be cheap to write every few minutes for tables of
//! 10^8 values (so it holds the values in the table's narrow storage, not as text), and a
//! resumed run must never silently continue from a table of *another* game or from a damaged
//! file (so it carries a fingerprint of the game and a checksum over everything).
//!
//! Layout, all integers little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `SGSCKPT\0` |
//! | 4 | format version ([`FORMAT_VERSION`]) |
//! | 8 | game fingerprint ([`Fingerprint::hash`]) |
//! | 4 + k | length `k` and UTF-8 text of the game's label (for error messages only) |
//! | 1 | value width in bytes: 1, 2 or 4 |
//! | 8 | number of values `len` |
//! | len · width | `G(0), G(1), …` |
//! | 8 | FNV-1a 64-bit checksum of every byte before it |
//!
//! **The fingerprint** is the FNV-1a hash of a canonical description of the moves, chosen so
//! that two games share a checkpoint exactly when the engine computes the same table for them:
//! for a game the engine runs as a take-and-break code (family forms, and general rules lowered
//! to a code) it is `code:` followed by the code's `Display` text, so `rules/colouring-game.sg`
//! and `octal 0.07` share checkpoints; for general rules without a code it is `rules:` followed
//! by the whole source text and every parameter value after `--set` (editing the file, even a
//! comment, invalidates the checkpoint — conservative, never wrong). The game's name is not
//! used: two files may give different games the same name.
//!
//! The checksum catches damage (truncation, bit flips), not forgery: a hand-crafted file with a
//! valid checksum is trusted.

use std::hash::Hasher;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use thiserror::Error;

use super::table::{Storage, Values};
use super::{Hint, SgTable};
use crate::fs::{self, FsError};
use crate::rules::Game;

/// The first eight bytes of every checkpoint file.
pub const MAGIC: [u8; 8] = *b"SGSCKPT\0";

/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// Longest label accepted when reading (a longer one means the file is damaged).
const MAX_LABEL: usize = 1 << 16;

/// Bytes before the label: magic, version, fingerprint, label length.
const HEAD: usize = 8 + 4 + 8 + 4;

/// The 64-bit FNV-1a hash (Fowler–Noll–Vo), used both for fingerprints and as the checksum.
#[derive(Clone, Copy, Debug)]
pub struct Fnv64(u64);

impl Default for Fnv64 {
    fn default() -> Self {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv64 {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// FNV-1a of `bytes`.
pub fn fnv64(bytes: &[u8]) -> u64 {
    let mut h = Fnv64::default();
    h.write(bytes);
    h.finish()
}

/// What identifies the table of a game: a hash of its canonical moves (see the module docs)
/// and a label for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// FNV-1a of the canonical description.
    pub hash: u64,
    /// How messages name the game, e.g. `octal 0.07` or `Take half with k=3`.
    pub label: String,
    /// True when the game is a take-and-break code: then `G(n) ≤ 2n` for every heap `n` (each
    /// move lowers `2·tokens − heaps`, so no play from a heap of `n` is longer than `2n − 1`
    /// moves, and a value is at most the longest play), which a resumed checkpoint must obey.
    pub code: bool,
}

impl Fingerprint {
    /// The fingerprint of `game`'s table.
    pub fn of(game: &Game) -> Self {
        match game.code() {
            Some(code) => {
                let code = code.to_string();
                let label = if game.name.contains(&code) {
                    game.name.clone()
                } else {
                    format!("{} (code {code})", game.name)
                };
                Fingerprint {
                    hash: fnv64(format!("code:{code}").as_bytes()),
                    label,
                    code: true,
                }
            }
            None => {
                let mut canonical = format!("rules:{}", game.source.text);
                let mut label = game.name.clone();
                for (i, (name, value)) in game.params.iter().enumerate() {
                    canonical += &format!("\0{name}={value}");
                    label += &format!("{}{name}={value}", if i == 0 { " with " } else { ", " });
                }
                Fingerprint {
                    hash: fnv64(canonical.as_bytes()),
                    label,
                    code: false,
                }
            }
        }
    }
}

/// Why a checkpoint could not be read or written. Every message says what to do.
#[derive(Debug, Error)]
pub enum CheckpointError {
    /// The file could not be read.
    #[error("cannot read checkpoint {}: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },
    /// The file does not start with [`MAGIC`].
    #[error(
        "{} is not an sgscope checkpoint (no checkpoint header)",
        .path.display()
    )]
    NotACheckpoint {
        /// The file.
        path: PathBuf,
    },
    /// The file was written by another version of the format.
    #[error(
        "checkpoint {} has format version {found}, but this sgscope reads version {FORMAT_VERSION}",
        .path.display()
    )]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
    },
    /// The checksum or the structure does not match: the file is damaged or incomplete.
    #[error(
        "checkpoint {} is damaged ({what})",
        .path.display()
    )]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong, e.g. "checksum mismatch".
        what: String,
    },
    /// The file holds the table of another game.
    #[error(
        "checkpoint {} was made for game `{made_for}`, not `{asked}`",
        .path.display()
    )]
    WrongGame {
        /// The file.
        path: PathBuf,
        /// The label stored in the file.
        made_for: String,
        /// The label of the game asked for.
        asked: String,
    },
    /// The file claims more values than the memory available holds.
    #[error(
        "checkpoint {} holds {values} values ({}), more than the {} of memory available",
        .path.display(),
        super::human_bytes(*.bytes),
        super::human_bytes(*.available)
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// How many values it claims.
        values: u64,
        /// Their bytes in the file.
        bytes: u64,
        /// The memory available.
        available: u64,
    },
    /// Writing the file failed.
    #[error("cannot save checkpoint: {0}")]
    Write(#[from] FsError),
}

impl CheckpointError {
    /// What to do about it (the command line words it).
    pub fn hint(&self) -> Option<Hint> {
        match self {
            CheckpointError::NotACheckpoint { .. } => Some(Hint::CheckpointFile),
            CheckpointError::Version { .. } | CheckpointError::Damaged { .. } => {
                Some(Hint::StartOver)
            }
            CheckpointError::WrongGame { .. } => Some(Hint::SameGameAsCheckpoint),
            CheckpointError::TooLarge { .. } => Some(Hint::MoreMemoryOrStartOver),
            CheckpointError::Read { .. } | CheckpointError::Write(_) => None,
        }
    }
}

/// A writer that hashes everything written through it.
struct Hashing<'a> {
    inner: &'a mut dyn Write,
    hash: Fnv64,
}

impl Write for Hashing<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.write(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Writes the checkpoint of `table` for the game `fingerprint` to `out`.
pub fn write(out: &mut dyn Write, fingerprint: &Fingerprint, table: &SgTable) -> io::Result<()> {
    let mut w = Hashing {
        inner: out,
        hash: Fnv64::default(),
    };
    w.write_all(&MAGIC)?;
    w.write_all(&FORMAT_VERSION.to_le_bytes())?;
    w.write_all(&fingerprint.hash.to_le_bytes())?;
    let label = fingerprint.label.as_bytes();
    let label = &label[..label.len().min(MAX_LABEL)];
    w.write_all(&(label.len() as u32).to_le_bytes())?;
    w.write_all(label)?;
    // Nine-bit tables are written as `u16` (and read back into nine bits by `push`).
    let width = match table.storage() {
        Storage::U8(_) => 1,
        Storage::U9(_) | Storage::U16(_) => 2,
        Storage::U32(_) => 4,
    };
    w.write_all(&[width])?;
    w.write_all(&(table.len() as u64).to_le_bytes())?;
    // In blocks, so that a table of 10^8 values is not copied whole.
    const BLOCK: usize = 1 << 14;
    let mut buf = Vec::with_capacity(BLOCK * 4);
    match table.storage() {
        Storage::U8(v) => w.write_all(v)?,
        Storage::U9(v) => {
            for start in (0..v.len()).step_by(BLOCK) {
                buf.clear();
                let block = start..(start + BLOCK).min(v.len());
                buf.extend(block.flat_map(|i| (v.at(i) as u16).to_le_bytes()));
                w.write_all(&buf)?;
            }
        }
        Storage::U16(v) => {
            for block in v.chunks(BLOCK) {
                buf.clear();
                buf.extend(block.iter().flat_map(|x| x.to_le_bytes()));
                w.write_all(&buf)?;
            }
        }
        Storage::U32(v) => {
            for block in v.chunks(BLOCK) {
                buf.clear();
                buf.extend(block.iter().flat_map(|x| x.to_le_bytes()));
                w.write_all(&buf)?;
            }
        }
    }
    let checksum = w.hash.finish();
    w.inner.write_all(&checksum.to_le_bytes())
}

/// The checkpoint of `table` as bytes (see [`write()`]).
pub fn encode(fingerprint: &Fingerprint, table: &SgTable) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(64 + table.len() * table.value_bits().div_ceil(8) as usize);
    write(&mut bytes, fingerprint, table).expect("writing to a Vec cannot fail");
    bytes
}

/// Reads the table from checkpoint bytes, checking magic, version, checksum, structure and that
/// it was made for the game `expected`. `path` is only used in error messages. Never panics.
pub fn decode(
    bytes: &[u8],
    expected: &Fingerprint,
    path: &Path,
) -> Result<SgTable, CheckpointError> {
    decode_from(bytes, expected, path)
}

/// Bytes read by offset: a checkpoint in memory, or in a file read in blocks (so that loading a
/// table of 2^30 values takes no second copy of it in memory).
trait Bytes {
    fn len(&self) -> u64;
    /// Fills `buf` from offset `at` (`at + buf.len() ≤ len()`).
    fn read_at(&self, at: u64, buf: &mut [u8]) -> io::Result<()>;
}

impl Bytes for [u8] {
    fn len(&self) -> u64 {
        <[u8]>::len(self) as u64
    }

    fn read_at(&self, at: u64, buf: &mut [u8]) -> io::Result<()> {
        buf.copy_from_slice(&self[at as usize..at as usize + buf.len()]);
        Ok(())
    }
}

/// An open file and its length.
struct FileBytes {
    file: std::fs::File,
    len: u64,
}

impl Bytes for FileBytes {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, at: u64, buf: &mut [u8]) -> io::Result<()> {
        std::os::unix::fs::FileExt::read_exact_at(&self.file, buf, at)
    }
}

/// Bytes per block when a checkpoint is hashed and read (a multiple of every value width).
const READ_BLOCK: usize = 1 << 20;

/// [`decode`] from any [`Bytes`]: the header, a pass that checks the checksum, and a pass that
/// reads the values block by block.
fn decode_from(
    bytes: &(impl Bytes + ?Sized),
    expected: &Fingerprint,
    path: &Path,
) -> Result<SgTable, CheckpointError> {
    let damaged = |what: &str| CheckpointError::Damaged {
        path: path.to_path_buf(),
        what: what.to_string(),
    };
    let read_error = |source| CheckpointError::Read {
        path: path.to_path_buf(),
        source,
    };
    let total = bytes.len();
    // Everything up to the values: fixed fields, the longest label, width and length.
    let mut head = vec![0u8; total.min((HEAD + MAX_LABEL + 1 + 8) as u64) as usize];
    bytes.read_at(0, &mut head).map_err(read_error)?;
    if head.len() < MAGIC.len() || head[..MAGIC.len()] != MAGIC {
        return Err(CheckpointError::NotACheckpoint {
            path: path.to_path_buf(),
        });
    }
    let mut reader = Reader {
        bytes: &head,
        at: 8,
    };
    let version = reader.u32().ok_or_else(|| damaged("truncated header"))?;
    if version != FORMAT_VERSION {
        return Err(CheckpointError::Version {
            path: path.to_path_buf(),
            found: version,
        });
    }
    if total < (HEAD + 1 + 8 + 8) as u64 {
        return Err(damaged("truncated header"));
    }
    let body_len = total - 8;
    // The header first, and every size it claims checked against the file's length and the
    // memory available, before the file is hashed or anything is allocated: a forged or
    // sparse file claiming 64 GB must not be read whole first.
    let mut reader = Reader {
        bytes: &head[..head.len().min(body_len as usize)],
        at: 12,
    };
    let hash = reader.u64().ok_or_else(|| damaged("truncated header"))?;
    let label_len = reader.u32().ok_or_else(|| damaged("truncated header"))? as usize;
    if label_len > MAX_LABEL {
        return Err(damaged("label too long"));
    }
    let label = reader
        .take(label_len)
        .ok_or_else(|| damaged("truncated label"))?;
    let label = String::from_utf8_lossy(label).into_owned();
    let width = reader.take(1).ok_or_else(|| damaged("truncated header"))?[0] as usize;
    if !matches!(width, 1 | 2 | 4) {
        return Err(damaged(&format!("value width {width} is not 1, 2 or 4")));
    }
    let len = reader.u64().ok_or_else(|| damaged("truncated header"))?;
    let values_at = reader.at as u64;
    let values_len = body_len - values_at;
    let expected_bytes = len.checked_mul(width as u64);
    if expected_bytes != Some(values_len) || usize::try_from(len).is_err() {
        return Err(damaged(&format!(
            "it says {len} values of {width} bytes but holds {values_len} bytes of values"
        )));
    }
    // The table is kept at least `width` bytes a value (a nine-bit table in two).
    let available = super::available_memory();
    if values_len > available {
        return Err(CheckpointError::TooLarge {
            path: path.to_path_buf(),
            values: len,
            bytes: values_len,
            available,
        });
    }
    let mut hash_state = Fnv64::default();
    let mut block = vec![0u8; READ_BLOCK];
    for at in (0..body_len).step_by(READ_BLOCK) {
        let piece = &mut block[..(body_len - at).min(READ_BLOCK as u64) as usize];
        bytes.read_at(at, piece).map_err(read_error)?;
        hash_state.write(piece);
    }
    let mut checksum = [0u8; 8];
    bytes.read_at(body_len, &mut checksum).map_err(read_error)?;
    if hash_state.finish() != u64::from_le_bytes(checksum) {
        return Err(damaged("checksum mismatch"));
    }
    if hash != expected.hash {
        return Err(CheckpointError::WrongGame {
            path: path.to_path_buf(),
            made_for: label,
            asked: expected.label.clone(),
        });
    }
    let mut table = SgTable::new();
    table.reserve(len as usize);
    let mut largest = 0u32;
    for at in (values_at..body_len).step_by(READ_BLOCK) {
        let piece = &mut block[..(body_len - at).min(READ_BLOCK as u64) as usize];
        bytes.read_at(at, piece).map_err(read_error)?;
        for chunk in piece.chunks_exact(width) {
            let value = match width {
                1 => u32::from(chunk[0]),
                2 => u32::from(u16::from_le_bytes([chunk[0], chunk[1]])),
                _ => u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]),
            };
            // A value no game of this kind can have (the engine would size its sets by it).
            let n = table.len() as u64;
            if expected.code && u64::from(value) > 2 * n {
                return Err(damaged(&format!(
                    "G({n}) = {value}, but a heap of {n} of a take-and-break code has values at most {}",
                    2 * n
                )));
            }
            // Any heap game: a move leaves smaller heaps, each of value below 2^b when every
            // value so far is, so their XOR is too, and the mex is at most 2^b.
            let most = (u64::from(largest) + 1).next_power_of_two();
            if u64::from(value) > most {
                return Err(damaged(&format!(
                    "G({n}) = {value}, but the values before it are at most {largest}, so G({n}) is at most {most} (the mex of XORs of smaller values)"
                )));
            }
            largest = largest.max(value);
            table.push(value);
        }
    }
    Ok(table)
}

/// Little-endian fields from a byte slice; `None` past its end.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let slice = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(slice)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
}

/// Saves the checkpoint of `table` to `path` atomically (a temporary file renamed over it), so
/// an interruption while saving leaves the previous checkpoint intact.
pub fn save(
    path: &Path,
    fingerprint: &Fingerprint,
    table: &SgTable,
) -> Result<(), CheckpointError> {
    fs::write_atomically(path, |out| write(out, fingerprint, table))?;
    Ok(())
}

/// Loads the table saved in `path`, checking that it is undamaged and made for `expected`.
pub fn load(path: &Path, expected: &Fingerprint) -> Result<SgTable, CheckpointError> {
    let read_error = |source| CheckpointError::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(read_error)?;
    let len = file.metadata().map_err(read_error)?.len();
    decode_from(&FileBytes { file, len }, expected, path)
}

/// How often a long run saves its checkpoint (checked between the engine's chunks).
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(120);

/// The hook a checkpointed run passes to [`extend_in_chunks`](super::extend_in_chunks): saves
/// the table every [`CHECKPOINT_EVERY`], and saves it and stops when `interrupted` is set (by a
/// Ctrl-C handler). A failed save does not stop the run (its result matters more than the
/// checkpoint): the error is kept in [`Saver::error`] and the save is tried again an interval
/// later.
#[derive(Debug)]
pub struct Saver<'a> {
    path: PathBuf,
    fingerprint: Fingerprint,
    every: Duration,
    last_save: Instant,
    interrupted: &'a AtomicBool,
    /// The length of the table last saved (or loaded from `path`), 0 if none.
    pub saved_len: usize,
    /// Why the last save failed (`None` once a save succeeds).
    pub error: Option<CheckpointError>,
}

impl<'a> Saver<'a> {
    /// A saver writing `path` every `every` and when `interrupted` becomes true.
    pub fn new(
        path: &Path,
        fingerprint: Fingerprint,
        every: Duration,
        interrupted: &'a AtomicBool,
    ) -> Self {
        Saver {
            path: path.to_path_buf(),
            fingerprint,
            every,
            last_save: Instant::now(),
            interrupted,
            saved_len: 0,
            error: None,
        }
    }

    /// The checkpoint file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Saves `table` now.
    pub fn save(&mut self, table: &SgTable) -> Result<(), CheckpointError> {
        // The next try is an interval later, whether this one succeeds or not.
        self.last_save = Instant::now();
        save(&self.path, &self.fingerprint, table)?;
        self.saved_len = table.len();
        Ok(())
    }

    /// The hook: save when due or interrupted (a failure is kept in [`Saver::error`]); stop
    /// when interrupted.
    pub fn between_chunks(&mut self, table: &SgTable) -> ControlFlow<()> {
        let interrupted = self.interrupted.load(Ordering::SeqCst);
        if interrupted || self.last_save.elapsed() >= self.every {
            self.error = self.save(table).err();
        }
        if interrupted {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{load as load_rules, SourceFile};
    use proptest::prelude::*;

    fn game(text: &str, sets: &[(String, i64)]) -> Game {
        load_rules(SourceFile::new("<test>", text), sets).unwrap()
    }

    /// A code's fingerprint without its value bound, so that any values round-trip.
    fn fp() -> Fingerprint {
        Fingerprint {
            code: false,
            ..Fingerprint::of(&game("octal 0.07", &[]))
        }
    }

    fn path() -> PathBuf {
        PathBuf::from("ck.bin")
    }

    /// `values` after `0, 1, 2, 4, …` up to the largest's highest bit, so that every value is
    /// within the bound a heap game's checkpoint must obey (at most the next power of two
    /// above every value before it).
    fn within_the_bound(values: &[u32]) -> Vec<u32> {
        let bits = 32 - values.iter().max().copied().unwrap_or(0).leading_zeros();
        let mut climbing = vec![0];
        climbing.extend((0..bits).map(|b| 1u32 << b));
        climbing.extend(values);
        climbing
    }

    #[test]
    fn round_trips_every_width() {
        for (values, bits) in [
            (vec![0, 1, 255, 3], 8),
            (vec![0, 256, 65535, 7], 16),
            (vec![0, 70_000, u32::MAX, 1], 32),
            (vec![], 8),
        ] {
            let table = SgTable::from_values(&within_the_bound(&values));
            assert_eq!(table.value_bits(), bits);
            let bytes = encode(&fp(), &table);
            let back = decode(&bytes, &fp(), &path()).unwrap();
            assert_eq!(back, table);
            assert_eq!(back.value_bits(), bits);
        }
        // A 9-bit table is saved as `u16`.
        let mut packed = SgTable::packed_from(0);
        within_the_bound(&[0, 256, 511, 7])
            .into_iter()
            .for_each(|v| packed.push(v));
        assert_eq!(packed.value_bits(), 9);
        let back = decode(&encode(&fp(), &packed), &fp(), &path()).unwrap();
        assert_eq!(back, packed);
    }

    #[test]
    fn files_of_several_blocks_load_and_damage_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("big.ckpt");
        let values: Vec<u32> = (0..1_500_000u32).map(|n| n % 1000).collect();
        let table = SgTable::from_values(&values);
        save(&file, &fp(), &table).unwrap();
        assert!(std::fs::metadata(&file).unwrap().len() > 2 * READ_BLOCK as u64);
        assert_eq!(load(&file, &fp()).unwrap(), table);
        let mut bytes = std::fs::read(&file).unwrap();
        bytes[2 * READ_BLOCK + 17] ^= 1;
        std::fs::write(&file, &bytes).unwrap();
        let err = load(&file, &fp()).unwrap_err().to_string();
        assert!(err.contains("checksum mismatch"), "{err}");
    }

    #[test]
    fn save_and_load_through_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("g.ckpt");
        let table = SgTable::from_values(&within_the_bound(&[0, 1, 2, 0, 300]));
        save(&file, &fp(), &table).unwrap();
        assert_eq!(load(&file, &fp()).unwrap(), table);
        let missing = load(&dir.path().join("none"), &fp()).unwrap_err();
        assert!(matches!(missing, CheckpointError::Read { .. }), "{missing}");
    }

    #[test]
    fn another_game_is_refused_with_both_names() {
        let table = SgTable::from_values(&[0, 1, 1, 2]);
        let bytes = encode(&fp(), &table);
        let kayles = Fingerprint::of(&game("octal 0.77", &[]));
        let err = decode(&bytes, &kayles, &path()).unwrap_err();
        assert!(matches!(err, CheckpointError::WrongGame { .. }));
        let message = err.to_string();
        assert!(
            message.contains("made for game `octal 0.07`, not `octal 0.77`"),
            "{message}"
        );
    }

    #[test]
    fn fingerprints_separate_games_and_parameters() {
        let bash = "param k = 3\nsubtraction 1..=k";
        let rules = "name \"half\"\nparam k = 1\nmove m: x in k..=n/2 => n - x";
        let k = |v| vec![("k".to_string(), v)];
        // Codes: the fingerprint is the code, whatever the name or form.
        assert_eq!(
            Fingerprint::of(&game(bash, &k(3))).hash,
            Fingerprint::of(&game("subtraction {1, 2, 3}", &[])).hash
        );
        assert_ne!(
            Fingerprint::of(&game(bash, &k(3))).hash,
            Fingerprint::of(&game(bash, &k(4))).hash
        );
        // General rules: the text and the parameter values.
        let one = Fingerprint::of(&game(rules, &k(1)));
        let two = Fingerprint::of(&game(rules, &k(2)));
        assert_ne!(one.hash, two.hash);
        assert!(two.label.contains("k=2"), "{}", two.label);
        assert_ne!(one.hash, fp().hash);
    }

    #[test]
    fn every_kind_of_damage_has_its_error() {
        let table = SgTable::from_values(&[0, 1, 0, 1, 2, 0, 3]);
        let good = encode(&fp(), &table);
        let check = |bytes: &[u8]| decode(bytes, &fp(), &path()).unwrap_err();

        assert!(matches!(check(b""), CheckpointError::NotACheckpoint { .. }));
        assert!(matches!(
            check(b"n,sg\n0,0\n1,1\n"),
            CheckpointError::NotACheckpoint { .. }
        ));

        let mut version = good.clone();
        version[8] = 2;
        let err = check(&version);
        assert!(
            matches!(err, CheckpointError::Version { found: 2, .. }),
            "{err}"
        );

        let mut flipped = good.clone();
        let last_value = good.len() - 9;
        flipped[last_value] ^= 0x10;
        let err = check(&flipped);
        assert!(
            err.to_string().contains("damaged (checksum mismatch)"),
            "{err}"
        );
        assert_eq!(err.hint(), Some(Hint::StartOver), "{err}");

        let err = check(&good[..good.len() - 3]);
        assert!(matches!(err, CheckpointError::Damaged { .. }), "{err}");
        let err = check(&good[..14]);
        assert!(matches!(err, CheckpointError::Damaged { .. }), "{err}");

        // A length that disagrees with the data, under a valid checksum.
        let mut body = good[..good.len() - 8].to_vec();
        let len_at = HEAD + fp().label.len() + 1;
        body[len_at] = 99;
        body.extend(fnv64(&body).to_le_bytes());
        let err = check(&body);
        assert!(err.to_string().contains("says 99 values"), "{err}");

        // A width that is not 1, 2 or 4, under a valid checksum.
        let mut body = good[..good.len() - 8].to_vec();
        body[len_at - 1] = 3;
        body.extend(fnv64(&body).to_le_bytes());
        let err = check(&body);
        assert!(err.to_string().contains("value width 3"), "{err}");
    }

    #[test]
    fn a_code_value_past_twice_its_heap_is_refused() {
        let code = Fingerprint::of(&game("octal 0.07", &[]));
        assert!(code.code);
        let genuine = SgTable::from_values(&[0, 0, 1, 1, 2, 0]);
        assert_eq!(
            decode(&encode(&code, &genuine), &code, &path()).unwrap(),
            genuine
        );
        let forged = SgTable::from_values(&[0, 0, u32::MAX]);
        let err = decode(&encode(&code, &forged), &code, &path()).unwrap_err();
        assert!(
            err.to_string().contains("G(2) = 4294967295") && err.hint() == Some(Hint::StartOver),
            "{err}"
        );
    }

    #[test]
    fn a_value_past_the_doubling_bound_is_refused_for_any_heap_game() {
        let rules = fp();
        assert!(!rules.code);
        // Nim's values 0, 1, 2, 3 and then 4 are within the bound (at most 1, 2, 4, 4, 8).
        let genuine = SgTable::from_values(&[0, 1, 2, 3, 4]);
        assert_eq!(
            decode(&encode(&rules, &genuine), &rules, &path()).unwrap(),
            genuine
        );
        for (forged, message) in [
            (
                vec![5],
                "G(0) = 5, but the values before it are at most 0, so G(0) is at most 1",
            ),
            (
                vec![0, 1, u32::MAX],
                "G(2) = 4294967295, but the values before it are at most 1, so G(2) is at most 2",
            ),
        ] {
            let table = SgTable::from_values(&forged);
            let err = decode(&encode(&rules, &table), &rules, &path()).unwrap_err();
            assert!(err.to_string().contains(message), "{err}");
        }
    }

    #[test]
    fn sizes_are_checked_before_the_file_is_read() {
        // A header claiming 2^40 values of 4 bytes, over a short file: refused on its sizes,
        // whatever the checksum.
        let good = encode(&fp(), &SgTable::from_values(&[0, 1]));
        let mut body = good[..good.len() - 8].to_vec();
        let len_at = HEAD + fp().label.len() + 1;
        body[len_at - 1] = 4;
        body[len_at..len_at + 8].copy_from_slice(&(1u64 << 40).to_le_bytes());
        body.extend([0; 8]);
        let err = decode(&body, &fp(), &path()).unwrap_err();
        assert!(
            err.to_string().contains("says 1099511627776 values"),
            "{err}"
        );
    }

    #[test]
    fn the_saver_saves_when_due_and_stops_when_interrupted() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("run.ckpt");
        let flag = AtomicBool::new(false);
        let table = SgTable::from_values(&[0, 1, 2]);
        let mut lazy = Saver::new(&file, fp(), Duration::from_secs(3600), &flag);
        assert!(lazy.between_chunks(&table).is_continue());
        assert!(!file.exists(), "not due yet");
        let mut eager = Saver::new(&file, fp(), Duration::ZERO, &flag);
        assert!(eager.between_chunks(&table).is_continue());
        assert_eq!(load(&file, &fp()).unwrap(), table);
        flag.store(true, Ordering::SeqCst);
        let longer = SgTable::from_values(&[0, 1, 2, 3]);
        assert!(lazy.between_chunks(&longer).is_break());
        assert_eq!(lazy.saved_len, 4);
        assert_eq!(load(&file, &fp()).unwrap(), longer);
        assert!(lazy.error.is_none());
        // A folder that does not exist: the save fails, the run goes on, the error is kept; an
        // interrupted run still stops.
        let broken_path = dir.path().join("no/such/dir/f");
        let mut broken = Saver::new(&broken_path, fp(), Duration::ZERO, &flag);
        flag.store(false, Ordering::SeqCst);
        assert!(broken.between_chunks(&table).is_continue());
        assert!(matches!(broken.error, Some(CheckpointError::Write(_))));
        assert_eq!(broken.saved_len, 0);
        // The folder appears: the next save succeeds and clears the error.
        std::fs::create_dir_all(broken_path.parent().unwrap()).unwrap();
        assert!(broken.between_chunks(&longer).is_continue());
        assert!(broken.error.is_none());
        assert_eq!(broken.saved_len, 4);
        std::fs::remove_dir_all(dir.path().join("no")).unwrap();
        flag.store(true, Ordering::SeqCst);
        assert!(broken.between_chunks(&table).is_break());
        assert!(broken.error.is_some());
    }

    proptest! {
        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = decode(&bytes, &fp(), &path());
            let mut with_magic = MAGIC.to_vec();
            with_magic.extend(FORMAT_VERSION.to_le_bytes());
            with_magic.extend(&bytes);
            prop_assert!(decode(&with_magic, &fp(), &path()).is_err());
        }

        #[test]
        fn truncations_and_bit_flips_are_errors(
            values in proptest::collection::vec(0u32..70_000, 0..300),
            cut in any::<prop::sample::Index>(),
            flip in any::<prop::sample::Index>(),
            bit in 0u8..8,
        ) {
            let table = SgTable::from_values(&within_the_bound(&values));
            let good = encode(&fp(), &table);
            prop_assert_eq!(decode(&good, &fp(), &path()).unwrap(), table);
            let cut = cut.index(good.len());
            prop_assert!(decode(&good[..cut], &fp(), &path()).is_err());
            let mut flipped = good.clone();
            flipped[flip.index(good.len())] ^= 1 << bit;
            prop_assert!(decode(&flipped, &fp(), &path()).is_err());
        }
    }
}
