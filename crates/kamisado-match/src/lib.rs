//! The rules of Kamisado match play, exactly: Sumo towers, pushes, points and the refill
//! between rounds, on top of the single-round core.
//!
//! A match is played over rounds; each won round gives the winning tower a rank (a dragon
//! tooth), ranks limit how far a tower moves and let it push opponent towers straight
//! back, and the ranks sum to the players' scores. This crate is to match play what
//! `kamisado-core` is to the single round, and it builds on it rather than beside it:
//! squares, colours, towers, the [`Board`], the ray tables, moves, the single-round
//! position errors and the symmetries are the core's, so that a single round played here
//! (target 1, every rank 0) is the core's game move for move, which the tests check.
//!
//! - [`MatchPosition`]: compact (32 bytes) and `Copy`; [`MatchSetup`] -> position through
//!   [`MatchPositionError`]; the position text in [`notation`].
//! - Moves: [`MatchPosition::legal_moves`], [`MatchPosition::play`] /
//!   [`MatchPosition::play_unchecked`] (the chain of zero-length moves included; after a
//!   push, the pusher is to move again), [`MatchPosition::check_move`] with
//!   [`IllegalMatchMove`], [`MatchPosition::winning_move`], [`MatchPosition::count_moves`].
//! - End of a round: [`MatchPosition::round_end`] ([`RoundEnd`]: winner, goal or deadlock,
//!   the tower that gains a rank), [`MatchPosition::score`], [`MatchPosition::match_winner`],
//!   [`MatchPosition::round_number`] (derived: every round adds exactly one rank).
//! - Between rounds: [`MatchPosition::refill`] with a [`Refill`] choice.
//! - Solving a round: [`MatchRound`], the solver's `Game`; a round without Sumos is a
//!   single round, [`MatchPosition::single_round`] gives the core's position for it.
//!   Solving the whole match: [`WholeMatch`] (rounds, refill choices, the match's
//!   winner), and [`ClinchRound`], whether a side can end the match in the round being
//!   played.
//! - Records: [`MatchRecord`]. Counting: [`perft`]. Solver keys: [`MatchPosition::round_key`],
//!   [`MatchPosition::match_key`] and their canonical forms.
//!
//! ```
//! use kamisado_match::{MatchPosition, MatchRecord, Target};
//!
//! let start = MatchPosition::start(Target::Standard);
//! assert_eq!(start.to_string(), "obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 3");
//! // g1-g7 names White's Brown, h8-h6 names Black's Blue on g7, which wins on h8 and
//! // becomes a Sumo; Black refills from the left and White, who lost, starts round 2.
//! let record = MatchRecord::parse(start, "g1-g7 h8-h6 g7-h8 left").unwrap();
//! assert_eq!(record.current().to_string(), "nobupyrg/8/8/8/8/8/8/NGRYPUOB+ w - 3");
//! assert_eq!(record.round_number(), 2);
//! ```

#[cfg(feature = "solver")]
mod clinch;
#[cfg(feature = "solver")]
mod game;
mod illegal;
mod key;
mod movegen;
pub mod notation;
pub mod perft;
mod play;
mod position;
mod push;
pub mod rank;
mod record;
mod refill;
mod setup;
mod single;
mod target;
#[cfg(feature = "solver")]
mod whole_match;

#[cfg(feature = "solver")]
pub use clinch::{ClinchPosition, ClinchRound};
#[cfg(feature = "solver")]
pub use game::MatchRound;
pub use illegal::IllegalMatchMove;
pub use kamisado_core::{
    Bitboard, Board, Colour, EndReason, GameEnd, Move, MoveList, PositionError, Side, Square,
    Symmetry, Tower, MAX_MOVES,
};
pub use key::KeyStage;
pub use notation::ParseMatchPositionError;
pub use position::{MatchPosition, RoundEnd};
pub use record::{record_error_text, MatchRecord, RecordError, RecordErrorReason, RoundRecord};
pub use refill::{ParseRefillError, Refill, RefillError};
pub use setup::{MatchPositionError, MatchSetup};
pub use target::{ParseTargetError, Target};
#[cfg(feature = "solver")]
pub use whole_match::{MatchMove, WholeMatch};

/// What is over when no move may follow: a single round is a game of its own, a match's
/// rounds are not.
fn over_word(single_round: bool) -> &'static str {
    if single_round {
        "game"
    } else {
        "match"
    }
}
