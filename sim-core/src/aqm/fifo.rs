//! Tail-drop FIFO: accept while the limit allows, drop arrivals when full.

use super::{BuildCx, DiscConfig, DropReason, Occupancy, QItem, QdiscCtx, QueueDisc, QueueLimit};
use crate::params::{Algorithm, Described, Field, Kind};
use crate::queue::config_of;
use crate::time::{Rate, SimTime};
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::collections::VecDeque;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FifoConfig {
    pub limit: QueueLimit,
}

impl Described for FifoConfig {
    const INFO: Algorithm = Algorithm {
        tag: "fifo",
        label: "FIFO",
        help: "Tail drop: packets wait in arrival order and arrivals are dropped when the buffer is full.",
        fields: &[Field::new("limit", "Buffer", "", Kind::Limit, "Packets, bytes or cells the queue holds.")],
        flavours: &[],
    };
}

impl DiscConfig for FifoConfig {
    fn build(&self, _cx: BuildCx) -> Box<dyn QueueDisc> {
        Box::new(Fifo::new(self.limit))
    }
    fn limit(&self) -> QueueLimit {
        self.limit
    }
    fn set_limit(&mut self, limit: QueueLimit, _packet_bytes: u32) {
        self.limit = limit;
    }
    fn retune_check(&self, new: &dyn Any) -> Result<(), String> {
        self.limit.check_change(&config_of::<FifoConfig>(new)?.limit)
    }
}

#[derive(Clone, Debug)]
pub struct Fifo {
    limit: QueueLimit,
    q: VecDeque<QItem>,
    occ: Occupancy,
}

impl Fifo {
    pub fn new(limit: QueueLimit) -> Fifo {
        Fifo { limit, q: VecDeque::new(), occ: Occupancy::default() }
    }
}

impl QueueDisc for Fifo {
    fn enqueue(&mut self, item: QItem, cx: &mut QdiscCtx) -> bool {
        if !self.limit.admits(&self.occ, item.bytes) {
            cx.drop(item, DropReason::Overflow, false);
            return false;
        }
        self.occ.add(item.bytes, self.limit.cells_of(item.bytes));
        self.q.push_back(item);
        true
    }

    fn dequeue(&mut self, _cx: &mut QdiscCtx) -> Option<QItem> {
        let item = self.q.pop_front()?;
        self.occ.remove(item.bytes, self.limit.cells_of(item.bytes));
        Some(item)
    }

    fn occupancy(&self) -> Occupancy {
        self.occ
    }

    fn limit(&self) -> QueueLimit {
        self.limit
    }

    fn retune(&mut self, cfg: &dyn Any, _link_rate: Rate, _now: SimTime) -> Result<(), String> {
        FifoConfig { limit: self.limit }.retune_check(cfg)?;
        self.limit = config_of::<FifoConfig>(cfg)?.limit;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: u32) -> QItem {
        QItem { id, bytes: 1000, flow: 0, enqueued_at: SimTime::ZERO, conn: 0, ..QItem::default() }
    }

    #[test]
    fn full_fifo_drops_the_arrival_and_keeps_order() {
        let mut drops = Vec::new();
        let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
        let mut f = Fifo::new(QueueLimit::Packets(2));
        assert!(f.enqueue(item(1), &mut cx));
        assert!(f.enqueue(item(2), &mut cx));
        assert!(!f.enqueue(item(3), &mut cx));
        assert_eq!(f.dequeue(&mut cx).map(|i| i.id), Some(1));
        assert_eq!(f.dequeue(&mut cx).map(|i| i.id), Some(2));
        assert_eq!(f.dequeue(&mut cx), None);
        assert_eq!(drops.len(), 1);
        assert_eq!(drops[0].reason, DropReason::Overflow);
    }
}
