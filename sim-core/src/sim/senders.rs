//! Every flow's TCP sender and the access link its data leave on.

use super::event::Event;
use super::hosts::{cross, HostSink};
use super::traffic::{PingSample, Traffic};
use crate::metrics::window::WaitTally;
use crate::metrics::DropRecord;
use crate::net::{HostLink, Packet, PacketKind};
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
    /// The flows that arrive during the run, and what transfers and pings recorded.
    pub traffic: Traffic,
    out: Vec<Packet>,
}

impl Senders {
    pub fn new(
        tcp: Vec<TcpSender>,
        uplinks: Vec<HostLink>,
        first_uplink_id: u32,
        window: SimTime,
    ) -> Senders {
        Senders {
            tcp,
            uplinks,
            first_uplink_id,
            sent: 0,
            waits: WaitTally::from(window),
            traffic: Traffic::default(),
            out: Vec::new(),
        }
    }

    /// A packet for `p.flow`'s sender at `now`: an ACK or SYN-ACK it acts on, or a ping's
    /// answer, recorded.
    pub fn deliver(&mut self, p: &Packet, now: SimTime, sink: &mut impl HostSink) {
        if p.kind == PacketKind::EchoReply {
            let sent = p.stamped();
            let rtt_ms = (now - sent).as_secs_f64() * 1e3;
            self.traffic.pings.push(PingSample { flow: p.flow, sent_s: sent.as_secs_f64(), rtt_ms });
            return;
        }
        self.act(p.flow, now, |s, now, out| s.on_packet(p, now, out), sink);
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
        if s.is_complete() && !self.traffic.recycles(flow) {
            if let (Some(bytes), Some(start), Some(end)) = (s.size_bytes(), s.started_at(), s.completed_at())
            {
                self.traffic.completed_once(flow, bytes, start, end);
            }
        } else if s.is_complete() {
            let (starts, next_round) = self.traffic.complete(flow, now);
            self.begin_all(starts, now, sink);
            if let Some((source, at)) = next_round {
                sink.wake(at, Event::Arrival { source });
            }
        }
    }

    /// Starts each (flow, bytes) on its flow's connection.
    fn begin_all(&mut self, starts: Vec<(u32, u64)>, now: SimTime, sink: &mut impl HostSink) {
        for (flow, bytes) in starts {
            // A persistent connection's next message, or a new connection.
            if self.traffic.keeps_alive(flow) && self.tcp[flow as usize].is_complete() {
                self.act(flow, now, |s, now, out| s.next_message(bytes, now, out), sink);
            } else {
                let cc = self.traffic.cc_for(flow);
                self.tcp[flow as usize].renew(cc, Some(bytes));
                self.act(flow, now, |s, now, out| s.start(now, out), sink);
            }
        }
    }

    /// Runs a sender's own event (a start, a stop, a timer).
    pub fn handle(&mut self, ev: Event, now: SimTime, sink: &mut impl HostSink) {
        match ev {
            Event::FlowStart { flow } => self.act(flow, now, |s, now, out| s.start(now, out), sink),
            Event::FlowStop { flow } => self.tcp[flow as usize].stop(),
            Event::Arrival { source } => {
                let (starts, next) = self.traffic.arrive(source, now);
                self.begin_all(starts, now, sink);
                if let Some(at) = next {
                    sink.wake(at, Event::Arrival { source });
                }
            }
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
