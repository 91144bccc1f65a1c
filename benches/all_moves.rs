//! Every move of a match round's start at once (`Solver::analyse_moves`): every move's
//! value and the best moves' exact remoteness, what `kamisado query` and the board's click
//! wait for (target: under 5 s on two threads). One round start per score tier of a
//! Standard match, each the first one seeded random play reaches (the seeds and the play
//! of `kamisado whole-match survey`, which lists the 2-2 and 2-1 ones in
//! data/match-standard.json): a fresh solver each time, with `query`'s default table.
//! The second group asks every move's exact remoteness (`query --all-remoteness`, target:
//! under 30 s); at ten samples of one iteration each it runs for a few minutes
//! (`cargo bench --bench all_moves -- every-remoteness` runs it alone).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use kamisado_match::{MatchPosition, MatchRound};
use kamisado_solver::{Cancel, Depth, Options, Solver};

/// (score tier, seed of the random match, the round start).
const ROUND_STARTS: &[(&str, u64, &str)] = &[
    ("2-2", 2, "rgnyb+p+uo/8/8/8/8/8/8/O+UY+NBPRG w - 3"),
    ("1-0", 0, "obprgnuy/8/8/8/8/8/8/Y+GNRPUBO w - 3"),
    ("1-1", 1, "n+yupbrgo/8/8/8/8/8/8/R+PGUNBYO b - 3"),
    ("2-1", 0, "uogypnrb+/8/8/8/8/8/8/GNBURPY+O+ b - 3"),
];

fn bench_round_starts(c: &mut Criterion) {
    for (name, depth, seconds) in [
        ("all-moves-best-remoteness", Depth::Best, 40),
        ("all-moves-every-remoteness", Depth::Every, 180),
    ] {
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        group.measurement_time(std::time::Duration::from_secs(seconds));
        // One iteration per sample: at seconds an iteration, criterion's default (sample i
        // of i iterations, 55 in all for 10 samples) would take ten minutes a start.
        group.sampling_mode(SamplingMode::Flat);
        for &(tier, seed, text) in ROUND_STARTS {
            let pos: MatchPosition = text.parse().expect("a round start");
            group.bench_with_input(BenchmarkId::new(tier, seed), &pos, |b, pos| {
                b.iter(|| {
                    let options = Options {
                        threads: 2,
                        ..Options::default()
                    };
                    let solver = Solver::new(MatchRound, options).unwrap();
                    let a = solver.analyse_moves(pos, depth, &|_| None, &Cancel::new(), &|_| {});
                    assert!(a.complete && a.best_score().is_some());
                    if depth == Depth::Every {
                        assert!(a.moves.iter().all(|m| m.exact().is_some()));
                    }
                    a
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench_round_starts);
criterion_main!(benches);
