//! TCP Prague, the L4S scalable congestion control (RFC 9331 §4.3), as the L4S team's
//! Linux module runs it (`net/ipv4/tcp_prague.c`, version 0.7). Each rule below names the
//! function it follows.
//!
//! - It sends ECT(1), so a DualPI2 port queues it in the shallow L queue, and its receiver
//!   echoes every segment's CE state (DCTCP's §3.2 echo, `tcp/receiver.rs`). Linux Prague
//!   needs AccECN's CE counter instead; the per-segment echo gives the sender the same count
//!   while no ACK is lost, which holds on the uncongested reverse paths here.
//! - α: once per round (SND.UNA passes the round's SND.NXT), α ← (1 − g)·α + g·F with F
//!   the share of the round's segments echoed CE, g = 1/16 (`prague_update_alpha`); not
//!   before the first mark.
//! - The window W is fractional, in segments. Entering CWR (the first echo of a round trip)
//!   cuts W by W·α/2 (`prague_enter_cwr`); the very first mark halves it, α then starting at 0
//!   (`prague_alpha_mode` 0). A loss halves W (`prague_enter_loss`), and there is no growth
//!   until recovery ends.
//! - Growth (`prague_update_cwnd`): segments acknowledged without a mark add acked·s / W, in
//!   slow start acked. The echo's own CWR state does not stop growth (Linux Prague has its
//!   own `cong_control`), so the sender runs no PRR for it ([`CongestionControl::has_cong_control`]).
//! - RTT independence (`prague_ai_ack_increase`): once 4 rounds have passed since slow start,
//!   s = (srtt / 25 ms)² for an RTT under 25 ms, so a short-RTT flow gains a segment per
//!   25 ms round as a 25 ms flow does, and α updates and cuts come at most once per 25 ms.
//! - Pacing (`prague_update_pacing_rate`): MSS·max(W, in flight)/srtt, twice that in slow
//!   start, at least 100 kbit/s.
//!
//! Simplified: the integer window jumps to ⌈W⌉ instead of stepping one segment per ACK;
//! Prague's rate mode for windows under four segments, its MSS shrinking and undo are not
//! modelled (the presets' windows are far larger).

use super::{AckSample, CcMetrics, CcaConfig, CongState, CongestionControl, CongestionKind, Tcb};
use crate::net::Ecn;
use crate::params::{Algorithm, Described, Field, Kind, Range};
use crate::rng::SimRng;
use crate::time::{Rate, SimDuration, SimTime};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PragueConfig {
    /// g, the weight of each round's marked share in α (1/16).
    pub g: f64,
    /// The first mark halves the window and α starts at 0 (v0.7's `prague_alpha_mode` 0);
    /// off = α starts at 1 and every cut is by α/2 (v0.6, as DCTCP).
    pub halve_on_first_mark: bool,
    /// Scale growth so an RTT below the target grows as the target would (on).
    pub rtt_independence: bool,
    /// The RTT that growth is scaled to, ms (25).
    pub rtt_target_ms: f64,
    /// Rounds after slow start before the scaling applies (4).
    pub rtt_transition_rounds: u32,
}

impl Default for PragueConfig {
    fn default() -> Self {
        PragueConfig {
            g: 1.0 / 16.0,
            halve_on_first_mark: true,
            rtt_independence: true,
            rtt_target_ms: 25.0,
            rtt_transition_rounds: 4,
        }
    }
}

impl Described for PragueConfig {
    const INFO: Algorithm = Algorithm {
        tag: "prague",
        label: "TCP Prague",
        help: "L4S scalable congestion control (RFC 9331; the L4S team's Linux module): ECT(1), cuts by α/2 once per round trip, growth scaled to a 25 ms RTT, paced. Needs a queue that marks ECT(1) (DualPI2).",
        fields: &[
            Field::new("g", "g", "", Kind::Float(Range::above(0.0, 1.0)), "Weight of each round's marked share in α (1/16)."),
            Field::new("halve_on_first_mark", "Halve at the first mark", "", Kind::Bool, "α starts at 0 and the first mark halves the window (Prague 0.7); off = α starts at 1 (0.6, DCTCP)."),
            Field::new("rtt_independence", "RTT independence", "", Kind::Bool, "Below the target RTT, grow as a flow with the target RTT would (on)."),
            Field::new("rtt_target_ms", "Target RTT", "ms", Kind::Float(Range::closed(0.1, 10_000.0)), "The RTT growth is scaled to (25 ms)."),
            Field::new("rtt_transition_rounds", "Scaling after", "rounds", Kind::Int(Range::closed(0.0, 1e6)), "Rounds after slow start before the scaling applies (4)."),
        ],
        flavours: &[],
    };
}

impl CcaConfig for PragueConfig {
    fn build(&self, _rng: SimRng) -> Result<Box<dyn CongestionControl>, String> {
        Ok(Box::new(Prague::new(self)))
    }
    fn ecn_codepoint(&self) -> Option<Ecn> {
        Some(Ecn::Ect1)
    }
}

/// The scaled growth applies above this RTT no more (`MAX_SCALED_RTT`, 100 ms).
const MAX_SCALED_RTT_S: f64 = 0.1;
/// The pacing rate's floor, bytes per second (`MINIMUM_RATE`).
const MIN_RATE_BYTES_PER_S: f64 = 12_500.0;

#[derive(Clone, Debug)]
pub struct Prague {
    cfg: PragueConfig,
    pub(crate) alpha: f64,
    /// The window, segments.
    w: f64,
    /// The cwnd this algorithm last wrote: another value means the sender set it (a
    /// timeout, an idle restart) and W follows.
    written: u32,
    saw_ce: bool,
    in_loss: bool,
    /// Segments acknowledged, and of them echoed CE, this round.
    acked: u64,
    marked: u64,
    /// The round ends when this segment is acknowledged.
    round_end: u32,
    /// Rounds completed since slow start ended.
    rounds: u32,
    last_alpha_update: SimTime,
    last_cut: Option<SimTime>,
    now: SimTime,
    pacing: Option<Rate>,
}

impl Prague {
    pub fn new(cfg: &PragueConfig) -> Prague {
        Prague {
            cfg: cfg.clone(),
            alpha: if cfg.halve_on_first_mark { 0.0 } else { 1.0 },
            w: 0.0,
            written: 0,
            saw_ce: false,
            in_loss: false,
            acked: 0,
            marked: 0,
            round_end: 0,
            rounds: 0,
            last_alpha_update: SimTime::ZERO,
            last_cut: None,
            now: SimTime::ZERO,
            pacing: None,
        }
    }

    fn target(&self) -> SimDuration {
        SimDuration::from_secs_f64(self.cfg.rtt_target_ms / 1e3)
    }

    /// `prague_is_rtt_indep`: past slow start by the transition's rounds.
    fn rtt_independent(&self, tcb: &Tcb) -> bool {
        self.cfg.rtt_independence && tcb.cwnd >= tcb.ssthresh && self.rounds >= self.cfg.rtt_transition_rounds
    }

    /// The additive increase per round trip, segments (`prague_ai_ack_increase`).
    pub fn ai_scale(&self, tcb: &Tcb) -> f64 {
        let (Some(srtt), true) = (tcb.srtt, self.rtt_independent(tcb)) else { return 1.0 };
        let (r, t) = (srtt.as_secs_f64(), self.cfg.rtt_target_ms / 1e3);
        if r <= 0.0 || r > MAX_SCALED_RTT_S || r >= t {
            return 1.0;
        }
        (r / t) * (r / t)
    }

    /// Whether `target` has passed since `since`, when the 25 ms limits apply.
    fn target_elapsed(&self, tcb: &Tcb, since: Option<SimTime>) -> bool {
        !self.rtt_independent(tcb) || since.is_none_or(|t| self.now.saturating_sub(t) >= self.target())
    }

    fn write_cwnd(&mut self, tcb: &mut Tcb) {
        let bytes = (self.w.max(2.0).ceil() * f64::from(tcb.mss)).min(f64::from(u32::MAX));
        tcb.cwnd = bytes as u32;
        self.written = tcb.cwnd;
    }

    /// `prague_update_alpha`, at the end of each round.
    fn end_round(&mut self, tcb: &Tcb) {
        let since = Some(self.last_alpha_update);
        if self.saw_ce && self.acked > 0 && self.target_elapsed(tcb, since) {
            let f = self.marked as f64 / self.acked as f64;
            self.alpha = ((1.0 - self.cfg.g) * self.alpha + self.cfg.g * f).min(1.0);
            self.last_alpha_update = self.now;
        }
        (self.acked, self.marked) = (0, 0);
        self.round_end = tcb.high_tx;
        if tcb.cwnd >= tcb.ssthresh {
            self.rounds = self.rounds.saturating_add(1);
        }
    }

    fn update_pacing(&mut self, tcb: &Tcb) {
        let Some(srtt) = tcb.srtt.filter(|s| s.as_nanos() > 0) else { return };
        let in_flight = f64::from(tcb.bytes_in_flight) / f64::from(tcb.mss.max(1));
        let mut bytes_per_s = f64::from(tcb.mss) * self.w.max(in_flight) / srtt.as_secs_f64();
        if tcb.cwnd < tcb.ssthresh / 2 {
            bytes_per_s *= 2.0;
        }
        self.pacing = Some(Rate((bytes_per_s.max(MIN_RATE_BYTES_PER_S) * 8.0) as u64));
    }
}

impl CongestionControl for Prague {
    fn init(&mut self, tcb: &mut Tcb, _now: SimTime) {
        self.w = f64::from(tcb.cwnd) / f64::from(tcb.mss.max(1));
        self.written = tcb.cwnd;
    }

    fn on_ack(&mut self, tcb: &mut Tcb, ack: &AckSample) {
        self.now = ack.now;
        if tcb.cwnd != self.written {
            self.w = f64::from(tcb.cwnd) / f64::from(tcb.mss.max(1));
        }
        let n = u64::from(ack.segments_acked);
        self.acked += n;
        if ack.ece {
            self.marked += n;
        }
        if tcb.last_acked >= self.round_end {
            self.end_round(tcb);
        }
        // After a timeout the sender's slow start back to ssthresh rebuilds the window
        // (`grow_window`), as Linux Prague steps up to W/2.
        let growing = !ack.ece && !self.in_loss && tcb.cwnd_limited && tcb.state != CongState::Loss;
        if growing && n > 0 {
            let mut acked = n as f64;
            let ssthresh = f64::from(tcb.ssthresh) / f64::from(tcb.mss.max(1));
            if self.w < ssthresh {
                let room = ssthresh - self.w;
                self.w += acked.min(room);
                acked = (acked - room).max(0.0);
            }
            if acked > 0.0 {
                self.w += acked * self.ai_scale(tcb) / self.w.max(1.0);
            }
        }
        if tcb.state != CongState::Loss {
            self.write_cwnd(tcb);
        }
        self.update_pacing(tcb);
    }

    /// Slow start back to ssthresh after a timeout (Loss state); W follows.
    fn grow_window(&mut self, tcb: &mut Tcb, segments_acked: u32, _now: SimTime) {
        if tcb.state == CongState::Loss && tcb.cwnd < tcb.ssthresh {
            let add = segments_acked.saturating_mul(tcb.mss);
            tcb.cwnd = tcb.cwnd.saturating_add(add).min(tcb.ssthresh);
            self.written = tcb.cwnd;
            self.w = f64::from(tcb.cwnd) / f64::from(tcb.mss.max(1));
        }
    }

    /// An echo cuts W by α/2 (the first one by half); a loss halves it. The new ssthresh
    /// is the new window: slow start is over.
    fn on_congestion(&mut self, tcb: &Tcb, _bytes_in_flight: u32, kind: CongestionKind) -> u32 {
        let mss = f64::from(tcb.mss.max(1));
        match kind {
            CongestionKind::Ecn if !self.saw_ce && self.cfg.halve_on_first_mark => {
                self.saw_ce = true;
                self.w /= 2.0;
                self.last_cut = Some(self.now);
            }
            CongestionKind::Ecn => {
                self.saw_ce = true;
                if self.target_elapsed(tcb, self.last_cut) {
                    self.w -= self.w * self.alpha / 2.0;
                    self.last_cut = Some(self.now);
                }
            }
            CongestionKind::DupAck | CongestionKind::Rto => {
                self.w /= 2.0;
                self.in_loss = true;
            }
        }
        self.w = self.w.max(2.0);
        ((self.w * mss).min(f64::from(u32::MAX)) as u32).max(2 * tcb.mss)
    }

    /// The cut takes effect at once, on entering CWR or recovery (no PRR: the sender leaves
    /// the window to Prague); growth resumes when recovery ends.
    fn on_state(&mut self, tcb: &mut Tcb, state: CongState, _now: SimTime) {
        match state {
            CongState::Cwr | CongState::Recovery => self.write_cwnd(tcb),
            CongState::Open => self.in_loss = false,
            _ => {}
        }
    }

    fn has_cong_control(&self) -> bool {
        true
    }

    fn pacing_rate(&self) -> Option<Rate> {
        self.pacing
    }

    fn ecn_codepoint(&self) -> Option<Ecn> {
        Some(Ecn::Ect1)
    }

    fn metrics(&self) -> CcMetrics {
        CcMetrics { mode: None, values: vec![("alpha", self.alpha), ("w_segments", self.w)] }
    }
}

#[cfg(test)]
#[path = "prague_tests.rs"]
mod tests;
