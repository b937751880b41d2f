//! A disc link's recent packets, event by event: what the packet view draws and steps
//! through, the same natively (`aqmsim run --packet-trace`) and in the browser.
//!
//! The trace is a ring of the last [`TRACE_EVENTS`] events, so memory and the time per
//! packet are bounded whatever the flows (no per-flow state). Events leaving the ring are
//! applied to a base state (the packets in the link just before the oldest event kept), so
//! a [`TraceWindow`] is self-contained: the base plus the events, replayed by
//! [`TraceReplay`] to any instant, forward or back.

use crate::queue::DropReason;
use std::collections::VecDeque;

/// Events a link's trace keeps (32 bytes each: 512 kB per traced link).
pub const TRACE_EVENTS: usize = 16_384;

/// What happened to a packet at a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

impl TraceEvent {
    /// `kind` for `item` at `t_ns`, with no times beyond (a `Sent` sets `done_ns`, `far_ns`).
    pub fn of(
        t_ns: u64,
        kind: TraceKind,
        item: &crate::queue::QItem,
        queue: u32,
        reason: Option<DropReason>,
    ) -> TraceEvent {
        TraceEvent {
            t_ns,
            kind,
            id: item.id,
            flow: item.flow,
            bytes: item.bytes,
            queue,
            ack: item.ack,
            reason,
            done_ns: 0,
            far_ns: 0,
        }
    }
}

/// Where a packet in the link is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Disc,
    Device,
    Wire,
}

/// A packet in the link at some instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
#[derive(Clone, Debug, Default, PartialEq)]
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

/// Packs a kind, a flag and an optional reason in one byte each of a word.
fn pack_tags(kind: u8, flag: bool, reason: Option<DropReason>) -> u64 {
    let r = match reason {
        None => 0,
        Some(DropReason::Early) => 1,
        Some(DropReason::Forced) => 2,
        Some(DropReason::Overflow) => 3,
        Some(DropReason::Threshold) => 4,
    };
    u64::from(kind) | u64::from(flag) << 8 | r << 16
}

fn unpack_reason(w: u64) -> Option<Option<DropReason>> {
    Some(match (w >> 16) & 0xff {
        0 => None,
        1 => Some(DropReason::Early),
        2 => Some(DropReason::Forced),
        3 => Some(DropReason::Overflow),
        4 => Some(DropReason::Threshold),
        _ => return None,
    })
}

fn pair(a: u32, b: u32) -> u64 {
    u64::from(a) | u64::from(b) << 32
}

fn split(w: u64) -> (u32, u32) {
    (w as u32, (w >> 32) as u32)
}

const KINDS: [TraceKind; 5] =
    [TraceKind::Queued, TraceKind::Refused, TraceKind::Dropped, TraceKind::ToDevice, TraceKind::Sent];
const STAGES: [Stage; 3] = [Stage::Disc, Stage::Device, Stage::Wire];

impl TraceWindow {
    /// The window as 64-bit words, for the page's worker messages: six per event, seven
    /// per packet (a derived serde form cost the page's download several times the code).
    /// The sub-queue names travel beside it.
    pub fn to_words(&self) -> Vec<u64> {
        let mut w = Vec::with_capacity(5 + self.base.len() * 7 + self.events.len() * 6);
        w.extend([
            u64::from(self.link),
            self.from_ns,
            self.to_ns,
            self.base.len() as u64,
            self.events.len() as u64,
        ]);
        for r in &self.base {
            let stage = STAGES.iter().position(|s| *s == r.stage).unwrap_or(0) as u8;
            w.extend([
                pair(r.id, r.flow),
                pair(r.bytes, r.queue),
                pack_tags(stage, r.ack, r.mark),
                r.queued_ns,
                r.sent_ns,
                r.done_ns,
                r.far_ns,
            ]);
        }
        for e in &self.events {
            let kind = KINDS.iter().position(|k| *k == e.kind).unwrap_or(0) as u8;
            w.extend([
                e.t_ns,
                pair(e.id, e.flow),
                pair(e.bytes, e.queue),
                pack_tags(kind, e.ack, e.reason),
                e.done_ns,
                e.far_ns,
            ]);
        }
        w
    }

    /// The inverse of [`TraceWindow::to_words`]; `None` for words it did not write.
    pub fn from_words(w: &[u64], queue_names: Vec<(u32, String)>) -> Option<TraceWindow> {
        let (head, rest) = w.split_at_checked(5)?;
        let (n_base, n_events) = (usize::try_from(head[3]).ok()?, usize::try_from(head[4]).ok()?);
        if rest.len() != n_base.checked_mul(7)?.checked_add(n_events.checked_mul(6)?)? {
            return None;
        }
        let (base_w, ev_w) = rest.split_at(n_base * 7);
        let base = (base_w.chunks_exact(7))
            .map(|c| {
                let ((id, flow), (bytes, queue)) = (split(c[0]), split(c[1]));
                Some(Resident {
                    id,
                    flow,
                    bytes,
                    queue,
                    ack: (c[2] >> 8) & 1 == 1,
                    stage: *STAGES.get((c[2] & 0xff) as usize)?,
                    mark: unpack_reason(c[2])?,
                    queued_ns: c[3],
                    sent_ns: c[4],
                    done_ns: c[5],
                    far_ns: c[6],
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let events = (ev_w.chunks_exact(6))
            .map(|c| {
                let ((id, flow), (bytes, queue)) = (split(c[1]), split(c[2]));
                Some(TraceEvent {
                    t_ns: c[0],
                    kind: *KINDS.get((c[3] & 0xff) as usize)?,
                    id,
                    flow,
                    bytes,
                    queue,
                    ack: (c[3] >> 8) & 1 == 1,
                    reason: unpack_reason(c[3])?,
                    done_ns: c[4],
                    far_ns: c[5],
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(TraceWindow {
            link: u32::try_from(head[0]).ok()?,
            from_ns: head[1],
            to_ns: head[2],
            base,
            events,
            queue_names,
        })
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

/// The slot of packet `id` (ids are dense: the simulator's packet slots).
fn slot(slots: &mut Vec<Option<Resident>>, id: u32) -> &mut Option<Resident> {
    let i = id as usize;
    if slots.len() <= i {
        slots.resize(i + 1, None);
    }
    &mut slots[i]
}

fn apply_by_id(slots: &mut Vec<Option<Resident>>, e: &TraceEvent) {
    apply(slot(slots, e.id), e);
}

impl Resident {
    /// `e`'s packet waiting in the disc's sub-queue `queue` since `e`.
    fn arrived(e: &TraceEvent, queue: u32) -> Resident {
        Resident {
            id: e.id,
            flow: e.flow,
            bytes: e.bytes,
            queue,
            ack: e.ack,
            stage: Stage::Disc,
            queued_ns: e.t_ns,
            mark: None,
            sent_ns: 0,
            done_ns: 0,
            far_ns: 0,
        }
    }
}

/// One event's effect on the packet with its id.
fn apply(slot: &mut Option<Resident>, e: &TraceEvent) {
    match e.kind {
        TraceKind::Queued => *slot = Some(Resident::arrived(e, e.queue)),
        TraceKind::Refused => {}
        TraceKind::Dropped => *slot = None,
        TraceKind::ToDevice | TraceKind::Sent => {
            // A packet queued before the trace began is seen first here.
            let r = slot.get_or_insert(Resident::arrived(e, 0));
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
            *slot(&mut slots, r.id) = Some(*r);
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
    fn a_window_goes_through_words_and_back_unchanged_and_bad_words_are_refused() {
        let mut t = PacketTrace::new();
        lifecycle(&mut t, (TRACE_EVENTS as u32) + 500);
        t.push(TraceEvent {
            reason: Some(DropReason::Threshold),
            ack: true,
            ..ev(1 << 40, TraceKind::Sent, 7)
        });
        t.push(TraceEvent {
            reason: Some(DropReason::Forced),
            queue: 3,
            ..ev(1 << 41, TraceKind::Refused, 8)
        });
        let mut w = t.window(4, 1 << 42, 3000);
        w.base.push(Resident { mark: Some(DropReason::Early), stage: Stage::Device, ..w.base[0] });
        let names = vec![(3, "Q3".to_string())];
        w.queue_names = names.clone();
        let words = w.to_words();
        assert_eq!(TraceWindow::from_words(&words, names.clone()), Some(w));
        assert_eq!(TraceWindow::from_words(&words[..words.len() - 1], names.clone()), None);
        assert_eq!(TraceWindow::from_words(&[0, 0, 0, u64::MAX, u64::MAX], names.clone()), None);
        let mut bad = words.clone();
        bad[5 + 2] |= 9 << 16;
        assert_eq!(TraceWindow::from_words(&bad, names), None, "no such reason");
    }

    #[test]
    fn the_ring_never_holds_more_than_its_size() {
        let mut t = PacketTrace::new();
        lifecycle(&mut t, TRACE_EVENTS as u32);
        assert_eq!(t.len(), TRACE_EVENTS);
        assert_eq!(t.base.len(), 50, "the base holds one slot per id, not per packet");
    }
}
