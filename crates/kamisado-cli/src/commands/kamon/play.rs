//! `kamisado kamon play`: a game against the perfect player, in the terminal or through
//! any line-based standard input.
//!
//! Late in a game the perfect player proves its every placement. Early on a proof can take
//! hours (see the README's ladder), so each placement has a time limit: when it runs out
//! the player says so and plays a placement that at least hands the opponent no win at
//! once, leaving them the fewest cells.

use std::io::IsTerminal;
use std::time::Duration;

use kamisado_analysis::kamon::{self, Reply};
use kamisado_referee::protocol::MAX_LINE_BYTES;
use kamisado_referee::{read_line, InputLine};
use kamisado_solver::{with_time_limit, Solver};
use kamon_core::{Cell, KamonGame, Player, Position, Record};

use super::search::outcome_for;
use super::{board, input, PlayArgs};
use crate::failure::{Failure, Result};
use crate::render::use_colour;

const HELP: &str = "\
  b1      place a piece on b1
  moves   list the cells you may take
  undo    take back your last placement (and the perfect player's reply)
  quit    stop the game (end of input does the same)
  help    this list";

/// The perfect player's placement within `limit` (see [`kamon::reply`]), saying on
/// standard error that it thinks unless the win is at once.
fn reply(solver: &Solver<KamonGame>, pos: &Position, limit: Duration, quiet: bool) -> Reply {
    if !quiet && pos.winning_move(solver.game().layout()).is_none() {
        eprintln!("  (thinking, up to {} s)", limit.as_secs_f64());
    }
    with_time_limit(Some(limit), |cancel| kamon::reply(solver, pos, cancel))
        .expect("the perfect player is asked only about unfinished games")
}

fn record_of(start: &Record, moves: &[Cell]) -> Record {
    let mut record = start.clone();
    for &cell in moves {
        record.play(cell).expect("moves of the game are legal");
    }
    record
}

pub fn run(args: PlayArgs) -> Result<()> {
    let start = input::record(&args.position)?;
    let solver = input::solver(start.layout(), &args.search, false)?;
    let layout = start.layout().clone();
    let human: Player = args.player.into();
    let colour = use_colour(args.no_color);
    let limit = Duration::from_secs_f64(args.time_limit);
    let echo = !std::io::stdin().is_terminal();
    let mut stdin = std::io::stdin().lock();
    // The placements since `start`.
    let mut moves: Vec<Cell> = Vec::new();

    println!(
        "You play {human}, the perfect player plays {}. Type a cell like b1, or help.",
        !human
    );
    println!("{}", board::legend(colour));
    let mut show_board = true;
    loop {
        let record = record_of(&start, &moves);
        let pos = *record.position();
        if show_board && (pos.turn() == human || pos.is_over()) {
            println!();
            print!("{}", board::board(&record, colour));
            println!("{}", board::status(&record));
            show_board = false;
        }
        if let Some(end) = pos.end() {
            println!("Game over: {end}.");
            println!(
                "{}",
                match end.winner {
                    Some(w) if w == human => "You won.",
                    Some(_) => "The perfect player won.",
                    None => "A draw.",
                }
            );
            return Ok(());
        }
        if pos.turn() != human {
            let r = reply(&solver, &pos, limit, args.quiet);
            match r.outcome {
                Some(outcome) => println!(
                    "{} plays {}   (perfect play: {})",
                    pos.turn(),
                    r.cell,
                    outcome_for(pos.turn(), outcome)
                ),
                None => println!(
                    "{} plays {}   (not proven within {} s: a placement that hands you no win at once)",
                    pos.turn(),
                    r.cell,
                    args.time_limit
                ),
            }
            moves.push(r.cell);
            show_board = true;
            continue;
        }

        print!("{human}> ");
        crate::output::flush_out();
        // The same reader as the Kamisado game's: a line that is not text, or too long,
        // is answered and the game goes on.
        let line = match read_line(&mut stdin, MAX_LINE_BYTES)
            .map_err(|e| Failure::input(format!("cannot read standard input: {e}")))?
        {
            None => {
                println!();
                println!("End of input: the game is left unfinished.");
                return Ok(());
            }
            Some(InputLine::Text(line)) => line,
            Some(InputLine::NotText) => {
                println!("That line is not text (UTF-8); type a cell like d4, or help.");
                continue;
            }
            Some(InputLine::TooLong) => {
                println!("That line is too long; type a cell like d4, or help.");
                continue;
            }
        };
        let command = line.trim();
        if echo {
            println!("{command}");
        }
        match command {
            "" => {}
            "quit" | "exit" | "q" => {
                println!("Game abandoned.");
                return Ok(());
            }
            "help" | "?" => println!("{HELP}"),
            "moves" => {
                let cells: Vec<String> = pos.legal_cells(&layout).map(|c| c.to_string()).collect();
                println!("{}", cells.join(" "));
            }
            "undo" => {
                // Back to before the human's last placement made here.
                let mut p = *start.position();
                let mine: Vec<usize> = moves
                    .iter()
                    .enumerate()
                    .filter_map(|(i, &cell)| {
                        let by = p.turn();
                        p = p.play_unchecked(&layout, cell);
                        (by == human).then_some(i)
                    })
                    .collect();
                match mine.last() {
                    Some(&i) => {
                        println!("Took back {}.", moves[i]);
                        moves.truncate(i);
                        show_board = true;
                    }
                    None => println!("Nothing to undo."),
                }
            }
            text => match text.parse::<Cell>() {
                Err(e) => println!("{e} (type help for the commands)"),
                Ok(cell) => match pos.check_move(&layout, cell) {
                    Err(e) => println!("Illegal: {e}."),
                    Ok(()) => {
                        moves.push(cell);
                        show_board = true;
                    }
                },
            },
        }
    }
}
