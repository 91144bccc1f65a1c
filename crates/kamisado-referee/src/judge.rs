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
//! Positions are asked about from the end of a game backwards: late positions are cheap,
//! and what their searches leave in the solver's table makes the earlier ones cheaper.

use std::collections::HashMap;
use std::time::Duration;

use kamisado_core::{EndReason, Move, Position, Side};
use kamisado_db::{Oracle, OracleError, Verdict};
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
    /// The game goes on; with perfect play from here `winner` wins in `remoteness`
    /// moves, if the position was solved.
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
    pub blunders: usize,
    pub inaccuracies: usize,
}

impl Tally {
    pub fn add(&mut self, other: &Tally) {
        self.moves += other.moves;
        self.unjudged += other.unjudged;
        self.blunders += other.blunders;
        self.inaccuracies += other.inaccuracies;
    }
}

/// A whole game judged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameJudgement {
    /// The game's start, with pending zero-length moves played.
    #[serde(serialize_with = "text_serde::display")]
    pub start: Position,
    /// The start, if it is perfect play's to win: who wins, in how many moves.
    pub start_outcome: Option<Outcome>,
    /// The game as a record line (legal moves only).
    pub record: String,
    pub moves: Vec<MoveJudgement>,
    pub result: GameResult,
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
    known: HashMap<Position, Verdict>,
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
    pub fn verdict(&mut self, pos: &Position) -> Result<Verdict, Unsolved> {
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
    /// these.
    pub fn questions(game: &PlayedGame) -> usize {
        game.positions.len()
    }

    /// Judges every legal move of `game`. `asked` is called once per position asked
    /// about (see [`Judge::questions`]).
    pub fn judge(&mut self, game: &PlayedGame, asked: &mut dyn FnMut()) -> GameJudgement {
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
            let after = verdicts[i + 1].as_ref().map(|child| {
                // The child's verdict is for its own side to move, which after zero-length
                // moves may be the mover again.
                child.outcome.through_move(child.position.turn() != mover)
            });
            let mark = match (before, after) {
                (Some(b), Some(a)) if a.value < b.value => Some(Mark::Blunder),
                (Some(b), Some(a)) if b.value == a.value && b.remoteness != a.remoteness => {
                    Some(Mark::Inaccuracy)
                }
                _ => None,
            };
            let judgement = MoveJudgement {
                number: i + 1,
                mv,
                mover,
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

        let end = game.end();
        let result = match end.end() {
            Some(e) => GameResult::Finished {
                winner: e.winner,
                reason: e.reason,
            },
            None => {
                let last = verdicts.last().copied().flatten();
                GameResult::Unfinished {
                    // Single-round Kamisado has no draws: a solved position has a winner.
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
            result,
            first_blunder,
            black,
            white,
            error: game.error.clone(),
        }
    }
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
