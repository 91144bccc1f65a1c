//! The file header, and the only module that uses bincode.
//!
//! bincode is unmaintained (RUSTSEC-2025-0141). It encodes nothing but this small header,
//! in its fixed-width little-endian configuration, so the bytes are simple to describe
//! and to reproduce without it: the magic (8 bytes), the format version (u32), the rules
//! variant (u64 length, UTF-8), the counts (u64 each), the description (u64 length,
//! UTF-8) and the checksum (u32). Replacing bincode means rewriting [`encode`] and
//! [`decode`], nothing else. The records after the header are raw fixed-width integers
//! and never go through bincode.

use serde::{Deserialize, Serialize};

use crate::DbError;

/// The first eight bytes of every database file.
pub const MAGIC: [u8; 8] = *b"KAMISADB";
/// The version of the file layout this crate writes and reads.
pub const FORMAT_VERSION: u32 = 1;
/// The rules the stored values are for.
pub const RULES_VARIANT: &str = "single-round";
/// Records start at a multiple of this many bytes (one record).
const RECORD_ALIGN: usize = 16;
/// A header is a few dozen bytes; the limit keeps a corrupted length field from asking
/// for gigabytes.
const MAX_HEADER_BYTES: usize = 1 << 16;

fn config() -> impl bincode::config::Config {
    bincode::config::standard()
        .with_fixed_int_encoding()
        .with_little_endian()
        .with_limit::<MAX_HEADER_BYTES>()
}

/// What a database file says about itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Always [`MAGIC`].
    pub magic: [u8; 8],
    /// Always [`FORMAT_VERSION`] in a file this crate reads.
    pub version: u32,
    /// Always [`RULES_VARIANT`] in a file this crate reads.
    pub variant: String,
    /// The number of records.
    pub records: u64,
    /// Records whose side to move wins (the others lose).
    pub wins: u64,
    /// Records with an exact remoteness.
    pub exact_remoteness: u64,
    /// Records with a best move.
    pub best_moves: u64,
    /// What was solved to make the file, for people.
    pub description: String,
    /// CRC-32 of this header (with this field zero) followed by the records' bytes.
    pub checksum: u32,
}

impl Header {
    /// A header for `records` records with the given counts, checksum not yet set.
    pub(crate) fn new(description: &str) -> Header {
        Header {
            magic: MAGIC,
            version: FORMAT_VERSION,
            variant: RULES_VARIANT.to_owned(),
            records: 0,
            wins: 0,
            exact_remoteness: 0,
            best_moves: 0,
            description: description.to_owned(),
            checksum: 0,
        }
    }

    /// Where the records start: after the header, padded to a whole record.
    pub(crate) fn records_offset(encoded_len: usize) -> usize {
        encoded_len.div_ceil(RECORD_ALIGN) * RECORD_ALIGN
    }

    /// The bytes the checksum covers before the records: the header with its checksum
    /// field zero.
    pub(crate) fn checksummed_bytes(&self) -> Vec<u8> {
        let mut zeroed = self.clone();
        zeroed.checksum = 0;
        encode(&zeroed)
    }
}

/// The header's bytes, unpadded.
pub(crate) fn encode(header: &Header) -> Vec<u8> {
    bincode::serde::encode_to_vec(header, config())
        .expect("a header of a few short strings and integers always encodes")
}

/// Reads a header from the start of a file; returns it and its length in bytes.
///
/// The magic and the version are compared before anything else is decoded, so that a
/// file of another kind or of a later version is named as such rather than as corrupted.
pub(crate) fn decode(bytes: &[u8]) -> Result<(Header, usize), DbError> {
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err(DbError::NotADatabase);
    }
    let version = bytes
        .get(MAGIC.len()..MAGIC.len() + 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .ok_or_else(|| DbError::BadHeader("the file ends inside the header".into()))?;
    if version != FORMAT_VERSION {
        return Err(DbError::UnsupportedVersion {
            found: version,
            supported: FORMAT_VERSION,
        });
    }
    let window = &bytes[..bytes.len().min(MAX_HEADER_BYTES)];
    let (header, len): (Header, usize) = bincode::serde::decode_from_slice(window, config())
        .map_err(|e| match e {
            bincode::error::DecodeError::UnexpectedEnd { .. } => {
                DbError::BadHeader("the file ends inside the header".into())
            }
            e => DbError::BadHeader(e.to_string()),
        })?;
    if header.variant != RULES_VARIANT {
        return Err(DbError::WrongVariant {
            found: header.variant.chars().take(64).collect(),
            expected: RULES_VARIANT,
        });
    }
    let counts_fit = header.wins <= header.records
        && header.exact_remoteness <= header.records
        && header.best_moves <= header.records;
    if !counts_fit {
        return Err(DbError::BadHeader(
            "the header's counts exceed its number of records".into(),
        ));
    }
    Ok((header, len))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_fixed_prefix() {
        let mut h = Header::new("test");
        h.records = 3;
        h.wins = 2;
        h.checksum = 0xdead_beef;
        let bytes = encode(&h);
        assert_eq!(&bytes[..8], b"KAMISADB");
        assert_eq!(&bytes[8..12], &1u32.to_le_bytes());
        let (back, len) = decode(&bytes).unwrap();
        assert_eq!(back, h);
        assert_eq!(len, bytes.len());
        assert_eq!(Header::records_offset(len) % 16, 0);
    }

    #[test]
    fn names_what_is_wrong() {
        let h = Header::new("");
        let bytes = encode(&h);
        assert!(matches!(decode(b"KAMISAD"), Err(DbError::NotADatabase)));
        assert!(matches!(
            decode(b"PK\x03\x04...."),
            Err(DbError::NotADatabase)
        ));
        let mut later = bytes.clone();
        later[8] = 2;
        assert!(matches!(
            decode(&later),
            Err(DbError::UnsupportedVersion { found: 2, .. })
        ));
        assert!(matches!(
            decode(&bytes[..bytes.len() - 1]),
            Err(DbError::BadHeader(_))
        ));
        let mut other = Header::new("");
        other.variant = "match-play".into();
        assert!(matches!(
            decode(&encode(&other)),
            Err(DbError::WrongVariant { .. })
        ));
        // A variant length of 2^60 bytes is refused, not allocated.
        let mut huge = bytes.clone();
        huge[12..20].copy_from_slice(&(1u64 << 60).to_le_bytes());
        assert!(matches!(decode(&huge), Err(DbError::BadHeader(_))));
    }
}
