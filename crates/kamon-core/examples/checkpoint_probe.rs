//! How much of a stopped unit's work does a small part of its table keep? A unit's saved
//! table (`--checkpoints`) is its whole table, 512 MiB by default: too big to keep beyond
//! the machine it ran on. This stops a unit's search after N nodes, then resumes it on a
//! fresh table holding only the entries with the most work (the top fractions given), and
//! prints the nodes each resumed search needs to finish, against the uninterrupted search
//! and the search resumed over the whole table.
//!
//! ```text
//! cargo run --release -p kamon-core --example checkpoint_probe -- 1 "b1 b4" 20000000 64 0.01 0.05 0.2
//! ```
//! (seed, the unit's placements, N, the table's MiB, the fractions kept.) Measured 2026-12-05:
//! see the README's *Kept tables*.

#[path = "support/stop.rs"]
mod stop;

use kamisado_solver::{Cancel, Entry, Options, Solver};
use kamon_core::{KamonGame, Layout, Position};

fn main() {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).expect("seed");
    let moves = args.next().expect("the unit's placements");
    let stop_at: u64 = args.next().and_then(|a| a.parse().ok()).expect("N");
    let mb: usize = args.next().and_then(|a| a.parse().ok()).expect("MiB");
    let fractions: Vec<f64> = args.map(|a| a.parse().expect("fraction")).collect();
    let layout = Layout::random(seed);
    let mut pos = Position::start(&layout);
    for m in moves.split_whitespace() {
        pos = pos.play_unchecked(&layout, m.parse().expect("a cell"));
    }
    let options = Options {
        threads: 1,
        table_bytes: mb << 20,
    };
    let fresh = || Solver::new(KamonGame::new(layout.clone()), options).unwrap();

    let whole = fresh();
    let node = whole.game().node(&pos);
    let value = whole.value(&node, &Cancel::new()).unwrap();
    println!("uninterrupted: {} in {} nodes", value.name(), whole.nodes());

    let stopped = fresh();
    stop::stopped_after(&stopped, stop_at, |cancel| stopped.value(&node, cancel));
    let mut entries: Vec<(u128, Entry)> = Vec::new();
    stopped.table().for_each(|k, e| entries.push((k, e)));
    entries.sort_by_key(|(_, e)| std::cmp::Reverse(e.work));
    let solved = entries
        .iter()
        .filter(|(_, e)| e.pn == 0 || e.dn == 0)
        .count();
    println!(
        "stopped at {} nodes: {} entries, {} answered",
        stopped.nodes(),
        entries.len(),
        solved
    );
    let mut kept_sets: Vec<(String, Vec<(u128, Entry)>)> = vec![("all".into(), entries.clone())];
    for f in &fractions {
        let n = ((entries.len() as f64) * f).ceil() as usize;
        kept_sets.push((format!("top {f}"), entries[..n].to_vec()));
    }
    kept_sets.push((
        "answered only".into(),
        entries
            .iter()
            .filter(|(_, e)| e.pn == 0 || e.dn == 0)
            .copied()
            .collect(),
    ));
    for (name, kept) in kept_sets {
        let resumed = fresh();
        for &(k, e) in &kept {
            resumed.table().store(k, e);
        }
        // As a saved table does (see `kamisado_solver::StoppedPaths`).
        let paths = stopped.table().stopped_paths().all();
        resumed.table().stopped_paths().restore(paths);
        let again = resumed.value(&node, &Cancel::new()).unwrap();
        assert_eq!(again, value);
        println!(
            "resumed from {name} ({} entries, {:.1} MB at 32 bytes): {} more nodes, {} in all",
            kept.len(),
            kept.len() as f64 * 32.0 / 1e6,
            resumed.nodes(),
            stop_at + resumed.nodes()
        );
    }
}
