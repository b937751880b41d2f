//! FQ-CoDel, FlowQueue-CoDel (RFC 8290): flows hashed into queues, each managed by CoDel and
//! served by deficit round robin with priority for new (sparse) flows.
//!
//! Follows Linux `sch_fq_codel.c`, which the RFC documents. Choices worth knowing:
//! - the hash is SplitMix64 of the flow id perturbed by a seed from the disc's `SimRng`
//!   (Linux: jhash of the 5-tuple with a random perturbation; ns-3 hashes the 5-tuple too);
//! - CoDel's MTU rule compares the whole disc's backlog, as Linux passes
//!   `sch->qstats.backlog` to `codel_dequeue` (ns-3's per-flow CoDel children check their
//!   own queue);
//! - Linux's 32 MB `memory_limit` is not modelled: the limit is `limit` alone;
//! - ECN is on by default, as in Linux (`fq_codel_init`) and ns-3.44 (`UseEcn`): each flow's
//!   CoDel marks what it would drop if it can (see `codel.rs`); an overflow still drops;
//! - the fattest queue is the one Linux's scan finds (most bytes, lowest index), read from a
//!   lazily updated tournament tree ([`Fattest`]) instead of a scan of every queue, so an
//!   overflow costs O(log queues), not O(queues).

use super::codel::{
    check_target_below_interval, CodelParams, CodelQueue, CodelState, PacketFifo, CE_THRESHOLD_MS, ECN,
    INTERVAL_MS, MTU_BYTES, TARGET_MS,
};
use super::fattest::Fattest;
use super::flow_lists::{check_flows_unchanged, queue_index, FlowLists};
use super::{BuildCx, DiscConfig, DropReason, Occupancy, QItem, QdiscCtx, QueueDisc, QueueLimit};
use crate::params::{Algorithm, Checker, Described, Field, Kind, Range};
use crate::queue::config_of;
use crate::rng::SimRng;
use crate::time::{Rate, SimTime};
use serde::{Deserialize, Serialize};
use std::any::Any;

/// FQ-CoDel parameters. Defaults are Linux's (RFC 8290 §5.1): 10 240 packets, 1024 flows,
/// target 5 ms, interval 100 ms, drop batch 64, as ns-3.44's `FqCoDelQueueDisc`; the
/// quantum and MTU are 1514 bytes (an Ethernet device), where ns-3.44 takes 1500 (its
/// `MinBytes`, and the MTU of a PointToPoint device as the quantum).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FqCodelConfig {
    /// Total buffer (Linux `limit`, 10240 packets). Overflow drops from the fattest queue.
    pub limit: QueueLimit,
    /// Number of flow queues flows are hashed into (1024).
    pub flows: u32,
    /// DRR quantum, bytes (1514: one Ethernet MTU, Linux `psched_mtu`).
    pub quantum_bytes: u32,
    /// CoDel target, ms (5).
    pub target_ms: f64,
    /// CoDel interval, ms (100).
    pub interval_ms: f64,
    /// CoDel's MTU rule: no drop while the disc holds at most this many bytes (1514).
    pub mtu_bytes: u32,
    /// Most packets dropped from the fattest queue per overflow, packets (64).
    pub drop_batch: u32,
    /// Mark ECN-capable packets CE instead of dropping them (on, as Linux and ns-3.44).
    pub ecn: bool,
    /// Mark what waited longer than this, ms; `None` = off (Linux `ce_threshold`).
    pub ce_threshold_ms: Option<f64>,
}

impl Default for FqCodelConfig {
    fn default() -> Self {
        FqCodelConfig {
            limit: QueueLimit::Packets(10_240),
            flows: 1024,
            quantum_bytes: 1514,
            target_ms: 5.0,
            interval_ms: 100.0,
            mtu_bytes: 1514,
            drop_batch: 64,
            ecn: true,
            ce_threshold_ms: None,
        }
    }
}

impl Described for FqCodelConfig {
    const INFO: Algorithm = Algorithm {
        tag: "fq_codel",
        label: "FQ-CoDel",
        help: "FlowQueue-CoDel (RFC 8290): flows hashed into queues, each under CoDel, served by DRR with new flows first.",
        fields: &[
            Field::new("limit", "Buffer", "", Kind::Limit, "Total buffer; on overflow the fattest queue loses packets."),
            // Linux accepts 1 to 65536 flow queues and a quantum of at least 256 bytes.
            Field::new("flows", "Flow queues", "", Kind::Int(Range::closed(1.0, 65_536.0)), "Hash buckets (RFC 8290: 1024)."),
            Field::new("quantum_bytes", "Quantum", "bytes", Kind::Int(Range::closed(256.0, 1e6)), "DRR credit per round (one MTU: Linux 1514 on Ethernet; ns-3.44 1500 on PointToPoint)."),
            Field::new("drop_batch", "Drop batch", "packets", Kind::Int(Range::closed(1.0, 65_536.0)), "On overflow, drop up to this many from the fattest queue (64)."),
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

impl FqCodelConfig {
    fn codel_params(&self) -> CodelParams {
        CodelParams::new(self.target_ms, self.interval_ms, self.mtu_bytes)
            .with_ecn(self.ecn, self.ce_threshold_ms)
    }
}

impl DiscConfig for FqCodelConfig {
    fn build(&self, cx: BuildCx) -> Box<dyn QueueDisc> {
        Box::new(FqCodel::new(self, cx.rng))
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
        let new: &FqCodelConfig = config_of(new)?;
        self.limit.check_change(&new.limit)?;
        check_flows_unchanged(self.flows, new.flows)
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FqCodelStats {
    /// CoDel drops at dequeue ([`DropReason::Early`]).
    pub early: u64,
    /// Packets dropped from the fattest queue on overflow ([`DropReason::Overflow`]).
    pub overflow: u64,
    /// Times a queue joined the new-flows list (Linux `new_flow_count`).
    pub new_flow_count: u64,
}

#[derive(Clone, Debug, Default)]
struct FlowQueue {
    fifo: PacketFifo,
    codel: CodelState,
}

/// One flow queue as CoDel sees it: popping also updates the disc's total occupancy.
struct FlowView<'a> {
    fifo: &'a mut PacketFifo,
    total: &'a mut Occupancy,
    limit: QueueLimit,
}

impl CodelQueue for FlowView<'_> {
    fn pop_head(&mut self) -> Option<QItem> {
        let it = self.fifo.q.pop_front()?;
        let cells = self.limit.cells_of(it.bytes);
        self.fifo.occ.remove(it.bytes, cells);
        self.total.remove(it.bytes, cells);
        Some(it)
    }
    fn backlog_bytes(&self) -> u64 {
        self.total.bytes
    }
}

#[derive(Clone, Debug)]
pub struct FqCodel {
    cfg: FqCodelConfig,
    params: CodelParams,
    /// Hash perturbation (Linux `q->perturbation`).
    seed: u64,
    queues: Vec<FlowQueue>,
    /// The new and old lists and each queue's deficit (RFC 8290 §4.2).
    lists: FlowLists,
    /// Which queue holds the most bytes; told of every queue whose bytes change.
    fattest: Fattest,
    occ: Occupancy,
    stats: FqCodelStats,
}

impl FqCodel {
    pub fn new(cfg: &FqCodelConfig, mut rng: SimRng) -> FqCodel {
        FqCodel {
            cfg: cfg.clone(),
            params: cfg.codel_params(),
            seed: rng.next_u64(),
            queues: vec![FlowQueue::default(); cfg.flows.max(1) as usize],
            lists: FlowLists::new(cfg.flows.max(1) as usize),
            fattest: Fattest::new(cfg.flows.max(1) as usize),
            occ: Occupancy::default(),
            stats: FqCodelStats::default(),
        }
    }

    /// The queue a flow hashes to (RFC 8290 §4.1.1).
    pub fn queue_index(&self, flow: u32) -> usize {
        queue_index(flow, self.seed, self.queues.len())
    }

    pub fn enqueue(&mut self, item: QItem, cx: &mut QdiscCtx) -> bool {
        let idx = self.queue_index(item.flow);
        let cells = self.cfg.limit.cells_of(item.bytes);
        let fq = &mut self.queues[idx];
        fq.fifo.q.push_back(item);
        fq.fifo.occ.add(item.bytes, cells);
        self.occ.add(item.bytes, cells);
        self.fattest.touch(idx);
        self.lists.activate(idx, self.cfg.quantum_bytes);
        // §4.1: when full, drop from the head of the fattest queue (Linux enqueues first).
        let mut accepted = true;
        while self.cfg.limit.exceeded_by(&self.occ) {
            match self.drop_from_fattest(idx, cx) {
                Some(survived) => accepted &= survived,
                None => break,
            }
        }
        accepted
    }

    /// Linux `fq_codel_drop`: from the queue with the most bytes, drop head packets until half
    /// of its bytes or `drop_batch` packets are gone. Returns whether the arrival (last packet
    /// of queue `arrival_idx`) survived, or `None` if every queue is empty.
    fn drop_from_fattest(&mut self, arrival_idx: usize, cx: &mut QdiscCtx) -> Option<bool> {
        let queues = &self.queues;
        let fat = self.fattest.get(|i| queues[i].fifo.occ.bytes);
        self.fattest.touch(fat);
        let fq = &mut self.queues[fat];
        let threshold = fq.fifo.occ.bytes / 2;
        let (mut len, mut n, mut survived) = (0u64, 0u32, true);
        while let Some(it) = fq.fifo.q.pop_front() {
            let cells = self.cfg.limit.cells_of(it.bytes);
            fq.fifo.occ.remove(it.bytes, cells);
            self.occ.remove(it.bytes, cells);
            let is_arrival = fat == arrival_idx && fq.fifo.q.is_empty();
            survived &= !is_arrival;
            cx.drop(it, DropReason::Overflow, !is_arrival);
            len += u64::from(it.bytes);
            n += 1;
            if n >= self.cfg.drop_batch.max(1) || len >= threshold {
                break;
            }
        }
        // "Tell codel to increase its signal strength also" (Linux).
        fq.codel.add_to_count(n);
        self.stats.overflow += u64::from(n);
        (n > 0).then_some(survived)
    }

    /// RFC 8290 §4.2: serve new flows first, then old ones, each for a quantum of bytes.
    pub fn dequeue(&mut self, cx: &mut QdiscCtx) -> Option<QItem> {
        let now = cx.now;
        let FqCodel { cfg, params, queues, lists, fattest, occ, stats, .. } = self;
        let item = lists.next(
            cfg.quantum_bytes,
            |idx| {
                fattest.touch(idx); // CoDel may pop or drop from it
                let FlowQueue { fifo, codel } = &mut queues[idx];
                let mut view = FlowView { fifo, total: occ, limit: cfg.limit };
                codel.dequeue(params, &mut view, now, &mut |it| {
                    stats.early += 1;
                    cx.drop(it, DropReason::Early, true);
                })
            },
            |it| it.bytes,
        )?;
        self.prefetch_next();
        Some(item)
    }

    /// Starts loading what the next dequeues will likely touch (hints; no effect on results).
    /// With thousands of flows every queue in the round is cold by its turn: the queue after
    /// the head gets its head packet loaded (its struct was asked for a dequeue ago), the one
    /// after that its struct.
    #[inline]
    fn prefetch_next(&self) {
        let mut order = self.lists.order().skip(1);
        if let Some(q) = order.next().and_then(|i| self.queues.get(i)) {
            if let Some(head) = q.fifo.q.front() {
                crate::hint::prefetch(head);
            }
        }
        if let Some(q) = order.next().and_then(|i| self.queues.get(i)) {
            crate::hint::prefetch_lines(q, 2);
        }
    }

    pub fn occupancy(&self) -> Occupancy {
        self.occ
    }

    pub fn limit(&self) -> QueueLimit {
        self.cfg.limit
    }

    pub fn stats(&self) -> FqCodelStats {
        FqCodelStats { new_flow_count: self.lists.new_flow_count, ..self.stats }
    }
}

impl QueueDisc for FqCodel {
    fn item_queue(&self, item: &QItem) -> Option<u32> {
        Some(self.queue_index(item.flow) as u32)
    }
    fn queue_name(&self, q: u32) -> String {
        format!("flow queue {q}")
    }
    fn enqueue(&mut self, item: QItem, cx: &mut QdiscCtx) -> bool {
        FqCodel::enqueue(self, item, cx)
    }
    fn dequeue(&mut self, cx: &mut QdiscCtx) -> Option<QItem> {
        FqCodel::dequeue(self, cx)
    }
    fn occupancy(&self) -> Occupancy {
        self.occ
    }
    fn limit(&self) -> QueueLimit {
        self.cfg.limit
    }
    /// New CoDel parameters, quantum and drop batch apply from the next packet; every flow
    /// queue keeps its packets, deficit and CoDel state. The hash table's size cannot change.
    fn retune(&mut self, cfg: &dyn Any, _link_rate: Rate, _now: SimTime) -> Result<(), String> {
        self.cfg.retune_check(cfg)?;
        let cfg: &FqCodelConfig = config_of(cfg)?;
        self.params = cfg.codel_params();
        self.cfg = cfg.clone();
        Ok(())
    }
    /// The flow's queue struct, then the end of its packet buffer where the arrival goes.
    fn prefetch_flow(&self, flow: u32, tail: bool) {
        let Some(q) = self.queues.get(self.queue_index(flow)) else { return };
        if !tail {
            crate::hint::prefetch_lines(q, 2);
        } else if let Some(last) = q.fifo.q.back() {
            crate::hint::prefetch_lines(last, 2);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::StreamId;

    fn fq_codel(cfg: FqCodelConfig) -> FqCodel {
        FqCodel::new(&cfg, SimRng::new(1, StreamId::Queue(0)))
    }

    fn enq(f: &mut FqCodel, it: QItem, drops: &mut Vec<crate::aqm::Dropped>) -> bool {
        f.enqueue(it, &mut QdiscCtx::new(SimTime::ZERO, drops))
    }

    fn deq(f: &mut FqCodel, drops: &mut Vec<crate::aqm::Dropped>) -> Option<QItem> {
        f.dequeue(&mut QdiscCtx::new(SimTime::ZERO, drops))
    }

    fn item(id: u32, flow: u32, bytes: u32) -> QItem {
        QItem { id, bytes, flow, enqueued_at: SimTime::ZERO, conn: 0, ..QItem::default() }
    }

    /// A flow id that hashes to a queue none of `taken` use.
    fn flow_apart(f: &FqCodel, taken: &[u32]) -> u32 {
        (1..).find(|&c| taken.iter().all(|&t| f.queue_index(c) != f.queue_index(t))).unwrap()
    }

    #[test]
    fn fq_codel_new_flow_is_served_before_old_flows() {
        let mut f = fq_codel(FqCodelConfig::default());
        let (a, b) = (0, flow_apart(&f, &[0]));
        let mut drops = Vec::new();
        for id in 0..50 {
            enq(&mut f, item(id, a, 100), &mut drops);
        }
        // 17 packets of 100 B: the first quantum (1514 B) is spent, A moves to the old list.
        for _ in 0..17 {
            assert_eq!(deq(&mut f, &mut drops).unwrap().flow, a);
        }
        assert!(f.lists.is_old(f.queue_index(a)));
        enq(&mut f, item(100, b, 1000), &mut drops);
        assert_eq!(deq(&mut f, &mut drops).unwrap().id, 100, "the sparse flow jumps the backlog");
        // B emptied while new: it goes to the old list's tail, so a second packet from B gets
        // no new-flow priority and waits behind A (§4.2).
        assert_eq!(deq(&mut f, &mut drops).unwrap().flow, a);
        enq(&mut f, item(101, b, 1000), &mut drops);
        assert_eq!(deq(&mut f, &mut drops).unwrap().flow, a);
        assert!(drops.is_empty());
    }

    #[test]
    fn fq_codel_drr_alternates_old_flows_by_quantum() {
        let mut f = fq_codel(FqCodelConfig::default());
        let (a, b) = (0, flow_apart(&f, &[0]));
        let mut drops = Vec::new();
        for id in 0..200 {
            enq(&mut f, item(id, if id % 2 == 0 { a } else { b }, 500), &mut drops);
        }
        let mut bytes = [0u64; 2];
        for _ in 0..150 {
            let it = deq(&mut f, &mut drops).unwrap();
            bytes[usize::from(it.flow != a)] += u64::from(it.bytes);
        }
        assert!(bytes[0].abs_diff(bytes[1]) <= 2 * 1514, "{bytes:?}");
    }

    #[test]
    fn fq_codel_overflow_drops_from_the_fattest_queue() {
        let cfg = FqCodelConfig { limit: QueueLimit::Packets(10), ..FqCodelConfig::default() };
        let mut f = fq_codel(cfg);
        let (a, b) = (0, flow_apart(&f, &[0]));
        let mut drops = Vec::new();
        for id in 0..7 {
            enq(&mut f, item(id, a, 1000), &mut drops);
        }
        for id in 7..10 {
            enq(&mut f, item(id, b, 1000), &mut drops);
        }
        assert!(drops.is_empty());
        // The 11th packet (flow B) is accepted; A (7000 B) loses head packets until half its
        // bytes are gone: 4 packets.
        assert!(enq(&mut f, item(10, b, 1000), &mut drops));
        let ids: Vec<u32> = drops.iter().map(|d| d.item.id).collect();
        assert_eq!(ids, [0, 1, 2, 3]);
        assert!(drops.iter().all(|d| d.reason == DropReason::Overflow && d.was_queued));
        assert_eq!(f.occupancy().packets, 7);
        assert_eq!(f.queues[f.queue_index(a)].codel.count(), 4);
    }

    #[test]
    fn fq_codel_overflow_batch_is_capped_at_drop_batch() {
        let cfg = FqCodelConfig { limit: QueueLimit::Packets(20), drop_batch: 2, ..FqCodelConfig::default() };
        let mut f = fq_codel(cfg);
        let mut drops = Vec::new();
        for id in 0..21 {
            enq(&mut f, item(id, 0, 1000), &mut drops);
        }
        assert_eq!(drops.len(), 2);
        assert_eq!(f.occupancy().packets, 19);
    }

    #[test]
    fn fq_codel_arrival_dropped_from_its_own_fat_queue_is_reported_as_not_queued() {
        let cfg = FqCodelConfig { limit: QueueLimit::Packets(2), ..FqCodelConfig::default() };
        let mut f = fq_codel(cfg);
        let b = flow_apart(&f, &[0]);
        let c = flow_apart(&f, &[0, b]);
        let mut drops = Vec::new();
        enq(&mut f, item(0, 0, 100), &mut drops);
        enq(&mut f, item(1, b, 100), &mut drops);
        assert!(!enq(&mut f, item(2, c, 1500), &mut drops));
        assert_eq!(drops.len(), 1);
        assert_eq!((drops[0].item.id, drops[0].was_queued), (2, false));
        assert_eq!((f.occupancy().packets, f.occupancy().bytes), (2, 200));
    }

    #[test]
    fn fq_codel_hashing_is_deterministic_per_seed() {
        let cfg = FqCodelConfig::default();
        let f1 = FqCodel::new(&cfg, SimRng::new(9, StreamId::Queue(0)));
        let f2 = FqCodel::new(&cfg, SimRng::new(9, StreamId::Queue(0)));
        let f3 = FqCodel::new(&cfg, SimRng::new(10, StreamId::Queue(0)));
        assert!((0..100).all(|fl| f1.queue_index(fl) == f2.queue_index(fl)));
        assert!((0..100).any(|fl| f1.queue_index(fl) != f3.queue_index(fl)));
        assert!((0..10_000).all(|fl| f1.queue_index(fl) < 1024));
    }

    #[test]
    fn fq_codel_fattest_queue_is_the_one_a_full_scan_finds_under_random_load() {
        let limit = QueueLimit::Packets(60);
        let mut f = fq_codel(FqCodelConfig { limit, flows: 50, ..FqCodelConfig::default() });
        let mut rng = SimRng::new(6, StreamId::Other(1));
        let mut drops = Vec::new();
        for i in 0..20_000u64 {
            let now = SimTime(i * 100_000);
            let mut cx = QdiscCtx::new(now, &mut drops);
            if rng.uniform() < 0.6 {
                let flow = rng.below(80) as u32;
                let it = QItem {
                    id: i as u32,
                    bytes: 64 + rng.below(1450) as u32,
                    flow,
                    enqueued_at: now,
                    conn: 0,
                    ..QItem::default()
                };
                f.enqueue(it, &mut cx);
            }
            if rng.uniform() < 0.5 {
                f.dequeue(&mut cx);
            }
            drops.clear();
            // Linux's scan: the first queue holding the most bytes.
            let mut fat = 0;
            for (q, fq) in f.queues.iter().enumerate() {
                if fq.fifo.occ.bytes > f.queues[fat].fifo.occ.bytes {
                    fat = q;
                }
            }
            let queues = f.queues.clone();
            assert_eq!(f.fattest.get(|q| queues[q].fifo.occ.bytes), fat);
        }
    }

    #[test]
    fn fq_codel_occupancy_is_conserved_under_random_load() {
        let limit = QueueLimit::Packets(60);
        let mut f = fq_codel(FqCodelConfig { limit, flows: 16, ..FqCodelConfig::default() });
        let mut rng = SimRng::new(5, StreamId::Other(1));
        let (mut accepted, mut sent, mut queued_drops) = (0u64, 0u64, 0u64);
        let mut drops = Vec::new();
        for i in 0..200_000u64 {
            let now = SimTime(i * 100_000);
            let mut cx = QdiscCtx::new(now, &mut drops);
            if rng.uniform() < 0.6 {
                let it = QItem {
                    id: i as u32,
                    bytes: 64 + rng.below(1450) as u32,
                    flow: rng.below(40) as u32,
                    enqueued_at: now,
                    conn: 0,
                    ..QItem::default()
                };
                accepted += u64::from(f.enqueue(it, &mut cx));
            }
            if rng.uniform() < 0.5 && f.dequeue(&mut cx).is_some() {
                sent += 1;
            }
            queued_drops += drops.iter().filter(|d| d.was_queued).count() as u64;
            drops.clear();
            let mut sum = Occupancy::default();
            for q in &f.queues {
                let b: u64 = q.fifo.q.iter().map(|i| u64::from(i.bytes)).sum();
                assert_eq!((q.fifo.q.len() as u32, b), (q.fifo.occ.packets, q.fifo.occ.bytes));
                for i in &q.fifo.q {
                    sum.add(i.bytes, limit.cells_of(i.bytes));
                }
            }
            assert_eq!(sum, f.occupancy());
            assert!(f.occupancy().packets <= 60);
        }
        assert_eq!(accepted, sent + queued_drops + u64::from(f.occupancy().packets));
        let s = f.stats();
        assert!(s.early > 0 && s.overflow > 0, "{s:?}");
    }
}
