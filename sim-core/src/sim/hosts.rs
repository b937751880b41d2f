//! The hosts: every flow's sender and receiver with the links only they use (the access
//! links and the reverse path), reached through a sink that says where what they send
//! goes (one event queue, or across to the other side of a split run, `lane.rs`).

use super::event::Event;
use super::receivers::Receivers;
use super::senders::Senders;
use crate::metrics::window::WaitTally;
use crate::metrics::DropRecord;
use crate::net::{HostLink, Packet, PacketKind};
use crate::time::SimTime;

/// Where what an endpoint does goes.
pub(super) trait HostSink {
    /// Data left its sender's access link; it reaches the bottleneck at `at`.
    fn to_bottleneck(&mut self, at: SimTime, p: Packet);
    /// A receiver sent an ACK at `at` (the reverse path is crossed by the sink's owner).
    fn ack(&mut self, at: SimTime, p: Packet);
    /// A host or reverse-path link's queue was full.
    fn dropped(&mut self, d: DropRecord);
    /// An endpoint's timer wants a wake-up event.
    fn wake(&mut self, at: SimTime, ev: Event);
}

#[derive(Default)]
pub(super) struct Hosts {
    pub senders: Senders,
    pub receivers: Receivers,
}

impl Hosts {
    /// A packet reaching its endpoint at `now`.
    pub fn deliver(&mut self, p: &Packet, now: SimTime, sink: &mut impl HostSink) {
        match p.kind.is_data() {
            true => self.receivers.act(p.flow, now, |r, now, out| r.on_packet(p, now, out), sink),
            false => self.senders.deliver(p, now, sink),
        }
    }

    /// An endpoint's own event: a flow's start or stop, a timer.
    pub fn handle(&mut self, ev: Event, now: SimTime, sink: &mut impl HostSink) {
        match ev {
            Event::ReceiverTimer { flow } => {
                self.receivers.act(flow, now, |r, now, out| r.on_timer(now, out), sink)
            }
            ev => self.senders.handle(ev, now, sink),
        }
    }

    /// For an ACK: starts loading what its sender's struct points to (a hint; ask for the
    /// struct first, [`Hosts::prefetch_for`]).
    #[inline]
    pub fn prefetch_sender_inner(&self, p: &Packet) {
        if matches!(p.kind, PacketKind::Ack | PacketKind::SynAck) {
            let newest_sacked = p.sack_blocks().first().map(|b| b.end.wrapping_sub(1));
            self.senders.prefetch_inner(p.flow, newest_sacked);
        }
    }

    /// Starts loading what the endpoint of packet `p` touches (a hint).
    #[inline]
    pub fn prefetch_for(&self, p: &Packet) {
        match p.kind.is_data() {
            true => self.receivers.prefetch(p.flow),
            false => self.senders.prefetch(p.flow),
        }
    }
}

/// Admits a packet of `bytes` reaching a closed-form link at `at`: when its last bit
/// reaches the far end, or None if the link's queue is full; the time it waits in the
/// link's queue goes to `waits`.
pub(super) fn cross(link: &mut HostLink, at: SimTime, bytes: u32, waits: &mut WaitTally) -> Option<SimTime> {
    let c = link.cross(at, bytes)?;
    waits.add(at, c.waited);
    Some(c.arrives)
}
