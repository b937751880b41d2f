//! RED and CoDel with and without ECN (RFC 3168): four CUBIC uploads through the lecture's
//! 10 Mbit/s router. Where the disc would drop early it marks instead, and an ECN sender
//! halves its window on the echo as it would on a loss, without losing the packet: the
//! same queue, nearly no loss, no retransmission. RED's hard zone still drops (ns-3's
//! `UseHardDrop`, on by default) unless `use_hard_drop` is off.

use super::bufferbloat::lecture_red;
use crate::aqm::{CodelConfig, QueueDiscSpec, QueueLimit, RedConfig};
use crate::cc::{CcaSpec, CubicConfig};
use crate::scenario::{FlowGroup, Link, Scenario};

pub const VARIANTS: &[&str] = &["red", "red-ecn", "red-ecn-nohard", "codel", "codel-ecn"];
pub const COMPARED: &[&str] = VARIANTS;

pub fn build(variant: &str) -> Scenario {
    let limit = QueueLimit::Packets(1000);
    let ecn = variant.contains("ecn");
    let queue = if variant.starts_with("codel") {
        QueueDiscSpec::Codel(CodelConfig { limit, ecn, ..CodelConfig::default() })
    } else {
        let QueueDiscSpec::Red(red) = lecture_red(limit) else { unreachable!("lecture_red is RED") };
        QueueDiscSpec::Red(RedConfig { use_ecn: ecn, use_hard_drop: !variant.ends_with("nohard"), ..red })
    };
    let upload = FlowGroup {
        count: 4,
        cca: CcaSpec::Cubic(CubicConfig::default()),
        access_rate_bps: 100_000_000,
        access_delay_ms: 10.0,
        ecn,
        ..FlowGroup::default()
    };
    Scenario {
        name: format!("red-ecn/{variant}"),
        seed: 1,
        duration_s: 30.0,
        warmup_s: 5.0,
        sample_interval_s: 0.1,
        links: Scenario::one_link(Link::new(10_000_000, 5.0, queue)),
        flows: vec![upload],
        tcp: super::warbler::linux_tcp(),
        ..Scenario::default()
    }
}
