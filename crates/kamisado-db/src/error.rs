//! Why a database cannot be read or written.

/// Everything that can be wrong with a database file. Each message is one line, meant to
/// follow the file's name ("openings.kdb: truncated: ...").
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("cannot read: {0}")]
    Read(std::io::Error),
    #[error("cannot write: {0}")]
    Write(std::io::Error),
    #[error("not a kamisado database (the file does not start with the magic bytes KAMISADB)")]
    NotADatabase,
    #[error(
        "database format version {found} is not supported (this program reads version {supported})"
    )]
    UnsupportedVersion { found: u32, supported: u32 },
    #[error("corrupted header: {0}")]
    BadHeader(String),
    #[error("the database is for the rules variant `{found}`, not `{expected}`")]
    WrongVariant {
        found: String,
        expected: &'static str,
    },
    #[error("truncated: the header promises {records} records ({expected} bytes in all) but the file has {found} bytes")]
    Truncated {
        records: u64,
        expected: u64,
        found: u64,
    },
    #[error(
        "corrupted: {extra} unexpected bytes after the {records} records the header announces"
    )]
    TrailingBytes { records: u64, extra: u64 },
    #[error(
        "corrupted: checksum mismatch (header says {stored:#010x}, contents give {computed:#010x})"
    )]
    Checksum { stored: u32, computed: u32 },
    #[error("records must be sorted by key without duplicates; record {index} is not")]
    Unsorted { index: u64 },
}
