//! The perfect player as a KEI engine: reads commands, answers on the output, flushes
//! after every answer. `kamisado engine` runs [`serve`] on standard input and output.
//!
//! Positions may be match positions and records; when a round is over and the match goes
//! on, `go` asks for the round winner's refill choice, answered `bestmove left` or
//! `bestmove right`.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use kamisado_analysis::OracleError;
use kamisado_match::{MatchPosition, Refill};

use crate::input_line::{read_line, InputLine};
use crate::protocol::{go_movetime, Action, Command, Reply, MAX_LINE_BYTES};
use kamisado_analysis::PerfectPlayer;
use kamisado_solver::with_time_limit;

/// The share of a `go movetime` the engine spends searching; the rest is left for
/// starting up, printing and the referee's reading, so that the answer is not late.
const SEARCH_SHARE: f64 = 0.8;

/// How the engine introduces itself after `kei`.
#[derive(Clone, Debug)]
pub struct Identity {
    pub name: String,
    pub author: String,
}

/// Answers KEI commands from `input` on `output` until `quit` or the end of the input.
///
/// Commands KEI does not define are ignored (an `info string` says so); a malformed
/// `position` is reported with `info string` and forgets the position, so that the next
/// `go` answers `bestmove (none)` rather than a move for some other position. Errors are
/// only those of reading and writing.
pub fn serve(
    player: &PerfectPlayer,
    identity: &Identity,
    input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut input = input;
    let mut position: Option<MatchPosition> = None;
    while let Some(line) = read_line(&mut input, MAX_LINE_BYTES)? {
        let line = match line {
            InputLine::Text(line) => line,
            InputLine::TooLong => {
                say(&mut output, &[info("ignored a line longer than 64 KiB")])?;
                continue;
            }
            InputLine::NotText => {
                say(
                    &mut output,
                    &[info("ignored a line that is not UTF-8 text")],
                )?;
                continue;
            }
        };
        match Command::parse(&line) {
            Ok(None) if line.trim().is_empty() => {}
            Ok(None) => {
                let word = line.split_whitespace().next().unwrap_or("");
                say(
                    &mut output,
                    &[info(&format!("ignored unknown command `{word}`"))],
                )?;
            }
            Err(e) => {
                position = None;
                say(&mut output, &[info(&format!("error: {e}"))])?;
            }
            Ok(Some(command)) => match command {
                Command::Kei => say(
                    &mut output,
                    &[
                        Reply::Id {
                            field: "name".into(),
                            value: identity.name.clone(),
                        },
                        Reply::Id {
                            field: "author".into(),
                            value: identity.author.clone(),
                        },
                        Reply::KeiOk,
                    ],
                )?,
                Command::NewGame => position = None,
                Command::Position(spec) => match spec.play() {
                    Ok(record) => position = Some(record.current()),
                    Err(e) => {
                        position = None;
                        say(&mut output, &[info(&format!("error: position: {e}"))])?;
                    }
                },
                Command::Go { movetime } => {
                    let args = line
                        .trim()
                        .split_once(char::is_whitespace)
                        .map_or("", |w| w.1);
                    if let Err(bad) = go_movetime(args) {
                        let note = format!(
                            "ignored {bad}: not a whole number of milliseconds; no time limit"
                        );
                        say(&mut output, &[info(&note)])?;
                    }
                    let answer = think(player, position.as_ref(), movetime);
                    say(&mut output, &answer)?;
                }
                Command::Quit => return Ok(()),
            },
        }
    }
    Ok(())
}

fn info(text: &str) -> Reply {
    Reply::Info(format!("string {text}"))
}

fn say(output: &mut impl Write, replies: &[Reply]) -> io::Result<()> {
    for reply in replies {
        writeln!(output, "{reply}")?;
    }
    output.flush()
}

/// The answer to `go`: an `info` line with the verdict, then `bestmove`.
fn think(
    player: &PerfectPlayer,
    position: Option<&MatchPosition>,
    movetime: Option<Duration>,
) -> Vec<Reply> {
    let Some(pos) = position else {
        return vec![
            info("no position: send `position` before `go`"),
            Reply::BestMove(None),
        ];
    };
    let pos = pos.resolve();
    let budget = movetime.map(|t| t.mul_f64(SEARCH_SHARE));
    if let Some(end) = pos.round_end() {
        if let Some(winner) = pos.match_winner() {
            let what = if pos.target().points() > 1 {
                "match"
            } else {
                "game"
            };
            return vec![
                info(&format!(
                    "the {what} is over: {winner} won by {}",
                    end.reason.name()
                )),
                Reply::BestMove(None),
            ];
        }
        // Between rounds: the round's winner chooses how both home rows are refilled.
        return match with_time_limit(budget, |cancel| player.refill_choice(&pos, cancel)) {
            Ok(Some(choice)) => vec![
                info(&choice.explain(pos.round_number() + 1)),
                Reply::BestMove(Some(Action::Refill(choice.choice))),
            ],
            Ok(None) => vec![Reply::BestMove(None)],
            Err(e) => vec![
                info(&format!("{}; choosing left", why(e))),
                Reply::BestMove(Some(Action::Refill(Refill::Left))),
            ],
        };
    }
    match with_time_limit(budget, |cancel| player.best_move(&pos, cancel)) {
        Ok(Some(best)) => vec![
            Reply::Info(format!(
                "value {} remoteness {} source {}",
                best.verdict.outcome.value,
                best.verdict.outcome.remoteness,
                best.verdict.source.name()
            )),
            Reply::BestMove(Some(Action::Move(best.mv))),
        ],
        Ok(None) => vec![Reply::BestMove(None)],
        Err(e) => {
            // Out of time (or a failed search): any legal move beats forfeiting the game.
            let fallback = pos
                .winning_move()
                .or_else(|| pos.legal_moves().first().copied())
                .map(Action::Move);
            vec![
                info(&format!("{}; playing an unproven move", why(e))),
                Reply::BestMove(fallback),
            ]
        }
    }
}

fn why(e: OracleError) -> String {
    match e {
        OracleError::Stopped => "time ran out before the answer was proven".to_owned(),
        other => other.to_string(),
    }
}
