//! Moving data through the disc links of its route: arrival → queue disc → the wire → the
//! next link or the receiver; and an ACK through its group's ACK route, if it has one, to
//! its sender's access link. (The hosts' links are crossed in `hosts.rs`.)
//!
//! The end of a transmission is applied lazily, on every disc link: no event marks it.
//! What it did (count the bytes, let the disc choose the next packet at that instant) is
//! done by the next event on this side, or by whatever reads the link, through
//! [`Simulation::settle_tx`]. A packet's arrival at the far end is scheduled when it
//! starts, and is itself the event that lets the next packet start in time: a
//! transmission ending at t is settled by an event in (t, t + delay], before the next
//! one's arrival at t + tx + delay. So the link's end-of-transmission comes after every
//! other event of its instant (as it did, in practice, as an event: those were scheduled
//! earlier). Without a propagation delay, or for a disc that asked for wake-ups (whose
//! timing a late dequeue could move), an event still marks each end.

use super::{Event, Simulation, BOTTLENECK};
use crate::metrics::DropRecord;
use crate::net::link::Run;
use crate::net::packet_trace::TraceKind;
use crate::queue::{QItem, QdiscCtx};
use crate::time::{SimDuration, SimTime};

/// An ACK's `hop` once it has crossed its ACK route and its sender's access link: the next
/// arrival delivers it (routes are at most 32 links).
pub(super) const ACK_HOME: u8 = u8::MAX;

impl Simulation {
    /// A packet reached the end of a link: data go on to the next disc link of their
    /// route; everything else has reached its endpoint.
    pub(super) fn arrive(&mut self, id: u32) {
        let p = self.pkts.get_mut(id);
        p.hop += 1;
        if p.kind.is_data() {
            let groups = &self.groups;
            if let Some(link) = self.net.link_at(p.hop, || groups[p.flow as usize]) {
                self.enqueue(link, id);
                return;
            }
        } else if self.net.any_ack_route() && p.hop != ACK_HOME {
            // An ACK on its group's ACK route: the next disc link, else its sender's link.
            let group = self.groups[p.flow as usize];
            if self.net.has_ack_route(group) {
                match self.net.ack_link_at(p.hop, group) {
                    Some(link) => self.enqueue(link, id),
                    None => {
                        let (now, p) = (self.now(), self.pkts.remove(id));
                        let (_, mut sink) = self.hosts_and_sink();
                        sink.ack_home(now, p);
                    }
                }
                return;
            }
        }
        let p = self.pkts.remove(id);
        self.counts.delivered += 1;
        let now = self.now();
        let (hosts, mut sink) = self.hosts_and_sink();
        hosts.deliver(&p, now, &mut sink);
    }

    /// Data (or an ACK on an ACK route) reaching a disc link. The backlog and the delays
    /// are the measured link's (the scenario's bottleneck) alone, and its data's.
    fn enqueue(&mut self, link: u32, id: u32) {
        let now = self.now();
        let p = self.pkts.get(id);
        let item = QItem {
            id,
            bytes: p.wire_bytes,
            flow: p.flow,
            enqueued_at: now,
            conn: p.conn,
            ecn: p.ecn,
            marked: None,
            ack: !p.kind.is_data(),
        };
        let data = !item.ack;
        if self.meters.is_active() {
            self.meters.on_arrival(link);
        }
        let mut cx = QdiscCtx::new(now, &mut self.drops);
        let l = self.net.link_mut(link);
        let accepted = l.qdisc_mut().enqueue(item, &mut cx);
        if accepted {
            l.trace_event(now, TraceKind::Queued, &item, None);
        }
        if accepted && link == BOTTLENECK && data {
            self.backlog.add(item.flow, item.bytes);
        }
        self.settle_drops(link, now);
        self.kick(link, now);
        self.sync_disc_wake(link);
    }

    /// Asks `link`'s disc for packets at `now` (ns-3 `QueueDisc::Run`, see `net/link.rs`):
    /// onto the wire if it is free (scheduling the packet's arrival at the far end), into
    /// the device queue otherwise.
    pub(super) fn kick(&mut self, link: u32, now: SimTime) {
        let mut cx = QdiscCtx::new(now, &mut self.drops);
        let run = self.net.link_mut(link).run(now, &mut cx);
        self.after_run(link, now, run);
    }

    /// The device queue of `link` is woken (an event scheduled by a `Send` to the idle
    /// device that filled a one-packet queue).
    pub(super) fn device_wake(&mut self, link: u32) {
        let now = self.now();
        let mut cx = QdiscCtx::new(now, &mut self.drops);
        let run = self.net.link_mut(link).wake(now, &mut cx);
        self.after_run(link, now, run);
        self.sync_disc_wake(link);
    }

    fn after_run(&mut self, link: u32, now: SimTime, run: Run) {
        let tx_events = self.tx_events;
        let acks_on_discs = self.net.any_ack_route();
        let l = self.net.link_mut(link);
        if let Some(s) = run.started {
            let (it, delay) = (s.item, l.spec().delay);
            let device_queue = l.spec().nic_queue_packets > 0;
            self.q.schedule(s.done + delay, Event::Arrive { pkt: it.id });
            if tx_events || delay == SimDuration::ZERO || l.qdisc().poll_at().is_some() {
                self.q.schedule(s.done, Event::TxDone { link });
            }
            let waited = now - it.enqueued_at;
            let data = !acks_on_discs || self.pkts.get(it.id).kind.is_data();
            let payload = self.payload_of(it.flow, it.bytes);
            if self.meters.is_active() {
                self.meters.on_sent(link, it.flow, waited, self.rec.window.opened);
                if data && self.net.route(self.groups[it.flow as usize]).links().first() == Some(&link) {
                    self.meters.on_first_hop(it.flow, payload);
                }
            }
            if let Some(reason) = it.marked {
                // The disc marked it CE instead of dropping it: the packet carries the mark
                // from here on (RFC 3168 §5), and the mark is recorded as it leaves.
                self.pkts.get_mut(it.id).ecn = crate::net::Ecn::Ce;
                self.rec.push_mark(DropRecord { t_s: now.as_secs_f64(), flow: it.flow, link, reason });
                if self.meters.is_active() {
                    self.meters.on_mark(link, self.rec.window.opened);
                }
            }
            if link == BOTTLENECK && data {
                self.rec.window.on_departure(now, it.flow, it.marked);
                self.backlog.sent(it.flow, it.bytes, payload, waited);
                self.rec.window.on_delay_deferred(now, it.flow, waited.as_secs_f64());
                if device_queue {
                    self.rec.window.on_device_wait(now, now - s.left_disc);
                }
            }
        }
        if run.wake_now {
            self.q.schedule(now, Event::DeviceWake { link });
        }
        if !self.drops.is_empty() {
            self.settle_drops(link, now);
        }
    }

    /// Records and frees every packet `link`'s disc dropped, at `at`.
    pub(super) fn settle_drops(&mut self, link: u32, at: SimTime) {
        let t_s = at.as_secs_f64();
        for d in self.drops.drain(..) {
            let kind = if d.was_queued { TraceKind::Dropped } else { TraceKind::Refused };
            self.net.link_mut(link).trace_event(at, kind, &d.item, Some(d.reason));
            if link == BOTTLENECK {
                // An ACK was never in the backlog (data only).
                let data = !self.net.any_ack_route() || self.pkts.get(d.item.id).kind.is_data();
                if d.was_queued && data {
                    self.backlog.remove(d.item.flow, d.item.bytes);
                }
                self.rec.window.on_drop(at, d.reason);
            }
            self.rec.push_drop(DropRecord { t_s, flow: d.item.flow, link, reason: d.reason });
            self.counts.dropped += 1;
            if self.meters.is_active() {
                self.meters.on_drop(link, d.reason, self.rec.window.opened);
            }
            self.pkts.remove(d.item.id);
        }
    }

    /// Ends every transmission of a disc link that ended before `before`, in time order,
    /// each followed by the next start at its instant (see the module's comment).
    #[inline]
    pub(super) fn settle_tx(&mut self, before: SimTime) {
        while let Some(link) = self.net.next_tx_end(before) {
            let l = self.net.link_mut(link);
            let at = l.end_tx();
            let run = l.transmit_complete(at, &mut QdiscCtx::new(at, &mut self.drops));
            self.after_run(link, at, run);
            self.sync_disc_wake(link);
        }
    }
}
