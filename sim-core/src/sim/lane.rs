//! The senders run apart from the rest (every disc link, the receivers and the ACKs' way
//! back), for big scenarios, on any topology.
//!
//! The cut is where every route meets a sender: its own access link, which each group's
//! data route starts on and its ACK route (through disc links or the uncongested reverse
//! link) ends on. A packet a sender sends reaches the first link of its route no sooner
//! than an access delay later, and an ACK reaches its sender no sooner than an access delay
//! after it left the last link of its way back. So with windows no longer than the
//! smallest access delay (the lookahead), each side can run a whole window on its own, and what it sent to the
//! other is handed over at the window's end, in the order it was sent. (The two sides cost
//! about the same: the senders on one; the bottleneck, the receivers and the ACKs' way back
//! on the other. With the receivers on this side too, measured, the other side idled and a
//! run took 1.3-1.6 times as long.) That is the conservative synchronous scheme of
//! parallel discrete-event simulation (Fujimoto, "Parallel and Distributed Simulation
//! Systems", 2000, ch. 3; Nicol's YAWNS). Samples and the opening of the measured window
//! read both sides, so they are taken between windows, before the events of their instant.
//!
//! Results depend only on the windows, not on how the two sides are run: one after the
//! other (wasm, a UI frame's budget) or on two threads give the same bytes.

use super::event::Event;
use super::hosts::HostSink;
use super::senders::Senders;
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

/// The senders' calendar buckets are this many times the bottleneck side's: their events
/// are mostly ACKs, about one per two data packets against that side's two events per
/// packet, so a bucket holds as few events as there (a bucket's load was 5 % of this
/// side's work at 10 000 flows with the same width; any width gives the same order).
pub(super) const LANE_BUCKETS: u64 = 4;

/// The senders' own event queue and packets, and what they sent during the current window.
pub(super) struct SenderLane {
    pub q: EventQueue<Event>,
    pkts: PacketSlab,
    /// For the bottleneck side: when each packet reaches it.
    pub outbox: Mail,
    /// ACKs sent during the last window, with when each reaches its sender (the other side
    /// crossed their path back), taken in when this one starts.
    pub inbox: Mail,
    /// Drops at the uplinks, for the record.
    pub drops: Vec<DropRecord>,
    /// ACKs delivered to senders.
    pub delivered: u64,
    /// End (exclusive) of the window being run.
    pub window_end: SimTime,
    pub lookahead: SimDuration,
}

impl SenderLane {
    /// A lane whose windows last at most `lookahead` (the first's end is set by the builder).
    pub fn new(q: EventQueue<Event>, lookahead: SimDuration) -> SenderLane {
        SenderLane {
            q,
            pkts: PacketSlab::default(),
            outbox: Mail::default(),
            inbox: Mail::default(),
            drops: Vec::new(),
            delivered: 0,
            window_end: SimTime::ZERO,
            lookahead,
        }
    }

    /// Packets held by this side.
    pub fn in_flight(&self) -> u64 {
        self.pkts.live() + (self.outbox.len() + self.inbox.len()) as u64
    }

    /// Takes in the ACKs of the last window, then runs the events due by `limit`
    /// (inclusive), at most `budget`; returns how many ran.
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
                    senders.deliver(&p, now, &mut sink);
                }
                ev => senders.handle(ev, now, &mut sink),
            }
            n += 1;
        }
        n
    }

    /// Starts loading what the next events touch (hints only), as a pipeline: three
    /// ahead, an ACK's packet; two ahead, its sender and uplink; next, what the sender's
    /// struct points to.
    #[inline]
    fn prefetch_ahead(&self, senders: &Senders) {
        let flow = |e: Option<&Event>| match e {
            Some(&Event::Arrive { pkt }) => Some(self.pkts.get(pkt).flow),
            Some(&Event::SenderTimer { flow } | &Event::PaceTimer { flow }) => Some(flow),
            _ => None,
        };
        let mut next = self.q.upcoming();
        let (first, second) = (next.next(), next.next());
        if let Some(&Event::Arrive { pkt }) = next.next() {
            self.pkts.prefetch(pkt);
        }
        if let Some(f) = flow(second) {
            senders.prefetch(f);
        }
        let sacked = match first {
            Some(&Event::Arrive { pkt }) => {
                self.pkts.get(pkt).sack_blocks().first().map(|b| b.end.wrapping_sub(1))
            }
            _ => None,
        };
        if let Some(f) = flow(first) {
            senders.prefetch_inner(f, sacked);
        }
    }
}

/// Queues the packets another side sent during the last window, in the order it sent them
/// (so which of two same-time events runs first does not depend on how the sides ran).
pub(super) fn take_in(inbox: &mut Mail, pkts: &mut PacketSlab, q: &mut EventQueue<Event>) {
    for (&at, &p) in inbox.at.iter().zip(&inbox.pkts) {
        let id = pkts.insert(p);
        q.schedule(at, Event::Arrive { pkt: id });
    }
    inbox.clear();
}

/// Packets one side sends the other in a window, in order, each with a time (when it
/// arrives, or when it was sent). The times are kept apart: a (time, packet) pair pads to
/// two cache lines, and writing them was 40 % of a sender's step.
#[derive(Default)]
pub(super) struct Mail {
    at: Vec<SimTime>,
    pkts: Vec<Packet>,
}

impl Mail {
    pub fn push(&mut self, at: SimTime, p: Packet) {
        self.at.push(at);
        self.pkts.push(p);
    }

    pub fn len(&self) -> usize {
        self.pkts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pkts.is_empty()
    }

    pub fn clear(&mut self) {
        self.at.clear();
        self.pkts.clear();
    }
}

/// In the lane: packets for the bottleneck wait for the window's end.
struct LaneSink<'a> {
    q: &'a mut EventQueue<Event>,
    outbox: &'a mut Mail,
    drops: &'a mut Vec<DropRecord>,
}

impl HostSink for LaneSink<'_> {
    fn to_bottleneck(&mut self, at: SimTime, p: Packet) {
        self.outbox.push(at, p);
    }

    fn ack(&mut self, _at: SimTime, _p: Packet) {
        unreachable!("a sender sends no ACKs");
    }

    fn dropped(&mut self, d: DropRecord) {
        self.drops.push(d);
    }

    fn wake(&mut self, at: SimTime, ev: Event) {
        self.q.schedule(at, ev);
    }
}
