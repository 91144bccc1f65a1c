//! A match: the perfect player against an external engine, refereed move by move and
//! judged afterwards.
//!
//! Each game starts from [`MatchOptions::start`]. With a target of one point (a single
//! round) a game is one round; with a higher target (Standard 3, Long 7, Marathon 15) a
//! game is a whole match of Kamisado: round after round until one player's points reach
//! the target, with the round winner's refill choice between rounds (the engine is asked
//! for it with `go` and answers `bestmove left` or `bestmove right`; the perfect player
//! picks the direction that wins the next round if one does). Rounds and points are
//! counted as well as games.
//!
//! The engine runs as one process for the whole series of games and is sent every
//! position from the game's start (`position ... moves ...`, then `go movetime <limit>`).
//! Anything it does wrong ends that game (the whole match) as a loss for it (an
//! [`EngineFault`]); the process is then killed and a fresh one started for the next
//! game, so that a confused engine cannot carry stale answers into it.
//!
//! Games differ in two ways: with [`EngineSides::Alternate`] the engine takes Black in
//! odd-numbered games and White in even-numbered ones, and the perfect player picks
//! uniformly among all its perfect moves (every move with the best value and
//! remoteness), drawn from a generator seeded with the match seed and the game number,
//! so that a match is the same every time it is run with the same seed and engine.

use std::collections::BTreeMap;
use std::time::Duration;

use kamisado_analysis::OracleError;
use kamisado_core::{EndReason, Move, Side};
use kamisado_match::{MatchPosition, MatchRecord, Refill, Target};
use kamisado_solver::Cancel;
use serde::Serialize;

use crate::judge::{GameJudgement, Judge, MoveJudgement, Tally};
use crate::process::{EngineFault, EngineProcess};
use crate::protocol::{actions_text, Action, PositionSpec};
use crate::record::{record_text, PlayedGame};
use crate::text_serde;
use kamisado_analysis::PerfectPlayer;

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
    /// be a finished round. Its target says what a game is: one round (1 point) or a
    /// whole match (3, 7 or 15).
    pub start: MatchPosition,
    /// Seeds the perfect player's choice among equally perfect moves.
    pub seed: u64,
}

/// How a game (its last round) ended.
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
    /// The legal moves played (and refill choices, in a match), as a record line
    /// `kamisado verify` reads.
    pub record: String,
    /// Moves of positive length, all rounds together.
    pub moves: usize,
    /// The points a game is played to: 1 (one round) or a match's target.
    pub target: u32,
    /// Rounds finished.
    pub rounds: usize,
    pub engine_rounds_won: usize,
    /// Points at the end (a round won by a tower of rank r scores 2^r).
    pub engine_points: u32,
    pub perfect_points: u32,
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
    /// "engine (white) lost: black won by goal after 12 moves"; for a match, "engine
    /// (white) lost the match 1-3: black won round 3 by goal after 41 moves in 3 rounds".
    pub fn describe(&self) -> String {
        if self.target > 1 {
            return self.describe_match();
        }
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

    fn describe_match(&self) -> String {
        let result = if self.engine_won { "won" } else { "lost" };
        let played = format!(
            "after {} move{} in {} round{}",
            self.moves,
            crate::judge::plural(self.moves),
            self.rounds,
            crate::judge::plural(self.rounds)
        );
        let how = match (&self.fault, self.ending) {
            (Some(fault), _) => format!("forfeit {played}: {fault}"),
            (None, Ending::Goal) => {
                format!("{} won round {} by goal {played}", self.winner, self.rounds)
            }
            (None, Ending::Deadlock) => {
                format!(
                    "{} won round {} by deadlock {played}",
                    self.winner, self.rounds
                )
            }
            (None, Ending::Forfeit) => format!("forfeit {played}"),
        };
        format!(
            "engine ({}) {result} the match {}-{}: {how}",
            self.engine_side, self.engine_points, self.perfect_points
        )
    }
}

/// Totals over a series of games, from the engine's point of view.
#[derive(Clone, Debug, Default, Serialize)]
pub struct MatchSummary {
    /// Games: single rounds, or whole matches.
    pub games: usize,
    pub engine_wins: usize,
    pub engine_losses: usize,
    /// Losses by a fault of the engine's, also counted in `engine_losses`.
    pub forfeits: usize,
    /// Forfeits by kind of fault (`illegal`, `time_out`, `exited`, `garbage`, ...).
    pub forfeits_by_kind: BTreeMap<&'static str, usize>,
    /// Rounds finished, over all games, and those the engine won.
    pub rounds: usize,
    pub engine_rounds_won: usize,
    /// Points over all games.
    pub engine_points: u32,
    pub perfect_points: u32,
    pub engine_blunders: usize,
    pub games_with_engine_blunder: usize,
    pub engine_inaccuracies: usize,
    /// Should be zero: the perfect player's moves judged by the same judge.
    pub perfect_blunders: usize,
    pub perfect_inaccuracies: usize,
}

/// A whole series of games.
#[derive(Clone, Debug, Serialize)]
pub struct MatchReport {
    pub command: String,
    pub engine_name: Option<String>,
    pub engine_author: Option<String>,
    /// The games' start, as a position text.
    pub start: String,
    /// The points a game is played to: 1 (a game is one round) or a match's target.
    pub target: u32,
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
        /// 1-based round number (1 in a single round).
        round: u32,
        /// 1-based move number in the game.
        move_number: usize,
        by_engine: bool,
        mv: Move,
    },
    /// A round of a match is over and its winner chose how to refill.
    Refilled {
        number: usize,
        /// The round that ended.
        round: u32,
        by_engine: bool,
        choice: Refill,
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
    let startpos = options.start == MatchPosition::start(Target::Single);
    let mut judge = Judge::new(player.oracle(), None);
    let mut engine: Option<EngineProcess> = None;
    let mut report = MatchReport {
        command: options.command.clone(),
        engine_name: None,
        engine_author: None,
        start: options.start.to_string(),
        target: options.start.target().points(),
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
        let mut record = MatchRecord::new(options.start);
        let mut actions: Vec<Action> = Vec::new();
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

        while fault.is_none() && !record.current().is_match_over() {
            let pos = record.current();
            let round_end = pos.round_end();
            // Between rounds the winner chooses; otherwise the side to move moves.
            let engine_to_act = match round_end {
                Some(end) => end.winner == engine_side,
                None => pos.turn() == engine_side,
            };
            let action = if engine_to_act {
                let Some(running) = engine.as_mut() else {
                    break;
                };
                let spec = PositionSpec {
                    start: options.start,
                    startpos,
                    actions: actions.clone(),
                };
                match running.best_move(&spec, options.time_limit) {
                    Ok((action, took)) => {
                        thinking += took;
                        longest = longest.max(took);
                        match check_action(&pos, action) {
                            Ok(()) => action,
                            Err(reason) => {
                                fault = Some(EngineFault::Illegal { mv: action, reason });
                                break;
                            }
                        }
                    }
                    Err(f) => {
                        fault = Some(f);
                        break;
                    }
                }
            } else if round_end.is_some() {
                match player.refill_choice(&pos, &Cancel::new())? {
                    Some(choice) => Action::Refill(choice.choice),
                    // Only a finished match has no choice, and the loop stops there.
                    None => break,
                }
            } else {
                match player.random_best_move(&pos, &mut rng, &Cancel::new())? {
                    Some(choice) => Action::Move(choice.mv),
                    // Only a finished round has no perfect move, and refills come first.
                    None => break,
                }
            };
            actions.push(action);
            match action {
                Action::Move(mv) => {
                    // Checked above (the engine's) or chosen among the legal moves.
                    if record.play(mv).is_err() {
                        break;
                    }
                    observer(MatchEvent::Moved {
                        number,
                        round: pos.round_number(),
                        move_number: actions
                            .iter()
                            .filter(|a| matches!(a, Action::Move(_)))
                            .count(),
                        by_engine: engine_to_act,
                        mv,
                    });
                }
                Action::Refill(choice) => {
                    if record.refill(choice).is_err() {
                        break;
                    }
                    observer(MatchEvent::Refilled {
                        number,
                        round: pos.round_number(),
                        by_engine: engine_to_act,
                        choice,
                    });
                }
            }
        }
        if fault.is_some() {
            // Killed now: whatever it was doing must not leak into the next game.
            engine = None;
        }

        observer(MatchEvent::Judging { number });
        let played = PlayedGame::play(&options.start, startpos, &actions_text(&actions));
        let judgement = judge.judge(&played, &mut || {});
        let end = record.current();
        let (winner, ending) = match (&fault, end.match_winner(), end.round_end()) {
            (Some(_), _, _) => (!engine_side, Ending::Forfeit),
            (None, Some(winner), Some(last)) => (
                winner,
                match last.reason {
                    EndReason::Goal => Ending::Goal,
                    EndReason::Deadlock => Ending::Deadlock,
                },
            ),
            // The loop ends only at the end of the match or on a fault.
            _ => (!engine_side, Ending::Forfeit),
        };
        let finished: Vec<_> = record
            .rounds()
            .iter()
            .filter_map(|round| round.result)
            .collect();
        let game = GameReport {
            number,
            engine_side,
            winner,
            engine_won: winner == engine_side,
            ending,
            fault,
            record: record_text(&options.start, startpos, &record),
            moves: played.moves.len(),
            target: options.start.target().points(),
            rounds: finished.len(),
            engine_rounds_won: finished.iter().filter(|r| r.winner == engine_side).count(),
            engine_points: end.score(engine_side),
            perfect_points: end.score(!engine_side),
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

/// Whether an engine's answer is what the position asks for: a legal move while a round
/// is played, a refill choice between rounds. The reason if not.
fn check_action(pos: &MatchPosition, action: Action) -> Result<(), String> {
    match (pos.round_end(), action) {
        (None, Action::Move(mv)) => pos.check_move(mv).map_err(|e| e.to_string()),
        (None, Action::Refill(_)) => Err(
            "a refill choice is due only after a round ends, and this round goes on".to_owned(),
        ),
        (Some(_), Action::Refill(choice)) => pos.refill(choice).map(drop).map_err(|e| e.to_string()),
        (Some(end), Action::Move(_)) => Err(format!(
            "the round is over ({} won it by {}): the winner's refill choice, `left` or `right`, is due",
            end.winner,
            end.reason.name()
        )),
    }
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
    summary.rounds += game.rounds;
    summary.engine_rounds_won += game.engine_rounds_won;
    summary.engine_points += game.engine_points;
    summary.perfect_points += game.perfect_points;
    summary.engine_blunders += game.engine.blunders;
    summary.games_with_engine_blunder += (game.engine.blunders > 0) as usize;
    summary.engine_inaccuracies += game.engine.inaccuracies;
    summary.perfect_blunders += game.perfect.blunders;
    summary.perfect_inaccuracies += game.perfect.inaccuracies;
}
