//! A position and every one of its moves, answered by the oracle: what `query` prints and
//! what `serve` sends to the browser.
//!
//! Both ask the same question and give the same JSON fields, so the question is asked and
//! the report built here, once. The caller owns the cancellation (a time limit for
//! `query`, a time limit or a closed connection for `serve`) and any progress display.

use std::time::Instant;

use kamisado_db::{MoveBound, Oracle, Verdict};
use kamisado_match::{MatchPosition, Move};
use kamisado_solver::{Cancel, Depth, Progress, Score, MAX_REMOTENESS};
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
) -> Result<Analysis> {
    let started = Instant::now();
    let pos = given.resolve();
    let report = oracle
        .analyse_moves(&pos, depth, cancel, progress)
        .map_err(Failure::oracle)?;
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
            moves: self.moves.iter().map(|m| MoveJson::of(m, pos)).collect(),
            all_remoteness: self.depth == Depth::Every,
            complete: !self.timed_out,
            seconds: self.seconds,
            given: self.given,
            pos: self.position,
            verdict: self.verdict,
        }
    }

    /// Why the answer is incomplete, for a search stopped by a time limit of `seconds`,
    /// with the command line's advice (its flags).
    pub fn time_out_message(&self, seconds: f64) -> String {
        let advice = if self.moves.len() < self.position.legal_moves().len() {
            "try a larger --time-limit or a --db"
        } else {
            "try a larger --time-limit"
        };
        format!("{}; {advice}", self.time_out_fact(seconds))
    }

    /// What a search stopped by a time limit of `seconds` left unanswered, in words any
    /// reader shares (the board's visitor has no flags to change).
    pub fn time_out_fact(&self, seconds: f64) -> String {
        let legal = self.position.legal_moves().len();
        if self.moves.len() < legal {
            format!(
                "time limit of {seconds} s reached: {} of {legal} moves have a value",
                self.moves.len(),
            )
        } else {
            let exact = self.moves.iter().filter(|m| m.low == m.high).count();
            let what = if self.best.is_empty() {
                "the best moves' remoteness is not known yet"
            } else {
                "the best moves are exact"
            };
            format!(
                "time limit of {seconds} s reached: every move has its value, {exact} of {legal} their exact remoteness ({what})"
            )
        }
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
    /// Whether every move's remoteness was asked for (`--all-remoteness`), not only the
    /// best moves'.
    all_remoteness: bool,
    /// False if the time limit struck before the analysis did what it was asked: every
    /// move's value and the best moves' remoteness (or, with `all_remoteness`, every
    /// move's).
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
                    m.mv,
                    m.value,
                    m.remoteness_text(),
                    m.source
                ));
            }
        }
        out.push_str(&format!("time        {:.3} s\n", self.seconds));
        out
    }
}

/// One move in `query --json`. A move whose remoteness was not searched to the end (not
/// a best move, without `--all-remoteness`, or stopped by the time limit) has
/// `remoteness: null` and the bounds the search proved: `remoteness_at_least` and, if
/// known, `remoteness_at_most`; its `value` is exact all the same.
#[derive(Serialize)]
struct MoveJson {
    #[serde(rename = "move")]
    mv: String,
    value: &'static str,
    /// Exact, or `null` if only bounded.
    remoteness: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    remoteness_at_least: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    remoteness_at_most: Option<u32>,
    source: &'static str,
}

impl MoveJson {
    /// `m`, a move of `pos` whose value is known.
    fn of(m: &MoveBound, pos: &MatchPosition) -> MoveJson {
        let (value, remoteness, at_least, at_most) = match m.verdict(pos) {
            Some(v) => (v.outcome.value, Some(v.outcome.remoteness), None, None),
            None => {
                let value = m.low.value();
                // A faster win scores higher, a faster loss lower; a bound past the
                // longest game says nothing.
                let (fast, slow) = if value == kamisado_solver::Value::Win {
                    (m.high, m.low)
                } else {
                    (m.low, m.high)
                };
                let said = |s: Score| s.remoteness().filter(|&r| r <= MAX_REMOTENESS);
                (value, None, Some(said(fast).unwrap_or(1)), said(slow))
            }
        };
        MoveJson {
            mv: m.mv.to_string(),
            value: value.name(),
            remoteness,
            remoteness_at_least: at_least,
            remoteness_at_most: at_most,
            source: m.source.name(),
        }
    }

    /// `17`, or a bound: `>= 9`, `9..31`.
    fn remoteness_text(&self) -> String {
        match (
            self.remoteness,
            self.remoteness_at_least,
            self.remoteness_at_most,
        ) {
            (Some(r), _, _) => r.to_string(),
            (None, Some(a), Some(b)) => format!("{a}..{b}"),
            (None, Some(a), None) => format!(">= {a}"),
            (None, None, _) => "?".to_owned(),
        }
    }
}
