//! Between rounds: the winning tower gains its rank, both players refill their home rows
//! from the left or from the right (each as seen from their own seat), and the loser starts
//! the next round with a free move.

use crate::board::Side;

use super::position::MatchPosition;
use super::round_end::RoundEnd;

/// The winner's refill choice, written `left` or `right` in match records.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum RefillFrom {
    /// From the left, as each player sees it from their seat.
    Left,
    /// From the right, as each player sees it from their seat.
    Right,
}

impl RefillFrom {
    /// Reads `left` or `right`.
    pub fn parse(word: &str) -> Result<RefillFrom, String> {
        match word.trim() {
            "left" => Ok(RefillFrom::Left),
            "right" => Ok(RefillFrom::Right),
            other => Err(format!(
                "refill direction must be left or right, got {other:?}"
            )),
        }
    }

    /// The record word: `left` or `right`.
    pub fn word(self) -> &'static str {
        match self {
            RefillFrom::Left => "left",
            RefillFrom::Right => "right",
        }
    }
}

/// The files in the order `side` goes through them when refilling `from`: Black sits at
/// rank 1 facing rank 8, so its left is file a; White sits at rank 8 facing rank 1, so its
/// left is file h. The same order scans each row and fills the home row.
fn files_in_order(side: Side, from: RefillFrom) -> Vec<usize> {
    let left_to_right: Vec<usize> = match side {
        Side::Black => (0..8).collect(),
        Side::White => (0..8).rev().collect(),
    };
    match from {
        RefillFrom::Left => left_to_right,
        RefillFrom::Right => left_to_right.into_iter().rev().collect(),
    }
}

/// `side`'s rows from its home row outwards (Black ranks 1..8, White ranks 8..1), as
/// zero-based rank indices.
fn rows_from_home(side: Side) -> Vec<usize> {
    match side {
        Side::Black => (0..8).collect(),
        Side::White => (0..8).rev().collect(),
    }
}

impl MatchPosition {
    /// The first position of the next round after `end` (the end of the round this position
    /// finished): the gaining tower gains one rank, both players refill `from` the chosen
    /// side, and the loser is to move with a free move. Err if the match is over.
    pub fn refill(&self, end: &RoundEnd, from: RefillFrom) -> Result<MatchPosition, String> {
        if end.match_over {
            return Err(format!(
                "the match is over ({}-{}): there is no refill",
                end.black_score, end.white_score
            ));
        }
        let mut board = self.board;
        if let Some(square) = end.gaining_square {
            if let Some(tower) = board[square.rank][square.file].as_mut() {
                tower.rank += 1;
            }
        }
        let mut refilled = [[None; 8]; 8];
        for side in [Side::Black, Side::White] {
            let files = files_in_order(side, from);
            let mut towers = Vec::new();
            for rank in rows_from_home(side) {
                for &file in &files {
                    if let Some(tower) = board[rank][file] {
                        if tower.side == side {
                            towers.push(tower);
                        }
                    }
                }
            }
            let home = rows_from_home(side)[0];
            for (tower, &file) in towers.into_iter().zip(&files) {
                refilled[home][file] = Some(tower);
            }
        }
        Ok(MatchPosition {
            board: refilled,
            side: end.winner.opponent(),
            active: None,
            target: self.target,
        })
    }

    /// [`MatchPosition::refill`] with the round's end read from this position
    /// ([`MatchPosition::round_end`]). Err if the round is not over or the match is.
    pub fn refill_after_round(&self, from: RefillFrom) -> Result<MatchPosition, String> {
        match self.round_end() {
            Some(end) => self.refill(&end, from),
            None => Err(format!(
                "the round is not over, so there is no refill: {}",
                self.to_text()
            )),
        }
    }
}
