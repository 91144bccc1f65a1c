//! The match value beside each move's round value, where a proof file covers the round.
//!
//! Why this shape:
//! - A round's value says who wins the round; the match value says who wins the match,
//!   which only the whole-match search knows, and only where a run of it (`whole-match
//!   solve --db FILE`) has proved the round boundaries the answer needs. `serve
//!   --match-db FILE` loads such a file once, read-only (a server never writes another
//!   run's proof), and asks the same library call as `whole-match query`
//!   ([`MatchSolver::move_searches`]), so the board and the command line cannot disagree.
//! - It is asked only in a round whose first position (or the position itself, a round's
//!   start or a refill choice) the file has proved: there the moves' searches find the
//!   round boundaries they need in the file and take moments. Anywhere else a move's
//!   search would be a new whole-match proof of hours; the answer says so instead of
//!   spending the time limit on it.
//! - One search at a time (the solver has one stop flag): a request waits for the
//!   running one within its own time limit, and answers without match values if it runs
//!   out; what a search proves stays in the solver's memory for the next request.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, TryLockError};
use std::time::Duration;

use kamisado_match::{MatchPosition, WholeMatch};
use kamisado_match_solver::{MatchSolver, Run};
use kamisado_solver::{Cancel, Value};
use serde::Serialize;

/// The whole-match solver `serve` answers match values with, and its file's name.
pub struct MatchProofs {
    solver: Mutex<MatchSolver>,
    path: PathBuf,
}

impl MatchProofs {
    pub fn new(solver: MatchSolver, path: &Path) -> MatchProofs {
        MatchProofs {
            solver: Mutex::new(solver),
            path: path.to_path_buf(),
        }
    }
}

/// What the answer says of the match: each move's match value for its mover, as
/// `whole-match query --json` gives it, or why there is none.
#[derive(Serialize)]
pub struct MatchValuesJson {
    /// The position's match value for the side to move, where the moves settle it (a
    /// winning move, or every move proven lost).
    value: Option<&'static str>,
    /// Who wins the match, once known.
    winner: Option<&'static str>,
    /// Every move (or refill choice) the search got to, in the order it asked them.
    moves: Vec<MatchMoveJson>,
    /// Every move has its match value.
    pub complete: bool,
    /// Why some or all are missing: the file does not cover the round, or the time limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

#[derive(Serialize)]
struct MatchMoveJson {
    #[serde(rename = "move")]
    mv: String,
    /// `win` or `loss` of the match for the player making the move; `null` if not proven
    /// within the time limit.
    value: Option<&'static str>,
    winner: Option<&'static str>,
}

/// The match values of `pos`'s moves, with `round_start` the first position of the round
/// it is in (or the line's start). `None` for a position whose match is over.
pub fn match_values(
    proofs: &MatchProofs,
    round_start: &MatchPosition,
    pos: &MatchPosition,
    cancel: &Cancel,
) -> Option<MatchValuesJson> {
    let pos = WholeMatch::root(pos);
    if pos.is_match_over() {
        return None;
    }
    let mover = WholeMatch::side_to_move(&pos);
    let without = |message: String| MatchValuesJson {
        value: None,
        winner: None,
        moves: Vec::new(),
        complete: false,
        message: Some(message),
    };
    // The running search holds the solver; wait for it as long as this request may.
    let solver = loop {
        match proofs.solver.try_lock() {
            Ok(solver) => break solver,
            Err(TryLockError::Poisoned(poisoned)) => break poisoned.into_inner(),
            Err(TryLockError::WouldBlock) if cancel.is_cancelled() => {
                return Some(without(
                    "time limit reached while another request's match search ran".to_owned(),
                ))
            }
            Err(TryLockError::WouldBlock) => std::thread::sleep(Duration::from_millis(10)),
        }
    };
    if !solver.knows(round_start) && !solver.knows(&pos) {
        return Some(without(format!(
            "no match values here: {} holds no proof of this round's start",
            proofs.path.display()
        )));
    }
    let stop_asked = || cancel.is_cancelled();
    let run = Run {
        stop_asked: &stop_asked,
        ..Run::default()
    };
    let searched = solver.move_searches(&pos, &run, &mut |_| {});
    drop(solver);
    let searches = match searched {
        Ok(searches) => searches,
        Err(e) => return Some(without(format!("the match search failed: {e}"))),
    };
    let winner_for = |value: Value| if value == Value::Win { mover } else { !mover };
    let moves: Vec<MatchMoveJson> = searches
        .iter()
        .map(|s| MatchMoveJson {
            mv: s.mv.to_string(),
            value: s.proof.map(|p| p.value.name()),
            winner: s.proof.map(|p| winner_for(p.value).name()),
        })
        .collect();
    let complete = moves.iter().all(|m| m.value.is_some());
    // The rule of `whole-match query`: a winning move wins; every move lost loses.
    let value = if searches
        .iter()
        .any(|s| s.proof.is_some_and(|p| p.value == Value::Win))
    {
        Some(Value::Win)
    } else if complete && !moves.is_empty() {
        Some(Value::Loss)
    } else {
        None
    };
    Some(MatchValuesJson {
        value: value.map(Value::name),
        winner: value.map(|v| winner_for(v).name()),
        complete,
        message: (!complete).then(|| {
            format!(
                "time limit reached: {} of {} moves have a match value",
                moves.iter().filter(|m| m.value.is_some()).count(),
                moves.len()
            )
        }),
        moves,
    })
}
