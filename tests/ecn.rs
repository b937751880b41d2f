//! ECN (issue 25): marks in place of drops, RFC 3168's once-per-round-trip reduction,
//! DCTCP (RFC 8257) holding a step-marking queue near its threshold, every disc that marks,
//! and L4S: TCP Prague beside CUBIC through DualPI2 (RFC 9332).

use aqm_tests::run;
use sim_core::aqm::{
    CodelConfig, FqCodelConfig, FqPieConfig, PieConfig, QueueDiscSpec, QueueLimit, RedConfig, StepConfig,
};
use sim_core::cc::{CcaSpec, DctcpConfig, NewRenoConfig};
use sim_core::metrics::Summary;
use sim_core::scenario::{preset, FlowGroup, Link, Scenario};
use sim_core::switch::SwitchConfig;
use sim_core::tcp::TcpConfig;

/// `flows` through one 1 Gbit/s link of base RTT 0.2 ms, 10 s, Linux-like TCP.
fn datacentre(queue: QueueDiscSpec, flows: Vec<FlowGroup>) -> Scenario {
    Scenario {
        duration_s: 10.0,
        warmup_s: 2.0,
        links: Scenario::one_link(Link::new(1_000_000_000, 0.05, queue)),
        flows,
        tcp: TcpConfig {
            mss_bytes: 1448,
            min_rto_ms: 200.0,
            send_buffer_bytes: 6 << 20,
            recv_buffer_bytes: 6 << 20,
            ..TcpConfig::default()
        },
        ..Scenario::default()
    }
}

fn group(count: u32, cca: CcaSpec, ecn: bool) -> FlowGroup {
    FlowGroup {
        count,
        cca,
        access_rate_bps: 10_000_000_000,
        access_delay_ms: 0.05,
        ecn,
        ..FlowGroup::default()
    }
}

fn step(k: u32) -> QueueDiscSpec {
    QueueDiscSpec::Step(StepConfig { limit: QueueLimit::Packets(250), k_packets: k })
}

fn marks(s: &Summary) -> u64 {
    s.marks.as_ref().map_or(0, |m| m.total)
}

#[test]
fn dctcp_holds_a_step_queue_near_k_at_full_rate_without_a_loss() {
    let dctcp = CcaSpec::Dctcp(DctcpConfig::default());
    let (_, s) = run(&datacentre(step(20), vec![group(2, dctcp, false)]));
    let q = s.queue.mean_packets.unwrap();
    println!(
        "{:.1} Mbit/s, queue {q:.1} (p99 {:?}), {} marks, {} drops",
        s.throughput.mean_bps / 1e6,
        s.queue.p99_packets,
        marks(&s),
        s.drops.total
    );
    assert!(s.throughput.utilisation > 0.95, "utilisation {:.3}", s.throughput.utilisation);
    assert_eq!(s.drops.total_all, 0, "a DCTCP flow that reacts to marks loses nothing");
    assert!((12.0..=24.0).contains(&q), "queue {q:.1} packets against K = 20");
    assert!(s.queue.p99_packets.unwrap() < 30.0, "p99 {:?}", s.queue.p99_packets);
    assert!(s.jfi > 0.98, "Jain's index {:.3}", s.jfi);
    let m = s.marks.as_ref().unwrap();
    assert_eq!(m.total, m.threshold, "a step marker marks at its threshold only");
    assert_eq!(s.flows.iter().map(|f| f.marks).sum::<u64>(), m.total, "every mark is some flow's");
}

#[test]
fn a_flow_that_did_not_ask_for_ecn_is_dropped_not_marked() {
    let reno = CcaSpec::NewReno(NewRenoConfig::default());
    let (_, without) = run(&datacentre(step(20), vec![group(2, reno.clone(), false)]));
    assert_eq!(marks(&without), 0);
    assert!(without.drops.total > 0);
    // The same flows with classic ECN: halved on an echo, no drop at the threshold.
    let (_, with) = run(&datacentre(step(20), vec![group(2, reno, true)]));
    println!("drops {} → {}, marks {}", without.drops.total, with.drops.total, marks(&with));
    assert!(
        marks(&with) > 0 && with.drops.total_all == 0,
        "{} drops, {} marks",
        with.drops.total_all,
        marks(&with)
    );
    let retx = |s: &Summary| s.flows.iter().map(|f| f.retransmissions).sum::<u64>();
    assert_eq!(retx(&with), 0, "nothing lost, nothing resent");
    assert!(with.throughput.utilisation > 0.9, "utilisation {:.3}", with.throughput.utilisation);
}

#[test]
fn red_with_ecn_marks_what_it_would_drop_early() {
    let red = |use_ecn| {
        QueueDiscSpec::Red(RedConfig {
            limit: QueueLimit::Packets(250),
            min_th: 20.0,
            max_th: 60.0,
            use_ecn,
            use_hard_drop: false,
            ..RedConfig::default()
        })
    };
    let cubic = CcaSpec::default();
    let (_, plain) = run(&datacentre(red(false), vec![group(4, cubic.clone(), true)]));
    let (_, ecn) = run(&datacentre(red(true), vec![group(4, cubic, true)]));
    println!("drops {} → {} with {} marks", plain.drops.total, ecn.drops.total, marks(&ecn));
    assert_eq!(marks(&plain), 0, "a RED without ECN never marks");
    assert!(ecn.drops.early + ecn.drops.forced == 0, "every RED signal is a mark: {:?}", ecn.drops);
    assert!(
        ecn.drops.total * 10 < plain.drops.total.max(1),
        "drops {} against {}",
        ecn.drops.total,
        plain.drops.total
    );
    assert!(marks(&ecn) > 0);
    let q = |s: &Summary| s.queue.mean_packets.unwrap();
    assert!((q(&ecn) - q(&plain)).abs() < 0.5 * q(&plain), "queue {:.1} against {:.1}", q(&ecn), q(&plain));
}

#[test]
fn codel_and_fq_codel_mark_ecn_flows_where_they_would_drop() {
    // A data centre's CoDel: 0.2 ms target in a 2 ms interval (5 ms would need more than
    // the buffer at 1 Gbit/s).
    let (limit, target_ms, interval_ms) = (QueueLimit::Packets(250), 0.2, 2.0);
    let codel = |ecn| {
        QueueDiscSpec::Codel(CodelConfig { limit, ecn, target_ms, interval_ms, ..CodelConfig::default() })
    };
    let fq =
        QueueDiscSpec::FqCodel(FqCodelConfig { limit, target_ms, interval_ms, ..FqCodelConfig::default() });
    let cubic = CcaSpec::default();
    let (_, dropping) = run(&datacentre(codel(false), vec![group(4, cubic.clone(), true)]));
    assert!(dropping.drops.early > 0 && marks(&dropping) == 0);
    for disc in [codel(true), fq] {
        let (_, s) = run(&datacentre(disc, vec![group(4, cubic.clone(), true)]));
        println!("{} drops {} marks {}", s.queue_disc, s.drops.total_all, marks(&s));
        assert_eq!(s.drops.early, 0, "{}: the control law marks instead", s.queue_disc);
        assert!(marks(&s) > 0);
        assert!(s.throughput.utilisation > 0.9, "utilisation {:.3}", s.throughput.utilisation);
    }
}

#[test]
fn a_ce_threshold_holds_dctcp_at_the_threshold_without_loss() {
    // CoDel's ce_threshold as DCTCP's step: 0.1 ms at 1 Gbit/s is about 8 packets.
    let disc = QueueDiscSpec::Codel(CodelConfig {
        limit: QueueLimit::Packets(250),
        ce_threshold_ms: Some(0.1),
        ..CodelConfig::default()
    });
    let (_, s) = run(&datacentre(disc, vec![group(2, CcaSpec::Dctcp(DctcpConfig::default()), false)]));
    let q = s.queue.mean_packets.unwrap();
    println!("{:.1} Mbit/s, queue {q:.1}, marks {}", s.throughput.mean_bps / 1e6, marks(&s));
    assert_eq!(s.drops.total_all, 0);
    assert!(s.throughput.utilisation > 0.9, "utilisation {:.3}", s.throughput.utilisation);
    assert!(q < 20.0, "queue {q:.1} packets against a threshold of about 8");
    assert_eq!(s.marks.as_ref().unwrap().threshold, marks(&s), "marked at the threshold only");
}

#[test]
fn pie_marks_ecn_flows_while_its_probability_is_low() {
    let pie = |ecn| {
        QueueDiscSpec::Pie(PieConfig {
            limit: QueueLimit::Packets(250),
            target_ms: 0.5,
            ecn,
            ..PieConfig::default()
        })
    };
    let cubic = CcaSpec::default();
    let (_, dropping) = run(&datacentre(pie(false), vec![group(4, cubic.clone(), true)]));
    let (_, marking) = run(&datacentre(pie(true), vec![group(4, cubic, true)]));
    println!("early drops {} → {}, marks {}", dropping.drops.early, marking.drops.early, marks(&marking));
    assert!(dropping.drops.early > 0);
    assert!(marks(&marking) > 0);
    assert!(marking.drops.early * 10 < dropping.drops.early, "{:?}", marking.drops);
}

#[test]
fn fq_pie_marks_ecn_flows_in_each_flows_queue_and_drops_the_others() {
    let fq_pie = QueueDiscSpec::FqPie(FqPieConfig {
        limit: QueueLimit::Packets(250),
        target_ms: 0.5,
        ..FqPieConfig::default()
    });
    let cubic = CcaSpec::default();
    let mixed = vec![group(2, cubic.clone(), true), group(2, cubic, false)];
    let (_, s) = run(&datacentre(fq_pie, mixed));
    let (ecn, plain) = s.flows.split_at(2);
    println!("marks {:?}, drops {:?}", s.marks, s.drops);
    // PIE marks only while p ≤ 10 % and classic ECN resends Not-ECT: the ECN flows lose
    // some packets too, but fewer than the flows that are only ever dropped.
    let most_resent = ecn.iter().map(|f| f.retransmissions).max().unwrap();
    assert!(ecn.iter().all(|f| f.marks > 0), "the ECN flows are marked");
    assert!(plain.iter().all(|f| f.marks == 0 && f.retransmissions > most_resent), "the others are dropped");
    assert!(s.jfi > 0.95, "each flow its own queue: Jain's index {:.3}", s.jfi);
}

#[test]
fn a_switch_port_marks_at_its_cell_threshold_and_holds_dctcp_there() {
    // One queue of a Tofino-like port: 20 full packets are 200 cells of 160 bytes.
    let port = QueueDiscSpec::Switch(SwitchConfig {
        queues: 1,
        queue_limit_cells: 2500,
        ecn_threshold_cells: Some(200),
        ..SwitchConfig::default()
    });
    let (_, s) = run(&datacentre(port, vec![group(2, CcaSpec::Dctcp(DctcpConfig::default()), false)]));
    let q = s.queue.mean_packets.unwrap();
    println!("{:.1} Mbit/s, queue {q:.1}, marks {}", s.throughput.mean_bps / 1e6, marks(&s));
    assert_eq!(s.drops.total_all, 0);
    assert!(s.throughput.utilisation > 0.95);
    assert!((10.0..=26.0).contains(&q), "queue {q:.1} packets against 20 packets' cells");
}

/// The L4S preset's claims (RFC 9330 §1, RFC 9332): through DualPI2 Prague's queue stays
/// under a millisecond, CUBIC's near the PI target, and the two rates within a factor of
/// two; Prague's packets are marked, never dropped.
#[test]
fn prague_and_cubic_share_dualpi2_with_a_shallow_l_queue() {
    let (_, s) = run(&preset("l4s-coexistence", Some("dualpi2")).unwrap());
    let (prague, cubic) = (&s.flows[0], &s.flows[1]);
    let ms = |d: Option<f64>| d.unwrap() * 1e3;
    println!(
        "Prague {:.1} Mbit/s, P95 {:.2} ms; CUBIC {:.1} Mbit/s, P50 {:.1} ms",
        prague.throughput_bps / 1e6,
        ms(prague.delay_p95_s),
        cubic.throughput_bps / 1e6,
        ms(cubic.delay_p50_s)
    );
    assert!(ms(prague.delay_p95_s) < 1.0, "the L queue: under a millisecond");
    assert!((8.0..=20.0).contains(&ms(cubic.delay_p50_s)), "the C queue: about the 15 ms target");
    let ratio = prague.throughput_bps / cubic.throughput_bps;
    assert!((0.5..=2.0).contains(&ratio), "rates within 2×: {ratio:.2}");
    assert!(s.throughput.utilisation > 0.9);
    assert_eq!(prague.retransmissions, 0, "Prague is marked, not dropped");
    assert!(prague.marks > 0 && cubic.marks == 0, "CUBIC did not ask for ECN: it is dropped instead");
    // Through PIE marking ECT packets Prague starves CUBIC; through DualPI2 it does not.
    let (_, pie) = run(&preset("l4s-coexistence", Some("pie-ecn")).unwrap());
    assert!(pie.flows[0].throughput_bps > 3.0 * pie.flows[1].throughput_bps);
}

#[test]
fn each_links_marks_are_counted_with_its_drops() {
    // DCTCP through a 10 Gbit/s FIFO, then the 1 Gbit/s step port: only the port marks.
    let mut sc = datacentre(step(20), vec![group(2, CcaSpec::Dctcp(DctcpConfig::default()), false)]);
    sc.links.insert(
        "edge".into(),
        Link::new(10_000_000_000, 0.01, QueueDiscSpec::fifo(QueueLimit::Packets(250))),
    );
    sc.flows[0].route = vec!["edge".into(), "bottleneck".into()];
    let (_, s) = run(&sc);
    let of = |name: &str| s.links.iter().find(|l| l.name == name).unwrap();
    assert_eq!(of("bottleneck").marks, marks(&s), "the studied link's marks are the summary's");
    assert!(marks(&s) > 0);
    assert_eq!(of("edge").marks, 0);
}
