//! `kamisado query`: a position and every move, from a database or a live search.

use std::time::Duration;

use kamisado_analysis::{analyse, Rounds};
use kamisado_solver::{with_time_limit, Depth};

use super::db_args::QueryArgs;
use crate::analysis::time_out_message;
use crate::failure::{Failure, Result};
use crate::output::progress;
use crate::{input, render, report};
use kamisado_analysis::QueryReport;

pub fn run(args: QueryArgs) -> Result<()> {
    let given = input::position(&args.position)?;
    let pos = given.resolve();
    // A round keeps its kind to its end: one table, with the whole budget.
    let oracle = input::oracle(args.db.as_deref(), &args.search, Rounds::of(&pos))?;
    let quiet = args.output.quiet || args.output.json;

    let depth = if args.all_remoteness {
        Depth::Every
    } else {
        Depth::Best
    };
    // Moves done out of moves to do, stage by stage: values, the best moves' remoteness,
    // then (with --all-remoteness) the others'.
    let bar = progress(pos.legal_moves().len() as u64, quiet, "moves");
    let analysis = with_time_limit(args.time_limit.map(Duration::from_secs_f64), |cancel| {
        analyse(&oracle, &given, depth, cancel, &|p| {
            bar.set_message(format!("moves: {}", p.stage.name()));
            bar.set_length(p.total as u64);
            bar.set_position(p.done as u64);
        })
    })
    .map_err(Failure::oracle)?;
    bar.finish_and_clear();
    report::print(
        &QueryReport::of(&analysis),
        args.output.json,
        render::use_colour(args.output.no_color),
    );
    if analysis.timed_out {
        return Err(Failure::internal(time_out_message(
            &analysis,
            args.time_limit.unwrap_or_default(),
        )));
    }
    Ok(())
}
