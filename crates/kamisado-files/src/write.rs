//! The one way this project writes a file whole: under a temporary name beside it,
//! flushed to disk and renamed over it.
//!
//! A reader never sees half a file: an interrupted or failed write leaves the old file or
//! the new one, and a reader that has the old file open (or memory-mapped, as a database
//! is) keeps the old contents, because the old file is never truncated or changed in
//! place. Symbolic links are followed, so that a link keeps pointing at the new contents.
//!
//! Every temporary file of a write in progress is listed here, created and renamed (or
//! removed) under the list's lock, so that a process ending on an interrupt can remove
//! them with [`remove_temporary_files`] and hold the lock while it dies: a file is then
//! either removed or never created, and never renamed into place after the interrupt.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// The temporary files of writes in progress in this process.
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn temporary() -> MutexGuard<'static, Vec<PathBuf>> {
    // The list stays consistent whatever panicked while holding it: one push or removal.
    TEMPORARY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `path` with a suffix naming this process (`table.json.1234.tmp`): where a file is
/// written before it is renamed over `path`.
pub fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_owned();
    name.push(format!(".{}.tmp", std::process::id()));
    path.with_file_name(name)
}

/// Creates (or truncates) the temporary file `path`, listed for [`remove_temporary_files`].
fn create_listed(path: &Path) -> std::io::Result<File> {
    let mut files = temporary();
    let file = File::create(path)?;
    files.push(path.to_owned());
    Ok(file)
}

/// Ends a listed temporary file's life: `finish` renames it into place or removes it,
/// under the list's lock so that [`remove_temporary_files`] cannot come between.
fn finish_listed<T>(path: &Path, finish: impl FnOnce() -> T) -> T {
    let mut files = temporary();
    let result = finish();
    files.retain(|f| f != path);
    result
}

/// What [`remove_temporary_files`] returns: while it lives, no write can start or finish.
pub struct TemporaryFilesRemoved {
    _list: MutexGuard<'static, Vec<PathBuf>>,
}

/// Removes the temporary files of every write in progress, for a process about to end
/// early (an interrupt, a closed output). Keep what it returns until the process is
/// gone: no write can then create a file or rename one into place.
pub fn remove_temporary_files() -> TemporaryFilesRemoved {
    let files = temporary();
    for file in files.iter() {
        let _ = std::fs::remove_file(file);
    }
    TemporaryFilesRemoved { _list: files }
}

/// `path` with its symbolic links followed to the file they name (which need not exist),
/// and whether a link led into `/proc`: links there name this process's open files
/// (`pipe:[1234]`, through `/dev/stdout`), not paths to replace, and the path returned is
/// then that link's text. A cycle of links is an error.
pub fn follow_links(path: &Path) -> std::io::Result<(PathBuf, bool)> {
    let mut target = path.to_owned();
    // The limit of Linux's own resolution: a cycle of links ends here.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&target) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&target)?;
                if link.starts_with("/proc") {
                    return Ok((link, true));
                }
                let base = target.parent().map(Path::to_owned).unwrap_or_default();
                target = base.join(link);
            }
            _ => return Ok((target, false)),
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        "too many symbolic links (a cycle?)",
    ))
}

/// The regular file a write to `path` replaces: `path` with its links followed. Anything
/// else that exists there (a directory, a FIFO, a device) is an error: a file written
/// whole cannot replace it.
fn regular_target(path: &Path) -> std::io::Result<PathBuf> {
    let (target, _) = follow_links(path)?;
    match std::fs::metadata(&target) {
        Ok(m) if !m.is_file() => Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "it is {}, not a regular file; a file written whole replaces only a regular file",
                crate::kind(m.file_type())
            ),
        )),
        _ => Ok(target),
    }
}

/// Checks that a file can be created beside `path` (its directory exists and is
/// writable), by creating the temporary file a write would use and removing it: for a
/// command that checks its outputs before the work.
pub fn check_writable(path: &Path) -> std::io::Result<()> {
    let tmp = temporary_path(path);
    create_listed(&tmp)?;
    finish_listed(&tmp, || std::fs::remove_file(&tmp))
}

/// Writes the file at `path` whole: `write` produces the contents into a buffered
/// temporary file beside it, which is flushed to disk (`fsync`) and renamed over `path`,
/// and the rename is made durable where the system allows (the directory synced). On an
/// error the temporary file is removed and `path` is as it was. Returns what `write`
/// returns.
pub fn replace<T>(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<T>,
) -> std::io::Result<T> {
    let path = regular_target(path)?;
    let tmp = temporary_path(&path);
    let written = create_listed(&tmp).and_then(|file| {
        let mut out = BufWriter::with_capacity(1 << 20, file);
        let result = write(&mut out)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        finish_listed(&tmp, || std::fs::rename(&tmp, &path))?;
        Ok(result)
    });
    match written {
        Ok(result) => {
            sync_directory(&path);
            Ok(result)
        }
        Err(e) => {
            let _ = finish_listed(&tmp, || std::fs::remove_file(&tmp));
            Err(e)
        }
    }
}

/// [`replace`] with these bytes.
pub fn replace_with_bytes(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    replace(path, |out| out.write_all(bytes))
}

/// Makes a rename in `file`'s directory durable, where the system allows.
fn sync_directory(file: &Path) {
    #[cfg(unix)]
    if let Some(dir) = file.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Ok(dir) = File::open(dir) {
            let _ = dir.sync_all();
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// The list of temporary files is the process's: tests that write or clear it take
    /// turns, so that one's clearing cannot remove another's file mid-write.
    static SERIAL: Mutex<()> = Mutex::new(());

    fn serial() -> MutexGuard<'static, ()> {
        SERIAL
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("kamisado-files-w-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_file_is_replaced_whole_through_its_link_and_a_failed_write_leaves_the_old_one() {
        let _serial = serial();
        let dir = scratch("replace");
        let real = dir.join("real");
        let link = dir.join("link");
        std::os::unix::fs::symlink("real", &link).unwrap();
        replace_with_bytes(&link, b"one").unwrap();
        // A reader of the old file keeps it when the new one is renamed over it.
        let mut old = File::open(&real).unwrap();
        replace_with_bytes(&link, b"two").unwrap();
        let mut kept = String::new();
        std::io::Read::read_to_string(&mut old, &mut kept).unwrap();
        assert_eq!(kept, "one");
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "two");
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        let failed = replace(&link, |out| {
            out.write_all(b"half of thr")?;
            Err::<(), _>(std::io::Error::other("the writer failed"))
        });
        assert_eq!(failed.unwrap_err().to_string(), "the writer failed");
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "two");
        assert_eq!(names(&dir), ["link", "real"], "no temporary file left");
        assert!(temporary().is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_directory_fifo_or_cycle_is_refused_and_nothing_is_left() {
        let _serial = serial();
        let dir = scratch("refused");
        let fifo = dir.join("fifo");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        let error = replace_with_bytes(&fifo, b"x").unwrap_err();
        assert!(error.to_string().contains("a FIFO"), "{error}");
        let error = replace_with_bytes(&dir, b"x").unwrap_err();
        assert!(error.to_string().contains("a directory"), "{error}");
        std::os::unix::fs::symlink("b", dir.join("a")).unwrap();
        std::os::unix::fs::symlink("a", dir.join("b")).unwrap();
        let error = replace_with_bytes(&dir.join("a"), b"x").unwrap_err();
        assert!(
            error.to_string().contains("too many symbolic links"),
            "{error}"
        );
        assert!(check_writable(&dir.join("missing/file")).is_err());
        check_writable(&dir.join("new")).unwrap();
        assert_eq!(names(&dir), ["a", "b", "fifo"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_temporary_file_of_a_write_in_progress_is_removed_on_request() {
        let _serial = serial();
        let dir = scratch("interrupt");
        let path = dir.join("file");
        let tmp = temporary_path(&path);
        let (started, wait_for_start) = std::sync::mpsc::channel();
        let (go_on, wait_to_go_on) = std::sync::mpsc::channel::<()>();
        let writer = std::thread::spawn(move || {
            replace(&path, |out| {
                out.write_all(b"contents")?;
                out.flush()?;
                started.send(()).unwrap();
                let _ = wait_to_go_on.recv();
                Ok(())
            })
        });
        wait_for_start.recv().unwrap();
        assert_eq!(std::fs::read(&tmp).unwrap(), b"contents");
        let removed = remove_temporary_files();
        assert!(!tmp.exists());
        drop(go_on);
        // The writer cannot rename while the lock is held; once it is released its
        // rename fails (the file is gone) and it reports the error.
        drop(removed);
        assert!(writer.join().unwrap().is_err());
        assert_eq!(names(&dir), Vec::<String>::new());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
