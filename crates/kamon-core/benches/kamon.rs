//! perft, the win look-ahead and the connection distance on fixed random layouts: the
//! speed of the rules core.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use kamon_core::geometry::{connection_distance, connection_distances};
use kamon_core::parent_distances::ParentDistances;
use kamon_core::perft::perft;
use kamon_core::{Bitboard, Cell, Layout, Player, Position};
use std::ops::RangeInclusive;

/// Every position before the end of 200 random games on `layout` (moves drawn by `seed`)
/// with a number of placements made in `placed` (where a search's nodes lie, for the
/// benches that ask what one of them costs).
fn random_games(layout: &Layout, seed: u64, placed: RangeInclusive<u32>) -> Vec<Position> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut positions = Vec::new();
    for _ in 0..200 {
        let mut pos = Position::start(layout);
        while !pos.is_over() {
            if placed.contains(&pos.placed()) {
                positions.push(pos);
            }
            let legal: Vec<_> = pos.legal_cells(layout).collect();
            pos = pos.play_unchecked(layout, legal[rng.usize(..legal.len())]);
        }
    }
    positions
}

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
    let positions = random_games(&layout, 3, 0..=36);
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
    let boards: Vec<_> = random_games(&layout, 4, 4..=16)
        .into_iter()
        .flat_map(|pos| [Player::Black, Player::White].map(|p| (pos.pieces(p), pos.free_cells())))
        .collect();
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
    // Both players at once, as the search's estimate asks (`connection_distances`).
    let pairs: Vec<_> = boards
        .chunks_exact(2)
        .map(|two| ([two[0].0, two[1].0], two[0].1))
        .collect();
    group.bench_function("random-games-both-players", |b| {
        b.iter(|| {
            pairs
                .iter()
                .map(|&(pieces, open)| connection_distances(pieces, open).iter().sum::<u32>())
                .sum::<u32>()
        })
    });
    group.finish();
}

fn bench_children_distances(c: &mut Criterion) {
    // Every legal child's distances, as a search's expansion asks for them: each worked
    // out afresh, or from one analysis of the parent (`ParentDistances`); the positions of
    // the same random games.
    let layout = Layout::random(4);
    let parents: Vec<_> = random_games(&layout, 4, 4..=16)
        .into_iter()
        .map(|pos| {
            let pieces = [Player::Black, Player::White].map(|p| pos.pieces(p));
            let cells: Vec<_> = pos.legal_cells(&layout).collect();
            (pieces, pos.free_cells(), pos.turn().index(), cells)
        })
        .collect();
    let mut group = c.benchmark_group("kamon-children-distances");
    let count: usize = parents.iter().map(|p| p.3.len()).sum();
    group.throughput(Throughput::Elements(count as u64));
    let children = |(pieces, open, mover, cell): ([Bitboard; 2], Bitboard, usize, Cell)| {
        let mut after = pieces;
        after[mover] = after[mover].with(cell);
        connection_distances(after, open.without(cell))
    };
    group.bench_function("children-afresh", |b| {
        b.iter(|| {
            let mut sum = 0;
            for (pieces, open, mover, cells) in &parents {
                for &cell in cells {
                    sum += children((*pieces, *open, *mover, cell))[0];
                }
            }
            sum
        })
    });
    group.bench_function("children-from-parent", |b| {
        b.iter(|| {
            let mut sum = 0;
            for (pieces, open, mover, cells) in &parents {
                let parent = ParentDistances::new(*pieces, *open);
                for &cell in cells {
                    let d = parent
                        .child(*mover, cell)
                        .unwrap_or_else(|| children((*pieces, *open, *mover, cell)));
                    sum += d[0];
                }
            }
            sum
        })
    });
    group.finish();
}

fn bench_threats_after(c: &mut Criterion) {
    // Every legal child's threats of the player who placed, carried from the parent's
    // (`Position::threats_after`), as the search and the certificates' forced wins work
    // them out; the positions of random games 4 to 30 placements in.
    let layout = Layout::random(4);
    let children: Vec<_> = random_games(&layout, 4, 4..=30)
        .into_iter()
        .flat_map(|pos| {
            let before = pos.threats(pos.turn());
            pos.legal_cells(&layout)
                .map(|cell| (pos.play_unchecked(&layout, cell), cell, before))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut group = c.benchmark_group("kamon-threats-after");
    group.throughput(Throughput::Elements(children.len() as u64));
    group.bench_function("random-games", |b| {
        b.iter(|| {
            children
                .iter()
                .map(|(child, cell, before)| child.threats_after(*cell, *before).count())
                .sum::<u32>()
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_perft,
    bench_winning_move,
    bench_connection_distance,
    bench_children_distances,
    bench_threats_after
);
criterion_main!(benches);
