//! ECN (issue 25): marks in place of drops, RFC 3168's once-per-round-trip reduction, and
//! DCTCP (RFC 8257) holding a step-marking queue near its threshold.

use aqm_tests::run;
use sim_core::aqm::{QueueDiscSpec, QueueLimit, RedConfig, StepConfig};
use sim_core::cc::{CcaSpec, DctcpConfig, NewRenoConfig};
use sim_core::metrics::Summary;
use sim_core::scenario::{FlowGroup, Link, Scenario};
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
