use std::sync::atomic::AtomicBool;
use std::time::Instant;

use kamisado_core::Position;
use kamisado_solver::{dfpn::Prover, Kamisado, Table};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mb: usize = args.get(1).map_or(1024, |s| s.parse().unwrap());
    let table = Table::with_bytes(mb << 20);
    let stop = AtomicBool::new(false);
    let start = Position::start();
    let t = Instant::now();
    let mut prover = Prover::new(&Kamisado, &table, &stop);
    let v = prover.prove(&start);
    println!("start {v:?} nodes {} {:?}", prover.nodes(), t.elapsed());
    let t = Instant::now();
    let mut nodes = 0;
    for m in start.legal_moves() {
        let mut prover = Prover::new(&Kamisado, &table, &stop);
        let child = start.play_unchecked(m);
        prover.prove(&child).unwrap();
        nodes += prover.nodes();
    }
    println!("table: nodes {nodes} {:?}  entries {}", t.elapsed(), table.len());
}
