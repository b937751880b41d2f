//! CUBIC (RFC 9438) with the slow start and HyStart of ns-3's `TcpCubic`.
//!
//! Window maths is in segments, as in the RFC. Slow start counts bytes acknowledged (ns-3
//! approximates Linux QUICKACK that way) and HyStart is ns-3's: ACK-train and delay-increase
//! detection once cwnd ≥ 16 segments.

use super::{AckSample, CcMetrics, CcaConfig, CongState, CongestionControl, CongestionKind, Tcb};
use crate::params::{fmt_num, Algorithm, Checker, Described, Field, Kind, Range};
use crate::rng::SimRng;
use crate::time::{SimDuration, SimTime};
use serde::{Deserialize, Serialize};

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

    /// Congestion avoidance growth (RFC 9438 §4.2–§4.5).
    fn avoid(&mut self, tcb: &mut Tcb, segments_acked: u32, now: SimTime) {
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

    fn reset(&mut self) {
        self.origin = 0.0;
        self.k = 0.0;
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
