//! The walk certificate's file, and its check.
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `KAMONWLK` |
//! | 8 | 4 | format version, u32 little-endian: 2 (1 is still read: its walk's rules decide a win at once, not the forced wins of [`crate::forced_win`]) |
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
use crate::walk::{ChoiceReader, Chooser, Walk, WalkCounts, WalkLimits};
use crate::{Certificate, Claim, Entry, Kind};

pub const WALK_MAGIC: [u8; 8] = *b"KAMONWLK";
/// The version written. Version 2 (2026-12-06) added forced wins within three placements
/// to what the rules decide ([`crate::forced_win`]), as in the certificates of entries'
/// version 2; the choices of a version 1 file are read by the rules it was written for.
pub const WALK_FORMAT_VERSION: u32 = 2;
/// The largest walk certificate read: 1 GiB, some 3 billion choices.
pub const MAX_WALK_FILE_BYTES: u64 = 1 << 30;

const FORMAT: WordFormat = WordFormat {
    magic: WALK_MAGIC,
    version: WALK_FORMAT_VERSION,
    oldest: 1,
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
    /// The format version: what the walk's rules decide (module [`crate::walk`]).
    /// [`WALK_FORMAT_VERSION`] for what the packer writes; 1 for an older file read.
    pub version: u32,
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
        FORMAT.encode_version(
            self.version,
            self.layout.to_string().as_bytes(),
            &claims,
            &self.choices,
        )
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
            version: words.version,
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
        cert.version,
        limits,
        progress,
    );
    show_claims(cert, &mut walk)?;
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

/// Walks `cert`'s claims with `walk`, whose chooser reads the file's choices, to the end
/// of the stream.
fn show_claims<'r, C: Chooser + AsRef<ChoiceReader<'r>>>(
    cert: &WalkCertificate,
    walk: &mut Walk<'_, C>,
) -> Result<(), CheckFailure> {
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
    if let Some(reason) = walk.chooser.as_ref().leftover() {
        // Every claim held, but the file holds more than its proof: refused all the same
        // (a file is exactly its proof, so that two files of one proof are one file).
        let last = cert.claims.len();
        return Err(CheckFailure::Claim {
            index: last,
            claim: format!("{}, shown", cert.claims[last - 1]),
            reason: format!("the file does not end where its walk does: {reason}"),
        });
    }
    Ok(())
}

/// The choices of a walk certificate as a certificate of entries (one "wins" or "draws
/// or wins" entry with its placement a choice, the claims the file's), checked on the
/// way as [`check_walk`] checks it: what [`crate::pack()`] reads to write an older walk
/// again in the newest format. (Its "loses" and "cannot win" have no entries, which a
/// walk never reads, so it is a packer's input and no certificate of its own.)
pub fn walk_entries(
    cert: &WalkCertificate,
    limits: WalkLimits,
    progress: &mut dyn FnMut(WalkCounts),
) -> Result<Certificate, CheckFailure> {
    let recorder = Recorder {
        reader: ChoiceReader::new(&cert.choices),
        entries: Vec::new(),
    };
    let mut walk = Walk::new(&cert.layout, recorder, cert.version, limits, progress);
    show_claims(cert, &mut walk)?;
    let mut entries = std::mem::take(&mut walk.chooser.entries);
    // Each statement read a choice once (the walk remembers it), so the keys are distinct.
    entries.sort_unstable_by_key(|e| e.bits());
    Ok(Certificate {
        version: cert.version,
        layout: cert.layout.clone(),
        claims: cert.claims.clone(),
        entries,
    })
}

/// The file's choices, each written down as an entry.
struct Recorder<'a> {
    reader: ChoiceReader<'a>,
    entries: Vec<Entry>,
}

impl Chooser for Recorder<'_> {
    fn choose(
        &mut self,
        pos: &kamon_core::Position,
        kind: Kind,
        legal: kamon_core::Bitboard,
    ) -> Result<kamon_core::Cell, String> {
        let cell = self.reader.choose(pos, kind, legal)?;
        self.entries.push(Entry::new(pos.key(), kind, Some(cell)));
        Ok(cell)
    }
}

impl<'a> AsRef<ChoiceReader<'a>> for Recorder<'a> {
    fn as_ref(&self) -> &ChoiceReader<'a> {
        &self.reader
    }
}

impl<'a> AsRef<ChoiceReader<'a>> for ChoiceReader<'a> {
    fn as_ref(&self) -> &ChoiceReader<'a> {
        self
    }
}
