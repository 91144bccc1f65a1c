//! What a process pays to use a database: opening (a small file is read and checked
//! whole, a large one mapped and its blocks checked on first use) and one lookup, for
//! files the size of a four-ply book (about 360,000 records) and of the opening table's
//! database (about 2.6 million).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use kamisado_db::{write, Database, Record};
use kamisado_solver::Value;

/// `n` distinct sorted records with pseudo-random keys, the same on every run.
fn records(n: usize) -> Vec<Record> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut keys: Vec<u128> = (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            ((u128::from(state) << 37) | (u128::from(state) >> 20)) & ((1u128 << 101) - 1)
        })
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys.into_iter()
        .map(|key| Record::new(key, Value::Win, Some(5), None))
        .collect()
}

fn bench_open(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("kamisado-db-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut group = c.benchmark_group("database");
    group.sample_size(10);
    for n in [360_000usize, 2_600_000] {
        let records = records(n);
        let path = dir.join(format!("{n}.kdb"));
        write(&path, &records, "bench", &mut |_| {}).unwrap();
        let probe = records[records.len() / 3].key();
        group.bench_with_input(BenchmarkId::new("open-read-whole", n), &n, |b, _| {
            b.iter(|| Database::open(&path).unwrap())
        });
        group.bench_with_input(
            BenchmarkId::new("open-mapped-first-lookup", n),
            &n,
            |b, _| {
                b.iter(|| {
                    let db = Database::open_mapped(&path).unwrap();
                    db.find(probe).unwrap().unwrap()
                })
            },
        );
        let db = Database::open(&path).unwrap();
        let mut i = 0usize;
        group.bench_with_input(BenchmarkId::new("lookup", n), &n, |b, _| {
            b.iter(|| {
                i = (i + 7919) % records.len();
                db.find(records[i].key()).unwrap().unwrap()
            })
        });
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench_open);
criterion_main!(benches);
