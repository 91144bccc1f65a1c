//! A perfect line from an analysed position, for a front end to show beside the moves.
//!
//! The solver's own `principal_variation` assumes the score it is given is exact and
//! panics otherwise; a server must not trust that of every database record it reads. This
//! walk asks only questions that cannot fail: at each step the database's best move or
//! the moves the solver finds keeping the score, and it stops (incomplete) where nothing
//! keeps it, or where the time limit strikes.

use kamisado_match::{MatchPosition, Move};
use kamisado_solver::{Cancel, Outcome, Score};

use crate::Oracle;

/// A perfect line from `pos` (resolved, with the exact `outcome` for its side to move),
/// starting with `first` if given (a best move already known), and whether it reaches
/// the end of the round.
pub fn perfect_line(
    oracle: &Oracle,
    pos: &MatchPosition,
    outcome: Outcome,
    first: Option<Move>,
    cancel: &Cancel,
) -> (Vec<Move>, bool) {
    let mut line = Vec::new();
    let mut pos = pos.resolve();
    let mut score = Score::of(outcome);
    let mut next_move = first;
    while !pos.is_round_over() {
        let m = match next_move.take().or_else(|| quick_best(oracle, &pos)) {
            Some(m) => m,
            None => match oracle.best_moves_at(&pos, score, cancel) {
                Ok(best) if !best.is_empty() => best[0],
                _ => return (line, false),
            },
        };
        if !pos.is_legal(m) {
            return (line, false);
        }
        let next = pos.play_unchecked(m);
        score = score.child_bound(next.turn() != pos.turn());
        line.push(m);
        pos = next;
    }
    (line, true)
}

/// A best move known without searching: a win on the spot, or the database's. A block
/// of the database that fails its checksum gives no hint here; the oracle's answer for
/// the same position reports the damage.
fn quick_best(oracle: &Oracle, pos: &MatchPosition) -> Option<Move> {
    pos.winning_move()
        .or_else(|| oracle.stored_best_move(pos).ok().flatten())
}
