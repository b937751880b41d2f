//! Moving packets through the bottleneck: arrival → queue disc → the wire → the receiver.
//! (The hosts' links are crossed in `hosts.rs`.)
//!
//! The end of a transmission is applied lazily: no event marks it. What it did (count the
//! bytes, let the disc choose the next packet at that instant) is done by the next event
//! on this side, or by whatever reads the link, through [`Simulation::settle_tx`]. A
//! packet's arrival at its receiver is scheduled when it starts, and is itself the event
//! that lets the next packet start in time: a transmission ending at t is settled by an
//! event in (t, t + delay], before the next one's arrival at t + tx + delay. So the link's
//! end-of-transmission comes after every other event of its instant (as it did, in
//! practice, as an event: those were scheduled earlier). Without a propagation delay, or
//! for a disc that asked for wake-ups (whose timing a late dequeue could move), an event
//! still marks each end.

use super::{Event, Simulation, BOTTLENECK};
use crate::metrics::DropRecord;
use crate::net::link::NicItem;
use crate::queue::{QItem, QdiscCtx};
use crate::time::{SimDuration, SimTime};

impl Simulation {
    /// A packet reached the end of a link: data at the router go on to the bottleneck;
    /// everything else has reached its endpoint.
    pub(super) fn arrive(&mut self, id: u32) {
        let p = self.pkts.get_mut(id);
        p.hop += 1;
        if p.hop < 2 {
            self.enqueue(id);
            return;
        }
        let p = self.pkts.remove(id);
        self.counts.delivered += 1;
        let now = self.now();
        let (hosts, mut sink) = self.hosts_and_sink();
        hosts.deliver(&p, now, &mut sink);
    }

    /// Data reaching the bottleneck.
    fn enqueue(&mut self, id: u32) {
        let now = self.now();
        let p = self.pkts.get(id);
        let item = QItem { id, bytes: p.wire_bytes, flow: p.flow, enqueued_at: now };
        let mut cx = QdiscCtx::new(now, &mut self.drops);
        if self.bottleneck.qdisc.enqueue(item, &mut cx) {
            self.backlog.add(item.flow, item.bytes);
        }
        self.settle_drops(now);
        self.kick(now);
        self.sync_disc_wake();
    }

    /// Starts a transmission at `now` if the link is idle (and schedules the packet's
    /// arrival at its receiver), then refills the NIC queue from the disc.
    pub(super) fn kick(&mut self, now: SimTime) {
        let tx_events = self.tx_events;
        let l = &mut self.bottleneck;
        let nic_cap = l.spec.nic_queue_packets as usize;
        let mut cx = QdiscCtx::new(now, &mut self.drops);
        if l.transmitting.is_none() {
            let next = match l.nic.pop_front() {
                Some(n) => Some((n.item, n.left_disc)),
                None => l.qdisc.dequeue(&mut cx).map(|it| (it, now)),
            };
            if let Some((it, left_disc)) = next {
                let done = now + l.tx_time(it.bytes);
                l.transmitting = Some(it);
                l.done_at = done;
                self.q.schedule(done + l.spec.delay, Event::Arrive { pkt: it.id });
                if tx_events || l.spec.delay == SimDuration::ZERO || l.qdisc.poll_at().is_some() {
                    self.q.schedule(done, Event::TxDone);
                }
                let waited = now - it.enqueued_at;
                self.backlog.sent(it.flow, it.bytes, it.bytes.saturating_sub(self.data_headers), waited);
                self.rec.window.on_delay_deferred(now, it.flow, waited.as_secs_f64());
                if nic_cap > 0 {
                    self.rec.window.on_device_wait(now, now - left_disc);
                }
            }
        }
        while l.nic.len() < nic_cap {
            match l.qdisc.dequeue(&mut cx) {
                Some(item) => l.nic.push_back(NicItem { item, left_disc: now }),
                None => break,
            }
        }
        if !self.drops.is_empty() {
            self.settle_drops(now);
        }
    }

    /// Records and frees every packet the bottleneck's disc dropped, at `at`.
    pub(super) fn settle_drops(&mut self, at: SimTime) {
        let t_s = at.as_secs_f64();
        for d in self.drops.drain(..) {
            if d.was_queued {
                self.backlog.remove(d.item.flow, d.item.bytes);
            }
            self.rec.window.on_drop(at, d.reason);
            self.rec.push_drop(DropRecord { t_s, flow: d.item.flow, link: BOTTLENECK, reason: d.reason });
            self.counts.dropped += 1;
            self.pkts.remove(d.item.id);
        }
    }

    /// Ends every transmission of the bottleneck that ended before `before`, each followed
    /// by the next start at its instant (see the module's comment).
    #[inline]
    pub(super) fn settle_tx(&mut self, before: SimTime) {
        while self.bottleneck.done_at < before {
            let l = &mut self.bottleneck;
            let at = std::mem::replace(&mut l.done_at, SimTime::MAX);
            let it = l.transmitting.take().expect("a transmission ends");
            l.tx_bytes += u64::from(it.bytes);
            l.tx_packets += 1;
            self.kick(at);
            self.sync_disc_wake();
        }
    }
}
