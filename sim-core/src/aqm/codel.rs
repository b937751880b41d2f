//! CoDel, Controlled Delay (RFC 8289): drops at dequeue once the sojourn time of packets has
//! stayed above `target` for a whole `interval`, then spaces drops by interval/√count.
//!
//! The state machine is [`CodelState`], kept apart from the queue so FQ-CoDel can run one per
//! flow queue. It follows the RFC's pseudo-code (§5), which is Linux's `codel_dequeue`
//! (`include/net/codel_impl.h`); where ns-3 or Linux differ the choice is noted below:
//! - control law: exact `interval / sqrt(count)` (RFC §5.6); Linux and ns-3 use a fixed-point
//!   Newton approximation of 1/√count.
//! - ok-to-drop: `now >= first_above_time` (RFC §5.4); Linux and ns-3 test strictly after.
//! - MTU rule: no drop while the backlog is ≤ `mtu_bytes` (RFC §5.4 `bytes() <= MAXPACKET`,
//!   Linux `backlog <= mtu`); ns-3 tests `bytes < MinBytes` with MinBytes = 1500.
//! - time in nanoseconds; Linux and ns-3 count in 1.024 µs units.
//!
//! ECN (Linux `codel_dequeue`, ns-3.44 `CoDelQueueDisc::DoDequeue` with `UseEcn`): where the
//! control law would drop an ECN-capable packet it marks it CE and sends it; the count and
//! the next signal's time move as for a drop. `ce_threshold_ms` (Linux `ce_threshold`, ns-3
//! `CeThreshold`) marks every ECN-capable packet whose sojourn exceeds it, a step for DCTCP
//! whatever the control law does.

use super::{BuildCx, DiscConfig, DropReason, Occupancy, QItem, QdiscCtx, QueueDisc, QueueLimit};
use crate::params::{fmt_num, Algorithm, Checker, Described, Field, Kind, Range};
use crate::queue::config_of;
use crate::time::{Rate, SimDuration, SimTime};
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::collections::VecDeque;

/// CoDel parameters. Defaults are Linux `sch_codel`'s: 1000-packet limit (ns-3.44's
/// `CoDelQueueDisc` defaults to 1 500 000 bytes), target 5 ms, interval 100 ms, MTU 1514
/// bytes (Linux `psched_mtu` of an Ethernet device; ns-3.44's `MinBytes` is 1500), no ECN
/// (Linux and ns-3.44 alike).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CodelConfig {
    /// Hard buffer limit; arrivals beyond it are tail-dropped (DropReason::Overflow).
    pub limit: QueueLimit,
    /// Acceptable standing queue delay, ms (RFC 8289 §4.4).
    pub target_ms: f64,
    /// Sliding window over which the minimum sojourn must exceed target, ms (RFC 8289 §4.3).
    pub interval_ms: f64,
    /// No drop while the queue holds at most this many bytes (RFC 8289 §5.4 MAXPACKET).
    pub mtu_bytes: u32,
    /// Mark ECN-capable packets CE instead of dropping them (Linux `ecn`, ns-3 `UseEcn`).
    pub ecn: bool,
    /// Mark every ECN-capable packet that waited longer than this, ms; `None` = off (Linux
    /// `ce_threshold`, ns-3 `CeThreshold`).
    pub ce_threshold_ms: Option<f64>,
}

impl Default for CodelConfig {
    fn default() -> Self {
        CodelConfig {
            limit: QueueLimit::Packets(1000),
            target_ms: 5.0,
            interval_ms: 100.0,
            mtu_bytes: 1514,
            ecn: false,
            ce_threshold_ms: None,
        }
    }
}

/// Target and interval as CoDel and FQ-CoDel describe them (RFC 8289 §4.3-§4.4).
pub const TARGET_MS: Field = Field::new(
    "target_ms",
    "Target",
    "ms",
    Kind::Float(Range::closed(0.001, 60_000.0)),
    "Acceptable standing queue delay (RFC 8289: 5 ms); less than the interval.",
);
pub const INTERVAL_MS: Field = Field::new(
    "interval_ms",
    "Interval",
    "ms",
    Kind::Float(Range::closed(0.001, 60_000.0)),
    "Sojourn must stay above target this long before dropping starts (100 ms).",
);
pub const MTU_BYTES: Field = Field::new(
    "mtu_bytes",
    "MTU",
    "bytes",
    Kind::Int(Range::closed(64.0, 65_535.0)),
    "No drop while at most this many bytes are queued (Linux: 1514, an Ethernet MTU; ns-3.44's MinBytes: 1500).",
);

/// Marking instead of dropping, as CoDel and FQ-CoDel describe it.
pub const ECN: Field = Field::new(
    "ecn",
    "ECN",
    "",
    Kind::Bool,
    "Mark ECN-capable packets CE where the control law would drop them (CoDel: off; FQ-CoDel: on, as Linux and ns-3.44).",
);
pub const CE_THRESHOLD_MS: Field = Field::new(
    "ce_threshold_ms",
    "CE threshold",
    "ms",
    Kind::OptFloat(Range::closed(0.0, 60_000.0)),
    "Mark every ECN-capable packet that waited longer than this (a step for DCTCP); empty = off.",
);

/// RFC 8289 §4.4: the target is a fraction of the interval (5-10 %), never above it.
pub fn check_target_below_interval(c: &mut Checker, target_ms: f64, interval_ms: f64) {
    if target_ms.is_finite() && interval_ms.is_finite() && target_ms >= interval_ms {
        c.push(
            "target_ms",
            fmt_num(target_ms),
            format!("more than 0, less than interval_ms = {} ms", fmt_num(interval_ms)),
        );
    }
}

impl Described for CodelConfig {
    const INFO: Algorithm = Algorithm {
        tag: "codel",
        label: "CoDel",
        help: "Controlled Delay (RFC 8289): drops at dequeue once the sojourn time stays above target for an interval.",
        fields: &[
            Field::new("limit", "Buffer", "", Kind::Limit, "Hard limit; arrivals beyond it are tail-dropped."),
            TARGET_MS,
            INTERVAL_MS,
            MTU_BYTES,
            ECN,
            CE_THRESHOLD_MS,
        ],
        flavours: &[],
    };

    fn check_more(&self, c: &mut Checker) {
        check_target_below_interval(c, self.target_ms, self.interval_ms);
    }
}

impl DiscConfig for CodelConfig {
    fn build(&self, _cx: BuildCx) -> Box<dyn QueueDisc> {
        Box::new(Codel::new(self))
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
    fn retune_check(&self, new: &dyn Any) -> Result<(), String> {
        self.limit.check_change(&config_of::<CodelConfig>(new)?.limit)
    }
}

/// What the state machine needs, in simulator units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodelParams {
    pub target: SimDuration,
    pub interval: SimDuration,
    pub mtu_bytes: u64,
    /// Mark instead of drop where the packet can be marked.
    pub ecn: bool,
    /// Mark what waited longer than this.
    pub ce_threshold: Option<SimDuration>,
}

impl CodelParams {
    pub fn new(target_ms: f64, interval_ms: f64, mtu_bytes: u32) -> CodelParams {
        CodelParams {
            target: SimDuration::from_secs_f64(target_ms / 1e3),
            interval: SimDuration::from_secs_f64(interval_ms / 1e3),
            mtu_bytes: u64::from(mtu_bytes),
            ecn: false,
            ce_threshold: None,
        }
    }

    /// With ECN marking and an optional CE threshold, ms.
    pub fn with_ecn(self, ecn: bool, ce_threshold_ms: Option<f64>) -> CodelParams {
        let ce_threshold = ce_threshold_ms.map(|ms| SimDuration::from_secs_f64(ms / 1e3));
        CodelParams { ecn, ce_threshold, ..self }
    }

    fn of(cfg: &CodelConfig) -> CodelParams {
        CodelParams::new(cfg.target_ms, cfg.interval_ms, cfg.mtu_bytes).with_ecn(cfg.ecn, cfg.ce_threshold_ms)
    }
}

/// What CoDel needs from the queue it controls.
pub trait CodelQueue {
    /// Removes the head packet (updating every byte and packet count).
    fn pop_head(&mut self) -> Option<QItem>;
    /// Bytes the MTU rule compares, read right after a pop (RFC 8289 §5.4 `bytes()`).
    fn backlog_bytes(&self) -> u64;
}

/// CoDel's per-queue variables (RFC 8289 §5.3; Linux `struct codel_vars`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CodelState {
    /// Drops since entering the dropping state, plus any carried-over count (§5.5).
    count: u32,
    /// `count` when the dropping state was last entered.
    lastcount: u32,
    dropping: bool,
    /// When the sojourn will have been above target for an interval; `None` = not above.
    first_above_time: Option<SimTime>,
    /// Time of the next scheduled drop while dropping.
    drop_next: SimTime,
    /// Sojourn time of the last packet examined.
    ldelay: SimDuration,
}

impl CodelState {
    pub fn count(&self) -> u32 {
        self.count
    }

    pub fn is_dropping(&self) -> bool {
        self.dropping
    }

    /// Sojourn time of the last packet dequeued or dropped.
    pub fn last_sojourn(&self) -> SimDuration {
        self.ldelay
    }

    /// Adds drops made outside the control law (FQ-CoDel's overflow batch, Linux
    /// `fq_codel_drop`: "tell codel to increase its signal strength also").
    pub fn add_to_count(&mut self, n: u32) {
        self.count = self.count.saturating_add(n);
    }

    /// RFC 8289 §5.6: next drop time = t + interval / √count.
    fn control_law(t: SimTime, interval: SimDuration, count: u32) -> SimTime {
        let gap = interval.as_nanos() as f64 / f64::from(count.max(1)).sqrt();
        t + SimDuration(gap as u64)
    }

    /// Pops the head and decides whether it may be dropped (RFC 8289 §5.4 `dodequeue`).
    fn pop_and_check<Q: CodelQueue>(
        &mut self,
        p: &CodelParams,
        q: &mut Q,
        now: SimTime,
    ) -> (Option<QItem>, bool) {
        let Some(item) = q.pop_head() else {
            // Empty queue: we cannot be above target.
            self.first_above_time = None;
            return (None, false);
        };
        self.ldelay = now.saturating_sub(item.enqueued_at);
        // Below target, or at most one MTU queued (§5.4): stay below for at least an interval.
        if self.ldelay < p.target || q.backlog_bytes() <= p.mtu_bytes {
            self.first_above_time = None;
            return (Some(item), false);
        }
        match self.first_above_time {
            // Just went above from below: ok to drop if still above one interval from now.
            None => {
                self.first_above_time = Some(now + p.interval);
                (Some(item), false)
            }
            Some(t) => (Some(item), now >= t),
        }
    }

    /// Dequeues the next packet to send, dropping from the head as the control law says
    /// (RFC 8289 §5.5 `dequeue`). Each dropped packet goes to `on_drop`.
    pub fn dequeue<Q: CodelQueue>(
        &mut self,
        p: &CodelParams,
        q: &mut Q,
        now: SimTime,
        on_drop: &mut impl FnMut(QItem),
    ) -> Option<QItem> {
        let (mut item, ok_to_drop) = self.pop_and_check(p, q, now);
        if item.is_none() {
            self.dropping = false;
            return None;
        }
        if self.dropping {
            if !ok_to_drop {
                // Sojourn time below target: leave the dropping state.
                self.dropping = false;
            }
            // Time for the next drop(s); a large backlog may make the next one due now too.
            while self.dropping && now >= self.drop_next {
                self.count = self.count.saturating_add(1);
                // ECN: mark this one in place of the drop and schedule the next signal.
                if p.ecn && item.as_mut().is_some_and(|it| it.mark(DropReason::Early)) {
                    self.drop_next = Self::control_law(self.drop_next, p.interval, self.count);
                    break;
                }
                on_drop(item.take().expect("a packet to drop"));
                let (next, ok) = self.pop_and_check(p, q, now);
                item = next;
                if !ok {
                    self.dropping = false;
                } else {
                    self.drop_next = Self::control_law(self.drop_next, p.interval, self.count);
                }
            }
        } else if ok_to_drop {
            // Above target for a whole interval: drop (or mark) and enter the dropping state.
            if !(p.ecn && item.as_mut().is_some_and(|it| it.mark(DropReason::Early))) {
                on_drop(item.take().expect("a packet to drop"));
                (item, _) = self.pop_and_check(p, q, now);
            }
            self.dropping = true;
            // §5.5 (Linux version): re-entering soon after the last dropping period, resume
            // from the drop rate that controlled the queue then. `now - drop_next` is signed.
            let delta = self.count.saturating_sub(self.lastcount);
            let recent = now < self.drop_next || now - self.drop_next < p.interval.mul(16);
            self.count = if delta > 1 && recent { delta } else { 1 };
            self.lastcount = self.count;
            self.drop_next = Self::control_law(now, p.interval, self.count);
        }
        // The step: whatever the control law did, what waited too long is marked.
        if let (Some(it), Some(th)) = (item.as_mut(), p.ce_threshold) {
            if self.ldelay > th {
                it.mark(DropReason::Threshold);
            }
        }
        item
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CodelStats {
    /// Control-law drops at dequeue (reported as [`DropReason::Early`]).
    pub early: u64,
    /// Arrivals refused by the hard limit.
    pub overflow: u64,
}

/// A FIFO of packets and its exact occupancy.
#[derive(Clone, Debug, Default)]
pub(crate) struct PacketFifo {
    pub q: VecDeque<QItem>,
    pub occ: Occupancy,
}

/// A FIFO as CoDel sees it; `limit` converts bytes to cells.
struct FifoView<'a> {
    fifo: &'a mut PacketFifo,
    limit: QueueLimit,
}

impl CodelQueue for FifoView<'_> {
    fn pop_head(&mut self) -> Option<QItem> {
        let it = self.fifo.q.pop_front()?;
        self.fifo.occ.remove(it.bytes, self.limit.cells_of(it.bytes));
        Some(it)
    }
    fn backlog_bytes(&self) -> u64 {
        self.fifo.occ.bytes
    }
}

/// The CoDel queue disc: one FIFO, tail drop at the limit, CoDel at dequeue.
#[derive(Clone, Debug)]
pub struct Codel {
    cfg: CodelConfig,
    params: CodelParams,
    fifo: PacketFifo,
    state: CodelState,
    stats: CodelStats,
}

impl Codel {
    pub fn new(cfg: &CodelConfig) -> Codel {
        Codel {
            cfg: cfg.clone(),
            params: CodelParams::of(cfg),
            fifo: PacketFifo::default(),
            state: CodelState::default(),
            stats: CodelStats::default(),
        }
    }

    pub fn enqueue(&mut self, item: QItem, cx: &mut QdiscCtx) -> bool {
        if !self.cfg.limit.admits(&self.fifo.occ, item.bytes) {
            self.stats.overflow += 1;
            cx.drop(item, DropReason::Overflow, false);
            return false;
        }
        self.fifo.occ.add(item.bytes, self.cfg.limit.cells_of(item.bytes));
        self.fifo.q.push_back(item);
        true
    }

    pub fn dequeue(&mut self, cx: &mut QdiscCtx) -> Option<QItem> {
        let now = cx.now;
        let mut view = FifoView { fifo: &mut self.fifo, limit: self.cfg.limit };
        let stats = &mut self.stats;
        self.state.dequeue(&self.params, &mut view, now, &mut |it| {
            stats.early += 1;
            cx.drop(it, DropReason::Early, true);
        })
    }

    pub fn occupancy(&self) -> Occupancy {
        self.fifo.occ
    }

    pub fn limit(&self) -> QueueLimit {
        self.cfg.limit
    }

    pub fn stats(&self) -> CodelStats {
        self.stats
    }

    pub fn state(&self) -> &CodelState {
        &self.state
    }
}

impl QueueDisc for Codel {
    fn enqueue(&mut self, item: QItem, cx: &mut QdiscCtx) -> bool {
        Codel::enqueue(self, item, cx)
    }
    fn dequeue(&mut self, cx: &mut QdiscCtx) -> Option<QItem> {
        Codel::dequeue(self, cx)
    }
    fn occupancy(&self) -> Occupancy {
        self.fifo.occ
    }
    fn limit(&self) -> QueueLimit {
        self.cfg.limit
    }
    /// New target, interval and MTU rule apply from the next dequeue; the dropping state
    /// and its count carry over (Linux's `codel_change` keeps `codel_vars`).
    fn retune(&mut self, cfg: &dyn Any, _link_rate: Rate, _now: SimTime) -> Result<(), String> {
        self.cfg.retune_check(cfg)?;
        let cfg: &CodelConfig = config_of(cfg)?;
        self.params = CodelParams::of(cfg);
        self.cfg = cfg.clone();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::Ecn;
    use crate::rng::{SimRng, StreamId};

    const MS: u64 = 1_000_000;

    /// An endless queue whose head has a chosen sojourn time and backlog.
    struct Mock {
        now: SimTime,
        sojourn: SimDuration,
        backlog: u64,
        next_id: u32,
        ecn: Ecn,
    }

    impl CodelQueue for Mock {
        fn pop_head(&mut self) -> Option<QItem> {
            self.next_id += 1;
            let enqueued_at = SimTime(self.now.0.saturating_sub(self.sojourn.0));
            Some(QItem { id: self.next_id, bytes: 1000, enqueued_at, ecn: self.ecn, ..QItem::default() })
        }
        fn backlog_bytes(&self) -> u64 {
            self.backlog
        }
    }

    fn mock() -> Mock {
        Mock {
            now: SimTime::ZERO,
            sojourn: SimDuration::ZERO,
            backlog: 100_000,
            next_id: 0,
            ecn: Ecn::NotEct,
        }
    }

    fn params() -> CodelParams {
        let c = CodelConfig::default();
        CodelParams::new(c.target_ms, c.interval_ms, c.mtu_bytes)
    }

    /// Dequeues once at `t_ns` with the head's sojourn `sojourn_ns`; returns the drops made.
    fn step(s: &mut CodelState, q: &mut Mock, t_ns: u64, sojourn_ns: u64) -> usize {
        q.now = SimTime(t_ns);
        q.sojourn = SimDuration(sojourn_ns);
        let mut drops = 0;
        let out = s.dequeue(&params(), q, q.now, &mut |_| drops += 1);
        assert!(out.is_some());
        drops
    }

    #[test]
    fn codel_enters_dropping_only_after_interval_above_target() {
        // Above target for 90 ms, one packet below target, above again for 90 ms: no drop.
        let (mut s, mut q) = (CodelState::default(), mock());
        for t in 10..=190u64 {
            let sojourn = if t == 100 { MS } else { 20 * MS };
            assert_eq!(step(&mut s, &mut q, t * MS, sojourn), 0, "dropped at {t} ms");
        }
        assert!(!s.is_dropping());
        // Persistently above from t = 10 ms: the first drop comes exactly one interval later.
        let (mut s, mut q) = (CodelState::default(), mock());
        let mut first = None;
        for t in 10..=300u64 {
            if step(&mut s, &mut q, t * MS, 20 * MS) > 0 && first.is_none() {
                first = Some(t);
            }
        }
        assert_eq!(first, Some(110));
        assert!(s.is_dropping());
    }

    #[test]
    fn codel_drop_spacing_follows_interval_over_sqrt_count() {
        let (mut s, mut q) = (CodelState::default(), mock());
        let tick = 10_000; // dequeue every 10 µs
        let mut drop_times = Vec::new();
        let mut t = 0;
        while t < 3_000 * MS {
            if step(&mut s, &mut q, t, 20 * MS) > 0 {
                drop_times.push(t);
            }
            t += tick;
        }
        assert!(drop_times.len() > 20);
        // Drop n+1 follows drop n by interval/√n (scheduled from drop_next, so no drift).
        let interval = 100.0 * MS as f64;
        let mut scheduled = drop_times[0] as f64;
        for (n, &d) in drop_times.iter().enumerate().skip(1) {
            scheduled += interval / (n as f64).sqrt();
            // Each control-law gap is truncated to whole ns: allow 1 ns per drop.
            assert!((d as f64 - scheduled).abs() <= (tick + n as u64) as f64, "drop {n}: {d} vs {scheduled}");
        }
        assert_eq!(s.count() as usize, drop_times.len());
    }

    /// Dequeues every 10 µs for 3 s with the head 20 ms old; returns (signal times, the
    /// marks among the packets sent, drops).
    fn signals(p: &CodelParams, ecn: Ecn) -> (Vec<u64>, usize, usize) {
        let (mut s, mut q) = (CodelState::default(), mock());
        q.ecn = ecn;
        q.sojourn = SimDuration(20 * MS);
        let (mut times, mut marks, mut drops) = (Vec::new(), 0, 0);
        for t in (0..3_000 * MS).step_by(10_000) {
            q.now = SimTime(t);
            let mut dropped = 0;
            let now = q.now;
            let it = s.dequeue(p, &mut q, now, &mut |_| dropped += 1).unwrap();
            if dropped > 0 || it.marked.is_some() {
                times.push(t);
            }
            marks += usize::from(it.marked.is_some());
            drops += dropped;
        }
        (times, marks, drops)
    }

    #[test]
    fn with_ecn_the_control_law_marks_where_it_would_drop() {
        let ecn = params().with_ecn(true, None);
        let (dropped_at, _, drops) = signals(&params(), Ecn::Ect0);
        let (marked_at, marks, none) = signals(&ecn, Ecn::Ect0);
        assert_eq!((none, marks), (0, drops), "every drop became a mark");
        // Same count, same spacing: interval / √count from the first signal on.
        assert_eq!(marked_at, dropped_at);
        // A packet that cannot be marked is still dropped.
        let (_, marks, not_ect_drops) = signals(&ecn, Ecn::NotEct);
        assert_eq!((marks, not_ect_drops), (0, drops));
    }

    #[test]
    fn the_ce_threshold_marks_every_packet_that_waited_longer() {
        let p = params().with_ecn(false, Some(1.0));
        let (mut s, mut q) = (CodelState::default(), mock());
        (q.ecn, q.now) = (Ecn::Ect1, SimTime(10 * MS));
        for (sojourn_us, marked) in [(500, false), (1_000, false), (1_001, true), (3_000, true)] {
            q.sojourn = SimDuration(sojourn_us * 1_000);
            let it =
                s.dequeue(&p, &mut q, SimTime(10 * MS), &mut |_| panic!("no drop below target")).unwrap();
            assert_eq!(it.marked == Some(DropReason::Threshold), marked, "{sojourn_us} µs");
        }
        q.ecn = Ecn::NotEct;
        assert_eq!(s.dequeue(&p, &mut q, SimTime(10 * MS), &mut |_| ()).unwrap().marked, None);
    }

    #[test]
    fn codel_leaves_dropping_when_sojourn_falls_below_target() {
        let (mut s, mut q) = (CodelState::default(), mock());
        let mut t = 0;
        while !s.is_dropping() {
            t += MS;
            step(&mut s, &mut q, t, 20 * MS);
        }
        // Even with a drop due now, a head below target ends the dropping state without a drop.
        t += 200 * MS;
        assert_eq!(step(&mut s, &mut q, t, 4 * MS), 0);
        assert!(!s.is_dropping());
        // Back above target: another full interval must pass before dropping resumes.
        for k in 1..100 {
            assert_eq!(step(&mut s, &mut q, t + k * MS, 20 * MS), 0);
        }
        assert_eq!(step(&mut s, &mut q, t + 101 * MS, 20 * MS), 1);
    }

    #[test]
    fn codel_never_drops_with_at_most_one_mtu_queued() {
        let (mut s, mut q) = (CodelState::default(), mock());
        q.backlog = 1514;
        for t in 1..1000 {
            assert_eq!(step(&mut s, &mut q, t * MS, 500 * MS), 0);
        }
        q.backlog = 1515;
        let drops: usize = (1000..1200).map(|t| step(&mut s, &mut q, t * MS, 500 * MS)).sum();
        assert!(drops > 0);
    }

    /// Drives the state into dropping, makes `extra` more drops, then leaves it at `t`.
    fn drop_then_leave(s: &mut CodelState, q: &mut Mock, extra: u32) -> u64 {
        let mut t = 0;
        while !s.is_dropping() || s.count() < 1 + extra {
            t += MS;
            step(s, q, t, 20 * MS);
        }
        t += MS;
        step(s, q, t, 0);
        assert!(!s.is_dropping());
        t
    }

    #[test]
    fn codel_reentering_soon_after_leaving_resumes_from_count_minus_lastcount() {
        let (mut s, mut q) = (CodelState::default(), mock());
        let t = drop_then_leave(&mut s, &mut q, 5); // count 6, lastcount 1
        let mut k = t;
        while !s.is_dropping() {
            k += MS;
            step(&mut s, &mut q, k, 20 * MS);
        }
        assert_eq!(s.count(), 5);
    }

    #[test]
    fn codel_reentering_long_after_leaving_restarts_count_at_one() {
        let (mut s, mut q) = (CodelState::default(), mock());
        let t = drop_then_leave(&mut s, &mut q, 5);
        // More than 16 intervals after the last scheduled drop.
        let mut k = t + 2_000 * MS;
        while !s.is_dropping() {
            k += MS;
            step(&mut s, &mut q, k, 20 * MS);
        }
        assert_eq!(s.count(), 1);
    }

    fn item(id: u32, bytes: u32, t: SimTime) -> QItem {
        QItem { id, bytes, flow: id % 3, enqueued_at: t, conn: 0, ..QItem::default() }
    }

    #[test]
    fn codel_tail_drops_at_the_limit_and_head_drops_at_dequeue() {
        let cfg = CodelConfig { limit: QueueLimit::Packets(3), ..CodelConfig::default() };
        let mut c = Codel::new(&cfg);
        let mut drops = Vec::new();
        let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
        for id in 0..4 {
            c.enqueue(item(id, 1000, SimTime::ZERO), &mut cx);
        }
        assert_eq!(drops.len(), 1);
        assert_eq!(
            (drops[0].item.id, drops[0].reason, drops[0].was_queued),
            (3, DropReason::Overflow, false)
        );
        assert_eq!(c.occupancy().packets, 3);
    }

    #[test]
    fn codel_occupancy_is_conserved_under_random_load() {
        let limit = QueueLimit::Cells { cells: 400, cell_bytes: 80 };
        let mut c = Codel::new(&CodelConfig { limit, ..CodelConfig::default() });
        let mut rng = SimRng::new(3, StreamId::Other(0));
        let (mut accepted, mut sent, mut head_drops) = (0u64, 0u64, 0u64);
        let mut drops = Vec::new();
        for i in 0..200_000u64 {
            let now = SimTime(i * 100_000); // 0.1 ms steps
            let mut cx = QdiscCtx::new(now, &mut drops);
            // Arrivals slightly faster than service on average: a standing queue builds.
            if rng.uniform() < 0.55 {
                let bytes = 64 + rng.below(1450) as u32;
                accepted += u64::from(c.enqueue(item(i as u32, bytes, now), &mut cx));
            }
            if rng.uniform() < 0.5 && c.dequeue(&mut cx).is_some() {
                sent += 1;
            }
            head_drops += drops.iter().filter(|d| d.was_queued).count() as u64;
            drops.clear();
            let o = c.occupancy();
            let (b, cells) = c
                .fifo
                .q
                .iter()
                .fold((0, 0), |(b, k), i| (b + u64::from(i.bytes), k + limit.cells_of(i.bytes)));
            assert_eq!((o.packets as usize, o.bytes, o.cells), (c.fifo.q.len(), b, cells));
            assert!(o.cells <= 400);
        }
        assert_eq!(accepted, sent + head_drops + u64::from(c.occupancy().packets));
        assert!(head_drops > 0 && c.stats().early == head_drops);
    }
}
