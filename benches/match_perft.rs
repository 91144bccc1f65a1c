//! perft on match positions: the speed of match-play move generation, pushes and extra
//! moves included. The single-round start (as a match to 1 point) is comparable with the
//! `perft` bench of the core; the Marathon position has Sumos of every rank on both sides.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use kamisado_match::{perft, MatchPosition, Target};

fn bench_match_perft(c: &mut Criterion) {
    let positions = [
        ("single-round-start", MatchPosition::start(Target::Single)),
        (
            "marathon-sumos",
            "o+b+u++pyrgn/8/8/8/8/8/8/N++G+RY+++PUBO b - 15"
                .parse()
                .expect("a legal match position"),
        ),
    ];
    let mut group = c.benchmark_group("match-perft");
    group.sample_size(10);
    for (name, pos) in positions {
        for depth in [4u32, 5] {
            let nodes = perft::perft(&pos, depth);
            group.throughput(Throughput::Elements(nodes));
            group.bench_with_input(BenchmarkId::new(name, depth), &depth, |b, &d| {
                b.iter(|| perft::perft(&pos, d))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_match_perft);
criterion_main!(benches);
