//! The word file: the framing the certificate formats share (Kamisado's `KAMICERT`,
//! Kamon's `KAMONCRT` and its walk certificates' `KAMONWLK`), written and checked once.
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic, the format's own |
//! | 8 | 4 | format version, u32 little-endian |
//! | 12 | 4 | CRC-32 (the zlib/IEEE polynomial) of the whole file, these four bytes read as zero |
//! | 16 | 4 | number of claims C, u32 little-endian, at least 1 |
//! | 20 | 4 | length L of a text in bytes, u32 little-endian (0 where a format has none) |
//! | 24 | 8 | number of entries N, u64 little-endian |
//! | 32 | P | the text, zero-padded to P = L rounded up to a multiple of 16 |
//! | 32 + P | 16 C | the claims, each a little-endian u128 |
//! | 32 + P + 16 C | 16 N | the entries, little-endian u128s (in strictly ascending order where the format sorts them) |
//!
//! The file is exactly 32 + P + 16 (C + N) bytes. What a claim, an entry and the text
//! mean is each format's; here is only what makes a file whole: the magic, the version,
//! the length the header announces (checked before the body is read, so a large file of
//! anything else costs its header), the checksum, the padding and the order of the
//! entries (a sorted list is what lets a checker look an entry up by binary search).
//!
//! Why one framing: the two certificate crates grew the same header, checksum and
//! length checks apart, and a fix to one (a header announcing more than 2^64 bytes) had
//! to be found again in the other.

use std::path::Path;

use crate::InputError;

const HEADER_BYTES: usize = 32;
const WORD_BYTES: usize = 16;
const CHECKSUM_AT: usize = 12;

/// One format's constants.
#[derive(Clone, Copy, Debug)]
pub struct WordFormat {
    pub magic: [u8; 8],
    /// The version written, the newest read.
    pub version: u32,
    /// The oldest version still read (`version` for a format that never changed): the
    /// caller reads [`Words::version`] and knows what each older one means.
    pub oldest: u32,
    /// What the file is, in the messages ("Kamon certificate": "not a Kamon certificate").
    pub name: &'static str,
    /// The same with its article, for the messages about its size ("a Kamon certificate").
    pub what: &'static str,
    /// What the text is ("layout"), if the format has one.
    pub text: Option<&'static str>,
    /// The longest text the format has (0 without one); a longer one announced is
    /// damage, refused before it is read.
    pub max_text: u32,
    /// The largest file read.
    pub max_file: u64,
    /// Whether the entries must be strictly ascending: a sorted list, which a checker
    /// searches by key. A walk certificate's words are a stream of bits, in no order.
    pub ascending: bool,
}

/// A word file's contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Words {
    /// The file's format version, from [`WordFormat::oldest`] to [`WordFormat::version`].
    pub version: u32,
    pub text: Vec<u8>,
    pub claims: Vec<u128>,
    /// Strictly ascending.
    pub entries: Vec<u128>,
}

/// Why a file is not a readable word file of its format (as opposed to a readable one
/// whose proof fails, which a checker reports). Each message is one line, in the
/// format's own name.
#[derive(Debug, thiserror::Error)]
pub enum WordsError {
    /// Refused before reading (not a regular file, too large) or not read.
    #[error("{0}")]
    Input(#[from] InputError),
    #[error("not a {name} (the file does not start with the magic bytes {})", String::from_utf8_lossy(.magic))]
    NotThisFormat { name: &'static str, magic: [u8; 8] },
    #[error("{name} format version {found} is not supported (this program reads {})", versions_read(*.oldest, *.supported))]
    UnsupportedVersion {
        name: &'static str,
        found: u32,
        oldest: u32,
        supported: u32,
    },
    /// `text` is ", a 93-byte layout" in a format with a text, else empty.
    #[error("damaged: the file has {found} bytes, but its header announces {claims} claim(s){text} and {entries} entries, {expected} bytes in all")]
    Length {
        claims: u64,
        text: String,
        entries: u64,
        expected: String,
        found: u64,
    },
    #[error("damaged: checksum mismatch (the header says {stored:#010x}, the contents give {computed:#010x})")]
    Checksum { stored: u32, computed: u32 },
    /// Any other damage, in words (without the "damaged: "): the framing's, or the
    /// format's own (a claim that is no position, reserved bits set).
    #[error("damaged: {0}")]
    Damaged(String),
}

fn versions_read(oldest: u32, newest: u32) -> String {
    if oldest == newest {
        format!("version {newest}")
    } else {
        format!("versions {oldest} to {newest}")
    }
}

/// The header's counts.
struct Header {
    version: u32,
    claims: u64,
    text: u64,
    entries: u64,
    stored_crc: u32,
}

fn padded(length: u64) -> u64 {
    length.div_ceil(WORD_BYTES as u64) * WORD_BYTES as u64
}

fn crc_of(bytes: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&bytes[..CHECKSUM_AT]);
    hasher.update(&[0; 4]);
    hasher.update(&bytes[CHECKSUM_AT + 4..]);
    hasher.finalize()
}

/// Writes the checksum of `bytes`, a word file's, into its header: for tests that forge a
/// file whose checksum holds, to reach the checks behind it.
///
/// # Panics
///
/// If `bytes` is shorter than a header.
pub fn reseal(bytes: &mut [u8]) {
    let crc = crc_of(bytes);
    bytes[CHECKSUM_AT..CHECKSUM_AT + 4].copy_from_slice(&crc.to_le_bytes());
}

impl WordFormat {
    /// The bytes of a file holding `text`, `claims` and `entries`.
    ///
    /// # Panics
    ///
    /// If the entries of an [`WordFormat::ascending`] format are not strictly ascending,
    /// the text is longer than the format's
    /// [`WordFormat::max_text`], or there are more than `u32::MAX` claims.
    pub fn encode(&self, text: &[u8], claims: &[u128], entries: &[u128]) -> Vec<u8> {
        self.encode_version(self.version, text, claims, entries)
    }

    /// [`WordFormat::encode`] as format version `version`, an older one the caller still
    /// reads (a file read and written again keeps its version, and so its meaning).
    ///
    /// # Panics
    ///
    /// As [`WordFormat::encode`], and if `version` is not one the format reads.
    pub fn encode_version(
        &self,
        version: u32,
        text: &[u8],
        claims: &[u128],
        entries: &[u128],
    ) -> Vec<u8> {
        assert!(
            (self.oldest..=self.version).contains(&version),
            "a version the format reads"
        );
        assert!(
            !self.ascending || entries.windows(2).all(|w| w[0] < w[1]),
            "entries must be strictly ascending"
        );
        let text_len = u32::try_from(text.len())
            .ok()
            .filter(|&l| l <= self.max_text)
            .expect("a text within the format's bound");
        let claim_count = u32::try_from(claims.len()).expect("fewer than 2^32 claims");
        let words_at = HEADER_BYTES + padded(text.len() as u64) as usize;
        let mut bytes = Vec::with_capacity(words_at + WORD_BYTES * (claims.len() + entries.len()));
        bytes.extend_from_slice(&self.magic);
        bytes.extend_from_slice(&version.to_le_bytes());
        bytes.extend_from_slice(&[0; 4]);
        bytes.extend_from_slice(&claim_count.to_le_bytes());
        bytes.extend_from_slice(&text_len.to_le_bytes());
        bytes.extend_from_slice(&(entries.len() as u64).to_le_bytes());
        bytes.extend_from_slice(text);
        bytes.resize(words_at, 0);
        for word in claims.iter().chain(entries) {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        reseal(&mut bytes);
        bytes
    }

    /// Reads a file of the format: a regular file only (never waiting on a FIFO), its
    /// header checked against its size before the rest is read, and no larger than
    /// [`WordFormat::max_file`].
    pub fn read(&self, path: &Path) -> Result<Words, WordsError> {
        let bytes = crate::read_checked(
            path,
            HEADER_BYTES,
            self.max_file,
            self.what,
            |header, len| self.header(header, len).map(|_| ()),
        )?;
        self.decode(&bytes)
    }

    /// The header at the start of `bytes` (the whole file, or its first bytes), checked
    /// against the file's length `len`: the magic, the version, the text's bound, the
    /// length announced.
    fn header(&self, bytes: &[u8], len: u64) -> Result<Header, WordsError> {
        if bytes.len() < self.magic.len() || bytes[..self.magic.len()] != self.magic {
            return Err(WordsError::NotThisFormat {
                name: self.name,
                magic: self.magic,
            });
        }
        if bytes.len() < HEADER_BYTES {
            return Err(WordsError::Damaged(format!(
                "the file ends inside the {HEADER_BYTES}-byte header ({len} bytes)"
            )));
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4"));
        let version = u32_at(8);
        if !(self.oldest..=self.version).contains(&version) {
            return Err(WordsError::UnsupportedVersion {
                name: self.name,
                found: version,
                oldest: self.oldest,
                supported: self.version,
            });
        }
        let text = u32_at(20);
        if text > self.max_text {
            return Err(WordsError::Damaged(match self.text {
                None => "header bytes 20..24 must be zero".into(),
                Some(what) => format!(
                    "the header announces a {text}-byte {what} text (one has under {})",
                    self.max_text
                ),
            }));
        }
        let header = Header {
            version,
            claims: u32_at(16) as u64,
            text: text as u64,
            entries: u64::from_le_bytes(bytes[24..32].try_into().expect("8")),
            stored_crc: u32_at(CHECKSUM_AT),
        };
        let expected = header
            .claims
            .checked_add(header.entries)
            .and_then(|words| words.checked_mul(WORD_BYTES as u64))
            .and_then(|b| b.checked_add(HEADER_BYTES as u64 + padded(header.text)));
        if expected != Some(len) {
            return Err(WordsError::Length {
                claims: header.claims,
                text: self.text.map_or_else(String::new, |what| {
                    format!(", a {}-byte {what}", header.text)
                }),
                entries: header.entries,
                expected: expected.map_or_else(|| "more than 2^64".to_owned(), |e| e.to_string()),
                found: len,
            });
        }
        Ok(header)
    }

    /// The contents of a file's bytes: the header, the length and the checksum are
    /// checked before anything else is read, then the padding, that there is a claim, and
    /// that the entries ascend (in a format that sorts them).
    pub fn decode(&self, bytes: &[u8]) -> Result<Words, WordsError> {
        let header = self.header(bytes, bytes.len() as u64)?;
        let computed = crc_of(bytes);
        if computed != header.stored_crc {
            return Err(WordsError::Checksum {
                stored: header.stored_crc,
                computed,
            });
        }
        if header.claims == 0 {
            return Err(WordsError::Damaged(format!(
                "the {} claims nothing",
                self.name
            )));
        }
        let text_end = HEADER_BYTES + header.text as usize;
        let words_at = HEADER_BYTES + padded(header.text) as usize;
        if bytes[text_end..words_at].iter().any(|&b| b != 0) {
            return Err(WordsError::Damaged(format!(
                "the {} text's padding is not zero",
                self.text.unwrap_or("header")
            )));
        }
        let mut words = bytes[words_at..]
            .chunks_exact(WORD_BYTES)
            .map(|w| u128::from_le_bytes(w.try_into().expect("sixteen bytes")));
        let claims: Vec<u128> = words.by_ref().take(header.claims as usize).collect();
        let entries: Vec<u128> = words.collect();
        if let Some(i) = entries
            .windows(2)
            .position(|w| self.ascending && w[0] >= w[1])
        {
            return Err(WordsError::Damaged(format!(
                "entry {} is not above entry {}: entries must be strictly ascending",
                i + 1,
                i
            )));
        }
        Ok(Words {
            version: header.version,
            text: bytes[HEADER_BYTES..text_end].to_vec(),
            claims,
            entries,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FORMAT: WordFormat = WordFormat {
        magic: *b"TESTWORD",
        version: 3,
        oldest: 3,
        name: "test file",
        what: "a test file",
        text: Some("greeting"),
        max_text: 40,
        max_file: 1 << 20,
        ascending: true,
    };

    #[test]
    fn the_documented_layout_round_trips() {
        let bytes = FORMAT.encode(b"hello", &[7], &[1, 5, 9]);
        assert_eq!(bytes.len(), 32 + 16 + 16 * 4);
        assert_eq!(&bytes[..8], b"TESTWORD");
        assert_eq!(bytes[8..12], 3u32.to_le_bytes());
        assert_eq!(bytes[16..20], 1u32.to_le_bytes());
        assert_eq!(bytes[20..24], 5u32.to_le_bytes());
        assert_eq!(bytes[24..32], 3u64.to_le_bytes());
        assert_eq!(&bytes[32..37], b"hello");
        assert_eq!(bytes[48..64], 7u128.to_le_bytes());
        let words = FORMAT.decode(&bytes).unwrap();
        assert_eq!(
            words,
            Words {
                version: 3,
                text: b"hello".to_vec(),
                claims: vec![7],
                entries: vec![1, 5, 9]
            }
        );
    }

    #[test]
    fn an_older_version_still_read_round_trips_and_older_ones_are_named() {
        let changed = WordFormat {
            oldest: 2,
            ..FORMAT
        };
        let bytes = changed.encode_version(2, b"hi", &[1], &[4]);
        assert_eq!(bytes[8..12], 2u32.to_le_bytes());
        let words = changed.decode(&bytes).unwrap();
        assert_eq!(words.version, 2);
        assert_eq!(
            changed
                .decode(&changed.encode(b"hi", &[1], &[4]))
                .unwrap()
                .version,
            3
        );
        // The version the format stopped reading is named, with the versions it reads.
        let mut first = bytes;
        first[8] = 1;
        reseal(&mut first);
        assert_eq!(
            changed.decode(&first).unwrap_err().to_string(),
            "test file format version 1 is not supported (this program reads versions 2 to 3)"
        );
    }

    #[test]
    fn every_cut_and_every_flipped_bit_is_refused() {
        let bytes = FORMAT.encode(b"a text", &[1, 2], &[3, 4]);
        for cut in 0..bytes.len() {
            assert!(FORMAT.decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        for at in 0..bytes.len() {
            for bit in 0..8 {
                let mut flipped = bytes.clone();
                flipped[at] ^= 1 << bit;
                assert!(FORMAT.decode(&flipped).is_err(), "byte {at} bit {bit}");
            }
        }
    }

    #[test]
    fn a_header_of_nonsense_is_named_without_reading_on() {
        let mut huge = FORMAT.encode(b"", &[1], &[]);
        huge[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
        let e = FORMAT.decode(&huge).unwrap_err().to_string();
        assert!(e.contains("more than 2^64"), "{e}");
        let mut long_text = FORMAT.encode(b"", &[1], &[]);
        long_text[20..24].copy_from_slice(&41u32.to_le_bytes());
        let e = FORMAT.decode(&long_text).unwrap_err().to_string();
        assert!(e.contains("41-byte greeting text"), "{e}");
        let e = FORMAT.decode(b"OTHERFMT and more").unwrap_err().to_string();
        assert_eq!(
            e,
            "not a test file (the file does not start with the magic bytes TESTWORD)"
        );
        let mut later = FORMAT.encode(b"", &[1], &[]);
        later[8] = 4;
        let e = FORMAT.decode(&later).unwrap_err().to_string();
        assert_eq!(
            e,
            "test file format version 4 is not supported (this program reads version 3)"
        );
        let mut unsorted = FORMAT.encode(b"", &[1], &[2, 3]);
        unsorted[64..80].copy_from_slice(&1u128.to_le_bytes());
        reseal(&mut unsorted);
        let e = FORMAT.decode(&unsorted).unwrap_err().to_string();
        assert!(e.contains("strictly ascending"), "{e}");
    }
}
