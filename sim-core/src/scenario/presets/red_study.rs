//! The RED study (Palagashvili, Ermolayeva & Velieva 2026), Tables 3-4.
//!
//! The default variants are what ns-3 runs for the study's script: RedQueueDisc over the
//! 100-packet DropTail device queue every ns-3 device has, and ARED with ns-3's default
//! Gentle on. They reproduce the paper's table best (mean queue and drops within the range
//! ns-3 itself gives). The others stay for comparison: `-nic1` with ns-3's smallest device
//! queue (1 packet), `-nonic` with none at all (not possible in ns-3), and `ared-nogentle`,
//! ARED with Gentle switched off.

use crate::aqm::{QueueDiscSpec, QueueLimit, RedConfig};
use crate::cc::CcaSpec;
use crate::scenario::{FlowGroup, Link, Scenario};
use crate::tcp::TcpConfig;

pub const VARIANTS: &[&str] = &[
    "red",
    "ared",
    "gentle",
    "red-nic1",
    "ared-nic1",
    "gentle-nic1",
    "red-nonic",
    "ared-nonic",
    "gentle-nonic",
    "ared-nogentle",
];

/// ns-3's default device queue under a queue disc, in packets.
pub const NS3_DEVICE_QUEUE: u32 = 100;

/// The algorithm a variant runs (`red`, `ared` or `gentle`): the name before any suffix.
/// The study's three columns, in ns-3's setup.
pub const COMPARED: &[&str] = &["red", "ared", "gentle"];

pub fn algorithm(variant: &str) -> &str {
    variant.split('-').next().unwrap_or(variant)
}

/// `red`, `ared` or `gentle`, optionally suffixed (see the module docs).
pub fn build(variant: &str) -> Scenario {
    let alg = algorithm(variant);
    let suffix = variant.strip_prefix(alg).unwrap_or("");
    let nic = match suffix {
        "-nic1" => 1,
        "-nonic" => 0,
        _ => NS3_DEVICE_QUEUE,
    };
    let red = RedConfig {
        limit: QueueLimit::Packets(100),
        min_th: 5.0,
        max_th: 10.0,
        // ns-3's Gentle defaults to true, so its ARED runs gentle unless told otherwise.
        gentle: alg == "gentle" || (alg == "ared" && suffix != "-nogentle"),
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
        links: Scenario::one_link(Link {
            rate_bps: 2_000_000,
            delay_ms: 10.0,
            queue: QueueDiscSpec::Red(red),
            nic_queue_packets: nic,
            ..Link::default()
        }),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn red(sc: &Scenario) -> &RedConfig {
        match &sc.bottleneck().queue {
            QueueDiscSpec::Red(r) => r,
            q => panic!("not RED: {q:?}"),
        }
    }

    #[test]
    fn default_variants_are_what_ns3_runs() {
        for v in ["red", "ared", "gentle"] {
            assert_eq!(build(v).bottleneck().nic_queue_packets, 100, "{v}");
        }
        let ared = build("ared");
        assert!(red(&ared).adaptive && red(&ared).gentle, "ns-3's ARED runs with Gentle on");
        assert!(!red(&build("red")).gentle);
        assert!(!red(&build("ared-nogentle")).gentle);
        assert_eq!(build("gentle-nic1").bottleneck().nic_queue_packets, 1);
        assert_eq!(build("red-nonic").bottleneck().nic_queue_packets, 0);
        assert_eq!(algorithm("ared-nogentle"), "ared");
    }
}
