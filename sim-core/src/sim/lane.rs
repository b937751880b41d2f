//! The sender side run apart from the bottleneck side, for big scenarios.
//!
//! A sender's packet reaches the bottleneck no sooner than an access delay after it was
//! sent, and an ACK reaches its sender no sooner than a bottleneck delay plus an access
//! delay after the receiver sent it. So with windows no longer than the smallest access
//! delay (the lookahead), each side can run a whole window on its own, and what it sent to
//! the other is handed over at the window's end, in the order it was sent. That is the
//! conservative synchronous scheme of parallel discrete-event simulation (Fujimoto,
//! "Parallel and Distributed Simulation Systems", 2000, ch. 3; Nicol's YAWNS).
//!
//! Results depend only on the windows, not on how the two sides are run: one after the
//! other (wasm, a UI frame's budget) or on two threads give the same bytes.

use super::event::Event;
use super::senders::{SenderSink, Senders};
use super::slab::PacketSlab;
use crate::engine::EventQueue;
use crate::metrics::DropRecord;
use crate::net::Packet;
use crate::time::{SimDuration, SimTime};

/// Scenarios with fewer flows run in one event queue: their windows hold few events, and
/// the exchange would cost more than it saves.
pub(super) const SPLIT_MIN_FLOWS: usize = 2000;

/// Nor with windows shorter than this: too little work per window to share.
pub(super) const SPLIT_MIN_LOOKAHEAD: SimDuration = SimDuration(500_000);

/// The sender side's own queue and packets, and what it sent during the current window.
pub(super) struct SenderLane {
    pub q: EventQueue<Event>,
    pkts: PacketSlab,
    /// For the bottleneck side: when each packet reaches it.
    pub outbox: Vec<(SimTime, Packet)>,
    /// ACKs the bottleneck side sent during the last window, taken in when this one starts.
    pub inbox: Vec<(SimTime, Packet)>,
    /// Drops at the uplinks, for the record.
    pub drops: Vec<DropRecord>,
    /// ACKs delivered to senders.
    pub delivered: u64,
    /// End (exclusive) of the window being run.
    pub window_end: SimTime,
    pub lookahead: SimDuration,
}

impl SenderLane {
    pub fn new(q: EventQueue<Event>, lookahead: SimDuration, window_end: SimTime) -> SenderLane {
        SenderLane {
            q,
            pkts: PacketSlab::default(),
            outbox: Vec::new(),
            inbox: Vec::new(),
            drops: Vec::new(),
            delivered: 0,
            window_end,
            lookahead,
        }
    }

    /// Packets held by this side.
    pub fn in_flight(&self) -> u64 {
        self.pkts.live() + (self.outbox.len() + self.inbox.len()) as u64
    }

    /// Takes in the ACKs of the last window (in the order they were sent), then runs the
    /// events due by `limit` (inclusive), at most `budget`; returns how many ran.
    pub fn run(&mut self, senders: &mut Senders, limit: SimTime, budget: u64, prefetch: bool) -> u64 {
        take_in(&mut self.inbox, &mut self.pkts, &mut self.q);
        let mut n = 0;
        while n < budget {
            let Some((now, ev)) = self.q.pop_until(limit) else { break };
            if prefetch {
                self.prefetch_ahead(senders);
            }
            let SenderLane { q, pkts, outbox, drops, delivered, .. } = self;
            let mut sink = LaneSink { q, outbox, drops };
            match ev {
                Event::Arrive { pkt } => {
                    let p = pkts.remove(pkt);
                    *delivered += 1;
                    senders.act(p.flow, now, |s, now, out| s.on_packet(&p, now, out), &mut sink);
                }
                ev => senders.handle(ev, now, &mut sink),
            }
            n += 1;
        }
        n
    }

    /// Starts loading what the next events touch (hints only): two ahead, an ACK's packet;
    /// next, its sender and uplink.
    #[inline]
    fn prefetch_ahead(&self, senders: &Senders) {
        let mut next = self.q.upcoming();
        let first = next.next().copied();
        if let Some(&Event::Arrive { pkt }) = next.next() {
            self.pkts.prefetch(pkt);
        }
        let flow = match first {
            Some(Event::Arrive { pkt }) => self.pkts.get(pkt).flow,
            Some(Event::SenderTimer { flow } | Event::PaceTimer { flow }) => flow,
            _ => return,
        };
        senders.prefetch(flow);
        if let Some(s) = senders.tcp.get(flow as usize) {
            crate::hint::prefetch_lines(s.cc(), 4);
        }
    }
}

/// Queues the packets another side sent during the last window, in the order it sent them
/// (so which of two same-time events runs first does not depend on how the sides ran).
pub(super) fn take_in(inbox: &mut Vec<(SimTime, Packet)>, pkts: &mut PacketSlab, q: &mut EventQueue<Event>) {
    for (at, p) in inbox.drain(..) {
        let id = pkts.insert(p);
        q.schedule(at, Event::Arrive { pkt: id });
    }
}

/// In the lane: packets for the bottleneck wait for the window's end.
struct LaneSink<'a> {
    q: &'a mut EventQueue<Event>,
    outbox: &'a mut Vec<(SimTime, Packet)>,
    drops: &'a mut Vec<DropRecord>,
}

impl SenderSink for LaneSink<'_> {
    fn to_bottleneck(&mut self, at: SimTime, p: Packet) {
        self.outbox.push((at, p));
    }

    fn dropped(&mut self, d: DropRecord) {
        self.drops.push(d);
    }

    fn wake(&mut self, at: SimTime, ev: Event) {
        self.q.schedule(at, ev);
    }
}
