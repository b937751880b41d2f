//! Runs the 60 s RED study 50 times: a steady workload for `perf record` or callgrind.
//! `cargo build --release -p sim-core --example profile_red_study`

use sim_core::scenario::preset;
use sim_core::sim::Simulation;

fn main() {
    let sc = preset("red-study", Some("red")).expect("preset");
    let events: u64 = (0..50).map(|_| Simulation::new(&sc).expect("valid").finish().events).sum();
    println!("{events} events in 50 runs");
}
