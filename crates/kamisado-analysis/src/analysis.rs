//! A position and every one of its moves, as far as asked: the answer `query` prints and
//! the board shows, with the partial answer a time limit leaves.
//!
//! The caller owns the cancellation (a time limit, an interrupt, a closed connection) and
//! any progress display; a stopped search is not an error here, the analysis says what
//! was answered.

use std::time::Instant;

use kamisado_match::{MatchPosition, Move};
use kamisado_solver::{Cancel, Depth, Progress};

use crate::{MoveBound, Oracle, OracleError, Verdict};

/// What the oracle found about a position before it finished or was stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The position asked about, possibly with pending zero-length moves.
    pub given: MatchPosition,
    /// The position answered about: `given` with its pending zero-length moves played.
    pub position: MatchPosition,
    /// The pending zero-length moves of `given`, in order.
    pub zero_moves: Vec<Move>,
    /// For the side to move; on a time-out, what the rules or the database know, if
    /// anything.
    pub verdict: Option<Verdict>,
    /// The moves that keep the verdict (fastest win, slowest loss), once known.
    pub best: Vec<Move>,
    /// The moves whose value is known, best first (all of them unless the search was
    /// stopped while proving values); each exact or with bounds on its remoteness.
    pub moves: Vec<MoveBound>,
    /// How far the analysis was asked to go.
    pub depth: Depth,
    /// Whether the search was stopped before it did what `depth` asks.
    pub timed_out: bool,
    pub seconds: f64,
}

/// Asks `oracle` about `given` and every move, as far as `depth` asks, telling `progress`
/// how far it is. A stopped search is not an error: the analysis says what was answered.
pub fn analyse(
    oracle: &Oracle,
    given: &MatchPosition,
    depth: Depth,
    cancel: &Cancel,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Analysis, OracleError> {
    let started = Instant::now();
    let pos = given.resolve();
    let report = oracle.analyse_moves(&pos, depth, cancel, progress)?;
    // On a time-out before the best move is known, what the rules or the database know
    // of the position itself (the cancel is raised: nothing more is searched).
    let verdict = report
        .verdict
        .or_else(|| oracle.position(&pos, cancel).ok());
    let mut moves: Vec<MoveBound> = report
        .moves
        .into_iter()
        .filter(|m| m.value().is_some())
        .collect();
    // Best first; a stable sort keeps equal moves in the rules' order.
    moves.sort_by_key(|m| std::cmp::Reverse((m.high, m.low)));
    Ok(Analysis {
        given: *given,
        position: pos,
        zero_moves: given.pending_zero_moves(),
        verdict,
        best: report.best,
        moves,
        depth,
        timed_out: !report.complete,
        seconds: started.elapsed().as_secs_f64(),
    })
}

impl Analysis {
    /// The number of moves whose remoteness is exact (the others have bounds).
    pub fn exact_moves(&self) -> usize {
        self.moves.iter().filter(|m| m.low == m.high).count()
    }

    /// What a search stopped by a time limit of `seconds` left unanswered, in words any
    /// reader shares (a front end adds its own advice: the command line's flags).
    pub fn time_out_fact(&self, seconds: f64) -> String {
        let legal = self.position.legal_moves().len();
        if self.moves.len() < legal {
            format!(
                "time limit of {seconds} s reached: {} of {legal} moves have a value",
                self.moves.len(),
            )
        } else {
            let what = if self.best.is_empty() {
                "the best moves' remoteness is not known yet"
            } else {
                "the best moves are exact"
            };
            format!(
                "time limit of {seconds} s reached: every move has its value, {} of {legal} their exact remoteness ({what})",
                self.exact_moves()
            )
        }
    }
}
