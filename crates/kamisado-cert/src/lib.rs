//! Certificates: files that prove "the side to move wins (or loses) in exactly r moves"
//! to anyone with the rules, without trusting the solver that found the proof.
//!
//! # Why the proof looks like this
//!
//! The checker ([`check`]) is the part a reader must trust, so the format is designed
//! around it being small and obviously right:
//!
//! - **Every entry is checked on its own.** An entry is a position (by key), one of four
//!   statements about its side to move within a bound of `b` moves ([`Kind`]: wins,
//!   loses, cannot win, survives) and, for "wins" and "survives", the move that does it.
//!   Its rule is local: play that move (or every legal move, for "loses" and "cannot
//!   win") with the rules core and look up, among the entries, one showing the matching
//!   statement for the position reached with `b - 1` moves (or let the rules decide a
//!   finished game). The checker keeps no state between entries, never searches and never
//!   recurses, so it is one short loop over the entries.
//! - **Local checks add up to a proof** because no Kamisado position repeats: every move
//!   of positive length advances a tower, and zero-length moves are played inside the move
//!   that causes them. By induction on the longest game left from a position, if every
//!   entry's rule holds given the entries of the positions after its moves, every entry is
//!   true. So the order of the entries, sharing between them, and how the prover found
//!   them do not matter: a transposition is simply one entry used by several parents.
//! - **Statements are about the side to move**, and "the turn passed" is read off the two
//!   positions, so turns that do not alternate (a chain of zero-length moves can give the
//!   mover the next move) need no special case: through a move where the turn stays, the
//!   statement stays; where it passes, it swaps (wins <-> loses, cannot win <-> survives).
//! - **A claim is two bounds.** "Wins in exactly r" is "wins within r" (the winner's
//!   strategy: one move at its turns, every move at the loser's) together with "cannot
//!   win within r - 1" (every move at the winner's turns, one at the loser's); losses
//!   likewise with "loses within r" and "survives r - 1".
//! - **Two implications, and monotone bounds**, let one entry serve many needs: a
//!   stronger bound than needed is accepted, and since the game has exactly one winner,
//!   "loses" shows "cannot win" and "wins" shows "survives" for any bound.
//! - **Symmetric positions share an entry**: entries are keyed by the canonical key, and
//!   an entry's position is the one that key describes (its moves are in its coordinates,
//!   nothing is mapped). This rests on the rules fact that the half turn and the file
//!   mirror keep a position's game, which `RULES.md` states and the rules core tests.
//!
//! What the checker trusts is therefore the rules core's moves, `play`, game ends and
//! keys, which the naive reference implementation cross-checks, and which the
//! reference's own certificate checker (sharing no code with this crate) re-implements.
//!
//! # The file
//!
//! A fixed header with magic, version and CRC-32, the claims, then the entries as sorted
//! 16-byte words (see [`file`](crate::Certificate) for the byte layout, [`Entry`] and
//! [`Claim`] for the words). A lookup is a binary search; 16 bytes per entry.
//!
//! The prover ([`prove()`], feature `prove`) uses the solver to choose moves; nothing it
//! does is trusted.

mod check;
mod entry;
mod file;
#[cfg(feature = "prove")]
mod prove;
mod rules;

pub use check::{check, CheckFailure, Verified};
pub use entry::{Claim, Entry, Kind, MAX_BOUND};
pub use file::{CertError, Certificate, FORMAT_VERSION, MAGIC};
#[cfg(feature = "prove")]
pub use prove::{prove, Progress, ProveError};
pub use rules::{by_rules, DECIDED_BY_RULES};
