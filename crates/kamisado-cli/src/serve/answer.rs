//! One answer of `/api/query`: the request read into positions, and everything the board
//! shows about the position it reaches.
//!
//! The single round (`game=kamisado`) and match play (`game=match`) share it: a single
//! round is a match to one point, and both are read exactly as the command line reads
//! `--position`, `--moves` and `--target`. Match play adds the standing (score, round,
//! refill choice) and the ranks of the towers, and asks the round's value before its
//! moves: a round's start with a Sumo is worth a fraction of a second, all its moves a
//! minute or more, and the value should not wait for them.

use kamisado_analysis::{analyse, perfect_line, GameKind, Line, QueryReport, RefillOutcome};
use kamisado_core::Tower;
use kamisado_match::{MatchPosition, Move};
use kamisado_solver::{Cancel, Depth};
use serde::Serialize;

use super::match_values::{match_values, MatchValuesJson};
use super::{App, SearchError};

/// A Kamisado request read and checked (by the analysis library, as the command line
/// reads `--position`, `--moves` and `--target`): the game and the line played.
#[derive(Clone)]
pub struct Request {
    /// A single round or match play.
    pub game: GameKind,
    pub line: Line,
}

impl Request {
    fn is_match(&self) -> bool {
        self.line.is_match()
    }

    /// The position the answer is about, before its pending zero-length moves: which
    /// oracle answers depends on whether its round has a Sumo.
    pub fn position(&self) -> &MatchPosition {
        &self.line.given
    }
}

/// What `/api/query` sends: `query --json`'s fields, and what a board needs beside them.
#[derive(Serialize)]
pub struct Answer {
    /// The game the answer is about: `kamisado` or `match`.
    game: GameKind,
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
    /// Match play: the ranked towers, and whether the round and the match are over.
    #[serde(flatten)]
    match_play: Option<MatchJson>,
    /// Match play, a finished round of a match that goes on: what each refill choice
    /// leads to, in the order of `refill_choices`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    refills: Vec<RefillJson>,
    /// Match play with a proof file (`serve --match-db`): each move's match value.
    #[serde(skip_serializing_if = "Option::is_none")]
    match_values: Option<MatchValuesJson>,
    /// Why the answer is incomplete, if it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

impl Answer {
    /// Whether nothing is missing: every move answered and the perfect line whole.
    pub fn is_complete(&self) -> bool {
        self.report.complete()
            && self.pv_complete
            && self
                .refills
                .iter()
                .all(|r| r.value.is_some() && r.remoteness.is_some())
            && self.match_values.as_ref().is_none_or(|m| m.complete)
    }
}

/// What a board of match play shows beside `query --json`'s standing (`target`, `round`,
/// `score`, `refill_by`, `refill_choices`, `match_winner`).
#[derive(Serialize)]
struct MatchJson {
    /// Every tower of rank 1 or more, with its rank (a finished round's winner with its
    /// gain, marked `promoted`).
    sumos: Vec<SumoJson>,
    round_over: bool,
    match_over: bool,
}

#[derive(Serialize)]
struct SumoJson {
    square: String,
    side: &'static str,
    colour: &'static str,
    rank: u8,
    /// The tower that has just won the round and gained its last rank.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    promoted: bool,
}

impl MatchJson {
    fn of(pos: &MatchPosition) -> MatchJson {
        let promoted = pos.round_end().map(|end| end.promoted);
        MatchJson {
            sumos: Tower::all()
                .filter(|&t| pos.rank(t) > 0)
                .map(|t| SumoJson {
                    square: pos.board().square_of(t).to_string(),
                    side: t.side.name(),
                    colour: t.colour.name(),
                    rank: pos.rank(t),
                    promoted: promoted == Some(t),
                })
                .collect(),
            round_over: pos.is_round_over(),
            match_over: pos.is_match_over(),
        }
    }
}

/// One refill choice and the next round it leads to, as the move list gives a move: the
/// value for the player choosing (the finished round's winner).
#[derive(Serialize)]
struct RefillJson {
    /// `left` or `right`.
    choice: &'static str,
    /// Position text of the next round's start (its side to move is the round's loser).
    position: String,
    /// For the chooser: `win` or `loss` of the next round; `null` if the time limit struck
    /// first.
    value: Option<&'static str>,
    /// The next round's moves to its end with perfect play, once known.
    remoteness: Option<u32>,
    /// Who wins the next round, once known.
    winner: Option<&'static str>,
    source: Option<&'static str>,
}

impl RefillJson {
    fn of(outcome: &RefillOutcome) -> RefillJson {
        RefillJson {
            choice: outcome.choice.word(),
            position: outcome.start.to_string(),
            value: outcome.value.map(|v| v.name()),
            remoteness: outcome.remoteness,
            winner: outcome.value.map(|v| {
                if v == kamisado_solver::Value::Win {
                    outcome.chooser.name()
                } else {
                    (!outcome.chooser).name()
                }
            }),
            source: outcome.source.map(|s| s.name()),
        }
    }
}

/// What a stop left unknown of the refill choices, if anything: "time limit of 10 s
/// reached: after left, who wins round 2 is known but not in how many moves; after right,
/// who wins round 2 is not known".
fn refills_unknown(refills: &[RefillOutcome], time_limit: f64) -> Option<String> {
    let next = refills.first()?.start.round_number();
    let missing: Vec<String> = refills
        .iter()
        .filter_map(|r| match (r.value, r.remoteness) {
            (None, _) => Some(format!(
                "after {}, who wins round {next} is not known",
                r.choice
            )),
            (Some(_), None) => Some(format!(
                "after {}, who wins round {next} is known but not in how many moves",
                r.choice
            )),
            _ => None,
        })
        .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "time limit of {time_limit} s reached: {}",
            missing.join("; ")
        )
    })
}

#[derive(Serialize)]
struct LineJson {
    /// Position text of the line's start.
    start: String,
    /// The start's pending zero-length moves, played before anything else.
    zero_length_moves: Vec<String>,
    /// In a match, the refill choices too (`left`, `right`), each where it was made.
    moves: Vec<PlayedJson>,
}

#[derive(Serialize)]
struct PlayedJson {
    /// A move, or in a match a refill choice.
    #[serde(rename = "move")]
    mv: String,
    /// Who made it.
    side: &'static str,
    /// The zero-length moves that followed it, in order.
    zero_length_moves: Vec<String>,
    /// Match play: the round the move belongs to (a refill choice: the round it ends).
    #[serde(skip_serializing_if = "Option::is_none")]
    round: Option<u32>,
    /// A refill choice, not a move.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    refill: bool,
    /// A Sumo push: the towers pushed, each one square back (the pusher moves again).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pushed: Vec<PushedJson>,
}

#[derive(Serialize)]
struct PushedJson {
    side: &'static str,
    colour: &'static str,
    from: String,
    to: String,
}

fn texts(moves: impl IntoIterator<Item = Move>) -> Vec<String> {
    moves.into_iter().map(|m| m.to_string()).collect()
}

/// The towers a move pushed: those of the opponent that it moved (none unless it is a
/// push), seen by comparing the boards before and after.
fn pushed(before: &MatchPosition, after: &MatchPosition) -> Vec<PushedJson> {
    let mover = before.turn();
    Tower::all()
        .filter(|t| t.side != mover)
        .filter_map(|t| {
            let (from, to) = (before.board().square_of(t), after.board().square_of(t));
            (from != to).then(|| PushedJson {
                side: t.side.name(),
                colour: t.colour.name(),
                from: from.to_string(),
                to: to.to_string(),
            })
        })
        .collect()
}

/// The line played, move by move and round by round, with what each move caused.
fn played_line(request: &Request) -> LineJson {
    let is_match = request.is_match();
    let mut moves = Vec::new();
    for round in request.line.record.rounds() {
        let mut pos = round.start.resolve();
        let number = is_match.then(|| pos.round_number());
        for &m in &round.moves {
            let stepped = pos.step_unchecked(m);
            moves.push(PlayedJson {
                mv: m.to_string(),
                side: pos.turn().name(),
                zero_length_moves: texts(stepped.pending_zero_moves()),
                round: number,
                refill: false,
                pushed: pushed(&pos, &stepped),
            });
            pos = stepped.resolve();
        }
        if let (Some(choice), Some(end)) = (round.refill, round.result) {
            moves.push(PlayedJson {
                mv: choice.word().to_owned(),
                side: end.winner.name(),
                zero_length_moves: Vec::new(),
                round: number,
                refill: true,
                pushed: Vec::new(),
            });
        }
    }
    LineJson {
        start: request.line.start.to_string(),
        zero_length_moves: texts(request.line.start.pending_zero_moves()),
        moves,
    }
}

/// Answers a request: blocking, bounded by `cancel`. `time_limit` (seconds) is only for
/// the message when the search is stopped. Each round is asked of the oracle `app` has
/// for it (see [`kamisado_analysis::Rounds`]).
pub fn answer(
    app: &App,
    request: &Request,
    cancel: &Cancel,
    time_limit: f64,
) -> Result<Answer, SearchError> {
    let oracle = app.oracle_for(request.position())?;
    let oracle = oracle.as_ref();
    // Match play: the round's value and a perfect line first (a null-window search and
    // probes at its score), then every move.
    let early = if request.is_match() {
        let pos = request.line.given.resolve();
        oracle.position(&pos, cancel).ok().map(|v| {
            let line = perfect_line(oracle, &pos, v.outcome, None, cancel);
            (v, line)
        })
    } else {
        None
    };
    // Every move's value and the best moves' remoteness: what a click should wait for;
    // the other moves show the bounds found on the way.
    let mut analysis = analyse(oracle, &request.line.given, Depth::Best, cancel, &|_| {})?;
    let pos = analysis.position;
    let (pv, pv_complete) = match early {
        Some((verdict, line)) => {
            // Exact either way; what the rules or the database said of the position is
            // kept when the moves ran out of time.
            analysis.verdict = analysis.verdict.or(Some(verdict));
            line
        }
        None => match analysis.verdict.filter(|_| !analysis.timed_out) {
            Some(v) => perfect_line(
                oracle,
                &pos,
                v.outcome,
                analysis.best.first().copied(),
                cancel,
            ),
            None => (Vec::new(), false),
        },
    };
    // A finished round of a match that goes on: what each refill choice leads to, asked
    // of the next round's oracle (a Sumo is on its board) with what time is left.
    let refills = match pos.refill(kamisado_match::Refill::Left) {
        Ok(next) if request.is_match() => app
            .oracle_for(&next)?
            .refills(&pos, true, cancel)?
            .map_or_else(Vec::new, Vec::from),
        _ => Vec::new(),
    };
    // With a proof file: each move's match value, with what time is left.
    let match_values = match &app.match_proofs {
        Some(proofs) if request.is_match() => {
            let round_start = request
                .line
                .record
                .rounds()
                .last()
                .map_or(&request.line.start, |r| &r.start);
            match_values(proofs, round_start, &pos, cancel)
        }
        _ => None,
    };
    let message = if analysis.timed_out {
        // The server's time limit, which the visitor cannot change: no advice in flags.
        Some(analysis.time_out_fact(time_limit))
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
        refills_unknown(&refills, time_limit)
    };
    Ok(Answer {
        game: request.game,
        report: QueryReport::of(&analysis),
        legal_moves: texts(pos.legal_moves()),
        pv: texts(pv),
        pv_complete,
        line: played_line(request),
        match_play: request.is_match().then(|| MatchJson::of(&pos)),
        refills: refills.iter().map(RefillJson::of).collect(),
        match_values,
        message,
    })
}
