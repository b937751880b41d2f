//! The parking lot, the classic picture of fairness over several links (Bertsekas &
//! Gallager, *Data Networks*, §6.5.2): three 10 Mbit/s links in series, one long flow over
//! all three and one short flow per link, each link's queue disc the variant's. Max-min
//! fairness gives every flow half a link; proportional fairness (Kelly 1997) charges the
//! long flow for each link it uses, a quarter against three quarters. TCP is neither: its
//! window grows once per round trip, and the long flow's is the longest, so it gets less
//! than either reference.

use crate::aqm::{FqCodelConfig, QueueDiscSpec, QueueLimit};
use crate::cc::{CcaSpec, CubicConfig};
use crate::scenario::{FlowGroup, Link, Scenario};

pub const VARIANTS: &[&str] = &["fifo", "red", "fq-codel"];
pub const COMPARED: &[&str] = &["fifo", "red", "fq-codel"];

/// Each link's buffer, packets.
pub const BUFFER_PACKETS: u32 = 100;
/// The links after the first (the scenario's bottleneck), by name.
pub const HOPS: [&str; 2] = ["hop2", "hop3"];

pub fn build(variant: &str) -> Scenario {
    let limit = QueueLimit::Packets(BUFFER_PACKETS);
    let queue = match variant {
        "red" => super::bufferbloat::lecture_red(limit),
        "fq-codel" => QueueDiscSpec::FqCodel(FqCodelConfig { limit, ..FqCodelConfig::default() }),
        _ => QueueDiscSpec::fifo(limit),
    };
    let link = Link::new(10_000_000, 5.0, queue);
    let group = |route: &[&str]| FlowGroup {
        count: 1,
        cca: CcaSpec::Cubic(CubicConfig::default()),
        access_rate_bps: 100_000_000,
        access_delay_ms: 2.0,
        start_jitter_s: 0.5,
        route: route.iter().map(|r| r.to_string()).collect(),
        ..FlowGroup::default()
    };
    let b = Scenario::BOTTLENECK_NAME;
    Scenario {
        name: format!("parking-lot/{variant}"),
        seed: 1,
        duration_s: 30.0,
        warmup_s: 5.0,
        sample_interval_s: 0.1,
        links: std::iter::once(Scenario::BOTTLENECK_NAME)
            .chain(HOPS)
            .map(|h| (h.to_string(), link.clone()))
            .collect(),
        flows: vec![group(&[b, HOPS[0], HOPS[1]]), group(&[b]), group(&[HOPS[0]]), group(&[HOPS[1]])],
        // Linux's TCP, as in the bufferbloat lecture.
        tcp: super::warbler::linux_tcp(),
        ..Scenario::default()
    }
}
