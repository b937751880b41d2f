//! Two bottlenecks in series: a home router's uplink ahead of the ISP's access link (the
//! modem). The queue builds at the slower of the two, and only that link's queue disc
//! matters: an FQ-CoDel router does nothing for a modem's bloated FIFO unless it shapes
//! its uplink a little below the modem's rate, so that its own queue is the one that grows
//! (what SQM setups such as OpenWrt's advise: shape at 85-95 % of the line rate). The
//! other way round, an AQM at the ISP is useless behind a home router that is slower still.

use crate::aqm::{FqCodelConfig, QueueDiscSpec, QueueLimit};
use crate::cc::{CcaSpec, CubicConfig};
use crate::scenario::{FlowGroup, Link, Scenario};

pub const VARIANTS: &[&str] =
    &["fq-codel-shaped", "fq-codel-unshaped", "isp-fq-codel", "isp-fq-codel-shaped"];
pub const COMPARED: &[&str] = VARIANTS;

/// The scenario's bottleneck is the home router's uplink; the modem is the second link.
pub const HOME: &str = "home";
pub const MODEM: &str = "modem";
/// Each link's buffer, packets: 0.36 s at the modem's rate with 1500-byte packets.
pub const BUFFER_PACKETS: u32 = 300;
pub const MODEM_BPS: u64 = 10_000_000;
/// The home router's uplink: its LAN port's rate, or shaped to 90 % of the modem's.
pub const LAN_BPS: u64 = 100_000_000;
pub const SHAPED_BPS: u64 = 9_000_000;

pub fn build(variant: &str) -> Scenario {
    let limit = QueueLimit::Packets(BUFFER_PACKETS);
    let fifo = QueueDiscSpec::fifo(limit);
    let fq_codel = QueueDiscSpec::FqCodel(FqCodelConfig { limit, ..FqCodelConfig::default() });
    let (home_queue, modem_queue) = match variant {
        "isp-fq-codel" | "isp-fq-codel-shaped" => (fifo, fq_codel),
        _ => (fq_codel, fifo),
    };
    let home_bps = if variant.ends_with("-shaped") { SHAPED_BPS } else { LAN_BPS };
    let home = Link::new(home_bps, 1.0, home_queue);
    let modem = Link::new(MODEM_BPS, 10.0, modem_queue);
    let group = |access_delay_ms: f64| FlowGroup {
        count: 2,
        cca: CcaSpec::Cubic(CubicConfig::default()),
        access_rate_bps: LAN_BPS,
        access_delay_ms,
        start_jitter_s: 0.5,
        route: vec![HOME.into(), MODEM.into()],
        ..FlowGroup::default()
    };
    Scenario {
        name: format!("two-bottlenecks/{variant}"),
        seed: 1,
        duration_s: 30.0,
        warmup_s: 5.0,
        sample_interval_s: 0.1,
        links: [(HOME.to_string(), home), (MODEM.to_string(), modem)].into_iter().collect(),
        bottleneck: HOME.into(),
        flows: vec![group(2.0), group(15.0)],
        // Linux's TCP, as in the bufferbloat lecture.
        tcp: super::warbler::linux_tcp(),
        ..Scenario::default()
    }
}
