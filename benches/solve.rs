//! The solver on the positions users ask about: the start position's value (proof-number
//! search), its exact remoteness, and the full opening table (values only, and with
//! remoteness and perfect lines), on 1 and 2 threads.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use kamisado_core::Kamisado;
use kamisado_core::Position;
use kamisado_solver::{Cancel, Options, Solver};

fn options(threads: usize) -> Options {
    Options {
        threads,
        ..Options::default()
    }
}

fn bench_solve(c: &mut Criterion) {
    let start = Position::start();
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    for threads in [1usize, 2] {
        group.bench_with_input(
            BenchmarkId::new("start-value", threads),
            &threads,
            |b, &t| {
                b.iter(|| {
                    let solver = Solver::new(Kamisado, options(t)).unwrap();
                    solver.value(&start, &Cancel::new()).unwrap()
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("start-remoteness", threads),
            &threads,
            |b, &t| {
                b.iter(|| {
                    let solver = Solver::new(Kamisado, options(t)).unwrap();
                    solver.solve(&start, &Cancel::new()).unwrap()
                })
            },
        );
    }
    group.finish();
}

fn bench_openings(c: &mut Criterion) {
    let start = Position::start();
    let mut group = c.benchmark_group("openings");
    group.sample_size(10);
    group.measurement_time(std::time::Duration::from_secs(120));
    for threads in [1usize, 2] {
        group.bench_with_input(
            BenchmarkId::new("table-values", threads),
            &threads,
            |b, &t| {
                b.iter(|| {
                    let solver = Solver::new(Kamisado, options(t)).unwrap();
                    solver.move_values(&start, &Cancel::new()).unwrap()
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("table-with-remoteness", threads),
            &threads,
            |b, &t| {
                b.iter(|| {
                    let solver = Solver::new(Kamisado, options(t)).unwrap();
                    solver.analyse(&start, &Cancel::new(), &|| {}).unwrap()
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench_solve, bench_openings);
criterion_main!(benches);
