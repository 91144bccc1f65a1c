//! What the rules decide without an entry: finished games, and every statement about
//! the next few moves, by playing every line of that length.

use kamisado_core::Position;

use crate::Kind;

/// Statements within this many moves are decided from the rules by playing every line of
/// up to this many moves; certificates hold no entries for them. Part of the format: a
/// checker must decide them the same way.
pub const DECIDED_BY_RULES: i64 = 5;

/// Whether `kind` holds within `bound` for the side to move of `pos`, if the rules decide
/// it without an entry: a finished game; nothing can happen within 0 moves (or fewer);
/// a bound up to [`DECIDED_BY_RULES`], by playing every line; and beyond it, a side
/// that wins within [`DECIDED_BY_RULES`] moves wins within, and survives, any larger
/// bound, a side that loses within it loses within, and cannot win, any larger bound.
/// `None`: an entry must show it.
pub fn by_rules(pos: &Position, kind: Kind, bound: i64) -> Option<bool> {
    let upper = kind.is_upper_bound();
    if !upper && bound < 0 {
        return Some(true);
    }
    if let Some(end) = pos.end() {
        let mover_won = end.winner == pos.turn();
        let holds = match kind {
            Kind::Wins | Kind::Survives => mover_won,
            Kind::Loses | Kind::CannotWin => !mover_won,
        };
        return Some(holds && bound >= 0);
    }
    if bound <= 0 {
        // A game in play has no winner before another move is made.
        return Some(!upper);
    }
    if bound <= DECIDED_BY_RULES {
        let moves = pos.legal_moves();
        let shows = |m: &kamisado_core::Move| {
            let child = pos.play_unchecked(*m);
            let passed = child.turn() != pos.turn();
            by_rules(&child, kind.through_move(passed), bound - 1) == Some(true)
        };
        return Some(if kind.names_a_move() {
            moves.iter().any(shows)
        } else {
            moves.iter().all(shows)
        });
    }
    // A game the rules show to end within DECIDED_BY_RULES moves ends within any larger
    // bound; and as a game has one winner, its winner survives, and its loser cannot
    // win, within any bound.
    let decided = if kind.names_a_move() {
        Kind::Wins
    } else {
        Kind::Loses
    };
    if by_rules(pos, decided, DECIDED_BY_RULES) == Some(true) {
        return Some(true);
    }
    None
}
