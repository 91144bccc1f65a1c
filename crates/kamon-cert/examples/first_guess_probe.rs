//! How often the search's first guess at the winner's turn is a winning placement, and
//! what a better guess could look at: samples positions of a Kamon certificate where the
//! side to move (the mover) wins, solves every placement the rules leave open (does it
//! win?), and prints, over the positions with two or more such placements, the share whose
//! first placement wins by several orderings, what that placement's search costs against
//! the cheapest winning one's, and which features tell the cheaper of two winners;
//! `--csv FILE` writes each placement's features and answer for fitting a guess offline.
//! Positions the rules settle (a win in one or three, or a placement after which the
//! opponent loses in two) are left out: the search never orders their placements.
//!
//! ```text
//! kamisado kamon prove --seed 1 --moves "b1 b4" --out b1b4.kcert --threads 1 --hash-mb 512
//! cargo run --release -p kamon-cert --example first_guess_probe -- b1b4.kcert 600 --cap 5000000 --csv b1b4.csv
//! ```
//!
//! Why not `kamon_ordering`'s count: that one asks whether a guess ranks the proof's own
//! placement first, and the proof was found with the library's guess, so the count leans
//! towards it; another placement may win as well. Here every open placement is solved, so
//! an ordering is judged by whether its first placement wins at all. A placement whose
//! search reaches `--cap` nodes is unknown, and its position is left out of the shares.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

use kamisado_solver::{Cancel, Game, Options, Solver, Value, WinInOne};
use kamon_cert::{Certificate, Kind};
use kamon_core::random::SplitMix64;
use kamon_core::{geometry, KamonGame, Position};

/// Feature names, in the CSV's order after `sample,cell,proof,wins,nodes`: `my_` is the
/// mover's, the side the certificate's entry says wins (or draws or wins), `opp_` the
/// opponent's, both after the placement unless `_before`.
const FEATURES: [&str; FEATURE_COUNT] = [
    "child_pn",
    "child_dn",
    "opp_legal",
    "opp_safe",
    "my_dist",
    "opp_dist",
    "my_dist_before",
    "opp_dist_before",
    "my_threats",
    "opp_threats",
    "placed",
    // The fewest safe replies the winner keeps after the opponent's placement (the
    // library's proof-number term, seen from the child).
    "my_fewest_replies",
];

/// One open placement of a sampled position: its features, whether it wins (`None` if its
/// search reached the cap), and its search's nodes.
struct Placement {
    features: [f64; FEATURE_COUNT],
    wins: Option<bool>,
    nodes: u64,
}

/// A way to rank a position's placements: its name and key (smaller first).
type Rank = (&'static str, fn(&[f64; FEATURE_COUNT]) -> f64);

const FEATURE_COUNT: usize = 12;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("a certificate file").clone();
    let sample: usize = args
        .get(2)
        .map_or(500, |a| a.parse().expect("a sample size"));
    let mut cap: u64 = 2_000_000;
    let mut csv: Option<String> = None;
    let mut seed: u64 = 1;
    let mut i = 3;
    while i < args.len() {
        match args[i].as_str() {
            "--cap" => cap = args[i + 1].parse().expect("a node cap"),
            "--csv" => csv = Some(args[i + 1].clone()),
            "--seed" => seed = args[i + 1].parse().expect("a seed"),
            other => panic!("unknown option {other}"),
        }
        i += 2;
    }
    let cert = Certificate::read(std::path::Path::new(&path)).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    let game = KamonGame::new(cert.layout.clone());
    let layout = game.layout().clone();

    // The contested positions where the side to move wins (or, in a proof of "at least a
    // draw", draws or wins) by a named placement: (position, the proof's cell, the aim).
    let mut contested = Vec::new();
    for entry in &cert.entries {
        let aim = match entry.kind() {
            Kind::Wins => Value::Win,
            Kind::DrawsOrWins => Value::Draw,
            _ => continue,
        };
        let (Ok(Some(cell)), Ok(pos)) =
            (entry.placement(), Position::from_key(&layout, entry.key()))
        else {
            continue;
        };
        let node = game.node(&pos);
        if !matches!(game.win_in_one(&node), WinInOne::No) {
            continue;
        }
        contested.push((pos, cell, aim));
    }
    // A fixed-seed shuffle's first `sample` (the layouts' generator).
    let mut rng = SplitMix64::new(seed);
    for k in (1..contested.len()).rev() {
        let j = (rng.next_u64() % (k as u64 + 1)) as usize;
        contested.swap(k, j);
    }

    let mut out = String::from("sample,cell,proof,wins,nodes");
    for f in FEATURES {
        out.push(',');
        out.push_str(f);
    }
    out.push('\n');
    // Per position: each open placement's (features, wins?).
    let mut positions: Vec<Vec<Placement>> = Vec::new();
    let (mut searched, mut nodes_all) = (0usize, 0u64);
    for (s, (pos, proof_cell, aim)) in contested.iter().take(sample).enumerate() {
        let node = game.node(pos);
        let me = pos.turn();
        let free_before = pos.free_cells();
        let my_before = geometry::connection_distance(pos.pieces(me), free_before) as f64;
        let opp_before = geometry::connection_distance(pos.pieces(!me), free_before) as f64;
        let mut moves = Vec::new();
        game.moves(&node, &mut moves);
        let mut rows = Vec::new();
        let mut settled_by_rules = false;
        let mut open = Vec::new();
        for &m in &moves {
            let child = game.play(&node, m);
            // A child the rules decide is never a search's question; one they decide as
            // the opponent's loss settles the position itself, which the search then
            // never has to order (left out below).
            let opponent_loses = match (game.outcome(&child), game.win_in_one(&child)) {
                (Some(v), _) => Some(v == Value::Loss),
                (None, WinInOne::LosesInTwo) => Some(true),
                (None, WinInOne::No | WinInOne::NotChecked) => None,
                (None, _) => Some(false),
            };
            match opponent_loses {
                Some(loses) => settled_by_rules |= loses,
                None => open.push((m, child)),
            }
        }
        if settled_by_rules {
            positions.push(Vec::new());
            continue;
        }
        for (m, child) in open {
            let cp = child.position();
            let free = cp.free_cells();
            let handing_mine = game.handing_over(child.threats(me));
            let opp_legal = cp.legal_cells(&layout);
            let opp_safe = opp_legal - handing_mine;
            let fewest = opp_safe
                .map(|cell| {
                    ((layout.matching(cell) & free).without(cell)
                        - game.handing_over(child.threats(!me)))
                    .count()
                })
                .min()
                .unwrap_or(0);
            let (pn, dn) = game.estimate(&child);
            let features = [
                pn as f64,
                dn as f64,
                opp_legal.count() as f64,
                opp_safe.count() as f64,
                geometry::connection_distance(cp.pieces(me), free) as f64,
                geometry::connection_distance(cp.pieces(!me), free) as f64,
                my_before,
                opp_before,
                child.threats(me).count() as f64,
                child.threats(!me).count() as f64,
                cp.placed() as f64,
                fewest as f64,
            ];
            // The mover wins through this placement if the opponent, to move in the
            // child, does not even draw; draws or wins if the opponent does not win.
            let opponent = if *aim == Value::Win {
                Value::Draw
            } else {
                Value::Win
            };
            // A fresh table for each placement, so that its nodes are its own search's.
            let solver = Solver::new(
                game.clone(),
                Options {
                    threads: 1,
                    table_bytes: 64 << 20,
                },
            )
            .expect("a solver");
            let cancel = Cancel::new();
            let finished = AtomicBool::new(false);
            let answer = std::thread::scope(|scope| {
                scope.spawn(|| {
                    while !finished.load(Relaxed) {
                        if solver.nodes() >= cap {
                            cancel.cancel();
                            return;
                        }
                        std::thread::sleep(Duration::from_millis(5));
                    }
                });
                let a = solver.value_at_least(&child, opponent, &cancel);
                finished.store(true, Relaxed);
                a
            });
            searched += 1;
            let nodes = solver.nodes();
            nodes_all += nodes;
            let wins = answer.ok().map(|opponent_reaches| !opponent_reaches);
            out.push_str(&format!(
                "{s},{m},{},{},{nodes}",
                u8::from(m == *proof_cell),
                wins.map_or(-1, i32::from)
            ));
            for f in features {
                out.push_str(&format!(",{f}"));
            }
            out.push('\n');
            rows.push(Placement {
                features,
                wins,
                nodes,
            });
        }
        positions.push(rows);
        if (s + 1) % 50 == 0 {
            eprintln!(
                "{} positions, {searched} placements solved, {:.1} M nodes",
                s + 1,
                nodes_all as f64 / 1e6
            );
        }
    }
    if let Some(file) = csv {
        std::fs::write(&file, out).expect("the CSV written");
    }

    // Orderings: smaller key first, ties to the earlier placement (the search's order).
    let orderings: [Rank; 8] = [
        ("library (child dn)", |f| f[1]),
        ("opponent's safe replies", |f| f[3]),
        ("opponent's legal replies", |f| f[2]),
        // What `kamon_probe --dn-legal` puts in the library's disproof number.
        ("opponent's legal replies x distance", |f| {
            f[2] * f[4].max(1.0)
        }),
        ("mover's distance after", |f| f[4]),
        ("opponent's distance (larger first)", |f| -f[5]),
        ("child dn, then opponent's distance", |f| f[1] * 64.0 - f[5]),
        ("mover's fewest replies x distance", |f| {
            (f[11] + 1.0) * f[4].max(1.0)
        }),
    ];
    let complete: Vec<&Vec<Placement>> = positions
        .iter()
        .filter(|rows| rows.len() >= 2 && rows.iter().all(|r| r.wins.is_some()))
        .collect();
    let winners: f64 = complete
        .iter()
        .map(|rows| rows.iter().filter(|r| r.wins == Some(true)).count() as f64 / rows.len() as f64)
        .sum::<f64>()
        / complete.len().max(1) as f64;
    println!(
        "{path}: {} winning positions the rules do not decide, {} sampled, {} with two or more open placements, every one solved (cap {cap} nodes); a random open placement wins {:.1}% of the time (a mean over the positions)",
        contested.len(),
        positions.len(),
        complete.len(),
        100.0 * winners
    );
    // Where the first placement wins, what its search costs against the cheapest winning
    // placement's (a geometric mean of the ratios): the room a cost-aware guess has.
    let cheapest = |rows: &[Placement]| {
        rows.iter()
            .filter(|r| r.wins == Some(true))
            .map(|r| r.nodes.max(1))
            .min()
    };
    // Which features tell the cheaper of two winning placements of one position: for each,
    // the share of the pairs that differ in it where the smaller value is the cheaper
    // search, each pair weighted by how much cheaper (the log of the nodes' ratio).
    println!("  of two winning placements, the one with the smaller feature is the cheaper:");
    for (f, name) in FEATURES.iter().enumerate() {
        let (mut agree, mut total) = (0f64, 0f64);
        for rows in &positions {
            let winners: Vec<&Placement> = rows.iter().filter(|r| r.wins == Some(true)).collect();
            for (i, a) in winners.iter().enumerate() {
                for b in &winners[i + 1..] {
                    let (fa, fb) = (a.features[f], b.features[f]);
                    if a.nodes == b.nodes || fa == fb {
                        continue;
                    }
                    let weight = (a.nodes.max(1) as f64 / b.nodes.max(1) as f64).ln().abs();
                    total += weight;
                    if (fa < fb) == (a.nodes < b.nodes) {
                        agree += weight;
                    }
                }
            }
        }
        println!(
            "    {name:<20} {:5.1}% (weight {total:.0})",
            100.0 * agree / total.max(f64::MIN_POSITIVE)
        );
    }
    for (name, key) in orderings {
        let (mut first_wins, mut log_ratio, mut priced) = (0usize, 0f64, 0usize);
        for rows in &complete {
            let mut best = 0;
            for (i, r) in rows.iter().enumerate() {
                if key(&r.features) < key(&rows[best].features) {
                    best = i;
                }
            }
            if rows[best].wins == Some(true) {
                first_wins += 1;
                if let Some(min) = cheapest(rows) {
                    log_ratio += (rows[best].nodes.max(1) as f64 / min as f64).ln();
                    priced += 1;
                }
            }
        }
        println!(
            "  {name:<40} first placement wins {:5.1}%, its search {:.2} times the cheapest winner's",
            100.0 * first_wins as f64 / complete.len().max(1) as f64,
            (log_ratio / priced.max(1) as f64).exp()
        );
    }
}
