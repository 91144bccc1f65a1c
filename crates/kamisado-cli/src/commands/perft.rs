//! `kamisado perft`: count move sequences, to compare move generators.
//!
//! A round without Sumos is counted by the single round's perft (the core's, in either
//! convention): it is the same game, and the figures and speed of the single round stay
//! exactly what they were. A round with a Sumo is counted by match play's perft, in the
//! convention of the match rules page (a push and the extra move after it are two moves;
//! sequences end with the round).

use std::time::Instant;

use kamisado_core::perft::{divide_with, perft, Counting};
use kamisado_core::Move;
use serde::Serialize;

use crate::args::PerftArgs;
use crate::failure::{Failure, Result};
use crate::input;
use crate::output::{progress, thousands};
use crate::report::{self, Report};

#[derive(Serialize)]
struct PerftReport {
    position: String,
    depth: u32,
    counting: &'static str,
    nodes: u64,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<DivideLine>>,
}

impl Report for PerftReport {
    fn text(&self, _colour: bool) -> String {
        let divide = self
            .divide
            .as_ref()
            .map(|lines| lines.iter().map(|l| (l.mv.as_str(), l.nodes)).collect());
        perft_text(divide, self.depth, self.nodes)
    }
}

/// perft as text, for every game: one `move: nodes` line per first move if divided
/// (then a blank line), then `perft(depth) = nodes`.
pub fn perft_text(divide: Option<Vec<(&str, u64)>>, depth: u32, nodes: u64) -> String {
    let mut out = String::new();
    if let Some(lines) = divide {
        for (mv, n) in lines {
            out.push_str(&format!("{mv}: {n}\n"));
        }
        out.push('\n');
    }
    out.push_str(&format!("perft({depth}) = {nodes}\n"));
    out
}

#[derive(Serialize)]
struct DivideLine {
    #[serde(rename = "move")]
    mv: String,
    nodes: u64,
}

pub fn run(args: PerftArgs) -> Result<()> {
    let pos = input::position(&args.position)?;
    let counting = if args.zero_moves_as_plies {
        Counting::ZeroMovesAsPlies
    } else {
        Counting::PositiveMoves
    };
    let single = pos.single_round();
    if single.is_none() && args.zero_moves_as_plies {
        return Err(Failure::input(
            "--zero-moves-as-plies: match play counts moves of positive length only (the match rules page's convention); the position has a Sumo",
        ));
    }
    let started = Instant::now();
    // Counted under each first move, so that a bar can follow them.
    let first_moves = match (args.depth, single) {
        (0, _) => 0,
        (_, Some(core)) => perft(&core, 1, counting),
        (_, None) => pos.resolve().count_moves() as u64,
    };
    let bar = progress(first_moves, args.quiet || args.json, "perft");
    let divided: Vec<(Move, u64)> = match single {
        Some(core) => divide_with(&core, args.depth, counting, &|| bar.inc(1)),
        None => kamisado_match::perft::divide_with(&pos, args.depth, &|| bar.inc(1)),
    };
    bar.finish_and_clear();
    let nodes = if args.depth == 0 {
        1
    } else {
        divided.iter().map(|(_, n)| n).sum()
    };
    let lines = args.divide.then_some(divided);
    let seconds = started.elapsed().as_secs_f64();
    let report = PerftReport {
        position: pos.to_string(),
        depth: args.depth,
        counting: match counting {
            Counting::PositiveMoves => "positive-moves",
            Counting::ZeroMovesAsPlies => "zero-moves-as-plies",
        },
        nodes,
        seconds,
        divide: lines.map(|lines| {
            lines
                .into_iter()
                .map(|(m, n)| DivideLine {
                    mv: m.to_string(),
                    nodes: n,
                })
                .collect()
        }),
    };
    report::print(&report, args.json, false);
    if !args.json {
        eprintln!(
            "{} sequences in {seconds:.3} s ({} per second)",
            thousands(nodes),
            thousands((nodes as f64 / seconds.max(1e-9)) as u64)
        );
    }
    Ok(())
}
