//! Step marking, DCTCP's switch rule (Alizadeh et al., SIGCOMM 2010, §3.1; RFC 8257 §3.1):
//! a packet that arrives with more than K packets queued is marked CE if its transport is
//! ECN-capable; one that is not is dropped. ns-3 builds the step from its RedQueueDisc
//! (MinTh = MaxTh = K, QW = 1, UseEcn, no hard drop: `tests/ns3/dumbbell.cc --qdisc=step`),
//! which marks an arrival that finds K or more packets, so its K is this disc's K + 1
//! (ns-3.44's `dctcp-example.cc` itself runs a gentle RED ramp from 20 to 60 packets, not a
//! step). Tail drop at the limit.

use super::{BuildCx, DiscConfig, DropReason, Occupancy, QItem, QdiscCtx, QueueDisc, QueueLimit};
use crate::params::{Algorithm, Checker, Described, Field, Kind, Range};
use crate::queue::config_of;
use crate::time::{Rate, SimTime};
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::collections::VecDeque;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StepConfig {
    pub limit: QueueLimit,
    /// K: packets already queued above which an arrival is marked (DCTCP's guideline for
    /// 1 Gbit/s is 20, for 10 Gbit/s 65).
    pub k_packets: u32,
}

impl Default for StepConfig {
    fn default() -> Self {
        StepConfig { limit: QueueLimit::Packets(1000), k_packets: 20 }
    }
}

impl Described for StepConfig {
    const INFO: Algorithm = Algorithm {
        tag: "step",
        label: "Step marking (DCTCP)",
        help: "Marks an ECN-capable arrival CE when more than K packets are queued, drops any other (DCTCP's switch rule); tail drop at the buffer.",
        fields: &[
            Field::new("limit", "Buffer", "", Kind::Limit, "Hard limit; arrivals beyond it are tail-dropped."),
            Field::new("k_packets", "K", "packets", Kind::Int(Range::closed(1.0, 1e6)), "Marking threshold on the instantaneous queue (DCTCP: 20 at 1 Gbit/s, 65 at 10 Gbit/s)."),
        ],
        flavours: &[],
    };

    fn check_more(&self, c: &mut Checker) {
        if let QueueLimit::Packets(n) = self.limit {
            if self.k_packets >= n {
                c.push("k_packets", self.k_packets.to_string(), format!("below the buffer of {n} packets"));
            }
        }
    }
}

impl DiscConfig for StepConfig {
    fn build(&self, _cx: BuildCx) -> Box<dyn QueueDisc> {
        Box::new(Step { cfg: self.clone(), q: VecDeque::new(), occ: Occupancy::default() })
    }
    fn limit(&self) -> QueueLimit {
        self.limit
    }
    fn set_limit(&mut self, limit: QueueLimit, _packet_bytes: u32) {
        self.limit = limit;
    }
    fn retune_check(&self, new: &dyn Any) -> Result<(), String> {
        self.limit.check_change(&config_of::<StepConfig>(new)?.limit)
    }
}

#[derive(Clone, Debug)]
pub struct Step {
    cfg: StepConfig,
    q: VecDeque<QItem>,
    occ: Occupancy,
}

impl QueueDisc for Step {
    fn enqueue(&mut self, mut item: QItem, cx: &mut QdiscCtx) -> bool {
        let above = self.occ.packets > self.cfg.k_packets;
        // What cannot be marked is dropped as RED drops in its hard zone (ns-3's forced
        // drop with MinTh = MaxTh = K).
        if above && !item.mark(DropReason::Threshold) {
            cx.drop(item, DropReason::Forced, false);
            return false;
        }
        if !self.cfg.limit.admits(&self.occ, item.bytes) {
            cx.drop(item, DropReason::Overflow, false);
            return false;
        }
        self.occ.add(item.bytes, self.cfg.limit.cells_of(item.bytes));
        self.q.push_back(item);
        true
    }

    fn dequeue(&mut self, _cx: &mut QdiscCtx) -> Option<QItem> {
        let item = self.q.pop_front()?;
        self.occ.remove(item.bytes, self.cfg.limit.cells_of(item.bytes));
        Some(item)
    }

    fn occupancy(&self) -> Occupancy {
        self.occ
    }

    fn limit(&self) -> QueueLimit {
        self.cfg.limit
    }

    fn retune(&mut self, cfg: &dyn Any, _link_rate: Rate, _now: SimTime) -> Result<(), String> {
        self.cfg = config_of::<StepConfig>(cfg)?.clone();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::Ecn;

    #[test]
    fn above_k_an_ect_arrival_is_marked_and_a_not_ect_one_dropped() {
        let mut s = StepConfig { limit: QueueLimit::Packets(10), k_packets: 2 }.build(crate::aqm::tests_cx());
        let mut drops = Vec::new();
        let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
        let it = |id, ecn| QItem { id, bytes: 1000, ecn, ..QItem::default() };
        for id in 0..3 {
            assert!(s.enqueue(it(id, Ecn::Ect0), &mut cx));
        }
        // Three queued, more than K = 2: marked, or dropped when it cannot be.
        assert!(s.enqueue(it(3, Ecn::Ect0), &mut cx));
        assert!(!s.enqueue(it(4, Ecn::NotEct), &mut cx));
        let out: Vec<_> = std::iter::from_fn(|| s.dequeue(&mut cx)).map(|q| q.marked).collect();
        assert_eq!(out, vec![None, None, None, Some(DropReason::Threshold)]);
        assert_eq!(drops.len(), 1);
        assert_eq!(drops[0].reason, DropReason::Forced);
    }
}
