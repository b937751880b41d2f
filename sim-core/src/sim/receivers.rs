//! Every flow's TCP receiver, and the path its ACKs take back: the reverse bottleneck
//! (shared), then the flow's own access link, crossed as each ACK is sent.

use super::event::Event;
use super::hosts::{cross, HostSink};
use crate::metrics::window::WaitTally;
use crate::metrics::DropRecord;
use crate::net::{HostLink, Packet};
use crate::queue::DropReason;
use crate::tcp::TcpReceiver;
use crate::time::SimTime;

#[derive(Default)]
pub(super) struct Receivers {
    pub tcp: Vec<TcpReceiver>,
    /// Packets handed to the network.
    pub sent: u64,
    /// Each time a flow's receiver had every byte up to the FIN (a finite transfer's end,
    /// as its receiver sees it), in the order it happened.
    pub closed: Vec<(u32, SimTime)>,
    out: Vec<Packet>,
}

impl Receivers {
    pub fn new(tcp: Vec<TcpReceiver>) -> Receivers {
        Receivers { tcp, sent: 0, closed: Vec::new(), out: Vec::new() }
    }

    /// Lets `flow`'s receiver act at `now`, hands its ACKs to the sink and asks for a
    /// wake-up for its delayed-ACK timer.
    pub fn act(
        &mut self,
        flow: u32,
        now: SimTime,
        act: impl FnOnce(&mut TcpReceiver, SimTime, &mut Vec<Packet>),
        sink: &mut impl HostSink,
    ) {
        let r = &mut self.tcp[flow as usize];
        let was_closed = r.peer_closed();
        act(r, now, &mut self.out);
        if !was_closed && r.peer_closed() {
            self.closed.push((flow, now));
        }
        for p in self.out.drain(..) {
            self.sent += 1;
            sink.ack(now, p);
        }
        if let Some(t) = r.delack_timer.event_needed() {
            sink.wake(t, Event::ReceiverTimer { flow });
        }
    }

    /// Starts loading `flow`'s receiver (a hint).
    #[inline]
    pub fn prefetch(&self, flow: u32) {
        if let Some(r) = self.tcp.get(flow as usize) {
            crate::hint::prefetch_lines(r, std::mem::size_of::<TcpReceiver>().div_ceil(64));
        }
    }
}

/// The links ACKs cross: closed-form FIFOs, the second fed by the first alone, so in the
/// order they leave the first (one step for both).
#[derive(Default)]
pub(super) struct AckPath {
    /// The reverse bottleneck: every ACK crosses it first.
    /// One per distinct route (the dumbbell's: one, the reverse bottleneck), with the
    /// route's delays added up, at its slowest rate.
    pub reverse: Vec<HostLink>,
    /// Per flow, its reverse link.
    pub reverse_of: Vec<u32>,
    /// The first reverse link's id in drop records; the others follow, then flow i's ACK
    /// return link.
    pub reverse_id: u32,
    /// Per flow, the access link its ACKs return on.
    pub downlinks: Vec<HostLink>,
    /// How long ACKs waited in these links' queues (the measured window).
    pub waits: WaitTally,
    /// Per flow, whether its ACKs cross disc links (its group's ACK route) before its
    /// access link, instead of the reverse link; empty when no group's do.
    pub via_discs: Vec<bool>,
}

impl AckPath {
    pub fn new(
        reverse: Vec<HostLink>,
        reverse_of: Vec<u32>,
        reverse_id: u32,
        downlinks: Vec<HostLink>,
        window: SimTime,
    ) -> AckPath {
        AckPath {
            reverse,
            reverse_of,
            reverse_id,
            downlinks,
            waits: WaitTally::from(window),
            via_discs: Vec::new(),
        }
    }

    /// Whether `flow`'s ACKs cross disc links first.
    #[inline]
    pub fn via_discs(&self, flow: u32) -> bool {
        self.via_discs.get(flow as usize).copied().unwrap_or(false)
    }

    /// Sends an ACK that crossed its disc links at `at` over its sender's access link
    /// alone: when it reaches its sender, or the drop if the queue was full.
    pub fn cross_downlink(&mut self, at: SimTime, p: &Packet) -> Result<SimTime, DropRecord> {
        let down_id = self.downlink_id(p.flow);
        let down = &mut self.downlinks[p.flow as usize];
        cross(down, at, p.wire_bytes, &mut self.waits).ok_or(DropRecord {
            t_s: at.as_secs_f64(),
            flow: p.flow,
            link: down_id,
            reason: DropReason::Overflow,
        })
    }

    /// Link id of `flow`'s ACK return link in drop records.
    pub fn downlink_id(&self, flow: u32) -> u32 {
        self.reverse_id + self.reverse.len() as u32 + flow
    }

    /// A link of the ACKs' way by id, if `id` is one.
    pub fn link(&self, id: u32) -> Option<&HostLink> {
        let i = id.checked_sub(self.reverse_id)? as usize;
        match i.checked_sub(self.reverse.len()) {
            None => self.reverse.get(i),
            Some(down) => self.downlinks.get(down),
        }
    }

    /// Sends an ACK its receiver sent at `at` across both links: when it reaches its
    /// sender, or the drop if a queue was full. ACKs must come in the order they were sent.
    pub fn cross(&mut self, at: SimTime, p: &mut Packet) -> Result<SimTime, DropRecord> {
        let drop = |at: SimTime, link| DropRecord {
            t_s: at.as_secs_f64(),
            flow: p.flow,
            link,
            reason: DropReason::Overflow,
        };
        p.hop = 0;
        let r = self.reverse_of[p.flow as usize];
        let reverse = &mut self.reverse[r as usize];
        let at =
            cross(reverse, at, p.wire_bytes, &mut self.waits).ok_or_else(|| drop(at, self.reverse_id + r))?;
        p.hop = 1;
        let down_id = self.downlink_id(p.flow);
        let down = &mut self.downlinks[p.flow as usize];
        cross(down, at, p.wire_bytes, &mut self.waits).ok_or_else(|| drop(at, down_id))
    }

    /// Starts loading `flow`'s downlink (a hint).
    #[inline]
    pub fn prefetch(&self, flow: u32) {
        if let Some(l) = self.downlinks.get(flow as usize) {
            crate::hint::prefetch_lines(l, 2);
        }
    }
}
