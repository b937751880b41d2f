//! Helpers shared by the cross-crate tests (native and browser).

use sim_core::metrics::{summary_digest, Summary};
use sim_core::scenario::{preset, Scenario};
use sim_core::sim::Simulation;

/// Digest of [`determinism_probe`]'s summary. Native and wasm builds must both produce it;
/// if a deliberate model change moves it, update it here (the browser test checks the same).
pub const PROBE_DIGEST: u64 = 0x4ff3_daba_556c_754a;

/// A 10 s run of the RED study: short enough for a browser test, long enough to drop.
pub fn determinism_probe_scenario() -> Scenario {
    let mut sc = preset("red-study", Some("red")).expect("preset");
    sc.duration_s = 10.0;
    sc
}

pub fn run(sc: &Scenario) -> (Simulation, Summary) {
    let mut sim = Simulation::new(sc).unwrap_or_else(|e| panic!("invalid scenario: {e:?}"));
    let summary = sim.finish();
    assert_conserved(&summary);
    (sim, summary)
}

pub fn probe_digest() -> u64 {
    summary_digest(&run(&determinism_probe_scenario()).1)
}

/// Packet conservation: everything sent is delivered, dropped or still in the network.
pub fn assert_conserved(s: &Summary) {
    let c = s.packets;
    assert_eq!(c.sent, c.delivered + c.dropped + c.in_flight, "packet conservation violated: {c:?}");
}
