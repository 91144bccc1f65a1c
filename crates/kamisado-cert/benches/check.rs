//! Checking the shipped certificates: the target is the start's under a second.
//! Reading (decode and CRC) and checking are measured apart, since a reader pays both but
//! only the check grows with the proof's depth.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use kamisado_cert::{check, Certificate};

fn bench_check(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/certificates/start.kcert");
    let bytes = std::fs::read(&path).expect("the shipped start certificate");
    let cert = Certificate::decode(&bytes).expect("a readable certificate");
    let mut group = c.benchmark_group("certificate");
    group.sample_size(10);
    group.bench_function("decode-start", |b| {
        b.iter(|| Certificate::decode(&bytes).unwrap())
    });
    group.bench_function("check-start", |b| b.iter(|| check(&cert).unwrap()));
    group.finish();
}

criterion_group!(benches, bench_check);
criterion_main!(benches);
