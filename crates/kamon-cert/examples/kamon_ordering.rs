//! How often the search's first guess is the placement a proof uses: reads a Kamon
//! certificate and, at every position where it says the side to move wins by a named
//! placement, ranks that placement among the placements the rules leave open by several
//! orderings, the library's first (df-pn tries first the child with the smallest
//! disproof number of [`KamonGame::estimate`]).
//!
//! ```text
//! cargo run --release -p kamon-cert --example kamon_ordering -- a3e1.kcert
//! ```
//!
//! Why: a value search looks at some 17 times the positions its proof holds (README,
//! *Kamon certificates*), and most of the difference is made where the winner's
//! placement is not the first one tried. The certificate's placements were found with
//! the library's ordering, so they lean towards it; a rival ordering that agrees with
//! them more often is still worth a search.

use kamisado_solver::Game;
use kamon_cert::{Certificate, Kind};
use kamon_core::{geometry, Cell, KamonGame, Position};

fn main() {
    let path = std::env::args().nth(1).expect("a certificate file");
    let cert = Certificate::read(std::path::Path::new(&path)).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    let game = KamonGame::new(cert.layout.clone());
    let layout = game.layout().clone();
    const ORDERS: [&str; 6] = [
        "library (child dn)",
        "child dn, then larger child pn",
        "opponent's safe replies",
        "mover's distance after",
        "opponent's distance (larger first)",
        "safe replies x my distance / opponent's",
    ];
    let mut ranks = vec![[0u64; 5]; ORDERS.len()];
    let (mut wins, mut open_total, mut single) = (0u64, 0u64, 0u64);
    let mut by_kind = [0u64; 4];
    for entry in &cert.entries {
        by_kind[entry.kind() as usize] += 1;
        if entry.kind() != Kind::Wins {
            continue;
        }
        let Ok(Some(cell)) = entry.placement() else {
            continue;
        };
        let Ok(pos) = Position::from_key(&layout, entry.key()) else {
            continue;
        };
        let node = game.node(&pos);
        if !matches!(game.win_in_one(&node), kamisado_solver::WinInOne::No) {
            continue; // the rules decide it: no search
        }
        let me = pos.turn();
        let mut moves = Vec::new();
        game.moves(&node, &mut moves);
        // (cell, child dn, child pn, opp safe, my dist, opp dist)
        let mut open: Vec<(Cell, [f64; 6])> = Vec::new();
        for &m in &moves {
            let child = game.play(&node, m);
            if game.outcome(&child).is_some()
                || !matches!(game.win_in_one(&child), kamisado_solver::WinInOne::No)
            {
                continue;
            }
            let (pn, dn) = game.estimate(&child);
            let cp = child.position();
            let free = cp.free_cells();
            let opp_safe = (cp.legal_cells(&layout) - game.handing_over(child.threats(me))).count();
            let my_dist = geometry::connection_distance(cp.pieces(me), free).max(1) as f64;
            let opp_dist = geometry::connection_distance(cp.pieces(!me), free).max(1) as f64;
            let keys = [
                dn as f64,
                dn as f64 * 1e6 - pn as f64,
                opp_safe as f64,
                my_dist,
                -opp_dist,
                opp_safe as f64 * my_dist / opp_dist,
            ];
            open.push((m, keys));
        }
        let Some(target) = open.iter().position(|(c, _)| *c == cell) else {
            continue; // the proof's placement is decided by the rules for this child
        };
        wins += 1;
        open_total += open.len() as u64;
        if open.len() == 1 {
            single += 1;
            continue;
        }
        for (o, rank) in ranks.iter_mut().enumerate() {
            let key = open[target].1[o];
            // Ties go to the earlier placement, as in the search.
            let r = open
                .iter()
                .enumerate()
                .filter(|(i, (_, k))| k[o] < key || (k[o] == key && *i < target))
                .count();
            rank[r.min(4)] += 1;
        }
    }
    let contested = wins - single;
    println!(
        "{path}: {} entries: {} wins, {} losses, {} draws or wins, {} cannot win",
        cert.entries.len(),
        by_kind[Kind::Wins as usize],
        by_kind[Kind::Loses as usize],
        by_kind[Kind::DrawsOrWins as usize],
        by_kind[Kind::CannotWin as usize]
    );
    println!(
        "{path}: {wins} winning positions searched (not decided by the rules), {:.2} open placements each, {contested} with two or more",
        open_total as f64 / wins.max(1) as f64
    );
    println!("ordering: share of the contested positions where the proof's placement comes 1st, 2nd, 3rd, 4th, later");
    for (o, rank) in ranks.iter().enumerate() {
        let share: Vec<String> = rank
            .iter()
            .map(|&n| format!("{:5.1}%", 100.0 * n as f64 / contested.max(1) as f64))
            .collect();
        println!("  {:<42} {}", ORDERS[o], share.join(" "));
    }
}
