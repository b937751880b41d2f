//! The RED study (Palagashvili, Ermolayeva & Velieva 2026), Tables 3-4.

use crate::aqm::{QueueDiscSpec, QueueLimit, RedConfig};
use crate::cc::CcaSpec;
use crate::scenario::{Bottleneck, FlowGroup, Scenario};
use crate::tcp::TcpConfig;

pub const VARIANTS: &[&str] = &["red", "ared", "gentle", "red-nic", "ared-nic", "gentle-nic"];

/// `red`, `ared` or `gentle`, with `-nic` for ns-3's 100-packet device queue.
pub fn build(variant: &str) -> Scenario {
    let (alg, nic) = match variant.strip_suffix("-nic") {
        Some(a) => (a, 100),
        None => (variant, 0),
    };
    let red = RedConfig {
        limit: QueueLimit::Packets(100),
        min_th: 5.0,
        max_th: 10.0,
        gentle: alg == "gentle",
        adaptive: alg == "ared",
        mean_pkt_size_bytes: 512,
        ..RedConfig::default()
    };
    Scenario {
        name: format!("red-study/{variant}"),
        seed: 1,
        duration_s: 60.0,
        warmup_s: 1.0,
        sample_interval_s: 0.1,
        bottleneck: Bottleneck {
            rate_bps: 2_000_000,
            delay_ms: 10.0,
            queue: QueueDiscSpec::Red(red),
            nic_queue_packets: nic,
        },
        flows: vec![FlowGroup {
            count: 10,
            cca: CcaSpec::default(),
            access_rate_bps: 1_000_000,
            access_delay_ms: 2.0,
            ..FlowGroup::default()
        }],
        tcp: TcpConfig { mss_bytes: 512, ..TcpConfig::default() },
        ..Scenario::default()
    }
}
