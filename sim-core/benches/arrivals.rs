//! Flows that arrive during the run, at speed: Poisson arrivals at 60 % of a 10 Gbit/s
//! bottleneck for 10 simulated seconds, on a datacentre-like path: 10 µs each way on the
//! bottleneck and on 25 Gbit/s access links (base RTT 40 µs), a 400-packet FIFO,
//! CUBIC, MSS 1448, 1 MB buffers, a 10 ms minimum RTO, a pool of 1000 connections. The
//! scenarios are `benches/scenarios/web_search_60pct_10gbps.json` and
//! `fixed_50kB_60pct_10gbps.json`.
//!
//! - web search (DCTCP's CDF, mean 1.71 MB): λ = 0.6 · 1.25e9 B/s / 1.71e6 B ≈ 440 flows/s,
//!   4 459 arrivals in 10 s;
//! - fixed 50 kB flows: λ = 0.6 · 1.25e9 / 5e4 = 15 000 flows/s, 149 926 arrivals in 10 s
//!   (the "over 100 000 flows" case; the data-mining CDF's mean is 12.6 MB, 60 flows/s).
//!
//! 2026-12-01, criterion medians of 10 on this shared 2-core machine while another build ran
//! (its load moves them by ±20 %), in four or five runs of the bench:
//! - web search: 1.06-1.40 s, 13.15 M events (9-12 M events/s), 4 436 transfers completed,
//!   23 unfinished; at most 26 connections open at once; 11.7 MB peak heap;
//! - 50 kB: 1.36-1.78 s, 13.81 M events (8-10 M events/s), 149 921 transfers completed,
//!   5 unfinished; at most 18 open; 22.9 MB peak heap at the last event, 8.4 MB of it the
//!   completion records, 37.9 MB once the summary has sorted them. Was 2.05 s (paired single
//!   runs: 2.0-2.2 s against 1.5-1.8 s) while `Traffic::complete` re-sorted the free list of
//!   1000 connections at each completion (a quarter of the time); a heap now, with every
//!   completion the same bit for bit.
//!
//! Peak heap against duration, the 50 kB case at the run's last event: 9.7, 15.4, 22.9 MB
//! after 2, 5, 10 s (1.0, 4.2, 8.4 MB of completion records). The rest is per-flow samples
//! (every 0.1 s, for every connection of the pool) and the event queue's buckets keeping
//! room; sampled every 2 s it is 7.8, 9.0, 10.3, 11.3, 12.1 MB after 2, 5, 10, 20, 40 s,
//! while the transfers grow from 30 000 to 600 000. The cost estimate: 2.0e7 and 2.2e7
//! events, 22 and 41 MB; the runs take 0.65 and 0.62 times those events, far inside the
//! CLI's limits.
//!
//! `cargo bench -p sim-core --bench arrivals` (about 30 runs of 1-2 s). Peak memory is not
//! something criterion sees: `cargo run --release -p aqm-tests --example arrivals_memory --
//! 2 5 10` runs each case once per duration and prints events, time, transfers, the
//! connections open at once and the peak heap from a counting allocator
//! (`--sample-interval 2 fixed 2 5 10 20 40` for the second series).

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use sim_core::scenario::Scenario;
use sim_core::sim::Simulation;
use std::time::{Duration, Instant};

fn scenario(json: &str) -> Scenario {
    Scenario::from_json(json).expect("bench scenario parses")
}

fn bench(c: &mut Criterion) {
    let cases = [
        ("web_search_60pct_10gbps_10s", scenario(include_str!("scenarios/web_search_60pct_10gbps.json"))),
        ("fixed_50kB_60pct_10gbps_10s", scenario(include_str!("scenarios/fixed_50kB_60pct_10gbps.json"))),
    ];
    let mut g = c.benchmark_group("arrivals");
    g.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_millis(1));
    // One run per sample: criterion warns that 10 samples do not fit and runs them.
    g.measurement_time(Duration::from_secs(20));
    for (name, sc) in &cases {
        assert!((sc.duration_s - 10.0).abs() < 1e-9, "the 10 s cases");
        let start = Instant::now();
        let mut sim = Simulation::new(sc).unwrap();
        let s = sim.finish();
        let secs = start.elapsed().as_secs_f64();
        let (done, unfinished) = sim.completions();
        eprintln!(
            "{name}: {} events in {secs:.2} s ({:.2} M events/s), {} transfers completed, {unfinished} unfinished, {} packets dropped",
            s.events,
            s.events as f64 / secs / 1e6,
            done.len(),
            s.drops.total_all
        );
        g.bench_function(*name, |b| b.iter(|| Simulation::new(sc).unwrap().finish()));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
