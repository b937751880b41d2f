//! BBR v1: model-based congestion control (Cardwell et al., "BBR: Congestion-Based Congestion
//! Control", ACM Queue 14(5), 2016; draft-cardwell-iccrg-bbr-congestion-control-00), following
//! Linux `tcp_bbr.c` and ns-3 `TcpBbr` where the draft leaves details open.
//!
//! BBR keeps a model of the path, BtlBw (windowed max delivery rate over 10 rounds) and RTprop
//! (min RTT over 10 s), and sets the pacing rate to pacing_gain·BtlBw and the window to
//! cwnd_gain·BDP. A state machine varies the gains: Startup (2/ln 2) until the bandwidth stops
//! growing, Drain (its inverse) until the queue it built is gone, ProbeBW (cycling
//! 1.25, 0.75, 1 ×6 per RTprop) and, when RTprop has not been refreshed for 10 s, ProbeRTT
//! (4 segments for max(200 ms, one round)).
//!
//! Everything happens in [`CongestionControl::on_rate_sample`], called after every ACK that
//! delivered data (ns-3 `CongControl`, Linux `bbr_main`); `grow_window` does nothing and
//! `on_congestion` keeps ssthresh (ns-3 `HasCongControl`). Not modelled: Linux's long-term
//! (policer) bandwidth sampling, ACK-aggregation cwnd headroom (ns-3/Linux ≥ 4.19) and
//! restart from idle (the simulator's flows are bulk or finite transfers). ns-3.44's
//! aggregation term, traced on a lone flow at 100 Mbit/s, is one delayed ACK (2 segments).
//!
//! Standing queue. Alone on a FIFO, ns-3's TcpBbr keeps about one BDP queued (64 packets at
//! 100 Mbit/s, 10 ms) because its delivery-rate samples overstate the bottleneck by one
//! ACK per interval (+1.3 %, more than the 1 % pacing margin), so it paces above the link
//! rate and sits at cwnd = 2·BDP. TCP's `rate_snapshot_before_ack` (default on, as ns-3)
//! reproduces that; with Linux's estimator (off) pacing stays below the link and the queue
//! holds a few packets between ProbeBW's 1.25 phases. The defaults are ns-3's elsewhere too
//! (RTprop refreshed by equal samples, six random ProbeBW start phases); Linux's choices are
//! parameters.

mod config;
pub mod filters;
#[cfg(test)]
mod tests;

pub use config::{BbrConfig, BbrMode};

use super::{CcMetrics, CongState, CongestionControl, CongestionKind, RateSample, Tcb};
use crate::rng::SimRng;
use crate::time::{Rate, SimDuration, SimTime};
use filters::{MaxFilter, MinRttFilter};

/// ProbeBW pacing gains, one phase per RTprop (draft §4.3.4.1, §4.3.4.3).
pub const PROBE_BW_GAINS: [f64; 8] = [1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];

#[derive(Clone, Debug)]
pub struct Bbr {
    cfg: BbrConfig,
    rng: SimRng,
    mode: BbrMode,
    /// BtlBw in bit/s of payload, over round counts.
    btl_bw: MaxFilter,
    rt_prop: MinRttFilter,
    pacing_gain: f64,
    cwnd_gain: f64,
    pacing_rate_bps: f64,
    has_seen_rtt: bool,
    /// Connection delivered bytes after the latest ACK.
    delivered: u64,
    round_count: u64,
    next_round_delivered: u64,
    round_start: bool,
    full_bw: f64,
    full_bw_count: u32,
    full_bw_reached: bool,
    cycle_index: usize,
    cycle_stamp: SimTime,
    probe_rtt_done: Option<SimTime>,
    probe_rtt_round_done: bool,
    probe_rtt_count: u32,
    /// Ask the sender to mark the connection application-limited (ProbeRTT).
    app_limited_mark: bool,
    packet_conservation: bool,
    prior_cwnd: u32,
    /// Congestion state at the previous ACK (Linux `prev_ca_state`).
    prev_state: CongState,
    init_cwnd: u32,
    probe_rtt_duration: SimDuration,
}

fn recovering(s: CongState) -> bool {
    matches!(s, CongState::Recovery | CongState::Loss)
}

impl Bbr {
    /// `rng` draws the random ProbeBW starting phase.
    pub fn new(cfg: BbrConfig, rng: SimRng) -> Bbr {
        let window = SimDuration::from_secs_f64(cfg.min_rtt_window_s);
        Bbr {
            btl_bw: MaxFilter::new(u64::from(cfg.bw_window_rounds)),
            rt_prop: MinRttFilter::new(window, cfg.min_rtt_refresh_on_equal),
            probe_rtt_duration: SimDuration::from_secs_f64(cfg.probe_rtt_duration_ms / 1e3),
            pacing_gain: cfg.high_gain,
            cwnd_gain: cfg.high_gain,
            cfg,
            rng,
            mode: BbrMode::Startup,
            pacing_rate_bps: 0.0,
            has_seen_rtt: false,
            delivered: 0,
            round_count: 0,
            next_round_delivered: 0,
            round_start: false,
            full_bw: 0.0,
            full_bw_count: 0,
            full_bw_reached: false,
            cycle_index: 0,
            cycle_stamp: SimTime::ZERO,
            probe_rtt_done: None,
            probe_rtt_round_done: false,
            probe_rtt_count: 0,
            app_limited_mark: false,
            packet_conservation: false,
            prior_cwnd: 0,
            prev_state: CongState::Open,
            init_cwnd: 0,
        }
    }

    pub fn mode(&self) -> BbrMode {
        self.mode
    }

    /// BtlBw estimate in bit/s.
    pub fn btl_bw_bps(&self) -> f64 {
        self.btl_bw.best()
    }

    pub fn rt_prop(&self) -> Option<SimDuration> {
        self.rt_prop.value()
    }

    pub fn pacing_gain(&self) -> f64 {
        self.pacing_gain
    }

    pub fn cwnd_gain(&self) -> f64 {
        self.cwnd_gain
    }

    /// Times ProbeRTT was entered.
    pub fn probe_rtt_count(&self) -> u32 {
        self.probe_rtt_count
    }

    fn min_pipe_cwnd(&self, tcb: &Tcb) -> u32 {
        self.cfg.min_pipe_cwnd_segments * tcb.mss
    }

    /// gain·BtlBw·RTprop in bytes (draft §4.2.3.2 BBRInflight; Linux `bbr_bdp`); the initial
    /// window until an RTT is known.
    fn bdp(&self, gain: f64) -> Option<u32> {
        let rtt = self.rt_prop.value()?;
        let bytes = gain * self.btl_bw.best() * rtt.as_nanos() as f64 / 8e9;
        Some(bytes.ceil().min(f64::from(u32::MAX) / 2.0) as u32)
    }

    /// BDP plus the quantization budget (ns-3 `InFlight`, Linux `bbr_inflight`).
    fn inflight(&self, tcb: &Tcb, gain: f64) -> u32 {
        let Some(bdp) = self.bdp(gain) else { return self.init_cwnd };
        let mut w = bdp + self.cfg.quantization_segments * tcb.mss;
        if self.mode == BbrMode::ProbeBw && self.cycle_index == 0 {
            w += 2 * tcb.mss; // Linux: room to probe with more than a BDP in flight
        }
        w
    }

    fn margin(&self) -> f64 {
        1.0 - self.cfg.pacing_margin_percent / 100.0
    }

    /// Pacing rate before a bandwidth estimate: high_gain·cwnd/SRTT, or over a nominal 1 ms
    /// without an RTT (Linux `bbr_init_pacing_rate_from_rtt`).
    fn init_pacing_rate(&mut self, tcb: &Tcb) {
        let rtt = match tcb.srtt {
            Some(r) => {
                self.has_seen_rtt = true;
                r.as_secs_f64().max(1e-6)
            }
            None => 1e-3,
        };
        self.pacing_rate_bps = self.cfg.high_gain * f64::from(tcb.cwnd) * 8.0 / rtt * self.margin();
    }

    /// pacing_rate = pacing_gain·BtlBw (draft §4.2.1); never lowered before the pipe is full.
    fn set_pacing_rate(&mut self, tcb: &Tcb) {
        if !self.has_seen_rtt && tcb.srtt.is_some() {
            self.init_pacing_rate(tcb);
        }
        let rate = self.pacing_gain * self.btl_bw.best() * self.margin();
        if self.full_bw_reached || rate > self.pacing_rate_bps {
            self.pacing_rate_bps = rate;
        }
    }

    fn enter_startup(&mut self) {
        self.mode = BbrMode::Startup;
        self.pacing_gain = self.cfg.high_gain;
        self.cwnd_gain = self.cfg.high_gain;
    }

    /// draft §4.3.4.2: enter ProbeBW at a random phase other than the draining one.
    fn enter_probe_bw(&mut self, now: SimTime) {
        self.mode = BbrMode::ProbeBw;
        self.cwnd_gain = self.cfg.cwnd_gain;
        let r = self.rng.below(u64::from(self.cfg.random_phases.clamp(1, 7))) as usize;
        self.cycle_index = PROBE_BW_GAINS.len() - 1 - r;
        self.advance_cycle_phase(now);
    }

    fn advance_cycle_phase(&mut self, now: SimTime) {
        self.cycle_stamp = now;
        self.cycle_index = (self.cycle_index + 1) % PROBE_BW_GAINS.len();
        self.pacing_gain = PROBE_BW_GAINS[self.cycle_index];
    }

    /// Round counting (draft §4.1.1.3) and the BtlBw max filter (§4.1.1.2, §4.1.1.4-§4.1.1.5).
    fn update_bw(&mut self, rs: &RateSample) {
        self.round_start = false;
        if !rs.valid || rs.delivered == 0 {
            return;
        }
        if rs.prior_delivered >= self.next_round_delivered {
            self.next_round_delivered = self.delivered;
            self.round_count += 1;
            self.round_start = true;
            self.packet_conservation = false;
        }
        // An application-limited sample only counts if it raises the estimate.
        if !rs.is_app_limited || rs.delivery_rate_bps >= self.btl_bw.best() {
            self.btl_bw.update(self.round_count, rs.delivery_rate_bps);
        }
    }

    /// draft §4.3.4.3 BBRIsNextCyclePhase.
    fn update_cycle_phase(&mut self, tcb: &Tcb, rs: &RateSample, now: SimTime) {
        if self.mode != BbrMode::ProbeBw {
            return;
        }
        let rt_prop = self.rt_prop.value().unwrap_or(SimDuration::ZERO);
        let full_length = now.saturating_sub(self.cycle_stamp) > rt_prop;
        let next = if self.pacing_gain > 1.0 {
            // Probe until a full RTprop has passed and the extra data is in flight (or lost).
            full_length && (rs.newly_lost > 0 || rs.prior_in_flight >= self.inflight(tcb, self.pacing_gain))
        } else if self.pacing_gain < 1.0 {
            // Drain until the queue is gone, at most one RTprop.
            full_length || rs.prior_in_flight <= self.inflight(tcb, 1.0)
        } else {
            full_length
        };
        if next {
            self.advance_cycle_phase(now);
        }
    }

    /// draft §4.3.2.2: the pipe is full after `full_bw_rounds` rounds growing < 25 %.
    fn check_full_pipe(&mut self, rs: &RateSample) {
        if self.full_bw_reached || !self.round_start || rs.is_app_limited {
            return;
        }
        let bw = self.btl_bw.best();
        if bw >= self.full_bw * self.cfg.full_bw_threshold {
            self.full_bw = bw;
            self.full_bw_count = 0;
            return;
        }
        self.full_bw_count += 1;
        self.full_bw_reached = self.full_bw_count >= self.cfg.full_bw_rounds;
    }

    /// draft §4.3.3: Drain after Startup until in-flight data is down to one BDP.
    fn check_drain(&mut self, tcb: &mut Tcb, now: SimTime) {
        if self.mode == BbrMode::Startup && self.full_bw_reached {
            self.mode = BbrMode::Drain;
            self.pacing_gain = 1.0 / self.cfg.high_gain;
            self.cwnd_gain = self.cfg.high_gain;
            tcb.ssthresh = self.inflight(tcb, 1.0);
        }
        if self.mode == BbrMode::Drain && tcb.bytes_in_flight <= self.inflight(tcb, 1.0) {
            self.enter_probe_bw(now);
        }
    }

    /// draft §4.1.2.3 (RTprop) and §4.3.5 (ProbeRTT).
    fn update_min_rtt(&mut self, tcb: &mut Tcb, rs: &RateSample, now: SimTime) {
        let expired = self.rt_prop.update(rs.rtt, now);
        if expired && self.mode != BbrMode::ProbeRtt {
            self.mode = BbrMode::ProbeRtt;
            self.pacing_gain = 1.0;
            self.cwnd_gain = 1.0;
            self.save_cwnd(tcb);
            self.probe_rtt_done = None;
            self.probe_rtt_count += 1;
        }
        if self.mode != BbrMode::ProbeRtt {
            return;
        }
        // Low-rate samples of this mode must not lower BtlBw.
        self.app_limited_mark = true;
        match self.probe_rtt_done {
            None if tcb.bytes_in_flight <= self.min_pipe_cwnd(tcb) => {
                // Hold the small window for max(200 ms, one round) from here.
                self.probe_rtt_done = Some(now + self.probe_rtt_duration);
                self.probe_rtt_round_done = false;
                self.next_round_delivered = self.delivered;
            }
            None => {}
            Some(done) => {
                if self.round_start {
                    self.probe_rtt_round_done = true;
                }
                if self.probe_rtt_round_done && now > done {
                    self.rt_prop.refresh(now);
                    tcb.cwnd = tcb.cwnd.max(self.prior_cwnd);
                    if self.full_bw_reached {
                        self.enter_probe_bw(now);
                    } else {
                        self.enter_startup();
                    }
                }
            }
        }
    }

    /// Remember cwnd before recovery or ProbeRTT cuts it (draft §4.2.3.4 BBRSaveCwnd).
    fn save_cwnd(&mut self, tcb: &Tcb) {
        self.prior_cwnd = if !recovering(self.prev_state) && self.mode != BbrMode::ProbeRtt {
            tcb.cwnd
        } else {
            self.prior_cwnd.max(tcb.cwnd)
        };
    }

    /// draft §4.2.3.4 / Linux `bbr_set_cwnd_to_recover_or_restore`: subtract losses; packet
    /// conservation for the first round of recovery; restore the saved cwnd on leaving it.
    /// Returns the window and whether conservation decides it.
    fn recover_or_restore(&mut self, tcb: &Tcb, rs: &RateSample, acked: u32) -> (u32, bool) {
        let mut cwnd = tcb.cwnd;
        let (state, prev) = (tcb.state, self.prev_state);
        let linux = self.cfg.linux_rto_handling;
        // Linux subtracts losses in any state; ns-3 only in fast recovery.
        if rs.newly_lost > 0 && (linux || state == CongState::Recovery) {
            cwnd = cwnd.saturating_sub(rs.newly_lost.saturating_mul(tcb.mss)).max(tcb.mss);
        }
        if state == CongState::Recovery && prev != CongState::Recovery {
            self.packet_conservation = true;
            self.next_round_delivered = self.delivered; // the round starts now
            cwnd = tcb.bytes_in_flight.saturating_add(acked);
        } else if recovering(prev) && !recovering(state) {
            // Linux restores after recovery and after a timeout. ns-3.44 restores only after
            // fast recovery (TcpBbr::CwndEvent(CA_EVENT_COMPLETE_CWR) -> RestoreCwnd), and then
            // TcpSocketBase::ProcessAck's full ACK calls m_recoveryOps->ExitRecovery, which
            // (TcpPrrRecovery and TcpClassicRecovery alike) sets m_cWnd = m_ssThresh: BBR's
            // ssthresh is InFlight(1) from entering Drain, so the window falls to about one
            // BDP and CongControl grows it back by the bytes acked. Traced on a lone flow at
            // 20 Mbit/s, 40 ms, 67-packet FIFO: cwnd 143 -> 70.7 segments at the full ACK.
            // `exit_recovery_at_ssthresh` (on by default; off is Linux's restore).
            if linux || prev == CongState::Recovery {
                cwnd = cwnd.max(self.prior_cwnd);
            }
            if !linux && prev == CongState::Recovery && self.cfg.exit_recovery_at_ssthresh {
                cwnd = tcb.ssthresh;
            }
            self.packet_conservation = false;
        }
        self.prev_state = state;
        if self.packet_conservation {
            return (cwnd.max(tcb.bytes_in_flight.saturating_add(acked)), true);
        }
        (cwnd, false)
    }

    /// cwnd = cwnd_gain·BDP + quantization (draft §4.2.3.2, §4.2.3.6), approached by the bytes acked.
    fn set_cwnd(&mut self, tcb: &mut Tcb, rs: &RateSample) {
        let acked = rs.newly_delivered.min(u64::from(u32::MAX)) as u32;
        let mut cwnd = tcb.cwnd;
        if acked > 0 {
            let (c, conserving) = self.recover_or_restore(tcb, rs, acked);
            cwnd = c;
            if !conserving {
                let target = self.inflight(tcb, self.cwnd_gain);
                if self.full_bw_reached {
                    cwnd = cwnd.saturating_add(acked).min(target);
                } else if cwnd < target || self.delivered < u64::from(self.init_cwnd) {
                    cwnd = cwnd.saturating_add(acked);
                }
                cwnd = cwnd.max(self.min_pipe_cwnd(tcb)); // §4.2.3.3
            }
        }
        if self.mode == BbrMode::ProbeRtt {
            cwnd = cwnd.min(self.min_pipe_cwnd(tcb)); // §4.2.3.5
        }
        tcb.cwnd = cwnd;
    }
}

impl CongestionControl for Bbr {
    fn init(&mut self, tcb: &mut Tcb, now: SimTime) {
        self.init_cwnd = tcb.cwnd;
        self.cycle_stamp = now;
        self.enter_startup();
        self.init_pacing_rate(tcb);
    }

    fn grow_window(&mut self, _tcb: &mut Tcb, _segments_acked: u32, _now: SimTime) {}

    /// BBR does not use ssthresh; it notes cwnd to restore after recovery (Linux
    /// `bbr_ssthresh`, ns-3 `GetSsThresh`).
    fn on_congestion(&mut self, tcb: &Tcb, _bytes_in_flight: u32, _kind: CongestionKind) -> u32 {
        self.save_cwnd(tcb);
        tcb.ssthresh
    }

    /// A timeout ends the round (ns-3 `CongestionStateSet(CA_LOSS)`); Linux `bbr_set_state`
    /// also restarts full-pipe detection.
    fn on_state(&mut self, _tcb: &mut Tcb, state: CongState, _now: SimTime) {
        if state == CongState::Loss {
            self.prev_state = CongState::Loss;
            if self.cfg.linux_rto_handling {
                self.full_bw = 0.0;
            }
            self.round_start = true;
        }
    }

    fn on_sent(&mut self, tcb: &Tcb, _bytes: u32, _now: SimTime) {
        if !self.has_seen_rtt && tcb.srtt.is_some() {
            self.init_pacing_rate(tcb); // the handshake gave the first RTT
        }
    }

    /// draft §3.5.2 BBRUpdateOnACK: update the model and state, then the control parameters.
    fn on_rate_sample(&mut self, tcb: &mut Tcb, rs: &RateSample, now: SimTime) {
        self.delivered = rs.total_delivered;
        self.app_limited_mark = false;
        self.update_bw(rs);
        self.update_cycle_phase(tcb, rs, now);
        self.check_full_pipe(rs);
        self.check_drain(tcb, now);
        self.update_min_rtt(tcb, rs, now);
        self.set_pacing_rate(tcb);
        self.set_cwnd(tcb, rs);
    }

    fn pacing_rate(&self) -> Option<Rate> {
        Some(Rate((self.pacing_rate_bps.round() as u64).max(1)))
    }

    fn has_cong_control(&self) -> bool {
        true
    }

    fn marks_app_limited(&self) -> bool {
        self.app_limited_mark
    }

    fn metrics(&self) -> CcMetrics {
        CcMetrics { mode: Some(self.mode.as_str()), values: Vec::new() }
            .with("btl_bw_bps", Some(self.btl_bw.best()))
            .with("rt_prop_ms", self.rt_prop.value().map(|r| r.as_secs_f64() * 1e3))
            .with("pacing_gain", Some(self.pacing_gain))
            .with("cwnd_gain", Some(self.cwnd_gain))
            .with("pacing_rate_bps", Some(self.pacing_rate_bps))
            .with("probe_rtt_count", Some(f64::from(self.probe_rtt_count)))
            .with("round_count", Some(self.round_count as f64))
    }
}
