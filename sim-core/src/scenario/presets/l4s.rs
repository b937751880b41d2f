//! L4S coexistence (RFC 9330-9332): one TCP Prague and one CUBIC flow share a 100 Mbit/s
//! link at 20 ms base RTT, the setting of the L4S team's coexistence runs (IETF 109,
//! l4steam.github.io). Through DualPI2 Prague waits about a millisecond in the L queue
//! and CUBIC about the PI target in the C queue, and the coupling p_CL = 2·√p_C keeps their
//! rates within a small factor. Through one FIFO both share the standing queue CUBIC builds;
//! through PIE with ECN Prague only trims where CUBIC halves, and takes the link (the
//! starvation that made a dual queue necessary, RFC 9332 §1).

use crate::aqm::{DualPi2Config, PieConfig, QueueDiscSpec, QueueLimit};
use crate::cc::{CcaSpec, CubicConfig, PragueConfig};
use crate::scenario::{FlowGroup, Link, Scenario};

pub const VARIANTS: &[&str] = &["dualpi2", "fifo", "pie", "pie-ecn"];
pub const COMPARED: &[&str] = VARIANTS;

/// The buffer of every variant, packets: 120 ms at 100 Mbit/s.
pub const BUFFER_PACKETS: u32 = 1000;

pub fn build(variant: &str) -> Scenario {
    let flow = |cca: CcaSpec| FlowGroup {
        count: 1,
        cca,
        access_rate_bps: 1_000_000_000,
        access_delay_ms: 1.0,
        ..FlowGroup::default()
    };
    let limit = QueueLimit::Packets(BUFFER_PACKETS);
    let queue = match variant {
        "dualpi2" => QueueDiscSpec::DualPi2(DualPi2Config { limit, ..DualPi2Config::default() }),
        "pie" => QueueDiscSpec::Pie(PieConfig { limit, ..PieConfig::default() }),
        "pie-ecn" => QueueDiscSpec::Pie(PieConfig { limit, ecn: true, ..PieConfig::default() }),
        _ => QueueDiscSpec::fifo(limit),
    };
    Scenario {
        name: format!("l4s-coexistence/{variant}"),
        seed: 1,
        duration_s: 40.0,
        warmup_s: 5.0,
        sample_interval_s: 0.01,
        links: Scenario::one_link(Link::new(100_000_000, 9.0, queue)),
        flows: vec![
            flow(CcaSpec::Prague(PragueConfig::default())),
            flow(CcaSpec::Cubic(CubicConfig::default())),
        ],
        tcp: super::warbler::linux_tcp(),
        ..Scenario::default()
    }
}
