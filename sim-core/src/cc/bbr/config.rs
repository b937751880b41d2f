//! BBR's parameters (serde, with the draft's / ns-3's defaults) and its modes.

use super::Bbr;
use crate::cc::{CcaConfig, CongestionControl};
use crate::params::{Algorithm, Described, Field, Kind, Range};
use crate::rng::SimRng;
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
#[serde(default, deny_unknown_fields)]
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
    /// An RTT equal to RTprop refreshes its time stamp (draft and ns-3, the default: `<=`),
    /// postponing ProbeRTT; Linux takes only strictly lower samples (`<`).
    pub min_rtt_refresh_on_equal: bool,
    /// ProbeBW starts in a random one of the first this-many phases counted back from the
    /// end of the cycle, never in the 0.75 phase (ns-3 6, the default; Linux `bbr_cycle_rand` 7).
    pub random_phases: u32,
    /// After a retransmission timeout, treat the loss state as Linux `tcp_bbr.c` does:
    /// losses reported in it lower cwnd, leaving it restores the cwnd saved at the timeout,
    /// and the timeout restarts full-bandwidth detection. Off (ns-3.44 `TcpBbr`, the
    /// default): `TcpSocketBase` signals `CA_EVENT_COMPLETE_CWR` only on leaving fast
    /// recovery, so after a timeout cwnd grows back from one segment by the bytes acked, and
    /// only fast recovery subtracts losses (`ModulateCwndForRecovery`).
    pub linux_rto_handling: bool,
    /// Leave fast recovery with cwnd = ssthresh, as ns-3.44 does: the full ACK runs
    /// `TcpBbr::CwndEvent(CA_EVENT_COMPLETE_CWR)` (restore the saved cwnd) and then
    /// `TcpSocketBase`'s `m_recoveryOps->ExitRecovery` (`TcpPrrRecovery`, `TcpClassicRecovery`:
    /// `m_cWnd = m_ssThresh`), and BBR's ssthresh is InFlight(1) from entering Drain, about one
    /// BDP. On by default, as every other default here is ns-3.44 `TcpBbr`'s; off: the saved
    /// cwnd comes back, as Linux `bbr_set_cwnd_to_recover_or_restore` does. Ignored with
    /// `linux_rto_handling`.
    pub exit_recovery_at_ssthresh: bool,
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
            min_rtt_refresh_on_equal: true,
            random_phases: 6,
            linux_rto_handling: false,
            exit_recovery_at_ssthresh: true,
        }
    }
}

impl BbrMode {
    pub fn as_str(self) -> &'static str {
        match self {
            BbrMode::Startup => "startup",
            BbrMode::Drain => "drain",
            BbrMode::ProbeBw => "probe_bw",
            BbrMode::ProbeRtt => "probe_rtt",
        }
    }
}

const GAIN: Range = Range::closed(1.0, 10.0);

impl Described for BbrConfig {
    const INFO: Algorithm = Algorithm {
        tag: "bbr",
        label: "BBR v1",
        help: "Model-based: paces at the estimated bottleneck bandwidth with a window of twice the BDP (draft-cardwell-iccrg-bbr-congestion-control-00, ns-3 TcpBbr).",
        fields: &[
            Field::new("high_gain", "Startup gain", "", Kind::Float(GAIN), "Pacing and cwnd gain in Startup (2.89)."),
            Field::new("cwnd_gain", "cwnd gain", "", Kind::Float(GAIN), "cwnd = gain × BDP in ProbeBW (2)."),
            Field::new("bw_window_rounds", "BtlBw window", "rounds", Kind::Int(Range::closed(1.0, 1000.0)), "Max filter over this many round trips (10)."),
            Field::new("min_rtt_window_s", "RTprop window", "s", Kind::Float(Range::closed(0.001, 3600.0)), "ProbeRTT when no new minimum for this long (10 s)."),
            Field::new("probe_rtt_duration_ms", "ProbeRTT time", "ms", Kind::Float(Range::closed(0.001, 60_000.0)), "Time spent at the minimum window (200 ms)."),
            Field::new("min_pipe_cwnd_segments", "ProbeRTT cwnd", "segments", Kind::Int(Range::closed(1.0, 1000.0)), "Window during ProbeRTT (4)."),
            Field::new("full_bw_threshold", "Full-bandwidth growth", "", Kind::Float(Range::above(1.0, 10.0)), "Startup ends when bandwidth grows less than this factor... (1.25)"),
            Field::new("full_bw_rounds", "Full-bandwidth rounds", "rounds", Kind::Int(Range::closed(1.0, 100.0)), "...for this many rounds in a row (3)."),
            Field::new("pacing_margin_percent", "Pacing margin", "%", Kind::Float(Range::closed(0.0, 50.0)), "Pace this much below the estimate (1 %)."),
            Field::new("quantization_segments", "Quantization", "segments", Kind::Int(Range::closed(0.0, 100.0)), "Segments added to the window target for send quantization (3)."),
            Field::new("min_rtt_refresh_on_equal", "RTprop refresh on equal", "", Kind::Bool, "An RTT equal to RTprop postpones ProbeRTT (draft, ns-3); off = Linux."),
            Field::new("random_phases", "Random ProbeBW phases", "", Kind::Int(Range::closed(1.0, 7.0)), "ProbeBW starts in one of this many phases (Linux 7, ns-3 6)."),
            Field::new("linux_rto_handling", "Linux timeout handling", "", Kind::Bool, "After a timeout restore the saved cwnd and restart full-bandwidth detection (Linux); off = ns-3.44, which does neither."),
            Field::new("exit_recovery_at_ssthresh", "Leave recovery at ssthresh", "", Kind::Bool, "Leaving fast recovery sets cwnd to ssthresh, about one BDP (ns-3.44's ExitRecovery); off = the saved cwnd comes back (Linux)."),
        ],
        flavours: &[],
    };
}

impl CcaConfig for BbrConfig {
    fn build(&self, rng: SimRng) -> Result<Box<dyn CongestionControl>, String> {
        Ok(Box::new(Bbr::new(self.clone(), rng)))
    }
}
