//! Unresponsive UDP traffic (issue 24; RFC 7928 §5): a source sends at its rate whatever
//! the network does, takes what a FIFO gives it from the TCP flows beside it, and is held
//! to its share by flow queueing.

use aqm_tests::run;
use sim_core::aqm::{FqCodelConfig, QueueDiscSpec, QueueLimit};
use sim_core::cc::{CcaSpec, UdpConfig};
use sim_core::metrics::Summary;
use sim_core::scenario::{FlowGroup, Link, Scenario};

const MBPS: f64 = 1e6;

fn udp(rate_bps: u64, on_s: f64, off_s: f64) -> FlowGroup {
    let cca = CcaSpec::Udp(UdpConfig { rate_bps, packet_bytes: 1000, on_s, off_s });
    FlowGroup { cca, access_delay_ms: 5.0, ..FlowGroup::default() }
}

fn cubic() -> FlowGroup {
    FlowGroup { access_delay_ms: 5.0, ..FlowGroup::default() }
}

/// 10 Mbit/s, 20 ms base RTT, `queue` at the bottleneck, 30 s measured after 5.
fn path(queue: QueueDiscSpec, flows: Vec<FlowGroup>) -> Scenario {
    Scenario {
        duration_s: 35.0,
        warmup_s: 5.0,
        links: Scenario::one_link(Link::new(10_000_000, 5.0, queue)),
        flows,
        ..Scenario::default()
    }
}

fn mbps(s: &Summary, flow: usize) -> f64 {
    s.flows[flow].throughput_bps / MBPS
}

#[test]
fn a_udp_source_alone_delivers_its_rate_and_nothing_answers_it() {
    let (sim, s) = run(&path(QueueDiscSpec::fifo(QueueLimit::Packets(100)), vec![udp(4_000_000, 1.0, 0.0)]));
    assert!((mbps(&s, 0) - 4.0).abs() < 0.01, "{} Mbit/s", mbps(&s, 0));
    assert_eq!(s.drops.total, 0);
    assert_eq!((s.flows[0].cca.as_str(), s.flows[0].retransmissions, s.flows[0].timeouts), ("udp", 0, 0));
    // Each datagram is 1000 bytes of payload and 30 of headers, and no ACK comes back.
    assert_eq!(s.packets.sent, sim.sender(0).stats().segments_sent);
    assert!(s.fct.is_none(), "a bulk source has no completion");
    // Nothing is lost; the last datagram or two are on their way at the end.
    assert!(s.flows[0].loss_pct.is_some_and(|l| l < 0.1), "{:?}", s.flows[0].loss_pct);
}

#[test]
fn a_datagram_sources_loss_is_what_the_disc_drops_of_it() {
    let flows = vec![udp(8_000_000, 1.0, 0.0), cubic()];
    let (_, fq) = run(&path(QueueDiscSpec::FqCodel(FqCodelConfig::default()), flows));
    // Held to about half the link, an 8 Mbit/s source loses about 40 % of what it sends.
    let loss = fq.flows[0].loss_pct.expect("a UDP flow's loss");
    let carried = 100.0 * (1.0 - mbps(&fq, 0) / 8.0);
    assert!((loss - carried).abs() < 3.0, "loss {loss:.1} % against {carried:.1} % not carried");
    assert!(fq.flows[1].loss_pct.is_none(), "TCP reports retransmissions, not loss");
}

#[test]
fn an_unresponsive_flow_takes_what_a_fifo_gives_and_flow_queueing_holds_it_to_its_share() {
    let flows = || vec![udp(8_000_000, 1.0, 0.0), cubic()];
    let (_, fifo) = run(&path(QueueDiscSpec::fifo(QueueLimit::Packets(100)), flows()));
    let (_, fq) = run(&path(QueueDiscSpec::FqCodel(FqCodelConfig::default()), flows()));
    println!(
        "FIFO udp {:.2} cubic {:.2}; FQ-CoDel udp {:.2} cubic {:.2}",
        mbps(&fifo, 0),
        mbps(&fifo, 1),
        mbps(&fq, 0),
        mbps(&fq, 1)
    );
    assert!(
        mbps(&fifo, 0) > 7.0 && mbps(&fifo, 1) < 2.5,
        "through a FIFO the UDP flow keeps nearly its 8 Mbit/s"
    );
    assert!(mbps(&fq, 1) > 4.0 && mbps(&fq, 0) < 5.5, "FQ-CoDel splits the link about evenly");
    assert!(fq.jfi > 0.95 && fifo.jfi < 0.75, "Jain's index counts the UDP flow: {} / {}", fq.jfi, fifo.jfi);
}

#[test]
fn an_on_off_source_sends_only_while_on() {
    let (_, s) = run(&path(QueueDiscSpec::fifo(QueueLimit::Packets(100)), vec![udp(6_000_000, 0.5, 1.0)]));
    assert!((mbps(&s, 0) - 2.0).abs() < 0.1, "a third of the time at 6 Mbit/s: {}", mbps(&s, 0));
}

#[test]
fn the_cost_estimate_charges_every_datagram_the_source_sends() {
    // 20 Mbit/s into 10: half the datagrams are dropped, and every one still costs events.
    let sc = path(QueueDiscSpec::fifo(QueueLimit::Packets(100)), vec![udp(20_000_000, 1.0, 0.0), cubic()]);
    let estimate = sim_core::scenario::cost::estimate(&sc).events;
    let (_, s) = run(&sc);
    println!("events {} against an estimate of {estimate:.0}", s.events);
    assert!((s.events as f64) <= estimate && (s.events as f64) > estimate / 4.0, "{} / {estimate}", s.events);
}
