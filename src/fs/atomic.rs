//! One writer for every output file: the data goes to a temporary file in the target's folder,
//! is flushed and fsynced, and only then renamed over the target. A rename within one file
//! system is atomic (POSIX `rename(2)`), so readers see either the old file or the complete
//! new one; on an error, or if the writer is dropped without [`AtomicFile::commit`], the
//! temporary file is removed and the target is untouched.
//!
//! A target that exists and is not a
//! regular file (`/dev/null`, a named pipe, a terminal) is written in place: renaming over it
//! would replace the device with a plain file. A symbolic link is followed, so the file it
//! points to is replaced and the link stays.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::FsError;

/// Distinguishes temporary files created by one process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

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
        let file_name = target.file_name().ok_or_else(|| {
            error(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the path does not name a file",
            ))
        })?;
        if let Ok(metadata) = fs::metadata(&target) {
            if !metadata.is_file() && !metadata.is_dir() {
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
        }
        // Replace what a symbolic link points to, not the link.
        let real_target = match fs::symlink_metadata(&target) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                fs::canonicalize(&target).unwrap_or_else(|_| target.clone())
            }
            _ => target.clone(),
        };
        let folder = match real_target.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let file_name = real_target.file_name().unwrap_or(file_name);
        loop {
            let unique = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
            let mut temp_name = std::ffi::OsString::from(".");
            temp_name.push(file_name);
            temp_name.push(format!(".{}.{unique}.tmp", std::process::id()));
            let temp_path = folder.join(temp_name);
            match OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&temp_path)
            {
                Ok(file) => {
                    return Ok(AtomicFile {
                        target,
                        replace: Some(Replacement {
                            temp_path,
                            destination: real_target,
                        }),
                        writer: Some(BufWriter::with_capacity(1 << 16, file)),
                    })
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
