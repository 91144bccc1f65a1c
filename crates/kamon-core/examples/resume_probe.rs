//! Does a search stopped part way and started again over the same table (in memory) go on
//! where it stopped? Solves one question about a position in one piece, then again on
//! fresh tables stopped at the fractions of those nodes given, each resumed from the
//! root over its table, and prints the nodes each piece took.
//!
//! ```text
//! cargo run --release -p kamon-core --example resume_probe -- 4 8 128 "" win 0.25 0.5 0.75
//! ```
//! (seed, random placements made, the table's MiB, placements played from there, the
//! question: `win` or `draw`, the fractions.) Measured 2026-12-07: see the solver's
//! `stopped.rs` and the README's *Kept tables*.

#[path = "support/stop.rs"]
mod stop;

use kamisado_solver::{Cancel, Options, Solver, Value};
use kamon_core::{KamonGame, Record};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut next = |what: &str| args.next().unwrap_or_else(|| panic!("missing: {what}"));
    let seed: u64 = next("seed").parse().expect("a seed");
    let after: u32 = next("placements made").parse().expect("a count");
    let mb: usize = next("MiB").parse().expect("MiB");
    let moves = next("placements played");
    let question = match next("question").as_str() {
        "win" => Value::Win,
        "draw" => Value::Draw,
        other => panic!("win or draw, not {other}"),
    };
    let fractions: Vec<f64> = std::iter::from_fn(|| args.next())
        .map(|a| a.parse().expect("a fraction"))
        .collect();
    let record = Record::random(seed, after).expect("a random record");
    let layout = record.layout().clone();
    let mut pos = *record.position();
    for m in moves.split_whitespace() {
        pos = pos.play_unchecked(&layout, m.parse().expect("a cell"));
    }
    let options = Options {
        threads: 1,
        table_bytes: mb << 20,
    };
    let fresh = || Solver::new(KamonGame::new(layout.clone()), options).expect("a table");
    let whole = fresh();
    let node = whole.game().node(&pos);
    let answer = whole
        .value_at_least(&node, question, &Cancel::new())
        .unwrap();
    println!("in one piece: {answer} in {} nodes", whole.nodes());
    for f in fractions {
        let stop_at = (whole.nodes() as f64 * f) as u64;
        let stopped = fresh();
        stop::stopped_after(&stopped, stop_at, |cancel| {
            stopped.value_at_least(&node, question, cancel)
        });
        let at = stopped.nodes();
        let again = stopped.value_at_least(&node, question, &Cancel::new());
        assert_eq!(again.unwrap(), answer);
        println!(
            "stopped at {f}: {at} nodes, then {} more, {} in all",
            stopped.nodes() - at,
            stopped.nodes()
        );
    }
}
