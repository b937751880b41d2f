//! Vegas and BBR alone on a dumbbell with a large FIFO: each should fill the link while
//! keeping the queue short (Vegas: α..β segments; BBR: about a BDP at most).

use sim_core::aqm::{QueueDiscSpec, QueueLimit};
use sim_core::cc::{BbrConfig, BbrMode, CcaSpec, VegasConfig};
use sim_core::scenario::{FlowGroup, Link, Scenario};
use sim_core::sim::Simulation;
use sim_core::tcp::TcpConfig;
use sim_core::time::SimTime;

const MSS: f64 = 1448.0;
/// Payload share of a full-sized packet on the wire (1448 + 54 bytes of headers).
const PAYLOAD_SHARE: f64 = MSS / 1502.0;

/// One flow of `cca` over a bottleneck of `rate_bps` with base RTT `rtt_ms` (1 ms access
/// links each way) and a FIFO far larger than the BDP.
fn alone(cca: CcaSpec, rate_bps: u64, rtt_ms: f64, duration_s: f64, tcp: TcpConfig) -> Scenario {
    Scenario {
        name: "alone".into(),
        duration_s,
        warmup_s: 5.0,
        sample_interval_s: 0.01,
        links: Scenario::one_link(Link::new(
            rate_bps,
            rtt_ms / 2.0 - 1.0,
            QueueDiscSpec::fifo(QueueLimit::Packets(5_000)),
        )),
        flows: vec![FlowGroup {
            cca,
            access_rate_bps: 10 * rate_bps,
            access_delay_ms: 1.0,
            ..FlowGroup::default()
        }],
        tcp,
        ..Scenario::default()
    }
}

fn mean_queue_after_warmup(sim: &Simulation, warmup_s: f64) -> f64 {
    let q: Vec<f64> = sim
        .recorder()
        .samples
        .kept
        .iter()
        .filter(|s| s.t_s > warmup_s)
        .map(|s| f64::from(s.queue_packets))
        .collect();
    q.iter().sum::<f64>() / q.len() as f64
}

#[test]
fn vegas_holds_between_alpha_and_beta_segments_queued_when_alone() {
    let tcp = TcpConfig { mss_bytes: 1448, ..TcpConfig::default() };
    let sc = alone(CcaSpec::Vegas(VegasConfig::default()), 10_000_000, 20.0, 30.0, tcp);
    let mut sim = Simulation::new(&sc).unwrap();
    let summary = sim.finish();
    let q = mean_queue_after_warmup(&sim, sc.warmup_s);
    let u = summary.throughput.utilisation;
    let m = sim.cc_metrics(0).unwrap();
    println!(
        "vegas: mean queue {q:.2} packets, utilisation {u:.4} (payload ceiling {PAYLOAD_SHARE:.4}), \
         BaseRTT {:?} ms, last diff {:?}, drops {}, retransmissions {}",
        m.get("base_rtt_ms"),
        m.get("diff_segments"),
        summary.drops.total_all,
        summary.flows[0].retransmissions
    );
    assert!((1.0..=6.0).contains(&q), "mean queue {q:.2} packets");
    assert!(u >= 0.9 * PAYLOAD_SHARE, "utilisation {u:.4}");
    assert_eq!(summary.drops.total_all, 0, "Vegas alone never overflows a large buffer");
}

#[test]
fn bbr_fills_a_fast_path_with_a_short_queue_and_probes_rtt() {
    let tcp = TcpConfig {
        mss_bytes: 1448,
        send_buffer_bytes: 4 << 20,
        recv_buffer_bytes: 4 << 20,
        ..TcpConfig::default()
    };
    let sc = alone(CcaSpec::Bbr(BbrConfig::default()), 100_000_000, 10.0, 20.0, tcp);
    let mut sim = Simulation::new(&sc).unwrap();
    // Watch the state machine every 10 ms of simulated time.
    let mut modes: Vec<(f64, &str)> = Vec::new();
    let mut t = 0.0;
    while !sim.is_finished() {
        t += 0.01;
        sim.step_until(SimTime::from_secs_f64(t));
        let mode = sim.cc_metrics(0).unwrap().mode.unwrap();
        if modes.last().map(|(_, m)| *m) != Some(mode) {
            modes.push((t, mode));
        }
    }
    let summary = sim.summary();
    let q = mean_queue_after_warmup(&sim, sc.warmup_s);
    let u = summary.throughput.utilisation;
    let m = sim.cc_metrics(0).unwrap();
    // BDP: 100 Mbit/s × 10 ms = 125 kB ≈ 83 packets of 1502 bytes.
    let bdp_packets = 100e6 * 0.010 / 8.0 / 1502.0;
    println!(
        "bbr: mean queue {q:.1} packets ({:.2} BDP), utilisation {u:.4} (payload ceiling \
         {PAYLOAD_SHARE:.4}), BtlBw {:.2} Mbit/s, RTprop {:?} ms, ProbeRTT {:?}×, drops {}",
        q / bdp_packets,
        m.get("btl_bw_bps").unwrap() / 1e6,
        m.get("rt_prop_ms"),
        m.get("probe_rtt_count"),
        summary.drops.total_all
    );
    println!("modes: {modes:?}");
    println!("events {} packets {:?}", summary.events, summary.packets);
    assert_eq!(modes[0].1, BbrMode::Startup.as_str());
    assert!(modes.iter().any(|(_, m)| *m == BbrMode::Drain.as_str()));
    assert!(u >= 0.9 * PAYLOAD_SHARE, "utilisation {u:.4}");
    assert!(q <= 2.0 * bdp_packets, "mean queue {q:.1} packets");
    let probe_rtt = m.get("probe_rtt_count").unwrap();
    assert!(probe_rtt >= 1.0, "never entered ProbeRTT");
    assert!(modes.iter().any(|(_, m)| *m == BbrMode::ProbeRtt.as_str()), "ProbeRTT not seen in {modes:?}");
    // ~83 packets per BDP: the bandwidth estimate is within a few percent of the payload rate.
    let btl = m.get("btl_bw_bps").unwrap();
    assert!((0.9 * PAYLOAD_SHARE * 100e6..=1.05 * 100e6).contains(&btl), "BtlBw {btl}");
}
