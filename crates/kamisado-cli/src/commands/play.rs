//! `kamisado play`: a game against the perfect player, in the terminal or through any
//! line-based standard input.

use std::io::IsTerminal;

use kamisado_core::Kamisado;
use kamisado_core::{EndReason, Move, Position, Side};
use kamisado_db::{MoveVerdict, Oracle};
use kamisado_referee::protocol::MAX_LINE_BYTES;
use kamisado_referee::{read_line, InputLine};
use kamisado_solver::{Cancel, Value};

use super::db_args::PlayArgs;
use crate::failure::{Failure, Result};
use crate::output::progress;
use crate::{input, render};

const HELP: &str = "\
  a1-a5   move the tower on a1 to a5 (zero-length moves happen on their own)
  moves   list your legal moves
  undo    take back your last move (and the perfect player's reply)
  quit    stop the game (end of input does the same)
  help    this list";

/// The game so far: `positions[i]` is the position before `moves[i]`, with zero-length
/// moves resolved; the last position is the current one.
struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    fn current(&self) -> Position {
        self.positions[self.positions.len() - 1]
    }

    fn play(&mut self, m: Move) {
        let next = self.current().play_unchecked(m);
        self.moves.push(m);
        self.positions.push(next);
    }

    /// Takes back `human`'s last move and everything after it; the move taken back.
    fn undo(&mut self, human: Side) -> Option<Move> {
        let i = (0..self.moves.len())
            .rev()
            .find(|&i| self.positions[i].turn() == human)?;
        self.positions.truncate(i + 1);
        self.moves.truncate(i + 1);
        self.moves.pop()
    }
}

/// Prints what happens after `m` is played from `pos`: the zero-length moves, one by one,
/// and a deadlock.
fn show_consequences(pos: &Position, m: Move) {
    let stepped = pos.step_unchecked(m);
    let mut p = stepped;
    for z in stepped.pending_zero_moves() {
        let colour = p.active().map_or("active", |c| c.name());
        println!(
            "  {}'s {colour} tower on {} is blocked: zero-length move {z}",
            p.turn(),
            z.from()
        );
        p = p.step_unchecked(z);
    }
    if let Some(end) = stepped.end().filter(|e| e.reason == EndReason::Deadlock) {
        println!(
            "  the blocked towers name each other in a circle: deadlock; {} made the last move and loses",
            !end.winner
        );
    }
}

/// The perfect player's move: the database's best move if it has one, else the best of
/// every move solved (fastest win, slowest loss; the first in the rules' order on ties).
fn perfect_move(oracle: &Oracle, pos: &Position, quiet: bool) -> Result<MoveVerdict> {
    let cancel = Cancel::new();
    let stored = oracle.stored_best_move(pos).map_err(Failure::internal)?;
    let quick = pos.winning_move().or(stored);
    if let Some(m) = quick {
        return oracle
            .move_verdict(pos, m, &cancel)
            .map_err(Failure::internal);
    }
    let bar = progress(pos.legal_moves().len() as u64, quiet, "thinking");
    let moves = oracle
        .moves_with(pos, &cancel, &mut |_| bar.inc(1))
        .map_err(Failure::internal)?;
    bar.finish_and_clear();
    let best = moves.iter().map(MoveVerdict::score).max();
    moves
        .into_iter()
        .find(|m| Some(m.score()) == best)
        .ok_or_else(|| Failure::internal("the perfect player has no move in an unfinished game"))
}

/// The end of the game: the result, and where the human first gave up a win.
fn finish(oracle: &Oracle, game: &Game, human: Side, quiet: bool) -> Result<()> {
    let Some(end) = game.current().end() else {
        return Ok(());
    };
    let how = match end.reason {
        EndReason::Goal => "reaching the home row",
        EndReason::Deadlock => "deadlock",
    };
    println!("Game over: {} won by {how}.", end.winner);
    if end.winner == human {
        println!("You won.");
        return Ok(());
    }
    println!("The perfect player won.");
    // The perfect player never gives a win back, so the human's positions go from winning
    // to losing once: the last winning one is where the win was given up. Walking back
    // from the end also asks the cheap questions (late positions) first.
    let cancel = Cancel::new();
    let bar = progress(game.moves.len() as u64, quiet, "reviewing your game");
    for i in (0..game.moves.len()).rev() {
        bar.inc(1);
        let before = game.positions[i];
        if before.turn() != human {
            continue;
        }
        let verdict = oracle
            .position(&before, &cancel)
            .map_err(Failure::internal)?;
        if verdict.outcome.value == Value::Win {
            let played = oracle
                .move_verdict(&before, game.moves[i], &cancel)
                .map_err(Failure::internal)?;
            let best: Vec<String> = oracle
                .best_moves(&before, &cancel)
                .map_err(Failure::internal)?
                .iter()
                .map(Move::to_string)
                .collect();
            bar.finish_and_clear();
            println!(
                "You gave up a win with {} (move {} of this game): you could have won in {} move{} with {}; after it you lost in {}.",
                game.moves[i],
                i + 1,
                verdict.outcome.remoteness,
                if verdict.outcome.remoteness == 1 { "" } else { "s" },
                best.join(" or "),
                played.outcome.remoteness
            );
            return Ok(());
        }
    }
    bar.finish_and_clear();
    println!("You never had a winning position: the perfect player was winning from the start.");
    Ok(())
}

pub fn run(args: PlayArgs) -> Result<()> {
    let given = input::position(&args.position)?;
    let start = Kamisado::root(&given);
    let oracle = input::oracle(args.db.as_deref(), &args.search)?;
    let human: Side = args.side.into();
    let colour = render::use_colour(args.no_color);
    let echo = !std::io::stdin().is_terminal();
    let mut stdin = std::io::stdin().lock();

    println!(
        "You play {human}, the perfect player plays {}. Type a move like a1-a5, or help.",
        !human
    );
    if given != start {
        let zero: Vec<String> = given
            .pending_zero_moves()
            .iter()
            .map(Move::to_string)
            .collect();
        println!(
            "The position's pending zero-length move(s) {} are played first.",
            zero.join(" ")
        );
    }
    let mut game = Game {
        positions: vec![start],
        moves: Vec::new(),
    };
    let mut show_board = true;
    loop {
        let pos = game.current();
        // The board is for the human's decisions and the final position.
        if show_board && (pos.turn() == human || pos.is_over()) {
            println!();
            print!("{}", render::board(&pos, colour));
            if !pos.is_over() {
                println!("{}", render::status(&pos));
            }
            show_board = false;
        }
        if pos.is_over() {
            return finish(&oracle, &game, human, args.quiet);
        }
        if pos.turn() != human {
            let reply = perfect_move(&oracle, &pos, args.quiet)?;
            println!(
                "{} plays {}   (perfect play: {})",
                pos.turn(),
                reply.mv,
                render::outcome_for(pos.turn(), reply.outcome)
            );
            show_consequences(&pos, reply.mv);
            game.play(reply.mv);
            show_board = true;
            continue;
        }

        print!("{human}> ");
        crate::output::flush_out();
        let line = read_line(&mut stdin, MAX_LINE_BYTES)
            .map_err(|e| Failure::input(format!("cannot read standard input: {e}")))?;
        let line = match line {
            None => {
                println!();
                println!("End of input: the game is left unfinished.");
                return Ok(());
            }
            Some(InputLine::Text(line)) => line,
            Some(InputLine::NotText) => {
                println!("That line is not text (UTF-8); type a move like a1-a5, or help.");
                continue;
            }
            Some(InputLine::TooLong) => {
                println!("That line is too long; type a move like a1-a5, or help.");
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
                let moves: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
                println!("{}", moves.join(" "));
            }
            "undo" => match game.undo(human) {
                Some(m) => {
                    println!("Took back {m}.");
                    show_board = true;
                }
                None => println!("Nothing to undo."),
            },
            text => match text.parse::<Move>() {
                Err(e) => println!("{e} (type help for the commands)"),
                Ok(m) => match pos.check_move(m) {
                    Err(e) => println!("Illegal: {e}."),
                    Ok(()) => {
                        show_consequences(&pos, m);
                        game.play(m);
                        show_board = true;
                    }
                },
            },
        }
    }
}
