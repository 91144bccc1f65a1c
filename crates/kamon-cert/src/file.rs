//! The certificate file: a fixed 32-byte header, the layout, the claims, the entries.
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `KAMONCRT` |
//! | 8 | 4 | format version, u32 little-endian: 1 |
//! | 12 | 4 | CRC-32 (the zlib/IEEE polynomial) of the whole file, these four bytes read as zero |
//! | 16 | 4 | number of claims C, u32 little-endian, at least 1 |
//! | 20 | 4 | length L of the layout text in bytes, u32 little-endian |
//! | 24 | 8 | number of entries N, u64 little-endian |
//! | 32 | P | the layout text (as `kamisado kamon random` prints it), zero-padded to P = L rounded up to a multiple of 16 |
//! | 32 + P | 16 C | the claims ([`Claim`]), each a little-endian u128 |
//! | 32 + P + 16 C | 16 N | the entries ([`Entry`]), little-endian u128s in strictly ascending order |
//!
//! The file is exactly 32 + P + 16 (C + N) bytes. Positions are [`Position::key`]s
//! (`kamon_core::Position::key`), exact within the layout, so the layout travels with
//! them. Everything else is fixed-width: a reader in any language needs this table, the
//! two word layouts and the layout text.

use std::path::Path;

use kamon_core::Layout;

use crate::{Claim, Entry};

pub const MAGIC: [u8; 8] = *b"KAMONCRT";
pub const FORMAT_VERSION: u32 = 1;
const HEADER_BYTES: usize = 32;
const WORD_BYTES: usize = 16;
const CHECKSUM_AT: usize = 12;
/// A layout's text is 37 chips of two characters and six slashes; anything much longer is
/// damage, refused before it is read.
const MAX_LAYOUT_BYTES: u32 = 256;
/// The largest certificate read: 4 GiB, some 270 million entries (a whole layout's proof
/// would be larger; it would be split into several certificates).
pub const MAX_FILE_BYTES: u64 = 4 << 30;

/// Why a file is not a readable certificate (as opposed to a readable one whose proof
/// fails, which [`crate::check`] reports). Each message is one line.
#[derive(Debug, thiserror::Error)]
pub enum CertError {
    #[error("cannot read: {0}")]
    Read(std::io::Error),
    /// Refused before reading: not a regular file, or too large.
    #[error("{0}")]
    Input(kamisado_files::InputError),
    #[error("not a Kamon certificate (the file does not start with the magic bytes KAMONCRT)")]
    NotACertificate,
    #[error("Kamon certificate format version {found} is not supported (this program reads version {FORMAT_VERSION})")]
    UnsupportedVersion { found: u32 },
    #[error("damaged: the file has {found} bytes, but its header announces {claims} claim(s), a {layout}-byte layout and {entries} entries, {expected} bytes in all")]
    Length {
        claims: u64,
        layout: u64,
        entries: u64,
        expected: String,
        found: u64,
    },
    #[error("damaged: checksum mismatch (the header says {stored:#010x}, the contents give {computed:#010x})")]
    Checksum { stored: u32, computed: u32 },
    #[error("damaged: {0}")]
    Layout(String),
}

impl From<kamisado_files::InputError> for CertError {
    fn from(e: kamisado_files::InputError) -> CertError {
        match e {
            kamisado_files::InputError::Read(e) => CertError::Read(e),
            e => CertError::Input(e),
        }
    }
}

/// A certificate in memory: the layout, what it claims and the proof's entries, sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    pub layout: Layout,
    pub claims: Vec<Claim>,
    /// Strictly ascending by their bits (so by position key, then kind).
    pub entries: Vec<Entry>,
}

fn crc_of(bytes: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&bytes[..CHECKSUM_AT]);
    hasher.update(&[0; 4]);
    hasher.update(&bytes[CHECKSUM_AT + 4..]);
    hasher.finalize()
}

fn padded(length: u64) -> u64 {
    length.div_ceil(WORD_BYTES as u64) * WORD_BYTES as u64
}

/// The header's counts, read and checked for sense before the rest of the file is.
struct Header {
    claims: u64,
    layout_bytes: u64,
    entries: u64,
    stored_crc: u32,
}

impl Header {
    fn parse(bytes: &[u8]) -> Result<Header, CertError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(CertError::NotACertificate);
        }
        if bytes.len() < HEADER_BYTES {
            return Err(CertError::Layout(format!(
                "the file ends inside the {HEADER_BYTES}-byte header ({} bytes)",
                bytes.len()
            )));
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4"));
        let version = u32_at(8);
        if version != FORMAT_VERSION {
            return Err(CertError::UnsupportedVersion { found: version });
        }
        let layout_bytes = u32_at(20);
        if layout_bytes > MAX_LAYOUT_BYTES {
            return Err(CertError::Layout(format!(
                "the header announces a {layout_bytes}-byte layout text (a layout has under {MAX_LAYOUT_BYTES})"
            )));
        }
        Ok(Header {
            claims: u32_at(16) as u64,
            layout_bytes: layout_bytes as u64,
            entries: u64::from_le_bytes(bytes[24..32].try_into().expect("8")),
            stored_crc: u32_at(CHECKSUM_AT),
        })
    }

    /// The file's length as the header announces it, if it fits in 64 bits.
    fn expected_length(&self) -> Option<u64> {
        self.claims
            .checked_add(self.entries)
            .and_then(|words| words.checked_mul(WORD_BYTES as u64))
            .and_then(|b| b.checked_add(HEADER_BYTES as u64 + padded(self.layout_bytes)))
    }

    fn check_length(&self, found: u64) -> Result<(), CertError> {
        let expected = self.expected_length();
        if expected == Some(found) {
            return Ok(());
        }
        Err(CertError::Length {
            claims: self.claims,
            layout: self.layout_bytes,
            entries: self.entries,
            expected: expected.map_or_else(|| "more than 2^64".to_owned(), |e| e.to_string()),
            found,
        })
    }
}

impl Certificate {
    /// The bytes of the file.
    ///
    /// # Panics
    ///
    /// If the entries are not strictly ascending, or there are more than `u32::MAX` claims.
    pub fn encode(&self) -> Vec<u8> {
        assert!(
            self.entries.windows(2).all(|w| w[0] < w[1]),
            "entries must be strictly ascending"
        );
        let claims = u32::try_from(self.claims.len()).expect("fewer than 2^32 claims");
        let layout = self.layout.to_string();
        let layout_bytes = layout.len() as u32;
        let mut bytes = Vec::with_capacity(
            HEADER_BYTES
                + padded(layout.len() as u64) as usize
                + WORD_BYTES * (self.claims.len() + self.entries.len()),
        );
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&[0; 4]);
        bytes.extend_from_slice(&claims.to_le_bytes());
        bytes.extend_from_slice(&layout_bytes.to_le_bytes());
        bytes.extend_from_slice(&(self.entries.len() as u64).to_le_bytes());
        bytes.extend_from_slice(layout.as_bytes());
        bytes.resize(HEADER_BYTES + padded(layout.len() as u64) as usize, 0);
        for claim in &self.claims {
            bytes.extend_from_slice(&claim.to_bits().to_le_bytes());
        }
        for entry in &self.entries {
            bytes.extend_from_slice(&entry.bits().to_le_bytes());
        }
        let crc = crc_of(&bytes);
        bytes[CHECKSUM_AT..CHECKSUM_AT + 4].copy_from_slice(&crc.to_le_bytes());
        bytes
    }

    /// Reads a certificate file: a regular file only (never waiting on a FIFO), its
    /// header checked against its size before the rest is read, and no larger than
    /// [`MAX_FILE_BYTES`], so a damaged or foreign file costs no more than its header.
    pub fn read(path: &Path) -> Result<Certificate, CertError> {
        let bytes = kamisado_files::read_checked(
            path,
            HEADER_BYTES,
            MAX_FILE_BYTES,
            "a Kamon certificate",
            |header, len| Header::parse(header)?.check_length(len),
        )?;
        Certificate::decode(&bytes)
    }

    /// The certificate in a file's bytes: the header, the length and the checksum are
    /// checked before anything else is read, then the layout, that every claim is a
    /// position of it, and that the entries ascend.
    pub fn decode(bytes: &[u8]) -> Result<Certificate, CertError> {
        let header = Header::parse(bytes)?;
        header.check_length(bytes.len() as u64)?;
        let computed = crc_of(bytes);
        if computed != header.stored_crc {
            return Err(CertError::Checksum {
                stored: header.stored_crc,
                computed,
            });
        }
        if header.claims == 0 {
            return Err(CertError::Layout("the certificate claims nothing".into()));
        }
        let layout_end = HEADER_BYTES + header.layout_bytes as usize;
        let words_start = HEADER_BYTES + padded(header.layout_bytes) as usize;
        if bytes[layout_end..words_start].iter().any(|&b| b != 0) {
            return Err(CertError::Layout(
                "the layout text's padding is not zero".into(),
            ));
        }
        let layout: Layout = std::str::from_utf8(&bytes[HEADER_BYTES..layout_end])
            .map_err(|_| CertError::Layout("the layout text is not UTF-8".into()))?
            .parse()
            .map_err(|e| CertError::Layout(format!("the layout: {e}")))?;
        let words: Vec<u128> = bytes[words_start..]
            .chunks_exact(WORD_BYTES)
            .map(|w| u128::from_le_bytes(w.try_into().expect("sixteen bytes")))
            .collect();
        let (claim_words, entry_words) = words.split_at(header.claims as usize);
        let claims = claim_words
            .iter()
            .enumerate()
            .map(|(i, &w)| {
                Claim::from_bits(&layout, w)
                    .map_err(|e| CertError::Layout(format!("claim {}: {e}", i + 1)))
            })
            .collect::<Result<Vec<Claim>, CertError>>()?;
        let entries: Vec<Entry> = entry_words.iter().map(|&w| Entry::from_bits(w)).collect();
        if let Some(i) = entries.windows(2).position(|w| w[0] >= w[1]) {
            return Err(CertError::Layout(format!(
                "entry {} is not above entry {}: entries must be strictly ascending",
                i + 1,
                i
            )));
        }
        if let Some(i) = entries.iter().position(|e| !e.reserved_bits_clear()) {
            return Err(CertError::Layout(format!(
                "entry {i} has reserved bits set"
            )));
        }
        Ok(Certificate {
            layout,
            claims,
            entries,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Kind;
    use kamon_core::{Outcome, Position};

    fn sample() -> Certificate {
        let layout = Layout::random(5);
        let start = Position::start(&layout);
        let b1 = start.legal_cells(&layout).first().unwrap();
        let after = start.play(&layout, b1).unwrap();
        Certificate {
            layout,
            claims: vec![Claim {
                position: start,
                value: Outcome::Win,
            }],
            entries: vec![
                Entry::new(start.key(), Kind::Wins, Some(b1)),
                Entry::new(after.key(), Kind::Loses, None),
            ]
            .into_iter()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect(),
        }
    }

    #[test]
    fn round_trip_with_the_documented_layout() {
        let cert = sample();
        let bytes = cert.encode();
        let layout_len = cert.layout.to_string().len();
        assert_eq!(
            bytes.len(),
            32 + padded(layout_len as u64) as usize + 16 * 3
        );
        assert_eq!(&bytes[..8], b"KAMONCRT");
        assert_eq!(bytes[8..12], 1u32.to_le_bytes());
        assert_eq!(bytes[16..20], 1u32.to_le_bytes());
        assert_eq!(bytes[20..24], (layout_len as u32).to_le_bytes());
        assert_eq!(bytes[24..32], 2u64.to_le_bytes());
        assert_eq!(
            &bytes[32..32 + layout_len],
            cert.layout.to_string().as_bytes()
        );
        assert_eq!(Certificate::decode(&bytes).unwrap(), cert);
    }

    #[test]
    fn damage_is_named_and_never_trusted() {
        let bytes = sample().encode();
        for cut in 0..bytes.len() {
            assert!(Certificate::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        for at in 0..bytes.len() {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x10;
            assert!(Certificate::decode(&flipped).is_err(), "byte {at} flipped");
        }
        let mut huge = bytes.clone();
        huge[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
        let e = Certificate::decode(&huge).unwrap_err();
        assert!(e.to_string().contains("more than 2^64"), "{e}");
        assert!(matches!(
            Certificate::decode(b"KAMICERT\x01\0\0\0"),
            Err(CertError::NotACertificate)
        ));
    }

    #[test]
    fn special_files_are_refused_without_reading() {
        let e = Certificate::read(Path::new("/dev/zero")).unwrap_err();
        assert!(matches!(e, CertError::Input(_)), "{e}");
        let e = Certificate::read(Path::new("/")).unwrap_err();
        assert!(matches!(e, CertError::Input(_)), "{e}");
    }
}
