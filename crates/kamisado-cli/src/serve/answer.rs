//! One answer of `/api/query`: the request read into positions, and everything the board
//! shows about the position it reaches.

use kamisado_db::Oracle;
use kamisado_match::{MatchPosition, Move, Target};
use kamisado_solver::Cancel;
use serde::Serialize;

use super::perfect_line::perfect_line;
use crate::analysis::{analyse, QueryReport};
use crate::args::PositionArgs;
use crate::failure::{Failure, Result};
use crate::input;

/// A request read and checked: where the line starts and the moves played from there.
pub struct Request {
    /// The game, as [`super::games::served`] named it.
    game: &'static str,
    /// The line's start: the position given, or the start of a round.
    start: MatchPosition,
    /// The moves of positive length played from `start`.
    moves: Vec<Move>,
    /// The position they reach.
    given: MatchPosition,
}

impl Request {
    /// Reads `position` and `moves` exactly as the command line reads `--position` and
    /// `--moves`: the same positions, the same one-line errors.
    pub fn read(
        game: &'static str,
        position: Option<String>,
        moves: Option<String>,
    ) -> Result<Request> {
        let args = PositionArgs {
            position,
            moves: moves.clone(),
            target: None,
        };
        let (start, record) = input::record(&args)?;
        if start.target() != Target::Single {
            return Err(Failure::input(
                "match positions (a target, or Sumos) are not served yet: the board plays single rounds",
            ));
        }
        let given = input::position(&args)?;
        let moves = record.rounds()[0].moves.clone();
        Ok(Request {
            game,
            start,
            moves,
            given,
        })
    }
}

/// What `/api/query` sends: `query --json`'s fields, and what a board needs beside them.
#[derive(Serialize)]
pub struct Answer {
    /// The game the answer is about (`kamisado`; match play and Kamon later).
    game: &'static str,
    #[serde(flatten)]
    report: QueryReport,
    /// Every legal move of the position, answered or not (a stopped search answers only
    /// some: the page still lets them be played).
    legal_moves: Vec<String>,
    /// A perfect line from the position: exactly `remoteness` moves when complete.
    pv: Vec<String>,
    /// False if the line stops short of the end of the game (time limit).
    pv_complete: bool,
    /// The line played to reach the position, with the zero-length moves each move caused.
    line: LineJson,
    /// Why the answer is incomplete, if it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

#[derive(Serialize)]
struct LineJson {
    /// Position text of the line's start.
    start: String,
    /// The start's pending zero-length moves, played before anything else.
    zero_length_moves: Vec<String>,
    moves: Vec<PlayedJson>,
}

#[derive(Serialize)]
struct PlayedJson {
    #[serde(rename = "move")]
    mv: String,
    /// Who made it.
    side: &'static str,
    /// The zero-length moves that followed it, in order.
    zero_length_moves: Vec<String>,
}

fn texts(moves: impl IntoIterator<Item = Move>) -> Vec<String> {
    moves.into_iter().map(|m| m.to_string()).collect()
}

/// The line played, move by move, with what each move caused.
fn played_line(request: &Request) -> LineJson {
    let mut pos = request.start.resolve();
    let mut moves = Vec::with_capacity(request.moves.len());
    for &m in &request.moves {
        let stepped = pos.step_unchecked(m);
        moves.push(PlayedJson {
            mv: m.to_string(),
            side: pos.turn().name(),
            zero_length_moves: texts(stepped.pending_zero_moves()),
        });
        pos = stepped.resolve();
    }
    LineJson {
        start: request.start.to_string(),
        zero_length_moves: texts(request.start.pending_zero_moves()),
        moves,
    }
}

/// Answers a request: blocking, bounded by `cancel`. `time_limit` (seconds) is only for
/// the message when the search is stopped.
pub fn answer(
    oracle: &Oracle,
    request: &Request,
    cancel: &Cancel,
    time_limit: f64,
) -> Result<Answer> {
    let analysis = analyse(oracle, &request.given, cancel, &mut |_| {})?;
    let pos = analysis.position;
    let (pv, pv_complete) = match analysis.verdict.filter(|_| !analysis.timed_out) {
        Some(v) => perfect_line(
            oracle,
            &pos,
            v.outcome,
            analysis.best.first().copied(),
            cancel,
        ),
        None => (Vec::new(), false),
    };
    let message = if analysis.timed_out {
        Some(analysis.time_out_message(time_limit))
    } else if !pv_complete && cancel.is_cancelled() {
        Some(format!(
            "time limit of {time_limit} s reached while following the perfect line: {} moves shown",
            pv.len()
        ))
    } else if !pv_complete {
        Some(format!(
            "the perfect line stops after {} moves: the database and the search disagree there",
            pv.len()
        ))
    } else {
        None
    };
    Ok(Answer {
        game: request.game,
        report: analysis.report(),
        legal_moves: texts(pos.legal_moves()),
        pv: texts(pv),
        pv_complete,
        line: played_line(request),
        message,
    })
}
