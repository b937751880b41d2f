//! A unidirectional link with a queue disc: the disc, an optional NIC transmit queue
//! beneath it, serialisation at the link rate and a fixed propagation delay.
//!
//! With a NIC queue of N packets the queue disc is only asked for a packet while the NIC
//! holds fewer than N (ns-3's flow control between a queue disc and a device queue), so the
//! disc only builds up once the device queue is full.

use crate::queue::{Occupancy, QItem, QdiscCtx, QueueDisc};
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

#[derive(Debug)]
pub struct DiscLink {
    spec: LinkSpec,
    qdisc: Box<dyn QueueDisc>,
    nic: VecDeque<NicItem>,
    /// The packet being serialised, if any, and when its last bit is sent (`SimTime::MAX`
    /// when idle).
    transmitting: Option<QItem>,
    done_at: SimTime,
    /// Bytes and packets that finished serialisation on this link.
    tx_bytes: u64,
    tx_packets: u64,
}

/// A packet in the device queue, with when it left the disc above (its wait splits into
/// the disc's part and the device queue's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct NicItem {
    item: QItem,
    left_disc: SimTime,
}

/// A transmission that just started: the packet, when it left the disc, and when its
/// last bit is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Started {
    pub item: QItem,
    pub left_disc: SimTime,
    pub done: SimTime,
}

impl DiscLink {
    pub fn new(spec: LinkSpec, qdisc: Box<dyn QueueDisc>) -> DiscLink {
        DiscLink {
            spec,
            qdisc,
            nic: VecDeque::new(),
            transmitting: None,
            done_at: SimTime::MAX,
            tx_bytes: 0,
            tx_packets: 0,
        }
    }

    pub fn spec(&self) -> LinkSpec {
        self.spec
    }

    pub fn qdisc(&self) -> &dyn QueueDisc {
        self.qdisc.as_ref()
    }

    pub fn qdisc_mut(&mut self) -> &mut dyn QueueDisc {
        self.qdisc.as_mut()
    }

    /// Timed changes: what is on the wire keeps its timing.
    pub fn set_rate(&mut self, rate: Rate) {
        self.spec.rate = rate;
    }

    pub fn set_delay(&mut self, delay: SimDuration) {
        self.spec.delay = delay;
    }

    /// A smaller device queue keeps what it holds; it is not refilled until below the size.
    pub fn set_nic_queue(&mut self, packets: u32) {
        self.spec.nic_queue_packets = packets;
    }

    pub fn tx_time(&self, bytes: u32) -> SimDuration {
        self.spec.rate.tx_time(bytes)
    }

    /// If idle at `now`, starts serialising the next packet: the device queue's head, else
    /// what the disc hands out.
    pub fn start_next(&mut self, now: SimTime, cx: &mut QdiscCtx) -> Option<Started> {
        if self.transmitting.is_some() {
            return None;
        }
        let (item, left_disc) = match self.nic.pop_front() {
            Some(n) => (n.item, n.left_disc),
            None => (self.qdisc.dequeue(cx)?, now),
        };
        let done = now + self.tx_time(item.bytes);
        self.transmitting = Some(item);
        self.done_at = done;
        Some(Started { item, left_disc, done })
    }

    /// Fills the device queue from the disc up to its size.
    pub fn refill_nic(&mut self, now: SimTime, cx: &mut QdiscCtx) {
        let cap = self.spec.nic_queue_packets as usize;
        while self.nic.len() < cap {
            match self.qdisc.dequeue(cx) {
                Some(item) => self.nic.push_back(NicItem { item, left_disc: now }),
                None => break,
            }
        }
    }

    /// When the current transmission ends (`SimTime::MAX` when idle).
    #[inline]
    pub fn done_at(&self) -> SimTime {
        self.done_at
    }

    /// Ends the current transmission (its last bit was sent at [`DiscLink::done_at`]);
    /// returns when.
    pub fn end_tx(&mut self) -> SimTime {
        let at = std::mem::replace(&mut self.done_at, SimTime::MAX);
        let it = self.transmitting.take().expect("a transmission ends");
        self.tx_bytes += u64::from(it.bytes);
        self.tx_packets += 1;
        at
    }

    /// The packet on the wire at `now` with when its last bit is sent, if its transmission
    /// has not ended by then.
    pub fn on_wire(&self, now: SimTime) -> Option<(QItem, SimTime)> {
        self.transmitting.filter(|_| self.done_at > now).map(|it| (it, self.done_at))
    }

    /// Bytes that finished serialisation on this link.
    pub fn tx_bytes(&self) -> u64 {
        self.tx_bytes
    }

    /// What the disc holds now (packets, bytes, cells).
    pub fn occupancy(&self) -> Occupancy {
        self.qdisc.occupancy()
    }

    /// Packets held in the NIC queue (not counting the one on the wire).
    pub fn nic_packets(&self) -> u32 {
        self.nic.len() as u32
    }
}
