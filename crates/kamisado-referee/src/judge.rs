//! Every move of a game judged exactly, for the player who made it.
//!
//! For each move the judge asks the [`Oracle`] for the value and remoteness of the
//! position before it (what the mover could get with perfect play) and of the position
//! after it (what the move leaves), both seen by the mover: after a move and its chain of
//! zero-length moves the same player may be to move again, so sides are compared, never
//! assumed to alternate. A move is
//! - a **blunder** when the move makes the mover's value worse: a win given away (to a
//!   loss, or to a draw in a game with draws), or a draw turned into a loss;
//! - an **inaccuracy** when it keeps the value but not the best remoteness: the winner's
//!   win gets longer, or the loser's loss shorter, than perfect play allows.
//!
//! In a match every round is judged on its own (value and remoteness are the round's), and
//! so is each refill choice between rounds, by who wins the next round: a choice after
//! which the chooser loses the next round where the other direction wins it is a blunder.
//! (The next round's remoteness is not asked: proving the value of a round's start is
//! cheap, its exact remoteness a full solve.)
//!
//! Positions are asked about from the end of a game backwards: late positions are cheap,
//! and what their searches leave in the solver's table makes the earlier ones cheaper.

use std::collections::HashMap;
use std::time::Duration;

use kamisado_analysis::{Oracle, OracleError, Verdict};
use kamisado_core::{EndReason, Move, Side};
use kamisado_match::{MatchPosition, Refill, Target};
use kamisado_solver::{Outcome, Value};
use serde::Serialize;

use crate::record::{PlayedGame, RecordError};
use crate::text_serde;
use kamisado_solver::with_time_limit;

/// What a move did wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// The move made the mover's value worse (a win given away, a draw lost).
    Blunder,
    /// The move kept the value but made the winner slower or the loser faster than
    /// perfect play.
    Inaccuracy,
}

impl Mark {
    pub const fn name(self) -> &'static str {
        match self {
            Mark::Blunder => "blunder",
            Mark::Inaccuracy => "inaccuracy",
        }
    }
}

/// One move judged for its mover.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveJudgement {
    /// 1-based number of the move in the game (moves of positive length).
    pub number: usize,
    #[serde(rename = "move", serialize_with = "text_serde::display")]
    pub mv: Move,
    #[serde(serialize_with = "text_serde::display")]
    pub mover: Side,
    /// The round the move belongs to, in a match (a target above one point).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// The zero-length moves that followed automatically.
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "text_serde::display_all"
    )]
    pub zero_length_after: Vec<Move>,
    /// The position before the move, for the mover: the best any move could do. `None`
    /// if the position was not solved within the time limit.
    pub before: Option<Outcome>,
    /// What this move leaves the mover, counting the move itself. `None` if unsolved.
    pub after: Option<Outcome>,
    pub mark: Option<Mark>,
}

impl MoveJudgement {
    /// Whether both sides of the move were solved.
    pub fn is_judged(&self) -> bool {
        self.before.is_some() && self.after.is_some()
    }
}

/// How a game stands after its last legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum GameResult {
    /// The game is over.
    Finished {
        #[serde(serialize_with = "text_serde::display")]
        winner: Side,
        #[serde(serialize_with = "reason_name")]
        reason: EndReason,
    },
    /// A round of a match is over and the winner's refill choice is next.
    BetweenRounds {
        #[serde(serialize_with = "text_serde::display")]
        winner: Side,
        #[serde(serialize_with = "reason_name")]
        reason: EndReason,
    },
    /// The game goes on; with perfect play from here `winner` wins (the round being
    /// played) in `remoteness` moves, if the position was solved.
    Unfinished {
        #[serde(serialize_with = "text_serde::display_option")]
        winner: Option<Side>,
        remoteness: Option<u32>,
    },
}

fn reason_name<S: serde::Serializer>(reason: &EndReason, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(reason.name())
}

impl GameResult {
    /// "black won by goal", "unfinished: white wins in 9 with perfect play".
    pub fn describe(&self) -> String {
        match self {
            GameResult::Finished { winner, reason } => format!("{winner} won by {}", reason.name()),
            GameResult::BetweenRounds { winner, reason } => format!(
                "unfinished: {winner} won the round by {}; the refill choice is next",
                reason.name()
            ),
            GameResult::Unfinished {
                winner: Some(winner),
                remoteness: Some(r),
            } => format!(
                "unfinished: {winner} wins in {r} move{} with perfect play",
                plural(*r as usize)
            ),
            GameResult::Unfinished { .. } => {
                "unfinished (the last position was not solved in time)".to_owned()
            }
        }
    }
}

/// Counts for one side of a game or a file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub moves: usize,
    /// Moves whose position before or after was not solved within the time limit.
    pub unjudged: usize,
    /// Blunders and inaccuracies include those of refill choices.
    pub blunders: usize,
    pub inaccuracies: usize,
    /// Refill choices made (matches only).
    #[serde(skip_serializing_if = "is_zero")]
    pub refills: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Tally {
    pub fn add(&mut self, other: &Tally) {
        self.moves += other.moves;
        self.refills += other.refills;
        self.unjudged += other.unjudged;
        self.blunders += other.blunders;
        self.inaccuracies += other.inaccuracies;
    }
}

/// A refill choice between two rounds of a match, judged for the round's winner who made
/// it: who wins the next round after each direction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RefillJudgement {
    /// The round that ended (the next one is `round + 1`).
    pub round: u32,
    #[serde(serialize_with = "text_serde::display")]
    pub chooser: Side,
    #[serde(serialize_with = "text_serde::display")]
    pub choice: Refill,
    /// The next round's value for the chooser after `left` and after `right` (`None` if
    /// not proved within the time limit).
    pub left: Option<Value>,
    pub right: Option<Value>,
    /// A blunder if the other direction wins the next round and this one loses it.
    pub mark: Option<Mark>,
}

impl RefillJudgement {
    /// The chooser's value of the next round after `choice`.
    pub fn after(&self, choice: Refill) -> Option<Value> {
        match choice {
            Refill::Left => self.left,
            Refill::Right => self.right,
        }
    }
}

/// Both players' points in a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Points {
    pub black: u32,
    pub white: u32,
}

impl Points {
    pub fn of(pos: &MatchPosition) -> Points {
        Points {
            black: pos.score(Side::Black),
            white: pos.score(Side::White),
        }
    }

    pub fn of_side(&self, side: Side) -> u32 {
        match side {
            Side::Black => self.black,
            Side::White => self.white,
        }
    }
}

/// A whole game judged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameJudgement {
    /// The game's start, with pending zero-length moves played.
    #[serde(serialize_with = "text_serde::display")]
    pub start: MatchPosition,
    /// The start, if it is perfect play's to win: who wins, in how many moves.
    pub start_outcome: Option<Outcome>,
    /// The game as a record line (legal moves only).
    pub record: String,
    pub moves: Vec<MoveJudgement>,
    /// The refill choices between rounds (matches only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refills: Vec<RefillJudgement>,
    pub result: GameResult,
    /// In a match (a target above one point): the points at the end of the record, and
    /// the round it got to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<Points>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// The number of the first blunder, if any.
    pub first_blunder: Option<usize>,
    /// Black's moves.
    pub black: Tally,
    /// White's moves.
    pub white: Tally,
    /// Why the record stops early: the rest of its line was not played.
    pub error: Option<RecordError>,
}

impl GameJudgement {
    pub fn tally(&self, side: Side) -> &Tally {
        match side {
            Side::Black => &self.black,
            Side::White => &self.white,
        }
    }

    /// Both sides together.
    pub fn total(&self) -> Tally {
        let mut total = self.black;
        total.add(&self.white);
        total
    }

    pub fn first_blunder(&self) -> Option<&MoveJudgement> {
        let n = self.first_blunder?;
        self.moves.get(n - 1)
    }

    /// The first blunder by `side`.
    pub fn first_blunder_by(&self, side: Side) -> Option<&MoveJudgement> {
        self.moves
            .iter()
            .find(|m| m.mover == side && m.mark == Some(Mark::Blunder))
    }
}

/// Why a position got no verdict.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unsolved {
    #[error("not solved within the time limit")]
    TimedOut,
    #[error("{0}")]
    Failed(OracleError),
}

/// Asks the oracle about positions, with an optional time limit on each, and remembers
/// the answers (games of one file or one match share their openings).
pub struct Judge<'a> {
    oracle: &'a Oracle,
    time_limit: Option<Duration>,
    known: HashMap<MatchPosition, Verdict>,
}

impl<'a> Judge<'a> {
    /// A judge that gives each position at most `time_limit` of search.
    pub fn new(oracle: &'a Oracle, time_limit: Option<Duration>) -> Judge<'a> {
        Judge {
            oracle,
            time_limit,
            known: HashMap::new(),
        }
    }

    pub fn oracle(&self) -> &Oracle {
        self.oracle
    }

    /// The verdict on a position (pending zero-length moves played first).
    pub fn verdict(&mut self, pos: &MatchPosition) -> Result<Verdict, Unsolved> {
        if let Some(v) = self.known.get(pos) {
            return Ok(*v);
        }
        let oracle = self.oracle;
        let answer = with_time_limit(self.time_limit, |cancel| oracle.position(pos, cancel));
        match answer {
            Ok(v) => {
                self.known.insert(*pos, v);
                Ok(v)
            }
            Err(OracleError::Stopped) => Err(Unsolved::TimedOut),
            Err(e) => Err(Unsolved::Failed(e)),
        }
    }

    /// How many positions [`Judge::judge`] asks about for `game`: progress bars count
    /// these (every position played from, and for each refill choice the next round's
    /// start after the other direction).
    pub fn questions(game: &PlayedGame) -> usize {
        game.positions.len() + refills(game).count()
    }

    /// Judges every legal move and refill choice of `game`. `asked` is called once per
    /// position asked about (see [`Judge::questions`]).
    pub fn judge(&mut self, game: &PlayedGame, asked: &mut dyn FnMut()) -> GameJudgement {
        let in_match = game.given.target() != Target::Single;
        let mut verdicts: Vec<Option<Verdict>> = vec![None; game.positions.len()];
        for (i, pos) in game.positions.iter().enumerate().rev() {
            verdicts[i] = self.verdict(pos).ok();
            asked();
        }

        let mut moves = Vec::with_capacity(game.moves.len());
        let (mut black, mut white) = (Tally::default(), Tally::default());
        let mut first_blunder = None;
        for (i, &mv) in game.moves.iter().enumerate() {
            let before_pos = game.positions[i];
            let mover = before_pos.turn();
            let before = verdicts[i].as_ref().map(|v| v.outcome);
            let after_pos = game.after(i);
            let after_verdict = if after_pos == game.positions[i + 1] {
                verdicts[i + 1]
            } else {
                // A round-ending move followed by a refill: the rules answer.
                self.verdict(&after_pos).ok()
            };
            let after = after_verdict.as_ref().map(|child| {
                // The child's verdict is for its own side to move, which after zero-length
                // moves (or a push) may be the mover again.
                child.outcome.through_move(child.position.turn() != mover)
            });
            let mark = match (before, after) {
                (Some(b), Some(a)) => mark_of(b, a),
                _ => None,
            };
            let judgement = MoveJudgement {
                number: i + 1,
                mv,
                mover,
                round: in_match.then(|| before_pos.round_number()),
                zero_length_after: game.zero_length_after(i),
                before,
                after,
                mark,
            };
            let tally = match mover {
                Side::Black => &mut black,
                Side::White => &mut white,
            };
            tally.moves += 1;
            if !judgement.is_judged() {
                tally.unjudged += 1;
            }
            match mark {
                Some(Mark::Blunder) => {
                    tally.blunders += 1;
                    first_blunder.get_or_insert(i + 1);
                }
                Some(Mark::Inaccuracy) => tally.inaccuracies += 1,
                None => {}
            }
            moves.push(judgement);
        }

        let mut refill_judgements = Vec::new();
        for (finished, choice) in refills(game).collect::<Vec<_>>() {
            let judgement = self.judge_refill(&finished, choice);
            asked();
            let tally = match judgement.chooser {
                Side::Black => &mut black,
                Side::White => &mut white,
            };
            tally.refills += 1;
            match judgement.mark {
                Some(Mark::Blunder) => tally.blunders += 1,
                Some(Mark::Inaccuracy) => tally.inaccuracies += 1,
                None => {}
            }
            refill_judgements.push(judgement);
        }

        let end = game.end();
        let result = match end.round_end() {
            Some(e) if end.is_match_over() => GameResult::Finished {
                winner: e.winner,
                reason: e.reason,
            },
            Some(e) => GameResult::BetweenRounds {
                winner: e.winner,
                reason: e.reason,
            },
            None => {
                let last = verdicts.last().copied().flatten();
                GameResult::Unfinished {
                    winner: last.and_then(|v| match v.outcome.value {
                        Value::Win => Some(v.position.turn()),
                        Value::Loss => Some(!v.position.turn()),
                        Value::Draw => None,
                    }),
                    remoteness: last.map(|v| v.outcome.remoteness),
                }
            }
        };
        GameJudgement {
            start: game.positions[0],
            start_outcome: verdicts[0].as_ref().map(|v| v.outcome),
            record: game.record(),
            moves,
            refills: refill_judgements,
            result,
            score: in_match.then(|| Points::of(&end)),
            round: in_match.then(|| end.round_number()),
            first_blunder,
            black,
            white,
            error: game.error.clone(),
        }
    }

    /// Who wins the next round after each refill choice, for the chooser; the choice a
    /// blunder if the other direction wins it and this one does not.
    fn judge_refill(&mut self, finished: &MatchPosition, choice: Refill) -> RefillJudgement {
        let chooser = finished
            .round_end()
            .map_or(finished.turn(), |end| end.winner);
        let oracle = self.oracle;
        let time_limit = self.time_limit;
        let value_after = |direction: Refill| {
            let next = finished.refill(direction).ok()?.resolve();
            let (value, _) =
                with_time_limit(time_limit, |cancel| oracle.value(&next, cancel)).ok()?;
            // The next round's start is for its side to move, the round's loser.
            Some(if next.turn() == chooser {
                value
            } else {
                value.flip()
            })
        };
        let (left, right) = (value_after(Refill::Left), value_after(Refill::Right));
        let (chosen, other) = match choice {
            Refill::Left => (left, right),
            Refill::Right => (right, left),
        };
        let mark = match (chosen, other) {
            (Some(c), Some(o)) if c < o => Some(Mark::Blunder),
            _ => None,
        };
        RefillJudgement {
            round: finished.round_number(),
            chooser,
            choice,
            left,
            right,
            mark,
        }
    }
}

/// The mark of a choice that leaves `after` where the best choice gave `best`.
fn mark_of(best: Outcome, after: Outcome) -> Option<Mark> {
    if after.value < best.value {
        Some(Mark::Blunder)
    } else if best.value == after.value && best.remoteness != after.remoteness {
        Some(Mark::Inaccuracy)
    } else {
        None
    }
}

/// Every refill choice of a game: the finished round it follows, and the choice.
fn refills(game: &PlayedGame) -> impl Iterator<Item = (MatchPosition, Refill)> + '_ {
    game.record.rounds().iter().filter_map(|round| {
        let choice = round.refill?;
        let finished = round
            .moves
            .iter()
            .fold(round.start, |pos, &m| pos.play_unchecked(m));
        Some((finished, choice))
    })
}

/// Counts over a whole file of games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FileSummary {
    pub games: usize,
    /// Games whose record stops early (a bad word or an illegal move).
    pub games_with_errors: usize,
    pub games_with_blunders: usize,
    pub finished_games: usize,
    pub black: Tally,
    pub white: Tally,
    pub total: Tally,
}

/// Adds up the games of a file.
pub fn summarise(games: &[GameJudgement]) -> FileSummary {
    let mut summary = FileSummary {
        games: games.len(),
        ..FileSummary::default()
    };
    for game in games {
        summary.games_with_errors += game.error.is_some() as usize;
        summary.games_with_blunders += game.first_blunder.is_some() as usize;
        summary.finished_games += matches!(game.result, GameResult::Finished { .. }) as usize;
        summary.black.add(&game.black);
        summary.white.add(&game.white);
    }
    summary.total = summary.black;
    summary.total.add(&summary.white);
    summary
}

/// "s" unless one.
pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
