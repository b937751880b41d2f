//! A unidirectional link with a queue disc: the disc, an optional NIC transmit queue
//! beneath it, serialisation at the link rate and a fixed propagation delay.
//!
//! With a NIC queue of N packets the queue disc is only asked for a packet while the NIC
//! holds fewer than N (ns-3's flow control between a queue disc and a device queue), so the
//! disc only builds up once the device queue is full. When it is asked follows ns-3.44
//! exactly, since a disc's dequeue from an empty queue has effects (RED's idle clock starts
//! there): `QueueDisc::Run` asks while the device queue is not stopped and stops after a
//! packet that empties the disc (`QueueDisc::Transmit`); the device queue is stopped when an
//! enqueue fills it (`NetDeviceQueue::PacketEnqueued`) and woken, which runs the disc again,
//! when the device takes a packet from it with the queue stopped (`PacketDequeued`, `Wake`);
//! a transmission ending with the device queue empty asks nothing
//! (`PointToPointNetDevice::TransmitComplete`).

use super::packet_trace::{PacketTrace, TraceEvent, TraceKind};
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
    /// Bytes that finished serialisation on this link.
    tx_bytes: u64,
    /// The device queue is stopped (ns-3 `NetDeviceQueue::m_stoppedByDevice`): the disc is
    /// not asked until a wake-up.
    stopped: bool,
    /// The recent packets, event by event, when the packet view watches this link.
    trace: Option<Box<PacketTrace>>,
}

/// A packet in the device queue, with when it left the disc above (its wait splits into
/// the disc's part and the device queue's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct NicItem {
    item: QItem,
    left_disc: SimTime,
}

/// What asking the disc did: the transmission that started, if the wire was free, and
/// whether the device queue is to be woken at this instant, after the events already due
/// (ns-3 `NetDeviceQueue::PacketDequeued` wakes it from a `Simulator::ScheduleNow` event).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Run {
    pub started: Option<Started>,
    pub wake_now: bool,
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
            stopped: false,
            trace: None,
        }
    }

    /// Starts keeping the recent packets' events (for the packet view); the run's results
    /// do not change.
    pub fn watch(&mut self) {
        self.trace.get_or_insert_with(|| Box::new(PacketTrace::new()));
    }

    pub fn trace(&self) -> Option<&PacketTrace> {
        self.trace.as_deref()
    }

    /// Records `kind` for `item` at `now`, if this link is watched (the disc's own sub-queue
    /// for an accepted packet). Unwatched, the cost is one test: the recording is kept out
    /// of the packet path's code.
    #[inline(always)]
    pub fn trace_event(
        &mut self,
        now: SimTime,
        kind: TraceKind,
        item: &QItem,
        reason: Option<crate::queue::DropReason>,
    ) {
        if self.trace.is_some() {
            self.record(now, kind, item, reason);
        }
    }

    #[cold]
    #[inline(never)]
    fn record(
        &mut self,
        now: SimTime,
        kind: TraceKind,
        item: &QItem,
        reason: Option<crate::queue::DropReason>,
    ) {
        let queue = match kind {
            TraceKind::Queued | TraceKind::Refused | TraceKind::Dropped => {
                self.qdisc.item_queue(item).unwrap_or(0)
            }
            _ => 0,
        };
        if let Some(t) = self.trace.as_deref_mut() {
            t.push(TraceEvent::of(now.0, kind, item, queue, reason));
        }
    }

    /// A transmission's start, for the trace (see [`DiscLink::trace_event`]).
    #[cold]
    #[inline(never)]
    fn record_sent(&mut self, item: &QItem, now: SimTime, done: SimTime) {
        let far = done + self.spec.delay;
        if let Some(t) = self.trace.as_deref_mut() {
            t.push(TraceEvent {
                done_ns: done.0,
                far_ns: far.0,
                ..TraceEvent::of(now.0, TraceKind::Sent, item, 0, item.marked)
            });
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
        self.stopped = packets > 0 && self.nic.len() >= packets as usize;
    }

    pub fn tx_time(&self, bytes: u32) -> SimDuration {
        self.spec.rate.tx_time(bytes)
    }

    fn start(&mut self, item: QItem, left_disc: SimTime, now: SimTime) -> Started {
        let done = now + self.tx_time(item.bytes);
        self.transmitting = Some(item);
        self.done_at = done;
        if self.trace.is_some() {
            self.record_sent(&item, now, done);
        }
        Started { item, left_disc, done }
    }

    /// Asks the disc for packets after an enqueue, a wake-up of the disc or a change (ns-3
    /// `QueueDisc::Run`): while the device queue is not stopped, each packet goes to the
    /// device (`PointToPointNetDevice::Send`: onto the wire if it is free, else into the
    /// device queue, which stops when full), and a packet that leaves the disc empty ends
    /// the round (`QueueDisc::Transmit`). Without a device queue the disc is asked only
    /// when the wire is free.
    pub fn run(&mut self, now: SimTime, cx: &mut QdiscCtx) -> Run {
        let cap = self.spec.nic_queue_packets as usize;
        let mut out = Run::default();
        if cap == 0 {
            if self.transmitting.is_none() {
                out.started = self.qdisc.dequeue(cx).map(|item| self.start(item, now, now));
            }
            return out;
        }
        while !self.stopped {
            let Some(item) = self.qdisc.dequeue(cx) else { break };
            if self.transmitting.is_none() {
                // `Send` to an idle device passes the packet through the device queue; a
                // queue of one is full for that instant, so it stops and is woken by an
                // event scheduled now (the same-instant arrivals before it wait in the disc).
                out.started = Some(self.start(item, now, now));
                if cap == 1 {
                    self.stopped = true;
                    out.wake_now = true;
                }
            } else {
                self.trace_event(now, TraceKind::ToDevice, &item, item.marked);
                self.nic.push_back(NicItem { item, left_disc: now });
                self.stopped = self.nic.len() >= cap;
            }
            if self.qdisc.occupancy().packets == 0 {
                break;
            }
        }
        out
    }

    /// The device queue's wake-up (ns-3 `NetDeviceQueue::Wake`): a queue stopped by the
    /// device that has room again runs the disc.
    pub fn wake(&mut self, now: SimTime, cx: &mut QdiscCtx) -> Run {
        let cap = self.spec.nic_queue_packets as usize;
        if self.stopped && self.nic.len() < cap {
            self.stopped = false;
            return self.run(now, cx);
        }
        Run::default()
    }

    /// The wire is free (its transmission just ended): the next packet is the device
    /// queue's head (ns-3 `TransmitComplete`), and taking it wakes a stopped queue at once
    /// (ns-3 does so from an event scheduled now; a transmission's end is applied after every
    /// other event of its instant, see `sim/forward.rs`). An empty device queue asks the disc
    /// nothing. Without a device queue the disc is asked.
    pub fn transmit_complete(&mut self, now: SimTime, cx: &mut QdiscCtx) -> Run {
        if self.spec.nic_queue_packets == 0 {
            return self.run(now, cx);
        }
        let mut out = Run::default();
        if let Some(n) = self.nic.pop_front() {
            out.started = Some(self.start(n.item, n.left_disc, now));
            out.wake_now = self.wake(now, cx).wake_now;
        }
        out
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

    /// The packet on the wire at `now`, if any, with the share of it still to send (0-1).
    pub fn on_wire_left(&self, now: SimTime) -> Option<(QItem, f64)> {
        self.on_wire(now).map(|(it, done)| {
            let tx = self.tx_time(it.bytes).as_nanos().max(1) as f64;
            (it, ((done - now).as_nanos() as f64 / tx).min(1.0))
        })
    }

    /// Bytes sent by `now`, the part of a packet then on the wire included (what a window
    /// or an interval opening at `now` leaves out).
    pub fn sent_bytes_at(&self, now: SimTime) -> f64 {
        let on_wire = self.on_wire_left(now).map_or(0.0, |(it, left)| f64::from(it.bytes) * (1.0 - left));
        self.tx_bytes as f64 + on_wire
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aqm::fifo::Fifo;
    use crate::queue::{Dropped, QueueLimit};
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::Arc;

    /// A FIFO that counts the times it is asked for a packet while empty (what starts RED's
    /// idle clock).
    struct Counting {
        fifo: Fifo,
        empty_asks: Arc<AtomicU32>,
    }

    impl QueueDisc for Counting {
        fn enqueue(&mut self, item: QItem, cx: &mut QdiscCtx) -> bool {
            self.fifo.enqueue(item, cx)
        }
        fn dequeue(&mut self, cx: &mut QdiscCtx) -> Option<QItem> {
            let item = self.fifo.dequeue(cx);
            if item.is_none() {
                self.empty_asks.fetch_add(1, Ordering::Relaxed);
            }
            item
        }
        fn occupancy(&self) -> Occupancy {
            self.fifo.occupancy()
        }
        fn limit(&self) -> QueueLimit {
            self.fifo.limit()
        }
    }

    fn link(nic: u32) -> (DiscLink, Arc<AtomicU32>) {
        let asks = Arc::new(AtomicU32::new(0));
        let disc = Counting { fifo: Fifo::new(QueueLimit::Packets(100)), empty_asks: asks.clone() };
        let spec =
            LinkSpec { rate: Rate(8_000_000), delay: SimDuration::from_millis(1), nic_queue_packets: nic };
        (DiscLink::new(spec, Box::new(disc)), asks)
    }

    fn offer(l: &mut DiscLink, id: u32, now: SimTime, drops: &mut Vec<Dropped>) -> Run {
        let mut cx = QdiscCtx::new(now, drops);
        let item = QItem { id, bytes: 1000, flow: 0, enqueued_at: now, conn: 0, ..QItem::default() };
        assert!(l.qdisc_mut().enqueue(item, &mut cx));
        l.run(now, &mut cx)
    }

    /// Ends the transmission on the wire and lets the link go on (`settle_tx`'s step).
    fn finish(l: &mut DiscLink, drops: &mut Vec<Dropped>) -> Run {
        let at = l.end_tx();
        l.transmit_complete(at, &mut QdiscCtx::new(at, drops))
    }

    #[test]
    fn a_one_packet_device_queue_is_stopped_by_a_send_to_the_idle_device_until_its_wake() {
        let (mut l, asks) = link(1);
        let mut drops = Vec::new();
        let t0 = SimTime::ZERO;
        let first = offer(&mut l, 1, t0, &mut drops);
        assert_eq!(first.started.map(|s| s.item.id), Some(1));
        assert!(first.wake_now, "ns-3 wakes the queue from an event scheduled now");
        // A packet arriving at the same instant waits in the disc until the wake.
        let second = offer(&mut l, 2, t0, &mut drops);
        assert_eq!((second.started, second.wake_now), (None, false));
        assert_eq!((l.occupancy().packets, l.nic_packets()), (1, 0));
        l.wake(t0, &mut QdiscCtx::new(t0, &mut drops));
        assert_eq!((l.occupancy().packets, l.nic_packets()), (0, 1));
        assert_eq!(asks.load(Ordering::Relaxed), 0, "the disc emptied on a packet: not asked again");
    }

    #[test]
    fn a_transmission_ending_with_the_device_queue_empty_asks_the_disc_nothing() {
        let (mut l, asks) = link(1);
        let mut drops = Vec::new();
        let t0 = SimTime::ZERO;
        offer(&mut l, 1, t0, &mut drops);
        offer(&mut l, 2, t0, &mut drops);
        l.wake(t0, &mut QdiscCtx::new(t0, &mut drops));
        // Packet 1 ends: packet 2 leaves the device queue, whose wake finds the disc empty.
        let next = finish(&mut l, &mut drops);
        assert_eq!(next.started.map(|s| s.item.id), Some(2));
        assert_eq!(asks.load(Ordering::Relaxed), 1);
        // Packet 2 ends with the device queue empty: ns-3's TransmitComplete stops there.
        assert_eq!(finish(&mut l, &mut drops), Run::default());
        assert_eq!(asks.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn a_device_queue_with_room_asks_the_disc_only_for_what_it_holds() {
        let (mut l, asks) = link(100);
        let mut drops = Vec::new();
        let t0 = SimTime::ZERO;
        let first = offer(&mut l, 1, t0, &mut drops);
        assert!(first.started.is_some() && !first.wake_now);
        offer(&mut l, 2, t0, &mut drops);
        assert_eq!((l.occupancy().packets, l.nic_packets()), (0, 1));
        finish(&mut l, &mut drops);
        finish(&mut l, &mut drops);
        assert_eq!(asks.load(Ordering::Relaxed), 0, "never stopped, never woken");
    }
}
