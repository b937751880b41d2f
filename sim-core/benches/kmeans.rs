//! Wall time of one Warbler clustering decision (M = 3: conservative, far, random) over
//! n ∈ {1k, 10k, 100k} flows and K ∈ {2, 16} queues, floating point and integer, from a
//! round-robin current mapping: the paper's Fig. 12 axes.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use sim_core::rng::{SimRng, StreamId};
use sim_core::warbler::{decide, decide_fixed, BacklogSet, KmeansConfig};
use std::hint::black_box;

fn kmeans(c: &mut Criterion) {
    let mut group = c.benchmark_group("kmeans");
    group.sample_size(20);
    for n in [1_000usize, 10_000, 100_000] {
        for k in [2usize, 16] {
            let set = BacklogSet::Classes { classes: k as u32, max_cells: 6000, jitter: 0.2 };
            let cells = set.sample(n, &mut SimRng::new(1, StreamId::Other(0)));
            let x: Vec<f64> = cells.iter().map(|&c| f64::from(c)).collect();
            let current: Vec<u32> = (0..n).map(|i| (i % k) as u32).collect();
            let cfg = KmeansConfig { k, ..KmeansConfig::default() };
            let id = format!("n{n}_k{k}");
            group.bench_function(BenchmarkId::new("float", &id), |b| {
                b.iter(|| {
                    decide(black_box(&x), Some(&current), &cfg, &mut SimRng::new(2, StreamId::Other(1)))
                })
            });
            group.bench_function(BenchmarkId::new("fixed", &id), |b| {
                b.iter(|| {
                    decide_fixed(
                        black_box(&cells),
                        Some(&current),
                        &cfg,
                        &mut SimRng::new(2, StreamId::Other(1)),
                    )
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, kmeans);
criterion_main!(benches);
