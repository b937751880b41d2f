//! DCTCP against CUBIC through one step-marking switch port (Alizadeh et al., SIGCOMM 2010;
//! RFC 8257): two long flows at 1 Gbit/s, base RTT 0.2 ms. Two DCTCP flows hold the queue
//! near K with no loss at full rate; two CUBIC flows fill a deep FIFO, or lose packets at
//! the threshold (they do not ask for ECN, so the port drops what it would mark); one of
//! each share badly: CUBIC takes every drop as a halving while DCTCP cuts by α/2, the
//! unfairness L4S's dual queue was made to end (RFC 9330 §1).

use crate::aqm::{QueueDiscSpec, QueueLimit, StepConfig};
use crate::cc::{CcaSpec, CubicConfig, DctcpConfig};
use crate::scenario::{FlowGroup, Link, Scenario};

pub const VARIANTS: &[&str] = &["dctcp", "cubic-step", "cubic-fifo", "mixed"];
pub const COMPARED: &[&str] = VARIANTS;

/// The port's buffer and marking threshold, packets (DCTCP's K for 1 Gbit/s).
pub const BUFFER_PACKETS: u32 = 250;
pub const K_PACKETS: u32 = 20;

pub fn build(variant: &str) -> Scenario {
    let flow = |cca: CcaSpec, count: u32| FlowGroup {
        count,
        cca,
        access_rate_bps: 10_000_000_000,
        access_delay_ms: 0.05,
        ..FlowGroup::default()
    };
    let dctcp = CcaSpec::Dctcp(DctcpConfig::default());
    let cubic = CcaSpec::Cubic(CubicConfig::default());
    let flows = match variant {
        "dctcp" => vec![flow(dctcp, 2)],
        "mixed" => vec![flow(dctcp, 1), flow(cubic, 1)],
        _ => vec![flow(cubic, 2)],
    };
    let limit = QueueLimit::Packets(BUFFER_PACKETS);
    let queue = match variant {
        "cubic-fifo" => QueueDiscSpec::fifo(limit),
        _ => QueueDiscSpec::Step(StepConfig { limit, k_packets: K_PACKETS }),
    };
    Scenario {
        name: format!("dctcp-vs-cubic/{variant}"),
        seed: 1,
        duration_s: 20.0,
        warmup_s: 5.0,
        sample_interval_s: 0.01,
        links: Scenario::one_link(Link::new(1_000_000_000, 0.05, queue)),
        flows,
        tcp: super::warbler::linux_tcp(),
        ..Scenario::default()
    }
}
