//! A position and every one of its moves, answered by the oracle: what `query` prints and
//! what `serve` sends to the browser.
//!
//! Both ask the same question and give the same JSON fields, so the question is asked and
//! the report built here, once. The caller owns the cancellation (a time limit for
//! `query`, a time limit or a closed connection for `serve`) and any progress display.

use std::time::Instant;

use kamisado_db::{MoveVerdict, Oracle, OracleError, Verdict};
use kamisado_match::{MatchPosition, Move};
use kamisado_solver::Cancel;
use serde::Serialize;

use crate::failure::{Failure, Result};
use crate::render;
use crate::report::Report;
use crate::standing::Standing;

/// What the oracle found about a position before it finished or was stopped.
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
    pub best: Vec<Move>,
    /// The moves answered, best first (all of them unless the search was stopped).
    pub moves: Vec<MoveVerdict>,
    /// Whether the search was stopped before every move was answered.
    pub timed_out: bool,
    pub seconds: f64,
}

/// Asks `oracle` about `given` and every move, telling `done` about each move as it is
/// answered. A stopped search is not an error: the analysis says what was answered.
pub fn analyse(
    oracle: &Oracle,
    given: &MatchPosition,
    cancel: &Cancel,
    done: &mut dyn FnMut(&MoveVerdict),
) -> Result<Analysis> {
    let started = Instant::now();
    let pos = given.resolve();
    let mut answered: Vec<MoveVerdict> = Vec::new();
    let analysis = oracle.analyse(&pos, cancel, &mut |m| {
        done(m);
        answered.push(*m);
    });
    let (verdict, best, moves, timed_out) = match analysis {
        Ok(a) => (Some(a.verdict), a.best, a.moves, false),
        // On a time-out, what the rules or the database know of the position itself.
        Err(OracleError::Stopped) => (
            oracle.position(&pos, cancel).ok(),
            Vec::new(),
            answered,
            true,
        ),
        Err(e) => return Err(Failure::oracle(e)),
    };
    Ok(Analysis {
        given: *given,
        position: pos,
        zero_moves: given.pending_zero_moves(),
        verdict,
        best,
        moves: sorted_best_first(&moves),
        timed_out,
        seconds: started.elapsed().as_secs_f64(),
    })
}

fn sorted_best_first(moves: &[MoveVerdict]) -> Vec<MoveVerdict> {
    let mut sorted = moves.to_vec();
    // A stable sort keeps equal moves in the rules' order.
    sorted.sort_by_key(|m| std::cmp::Reverse(m.score()));
    sorted
}

impl QueryReport {
    /// Whether every move was answered (no time limit struck).
    pub fn complete(&self) -> bool {
        self.complete
    }
}

impl Analysis {
    /// The report `query --json` prints.
    pub fn report(&self) -> QueryReport {
        let pos = &self.position;
        QueryReport {
            position: pos.to_string(),
            given_position: (self.given != *pos).then(|| self.given.to_string()),
            zero_length_moves: self.zero_moves.iter().map(Move::to_string).collect(),
            to_move: pos.turn().name(),
            active: pos.active().map(|c| c.name()),
            value: self.verdict.map(|v| v.outcome.value.name()),
            remoteness: self.verdict.map(|v| v.outcome.remoteness),
            best: self.best.iter().map(Move::to_string).collect(),
            source: self.verdict.map(|v| v.source.name()),
            winner: pos.round_end().map(|e| e.winner.name()),
            reason: pos.round_end().map(|e| e.reason.name()),
            standing: Standing::of(pos),
            moves: self
                .moves
                .iter()
                .map(|m| MoveJson {
                    mv: m.mv.to_string(),
                    value: m.outcome.value.name(),
                    remoteness: m.outcome.remoteness,
                    source: m.source.name(),
                })
                .collect(),
            complete: !self.timed_out,
            seconds: self.seconds,
            given: self.given,
            pos: self.position,
            verdict: self.verdict,
        }
    }

    /// Why the answer is incomplete, for a search stopped by a time limit of `seconds`.
    pub fn time_out_message(&self, seconds: f64) -> String {
        format!(
            "time limit of {seconds} s reached: {} of {} moves answered; try a larger --time-limit or a --db",
            self.moves.len(),
            self.position.legal_moves().len()
        )
    }
}

/// The fields of `query --json`.
#[derive(Serialize)]
pub struct QueryReport {
    /// The position answered about: the one given with its pending zero-length moves played.
    position: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    given_position: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    zero_length_moves: Vec<String>,
    to_move: &'static str,
    active: Option<&'static str>,
    /// For the side to move; `null` if the time limit struck first.
    value: Option<&'static str>,
    remoteness: Option<u32>,
    best: Vec<String>,
    source: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    /// In a match: the target, the round and the score.
    #[serde(flatten)]
    standing: Option<Standing>,
    /// Best first; for the side to move.
    moves: Vec<MoveJson>,
    /// False if the time limit struck before every move was answered.
    complete: bool,
    seconds: f64,
    /// The positions and the verdict themselves, for the text.
    #[serde(skip)]
    given: MatchPosition,
    #[serde(skip)]
    pos: MatchPosition,
    #[serde(skip)]
    verdict: Option<Verdict>,
}

impl Report for QueryReport {
    fn text(&self, colour: bool) -> String {
        let (given, pos) = (&self.given, &self.pos);
        let mut out = render::board(pos, colour);
        if !self.zero_length_moves.is_empty() {
            out.push_str(&format!(
                "given       {given}\n            its pending zero-length move(s) {} played first{}\n",
                self.zero_length_moves.join(" "),
                if given.turn() != pos.turn() {
                    format!(": now {} to move", pos.turn())
                } else {
                    String::new()
                }
            ));
        }
        out.push_str(&format!("position    {pos}\n"));
        out.push_str(&format!("            {}\n", render::status(pos)));
        if let Some(v) = self.verdict.filter(|_| !pos.is_round_over()) {
            out.push_str(&format!(
                "value       {} [{}]\n",
                render::outcome_for(pos.turn(), v.outcome),
                v.source.name()
            ));
        }
        if !self.best.is_empty() {
            out.push_str(&format!("best        {}\n", self.best.join(" ")));
        }
        if !self.moves.is_empty() {
            out.push_str(&format!(
                "moves       {:<8} {:<5} {:>10}  source  (for {})\n",
                "move",
                "value",
                "remoteness",
                pos.turn()
            ));
            for m in &self.moves {
                out.push_str(&format!(
                    "            {:<8} {:<5} {:>10}  {}\n",
                    m.mv, m.value, m.remoteness, m.source
                ));
            }
        }
        out.push_str(&format!("time        {:.3} s\n", self.seconds));
        out
    }
}

#[derive(Serialize)]
struct MoveJson {
    #[serde(rename = "move")]
    mv: String,
    value: &'static str,
    remoteness: u32,
    source: &'static str,
}
