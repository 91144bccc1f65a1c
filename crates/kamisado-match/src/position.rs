//! A validated match position: the board, every tower's rank, and the state of the round.
//!
//! 32 bytes and `Copy`, like the single-round position: the core's [`Board`] (a square per
//! tower and the occupied squares, 24 bytes) and one packed word holding the sixteen ranks
//! (two bits each) and the few small fields. Ranks change only when a round ends, so
//! packing them costs nothing on the move path, and a tower's rank is one shift away from
//! its index.
//!
//! The ranks stored are those on the board while the round is played, at most 3; a
//! finished round adds the winner's new rank on top ([`MatchPosition::rank`] and the
//! scores include it, [`RoundEnd::promoted`] names the tower). Stored after the gain,
//! they would change the position the round ended in: a tower promoted by a deadlock may
//! then be able to push, and the frozen board that made the deadlock would no longer be
//! frozen, so a text could no longer say whether the round is over. The position text
//! therefore shows the board as the last move left it, as the single round does.

use std::fmt;

use kamisado_core::{attacks, Board, Colour, EndReason, GameEnd, PositionError, Side, Tower};

use crate::{rank, MatchPositionError, MatchSetup, Target};

// Layout of `MatchPosition::packed`.
/// Two bits per tower, tower index `side * 8 + colour`: bits 0..32.
const RANK_BITS: u32 = 2;
const RANK_MASK: u64 = 3;
pub(crate) const RANKS_MASK: u64 = (1 << 32) - 1;
const TURN_SHIFT: u32 = 32;
/// Four bits: a colour index, or 8 for a free move.
const ACTIVE_SHIFT: u32 = 33;
const ACTIVE_FREE: u64 = 8;
/// Two bits: [`Target::code`].
const TARGET_SHIFT: u32 = 37;
/// Two bits: 0 while the round is played, 1 won on the goal row, 2 won by deadlock.
const END_SHIFT: u32 = 39;
const WINNER_SHIFT: u32 = 41;
/// Three bits: the colour of the winner's tower that gained a rank.
const PROMOTED_SHIFT: u32 = 42;

/// How a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoundEnd {
    pub winner: Side,
    pub reason: EndReason,
    /// The winner's tower that gained a rank: the tower that reached the goal row; after a
    /// deadlock, the one of the colour of the square the loser's last move ended on (after
    /// a push, the pusher's new square).
    pub promoted: Tower,
}

impl RoundEnd {
    /// The end as the single round knows it: who won and how.
    pub fn game_end(self) -> GameEnd {
        GameEnd {
            winner: self.winner,
            reason: self.reason,
        }
    }
}

/// A legal position of a match: where the towers stand, their ranks, whose turn it is,
/// which tower must move, the target, and how the round ended if it has.
///
/// Built by [`MatchPosition::from_setup`] (or the position text), by
/// [`MatchPosition::start`] or by playing moves and refilling; all keep these invariants:
/// - if the round is over, [`MatchPosition::round_end`] says so and no move is legal;
/// - otherwise the side to move can move its active tower (or any tower on a free move),
///   or its active tower is blocked and its zero-length chain does not deadlock (a position
///   in the middle of a chain, given as text or reached by a single zero-length move);
/// - every rank on the board is at most [`Target::max_rank`] and both players' points on
///   the board are below the target; only a finished round's promoted tower stands one
///   rank higher.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct MatchPosition {
    pub(crate) board: Board,
    pub(crate) packed: u64,
}

#[inline]
pub(crate) const fn tower_index(tower: Tower) -> u32 {
    (tower.side as u32) * 8 + tower.colour as u32
}

impl MatchPosition {
    /// The start of a match: every tower plain, on the square of its own colour in its home
    /// row, Black to move with a free choice of tower.
    pub fn start(target: Target) -> MatchPosition {
        MatchPosition::new(Board::start(), 0, Side::Black, None, target)
    }

    /// A position of a round being played, with nothing checked.
    #[inline]
    pub(crate) fn new(
        board: Board,
        ranks: u64,
        turn: Side,
        active: Option<Colour>,
        target: Target,
    ) -> MatchPosition {
        let mut pos = MatchPosition {
            board,
            packed: ranks & RANKS_MASK | (target.code() as u64) << TARGET_SHIFT,
        };
        pos.set_turn(turn);
        pos.set_active(active);
        pos
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move (in a finished round: the side whose turn it would have been).
    #[inline]
    pub fn turn(&self) -> Side {
        if self.packed >> TURN_SHIFT & 1 == 0 {
            Side::Black
        } else {
            Side::White
        }
    }

    /// The colour of the tower the side to move must move; `None` on the free first move of
    /// a round.
    #[inline]
    pub fn active(&self) -> Option<Colour> {
        match self.packed >> ACTIVE_SHIFT & 15 {
            ACTIVE_FREE => None,
            c => Some(Colour::from_index(c as usize)),
        }
    }

    /// The tower the side to move must move, if the move is not free.
    #[inline]
    pub fn active_tower(&self) -> Option<Tower> {
        self.active().map(|c| Tower::new(self.turn(), c))
    }

    #[inline]
    pub fn target(&self) -> Target {
        Target::from_code((self.packed >> TARGET_SHIFT) as u8)
    }

    /// A tower's rank: 0 plain, 1 Sumo, 2 Double, 3 Triple, 4 Quadruple Sumo; once a round
    /// has ended, with the winner's gain (a Quadruple Sumo only ends a Marathon).
    #[inline]
    pub fn rank(&self, tower: Tower) -> u8 {
        let gain = self.round_end().is_some_and(|end| end.promoted == tower);
        self.board_rank(tower) + u8::from(gain)
    }

    /// The rank a tower has while the round is played, without a finished round's gain:
    /// what move generation and the position text use.
    #[inline]
    pub(crate) fn board_rank(&self, tower: Tower) -> u8 {
        (self.packed >> (RANK_BITS * tower_index(tower)) & RANK_MASK) as u8
    }

    /// The ranks of one side's towers, indexed by colour (with a finished round's gain).
    pub fn ranks(&self, side: Side) -> [u8; 8] {
        Colour::ALL.map(|c| self.rank(Tower::new(side, c)))
    }

    /// The sixteen board ranks, two bits each, tower index `side * 8 + colour`.
    #[inline]
    pub(crate) fn rank_bits(&self) -> u64 {
        self.packed & RANKS_MASK
    }

    /// A player's points: `2^r - 1` summed over their towers.
    pub fn score(&self, side: Side) -> u32 {
        self.ranks(side).into_iter().map(rank::points).sum()
    }

    /// The round being played, or just finished, counting from 1: every finished round
    /// gave exactly one tower exactly one rank, so the ranks count the rounds.
    pub fn round_number(&self) -> u32 {
        let ranks: u32 = Side::ALL
            .into_iter()
            .flat_map(|side| self.ranks(side))
            .map(u32::from)
            .sum();
        if self.is_round_over() {
            ranks
        } else {
            ranks + 1
        }
    }

    /// How the round ended, if it has.
    #[inline]
    pub fn round_end(&self) -> Option<RoundEnd> {
        let reason = match self.packed >> END_SHIFT & 3 {
            0 => return None,
            1 => EndReason::Goal,
            _ => EndReason::Deadlock,
        };
        let winner = if self.packed >> WINNER_SHIFT & 1 == 0 {
            Side::Black
        } else {
            Side::White
        };
        let promoted = Colour::from_index((self.packed >> PROMOTED_SHIFT & 7) as usize);
        Some(RoundEnd {
            winner,
            reason,
            promoted: Tower::new(winner, promoted),
        })
    }

    #[inline]
    pub fn is_round_over(&self) -> bool {
        self.packed >> END_SHIFT & 3 != 0
    }

    /// The winner of the match, once a round has ended with the winner's score at the target.
    pub fn match_winner(&self) -> Option<Side> {
        self.round_end()
            .map(|end| end.winner)
            .filter(|&w| self.score(w) >= self.target().points())
    }

    #[inline]
    pub fn is_match_over(&self) -> bool {
        self.match_winner().is_some()
    }

    #[inline]
    pub(crate) fn set_turn(&mut self, turn: Side) {
        self.packed = self.packed & !(1 << TURN_SHIFT) | (turn.index() as u64) << TURN_SHIFT;
    }

    #[inline]
    pub(crate) fn set_active(&mut self, active: Option<Colour>) {
        let code = active.map_or(ACTIVE_FREE, |c| c.index() as u64);
        self.packed = self.packed & !(15 << ACTIVE_SHIFT) | code << ACTIVE_SHIFT;
    }

    /// Ends the round: `winner` won by `reason`, and its `promoted` tower gains a rank.
    #[inline]
    pub(crate) fn end_round(&mut self, winner: Side, reason: EndReason, promoted: Colour) {
        let reason_code = match reason {
            EndReason::Goal => 1,
            EndReason::Deadlock => 2,
        };
        self.packed = self.packed & !(63 << END_SHIFT)
            | reason_code << END_SHIFT
            | (winner.index() as u64) << WINNER_SHIFT
            | (promoted.index() as u64) << PROMOTED_SHIFT;
    }

    /// The setup this position was (or could have been) built from: the board as the last
    /// move left it, ranks without a finished round's gain.
    pub fn to_setup(&self) -> MatchSetup {
        let mut round = kamisado_core::Setup::empty(self.turn(), self.active());
        let mut ranks = [[0; 8]; 2];
        for tower in Tower::all() {
            round.place(tower, self.board.square_of(tower));
            ranks[tower.side.index()][tower.colour.index()] = self.board_rank(tower);
        }
        MatchSetup {
            round,
            ranks,
            target: self.target(),
        }
    }

    /// Validates a setup. Accepts any position that play can reach, from any home-row
    /// arrangement, including finished rounds, whose winner's gain the rules add: the goal
    /// tower gains a rank; after a deadlock the winner's tower of the active colour does.
    ///
    /// A position whose side to move has a blocked active tower is read as the single round
    /// reads it: just after the opponent's ordinary move; if its zero-length chain
    /// deadlocks, the round is over and lost by the side not to move, and the tower that
    /// move named gains the rank.
    pub fn from_setup(setup: MatchSetup) -> Result<MatchPosition, MatchPositionError> {
        let board = setup.round.board()?;
        let target = setup.target;
        let mut ranks = 0u64;
        for tower in Tower::all() {
            let r = setup.rank(tower);
            if r > target.max_rank() {
                return Err(MatchPositionError::RankBeyondTarget {
                    tower,
                    rank: r,
                    target,
                });
            }
            ranks |= (r as u64) << (RANK_BITS * tower_index(tower));
        }
        let (turn, active) = (setup.round.turn, setup.round.active);
        let mut pos = MatchPosition::new(board, ranks, turn, active, target);
        for side in Side::ALL {
            let score = pos.score(side);
            if score >= target.points() {
                return Err(MatchPositionError::ScoreReached {
                    side,
                    score,
                    target,
                });
            }
        }

        if let Some(tower) = board.goal_tower(turn, active)? {
            pos.end_round(tower.side, EndReason::Goal, tower.colour);
            return Ok(pos);
        }
        match active {
            None => {
                let can_move = Colour::ALL
                    .into_iter()
                    .any(|c| pos.can_move(Tower::new(turn, c)));
                if !can_move {
                    return Err(PositionError::NoTowerCanMove(turn).into());
                }
            }
            Some(colour) => {
                // The last move, positive or zero-length, ended with an opponent's tower on
                // a square of the active colour (after a push, the farthest pushed one).
                let opponent = !turn;
                if !board
                    .squares(opponent)
                    .iter()
                    .any(|sq| sq.colour() == colour)
                {
                    return Err(PositionError::ActiveNotNamed { colour, opponent }.into());
                }
                if pos.follow_chain(turn, colour).is_none() {
                    pos.end_round(turn, EndReason::Deadlock, colour);
                }
            }
        }
        Ok(pos)
    }
}

impl MatchPosition {
    /// Whether `tower` (of either side) has any move of positive length: an ordinary move or
    /// a push. A tower that has none makes the zero-length move when it is active.
    #[inline]
    pub fn can_move(&self, tower: Tower) -> bool {
        let from = self.board.square_of(tower);
        if !attacks::is_blocked(tower.side, from, self.board.occupied()) {
            return true;
        }
        let r = self.board_rank(tower);
        r > 0 && self.push_landing(tower.side, from, r).is_some()
    }

    /// Follows zero-length moves from "`turn` must move its `active` tower" until a tower
    /// can move (its side and colour) or a state repeats (`None`: deadlock). The board never
    /// changes on the way, so at most 16 states.
    #[inline]
    pub(crate) fn follow_chain(
        &self,
        mut turn: Side,
        mut active: Colour,
    ) -> Option<(Side, Colour)> {
        let mut seen = 0u16;
        loop {
            let tower = Tower::new(turn, active);
            if self.can_move(tower) {
                return Some((turn, active));
            }
            let state = 1u16 << tower_index(tower);
            if seen & state != 0 {
                return None;
            }
            seen |= state;
            // The blocked tower stays put; the colour of *its square* names the next tower.
            active = self.board.square_of(tower).colour();
            turn = !turn;
        }
    }
}

impl fmt::Debug for MatchPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MatchPosition(\"{self}\")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_as_compact_as_the_single_rounds() {
        assert_eq!(std::mem::size_of::<MatchPosition>(), 32);
        assert_eq!(
            std::mem::size_of::<MatchPosition>(),
            std::mem::size_of::<kamisado_core::Position>()
        );
    }

    #[test]
    fn packed_fields_do_not_overlap() {
        let mut pos = MatchPosition::new(
            Board::start(),
            RANKS_MASK,
            Side::White,
            Some(Colour::Brown),
            Target::Marathon,
        );
        pos.end_round(Side::White, EndReason::Deadlock, Colour::Brown);
        assert_eq!(pos.board_rank(Tower::new(Side::White, Colour::Brown)), 3);
        assert_eq!(pos.rank(Tower::new(Side::White, Colour::Brown)), 4);
        assert_eq!(
            (pos.turn(), pos.active()),
            (Side::White, Some(Colour::Brown))
        );
        assert_eq!(pos.target(), Target::Marathon);
        let end = pos.round_end().unwrap();
        assert_eq!((end.winner, end.reason), (Side::White, EndReason::Deadlock));
        pos.set_turn(Side::Black);
        pos.set_active(None);
        assert_eq!(pos.rank_bits(), RANKS_MASK);
        assert_eq!(pos.round_end(), Some(end));
    }
}
