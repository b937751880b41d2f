//! BBR's parameters (serde, with the draft's / ns-3's defaults) and its modes.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BbrMode {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BbrConfig {
    /// Startup pacing and cwnd gain (draft §4.3.2.1: 2/ln 2 ≈ 2.885; ns-3 `HighGain` 2.89).
    /// Drain paces at its inverse.
    pub high_gain: f64,
    /// ProbeBW cwnd gain (draft §4.3.4.1: 2).
    pub cwnd_gain: f64,
    /// BtlBw max-filter window in round trips (draft §4.1.1.2: 10).
    pub bw_window_rounds: u32,
    /// RTprop min-filter window (draft §4.1.2.2: 10 s).
    pub min_rtt_window_s: f64,
    /// Time ProbeRTT holds the window down (draft §4.3.5: 200 ms).
    pub probe_rtt_duration_ms: f64,
    /// ProbeRTT window and the floor of cwnd, in segments (draft §4.2.3.3: 4).
    pub min_pipe_cwnd_segments: u32,
    /// Startup ends when the bandwidth grew less than this factor... (draft §4.3.2.2: 1.25)
    pub full_bw_threshold: f64,
    /// ...for this many rounds in a row (draft §4.3.2.2: 3).
    pub full_bw_rounds: u32,
    /// Pace this percent below pacing_gain·BtlBw (Linux/ns-3: 1; the draft: 0).
    pub pacing_margin_percent: f64,
    /// Segments added to the window target for send quantization (ns-3: 3 × 1 segment).
    pub quantization_segments: u32,
    /// An RTT equal to RTprop refreshes its time stamp (draft and ns-3: `<=`), postponing
    /// ProbeRTT; Linux takes only strictly lower samples (`<`).
    pub min_rtt_refresh_on_equal: bool,
    /// ProbeBW starts in a random one of the first this-many phases counted back from the
    /// end of the cycle, never in the 0.75 phase (Linux `bbr_cycle_rand` 7; ns-3 6).
    pub random_phases: u32,
}

impl Default for BbrConfig {
    fn default() -> Self {
        BbrConfig {
            high_gain: 2.89,
            cwnd_gain: 2.0,
            bw_window_rounds: 10,
            min_rtt_window_s: 10.0,
            probe_rtt_duration_ms: 200.0,
            min_pipe_cwnd_segments: 4,
            full_bw_threshold: 1.25,
            full_bw_rounds: 3,
            pacing_margin_percent: 1.0,
            quantization_segments: 3,
            min_rtt_refresh_on_equal: false,
            random_phases: 7,
        }
    }
}
