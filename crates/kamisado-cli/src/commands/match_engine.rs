//! `kamisado match --engine COMMAND`: the perfect player against an external KEI engine.

use std::time::Duration;

use kamisado_referee::judge::plural;
use kamisado_referee::{
    run_match, GameReport, MatchEvent, MatchOptions, MatchReport, PerfectPlayer,
};

use super::referee_args::MatchArgs;
use crate::failure::{Failure, Result};
use crate::input;
use crate::output::{json, progress};

fn print_game(game: &GameReport) {
    println!("game {}: {}", game.number, game.describe());
    println!("  record: {}", game.record);
    match &game.engine_first_blunder {
        Some(m) => {
            let show = |o: Option<kamisado_solver::Outcome>| {
                o.map_or("unsolved".to_owned(), |o| o.describe())
            };
            println!(
                "  engine's first blunder: move {} {}: {} -> {}",
                m.number,
                m.mv,
                show(m.before),
                show(m.after)
            );
        }
        None => println!("  engine's first blunder: none"),
    }
    println!(
        "  engine: {} move{}, {} blunder{}, {} inaccurac{}; thinking {:.2} s (longest {:.2} s)",
        game.engine.moves,
        plural(game.engine.moves),
        game.engine.blunders,
        plural(game.engine.blunders),
        game.engine.inaccuracies,
        if game.engine.inaccuracies == 1 {
            "y"
        } else {
            "ies"
        },
        game.engine_seconds,
        game.engine_longest_seconds
    );
}

fn print_summary(report: &MatchReport) {
    let s = &report.summary;
    let forfeits = if s.forfeits == 0 {
        String::new()
    } else {
        let kinds: Vec<String> = s
            .forfeits_by_kind
            .iter()
            .map(|(kind, n)| format!("{n} {kind}"))
            .collect();
        format!(" ({} by forfeit: {})", s.forfeits, kinds.join(", "))
    };
    println!(
        "summary: {} game{}; engine won {}, lost {}{forfeits}",
        s.games,
        plural(s.games),
        s.engine_wins,
        s.engine_losses
    );
    println!(
        "  engine: {} blunder{} (in {} game{}), {} inaccurac{}",
        s.engine_blunders,
        plural(s.engine_blunders),
        s.games_with_engine_blunder,
        plural(s.games_with_engine_blunder),
        s.engine_inaccuracies,
        if s.engine_inaccuracies == 1 {
            "y"
        } else {
            "ies"
        }
    );
    println!(
        "  perfect player: {} blunders, {} inaccuracies",
        s.perfect_blunders, s.perfect_inaccuracies
    );
}

pub fn run(args: MatchArgs) -> Result<()> {
    let start = input::position(&args.position)?;
    if let Some(end) = start.resolve().end() {
        return Err(Failure::input(format!(
            "the start is a finished game ({} won by {}): nothing to play",
            end.winner,
            end.reason.name()
        )));
    }
    if args.engine.trim().is_empty() {
        return Err(Failure::input("--engine: the command is empty"));
    }
    let player = PerfectPlayer::new(input::oracle(args.db.as_deref(), &args.search)?);
    let options = MatchOptions {
        command: args.engine.clone(),
        games: args.games as usize,
        engine_sides: args.side.into(),
        time_limit: Duration::from_secs_f64(args.time_limit),
        start,
        seed: args.seed,
    };

    let quiet = args.quiet || args.json;
    if !args.json {
        println!(
            "match: `{}` against the perfect player, {} game{}, {} s per engine answer, seed {}",
            options.command,
            options.games,
            plural(options.games),
            args.time_limit,
            options.seed
        );
    }
    let bar = progress(options.games as u64, quiet, "match");
    let report = run_match(&player, &options, &mut |event| match event {
        MatchEvent::GameStarted {
            number,
            engine_side,
        } => bar.set_message(format!("game {number} (engine {engine_side})")),
        MatchEvent::Moved {
            number,
            move_number,
            ..
        } => bar.set_message(format!("game {number}, move {move_number}")),
        MatchEvent::Judging { number } => bar.set_message(format!("game {number}: judging")),
        MatchEvent::GameFinished(game) => {
            bar.inc(1);
            if !args.json {
                bar.suspend(|| print_game(game));
            }
        }
    })
    .map_err(Failure::internal)?;
    bar.finish_and_clear();

    if args.json {
        println!("{}", json(&report));
    } else {
        if let Some(name) = &report.engine_name {
            let author = report
                .engine_author
                .as_deref()
                .map_or(String::new(), |a| format!(" by {a}"));
            println!("engine: {name}{author}");
        }
        print_summary(&report);
    }
    if !report.engine_started {
        let why = report
            .games
            .first()
            .and_then(|g| g.fault.as_ref())
            .map_or("it never answered".to_owned(), ToString::to_string);
        return Err(Failure::input(format!(
            "the engine never completed the `kei` handshake: {why}"
        )));
    }
    Ok(())
}
