//! The one way this project opens an input file for reading, and (module [`write`]) the
//! one way it writes a file whole: to a temporary name, flushed and renamed into place;
//! (module [`words`]) the framing both certificate formats share, and (module [`verdict`])
//! what checking one comes to.
//!
//! Every reader of a file the user names (databases, certificates, proof files, game
//! records, surveys) comes here, so that none of them can be made to hang or to take the
//! machine's memory:
//!
//! - the file is opened without blocking (`O_NONBLOCK`: opening a FIFO with no writer
//!   would otherwise wait for one for ever), and anything but a regular file (a FIFO, a
//!   device such as `/dev/zero`, a directory, a socket) is refused at once;
//! - its size is known before anything is read, and a file larger than the reader's
//!   bound is refused before any memory is taken for it;
//! - a binary format's header is read and checked (magic bytes, the length it
//!   announces) before its body, so a large file of anything else costs nothing;
//! - the body is read with `Read::take` of the size found, so a file that grows while it
//!   is read cannot make the read longer.

use std::fs::File;
use std::io::Read;
use std::path::Path;

pub mod verdict;
pub mod words;
pub mod write;

pub use write::{
    check_writable, follow_links, remove_temporary_files, replace, replace_with_bytes,
    temporary_path, TemporaryFilesRemoved,
};

/// Why an input file was refused or could not be read. Each message is one line; the
/// caller names the file.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("cannot read: {0}")]
    Read(#[from] std::io::Error),
    #[error("cannot read it: it is {0}, not a regular file")]
    NotRegular(&'static str),
    #[error("too large: {len} bytes, more than the {limit} bytes {what} may have here")]
    TooLarge {
        len: u64,
        limit: u64,
        what: &'static str,
    },
}

/// A regular file opened for reading, and its size when opened.
#[derive(Debug)]
pub struct Input {
    pub file: File,
    pub len: u64,
}

/// What a non-regular file is, in words ("a FIFO (named pipe)", "a directory"): for
/// messages about inputs here and about outputs in the command line.
pub fn kind(file_type: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else {
        "something other than a file"
    }
}

/// Opens `path` for reading if it is a regular file, without waiting on a FIFO.
pub fn open(path: &Path) -> Result<Input, InputError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Reads from a regular file never block, so the flag changes nothing for the
        // files accepted; it only makes `open` of a FIFO return at once.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(InputError::NotRegular(kind(metadata.file_type())));
    }
    Ok(Input {
        file,
        len: metadata.len(),
    })
}

impl Input {
    /// Refuses a file larger than `limit` bytes (`what` names the kind of file in the
    /// message: "a games file").
    pub fn check_size(&self, limit: u64, what: &'static str) -> Result<(), InputError> {
        if self.len > limit {
            return Err(InputError::TooLarge {
                len: self.len,
                limit,
                what,
            });
        }
        Ok(())
    }

    /// Up to `n` more bytes (fewer at the end of the file).
    pub fn read_up_to(&mut self, n: u64) -> Result<Vec<u8>, InputError> {
        let mut bytes = Vec::with_capacity(n.min(self.len) as usize);
        (&mut self.file).take(n).read_to_end(&mut bytes)?;
        Ok(bytes)
    }

    /// The rest of the file, as large as it was when opened at most, after checking that
    /// size against `limit`.
    pub fn read_rest(&mut self, limit: u64, what: &'static str) -> Result<Vec<u8>, InputError> {
        self.check_size(limit, what)?;
        self.read_up_to(self.len)
    }
}

/// The whole of the regular file at `path`, refused past `limit` bytes before anything
/// is read: for text formats, which have no header to check first.
pub fn read(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, InputError> {
    open(path)?.read_rest(limit, what)
}

/// The whole of the regular file at `path` in a binary format with a header of
/// `header_len` bytes: the header (or as much of the file as there is, if shorter) is
/// read first and given to `check` with the file's size, which refuses what is not the
/// format or announces another length; only then, within `limit` bytes, is the rest read.
/// The bytes returned are the whole file, header included.
pub fn read_checked<E: From<InputError>>(
    path: &Path,
    header_len: usize,
    limit: u64,
    what: &'static str,
    check: impl FnOnce(&[u8], u64) -> Result<(), E>,
) -> Result<Vec<u8>, E> {
    let mut input = open(path)?;
    let mut bytes = input.read_up_to(header_len as u64)?;
    check(&bytes, input.len)?;
    input.check_size(limit, what)?;
    let rest = input.len.saturating_sub(bytes.len() as u64);
    bytes.reserve(rest as usize);
    (&mut input.file)
        .take(rest)
        .read_to_end(&mut bytes)
        .map_err(InputError::from)?;
    Ok(bytes)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn special_files_are_refused_at_once() {
        for (path, what) in [
            ("/dev/zero", "a character device"),
            ("/dev/null", "a character device"),
            ("/", "a directory"),
        ] {
            match open(Path::new(path)) {
                Err(InputError::NotRegular(kind)) => assert_eq!(kind, what, "{path}"),
                other => panic!("{path}: {other:?}"),
            }
        }
        let dir = std::env::temp_dir().join(format!("kamisado-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        let _ = std::fs::remove_file(&fifo);
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        // No writer: a blocking open would wait here for ever.
        assert!(matches!(
            open(&fifo),
            Err(InputError::NotRegular("a FIFO (named pipe)"))
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_past_the_bound_or_with_a_wrong_header_is_refused_before_its_body_is_read() {
        let dir = std::env::temp_dir().join(format!("kamisado-files-b-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big");
        // Sparse: 64 GiB announced, nothing on disk. Reading it whole would exhaust memory.
        let file = File::create(&path).unwrap();
        file.set_len(64 << 30).unwrap();
        drop(file);
        assert!(matches!(
            read(&path, 1 << 20, "a test file"),
            Err(InputError::TooLarge { len, limit: 1048576, .. }) if len == 64 << 30
        ));
        let seen = std::cell::Cell::new(0);
        let result: Result<Vec<u8>, InputError> =
            read_checked(&path, 8, u64::MAX, "a test file", |header, len| {
                seen.set(header.len());
                assert_eq!(len, 64 << 30);
                Err(InputError::NotRegular("not the format"))
            });
        assert!(result.is_err());
        assert_eq!(seen.get(), 8);
        std::fs::write(&path, b"HEADER--body").unwrap();
        let bytes: Vec<u8> = read_checked(&path, 8, 100, "a test file", |header, len| {
            assert_eq!((header, len), (&b"HEADER--"[..], 12));
            Ok::<(), InputError>(())
        })
        .unwrap();
        assert_eq!(bytes, b"HEADER--body");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
