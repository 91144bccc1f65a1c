use std::time::Instant;

use kamisado_core::Position;
use kamisado_solver::{Cancel, Kamisado, Options, Solver};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let threads: usize = args.get(1).map_or(2, |s| s.parse().unwrap());
    let what = args.get(2).cloned().unwrap_or("solve".into());
    let line = args.get(3).cloned().unwrap_or_default();
    let solver = Solver::new(
        Kamisado,
        Options {
            threads,
            ..Options::default()
        },
    )
    .unwrap();
    let root = kamisado_core::notation::play_line(&Position::start(), &line)
        .unwrap()
        .end;
    let cancel = Cancel::new();
    let t = Instant::now();
    match what.as_str() {
        "value" => println!("{:?}", solver.value(&root, &cancel)),
        "solve" => {
            let s = solver.solve(&root, &cancel).unwrap();
            println!(
                "{:?} {} best {:?} pv {}",
                s.value,
                s.remoteness,
                s.best.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                s.pv.iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
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
    println!("nodes {} {:?}", solver.nodes(), t.elapsed());
}
