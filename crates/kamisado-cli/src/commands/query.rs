//! `kamisado query`: a position and every move, from a database or a live search.

use std::time::{Duration, Instant};

use kamisado_core::Kamisado;
use kamisado_core::Move;
use kamisado_db::{MoveVerdict, OracleError};
use kamisado_solver::with_time_limit;
use serde::Serialize;

use super::db_args::QueryArgs;
use crate::failure::{Failure, Result};
use crate::output::{json, progress};
use crate::{input, render};

#[derive(Serialize)]
struct Report {
    /// The position answered about: the one given with its pending zero-length moves played.
    position: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    given_position: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    zero_length_moves: Vec<String>,
    to_move: &'static str,
    active: Option<&'static str>,
    /// For the side to move; `null` if the time limit struck first.
    value: Option<&'static str>,
    remoteness: Option<u32>,
    best: Vec<String>,
    source: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    /// Best first; for the side to move.
    moves: Vec<MoveJson>,
    /// False if the time limit struck before every move was answered.
    complete: bool,
    seconds: f64,
}

#[derive(Serialize)]
struct MoveJson {
    #[serde(rename = "move")]
    mv: String,
    value: &'static str,
    remoteness: u32,
    source: &'static str,
}

fn sorted_best_first(moves: &[MoveVerdict]) -> Vec<MoveVerdict> {
    let mut sorted = moves.to_vec();
    // A stable sort keeps equal moves in the rules' order.
    sorted.sort_by_key(|m| std::cmp::Reverse(m.score()));
    sorted
}

fn moves_json(moves: &[MoveVerdict]) -> Vec<MoveJson> {
    moves
        .iter()
        .map(|m| MoveJson {
            mv: m.mv.to_string(),
            value: m.outcome.value.name(),
            remoteness: m.outcome.remoteness,
            source: m.source.name(),
        })
        .collect()
}

pub fn run(args: QueryArgs) -> Result<()> {
    let given = input::position(&args.position)?;
    let pos = Kamisado::root(&given);
    let zero_moves: Vec<Move> = given.pending_zero_moves().into_iter().collect();
    let oracle = input::oracle(args.db.as_deref(), &args.search)?;
    let quiet = args.output.quiet || args.output.json;

    let started = Instant::now();
    let bar = progress(pos.legal_moves().len() as u64, quiet, "moves");
    let mut answered: Vec<MoveVerdict> = Vec::new();
    let result = with_time_limit(args.time_limit.map(Duration::from_secs_f64), |cancel| {
        let analysis = oracle.analyse(&pos, cancel, &mut |m| {
            bar.inc(1);
            answered.push(*m);
        });
        // On a time-out, what the rules or the database know of the position itself.
        let fallback = match &analysis {
            Err(OracleError::Stopped) => oracle.position(&pos, cancel).ok(),
            _ => None,
        };
        (analysis, fallback)
    });
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();

    let (verdict, best, moves, timed_out) = match result {
        (Ok(a), _) => (Some(a.verdict), a.best, a.moves, false),
        (Err(OracleError::Stopped), fallback) => (fallback, Vec::new(), answered, true),
        (Err(e), _) => return Err(Failure::internal(e)),
    };
    let sorted = sorted_best_first(&moves);

    if args.output.json {
        let report = Report {
            position: pos.to_string(),
            given_position: (given != pos).then(|| given.to_string()),
            zero_length_moves: zero_moves.iter().map(Move::to_string).collect(),
            to_move: pos.turn().name(),
            active: pos.active().map(|c| c.name()),
            value: verdict.map(|v| v.outcome.value.name()),
            remoteness: verdict.map(|v| v.outcome.remoteness),
            best: best.iter().map(Move::to_string).collect(),
            source: verdict.map(|v| v.source.name()),
            winner: pos.end().map(|e| e.winner.name()),
            reason: pos.end().map(|e| e.reason.name()),
            moves: moves_json(&sorted),
            complete: !timed_out,
            seconds,
        };
        println!("{}", json(&report));
    } else {
        print!(
            "{}",
            render::board(&pos, render::use_colour(args.output.no_color))
        );
        if !zero_moves.is_empty() {
            let texts: Vec<String> = zero_moves.iter().map(Move::to_string).collect();
            println!(
                "given       {given}\n            its pending zero-length move(s) {} played first{}",
                texts.join(" "),
                if given.turn() != pos.turn() {
                    format!(": now {} to move", pos.turn())
                } else {
                    String::new()
                }
            );
        }
        println!("position    {pos}");
        println!("            {}", render::status(&pos));
        if let Some(v) = verdict.filter(|_| !pos.is_over()) {
            println!(
                "value       {} [{}]",
                render::outcome_for(pos.turn(), v.outcome),
                v.source.name()
            );
        }
        if !best.is_empty() {
            let best: Vec<String> = best.iter().map(Move::to_string).collect();
            println!("best        {}", best.join(" "));
        }
        if !sorted.is_empty() {
            println!(
                "moves       {:<8} {:<5} {:>10}  source  (for {})",
                "move",
                "value",
                "remoteness",
                pos.turn()
            );
            for m in &sorted {
                println!(
                    "            {:<8} {:<5} {:>10}  {}",
                    m.mv.to_string(),
                    m.outcome.value.name(),
                    m.outcome.remoteness,
                    m.source.name()
                );
            }
        }
        println!("time        {seconds:.3} s");
    }
    if timed_out {
        let total = pos.legal_moves().len();
        return Err(Failure::internal(format!(
            "time limit of {} s reached: {} of {total} moves answered; try a larger --time-limit or a --db",
            args.time_limit.unwrap_or_default(),
            moves.len()
        )));
    }
    Ok(())
}
