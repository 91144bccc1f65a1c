//! `kamisado play`: a game against the perfect player, in the terminal or through any
//! line-based standard input: one round, or with `--target 3`, 7 or 15 a whole match,
//! round after round, with the round winner's refill choice between rounds.

use std::io::IsTerminal;

use kamisado_analysis::{MoveVerdict, Oracle, Rounds};
use kamisado_core::{EndReason, Move, Side};
use kamisado_match::{MatchPosition, Refill, Target};
use kamisado_referee::protocol::MAX_LINE_BYTES;
use kamisado_referee::{read_line, InputLine, PerfectPlayer};
use kamisado_solver::{Cancel, Value};

use super::db_args::PlayArgs;
use crate::failure::{Failure, Result};
use crate::output::{progress, with_spinner};
use crate::{input, render};

const HELP: &str = "\
  a1-a5   move the tower on a1 to a5 (zero-length moves happen on their own)
  left    between the rounds of a match, when you won the round: refill from the left
  right   ... or from the right (each player's left and right as seen from their seat)
  moves   list your legal moves
  undo    take back your last move (and the perfect player's reply), within the round
  quit    stop the game (end of input does the same)
  help    this list";

/// The round being played: `positions[i]` is the position before `moves[i]`, with
/// zero-length moves resolved; the last position is the current one.
struct Round {
    positions: Vec<MatchPosition>,
    moves: Vec<Move>,
}

impl Round {
    fn new(start: MatchPosition) -> Round {
        Round {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    fn current(&self) -> MatchPosition {
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

/// Prints what happens after `m` is played from `pos`: a push and the extra move, the
/// zero-length moves one by one, and a deadlock.
fn show_consequences(pos: &MatchPosition, m: Move) {
    let stepped = pos.step_unchecked(m);
    if pos.board().occupied().contains(m.to()) {
        println!(
            "  push: {} moves again (the turn of {} is skipped)",
            pos.turn(),
            !pos.turn()
        );
    }
    let mut p = stepped;
    for z in stepped.pending_zero_moves() {
        let colour = p.active().map_or("active", |c| c.name());
        println!(
            "  {}'s {colour} tower on {} is blocked: zero-length move {z}",
            p.turn(),
            z.from()
        );
        p = p.step_zero_length(z);
    }
    if let Some(end) = stepped
        .round_end()
        .filter(|e| e.reason == EndReason::Deadlock)
    {
        println!(
            "  the blocked towers name each other in a circle: deadlock; {} made the last move and loses",
            !end.winner
        );
    }
}

/// The perfect player's move ([`PerfectPlayer::best_move`]) and its result, with a
/// spinner showing the nodes searched while it thinks.
fn perfect_move(player: &PerfectPlayer, pos: &MatchPosition, quiet: bool) -> Result<MoveVerdict> {
    let cancel = Cancel::new();
    let chosen = with_spinner(
        quiet,
        "thinking",
        "nodes",
        || player.nodes(),
        || player.best_move(pos, &cancel),
    )
    .map_err(Failure::internal)?
    .ok_or_else(|| Failure::internal("the perfect player has no move in an unfinished round"))?;
    player
        .oracle()
        .move_verdict(pos, chosen.mv, &cancel)
        .map_err(Failure::internal)
}

/// The end of a round: the result, and where the human first gave up a win.
fn review_round(oracle: &Oracle, round: &Round, human: Side, quiet: bool) -> Result<()> {
    let pos = round.current();
    let Some(end) = pos.round_end() else {
        return Ok(());
    };
    let how = match end.reason {
        EndReason::Goal => "reaching the home row",
        EndReason::Deadlock => "deadlock",
    };
    let single = pos.target() == Target::Single;
    let (what, unit) = if single {
        ("Game over".to_owned(), "game")
    } else {
        (format!("Round {} over", pos.round_number()), "round")
    };
    let won = if single { "won" } else { "won the round" };
    println!("{what}: {} won by {how}.", end.winner);
    if end.winner == human {
        println!("You {won}.");
        return Ok(());
    }
    println!("The perfect player {won}.");
    // The perfect player never gives a win back, so the human's positions go from winning
    // to losing once: the last winning one is where the win was given up. Walking back
    // from the end also asks the cheap questions (late positions) first.
    let cancel = Cancel::new();
    let bar = progress(round.moves.len() as u64, quiet, "reviewing your round");
    for i in (0..round.moves.len()).rev() {
        bar.inc(1);
        let before = round.positions[i];
        if before.turn() != human {
            continue;
        }
        let verdict = oracle
            .position(&before, &cancel)
            .map_err(Failure::internal)?;
        if verdict.outcome.value == Value::Win {
            let played = oracle
                .move_verdict(&before, round.moves[i], &cancel)
                .map_err(Failure::internal)?;
            let best: Vec<String> = oracle
                .best_moves(&before, &cancel)
                .map_err(Failure::internal)?
                .iter()
                .map(Move::to_string)
                .collect();
            bar.finish_and_clear();
            println!(
                "You gave up a win with {} (move {} of this {unit}): you could have won in {} move{} with {}; after it you lost in {}.",
                round.moves[i],
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
    let from = if single {
        "the start"
    } else {
        "the round's start"
    };
    println!("You never had a winning position: the perfect player was winning from {from}.");
    Ok(())
}

/// What the human typed, read.
enum Typed {
    Line(String),
    End,
}

fn read_typed(stdin: &mut impl std::io::BufRead, prompt: &str, echo: bool) -> Result<Typed> {
    loop {
        print!("{prompt}");
        crate::output::flush_out();
        let line = read_line(stdin, MAX_LINE_BYTES)
            .map_err(|e| Failure::input(format!("cannot read standard input: {e}")))?;
        let line = match line {
            None => {
                println!();
                return Ok(Typed::End);
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
        let command = line.trim().to_owned();
        if echo {
            println!("{command}");
        }
        return Ok(Typed::Line(command));
    }
}

/// The human's refill choice, typed; `None` if the input ends or the human quits.
fn human_refill(
    stdin: &mut impl std::io::BufRead,
    human: Side,
    next_round: u32,
    echo: bool,
) -> Result<Option<Refill>> {
    println!(
        "You won the round: choose how both home rows are refilled for round {next_round}, `left` or `right` (each as seen from its player's seat)."
    );
    loop {
        match read_typed(stdin, &format!("{human} refill> "), echo)? {
            Typed::End => {
                println!("End of input: the match is left unfinished.");
                return Ok(None);
            }
            Typed::Line(command) => match command.as_str() {
                "" => {}
                "quit" | "exit" | "q" => {
                    println!("Match abandoned.");
                    return Ok(None);
                }
                "help" | "?" => println!("{HELP}"),
                text => match text.parse::<Refill>() {
                    Ok(choice) => return Ok(Some(choice)),
                    Err(e) => println!("{e}."),
                },
            },
        }
    }
}

pub fn run(args: PlayArgs) -> Result<()> {
    let given = input::position(&args.position)?;
    let start = given.resolve();
    // A match meets rounds with Sumos after the first; the tables share the budget.
    let rounds = Rounds::of_match_from(&start);
    let player = PerfectPlayer::new(input::oracle(args.db.as_deref(), &args.search, rounds)?);
    let oracle = player.oracle();
    let human: Side = args.side.into();
    let colour = render::use_colour(args.no_color);
    let echo = !std::io::stdin().is_terminal();
    let mut stdin = std::io::stdin().lock();
    let in_match = start.target() != Target::Single;

    if in_match {
        println!(
            "A {}: you play {human}, the perfect player plays {}. Type a move like a1-a5, or help.",
            start.target(),
            !human
        );
        println!(
            "A round won by a tower of rank r scores 2^r points and the tower gains a rank; the round's loser starts the next one."
        );
    } else {
        println!(
            "You play {human}, the perfect player plays {}. Type a move like a1-a5, or help.",
            !human
        );
    }
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
    let mut round = Round::new(start);
    let mut show_board = true;
    loop {
        let pos = round.current();
        // The board is for the human's decisions and the final position.
        if show_board && (pos.turn() == human || pos.is_round_over()) {
            println!();
            print!("{}", render::board(&pos, colour));
            if !pos.is_round_over() {
                println!("{}", render::status(&pos));
            }
            show_board = false;
        }
        if let Some(end) = pos.round_end() {
            review_round(oracle, &round, human, args.quiet)?;
            if let Some(standing) = render::match_status(&pos) {
                println!("Score after round {}: {standing}.", pos.round_number());
            }
            if let Some(winner) = pos.match_winner() {
                if in_match {
                    let who = if winner == human {
                        "You win"
                    } else {
                        "The perfect player wins"
                    };
                    println!(
                        "{who} the match, {}-{}.",
                        pos.score(winner),
                        pos.score(!winner)
                    );
                }
                return Ok(());
            }
            let next_round = pos.round_number() + 1;
            let choice = if end.winner == human {
                match human_refill(&mut stdin, human, next_round, echo)? {
                    Some(choice) => choice,
                    None => return Ok(()),
                }
            } else {
                let bar = progress(0, args.quiet, "choosing the refill");
                let choice = player
                    .refill_choice(&pos, &Cancel::new())
                    .map_err(Failure::internal)?
                    .ok_or_else(|| Failure::internal("no refill choice is due"))?;
                bar.finish_and_clear();
                println!(
                    "{} refills from the {}",
                    end.winner,
                    choice.explain(next_round)
                );
                choice.choice
            };
            let next = pos
                .refill(choice)
                .map_err(|e| Failure::internal(e.to_string()))?;
            println!(
                "Round {next_round}: refilled from the {choice}; {} (the round's loser) starts.",
                next.turn()
            );
            round = Round::new(next);
            show_board = true;
            continue;
        }
        if pos.turn() != human {
            let reply = perfect_move(&player, &pos, args.quiet)?;
            println!(
                "{} plays {}   (perfect play: {})",
                pos.turn(),
                reply.mv,
                render::outcome_for(pos.turn(), reply.outcome)
            );
            show_consequences(&pos, reply.mv);
            round.play(reply.mv);
            show_board = true;
            continue;
        }

        let command = match read_typed(&mut stdin, &format!("{human}> "), echo)? {
            Typed::End => {
                println!("End of input: the game is left unfinished.");
                return Ok(());
            }
            Typed::Line(command) => command,
        };
        match command.as_str() {
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
            "undo" => match round.undo(human) {
                Some(m) => {
                    println!("Took back {m}.");
                    show_board = true;
                }
                None if in_match => println!("Nothing to undo in this round."),
                None => println!("Nothing to undo."),
            },
            "left" | "right" => println!(
                "A refill choice comes only after a round ends, from its winner; type a move like a1-a5."
            ),
            text => match text.parse::<Move>() {
                Err(e) => println!("{e} (type help for the commands)"),
                Ok(m) => match pos.check_move(m) {
                    Err(e) => println!("Illegal: {e}."),
                    Ok(()) => {
                        show_consequences(&pos, m);
                        round.play(m);
                        show_board = true;
                    }
                },
            },
        }
    }
}
