//! Which question should a Kamon value search ask first? `Solver::value` asks "does the
//! side to move win?" and, if not, "does it at least draw?": a loss costs two searches.
//! This measures, on fresh solvers, the nodes of each question alone and of both in
//! either order, on the positions `K` random placements into random layouts.
//!
//! ```text
//! cargo run --release -p kamon-core --example question_order_probe -- 7 1 2 3 4 5 6 7 8
//! ```
//!
//! Measured 2026-12-03, seven placements in (64 MiB tables): a loss's second question
//! ("at least a draw?", after "a win?" was disproved) cost as much as its first, 1.05 M to
//! 7.9 M nodes, because the first search's entries answer the other question and the
//! second search guessed afresh. With the guess that the other value question's answer
//! holds (in `kamisado_solver::dfpn`), it costs 0.63 M to 4.0 M (35% to 56% fewer): seeds
//! 1, 3, 6, 8 and 11 13% to 28% fewer nodes in all; the one draw among them (seed 2) 9% more.
//! With a settled entry's bounds also taken from its children's (a "no win" without a
//! draw below stored as a loss), the second question of seeds 1, 8 and 11 cost 0.53 M,
//! 75 k and 203 k, and of seed 7 eight placements in nothing; seeds 3 and 6 (a drawn
//! board in their first proofs) were unchanged.

use kamisado_solver::{Cancel, Options, Score, Solver};
use kamon_core::{KamonGame, Record};

fn solver(record: &Record) -> Solver<KamonGame> {
    let options = Options {
        threads: 1,
        table_bytes: 64 << 20,
    };
    Solver::new(KamonGame::new(record.layout().clone()), options).unwrap()
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers"))
        .collect();
    let (after, seeds) = args.split_first().expect("K then seeds");
    println!("seed  value  wins?-then-draws?   draws?-then-wins?");
    for &seed in seeds {
        let record = Record::random(seed, *after as u32).unwrap();
        let cancel = Cancel::new();
        // Wins first (as `value` does).
        let s = solver(&record);
        let node = s.game().node(record.position());
        let wins = s.at_least(&node, Score::ABOVE_DRAW, &cancel).unwrap();
        let n_wins = s.nodes();
        let draws = wins || s.at_least(&node, Score::DRAW, &cancel).unwrap();
        let wins_first = (n_wins, s.nodes() - n_wins);
        // Draws first.
        let s = solver(&record);
        let draws2 = s.at_least(&node, Score::DRAW, &cancel).unwrap();
        let n_draws = s.nodes();
        let wins2 = draws2 && s.at_least(&node, Score::ABOVE_DRAW, &cancel).unwrap();
        let draws_first = (n_draws, s.nodes() - n_draws);
        assert_eq!((wins, draws), (wins2, draws2));
        let value = if wins {
            "win"
        } else if draws {
            "draw"
        } else {
            "loss"
        };
        println!(
            "{seed:>4}  {value:<5}  {:>9} + {:>9}   {:>9} + {:>9}",
            wins_first.0, wins_first.1, draws_first.0, draws_first.1
        );
    }
}
