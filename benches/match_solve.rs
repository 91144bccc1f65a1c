//! A round of a match solved from its start, beside the single round's start: the
//! match-round search (Sumo moves, pushes, wider keys) should stay in the same order of
//! time as the single round's. The round-2 starts are those of a Standard match after
//! Black's first-round win: MATCH-RULES.md's example (Black's Brown tower a Sumo, the
//! towers in their starting order) and the one `g1-g7 h8-h6 g7-h8 left` leads to (Black's
//! Blue a Sumo on h1, the home rows refilled from the left).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use kamisado_core::{Kamisado, Position};
use kamisado_match::{MatchPosition, MatchRecord, MatchRound, Target};
use kamisado_solver::{Cancel, Options, Solver};

fn options() -> Options {
    Options {
        threads: 2,
        ..Options::default()
    }
}

fn bench_round_starts(c: &mut Criterion) {
    let page: MatchPosition = "obupyrgn/8/8/8/8/8/8/N+GRYPUBO w - 3"
        .parse()
        .expect("MATCH-RULES.md's example text");
    let played = MatchRecord::parse(
        MatchPosition::start(Target::Standard),
        "g1-g7 h8-h6 g7-h8 left",
    )
    .expect("a legal record")
    .current();
    let mut group = c.benchmark_group("round-start-value");
    group.sample_size(10);
    group.measurement_time(std::time::Duration::from_secs(60));
    group.bench_function("single-round-start", |b| {
        b.iter(|| {
            let solver = Solver::new(Kamisado, options()).unwrap();
            solver.value(&Position::start(), &Cancel::new()).unwrap()
        })
    });
    for (name, pos) in [
        ("standard-round-2-page", page),
        ("standard-round-2-played", played),
    ] {
        group.bench_with_input(BenchmarkId::new(name, 2), &pos, |b, pos| {
            b.iter(|| {
                let solver = Solver::new(MatchRound, options()).unwrap();
                solver.value(pos, &Cancel::new()).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_round_starts);
criterion_main!(benches);
