//! CUBIC (RFC 9438) with the slow start and HyStart of ns-3's `TcpCubic`.
//!
//! Window maths is in segments, as in the RFC. Slow start counts bytes acknowledged (ns-3
//! approximates Linux QUICKACK that way) and HyStart is ns-3's: ACK-train and delay-increase
//! detection once cwnd ≥ 16 segments.
//!
//! Congestion-avoidance growth follows one of two rules, [`CubicConfig::growth`]: RFC 9438's
//! in floating point (the default), or ns-3.44's `TcpCubic`, which counts ACKs against a
//! whole number of them per segment of growth.

use super::{AckSample, CcMetrics, CcaConfig, CongState, CongestionControl, CongestionKind, Tcb};
use crate::params::{fmt_num, Algorithm, Checker, Described, Field, Kind, Range};
use crate::rng::SimRng;
use crate::time::{SimDuration, SimTime};
use serde::{Deserialize, Serialize};

/// How congestion avoidance turns the cubic curve and the Reno-friendly estimate into
/// growth of cwnd, ACK by ACK.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CubicGrowth {
    /// RFC 9438 §4.2-§4.5 in floating point (the default): W_max and cwnd in fractional
    /// segments; each acknowledged segment adds (target − cwnd)/cwnd segments, target =
    /// W_cubic(t + RTT) kept within [cwnd, 1.5·cwnd], the fractions carried until they make
    /// a whole segment (reset when an epoch starts); in the Reno-friendly region (W_cubic(t)
    /// below W_est, W_est grown by α/cwnd per segment) cwnd jumps to ⌊W_est⌋.
    #[default]
    Rfc9438,
    /// ns-3.44 `TcpCubic::IncreaseWindow` and `TcpCubic::Update` (`tcp-cubic.cc`), after
    /// Linux's `bictcp_update` of the BIC era, all in whole segments:
    /// - W_max (`m_lastMaxCwnd`) is truncated to whole segments at each reduction
    ///   (`GetSsThresh`), the plateau (`m_bicOriginPoint`) is W_max or cwnd, and the target
    ///   is origin ± ⌊C·|t + delay_min − K|³⌋ (`bicTarget`, a whole number);
    /// - the target becomes a count, `cnt` = ⌊cwnd / (target − cwnd)⌋ ACKed segments per
    ///   segment of growth (100·cwnd at or below the target), at most `no_loss_cnt_clamp`
    ///   before any loss, at most ⌊cwnd / (W_est − cwnd)⌋ when the Reno estimate is ahead
    ///   (`m_tcpCwnd`, one segment per ⌊cwnd·⌊8(1024 + 1024β)/3/(1024 − 1024β)⌋/8⌋ ACKed
    ///   segments counted in `m_ackCnt`: α ≈ 8/15), and at least 2;
    /// - `m_cWndCnt` counts ACKed segments and cwnd grows by one segment, once per ACK
    ///   at most, when it reaches `cnt` (it then loses `cnt`); it is never reset, so what
    ///   it gathered on the flat of the curve, in slow start's last ACK or before a
    ///   reduction carries over. RFC 9438 §4.3's switch to α = 1 (`reno_alpha_switch`) does
    ///   not apply. Linux's `bictcp_update` now keeps `cnt` in 2^-10 fractions and adds
    ///   several segments per ACK (`tcp_cong_avoid_ai`): neither is this rule.
    Ns3,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CubicConfig {
    /// C in W_cubic(t) = C(t − K)³ + W_max (RFC 9438 §4.2), segments/s³.
    pub c: f64,
    /// β_cubic, the multiplicative decrease factor (§4.6).
    pub beta: f64,
    /// Release bandwidth faster when W_max shrinks (§4.7).
    pub fast_convergence: bool,
    /// Reno-friendly region via W_est (§4.3).
    pub tcp_friendliness: bool,
    /// RFC 9438 §4.3: W_est grows with α = 1 once it reaches cwnd_prior. Off = α stays
    /// 3(1 − β)/(1 + β) (ns-3.44's `TcpCubic`, RFC 8312 §4.2, Linux).
    pub reno_alpha_switch: bool,
    /// Until the first loss, congestion avoidance grows by at least one segment per this
    /// many acknowledged (20: 5 % per RTT after a HyStart exit; ns-3.44 `CntClamp`, Linux
    /// `tcp_cubic.c`). 0 = off (RFC 9438: only the cubic curve, flat at first).
    pub no_loss_cnt_clamp: u32,
    /// Congestion avoidance's per-ACK growth: RFC 9438's in floating point (the default) or
    /// ns-3.44 `TcpCubic::Update`'s whole-segment ACK count ([`CubicGrowth`]).
    pub growth: CubicGrowth,
    pub hystart: bool,
    pub hystart_low_window_segments: u32,
    pub hystart_min_samples: u32,
    pub hystart_ack_delta_ms: f64,
    /// The delay threshold is clamp(delay_min / divisor, min, max). ns-3: divisor 1,
    /// 4..1000 ms; Linux: divisor 8, 4..16 ms.
    pub hystart_delay_min_ms: f64,
    pub hystart_delay_max_ms: f64,
    pub hystart_delay_divisor: u32,
    /// Delay samples within this time after an epoch starts are ignored (ns-3 `CubicDelta`).
    pub cubic_delta_ms: f64,
}

impl Default for CubicConfig {
    fn default() -> Self {
        CubicConfig {
            c: 0.4,
            beta: 0.7,
            fast_convergence: true,
            tcp_friendliness: true,
            reno_alpha_switch: false,
            no_loss_cnt_clamp: 20,
            growth: CubicGrowth::Rfc9438,
            hystart: true,
            hystart_low_window_segments: 16,
            hystart_min_samples: 8,
            hystart_ack_delta_ms: 2.0,
            hystart_delay_min_ms: 4.0,
            hystart_delay_max_ms: 1000.0,
            hystart_delay_divisor: 1,
            cubic_delta_ms: 10.0,
        }
    }
}

const MS: Range = Range::closed(0.0, 60_000.0);

impl Described for CubicConfig {
    const INFO: Algorithm = Algorithm {
        tag: "cubic",
        label: "CUBIC",
        help: "RFC 9438's cubic window growth with ns-3's byte-counting slow start and HyStart.",
        fields: &[
            Field::new("c", "C", "", Kind::Float(Range::above(0.0, 100.0)), "Cubic scaling constant (0.4)."),
            Field::new(
                "beta",
                "β",
                "",
                Kind::Float(Range::above(0.0, 0.999)),
                "Multiplicative decrease (0.7).",
            ),
            Field::new(
                "fast_convergence",
                "Fast convergence",
                "",
                Kind::Bool,
                "Release bandwidth faster when W_max shrinks (§4.7).",
            ),
            Field::new(
                "tcp_friendliness",
                "Reno-friendly region",
                "",
                Kind::Bool,
                "Never slower than Reno would be (§4.3).",
            ),
            Field::new(
                "reno_alpha_switch",
                "Reno α = 1 above prior",
                "",
                Kind::Bool,
                "RFC 9438 §4.3: the Reno-friendly estimate grows 1 segment/RTT once past the window at the last loss (off: 0.53 always, ns-3.44 and RFC 8312).",
            ),
            Field::new(
                "no_loss_cnt_clamp",
                "Growth before any loss",
                "segments",
                Kind::Int(Range::closed(0.0, 1e6)),
                "Before the first loss, grow at least 1 segment per this many acked (20 = 5 %/RTT, ns-3 and Linux); 0 = off (RFC 9438).",
            ),
            Field::new(
                "growth",
                "Avoidance growth",
                "",
                Kind::Choice(&[("rfc9438", "RFC 9438"), ("ns3", "ns-3.44")]),
                "How each ACK grows cwnd in congestion avoidance: RFC 9438's fractional segments (the default) or ns-3.44's TcpCubic, which counts ACKed segments against a whole number per segment of growth (W_max and the target in whole segments, the count never reset).",
            ),
            Field::new(
                "hystart",
                "HyStart",
                "",
                Kind::Bool,
                "Leave slow start on an ACK train or a delay rise (ns-3).",
            ),
            Field::new(
                "hystart_low_window_segments",
                "HyStart low window",
                "segments",
                Kind::Int(Range::closed(2.0, 1e6)),
                "HyStart acts only above this window (16).",
            ),
            Field::new(
                "hystart_min_samples",
                "HyStart samples",
                "",
                Kind::Int(Range::closed(1.0, 1000.0)),
                "RTT samples per round before the delay test (8).",
            ),
            Field::new(
                "hystart_ack_delta_ms",
                "HyStart ACK gap",
                "ms",
                Kind::Float(MS),
                "ACKs closer than this form a train (2 ms).",
            ),
            Field::new(
                "hystart_delay_min_ms",
                "HyStart delay min",
                "ms",
                Kind::Float(MS),
                "Lower clamp of the delay threshold (4 ms).",
            ),
            Field::new(
                "hystart_delay_max_ms",
                "HyStart delay max",
                "ms",
                Kind::Float(MS),
                "Upper clamp of the delay threshold (ns-3 1000 ms, Linux 16 ms).",
            ),
            Field::new(
                "hystart_delay_divisor",
                "HyStart divisor",
                "",
                Kind::Int(Range::closed(1.0, 64.0)),
                "Threshold = delay_min / divisor (ns-3 1, Linux 8).",
            ),
            Field::new(
                "cubic_delta_ms",
                "Epoch delay guard",
                "ms",
                Kind::Float(MS),
                "Delay samples this soon after an epoch starts are ignored (ns-3 CubicDelta, 10 ms).",
            ),
        ],
        flavours: &[],
    };

    fn check_more(&self, c: &mut Checker) {
        if self.hystart_delay_max_ms < self.hystart_delay_min_ms {
            c.push(
                "hystart_delay_max_ms",
                fmt_num(self.hystart_delay_max_ms),
                format!("at least hystart_delay_min_ms = {} ms", fmt_num(self.hystart_delay_min_ms)),
            );
        }
    }
}

impl CcaConfig for CubicConfig {
    fn build(&self, _rng: SimRng) -> Result<Box<dyn CongestionControl>, String> {
        Ok(Box::new(Cubic::new(self.clone())))
    }
}

#[derive(Clone, Debug)]
pub struct Cubic {
    cfg: CubicConfig,
    /// W_max: window before the last reduction, in segments.
    w_max: f64,
    /// cwnd when ssthresh was last set (switches α in the Reno-friendly region).
    cwnd_prior: f64,
    k: f64,
    /// max(W_max, cwnd_epoch): the plateau of the current cubic curve.
    origin: f64,
    epoch_start: Option<SimTime>,
    w_est: f64,
    /// Fractional segments of growth not yet applied to cwnd.
    pending: f64,
    /// ns-3 growth: segments acknowledged towards the next segment of growth (`m_cWndCnt`).
    cwnd_cnt: u32,
    /// ns-3 growth: segments acknowledged towards the Reno estimate's next segment
    /// (`m_ackCnt`).
    ack_cnt: u32,
    /// ns-3 growth: the Reno-friendly estimate in whole segments (`m_tcpCwnd`).
    tcp_cwnd: u32,
    delay_min: Option<SimDuration>,
    hystart: HyStart,
    times: Times,
}

/// The configuration's millisecond values as durations, converted once.
#[derive(Clone, Debug)]
struct Times {
    ack_delta: SimDuration,
    delay_lo: SimDuration,
    delay_hi: SimDuration,
    cubic_delta: SimDuration,
}

#[derive(Clone, Debug, Default)]
struct HyStart {
    found: bool,
    round_start: SimTime,
    last_ack: SimTime,
    end_seq: u32,
    curr_rtt: Option<SimDuration>,
    samples: u32,
}

impl Cubic {
    pub fn new(cfg: CubicConfig) -> Cubic {
        let ms = |v: f64| SimDuration::from_secs_f64(v / 1e3);
        let times = Times {
            ack_delta: ms(cfg.hystart_ack_delta_ms),
            delay_lo: ms(cfg.hystart_delay_min_ms),
            delay_hi: ms(cfg.hystart_delay_max_ms),
            cubic_delta: ms(cfg.cubic_delta_ms),
        };
        Cubic {
            times,
            cfg,
            w_max: 0.0,
            cwnd_prior: 0.0,
            k: 0.0,
            origin: 0.0,
            epoch_start: None,
            w_est: 0.0,
            pending: 0.0,
            cwnd_cnt: 0,
            ack_cnt: 0,
            tcp_cwnd: 0,
            delay_min: None,
            hystart: HyStart::default(),
        }
    }

    /// K = ∛((W_max − cwnd_epoch) / C) (RFC 9438 §4.2, eq. 2).
    pub fn k_for(&self, w_max: f64, cwnd_epoch: f64) -> f64 {
        if w_max <= cwnd_epoch {
            0.0
        } else {
            libm::cbrt((w_max - cwnd_epoch) / self.cfg.c)
        }
    }

    /// W_cubic(t) = C(t − K)³ + W_max (RFC 9438 §4.2, eq. 1), t in seconds since the epoch.
    pub fn w_cubic(&self, t: f64) -> f64 {
        let d = t - self.k;
        self.cfg.c * d * d * d + self.origin
    }

    fn hystart_reset(&mut self, tcb: &Tcb, now: SimTime) {
        let h = &mut self.hystart;
        h.round_start = now;
        h.last_ack = now;
        h.end_seq = tcb.high_tx;
        h.curr_rtt = None;
        h.samples = 0;
    }

    /// ns-3 `HystartUpdate`: leave slow start on a long ACK train or a delay increase.
    fn hystart_update(&mut self, tcb: &mut Tcb, delay: SimDuration, now: SimTime) {
        if self.hystart.found {
            return;
        }
        let delay_min = self.delay_min.unwrap_or(delay);
        let ack_delta = self.times.ack_delta;
        let h = &mut self.hystart;
        if now.saturating_sub(h.last_ack) <= ack_delta {
            h.last_ack = now;
            if now.saturating_sub(h.round_start) > delay_min {
                h.found = true;
            }
        }
        if h.samples < self.cfg.hystart_min_samples {
            h.curr_rtt = Some(h.curr_rtt.map_or(delay, |c| c.min(delay)));
            h.samples += 1;
        } else if let Some(curr) = h.curr_rtt {
            let (lo, hi) = (self.times.delay_lo, self.times.delay_hi);
            let thresh = SimDuration(delay_min.0 / u64::from(self.cfg.hystart_delay_divisor.max(1)));
            if curr.0 > delay_min.0 + thresh.max(lo).min(hi).0 {
                h.found = true;
            }
        }
        if h.found {
            tcb.ssthresh = tcb.cwnd;
        }
    }

    /// ns-3.44 `TcpCubic::IncreaseWindow`'s congestion-avoidance branch: one segment once
    /// `m_cWndCnt` reaches `Update`'s count.
    fn avoid_ns3(&mut self, tcb: &mut Tcb, segments_acked: u32, now: SimTime) {
        self.cwnd_cnt = self.cwnd_cnt.saturating_add(segments_acked);
        let cnt = self.ns3_cnt(tcb, segments_acked, now);
        if self.cwnd_cnt >= cnt {
            tcb.cwnd = tcb.cwnd.saturating_add(tcb.mss);
            self.cwnd_cnt -= cnt;
        }
    }

    /// ns-3.44 `TcpCubic::Update`: acknowledged segments per segment of growth.
    fn ns3_cnt(&mut self, tcb: &Tcb, segments_acked: u32, now: SimTime) -> u32 {
        let seg = tcb.cwnd_segments();
        self.ack_cnt = self.ack_cnt.saturating_add(segments_acked);
        let epoch_start = match self.epoch_start {
            Some(t) => t,
            None => {
                self.epoch_start = Some(now);
                self.ack_cnt = segments_acked;
                self.tcp_cwnd = seg;
                let last_max = self.w_max as u32; // whole segments (see on_congestion)
                if last_max <= seg {
                    self.k = 0.0;
                    self.origin = f64::from(seg);
                } else {
                    // std::pow(x, 1/3.), not cbrt: the last bit can move the target's floor.
                    self.k = libm::pow(f64::from(last_max - seg) / self.cfg.c, 1.0 / 3.0);
                    self.origin = f64::from(last_max);
                }
                now
            }
        };
        // ns-3 adds m_delayMin to the time since the epoch (here the smoothed RTT until a
        // minimum is known).
        let delay = self.delay_min.or(tcb.srtt).unwrap_or(SimDuration::ZERO);
        let t = ((now - epoch_start) + delay).as_secs_f64();
        let offs = (t - self.k).abs();
        let delta = (self.cfg.c * libm::pow(offs, 3.0)) as u32;
        let origin = self.origin as u32;
        let target = if t < self.k { origin.saturating_sub(delta) } else { origin.saturating_add(delta) };
        let mut cnt = if target > seg { seg / (target - seg) } else { seg.saturating_mul(100) };
        let clamp = self.cfg.no_loss_cnt_clamp;
        if self.w_max == 0.0 && clamp > 0 && cnt > clamp {
            cnt = clamp;
        }
        if self.cfg.tcp_friendliness {
            let b = self.cfg.beta * 1024.0;
            let scale = (8.0 * (1024.0 + b) / 3.0 / (1024.0 - b)) as u32;
            // At least 1: ns-3 loops forever on 0 (β ≤ 0.2 with a window of a few segments).
            let per = ((u64::from(seg) * u64::from(scale)) >> 3).clamp(1, u64::from(u32::MAX)) as u32;
            if self.ack_cnt > per {
                // `while (m_ackCnt > delta) { m_ackCnt -= delta; m_tcpCwnd++; }`
                let n = (self.ack_cnt - 1) / per;
                self.ack_cnt -= n * per;
                self.tcp_cwnd = self.tcp_cwnd.saturating_add(n);
            }
            if self.tcp_cwnd > seg {
                cnt = cnt.min(seg / (self.tcp_cwnd - seg));
            }
        }
        cnt.max(2)
    }

    /// Congestion avoidance growth (RFC 9438 §4.2–§4.5).
    fn avoid(&mut self, tcb: &mut Tcb, segments_acked: u32, now: SimTime) {
        if self.cfg.growth == CubicGrowth::Ns3 {
            return self.avoid_ns3(tcb, segments_acked, now);
        }
        let mss = f64::from(tcb.mss);
        let cwnd = f64::from(tcb.cwnd) / mss;
        let epoch_start = match self.epoch_start {
            Some(t) => t,
            None => {
                self.epoch_start = Some(now);
                self.k = self.k_for(self.w_max, cwnd);
                self.origin = self.w_max.max(cwnd);
                self.w_est = cwnd;
                self.pending = 0.0;
                now
            }
        };
        let t = (now - epoch_start).as_secs_f64();
        let rtt = self.delay_min.or(tcb.srtt).map_or(0.0, |d| d.as_secs_f64());

        // ns-3 `CntClamp` / Linux: with no loss yet (W_max = 0, so the curve starts flat at
        // cwnd), grow at least 1/clamp segment per acknowledged segment.
        let clamp = self.w_max == 0.0 && self.cfg.no_loss_cnt_clamp > 0;
        if self.cfg.tcp_friendliness {
            // §4.3: W_est grows like Reno with α = 3(1 − β)/(1 + β) (RFC 8312 §4.2, ns-3.44);
            // RFC 9438 switches to α = 1 once W_est reaches cwnd_prior.
            let b = self.cfg.beta;
            let alpha = if self.cfg.reno_alpha_switch && self.w_est >= self.cwnd_prior {
                1.0
            } else {
                3.0 * (1.0 - b) / (1.0 + b)
            };
            self.w_est += alpha * f64::from(segments_acked) / cwnd;
            if self.w_cubic(t) < self.w_est && !clamp {
                if self.w_est >= cwnd + 1.0 {
                    tcb.cwnd = (self.w_est.floor() * mss) as u32;
                }
                return;
            }
        }
        // §4.4/§4.5: target = W_cubic(t + RTT) within [cwnd, 1.5·cwnd]; grow by
        // (target − cwnd)/cwnd per acknowledged segment.
        let target = self.w_cubic(t + rtt).clamp(cwnd, 1.5 * cwnd);
        let mut per_segment = (target - cwnd) / cwnd;
        if clamp {
            per_segment = per_segment.max(1.0 / f64::from(self.cfg.no_loss_cnt_clamp));
        }
        self.pending += per_segment * f64::from(segments_acked);
        if self.pending >= 1.0 {
            let whole = self.pending.floor();
            self.pending -= whole;
            tcb.cwnd = tcb.cwnd.saturating_add((whole as u32).saturating_mul(tcb.mss));
        }
    }

    /// ns-3 `CubicReset` (the ACK counts are ns-3 growth's; `m_cWndCnt` is not reset).
    fn reset(&mut self) {
        self.origin = 0.0;
        self.k = 0.0;
        self.ack_cnt = 0;
        self.tcp_cwnd = 0;
        self.epoch_start = None;
        self.delay_min = None;
        self.hystart.found = false;
    }
}

impl CongestionControl for Cubic {
    fn init(&mut self, tcb: &mut Tcb, now: SimTime) {
        self.hystart_reset(tcb, now);
    }

    fn on_ack(&mut self, tcb: &mut Tcb, ack: &AckSample) {
        let Some(rtt) = ack.rtt else { return };
        if let Some(start) = self.epoch_start {
            if ack.now.saturating_sub(start) < self.times.cubic_delta {
                return; // ns-3: discard delay samples right after a reduction
            }
        }
        self.delay_min = Some(self.delay_min.map_or(rtt, |d| d.min(rtt)));
        // In u64: a low window of 10^6 segments of 65 000 bytes is beyond any u32 window.
        let low = u64::from(self.cfg.hystart_low_window_segments) * u64::from(tcb.mss);
        if self.cfg.hystart && tcb.cwnd <= tcb.ssthresh && u64::from(tcb.cwnd) >= low {
            self.hystart_update(tcb, rtt, ack.now);
        }
    }

    fn grow_window(&mut self, tcb: &mut Tcb, mut segments_acked: u32, now: SimTime) {
        if !tcb.cwnd_limited {
            return;
        }
        if tcb.cwnd < tcb.ssthresh {
            if self.cfg.hystart && tcb.last_acked > self.hystart.end_seq {
                self.hystart_reset(tcb, now);
            }
            tcb.cwnd = tcb.cwnd.saturating_add(segments_acked.saturating_mul(tcb.mss));
            segments_acked = 0;
        }
        if tcb.cwnd >= tcb.ssthresh && segments_acked > 0 {
            self.avoid(tcb, segments_acked, now);
        }
    }

    /// §4.6 multiplicative decrease and §4.7 fast convergence.
    fn on_congestion(&mut self, tcb: &Tcb, _bytes_in_flight: u32, _kind: CongestionKind) -> u32 {
        let cwnd = f64::from(tcb.cwnd_segments());
        self.w_max = if self.cfg.fast_convergence && cwnd < self.w_max {
            cwnd * (1.0 + self.cfg.beta) / 2.0
        } else {
            cwnd
        };
        if self.cfg.growth == CubicGrowth::Ns3 {
            // ns-3's `m_lastMaxCwnd` is a uint32_t.
            self.w_max = self.w_max.trunc();
        }
        self.cwnd_prior = cwnd;
        self.epoch_start = None;
        let segs = ((cwnd * self.cfg.beta) as u32).max(2);
        segs.saturating_mul(tcb.mss)
    }

    fn on_state(&mut self, tcb: &mut Tcb, state: CongState, now: SimTime) {
        if state == CongState::Loss {
            // §4.8 / ns-3: a timeout restarts the curve and the delay estimate.
            self.reset();
            self.hystart_reset(tcb, now);
        }
    }

    fn metrics(&self) -> CcMetrics {
        CcMetrics::default().with("w_max_segments", Some(self.w_max))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::new_reno::tests::tcb;

    fn cubic() -> Cubic {
        Cubic::new(CubicConfig::default())
    }

    #[test]
    fn k_is_the_cube_root_of_the_window_gap_over_c() {
        // W_max = 100, cwnd after reduction = 70 → K = ∛(30 / 0.4) = ∛75.
        let c = cubic();
        assert!((c.k_for(100.0, 70.0) - 75f64.cbrt()).abs() < 1e-12);
        assert_eq!(c.k_for(50.0, 70.0), 0.0);
    }

    #[test]
    fn w_cubic_returns_to_w_max_at_k_and_is_symmetric_around_it() {
        let mut c = cubic();
        c.origin = 100.0;
        c.k = c.k_for(100.0, 70.0);
        assert!((c.w_cubic(0.0) - 70.0).abs() < 1e-9);
        assert!((c.w_cubic(c.k) - 100.0).abs() < 1e-12);
        let d = 1.5;
        assert!(((c.w_cubic(c.k + d) - 100.0) + (c.w_cubic(c.k - d) - 100.0)).abs() < 1e-9);
    }

    #[test]
    fn reduction_multiplies_the_window_by_beta() {
        let mut c = cubic();
        let t = tcb(100, 200);
        assert_eq!(c.on_congestion(&t, 100_000, CongestionKind::DupAck), 70_000);
        assert_eq!(c.w_max, 100.0);
    }

    #[test]
    fn fast_convergence_lowers_w_max_when_the_window_shrank_since_the_last_loss() {
        let mut c = cubic();
        c.on_congestion(&tcb(100, 200), 0, CongestionKind::DupAck);
        c.on_congestion(&tcb(80, 200), 0, CongestionKind::DupAck);
        assert!((c.w_max - 80.0 * 1.7 / 2.0).abs() < 1e-12);
    }

    #[test]
    fn without_fast_convergence_w_max_is_the_window_at_loss() {
        let mut c = Cubic::new(CubicConfig { fast_convergence: false, ..CubicConfig::default() });
        c.on_congestion(&tcb(100, 200), 0, CongestionKind::DupAck);
        c.on_congestion(&tcb(80, 200), 0, CongestionKind::DupAck);
        assert_eq!(c.w_max, 80.0);
    }

    #[test]
    fn window_grows_concave_then_plateaus_near_w_max() {
        let cfg = CubicConfig { tcp_friendliness: false, ..CubicConfig::default() };
        let mut c = Cubic::new(cfg);
        let mut t = tcb(100, 200);
        let ss = c.on_congestion(&t, 0, CongestionKind::DupAck);
        t.cwnd = ss;
        t.ssthresh = ss;
        t.srtt = Some(SimDuration::from_millis(100));
        // One ACK of the whole window per 100 ms RTT.
        let mut now = SimTime::ZERO;
        let mut at_k = 0;
        let k = c.k_for(100.0, 70.0);
        for _ in 0..200 {
            now += SimDuration::from_millis(100);
            let segs = t.cwnd_segments();
            for _ in 0..segs {
                c.grow_window(&mut t, 1, now);
            }
            if now.as_secs_f64() <= k {
                at_k = t.cwnd_segments();
            }
        }
        // Near K the window is back near W_max (within a few segments).
        assert!((95..=104).contains(&at_k), "cwnd at K = {at_k}");
    }

    #[test]
    fn reno_friendly_region_grows_at_least_like_reno_when_w_max_is_small() {
        let mut c = cubic();
        let mut t = tcb(10, 10);
        c.on_congestion(&t, 0, CongestionKind::DupAck);
        t.cwnd = 7_000;
        t.ssthresh = 7_000;
        t.srtt = Some(SimDuration::from_millis(10));
        let mut now = SimTime::ZERO;
        for _ in 0..100 {
            now += SimDuration::from_millis(10);
            for _ in 0..t.cwnd_segments() {
                c.grow_window(&mut t, 1, now);
            }
        }
        // 100 RTTs at ≥ α ≈ 0.53 segment/RTT.
        assert!(t.cwnd_segments() >= 7 + 50, "cwnd {}", t.cwnd_segments());
    }

    /// Segments after 60 RTTs from a reduction at 40 segments (W_max 40, cwnd 28).
    fn reno_friendly_after_60_rtts(switch: bool) -> u32 {
        let mut c = Cubic::new(CubicConfig { reno_alpha_switch: switch, c: 1e-6, ..CubicConfig::default() });
        let mut t = tcb(40, 40);
        let ss = c.on_congestion(&t, 0, CongestionKind::DupAck);
        t.cwnd = ss;
        t.ssthresh = ss;
        t.srtt = Some(SimDuration::from_millis(10));
        let mut now = SimTime::ZERO;
        for _ in 0..60 {
            now += SimDuration::from_millis(10);
            for _ in 0..t.cwnd_segments() {
                c.grow_window(&mut t, 1, now);
            }
        }
        t.cwnd_segments()
    }

    #[test]
    fn before_any_loss_avoidance_grows_five_percent_per_rtt() {
        let grow = |clamp: u32| {
            let mut c = Cubic::new(CubicConfig { no_loss_cnt_clamp: clamp, ..CubicConfig::default() });
            let mut t = tcb(100, 100); // cwnd = ssthresh = 100 segments: a HyStart exit
            t.srtt = Some(SimDuration::from_millis(10));
            let mut now = SimTime::ZERO;
            for _ in 0..5 {
                now += SimDuration::from_millis(10);
                for _ in 0..t.cwnd_segments() {
                    c.grow_window(&mut t, 1, now);
                }
            }
            t.cwnd_segments()
        };
        // 1 segment per 20 acked: 100 → about 100·1.05^5 = 127.
        let clamped = grow(20);
        assert!((124..=129).contains(&clamped), "cwnd {clamped}");
        // RFC 9438 alone: the curve from K = 0 is flat for the first RTTs; only the
        // Reno-friendly 0.53 segment/RTT is left.
        assert!(grow(0) <= 103, "cwnd {}", grow(0));
    }

    #[test]
    fn reno_friendly_alpha_stays_below_one_unless_rfc_9438_switch_is_on() {
        // ns-3.44 / RFC 8312: 60 RTTs at α ≈ 0.53 → about 28 + 31.
        let plain = reno_friendly_after_60_rtts(false);
        assert!((57..=61).contains(&plain), "cwnd {plain}");
        // RFC 9438: α = 1 once past 40 (after ~23 RTTs), so ~37 more segments instead of ~20.
        let switched = reno_friendly_after_60_rtts(true);
        assert!(switched >= plain + 10, "switch {switched} vs plain {plain}");
    }

    fn ns3_growth(cfg: CubicConfig) -> Cubic {
        Cubic::new(CubicConfig { growth: CubicGrowth::Ns3, ..cfg })
    }

    /// Feeds `acks` ACKs of `segs` segments each at one instant in congestion avoidance;
    /// returns (ACK number, cwnd in segments) at each growth.
    fn growth_steps(c: &mut Cubic, t: &mut Tcb, acks: u32, segs: u32) -> Vec<(u32, u32)> {
        let mut steps = Vec::new();
        for i in 1..=acks {
            let before = t.cwnd;
            c.grow_window(t, segs, SimTime::ZERO);
            if t.cwnd != before {
                steps.push((i, t.cwnd_segments()));
            }
        }
        steps
    }

    #[test]
    fn ns3_growth_before_any_loss_grows_on_the_ack_that_brings_the_count_to_20() {
        // HyStart exit at 20 segments, ACKs of 2 segments, 10 ms RTT: the curve is flat
        // (⌊0.4 · 0.01³⌋ = 0), cnt = 100 · 20 clamped to 20; the Reno estimate needs
        // ⌊20 · 15 / 8⌋ = 37 segments, so it never binds here. m_cWndCnt reaches 20 on
        // ACKs 10, 20, 30.
        let mut c = ns3_growth(CubicConfig::default());
        let mut t = tcb(20, 20);
        t.srtt = Some(SimDuration::from_millis(10));
        assert_eq!(growth_steps(&mut c, &mut t, 30, 2), [(10, 21), (20, 22), (30, 23)]);
        assert_eq!(c.cwnd_cnt, 0);
        // RFC 9438 in floating point: 0.05 per segment, ten times 0.1 is 0.9999999999999999,
        // so each step comes an ACK later (ns-3.44's ACK 27 against our 29 at 1 Gbit/s).
        let mut c = cubic();
        let mut t = tcb(20, 20);
        t.srtt = Some(SimDuration::from_millis(10));
        assert_eq!(growth_steps(&mut c, &mut t, 30, 2), [(11, 21), (21, 22)]);
    }

    #[test]
    fn ns3_growth_after_a_loss_counts_against_a_whole_segment_target() {
        // Loss at 100 segments: W_max 100, ssthresh 70. K = (30 / 0.4)^⅓ = 4.2172 s; with
        // t = 0 + 100 ms, C·(K − t)³ = 27.9 → 27, target 100 − 27 = 73 (the floating-point
        // curve is at 72.1 one RTT on). cnt = ⌊70 / 3⌋ = 23, then ⌊71 / 2⌋ = 35, ⌊72 / 1⌋ =
        // 72: growth on ACKs 23, 23 + 35 = 58 and 58 + 72 = 130, then 100 · 73 while the
        // target stays 73. The Reno estimate (one segment per ⌊70 · 15 / 8⌋ = 131) lags.
        let mut c = ns3_growth(CubicConfig::default());
        let mut t = tcb(100, 200);
        let ss = c.on_congestion(&t, 0, CongestionKind::DupAck);
        assert_eq!((ss, c.w_max), (70_000, 100.0));
        t.cwnd = ss;
        t.ssthresh = ss;
        t.srtt = Some(SimDuration::from_millis(100));
        assert_eq!(growth_steps(&mut c, &mut t, 140, 1), [(23, 71), (58, 72), (130, 73)]);
        assert_eq!(c.cwnd_cnt, 10);
    }

    #[test]
    fn ns3_growth_in_the_reno_region_follows_the_whole_segment_estimate() {
        // Loss at 10 segments, then avoidance from 10 (= W_max: K = 0, origin 10, the curve
        // flat for the first seconds): cnt = 100 · cwnd until the Reno estimate passes cwnd.
        // It gains a segment per ⌊cwnd · 15 / 8⌋ ACKed segments (18 at 10, 20 at 11, 22 at
        // 12): at ACK 19 it is 11, cnt = ⌊10 / 1⌋ = 10 and m_cWndCnt = 19 → cwnd 11 (9 left);
        // at ACK 39 (20 more) 12, cnt 11, count 29 → 12 (18 left); at ACK 61 13, cnt 12,
        // count 40 → 13 (28 left).
        let mut c = ns3_growth(CubicConfig::default());
        let mut t = tcb(10, 10);
        c.on_congestion(&t, 0, CongestionKind::DupAck);
        t.srtt = Some(SimDuration::from_millis(10));
        assert_eq!(growth_steps(&mut c, &mut t, 70, 1), [(19, 11), (39, 12), (61, 13)]);
        assert_eq!(c.cwnd_cnt, 37);
    }

    #[test]
    fn ns3_growth_keeps_its_ack_count_through_a_reduction() {
        // 15 segments counted before a loss (at 20, before any loss: cnt 20) are still there
        // after it: from 14 (W_max 20, K = (6 / 0.4)^⅓ = 2.466 s, t = 10 ms: C·(K − t)³ =
        // 5.93 → 5, target 15, cnt = 14) the first ACK brings the count to 16 ≥ 14.
        let mut c = ns3_growth(CubicConfig::default());
        let mut t = tcb(20, 20);
        t.srtt = Some(SimDuration::from_millis(10));
        assert!(growth_steps(&mut c, &mut t, 15, 1).is_empty());
        let ss = c.on_congestion(&t, 0, CongestionKind::DupAck);
        t.cwnd = ss;
        t.ssthresh = ss;
        assert_eq!(growth_steps(&mut c, &mut t, 1, 1), [(1, 15)]);
        assert_eq!(c.cwnd_cnt, 2);
    }

    #[test]
    fn ns3_growth_keeps_w_max_in_whole_segments() {
        // Fast convergence from 80 below W_max 100: 80 · 1.7 / 2 = 68 either way; from 75,
        // 63.75: ns-3's m_lastMaxCwnd is 63.
        let mut c = ns3_growth(CubicConfig::default());
        c.on_congestion(&tcb(100, 200), 0, CongestionKind::DupAck);
        c.on_congestion(&tcb(75, 200), 0, CongestionKind::DupAck);
        assert_eq!(c.w_max, 63.0);
        let mut c = cubic();
        c.on_congestion(&tcb(100, 200), 0, CongestionKind::DupAck);
        c.on_congestion(&tcb(75, 200), 0, CongestionKind::DupAck);
        assert_eq!(c.w_max, 63.75);
    }

    #[test]
    fn hystart_exits_slow_start_when_delay_rises_past_the_threshold() {
        let mut c = cubic();
        let mut t = tcb(10, u32::MAX / 1000);
        c.init(&mut t, SimTime::ZERO);
        let base = SimDuration::from_millis(10);
        let mut now = SimTime::ZERO;
        // Below the low window only delay_min is learnt.
        c.on_ack(
            &mut t,
            &AckSample { now, segments_acked: 1, rtt: Some(base), latest_rtt: None, ece: false },
        );
        assert_eq!(t.ssthresh, u32::MAX / 1000 * 1000);
        t.cwnd = 20_000;
        // Eight samples set the round's minimum at 25 ms > 10 ms + threshold clamp(10 ms).
        for _ in 0..9 {
            now += SimDuration::from_millis(5);
            c.on_ack(
                &mut t,
                &AckSample {
                    now,
                    segments_acked: 1,
                    rtt: Some(SimDuration::from_millis(25)),
                    latest_rtt: None,
                    ece: false,
                },
            );
        }
        assert_eq!(t.ssthresh, t.cwnd);
    }

    #[test]
    fn a_hystart_low_window_beyond_any_u32_window_keeps_hystart_off() {
        // 10^6 segments of 4295 bytes (both within their ranges): 4.295 GB, more than a u32
        // window holds. The product overflowed: a panic in debug builds, and in release a
        // threshold wrapped to 32 704 bytes that switched HyStart on far too early.
        let cfg = CubicConfig { hystart_low_window_segments: 1_000_000, ..CubicConfig::default() };
        let mut c = Cubic::new(cfg);
        let mut t = tcb(10, u32::MAX / 1000);
        t.mss = 4295;
        c.init(&mut t, SimTime::ZERO);
        t.cwnd = 200_000_000;
        let mut now = SimTime::ZERO;
        for rtt_ms in [10, 25, 25, 25, 25, 25, 25, 25, 25, 25] {
            now += SimDuration::from_millis(5);
            let rtt = Some(SimDuration::from_millis(rtt_ms));
            c.on_ack(&mut t, &AckSample { now, segments_acked: 1, rtt, latest_rtt: None, ece: false });
        }
        assert_eq!(
            t.ssthresh,
            u32::MAX / 1000 * 1000,
            "HyStart must not end slow start below its low window"
        );
    }
}
