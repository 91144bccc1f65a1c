//! A perfect line from an analysed position, for a front end to show beside the moves,
//! for Kamisado (any round of a match) and for Kamon alike.
//!
//! The solver's own `principal_variation` assumes the score it is given is exact and
//! panics otherwise; a server must not trust that of every database record it reads. This
//! walk asks only questions that cannot fail: at each step a hint (a win on the spot, the
//! database's best move) or the moves the solver finds keeping the score, and it stops
//! (incomplete) where nothing keeps it, or where the time limit strikes.

use kamisado_match::{MatchPosition, MatchRound, Move};
use kamisado_solver::{Cancel, Game, Outcome, Score};

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
    let mut first = first;
    walk(
        &MatchRound,
        pos.resolve(),
        Score::of(outcome),
        |pos, score| {
            let m = match first.take().or_else(|| quick_best(oracle, pos)) {
                Some(m) => m,
                None => *oracle.best_moves_at(pos, score, cancel).ok()?.first()?,
            };
            pos.is_legal(m).then_some(m)
        },
    )
}

/// The one walk of every perfect line: from `pos`, whose exact score is `score`, play the
/// move `next` names for each position and the score it must keep, until the game (the
/// round) ends, or `next` names none: the line so far, and whether it reaches the end.
/// `next` must name a legal move of the position it is given.
pub(crate) fn walk<G: Game>(
    game: &G,
    pos: G::Position,
    score: Score,
    mut next: impl FnMut(&G::Position, Score) -> Option<G::Move>,
) -> (Vec<G::Move>, bool) {
    let (mut pos, mut score) = (pos, score);
    let mut line = Vec::new();
    while game.outcome(&pos).is_none() {
        let Some(m) = next(&pos, score) else {
            return (line, false);
        };
        let child = game.play(&pos, m);
        score = score.child_bound(game.player(&child) != game.player(&pos));
        line.push(m);
        pos = child;
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
