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
//! any language needs nothing but this table and the two word layouts. The framing (the
//! header, the length, the checksum, the order of the entries) is the word file that
//! Kamon's certificates share ([`kamisado_files::words`]); here are the words' meanings.

use std::path::Path;

use kamisado_files::words::{WordFormat, WordsError};

use crate::{Claim, Entry};

pub const MAGIC: [u8; 8] = *b"KAMICERT";
pub const FORMAT_VERSION: u32 = 1;

/// The largest certificate file read: checking one holds about three times its size in
/// memory (the file, its words, the entries), 12 GiB at this bound, half of this
/// project's machine.
pub const MAX_FILE_BYTES: u64 = 4 << 30;

const FORMAT: WordFormat = WordFormat {
    magic: MAGIC,
    version: FORMAT_VERSION,
    oldest: FORMAT_VERSION,
    name: "certificate",
    what: "a certificate",
    text: None,
    max_text: 0,
    max_file: MAX_FILE_BYTES,
    ascending: true,
};

/// Why a file is not a readable certificate (as opposed to a readable one whose proof
/// fails, which [`crate::check`] reports): the word file's errors, in this format's
/// name. Each message is one line.
pub type CertError = WordsError;

/// A certificate in memory: what it claims and the proof's entries, sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    pub claims: Vec<Claim>,
    /// Strictly ascending by their bits (so by canonical key, then kind).
    pub entries: Vec<Entry>,
}

impl Certificate {
    /// The bytes of the file.
    ///
    /// # Panics
    ///
    /// If the entries are not strictly ascending, or there are more than `u32::MAX` claims.
    pub fn encode(&self) -> Vec<u8> {
        let claims: Vec<u128> = self.claims.iter().map(Claim::to_bits).collect();
        let entries: Vec<u128> = self.entries.iter().map(|e| e.bits()).collect();
        FORMAT.encode(&[], &claims, &entries)
    }

    /// Reads a certificate file: a regular file only, its header checked against its
    /// size before the rest is read, and no larger than [`MAX_FILE_BYTES`].
    pub fn read(path: &Path) -> Result<Certificate, CertError> {
        Certificate::from_words(FORMAT.read(path)?)
    }

    /// The certificate in a file's bytes: the header, the length and the checksum are
    /// checked before anything else is read, then that the entries ascend and every
    /// claim is a position.
    pub fn decode(bytes: &[u8]) -> Result<Certificate, CertError> {
        Certificate::from_words(FORMAT.decode(bytes)?)
    }

    fn from_words(words: kamisado_files::words::Words) -> Result<Certificate, CertError> {
        let claims = words
            .claims
            .iter()
            .enumerate()
            .map(|(i, &w)| {
                Claim::from_bits(w).map_err(|e| CertError::Damaged(format!("claim {}: {e}", i + 1)))
            })
            .collect::<Result<Vec<Claim>, CertError>>()?;
        let entries: Vec<Entry> = words.entries.iter().map(|&w| Entry::from_bits(w)).collect();
        if let Some(i) = entries.iter().position(|e| !e.low_bits_clear()) {
            return Err(CertError::Damaged(format!(
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
            Err(CertError::UnsupportedVersion { found: 2, .. })
        ));
        let mut huge = bytes.clone();
        huge[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
        let e = Certificate::decode(&huge).unwrap_err();
        assert!(e.to_string().contains("more than 2^64"), "{e}");
        assert!(matches!(
            Certificate::decode(b"PK\x03\x04"),
            Err(CertError::NotThisFormat { .. })
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
        kamisado_files::words::reseal(&mut bytes);
        assert!(matches!(
            Certificate::decode(&bytes),
            Err(CertError::Damaged(_))
        ));
    }
}
