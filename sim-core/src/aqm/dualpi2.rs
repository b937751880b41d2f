//! DualPI2, the dual-queue coupled AQM of L4S (RFC 9332), as Linux's `sch_dualpi2` runs it
//! (mainline since 6.17; the L4S team's tree before).
//!
//! Two FIFOs share one buffer: packets whose ECN field has its low bit set (ECT(1), CE: the
//! L4S identifier of RFC 9331) wait in the L queue, every other packet in the C queue
//! (§2.3). One PI controller on the larger head-of-queue delay sets a base probability p'
//! every Tupdate (§A.1 Fig. 6, §A.2 Fig. 8):
//!
//! `p' ← p' + α·(qdelay − target) + β·(qdelay − qdelay_old)`, clamped to [0, 1],
//!
//! with α and β in Hz and the delays in seconds (Linux `calculate_probability`: 10 ms above
//! target adds 0.0016 per 16 ms update). The coupling (§2.4, eqs. 2-4) then gives
//! - the C queue p_C = p'², a drop, or a mark for an ECN-capable packet (two rolls of p',
//!   Linux `dualpi2_classic_marking`);
//! - the L queue p_CL = k·p' as marks, and its own step: every L packet that waited more
//!   than 1 ms is marked (Linux `do_step_aqm`), so p_L = max(p_CL, step).
//!
//! Where Linux decides, this follows it:
//! - every decision is made at dequeue (`drop_early` off), on the packet just taken; a
//!   dropped packet is followed by the next one;
//! - no coupled or classic signal while less than two MTUs stay queued in both queues
//!   (Linux `must_drop`); the step does not wait for that;
//! - overload (k·p' > 1, so p_C > 25 %, RFC 9332 §4.2.3): with `drop_overload` the C queue
//!   drops even ECN-capable packets with p_C and the L queue drops with p_C and marks the
//!   rest; without it p' stops at 1/k and the queues grow to the buffer;
//! - the queues are served by Linux's weighted credit scheduler: the C queue gets
//!   `c_protection_pct` (10 %) of the bytes while both are backlogged, so a stream of L
//!   packets cannot starve it (RFC 9332 §4.2.2 asks for this; its time-shifted FIFO is not
//!   modelled);
//! - the probability update runs lazily on the grid k·Tupdate from time zero, as PIE's does
//!   here (`pie.rs`): each update reads the head packets' ages at its own time, which only
//!   packet events change, so the result is the timer's.
//!
//! Not modelled: Linux's memory limit (the packet limit binds first), GSO splitting and the
//! tc-filter classes.

use super::{BuildCx, DiscConfig, DropReason, Occupancy, QItem, QdiscCtx, QueueDisc, QueueLimit};
use crate::net::Ecn;
use crate::params::{Algorithm, Checker, Described, Field, Kind, Range};
use crate::queue::config_of;
use crate::rng::SimRng;
use crate::time::{Rate, SimDuration, SimTime};
use crate::trace::SeriesInfo;
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::collections::VecDeque;

/// Which packets the L queue takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum L4sId {
    /// ECT(1) and CE, the L4S identifier (RFC 9331; Linux `ecn_mask` l4s_ect).
    Ect1,
    /// Every ECN-capable packet (Linux `any_ect`: DCTCP's ECT(0) too).
    AnyEct,
}

/// DualPI2 parameters; defaults are Linux `dualpi2_reset_default`'s.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DualPi2Config {
    /// Buffer shared by both queues (10 000 packets: 125 ms at 1 Gbit/s).
    pub limit: QueueLimit,
    /// The PI controller's target delay, ms (15).
    pub target_ms: f64,
    /// Period of the probability update, ms (16).
    pub tupdate_ms: f64,
    /// Integral gain, Hz (0.16: RFC 9332 §A.1, 0.1·Tupdate / RTT_max² with RTT_max 100 ms).
    pub alpha: f64,
    /// Proportional gain, Hz (3.2: 0.3 / RTT_max).
    pub beta: f64,
    /// The L queue's step: a packet that waited longer is marked, ms (1).
    pub step_ms: f64,
    /// The step applies only to packets that found at least this many L packets queued
    /// (mainline 0; the L4S team's tree 2).
    pub min_qlen_step: u32,
    /// k: p_CL = k·p' (2: window fairness between Prague and CUBIC at equal RTTs).
    pub coupling: f64,
    /// The C queue's share of the bytes while both queues wait, % (Linux `c_protection` 10).
    pub c_protection_pct: u32,
    /// On overload (k·p' > 1) drop ECN-capable packets with p_C (true, Linux's default);
    /// false = mark everything and let the queues grow to the buffer.
    pub drop_overload: bool,
    /// Bytes of one MTU: the no-signal floor (two of them) and the scheduler's credit.
    pub mtu_bytes: u32,
    /// Which packets are L4S.
    pub l4s_id: L4sId,
}

impl Default for DualPi2Config {
    fn default() -> Self {
        DualPi2Config {
            limit: QueueLimit::Packets(10_000),
            target_ms: 15.0,
            tupdate_ms: 16.0,
            alpha: 0.16,
            beta: 3.2,
            step_ms: 1.0,
            min_qlen_step: 0,
            coupling: 2.0,
            c_protection_pct: 10,
            drop_overload: true,
            mtu_bytes: 1514,
            l4s_id: L4sId::Ect1,
        }
    }
}

impl Described for DualPi2Config {
    const INFO: Algorithm = Algorithm {
        tag: "dualpi2",
        label: "DualPI2 (L4S)",
        help: "Dual-queue coupled AQM (RFC 9332, Linux sch_dualpi2): L4S packets (ECT(1)) in a shallow queue marked at 1 ms and with k·p', classic ones in a PI2 queue dropped or marked with p'².",
        fields: &[
            Field::new("limit", "Buffer", "", Kind::Limit, "Shared by both queues; arrivals beyond it are tail-dropped (Linux: 10 000 packets)."),
            Field::new("target_ms", "Target", "ms", Kind::Float(Range::closed(0.001, 60_000.0)), "Queueing delay the PI controller steers the larger head delay towards (15 ms)."),
            Field::new("tupdate_ms", "Update period", "ms", Kind::Float(Range::closed(0.001, 60_000.0)), "How often p' is recomputed (16 ms)."),
            Field::new("alpha", "α", "Hz", Kind::Float(Range::closed(0.0, 1_000.0)), "Gain on the distance from target (0.16)."),
            Field::new("beta", "β", "Hz", Kind::Float(Range::closed(0.0, 1_000.0)), "Gain on the delay trend (3.2)."),
            Field::new("step_ms", "L4S step", "ms", Kind::Float(Range::closed(0.0, 60_000.0)), "An L packet that waited longer is marked (1 ms)."),
            Field::new("min_qlen_step", "Step from", "packets", Kind::Int(Range::closed(0.0, 1e6)), "The step marks only packets that found this many L packets queued (mainline Linux 0, the L4S team's 2)."),
            Field::new("coupling", "Coupling k", "", Kind::Float(Range::closed(0.1, 100.0)), "L marking p_CL = k·p' against classic p_C = p'² (2)."),
            Field::new("c_protection_pct", "C share", "%", Kind::Int(Range::closed(0.0, 100.0)), "The classic queue's share of the link while both queues wait (10 %)."),
            Field::new("drop_overload", "Drop on overload", "", Kind::Bool, "When p_C passes 25 % drop even ECN-capable packets (on); off = mark and let the queues grow."),
            Field::new("mtu_bytes", "MTU", "bytes", Kind::Int(Range::closed(64.0, 65_535.0)), "No coupled signal while under two MTUs are queued; the scheduler's credit unit (1514)."),
            Field::new("l4s_id", "L4S packets", "", Kind::Choice(&[("ect1", "ECT(1) and CE"), ("any_ect", "any ECT")]), "Which packets the L queue takes (RFC 9331: ECT(1) and CE)."),
        ],
        flavours: &[],
    };

    fn check_more(&self, c: &mut Checker) {
        if self.step_ms.is_finite() && self.target_ms.is_finite() && self.step_ms >= self.target_ms {
            c.push(
                "step_ms",
                crate::params::fmt_num(self.step_ms),
                format!("below the target of {} ms", crate::params::fmt_num(self.target_ms)),
            );
        }
    }
}

impl DiscConfig for DualPi2Config {
    fn build(&self, cx: BuildCx) -> Box<dyn QueueDisc> {
        Box::new(DualPi2::new(self, cx.rng))
    }
    fn limit(&self) -> QueueLimit {
        self.limit
    }
    fn set_limit(&mut self, limit: QueueLimit, _packet_bytes: u32) {
        self.limit = limit;
    }
    fn delay_target_ms(&self) -> Option<f64> {
        Some(self.target_ms)
    }
    /// Which packets are L4S cannot change under queued packets.
    fn retune_check(&self, new: &dyn Any) -> Result<(), String> {
        let new: &DualPi2Config = config_of(new)?;
        self.limit.check_change(&new.limit)?;
        if new.l4s_id != self.l4s_id {
            return Err("l4s_id: which packets are L4S cannot change during a run".into());
        }
        Ok(())
    }
}

/// An L packet and whether the step may mark it (decided as it arrived).
#[derive(Clone, Copy, Debug)]
struct LItem {
    item: QItem,
    apply_step: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DualPi2Stats {
    /// Packets that entered each queue.
    pub l_packets: u64,
    pub c_packets: u64,
    /// Marks by the step, and by the coupled or classic probability.
    pub step_marks: u64,
    pub prob_marks: u64,
    /// Drops at dequeue by the probability, and tail drops.
    pub early_drops: u64,
    pub overflow: u64,
    /// Probability updates applied so far.
    pub updates: u64,
}

#[derive(Clone, Debug)]
pub struct DualPi2 {
    cfg: DualPi2Config,
    l: VecDeque<LItem>,
    c: VecDeque<QItem>,
    occ: Occupancy,
    l_occ: Occupancy,
    rng: SimRng,
    target_s: f64,
    tupdate: SimDuration,
    step: SimDuration,
    /// p', the base probability.
    p: f64,
    /// Head delays read by the last update, s (Linux's `delay_l`, `delay_c`).
    qdelay_l: f64,
    qdelay_c: f64,
    next_update: SimTime,
    /// Bytes × weight; ≤ 0 serves L (Linux `c_protection.credit`).
    credit: i64,
    stats: DualPi2Stats,
}

impl DualPi2 {
    pub fn new(cfg: &DualPi2Config, rng: SimRng) -> DualPi2 {
        let tupdate = SimDuration::from_secs_f64(cfg.tupdate_ms / 1e3).max(SimDuration(1));
        let mut d = DualPi2 {
            cfg: cfg.clone(),
            l: VecDeque::new(),
            c: VecDeque::new(),
            occ: Occupancy::default(),
            l_occ: Occupancy::default(),
            rng,
            target_s: cfg.target_ms / 1e3,
            tupdate,
            step: SimDuration::from_secs_f64(cfg.step_ms / 1e3),
            p: 0.0,
            qdelay_l: 0.0,
            qdelay_c: 0.0,
            next_update: SimTime::ZERO + tupdate,
            credit: 0,
            stats: DualPi2Stats::default(),
        };
        d.reset_credit();
        d
    }

    /// Linux `dualpi2_calculate_c_protection`: starts on the L side when wl > wc.
    fn reset_credit(&mut self) {
        let wc = i64::from(self.cfg.c_protection_pct.min(100));
        self.credit = i64::from(self.cfg.mtu_bytes) * (wc - (100 - wc));
    }

    pub fn probability(&self) -> f64 {
        self.p
    }

    pub fn stats(&self) -> DualPi2Stats {
        self.stats
    }

    /// Packets in the L and in the C queue.
    pub fn lengths(&self) -> (usize, usize) {
        (self.l.len(), self.c.len())
    }

    fn is_l4s(&self, ecn: Ecn) -> bool {
        match self.cfg.l4s_id {
            L4sId::Ect1 => matches!(ecn, Ecn::Ect1 | Ecn::Ce),
            L4sId::AnyEct => ecn.is_ect(),
        }
    }

    pub fn enqueue(&mut self, item: QItem, cx: &mut QdiscCtx) -> bool {
        self.catch_up(cx.now);
        if !self.cfg.limit.admits(&self.occ, item.bytes) {
            self.stats.overflow += 1;
            cx.drop(item, DropReason::Overflow, false);
            return false;
        }
        let cells = self.cfg.limit.cells_of(item.bytes);
        self.occ.add(item.bytes, cells);
        if self.is_l4s(item.ecn) {
            let apply_step = self.l.len() >= self.cfg.min_qlen_step as usize;
            self.l_occ.add(item.bytes, cells);
            self.l.push_back(LItem { item, apply_step });
            self.stats.l_packets += 1;
        } else {
            self.c.push_back(item);
            self.stats.c_packets += 1;
        }
        true
    }

    pub fn dequeue(&mut self, cx: &mut QdiscCtx) -> Option<QItem> {
        let now = cx.now;
        self.catch_up(now);
        let (wc, wl) = (
            i64::from(self.cfg.c_protection_pct.min(100)),
            100 - i64::from(self.cfg.c_protection_pct.min(100)),
        );
        loop {
            // Linux `dequeue_packet`: L unless C waits and L has used its credit.
            let (mut item, from_l, credit_change, apply_step) =
                if !self.l.is_empty() && (self.c.is_empty() || self.credit <= 0) {
                    let LItem { item, apply_step } = self.l.pop_front().expect("L is not empty");
                    self.l_occ.remove(item.bytes, self.cfg.limit.cells_of(item.bytes));
                    let change = if self.c.is_empty() { 0 } else { wc * i64::from(item.bytes) };
                    (item, true, change, apply_step)
                } else if let Some(item) = self.c.pop_front() {
                    let change = if self.l.is_empty() { 0 } else { -wl * i64::from(item.bytes) };
                    (item, false, change, false)
                } else {
                    self.reset_credit();
                    return None;
                };
            self.occ.remove(item.bytes, self.cfg.limit.cells_of(item.bytes));
            if let Some(reason) = self.coupled_signal(&mut item, from_l) {
                self.stats.early_drops += 1;
                cx.drop(item, reason, true);
                continue;
            }
            // The step, on the sojourn of the packet leaving (Linux `do_step_aqm`).
            if from_l && apply_step && now.saturating_sub(item.enqueued_at) > self.step {
                if item.marked.is_none() {
                    self.stats.step_marks += 1;
                }
                item.mark(DropReason::Threshold);
            }
            self.credit += credit_change;
            return Some(item);
        }
    }

    fn roll(&mut self, p: f64) -> bool {
        self.rng.uniform() < p
    }

    /// Linux `must_drop`: marks the packet, or says why it is to be dropped.
    fn coupled_signal(&mut self, item: &mut QItem, from_l: bool) -> Option<DropReason> {
        if self.occ.bytes < 2 * u64::from(self.cfg.mtu_bytes) {
            return None;
        }
        let p_cl = self.cfg.coupling * self.p;
        let overloaded = p_cl > 1.0;
        let p = self.p;
        let hit = if from_l {
            if overloaded {
                // p_L is 100 %: mark, or on overload drop with p_C to hold the delay.
                if self.cfg.drop_overload && self.roll(p) && self.roll(p) {
                    return Some(DropReason::Forced);
                }
                true
            } else {
                self.roll(p_cl)
            }
        } else {
            // p_C = p'² as two rolls; on overload no mark can stand in for the drop.
            if !(self.roll(p) && self.roll(p)) {
                return None;
            }
            if overloaded && item.ecn.is_ect() {
                return Some(DropReason::Forced);
            }
            true
        };
        if hit {
            let was = item.marked.is_some();
            if !item.mark(DropReason::Early) {
                return Some(DropReason::Early);
            }
            if !was {
                self.stats.prob_marks += 1;
            }
        }
        None
    }

    /// Applies every update due by `now`; see the module docs.
    fn catch_up(&mut self, now: SimTime) {
        while self.next_update <= now {
            let before = (self.p, self.qdelay_l, self.qdelay_c);
            let at = self.next_update;
            self.update_probability(at);
            self.next_update += self.tupdate;
            let empty = self.l.is_empty() && self.c.is_empty();
            if empty && before == (self.p, self.qdelay_l, self.qdelay_c) && self.next_update <= now {
                // Empty with p' at 0: the remaining periods would change nothing.
                let t = self.tupdate.as_nanos();
                let k = (now.as_nanos() - self.next_update.as_nanos()) / t + 1;
                self.next_update += self.tupdate.mul(k);
                self.stats.updates += k;
            }
        }
    }

    /// RFC 9332 §A.2 Fig. 8 / Linux `calculate_probability` at time `at`.
    fn update_probability(&mut self, at: SimTime) {
        self.stats.updates += 1;
        let age = |t: Option<SimTime>| t.map_or(0.0, |t| at.saturating_sub(t).as_secs_f64());
        let old = self.qdelay_l.max(self.qdelay_c);
        self.qdelay_l = age(self.l.front().map(|l| l.item.enqueued_at));
        self.qdelay_c = age(self.c.front().map(|c| c.enqueued_at));
        let qdelay = self.qdelay_l.max(self.qdelay_c);
        let delta = self.cfg.alpha * (qdelay - self.target_s) + self.cfg.beta * (qdelay - old);
        let cap = if self.cfg.drop_overload { 1.0 } else { 1.0 / self.cfg.coupling.max(1.0) };
        self.p = (self.p + delta).clamp(0.0, cap);
    }
}

impl QueueDisc for DualPi2 {
    /// The L queue is 0, the C queue 1.
    fn item_queue(&self, item: &QItem) -> Option<u32> {
        Some(u32::from(!self.is_l4s(item.ecn)))
    }
    fn queue_name(&self, q: u32) -> String {
        (if q == 0 { "L queue" } else { "C queue" }).into()
    }
    fn enqueue(&mut self, item: QItem, cx: &mut QdiscCtx) -> bool {
        DualPi2::enqueue(self, item, cx)
    }
    fn dequeue(&mut self, cx: &mut QdiscCtx) -> Option<QItem> {
        DualPi2::dequeue(self, cx)
    }
    fn occupancy(&self) -> Occupancy {
        self.occ
    }
    fn limit(&self) -> QueueLimit {
        self.cfg.limit
    }
    /// Each queue's length at the sample; the head delays and probabilities as of the last
    /// update (what `tc -s qdisc` reports).
    fn series(&self) -> Vec<SeriesInfo> {
        vec![
            SeriesInfo::new("dualpi2.l.packets", "L queue", "packets", "queue"),
            SeriesInfo::new("dualpi2.c.packets", "C queue", "packets", "queue"),
            SeriesInfo::new("dualpi2.l.delay_ms", "L queue head", "ms", "dualpi2-delay"),
            SeriesInfo::new("dualpi2.c.delay_ms", "C queue head", "ms", "dualpi2-delay"),
            SeriesInfo::new("dualpi2.p_cl", "L mark p_CL = k·p'", "probability", "aqm"),
            SeriesInfo::new("dualpi2.p_c", "C drop/mark p_C = p'² = (p_CL/k)²", "probability", "aqm"),
        ]
    }
    fn sample_series(&self, out: &mut Vec<f64>) {
        let (l, c) = self.lengths();
        out.extend([l as f64, c as f64, self.qdelay_l * 1e3, self.qdelay_c * 1e3]);
        out.extend([(self.cfg.coupling * self.p).min(1.0), self.p * self.p]);
    }
    /// Updates due by `now` run with the old parameters; then the new ones apply and p',
    /// the queues and the credit carry over.
    fn retune(&mut self, cfg: &dyn Any, _link_rate: Rate, now: SimTime) -> Result<(), String> {
        self.cfg.retune_check(cfg)?;
        let cfg: &DualPi2Config = config_of(cfg)?;
        self.catch_up(now);
        let fresh = DualPi2::new(cfg, self.rng.clone());
        (self.target_s, self.tupdate, self.step) = (fresh.target_s, fresh.tupdate, fresh.step);
        self.cfg = fresh.cfg;
        Ok(())
    }
}

#[cfg(test)]
#[path = "dualpi2_tests.rs"]
mod tests;
