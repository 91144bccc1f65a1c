//! A turn in match play: zero-length chains and deadlock (as in RULES.md, with "can move"
//! now including pushes), playing an ordinary move or a push with its skipped turn, and
//! reading a finished round from a position.
//!
//! Playing a move returns the round's end together with the new position because the end
//! is a fact about the move: after a push whose extra move deadlocks, the text of the
//! position cannot say which tower gains (see [`MatchPosition::round_end`]).

use crate::board::{Colour, Side, Square};
use crate::position::EndReason;

use super::moves::MatchMove;
use super::position::MatchPosition;
use super::round_end::RoundEnd;

/// What following the zero-length chain from a state gives.
pub(crate) enum Chain {
    /// The chain ends with this side to move and this active colour (`None`: the free
    /// move), and it can make a positive move. The board is unchanged.
    Movable(Side, Option<Colour>),
    /// A (side to move, active colour) pair repeated: nothing can ever move again.
    Deadlock,
    /// The active colour names a tower that is not on the board (hand-made positions only).
    MissingTower,
}

impl MatchPosition {
    /// The square of a tower standing on its goal row (the opponent's home row), if any.
    pub(crate) fn goal_square(&self) -> Option<Square> {
        Square::all().into_iter().find(|&square| {
            matches!(self.tower_at(square), Some(t) if square.rank == t.side.goal_rank_index())
        })
    }

    /// Follows the zero-length chain: while the active tower of the side to move has no
    /// positive move (no ordinary move and no push), the turn passes and the colour of the
    /// square it stands on becomes the opponent's active colour. A (side, colour) pair seen
    /// twice is a deadlock; the starting pair counts as seen.
    pub(crate) fn chain(&self) -> Chain {
        let Some(mut colour) = self.active else {
            return Chain::Movable(self.side, None);
        };
        let mut side = self.side;
        let mut seen: Vec<(Side, Colour)> = Vec::new();
        loop {
            let Some(square) = self.find_tower(side, colour) else {
                return Chain::MissingTower;
            };
            if !self.tower_moves(square).is_empty() {
                return Chain::Movable(side, Some(colour));
            }
            if seen.contains(&(side, colour)) {
                return Chain::Deadlock;
            }
            seen.push((side, colour));
            side = side.opponent();
            colour = square.colour();
        }
    }

    /// The round's end as the position text tells it, `None` while the round goes on.
    ///
    /// A tower on its goal row won the round and gains the rank. Otherwise, if the chain
    /// from this state deadlocks, the text is read as in RULES.md, just after the
    /// opponent's ordinary move: the side not to move loses, and the winner's tower of the
    /// active colour (the colour of the square that move ended on) gains the rank.
    ///
    /// That reading is exact for every position this reference prints except one: after a
    /// push whose extra move is blocked and deadlocks, the gaining tower is named by the
    /// pusher's new square, which no text records. [`MatchPosition::play`] returns the
    /// exact end for that move.
    pub fn round_end(&self) -> Option<RoundEnd> {
        if let Some(square) = self.goal_square() {
            let tower = self.tower_at(square)?;
            return Some(RoundEnd::new(
                self,
                tower.side,
                EndReason::Goal,
                tower.colour,
            ));
        }
        if let Chain::Deadlock = self.chain() {
            let colour = self.active?;
            return Some(RoundEnd::new(self, self.side, EndReason::Deadlock, colour));
        }
        None
    }

    /// The state after any pending zero-length chain, whose side to move can make a
    /// positive move. `None` if the round is over or the chain names a missing tower.
    pub(crate) fn resolved(&self) -> Option<MatchPosition> {
        if self.round_end().is_some() {
            return None;
        }
        match self.chain() {
            Chain::Movable(side, active) => Some(self.with_turn(side, active)),
            Chain::Deadlock | Chain::MissingTower => None,
        }
    }

    /// The same board with `side` to move and `active` as the active colour.
    fn with_turn(&self, side: Side, active: Option<Colour>) -> MatchPosition {
        MatchPosition {
            side,
            active,
            ..self.clone()
        }
    }

    /// The zero-length move of the side to move's (blocked) active tower: the opponent is
    /// to move with the colour of that tower's square. Unchanged if there is no active tower.
    fn after_zero_length_move(&self) -> MatchPosition {
        let mut next = self.clone();
        if let Some(square) = self
            .active
            .and_then(|colour| self.find_tower(self.side, colour))
        {
            next.side = self.side.opponent();
            next.active = Some(square.colour());
        }
        next
    }

    /// Plays `mv`, a move from `moves_here()` of this resolved state, and returns the new
    /// position and, if the move ended the round, how.
    ///
    /// Ordinary move: the opponent is to move with the landing square's colour. Push: the
    /// run moves one square back, the pusher one forward, the opponent's turn is skipped and
    /// the pusher is to move with the colour of the farthest pushed tower's new square.
    /// Then: a goal leaves the position as the move left it; a deadlock too, except after a
    /// push, where the pusher's zero-length move is played so that the text names the right
    /// loser (the side not to move); otherwise the zero-length chain is applied.
    pub(crate) fn play_resolved(&self, mv: MatchMove) -> (MatchPosition, Option<RoundEnd>) {
        let Some(mover) = self.tower_at(mv.from) else {
            return (self.clone(), None); // not a move of this state
        };
        let mut next = self.clone();
        if mv.push {
            let Some(run) = self.push_run(mv.from) else {
                return (self.clone(), None); // not a move of this state
            };
            let step = mover.side.forward_step();
            // Farthest first, so every tower moves into a square already emptied.
            for &square in run.iter().rev() {
                if let Some(behind) = square.offset(0, step) {
                    next.board[behind.rank][behind.file] =
                        next.board[square.rank][square.file].take();
                }
            }
            let farthest_landing = run.last().and_then(|last| last.offset(0, step));
            next.board[mv.to.rank][mv.to.file] = next.board[mv.from.rank][mv.from.file].take();
            next.side = self.side; // the opponent's turn is skipped
            next.active = farthest_landing.map(Square::colour);
        } else {
            next.board[mv.to.rank][mv.to.file] = next.board[mv.from.rank][mv.from.file].take();
            next.side = self.side.opponent();
            next.active = Some(mv.to.colour());
        }

        if next.goal_square().is_some() {
            let end = RoundEnd::new(&next, self.side, EndReason::Goal, mover.colour);
            return (next, Some(end));
        }
        match next.chain() {
            Chain::Movable(side, active) => (next.with_turn(side, active), None),
            Chain::MissingTower => (next, None),
            Chain::Deadlock => {
                // The mover made the last positive move and loses; the winner's tower of
                // the colour of the square that move ended on (for a push the pusher's new
                // square, which is `mv.to` too) gains the rank.
                let end = RoundEnd::new(
                    &next,
                    self.side.opponent(),
                    EndReason::Deadlock,
                    mv.to.colour(),
                );
                let shown = if mv.push {
                    next.after_zero_length_move()
                } else {
                    next
                };
                (shown, Some(end))
            }
        }
    }

    /// The positive moves of whoever moves after any pending chain, each with the position
    /// it leads to and the round's end if it ends the round. Sorted by move text.
    pub(crate) fn children(&self) -> Vec<(MatchMove, MatchPosition, Option<RoundEnd>)> {
        let Some(ready) = self.resolved() else {
            return Vec::new();
        };
        ready
            .moves_here()
            .into_iter()
            .map(|mv| {
                let (next, end) = ready.play_resolved(mv);
                (mv, next, end)
            })
            .collect()
    }

    /// The legal moves (`a1-a5`; a push as `c3-c4`) of whoever moves after any pending
    /// zero-length chain, sorted by text. Empty when the round is over.
    pub fn legal_moves(&self) -> Vec<String> {
        self.children()
            .into_iter()
            .map(|(mv, _, _)| mv.text())
            .collect()
    }

    /// Plays the move `mv` (text like `a1-a5`) after any pending chain: the new position
    /// and, if the move ended the round, the round's end. Err if the move is not legal
    /// (zero-length moves are never typed).
    pub fn play(&self, mv: &str) -> Result<(MatchPosition, Option<RoundEnd>), String> {
        let wanted = mv.trim();
        for (candidate, next, end) in self.children() {
            if candidate.text() == wanted {
                return Ok((next, end));
            }
        }
        Err(format!("illegal move {wanted:?} in {}", self.to_text()))
    }
}
