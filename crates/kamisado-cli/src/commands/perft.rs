use std::time::Instant;

use kamisado_core::perft::{divide_with, perft, Counting};
use serde::Serialize;

use crate::args::PerftArgs;
use crate::failure::Result;
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
        let mut out = String::new();
        if let Some(lines) = &self.divide {
            for line in lines {
                out.push_str(&format!("{}: {}\n", line.mv, line.nodes));
            }
            out.push('\n');
        }
        out.push_str(&format!("perft({}) = {}\n", self.depth, self.nodes));
        out
    }
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
    let started = Instant::now();
    // Counted under each first move, so that a bar can follow them.
    let first_moves = if args.depth == 0 {
        0
    } else {
        perft(&pos, 1, counting)
    };
    let bar = progress(first_moves, args.quiet || args.json, "perft");
    let divided = divide_with(&pos, args.depth, counting, &|| bar.inc(1));
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
