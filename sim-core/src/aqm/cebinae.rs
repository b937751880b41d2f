//! Cebinae (Yu et al., "Cebinae: Scalable In-network Fairness Augmentation", SIGCOMM 2022).
//!
//! Every round of `dT` the port checks whether it is saturated: egress bytes in the round
//! above rate·dT·(1 − δ_port). If so, the flows whose egress bytes exceed
//! max·(1 − δ_flow) are the "top" flows; they are taxed to (1 − τ) of their measured
//! aggregate rate and everything else shares the rest of the link. Each of the two
//! aggregates (top, bottom) goes through a leaky-bucket filter (LBF) built from two
//! physical FIFO queues that rotate every round: `headq` holds what the aggregate may send
//! in the current round, the other queue what it may send in the next one; anything beyond
//! two rounds of its rate is dropped. `headq` is served first; at the end of a round the
//! queues swap roles.
//!
//! The paper's section numbers are not cited below (its text is not in `papers/`); the
//! model follows the authors' ns-3 `CebinaeQueueDisc` (github.com/eniac/Cebinae), whose
//! function names are cited instead, and REFERENCE.md's "Other AQMs" row:
//! - the LBF byte counters count arrivals, dropped ones included (the hardware's
//!   feed-forward constraint), and cannot lag behind the bucket's drain;
//! - a newly computed rate is written to the queue that becomes the *next* round's queue,
//!   so it governs traffic from one round later;
//! - flow and port byte counts are taken at dequeue (egress) and reset at each recompute.
//!
//! Simplifications: the control plane's deadline `L` and the virtual sub-rounds `vdT` of
//! the hardware are not modelled (the rotation and the reconfiguration happen together at
//! the round boundary, and the drain is exact in time). Rounds are processed lazily at the
//! next enqueue or dequeue, which sees exactly the counters a timer would have seen.
//! Per-flow state is a `BTreeMap`, so iteration order (and the result) is deterministic.
//!
//! **Round length.** REFERENCE.md and the ns-3 attribute default give dT ≈ 1 ms (2^20 ns),
//! but that starves window-based flows (below), so the default here is dT = 20 ms recomputed
//! every 10 rounds, what the Warbler presets use; set `round_ms` = 1.05 and
//! `recompute_rounds` = 1 for the ns-3 attribute defaults. With 1 ms rounds at 100 Mbit/s a
//! round holds about 8 full-sized packets, so a back-to-back train of ≥ 8 packets marks the port saturated and its flow "top", and no aggregate can
//! queue more than about two rounds of its rate: an ACK-clocked window, which travels as a
//! train at the link rate, is capped near 2·rate·dT. The authors' own ns-3 experiments used
//! dT of 134-268 ms (`ns/configs/*.json`); `round_ms` and `recompute_rounds` expose this.

use super::{BuildCx, DiscConfig, DropReason, Occupancy, QItem, QdiscCtx, QueueDisc, QueueLimit};
use crate::params::{Algorithm, Described, Field, Kind, Range};
use crate::time::{Rate, SimDuration, SimTime, NANOS_PER_SEC};
use crate::trace::SeriesInfo;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Cebinae parameters. Defaults: the paper's τ and δ, 20 ms rounds recomputed every 10
/// rounds (see the module docs), and the Warbler comparison's buffer (2 × 1500 cells of 160 B).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CebinaeConfig {
    /// Buffer shared by the two queues (checked on top of the per-queue limit).
    pub limit: QueueLimit,
    /// Limit of each of the two queues; `None` = half of `limit` in its unit (ns-3 carves
    /// `MaxSize` in halves).
    pub queue_limit: Option<QueueLimit>,
    /// dT: the round length in ms (ns-3 default 2^20 ns ≈ 1.05 ms).
    pub round_ms: f64,
    /// P: rounds per measurement window; rates and top flows are recomputed every P rounds.
    pub recompute_rounds: u32,
    /// τ: tax on the top flows' rate.
    pub tau: f64,
    /// δ_port: the port is saturated above (1 − δ_port) of its capacity.
    pub delta_port: f64,
    /// δ_flow: a flow is "top" above (1 − δ_flow) of the largest flow's bytes.
    pub delta_flow: f64,
}

impl Default for CebinaeConfig {
    fn default() -> Self {
        CebinaeConfig {
            limit: QueueLimit::Cells { cells: 3000, cell_bytes: 160 },
            queue_limit: None,
            round_ms: 20.0,
            recompute_rounds: 10,
            tau: 0.05,
            delta_port: 0.05,
            delta_flow: 0.05,
        }
    }
}

const SHARE: Range = Range::closed(0.0, 1.0);

impl Described for CebinaeConfig {
    const INFO: Algorithm = Algorithm {
        tag: "cebinae",
        label: "Cebinae",
        help: "Cebinae (SIGCOMM 2022): when the port is saturated, the top flows are taxed by a leaky bucket over two rotating queues.",
        fields: &[
            Field::new("limit", "Buffer", "", Kind::Limit, "Shared by the two rotating queues."),
            Field::new("queue_limit", "Per-queue buffer", "", Kind::OptLimit, "Limit of each queue; empty = half the buffer."),
            Field::new("round_ms", "Round dT", "ms", Kind::Float(Range::closed(0.001, 10_000.0)), "Measurement round; the authors' configs use 134-268 ms."),
            Field::new("recompute_rounds", "Recompute every", "rounds", Kind::Int(Range::closed(1.0, 1e6)), "Rates and top flows are recomputed every P rounds."),
            Field::new("tau", "τ", "", Kind::Float(SHARE), "Tax on the top flows' rate (0.05)."),
            Field::new("delta_port", "δ port", "", Kind::Float(SHARE), "Port counts as saturated above (1 − δ) of capacity."),
            Field::new("delta_flow", "δ flow", "", Kind::Float(SHARE), "Flows within δ of the largest are 'top'."),
        ],
        flavours: &[],
    };
}

impl DiscConfig for CebinaeConfig {
    fn build(&self, cx: BuildCx) -> Box<dyn QueueDisc> {
        Box::new(Cebinae::new(self, cx.link_rate))
    }
    fn limit(&self) -> QueueLimit {
        self.limit
    }
    fn set_limit(&mut self, limit: QueueLimit, _packet_bytes: u32) {
        self.limit = limit;
        self.queue_limit = None;
    }
}

impl CebinaeConfig {
    /// The limit of each queue (half the shared limit unless set).
    pub fn effective_queue_limit(&self) -> QueueLimit {
        self.queue_limit.unwrap_or(match self.limit {
            QueueLimit::Packets(p) => QueueLimit::Packets((p / 2).max(1)),
            QueueLimit::Bytes(b) => QueueLimit::Bytes((b / 2).max(1)),
            QueueLimit::Cells { cells, cell_bytes } => {
                QueueLimit::Cells { cells: (cells / 2).max(1), cell_bytes }
            }
        })
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CebinaeStats {
    /// LBF drops of top flows: beyond two rounds of the taxed rate (the tax itself).
    pub top_lbf_drops: u64,
    /// LBF drops of the other flows: beyond two rounds of the rest of the link.
    pub bottom_lbf_drops: u64,
    pub overflow: u64,
    pub rounds: u64,
    /// Measurement windows in which the port was saturated.
    pub saturated_windows: u64,
}

/// One aggregate's leaky-bucket filter (ns-3 `m_bytes_*`, `m_lbf_bps_*`).
#[derive(Clone, Debug)]
struct Lbf {
    /// Bytes admitted since the round base, less what past rounds drained.
    bytes: u64,
    /// Rate of each physical queue's round, bit/s.
    rate_bps: [u64; 2],
}

#[derive(Clone, Debug)]
pub struct Cebinae {
    cfg: CebinaeConfig,
    link_bps: u64,
    round: SimDuration,
    queues: [VecDeque<QItem>; 2],
    queue_occ: [Occupancy; 2],
    queue_limit: QueueLimit,
    occ: Occupancy,
    /// The current round's queue; `1 − headq` is the next round's.
    headq: usize,
    /// Start of the current round.
    base: SimTime,
    rounds_in_window: u32,
    top: Lbf,
    bot: Lbf,
    computed_top_bps: u64,
    computed_bot_bps: u64,
    top_flows: BTreeSet<u32>,
    /// Egress bytes per flow and of the port in the current measurement window.
    flow_bytes: BTreeMap<u32, u64>,
    port_bytes: u64,
    stats: CebinaeStats,
}

/// Bytes an LBF of `rate_bps` drains in `d`.
fn bytes_in(rate_bps: u64, d: SimDuration) -> u64 {
    (u128::from(rate_bps) * u128::from(d.as_nanos()) / (8 * u128::from(NANOS_PER_SEC))) as u64
}

impl Cebinae {
    pub fn new(cfg: &CebinaeConfig, link_rate: Rate) -> Cebinae {
        let link_bps = link_rate.bps();
        Cebinae {
            cfg: cfg.clone(),
            link_bps,
            round: SimDuration::from_secs_f64(cfg.round_ms / 1e3).max(SimDuration(1)),
            queues: [VecDeque::new(), VecDeque::new()],
            queue_occ: [Occupancy::default(); 2],
            queue_limit: cfg.effective_queue_limit(),
            occ: Occupancy::default(),
            headq: 0,
            base: SimTime::ZERO,
            rounds_in_window: 0,
            // Until the first saturated window everything is "bottom" at the link rate.
            top: Lbf { bytes: 0, rate_bps: [0, 0] },
            bot: Lbf { bytes: 0, rate_bps: [link_bps, link_bps] },
            computed_top_bps: 0,
            computed_bot_bps: link_bps,
            top_flows: BTreeSet::new(),
            flow_bytes: BTreeMap::new(),
            port_bytes: 0,
            stats: CebinaeStats::default(),
        }
    }

    pub fn enqueue(&mut self, item: QItem, cx: &mut QdiscCtx) -> bool {
        self.catch_up(cx.now);
        let (headq, elapsed, round) = (self.headq, cx.now - self.base, self.round);
        let is_top = self.top_flows.contains(&item.flow);
        let lbf = if is_top { &mut self.top } else { &mut self.bot };
        // LBF (ns-3 `DoEnqueue`): how far past this round's budget, and past the next
        // round's, the aggregate already is (`past_head`, `past_tail`).
        let budget_head = bytes_in(lbf.rate_bps[headq], round);
        let budget_next = bytes_in(lbf.rate_bps[1 - headq], round);
        let past_head = lbf.bytes.saturating_sub(budget_head);
        let past_tail = past_head.saturating_sub(budget_next);
        // The bucket drains at the current round's rate: an idle aggregate earns no credit.
        lbf.bytes = lbf.bytes.max(bytes_in(lbf.rate_bps[headq], elapsed)) + u64::from(item.bytes);
        let q = if past_head == 0 {
            headq
        } else if past_tail == 0 {
            1 - headq
        } else {
            if is_top {
                self.stats.top_lbf_drops += 1;
            } else {
                self.stats.bottom_lbf_drops += 1;
            }
            cx.drop(item, DropReason::Early, false);
            return false;
        };
        if !self.queue_limit.admits(&self.queue_occ[q], item.bytes)
            || !self.cfg.limit.admits(&self.occ, item.bytes)
        {
            self.stats.overflow += 1;
            cx.drop(item, DropReason::Overflow, false);
            return false;
        }
        self.queue_occ[q].add(item.bytes, self.queue_limit.cells_of(item.bytes));
        self.occ.add(item.bytes, self.cfg.limit.cells_of(item.bytes));
        self.queues[q].push_back(item);
        true
    }

    /// Strict priority: the current round's queue, then the next round's.
    pub fn dequeue(&mut self, now: SimTime) -> Option<QItem> {
        self.catch_up(now);
        let q = if self.queues[self.headq].is_empty() { 1 - self.headq } else { self.headq };
        let item = self.queues[q].pop_front()?;
        self.queue_occ[q].remove(item.bytes, self.queue_limit.cells_of(item.bytes));
        self.occ.remove(item.bytes, self.cfg.limit.cells_of(item.bytes));
        // Egress counters for the saturation test and the top-flow detector.
        self.port_bytes += u64::from(item.bytes);
        *self.flow_bytes.entry(item.flow).or_insert(0) += u64::from(item.bytes);
        Some(item)
    }

    /// Closes every round that ended by `now`.
    fn catch_up(&mut self, now: SimTime) {
        while now >= self.base + self.round {
            if self.is_idle_fixed_point() {
                // Nothing but the queue parity changes from here on: jump.
                let k = (now - self.base).as_nanos() / self.round.as_nanos();
                self.base += self.round.mul(k);
                self.headq ^= (k & 1) as usize;
                let p = u64::from(self.cfg.recompute_rounds.max(1));
                self.rounds_in_window = ((u64::from(self.rounds_in_window) + k) % p) as u32;
                self.stats.rounds += k;
                return;
            }
            self.end_round();
        }
    }

    /// No traffic in the window, nothing owed, no top flows, both rounds at (0, link).
    fn is_idle_fixed_point(&self) -> bool {
        self.port_bytes == 0
            && self.flow_bytes.is_empty()
            && self.top_flows.is_empty()
            && self.top.bytes == 0
            && self.bot.bytes == 0
            && self.top.rate_bps == [0, 0]
            && self.bot.rate_bps == [self.link_bps, self.link_bps]
            && self.computed_top_bps == 0
            && self.computed_bot_bps == self.link_bps
    }

    /// ns-3 RECONFIG then ROTATE, at the round boundary.
    fn end_round(&mut self) {
        self.stats.rounds += 1;
        self.rounds_in_window += 1;
        if self.rounds_in_window >= self.cfg.recompute_rounds.max(1) {
            self.rounds_in_window = 0;
            self.recompute();
        }
        // The rate that drained the round just ended, then the new rate for the queue that
        // becomes the next round's.
        let h = self.headq;
        let (last_top, last_bot) = (self.top.rate_bps[h], self.bot.rate_bps[h]);
        self.top.rate_bps[h] = self.computed_top_bps;
        self.bot.rate_bps[h] = self.computed_bot_bps;
        // ROTATE: the round's budget has drained from each bucket; the queues swap roles.
        self.top.bytes = self.top.bytes.saturating_sub(bytes_in(last_top, self.round));
        self.bot.bytes = self.bot.bytes.saturating_sub(bytes_in(last_bot, self.round));
        self.base += self.round;
        self.headq = 1 - h;
    }

    /// Saturation test, top-flow detection and the taxed rates (ns-3 RECONFIG).
    fn recompute(&mut self) {
        let window = self.round.mul(u64::from(self.cfg.recompute_rounds.max(1)));
        let window_s = window.as_secs_f64();
        // Saturated if egress bits > rate·P·dT·(1 − δ_port) (`threshold_bits`).
        let threshold_bits = self.link_bps as f64 * window_s * (1.0 - self.cfg.delta_port);
        self.top_flows.clear();
        if (self.port_bytes * 8) as f64 > threshold_bits {
            self.stats.saturated_windows += 1;
            // Top flows: bytes > max·(1 − δ_flow) (`GetTopFlows`).
            let max = self.flow_bytes.values().copied().max().unwrap_or(0);
            let cut = max as f64 * (1.0 - self.cfg.delta_flow);
            let mut top_bytes = 0u64;
            for (&flow, &b) in &self.flow_bytes {
                if b as f64 > cut {
                    self.top_flows.insert(flow);
                    top_bytes += b;
                }
            }
            // Tax: top rate = (1 − τ)·top bytes / (P·dT); bottom = link − top.
            let top_bps = (top_bytes as f64 * (1.0 - self.cfg.tau) * 8.0 / window_s) as u64;
            self.computed_top_bps = top_bps.min(self.link_bps);
            self.computed_bot_bps = self.link_bps - self.computed_top_bps;
        } else {
            self.computed_top_bps = 0;
            self.computed_bot_bps = self.link_bps;
        }
        self.flow_bytes.clear();
        self.port_bytes = 0;
    }

    pub fn occupancy(&self) -> Occupancy {
        self.occ
    }

    pub fn limit(&self) -> QueueLimit {
        self.cfg.limit
    }

    pub fn stats(&self) -> CebinaeStats {
        self.stats
    }

    /// Flows taxed in the current window.
    pub fn top_flows(&self) -> impl Iterator<Item = u32> + '_ {
        self.top_flows.iter().copied()
    }

    /// Rates (bit/s) the last recompute gave the top and the bottom aggregates.
    pub fn computed_rates_bps(&self) -> (u64, u64) {
        (self.computed_top_bps, self.computed_bot_bps)
    }
}

impl QueueDisc for Cebinae {
    fn enqueue(&mut self, item: QItem, cx: &mut QdiscCtx) -> bool {
        Cebinae::enqueue(self, item, cx)
    }
    fn dequeue(&mut self, cx: &mut QdiscCtx) -> Option<QItem> {
        Cebinae::dequeue(self, cx.now)
    }
    fn occupancy(&self) -> Occupancy {
        self.occ
    }
    fn limit(&self) -> QueueLimit {
        self.cfg.limit
    }
    /// The rates the last recompute gave the taxed (top) and the other flows.
    fn series(&self) -> Vec<SeriesInfo> {
        vec![
            SeriesInfo::new("cebinae.top_mbps", "top flows' rate", "Mbit/s", "aqm"),
            SeriesInfo::new("cebinae.bottom_mbps", "other flows' rate", "Mbit/s", "aqm"),
        ]
    }
    fn sample_series(&self, out: &mut Vec<f64>) {
        out.push(self.computed_top_bps as f64 / 1e6);
        out.push(self.computed_bot_bps as f64 / 1e6);
    }
}

#[cfg(test)]
#[path = "cebinae_tests.rs"]
mod tests;
