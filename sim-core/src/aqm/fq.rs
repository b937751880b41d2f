//! Ideal fair queueing: one FIFO per flow id (exact, no hashing, no collisions), served by
//! deficit round robin with a quantum of one MTU, sharing one buffer limit. On overflow the
//! longest queue (by bytes) loses its head packet. This is the fairness upper bound of the
//! Warbler paper's Fig. 11.
//!
//! DRR as in Shreedhar & Varghese (1996) and Linux `sch_drr`: a queue becoming active joins
//! the tail of the active list with a full quantum; the head queue sends while its head
//! packet fits in the deficit, otherwise it gains a quantum and moves to the tail; a queue
//! that empties leaves the list. Dropping from the front of the longest queue is
//! "longest queue drop" with drop-from-front (Suter et al. 1998), as FQ-CoDel also does.

use super::codel::PacketFifo;
use super::{BuildCx, DiscConfig, DropReason, Occupancy, QItem, QdiscCtx, QueueDisc, QueueLimit};
use crate::params::{Algorithm, Described, Field, Kind, Range};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

/// Ideal-FQ parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FqConfig {
    /// Buffer shared by all flow queues (default 100 packets, as the FIFO's default).
    pub limit: QueueLimit,
    /// DRR quantum, bytes (default 1514, one Ethernet MTU).
    pub quantum_bytes: u32,
}

impl Default for FqConfig {
    fn default() -> Self {
        FqConfig { limit: QueueLimit::default(), quantum_bytes: 1514 }
    }
}

impl Described for FqConfig {
    const INFO: Algorithm = Algorithm {
        tag: "fq",
        label: "Ideal FQ",
        help:
            "One queue per flow served by deficit round robin: the fairness upper bound of Warbler's Fig. 11.",
        fields: &[
            Field::new(
                "limit",
                "Buffer",
                "",
                Kind::Limit,
                "Shared by all flow queues; on overflow the longest loses its head.",
            ),
            Field::new(
                "quantum_bytes",
                "Quantum",
                "bytes",
                Kind::Int(Range::closed(64.0, 1e6)),
                "DRR credit per round (one MTU, 1514).",
            ),
        ],
        flavours: &[],
    };
}

impl DiscConfig for FqConfig {
    fn build(&self, _cx: BuildCx) -> Box<dyn QueueDisc> {
        Box::new(Fq::new(self))
    }
    fn limit(&self) -> QueueLimit {
        self.limit
    }
    fn set_limit(&mut self, limit: QueueLimit, _packet_bytes: u32) {
        self.limit = limit;
    }
}

#[derive(Clone, Debug, Default)]
struct FlowQueue {
    flow: u32,
    fifo: PacketFifo,
    deficit: u64,
    active: bool,
}

#[derive(Clone, Debug)]
pub struct Fq {
    cfg: FqConfig,
    /// Flow id → index into `queues` (ordered map: no iteration-order dependence).
    index: BTreeMap<u32, u32>,
    queues: Vec<FlowQueue>,
    /// Queues holding packets, in round-robin order.
    active: VecDeque<u32>,
    occ: Occupancy,
    overflow_drops: u64,
}

impl Fq {
    pub fn new(cfg: &FqConfig) -> Fq {
        Fq {
            cfg: cfg.clone(),
            index: BTreeMap::new(),
            queues: Vec::new(),
            active: VecDeque::new(),
            occ: Occupancy::default(),
            overflow_drops: 0,
        }
    }

    fn queue_of(&mut self, flow: u32) -> usize {
        let next = self.queues.len() as u32;
        let i = *self.index.entry(flow).or_insert(next);
        if i == next {
            self.queues.push(FlowQueue { flow, ..FlowQueue::default() });
        }
        i as usize
    }

    pub fn enqueue(&mut self, item: QItem, cx: &mut QdiscCtx) -> bool {
        let idx = self.queue_of(item.flow);
        let cells = self.cfg.limit.cells_of(item.bytes);
        let q = &mut self.queues[idx];
        q.fifo.q.push_back(item);
        q.fifo.occ.add(item.bytes, cells);
        self.occ.add(item.bytes, cells);
        if !q.active {
            // DRR: a newly active queue joins the tail with a full quantum (Linux sch_drr).
            q.active = true;
            q.deficit = u64::from(self.cfg.quantum_bytes);
            self.active.push_back(idx as u32);
        }
        // Accept first, then drop from the longest queue until the buffer fits again.
        let mut accepted = true;
        while self.cfg.limit.exceeded_by(&self.occ) {
            let Some(longest) = self.longest() else { break };
            let q = &mut self.queues[longest];
            let it = q.fifo.q.pop_front().expect("the longest queue holds a packet");
            let cells = self.cfg.limit.cells_of(it.bytes);
            q.fifo.occ.remove(it.bytes, cells);
            self.occ.remove(it.bytes, cells);
            // The arrival is the last packet of its queue: it is dropped only if that empties it.
            let is_arrival = longest == idx && q.fifo.q.is_empty();
            accepted &= !is_arrival;
            cx.drop(it, DropReason::Overflow, !is_arrival);
            self.overflow_drops += 1;
            if q.fifo.q.is_empty() {
                self.deactivate(longest);
            }
        }
        accepted
    }

    /// The active queue with the most bytes; ties go to the lowest flow id.
    fn longest(&self) -> Option<usize> {
        self.active.iter().map(|&i| i as usize).max_by(|&a, &b| {
            let (qa, qb) = (&self.queues[a], &self.queues[b]);
            qa.fifo.occ.bytes.cmp(&qb.fifo.occ.bytes).then(qb.flow.cmp(&qa.flow))
        })
    }

    fn deactivate(&mut self, idx: usize) {
        self.queues[idx].active = false;
        if let Some(pos) = self.active.iter().position(|&i| i as usize == idx) {
            self.active.remove(pos);
        }
    }

    pub fn dequeue(&mut self) -> Option<QItem> {
        let quantum = u64::from(self.cfg.quantum_bytes.max(1));
        loop {
            let idx = *self.active.front()? as usize;
            let q = &mut self.queues[idx];
            let head = u64::from(q.fifo.q.front().expect("an active queue holds a packet").bytes);
            if head > q.deficit {
                // Not enough credit: top up and go to the back of the round.
                q.deficit += quantum;
                self.active.rotate_left(1);
                continue;
            }
            q.deficit -= head;
            let it = q.fifo.q.pop_front().expect("head packet");
            let cells = self.cfg.limit.cells_of(it.bytes);
            q.fifo.occ.remove(it.bytes, cells);
            self.occ.remove(it.bytes, cells);
            if q.fifo.q.is_empty() {
                q.active = false;
                self.active.pop_front();
            }
            return Some(it);
        }
    }

    pub fn occupancy(&self) -> Occupancy {
        self.occ
    }

    pub fn limit(&self) -> QueueLimit {
        self.cfg.limit
    }

    pub fn overflow_drops(&self) -> u64 {
        self.overflow_drops
    }

    /// Bytes queued for `flow` (0 for a flow never seen).
    pub fn flow_bytes(&self, flow: u32) -> u64 {
        self.index.get(&flow).map_or(0, |&i| self.queues[i as usize].fifo.occ.bytes)
    }
}

impl QueueDisc for Fq {
    fn item_queue(&self, item: &QItem) -> Option<u32> {
        self.index.get(&item.flow).copied()
    }
    fn queue_name(&self, q: u32) -> String {
        format!("flow {}", self.queues.get(q as usize).map_or(q, |f| f.flow))
    }
    fn enqueue(&mut self, item: QItem, cx: &mut QdiscCtx) -> bool {
        Fq::enqueue(self, item, cx)
    }
    fn dequeue(&mut self, _cx: &mut QdiscCtx) -> Option<QItem> {
        Fq::dequeue(self)
    }
    fn occupancy(&self) -> Occupancy {
        self.occ
    }
    fn limit(&self) -> QueueLimit {
        self.cfg.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{SimRng, StreamId};
    use crate::time::SimTime;

    fn enq(f: &mut Fq, it: QItem, drops: &mut Vec<crate::aqm::Dropped>) -> bool {
        f.enqueue(it, &mut QdiscCtx::new(SimTime::ZERO, drops))
    }

    fn item(id: u32, flow: u32, bytes: u32) -> QItem {
        QItem { id, bytes, flow, enqueued_at: SimTime::ZERO, conn: 0, ..QItem::default() }
    }

    #[test]
    fn fq_drr_gives_backlogged_flows_equal_bytes() {
        let mut f = Fq::new(&FqConfig { limit: QueueLimit::Packets(10_000), quantum_bytes: 1514 });
        let sizes = [1500u32, 576, 64, 1000];
        let mut drops = Vec::new();
        let mut id = 0;
        let mut served = [0u64; 4];
        for round in 0..20_000 {
            // Keep every flow backlogged.
            for (fl, &b) in sizes.iter().enumerate() {
                while f.flow_bytes(fl as u32) < 4 * 1514 {
                    enq(&mut f, item(id, fl as u32, b), &mut drops);
                    id += 1;
                }
            }
            let it = f.dequeue().unwrap();
            served[it.flow as usize] += u64::from(it.bytes);
            if round > 100 {
                let (lo, hi) = (served.iter().min().unwrap(), served.iter().max().unwrap());
                // DRR's bound: within a quantum plus a maximum packet of each other.
                assert!(hi - lo <= 1514 + 1500, "round {round}: {served:?}");
            }
        }
        assert!(drops.is_empty());
    }

    #[test]
    fn fq_overflow_drops_from_the_longest_queue() {
        let mut f = Fq::new(&FqConfig { limit: QueueLimit::Packets(6), ..FqConfig::default() });
        let mut drops = Vec::new();
        for id in 0..4 {
            enq(&mut f, item(id, 7, 1000), &mut drops);
        }
        enq(&mut f, item(4, 3, 1000), &mut drops);
        enq(&mut f, item(5, 3, 1000), &mut drops);
        // Flow 7 holds 4000 B, flow 3 3000 B with the arrival: flow 7 loses its head.
        assert!(enq(&mut f, item(6, 3, 1000), &mut drops));
        assert_eq!(drops.len(), 1);
        assert_eq!((drops[0].item.id, drops[0].reason, drops[0].was_queued), (0, DropReason::Overflow, true));
        assert_eq!((f.flow_bytes(7), f.flow_bytes(3)), (3000, 3000));
        // Now flow 3 is longest: its own arrival pushes out its head, not the arrival.
        assert!(enq(&mut f, item(7, 3, 1000), &mut drops));
        assert_eq!((drops[1].item.id, drops[1].was_queued), (4, true));
        assert_eq!(f.occupancy().packets, 6);
    }

    #[test]
    fn fq_arrival_that_is_the_longest_queue_alone_is_refused() {
        let limit = QueueLimit::Bytes(3000);
        let mut f = Fq::new(&FqConfig { limit, ..FqConfig::default() });
        let mut drops = Vec::new();
        enq(&mut f, item(0, 1, 1000), &mut drops);
        enq(&mut f, item(1, 2, 1000), &mut drops);
        assert!(!enq(&mut f, item(2, 3, 1500), &mut drops));
        assert_eq!((drops[0].item.id, drops[0].was_queued), (2, false));
        assert_eq!(f.occupancy().bytes, 2000);
        assert_eq!(f.dequeue().map(|i| i.flow), Some(1));
        assert_eq!(f.dequeue().map(|i| i.flow), Some(2));
        assert_eq!(f.dequeue(), None);
    }

    #[test]
    fn fq_keeps_per_flow_order_and_a_single_flow_is_plain_fifo() {
        let mut f = Fq::new(&FqConfig::default());
        let mut drops = Vec::new();
        for id in 0..50 {
            enq(&mut f, item(id, 4, 100 + 37 * id), &mut drops);
        }
        let order: Vec<u32> = std::iter::from_fn(|| f.dequeue()).map(|i| i.id).collect();
        assert_eq!(order, (0..50).collect::<Vec<_>>());
    }

    #[test]
    fn fq_occupancy_is_conserved_under_random_load() {
        let limit = QueueLimit::Cells { cells: 600, cell_bytes: 80 };
        let mut f = Fq::new(&FqConfig { limit, ..FqConfig::default() });
        let mut rng = SimRng::new(11, StreamId::Other(2));
        let (mut accepted, mut sent, mut queued_drops) = (0u64, 0u64, 0u64);
        let mut drops = Vec::new();
        for i in 0..100_000u32 {
            let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
            if rng.uniform() < 0.6 {
                let it = item(i, rng.below(30) as u32, 40 + rng.below(1474) as u32);
                accepted += u64::from(f.enqueue(it, &mut cx));
            }
            if rng.uniform() < 0.5 && f.dequeue().is_some() {
                sent += 1;
            }
            queued_drops += drops.iter().filter(|d| d.was_queued).count() as u64;
            drops.clear();
            let mut sum = Occupancy::default();
            for q in &f.queues {
                assert_eq!(q.active, !q.fifo.q.is_empty());
                for it in &q.fifo.q {
                    sum.add(it.bytes, limit.cells_of(it.bytes));
                }
            }
            assert_eq!(sum, f.occupancy());
            assert!(sum.cells <= 600);
            assert_eq!(f.active.len(), f.queues.iter().filter(|q| q.active).count());
        }
        assert_eq!(accepted, sent + queued_drops + u64::from(f.occupancy().packets));
        assert!(f.overflow_drops() > 0);
    }
}
