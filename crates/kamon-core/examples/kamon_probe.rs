//! Where a Kamon value search spends its nodes: solves random positions (seed and
//! placements made) with one thread through a counting wrapper around [`KamonGame`] and
//! prints what the counters saw: nodes, distinct positions expanded (with `--distinct`),
//! legal and safe placements per node, and the nodes by open children (children the
//! rules do not decide), by placements made, and by who has a threat.
//!
//! ```text
//! cargo run --release -p kamon-core --example kamon_probe -- 1:8 2:6 --mb 256 --distinct
//! ```

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

use kamisado_solver::{Cancel, Game, Options, Player as SolverPlayer, Solver, Value, WinInOne};
use kamon_core::{Cell, KamonGame, Node, Record};

/// Histogram buckets: open children 0..=11, placements made 0..=31 (the last takes the rest).
const OPEN_BUCKETS: usize = 12;
const PLACED_BUCKETS: usize = 32;

#[derive(Default)]
struct Counters {
    expanded: AtomicU64,
    legal: AtomicU64,
    safe: AtomicU64,
    by_open: [AtomicU64; OPEN_BUCKETS],
    by_placed: [AtomicU64; PLACED_BUCKETS],
    /// Neither side has a threat, the opponent only, the side to move only, both.
    by_threats: [AtomicU64; 4],
}

/// [`KamonGame`] with counters in [`Game::moves`], which the search calls once per node.
struct Probe {
    inner: KamonGame,
    counters: Counters,
    distinct: Option<Mutex<HashSet<u128>>>,
}

impl Game for Probe {
    type Position = Node;
    type Move = Cell;
    type Key = u128;
    const DRAWS: bool = KamonGame::DRAWS;

    fn outcome(&self, node: &Node) -> Option<Value> {
        self.inner.outcome(node)
    }
    fn player(&self, node: &Node) -> SolverPlayer {
        self.inner.player(node)
    }
    fn moves(&self, node: &Node, out: &mut Vec<Cell>) {
        self.inner.moves(node, out);
        let c = &self.counters;
        let layout = self.inner.layout();
        let pos = node.position();
        let me = pos.turn();
        c.expanded.fetch_add(1, Relaxed);
        c.legal.fetch_add(out.len() as u64, Relaxed);
        let safe = pos.legal_cells(layout) - self.inner.handing_over(node.threats(!me));
        c.safe.fetch_add(safe.count() as u64, Relaxed);
        let open = out
            .iter()
            .filter(|&&m| {
                let child = self.inner.play(node, m);
                self.inner.outcome(&child).is_none()
                    && self.inner.win_in_one(&child) == WinInOne::No
            })
            .count();
        c.by_open[open.min(OPEN_BUCKETS - 1)].fetch_add(1, Relaxed);
        c.by_placed[(pos.placed() as usize).min(PLACED_BUCKETS - 1)].fetch_add(1, Relaxed);
        let threats = 2 * node.threats(me).any() as usize + node.threats(!me).any() as usize;
        c.by_threats[threats].fetch_add(1, Relaxed);
        if let Some(d) = &self.distinct {
            d.lock().unwrap().insert(self.inner.key(node));
        }
    }
    fn play(&self, node: &Node, m: Cell) -> Node {
        self.inner.play(node, m)
    }
    fn key(&self, node: &Node) -> u128 {
        self.inner.key(node)
    }
    fn drawn_length(&self, node: &Node) -> u32 {
        self.inner.drawn_length(node)
    }
    fn win_in_one(&self, node: &Node) -> WinInOne<Cell> {
        self.inner.win_in_one(node)
    }
    fn estimate(&self, node: &Node) -> (u32, u32) {
        self.inner.estimate(node)
    }
}

fn main() {
    let mut mb = 256usize;
    let mut distinct = false;
    let mut targets = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--mb" => mb = args.next().and_then(|v| v.parse().ok()).expect("--mb N"),
            "--distinct" => distinct = true,
            target => {
                let parsed = target
                    .split_once(':')
                    .and_then(|(s, a)| Some((s.parse::<u64>().ok()?, a.parse::<u32>().ok()?)));
                targets.push(parsed.expect("targets are SEED:PLACEMENTS, e.g. 1:8"));
            }
        }
    }
    let mut total = 0;
    for (seed, after) in targets {
        let record = Record::random(seed, after).expect("a random opening");
        let game = KamonGame::new(record.layout().clone());
        let node = game.node(record.position());
        let probe = Probe {
            inner: game,
            counters: Counters::default(),
            distinct: distinct.then(|| Mutex::new(HashSet::new())),
        };
        let options = Options {
            threads: 1,
            table_bytes: mb << 20,
        };
        let solver = Solver::new(probe, options).expect("a solver");
        let start = std::time::Instant::now();
        let value = solver.value(&node, &Cancel::new()).expect("solved");
        let secs = start.elapsed().as_secs_f64();
        let c = &solver.game().counters;
        let expanded = c.expanded.load(Relaxed).max(1) as f64;
        let distinct = solver
            .game()
            .distinct
            .as_ref()
            .map_or("-".into(), |d| d.lock().unwrap().len().to_string());
        total += solver.nodes();
        println!(
            "seed {seed} after {after}: {value:?} nodes {} distinct {distinct} legal/node {:.2} safe/node {:.2} {secs:.1}s",
            solver.nodes(),
            c.legal.load(Relaxed) as f64 / expanded,
            c.safe.load(Relaxed) as f64 / expanded,
        );
        let hist = |a: &[AtomicU64]| {
            let counts: Vec<String> = a.iter().map(|x| x.load(Relaxed).to_string()).collect();
            counts.join(" ")
        };
        println!("  by open children 0..: {}", hist(&c.by_open));
        println!("  by placements made 0..: {}", hist(&c.by_placed));
        println!(
            "  by threats (none, opponent's, own, both): {}",
            hist(&c.by_threats)
        );
    }
    println!("total nodes {total}");
}
