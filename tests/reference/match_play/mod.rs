//! Match play (MATCH-RULES.md on top of RULES.md): ranks and Sumo pushes, round ends with
//! points, refill between rounds, perft, match records, push-heavy random positions, and
//! whole matches solved by cut-off minimax.
//!
//! Written from the rules pages alone, independently of the fast match crate, and as
//! plainly as the single-round reference: an 8 x 8 array of towers with ranks, moves as
//! strings, everything recomputed from (board, side, active colour, target). It reuses only
//! the single-round reference's board geometry (squares, colours, sides).
//!
//! Conventions this module fixes where the pages leave room:
//! - the position after a round-ending move shows the board as the move left it; the
//!   winning tower gains its rank at the refill, and [`RoundEnd`] carries the points and
//!   the scores after the round;
//! - a position whose score already reaches the target is not a position (the match is
//!   over); so a Quadruple Sumo never appears in a text;
//! - the target field is printed only when it is not 1, so single-round texts are unchanged;
//! - after a push whose extra move deadlocks, the printed position is the one after the
//!   pusher's zero-length move (the opponent to move), so that reading it as RULES.md says
//!   names the right loser; the gaining tower of that round is known only from the move
//!   ([`MatchPosition::play`]), not from the text.

mod moves;
mod perft;
mod position;
mod random;
mod record;
mod refill;
mod round_end;
mod search;
mod text_api;
mod turn;
mod whole;

#[cfg(test)]
mod rule_cases;
#[cfg(test)]
mod self_checks;

pub use position::{MatchPosition, MatchTower, MATCH_TARGETS};
pub use random::{has_legal_push, highest_rank_on_board, random_match, random_push_position};
pub use record::{play_record, RecordOutcome};
pub use refill::RefillFrom;
pub use round_end::RoundEnd;
pub use text_api::{
    match_clinch_solve, match_divide, match_legal_moves, match_perft, match_play,
    match_play_record, match_play_with_end, match_refill, match_round_end, match_round_solve,
    match_score, match_start, match_whole_solve, random_match_position, random_match_push_position,
};
