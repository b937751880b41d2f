//! Random Early Detection with ns-3 `RedQueueDisc` semantics: RED (Floyd & Jacobson 1993),
//! Gentle RED (Floyd 2000) and Adaptive RED (Floyd, Gummadi & Shenker 2001).
//!
//! Every choice below follows ns-3's `red-queue-disc.cc` (the implementation the RED study
//! ran); where ns-3 departs from the papers the choice is a parameter of [`RedConfig`].

use super::{BuildCx, DiscConfig, DropReason, Occupancy, QItem, QdiscCtx, QueueDisc, QueueLimit};
use crate::params::{fmt_num, Algorithm, Checker, Described, Field, Flavour, Kind, Range};
use crate::queue::config_of;
use crate::rng::SimRng;
use crate::time::{Rate, SimDuration, SimTime};
use crate::trace::SeriesInfo;
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::collections::VecDeque;

/// RED parameters. Defaults are ns-3's attribute defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RedConfig {
    /// Hard buffer limit (ns-3 `MaxSize`, default 25 packets). Thresholds use its unit.
    pub limit: QueueLimit,
    /// Lower threshold on the average queue (ns-3 `MinTh`).
    pub min_th: f64,
    /// Upper threshold on the average queue (ns-3 `MaxTh`).
    pub max_th: f64,
    /// EWMA weight w_q; `None` = automatic 1 − exp(−1/C), C = link packets per second.
    pub queue_weight: Option<f64>,
    /// Drop probability at max_th (ns-3 `1/LInterm` = 0.02).
    pub max_p: f64,
    /// Gentle zone: p rises linearly from max_p to 1 over [max_th, 2·max_th).
    pub gentle: bool,
    /// "Wait" between drops: p_a = p_b / (2 − count·p_b), and 0 while count·p_b < 1.
    pub wait: bool,
    /// Adaptive RED: adapt max_p every `interval_s` to hold the average in the target band.
    pub adaptive: bool,
    /// ns-3 quirk: with ARED on, MinTh, MaxTh and QW are reset to automatic values whatever
    /// was configured (min_th = max(5, target_delay·C/2), max_th = 3·min_th).
    pub adaptive_auto_params: bool,
    pub interval_s: f64,
    pub alpha: f64,
    pub beta: f64,
    pub top: f64,
    /// Lower bound of max_p; `None` = automatic min(0.01, 1/W) with W the link BDP in packets.
    pub bottom: Option<f64>,
    pub target_delay_s: f64,
    /// RTT assumed when computing the automatic `bottom` (ns-3 `Rtt`, 100 ms).
    pub rtt_s: f64,
    /// Packet size used for the idle-time decay and byte-mode scaling (ns-3 `MeanPktSize`).
    pub mean_pkt_size_bytes: u32,
    /// Link rate RED assumes; `None` = the rate of the link it sits on. (ns-3's
    /// `LinkBandwidth` attribute defaults to 1.5 Mbit/s unless the script sets it.)
    pub link_bandwidth_bps: Option<u64>,
    /// ns-3 quirk: the gentle slope is fixed at start-up from the initial max_p and does not
    /// follow ARED's adaptation. Off = the slope is recomputed from the current max_p.
    pub gentle_slope_from_initial_max_p: bool,
    /// Mark ECN-capable packets CE instead of an early drop (ns-3 `UseEcn`, RFC 3168 §7).
    pub use_ecn: bool,
    /// With ECN, still drop in the hard zone (average above max_th, or 2·max_th when
    /// gentle) rather than mark (ns-3 `UseHardDrop`, default true).
    pub use_hard_drop: bool,
}

impl Default for RedConfig {
    fn default() -> Self {
        RedConfig {
            limit: QueueLimit::Packets(25),
            min_th: 5.0,
            max_th: 15.0,
            queue_weight: Some(0.002),
            max_p: 0.02,
            gentle: true,
            wait: true,
            adaptive: false,
            adaptive_auto_params: true,
            interval_s: 0.5,
            alpha: 0.01,
            beta: 0.9,
            top: 0.5,
            bottom: None,
            target_delay_s: 0.005,
            rtt_s: 0.1,
            mean_pkt_size_bytes: 500,
            link_bandwidth_bps: None,
            gentle_slope_from_initial_max_p: true,
            use_ecn: false,
            use_hard_drop: true,
        }
    }
}

const UNIT: Range = Range::closed(0.0, 1.0);
const PROB: Range = Range::above(0.0, 1.0);

impl Described for RedConfig {
    const INFO: Algorithm = Algorithm {
        tag: "red",
        label: "RED",
        help: "Random Early Detection with ns-3's RedQueueDisc semantics; Gentle and Adaptive (ARED) are switches.",
        fields: &[
            Field::new("limit", "Buffer", "", Kind::Limit, "Hard limit; the thresholds use its unit."),
            Field::new("min_th", "minTh", "", Kind::Float(Range::closed(0.0, 1e12)), "Average queue where early drops start."),
            Field::new("max_th", "maxTh", "", Kind::Float(Range::closed(0.0, 1e12)), "Average queue where the drop probability reaches max_p."),
            Field::new("max_p", "max_p", "", Kind::Float(PROB), "Drop probability at maxTh (ns-3: 1/LInterm = 0.02)."),
            Field::new("queue_weight", "w_q", "", Kind::OptFloat(PROB), "EWMA weight of the average; empty = 1 − exp(−1/C), C the link's packets/s."),
            Field::new("gentle", "Gentle", "", Kind::Bool, "Probability rises from max_p to 1 over [maxTh, 2·maxTh) instead of jumping to 1."),
            Field::new("wait", "Wait", "", Kind::Bool, "Space drops out: no drop until count·p_b ≥ 1 (ns-3 default)."),
            Field::new("adaptive", "Adaptive (ARED)", "", Kind::Bool, "Adapt max_p every interval to keep the average in the target band."),
            Field::new("adaptive_auto_params", "ARED resets thresholds", "", Kind::Bool, "ns-3 behaviour: with ARED on, minTh, maxTh and w_q are set automatically whatever is typed here."),
            Field::new("interval_s", "ARED interval", "s", Kind::Float(Range::closed(1e-6, 3600.0)), "How often max_p may change."),
            Field::new("alpha", "ARED α", "", Kind::Float(PROB), "Additive increase of max_p (capped at max_p/4)."),
            Field::new("beta", "ARED β", "", Kind::Float(PROB), "Multiplicative decrease of max_p."),
            Field::new("top", "ARED top", "", Kind::Float(PROB), "Upper bound of max_p."),
            Field::new("bottom", "ARED bottom", "", Kind::OptFloat(UNIT), "Lower bound of max_p; empty = min(0.01, 1/BDP in packets)."),
            Field::new("target_delay_s", "Target delay", "s", Kind::Float(Range::closed(1e-6, 60.0)), "Sets ARED's automatic minTh = max(5, delay·C/2)."),
            Field::new("rtt_s", "Assumed RTT", "s", Kind::Float(Range::closed(1e-6, 60.0)), "RTT for the automatic bottom (ns-3 Rtt, 100 ms)."),
            Field::new("mean_pkt_size_bytes", "Mean packet size", "bytes", Kind::Int(Range::closed(1.0, 65_535.0)), "Used for idle-time decay and byte mode (ns-3 MeanPktSize)."),
            Field::new("link_bandwidth_bps", "Link bandwidth", "bit/s", Kind::OptInt(Range::closed(1_000.0, 4e11)), "Rate RED assumes; empty = the link's own rate."),
            Field::new("gentle_slope_from_initial_max_p", "Gentle slope fixed at start", "", Kind::Bool, "ns-3 behaviour: the gentle ramp keeps the initial max_p even while ARED adapts it."),
            Field::new("use_ecn", "ECN", "", Kind::Bool, "Mark ECN-capable packets instead of an early drop (ns-3 UseEcn)."),
            Field::new("use_hard_drop", "Hard drop", "", Kind::Bool, "With ECN, still drop in the hard zone above maxTh (ns-3 UseHardDrop, on)."),
        ],
        flavours: &[
            Flavour { key: "red", label: "RED", flags: &[("adaptive", false), ("gentle", false)] },
            // ns-3's Gentle defaults to true, so its ARED is gentle unless told otherwise.
            Flavour { key: "ared", label: "Adaptive RED", flags: &[("adaptive", true), ("gentle", true)] },
            Flavour { key: "gentle", label: "Gentle RED", flags: &[("adaptive", false), ("gentle", true)] },
            Flavour {
                key: "ared-nogentle",
                label: "Adaptive RED without gentle",
                flags: &[("adaptive", true), ("gentle", false)],
            },
        ],
    };

    fn check_more(&self, c: &mut Checker) {
        let auto = self.adaptive && self.adaptive_auto_params;
        let both_zero = self.min_th == 0.0 && self.max_th == 0.0;
        if !auto && !both_zero && self.max_th.is_finite() && self.max_th <= self.min_th {
            c.push(
                "max_th",
                fmt_num(self.max_th),
                format!("more than min_th = {} (or both 0 for automatic)", fmt_num(self.min_th)),
            );
        }
        if let Some(b) = self.bottom {
            if b > self.top {
                c.push("bottom", fmt_num(b), format!("0 to top = {}", fmt_num(self.top)));
            }
        }
    }
}

impl DiscConfig for RedConfig {
    fn build(&self, cx: BuildCx) -> Box<dyn QueueDisc> {
        Box::new(Red::new(self, cx.link_rate, cx.rng))
    }
    fn limit(&self) -> QueueLimit {
        self.limit
    }
    fn set_limit(&mut self, limit: QueueLimit, _packet_bytes: u32) {
        self.limit = limit;
    }
    fn retune_check(&self, new: &dyn Any) -> Result<(), String> {
        self.limit.check_change(&config_of::<RedConfig>(new)?.limit)
    }
}

/// RED's internal state as the metrics and the UI show it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RedView {
    pub avg: f64,
    pub min_th: f64,
    pub max_th: f64,
    pub gentle: bool,
    pub cur_max_p: f64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RedStats {
    pub early: u64,
    pub forced: u64,
    pub overflow: u64,
    /// CE marks in place of an early (or, without hard drops, a forced) drop.
    pub marks: u64,
}

#[derive(Clone, Debug)]
pub struct Red {
    cfg: RedConfig,
    q: VecDeque<QItem>,
    occ: Occupancy,
    rng: SimRng,
    /// Link capacity in mean-sized packets per second.
    ptc: f64,
    min_th: f64,
    max_th: f64,
    qw: f64,
    bottom: f64,
    cur_max_p: f64,
    initial_max_p: f64,
    avg: f64,
    /// Packets since the last drop (RED's `count`).
    count: u64,
    count_bytes: u64,
    /// Whether the average was already above min_th at the previous arrival.
    old: bool,
    idle: bool,
    idle_since: SimTime,
    last_set: SimTime,
    /// ARED adaptation interval.
    interval: SimDuration,
    stats: RedStats,
}

enum Verdict {
    Accept,
    Drop(DropReason),
}

impl Red {
    pub fn new(cfg: &RedConfig, link_rate: Rate, rng: SimRng) -> Red {
        let bw = cfg.link_bandwidth_bps.unwrap_or(link_rate.bps()) as f64;
        let mean = f64::from(cfg.mean_pkt_size_bytes.max(1));
        let ptc = bw / (8.0 * mean);
        let bytes_mode = matches!(cfg.limit, QueueLimit::Bytes(_));

        let (mut min_th, mut max_th, mut qw) = (cfg.min_th, cfg.max_th, cfg.queue_weight);
        if cfg.adaptive && cfg.adaptive_auto_params {
            (min_th, max_th, qw) = (0.0, 0.0, None);
        }
        if min_th == 0.0 && max_th == 0.0 {
            // ARED paper §5: min_th = max(5, target_queue / 2), max_th = 3 · min_th.
            min_th = f64::max(5.0, cfg.target_delay_s * ptc / 2.0);
            if bytes_mode {
                min_th *= mean;
            }
            max_th = 3.0 * min_th;
        }
        // ARED paper §5: w_q = 1 − exp(−1/C) gives a time constant of one second's worth of packets.
        let qw = qw.unwrap_or_else(|| 1.0 - libm::exp(-1.0 / ptc));
        let bottom = cfg.bottom.unwrap_or_else(|| f64::min(0.01, 8.0 * mean * cfg.rtt_s / bw));

        Red {
            cfg: cfg.clone(),
            q: VecDeque::new(),
            occ: Occupancy::default(),
            rng,
            ptc,
            min_th,
            max_th,
            qw,
            bottom,
            cur_max_p: cfg.max_p,
            initial_max_p: cfg.max_p,
            avg: 0.0,
            count: 0,
            count_bytes: 0,
            old: false,
            idle: true,
            idle_since: SimTime::ZERO,
            last_set: SimTime::ZERO,
            interval: SimDuration::from_secs_f64(cfg.interval_s),
            stats: RedStats::default(),
        }
    }

    pub fn enqueue(&mut self, mut item: QItem, cx: &mut QdiscCtx) -> bool {
        let mut verdict = self.decide(item.bytes, cx.now);
        // ns-3 `RedQueueDisc::DoEnqueue`: an unforced drop becomes a mark with ECN; a
        // forced one only without hard drops. The marked packet still needs room.
        if let Verdict::Drop(reason) = verdict {
            let may_mark = reason == DropReason::Early || !self.cfg.use_hard_drop;
            if may_mark && item.signal(self.cfg.use_ecn, reason) {
                self.stats.marks += 1;
                verdict = Verdict::Accept;
            }
        }
        match verdict {
            Verdict::Drop(reason) => {
                self.count_drop(reason);
                cx.drop(item, reason, false);
                false
            }
            Verdict::Accept if !self.cfg.limit.admits(&self.occ, item.bytes) => {
                self.count_drop(DropReason::Overflow);
                cx.drop(item, DropReason::Overflow, false);
                false
            }
            Verdict::Accept => {
                self.occ.add(item.bytes, self.cfg.limit.cells_of(item.bytes));
                self.q.push_back(item);
                true
            }
        }
    }

    /// Dequeue; an empty queue marks the start of an idle period (for the average's decay).
    pub fn dequeue(&mut self, now: SimTime) -> Option<QItem> {
        match self.q.pop_front() {
            None => {
                self.idle = true;
                self.idle_since = now;
                None
            }
            Some(item) => {
                self.idle = false;
                self.occ.remove(item.bytes, self.cfg.limit.cells_of(item.bytes));
                Some(item)
            }
        }
    }

    fn count_drop(&mut self, reason: DropReason) {
        match reason {
            DropReason::Early => self.stats.early += 1,
            DropReason::Forced => self.stats.forced += 1,
            DropReason::Overflow | DropReason::Threshold => self.stats.overflow += 1,
        }
    }

    /// The RED decision for an arriving packet of `bytes` (ns-3 `DoEnqueue`).
    fn decide(&mut self, bytes: u32, now: SimTime) -> Verdict {
        let n_queued = self.cfg.limit.length(&self.occ);
        // After an idle period the average decays as if m small packets had arrived
        // (RED paper §4, ns-3 `m = ptc · idle_time`).
        let mut m = 0u64;
        if self.idle {
            m = (self.ptc * (now.saturating_sub(self.idle_since)).as_secs_f64()) as u64;
            self.idle = false;
        }
        self.avg = self.estimate(n_queued, m + 1, now);

        self.count += 1;
        self.count_bytes += u64::from(bytes);

        if self.avg >= self.min_th && self.occ.packets > 1 {
            let hard_limit = if self.cfg.gentle { 2.0 * self.max_th } else { self.max_th };
            if self.avg >= hard_limit {
                return Verdict::Drop(DropReason::Forced);
            }
            if !self.old {
                // The average just crossed min_th: restart the count without dropping.
                self.count = 1;
                self.count_bytes = u64::from(bytes);
                self.old = true;
            } else if self.drop_early(bytes) {
                return Verdict::Drop(DropReason::Early);
            }
        } else {
            self.old = false;
        }
        Verdict::Accept
    }

    /// avg ← avg·(1 − w_q)^m + w_q·q (RED paper §4; m > 1 after idle time).
    fn estimate(&mut self, q: f64, m: u64, now: SimTime) -> f64 {
        // pow(x, 1) is exactly x; skip the call on the common busy-queue path.
        let decay = if m == 1 { 1.0 - self.qw } else { libm::pow(1.0 - self.qw, m as f64) };
        let new_avg = self.avg * decay + self.qw * q;
        if self.cfg.adaptive && now > self.last_set + self.interval {
            self.adapt_max_p(new_avg, now);
        }
        new_avg
    }

    /// ARED (Floyd et al. 2001, Fig. 2): AIMD on max_p to keep the average in
    /// [min_th + 0.4Δ, max_th − 0.4Δ].
    fn adapt_max_p(&mut self, avg: f64, now: SimTime) {
        let part = 0.4 * (self.max_th - self.min_th);
        if avg < self.min_th + part && self.cur_max_p > self.bottom {
            self.cur_max_p *= self.cfg.beta;
            self.last_set = now;
        } else if avg > self.max_th - part && self.cfg.top > self.cur_max_p {
            self.cur_max_p += f64::min(self.cfg.alpha, 0.25 * self.cur_max_p);
            self.last_set = now;
        }
    }

    fn drop_early(&mut self, bytes: u32) -> bool {
        let p = self.modify_p(self.base_probability(), bytes);
        if self.rng.uniform() <= p {
            self.count = 0;
            self.count_bytes = 0;
            return true;
        }
        false
    }

    /// p_b from the average (RED paper §4; gentle zone per Floyd 2000).
    fn base_probability(&self) -> f64 {
        let avg = self.avg;
        let p = if avg >= self.max_th {
            if !self.cfg.gentle {
                1.0
            } else {
                let max_p = if self.cfg.gentle_slope_from_initial_max_p {
                    self.initial_max_p
                } else {
                    self.cur_max_p
                };
                // Linear from max_p at max_th to 1 at 2·max_th.
                (1.0 - max_p) / self.max_th * avg + (2.0 * max_p - 1.0)
            }
        } else {
            let diff = if self.max_th > self.min_th { self.max_th - self.min_th } else { 1.0 };
            self.cur_max_p * (avg - self.min_th) / diff
        };
        p.min(1.0)
    }

    /// p_a from p_b and the count since the last drop (RED paper §4 with ns-3's "wait").
    fn modify_p(&self, pb: f64, bytes: u32) -> f64 {
        let bytes_mode = matches!(self.cfg.limit, QueueLimit::Bytes(_));
        let mean = u64::from(self.cfg.mean_pkt_size_bytes.max(1));
        let count = if bytes_mode { (self.count_bytes / mean) as f64 } else { self.count as f64 };
        let mut p = if self.cfg.wait {
            if count * pb < 1.0 {
                0.0
            } else if count * pb < 2.0 {
                pb / (2.0 - count * pb)
            } else {
                1.0
            }
        } else if count * pb < 1.0 {
            pb / (1.0 - count * pb)
        } else {
            1.0
        };
        if bytes_mode && p < 1.0 {
            p = p * f64::from(bytes) / mean as f64;
        }
        p.min(1.0)
    }

    pub fn occupancy(&self) -> Occupancy {
        self.occ
    }

    pub fn limit(&self) -> QueueLimit {
        self.cfg.limit
    }

    pub fn stats(&self) -> RedStats {
        self.stats
    }

    pub fn view(&self) -> RedView {
        RedView {
            avg: self.avg,
            min_th: self.min_th,
            max_th: self.max_th,
            gentle: self.cfg.gentle,
            cur_max_p: self.cur_max_p,
        }
    }

    pub fn queue_weight(&self) -> f64 {
        self.qw
    }
}

impl QueueDisc for Red {
    fn enqueue(&mut self, item: QItem, cx: &mut QdiscCtx) -> bool {
        Red::enqueue(self, item, cx)
    }
    fn dequeue(&mut self, cx: &mut QdiscCtx) -> Option<QItem> {
        Red::dequeue(self, cx.now)
    }
    fn occupancy(&self) -> Occupancy {
        self.occ
    }
    fn limit(&self) -> QueueLimit {
        self.cfg.limit
    }
    /// The EWMA average with the thresholds actually applied (after ARED's reset): the
    /// zones between them are the study's Table 7.
    fn series(&self) -> Vec<SeriesInfo> {
        let (lo, hi) = (self.min_th, self.max_th);
        vec![SeriesInfo::new("red.avg", "EWMA average", self.cfg.limit.unit_name(), "queue")
            .with_thresholds(&[(lo, "minTh"), (hi, "maxTh"), (2.0 * hi, "2·maxTh")])]
    }
    fn sample_series(&self, out: &mut Vec<f64>) {
        out.push(self.avg);
    }
    /// New thresholds, weights and max_p apply from the next arrival; the queue, the
    /// average, the count since the last drop and the idle clock carry over (Linux's
    /// `red_change` keeps `red_vars` too), and so does ARED's adapted max_p unless max_p
    /// itself was changed.
    fn retune(&mut self, cfg: &dyn Any, link_rate: Rate, _now: SimTime) -> Result<(), String> {
        self.cfg.retune_check(cfg)?;
        let cfg: &RedConfig = config_of(cfg)?;
        let keep_max_p = cfg.max_p.to_bits() == self.cfg.max_p.to_bits();
        let old = std::mem::replace(self, Red::new(cfg, link_rate, self.rng.clone()));
        if keep_max_p {
            (self.cur_max_p, self.initial_max_p) = (old.cur_max_p, old.initial_max_p);
        }
        (self.q, self.occ, self.avg, self.count, self.count_bytes) =
            (old.q, old.occ, old.avg, old.count, old.count_bytes);
        (self.old, self.idle, self.idle_since, self.last_set, self.stats) =
            (old.old, old.idle, old.idle_since, old.last_set, old.stats);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::StreamId;

    fn red(cfg: RedConfig) -> Red {
        Red::new(&cfg, Rate(2_000_000), SimRng::new(1, StreamId::Queue(0)))
    }

    #[test]
    fn the_ared_flavour_is_ns3s_with_gentle_on() {
        let f = RedConfig::INFO.flavours.iter().find(|f| f.key == "ared").unwrap();
        assert!(f.flags.contains(&("adaptive", true)) && f.flags.contains(&("gentle", true)));
        let plain = serde_json::to_value(RedConfig { adaptive: true, gentle: false, ..RedConfig::default() });
        assert_eq!(RedConfig::INFO.flavour_of(&plain.unwrap()), "ared-nogentle");
    }

    fn plain() -> RedConfig {
        RedConfig {
            limit: QueueLimit::Packets(100),
            min_th: 5.0,
            max_th: 10.0,
            gentle: false,
            ..RedConfig::default()
        }
    }

    fn with_avg(mut r: Red, avg: f64) -> Red {
        r.avg = avg;
        r
    }

    #[test]
    fn probability_is_zero_below_min_th_region_and_linear_between_thresholds() {
        let r = with_avg(red(plain()), 7.5);
        // Halfway between 5 and 10 → max_p / 2.
        assert!((r.base_probability() - 0.01).abs() < 1e-12);
        let r = with_avg(red(plain()), 5.0);
        assert_eq!(r.base_probability(), 0.0);
    }

    #[test]
    fn hard_red_drops_everything_at_or_above_max_th() {
        let r = with_avg(red(plain()), 10.0);
        assert_eq!(r.base_probability(), 1.0);
    }

    #[test]
    fn gentle_ramp_rises_from_max_p_at_max_th_to_one_at_twice_max_th() {
        let cfg = RedConfig { gentle: true, ..plain() };
        assert!((with_avg(red(cfg.clone()), 10.0).base_probability() - 0.02).abs() < 1e-12);
        assert!((with_avg(red(cfg.clone()), 15.0).base_probability() - 0.51).abs() < 1e-12);
        assert!((with_avg(red(cfg), 20.0).base_probability() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn wait_holds_off_drops_until_count_times_pb_reaches_one() {
        let r = red(plain());
        let mut r = r;
        r.count = 10;
        assert_eq!(r.modify_p(0.05, 500), 0.0); // 0.5 < 1
        r.count = 30;
        // count·pb = 1.5 → pb / (2 − 1.5) = 0.1
        assert!((r.modify_p(0.05, 500) - 0.1).abs() < 1e-12);
        r.count = 40;
        assert_eq!(r.modify_p(0.05, 500), 1.0);
    }

    #[test]
    fn without_wait_probability_grows_as_pb_over_one_minus_count_pb() {
        let mut r = red(RedConfig { wait: false, ..plain() });
        r.count = 10;
        assert!((r.modify_p(0.05, 500) - 0.1).abs() < 1e-12);
    }

    #[test]
    fn idle_time_decays_the_average_as_if_small_packets_had_arrived() {
        let mut r = red(plain());
        r.avg = 8.0;
        r.idle = true;
        r.idle_since = SimTime::ZERO;
        // ptc = 2e6 / (8·500) = 500 packets/s; 0.1 s idle → m = 50, plus this arrival.
        let now = SimTime::from_secs_f64(0.1);
        let mut drops = Vec::new();
        let mut cx = QdiscCtx::new(now, &mut drops);
        r.enqueue(
            QItem { id: 0, bytes: 500, flow: 0, enqueued_at: now, conn: 0, ..QItem::default() },
            &mut cx,
        );
        let expected = 8.0 * libm::pow(1.0 - 0.002, 51.0);
        assert!((r.avg - expected).abs() < 1e-12, "{} vs {}", r.avg, expected);
    }

    #[test]
    fn no_early_drop_while_at_most_one_packet_is_queued() {
        let mut r = red(plain());
        r.avg = 50.0; // far above max_th
        r.idle = false;
        let mut drops = Vec::new();
        let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
        assert!(r.enqueue(
            QItem { id: 0, bytes: 500, flow: 0, enqueued_at: SimTime::ZERO, conn: 0, ..QItem::default() },
            &mut cx
        ));
        assert!(r.enqueue(
            QItem { id: 1, bytes: 500, flow: 0, enqueued_at: SimTime::ZERO, conn: 0, ..QItem::default() },
            &mut cx
        ));
        // With two packets queued the forced zone applies.
        assert!(!r.enqueue(
            QItem { id: 2, bytes: 500, flow: 0, enqueued_at: SimTime::ZERO, conn: 0, ..QItem::default() },
            &mut cx
        ));
        assert_eq!(drops[0].reason, DropReason::Forced);
    }

    #[test]
    fn ared_raises_max_p_additively_when_the_average_is_above_the_band() {
        let cfg = RedConfig { adaptive: true, adaptive_auto_params: false, ..plain() };
        let mut r = red(cfg);
        r.adapt_max_p(9.9, SimTime::from_secs_f64(1.0)); // band is [7, 8]
                                                         // alpha = min(0.01, 0.02/4 = 0.005)
        assert!((r.cur_max_p - 0.025).abs() < 1e-12);
    }

    #[test]
    fn ared_lowers_max_p_multiplicatively_when_the_average_is_below_the_band() {
        let cfg = RedConfig { adaptive: true, adaptive_auto_params: false, ..plain() };
        let mut r = red(cfg);
        r.adapt_max_p(6.0, SimTime::from_secs_f64(1.0));
        assert!((r.cur_max_p - 0.018).abs() < 1e-12);
    }

    #[test]
    fn ared_in_ns3_resets_thresholds_and_weight_to_automatic_values() {
        let cfg = RedConfig { adaptive: true, mean_pkt_size_bytes: 512, ..plain() };
        let r = red(cfg);
        assert_eq!((r.min_th, r.max_th), (5.0, 15.0));
        let c = 2e6 / (8.0 * 512.0);
        assert!((r.qw - (1.0 - (-1.0f64 / c).exp())).abs() < 1e-12);
    }

    #[test]
    fn ared_adapts_at_most_once_per_interval() {
        let cfg = RedConfig { adaptive: true, adaptive_auto_params: false, ..plain() };
        let mut r = red(cfg);
        let t = SimTime::from_secs_f64(0.6);
        r.estimate(20.0, 1, t); // avg small: below band → max_p × 0.9, last_set = 0.6 s
        let after_first = r.cur_max_p;
        r.estimate(20.0, 1, SimTime::from_secs_f64(0.9));
        assert_eq!(r.cur_max_p, after_first);
        r.estimate(20.0, 1, SimTime::from_secs_f64(1.2));
        assert_ne!(r.cur_max_p, after_first);
    }
}
