//! The lecture's first example: bufferbloat and what AQM does about it, as the Mininet
//! bufferbloat lab measures it. One long CUBIC upload fills a 10 Mbit/s home-router link
//! whose buffer holds 1000 packets, 1.2 s of queue at that rate, as many routers and modems
//! shipped (Gettys & Nichols, "Bufferbloat: dark buffers in the Internet", CACM 2012); beside
//! it a ping every 100 ms and a 100 kB page fetched every 2 s over a new connection feel
//! the queue as the user does. A FIFO keeps the buffer full, so every packet waits about a
//! second; a 50-packet FIFO or an AQM with the same buffer keeps the link as busy at a few
//! milliseconds of queue. No device queue under the disc: the delay is where the charts show
//! it (Linux's BQL keeps the driver's queue that short).

use crate::aqm::{CodelConfig, FqCodelConfig, PieConfig, QueueDiscSpec, QueueLimit, RedConfig};
use crate::cc::{CcaSpec, CubicConfig, PingConfig};
use crate::scenario::{FlowGroup, Link, Scenario, TimedChange};
use crate::traffic::{ArrivalSpec, EveryConfig};

pub const VARIANTS: &[&str] = &["fifo", "fifo-small", "fifo-cut", "codel", "fq-codel", "pie", "red"];
pub const COMPARED: &[&str] = &["fifo", "fifo-small", "codel", "fq-codel", "pie"];

/// The page fetched every [`PAGE_EVERY_S`], bytes, and the ping's interval, ms.
pub const PAGE_BYTES: u64 = 100_000;
pub const PAGE_EVERY_S: f64 = 2.0;
pub const PING_MS: f64 = 100.0;

/// The router's buffer, packets: 1.2 s at 10 Mbit/s with 1500-byte packets.
pub const BUFFER_PACKETS: u32 = 1000;
/// When `fifo-cut` cuts the buffer, and to what.
pub const CUT_AT_S: f64 = 20.0;
pub const CUT_TO_PACKETS: u32 = 50;

/// RED at Floyd's "rule of thumb" thresholds for a 10 Mbit/s link (minTh 5, maxTh 15
/// packets), gentle, as ns-3 and Linux run it: the lecture presets' RED.
pub(super) fn lecture_red(limit: QueueLimit) -> QueueDiscSpec {
    QueueDiscSpec::Red(RedConfig {
        limit,
        min_th: 5.0,
        max_th: 15.0,
        gentle: true,
        mean_pkt_size_bytes: 1500,
        ..RedConfig::default()
    })
}

pub fn build(variant: &str) -> Scenario {
    let limit = QueueLimit::Packets(if variant == "fifo-small" { CUT_TO_PACKETS } else { BUFFER_PACKETS });
    let queue = match variant {
        "codel" => QueueDiscSpec::Codel(CodelConfig { limit, ..CodelConfig::default() }),
        "fq-codel" => QueueDiscSpec::FqCodel(FqCodelConfig { limit, ..FqCodelConfig::default() }),
        "pie" => QueueDiscSpec::Pie(PieConfig { limit, ..PieConfig::default() }),
        "red" => lecture_red(limit),
        _ => QueueDiscSpec::fifo(limit),
    };
    let host = FlowGroup { access_rate_bps: 100_000_000, access_delay_ms: 10.0, ..FlowGroup::default() };
    let upload = FlowGroup { cca: CcaSpec::Cubic(CubicConfig::default()), ..host.clone() };
    let ping = FlowGroup {
        cca: CcaSpec::Ping(PingConfig { interval_ms: PING_MS, ..PingConfig::default() }),
        ..host.clone()
    };
    // A page every 2 s on a new connection, up to four open at once (a slow fetch does not
    // hold up the next), from a second into the run.
    let page = FlowGroup {
        count: 4,
        arrivals: ArrivalSpec::Every(EveryConfig {
            period_s: PAGE_EVERY_S,
            transfers: Some(1),
            after_all: false,
            keep_alive: false,
        }),
        size_bytes: Some(PAGE_BYTES),
        start_s: 1.0,
        ..upload.clone()
    };
    let changes = match variant {
        "fifo-cut" => vec![TimedChange {
            at_s: CUT_AT_S,
            set: "links.bottleneck.queue.limit".into(),
            to: serde_json::json!({ "packets": CUT_TO_PACKETS }),
        }],
        _ => Vec::new(),
    };
    Scenario {
        name: format!("bufferbloat/{variant}"),
        seed: 1,
        duration_s: 40.0,
        warmup_s: 5.0,
        sample_interval_s: 0.1,
        links: Scenario::one_link(Link::new(10_000_000, 5.0, queue)),
        flows: vec![upload, ping, page],
        changes,
        // Linux's TCP (MSS 1448, socket buffers as autotuning grows them): the windows, not
        // the hosts, decide how much is queued.
        tcp: super::warbler::linux_tcp(),
        ..Scenario::default()
    }
}
