//! Moving packets: endpoints → links → queue discs → the wire → the next hop or endpoint.

use super::departures::Departure;
use super::{Event, Simulation, BOTTLENECK};
use crate::metrics::DropRecord;
use crate::net::{Packet, PacketKind};
use crate::queue::{DropReason, Dropped, QItem, QdiscCtx};
use crate::time::SimTime;

impl Simulation {
    /// Hands packets produced by an endpoint to the first link of their path.
    pub(super) fn emit(&mut self, out: &mut Vec<Packet>) {
        for mut p in out.drain(..) {
            p.hop = 0;
            let link = self.path_link(&p, 0);
            self.counts.sent += 1;
            let id = self.pkts.insert(p);
            self.enqueue(link, id);
        }
    }

    pub(super) fn path_link(&self, p: &Packet, hop: u8) -> u32 {
        let f = &self.paths[p.flow as usize];
        match p.kind {
            PacketKind::Data | PacketKind::Syn => f.data[hop as usize],
            PacketKind::Ack | PacketKind::SynAck => f.ack[hop as usize],
        }
    }

    fn enqueue(&mut self, link: u32, id: u32) {
        let now = self.now();
        if self.links[link as usize].fifo.is_some() {
            self.admit_closed_form(link, id, now);
            return;
        }
        let p = self.pkts.get(id);
        let item = QItem { id, bytes: p.wire_bytes, flow: p.flow, enqueued_at: now };
        let mut cx = QdiscCtx::new(now, &mut self.drops);
        if self.links[link as usize].qdisc.enqueue(item, &mut cx) && link == BOTTLENECK {
            self.backlog.add(item.flow, item.bytes);
        }
        self.settle_drops(link);
        self.kick(link);
        if link == BOTTLENECK {
            self.sync_disc_wake(link);
        }
    }

    /// Admits a packet reaching a closed-form FIFO at `at`. When the next hop is a
    /// closed-form FIFO fed only by this link, arrivals there come in the same order, so the
    /// packet is carried through without an event per hop.
    fn admit_closed_form(&mut self, mut link: u32, id: u32, mut at: SimTime) {
        loop {
            let p = self.pkts.get(id);
            let (bytes, flow) = (p.wire_bytes, p.flow);
            let l = &mut self.links[link as usize];
            let fifo = l.fifo.as_mut().expect("closed-form link");
            let tx = l.spec.rate.tx_time(bytes);
            let Some(done) = fifo.admit(at, bytes, tx) else {
                let item = QItem { id, bytes, flow, enqueued_at: at };
                self.drops.push(Dropped { item, reason: DropReason::Overflow, was_queued: false });
                self.settle_drops_at(link, at);
                return;
            };
            let arrival = done + l.spec.delay;
            if link == BOTTLENECK {
                let start = SimTime(done.as_nanos() - tx.as_nanos());
                self.queue_at_bottleneck(Departure { start, done, flow, bytes }, at);
            } else {
                l.tx_bytes += u64::from(bytes);
                l.tx_packets += 1;
            }
            let p = self.pkts.get_mut(id);
            let next_hop = p.hop + 1;
            if (next_hop as usize) < 2 {
                let next = self.path_link(self.pkts.get(id), next_hop);
                if self.links[next as usize].fed_only_by == Some(link) {
                    self.pkts.get_mut(id).hop = next_hop;
                    (link, at) = (next, arrival);
                    continue;
                }
            }
            if self.split && bound_for_sender(self.pkts.get(id)) {
                // Split mode: the sender side takes it at the window's end.
                let p = self.pkts.remove(id);
                self.to_senders.push((arrival, p));
                return;
            }
            self.q.schedule(arrival, Event::Arrive { pkt: id });
            return;
        }
    }

    /// A packet admitted at `at` by a closed-form bottleneck: it counts in its flow's
    /// backlog until it starts, and its queueing delay is known now (recorded now, in the
    /// order the event-driven link would: a FIFO's departure order is its arrival order).
    fn queue_at_bottleneck(&mut self, d: Departure, at: SimTime) {
        self.settle_bottleneck(at);
        self.backlog.add(d.flow, d.bytes);
        if d.start <= self.end {
            self.rec.window.on_delay_deferred(d.start, d.flow, (d.start - at).as_secs_f64());
        }
        self.departures.push(d);
    }

    /// Applies the closed-form bottleneck's departures due by `now` (see [`super::departures::Departures`]).
    pub(super) fn settle_bottleneck(&mut self, now: SimTime) {
        let Simulation { departures, backlog, links, .. } = self;
        let link = &mut links[BOTTLENECK as usize];
        departures.settle(
            now,
            |d| backlog.remove(d.flow, d.bytes),
            |d| {
                link.tx_bytes += u64::from(d.bytes);
                link.tx_packets += 1;
            },
        );
    }

    /// Starts a transmission if the link is idle, then refills the NIC queue from the disc.
    pub(super) fn kick(&mut self, link: u32) {
        let now = self.now();
        let l = &mut self.links[link as usize];
        let nic_cap = l.spec.nic_queue_packets as usize;
        let mut cx = QdiscCtx::new(now, &mut self.drops);
        if l.transmitting.is_none() {
            let next = match l.nic.pop_front() {
                Some(it) => Some(it),
                None => l.qdisc.dequeue(&mut cx),
            };
            if let Some(it) = next {
                l.transmitting = Some(it);
                self.q.schedule(now + l.tx_time(it.bytes), Event::TxDone { link });
                if link == BOTTLENECK {
                    self.backlog.remove(it.flow, it.bytes);
                    let delay_s = (now - it.enqueued_at).as_secs_f64();
                    self.rec.window.on_delay_deferred(now, it.flow, delay_s);
                }
            }
        }
        while l.nic.len() < nic_cap {
            match l.qdisc.dequeue(&mut cx) {
                Some(it) => l.nic.push_back(it),
                None => break,
            }
        }
        if !self.drops.is_empty() {
            self.settle_drops(link);
        }
    }

    /// Records and frees every packet a queue disc dropped.
    pub(super) fn settle_drops(&mut self, link: u32) {
        self.settle_drops_at(link, self.now());
    }

    fn settle_drops_at(&mut self, link: u32, at: SimTime) {
        let t_s = at.as_secs_f64();
        for d in self.drops.drain(..) {
            if link == BOTTLENECK && d.was_queued {
                self.backlog.remove(d.item.flow, d.item.bytes);
            }
            if link == BOTTLENECK {
                self.rec.window.on_drop(at, d.reason);
            }
            self.rec.push_drop(DropRecord { t_s, flow: d.item.flow, link, reason: d.reason });
            self.counts.dropped += 1;
            self.pkts.remove(d.item.id);
        }
    }

    pub(super) fn tx_done(&mut self, link: u32) {
        let now = self.now();
        let l = &mut self.links[link as usize];
        let it = l.transmitting.take().expect("TxDone on an idle link");
        l.tx_bytes += u64::from(it.bytes);
        l.tx_packets += 1;
        self.q.schedule(now + l.spec.delay, Event::Arrive { pkt: it.id });
        self.kick(link);
        if link == BOTTLENECK {
            self.sync_disc_wake(link);
        }
    }

    pub(super) fn arrive(&mut self, id: u32) {
        let p = self.pkts.get_mut(id);
        p.hop += 1;
        let (hop, flow, kind) = (p.hop, p.flow, p.kind);
        if (hop as usize) < 2 {
            let next = self.path_link(self.pkts.get(id), hop);
            self.enqueue(next, id);
            return;
        }
        let p = self.pkts.remove(id);
        self.counts.delivered += 1;
        match kind {
            PacketKind::Data | PacketKind::Syn => {
                self.receiver_acts(flow, |r, now, out| r.on_packet(&p, now, out))
            }
            PacketKind::Ack | PacketKind::SynAck => {
                self.sender_acts(flow, |s, now, out| s.on_packet(&p, now, out))
            }
        }
    }
}

/// Whether a packet leaving the last link of its path goes to a sender (an ACK).
fn bound_for_sender(p: &Packet) -> bool {
    matches!(p.kind, PacketKind::Ack | PacketKind::SynAck) && (p.hop as usize) + 1 >= 2
}
