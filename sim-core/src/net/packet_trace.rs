//! A disc link's recent packets, event by event: what the packet view draws and steps
//! through, the same natively (`aqmsim run --packet-trace`) and in the browser.
//!
//! The trace is a ring of the last [`TRACE_EVENTS`] events, so memory and the time per
//! packet are bounded whatever the flows (no per-flow state). Events leaving the ring are
//! applied to a base state (the packets in the link just before the oldest event kept), so
//! a [`TraceWindow`] is self-contained: the base plus the events, replayed by
//! [`TraceReplay`] to any instant, forward or back.

use crate::queue::DropReason;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Events a link's trace keeps (32 bytes each: 512 kB per traced link).
pub const TRACE_EVENTS: usize = 16_384;

/// What happened to a packet at a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceKind {
    /// Accepted by the disc into sub-queue `queue`.
    Queued,
    /// Refused on arrival (it never waited).
    Refused,
    /// Dropped after waiting (a head drop, CoDel's drop at dequeue, FQ's fattest queue).
    Dropped,
    /// Left the disc for the device queue (the wire was busy).
    ToDevice,
    /// Started serialising onto the wire (from the device queue or straight from the disc).
    Sent,
}

/// One event at a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceEvent {
    pub t_ns: u64,
    pub kind: TraceKind,
    /// The packet's id: unique among the packets in the link at any instant.
    pub id: u32,
    pub flow: u32,
    pub bytes: u32,
    /// `Queued`, `Refused`, `Dropped`: the sub-queue (0 for a single-queue disc).
    pub queue: u32,
    /// An ACK (on an ACK route), not data.
    pub ack: bool,
    /// `Refused`, `Dropped`: why; `ToDevice`, `Sent`: the CE mark the disc gave it, if any.
    pub reason: Option<DropReason>,
    /// `Sent`: when its last bit leaves (the end of serialisation) and when it reaches the
    /// far end, in ns.
    pub done_ns: u64,
    pub far_ns: u64,
}

/// Where a packet in the link is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Disc,
    Device,
    Wire,
}

/// A packet in the link at some instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resident {
    pub id: u32,
    pub flow: u32,
    pub bytes: u32,
    pub queue: u32,
    pub ack: bool,
    pub stage: Stage,
    /// When it reached the disc.
    pub queued_ns: u64,
    /// The CE mark it carries, once it has left the disc.
    pub mark: Option<DropReason>,
    /// `Wire`: when serialisation started and ends, and when it reaches the far end.
    pub sent_ns: u64,
    pub done_ns: u64,
    pub far_ns: u64,
}

/// A self-contained stretch of a link's trace: the packets in the link at `from_ns`, then
/// every event after, up to `to_ns`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TraceWindow {
    pub link: u32,
    pub from_ns: u64,
    pub to_ns: u64,
    pub base: Vec<Resident>,
    pub events: Vec<TraceEvent>,
    /// Names of the sub-queues that appear (`Q1`, `L`, `flow queue 17`).
    pub queue_names: Vec<(u32, String)>,
}

/// The ring and its base.
#[derive(Debug, Default)]
pub struct PacketTrace {
    ring: VecDeque<TraceEvent>,
    /// The packets in the link before the ring's oldest event, by id.
    base: Vec<Option<Resident>>,
    /// When the base stands (the last event applied to it).
    base_ns: u64,
    /// Events pushed since the trace began.
    total: u64,
}

impl PacketTrace {
    pub fn new() -> PacketTrace {
        PacketTrace { ring: VecDeque::with_capacity(TRACE_EVENTS), base: Vec::new(), base_ns: 0, total: 0 }
    }

    #[inline]
    pub fn push(&mut self, e: TraceEvent) {
        if self.ring.len() == TRACE_EVENTS {
            let old = self.ring.pop_front().expect("a full ring");
            apply_by_id(&mut self.base, &old);
            self.base_ns = old.t_ns;
        }
        self.ring.push_back(e);
        self.total += 1;
    }

    /// Events pushed since the trace began (kept or not).
    pub fn total(&self) -> u64 {
        self.total
    }

    pub fn len(&self) -> usize {
        self.ring.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ring.is_empty()
    }

    /// Everything kept, up to `now_ns`; at most the last `max_events` events (the base
    /// then rolled forward over the ones left out).
    pub fn window(&self, link: u32, now_ns: u64, max_events: usize) -> TraceWindow {
        let skip = self.ring.len().saturating_sub(max_events);
        let mut base = self.base.clone();
        let mut from_ns = self.base_ns;
        for e in self.ring.iter().take(skip) {
            apply_by_id(&mut base, e);
            from_ns = e.t_ns;
        }
        let base: Vec<Resident> =
            (base.into_iter().flatten()).filter(|r| r.stage != Stage::Wire || r.far_ns > from_ns).collect();
        let events: Vec<TraceEvent> = self.ring.iter().skip(skip).copied().collect();
        TraceWindow { link, from_ns, to_ns: now_ns, base, events, queue_names: Vec::new() }
    }
}

impl TraceKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TraceKind::Queued => "queued",
            TraceKind::Refused => "refused",
            TraceKind::Dropped => "dropped",
            TraceKind::ToDevice => "to_device",
            TraceKind::Sent => "sent",
        }
    }
}

impl TraceWindow {
    /// `<alg>_packets_<link>.csv`: the packets in the link at the window's start (event
    /// `in_link`, with their stage), then every event; times in seconds.
    pub fn to_csv(&self) -> String {
        use std::fmt::Write;
        let name = |q: u32| self.queue_names.iter().find(|(n, _)| *n == q).map_or("", |(_, s)| s.as_str());
        let secs = |ns: u64| ns as f64 / 1e9;
        let mut out = String::from("t_s,event,packet,flow,ack,bytes,queue,reason,done_s,far_s\n");
        for r in &self.base {
            let (done, far) = match r.stage {
                Stage::Wire => (format!("{:.9}", secs(r.done_ns)), format!("{:.9}", secs(r.far_ns))),
                _ => (String::new(), String::new()),
            };
            let stage = match r.stage {
                Stage::Disc => "in_disc",
                Stage::Device => "in_device",
                Stage::Wire => "on_wire",
            };
            let reason = r.mark.map_or("", |m| m.as_str());
            let _ = writeln!(
                out,
                "{:.9},{stage},{},{},{},{},{},{reason},{done},{far}",
                secs(r.queued_ns),
                r.id,
                r.flow,
                u8::from(r.ack),
                r.bytes,
                name(r.queue)
            );
        }
        for e in &self.events {
            let (done, far) = match e.kind {
                TraceKind::Sent => (format!("{:.9}", secs(e.done_ns)), format!("{:.9}", secs(e.far_ns))),
                _ => (String::new(), String::new()),
            };
            let queue = if e.kind == TraceKind::Queued { name(e.queue) } else { "" };
            let _ = writeln!(
                out,
                "{:.9},{},{},{},{},{},{queue},{},{done},{far}",
                secs(e.t_ns),
                e.kind.as_str(),
                e.id,
                e.flow,
                u8::from(e.ack),
                e.bytes,
                e.reason.map_or("", |m| m.as_str())
            );
        }
        out
    }
}

fn apply_by_id(slots: &mut Vec<Option<Resident>>, e: &TraceEvent) {
    let i = e.id as usize;
    if slots.len() <= i {
        slots.resize(i + 1, None);
    }
    apply(&mut slots[i], e);
}

/// One event's effect on the packet with its id.
fn apply(slot: &mut Option<Resident>, e: &TraceEvent) {
    match e.kind {
        TraceKind::Queued => {
            *slot = Some(Resident {
                id: e.id,
                flow: e.flow,
                bytes: e.bytes,
                queue: e.queue,
                ack: e.ack,
                stage: Stage::Disc,
                queued_ns: e.t_ns,
                mark: None,
                sent_ns: 0,
                done_ns: 0,
                far_ns: 0,
            })
        }
        TraceKind::Refused => {}
        TraceKind::Dropped => *slot = None,
        TraceKind::ToDevice | TraceKind::Sent => {
            // A packet queued before the trace began is seen first here.
            let r = slot.get_or_insert(Resident {
                id: e.id,
                flow: e.flow,
                bytes: e.bytes,
                queue: 0,
                ack: e.ack,
                stage: Stage::Disc,
                queued_ns: e.t_ns,
                mark: None,
                sent_ns: 0,
                done_ns: 0,
                far_ns: 0,
            });
            r.mark = r.mark.or(e.reason);
            if e.kind == TraceKind::ToDevice {
                r.stage = Stage::Device;
            } else {
                (r.stage, r.sent_ns, r.done_ns, r.far_ns) = (Stage::Wire, e.t_ns, e.done_ns, e.far_ns);
            }
        }
    }
}

/// A window replayed to an event: the packets in the link just after it.
#[derive(Clone, Debug)]
pub struct TraceReplay {
    /// Events applied so far (0 = the base alone).
    applied: usize,
    /// By packet id (ids are dense: the simulator's packet slots).
    slots: Vec<Option<Resident>>,
}

impl TraceReplay {
    pub fn new(w: &TraceWindow) -> TraceReplay {
        let mut slots = Vec::new();
        for r in &w.base {
            let i = r.id as usize;
            if slots.len() <= i {
                slots.resize(i + 1, None);
            }
            slots[i] = Some(*r);
        }
        TraceReplay { applied: 0, slots }
    }

    /// How many of the window's events are applied.
    pub fn applied(&self) -> usize {
        self.applied
    }

    /// Replays to just after the first `n` events (back means again from the base).
    pub fn seek(&mut self, w: &TraceWindow, n: usize) {
        let n = n.min(w.events.len());
        if n < self.applied {
            *self = TraceReplay::new(w);
        }
        for e in &w.events[self.applied..n] {
            apply_by_id(&mut self.slots, e);
        }
        self.applied = n;
    }

    /// Replays to time `t_ns`: every event at or before it.
    pub fn seek_time(&mut self, w: &TraceWindow, t_ns: u64) {
        let n = w.events.partition_point(|e| e.t_ns <= t_ns);
        self.seek(w, n);
    }

    /// The packets in the link at `t_ns` (after [`TraceReplay::seek_time`] to it), in
    /// arrival order: waiting in the disc or the device queue, or on the wire (those that
    /// have reached the far end left out).
    pub fn at(&self, t_ns: u64) -> Vec<Resident> {
        let mut v: Vec<Resident> = (self.slots.iter().flatten())
            .filter(|p| p.stage != Stage::Wire || p.far_ns > t_ns)
            .copied()
            .collect();
        v.sort_by_key(|p| (p.queued_ns, p.id));
        v
    }

    /// Packets waiting (disc and device queue) after the events applied.
    pub fn waiting(&self) -> usize {
        self.slots.iter().flatten().filter(|p| p.stage != Stage::Wire).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(t_ns: u64, kind: TraceKind, id: u32) -> TraceEvent {
        TraceEvent {
            t_ns,
            kind,
            id,
            flow: id % 3,
            bytes: 1500,
            queue: 0,
            ack: false,
            reason: None,
            done_ns: t_ns + 12,
            far_ns: t_ns + 100,
        }
    }

    /// A packet queued, sent and reaching the far end, per id: ids are reused once gone.
    fn lifecycle(trace: &mut PacketTrace, n: u32) {
        for i in 0..n {
            let t = u64::from(i) * 10;
            trace.push(ev(t, TraceKind::Queued, i % 50));
            trace.push(ev(t + 1, TraceKind::Sent, i % 50));
        }
    }

    #[test]
    fn a_window_replayed_to_its_end_matches_the_whole_history_replayed() {
        let mut t = PacketTrace::new();
        lifecycle(&mut t, (TRACE_EVENTS as u32) * 2);
        let now = u64::from(TRACE_EVENTS as u32) * 20 + 200;
        let w = t.window(0, now, 1000);
        assert_eq!(w.events.len(), 1000);
        let mut r = TraceReplay::new(&w);
        r.seek_time(&w, now);
        // 200 ns after the last send: everything reached the far end, nothing waits.
        assert_eq!(r.waiting(), 0);
        assert_eq!(r.at(now).len(), 0, "everything reached the far end 100 ns after it was sent");
        r.seek(&w, 999);
        assert_eq!(r.waiting(), 1, "the last packet is queued, not yet sent");
    }

    #[test]
    fn stepping_back_gives_what_stepping_forward_gave() {
        let mut t = PacketTrace::new();
        for i in 0..20 {
            t.push(ev(i * 5, TraceKind::Queued, i as u32));
        }
        for i in 0..10 {
            t.push(ev(200 + i * 5, TraceKind::Sent, i as u32));
        }
        t.push(TraceEvent { reason: Some(DropReason::Early), ..ev(300, TraceKind::Dropped, 15) });
        let w = t.window(0, 400, usize::MAX);
        let mut r = TraceReplay::new(&w);
        let states: Vec<Vec<Resident>> = (0..=w.events.len())
            .map(|n| {
                r.seek(&w, n);
                r.at(0)
            })
            .collect();
        for n in (0..=w.events.len()).rev() {
            r.seek(&w, n);
            assert_eq!(r.at(0), states[n], "event {n}");
        }
        r.seek(&w, w.events.len());
        assert_eq!(r.waiting(), 9, "20 queued, 10 sent, one dropped");
    }

    #[test]
    fn the_ring_never_holds_more_than_its_size() {
        let mut t = PacketTrace::new();
        lifecycle(&mut t, TRACE_EVENTS as u32);
        assert_eq!(t.len(), TRACE_EVENTS);
        assert_eq!(t.base.len(), 50, "the base holds one slot per id, not per packet");
    }
}
