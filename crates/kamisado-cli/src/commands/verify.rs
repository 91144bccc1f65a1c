//! `kamisado verify FILE`: every move of recorded games judged exactly.

use std::path::Path;
use std::time::{Duration, Instant};

use kamisado_analysis::Rounds;
use kamisado_match::{MatchPosition, Target};
use kamisado_referee::judge::{plural, FileSummary, Judge};
use kamisado_referee::record::record_lines;
use kamisado_referee::{
    summarise, GameJudgement, GameResult, Mark, MoveJudgement, PlayedGame, RefillJudgement, Tally,
};

use serde::Serialize;

use super::referee_args::VerifyArgs;
use crate::failure::{Failure, Result};
use crate::input;
use crate::output::progress;
use crate::report::{self, Report};

#[derive(Serialize)]
struct VerifyReport<'a> {
    file: String,
    time_limit_seconds: Option<f64>,
    games: Vec<GameJson<'a>>,
    summary: FileSummary,
    seconds: f64,
    /// Only marked moves in the text (`--brief`).
    #[serde(skip)]
    brief: bool,
}

impl Report for VerifyReport<'_> {
    fn text(&self, _colour: bool) -> String {
        let mut out = String::new();
        for game in &self.games {
            out.push_str(&game_text(game.line, game.judgement, self.brief));
        }
        out.push_str(&summary_text(&self.summary, self.seconds));
        out
    }
}

#[derive(Serialize)]
struct GameJson<'a> {
    /// 1-based line of the file.
    line: usize,
    #[serde(flatten)]
    judgement: &'a GameJudgement,
}

fn read_records(path: &Path) -> Result<String> {
    if path.as_os_str() == "-" {
        return crate::input::read_stdin_text();
    }
    crate::input::read_text(path, "a games file")
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
    let refills = if t.refills > 0 {
        format!(" and {} refill choice{}", t.refills, plural(t.refills))
    } else {
        String::new()
    };
    let mut text = format!(
        "{} move{}{refills}, {} blunder{}, {} inaccurac{}",
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

fn refill_line(r: &RefillJudgement) -> String {
    let show = |v: Option<kamisado_solver::Value>| {
        v.map_or("unproved".to_owned(), |v| v.name().to_owned())
    };
    let mark = match r.mark {
        Some(Mark::Blunder) => "  BLUNDER",
        _ => "",
    };
    format!(
        "  after round {}: {} chose {} (next round for {}: left {}, right {}){mark}",
        r.round,
        r.chooser,
        r.choice,
        r.chooser,
        show(r.left),
        show(r.right)
    )
}

fn game_text(line: usize, game: &GameJudgement, brief: bool) -> String {
    let mut out = Vec::new();
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
    out.push(format!(
        "game at line {line}: {} move{} {from}{perfect}",
        game.moves.len(),
        plural(game.moves.len())
    ));
    let mut refills = game.refills.iter().peekable();
    let mut round = game.moves.first().and_then(|m| m.round);
    for m in &game.moves {
        if m.round != round {
            // A new round: the refill choice that started it comes first.
            if let Some(r) = refills.next() {
                if !brief || r.mark.is_some() {
                    out.push(refill_line(r));
                }
            }
            round = m.round;
        }
        if !brief || m.mark.is_some() {
            out.push(move_line(m));
        }
    }
    for r in refills {
        if !brief || r.mark.is_some() {
            out.push(refill_line(r));
        }
    }
    if let Some(error) = &game.error {
        out.push(format!(
            "  stopped: {error}; the rest of the line is skipped"
        ));
    }
    let result = match (&game.result, game.score) {
        (GameResult::Finished { winner, reason }, Some(score)) => format!(
            "{winner} won the match {}-{} (the last round by {})",
            score.of_side(*winner),
            score.of_side(!*winner),
            reason.name()
        ),
        (result, Some(score)) => format!(
            "{}; round {}, black {}, white {}",
            result.describe(),
            game.round.unwrap_or(1),
            score.black,
            score.white
        ),
        (result, None) => result.describe(),
    };
    out.push(format!("  result: {result}"));
    match game.first_blunder() {
        Some(m) => {
            let (before, after) = outlook_text(m);
            out.push(format!(
                "  first blunder: move {} {} by {}: {before} -> {after}",
                m.number, m.mv, m.mover
            ));
        }
        None => out.push("  first blunder: none".to_owned()),
    }
    out.push(format!(
        "  black: {}; white: {}",
        tally_text(&game.black),
        tally_text(&game.white)
    ));
    out.iter().map(|line| format!("{line}\n")).collect()
}

fn summary_text(summary: &FileSummary, seconds: f64) -> String {
    [
        format!(
            "summary: {} game{} ({} finished, {} stopped at an illegal move or bad word), {} with a blunder",
            summary.games,
            plural(summary.games),
            summary.finished_games,
            summary.games_with_errors,
            summary.games_with_blunders
        ),
        format!("  black: {}", tally_text(&summary.black)),
        format!("  white: {}", tally_text(&summary.white)),
        format!("  time:  {seconds:.2} s"),
    ]
    .map(|line| line + "\n")
    .concat()
}

/// The rounds a file's games meet: every position played from, and, after a refill, the
/// rounds to come (they have a Sumo).
fn rounds_of(games: &[PlayedGame]) -> Rounds {
    let mut rounds: Option<Rounds> = None;
    let mut add = |r: Rounds| rounds = Some(rounds.map_or(r, |all| all.and(r)));
    for game in games {
        for pos in &game.positions {
            add(Rounds::of(pos));
        }
        if game.record.rounds().len() > 1 || game.end().is_round_over() {
            add(Rounds::Sumo);
        }
    }
    rounds.unwrap_or(Rounds::Plain)
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
    let start = MatchPosition::start(args.target.unwrap_or(Target::Single));
    let games: Vec<PlayedGame> = lines
        .iter()
        .map(|l| PlayedGame::parse_from(&l.text, &start))
        .collect();
    // A judge must judge: a database found damaged is set aside, the moves searched.
    let oracle = input::oracle(args.db.as_deref(), &args.search, rounds_of(&games))?
        .falling_back_to_search();
    let time_limit = args.time_limit.map(Duration::from_secs_f64);

    let started = Instant::now();
    let questions: usize = games.iter().map(Judge::questions).sum();
    let bar = progress(questions as u64, args.quiet || args.json, "judging");
    let mut judge = Judge::new(&oracle, time_limit);
    let judged: Vec<GameJudgement> = games
        .iter()
        .map(|game| judge.judge(game, &mut || bar.inc(1)))
        .collect();
    bar.finish_and_clear();
    if let Some(damage) = oracle.damage() {
        eprintln!("warning: the database cannot be trusted ({damage}); the moves were judged by search instead");
    }
    let summary = summarise(&judged);
    let seconds = started.elapsed().as_secs_f64();

    let report = VerifyReport {
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
        brief: args.brief,
    };
    report::print(&report, args.json, false);

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
        let advice = match (args.time_limit, args.db.is_some()) {
            (Some(_), false) => "; try a larger --time-limit or a --db",
            (Some(_), true) => "; try a larger --time-limit",
            (None, _) => "",
        };
        return Err(Failure::internal(format!(
            "{} move{} could not be judged{}{advice}",
            summary.total.unjudged,
            plural(summary.total.unjudged),
            args.time_limit.map_or(String::new(), |t| format!(
                " within the time limit of {t} s per position"
            )),
        )));
    }
    Ok(())
}
