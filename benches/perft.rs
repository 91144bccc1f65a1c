//! perft from the start in both counting conventions: the speed of the move generator.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use kamisado_core::perft::{perft, Counting};
use kamisado_core::Position;

fn bench_perft(c: &mut Criterion) {
    let start = Position::start();
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, counting) in [
        ("positive-moves", Counting::PositiveMoves),
        ("zero-moves-as-plies", Counting::ZeroMovesAsPlies),
    ] {
        for depth in [5u32, 6] {
            let nodes = perft(&start, depth, counting);
            group.throughput(Throughput::Elements(nodes));
            group.bench_with_input(BenchmarkId::new(name, depth), &depth, |b, &d| {
                b.iter(|| perft(&start, d, counting))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
