//! The file header, written and read field by field.
//!
//! Every field is fixed-width little-endian, strings as a u64 byte length then UTF-8:
//! the magic (8 bytes), the format version (u32), the rules variant (string), the counts
//! (records, wins, exact remoteness, best moves: u64 each), the description (string),
//! from version 2 the book's plies (u32, 0 for a database that is not a book), the
//! book's root (u128: the exact key of the position the book starts from, 0 if none)
//! and the records per checksummed block (u32), and last the checksum (u32). The header is
//! padded with zeros to a multiple of 16 bytes, where the records start.
//!
//! Version 1 (written until this crate's format 2; the same layout without the two
//! version-2 fields, and one CRC-32 over the header and all records) is still read: its
//! files were made by `solve --db` and `openings --db`, and reading them costs one more
//! branch here and a whole-file checksum when one is opened, which is what version 2's
//! per-block checksums make unnecessary for large files.
//!
//! (Versions up to 1 encoded this layout with bincode, which is unmaintained,
//! RUSTSEC-2025-0141; the layout is simple enough to need no library.)

use crate::DbError;

/// The first eight bytes of every database file.
pub const MAGIC: [u8; 8] = *b"KAMISADB";
/// The version of the file layout this crate writes.
pub const FORMAT_VERSION: u32 = 2;
/// The oldest version this crate reads.
pub const OLDEST_READ_VERSION: u32 = 1;
/// The rules the stored values are for.
pub const RULES_VARIANT: &str = "single-round";
/// Records per checksummed block (version 2): 4 KiB, one page.
pub const BLOCK_RECORDS: u32 = 256;
/// Records start at a multiple of this many bytes (one record).
const RECORD_ALIGN: usize = 16;
/// A header is a few hundred bytes; the limit keeps a damaged length field from asking
/// for gigabytes.
const MAX_TEXT_BYTES: u64 = 1 << 16;

/// What a database file says about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Always [`MAGIC`].
    pub magic: [u8; 8],
    /// [`FORMAT_VERSION`] for files this crate writes; 1 or 2 in files it reads.
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
    /// For an opening book, the number of moves whose every position it holds (with a
    /// best move), 0 for any other database. Version 2.
    pub book_plies: u32,
    /// For an opening book, the exact key ([`kamisado_core::Position::key`]) of the
    /// position it starts from; 0 for any other database. Version 2.
    pub book_root: u128,
    /// Records per checksummed block, [`BLOCK_RECORDS`]; 0 in version 1.
    pub block_records: u32,
    /// Version 2: CRC-32 of this header (with this field zero) followed by the block
    /// checksums. Version 1: CRC-32 of this header (with this field zero) followed by
    /// the records.
    pub checksum: u32,
}

impl Header {
    /// A version-2 header with no records, checksum not yet set.
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
            book_plies: 0,
            book_root: 0,
            block_records: BLOCK_RECORDS,
            checksum: 0,
        }
    }

    /// Where the records start: after the header, padded to a whole record.
    pub(crate) fn records_offset(encoded_len: usize) -> usize {
        encoded_len.div_ceil(RECORD_ALIGN) * RECORD_ALIGN
    }

    /// The number of checksummed blocks (0 in version 1).
    pub fn blocks(&self) -> u64 {
        match self.block_records {
            0 => 0,
            n => self.records.div_ceil(n as u64),
        }
    }

    /// The bytes the checksum covers before the records or block checksums: the header
    /// with its checksum field zero.
    pub(crate) fn checksummed_bytes(&self) -> Vec<u8> {
        let mut zeroed = self.clone();
        zeroed.checksum = 0;
        encode(&zeroed)
    }
}

/// The header's bytes, unpadded, in the layout of its version.
pub(crate) fn encode(h: &Header) -> Vec<u8> {
    let mut out = Vec::with_capacity(128 + h.description.len());
    let text = |out: &mut Vec<u8>, s: &str| {
        out.extend_from_slice(&(s.len() as u64).to_le_bytes());
        out.extend_from_slice(s.as_bytes());
    };
    out.extend_from_slice(&h.magic);
    out.extend_from_slice(&h.version.to_le_bytes());
    text(&mut out, &h.variant);
    for count in [h.records, h.wins, h.exact_remoteness, h.best_moves] {
        out.extend_from_slice(&count.to_le_bytes());
    }
    text(&mut out, &h.description);
    if h.version >= 2 {
        out.extend_from_slice(&h.book_plies.to_le_bytes());
        out.extend_from_slice(&h.book_root.to_le_bytes());
        out.extend_from_slice(&h.block_records.to_le_bytes());
    }
    out.extend_from_slice(&h.checksum.to_le_bytes());
    out
}

/// Reads fields in order, naming the field a file ends inside.
struct Fields<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Fields<'_> {
    fn take(&mut self, n: usize, field: &str) -> Result<&[u8], DbError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(DbError::BadHeader(format!(
                "the file ends inside the header's {field}"
            )));
        };
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Ok(taken)
    }

    fn u32(&mut self, field: &str) -> Result<u32, DbError> {
        let b = self.take(4, field)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self, field: &str) -> Result<u64, DbError> {
        let mut word = [0u8; 8];
        word.copy_from_slice(self.take(8, field)?);
        Ok(u64::from_le_bytes(word))
    }

    fn u128(&mut self, field: &str) -> Result<u128, DbError> {
        let mut word = [0u8; 16];
        word.copy_from_slice(self.take(16, field)?);
        Ok(u128::from_le_bytes(word))
    }

    fn text(&mut self, field: &str) -> Result<String, DbError> {
        let len = self.u64(field)?;
        if len > MAX_TEXT_BYTES {
            return Err(DbError::BadHeader(format!(
                "the {field} is said to be {len} bytes long, more than the {MAX_TEXT_BYTES} a header allows"
            )));
        }
        let bytes = self.take(len as usize, field)?;
        String::from_utf8(bytes.to_vec())
            .map_err(|_| DbError::BadHeader(format!("the {field} is not UTF-8 text")))
    }
}

/// Reads a header from the start of a file; returns it and its length in bytes.
///
/// The magic and the version are compared before anything else is decoded, so that a
/// file of another kind or of a later version is named as such rather than as damaged.
pub(crate) fn decode(bytes: &[u8]) -> Result<(Header, usize), DbError> {
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err(DbError::NotADatabase);
    }
    let mut fields = Fields {
        bytes,
        at: MAGIC.len(),
    };
    let version = fields.u32("format version")?;
    if !(OLDEST_READ_VERSION..=FORMAT_VERSION).contains(&version) {
        return Err(DbError::UnsupportedVersion { found: version });
    }
    let variant = fields.text("rules variant")?;
    if variant != RULES_VARIANT {
        return Err(DbError::WrongVariant {
            found: variant.chars().take(64).collect(),
            expected: RULES_VARIANT,
        });
    }
    let records = fields.u64("record count")?;
    let wins = fields.u64("count of wins")?;
    let exact_remoteness = fields.u64("count of exact remoteness")?;
    let best_moves = fields.u64("count of best moves")?;
    let description = fields.text("description")?;
    let (book_plies, book_root, block_records) = if version >= 2 {
        (
            fields.u32("book plies")?,
            fields.u128("book root")?,
            fields.u32("block size")?,
        )
    } else {
        (0, 0, 0)
    };
    let checksum = fields.u32("checksum")?;
    if wins > records || exact_remoteness > records || best_moves > records {
        return Err(DbError::BadHeader(
            "the header's counts exceed its number of records".into(),
        ));
    }
    if version >= 2 && block_records != BLOCK_RECORDS {
        return Err(DbError::BadHeader(format!(
            "blocks of {block_records} records; this format has blocks of {BLOCK_RECORDS}"
        )));
    }
    let header = Header {
        magic: MAGIC,
        version,
        variant,
        records,
        wins,
        exact_remoteness,
        best_moves,
        description,
        book_plies,
        book_root,
        block_records,
        checksum,
    };
    Ok((header, fields.at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_fixed_prefix() {
        let mut h = Header::new("test");
        h.records = 3;
        h.wins = 2;
        h.book_plies = 4;
        h.book_root = 0x1234_5678_9abc_def0_1234;
        h.checksum = 0xdead_beef;
        let bytes = encode(&h);
        assert_eq!(&bytes[..8], b"KAMISADB");
        assert_eq!(&bytes[8..12], &2u32.to_le_bytes());
        let (back, len) = decode(&bytes).unwrap();
        assert_eq!(back, h);
        assert_eq!(len, bytes.len());
        assert_eq!(Header::records_offset(len) % 16, 0);
        // Version 1 has neither the book's plies nor the block size.
        let mut old = h.clone();
        old.version = 1;
        old.book_plies = 0;
        old.book_root = 0;
        old.block_records = 0;
        let old_bytes = encode(&old);
        assert_eq!(old_bytes.len(), bytes.len() - 24);
        assert_eq!(decode(&old_bytes).unwrap().0, old);
    }

    #[test]
    fn names_what_is_wrong_in_plain_words() {
        let h = Header::new("");
        let bytes = encode(&h);
        assert!(matches!(decode(b"KAMISAD"), Err(DbError::NotADatabase)));
        assert!(matches!(
            decode(b"PK\x03\x04...."),
            Err(DbError::NotADatabase)
        ));
        let mut later = bytes.clone();
        later[8] = 3;
        assert!(matches!(
            decode(&later),
            Err(DbError::UnsupportedVersion { found: 3 })
        ));
        let end = decode(&bytes[..bytes.len() - 1]).unwrap_err().to_string();
        assert!(end.contains("ends inside the header's checksum"), "{end}");
        let mut other = Header::new("");
        other.variant = "match-play".into();
        assert!(matches!(
            decode(&encode(&other)),
            Err(DbError::WrongVariant { .. })
        ));
        // A variant length of 2^60 bytes is refused, not allocated.
        let mut huge = bytes.clone();
        huge[12..20].copy_from_slice(&(1u64 << 60).to_le_bytes());
        let message = decode(&huge).unwrap_err().to_string();
        assert!(message.contains("more than the 65536"), "{message}");
        let mut not_text = Header::new("");
        not_text.description = "ab".into();
        let mut bytes = encode(&not_text);
        // The description's last bytes come before the plies, root, block size, checksum.
        let at = bytes.len() - 4 - 4 - 16 - 4 - 2;
        bytes[at] = 0xff;
        let message = decode(&bytes).unwrap_err().to_string();
        assert_eq!(message, "damaged header: the description is not UTF-8 text");
        for message in [end, message] {
            assert!(!message.contains("Utf8") && !message.contains("LimitExceeded"));
        }
    }
}
