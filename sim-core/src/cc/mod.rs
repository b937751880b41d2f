//! Congestion control: a small trait with default hooks, and static dispatch over the
//! algorithms through [`Cca`]. [`CcaSpec`] is the serde configuration that builds one.
//!
//! The TCP sender owns the window ([`Tcb`]); algorithms adjust it from the hooks it calls,
//! mirroring ns-3's `TcpCongestionOps`: `on_ack` for every ACK that acknowledges data
//! (ns-3 `PktsAcked`), `grow_window` where the window may grow (`IncreaseWindow`) and
//! `on_congestion` for the new ssthresh (`GetSsThresh`). Model-based algorithms (BBR) set
//! the window and pacing rate from every delivery-rate sample (`on_rate_sample`, ns-3
//! `CongControl`) and say so with `has_cong_control`.

pub mod bbr;
pub mod cubic;
pub mod new_reno;
pub mod vegas;

pub use bbr::{Bbr, BbrConfig, BbrMode};
pub use cubic::{Cubic, CubicConfig};
pub use new_reno::NewReno;
pub use vegas::{Vegas, VegasConfig};

use crate::rng::{SimRng, StreamId};
pub use crate::tcp::rate::RateSample;
use crate::time::{Rate, SimDuration, SimTime};
use serde::{Deserialize, Serialize};

/// Loss-recovery state of the sender (the Linux/ns-3 congestion state machine).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CongState {
    Open,
    /// Duplicate ACKs seen, not yet enough to declare a loss.
    Disorder,
    /// Fast recovery after a loss detected by duplicate ACKs / SACK.
    Recovery,
    /// Recovery after a retransmission timeout.
    Loss,
}

/// What signalled congestion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CongestionKind {
    /// Three duplicate ACKs or SACK-detected loss.
    DupAck,
    /// Retransmission timeout.
    Rto,
}

/// The sender state congestion control reads and writes (ns-3 `TcpSocketState`).
#[derive(Clone, Debug)]
pub struct Tcb {
    /// Congestion window in bytes.
    pub cwnd: u32,
    /// Slow-start threshold in bytes.
    pub ssthresh: u32,
    /// Sender maximum segment size (payload bytes).
    pub mss: u32,
    pub state: CongState,
    /// Bytes in flight (RFC 6675 pipe) after the current ACK was applied.
    pub bytes_in_flight: u32,
    /// Highest segment index sent so far plus one.
    pub high_tx: u32,
    /// Cumulative ACK of the current ACK (next segment expected by the receiver).
    pub last_acked: u32,
    /// True when the window, not the application or the peer, limits sending.
    pub cwnd_limited: bool,
    pub srtt: Option<SimDuration>,
    pub min_rtt: Option<SimDuration>,
}

impl Tcb {
    pub fn cwnd_segments(&self) -> u32 {
        self.cwnd / self.mss.max(1)
    }
}

/// An ACK as congestion control sees it.
#[derive(Clone, Copy, Debug)]
pub struct AckSample {
    pub now: SimTime,
    /// Segments newly acknowledged (cumulatively or by SACK).
    pub segments_acked: u32,
    /// RTT passed to the algorithm: ns-3 hands `PktsAcked` the smoothed RTT.
    pub rtt: Option<SimDuration>,
    /// The latest RTT sample (what Linux hands its algorithms).
    pub latest_rtt: Option<SimDuration>,
}

/// A snapshot of an algorithm's internals for traces and the UI; fields an algorithm does
/// not have stay `None`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CcMetrics {
    /// CUBIC W_max in segments.
    pub w_max_segments: Option<f64>,
    /// Vegas BaseRTT (smallest RTT seen) in ms.
    pub base_rtt_ms: Option<f64>,
    /// Vegas diff (segments queued) at the last once-per-RTT decision.
    pub vegas_diff_segments: Option<u32>,
    /// BBR state machine mode.
    pub bbr_mode: Option<BbrMode>,
    /// BBR bottleneck-bandwidth estimate (BtlBw), bit/s of payload.
    pub btl_bw_bps: Option<f64>,
    /// BBR round-trip propagation estimate (RTprop) in ms.
    pub rt_prop_ms: Option<f64>,
    pub pacing_gain: Option<f64>,
    pub cwnd_gain: Option<f64>,
    /// Pacing rate the algorithm asks for, bit/s.
    pub pacing_rate_bps: Option<f64>,
    /// Times BBR entered ProbeRTT.
    pub probe_rtt_count: Option<u32>,
    /// BBR packet-timed round trips so far.
    pub round_count: Option<u64>,
}

/// The hooks an algorithm may implement. Every hook has a default that does nothing.
pub trait CongestionControl {
    fn name(&self) -> &'static str;
    fn init(&mut self, _tcb: &mut Tcb, _now: SimTime) {}
    /// Every ACK that acknowledges data, in any state (ns-3 `PktsAcked`).
    fn on_ack(&mut self, _tcb: &mut Tcb, _ack: &AckSample) {}
    /// Window growth, called in Open and Loss states (ns-3 `IncreaseWindow`).
    fn grow_window(&mut self, tcb: &mut Tcb, segments_acked: u32, now: SimTime);
    /// New ssthresh on congestion; the sender then sets cwnd (PRR or one segment).
    fn on_congestion(&mut self, tcb: &Tcb, bytes_in_flight: u32, kind: CongestionKind) -> u32;
    fn on_state(&mut self, _tcb: &mut Tcb, _state: CongState, _now: SimTime) {}
    fn on_sent(&mut self, _tcb: &Tcb, _bytes: u32, _now: SimTime) {}
    /// Every delivery-rate sample, after the ACK's other hooks (ns-3 `CongControl`). A
    /// model-based algorithm sets `tcb.cwnd` here and reports its pacing rate.
    fn on_rate_sample(&mut self, _tcb: &mut Tcb, _rs: &RateSample, _now: SimTime) {}
    /// A pacing rate the sender must honour, if the algorithm paces.
    fn pacing_rate(&self) -> Option<Rate> {
        None
    }
    /// The algorithm sets the window itself from rate samples (ns-3 `HasCongControl`, Linux
    /// `cong_control`): the sender then applies no PRR in recovery and does not set
    /// cwnd = ssthresh when recovery ends.
    fn has_cong_control(&self) -> bool {
        false
    }
    /// Checked after each `on_rate_sample`: while true the sender marks the connection
    /// application-limited (Linux `tp->app_limited`), so the samples that follow do not lower
    /// a bandwidth estimate (BBR ProbeRTT).
    fn marks_app_limited(&self) -> bool {
        false
    }
    fn metrics(&self) -> CcMetrics {
        CcMetrics::default()
    }
}

/// Choice of congestion control, as scenarios carry it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CcaSpec {
    NewReno,
    Cubic(CubicConfig),
    Vegas(VegasConfig),
    Bbr(BbrConfig),
}

impl Default for CcaSpec {
    fn default() -> Self {
        CcaSpec::Cubic(CubicConfig::default())
    }
}

impl CcaSpec {
    /// Builds the algorithm with a fixed random stream (seed 0, flow 0); a simulation uses
    /// [`CcaSpec::build_with_rng`] with the flow's own stream.
    pub fn build(&self) -> Cca {
        self.build_with_rng(SimRng::new(0, StreamId::Flow(0)))
    }

    /// Builds the algorithm; `rng` is the flow's random stream, derived from (scenario seed,
    /// flow id). Only BBR draws from it (its first ProbeBW phase).
    pub fn build_with_rng(&self, rng: SimRng) -> Cca {
        match self {
            CcaSpec::NewReno => Cca::NewReno(NewReno::default()),
            CcaSpec::Cubic(c) => Cca::Cubic(Cubic::new(c.clone())),
            CcaSpec::Vegas(c) => Cca::Vegas(Vegas::new(c.clone())),
            CcaSpec::Bbr(c) => Cca::Bbr(Box::new(Bbr::new(c.clone(), rng))),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            CcaSpec::NewReno => "newreno",
            CcaSpec::Cubic(_) => "cubic",
            CcaSpec::Vegas(_) => "vegas",
            CcaSpec::Bbr(_) => "bbr",
        }
    }
}

/// A built algorithm (static dispatch).
#[derive(Clone, Debug)]
pub enum Cca {
    NewReno(NewReno),
    Cubic(Cubic),
    Vegas(Vegas),
    /// Boxed: BBR carries its random stream and filters.
    Bbr(Box<Bbr>),
}

macro_rules! dispatch {
    ($self:ident, $cc:ident => $e:expr) => {
        match $self {
            Cca::NewReno($cc) => $e,
            Cca::Cubic($cc) => $e,
            Cca::Vegas($cc) => $e,
            Cca::Bbr($cc) => $e,
        }
    };
}

impl CongestionControl for Cca {
    fn name(&self) -> &'static str {
        dispatch!(self, c => c.name())
    }
    fn init(&mut self, tcb: &mut Tcb, now: SimTime) {
        dispatch!(self, c => c.init(tcb, now))
    }
    fn on_ack(&mut self, tcb: &mut Tcb, ack: &AckSample) {
        dispatch!(self, c => c.on_ack(tcb, ack))
    }
    fn grow_window(&mut self, tcb: &mut Tcb, segments_acked: u32, now: SimTime) {
        dispatch!(self, c => c.grow_window(tcb, segments_acked, now))
    }
    fn on_congestion(&mut self, tcb: &Tcb, bytes_in_flight: u32, kind: CongestionKind) -> u32 {
        dispatch!(self, c => c.on_congestion(tcb, bytes_in_flight, kind))
    }
    fn on_state(&mut self, tcb: &mut Tcb, state: CongState, now: SimTime) {
        dispatch!(self, c => c.on_state(tcb, state, now))
    }
    fn on_sent(&mut self, tcb: &Tcb, bytes: u32, now: SimTime) {
        dispatch!(self, c => c.on_sent(tcb, bytes, now))
    }
    fn pacing_rate(&self) -> Option<Rate> {
        dispatch!(self, c => c.pacing_rate())
    }
    fn on_rate_sample(&mut self, tcb: &mut Tcb, rs: &RateSample, now: SimTime) {
        dispatch!(self, c => c.on_rate_sample(tcb, rs, now))
    }
    fn has_cong_control(&self) -> bool {
        dispatch!(self, c => c.has_cong_control())
    }
    fn marks_app_limited(&self) -> bool {
        dispatch!(self, c => c.marks_app_limited())
    }
    fn metrics(&self) -> CcMetrics {
        dispatch!(self, c => c.metrics())
    }
}
