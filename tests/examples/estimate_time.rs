//! The time the cost estimate announces against the time runs take, on every preset and on
//! the scenarios built to fool the estimate (`tests/cost.rs` holds events, heap and disk to
//! it; time is measured here, not asserted in a test):
//! `cargo run --release -p aqm-tests --example estimate_time [NAME-FILTER]`.
//! Each run is timed three times; the median is quoted.

use sim_core::scenario::cost;
use sim_core::sim::Simulation;
use sim_core::time::SimTime;
use std::time::Instant;

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let mut scenarios = aqm_tests::every_preset_variant();
    scenarios.extend(aqm_tests::costly_scenarios().into_iter().map(|(n, s)| (n.to_string(), s)));
    scenarios.extend(large());
    let mut worst: (f64, String) = (1.0, String::new());
    for (name, sc) in scenarios.iter().filter(|(n, _)| n.contains(&filter)) {
        let c = cost::estimate(sc);
        let announced = c.seconds_at(cost::EVENTS_PER_S);
        let mut times = Vec::new();
        let mut events = 0;
        for _ in 0..3 {
            let t = Instant::now();
            let mut sim = Simulation::new(sc).expect("valid");
            let end = sim.end().as_nanos();
            // Polled every 1 %, as the CLI and the page do.
            for pct in 1..=100u64 {
                sim.step_until(SimTime(end * pct / 100));
                let _ = sim.poll();
            }
            let _ = sim.summary();
            times.push(t.elapsed().as_secs_f64());
            events = sim.events_processed();
        }
        times.sort_by(f64::total_cmp);
        let took = times[1];
        let ratio = took / announced;
        let off = ratio.max(1.0 / ratio);
        if off > worst.0 {
            worst = (off, name.clone());
        }
        println!(
            "{name:34} {:9.2e} events + {:9.2e} work  announced {announced:8.3} s  took {took:8.3} s  ({:5.1} M events/s)  ratio {ratio:5.2}",
            c.events,
            c.work,
            events as f64 / took / 1e6,
        );
    }
    println!("furthest from the estimate: {:.2}x ({})", worst.0, worst.1);
}

/// Runs too long for a debug-built test: 10 000 flows on fast and slow paths.
fn large() -> Vec<(String, sim_core::scenario::Scenario)> {
    use sim_core::scenario::{preset, Scenario};
    let big = |json: &str| {
        let mut sc = Scenario::from_json(json).expect("bench scenario");
        (sc.duration_s, sc.warmup_s) = (3.0, sc.warmup_s.min(1.0));
        sc
    };
    let mut out = vec![
        (
            "10 000 flows, 10 Gbit/s FIFO, 3 s".to_string(),
            big(include_str!("../../sim-core/benches/scenarios/fifo_10000_flows_10gbps.json")),
        ),
        (
            "10 000 flows, 10 Gbit/s FQ-CoDel, 3 s".to_string(),
            big(include_str!("../../sim-core/benches/scenarios/fq_codel_10000_flows_10gbps.json")),
        ),
    ];
    let mut sc = preset("rtt-unfair", Some("fifo")).expect("preset");
    (sc.flows[0].count, sc.flows[1].count, sc.duration_s, sc.warmup_s) = (5000, 5000, 5.0, 1.0);
    sc.bottleneck_mut().rate_bps = 1_000_000_000;
    out.push(("10 000 flows, 1 Gbit/s FIFO, 5 s".to_string(), sc));
    out
}
