//! The certificate file: a fixed 32-byte header, the layout, the claims, the entries.
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `KAMONCRT` |
//! | 8 | 4 | format version, u32 little-endian: 2 (1 is still read: its rules decide a win at once, not the forced wins of [`crate::forced_win`]) |
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
//! two word layouts and the layout text. The framing (the header, the length, the
//! checksum, the padding, the order of the entries) is the word file that Kamisado's
//! certificates share ([`kamisado_files::words`]); here are the words' meanings.

use std::path::Path;

use kamisado_files::words::{WordFormat, Words, WordsError};
use kamon_core::Layout;

use crate::{Claim, Entry};

pub const MAGIC: [u8; 8] = *b"KAMONCRT";
/// The version written. Version 2 (2026-12-06) added forced wins within three placements
/// to what the rules decide ([`crate::forced_win`]), as in the walk certificates' version
/// 2; a version 1 file is checked by the rules it was written for.
pub const FORMAT_VERSION: u32 = 2;
/// The largest certificate read: 4 GiB, some 270 million entries (a whole layout's proof
/// would be larger; it would be split into several certificates).
pub const MAX_FILE_BYTES: u64 = 4 << 30;

const FORMAT: WordFormat = WordFormat {
    magic: MAGIC,
    version: FORMAT_VERSION,
    oldest: 1,
    // A layout's text is 37 chips of two characters and six slashes; anything much
    // longer is damage, refused before it is read.
    max_text: 256,
    max_file: MAX_FILE_BYTES,
    name: "Kamon certificate",
    what: "a Kamon certificate",
    text: Some("layout"),
    ascending: true,
};

/// Why a file is not a readable certificate (as opposed to a readable one whose proof
/// fails, which [`crate::check`] reports): the word file's errors, in this format's
/// name. Each message is one line.
pub type CertError = WordsError;

/// A certificate in memory: the layout, what it claims and the proof's entries, sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The format version: what the rules decide without an entry ([`crate::forced_win`]
    /// from version 2). [`FORMAT_VERSION`] for what the prover writes; 1 for an older file.
    pub version: u32,
    pub layout: Layout,
    pub claims: Vec<Claim>,
    /// Strictly ascending by their bits (so by position key, then kind).
    pub entries: Vec<Entry>,
}

impl Certificate {
    /// The bytes of the file.
    ///
    /// # Panics
    ///
    /// If the entries are not strictly ascending, or there are more than `u32::MAX` claims.
    pub fn encode(&self) -> Vec<u8> {
        let claims: Vec<u128> = self.claims.iter().map(|c| c.to_bits()).collect();
        let entries: Vec<u128> = self.entries.iter().map(|e| e.bits()).collect();
        FORMAT.encode_version(
            self.version,
            self.layout.to_string().as_bytes(),
            &claims,
            &entries,
        )
    }

    /// Reads a certificate file: a regular file only (never waiting on a FIFO), its
    /// header checked against its size before the rest is read, and no larger than
    /// [`MAX_FILE_BYTES`], so a damaged or foreign file costs no more than its header.
    pub fn read(path: &Path) -> Result<Certificate, CertError> {
        Certificate::from_words(FORMAT.read(path)?)
    }

    /// The certificate in a file's bytes: the header, the length and the checksum are
    /// checked before anything else is read, then the layout, that every claim is a
    /// position of it, and that the entries ascend.
    pub fn decode(bytes: &[u8]) -> Result<Certificate, CertError> {
        Certificate::from_words(FORMAT.decode(bytes)?)
    }

    fn from_words(words: Words) -> Result<Certificate, CertError> {
        let (layout, claims) = layout_and_claims(&words)?;
        let entries: Vec<Entry> = words.entries.iter().map(|&w| Entry::from_bits(w)).collect();
        if let Some(i) = entries.iter().position(|e| !e.reserved_bits_clear()) {
            return Err(CertError::Damaged(format!(
                "entry {i} has reserved bits set"
            )));
        }
        Ok(Certificate {
            version: words.version,
            layout,
            claims,
            entries,
        })
    }
}

/// The layout text and the claims of a word file (a certificate of entries or a walk
/// certificate): the layout parsed, each claim a position of it.
pub(crate) fn layout_and_claims(words: &Words) -> Result<(Layout, Vec<Claim>), CertError> {
    let layout: Layout = std::str::from_utf8(&words.text)
        .map_err(|_| CertError::Damaged("the layout text is not UTF-8".into()))?
        .parse()
        .map_err(|e| CertError::Damaged(format!("the layout: {e}")))?;
    let claims = words
        .claims
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            Claim::from_bits(&layout, w)
                .map_err(|e| CertError::Damaged(format!("claim {}: {e}", i + 1)))
        })
        .collect::<Result<Vec<Claim>, CertError>>()?;
    Ok((layout, claims))
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
            version: FORMAT_VERSION,
            layout,
            claims: vec![Claim::value(start, Outcome::Win)],
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
        assert_eq!(bytes.len(), 32 + layout_len.div_ceil(16) * 16 + 16 * 3);
        assert_eq!(&bytes[..8], b"KAMONCRT");
        assert_eq!(bytes[8..12], 2u32.to_le_bytes());
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
            Err(CertError::NotThisFormat { .. })
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
