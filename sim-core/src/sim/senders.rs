//! Every flow's TCP sender and the access link its data leave on.

use super::event::Event;
use super::hosts::{cross, HostSink};
use crate::metrics::window::WaitTally;
use crate::metrics::DropRecord;
use crate::net::{HostLink, Packet};
use crate::queue::DropReason;
use crate::tcp::TcpSender;
use crate::time::SimTime;

#[derive(Default)]
pub(super) struct Senders {
    pub tcp: Vec<TcpSender>,
    /// Per flow, the access link its data cross first (a closed-form FIFO).
    pub uplinks: Vec<HostLink>,
    /// Link id of flow 0's uplink in drop records; flow i's is this + i.
    pub first_uplink_id: u32,
    /// Packets handed to the network.
    pub sent: u64,
    /// How long data waited in the access links' queues (the measured window).
    pub waits: WaitTally,
    out: Vec<Packet>,
}

impl Senders {
    pub fn new(
        tcp: Vec<TcpSender>,
        uplinks: Vec<HostLink>,
        first_uplink_id: u32,
        window: SimTime,
    ) -> Senders {
        Senders { tcp, uplinks, first_uplink_id, sent: 0, waits: WaitTally::from(window), out: Vec::new() }
    }

    /// Lets `flow`'s sender act at `now`, sends what it produced through its access link,
    /// and asks for wake-ups for its timers (an endpoint's timers change only when it acts).
    pub fn act(
        &mut self,
        flow: u32,
        now: SimTime,
        act: impl FnOnce(&mut TcpSender, SimTime, &mut Vec<Packet>),
        sink: &mut impl HostSink,
    ) {
        let s = &mut self.tcp[flow as usize];
        act(s, now, &mut self.out);
        let link = &mut self.uplinks[flow as usize];
        for mut p in self.out.drain(..) {
            p.hop = 0;
            self.sent += 1;
            match cross(link, now, p.wire_bytes, &mut self.waits) {
                Some(at) => sink.to_bottleneck(at, p),
                None => sink.dropped(DropRecord {
                    t_s: now.as_secs_f64(),
                    flow,
                    link: self.first_uplink_id + flow,
                    reason: DropReason::Overflow,
                }),
            }
        }
        if let Some(t) = s.rto_timer.event_needed() {
            sink.wake(t, Event::SenderTimer { flow });
        }
        if let Some(t) = s.pace_timer.event_needed() {
            sink.wake(t, Event::PaceTimer { flow });
        }
    }

    /// Runs a sender's own event (a start, a stop, a timer).
    pub fn handle(&mut self, ev: Event, now: SimTime, sink: &mut impl HostSink) {
        match ev {
            Event::FlowStart { flow } => self.act(flow, now, |s, now, out| s.start(now, out), sink),
            Event::FlowStop { flow } => self.tcp[flow as usize].stop(),
            Event::SenderTimer { flow } => self.act(flow, now, |s, now, out| s.on_timer(now, out), sink),
            Event::PaceTimer { flow } => self.act(flow, now, |s, now, out| s.on_pace_timer(now, out), sink),
            _ => unreachable!("not a sender event: {ev:?}"),
        }
    }

    /// Starts loading what an event for `flow`'s sender touches (hints only): the sender
    /// and the access link it sends on.
    #[inline]
    pub fn prefetch(&self, flow: u32) {
        if let (Some(s), Some(l)) = (self.tcp.get(flow as usize), self.uplinks.get(flow as usize)) {
            crate::hint::prefetch_lines(s, std::mem::size_of::<TcpSender>().div_ceil(64));
            crate::hint::prefetch_lines(l, 2);
        }
    }

    /// Starts loading what `flow`'s sender struct points to (hints only; ask for the struct
    /// first, [`Senders::prefetch`]): its boxed congestion control, and for an ACK whose
    /// newest SACKed segment is `newest_sacked`, the scoreboard records it touches.
    #[inline]
    pub fn prefetch_inner(&self, flow: u32, newest_sacked: Option<u32>) {
        if let Some(s) = self.tcp.get(flow as usize) {
            crate::hint::prefetch_lines(s.cc(), 4);
            s.scoreboard().prefetch_for_ack(newest_sacked);
        }
    }
}
