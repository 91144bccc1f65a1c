//! The proof file: the store's facts on disk, so that a run can stop (a time limit, an
//! interrupt, a crash) and a later run go on from what was proved.
//!
//! A small format of its own rather than the single round's database (whose records hold
//! 101-bit keys): a 32-byte header, then 32-byte records sorted by key.
//!
//! | bytes | header |
//! |---|---|
//! | 0..8 | magic `KMATCHPF` |
//! | 8..12 | format version, 1 (u32, little-endian like every number here) |
//! | 12..16 | CRC-32 of the records |
//! | 16..24 | number of records (u64) |
//! | 24..32 | zero |
//!
//! | bytes | record |
//! |---|---|
//! | 0..24 | the canonical match key, three u64 words |
//! | 24 | 0 the round solver settled nothing, 1 a win for the side to move, 2 a loss |
//! | 25 | how it was proved: 0 the round solver (a clinch), 1 the match search |
//! | 26..32 | zero |
//!
//! Files are written under a temporary name beside the target, flushed to disk and renamed
//! over it, so a crash leaves the old file or the new one, never half of one.

use std::path::{Path, PathBuf};

use kamisado_solver::Value;

use crate::store::{Fact, Source};

const MAGIC: &[u8; 8] = b"KMATCHPF";
const VERSION: u32 = 1;
const HEADER_BYTES: usize = 32;
const RECORD_BYTES: usize = 32;

/// Why a proof file cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ProofFileError {
    #[error("cannot read or write the proof file {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Refused {
        path: PathBuf,
        source: kamisado_files::InputError,
    },
    #[error("{path} is not a proof file of whole matches (it does not start with KMATCHPF)")]
    NotAProofFile { path: PathBuf },
    #[error("{path} is truncated: a proof file starts with a {HEADER_BYTES}-byte header, and this file has {found} bytes")]
    Truncated { path: PathBuf, found: u64 },
    #[error(
        "{path} is a proof file of format version {found}; this program reads version {VERSION}"
    )]
    Version { path: PathBuf, found: u32 },
    #[error("{path} is damaged: its header announces {records} records ({expected} bytes) but the file has {found} bytes")]
    Length {
        path: PathBuf,
        records: u64,
        expected: u64,
        found: u64,
    },
    #[error("{path} is damaged: header bytes 24..32 are not zero")]
    Header { path: PathBuf },
    #[error("{path} is damaged: its checksum does not match its records")]
    Checksum { path: PathBuf },
    #[error("{path} is damaged: record {index} {problem}")]
    Record {
        path: PathBuf,
        index: u64,
        problem: &'static str,
    },
}

/// The bytes of a proof file holding `facts` (sorted by key, as [`Store::facts`] gives
/// them).
///
/// [`Store::facts`]: crate::Store::facts
pub fn encode(facts: &[([u64; 3], Fact)]) -> Vec<u8> {
    let mut records = Vec::with_capacity(facts.len() * RECORD_BYTES);
    for &(key, fact) in facts {
        for word in key {
            records.extend_from_slice(&word.to_le_bytes());
        }
        let (value, source) = match fact {
            Fact::Unsettled => (0u8, 0u8),
            Fact::Proven { value, source } => (
                match value {
                    Value::Win => 1,
                    Value::Loss => 2,
                    Value::Draw => unreachable!("a match is never drawn"),
                },
                match source {
                    Source::Clinch => 0,
                    Source::Search => 1,
                },
            ),
        };
        records.extend_from_slice(&[value, source, 0, 0, 0, 0, 0, 0]);
    }
    let mut bytes = Vec::with_capacity(HEADER_BYTES + records.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&crc32fast::hash(&records).to_le_bytes());
    bytes.extend_from_slice(&(facts.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&[0; 8]);
    bytes.extend_from_slice(&records);
    bytes
}

/// The largest proof file read: its facts take about as much memory again in the store
/// (the table that holds them has its own `--hash-mb` bound, which a larger file would
/// not fit in anyway).
pub const MAX_FILE_BYTES: u64 = 8 << 30;

/// Checks the start of a proof file (`header`: its first [`HEADER_BYTES`] bytes, or all
/// of a shorter file) against the file's length `len`: the magic, the version, the
/// length the header announces. Returns the number of records.
fn check_header(header: &[u8], len: u64, path: &Path) -> Result<u64, ProofFileError> {
    let path = || path.to_path_buf();
    if header.len() < MAGIC.len() || &header[..MAGIC.len()] != MAGIC {
        return Err(ProofFileError::NotAProofFile { path: path() });
    }
    if header.len() < HEADER_BYTES {
        return Err(ProofFileError::Truncated {
            path: path(),
            found: len,
        });
    }
    let word = |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().expect("8 bytes"));
    let half = |at: usize| u32::from_le_bytes(header[at..at + 4].try_into().expect("4 bytes"));
    let version = half(8);
    if version != VERSION {
        return Err(ProofFileError::Version {
            path: path(),
            found: version,
        });
    }
    if header[24..32].iter().any(|&b| b != 0) {
        return Err(ProofFileError::Header { path: path() });
    }
    let count = word(16);
    let expected = count
        .checked_mul(RECORD_BYTES as u64)
        .and_then(|n| n.checked_add(HEADER_BYTES as u64));
    if expected != Some(len) {
        return Err(ProofFileError::Length {
            path: path(),
            records: count,
            expected: expected.unwrap_or(u64::MAX),
            found: len,
        });
    }
    Ok(count)
}

/// The facts of a proof file's bytes; `path` names the file in errors.
pub fn decode(bytes: &[u8], path: &Path) -> Result<Vec<([u64; 3], Fact)>, ProofFileError> {
    let count = check_header(
        &bytes[..bytes.len().min(HEADER_BYTES)],
        bytes.len() as u64,
        path,
    )?;
    let path = || path.to_path_buf();
    let half = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let records = &bytes[HEADER_BYTES..];
    if crc32fast::hash(records) != half(12) {
        return Err(ProofFileError::Checksum { path: path() });
    }
    let mut facts = Vec::with_capacity(count as usize);
    for (index, record) in records.chunks_exact(RECORD_BYTES).enumerate() {
        let bad = |problem| ProofFileError::Record {
            path: path(),
            index: index as u64,
            problem,
        };
        let key: [u64; 3] = std::array::from_fn(|i| {
            u64::from_le_bytes(record[8 * i..8 * i + 8].try_into().expect("8 bytes"))
        });
        let source = match record[25] {
            0 => Source::Clinch,
            1 => Source::Search,
            _ => return Err(bad("has an unknown proof method")),
        };
        let fact = match record[24] {
            0 if record[25] != 0 => return Err(bad("has a proof method but no value")),
            0 => Fact::Unsettled,
            1 => Fact::Proven {
                value: Value::Win,
                source,
            },
            2 => Fact::Proven {
                value: Value::Loss,
                source,
            },
            _ => return Err(bad("has an unknown value")),
        };
        if record[26..].iter().any(|&b| b != 0) {
            return Err(bad("has bits set that no version uses"));
        }
        if facts.last().is_some_and(|&(last, _)| last >= key) {
            return Err(bad("is out of order"));
        }
        facts.push((key, fact));
    }
    Ok(facts)
}

/// Reads the facts of the proof file at `path`.
/// A regular file only, its header checked against its size before the rest is read,
/// and no larger than [`MAX_FILE_BYTES`].
pub fn read(path: &Path) -> Result<Vec<([u64; 3], Fact)>, ProofFileError> {
    let bytes = kamisado_files::read_checked(
        path,
        HEADER_BYTES,
        MAX_FILE_BYTES,
        "a proof file",
        |header, len| Ok::<(), Reading>(check_header(header, len, path).map(|_| ())?),
    )
    .map_err(|e| match e {
        Reading::Input(kamisado_files::InputError::Read(source)) => ProofFileError::Io {
            path: path.to_path_buf(),
            source,
        },
        Reading::Input(source) => ProofFileError::Refused {
            path: path.to_path_buf(),
            source,
        },
        Reading::Format(e) => e,
    })?;
    decode(&bytes, path)
}

/// A read's failure: refused as a file, or not the format.
enum Reading {
    Input(kamisado_files::InputError),
    Format(ProofFileError),
}

impl From<kamisado_files::InputError> for Reading {
    fn from(e: kamisado_files::InputError) -> Reading {
        Reading::Input(e)
    }
}

impl From<ProofFileError> for Reading {
    fn from(e: ProofFileError) -> Reading {
        Reading::Format(e)
    }
}

/// Writes `facts` to `path` whole: under a temporary name, flushed and renamed into place
/// ([`kamisado_files::replace`], which also removes the temporary file on an interrupt).
pub fn write(path: &Path, facts: &[([u64; 3], Fact)]) -> Result<(), ProofFileError> {
    kamisado_files::replace_with_bytes(path, &encode(facts)).map_err(|source| ProofFileError::Io {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<([u64; 3], Fact)> {
        vec![
            ([0, 0, 0], Fact::Unsettled),
            (
                [1, u64::MAX, 7],
                Fact::Proven {
                    value: Value::Win,
                    source: Source::Clinch,
                },
            ),
            (
                [2, 0, 1 << 63],
                Fact::Proven {
                    value: Value::Loss,
                    source: Source::Search,
                },
            ),
        ]
    }

    #[test]
    fn facts_survive_the_file() {
        let path = Path::new("test.kmp");
        assert_eq!(decode(&encode(&sample()), path).unwrap(), sample());
        assert_eq!(decode(&encode(&[]), path).unwrap(), []);
        let dir = std::env::temp_dir().join(format!("kmp-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("proofs.kmp");
        write(&file, &sample()).unwrap();
        write(&file, &sample()[1..]).unwrap();
        assert_eq!(read(&file).unwrap(), &sample()[1..]);
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "no temporary file left"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn damage_is_named() {
        let path = Path::new("p.kmp");
        let good = encode(&sample());
        let err = |bytes: &[u8]| decode(bytes, path).unwrap_err().to_string();
        assert!(err(b"KAMISADB and more bytes than a header has").contains("not a proof file"));
        assert!(err(&good[..good.len() - 1]).contains("announces 3 records"));
        let mut flipped = good.clone();
        flipped[HEADER_BYTES + 5] ^= 1;
        assert!(err(&flipped).contains("checksum"));
        let mut version = good.clone();
        version[8] = 9;
        assert!(err(&version).contains("version 9"));
        // A bad record with a checksum that matches it.
        let mut records = good[HEADER_BYTES..].to_vec();
        records[RECORD_BYTES + 24] = 7;
        let mut bad = good[..HEADER_BYTES].to_vec();
        bad[12..16].copy_from_slice(&crc32fast::hash(&records).to_le_bytes());
        bad.extend_from_slice(&records);
        assert_eq!(err(&bad), "p.kmp is damaged: record 1 has an unknown value");
        let mut unsorted = sample();
        unsorted.swap(0, 2);
        assert!(err(&encode(&unsorted)).contains("out of order"));
        assert!(matches!(
            read(Path::new("/nonexistent/dir/p.kmp")),
            Err(ProofFileError::Io { .. })
        ));
    }
}
