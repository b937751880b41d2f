//! Incast (Vasudevan et al., "Safe and effective fine-grained TCP retransmissions for
//! datacenter communication", SIGCOMM 2009): an aggregator reads a 1 MB block striped over
//! N servers, each answering its share through one shallow-buffered switch port, and asks
//! for the next block only once every answer is in (synchronised reads, the paper's
//! fixed-block workload). As N grows each answer has fewer segments to recover a loss with:
//! a server that loses its tail or a retransmission waits a whole minimum RTO (200 ms,
//! Linux's) while the link idles, and goodput collapses; a 1 ms minimum RTO (the paper's
//! fix), with a delayed-ACK timer no longer than it, brings it back.
//!
//! With a fixed answer per server instead (Chen et al.'s fixed-fragment workload, WREN
//! 2009: set `flows[0].size_bytes`) the total grows with N, and goodput collapses and then
//! partly recovers as N grows, as they measured.

use crate::aqm::{QueueDiscSpec, QueueLimit};
use crate::cc::{CcaSpec, CubicConfig};
use crate::scenario::{FlowGroup, Link, Scenario};
use crate::traffic::{ArrivalSpec, EveryConfig};

pub const VARIANTS: &[&str] = &["n1", "n4", "n8", "n16", "n32", "n64", "n16-rto1", "n32-rto1", "n64-rto1"];
pub const COMPARED: &[&str] = &["n1", "n4", "n16", "n64", "n64-rto1"];

/// The block each request reads, bytes, striped evenly over the servers, and the port's
/// buffer, packets.
pub const BLOCK_BYTES: u64 = 1_000_000;
pub const BUFFER_PACKETS: u32 = 32;

pub fn build(variant: &str) -> Scenario {
    let (n, fine_rto) = match variant.split_once('-') {
        Some((n, _)) => (n, true),
        None => (variant, false),
    };
    let servers: u32 = n.trim_start_matches('n').parse().unwrap_or(16);
    let answers = FlowGroup {
        count: servers,
        cca: CcaSpec::Cubic(CubicConfig::default()),
        access_rate_bps: 1_000_000_000,
        access_delay_ms: 0.025,
        // A new request 1 ms after the last answer of the one before.
        arrivals: ArrivalSpec::Every(EveryConfig {
            period_s: 0.001,
            transfers: None,
            after_all: true,
            keep_alive: true,
        }),
        size_bytes: Some(BLOCK_BYTES / u64::from(servers.max(1))),
        // The servers' connections open over the first 10 ms, before the first request.
        start_jitter_s: 0.01,
        ..FlowGroup::default()
    };
    let mut tcp = super::warbler::linux_tcp();
    // Linux grows the window on the ACK that ends a timeout's recovery; without it a window
    // of one after a timeout stays one, and behind a 1 ms minimum RTO each next segment
    // times out before its delayed ACK comes.
    tcp.grow_at_loss_exit = true;
    if fine_rto {
        tcp.min_rto_ms = 1.0;
        // The paper's fix is a fine-grained timer everywhere: an answer's odd last segment
        // would otherwise wait the aggregator's 200 ms delayed-ACK timer, its sender would
        // time out again and again meanwhile, and the echoed timestamps of those late ACKs
        // would lift the RTO estimate round after round (64 servers: 31 Mbit/s).
        tcp.delayed_ack_timeout_ms = 1.0;
    }
    Scenario {
        name: format!("incast/{variant}"),
        seed: 1,
        duration_s: 3.0,
        warmup_s: 0.0,
        sample_interval_s: 0.01,
        links: Scenario::one_link(Link::new(
            1_000_000_000,
            0.025,
            QueueDiscSpec::fifo(QueueLimit::Packets(BUFFER_PACKETS)),
        )),
        flows: vec![answers],
        tcp,
        ..Scenario::default()
    }
}
