//! A unidirectional link: an egress queue disc, an optional NIC transmit queue beneath it,
//! serialisation at the link rate and a fixed propagation delay.
//!
//! With a NIC queue of N packets the queue disc is only asked for a packet while the NIC
//! holds fewer than N (ns-3's flow control between a queue disc and a device queue), so the
//! disc only builds up once the device queue is full.

use crate::queue::{Occupancy, QItem, QueueDisc, QueueLimit};
use crate::time::{Rate, SimDuration, SimTime};
use std::collections::VecDeque;

/// Rate, delay and queue of one direction of a link.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkSpec {
    pub rate: Rate,
    pub delay: SimDuration,
    /// Device (NIC) transmit queue under the disc, in packets; 0 = none.
    pub nic_queue_packets: u32,
}

/// The fields a packet crossing a closed-form link touches come first, in a cache-aligned
/// block (`repr(C)` keeps the order): with 20 000 host links, one cold link per hop costs
/// one or two cache lines instead of pieces of four.
#[derive(Debug)]
#[repr(C, align(64))]
pub struct Link {
    /// Host and reverse-path links: a tail-drop FIFO solved in closed form, each packet's
    /// departure known when it arrives; `None` for the bottleneck, whose disc sees every
    /// dequeue.
    pub fifo: Option<ClosedFormFifo>,
    pub spec: LinkSpec,
    /// Bytes that finished serialisation on this link.
    pub tx_bytes: u64,
    pub tx_packets: u64,
    pub qdisc: Box<dyn QueueDisc>,
    pub nic: VecDeque<NicItem>,
    /// The packet being serialised, if any, and when its last bit is sent (`SimTime::MAX`
    /// when idle).
    pub transmitting: Option<QItem>,
    pub done_at: SimTime,
}

/// A packet in the device queue, with when it left the disc above (its wait splits into
/// the disc's part and the device queue's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NicItem {
    pub item: QItem,
    pub left_disc: SimTime,
}

/// A tail-drop FIFO whose departures are computed when packets arrive: with no AQM acting
/// at dequeue, a packet starts transmitting at max(arrival, previous departure).
#[derive(Clone, Debug)]
pub struct ClosedFormFifo {
    limit: QueueLimit,
    /// Start-of-transmission times of packets still waiting, with their sizes.
    waiting: VecDeque<(SimTime, u32)>,
    occ: Occupancy,
    busy_until: SimTime,
}

impl ClosedFormFifo {
    pub fn new(limit: QueueLimit) -> Self {
        ClosedFormFifo {
            limit,
            waiting: VecDeque::new(),
            occ: Occupancy::default(),
            busy_until: SimTime::ZERO,
        }
    }

    /// What waits at `now` (packets whose transmission has started are gone).
    pub fn occupancy_at(&self, now: SimTime) -> Occupancy {
        if self.busy_until <= now {
            return Occupancy::default();
        }
        let mut occ = self.occ;
        for &(_, b) in self.waiting.iter().take_while(|&&(start, _)| start <= now) {
            occ.remove(b, self.limit.cells_of(b));
        }
        occ
    }

    /// Admits a packet arriving at `now`; returns when its last bit leaves, or `None` if
    /// the queue (packets waiting, not the one on the wire) is full.
    pub fn admit(&mut self, now: SimTime, bytes: u32, tx: SimDuration) -> Option<SimTime> {
        if self.busy_until <= now {
            // Everything that waited has started: forget it without reading the list (its
            // buffer is another allocation, cold on an access link: 3/4 of the time this
            // took at 10 000 flows was that read).
            self.waiting.clear();
            self.occ = Occupancy::default();
        }
        while let Some(&(start, b)) = self.waiting.front() {
            if start > now {
                break;
            }
            self.waiting.pop_front();
            self.occ.remove(b, self.limit.cells_of(b));
        }
        let start = self.busy_until.max(now);
        if start > now {
            if !self.limit.admits(&self.occ, bytes) {
                return None;
            }
            self.waiting.push_back((start, bytes));
            self.occ.add(bytes, self.limit.cells_of(bytes));
        }
        self.busy_until = start + tx;
        Some(self.busy_until)
    }
}

impl Link {
    pub fn new(spec: LinkSpec, qdisc: Box<dyn QueueDisc>) -> Link {
        Link {
            spec,
            qdisc,
            nic: VecDeque::new(),
            transmitting: None,
            done_at: SimTime::MAX,
            tx_bytes: 0,
            tx_packets: 0,
            fifo: None,
        }
    }

    /// A link whose FIFO is solved in closed form (host and reverse-path links).
    pub fn closed_form(spec: LinkSpec, limit: QueueLimit, qdisc: Box<dyn QueueDisc>) -> Link {
        Link { fifo: Some(ClosedFormFifo::new(limit)), ..Link::new(spec, qdisc) }
    }

    pub fn tx_time(&self, bytes: u32) -> SimDuration {
        self.spec.rate.tx_time(bytes)
    }

    /// What the link's queue holds at `now`: its closed-form FIFO's or its disc's.
    pub fn occupancy(&self, now: SimTime) -> Occupancy {
        match &self.fifo {
            Some(f) => f.occupancy_at(now),
            None => self.qdisc.occupancy(),
        }
    }

    /// Packets held in the NIC queue (not counting the one on the wire).
    pub fn nic_packets(&self) -> u32 {
        self.nic.len() as u32
    }
}
