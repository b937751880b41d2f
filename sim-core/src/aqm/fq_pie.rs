//! FQ-PIE: flows hashed into queues as FQ-CoDel does (RFC 8290's scheduler, `flow_lists.rs`),
//! each queue under its own PIE (RFC 8033, `pie.rs`) with its own drop probability, as
//! ns-3.44's `FqPieQueueDisc` (a PieQueueDisc per flow) and Linux's `sch_fq_pie` run it.
//!
//! Defaults are ns-3.44's `FqPieQueueDisc` attributes, which Linux shares but for three: ECN
//! on (Linux off), no derandomization (Linux on), and a full buffer that drops up to 64
//! packets from the head of the fattest queue (`overflow = fattest`, ns-3's FqPieDrop; Linux
//! tail-drops the arrival, `overflow = tail`). Each flow's PIE follows ns-3's rules (see
//! `pie.rs`); its small-queue safeguard counts its own packets, as ns-3's child queue does
//! (Linux's counts its flow's bytes). A flow's PIE starts with the disc, so its updates are
//! on the grid k·Tupdate from time zero (ns-3 starts a flow's timer when its first packet
//! makes the flow).

use super::fattest::Fattest;
use super::flow_lists::{check_flows_unchanged, queue_index, FlowLists};
use super::pie::{Pie, PieConfig, PieRules};
use super::{BuildCx, DiscConfig, DropReason, Occupancy, QItem, QdiscCtx, QueueDisc, QueueLimit};
use crate::params::{Algorithm, Described, Field, Kind, Range};
use crate::queue::config_of;
use crate::rng::{SimRng, StreamId};
use crate::time::{Rate, SimTime};
use serde::{Deserialize, Serialize};
use std::any::Any;

/// What a full buffer drops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FqOverflow {
    /// Up to `drop_batch` packets, or half its bytes, from the head of the queue with the
    /// most bytes (ns-3.44 `FqPieQueueDisc::FqPieDrop`, as FQ-CoDel does).
    Fattest,
    /// The arriving packet (Linux `fq_pie_qdisc_enqueue`).
    Tail,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FqPieConfig {
    /// Total buffer (10 240 packets).
    pub limit: QueueLimit,
    /// Flow queues (1024).
    pub flows: u32,
    /// DRR quantum, bytes (one Ethernet MTU, 1514).
    pub quantum_bytes: u32,
    /// Most packets dropped from the fattest queue per overflow (64).
    pub drop_batch: u32,
    pub overflow: FqOverflow,
    /// Each flow's PIE: QDELAY_REF (15 ms), T_UPDATE (15 ms), α and β (0.125, 1.25 Hz),
    /// MAX_BURST (150 ms).
    pub target_ms: f64,
    pub tupdate_ms: f64,
    pub alpha: f64,
    pub beta: f64,
    pub max_burst_ms: f64,
    /// Mark ECN-capable packets instead of an early drop while p ≤ `mark_ecn_threshold`
    /// (ns-3.44: on, 10 %).
    pub ecn: bool,
    pub mark_ecn_threshold: f64,
    /// RFC 8033 §5.4 (ns-3.44 off, Linux on).
    pub derandomize: bool,
}

impl Default for FqPieConfig {
    fn default() -> Self {
        let pie = PieConfig::default();
        FqPieConfig {
            limit: QueueLimit::Packets(10_240),
            flows: 1024,
            quantum_bytes: 1514,
            drop_batch: 64,
            overflow: FqOverflow::Fattest,
            target_ms: pie.target_ms,
            tupdate_ms: pie.tupdate_ms,
            alpha: pie.alpha,
            beta: pie.beta,
            max_burst_ms: pie.max_burst_ms,
            ecn: true,
            mark_ecn_threshold: pie.mark_ecn_threshold,
            derandomize: false,
        }
    }
}

impl Described for FqPieConfig {
    const INFO: Algorithm = Algorithm {
        tag: "fq_pie",
        label: "FQ-PIE",
        help: "Flows hashed into queues served by DRR with new flows first (as FQ-CoDel), each queue under its own PIE (ns-3.44 FqPieQueueDisc, Linux fq_pie).",
        fields: &[
            Field::new("limit", "Buffer", "", Kind::Limit, "Total buffer (10 240 packets)."),
            Field::new("flows", "Flow queues", "", Kind::Int(Range::closed(1.0, 65_536.0)), "Hash buckets (1024)."),
            Field::new("quantum_bytes", "Quantum", "bytes", Kind::Int(Range::closed(256.0, 1e6)), "DRR credit per round (one MTU, 1514)."),
            Field::new("drop_batch", "Drop batch", "packets", Kind::Int(Range::closed(1.0, 65_536.0)), "On overflow, drop up to this many from the fattest queue (64)."),
            Field::new("overflow", "Overflow", "", Kind::Choice(&[("fattest", "fattest queue (ns-3.44)"), ("tail", "the arrival (Linux)")]), "What a full buffer drops."),
            Field::new("target_ms", "Target", "ms", Kind::Float(Range::closed(0.001, 60_000.0)), "Each flow's PIE steers its queueing delay towards this (15 ms)."),
            Field::new("tupdate_ms", "Update period", "ms", Kind::Float(Range::closed(0.001, 60_000.0)), "How often each flow's probability is recomputed (15 ms)."),
            Field::new("alpha", "α", "Hz", Kind::Float(Range::above(0.0, 1_000.0)), "Gain on the distance from target (0.125)."),
            Field::new("beta", "β", "Hz", Kind::Float(Range::closed(0.0, 1_000.0)), "Gain on the delay trend (1.25)."),
            Field::new("max_burst_ms", "Max burst", "ms", Kind::Float(Range::closed(0.0, 60_000.0)), "Bursts this long pass without drops (150 ms)."),
            Field::new("ecn", "ECN", "", Kind::Bool, "Mark ECN-capable packets CE instead of an early drop while the probability is at most the mark threshold (ns-3.44: on)."),
            Field::new("mark_ecn_threshold", "Mark threshold", "", Kind::Float(Range::closed(0.0, 1.0)), "Above this drop probability PIE drops even ECN-capable packets (10 %)."),
            Field::new("derandomize", "Derandomize", "", Kind::Bool, "RFC 8033 §5.4: accumulate probability to space drops (ns-3.44 off, Linux on)."),
        ],
        flavours: &[],
    };
}

impl FqPieConfig {
    /// One flow's PIE: ns-3's rules, the sojourn-time delay, no limit of its own (the disc's
    /// buffer is shared).
    fn flow_pie(&self) -> PieConfig {
        PieConfig {
            limit: QueueLimit::Packets(u32::MAX),
            target_ms: self.target_ms,
            tupdate_ms: self.tupdate_ms,
            alpha: self.alpha,
            beta: self.beta,
            max_burst_ms: self.max_burst_ms,
            rules: PieRules::Ns3,
            use_dequeue_rate_estimator: false,
            derandomize: self.derandomize,
            ecn: self.ecn,
            mark_ecn_threshold: self.mark_ecn_threshold,
            ..PieConfig::default()
        }
    }
}

impl DiscConfig for FqPieConfig {
    fn build(&self, mut cx: BuildCx) -> Box<dyn QueueDisc> {
        Box::new(FqPie::new(self, cx.rng.next_u64()))
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
    /// The hash table's size cannot change under running flows.
    fn retune_check(&self, new: &dyn Any) -> Result<(), String> {
        let new: &FqPieConfig = config_of(new)?;
        self.limit.check_change(&new.limit)?;
        check_flows_unchanged(self.flows, new.flows)
    }
}

#[derive(Debug)]
pub struct FqPie {
    cfg: FqPieConfig,
    /// Hash perturbation, and the seed of each flow's PIE stream.
    seed: u64,
    /// A flow's PIE, made when its first packet arrives.
    queues: Vec<Option<Box<Pie>>>,
    lists: FlowLists,
    fattest: Fattest,
    occ: Occupancy,
}

impl FqPie {
    pub fn new(cfg: &FqPieConfig, seed: u64) -> FqPie {
        let n = cfg.flows.max(1) as usize;
        FqPie {
            cfg: cfg.clone(),
            seed,
            queues: (0..n).map(|_| None).collect(),
            lists: FlowLists::new(n),
            fattest: Fattest::new(n),
            occ: Occupancy::default(),
        }
    }

    fn queue_index(&self, flow: u32) -> usize {
        queue_index(flow, self.seed, self.queues.len())
    }

    /// Up to `drop_batch` packets or half the bytes from the head of the queue with the most
    /// bytes; returns whether queue `arrival`'s last packet (the arrival) survived.
    fn drop_from_fattest(&mut self, arrival: usize, cx: &mut QdiscCtx) -> bool {
        let queues = &self.queues;
        let fat = self.fattest.get(|i| queues[i].as_ref().map_or(0, |p| p.occupancy().bytes));
        self.fattest.touch(fat);
        let Some(pie) = self.queues[fat].as_mut() else { return true };
        let threshold = pie.occupancy().bytes / 2;
        let (mut len, mut n, mut survived) = (0u64, 0u32, true);
        while let Some(it) = pie.drop_head() {
            self.occ.remove(it.bytes, self.cfg.limit.cells_of(it.bytes));
            let is_arrival = fat == arrival && pie.occupancy().packets == 0;
            survived &= !is_arrival;
            cx.drop(it, DropReason::Overflow, !is_arrival);
            (len, n) = (len + u64::from(it.bytes), n + 1);
            if n >= self.cfg.drop_batch.max(1) || len >= threshold {
                break;
            }
        }
        survived
    }
}

impl QueueDisc for FqPie {
    fn item_queue(&self, item: &QItem) -> Option<u32> {
        Some(self.queue_index(item.flow) as u32)
    }
    fn queue_name(&self, q: u32) -> String {
        format!("flow queue {q}")
    }
    fn enqueue(&mut self, item: QItem, cx: &mut QdiscCtx) -> bool {
        if self.cfg.overflow == FqOverflow::Tail && !self.cfg.limit.admits(&self.occ, item.bytes) {
            cx.drop(item, DropReason::Overflow, false);
            return false;
        }
        let i = self.queue_index(item.flow);
        let (pie_cfg, seed) = (self.cfg.flow_pie(), self.seed);
        let pie = self.queues[i].get_or_insert_with(|| {
            Box::new(Pie::new(&pie_cfg, SimRng::new(seed, StreamId::Queue(i as u32))))
        });
        // The flow's PIE drops early (or marks) by its own probability.
        if !pie.enqueue(item, cx) {
            return false;
        }
        self.occ.add(item.bytes, self.cfg.limit.cells_of(item.bytes));
        self.fattest.touch(i);
        self.lists.activate(i, self.cfg.quantum_bytes);
        let mut accepted = true;
        while self.cfg.limit.exceeded_by(&self.occ) && self.occ.packets > 0 {
            accepted &= self.drop_from_fattest(i, cx);
        }
        accepted
    }

    fn dequeue(&mut self, cx: &mut QdiscCtx) -> Option<QItem> {
        let (queues, fattest, now) = (&mut self.queues, &mut self.fattest, cx.now);
        let item = self.lists.next(
            self.cfg.quantum_bytes,
            |i| {
                fattest.touch(i);
                queues[i].as_mut()?.dequeue(now)
            },
            |it| it.bytes,
        )?;
        self.occ.remove(item.bytes, self.cfg.limit.cells_of(item.bytes));
        Some(item)
    }

    fn occupancy(&self) -> Occupancy {
        self.occ
    }

    fn limit(&self) -> QueueLimit {
        self.cfg.limit
    }

    /// New PIE parameters apply to each flow from its next packet (its probability and burst
    /// state carry over); the quantum and the overflow rule at once.
    fn retune(&mut self, cfg: &dyn Any, link_rate: Rate, now: SimTime) -> Result<(), String> {
        self.cfg.retune_check(cfg)?;
        let cfg: &FqPieConfig = config_of(cfg)?;
        let pie_cfg = cfg.flow_pie();
        for pie in self.queues.iter_mut().flatten() {
            pie.retune(&pie_cfg, link_rate, now)?;
        }
        self.cfg = cfg.clone();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::Ecn;

    fn item(id: u32, flow: u32, at: SimTime) -> QItem {
        QItem { id, bytes: 1500, flow, enqueued_at: at, ecn: Ecn::NotEct, ..QItem::default() }
    }

    #[test]
    fn each_flow_gets_its_share_and_its_own_queue() {
        let mut d = FqPie::new(&FqPieConfig::default(), 1);
        let mut drops = Vec::new();
        let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
        // A heavy flow with 100 packets, a light one with 5.
        for id in 0..100 {
            d.enqueue(item(id, 0, SimTime::ZERO), &mut cx);
        }
        for id in 100..105 {
            d.enqueue(item(id, 1, SimTime::ZERO), &mut cx);
        }
        assert_ne!(d.queue_index(0), d.queue_index(1), "seed 1 hashes the two apart");
        let first: Vec<u32> = (0..10).filter_map(|_| d.dequeue(&mut cx)).map(|i| i.flow).collect();
        // The light flow is not stuck behind the heavy one's 100 packets.
        assert_eq!(first.iter().filter(|&&f| f == 1).count(), 5);
        assert_eq!(d.occupancy().packets, 95);
    }

    #[test]
    fn a_full_buffer_drops_from_the_fattest_queue_or_the_arrival() {
        for (overflow, arrival_survives) in [(FqOverflow::Fattest, true), (FqOverflow::Tail, false)] {
            let cfg = FqPieConfig {
                limit: QueueLimit::Packets(20),
                drop_batch: 4,
                overflow,
                ..FqPieConfig::default()
            };
            let mut d = FqPie::new(&cfg, 1);
            let mut drops = Vec::new();
            let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
            for id in 0..20 {
                assert!(d.enqueue(item(id, 0, SimTime::ZERO), &mut cx));
            }
            // Full: the light flow's packet arrives.
            assert_eq!(d.enqueue(item(99, 1, SimTime::ZERO), &mut cx), arrival_survives, "{overflow:?}");
            match overflow {
                // Four from the heavy flow's head: 17 of its packets and the arrival remain.
                FqOverflow::Fattest => {
                    assert_eq!(drops.iter().map(|d| d.item.id).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
                    assert_eq!(d.occupancy().packets, 17);
                }
                FqOverflow::Tail => assert_eq!(drops.iter().map(|d| d.item.id).collect::<Vec<_>>(), vec![99]),
            }
            assert!(drops.iter().all(|d| d.reason == DropReason::Overflow));
        }
    }

    #[test]
    fn defaults_are_ns3s_fq_pie_with_ecn_and_its_pie() {
        let d = FqPieConfig::default();
        assert_eq!((d.flows, d.drop_batch, d.limit), (1024, 64, QueueLimit::Packets(10_240)));
        assert!(d.ecn && !d.derandomize);
        let p = d.flow_pie();
        assert_eq!(
            (p.target_ms, p.tupdate_ms, p.alpha, p.beta, p.rules),
            (15.0, 15.0, 0.125, 1.25, PieRules::Ns3)
        );
    }
}
