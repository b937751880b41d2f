//! A host or reverse-path link: a tail-drop FIFO with no AQM, so each packet's departure is
//! known when it arrives and no event marks its transmission.

use crate::queue::{Occupancy, QueueLimit};
use crate::time::{SimDuration, SimTime};
use std::collections::VecDeque;

use super::LinkSpec;

/// The fields a packet crossing touches come first, in a cache-aligned block (`repr(C)`
/// keeps the order): with 20 000 host links, one cold link per hop costs one or two cache
/// lines.
#[derive(Debug)]
#[repr(C, align(64))]
pub struct HostLink {
    fifo: ClosedFormFifo,
    spec: LinkSpec,
    tx_bytes: u64,
}

/// A packet admitted to a host link: when its last bit reaches the far end, and how long
/// it waited in the queue before its transmission started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Crossing {
    pub arrives: SimTime,
    pub waited: SimDuration,
}

impl HostLink {
    pub fn new(spec: LinkSpec, limit: QueueLimit) -> HostLink {
        HostLink { fifo: ClosedFormFifo::new(limit), spec, tx_bytes: 0 }
    }

    pub fn spec(&self) -> LinkSpec {
        self.spec
    }

    /// A timed change of the link's rate or delay (what is on the wire keeps its timing).
    pub fn set_rate_delay(&mut self, rate: crate::time::Rate, delay: SimDuration) {
        (self.spec.rate, self.spec.delay) = (rate, delay);
    }

    /// Admits a packet of `bytes` reaching the link at `at`, or None if its queue is full.
    pub fn cross(&mut self, at: SimTime, bytes: u32) -> Option<Crossing> {
        let tx = self.spec.rate.tx_time(bytes);
        let done = self.fifo.admit(at, bytes, tx)?;
        self.tx_bytes += u64::from(bytes);
        let waited = SimDuration((done - at).as_nanos() - tx.as_nanos());
        Some(Crossing { arrives: done + self.spec.delay, waited })
    }

    /// Bytes that finished serialisation (or will: a crossing is counted when admitted).
    pub fn tx_bytes(&self) -> u64 {
        self.tx_bytes
    }

    /// What waits at `now` (packets whose transmission has started are gone).
    pub fn occupancy(&self, now: SimTime) -> Occupancy {
        self.fifo.occupancy_at(now)
    }
}

/// A tail-drop FIFO whose departures are computed when packets arrive: with no AQM acting
/// at dequeue, a packet starts transmitting at max(arrival, previous departure).
#[derive(Clone, Debug)]
struct ClosedFormFifo {
    limit: QueueLimit,
    /// Start-of-transmission times of packets still waiting, with their sizes.
    waiting: VecDeque<(SimTime, u32)>,
    occ: Occupancy,
    busy_until: SimTime,
}

impl ClosedFormFifo {
    fn new(limit: QueueLimit) -> Self {
        ClosedFormFifo {
            limit,
            waiting: VecDeque::new(),
            occ: Occupancy::default(),
            busy_until: SimTime::ZERO,
        }
    }

    fn occupancy_at(&self, now: SimTime) -> Occupancy {
        if self.busy_until <= now {
            return Occupancy::default();
        }
        let mut occ = self.occ;
        for &(_, b) in self.waiting.iter().take_while(|&&(start, _)| start <= now) {
            occ.remove(b, self.limit.cells_of(b));
        }
        occ
    }

    /// Admits a packet arriving at `now`; returns when its last bit leaves, or `None` if
    /// the queue (packets waiting, not the one on the wire) is full.
    fn admit(&mut self, now: SimTime, bytes: u32, tx: SimDuration) -> Option<SimTime> {
        if self.busy_until <= now {
            // Everything that waited has started: forget it without reading the list (its
            // buffer is another allocation, cold on an access link: 3/4 of the time this
            // took at 10 000 flows was that read).
            self.waiting.clear();
            self.occ = Occupancy::default();
        }
        while let Some(&(start, b)) = self.waiting.front() {
            if start > now {
                break;
            }
            self.waiting.pop_front();
            self.occ.remove(b, self.limit.cells_of(b));
        }
        let start = self.busy_until.max(now);
        if start > now {
            if !self.limit.admits(&self.occ, bytes) {
                return None;
            }
            self.waiting.push_back((start, bytes));
            self.occ.add(bytes, self.limit.cells_of(bytes));
        }
        self.busy_until = start + tx;
        Some(self.busy_until)
    }
}
