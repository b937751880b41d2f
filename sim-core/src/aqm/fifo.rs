//! Tail-drop FIFO: accept while the limit allows, drop arrivals when full.

use super::{DropReason, QItem, QdiscCtx, QueueLimit};
use crate::aqm::limit::Occupancy;
use std::collections::VecDeque;

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

    pub fn enqueue(&mut self, item: QItem, cx: &mut QdiscCtx) -> bool {
        if !self.limit.admits(&self.occ, item.bytes) {
            cx.drop(item, DropReason::Overflow, false);
            return false;
        }
        self.occ.add(item.bytes, self.limit.cells_of(item.bytes));
        self.q.push_back(item);
        true
    }

    pub fn dequeue(&mut self) -> Option<QItem> {
        let item = self.q.pop_front()?;
        self.occ.remove(item.bytes, self.limit.cells_of(item.bytes));
        Some(item)
    }

    pub fn occupancy(&self) -> Occupancy {
        self.occ
    }

    pub fn limit(&self) -> QueueLimit {
        self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimTime;

    fn item(id: u32) -> QItem {
        QItem { id, bytes: 1000, flow: 0, enqueued_at: SimTime::ZERO }
    }

    #[test]
    fn full_fifo_drops_the_arrival_and_keeps_order() {
        let mut drops = Vec::new();
        let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
        let mut f = Fifo::new(QueueLimit::Packets(2));
        assert!(f.enqueue(item(1), &mut cx));
        assert!(f.enqueue(item(2), &mut cx));
        assert!(!f.enqueue(item(3), &mut cx));
        assert_eq!(drops.len(), 1);
        assert_eq!(drops[0].reason, DropReason::Overflow);
        assert_eq!(f.dequeue().map(|i| i.id), Some(1));
        assert_eq!(f.dequeue().map(|i| i.id), Some(2));
        assert_eq!(f.dequeue(), None);
    }
}
