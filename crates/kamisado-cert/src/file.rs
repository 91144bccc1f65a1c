//! The certificate file: a fixed 32-byte header, the claims, the entries.
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `KAMICERT` |
//! | 8 | 4 | format version, u32 little-endian: 1 |
//! | 12 | 4 | CRC-32 (the zlib/IEEE polynomial) of the whole file, these four bytes read as zero |
//! | 16 | 4 | number of claims C, u32 little-endian, at least 1 |
//! | 20 | 4 | zero |
//! | 24 | 8 | number of entries N, u64 little-endian |
//! | 32 | 16 C | the claims ([`Claim`]), each a little-endian u128 |
//! | 32 + 16 C | 16 N | the entries ([`Entry`]), little-endian u128s in strictly ascending order |
//!
//! The file is exactly 32 + 16 (C + N) bytes. Everything is fixed-width, so a reader in
//! any language needs nothing but this table and the two word layouts.

use std::path::Path;

use crate::{Claim, Entry};

pub const MAGIC: [u8; 8] = *b"KAMICERT";
pub const FORMAT_VERSION: u32 = 1;
const HEADER_BYTES: usize = 32;
const WORD_BYTES: usize = 16;
const CHECKSUM_AT: usize = 12;

/// Why a file is not a readable certificate (as opposed to a readable one whose proof
/// fails, which [`crate::check`] reports). Each message is one line.
#[derive(Debug, thiserror::Error)]
pub enum CertError {
    #[error("cannot read: {0}")]
    Read(std::io::Error),
    /// Refused before reading: not a regular file, or too large.
    #[error("{0}")]
    Input(kamisado_files::InputError),
    #[error("not a certificate (the file does not start with the magic bytes KAMICERT)")]
    NotACertificate,
    #[error("certificate format version {found} is not supported (this program reads version {FORMAT_VERSION})")]
    UnsupportedVersion { found: u32 },
    #[error("damaged: the file has {found} bytes, but its header announces {claims} claim(s) and {entries} entries, {expected} bytes in all")]
    Length {
        claims: u64,
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

/// A certificate in memory: what it claims and the proof's entries, sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    pub claims: Vec<Claim>,
    /// Strictly ascending by their bits (so by canonical key, then kind).
    pub entries: Vec<Entry>,
}

/// The largest certificate file read: checking one holds about three times its size in
/// memory (the file, its words, the entries), 12 GiB at this bound, half of this
/// project's machine.
pub const MAX_FILE_BYTES: u64 = 4 << 30;

/// Checks the start of a certificate file (`header`: its first [`HEADER_BYTES`] bytes,
/// or all of a shorter file) against the file's length `len`: the magic, the version and
/// the length the header announces. Returns the stored checksum and the claims.
fn check_header(header: &[u8], len: u64) -> Result<(u32, u64), CertError> {
    if header.len() < MAGIC.len() || header[..MAGIC.len()] != MAGIC {
        return Err(CertError::NotACertificate);
    }
    let u32_at = |at: usize| {
        header
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let too_short = || {
        CertError::Layout(format!(
            "the file ends inside the {HEADER_BYTES}-byte header ({len} bytes)"
        ))
    };
    let version = u32_at(8).ok_or_else(too_short)?;
    if version != FORMAT_VERSION {
        return Err(CertError::UnsupportedVersion { found: version });
    }
    if header.len() < HEADER_BYTES {
        return Err(too_short());
    }
    let stored = u32_at(CHECKSUM_AT).ok_or_else(too_short)?;
    let claims = u32_at(16).ok_or_else(too_short)? as u64;
    let entries = u64::from_le_bytes(header[24..32].try_into().expect("eight bytes"));
    let expected = claims
        .checked_add(entries)
        .and_then(|words| words.checked_mul(WORD_BYTES as u64))
        .and_then(|b| b.checked_add(HEADER_BYTES as u64));
    if expected != Some(len) {
        return Err(CertError::Length {
            claims,
            entries,
            expected: expected.map_or_else(|| "more than 2^64".to_owned(), |e| e.to_string()),
            found: len,
        });
    }
    Ok((stored, claims))
}

fn crc_of(bytes: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&bytes[..CHECKSUM_AT]);
    hasher.update(&[0; 4]);
    hasher.update(&bytes[CHECKSUM_AT + 4..]);
    hasher.finalize()
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
        let mut bytes = Vec::with_capacity(
            HEADER_BYTES + WORD_BYTES * (self.claims.len() + self.entries.len()),
        );
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&[0; 4]);
        bytes.extend_from_slice(&claims.to_le_bytes());
        bytes.extend_from_slice(&[0; 4]);
        bytes.extend_from_slice(&(self.entries.len() as u64).to_le_bytes());
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

    /// Reads a certificate file: a regular file only, its header checked against its
    /// size before the rest is read, and no larger than [`MAX_FILE_BYTES`].
    pub fn read(path: &Path) -> Result<Certificate, CertError> {
        let bytes = kamisado_files::read_checked(
            path,
            HEADER_BYTES,
            MAX_FILE_BYTES,
            "a certificate",
            |header, len| check_header(header, len).map(|_| ()),
        )?;
        Certificate::decode(&bytes)
    }

    /// The certificate in a file's bytes: the header, the length and the checksum are
    /// checked before anything else is read, then that the entries ascend and every
    /// claim is a position.
    pub fn decode(bytes: &[u8]) -> Result<Certificate, CertError> {
        let (stored, claims) =
            check_header(&bytes[..bytes.len().min(HEADER_BYTES)], bytes.len() as u64)?;
        let u32_at = |at: usize| {
            bytes
                .get(at..at + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let computed = crc_of(bytes);
        if computed != stored {
            return Err(CertError::Checksum { stored, computed });
        }
        if u32_at(20) != Some(0) {
            return Err(CertError::Layout("header bytes 20..24 must be zero".into()));
        }
        if claims == 0 {
            return Err(CertError::Layout("the certificate claims nothing".into()));
        }
        let words: Vec<u128> = bytes[HEADER_BYTES..]
            .chunks_exact(WORD_BYTES)
            .map(|w| u128::from_le_bytes(w.try_into().expect("sixteen bytes")))
            .collect();
        let (claim_words, entry_words) = words.split_at(claims as usize);
        let claims = claim_words
            .iter()
            .enumerate()
            .map(|(i, &w)| {
                Claim::from_bits(w).map_err(|e| CertError::Layout(format!("claim {}: {e}", i + 1)))
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
        if let Some(i) = entries.iter().position(|e| !e.low_bits_clear()) {
            return Err(CertError::Layout(format!(
                "entry {i} has reserved bits set"
            )));
        }
        Ok(Certificate { claims, entries })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Kind;
    use kamisado_core::{Position, Side};

    fn sample() -> Certificate {
        Certificate {
            claims: vec![Claim {
                position: Position::start(),
                winner: Side::Black,
                remoteness: 17,
            }],
            entries: vec![
                Entry::new(3, Kind::Loses, 2, None),
                Entry::new(
                    9,
                    Kind::Wins,
                    5,
                    Some(kamisado_core::Move::new(
                        kamisado_core::Square::new(1),
                        kamisado_core::Square::new(9),
                    )),
                ),
            ],
        }
    }

    #[test]
    fn round_trip_with_the_documented_layout() {
        let cert = sample();
        let bytes = cert.encode();
        assert_eq!(bytes.len(), 32 + 16 * 3);
        assert_eq!(&bytes[..8], b"KAMICERT");
        assert_eq!(bytes[8..12], 1u32.to_le_bytes());
        assert_eq!(bytes[16..20], 1u32.to_le_bytes());
        assert_eq!(bytes[24..32], 2u64.to_le_bytes());
        assert_eq!(
            bytes[48..64],
            Entry::new(3, Kind::Loses, 2, None).bits().to_le_bytes()
        );
        assert_eq!(Certificate::decode(&bytes).unwrap(), cert);
    }

    #[test]
    fn damage_is_named() {
        let bytes = sample().encode();
        for cut in [0, 7, 12, 31, 32, bytes.len() - 1] {
            assert!(Certificate::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut flipped = bytes.clone();
        flipped[70] ^= 4;
        assert!(matches!(
            Certificate::decode(&flipped),
            Err(CertError::Checksum { .. })
        ));
        let mut later = bytes.clone();
        later[8] = 2;
        assert!(matches!(
            Certificate::decode(&later),
            Err(CertError::UnsupportedVersion { found: 2 })
        ));
        let mut huge = bytes.clone();
        huge[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
        let e = Certificate::decode(&huge).unwrap_err();
        assert!(e.to_string().contains("more than 2^64"), "{e}");
        assert!(matches!(
            Certificate::decode(b"PK\x03\x04"),
            Err(CertError::NotACertificate)
        ));
    }

    #[test]
    fn unsorted_entries_are_refused_even_with_a_good_checksum() {
        let cert = sample();
        let mut bytes = cert.encode();
        let (a, b) = (48, 64);
        let first: [u8; 16] = bytes[a..a + 16].try_into().unwrap();
        let second: [u8; 16] = bytes[b..b + 16].try_into().unwrap();
        bytes[a..a + 16].copy_from_slice(&second);
        bytes[b..b + 16].copy_from_slice(&first);
        let crc = crc_of(&bytes);
        bytes[12..16].copy_from_slice(&crc.to_le_bytes());
        assert!(matches!(
            Certificate::decode(&bytes),
            Err(CertError::Layout(_))
        ));
    }
}
