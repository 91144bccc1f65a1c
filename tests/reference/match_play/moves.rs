//! What one tower may do in match play: ordinary moves limited by its rank, and the Sumo
//! push. Written straight from the tables and sentences of MATCH-RULES.md.

use crate::board::Square;

use super::position::MatchPosition;

/// A positive move: `from` to `to`. A push is written as the one-square straight move onto
/// the first pushed tower's square (the pusher's new square).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub(crate) struct MatchMove {
    pub(crate) from: Square,
    pub(crate) to: Square,
    /// A Sumo push rather than an ordinary move (then `to` is occupied before the move).
    pub(crate) push: bool,
}

impl MatchMove {
    /// The move text, e.g. `a1-a5` (or `c3-c4` for a push).
    pub(crate) fn text(self) -> String {
        format!("{}-{}", self.from.name(), self.to.name())
    }
}

/// The most squares an ordinary move of a tower of `rank` may cover (the table of
/// MATCH-RULES.md; rank 0 has no limit, and 7 is the longest line on the board).
pub(crate) fn max_squares(rank: u32) -> i32 {
    match rank {
        0 => 7,
        1 => 5,
        2 => 3,
        3 => 1,
        // A Quadruple Sumo only exists once a match is over, and then nothing moves.
        _ => 0,
    }
}

/// How many towers a tower of `rank` may push: its rank (0 for a plain tower).
pub(crate) fn push_capacity(rank: u32) -> usize {
    rank as usize
}

impl MatchPosition {
    /// The ordinary destinations of the tower on `from`: along each forward line (diagonal
    /// left, straight, diagonal right) every empty square up to the first occupied square,
    /// the board's edge or the tower's range, whichever comes first.
    pub(crate) fn ordinary_destinations(&self, from: Square) -> Vec<Square> {
        let mut result = Vec::new();
        let Some(tower) = self.tower_at(from) else {
            return result;
        };
        for file_step in [-1, 0, 1] {
            let mut current = from;
            for _ in 0..max_squares(tower.rank) {
                let Some(next) = current.offset(file_step, tower.side.forward_step()) else {
                    break;
                };
                if self.tower_at(next).is_some() {
                    break;
                }
                result.push(next);
                current = next;
            }
        }
        result
    }

    /// The run the tower on `from` would push, nearest tower first, if it may push:
    /// every occupied square straight ahead up to the first empty square must hold an
    /// opponent tower of lower rank, there must be 1..=capacity of them, and that empty
    /// square must exist (a run reaching the board's edge cannot move back).
    pub(crate) fn push_run(&self, from: Square) -> Option<Vec<Square>> {
        let pusher = self.tower_at(from)?;
        let mut run = Vec::new();
        let mut current = from;
        loop {
            // `?`: the run reaches the edge of the board, so there is no square behind it.
            let next = current.offset(0, pusher.side.forward_step())?;
            match self.tower_at(next) {
                None => break,
                Some(_) => {
                    run.push(next);
                    current = next;
                }
            }
        }
        if run.is_empty() || run.len() > push_capacity(pusher.rank) {
            return None;
        }
        for &square in &run {
            let pushed = self.tower_at(square)?;
            if pushed.side == pusher.side || pushed.rank >= pusher.rank {
                return None;
            }
        }
        Some(run)
    }

    /// Every positive move of the tower on `from`: its ordinary moves and its push.
    pub(crate) fn tower_moves(&self, from: Square) -> Vec<MatchMove> {
        let mut moves: Vec<MatchMove> = self
            .ordinary_destinations(from)
            .into_iter()
            .map(|to| MatchMove {
                from,
                to,
                push: false,
            })
            .collect();
        if let Some(run) = self.push_run(from) {
            moves.push(MatchMove {
                from,
                to: run[0],
                push: true,
            });
        }
        moves
    }

    /// The positive moves of the side to move in exactly this state, without following any
    /// zero-length chain: every move of every own tower for the free move, otherwise those
    /// of the active tower (none if it is blocked or missing). Sorted by text.
    pub(crate) fn moves_here(&self) -> Vec<MatchMove> {
        let sources: Vec<Square> = match self.active {
            None => Square::all()
                .into_iter()
                .filter(|&sq| matches!(self.tower_at(sq), Some(t) if t.side == self.side))
                .collect(),
            Some(colour) => self.find_tower(self.side, colour).into_iter().collect(),
        };
        let mut moves: Vec<MatchMove> = sources
            .into_iter()
            .flat_map(|from| self.tower_moves(from))
            .collect();
        moves.sort_by_key(|m| m.text());
        moves
    }
}
