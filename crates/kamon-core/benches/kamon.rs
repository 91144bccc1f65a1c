//! perft, the win look-ahead and the connection distance on fixed random layouts: the
//! speed of the rules core.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use kamon_core::geometry::connection_distance;
use kamon_core::perft::perft;
use kamon_core::{Layout, Player, Position};

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("kamon-perft");
    group.sample_size(10);
    for seed in [1u64, 2] {
        let layout = Layout::random(seed);
        let start = Position::start(&layout);
        let depth = 6;
        let nodes = perft(&layout, &start, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(
            BenchmarkId::new(format!("seed-{seed}"), depth),
            &depth,
            |b, &d| b.iter(|| perft(&layout, &start, d)),
        );
    }
    group.finish();
}

fn bench_winning_move(c: &mut Criterion) {
    // Positions from random games, some with a win available.
    let layout = Layout::random(3);
    let mut rng = fastrand::Rng::with_seed(3);
    let mut positions = Vec::new();
    for _ in 0..200 {
        let mut pos = Position::start(&layout);
        while !pos.is_over() {
            positions.push(pos);
            let legal: Vec<_> = pos.legal_cells(&layout).collect();
            pos = pos.play_unchecked(&layout, legal[rng.usize(..legal.len())]);
        }
    }
    c.bench_function("kamon-winning-move", |b| {
        b.iter(|| {
            positions
                .iter()
                .filter(|p| p.winning_move(&layout).is_some())
                .count()
        })
    });
}

fn bench_connection_distance(c: &mut Criterion) {
    // Both players' distances in the positions of random games 4 to 16 placements in,
    // where a search's quiet nodes lie (the estimate asks for two per child).
    let layout = Layout::random(4);
    let mut rng = fastrand::Rng::with_seed(4);
    let mut boards = Vec::new();
    for _ in 0..200 {
        let mut pos = Position::start(&layout);
        while !pos.is_over() && pos.placed() <= 16 {
            if pos.placed() >= 4 {
                for player in [Player::Black, Player::White] {
                    boards.push((pos.pieces(player), pos.free_cells()));
                }
            }
            let legal: Vec<_> = pos.legal_cells(&layout).collect();
            pos = pos.play_unchecked(&layout, legal[rng.usize(..legal.len())]);
        }
    }
    let mut group = c.benchmark_group("kamon-connection-distance");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("random-games", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|&(pieces, open)| connection_distance(pieces, open))
                .sum::<u32>()
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_perft,
    bench_winning_move,
    bench_connection_distance
);
criterion_main!(benches);
