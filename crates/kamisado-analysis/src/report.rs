//! The report of a position and every one of its moves: what `query --json` prints, what
//! `serve` sends to the browser and what the Python package returns, built from an
//! [`Analysis`] as one plain serde value.
//!
//! Every front end serialises this one value, so their fields can never disagree; the
//! text a terminal shows is rendered by the command line from the same value (it needs
//! the command line's colours), which is why the positions and the verdict ride along
//! unserialised.

use std::time::Instant;

use kamisado_core::Side;
use kamisado_match::{MatchPosition, Move, Target};
use kamisado_solver::{Cancel, Depth, Progress, Score, Solution, Value, MAX_REMOTENESS};
use serde::Serialize;

use crate::{analyse, Analysis, MoveBound, Oracle, OracleError, SearchStats, Verdict};

/// A position and every move, as far as `depth` asks, as the report `query --json`
/// prints: [`analyse`] and [`QueryReport::of`] in one call. A stopped search is not an
/// error: the report says what was answered (`complete: false`).
pub fn query(
    oracle: &Oracle,
    given: &MatchPosition,
    depth: Depth,
    cancel: &Cancel,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<QueryReport, OracleError> {
    Ok(QueryReport::of(&analyse(
        oracle, given, depth, cancel, progress,
    )?))
}

/// The fields of `query --json`.
#[derive(Clone, Debug, Serialize)]
pub struct QueryReport {
    /// The position answered about: the one given with its pending zero-length moves played.
    pub position: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub given_position: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub zero_length_moves: Vec<String>,
    pub to_move: &'static str,
    pub active: Option<&'static str>,
    /// For the side to move; `null` if the time limit struck first.
    pub value: Option<&'static str>,
    pub remoteness: Option<u32>,
    pub best: Vec<String>,
    pub source: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// In a match: the target, the round and the score.
    #[serde(flatten)]
    pub standing: Option<Standing>,
    /// Best first; for the side to move.
    pub moves: Vec<MoveJson>,
    /// Whether every move's remoteness was asked for (`--all-remoteness`), not only the
    /// best moves'.
    pub all_remoteness: bool,
    /// False if the time limit struck before the analysis did what it was asked: every
    /// move's value and the best moves' remoteness (or, with `all_remoteness`, every
    /// move's).
    pub complete: bool,
    pub seconds: f64,
    /// The positions and the verdict themselves, for a front end's own rendering.
    #[serde(skip)]
    pub given: MatchPosition,
    #[serde(skip)]
    pub pos: MatchPosition,
    #[serde(skip)]
    pub verdict: Option<Verdict>,
}

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

/// A position solved exactly by search alone (the database is not asked), as the report
/// `solve --json` prints: who wins the round being played, in how many moves, every best
/// move and a perfect line, with what the search cost. `pos` is resolved first (its
/// pending zero-length moves played). Stopped by `cancel`, it is
/// [`OracleError::Stopped`]: an exact answer has no partial form.
pub fn solve(
    oracle: &Oracle,
    pos: &MatchPosition,
    cancel: &Cancel,
) -> Result<SolveReport, OracleError> {
    let pos = pos.resolve();
    let started = Instant::now();
    let solution = oracle.solve(&pos, cancel)?;
    Ok(SolveReport::new(
        pos,
        solution,
        SearchStats::of_oracle(oracle, started),
    ))
}

/// The fields of `solve --json` (the command line adds `db` when it writes a database).
#[derive(Clone, Debug, Serialize)]
pub struct SolveReport {
    pub position: String,
    pub to_move: &'static str,
    pub active: Option<&'static str>,
    /// For the side to move: who wins the round being played.
    pub value: &'static str,
    /// Moves to the end of the round under perfect play.
    pub remoteness: u32,
    pub best: Vec<String>,
    pub pv: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// In a match: the target, the round and the score.
    #[serde(flatten)]
    pub standing: Option<Standing>,
    pub stats: SearchStats,
    /// The position and the solution themselves, for a front end's own rendering.
    #[serde(skip)]
    pub pos: MatchPosition,
    #[serde(skip)]
    pub solution: Solution<Move>,
}

impl SolveReport {
    /// The report of `solution`, the exact result of `pos` (resolved), which cost `stats`.
    pub fn new(pos: MatchPosition, solution: Solution<Move>, stats: SearchStats) -> SolveReport {
        let end = pos.round_end();
        SolveReport {
            position: pos.to_string(),
            to_move: pos.turn().name(),
            active: pos.active().map(|c| c.name()),
            value: solution.outcome.value.name(),
            remoteness: solution.outcome.remoteness,
            best: solution.best.iter().map(Move::to_string).collect(),
            pv: solution.pv.iter().map(Move::to_string).collect(),
            winner: end.map(|e| e.winner.name()),
            reason: end.map(|e| e.reason.name()),
            standing: Standing::of(&pos),
            stats,
            pos,
            solution,
        }
    }
}

/// One move in `query --json`. A move whose remoteness was not searched to the end (not
/// a best move, without `--all-remoteness`, or stopped by the time limit) has
/// `remoteness: null` and the bounds the search proved: `remoteness_at_least` and, if
/// known, `remoteness_at_most`; its `value` is exact all the same.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveJson {
    #[serde(rename = "move")]
    pub mv: String,
    pub value: &'static str,
    /// Exact, or `null` if only bounded.
    pub remoteness: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remoteness_at_least: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remoteness_at_most: Option<u32>,
    pub source: &'static str,
}

impl MoveJson {
    /// `m`, a move of `pos` whose value is known.
    pub fn of(m: &MoveBound, pos: &MatchPosition) -> MoveJson {
        let (value, remoteness, at_least, at_most) = match m.verdict(pos) {
            Some(v) => (v.outcome.value, Some(v.outcome.remoteness), None, None),
            None => {
                let value = m.low.value();
                // A faster win scores higher, a faster loss lower; a bound past the
                // longest game says nothing.
                let (fast, slow) = if value == Value::Win {
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
    pub fn remoteness_text(&self) -> String {
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

/// Both players' points in a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MatchScore {
    pub black: u32,
    pub white: u32,
}

impl MatchScore {
    pub fn of(pos: &MatchPosition) -> MatchScore {
        MatchScore {
            black: pos.score(Side::Black),
            white: pos.score(Side::White),
        }
    }
}

/// Where a match stands at a position, as reports give it: the target, the round, the
/// score. Absent for a single round, whose reports stay as they were.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Standing {
    /// The points that win the match: 3, 7 or 15.
    pub target: u32,
    /// The round being played, or just finished (counting from 1).
    pub round: u32,
    /// The points so far (after a finished round, with the winner's gain).
    pub score: MatchScore,
    /// Once a round is over and the match is not: the round's winner, who chooses how
    /// the home rows are refilled, and the choices.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refill_by: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refill_choices: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_winner: Option<&'static str>,
}

impl Standing {
    /// `None` for a single round (target 1).
    pub fn of(pos: &MatchPosition) -> Option<Standing> {
        if pos.target() == Target::Single {
            return None;
        }
        let choices = pos.refill_choices();
        Some(Standing {
            target: pos.target().points(),
            round: pos.round_number(),
            score: MatchScore::of(pos),
            refill_by: pos
                .round_end()
                .filter(|_| !choices.is_empty())
                .map(|end| end.winner.name()),
            refill_choices: choices.iter().map(|c| c.word()).collect(),
            match_winner: pos.match_winner().map(|w| w.name()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::Line;
    use crate::Rounds;
    use kamisado_solver::Options;

    /// `solve` of a single round and of a match round with a Sumo agrees with `query`
    /// (the value, the remoteness, the set of best moves), and its perfect line is as
    /// long as the remoteness and starts with a best move; a stop is `Stopped`.
    #[test]
    fn solve_agrees_with_query_and_its_line_is_perfect() {
        let cases = [
            ("h1-h7 c8-c4 b1-b2 h8-d4 a1-a6 g8-g4", None),
            (
                "g1-g7 h8-h6 g7-h8 left d8-d5 g1-a7 g8-g6 d1-a4 f8-e7 h1-f3 b8-f4",
                Target::from_points(3),
            ),
            ("g1-g7 h8-h6 g7-h8", Target::from_points(3)),
        ];
        for (moves, target) in cases {
            let pos = Line::read(None, Some(moves), target).unwrap().given;
            let options = Options {
                threads: 1,
                table_bytes: 16 << 20,
            };
            let fresh = || Oracle::with_budget(None, options, Rounds::of(&pos.resolve())).unwrap();
            let solved = solve(&fresh(), &pos, &Cancel::new()).unwrap();
            let queried = query(&fresh(), &pos, Depth::Best, &Cancel::new(), &|_| {}).unwrap();
            assert!(queried.complete, "{moves}");
            assert_eq!(solved.position, queried.position, "{moves}");
            assert_eq!(Some(solved.value), queried.value, "{moves}");
            assert_eq!(Some(solved.remoteness), queried.remoteness, "{moves}");
            let sorted = |mut v: Vec<String>| {
                v.sort();
                v
            };
            assert_eq!(sorted(solved.best.clone()), sorted(queried.best), "{moves}");
            assert_eq!(solved.pv.len() as u32, solved.remoteness, "{moves}");
            assert_eq!(!solved.pv.is_empty(), !solved.best.is_empty(), "{moves}");
            if let Some(first) = solved.pv.first() {
                assert!(solved.best.contains(first), "{moves}");
            }
            assert_eq!(solved.standing, queried.standing, "{moves}");
            let stopped = Cancel::new();
            stopped.cancel();
            if solved.remoteness > 1 {
                assert!(matches!(
                    solve(&fresh(), &pos, &stopped),
                    Err(OracleError::Stopped)
                ));
            }
        }
    }
}
