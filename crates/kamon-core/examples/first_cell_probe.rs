//! Can a short search tell which first cells of an empty board win? For each first cell
//! of a layout (and, with `--replies`, each reply to it), a value search from the
//! position after it, stopped after a budget of nodes, and the proof and disproof numbers
//! its root reached, for the player who made the placement (a small proof number: the
//! search thinks that player wins).
//!
//! ```text
//! cargo run --release -p kamon-core --example first_cell_probe -- 1 3 4 --budget 2000000
//! cargo run --release -p kamon-core --example first_cell_probe -- 4 --cells a3 --replies --budget 1000000
//! ```

use std::time::Duration;

use kamisado_solver::{Cancel, Options, Solver};
use kamon_core::{KamonGame, Layout, Position};

/// The root numbers of a value search of `pos` stopped after `budget` nodes, for the
/// side to move at `pos`, and whether it finished (with its value).
fn probe(layout: &Layout, pos: &Position, budget: u64) -> (u32, u32, Option<String>, u64) {
    let options = Options {
        threads: 1,
        table_bytes: 64 << 20,
    };
    let solver = Solver::new(KamonGame::new(layout.clone()), options).unwrap();
    let node = solver.game().node(pos);
    let cancel = Cancel::new();
    let (done, wait) = std::sync::mpsc::channel::<()>();
    let value = std::thread::scope(|scope| {
        let (solver, cancel) = (&solver, &cancel);
        scope.spawn(move || {
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                wait.recv_timeout(Duration::from_millis(5))
            {
                if solver.nodes() >= budget {
                    cancel.cancel();
                    break;
                }
            }
        });
        let value = solver.value(&node, cancel);
        drop(done);
        value
    });
    let (pn, dn) = solver.root_numbers(&node);
    (
        pn,
        dn,
        value.ok().map(|v| v.name().to_string()),
        solver.nodes(),
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut seeds = Vec::new();
    let mut budget = 1_000_000u64;
    let mut cells: Option<Vec<String>> = None;
    let mut replies = false;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--budget" => {
                i += 1;
                budget = args[i].parse().expect("--budget N");
            }
            "--cells" => {
                i += 1;
                cells = Some(args[i].split(',').map(str::to_owned).collect());
            }
            "--replies" => replies = true,
            seed => seeds.push(seed.parse::<u64>().expect("a seed")),
        }
        i += 1;
    }
    for seed in seeds {
        let layout = Layout::random(seed);
        let start = Position::start(&layout);
        for first in start.legal_cells(&layout) {
            if cells
                .as_ref()
                .is_some_and(|c| !c.contains(&first.to_string()))
            {
                continue;
            }
            let after = start.play_unchecked(&layout, first);
            if replies {
                for reply in after.legal_cells(&layout) {
                    let unit = after.play_unchecked(&layout, reply);
                    // Black to move at the unit: Black's own numbers.
                    let (pn, dn, value, nodes) = probe(&layout, &unit, budget);
                    println!(
                        "seed {seed} {first} {reply}: black pn {pn} dn {dn} ratio {:.3} {} ({nodes} nodes)",
                        pn as f64 / dn.max(1) as f64,
                        value.unwrap_or_default()
                    );
                }
            } else {
                // White to move after the first cell: White's numbers, turned to Black's.
                let (pn, dn, value, nodes) = probe(&layout, &after, budget);
                println!(
                    "seed {seed} {first}: black pn {dn} dn {pn} ratio {:.3} {} ({nodes} nodes)",
                    dn as f64 / pn.max(1) as f64,
                    value.map(|v| format!("white: {v}")).unwrap_or_default()
                );
            }
        }
    }
}
