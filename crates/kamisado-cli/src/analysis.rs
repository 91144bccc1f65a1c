//! The report of a position and every one of its moves: what `query` prints and what
//! `serve` sends to the browser, from the analysis library's [`Analysis`].
//!
//! Both give the same JSON fields, so the report is built here, once.

use kamisado_analysis::{Analysis, MoveBound, Verdict};
use kamisado_match::{MatchPosition, Move};
use kamisado_solver::{Depth, Score, MAX_REMOTENESS};
use serde::Serialize;

use crate::render;
use crate::report::Report;
use crate::standing::Standing;

impl QueryReport {
    /// The report `query --json` prints of `analysis`.
    pub fn of(analysis: &Analysis) -> QueryReport {
        let pos = &analysis.position;
        QueryReport {
            position: pos.to_string(),
            given_position: (analysis.given != *pos).then(|| analysis.given.to_string()),
            zero_length_moves: analysis.zero_moves.iter().map(Move::to_string).collect(),
            to_move: pos.turn().name(),
            active: pos.active().map(|c| c.name()),
            value: analysis.verdict.map(|v| v.outcome.value.name()),
            remoteness: analysis.verdict.map(|v| v.outcome.remoteness),
            best: analysis.best.iter().map(Move::to_string).collect(),
            source: analysis.verdict.map(|v| v.source.name()),
            winner: pos.round_end().map(|e| e.winner.name()),
            reason: pos.round_end().map(|e| e.reason.name()),
            standing: Standing::of(pos),
            moves: analysis
                .moves
                .iter()
                .map(|m| MoveJson::of(m, pos))
                .collect(),
            all_remoteness: analysis.depth == Depth::Every,
            complete: !analysis.timed_out,
            seconds: analysis.seconds,
            given: analysis.given,
            pos: analysis.position,
            verdict: analysis.verdict,
        }
    }

    /// Whether every move was answered (no time limit struck).
    pub fn complete(&self) -> bool {
        self.complete
    }
}

/// Why `analysis` is incomplete, for a search stopped by a time limit of `seconds`, with
/// the command line's advice (its flags).
pub fn time_out_message(analysis: &Analysis, seconds: f64) -> String {
    let advice = if analysis.moves.len() < analysis.position.legal_moves().len() {
        "try a larger --time-limit or a --db"
    } else {
        "try a larger --time-limit"
    };
    format!("{}; {advice}", analysis.time_out_fact(seconds))
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
