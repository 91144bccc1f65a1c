//! `kamisado kamon perft`: placement sequences of a given length.

use std::time::Instant;

use kamon_core::perft::{divide, perft};
use serde::Serialize;

use super::{input, PerftArgs};
use crate::failure::Result;
use crate::output::thousands;
use crate::report::{self, Report};

#[derive(Serialize)]
struct PerftReport {
    layout: String,
    moves: Vec<String>,
    depth: u32,
    nodes: u64,
    seconds: f64,
    nodes_per_second: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<DivideLine>>,
}

#[derive(Serialize)]
struct DivideLine {
    cell: String,
    nodes: u64,
}

impl Report for PerftReport {
    fn text(&self, _colour: bool) -> String {
        let divide = self
            .divide
            .as_ref()
            .map(|lines| lines.iter().map(|l| (l.cell.as_str(), l.nodes)).collect());
        crate::commands::perft::perft_text(divide, self.depth, self.nodes)
    }
}

pub fn run(args: PerftArgs) -> Result<()> {
    let record = input::record(&args.position)?;
    let (layout, pos) = (record.layout(), record.position());
    let started = Instant::now();
    let (nodes, lines) = if args.divide {
        let lines = divide(layout, pos, args.depth);
        let total = if args.depth == 0 {
            1
        } else {
            lines.iter().map(|(_, n)| n).sum()
        };
        (total, Some(lines))
    } else {
        (perft(layout, pos, args.depth), None)
    };
    let seconds = started.elapsed().as_secs_f64();
    let report = PerftReport {
        layout: layout.to_string(),
        moves: input::cells_text(record.moves()),
        depth: args.depth,
        nodes,
        seconds,
        nodes_per_second: (nodes as f64 / seconds.max(1e-9)) as u64,
        divide: lines.map(|lines| {
            lines
                .into_iter()
                .map(|(cell, nodes)| DivideLine {
                    cell: cell.to_string(),
                    nodes,
                })
                .collect()
        }),
    };
    report::print(&report, args.json, false);
    if !args.json {
        eprintln!(
            "{} sequences in {seconds:.3} s ({} per second)",
            thousands(nodes),
            thousands(report.nodes_per_second)
        );
    }
    Ok(())
}
