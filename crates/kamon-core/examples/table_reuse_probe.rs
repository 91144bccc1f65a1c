//! Do a split's units share work? Solves each unit one placement below a position (its
//! first placements, as `kamon units --depth 1` lists them) twice: each on a fresh table,
//! and all in turn on one table carried from unit to unit, and prints the nodes of each.
//! If the second total is much smaller, units that transpose into each other's
//! positions would gain from a table (or a store of proven positions) kept between them.
//!
//! ```text
//! cargo run --release -p kamon-core --example table_reuse_probe -- 7 1 3
//! ```
//!
//! Measured 2026-12-03 (256 MiB tables): seed 1 seven placements in, its 6 units 9.78 M
//! nodes on fresh tables and 9.44 M on one table (97%); seed 3, 2.37 M and 2.15 M (91%).
//! Sibling units share little: a store of proven positions kept between units would save
//! a few percent, not the factor the empty board needs.

use kamisado_solver::{Cancel, Options, Solver};
use kamon_core::{KamonGame, Record};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers"))
        .collect();
    let (after, seeds) = args.split_first().expect("K then seeds");
    let options = Options {
        threads: 1,
        table_bytes: 256 << 20,
    };
    for &seed in seeds {
        let record = Record::random(seed, *after as u32).unwrap();
        let layout = record.layout();
        let pos = record.position();
        let shared = Solver::new(KamonGame::new(layout.clone()), options).unwrap();
        let (mut fresh_total, mut shared_total) = (0, 0);
        for cell in pos.legal_cells(layout) {
            let unit = pos.play_unchecked(layout, cell);
            let fresh = Solver::new(KamonGame::new(layout.clone()), options).unwrap();
            let node = fresh.game().node(&unit);
            let value = fresh.value(&node, &Cancel::new()).unwrap();
            let before = shared.nodes();
            let again = shared.value(&node, &Cancel::new()).unwrap();
            assert_eq!(value, again);
            let (f, s) = (fresh.nodes(), shared.nodes() - before);
            fresh_total += f;
            shared_total += s;
            println!(
                "seed {seed} after {after} {cell}: {} fresh {f} shared {s}",
                value.name()
            );
        }
        println!(
            "seed {seed} after {after}: fresh {fresh_total} shared {shared_total} ({:.0}%)",
            100.0 * shared_total as f64 / fresh_total as f64
        );
    }
}
