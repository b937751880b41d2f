//! What a ping group measured: the RTTs of its answers over the measured window (the
//! bufferbloat lab's figure: ping RTT per buffer), and its requests answered over the run.

use serde::{Deserialize, Serialize};

/// A ping's answer.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PingSample {
    pub flow: u32,
    /// When the request left, s.
    pub sent_s: f64,
    pub rtt_ms: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PingStats {
    pub group: u32,
    /// Requests its flows sent over the run, and answers that came back (the last few may
    /// still be on their way at the end).
    pub sent: u64,
    pub answered: u64,
    /// RTTs of the requests sent in the window, ms; `None` when none was answered.
    pub samples: u64,
    pub rtt_min_ms: Option<f64>,
    pub rtt_p50_ms: Option<f64>,
    pub rtt_p95_ms: Option<f64>,
    pub rtt_p99_ms: Option<f64>,
    pub rtt_mean_ms: Option<f64>,
}

/// Per ping group of `sc`, from every answer (`pings`), each flow's group (`flows`) and
/// how many requests flow `f` sent (`sent(f)`).
pub fn stats(
    sc: &crate::scenario::Scenario,
    pings: &[PingSample],
    flows: &[super::FlowSummary],
    sent: impl Fn(u32) -> u64,
) -> Vec<PingStats> {
    let mut out = Vec::new();
    for g in (0..sc.flows.len()).filter(|&g| sc.flows[g].cca.is_probe()) {
        let g = g as u32;
        let of = |flow: u32| flows.get(flow as usize).is_some_and(|f| f.group == g);
        let answered: Vec<&PingSample> = pings.iter().filter(|p| of(p.flow)).collect();
        let rtts = super::stats::sorted(
            &answered.iter().filter(|p| p.sent_s >= sc.warmup_s).map(|p| p.rtt_ms).collect::<Vec<_>>(),
        );
        let q = |p: f64| {
            (!rtts.is_empty())
                .then(|| rtts[((p * rtts.len() as f64).ceil() as usize).clamp(1, rtts.len()) - 1])
        };
        out.push(PingStats {
            group: g,
            sent: flows.iter().filter(|f| f.group == g).map(|f| sent(f.id)).sum(),
            answered: answered.len() as u64,
            samples: rtts.len() as u64,
            rtt_min_ms: rtts.first().copied(),
            rtt_p50_ms: q(0.5),
            rtt_p95_ms: q(0.95),
            rtt_p99_ms: q(0.99),
            rtt_mean_ms: (!rtts.is_empty()).then(|| rtts.iter().sum::<f64>() / rtts.len() as f64),
        });
    }
    out
}
