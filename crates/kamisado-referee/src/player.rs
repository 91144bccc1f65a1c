//! The perfect player: fastest win, slowest loss.

use kamisado_core::Kamisado;
use kamisado_core::{Move, Position};
use kamisado_db::{Oracle, OracleError, Verdict};
use kamisado_solver::Cancel;

/// Plays perfectly with an [`Oracle`]: a winning position is won as fast as possible, a
/// losing one lost as slowly as possible.
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

impl PerfectPlayer {
    pub fn new(oracle: Oracle) -> PerfectPlayer {
        PerfectPlayer { oracle }
    }

    pub fn oracle(&self) -> &Oracle {
        &self.oracle
    }

    /// The position's verdict and every move that keeps it (empty for a finished game).
    pub fn best_moves(
        &self,
        pos: &Position,
        cancel: &Cancel,
    ) -> Result<(Verdict, Vec<Move>), OracleError> {
        let pos = Kamisado::root(pos);
        let verdict = self.oracle.position(&pos, cancel)?;
        if pos.is_over() {
            return Ok((verdict, Vec::new()));
        }
        let moves = if self.oracle.database().is_some() {
            // The database answers most children at once; the rest are searched.
            self.oracle.best_moves(&pos, cancel)?
        } else {
            // Null-window probes at the known score: far cheaper than solving each child.
            self.oracle
                .solver()
                .best_moves(&pos, verdict.score(), cancel)?
        };
        Ok((verdict, moves))
    }

    /// One perfect move, as cheaply as possible: a win in one, the database's stored best
    /// move, else the first (in the rules' order) of [`PerfectPlayer::best_moves`].
    /// `None` for a finished game.
    pub fn best_move(
        &self,
        pos: &Position,
        cancel: &Cancel,
    ) -> Result<Option<PerfectMove>, OracleError> {
        let pos = Kamisado::root(pos);
        if pos.is_over() {
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
    /// the same players differ. `None` for a finished game.
    pub fn random_best_move(
        &self,
        pos: &Position,
        rng: &mut fastrand::Rng,
        cancel: &Cancel,
    ) -> Result<Option<PerfectMove>, OracleError> {
        let (verdict, moves) = self.best_moves(pos, cancel)?;
        Ok(rng
            .choice(moves.iter())
            .map(|&mv| PerfectMove { mv, verdict }))
    }
}
