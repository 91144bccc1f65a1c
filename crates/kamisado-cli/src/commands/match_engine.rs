//! `kamisado match --engine COMMAND`: the perfect player against an external KEI engine.

use std::time::Duration;

use kamisado_analysis::Rounds;
use kamisado_referee::judge::plural;
use kamisado_referee::{
    run_match, GameReport, MatchEvent, MatchOptions, MatchReport, PerfectPlayer,
};
use serde::Serialize;

use super::referee_args::MatchArgs;
use crate::failure::{Failure, Result};
use crate::input;
use crate::output::progress;
use crate::report::{self, Report};

/// The match report as printed: the referee's own, rendered for people.
#[derive(Serialize)]
#[serde(transparent)]
struct MatchOutput<'a>(&'a MatchReport);

impl Report for MatchOutput<'_> {
    fn text(&self, _colour: bool) -> String {
        let report = self.0;
        let mut out = String::new();
        for game in &report.games {
            out.push_str(&game_text(game));
        }
        if let Some(name) = &report.engine_name {
            let author = report
                .engine_author
                .as_deref()
                .map_or(String::new(), |a| format!(" by {a}"));
            out.push_str(&format!("engine: {name}{author}\n"));
        }
        out.push_str(&summary_text(report));
        out
    }
}

fn game_text(game: &GameReport) -> String {
    let mut out = format!("game {}: {}\n", game.number, game.describe());
    out.push_str(&format!("  record: {}\n", game.record));
    match &game.engine_first_blunder {
        Some(m) => {
            let show = |o: Option<kamisado_solver::Outcome>| {
                o.map_or("unsolved".to_owned(), |o| o.describe())
            };
            let round = m.round.map_or(String::new(), |r| format!(" (round {r})"));
            out.push_str(&format!(
                "  engine's first blunder: move {} {}{round}: {} -> {}\n",
                m.number,
                m.mv,
                show(m.before),
                show(m.after)
            ));
        }
        None => out.push_str("  engine's first blunder: none\n"),
    }
    let refill_blunders = game
        .judgement
        .refills
        .iter()
        .filter(|r| r.chooser == game.engine_side && r.mark.is_some())
        .count();
    if game.engine.refills > 0 {
        out.push_str(&format!(
            "  engine's refill choices: {}, {} of them losing a round the other direction won\n",
            game.engine.refills, refill_blunders
        ));
    }
    out.push_str(&format!(
        "  engine: {} move{}, {} blunder{}, {} inaccurac{}; thinking {:.2} s (longest {:.2} s)\n",
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
    ));
    out
}

fn summary_text(report: &MatchReport) -> String {
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
    // "match" takes "es" in the plural.
    let what = |n: usize| match (report.target > 1, n) {
        (true, 1) => "match",
        (true, _) => "matches",
        (false, 1) => "game",
        (false, _) => "games",
    };
    let mut out = format!(
        "summary: {} {}; engine won {}, lost {}{forfeits}\n",
        s.games,
        what(s.games),
        s.engine_wins,
        s.engine_losses
    );
    if report.target > 1 {
        out.push_str(&format!(
            "  rounds: {} played, engine won {}; points: engine {}, perfect player {}\n",
            s.rounds, s.engine_rounds_won, s.engine_points, s.perfect_points
        ));
    }
    out.push_str(&format!(
        "  engine: {} blunder{} (in {} {}), {} inaccurac{}\n",
        s.engine_blunders,
        plural(s.engine_blunders),
        s.games_with_engine_blunder,
        what(s.games_with_engine_blunder),
        s.engine_inaccuracies,
        if s.engine_inaccuracies == 1 {
            "y"
        } else {
            "ies"
        }
    ));
    out.push_str(&format!(
        "  perfect player: {} blunders, {} inaccuracies\n",
        s.perfect_blunders, s.perfect_inaccuracies
    ));
    out
}

pub fn run(args: MatchArgs) -> Result<()> {
    let start = input::position(&args.position)?;
    if let Some(end) = start.resolve().round_end() {
        let what = if start.target().points() > 1 {
            "round"
        } else {
            "game"
        };
        return Err(Failure::input(format!(
            "the start is a finished {what} ({} won by {}): nothing to play",
            end.winner,
            end.reason.name()
        )));
    }
    if args.engine.trim().is_empty() {
        return Err(Failure::input("--engine: the command is empty"));
    }
    let rounds = Rounds::of_match_from(&start.resolve());
    let player = PerfectPlayer::new(input::oracle(args.db.as_deref(), &args.search, rounds)?);
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
        let what = if start.target().points() > 1 {
            format!(
                "{}{} to {} points",
                start.target().name(),
                if args.games == 1 { "" } else { "es" },
                start.target().points()
            )
        } else {
            plural_word("game", args.games as usize)
        };
        println!(
            "match: `{}` against the perfect player, {} {what}, {} s per engine answer, seed {}",
            options.command, options.games, args.time_limit, options.seed
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
            round,
            move_number,
            ..
        } => bar.set_message(format!("game {number}, round {round}, move {move_number}")),
        MatchEvent::Refilled {
            number,
            round,
            choice,
            ..
        } => bar.set_message(format!("game {number}: after round {round}, {choice}")),
        MatchEvent::Judging { number } => bar.set_message(format!("game {number}: judging")),
        MatchEvent::GameFinished(_) => bar.inc(1),
    })
    .map_err(Failure::oracle)?;
    bar.finish_and_clear();

    report::print(&MatchOutput(&report), args.json, false);
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

/// `word` with an `s` unless there is one.
fn plural_word(word: &str, n: usize) -> String {
    format!("{word}{}", plural(n))
}
