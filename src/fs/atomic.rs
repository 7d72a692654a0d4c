//! One writer for every output file: the data goes to a temporary file in the target's folder,
//! is flushed and fsynced, and only then renamed over the target. A rename within one file
//! system is atomic (POSIX `rename(2)`), so readers see either the old file or the complete
//! new one; on an error, or if the writer is dropped without [`AtomicFile::commit`], the
//! temporary file is removed and the target is untouched.
//!
//! **Temporary files** are named `.NAME.sgscope-tmp.PID.K` (`NAME` the target's file name,
//! `PID` this process, `K` a counter), in the target's folder. Every exit the process controls
//! removes them: an error or a panic drops the [`AtomicFile`], and an exit that skips
//! destructors (a second Ctrl-C) first calls [`remove_temporaries`], which removes every one
//! still open. A process killed outright (`kill -9`, a crash) cannot clean up; the next
//! [`AtomicFile::create`] for the same target removes the temporaries of that target whose
//! process no longer runs (checked in `/proc`; where there is no `/proc`, none is removed).
//!
//! A target that exists and is not a
//! regular file (`/dev/null`, a named pipe, a terminal) is written in place: renaming over it
//! would replace the device with a plain file. A symbolic link is followed, so the file it
//! points to is replaced and the link stays.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use super::FsError;

/// Distinguishes temporary files created by one process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// The temporary files this process has open, for [`remove_temporaries`].
static OPEN_TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// What temporary file names contain between the target's name and the process id.
const TEMP_MARK: &str = ".sgscope-tmp.";

/// Removes every temporary file this process still has open, for an exit that skips
/// destructors (`std::process::exit` from a signal handler). Safe to call from any thread; a
/// writer whose temporary file was removed fails on commit and leaves nothing behind.
pub fn remove_temporaries() {
    remove_temporaries_where(|_| true);
}

/// [`remove_temporaries`] for the temporary files whose path passes `filter` (tests run in
/// parallel in one process: each removes its own only).
fn remove_temporaries_where(filter: impl Fn(&Path) -> bool) {
    // A handler may run while another thread holds the lock (or panicked with it): never wait.
    let mut paths = match OPEN_TEMPORARIES.try_lock() {
        Ok(paths) => paths,
        Err(std::sync::TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
        Err(std::sync::TryLockError::WouldBlock) => return,
    };
    paths.retain(|path| {
        let remove = filter(path);
        if remove {
            let _ = fs::remove_file(path);
        }
        !remove
    });
}

fn register(path: &Path) {
    if let Ok(mut paths) = OPEN_TEMPORARIES.lock() {
        paths.push(path.to_path_buf());
    }
}

fn unregister(path: &Path) {
    if let Ok(mut paths) = OPEN_TEMPORARIES.lock() {
        paths.retain(|p| p != path);
    }
}

/// The temporary file name `.NAME.sgscope-tmp.PID.K`.
fn temp_name(file_name: &std::ffi::OsStr, pid: u32, unique: u64) -> std::ffi::OsString {
    let mut name = std::ffi::OsString::from(".");
    name.push(file_name);
    name.push(format!("{TEMP_MARK}{pid}.{unique}"));
    name
}

/// The process id in `name` when it is a temporary file name of the target `file_name`.
fn temp_owner(name: &std::ffi::OsStr, file_name: &std::ffi::OsStr) -> Option<u32> {
    let name = name.to_str()?;
    let rest = name
        .strip_prefix('.')?
        .strip_prefix(file_name.to_str()?)?
        .strip_prefix(TEMP_MARK)?;
    let (pid, unique) = rest.split_once('.')?;
    unique.parse::<u64>().ok()?;
    pid.parse().ok()
}

/// Whether process `pid` may still run: false only when `/proc` exists and has no entry for it.
fn process_may_run(pid: u32) -> bool {
    !Path::new("/proc/self").exists() || Path::new(&format!("/proc/{pid}")).exists()
}

/// Removes the temporary files of `file_name` in `folder` left by processes that no longer
/// run (killed while writing). Best effort: a folder that cannot be read is left alone.
fn remove_stale_temporaries(folder: &Path, file_name: &std::ffi::OsStr) {
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    let me = std::process::id();
    for entry in entries.flatten() {
        let name = entry.file_name();
        if let Some(pid) = temp_owner(&name, file_name) {
            if pid != me && !process_may_run(pid) {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}

/// How [`AtomicFile::create`] writes a target.
enum Plan {
    /// A device or pipe, opened and written in place.
    InPlace,
    /// A temporary file in `folder` renamed to `destination` (the target, or the file a
    /// symbolic link at the target points to), whose file name is `file_name`.
    Replace {
        folder: PathBuf,
        file_name: std::ffi::OsString,
        destination: PathBuf,
    },
}

/// The most symbolic links followed from one path (Linux's own limit).
const MAX_LINKS: usize = 40;

/// `target` with every symbolic link at its end followed, whether or not the last one's
/// target exists (`fs::canonicalize` fails on a dangling link). Relative links are read from
/// the link's folder.
fn follow_links(target: &Path) -> io::Result<PathBuf> {
    let mut path = target.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&path) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let link = fs::read_link(&path)?;
                path = match path.parent() {
                    Some(folder) if link.is_relative() => folder.join(link),
                    _ => link,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("more than {MAX_LINKS} symbolic links in a row (a loop of links?)"),
    ))
}

/// How `target` is to be written, or why it cannot be.
fn plan(target: &Path) -> io::Result<Plan> {
    if target.file_name().is_none() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the path does not name a file",
        ));
    }
    if let Ok(metadata) = fs::metadata(target) {
        if metadata.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                "it is a folder, not a file",
            ));
        }
        if !metadata.is_file() {
            return Ok(Plan::InPlace);
        }
    }
    // Replace what a symbolic link points to, not the link; a dangling link is followed to
    // the file it names, which is then created (the link stays a link).
    let destination = follow_links(target)?;
    let folder = match destination.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let file_name = destination
        .file_name()
        .or_else(|| target.file_name())
        .unwrap_or_default()
        .to_os_string();
    Ok(Plan::Replace {
        folder,
        file_name,
        destination,
    })
}

/// Checks, before any long work, that `target` can be written: it names a file, is not a
/// folder, and its folder exists and accepts a new file (tried by creating and removing a
/// temporary file there). A device or pipe is checked for existence only (opening a pipe
/// would wait for a reader). The error says which of these failed.
pub fn check_writable(target: impl AsRef<Path>) -> Result<(), FsError> {
    let target = target.as_ref();
    let error = |source| FsError {
        action: "write",
        path: target.to_path_buf(),
        source,
    };
    let Plan::Replace {
        folder, file_name, ..
    } = plan(target).map_err(error)?
    else {
        return Ok(());
    };
    match fs::metadata(&folder) {
        Ok(metadata) if metadata.is_dir() => {}
        Ok(_) => {
            return Err(error(io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("{} is not a folder", folder.display()),
            )))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(error(io::Error::new(
                io::ErrorKind::NotFound,
                format!("the folder {} does not exist", folder.display()),
            )))
        }
        Err(e) => return Err(error(e)),
    }
    let probe = folder.join(temp_name(
        &file_name,
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed),
    ));
    match OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(file) => {
            drop(file);
            let _ = fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => Err(error(io::Error::new(
            e.kind(),
            format!("cannot create a file in {}: {e}", folder.display()),
        ))),
    }
}

#[derive(Debug)]
struct Replacement {
    temp_path: PathBuf,
    destination: PathBuf,
}

/// A file being written: a buffered temporary file that replaces `target` on
/// [`commit`](AtomicFile::commit).
#[derive(Debug)]
pub struct AtomicFile {
    target: PathBuf,
    /// The temporary file and the path it is renamed to on commit (`target`, or the file a
    /// symbolic link at `target` points to); `None` when the target is a device or pipe
    /// written in place.
    replace: Option<Replacement>,
    /// `None` once committed (so `Drop` knows not to clean up).
    writer: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Creates a uniquely named temporary file next to `target` (same folder, hence same file
    /// system, so the final rename is atomic).
    pub fn create(target: impl AsRef<Path>) -> Result<Self, FsError> {
        let target = target.as_ref().to_path_buf();
        let error = |source| FsError {
            action: "create a temporary file next to",
            path: target.clone(),
            source,
        };
        let (folder, file_name, destination) = match plan(&target).map_err(error)? {
            Plan::InPlace => {
                let file = OpenOptions::new()
                    .write(true)
                    .open(&target)
                    .map_err(error)?;
                return Ok(AtomicFile {
                    target,
                    replace: None,
                    writer: Some(BufWriter::with_capacity(1 << 16, file)),
                });
            }
            Plan::Replace {
                folder,
                file_name,
                destination,
            } => (folder, file_name, destination),
        };
        remove_stale_temporaries(&folder, &file_name);
        loop {
            let unique = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
            let temp_path = folder.join(temp_name(&file_name, std::process::id(), unique));
            match OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&temp_path)
            {
                Ok(file) => {
                    register(&temp_path);
                    return Ok(AtomicFile {
                        target,
                        replace: Some(Replacement {
                            temp_path,
                            destination,
                        }),
                        writer: Some(BufWriter::with_capacity(1 << 16, file)),
                    });
                }
                // Left over by another process with the same pid: try the next name.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(error(e)),
            }
        }
    }

    /// The file that will be replaced on commit.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Flushes, fsyncs and renames the temporary file over the target.
    pub fn commit(mut self) -> Result<(), FsError> {
        let Some(writer) = self.writer.take() else {
            return Ok(());
        };
        let Some(Replacement {
            temp_path,
            destination,
        }) = self.replace.take()
        else {
            // A device or pipe: flush only (fsync is meaningless there and fails on some).
            let mut writer = writer;
            return writer.flush().map_err(|source| FsError {
                action: "write",
                path: self.target.clone(),
                source,
            });
        };
        let result = finish_file(writer).and_then(|()| fs::rename(&temp_path, &destination));
        unregister(&temp_path);
        if let Err(source) = result {
            let _ = fs::remove_file(&temp_path);
            return Err(FsError {
                action: "write",
                path: self.target.clone(),
                source,
            });
        }
        // Make the rename itself durable; not every platform can open a folder, so best effort.
        if let Some(folder) = destination.parent().filter(|p| !p.as_os_str().is_empty()) {
            if let Ok(dir) = File::open(folder) {
                let _ = dir.sync_all();
            }
        }
        Ok(())
    }
}

fn finish_file(writer: BufWriter<File>) -> io::Result<()> {
    let file = writer.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer_mut()?.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer_mut()?.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer_mut()?.flush()
    }
}

impl AtomicFile {
    fn writer_mut(&mut self) -> io::Result<&mut BufWriter<File>> {
        self.writer
            .as_mut()
            .ok_or_else(|| io::Error::other("the file was already committed"))
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Some(writer) = self.writer.take() {
            // Not committed: throw the partial data away, leaving the target untouched.
            drop(writer);
            if let Some(replacement) = &self.replace {
                let _ = fs::remove_file(&replacement.temp_path);
                unregister(&replacement.temp_path);
            }
        }
    }
}

/// Writes `path` atomically with `write`: the target is replaced only if `write` succeeds
/// and the data reaches the disk. `-` is an ordinary file name here (the command line's
/// console maps it to standard output).
pub fn write_atomically(
    path: impl AsRef<Path>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), FsError> {
    let mut file = AtomicFile::create(path)?;
    if let Err(source) = write(&mut file) {
        return Err(FsError {
            action: "write",
            path: file.target().to_path_buf(),
            source,
        });
    }
    file.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn commit_replaces_the_target_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.csv");
        fs::write(&target, "old").unwrap();
        write_atomically(&target, |w| w.write_all(b"new contents")).unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "new contents");
        assert_eq!(entries(dir.path()), vec!["out.csv"]);
    }

    #[test]
    fn failed_write_keeps_the_old_target_and_removes_the_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.csv");
        fs::write(&target, "old").unwrap();
        let result = write_atomically(&target, |w| {
            w.write_all(b"partial")?;
            Err(io::Error::other("disk on fire"))
        });
        let message = result.unwrap_err().to_string();
        assert!(
            message.contains("out.csv") && message.contains("disk on fire"),
            "{message}"
        );
        assert_eq!(fs::read_to_string(&target).unwrap(), "old");
        assert_eq!(entries(dir.path()), vec!["out.csv"]);
    }

    #[test]
    fn drop_without_commit_discards_the_data() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("chart.svg");
        {
            let mut file = AtomicFile::create(&target).unwrap();
            file.write_all(&[b'x'; 100_000]).unwrap();
            assert_eq!(
                entries(dir.path()).len(),
                1,
                "the temporary file exists while writing"
            );
        }
        assert!(entries(dir.path()).is_empty());
    }

    #[test]
    fn a_file_appears_on_commit_only() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("t.txt");
        let mut output = AtomicFile::create(&target).unwrap();
        output.write_all(b"hello").unwrap();
        assert!(!target.exists(), "nothing appears before commit");
        assert_eq!(output.target(), target);
        output.commit().unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "hello");
        write_atomically(&target, |w| w.write_all(b"again")).unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "again");
    }

    /// Renaming over `/dev/null` (as root) would turn it into a plain file that every later
    /// program reads garbage from; devices and pipes are written in place.
    #[test]
    fn a_named_pipe_is_written_in_place_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let pipe = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&pipe)
            .status()
            .unwrap();
        assert!(made.success());
        let reader = {
            let pipe = pipe.clone();
            std::thread::spawn(move || fs::read_to_string(pipe).unwrap())
        };
        write_atomically(&pipe, |w| w.write_all(b"through the pipe")).unwrap();
        // Checked before joining: a replaced pipe would leave the reader blocked forever.
        assert!(fs::symlink_metadata(&pipe).unwrap().file_type().is_fifo());
        assert_eq!(reader.join().unwrap(), "through the pipe");
        assert_eq!(entries(dir.path()), vec!["pipe"]);
    }

    #[test]
    fn writing_through_a_symbolic_link_keeps_the_link() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.csv");
        let link = dir.path().join("link.csv");
        fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomically(&link, |w| w.write_all(b"new")).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        assert_eq!(entries(dir.path()), vec!["link.csv", "real.csv"]);
    }

    /// The pid of a process that has ended (its entry is gone from `/proc`).
    #[test]
    fn writing_through_a_dangling_link_creates_its_target_and_keeps_the_link() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("out.txt");
        std::os::unix::fs::symlink("real.txt", &link).unwrap();
        check_writable(&link).unwrap();
        write_atomically(&link, |w| w.write_all(b"data")).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(
            fs::read_to_string(dir.path().join("real.txt")).unwrap(),
            "data"
        );
        // A loop of links is an error, not a hang.
        let a = dir.path().join("a");
        std::os::unix::fs::symlink("b", &a).unwrap();
        std::os::unix::fs::symlink("a", dir.path().join("b")).unwrap();
        assert!(write_atomically(&a, |w| w.write_all(b"x")).is_err());
    }

    fn dead_pid() -> u32 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert!(!process_may_run(pid));
        pid
    }

    #[test]
    fn temporaries_of_dead_processes_are_removed_by_the_next_write() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("t.csv");
        let name = std::ffi::OsStr::new("t.csv");
        // What `kill -9` during a write leaves: a temporary file of a process that is gone.
        let stale = dir.path().join(temp_name(name, dead_pid(), 0));
        fs::write(&stale, [b'x'; 4096]).unwrap();
        // A running process's temporary file, and another target's, stay.
        let live = dir.path().join(temp_name(name, 1, 3));
        fs::write(&live, "being written").unwrap();
        let other = dir
            .path()
            .join(temp_name(std::ffi::OsStr::new("u.csv"), dead_pid(), 0));
        fs::write(&other, "another target").unwrap();
        write_atomically(&target, |w| w.write_all(b"new")).unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        assert!(!stale.exists());
        assert!(live.exists() && other.exists());
        assert_eq!(temp_owner(&temp_name(name, 42, 7), name), Some(42));
        assert_eq!(
            temp_owner(std::ffi::OsStr::new(".t.csv.42.7.tmp"), name),
            None
        );
    }

    #[test]
    fn open_temporaries_are_removed_on_request() {
        let dir = tempfile::tempdir().unwrap();
        let mut file = AtomicFile::create(dir.path().join("c.ckpt")).unwrap();
        file.write_all(b"half").unwrap();
        let temp = entries(dir.path());
        assert_eq!(temp.len(), 1);
        assert!(temp[0].starts_with(".c.ckpt.sgscope-tmp."), "{temp:?}");
        // What the Ctrl-C handler does before `exit` (`remove_temporaries`), for this folder only.
        remove_temporaries_where(|path| path.starts_with(dir.path()));
        assert!(entries(dir.path()).is_empty());
        assert!(file.commit().is_err(), "the temporary file is gone");
        assert!(entries(dir.path()).is_empty());
    }

    #[test]
    fn writability_is_checked_before_the_work() {
        let dir = tempfile::tempdir().unwrap();
        let check = |path: &Path| check_writable(path).map_err(|e| e.to_string());
        assert_eq!(check(&dir.path().join("new.csv")), Ok(()));
        assert_eq!(check(Path::new("/dev/null")), Ok(()));
        assert!(entries(dir.path()).is_empty(), "the probe is removed");
        let missing = check(&dir.path().join("nodir/F")).unwrap_err();
        assert!(
            missing.contains("nodir/F") && missing.contains("nodir does not exist"),
            "{missing}"
        );
        let folder = check(dir.path()).unwrap_err();
        assert!(folder.contains("it is a folder"), "{folder}");
        fs::write(dir.path().join("file"), "").unwrap();
        let under_a_file = check(&dir.path().join("file/x")).unwrap_err();
        assert!(under_a_file.contains("is not a folder"), "{under_a_file}");
    }

    #[test]
    fn missing_folder_is_an_error_naming_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("no/such/folder/out.json");
        let message = write_atomically(&target, |w| w.write_all(b"{}"))
            .unwrap_err()
            .to_string();
        assert!(message.contains("no/such/folder/out.json"), "{message}");
    }
}
