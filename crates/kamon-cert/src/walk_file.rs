//! The walk certificate's file, and its check.
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `KAMONWLK` |
//! | 8 | 4 | format version, u32 little-endian: 1 |
//! | 12 | 4 | CRC-32 (the zlib/IEEE polynomial) of the whole file, these four bytes read as zero |
//! | 16 | 4 | number of claims C, u32 little-endian, at least 1 |
//! | 20 | 4 | length L of the layout text in bytes, u32 little-endian |
//! | 24 | 8 | number of words of choices W, u64 little-endian |
//! | 32 | P | the layout text, zero-padded to P = L rounded up to a multiple of 16 |
//! | 32 + P | 16 C | the claims ([`Claim`]), as in a certificate of entries |
//! | 32 + P + 16 C | 16 W | the choices, a stream of bits in little-endian u128 words (module [`crate::walk`]) |
//!
//! The framing is the word file the other certificates share
//! ([`kamisado_files::words`]), its words in no order.

use std::path::Path;

use kamisado_files::words::{WordFormat, Words, WordsError};
use kamon_core::Layout;

use crate::check::{CheckFailure, Verified};
use crate::file::layout_and_claims;
use crate::walk::{ChoiceReader, Walk, WalkCounts, WalkLimits};
use crate::Claim;

pub const WALK_MAGIC: [u8; 8] = *b"KAMONWLK";
pub const WALK_FORMAT_VERSION: u32 = 1;
/// The largest walk certificate read: 1 GiB, some 3 billion choices.
pub const MAX_WALK_FILE_BYTES: u64 = 1 << 30;

const FORMAT: WordFormat = WordFormat {
    magic: WALK_MAGIC,
    version: WALK_FORMAT_VERSION,
    max_text: 256,
    max_file: MAX_WALK_FILE_BYTES,
    name: "Kamon walk certificate",
    what: "a Kamon walk certificate",
    text: Some("layout"),
    ascending: false,
};

/// A walk certificate in memory: the layout, the claims and the stream of choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkCertificate {
    pub layout: Layout,
    pub claims: Vec<Claim>,
    pub choices: Vec<u128>,
}

/// A walk certificate whose claims all held, with what the walk went through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkVerified {
    pub verified: Verified,
    pub counts: WalkCounts,
    pub bits: u64,
}

impl WalkCertificate {
    /// The bytes of the file.
    pub fn encode(&self) -> Vec<u8> {
        let claims: Vec<u128> = self.claims.iter().map(|c| c.to_bits()).collect();
        FORMAT.encode(self.layout.to_string().as_bytes(), &claims, &self.choices)
    }

    /// Reads a walk certificate: a regular file only, its header checked against its
    /// size before the rest is read, no larger than [`MAX_WALK_FILE_BYTES`].
    pub fn read(path: &Path) -> Result<WalkCertificate, WordsError> {
        WalkCertificate::from_words(FORMAT.read(path)?)
    }

    /// The walk certificate in a file's bytes.
    pub fn decode(bytes: &[u8]) -> Result<WalkCertificate, WordsError> {
        WalkCertificate::from_words(FORMAT.decode(bytes)?)
    }

    fn from_words(words: Words) -> Result<WalkCertificate, WordsError> {
        let (layout, claims) = layout_and_claims(&words)?;
        Ok(WalkCertificate {
            layout,
            claims,
            choices: words.entries,
        })
    }
}

/// Walks the proof from the claims (module [`crate::walk`]), reading the choices from the
/// file; `progress` is called every 65,536 positions.
pub fn check_walk(
    cert: &WalkCertificate,
    limits: WalkLimits,
    progress: &mut dyn FnMut(WalkCounts),
) -> Result<WalkVerified, CheckFailure> {
    let mut walk = Walk::new(
        &cert.layout,
        ChoiceReader::new(&cert.choices),
        limits,
        progress,
    );
    for (i, claim) in cert.claims.iter().enumerate() {
        let failed = |reason: String| CheckFailure::Claim {
            index: i + 1,
            claim: format!("{claim} in {}", claim.position.to_setup()),
            reason,
        };
        for &kind in claim.statements() {
            walk.show(&claim.position, kind).map_err(failed)?;
        }
    }
    if let Some(reason) = walk.chooser.leftover() {
        // Every claim held, but the file holds more than its proof: refused all the same
        // (a file is exactly its proof, so that two files of one proof are one file).
        let last = cert.claims.len();
        return Err(CheckFailure::Claim {
            index: last,
            claim: format!("{}, shown", cert.claims[last - 1]),
            reason: format!("the file does not end where its walk does: {reason}"),
        });
    }
    let counts = walk.counts();
    Ok(WalkVerified {
        verified: Verified {
            claims: cert.claims.clone(),
            entries: counts.choices as usize,
        },
        counts,
        bits: walk.chooser.bits_read(),
    })
}
