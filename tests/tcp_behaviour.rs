//! TCP over the simulator behaves as TCP should: fills a path, shares it fairly.

use aqm_tests::{assert_conserved, run};
use sim_core::aqm::{QueueDiscSpec, QueueLimit};
use sim_core::cc::CcaSpec;
use sim_core::scenario::{FlowGroup, Link, Scenario};
use sim_core::sim::{Simulation, BOTTLENECK};
use sim_core::tcp::TcpConfig;
use sim_core::time::SimTime;

/// 10 Mbit/s bottleneck, 20 ms base RTT, FIFO of one bandwidth-delay product (25 kB).
fn path(flows: Vec<FlowGroup>, duration_s: f64) -> Scenario {
    Scenario {
        name: "bdp-fifo".into(),
        duration_s,
        links: Scenario::one_link(Link::new(10_000_000, 9.0, QueueDiscSpec::fifo(QueueLimit::Bytes(25_000)))),
        flows,
        tcp: TcpConfig { mss_bytes: 1448, ..TcpConfig::default() },
        ..Scenario::default()
    }
}

fn group(cca: CcaSpec, count: u32) -> FlowGroup {
    FlowGroup { count, cca, access_rate_bps: 100_000_000, access_delay_ms: 1.0, ..FlowGroup::default() }
}

fn utilisation_after_slow_start(cca: CcaSpec) -> f64 {
    let sc = path(vec![group(cca, 1)], 30.0);
    let mut sim = Simulation::new(&sc).unwrap();
    sim.step_until(SimTime::from_secs_f64(5.0));
    let before = sim.link_tx_bytes(BOTTLENECK);
    let summary = sim.finish();
    assert_conserved(&summary);
    let bits = (sim.link_tx_bytes(BOTTLENECK) - before) as f64 * 8.0;
    bits / (10e6 * 25.0)
}

#[test]
fn one_newreno_flow_fills_a_path_with_a_one_bdp_buffer() {
    let u = utilisation_after_slow_start(CcaSpec::NewReno(Default::default()));
    println!("utilisation {u:.4}");
    assert!(u >= 0.95, "utilisation {u:.4}");
}

#[test]
fn one_cubic_flow_fills_a_path_with_a_one_bdp_buffer() {
    let u = utilisation_after_slow_start(CcaSpec::default());
    println!("utilisation {u:.4}");
    assert!(u >= 0.95, "utilisation {u:.4}");
}

#[test]
fn two_identical_newreno_flows_share_a_fifo_fairly() {
    // The second flow joins 2 s late, so fairness has to be reached, not just kept.
    let late = FlowGroup { start_s: 2.0, ..group(CcaSpec::NewReno(Default::default()), 1) };
    let mut sc = path(vec![group(CcaSpec::NewReno(Default::default()), 1), late], 60.0);
    sc.warmup_s = 5.0;
    let (_, s) = run(&sc);
    println!("JFI {:.4} {:?}", s.jfi, s.flows.iter().map(|f| f.throughput_bps).collect::<Vec<_>>());
    assert!(
        s.jfi >= 0.95,
        "JFI {:.4}, flows {:?}",
        s.jfi,
        s.flows.iter().map(|f| f.throughput_bps).collect::<Vec<_>>()
    );
}

#[test]
fn a_finite_flow_completes_and_delivers_exactly_its_bytes() {
    let g = FlowGroup { size_bytes: Some(1_000_000), ..group(CcaSpec::default(), 1) };
    let (_, s) = run(&path(vec![g], 10.0));
    assert_eq!(s.flows[0].delivered_bytes, 1_000_000);
    let fct = s.flows[0].completion_time_s.expect("flow finished");
    // 1 MB at 10 Mbit/s takes 0.8 s of serialisation plus slow start.
    assert!((0.8..2.0).contains(&fct), "completion time {fct}");
}

#[test]
fn a_flow_alone_completes_near_its_ideal_and_a_queue_slows_the_short_flows_most() {
    // One segment alone: two RTTs and one packet's time, within the one-packet store and
    // forward at each hop the ideal leaves out.
    let one = FlowGroup { size_bytes: Some(1000), ..group(CcaSpec::default(), 1) };
    let (_, s) = run(&path(vec![one], 5.0));
    let f = s.fct.expect("a finite flow");
    let alone = f.all.expect("it completed");
    assert_eq!((f.completed, f.unfinished), (1, 0));
    assert!((1.0..1.01).contains(&alone.slowdown_p50), "slowdown {}", alone.slowdown_p50);
    // Beside a bulk flow, 20 short flows' tail waits far longer, relative to their ideal,
    // than the one long flow: a loss costs a short flow a timeout, a long one a fast
    // recovery.
    let bulk = group(CcaSpec::default(), 1);
    let short = FlowGroup {
        size_bytes: Some(5_000),
        start_s: 3.0,
        start_jitter_s: 5.0,
        ..group(CcaSpec::default(), 20)
    };
    let long = FlowGroup { size_bytes: Some(2_000_000), start_s: 3.0, ..group(CcaSpec::default(), 1) };
    let sc = path(vec![bulk, short, long], 20.0);
    let (_, s) = run(&sc);
    let f = s.fct.expect("finite flows");
    assert_eq!(f.completed, 21, "{f:?}");
    let small = &f.by_size[0];
    let big = f.by_size.last().unwrap();
    assert_eq!((small.flows, small.max_bytes, big.flows), (20, Some(10_000), 1));
    assert!(small.slowdown_p95 > 3.0 * big.slowdown_p95 && big.slowdown_p50 > 1.0, "{f:?}");
    // Every flow took at least its ideal.
    for fl in s.flows.iter().filter(|fl| fl.completion_time_s.is_some()) {
        let g = &sc.flows[fl.group as usize];
        let fct = fl.completion_time_s.unwrap() - fl.start_time_s.unwrap();
        assert!(fct >= sc.ideal_fct_s(g, g.size_bytes.unwrap()), "flow {}: {fct} s", fl.id);
    }
    assert!(f.by_size.iter().all(|r| r.slowdown_p50 >= 1.0
        && r.slowdown_p50 <= r.slowdown_p95
        && r.slowdown_p95 <= r.slowdown_p99));
}

#[test]
fn a_long_loss_free_newreno_flow_saturates_cwnd_and_stays_within_rwnd() {
    // 65 kB segments and a 20-segment receive window over a 10 Gbit/s, 1 ms path: the flow
    // is limited by rwnd and never loses a packet, while NewReno keeps growing cwnd on every
    // ACK. It passes 4 GiB in slow start after ~3.5 s and would wrap (or panic in a debug
    // build) one window of ACKs later; it must stop at u32::MAX instead.
    let mss = 65_000;
    let rwnd = 20 * mss;
    let sc = Scenario {
        name: "cwnd-saturation".into(),
        duration_s: 10.0,
        links: Scenario::one_link(Link::new(
            10_000_000_000,
            0.25,
            QueueDiscSpec::fifo(QueueLimit::Packets(10_000)),
        )),
        flows: vec![FlowGroup {
            count: 1,
            cca: CcaSpec::NewReno(Default::default()),
            access_rate_bps: 10_000_000_000,
            access_delay_ms: 0.25,
            ..FlowGroup::default()
        }],
        tcp: TcpConfig {
            mss_bytes: mss,
            send_buffer_bytes: 1 << 30,
            recv_buffer_bytes: rwnd,
            ..TcpConfig::default()
        },
        ..Scenario::default()
    };
    let mut sim = Simulation::new(&sc).unwrap();
    let mut prev = 0;
    for step in 1..=100 {
        sim.step_until(SimTime::from_secs_f64(f64::from(step) * 0.1));
        let s = sim.sender(0);
        assert!(s.cwnd() >= prev, "cwnd fell from {prev} to {} at {step}00 ms without a loss", s.cwnd());
        assert!(s.bytes_in_flight() <= rwnd, "{} bytes in flight exceed rwnd {rwnd}", s.bytes_in_flight());
        prev = s.cwnd();
    }
    let summary = sim.finish();
    assert_conserved(&summary);
    assert_eq!(summary.drops.total_all, 0, "the run is loss-free");
    assert_eq!(prev, u32::MAX, "cwnd saturates");
    assert_eq!(sim.sender(0).stats().retransmissions, 0);
}
