//! Ad-hoc timing of the solver on the start position (the benches in /benches are the
//! reference figures; this is for quick looks while optimising).
use std::time::Instant;

use kamisado_core::Position;
use kamisado_solver::{Cancel, Kamisado, Options, Solver};
use rayon::prelude::*;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let threads: usize = args.get(1).map_or(2, |s| s.parse().unwrap());
    let what = args.get(2).cloned().unwrap_or("solve".into());
    let mb: usize = args.get(3).map_or(128, |s| s.parse().unwrap());
    let solver = Solver::new(
        Kamisado,
        Options {
            threads,
            table_bytes: mb << 20,
        },
    )
    .unwrap();
    let root = Position::start();
    let cancel = Cancel::new();
    let t = Instant::now();
    match what.as_str() {
        "value" => println!("{:?}", solver.value(&root, &cancel)),
        "values" => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let moves = root.legal_moves();
            let single = Solver::new(
                Kamisado,
                Options {
                    threads: 1,
                    table_bytes: mb << 20,
                },
            )
            .unwrap();
            let wins = pool.install(|| {
                moves
                    .par_iter()
                    .filter(|&&m| {
                        single.value(&root.play_unchecked(m), &cancel).unwrap()
                            == kamisado_solver::Value::Loss
                    })
                    .count()
            });
            println!("winning openings {wins}, nodes {}", single.nodes());
        }
        "solve" => {
            let s = solver.solve(&root, &cancel).unwrap();
            println!(
                "{:?} {} best {:?}",
                s.value,
                s.remoteness,
                s.best.iter().map(|m| m.to_string()).collect::<Vec<_>>()
            );
        }
        _ => {
            let a = solver.analyse(&root, &cancel, &|| {}).unwrap();
            println!(
                "{:?} {} best {:?}",
                a.solution.value,
                a.solution.remoteness,
                a.solution
                    .best
                    .iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
            );
        }
    }
    println!(
        "nodes {} {:?} fill {:.2}",
        solver.nodes(),
        t.elapsed(),
        solver.table().fill()
    );
}
