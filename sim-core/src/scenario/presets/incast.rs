//! Incast (Vasudevan et al., "Safe and effective fine-grained TCP retransmissions for
//! datacenter communication", SIGCOMM 2009): an aggregator asks N servers for a block at
//! once; each answers with the same number of bytes through one shallow-buffered switch
//! port, and the next request goes out only once every answer is in (synchronised reads).
//! As N grows the answers' first windows overflow the buffer together, a server that loses
//! its tail waits a whole minimum RTO (200 ms, Linux's) while the link idles, and goodput
//! collapses; a 1 ms minimum RTO (the paper's fix) brings it back.

use crate::aqm::{QueueDiscSpec, QueueLimit};
use crate::cc::{CcaSpec, CubicConfig};
use crate::scenario::{FlowGroup, Link, Scenario};
use crate::traffic::{ArrivalSpec, EveryConfig};

pub const VARIANTS: &[&str] = &["n4", "n8", "n16", "n32", "n64", "n16-rto1", "n32-rto1", "n64-rto1"];
pub const COMPARED: &[&str] = &["n4", "n16", "n64", "n64-rto1"];

/// Each server's answer, bytes, and the port's buffer, packets.
pub const ANSWER_BYTES: u64 = 64_000;
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
        size_bytes: Some(ANSWER_BYTES),
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
