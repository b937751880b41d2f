//! Helpers shared by the cross-crate tests (native and browser).

#[cfg(not(target_arch = "wasm32"))]
pub mod heap;
#[cfg(not(target_arch = "wasm32"))]
pub mod random;

use sim_core::metrics::{summary_digest, Summary};
use sim_core::scenario::{preset, Scenario};
use sim_core::sim::Simulation;

/// Digest of [`determinism_probe`]'s summary. Native and wasm builds must both produce it;
/// if a deliberate model change moves it, update it here (the browser test checks the same).
/// Last moved by the device queue's flow control as ns-3.44 has it (`net/link.rs`: the disc
/// is asked only while the device queue is not stopped, so RED's idle clock starts when
/// ns-3's does).
pub const PROBE_DIGEST: u64 = 0xf255_52dd_c6dd_fdd5;

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

/// Digest of [`warbler_probe_scenario`]'s summary and decision log (same contract). Moved
/// by issue 22's far start (farthest-first by ratio): the same flow → queue decisions,
/// but the log's `j_far` differs. Moved again by BBR leaving fast recovery at ssthresh
/// (ns-3.44's rule, now the default). Moved when the summary began to report the port's
/// long-flow sketch (`long_flows`; the run itself the same).
pub const WARBLER_DIGEST: u64 = 0xd55c_5d0c_2aa8_ced0;

/// 10 s of Warbler §5.2: the clustering (random initialisation included) must decide alike
/// natively and in the browser.
pub fn warbler_probe_scenario() -> Scenario {
    let mut sc = preset("cubic-bbr-vegas-3q", Some("warbler")).expect("preset");
    sc.duration_s = 10.0;
    sc.warmup_s = 1.0;
    sc
}

pub fn warbler_digest() -> u64 {
    let (sim, s) = run(&warbler_probe_scenario());
    let log = serde_json::to_string(&sim.recorder().log.kept).expect("log serialises");
    let fnv = |h: u64, b: u8| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    log.bytes().fold(summary_digest(&s), fnv)
}

/// Digest of [`split_probe_scenario`]'s summary (same contract; natively its senders run
/// on a second thread, in the browser both sides take turns).
pub const SPLIT_DIGEST: u64 = 0x548d_3138_0f64_ee25;

/// 2000 flows of the RTT-unfair pair through FQ-CoDel for 0.3 s: big enough that the
/// senders run apart (`sim-core/src/sim/lane.rs`).
pub fn split_probe_scenario() -> Scenario {
    let mut sc = preset("rtt-unfair", Some("fq-codel")).expect("preset");
    sc.flows[0].count = 1000;
    sc.flows[1].count = 1000;
    sc.duration_s = 0.3;
    sc.warmup_s = 0.1;
    sc
}

pub fn split_digest() -> u64 {
    summary_digest(&run(&split_probe_scenario()).1)
}

/// Digest of [`changes_probe_scenario`]'s summary and log (same contract): timed changes
/// apply alike natively and in the browser. Re-recorded for scenario version 2: the
/// summary echoes the changes' paths, now `links.bottleneck.…` (nothing else moved); and
/// when the bufferbloat preset it starts from became one upload, a ping and page fetches,
/// and when the summary began to give the ping's loss (`loss_pct`).
pub const CHANGES_DIGEST: u64 = 0xe29a_5e73_7226_778a;

/// The bufferbloat lecture's cut buffer (at 20 s) and then a slower link (at 22 s), 24 s.
pub fn changes_probe_scenario() -> Scenario {
    let mut sc = preset("bufferbloat", Some("fifo-cut")).expect("preset");
    sc.duration_s = 24.0;
    sc.changes.push(sim_core::scenario::TimedChange {
        at_s: 22.0,
        set: "links.bottleneck.rate_bps".into(),
        to: 5_000_000.into(),
    });
    sc
}

pub fn changes_digest() -> u64 {
    let (sim, s) = run(&changes_probe_scenario());
    let log = serde_json::to_string(&sim.recorder().log.kept).expect("log serialises");
    let fnv = |h: u64, b: u8| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    log.bytes().fold(summary_digest(&s), fnv)
}

/// Packet conservation: everything sent is delivered, dropped or still in the network.
pub fn assert_conserved(s: &Summary) {
    let c = s.packets;
    assert_eq!(c.sent, c.delivered + c.dropped + c.in_flight, "packet conservation violated: {c:?}");
}

/// Jain's index over each flow's mean goodput between `from_s` and `to_s` (samples whose
/// interval ends in (from, to]).
pub fn window_jfi(sim: &Simulation, from_s: f64, to_s: f64) -> f64 {
    sim.recorder().jfi_between(from_s, to_s)
}

/// Digest of the DQN agent's weights after [`DQN_PROBE_EPISODES`] training episodes on the
/// paper's dumbbell (same contract: native and browser alike).
pub const DQN_DIGEST: u64 = 0xd47a_e5e5_0913_97a0;
pub const DQN_PROBE_EPISODES: u32 = 5;

pub fn dqn_training_digest() -> u64 {
    let sc = preset("dqn-dumbbell", Some("dqn")).expect("preset");
    let (w, _) =
        sim_core::train::train(&sc, Default::default(), 1, DQN_PROBE_EPISODES, |_| {}).expect("trains");
    w.digest()
}

/// Digest of [`kmeans_probe`]'s decision: Warbler's clustering of 10 000 flows into 16 queues
/// (all three initialisations) must choose alike natively and in the browser. Moved by
/// issue 22's far start, whose candidate J enters the digest.
pub const KMEANS_DIGEST: u64 = 0x4771_05fe_4702_2d1b;

/// The paper's Fig. 12 point n = 10 000, K = 16, M = 3, on class-structured backlogs.
pub fn kmeans_probe() -> sim_core::warbler::Decision {
    use sim_core::rng::{SimRng, StreamId};
    use sim_core::warbler::{decide, BacklogSet, KmeansConfig};
    let set = BacklogSet::Classes { classes: 4, max_cells: 6000, jitter: 0.2 };
    let cells = set.sample(10_000, &mut SimRng::new(7, StreamId::Other(0)));
    let x: Vec<f64> = cells.iter().map(|&c| f64::from(c)).collect();
    let current: Vec<u32> = (0..x.len() as u32).map(|i| i % 16).collect();
    let cfg = KmeansConfig { k: 16, ..KmeansConfig::default() };
    decide(&x, Some(&current), &cfg, &mut SimRng::new(7, StreamId::Other(1))).expect("valid input")
}

pub fn kmeans_digest(d: &sim_core::warbler::Decision) -> u64 {
    let fnv = |h: u64, b: u8| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    let labels = d.chosen.labels.iter().flat_map(|l| l.to_le_bytes());
    let objective = d.candidates.iter().flat_map(|c| c.partition.objective.to_bits().to_le_bytes());
    labels.chain(objective).fold(0xcbf2_9ce4_8422_2325, fnv)
}

/// Every variant of every preset, named `preset/variant`.
pub fn every_preset_variant() -> Vec<(String, Scenario)> {
    let mut out = Vec::new();
    for p in sim_core::scenario::preset_list() {
        for v in p.variants.iter() {
            out.push((format!("{}/{v}", p.name), preset(p.name, Some(v)).expect("preset")));
        }
    }
    out
}

/// Scenarios built to make a run cost far more than its packets (issue 21's cases, scaled
/// to run in seconds).
pub fn costly_scenarios() -> Vec<(&'static str, Scenario)> {
    let mut out = Vec::new();
    // Timers: min_rto = max_rto = 1 ms, below every RTT: each flow times out every ms.
    let mut sc = preset("rtt-unfair", Some("fifo")).unwrap();
    (sc.flows[0].count, sc.flows[1].count, sc.duration_s, sc.warmup_s) = (1000, 1000, 2.0, 0.5);
    (sc.tcp.min_rto_ms, sc.tcp.max_rto_ms, sc.tcp.initial_rto_ms) = (1.0, 1.0, 1.0);
    out.push(("1 ms RTO, 2000 flows", sc));
    // The same timers where most handshakes fail: 10 000 SYNs at once at a 2 Mbit/s link
    // with room for 200; the rest retry after 3 s and find it full.
    let mut sc = preset("red-study", None).unwrap();
    (sc.flows[0].count, sc.duration_s, sc.warmup_s) = (10_000, 5.0, 1.0);
    (sc.tcp.min_rto_ms, sc.tcp.max_rto_ms, sc.tcp.initial_rto_ms) = (1.0, 1.0, 1.0);
    out.push(("1 ms RTO, 10 000 flows, 2 Mbit/s", sc));
    // A parking lot of three 100 Mbit/s links, 200 flows: every hop's packets cost events.
    let mut sc = preset("rtt-unfair", Some("fifo")).unwrap();
    let hop = sim_core::scenario::Link { nic_queue_packets: 0, ..sc.bottleneck().clone() };
    sc.links.insert("hop2".into(), hop.clone());
    sc.links.insert("hop3".into(), hop);
    let long = sim_core::scenario::FlowGroup {
        count: 50,
        route: vec!["bottleneck".into(), "hop2".into(), "hop3".into()],
        ..sc.flows[0].clone()
    };
    let one = |name: &str| sim_core::scenario::FlowGroup {
        count: 50,
        route: vec![name.into()],
        ..sc.flows[1].clone()
    };
    sc.flows = vec![long, one("bottleneck"), one("hop2"), one("hop3")];
    (sc.duration_s, sc.warmup_s) = (3.0, 0.5);
    out.push(("parking lot, 3 links, 200 flows", sc));
    // A control plane deciding every ms over 2000 flows, each decision logging two
    // per-flow arrays.
    let mut sc = preset("cubic-vegas-2q", Some("warbler")).unwrap();
    (sc.flows[0].count, sc.flows[1].count, sc.duration_s, sc.warmup_s) = (1000, 1000, 2.0, 0.5);
    if let sim_core::aqm::QueueDiscSpec::Switch(p) = &mut sc.bottleneck_mut().queue {
        p.initial_mapping.clear();
        (p.control_period_ms, p.compute_latency_ms) = (1.0, 0.0);
        if let sim_core::switch::ControlPlaneSpec::Warbler(w) = &mut p.control {
            w.activation_s = 0.5;
        }
    }
    out.push(("Warbler every 1 ms, 2000 flows", sc));
    // A large bandwidth-delay product: 10 Gbit/s, 42 ms, a queue of one BDP.
    let mut sc = preset("rtt-unfair", Some("fifo")).unwrap();
    sc.bottleneck_mut().rate_bps = 10_000_000_000;
    for g in &mut sc.flows {
        g.access_rate_bps = 10_000_000_000;
    }
    sc.bottleneck_mut().queue =
        sim_core::aqm::QueueDiscSpec::fifo(sim_core::aqm::QueueLimit::Packets(35_000));
    (sc.duration_s, sc.warmup_s) = (3.0, 0.5);
    out.push(("10 Gbit/s, one-BDP FIFO", sc));
    // Every flow's trace every ms: the flows CSV is what grows.
    let mut sc = preset("rtt-unfair", Some("fifo")).unwrap();
    (sc.flows[0].count, sc.flows[1].count, sc.duration_s, sc.warmup_s) = (5000, 5000, 1.0, 0.2);
    sc.sample_interval_s = 0.001;
    out.push(("10 000 flows sampled every 1 ms", sc));
    out
}
