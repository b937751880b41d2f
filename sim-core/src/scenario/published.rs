//! Figures the papers publish, so runs can be printed and tested next to them.

use serde::Serialize;

/// The RED study's Tables 6-10 for one algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RedStudyFigures {
    pub throughput_mbps: f64,
    pub throughput_std_mbps: f64,
    pub throughput_min_mbps: f64,
    pub throughput_max_mbps: f64,
    pub cv_pct: f64,
    pub queue_mean: f64,
    pub queue_std: f64,
    pub queue_median: f64,
    pub queue_p90: f64,
    pub queue_p99: f64,
    pub empty_pct: f64,
    /// Table 7: < minTh, [minTh, maxTh), [maxTh, 2maxTh), ≥ 2maxTh.
    pub zones_pct: [f64; 4],
    pub drops: u64,
    pub drops_per_s: f64,
    pub median_interval_ms: f64,
    pub active_seconds: u32,
    pub max_burst: u32,
}

/// Published figures of the RED study for `alg` (red, ared or gentle).
pub fn red_study(alg: &str) -> Option<RedStudyFigures> {
    let f = match alg {
        "red" => RedStudyFigures {
            throughput_mbps: 1.8047,
            throughput_std_mbps: 0.3380,
            throughput_min_mbps: 0.533,
            throughput_max_mbps: 3.621,
            cv_pct: 18.7,
            queue_mean: 7.74,
            queue_std: 7.45,
            queue_median: 6.0,
            queue_p90: 18.0,
            queue_p99: 26.0,
            empty_pct: 13.4,
            zones_pct: [46.0, 19.8, 29.3, 4.8],
            drops: 1240,
            drops_per_s: 21.34,
            median_interval_ms: 2.3,
            active_seconds: 47,
            max_burst: 321,
        },
        "ared" => RedStudyFigures {
            throughput_mbps: 1.8039,
            throughput_std_mbps: 0.3950,
            throughput_min_mbps: 0.553,
            throughput_max_mbps: 3.293,
            cv_pct: 21.9,
            queue_mean: 9.57,
            queue_std: 11.94,
            queue_median: 4.0,
            queue_p90: 25.0,
            queue_p99: 49.0,
            empty_pct: 22.3,
            zones_pct: [52.6, 8.0, 19.6, 19.7],
            drops: 1003,
            drops_per_s: 17.11,
            median_interval_ms: 11.3,
            active_seconds: 33,
            max_burst: 276,
        },
        "gentle" => RedStudyFigures {
            throughput_mbps: 1.7998,
            throughput_std_mbps: 0.4444,
            throughput_min_mbps: 0.352,
            throughput_max_mbps: 3.654,
            cv_pct: 24.7,
            queue_mean: 6.40,
            queue_std: 8.86,
            queue_median: 1.0,
            queue_p90: 19.0,
            queue_p99: 34.0,
            empty_pct: 26.6,
            zones_pct: [60.8, 11.8, 19.8, 7.7],
            drops: 1026,
            drops_per_s: 17.75,
            median_interval_ms: 9.1,
            active_seconds: 27,
            max_burst: 305,
        },
        _ => return None,
    };
    Some(f)
}

/// The Warbler paper's Table 2 row "without Warbler" (§5.2: 2 CUBIC + 2 BBR + 2 Vegas on
/// three 5680-cell queues at 100 Mbit/s), and its "with Warbler" row for reference.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct WarblerTable2 {
    pub jfi: f64,
    pub delay_mean_s: f64,
    pub jitter_s: f64,
    pub buffer_cells: f64,
}

pub const WARBLER_WITHOUT: WarblerTable2 =
    WarblerTable2 { jfi: 0.69, delay_mean_s: 0.1389, jitter_s: 0.0267, buffer_cells: 1614.0 };
pub const WARBLER_WITH: WarblerTable2 =
    WarblerTable2 { jfi: 0.99, delay_mean_s: 0.0840, jitter_s: 0.0121, buffer_cells: 922.0 };

/// What the Warbler paper reports for its baselines, per preset, in words (§5.1-§5.3).
pub fn warbler_baseline_note(preset: &str) -> Option<&'static str> {
    Some(match preset {
        "cubic-vegas-2q" => "§5.1 Fig. 4: before Warbler (t < 30 s) CUBIC fills its queue and JFI is about 0.6.",
        "cubic-bbr-vegas-3q" => "§5.2 Table 2, without Warbler: JFI 0.69, mean delay 0.1389 s, jitter 0.0267 s, buffer 1614 cells.",
        "rtt-unfair" => "§5.3 Figs. 9-10: FIFO lets the 20 ms flow dominate; FQ-CoDel improves JFI with oscillations; Cebinae holds JFI near 1 but the aggregate settles near 88.3 Mbit/s.",
        "vegas-newreno-mix" => "§5.3 Fig. 11: FIFO has a low JFI, FQ-CoDel helps a little, Cebinae helps when aggressive flows are few, ideal FQ is the upper bound.",
        _ => return None,
    })
}

/// One line of the DQN paper's comparison (§4.1-§4.2): the DQN agent's difference from a
/// baseline and the two-tailed t-test p-value.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct DqnVersus {
    pub baseline: &'static str,
    pub throughput_pct: f64,
    pub throughput_p: f64,
    pub rtt_pct: f64,
    /// The paper prints 0.000.
    pub rtt_p: f64,
}

pub const DQN_VERSUS: [DqnVersus; 2] = [
    DqnVersus { baseline: "cubic", throughput_pct: -3.79, throughput_p: 0.193, rtt_pct: -46.29, rtt_p: 0.0 },
    DqnVersus { baseline: "newreno", throughput_pct: 0.38, throughput_p: 0.88, rtt_pct: -32.40, rtt_p: 0.0 },
];

/// Packets lost in the paper's 10 s run (Fig. 4): CUBIC about 500, DQN and NewReno near 0.
pub fn dqn_losses(variant: &str) -> Option<f64> {
    match variant {
        "cubic" => Some(500.0),
        "dqn" | "newreno" => Some(0.0),
        _ => None,
    }
}

/// The Jain's index the paper reports for an experiment, to draw on its fairness chart.
pub fn expected_jfi(preset: &str, variant: &str) -> Option<(f64, &'static str)> {
    Some(match (preset, variant) {
        ("cubic-bbr-vegas-3q", "baseline") => (0.69, "paper: 0.69 without Warbler"),
        ("cubic-bbr-vegas-3q", "warbler") => (0.99, "paper: 0.99 with Warbler"),
        ("cubic-vegas-2q", "baseline") => (0.6, "paper: ≈ 0.6 before Warbler"),
        ("cubic-vegas-2q", "warbler") => (0.99, "paper: ≈ 1 after Warbler starts"),
        ("rtt-unfair", "cebinae") => (1.0, "paper: ≈ 1 (Cebinae)"),
        ("rtt-unfair", "warbler") => (1.0, "paper: ≈ 1 (Warbler)"),
        _ => return None,
    })
}

/// A published figure by key, for preset texts (`{paper:KEY}`): `red-study/ALG:FIELD`
/// (Tables 6-9), `table2/without:FIELD` and `table2/with:FIELD` (Warbler §5.2, delays in
/// ms), `dqn/BASELINE:throughput_pct|rtt_pct`, `dqn/VARIANT:losses`, the figures the
/// Warbler paper states in its text (`warbler:…`) and the L4S team's coexistence run
/// (`l4s:…`).
pub fn figure(key: &str) -> Option<f64> {
    let (what, field) = key.split_once(':')?;
    if let Some(alg) = what.strip_prefix("red-study/") {
        let f = red_study(alg)?;
        return Some(match field {
            "throughput_mbps" => f.throughput_mbps,
            "cv_pct" => f.cv_pct,
            "queue_mean" => f.queue_mean,
            "queue_p99" => f.queue_p99,
            "empty_pct" => f.empty_pct,
            "drops" => f.drops as f64,
            "median_interval_ms" => f.median_interval_ms,
            "active_seconds" => f64::from(f.active_seconds),
            _ => return None,
        });
    }
    if let Some(row) = what.strip_prefix("table2/") {
        let t = match row {
            "without" => WARBLER_WITHOUT,
            "with" => WARBLER_WITH,
            _ => return None,
        };
        return Some(match field {
            "jfi" => t.jfi,
            "delay_ms" => t.delay_mean_s * 1e3,
            "jitter_ms" => t.jitter_s * 1e3,
            "buffer_cells" => t.buffer_cells,
            _ => return None,
        });
    }
    if let Some(v) = what.strip_prefix("dqn/") {
        if field == "losses" {
            return dqn_losses(v);
        }
        let d = DQN_VERSUS.iter().find(|d| d.baseline == v)?;
        return Some(match field {
            "throughput_pct" => d.throughput_pct,
            "rtt_pct" => d.rtt_pct,
            _ => return None,
        });
    }
    match (what, field) {
        // §5.1 Fig. 4: Jain's index before Warbler starts, and after.
        ("warbler", "fig4_jfi_before") => Some(0.6),
        ("warbler", "fig4_jfi_after") => Some(0.99),
        // §5.3: Cebinae's aggregate on the RTT-unfair pair, Mbit/s.
        ("warbler", "cebinae_mbps") => Some(88.3),
        // Fig. 12: clustering time on the switch CPU at n = 10 000, ms.
        ("warbler", "fig12_ms_lo") => Some(300.0),
        ("warbler", "fig12_ms_hi") => Some(700.0),
        // The L4S team's coexistence run (IETF 109 ICCRG, Nov 2020; l4steam.github.io
        // iccrg-exp `Prague_Cubic_100_20`): one Prague and one CUBIC flow through Linux's
        // DualPI2 at 100 Mbit/s, 20 ms base RTT, 40 s. Rates from iperf; each queue as the
        // flow's mean smoothed RTT less its minimum (Prague 20.3 − 20.1 ms, CUBIC 33.7 − 21.5).
        ("l4s", "prague_mbps") => Some(65.9),
        ("l4s", "cubic_mbps") => Some(30.1),
        ("l4s", "l_queue_ms") => Some(0.2),
        ("l4s", "c_queue_ms") => Some(12.2),
        _ => None,
    }
}
