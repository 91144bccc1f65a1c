//! The perfect player: fastest win, slowest loss, round by round; and between rounds, the
//! refill direction that wins the next round if one does.

use kamisado_core::{Move, Side};
use kamisado_match::{MatchPosition, Refill};
use kamisado_solver::{Cancel, Value};

use crate::{Oracle, OracleError, Verdict};

/// Plays perfectly with an [`Oracle`]: a round it can win is won as fast as possible, a
/// round it cannot is lost as slowly as possible.
///
/// Perfect here is perfect for the round (the value the solver knows): a match's value as
/// a whole, over rounds to come, is not solved. Between rounds the player looks one round
/// ahead: it picks the refill direction after which it wins the next round, if one does.
///
/// Every front end that plays perfectly plays with this one: the referee's engine and
/// matches, and `play`. Its progress while it thinks is [`PerfectPlayer::nodes`],
/// which another thread may read (a spinner, a notebook's progress bar); its searches stop
/// when the [`Cancel`] passed in is raised.
pub struct PerfectPlayer {
    oracle: Oracle,
}

/// A perfect move and the position's verdict it keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerfectMove {
    pub mv: Move,
    /// The position moved from (pending zero-length moves played), for its side to move.
    pub verdict: Verdict,
}

/// A refill choice and why: who wins the next round after each direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefillChoice {
    pub choice: Refill,
    /// The round's winner, who chooses.
    pub chooser: Side,
    /// Whether the chooser wins the next round after `left` and after `right`.
    pub left: Value,
    pub right: Value,
}

impl RefillChoice {
    /// The chooser's value of the next round after `choice`.
    pub fn after(&self, choice: Refill) -> Value {
        match choice {
            Refill::Left => self.left,
            Refill::Right => self.right,
        }
    }

    /// "left: after it black wins round 3 (after right, white would win it)".
    pub fn explain(&self, next_round: u32) -> String {
        let other_choice = match self.choice {
            Refill::Left => Refill::Right,
            Refill::Right => Refill::Left,
        };
        let winner = |v: Value| {
            if v == Value::Win {
                self.chooser
            } else {
                !self.chooser
            }
        };
        let (chosen, other) = (
            winner(self.after(self.choice)),
            winner(self.after(other_choice)),
        );
        let verb = if other == chosen {
            "too"
        } else {
            "would win it"
        };
        let other_says = if other == chosen {
            format!("after {other_choice}, {other} wins it {verb}")
        } else {
            format!("after {other_choice}, {other} {verb}")
        };
        format!(
            "{}: after it {chosen} wins round {next_round} ({other_says})",
            self.choice
        )
    }
}

impl PerfectPlayer {
    pub fn new(oracle: Oracle) -> PerfectPlayer {
        PerfectPlayer { oracle }
    }

    pub fn oracle(&self) -> &Oracle {
        &self.oracle
    }

    /// Nodes searched so far by the oracle's solvers: the player's progress, for another
    /// thread to show while [`PerfectPlayer::best_move`] thinks.
    pub fn nodes(&self) -> u64 {
        self.oracle.nodes()
    }

    /// The position's verdict and every move that keeps it (empty for a finished round).
    pub fn best_moves(
        &self,
        pos: &MatchPosition,
        cancel: &Cancel,
    ) -> Result<(Verdict, Vec<Move>), OracleError> {
        let pos = pos.resolve();
        let verdict = self.oracle.position(&pos, cancel)?;
        if pos.is_round_over() {
            return Ok((verdict, Vec::new()));
        }
        let moves = if self.oracle.database().is_some() && !pos.has_sumo() {
            // The database answers most children at once; the rest are searched.
            self.oracle.best_moves(&pos, cancel)?
        } else {
            // Null-window probes at the known score: far cheaper than solving each child.
            self.oracle.best_moves_at(&pos, verdict.score(), cancel)?
        };
        Ok((verdict, moves))
    }

    /// One perfect move, as cheaply as possible: a win in one, the database's stored best
    /// move, else the first (in the rules' order) of [`PerfectPlayer::best_moves`].
    /// `None` for a finished round.
    pub fn best_move(
        &self,
        pos: &MatchPosition,
        cancel: &Cancel,
    ) -> Result<Option<PerfectMove>, OracleError> {
        let pos = pos.resolve();
        if pos.is_round_over() {
            return Ok(None);
        }
        let stored = self.oracle.stored_best_move(&pos)?;
        let quick = pos.winning_move().or(stored);
        if let Some(mv) = quick {
            let verdict = self.oracle.position(&pos, cancel)?;
            return Ok(Some(PerfectMove { mv, verdict }));
        }
        let (verdict, moves) = self.best_moves(&pos, cancel)?;
        Ok(moves.first().map(|&mv| PerfectMove { mv, verdict }))
    }

    /// A perfect move chosen uniformly among all of them by `rng`, so that games between
    /// the same players differ. `None` for a finished round.
    pub fn random_best_move(
        &self,
        pos: &MatchPosition,
        rng: &mut fastrand::Rng,
        cancel: &Cancel,
    ) -> Result<Option<PerfectMove>, OracleError> {
        let (verdict, moves) = self.best_moves(pos, cancel)?;
        Ok(rng
            .choice(moves.iter())
            .map(|&mv| PerfectMove { mv, verdict }))
    }

    /// The refill choice of the round's winner in a finished round of a match that goes
    /// on: who wins the next round is proved after both directions, and one after which
    /// the chooser wins it is taken (`left` when both directions are alike: values are
    /// proved, not the remoteness, which would cost a full solve of both starts). `None`
    /// when no choice is due.
    pub fn refill_choice(
        &self,
        pos: &MatchPosition,
        cancel: &Cancel,
    ) -> Result<Option<RefillChoice>, OracleError> {
        let Some([left, right]) = self.oracle.refills(pos, false, cancel)? else {
            return Ok(None);
        };
        let chooser = left.chooser;
        let (Some(left), Some(right)) = (left.value, right.value) else {
            return Err(OracleError::Stopped);
        };
        let choice = if right > left {
            Refill::Right
        } else {
            Refill::Left
        };
        Ok(Some(RefillChoice {
            choice,
            chooser,
            left,
            right,
        }))
    }
}
