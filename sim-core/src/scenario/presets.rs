//! One preset per paper experiment. Each has variants (the algorithms compared) and a short
//! text saying what the paper found and what to look at.

use super::{Bottleneck, FlowGroup, Scenario};
use crate::aqm::{QueueDiscSpec, QueueLimit, RedConfig};
use crate::cc::CcaSpec;
use crate::tcp::TcpConfig;
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct PresetInfo {
    pub name: &'static str,
    pub title: &'static str,
    pub variants: &'static [&'static str],
    pub default_variant: &'static str,
    /// What the paper found and what to look at.
    pub description: &'static str,
}

const RED_STUDY_VARIANTS: &[&str] = &["red", "ared", "gentle", "red-nic", "ared-nic", "gentle-nic"];

pub fn preset_list() -> Vec<PresetInfo> {
    vec![PresetInfo {
        name: "red-study",
        title: "RED vs Adaptive RED vs Gentle RED (10 CUBIC senders, 2 Mbit/s)",
        variants: RED_STUDY_VARIANTS,
        default_variant: "red",
        description: "Palagashvili et al. compared ns-3's RED, ARED and Gentle RED on a dumbbell of ten \
CUBIC senders (1 Mbit/s, 2 ms access) sharing a 2 Mbit/s, 10 ms bottleneck with minTh 5, maxTh 10, a \
100-packet limit and 512-byte segments. All three deliver about 1.80 Mbit/s of goodput (90 % of the link: \
the rest is headers). RED drops the most (1240 vs 1003 ARED, 1026 Gentle) and keeps the steadiest \
throughput (CV 18.7 %); Gentle keeps the shortest queue (6.4 packets). Watch the EWMA average against \
the shaded threshold bands and how the drops cluster. The -nic variants add ns-3's 100-packet device \
queue under the disc, as the study ran.",
    }]
}

/// Builds a preset's scenario; `variant` None picks the default variant.
pub fn preset(name: &str, variant: Option<&str>) -> Result<Scenario, String> {
    let info = preset_list()
        .into_iter()
        .find(|p| p.name == name)
        .ok_or_else(|| format!("unknown preset '{name}'; known: {}", names()))?;
    let v = variant.unwrap_or(info.default_variant);
    if !info.variants.contains(&v) {
        return Err(format!("preset '{name}' has no variant '{v}'; variants: {}", info.variants.join(", ")));
    }
    Ok(match name {
        "red-study" => red_study(v),
        _ => unreachable!("listed presets are built above"),
    })
}

fn names() -> String {
    preset_list().iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
}

/// The RED study (Palagashvili, Ermolayeva & Velieva 2026), Tables 3-4.
fn red_study(variant: &str) -> Scenario {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_of_every_preset_is_valid() {
        for p in preset_list() {
            for v in p.variants {
                let s = preset(p.name, Some(v)).unwrap();
                assert_eq!(s.validate(), Ok(()), "{}/{}", p.name, v);
            }
        }
    }

    #[test]
    fn unknown_names_are_errors_that_list_the_choices() {
        assert!(preset("nope", None).unwrap_err().contains("red-study"));
        assert!(preset("red-study", Some("blue")).unwrap_err().contains("gentle"));
    }
}
