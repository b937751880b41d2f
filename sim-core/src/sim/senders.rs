//! The sender side of the dumbbell: every flow's TCP sender and the access link its data
//! leave on. It reads and writes nothing else, and what it sends reaches the bottleneck an
//! access delay later at the earliest, so it can run apart from the rest (`lane.rs`).

use super::event::Event;
use crate::metrics::DropRecord;
use crate::net::{Link, Packet};
use crate::queue::DropReason;
use crate::tcp::TcpSender;
use crate::time::SimTime;

#[derive(Default)]
pub(super) struct Senders {
    pub tcp: Vec<TcpSender>,
    /// Per flow, the access link its data cross first (a closed-form FIFO).
    pub uplinks: Vec<Link>,
    /// Link id of flow 0's uplink in drop records; flow i's is this + i.
    pub first_uplink_id: u32,
    /// Packets handed to the network.
    pub sent: u64,
    out: Vec<Packet>,
}

/// Where what a sender does goes: packets to the bottleneck, drops to the record, timer
/// wake-ups to an event queue.
pub(super) trait SenderSink {
    /// A packet left its access link; it reaches the bottleneck at `at`.
    fn to_bottleneck(&mut self, at: SimTime, p: Packet);
    /// The access link's queue was full.
    fn dropped(&mut self, d: DropRecord);
    fn wake(&mut self, at: SimTime, ev: Event);
}

impl Senders {
    pub fn new(tcp: Vec<TcpSender>, uplinks: Vec<Link>, first_uplink_id: u32) -> Senders {
        Senders { tcp, uplinks, first_uplink_id, sent: 0, out: Vec::new() }
    }

    /// Lets `flow`'s sender act at `now`, sends what it produced through its access link,
    /// and asks for wake-ups for its timers (an endpoint's timers change only when it acts).
    pub fn act(
        &mut self,
        flow: u32,
        now: SimTime,
        act: impl FnOnce(&mut TcpSender, SimTime, &mut Vec<Packet>),
        sink: &mut impl SenderSink,
    ) {
        let s = &mut self.tcp[flow as usize];
        act(s, now, &mut self.out);
        let link = &mut self.uplinks[flow as usize];
        for mut p in self.out.drain(..) {
            p.hop = 0;
            self.sent += 1;
            let fifo = link.fifo.as_mut().expect("an uplink is a closed-form FIFO");
            match fifo.admit(now, p.wire_bytes, link.spec.rate.tx_time(p.wire_bytes)) {
                Some(done) => {
                    link.tx_bytes += u64::from(p.wire_bytes);
                    link.tx_packets += 1;
                    sink.to_bottleneck(done + link.spec.delay, p);
                }
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

    /// Runs a sender event (not an ACK's arrival: see [`Senders::act`]).
    pub fn handle(&mut self, ev: Event, now: SimTime, sink: &mut impl SenderSink) {
        match ev {
            Event::FlowStart { flow } => self.act(flow, now, |s, now, out| s.start(now, out), sink),
            Event::FlowStop { flow } => self.tcp[flow as usize].stop(),
            Event::SenderTimer { flow } => self.act(flow, now, |s, now, out| s.on_timer(now, out), sink),
            Event::PaceTimer { flow } => self.act(flow, now, |s, now, out| s.on_pace_timer(now, out), sink),
            _ => unreachable!("not a sender event: {ev:?}"),
        }
    }

    /// Starts loading what an event for `flow`'s sender touches (hints only): the sender,
    /// its congestion control and the access link it sends on.
    #[inline]
    pub fn prefetch(&self, flow: u32) {
        if let (Some(s), Some(l)) = (self.tcp.get(flow as usize), self.uplinks.get(flow as usize)) {
            crate::hint::prefetch_lines(s, std::mem::size_of::<TcpSender>().div_ceil(64));
            crate::hint::prefetch_lines(l, 2);
        }
    }
}
