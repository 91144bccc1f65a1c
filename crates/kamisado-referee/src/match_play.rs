//! A match: the perfect player against an external engine, refereed move by move and
//! judged afterwards.
//!
//! The engine runs as one process for the whole match and is sent every position from
//! the game's start (`position ... moves ...`, then `go movetime <limit>`). Anything it
//! does wrong ends that game as a loss for it (an [`EngineFault`]); the process is then
//! killed and a fresh one started for the next game, so that a confused engine cannot
//! carry stale answers into it.
//!
//! Games differ in two ways: with [`EngineSides::Alternate`] the engine takes Black in
//! odd-numbered games and White in even-numbered ones, and the perfect player picks
//! uniformly among all its perfect moves (every move with the best value and
//! remoteness), drawn from a generator seeded with the match seed and the game number,
//! so that a match is the same every time it is run with the same seed and engine.

use std::collections::BTreeMap;
use std::time::Duration;

use kamisado_core::{EndReason, Move, Position, Side};
use kamisado_db::OracleError;
use kamisado_solver::Cancel;
use serde::Serialize;

use crate::judge::{GameJudgement, Judge, MoveJudgement, Tally};
use crate::player::PerfectPlayer;
use crate::process::{EngineFault, EngineProcess};
use crate::protocol::PositionSpec;
use crate::record::{record_text, PlayedGame};
use crate::text_serde;

/// The side the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineSides {
    Black,
    White,
    /// Black in games 1, 3, 5, ..., White in games 2, 4, 6, ...
    Alternate,
}

impl EngineSides {
    /// The engine's side in game `number` (1-based).
    pub fn in_game(self, number: usize) -> Side {
        match self {
            EngineSides::Black => Side::Black,
            EngineSides::White => Side::White,
            EngineSides::Alternate if number % 2 == 1 => Side::Black,
            EngineSides::Alternate => Side::White,
        }
    }
}

/// What a match is.
#[derive(Clone, Debug)]
pub struct MatchOptions {
    /// The engine's command line, run by the shell.
    pub command: String,
    pub games: usize,
    pub engine_sides: EngineSides,
    /// For each of the engine's answers: `keiok` and every `bestmove`.
    pub time_limit: Duration,
    /// Every game starts here (pending zero-length moves are played first); it must not
    /// be a finished game.
    pub start: Position,
    /// Seeds the perfect player's choice among equally perfect moves.
    pub seed: u64,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// A tower reached the opponent's home row.
    Goal,
    /// The zero-length moves went round in a circle.
    Deadlock,
    /// The engine failed (see the game's `fault`) and lost.
    Forfeit,
}

/// One game of a match.
#[derive(Clone, Debug, Serialize)]
pub struct GameReport {
    /// 1-based.
    pub number: usize,
    #[serde(serialize_with = "text_serde::display")]
    pub engine_side: Side,
    #[serde(serialize_with = "text_serde::display")]
    pub winner: Side,
    pub engine_won: bool,
    pub ending: Ending,
    /// What the engine did wrong, for a forfeit.
    pub fault: Option<EngineFault>,
    /// The legal moves played, as a record line `kamisado verify` reads.
    pub record: String,
    pub moves: usize,
    /// The engine's first move that gave away a win.
    pub engine_first_blunder: Option<MoveJudgement>,
    /// The engine's moves, judged.
    pub engine: Tally,
    /// The perfect player's moves, judged (never a blunder or an inaccuracy: a check on
    /// the referee).
    pub perfect: Tally,
    /// The engine's thinking time, from `go` to `bestmove`, added up and at its longest.
    pub engine_seconds: f64,
    pub engine_longest_seconds: f64,
    /// Every move judged.
    pub judgement: GameJudgement,
}

impl GameReport {
    /// "engine (white) lost: black won by goal after 12 moves".
    pub fn describe(&self) -> String {
        let result = if self.engine_won { "won" } else { "lost" };
        let moves = format!(
            "after {} move{}",
            self.moves,
            crate::judge::plural(self.moves)
        );
        let how = match (&self.fault, self.ending) {
            (Some(fault), _) => format!("forfeit {moves}: {fault}"),
            (None, Ending::Goal) => format!("{} won by goal {moves}", self.winner),
            (None, Ending::Deadlock) => format!("{} won by deadlock {moves}", self.winner),
            (None, Ending::Forfeit) => format!("forfeit {moves}"),
        };
        format!("engine ({}) {result}: {how}", self.engine_side)
    }
}

/// Totals over a match, from the engine's point of view.
#[derive(Clone, Debug, Default, Serialize)]
pub struct MatchSummary {
    pub games: usize,
    pub engine_wins: usize,
    pub engine_losses: usize,
    /// Losses by a fault of the engine's, also counted in `engine_losses`.
    pub forfeits: usize,
    /// Forfeits by kind of fault (`illegal`, `time_out`, `exited`, `garbage`, ...).
    pub forfeits_by_kind: BTreeMap<&'static str, usize>,
    pub engine_blunders: usize,
    pub games_with_engine_blunder: usize,
    pub engine_inaccuracies: usize,
    /// Should be zero: the perfect player's moves judged by the same judge.
    pub perfect_blunders: usize,
    pub perfect_inaccuracies: usize,
}

/// A whole match.
#[derive(Clone, Debug, Serialize)]
pub struct MatchReport {
    pub command: String,
    pub engine_name: Option<String>,
    pub engine_author: Option<String>,
    /// The games' start, as a position text.
    pub start: String,
    pub seed: u64,
    pub time_limit_ms: u128,
    /// Whether the engine ever answered `kei` with `keiok`.
    pub engine_started: bool,
    pub games: Vec<GameReport>,
    pub summary: MatchSummary,
}

/// What a match is doing, for progress displays and streamed reports.
#[derive(Debug)]
pub enum MatchEvent<'a> {
    GameStarted {
        number: usize,
        engine_side: Side,
    },
    Moved {
        number: usize,
        /// 1-based move number in the game.
        move_number: usize,
        by_engine: bool,
        mv: Move,
    },
    /// The game is over and its moves are being judged.
    Judging {
        number: usize,
    },
    GameFinished(&'a GameReport),
}

/// Plays the match. Errors only if the perfect player's own search fails (it has no time
/// limit, so only a broken solver); everything the engine does is part of the report.
///
/// An engine that fails its first start (no `keiok`) ends the match after that one
/// forfeited game, with [`MatchReport::engine_started`] false; a later failed restart
/// forfeits only its own game.
pub fn run_match(
    player: &PerfectPlayer,
    options: &MatchOptions,
    observer: &mut dyn FnMut(MatchEvent),
) -> Result<MatchReport, OracleError> {
    let start = options.start.resolve();
    let startpos = options.start == Position::start();
    let mut judge = Judge::new(player.oracle(), None);
    let mut engine: Option<EngineProcess> = None;
    let mut report = MatchReport {
        command: options.command.clone(),
        engine_name: None,
        engine_author: None,
        start: options.start.to_string(),
        seed: options.seed,
        time_limit_ms: options.time_limit.as_millis(),
        engine_started: false,
        games: Vec::with_capacity(options.games),
        summary: MatchSummary::default(),
    };

    for number in 1..=options.games {
        let engine_side = options.engine_sides.in_game(number);
        observer(MatchEvent::GameStarted {
            number,
            engine_side,
        });
        let mut rng = fastrand::Rng::with_seed(
            options.seed ^ (number as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        let mut moves: Vec<Move> = Vec::new();
        let mut pos = start;
        let mut fault = None;
        let (mut thinking, mut longest) = (Duration::ZERO, Duration::ZERO);

        let ready = match engine.take() {
            Some(mut running) => running.new_game().map(|()| running),
            None => EngineProcess::start(&options.command, options.time_limit),
        };
        match ready {
            Ok(running) => {
                report.engine_started = true;
                if report.engine_name.is_none() {
                    report.engine_name = running.name().map(str::to_owned);
                    report.engine_author = running.author().map(str::to_owned);
                }
                engine = Some(running);
            }
            Err(f) => fault = Some(f),
        }

        while fault.is_none() && !pos.is_over() {
            let by_engine = pos.turn() == engine_side;
            let mv = if by_engine {
                let Some(running) = engine.as_mut() else {
                    break;
                };
                let spec = PositionSpec {
                    start: options.start,
                    startpos,
                    moves: moves.clone(),
                };
                match running.best_move(&spec, options.time_limit) {
                    Ok((mv, took)) => {
                        thinking += took;
                        longest = longest.max(took);
                        match pos.check_move(mv) {
                            Ok(()) => mv,
                            Err(reason) => {
                                fault = Some(EngineFault::Illegal {
                                    mv,
                                    reason: reason.to_string(),
                                });
                                break;
                            }
                        }
                    }
                    Err(f) => {
                        fault = Some(f);
                        break;
                    }
                }
            } else {
                match player.random_best_move(&pos, &mut rng, &Cancel::new())? {
                    Some(choice) => choice.mv,
                    // Only a finished game has no perfect move, and the loop stops there.
                    None => break,
                }
            };
            moves.push(mv);
            pos = pos.play_unchecked(mv);
            observer(MatchEvent::Moved {
                number,
                move_number: moves.len(),
                by_engine,
                mv,
            });
        }
        if fault.is_some() {
            // Killed now: whatever it was doing must not leak into the next game.
            engine = None;
        }

        observer(MatchEvent::Judging { number });
        let moves_text: Vec<String> = moves.iter().map(Move::to_string).collect();
        let played = PlayedGame::play(&options.start, startpos, &moves_text.join(" "));
        let judgement = judge.judge(&played, &mut || {});
        let (winner, ending) = match (&fault, pos.end()) {
            (Some(_), _) => (!engine_side, Ending::Forfeit),
            (None, Some(end)) => (
                end.winner,
                match end.reason {
                    EndReason::Goal => Ending::Goal,
                    EndReason::Deadlock => Ending::Deadlock,
                },
            ),
            // The loop ends only at the end of the game or on a fault.
            (None, None) => (!engine_side, Ending::Forfeit),
        };
        let game = GameReport {
            number,
            engine_side,
            winner,
            engine_won: winner == engine_side,
            ending,
            fault,
            record: record_text(&options.start, startpos, &moves),
            moves: moves.len(),
            engine_first_blunder: judgement.first_blunder_by(engine_side).cloned(),
            engine: *judgement.tally(engine_side),
            perfect: *judgement.tally(!engine_side),
            engine_seconds: thinking.as_secs_f64(),
            engine_longest_seconds: longest.as_secs_f64(),
            judgement,
        };
        add_to_summary(&mut report.summary, &game);
        observer(MatchEvent::GameFinished(&game));
        report.games.push(game);
        if !report.engine_started {
            // An engine that cannot even start once would only forfeit every game the
            // same way, each after a full time limit: one game says it.
            break;
        }
    }
    if let Some(running) = engine {
        running.quit();
    }
    Ok(report)
}

fn add_to_summary(summary: &mut MatchSummary, game: &GameReport) {
    summary.games += 1;
    if game.engine_won {
        summary.engine_wins += 1;
    } else {
        summary.engine_losses += 1;
    }
    if let Some(fault) = &game.fault {
        summary.forfeits += 1;
        *summary.forfeits_by_kind.entry(fault.kind()).or_default() += 1;
    }
    summary.engine_blunders += game.engine.blunders;
    summary.games_with_engine_blunder += (game.engine.blunders > 0) as usize;
    summary.engine_inaccuracies += game.engine.inaccuracies;
    summary.perfect_blunders += game.perfect.blunders;
    summary.perfect_inaccuracies += game.perfect.inaccuracies;
}
