//! What the end-of-run summary costs on the Warbler §5.2 preset (60 s, six flows): the time
//! of `Simulation::summary` after the run, and how much the recorder holds by then.

use criterion::{criterion_group, criterion_main, Criterion};
use sim_core::scenario::preset;
use sim_core::sim::Simulation;
use std::mem::size_of_val;

/// Heap bytes of one sample's per-flow and per-series vectors.
fn heap(s: &sim_core::metrics::Sample) -> usize {
    8 * (s.flow_goodput_bps.len() + s.flow_srtt_ms.len() + s.flow_backlog_cells.len() + s.series.len())
        + 4 * (s.flow_cwnd_bytes.len() + s.flow_backlog_packets.len() + s.flow_queue.len())
}

fn summary_5_2(c: &mut Criterion) {
    let sc = preset("cubic-bbr-vegas-3q", Some("baseline")).expect("preset");
    let mut sim = Simulation::new(&sc).expect("valid");
    let end = sim.end();
    sim.step_until(end);
    let rec = sim.recorder();
    let sample_bytes: usize = rec.samples.kept.iter().map(|s| size_of_val(s) + heap(s)).sum();
    eprintln!(
        "§5.2 recorder after 60 s: {} samples, {} drops, {} log records, samples ≈ {:.2} MB",
        rec.samples.kept.len(),
        rec.drops.kept.len(),
        rec.log.kept.len(),
        sample_bytes as f64 / 1e6
    );
    c.bench_function("summary_warbler_5_2_60s", |b| b.iter(|| std::hint::black_box(sim.summary())));
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = summary_5_2
}
criterion_main!(benches);
