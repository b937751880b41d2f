//! Every flow's TCP receiver, and the path its ACKs take back: the reverse bottleneck
//! (shared), then the flow's own access link.

use super::event::Event;
use super::hosts::{cross, HostSink};
use crate::metrics::DropRecord;
use crate::net::{Link, Packet};
use crate::queue::DropReason;
use crate::tcp::TcpReceiver;
use crate::time::SimTime;

/// Link id of the reverse bottleneck in drop records.
pub const REVERSE: u32 = 1;
/// Link id of flow 0's ACK return link; flow i's is this + i.
pub const FIRST_DOWNLINK: u32 = 2;

#[derive(Default)]
pub(super) struct Receivers {
    pub tcp: Vec<TcpReceiver>,
    /// The reverse bottleneck: every ACK crosses it first.
    pub reverse: Option<Link>,
    /// Per flow, the access link its ACKs return on.
    pub downlinks: Vec<Link>,
    /// Packets handed to the network.
    pub sent: u64,
    out: Vec<Packet>,
}

impl Receivers {
    pub fn new(tcp: Vec<TcpReceiver>, reverse: Link, downlinks: Vec<Link>) -> Receivers {
        Receivers { tcp, reverse: Some(reverse), downlinks, sent: 0, out: Vec::new() }
    }

    /// Lets `flow`'s receiver act at `now`, sends its ACKs back across the reverse
    /// bottleneck and the flow's downlink (closed-form FIFOs, the second fed by the first
    /// alone, so in the order they leave the first: one step for both), and asks for a
    /// wake-up for its delayed-ACK timer.
    pub fn act(
        &mut self,
        flow: u32,
        now: SimTime,
        act: impl FnOnce(&mut TcpReceiver, SimTime, &mut Vec<Packet>),
        sink: &mut impl HostSink,
    ) {
        let r = &mut self.tcp[flow as usize];
        act(r, now, &mut self.out);
        let reverse = self.reverse.as_mut().expect("built with a reverse link");
        let down = &mut self.downlinks[flow as usize];
        for mut p in self.out.drain(..) {
            p.hop = 0;
            self.sent += 1;
            let drop = |at: SimTime, link| DropRecord {
                t_s: at.as_secs_f64(),
                flow,
                link,
                reason: DropReason::Overflow,
            };
            let Some(at) = cross(reverse, now, p.wire_bytes) else {
                sink.dropped(drop(now, REVERSE));
                continue;
            };
            p.hop = 1;
            match cross(down, at, p.wire_bytes) {
                Some(arrival) => sink.to_sender(arrival, p),
                None => sink.dropped(drop(at, FIRST_DOWNLINK + flow)),
            }
        }
        if let Some(t) = r.delack_timer.event_needed() {
            sink.wake(t, Event::ReceiverTimer { flow });
        }
    }

    /// Starts loading what a packet for `flow`'s receiver touches (hints only): the
    /// receiver and the link its ACK returns on.
    #[inline]
    pub fn prefetch(&self, flow: u32) {
        if let (Some(r), Some(l)) = (self.tcp.get(flow as usize), self.downlinks.get(flow as usize)) {
            crate::hint::prefetch_lines(r, std::mem::size_of::<TcpReceiver>().div_ceil(64));
            crate::hint::prefetch_lines(l, 2);
        }
    }
}
