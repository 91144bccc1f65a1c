//! Why a database cannot be read or written.

use crate::header::{FORMAT_VERSION, OLDEST_READ_VERSION};

/// Everything that can be wrong with a database file. Each message is one line, meant to
/// follow the file's name ("openings.kdb: truncated: ...").
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("cannot read: {0}")]
    Read(std::io::Error),
    /// Refused before reading: not a regular file, or too large (see `kamisado_files`).
    #[error("{0}")]
    Input(kamisado_files::InputError),
    #[error("cannot write: {0}")]
    Write(std::io::Error),
    #[error("not a kamisado database (the file does not start with the magic bytes KAMISADB)")]
    NotADatabase,
    #[error("database format version {found} is not supported (this program reads versions {OLDEST_READ_VERSION} to {FORMAT_VERSION})")]
    UnsupportedVersion { found: u32 },
    #[error("damaged header: {0}")]
    BadHeader(String),
    #[error("the database is for the rules variant `{found}`, not `{expected}`")]
    WrongVariant {
        found: String,
        expected: &'static str,
    },
    #[error("truncated: the header promises {records} records, {}, but the file has {found} bytes", match expected {
        Some(bytes) => format!("{bytes} bytes in all"),
        None => "more bytes than any file can hold".to_owned(),
    })]
    Truncated {
        records: u64,
        /// `None` when the size the header implies does not fit in 64 bits.
        expected: Option<u64>,
        found: u64,
    },
    #[error("damaged: {extra} unexpected bytes after the {records} records the header announces")]
    TrailingBytes { records: u64, extra: u64 },
    #[error("damaged: checksum mismatch (the header says {stored:#010x}, the contents give {computed:#010x})")]
    Checksum { stored: u32, computed: u32 },
    #[error("damaged: records {first} to {last} do not match their block's checksum")]
    BlockChecksum { first: u64, last: u64 },
    #[error("damaged: record {index}: {problem}")]
    BadRecord { index: u64, problem: String },
    #[error("damaged: records must be sorted by key without duplicates; record {index} is not")]
    Unsorted { index: u64 },
}

impl From<kamisado_files::InputError> for DbError {
    fn from(e: kamisado_files::InputError) -> DbError {
        match e {
            kamisado_files::InputError::Read(e) => DbError::Read(e),
            e => DbError::Input(e),
        }
    }
}
