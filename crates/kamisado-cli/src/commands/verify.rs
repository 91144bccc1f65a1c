//! `kamisado verify FILE`: every move of recorded games judged exactly.

use std::io::Read;
use std::path::Path;
use std::time::{Duration, Instant};

use kamisado_referee::judge::{plural, FileSummary, Judge};
use kamisado_referee::record::record_lines;
use kamisado_referee::{summarise, GameJudgement, Mark, MoveJudgement, PlayedGame, Tally};

use serde::Serialize;

use super::referee_args::VerifyArgs;
use crate::failure::{Failure, Result};
use crate::input;
use crate::output::{json, progress};

#[derive(Serialize)]
struct Report<'a> {
    file: String,
    time_limit_seconds: Option<f64>,
    games: Vec<GameJson<'a>>,
    summary: FileSummary,
    seconds: f64,
}

#[derive(Serialize)]
struct GameJson<'a> {
    /// 1-based line of the file.
    line: usize,
    #[serde(flatten)]
    judgement: &'a GameJudgement,
}

fn read_records(path: &Path) -> Result<String> {
    let shown = path.display();
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| Failure::input(format!("standard input: cannot read: {e}")))?;
        return Ok(text);
    }
    std::fs::read_to_string(path).map_err(|e| Failure::input(format!("{shown}: cannot read: {e}")))
}

fn outlook_text(m: &MoveJudgement) -> (String, String) {
    let show =
        |o: Option<kamisado_solver::Outcome>| o.map_or("unsolved".to_owned(), |o| o.describe());
    (show(m.before), show(m.after))
}

fn move_line(m: &MoveJudgement) -> String {
    let (before, after) = outlook_text(m);
    let mark = match m.mark {
        Some(Mark::Blunder) => "  BLUNDER".to_owned(),
        Some(Mark::Inaccuracy) => format!("  inaccuracy (best: {before})"),
        None => String::new(),
    };
    let zero = if m.zero_length_after.is_empty() {
        String::new()
    } else {
        let moves: Vec<String> = m
            .zero_length_after
            .iter()
            .map(ToString::to_string)
            .collect();
        format!("  (then {})", moves.join(" "))
    };
    let line = format!(
        "  {:>3}. {:<5}  {:<6}  {:>11} -> {:<11}{mark}{zero}",
        m.number,
        m.mover.name(),
        m.mv.to_string(),
        before,
        after
    );
    line.trim_end().to_owned()
}

fn tally_text(t: &Tally) -> String {
    let mut text = format!(
        "{} move{}, {} blunder{}, {} inaccurac{}",
        t.moves,
        plural(t.moves),
        t.blunders,
        plural(t.blunders),
        t.inaccuracies,
        if t.inaccuracies == 1 { "y" } else { "ies" }
    );
    if t.unjudged > 0 {
        text.push_str(&format!(", {} unjudged", t.unjudged));
    }
    text
}

fn print_game(line: usize, game: &GameJudgement, brief: bool) {
    let from = if game.record.starts_with("position") {
        format!("from {}", game.start)
    } else {
        "from the start".to_owned()
    };
    let perfect = match game.start_outcome {
        Some(o) => format!(
            "; with perfect play {}",
            crate::render::who_wins(game.start.turn(), o)
        ),
        None => String::new(),
    };
    println!(
        "game at line {line}: {} move{} {from}{perfect}",
        game.moves.len(),
        plural(game.moves.len())
    );
    for m in &game.moves {
        if !brief || m.mark.is_some() {
            println!("{}", move_line(m));
        }
    }
    if let Some(error) = &game.error {
        println!("  stopped: {error}; the rest of the line is skipped");
    }
    println!("  result: {}", game.result.describe());
    match game.first_blunder() {
        Some(m) => {
            let (before, after) = outlook_text(m);
            println!(
                "  first blunder: move {} {} by {}: {before} -> {after}",
                m.number, m.mv, m.mover
            );
        }
        None => println!("  first blunder: none"),
    }
    println!(
        "  black: {}; white: {}",
        tally_text(&game.black),
        tally_text(&game.white)
    );
}

fn print_summary(summary: &FileSummary, seconds: f64) {
    println!(
        "summary: {} game{} ({} finished, {} stopped at an illegal move or bad word), {} with a blunder",
        summary.games,
        plural(summary.games),
        summary.finished_games,
        summary.games_with_errors,
        summary.games_with_blunders
    );
    println!("  black: {}", tally_text(&summary.black));
    println!("  white: {}", tally_text(&summary.white));
    println!("  time:  {seconds:.2} s");
}

pub fn run(args: VerifyArgs) -> Result<()> {
    let text = read_records(&args.file)?;
    let lines = record_lines(&text);
    let shown = args.file.display().to_string();
    if lines.is_empty() {
        return Err(Failure::input(format!(
            "{shown}: no games (every line is blank or a comment)"
        )));
    }
    let oracle = input::oracle(args.db.as_deref(), &args.search)?;
    let time_limit = args.time_limit.map(Duration::from_secs_f64);

    let started = Instant::now();
    let games: Vec<PlayedGame> = lines.iter().map(|l| PlayedGame::parse(&l.text)).collect();
    let questions: usize = games.iter().map(Judge::questions).sum();
    let bar = progress(questions as u64, args.quiet || args.json, "judging");
    let mut judge = Judge::new(&oracle, time_limit);
    let mut judged = Vec::with_capacity(games.len());
    for (line, game) in lines.iter().zip(&games) {
        let judgement = judge.judge(game, &mut || bar.inc(1));
        if !args.json {
            bar.suspend(|| print_game(line.line, &judgement, args.brief));
        }
        judged.push(judgement);
    }
    bar.finish_and_clear();
    let summary = summarise(&judged);
    let seconds = started.elapsed().as_secs_f64();

    if args.json {
        let report = Report {
            file: shown.clone(),
            time_limit_seconds: args.time_limit,
            games: lines
                .iter()
                .zip(&judged)
                .map(|(l, judgement)| GameJson {
                    line: l.line,
                    judgement,
                })
                .collect(),
            summary,
            seconds,
        };
        println!("{}", json(&report));
    } else {
        print_summary(&summary, seconds);
    }

    if let Some((line, error)) = lines
        .iter()
        .zip(&judged)
        .find_map(|(l, g)| g.error.as_ref().map(|e| (l.line, e)))
    {
        return Err(Failure::input(format!(
            "{shown}: {} of {} game{} stop early; the first at line {line}: {error}",
            summary.games_with_errors,
            summary.games,
            plural(summary.games)
        )));
    }
    if summary.total.unjudged > 0 {
        return Err(Failure::internal(format!(
            "{} move{} could not be judged within the time limit of {} s per position; try a larger --time-limit or a --db",
            summary.total.unjudged,
            plural(summary.total.unjudged),
            args.time_limit.unwrap_or_default()
        )));
    }
    Ok(())
}
