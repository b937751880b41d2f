//! Runs one scenario file to the end without writing anything, for profiling:
//! `cargo run --release --example run_scenario -- FILE [duration_s]` prints events, packets,
//! drops, wall time and events/s.

use sim_core::scenario::Scenario;
use sim_core::sim::Simulation;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: run_scenario FILE [duration_s]");
    let text = std::fs::read_to_string(&path).expect("read scenario");
    let mut sc = Scenario::from_json(&text).expect("parse scenario");
    if let Some(d) = args.next() {
        sc.duration_s = d.parse().expect("duration_s");
    }
    let start = Instant::now();
    let mut sim = Simulation::new(&sc).expect("valid scenario");
    if std::env::var_os("AQMSIM_SERIAL").is_some() {
        sim.set_parallel(false);
    }
    let s = sim.finish();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{}: {} events, {} delivered, {} dropped, {:.3} s, {:.3} M events/s",
        sc.name,
        s.events,
        s.packets.delivered,
        s.drops.total_all,
        secs,
        s.events as f64 / secs / 1e6
    );
}
