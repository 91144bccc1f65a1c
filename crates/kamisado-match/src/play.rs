//! Playing a move: the towers move, the turn passes (or, after a push, stays), the chain of
//! zero-length moves runs, and the round may end with a tower gaining a rank.

use kamisado_core::{Colour, EndReason, Move, Tower};

use crate::{IllegalMatchMove, MatchPosition};

impl MatchPosition {
    /// Plays a legal move and then every zero-length move that follows automatically: the
    /// result is a finished round or a position whose side to move has a move of positive
    /// length. After a push that is the pusher again, for its extra move.
    pub fn play(&self, m: Move) -> Result<MatchPosition, IllegalMatchMove> {
        self.check_move(m)?;
        Ok(self.play_unchecked(m))
    }

    /// [`MatchPosition::play`] for a move known to be legal (from
    /// [`MatchPosition::legal_moves`]).
    ///
    /// # Panics
    ///
    /// May panic on an illegal move (one that does not start on a tower of the side to
    /// move, or an impossible push); other illegal moves give a meaningless position.
    #[inline]
    pub fn play_unchecked(&self, m: Move) -> MatchPosition {
        if m.is_zero_length() {
            return self.step_zero_length(m).resolve();
        }
        let mover = self.turn();
        let colour = self.mover_colour(m);
        let mut next = *self;
        if self.board.occupied().contains(m.to()) {
            // A push: the opponent's turn is skipped, and the pusher moves again with its
            // tower named by the square the farthest pushed tower landed on.
            let landing = next.push(mover, colour, m.from());
            match next.follow_chain(mover, landing.colour()) {
                Some((turn, active)) => {
                    next.set_turn(turn);
                    next.set_active(Some(active));
                }
                None => {
                    // The push was the last positive move: the pusher loses. The position
                    // is kept one zero-length move on (the winner to move), which the
                    // position text reads back as this same deadlock.
                    let blocked = next.board.square_of(Tower::new(mover, landing.colour()));
                    next.set_turn(!mover);
                    next.set_active(Some(blocked.colour()));
                    next.end_round(!mover, EndReason::Deadlock, m.to().colour());
                }
            }
            return next;
        }
        next.board.relocate(Tower::new(mover, colour), m.to());
        // The state just after the move; a finished round keeps it.
        next.set_turn(!mover);
        next.set_active(Some(m.to().colour()));
        if m.to().is_goal_for(mover) {
            next.end_round(mover, EndReason::Goal, colour);
        } else {
            match next.follow_chain(!mover, m.to().colour()) {
                Some((turn, active)) => {
                    next.set_turn(turn);
                    next.set_active(Some(active));
                }
                None => next.end_round(!mover, EndReason::Deadlock, m.to().colour()),
            }
        }
        next
    }

    /// Plays one move of positive length without the zero-length moves that follow it: the
    /// state just after the move (after a push, the pusher to move with the tower the
    /// farthest pushed tower's landing square names). [`MatchPosition::pending_zero_moves`]
    /// then lists the chain, and [`MatchPosition::resolve`] plays it, giving
    /// [`MatchPosition::play_unchecked`]'s position. A move whose chain deadlocks ends the
    /// round at once, as in `play_unchecked`.
    ///
    /// # Panics
    ///
    /// As [`MatchPosition::play_unchecked`], on an illegal move.
    pub fn step_unchecked(&self, m: Move) -> MatchPosition {
        if m.is_zero_length() {
            return self.step_zero_length(m);
        }
        let mover = self.turn();
        let colour = self.mover_colour(m);
        let mut next = *self;
        if self.board.occupied().contains(m.to()) {
            let landing = next.push(mover, colour, m.from());
            if next.follow_chain(mover, landing.colour()).is_none() {
                // Kept as `play_unchecked` keeps it (see there).
                let blocked = next.board.square_of(Tower::new(mover, landing.colour()));
                next.set_turn(!mover);
                next.set_active(Some(blocked.colour()));
                next.end_round(!mover, EndReason::Deadlock, m.to().colour());
            } else {
                next.set_turn(mover);
                next.set_active(Some(landing.colour()));
            }
            return next;
        }
        next.board.relocate(Tower::new(mover, colour), m.to());
        next.set_turn(!mover);
        next.set_active(Some(m.to().colour()));
        if m.to().is_goal_for(mover) {
            next.end_round(mover, EndReason::Goal, colour);
        } else if next.follow_chain(!mover, m.to().colour()).is_none() {
            next.end_round(!mover, EndReason::Deadlock, m.to().colour());
        }
        next
    }

    /// The zero-length moves [`MatchPosition::resolve`] would play, in order.
    pub fn pending_zero_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut pos = *self;
        // A chain that does not deadlock visits each of the 16 states at most once.
        while let Some(m) = pos.forced_zero_move().filter(|_| moves.len() < 16) {
            moves.push(m);
            pos = pos.step_zero_length(m);
        }
        moves
    }

    /// Plays exactly one zero-length move of a position in the middle of a chain, without
    /// the ones that may follow. `m` must be [`MatchPosition::forced_zero_move`].
    ///
    /// # Panics
    ///
    /// In debug builds, if `m` is not zero-length.
    pub fn step_zero_length(&self, m: Move) -> MatchPosition {
        debug_assert!(m.is_zero_length());
        let mut next = *self;
        next.set_turn(!self.turn());
        next.set_active(Some(m.from().colour()));
        next
    }

    /// Plays the zero-length moves pending in this position, if any.
    pub fn resolve(&self) -> MatchPosition {
        let mut pos = *self;
        while let Some(m) = pos.forced_zero_move() {
            pos = pos.step_zero_length(m);
        }
        pos
    }

    /// The colour of the tower a legal move moves.
    #[inline]
    fn mover_colour(&self, m: Move) -> Colour {
        match self.active() {
            Some(colour) => colour,
            None => self
                .board
                .colour_at(self.turn(), m.from())
                .expect("a legal move starts on a tower of the side to move"),
        }
    }
}
