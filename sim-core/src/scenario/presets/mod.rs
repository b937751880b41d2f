//! One preset per paper experiment. Each has variants (the algorithms compared) and a short
//! text saying what the paper found and what to look at.

mod bufferbloat;
mod dqn;
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
    /// The variants `compare` runs by default: the paper's columns (the rest are setups).
    pub compared: &'static [&'static str],
    /// Seeds `compare` runs by default (more where the paper reports a t-test).
    pub seeds: u32,
    /// What the paper found and what to look at.
    pub description: &'static str,
    /// Short things to watch on the charts, for a lecture.
    pub watch: &'static [&'static str],
}

pub fn preset_list() -> Vec<PresetInfo> {
    vec![
        PresetInfo {
            name: "bufferbloat",
            title: "Bufferbloat and AQM: 4 CUBIC flows through a 10 Mbit/s router with 1000 packets of buffer",
            variants: bufferbloat::VARIANTS,
            compared: bufferbloat::COMPARED,
            default_variant: "fifo",
            seeds: 1,
            description: "Four long CUBIC uploads (base RTTs 30 and 50 ms) share a 10 Mbit/s home-router link \
whose buffer holds 1000 packets: 1.2 s of queue at that rate. This app's own model, not a paper's run. With a FIFO \
the flows keep that buffer nearly full, so every packet waits about a second although the link is no busier than \
with an AQM: this is bufferbloat (Gettys and Nichols, 2012). CoDel, FQ-CoDel, PIE and RED keep the same buffer but \
hold the queueing delay near their target (CoDel 5 ms, PIE 15 ms) at the same goodput, about 9.6 Mbit/s (the rest \
is headers). fifo-cut shrinks the buffer to 50 packets at 20 s, a timed change: the delay falls, and you can do the \
same by hand during a run. There is no device queue under the disc here (Linux's BQL keeps the driver's queue that \
short), so the delay is where the charts show it.",
            watch: &["The queueing delay over time: about a second with FIFO, a few milliseconds with CoDel, on the same link and buffer.", "Goodput stays the same with every disc: the extra queue buys no throughput.", "During a FIFO run, type 50 into Buffer: the change is marked on the charts and the delay falls within a second."],
        },
        PresetInfo {
        name: "red-study",
        title: "RED vs Adaptive RED vs Gentle RED (10 CUBIC senders, 2 Mbit/s)",
        variants: red_study::VARIANTS,
        compared: red_study::COMPARED,
        default_variant: "red",
            seeds: 1,
        description: "Palagashvili et al. compared ns-3's RED, ARED and Gentle RED on a dumbbell of ten \
CUBIC senders (1 Mbit/s, 2 ms access) sharing a 2 Mbit/s, 10 ms bottleneck with minTh 5, maxTh 10, a \
100-packet limit and 512-byte segments. All three deliver about 1.80 Mbit/s of goodput (90 % of the link: \
the rest is headers). RED drops the most (1240 vs 1003 ARED, 1026 Gentle) and keeps the steadiest \
throughput (CV 18.7 %); Gentle keeps the shortest queue (6.4 packets). Watch the EWMA average against \
the shaded threshold bands and how the drops cluster. The red, ared and gentle variants are what ns-3 \
runs: the disc over ns-3's 100-packet device queue, ARED with ns-3's default Gentle on. -nic1 uses \
ns-3's smallest device queue (1 packet), -nonic none at all, ared-nogentle switches Gentle off.",
            watch: &["The EWMA average against the shaded [minTh, maxTh) and [maxTh, 2·maxTh) bands: RED's forced zone starts at maxTh, Gentle's at 2·maxTh.", "The drops: RED's are continuous, ARED's and Gentle's come in clusters with pauses (median inter-drop 2.3 ms vs 9-11 ms in the paper).", "Goodput stays near 1.8 Mbit/s in every variant: 512 of every 566 bytes are payload."],
        },
        PresetInfo {
            name: "rtt-unfair",
            title: "Two NewReno flows, RTT 20 vs 42 ms, at 100 Mbit/s (Warbler §5.3)",
            variants: warbler::RTT_UNFAIR_VARIANTS,
            compared: warbler::RTT_UNFAIR_VARIANTS,
            default_variant: "fifo",
            seeds: 1,
            description: "The Warbler paper's RTT-unfairness baseline: two NewReno flows with base RTTs of 20 and \
42 ms share a 100 Mbit/s port. With one 3000-cell FIFO the 20 ms flow nearly monopolises the link and the two \
delays move together; FQ-CoDel improves fairness at the price of throughput oscillations; Cebinae (two \
1500-cell queues) holds Jain's index near 1 but leaves capacity unused (the paper: about 88.3 Mbit/s); ideal \
FQ is the fairness upper bound. Watch Jain's index over time and the per-flow delay KDEs.",
            watch: &["Jain's index over time: FIFO lets the 20 ms flow take most of the link.", "The per-flow delay KDEs: in one FIFO both flows see the same delay; FQ and Warbler decouple them.", "Cebinae's aggregate goodput stays well below the link rate (the paper: about 88 Mbit/s)."],
        },
        PresetInfo {
            name: "cubic-vegas-2q",
            title: "2 CUBIC + 2 Vegas on two switch queues, Warbler from 30 s (Warbler §5.1)",
            variants: warbler::WITH_AND_WITHOUT,
            compared: warbler::WITH_AND_WITHOUT,
            default_variant: "baseline",
            seeds: 1,
            description: "Two 3000-cell queues of a 100 Mbit/s Tofino port, each holding one CUBIC and one Vegas \
flow (RTT 10 ms), served round robin: the paper's load-balanced baseline. CUBIC fills its queue and takes \
most of the queue's half of the link, so Jain's index sits near 0.6. In the warbler variant the switch CPU \
starts clustering at 30 s: the two Vegas flows share one queue, the CUBIC flows the other, and Jain's index \
climbs to about 1 (Fig. 4). Watch the per-flow backlog in cells, the flow → queue map and the goodput shares.",
            watch: &["Before 30 s CUBIC fills each queue and Vegas starves (Jain's index about 0.5).", "The 'Warbler on' marker at 30 s: the flow → queue map shows the Vegas flows moving together, the weights follow.", "Jain's index climbs to about 1 within a few seconds of activation."],
        },
        PresetInfo {
            name: "cubic-bbr-vegas-3q",
            title: "2 CUBIC + 2 BBR + 2 Vegas on three switch queues (Warbler §5.2, Table 2)",
            variants: warbler::WITH_AND_WITHOUT,
            compared: warbler::WITH_AND_WITHOUT,
            default_variant: "baseline",
            seeds: 1,
            description: "Three 5680-cell queues at 100 Mbit/s, six flows (RTT 10 ms), two algorithms per queue. \
The paper's Table 2 baseline: JFI 0.69, mean delay 0.139 s, jitter 0.027 s, 1614 cells of buffer. CUBIC \
saturates its queue and BBR inflates the one it shares with CUBIC; Vegas is squeezed. With Warbler (from the \
start) the paper reports JFI 0.99, delay 84 ms, jitter 12.1 ms and 922 cells: each algorithm gets its own \
queue. Compare the per-flow backlog KDEs per queue (Fig. 5), the cumulative backlog (Fig. 6) and the \
shares (Fig. 7) between the two variants.",
            watch: &["The per-flow backlog KDE per queue (Fig. 5) and the cumulative backlog (Fig. 6).", "With Warbler: Vegas flows land in Q0, CUBIC in Q2 (lowest centroid → Q0), BBR between.", "Table 2's figures: Jain's index, mean delay, jitter and buffer, without vs with Warbler."],
        },
        PresetInfo {
            name: "vegas-newreno-mix",
            title: "Vegas/NewReno mixes with 8 BDP of buffer (Warbler §5.3 Fig. 11)",
            variants: warbler::MIX_VARIANTS,
            compared: warbler::MIX_VARIANTS,
            default_variant: "7v1n-fifo",
            seeds: 1,
            description: "7 Vegas + 1 NewReno, 6 + 2 and 1 + 7 (RTT 10 ms) at 100 Mbit/s with 8 BDP of buffer \
(1 BDP ≈ 780 cells): one FIFO queue, FQ-CoDel, Cebinae, ideal FQ, or 2/4/8 round-robin queues of 8/K BDP. \
The paper: FIFO has a low Jain's index, FQ-CoDel helps somewhat, Cebinae helps when NewReno is the minority, \
ideal FQ is the upper bound, and more queues approach it once flows are isolated.",
            watch: &["Jain's index by queue count: more queues help once each aggressive flow is isolated.", "Warbler with 2 queues already separates the NewReno flows from the Vegas ones."],
        },
        PresetInfo {
            name: "dqn-dumbbell",
            title: "A DQN congestion control against CUBIC and NewReno (1 sender, 2 Mbit/s)",
            variants: dqn::VARIANTS,
            compared: dqn::VARIANTS,
            default_variant: "dqn",
            seeds: 20,
            description: "The DQN paper's dumbbell: one sender on a 10 Mbit/s access link, a 2 Mbit/s, 10 ms \
bottleneck with a 100-packet drop-tail queue, 10 s. The frozen agent (the model shipped with AQM Lab, trained \
with `aqmsim train`) picks 0, +1500, −150 or +4000 bytes of cWnd every 100 ms. The paper: throughput within 4 % \
of CUBIC's, RTT 46 % lower than CUBIC's and 32 % lower than NewReno's, near-zero losses where CUBIC loses about \
500 packets. Watch the RTT and the cumulative drops.",
            watch: &["The RTT: CUBIC and NewReno fill the 250-packet buffer (half a second of queue); the agent holds a few packets.", "Cumulative drops: CUBIC loses hundreds at the end of slow start, the agent none.", "The agent's decisions chart: mostly 'hold' once the link is full."],
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
        "bufferbloat" => bufferbloat::build(v),
        "red-study" => red_study::build(v),
        "rtt-unfair" => warbler::rtt_unfair(v),
        "cubic-vegas-2q" => warbler::cubic_vegas_2q(v),
        "cubic-bbr-vegas-3q" => warbler::cubic_bbr_vegas_3q(v),
        "vegas-newreno-mix" => warbler::vegas_newreno_mix(v),
        "dqn-dumbbell" => dqn::build(v),
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
