//! PIE, Proportional Integral controller Enhanced (RFC 8033).
//!
//! The drop decision is made at enqueue (§4.1) with a probability that a PI controller on
//! the queueing delay updates every `Tupdate` (§4.2). The delay is estimated either from the
//! departure rate and Little's law (§4.3, §5.2: the default here, as the RFC describes) or
//! from the sojourn time of the last departing packet (Linux's default).
//!
//! **Lazy updates.** RFC 8033 runs the probability update from a periodic timer. Here every
//! enqueue and dequeue first applies each update period that has elapsed since the last one
//! (the periods stay on the grid k·Tupdate from time zero). Between two queue events nothing
//! the update reads can change (queue length, last sojourn time, the departure-rate
//! estimate), so the result is the same as a timer's, without timer events. Once an update
//! leaves the state unchanged (an idle queue with p = 0), the remaining periods are skipped.
//!
//! Where the RFC, Linux and ns-3 differ, the choice is noted next to the code. The defaults
//! are ns-3.44's `PieQueueDisc` (the papers this lab reproduces ran ns-3): the delay from the
//! sojourn time (`UseDequeueRateEstimator` false) and [`PieRules::Ns3`]; `rules = rfc8033`
//! with `use_dequeue_rate_estimator` gives RFC 8033's Appendix A. ns-3's `ActiveThreshold`
//! (off by default) and its L4S marking of ECT(1) are not modelled.
//!
//! ECN (§5.1; Linux `pie_qdisc_enqueue`, ns-3.44 `UseEcn` / `MarkEcnThreshold`): an early
//! drop of an ECN-capable packet becomes a CE mark while the probability is at most
//! `mark_ecn_threshold` (10 %); above it PIE drops, so an overload cannot hide behind marks.

use super::{BuildCx, DiscConfig, DropReason, Occupancy, QItem, QdiscCtx, QueueDisc, QueueLimit};
use crate::params::{Algorithm, Described, Field, Kind, Range};
use crate::queue::config_of;
use crate::rng::SimRng;
use crate::time::{Rate, SimDuration, SimTime};
use crate::trace::SeriesInfo;
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::collections::VecDeque;

/// Where ns-3.44 and RFC 8033 part ways (every difference except the delay estimator,
/// which is its own switch in both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PieRules {
    /// ns-3.44 `PieQueueDisc`:
    /// - §4.4 burst allowance: armed (MAX_BURST) by the first early-drop check while no burst
    ///   is being protected; while any allowance is left the update holds p at 0 (it is not
    ///   integrated); protection ends after BURST_RESET_TIMEOUT = 1.5 s of updates with p = 0
    ///   and both delays below QDELAY_REF/2, and the next early-drop check re-arms it.
    /// - §4.1 safeguard: with a limit in packets, no early drop while at most 2 packets are
    ///   queued (bytes: at most 2·MEAN_PKTSIZE); with a limit in bytes, p is scaled by
    ///   packet size / MEAN_PKTSIZE (`PieQueueDisc::DropEarly`).
    /// - §5.2 departure rate: a byte rate averaged with weight 1/2, the measurement restarted
    ///   only while more than DQ_THRESHOLD is queued, the estimate discarded whenever p = 0 and
    ///   both delays are below QDELAY_REF/2; no estimate yet = a delay of 0.
    Ns3,
    /// RFC 8033 text and Appendix A pseudocode:
    /// - §4.4: the allowance counts down from MAX_BURST at start and is restored in full by any
    ///   update that sees p = 0 and both delays below QDELAY_REF/2; p is updated throughout.
    /// - §4.1: no early drop while at most 2·MEAN_PKTSIZE bytes (or one packet) are queued.
    /// - §5.2: the time to drain DQ_THRESHOLD averaged with weight DQ_THRESHOLD/2^16; no
    ///   estimate yet = the sojourn time.
    Rfc8033,
}

/// ns-3's BURST_RESET_TIMEOUT: quiet time before the burst allowance can be re-armed, s.
const NS3_BURST_RESET_TIMEOUT_S: f64 = 1.5;

/// ns-3's burst protection state (`BurstStateT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BurstState {
    /// The next early-drop check arms the allowance.
    NoBurst,
    /// Allowance armed (or spent, with the queue not yet quiet).
    Protecting,
    /// Quiet since the allowance ran out; counts updates towards the reset.
    Quiet,
}

/// PIE parameters. Defaults are ns-3.44's `PieQueueDisc` (the limit: the lab's 1000 packets,
/// ns-3's attribute default is 25).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PieConfig {
    /// Hard buffer limit; tail drops above it (the lab's 1000 packets; ns-3.44's `MaxSize`
    /// defaults to 25).
    pub limit: QueueLimit,
    /// QDELAY_REF: the target queueing delay (15 ms).
    pub target_ms: f64,
    /// T_UPDATE: period of the drop-probability update (15 ms).
    pub tupdate_ms: f64,
    /// α in Hz: weight of the delay error (0.125).
    pub alpha: f64,
    /// β in Hz: weight of the delay trend (1.25).
    pub beta: f64,
    /// MAX_BURST: burst allowance during which no early drop happens (150 ms).
    pub max_burst_ms: f64,
    /// DQ_THRESHOLD: bytes per departure-rate measurement cycle (16 KiB, §5.2).
    pub dq_threshold_bytes: u32,
    /// Delay by departure rate and Little's law (RFC §4.3/§5.2); false = sojourn time of
    /// the last dequeued packet (ns-3.44's `UseDequeueRateEstimator` default, and Linux's).
    pub use_dequeue_rate_estimator: bool,
    /// ns-3.44's or RFC 8033's burst allowance, safeguard and rate average ([`PieRules`]).
    pub rules: PieRules,
    /// Derandomization (§5.4): drops spaced by an accumulated probability.
    pub derandomize: bool,
    /// MEAN_PKTSIZE: no early drop while the queue holds at most 2 of these (§4.1).
    pub mean_pkt_size_bytes: u32,
    /// Mark ECN-capable packets CE instead of an early drop (§5.1; off in Linux and ns-3.44).
    pub ecn: bool,
    /// Marks only while the drop probability is at most this; above it, drops (§5.1: 10 %).
    pub mark_ecn_threshold: f64,
}

impl Default for PieConfig {
    fn default() -> Self {
        PieConfig {
            limit: QueueLimit::Packets(1000),
            target_ms: 15.0,
            tupdate_ms: 15.0,
            alpha: 0.125,
            beta: 1.25,
            max_burst_ms: 150.0,
            dq_threshold_bytes: 16_384,
            use_dequeue_rate_estimator: false,
            rules: PieRules::Ns3,
            derandomize: false,
            mean_pkt_size_bytes: 1000,
            ecn: false,
            mark_ecn_threshold: 0.1,
        }
    }
}

impl Described for PieConfig {
    const INFO: Algorithm = Algorithm {
        tag: "pie",
        label: "PIE",
        help: "Proportional Integral controller Enhanced (RFC 8033): drops at enqueue with a probability steered by the queueing delay.",
        fields: &[
            Field::new("limit", "Buffer", "", Kind::Limit, "Hard limit; tail drops above it (1000 packets here; ns-3.44's PieQueueDisc defaults to 25)."),
            Field::new("target_ms", "Target", "ms", Kind::Float(Range::closed(0.001, 60_000.0)), "Queueing delay PIE steers towards (15 ms)."),
            // Below 1 µs the lazy update loop would run a billion periods per simulated second.
            Field::new("tupdate_ms", "Update period", "ms", Kind::Float(Range::closed(0.001, 60_000.0)), "How often the drop probability is recomputed (15 ms)."),
            Field::new("alpha", "α", "Hz", Kind::Float(Range::above(0.0, 1_000.0)), "Gain on the distance from target (0.125)."),
            Field::new("beta", "β", "Hz", Kind::Float(Range::closed(0.0, 1_000.0)), "Gain on the delay trend (1.25)."),
            Field::new("max_burst_ms", "Max burst", "ms", Kind::Float(Range::closed(0.0, 60_000.0)), "Bursts this long pass without drops (150 ms)."),
            Field::new("dq_threshold_bytes", "Rate threshold", "bytes", Kind::Int(Range::closed(64.0, 1_073_741_824.0)), "Departure-rate measurement needs this much queued (16 KiB)."),
            Field::new("use_dequeue_rate_estimator", "Departure-rate estimate", "", Kind::Bool, "RFC 8033 §5.2 delay from queue/rate; off = sojourn time (ns-3.44 and Linux default)."),
            Field::new("rules", "Rules", "", Kind::Choice(&[("ns3", "ns-3.44"), ("rfc8033", "RFC 8033")]), "Burst allowance, small-queue safeguard and rate average as ns-3.44's PieQueueDisc or as RFC 8033's pseudocode."),
            Field::new("derandomize", "Derandomize", "", Kind::Bool, "RFC 8033 §5.4: accumulate probability to space drops."),
            Field::new("mean_pkt_size_bytes", "Mean packet size", "bytes", Kind::Int(Range::closed(1.0, 65_535.0)), "Used by the small-queue safeguard."),
            Field::new("ecn", "ECN", "", Kind::Bool, "RFC 8033 §5.1: mark ECN-capable packets CE instead of an early drop while the probability is at most the mark threshold."),
            Field::new("mark_ecn_threshold", "Mark threshold", "", Kind::Float(Range::closed(0.0, 1.0)), "Above this drop probability PIE drops even ECN-capable packets (10 %)."),
        ],
        flavours: &[],
    };
}

impl DiscConfig for PieConfig {
    fn build(&self, cx: BuildCx) -> Box<dyn QueueDisc> {
        Box::new(Pie::new(self, cx.rng))
    }
    fn delay_target_ms(&self) -> Option<f64> {
        Some(self.target_ms)
    }
    fn limit(&self) -> QueueLimit {
        self.limit
    }
    fn set_limit(&mut self, limit: QueueLimit, _packet_bytes: u32) {
        self.limit = limit;
    }
    /// Which rules PIE follows, and its delay estimator, cannot change under a run.
    fn retune_check(&self, new: &dyn Any) -> Result<(), String> {
        let new: &PieConfig = config_of(new)?;
        self.limit.check_change(&new.limit)?;
        if new.rules != self.rules || new.use_dequeue_rate_estimator != self.use_dequeue_rate_estimator {
            return Err(
                "rules: which PIE (ns-3's or RFC 8033's) and its delay estimator cannot change during a run"
                    .into(),
            );
        }
        Ok(())
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieStats {
    pub early: u64,
    pub overflow: u64,
    /// Probability updates applied so far.
    pub updates: u64,
}

#[derive(Clone, Debug)]
pub struct Pie {
    cfg: PieConfig,
    q: VecDeque<QItem>,
    occ: Occupancy,
    rng: SimRng,
    target_s: f64,
    tupdate: SimDuration,
    max_burst: SimDuration,
    /// Time of the next probability update (on the grid k·Tupdate).
    next_update: SimTime,
    drop_prob: f64,
    /// Delay used by the previous update, seconds.
    qdelay_old: f64,
    /// Remaining burst allowance (integer ns, as ns-3's `Time`: 10 updates spend 150 ms
    /// exactly).
    burst_allowance: SimDuration,
    /// ns-3 rules: burst protection state and its count of quiet updates.
    burst_state: BurstState,
    burst_quiet_updates: u32,
    /// ns-3 rules: quiet updates after which protection ends (1.5 s / T_UPDATE).
    burst_reset_limit: u32,
    accu_prob: f64,
    /// Sojourn time of the last dequeued packet (0 once the queue empties), seconds.
    sojourn: f64,
    // Departure-rate estimation (§5.2).
    in_measurement: bool,
    measurement_start: SimTime,
    dq_count: u64,
    /// RFC rules: smoothed time to drain DQ_THRESHOLD bytes, seconds; 0 = no estimate yet.
    avg_dq_time: f64,
    /// ns-3 rules: smoothed departure rate, bytes per second; 0 = no estimate yet.
    avg_dq_rate: f64,
    stats: PieStats,
}

impl Pie {
    pub fn new(cfg: &PieConfig, rng: SimRng) -> Pie {
        let tupdate = SimDuration::from_secs_f64(cfg.tupdate_ms / 1e3).max(SimDuration(1));
        Pie {
            cfg: cfg.clone(),
            q: VecDeque::new(),
            occ: Occupancy::default(),
            rng,
            target_s: cfg.target_ms / 1e3,
            tupdate,
            max_burst: SimDuration::from_secs_f64(cfg.max_burst_ms / 1e3),
            next_update: SimTime::ZERO + tupdate,
            drop_prob: 0.0,
            qdelay_old: 0.0,
            // ns-3 starts with no allowance: the first early-drop check arms it.
            burst_allowance: match cfg.rules {
                PieRules::Ns3 => SimDuration::ZERO,
                PieRules::Rfc8033 => SimDuration::from_secs_f64(cfg.max_burst_ms / 1e3),
            },
            burst_state: BurstState::NoBurst,
            burst_quiet_updates: 0,
            burst_reset_limit: (NS3_BURST_RESET_TIMEOUT_S / tupdate.as_secs_f64()) as u32,
            accu_prob: 0.0,
            sojourn: 0.0,
            in_measurement: false,
            measurement_start: SimTime::ZERO,
            dq_count: 0,
            avg_dq_time: 0.0,
            avg_dq_rate: 0.0,
            stats: PieStats::default(),
        }
    }

    pub fn enqueue(&mut self, mut item: QItem, cx: &mut QdiscCtx) -> bool {
        self.catch_up(cx.now);
        // Appendix A: a full queue tail-drops and resets the accumulated probability.
        if !self.cfg.limit.admits(&self.occ, item.bytes) {
            self.accu_prob = 0.0;
            self.stats.overflow += 1;
            cx.drop(item, DropReason::Overflow, false);
            return false;
        }
        // §4.4: no early drop while burst allowance is left; §5.1: mark in place of a drop
        // while p is small.
        if self.drop_early(item.bytes) && !item.signal(self.ecn_marks(), DropReason::Early) {
            self.accu_prob = 0.0;
            self.stats.early += 1;
            cx.drop(item, DropReason::Early, false);
            return false;
        }
        self.occ.add(item.bytes, self.cfg.limit.cells_of(item.bytes));
        self.q.push_back(item);
        true
    }

    pub fn dequeue(&mut self, now: SimTime) -> Option<QItem> {
        self.catch_up(now);
        let item = self.q.pop_front()?;
        self.occ.remove(item.bytes, self.cfg.limit.cells_of(item.bytes));
        // §4.3 with timestamps (Linux `pie_process_dequeue`): 0 once the queue is empty.
        self.sojourn = if self.occ.packets == 0 { 0.0 } else { (now - item.enqueued_at).as_secs_f64() };
        if self.cfg.use_dequeue_rate_estimator || self.cfg.rules == PieRules::Rfc8033 {
            match self.cfg.rules {
                PieRules::Ns3 => self.estimate_departure_rate_ns3(item.bytes, now),
                PieRules::Rfc8033 => self.estimate_departure_rate(item.bytes, now),
            }
        }
        Some(item)
    }

    /// Whether an early signal may be a mark now (§5.1).
    fn ecn_marks(&self) -> bool {
        self.cfg.ecn && self.drop_prob <= self.cfg.mark_ecn_threshold
    }

    /// Removes the head packet without a departure (an overflow drop from FQ-PIE's fattest
    /// queue): the delay estimate does not see it leave.
    pub(crate) fn drop_head(&mut self) -> Option<QItem> {
        let item = self.q.pop_front()?;
        self.occ.remove(item.bytes, self.cfg.limit.cells_of(item.bytes));
        Some(item)
    }

    /// §4.4 burst allowance, §4.1 random drop with the work-conserving safeguards, §5.4
    /// derandomization. Called for a packet that fits under the limit.
    fn drop_early(&mut self, bytes: u32) -> bool {
        if self.burst_allowance > SimDuration::ZERO {
            return false;
        }
        let mut p = self.drop_prob;
        let two_pkts = 2 * u64::from(self.cfg.mean_pkt_size_bytes);
        let small = match self.cfg.rules {
            PieRules::Ns3 => {
                // ns-3: the check that finds no allowance arms it when no burst is being
                // protected, and goes on to decide this packet.
                if self.burst_state == BurstState::NoBurst {
                    self.burst_state = BurstState::Protecting;
                    self.burst_allowance = self.max_burst;
                }
                match self.cfg.limit {
                    QueueLimit::Packets(_) => self.occ.packets <= 2,
                    _ => {
                        // Byte mode: p in proportion to the packet's size.
                        p = p * f64::from(bytes) / f64::from(self.cfg.mean_pkt_size_bytes);
                        self.occ.bytes <= two_pkts
                    }
                }
            }
            // RFC: ≤ 2·MEAN_PKTSIZE bytes; fewer than two packets as well.
            PieRules::Rfc8033 => self.occ.packets < 2 || self.occ.bytes <= two_pkts,
        };
        // §4.1: the queue is not congested (old delay low and p small) or nearly empty.
        if (self.qdelay_old < self.target_s / 2.0 && self.drop_prob < 0.2) || small {
            return false;
        }
        if self.cfg.derandomize {
            // §5.4: accumulate p since the last drop; never below 0.85, always at 8.5.
            if self.drop_prob == 0.0 {
                self.accu_prob = 0.0;
            }
            self.accu_prob += self.drop_prob;
            if self.accu_prob < 0.85 {
                return false;
            }
            if self.accu_prob >= 8.5 {
                return true;
            }
        }
        self.rng.uniform() < p
    }

    /// §5.2 as ns-3.44 measures it: a byte rate, averaged with weight 1/2; a cycle starts
    /// when a dequeue leaves at least DQ_THRESHOLD queued and counts that packet.
    fn estimate_departure_rate_ns3(&mut self, bytes: u32, now: SimTime) {
        let threshold = u64::from(self.cfg.dq_threshold_bytes);
        if self.occ.bytes >= threshold && !self.in_measurement {
            self.in_measurement = true;
            self.measurement_start = now;
            self.dq_count = 0;
        }
        if !self.in_measurement {
            return;
        }
        self.dq_count += u64::from(bytes);
        if self.dq_count < threshold {
            return;
        }
        let dq_time = (now - self.measurement_start).as_secs_f64();
        if dq_time > 0.0 {
            let rate = self.dq_count as f64 / dq_time;
            self.avg_dq_rate =
                if self.avg_dq_rate == 0.0 { rate } else { 0.5 * self.avg_dq_rate + 0.5 * rate };
        }
        // A new cycle only while more than the threshold is left.
        self.in_measurement = self.occ.bytes > threshold;
        self.measurement_start = now;
        self.dq_count = 0;
    }

    /// §5.2 (Appendix B `deque`): time to drain DQ_THRESHOLD bytes, smoothed with weight
    /// DQ_THRESHOLD / 2^16 (0.25 at 16 KiB). Linux uses 1/8 and ns-3 1/2 on a byte rate.
    fn estimate_departure_rate(&mut self, bytes: u32, now: SimTime) {
        let threshold = u64::from(self.cfg.dq_threshold_bytes);
        if self.in_measurement {
            self.dq_count += u64::from(bytes);
            if self.dq_count >= threshold {
                let dq_time = (now - self.measurement_start).as_secs_f64();
                if self.avg_dq_time == 0.0 {
                    self.avg_dq_time = dq_time;
                } else {
                    let w = (threshold as f64 / 65_536.0).min(1.0);
                    self.avg_dq_time = dq_time * w + self.avg_dq_time * (1.0 - w);
                }
                self.in_measurement = false;
            }
        }
        if self.occ.bytes >= threshold && !self.in_measurement {
            self.in_measurement = true;
            self.measurement_start = now;
            self.dq_count = 0;
        }
    }

    /// The queueing delay the controller acts on (§4.3).
    fn current_qdelay(&self) -> f64 {
        if !self.cfg.use_dequeue_rate_estimator {
            return self.sojourn;
        }
        match self.cfg.rules {
            // Little's law on the byte rate; no estimate yet reads as no delay.
            PieRules::Ns3 if self.avg_dq_rate > 0.0 => self.occ.bytes as f64 / self.avg_dq_rate,
            PieRules::Ns3 => 0.0,
            // Little's law: qdelay = queue bytes · avg_dq_time / DQ_THRESHOLD.
            PieRules::Rfc8033 if self.avg_dq_time > 0.0 => {
                self.occ.bytes as f64 * self.avg_dq_time / f64::from(self.cfg.dq_threshold_bytes)
            }
            PieRules::Rfc8033 => self.sojourn,
        }
    }

    /// Everything an update reads or writes, to detect a fixed point.
    fn control_state(&self) -> (f64, f64, SimDuration, BurstState, u32, f64) {
        (
            self.drop_prob,
            self.qdelay_old,
            self.burst_allowance,
            self.burst_state,
            self.burst_quiet_updates,
            self.avg_dq_rate,
        )
    }

    /// Applies every update period due by `now` (see the module docs).
    fn catch_up(&mut self, now: SimTime) {
        while self.next_update <= now {
            let before = self.control_state();
            self.update_probability();
            self.next_update += self.tupdate;
            if before == self.control_state() && self.next_update <= now {
                // A fixed point: the remaining periods would change nothing.
                let t = self.tupdate.as_nanos();
                let k = (now.as_nanos() - self.next_update.as_nanos()) / t + 1;
                self.next_update += self.tupdate.mul(k);
                self.stats.updates += k;
            }
        }
    }

    /// §4.2 (Appendix A `calculate_drop_prob`), run every T_UPDATE.
    fn update_probability(&mut self) {
        self.stats.updates += 1;
        let qdelay = self.current_qdelay();
        let target = self.target_s;
        let ns3 = self.cfg.rules == PieRules::Ns3;
        // ns-3 (§4.4 as ported from ns-2): while burst allowance is left, p is held at 0.
        let held = ns3 && self.burst_allowance > SimDuration::ZERO;
        if held {
            self.drop_prob = 0.0;
        }
        // §4.2: p = α·(qdelay − QDELAY_REF) + β·(qdelay − qdelay_old).
        let mut p = self.cfg.alpha * (qdelay - target) + self.cfg.beta * (qdelay - self.qdelay_old);
        // §4.2 auto-tuning: scale the step down while the probability is small.
        let dp = self.drop_prob;
        p /= if dp < 0.000_001 {
            2048.0
        } else if dp < 0.000_01 {
            512.0
        } else if dp < 0.000_1 {
            128.0
        } else if dp < 0.001 {
            32.0
        } else if dp < 0.01 {
            8.0
        } else if dp < 0.1 {
            2.0
        } else {
            1.0
        };
        // §5.5 cap drop adjustment: at most +2 % per update once p ≥ 10 %.
        if dp >= 0.1 && p > 0.02 {
            p = 0.02;
        }
        if held {
            p = 0.0;
        }
        let mut prob = dp + p;
        // §4.2: decay exponentially while the queue stays idle. The RFC text, Linux and
        // ns-3 test qdelay == 0 and qdelay_old == 0 (Appendix B tests < QDELAY_REF/2).
        if qdelay == 0.0 && self.qdelay_old == 0.0 {
            prob *= 0.98;
        }
        self.drop_prob = prob.clamp(0.0, 1.0);
        // §4.4: the allowance runs down by T_UPDATE per update.
        self.burst_allowance =
            SimDuration(self.burst_allowance.as_nanos().saturating_sub(self.tupdate.as_nanos()));
        let quiet = self.drop_prob == 0.0 && qdelay < target / 2.0 && self.qdelay_old < target / 2.0;
        if !ns3 {
            // RFC: restored in full once p is 0 and both delays are below half the target.
            if quiet {
                self.burst_allowance = self.max_burst;
            }
        } else {
            // ns-3: a quiet queue forgets its departure rate (unless none was measured) ...
            if quiet && self.cfg.use_dequeue_rate_estimator && self.avg_dq_rate > 0.0 {
                self.avg_dq_rate = 0.0;
            }
            // ... and 1.5 s of quiet updates after the allowance ran out end the protection.
            if quiet && self.burst_allowance == SimDuration::ZERO {
                match self.burst_state {
                    BurstState::Protecting => {
                        self.burst_state = BurstState::Quiet;
                        self.burst_quiet_updates = 0;
                    }
                    BurstState::Quiet => {
                        self.burst_quiet_updates += 1;
                        if self.burst_quiet_updates > self.burst_reset_limit {
                            self.burst_quiet_updates = 0;
                            self.burst_state = BurstState::NoBurst;
                        }
                    }
                    BurstState::NoBurst => {}
                }
            } else if self.burst_state == BurstState::Quiet {
                self.burst_quiet_updates = 0;
            }
        }
        self.qdelay_old = qdelay;
    }

    pub fn occupancy(&self) -> Occupancy {
        self.occ
    }

    pub fn limit(&self) -> QueueLimit {
        self.cfg.limit
    }

    pub fn stats(&self) -> PieStats {
        self.stats
    }

    /// The current drop probability.
    pub fn drop_prob(&self) -> f64 {
        self.drop_prob
    }

    /// Remaining burst allowance, seconds.
    pub fn burst_allowance_s(&self) -> f64 {
        self.burst_allowance.as_secs_f64()
    }
}

impl QueueDisc for Pie {
    fn enqueue(&mut self, item: QItem, cx: &mut QdiscCtx) -> bool {
        Pie::enqueue(self, item, cx)
    }
    fn dequeue(&mut self, cx: &mut QdiscCtx) -> Option<QItem> {
        Pie::dequeue(self, cx.now)
    }
    fn occupancy(&self) -> Occupancy {
        self.occ
    }
    fn limit(&self) -> QueueLimit {
        self.cfg.limit
    }
    /// The drop probability as of the last packet event (updates are applied lazily).
    fn series(&self) -> Vec<SeriesInfo> {
        vec![SeriesInfo::new("pie.p", "PIE drop probability", "probability", "aqm")]
    }
    fn sample_series(&self, out: &mut Vec<f64>) {
        out.push(self.drop_prob);
    }
    /// The updates due by `now` run with the old parameters; then target, T_UPDATE, α, β
    /// and the burst allowance apply, and the drop probability, the burst state and the
    /// departure-rate estimate carry over. Which rules PIE follows cannot change.
    fn retune(&mut self, cfg: &dyn Any, _link_rate: Rate, now: SimTime) -> Result<(), String> {
        self.cfg.retune_check(cfg)?;
        let cfg: &PieConfig = config_of(cfg)?;
        self.catch_up(now);
        let fresh = Pie::new(cfg, self.rng.clone());
        (self.target_s, self.tupdate, self.max_burst) = (fresh.target_s, fresh.tupdate, fresh.max_burst);
        self.burst_reset_limit = fresh.burst_reset_limit;
        self.cfg = fresh.cfg;
        Ok(())
    }
}

#[cfg(test)]
#[path = "pie_tests.rs"]
mod tests;
