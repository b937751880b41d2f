//! Time and peak heap of the flows-that-arrive benchmark's two runs (`benches/arrivals.rs`),
//! each run once: `cargo run --release -p aqm-tests --example arrivals_memory --
//! [--sample-interval S] [NAME-FILTER] [duration_s ...]` (default 10 s; several durations
//! show whether memory grows with the flows of the run).
//!
//! For each case and duration it prints events, wall time, events/s, transfers completed,
//! and unfinished, the connections open at once at most (the pool is 1000) and peak heap,
//! counted by the pass-through global allocator `tests/cost.rs` counts with (`aqm_tests::heap`), so the figure
//! is the same from run to run. The peak is read twice: when the run has simulated its last
//! event (the engine and the completion records) and after the summary (which sorts the
//! completions into percentiles). The records (`Transfer`, 32 bytes, in a vector that
//! doubles) are given apart: without them the heap is the engine's and the recorder's. A second pass
//! steps the run 1 ms at a time to count open connections (not timed). A digest of
//! `Simulation::completions()` is printed to check that a change leaves the results as
//! they were.

use aqm_tests::heap::{Counting, NOW, PEAK};
use sim_core::scenario::Scenario;
use sim_core::sim::Simulation;
use sim_core::time::SimTime;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

#[global_allocator]
static ALLOC: Counting = Counting;

/// A completion record's size (`sim::traffic::Transfer`: flow, group, bytes, two f64).
const TRANSFER_BYTES: usize = 32;

fn main() {
    let (mut durations, mut filter, mut interval) = (Vec::new(), String::new(), None);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match (a.as_str(), a.parse::<f64>()) {
            ("--sample-interval", _) => {
                interval = Some(args.next().and_then(|v| v.parse().ok()).expect("seconds"))
            }
            (_, Ok(d)) => durations.push(d),
            _ => filter = a,
        }
    }
    if durations.is_empty() {
        durations.push(10.0);
    }
    let cases = [
        include_str!("../../sim-core/benches/scenarios/web_search_60pct_10gbps.json"),
        include_str!("../../sim-core/benches/scenarios/fixed_50kB_60pct_10gbps.json"),
    ];
    for json in cases {
        for &d in &durations {
            let mut sc = Scenario::from_json(json).expect("bench scenario parses");
            if !sc.name.contains(&filter) {
                continue;
            }
            sc.duration_s = d;
            sc.sample_interval_s = interval.unwrap_or(sc.sample_interval_s);
            run(&sc);
        }
    }
}

fn run(sc: &Scenario) {
    let est = sim_core::scenario::cost::estimate(sc);
    let base = NOW.load(Relaxed);
    PEAK.store(base, Relaxed);
    let start = Instant::now();
    let mut sim = Simulation::new(sc).expect("valid");
    sim.step_until(sim.end());
    let secs = start.elapsed().as_secs_f64();
    let engine_peak = PEAK.load(Relaxed) - base;
    let s = sim.summary();
    let summary_peak = PEAK.load(Relaxed) - base;
    let (done, unfinished) = sim.completions();
    let records = TRANSFER_BYTES * done.len().next_power_of_two();
    let digest = digest(&done);
    let events = s.events;
    drop(sim);

    // Open connections, sampled every millisecond.
    let mut sim = Simulation::new(sc).expect("valid");
    let (mut open_max, mut t) = (0, SimTime::ZERO);
    while t < sim.end() {
        t = SimTime(t.as_nanos() + 1_000_000).min(sim.end());
        sim.step_until(t);
        let open = (0..sc.total_flows())
            .filter(|&f| {
                let s = sim.sender(f);
                s.started_at().is_some() && !s.is_complete()
            })
            .count();
        open_max = open_max.max(open);
    }
    assert_eq!(sim.completions().0.len(), done.len(), "stepped the same");

    let mb = |b: usize| b as f64 / 1e6;
    println!(
        "{} {:.0} s: {events} events in {secs:.3} s ({:.2} M events/s); {} transfers completed, {unfinished} unfinished; \
         at most {open_max} connections open; peak heap {:.1} MB at the last event ({:.1} MB of it completion records, \
         {:.1} MB without), {:.1} MB after the summary; estimate {:.2e} events, {:.1} MB; completions digest {digest:016x}",
        sc.name,
        sc.duration_s,
        events as f64 / secs / 1e6,
        done.len(),
        mb(engine_peak),
        mb(records),
        mb(engine_peak.saturating_sub(records)),
        mb(summary_peak),
        est.events,
        est.bytes / 1e6,
    );
}

/// FNV-1a over every completion's fields, bit for bit.
fn digest(done: &[sim_core::metrics::fct::Completion]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for c in done {
        for w in [
            u64::from(c.flow),
            u64::from(c.group),
            c.bytes,
            c.start_s.to_bits(),
            c.fct_s.to_bits(),
            c.ideal_s.to_bits(),
        ] {
            for b in w.to_le_bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    h
}
