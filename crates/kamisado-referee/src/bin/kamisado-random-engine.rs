//! `kamisado-random-engine`: a deliberately weak KEI engine that plays a random legal
//! move. It exists to be refereed: the tests play it against the perfect player, and its
//! `--fault` switch makes it misbehave on purpose so that the referee's handling of broken
//! engines can be tested. It is also a small, complete example for engine authors: it
//! uses only the rules crates (the match rules, of which a single round is the match to
//! one point), not the referee's own protocol code. Between the rounds of a match, asked
//! for the round winner's refill choice, it answers `left` or `right` at random.
//!
//! ```text
//! kamisado-random-engine [--seed N] [--fault KIND] [--fault-after N]
//!   --seed N         seed of the move choice (default 1): the same seed, the same games
//!   --fault KIND     misbehave at a `go`: garbage (print nonsense), silent (never answer),
//!                    exit (exit with status 3), illegal (answer an illegal move),
//!                    none (answer `bestmove (none)`), twice (answer two bestmoves)
//!   --fault-after N  answer N `go`s properly first (default 0)
//! ```

use std::io::{self, BufRead, Write};

/// What `--help` prints: the usage in the module comment above, and an example.
const HELP: &str = "\
A KEI engine that plays a random legal move, and misbehaves on purpose when asked.

Usage: kamisado-random-engine [--seed N] [--fault KIND] [--fault-after N]

  --seed N         seed of the move choice (default 1): the same seed, the same games
  --fault KIND     misbehave at a `go`: garbage (print nonsense), silent (never answer),
                   exit (exit with status 3), illegal (answer an illegal move),
                   none (answer `bestmove (none)`), twice (answer two bestmoves)
  --fault-after N  answer N `go`s properly first (default 0)

Example:
  kamisado match --engine \"kamisado-random-engine --fault illegal --fault-after 3\" --games 2
";
use std::process::ExitCode;

use kamisado_match::{MatchPosition, MatchRecord, Move, Square, Target};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Fault {
    Garbage,
    Silent,
    Exit,
    Illegal,
    NoMove,
    Twice,
}

struct Options {
    seed: u64,
    fault: Option<Fault>,
    fault_after: u64,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        seed: 1,
        fault: None,
        fault_after: 0,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--seed" => {
                options.seed = value("--seed")?
                    .parse()
                    .map_err(|_| "--seed: expected a number".to_owned())?
            }
            "--fault-after" => {
                options.fault_after = value("--fault-after")?
                    .parse()
                    .map_err(|_| "--fault-after: expected a number".to_owned())?
            }
            "--fault" => {
                options.fault = Some(match value("--fault")?.as_str() {
                    "garbage" => Fault::Garbage,
                    "silent" => Fault::Silent,
                    "exit" => Fault::Exit,
                    "illegal" => Fault::Illegal,
                    "none" => Fault::NoMove,
                    "twice" => Fault::Twice,
                    other => return Err(format!("--fault: unknown kind `{other}`")),
                })
            }
            "--help" | "-h" => {
                print!("{HELP}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument `{other}` (see --help)")),
        }
    }
    Ok(options)
}

/// `startpos [moves ...]` or `<board> <side> <active> [<target>] [moves ...]`; the moves
/// may include the refill words `left` and `right` between the rounds of a match.
fn parse_position(words: &[&str]) -> Result<MatchPosition, String> {
    let (start, rest) = match words {
        ["startpos", rest @ ..] => (MatchPosition::start(Target::Single), rest),
        [board, side, active, rest @ ..] => {
            let (target, rest) = match rest {
                [target, rest @ ..] if *target != "moves" => (Some(*target), rest),
                rest => (None, rest),
            };
            let text = match target {
                Some(target) => format!("{board} {side} {active} {target}"),
                None => format!("{board} {side} {active}"),
            };
            (
                text.parse::<MatchPosition>().map_err(|e| e.to_string())?,
                rest,
            )
        }
        _ => return Err("expected `startpos` or a position text".into()),
    };
    let moves = match rest {
        [] => &[][..],
        ["moves", moves @ ..] => moves,
        [other, ..] => return Err(format!("unexpected `{other}`")),
    };
    MatchRecord::parse(start, &moves.join(" "))
        .map(|record| record.current())
        .map_err(|e| e.to_string())
}

/// A move in the right notation that the rules forbid: from an empty square.
fn illegal_move(pos: &MatchPosition) -> Move {
    let empty = Square::all()
        .find(|&sq| pos.board().tower_at(sq).is_none())
        .unwrap_or(Square::new(27));
    Move::new(empty, Square::new((empty.index() as u8 + 8) % 64))
}

/// The answer to `go`: a refill choice between rounds, else a random legal move, else
/// `(none)` (no position, or the match is over).
fn random_answer(position: Option<&MatchPosition>, random: &mut fastrand::Rng) -> String {
    let Some(pos) = position else {
        return "(none)".into();
    };
    let choices = pos.refill_choices();
    if !choices.is_empty() {
        return choices[random.usize(..choices.len())].to_string();
    }
    let legal = pos.legal_moves();
    if legal.is_empty() {
        "(none)".into()
    } else {
        legal[random.usize(..legal.len())].to_string()
    }
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(options) => options,
        Err(e) => {
            eprintln!("kamisado-random-engine: {e}");
            return ExitCode::from(2);
        }
    };
    let mut random = fastrand::Rng::with_seed(options.seed);
    let mut position: Option<MatchPosition> = None;
    let mut answered = 0u64;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply: Vec<String> = match words.as_slice() {
            ["kei", ..] => vec![
                "id name kamisado-random-engine".into(),
                "id author the kamisado project".into(),
                "keiok".into(),
            ],
            ["keinewgame", ..] => {
                position = None;
                vec![]
            }
            ["position", rest @ ..] => match parse_position(rest) {
                Ok(pos) => {
                    position = Some(pos);
                    vec![]
                }
                Err(e) => {
                    position = None;
                    vec![format!("info string bad position: {e}")]
                }
            },
            ["go", ..] => {
                let fault = options.fault.filter(|_| answered >= options.fault_after);
                answered += 1;
                let best = format!("bestmove {}", random_answer(position.as_ref(), &mut random));
                match fault {
                    None => vec![best],
                    Some(Fault::Garbage) => vec!["the quick brown fox".into()],
                    Some(Fault::Silent) => vec![],
                    Some(Fault::Exit) => {
                        eprintln!("kamisado-random-engine: exiting on purpose (--fault exit)");
                        return ExitCode::from(3);
                    }
                    Some(Fault::Illegal) => {
                        let pos = position.unwrap_or(MatchPosition::start(Target::Single));
                        vec![format!("bestmove {}", illegal_move(&pos))]
                    }
                    Some(Fault::NoMove) => vec!["bestmove (none)".into()],
                    Some(Fault::Twice) => vec![best.clone(), best],
                }
            }
            ["quit", ..] => break,
            // KEI: unknown commands are ignored.
            _ => vec![],
        };
        // One write for the whole answer, so that `--fault twice` sends both answers
        // together and the referee sees the second before it asks again.
        let text: String = reply.iter().map(|line| format!("{line}\n")).collect();
        if out
            .write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            return ExitCode::SUCCESS;
        }
    }
    ExitCode::SUCCESS
}
