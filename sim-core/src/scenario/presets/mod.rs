//! One preset per paper experiment. Each has variants (the algorithms compared) and a short
//! text saying what the paper found and what to look at.

pub(crate) mod red_study;
mod warbler;

use super::Scenario;
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

pub fn preset_list() -> Vec<PresetInfo> {
    vec![
        PresetInfo {
        name: "red-study",
        title: "RED vs Adaptive RED vs Gentle RED (10 CUBIC senders, 2 Mbit/s)",
        variants: red_study::VARIANTS,
        default_variant: "red",
        description: "Palagashvili et al. compared ns-3's RED, ARED and Gentle RED on a dumbbell of ten \
CUBIC senders (1 Mbit/s, 2 ms access) sharing a 2 Mbit/s, 10 ms bottleneck with minTh 5, maxTh 10, a \
100-packet limit and 512-byte segments. All three deliver about 1.80 Mbit/s of goodput (90 % of the link: \
the rest is headers). RED drops the most (1240 vs 1003 ARED, 1026 Gentle) and keeps the steadiest \
throughput (CV 18.7 %); Gentle keeps the shortest queue (6.4 packets). Watch the EWMA average against \
the shaded threshold bands and how the drops cluster. The red, ared and gentle variants are what ns-3 \
runs: the disc over ns-3's 100-packet device queue, ARED with ns-3's default Gentle on. -nic1 uses \
ns-3's smallest device queue (1 packet), -nonic none at all, ared-nogentle switches Gentle off.",
        },
        PresetInfo {
            name: "rtt-unfair",
            title: "Two NewReno flows, RTT 20 vs 42 ms, at 100 Mbit/s (Warbler §5.3)",
            variants: warbler::RTT_UNFAIR_VARIANTS,
            default_variant: "fifo",
            description: "The Warbler paper's RTT-unfairness baseline: two NewReno flows with base RTTs of 20 and \
42 ms share a 100 Mbit/s port. With one 3000-cell FIFO the 20 ms flow nearly monopolises the link and the two \
delays move together; FQ-CoDel improves fairness at the price of throughput oscillations; Cebinae (two \
1500-cell queues) holds Jain's index near 1 but leaves capacity unused (the paper: about 88.3 Mbit/s); ideal \
FQ is the fairness upper bound. Watch Jain's index over time and the per-flow delay KDEs.",
        },
        PresetInfo {
            name: "cubic-vegas-2q",
            title: "2 CUBIC + 2 Vegas on two switch queues (Warbler §5.1, without Warbler)",
            variants: warbler::BASELINE,
            default_variant: "baseline",
            description: "Two 3000-cell queues of a 100 Mbit/s Tofino port, each holding one CUBIC and one Vegas \
flow (RTT 10 ms), served round robin: the paper's load-balanced baseline. CUBIC fills its queue and takes \
most of the queue's half of the link, so Jain's index sits near 0.6 until Warbler (a later feature) isolates \
the flows. Watch the per-flow backlog in cells and the goodput shares.",
        },
        PresetInfo {
            name: "cubic-bbr-vegas-3q",
            title: "2 CUBIC + 2 BBR + 2 Vegas on three switch queues (Warbler §5.2, without Warbler)",
            variants: warbler::BASELINE,
            default_variant: "baseline",
            description: "Three 5680-cell queues at 100 Mbit/s, six flows (RTT 10 ms), two algorithms per queue. \
The paper's Table 2 baseline: JFI 0.69, mean delay 0.139 s, jitter 0.027 s, 1614 cells of buffer. CUBIC \
saturates its queue and BBR inflates the one it shares with CUBIC; Vegas is squeezed. Compare the per-flow \
backlog KDEs per queue (Fig. 5), the cumulative backlog (Fig. 6) and the shares (Fig. 7).",
        },
        PresetInfo {
            name: "vegas-newreno-mix",
            title: "Vegas/NewReno mixes with 8 BDP of buffer (Warbler §5.3 Fig. 11)",
            variants: warbler::MIX_VARIANTS,
            default_variant: "7v1n-fifo",
            description: "7 Vegas + 1 NewReno, 6 + 2 and 1 + 7 (RTT 10 ms) at 100 Mbit/s with 8 BDP of buffer \
(1 BDP ≈ 780 cells): one FIFO queue, FQ-CoDel, Cebinae, ideal FQ, or 2/4/8 round-robin queues of 8/K BDP. \
The paper: FIFO has a low Jain's index, FQ-CoDel helps somewhat, Cebinae helps when NewReno is the minority, \
ideal FQ is the upper bound, and more queues approach it once flows are isolated.",
        },
    ]
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
        "red-study" => red_study::build(v),
        "rtt-unfair" => warbler::rtt_unfair(v),
        "cubic-vegas-2q" => warbler::cubic_vegas_2q(v),
        "cubic-bbr-vegas-3q" => warbler::cubic_bbr_vegas_3q(v),
        "vegas-newreno-mix" => warbler::vegas_newreno_mix(v),
        _ => unreachable!("listed presets are built above"),
    })
}

fn names() -> String {
    preset_list().iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
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
