//! Certificates for Kamon: files that prove "the side to move of this position wins,
//! draws or loses" to anyone with the rules, without trusting the solver that found the
//! proof. The Kamon counterpart of `kamisado-cert`, for values (a win, a draw, a loss),
//! not remoteness.
//!
//! # Why the proof looks like this
//!
//! The checker ([`check`]) is the part a reader must trust, so it is small:
//!
//! - **Every entry is checked on its own.** An entry is a position (by its exact key
//!   within the layout), one of four statements about its side to move ([`Kind`]: wins,
//!   loses, draws or wins, cannot win) and, for "wins" and "draws or wins", the placement
//!   that shows it. Its rule is local: make that placement (or every legal placement, for
//!   "loses" and "cannot win") with `kamon-core` and find the matching statement about the
//!   position reached, from the rules (a finished game; a placement that wins at once;
//!   from format version 2 a win forced within three placements, a bounded exhaustive
//!   search) or from an entry. No state between entries, no other search, no recursion.
//! - **Local checks add up to a proof** because every placement adds a piece: no position
//!   repeats, and induction on the free cells carries the entries' rules to their truth.
//! - **A value is two questions** in a game with draws: a win is "wins", a loss "loses", a
//!   draw "draws or wins" together with "cannot win". A stronger statement serves a weaker
//!   need ("loses" shows "cannot win", "wins" shows "draws or wins"). A claim may also be
//!   one of a draw's two statements alone, a bound ("at least a draw", "at most a draw"):
//!   what a drawn root's proof needs of some positions below it (`Aim`, feature `prove`).
//!
//! What the checker trusts is `kamon-core`'s legal cells, placement, game ends, wins at
//! once (`Position::winning_move`), threats (the cells where a placement makes a shape,
//! which the forced wins' search carries as it plays) and keys,
//! which the naive reference implementation in the tests cross-checks, and whose own
//! certificate checker (sharing no code with this crate) re-implements this one.
//!
//! # The file
//!
//! A 32-byte header with magic `KAMONCRT`, version and CRC-32, the layout text, the
//! claims, then the entries as sorted 16-byte words ([`Certificate`] has the byte table).
//!
//! The prover (`prove`, compiled with the feature of that name) uses the solver to choose
//! placements; nothing it does is trusted.
//!
//! # Walk certificates
//!
//! A second format for large proofs ([`walk`]): the claims and, in the order a checker
//! walking the proof from them needs it, each placement the winner chooses, in two or
//! three bits, where a certificate of entries spends 16 bytes on every position. The
//! packer ([`pack()`]) makes one from certificates of entries (several units' at once,
//! with the value of a position above them); [`check_walk`] checks it.
//!
//! # Format version 2
//!
//! From version 2 (both formats) the rules also decide a win the side to move forces
//! within three placements ([`forced_win`]), which leaves some nine in ten of a version 1
//! walk's choices out of the file, and the prover's entries there out of its memory;
//! version 1 files are still read by their own rules, and [`walk_entries`] turns a walk
//! into entries that the packer writes again as version 2.

mod check;
mod entry;
mod file;
mod forced;
mod pack;
#[cfg(feature = "prove")]
mod prove;
pub mod walk;
mod walk_file;

pub use check::{check, CheckFailure, Verified};
pub use entry::{Claim, Entry, Kind};
pub use file::{CertError, Certificate, FORMAT_VERSION, MAGIC, MAX_FILE_BYTES};
pub use forced::{forced_win, FORCED_PLACEMENTS};
pub use pack::{pack, PackError, Packed, Proofs, ReadLater};
#[cfg(feature = "prove")]
pub use prove::{claim_of, prove, Aim, Progress, ProveError};
pub use walk::{WalkCounts, WalkLimits};
pub use walk_file::{
    check_walk, walk_entries, WalkCertificate, WalkVerified, MAX_WALK_FILE_BYTES,
    WALK_FORMAT_VERSION, WALK_MAGIC,
};
