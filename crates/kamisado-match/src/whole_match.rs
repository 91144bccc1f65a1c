//! The whole match as one game for the solver: rounds, the winner's refill choice between
//! them, and the match's winner at the end.
//!
//! A round-ending move that does not end the match leads to the finished round itself as
//! a decision node: the round's winner is to move, and its two moves are `left` and
//! `right`; each leads to the next round's start, the loser to move. Values are for the
//! whole match: a position is won when its side to move wins the match, whatever happens
//! to the round. The finished round is a position of its own (its key names the tower
//! that gained a rank, which no round in play has), so no extra state is needed.
//!
//! Remoteness counts **moves and refill choices**: the solver counts every move of a game
//! as one, and a refill choice is a move of this game. The alternative, refill choices
//! that cost nothing, would need every conversion of scores across a move to learn a
//! second kind of move, for a difference of at most one per round; a line of a Standard
//! match has at most four refill choices, and reports say "moves and refill choices".
//!
//! The game is finite and acyclic: within a round the towers' progress grows with every
//! move, and every round adds a rank.

use std::fmt;

use kamisado_solver::{Game, Player, Value, WinInOne};

use crate::{MatchPosition, Move, Refill, Side};

/// A move of the whole match: a move of positive length in a round, or the round winner's
/// refill choice between rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatchMove {
    Play(Move),
    Refill(Refill),
}

impl fmt::Display for MatchMove {
    /// `a1-a5`, or `left` / `right`, as a match record writes them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchMove::Play(m) => m.fmt(f),
            MatchMove::Refill(r) => r.fmt(f),
        }
    }
}

/// A whole match, round after round, to its target. Values are who wins the match.
///
/// The side to move is the position's side to move while a round is played, the round's
/// winner at a refill choice, and the side that would have moved next once the match is
/// over. A single round (target 1) is a match that ends with its first round.
#[derive(Clone, Copy, Debug, Default)]
pub struct WholeMatch;

impl WholeMatch {
    /// The position the search starts from: `pos` with its pending zero-length moves
    /// played.
    pub fn root(pos: &MatchPosition) -> MatchPosition {
        pos.resolve()
    }

    /// The side to move in the match: the round's winner at a refill choice.
    #[inline]
    pub fn side_to_move(pos: &MatchPosition) -> Side {
        match pos.round_end() {
            Some(end) if !pos.is_match_over() => end.winner,
            _ => pos.turn(),
        }
    }

    /// Whether `pos` is the round winner's refill choice.
    #[inline]
    pub fn is_refill_choice(pos: &MatchPosition) -> bool {
        pos.is_round_over() && !pos.is_match_over()
    }

    /// The moves of a position of the match, in the order the solver sees them.
    pub fn moves_of(pos: &MatchPosition) -> Vec<MatchMove> {
        let mut out = Vec::new();
        WholeMatch.moves(pos, &mut out);
        out
    }
}

impl Game for WholeMatch {
    type Position = MatchPosition;
    type Move = MatchMove;
    /// The canonical match key (squares, ranks, side, active colour, a finished round's
    /// promoted tower, target): symmetric images share one entry; a mirror swaps `left`
    /// and `right` along with the board, which keeps the value.
    type Key = [u64; 3];

    #[inline]
    fn outcome(&self, pos: &MatchPosition) -> Option<Value> {
        pos.match_winner().map(|winner| {
            if winner == pos.turn() {
                Value::Win
            } else {
                Value::Loss
            }
        })
    }

    #[inline]
    fn player(&self, pos: &MatchPosition) -> Player {
        match WholeMatch::side_to_move(pos) {
            Side::Black => Player::First,
            Side::White => Player::Second,
        }
    }

    #[inline]
    fn moves(&self, pos: &MatchPosition, out: &mut Vec<MatchMove>) {
        out.clear();
        if pos.is_round_over() {
            out.extend(pos.refill_choices().iter().map(|&r| MatchMove::Refill(r)));
        } else {
            out.extend(pos.legal_moves().into_iter().map(MatchMove::Play));
        }
    }

    /// # Panics
    ///
    /// On a refill choice where none is due (see [`MatchPosition::refill`]).
    #[inline]
    fn play(&self, pos: &MatchPosition, m: MatchMove) -> MatchPosition {
        match m {
            MatchMove::Play(m) => pos.play_unchecked(m),
            MatchMove::Refill(r) => pos
                .refill(r)
                .expect("a refill choice is played only after a round that did not end the match"),
        }
    }

    #[inline]
    fn key(&self, pos: &MatchPosition) -> [u64; 3] {
        pos.canonical_match_key().0
    }

    /// Exact: the match is won at once only by a move to the goal row whose tower's new
    /// rank brings its side to the target (a push lands short of the goal row, a move
    /// whose zero-length chain deadlocks loses for its maker, a refill choice ends
    /// nothing). Every goal move of the active tower scores the same, so one is enough to
    /// look at; on a free move each tower is tried.
    fn win_in_one(&self, pos: &MatchPosition) -> WinInOne<MatchMove> {
        let Some(m) = pos.winning_move() else {
            return WinInOne::No;
        };
        if pos.play_unchecked(m).is_match_over() {
            return WinInOne::Wins(MatchMove::Play(m));
        }
        if pos.active().is_some() {
            return WinInOne::No;
        }
        pos.legal_moves()
            .into_iter()
            .find(|&m| pos.play_unchecked(m).is_match_over())
            .map_or(WinInOne::No, |m| WinInOne::Wins(MatchMove::Play(m)))
    }

    #[inline]
    fn estimate(&self, pos: &MatchPosition) -> (u32, u32) {
        if pos.is_round_over() {
            (1, 2)
        } else {
            (1, pos.count_moves().max(1) as u32)
        }
    }
}
