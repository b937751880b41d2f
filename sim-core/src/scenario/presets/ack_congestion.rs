//! ACK congestion on an asymmetric access line (ADSL, cable, a mobile uplink): a download's
//! ACKs return over a slow uplink. Alone they barely queue there; beside an upload that
//! keeps the uplink's FIFO full they wait behind its data, the download's RTT grows by that
//! queue, its ACK clock stutters, and it loses most of its rate though its own link is
//! idle (Balakrishnan et al., "The effects of asymmetry on TCP performance", 1997; RFC 3449
//! §3). FQ-CoDel on the uplink gives the ACKs their own queue and the download its rate back.

use crate::aqm::{FqCodelConfig, QueueDiscSpec, QueueLimit};
use crate::cc::{CcaSpec, CubicConfig};
use crate::scenario::{FlowGroup, Link, Scenario};

pub const VARIANTS: &[&str] = &["download", "with-upload", "with-upload-fq-codel"];
pub const COMPARED: &[&str] = VARIANTS;

/// The downlink (the scenario's bottleneck) and the uplink, 10:1 as many DSL lines.
pub const DOWN: &str = "down";
pub const UP: &str = "up";
pub const DOWN_BPS: u64 = 10_000_000;
pub const UP_BPS: u64 = 1_000_000;
/// Each line's buffer, packets.
pub const BUFFER_PACKETS: u32 = 100;

pub fn build(variant: &str) -> Scenario {
    let limit = QueueLimit::Packets(BUFFER_PACKETS);
    let up_queue = match variant {
        "with-upload-fq-codel" => QueueDiscSpec::FqCodel(FqCodelConfig { limit, ..FqCodelConfig::default() }),
        _ => QueueDiscSpec::fifo(limit),
    };
    let line = |rate_bps, queue| Link::new(rate_bps, 10.0, queue);
    let group = |route: &str, acks: &str| FlowGroup {
        count: 1,
        cca: CcaSpec::Cubic(CubicConfig::default()),
        access_rate_bps: 100_000_000,
        access_delay_ms: 2.0,
        route: vec![route.into()],
        ack_route: vec![acks.into()],
        ..FlowGroup::default()
    };
    let mut flows = vec![group(DOWN, UP)];
    if variant != "download" {
        // The upload starts a little later, so the download's rate alone shows first.
        flows.push(FlowGroup { start_s: 2.0, ..group(UP, DOWN) });
    }
    Scenario {
        name: format!("ack-congestion/{variant}"),
        seed: 1,
        duration_s: 30.0,
        warmup_s: 5.0,
        sample_interval_s: 0.1,
        links: [
            (DOWN.to_string(), line(DOWN_BPS, QueueDiscSpec::fifo(limit))),
            (UP.to_string(), line(UP_BPS, up_queue)),
        ]
        .into_iter()
        .collect(),
        bottleneck: DOWN.into(),
        flows,
        // Linux's TCP, as in the bufferbloat lecture.
        tcp: super::warbler::linux_tcp(),
        ..Scenario::default()
    }
}
