//! `kamisado query`: a position and every move, from a database or a live search.

use std::time::Duration;

use kamisado_core::Kamisado;
use kamisado_core::Move;
use kamisado_solver::with_time_limit;

use super::db_args::QueryArgs;
use crate::analysis::analyse;
use crate::failure::{Failure, Result};
use crate::output::{json, progress};
use crate::{input, render};

pub fn run(args: QueryArgs) -> Result<()> {
    let given = input::position(&args.position)?;
    let pos = Kamisado::root(&given);
    let oracle = input::oracle(args.db.as_deref(), &args.search)?;
    let quiet = args.output.quiet || args.output.json;

    let bar = progress(pos.legal_moves().len() as u64, quiet, "moves");
    let analysis = with_time_limit(args.time_limit.map(Duration::from_secs_f64), |cancel| {
        analyse(&oracle, &given, cancel, &mut |_| bar.inc(1))
    })?;
    bar.finish_and_clear();
    let (zero_moves, verdict, best, sorted, seconds) = (
        &analysis.zero_moves,
        analysis.verdict,
        &analysis.best,
        &analysis.moves,
        analysis.seconds,
    );

    if args.output.json {
        let report = analysis.report();
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
            for m in sorted {
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
    if analysis.timed_out {
        return Err(Failure::internal(
            analysis.time_out_message(args.time_limit.unwrap_or_default()),
        ));
    }
    Ok(())
}
