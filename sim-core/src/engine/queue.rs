//! The future-event list: a calendar queue (a timing wheel of time buckets) that pops in
//! exactly the order of one heap keyed by (time, insertion seq).
//!
//! Time is cut into buckets of 2^`shift` ns. An event lands in one of three places:
//! - `cur`: the events of the current bucket (and any scheduled for a time before it),
//!   sorted by time, ties in insertion order;
//! - `wheel`: one vector per bucket for the next `WHEEL - 1` buckets, in insertion order
//!   (pushing is an append; a bitmap finds the next non-empty bucket);
//! - `far`: a heap keyed by (time, seq) for everything beyond the wheel, moved onto the
//!   wheel when the wheel comes to reach it.
//!
//! Every event in `cur` is earlier than every event on the wheel, and every event on the
//! wheel earlier than every event in `far`. A wheel bucket is filled in insertion order:
//! the far heap hands over a bucket's events (in (time, seq) order) at the moment the wheel
//! first reaches that bucket, before anything can be scheduled into it directly. So a
//! stable sort by time puts a bucket in (time, seq) order without storing seq, and an event
//! scheduled into `cur` goes after every queued event of the same time. With buckets about
//! one packet time wide most buckets hold a handful of events: a push is an append of 16
//! bytes and a pop reads the next one, instead of sifting through a heap of every packet in
//! flight (a cache miss per level once the heap outgrows the cache).

use crate::time::SimTime;

/// An event on the wheel or in `cur`: its order among equal times is its position.
struct Slot<E> {
    time: u64,
    event: E,
}

/// An event in the far heap.
struct Entry<E> {
    /// (time << 64) | seq: one integer compare orders by time, then insertion.
    key: u128,
    event: E,
}

/// A 4-ary min-heap: shallower than a binary heap, so a pop touches fewer cache lines.
struct QuadHeap<E> {
    v: Vec<Entry<E>>,
}

impl<E> QuadHeap<E> {
    fn push(&mut self, e: Entry<E>) {
        let mut i = self.v.len();
        self.v.push(e);
        while i > 0 {
            let parent = (i - 1) / 4;
            if self.v[parent].key <= self.v[i].key {
                break;
            }
            self.v.swap(parent, i);
            i = parent;
        }
    }

    fn pop(&mut self) -> Option<Entry<E>> {
        let last = self.v.pop()?;
        if self.v.is_empty() {
            return Some(last);
        }
        let top = std::mem::replace(&mut self.v[0], last);
        let n = self.v.len();
        let mut i = 0;
        loop {
            let first = 4 * i + 1;
            if first >= n {
                break;
            }
            let mut best = first;
            for c in first + 1..(first + 4).min(n) {
                if self.v[c].key < self.v[best].key {
                    best = c;
                }
            }
            if self.v[i].key <= self.v[best].key {
                break;
            }
            self.v.swap(i, best);
            i = best;
        }
        Some(top)
    }

    fn peek_key(&self) -> Option<u128> {
        self.v.first().map(|e| e.key)
    }
}

/// Sorts by time, keeping insertion order among equal times (stable). A bucket holds a few
/// events, mostly in order already: insertion sort, linear then.
fn sort_by_time<E>(v: &mut [Slot<E>]) {
    if v.len() > 32 {
        v.sort_by_key(|s| s.time);
        return;
    }
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && v[j - 1].time > v[j].time {
            v.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Buckets on the wheel (a power of two).
const WHEEL: usize = 1 << 14;
const WORDS: usize = WHEEL / 64;

/// Capacity (events) an empty wheel bucket keeps for reuse; most buckets hold a handful.
const KEEP_CAPACITY: usize = 64;

/// Wheel appends batched (see `EventQueue::staged`).
const STAGED: usize = 16;

/// Bucket width used when the owner gives none: 1.024 µs.
const DEFAULT_SHIFT: u32 = 10;

/// Future events, popped in (time, insertion seq) order.
pub struct EventQueue<E> {
    /// Events of bucket `cur_bucket` (and earlier) sorted by time; `cur[head..]` are queued.
    cur: Vec<Slot<E>>,
    head: usize,
    /// Events of buckets `cur_bucket + 1 .. cur_bucket + WHEEL`, at index bucket % WHEEL.
    wheel: Vec<Vec<Slot<E>>>,
    /// Bit b set when `wheel[b]` is not empty.
    occupied: [u64; WORDS],
    /// Events of buckets `cur_bucket + WHEEL` and later.
    far: QuadHeap<E>,
    cur_bucket: u64,
    shift: u32,
    len: usize,
    /// Insertion counter (orders the far heap's ties).
    seq: u64,
    now: SimTime,
    popped: u64,
    /// Events bound for wheel buckets, in insertion order, not yet appended: an append
    /// writes to a bucket last touched milliseconds ago, a cache miss, and a miss on a store
    /// holds up every later store. Appending a batch after asking for all its lines at once
    /// overlaps the misses. Flushed before any bucket is read.
    staged: Vec<(u32, Slot<E>)>,
    /// Wheel slot of the next occupied bucket when `cur` was loaded (a hint: `upcoming`
    /// reads on into it, so the events at a bucket's start were prefetched too).
    next_slot: usize,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue::with_bucket_shift(DEFAULT_SHIFT)
    }
}

impl<E> EventQueue<E> {
    pub fn new() -> Self {
        Self::default()
    }

    /// A queue whose buckets are 2^`shift` ns wide. Any width gives the same order; the
    /// cost is least when a bucket holds a few events (about one packet time of the
    /// busiest link).
    pub fn with_bucket_shift(shift: u32) -> Self {
        EventQueue {
            cur: Vec::with_capacity(64),
            head: 0,
            wheel: (0..WHEEL).map(|_| Vec::new()).collect(),
            occupied: [0; WORDS],
            far: QuadHeap { v: Vec::new() },
            cur_bucket: 0,
            shift: shift.min(40),
            len: 0,
            seq: 0,
            now: SimTime::ZERO,
            popped: 0,
            next_slot: 0,
            staged: Vec::with_capacity(STAGED),
        }
    }

    /// A queue with buckets about `ns` nanoseconds wide (rounded down to a power of two).
    pub fn with_bucket_ns(ns: u64) -> Self {
        Self::with_bucket_shift(63 - ns.max(1).leading_zeros())
    }

    /// Width of a bucket, in ns.
    pub fn bucket_ns(&self) -> u64 {
        1 << self.shift
    }

    /// Time of the event being processed (or of the last one popped).
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Number of events popped so far.
    pub fn events_processed(&self) -> u64 {
        self.popped
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Schedules `event` at `at`. Scheduling in the past is a logic error; it is clamped to now.
    pub fn schedule(&mut self, at: SimTime, event: E) {
        debug_assert!(at >= self.now, "event scheduled in the past");
        let t = at.max(self.now).0;
        self.len += 1;
        let b = t >> self.shift;
        if b <= self.cur_bucket {
            // After every queued event of the same time or earlier.
            let queued = &self.cur[self.head..];
            let i = if queued.last().is_none_or(|s| s.time <= t) {
                queued.len()
            } else {
                queued.partition_point(|s| s.time <= t)
            };
            self.cur.insert(self.head + i, Slot { time: t, event });
        } else if b - self.cur_bucket < WHEEL as u64 {
            let slot = (b as usize) & (WHEEL - 1);
            self.staged.push((slot as u32, Slot { time: t, event }));
            if self.staged.len() == STAGED {
                self.flush_staged();
            }
        } else {
            let key = (u128::from(t) << 64) | u128::from(self.seq);
            self.seq += 1;
            self.far.push(Entry { key, event });
        }
    }

    /// Appends the staged events to their buckets: first asks for every line the appends
    /// will write, then writes them, in insertion order.
    fn flush_staged(&mut self) {
        for (slot, _) in &self.staged {
            crate::hint::prefetch_spare(&self.wheel[*slot as usize]);
        }
        for (slot, s) in self.staged.drain(..) {
            let slot = slot as usize;
            self.wheel[slot].push(s);
            self.occupied[slot / 64] |= 1 << (slot % 64);
        }
    }

    /// The first occupied wheel bucket after the current one, as an absolute bucket number.
    fn next_wheel_bucket(&self) -> Option<u64> {
        let start = ((self.cur_bucket + 1) as usize) & (WHEEL - 1);
        let (w0, bit0) = (start / 64, start % 64);
        // The first word from `start` on, then the others in wheel order, then the part of
        // the first word before `start` (the wheel wraps there).
        let first = self.occupied[w0] & (!0u64 << bit0);
        let found = if first != 0 {
            Some(w0 * 64 + first.trailing_zeros() as usize)
        } else {
            (1..=WORDS).find_map(|k| {
                let w = (w0 + k) % WORDS;
                let mut bits = self.occupied[w];
                if k == WORDS {
                    bits &= !(!0u64 << bit0);
                }
                (bits != 0).then(|| w * 64 + bits.trailing_zeros() as usize)
            })
        };
        found.map(|slot| {
            let ahead = (slot.wrapping_sub(start) & (WHEEL - 1)) as u64;
            self.cur_bucket + 1 + ahead
        })
    }

    /// Makes `cur` hold the earliest events when it has run dry, unless their bucket starts
    /// after `limit` (ns); false if nothing is left by then.
    #[inline]
    fn refill(&mut self, limit: u64) -> bool {
        self.head < self.cur.len() || self.load_next_bucket(limit)
    }

    /// Moves `cur` on to the next occupied bucket if it starts by `limit`. A bucket past the
    /// limit stays where it is: once `cur` stood there, every event scheduled before it
    /// would be a sorted insert into `cur` (a caller stopping at a limit, then scheduling
    /// a window's worth of events, made that quadratic).
    #[inline(never)]
    fn load_next_bucket(&mut self, limit: u64) -> bool {
        self.flush_staged();
        self.cur.clear();
        self.head = 0;
        if self.len == 0 {
            return false;
        }
        let from_wheel = self.next_wheel_bucket();
        let from_far = self.far.peek_key().map(|k| ((k >> 64) as u64) >> self.shift);
        let b = match (from_wheel, from_far) {
            (Some(w), Some(f)) => w.min(f),
            (Some(w), None) => w,
            (None, Some(f)) => f,
            (None, None) => return false,
        };
        if b << self.shift > limit {
            return false;
        }
        self.cur_bucket = b;
        if from_wheel == Some(b) {
            let slot = (b as usize) & (WHEEL - 1);
            std::mem::swap(&mut self.cur, &mut self.wheel[slot]);
            // The emptied `cur` stays in that slot for reuse, but not a crowded bucket's
            // capacity: rotating through the wheel, every slot would come to keep the
            // largest bucket ever seen (16 384 slots of 10 000 timers: gigabytes).
            if self.wheel[slot].capacity() > KEEP_CAPACITY {
                self.wheel[slot] = Vec::new();
            }
            self.occupied[slot / 64] &= !(1 << (slot % 64));
            sort_by_time(&mut self.cur);
        }
        // What the wheel now reaches leaves the far heap, in (time, seq) order, before
        // anything can be scheduled into those buckets directly.
        while let Some(k) = self.far.peek_key() {
            let fb = ((k >> 64) as u64) >> self.shift;
            if fb - b >= WHEEL as u64 {
                break;
            }
            let e = self.far.pop().expect("peeked");
            let s = Slot { time: (e.key >> 64) as u64, event: e.event };
            if fb == b {
                // Only when the bucket came from the far heap: `cur` was empty.
                self.cur.push(s);
            } else {
                let slot = (fb as usize) & (WHEEL - 1);
                self.wheel[slot].push(s);
                self.occupied[slot / 64] |= 1 << (slot % 64);
            }
        }
        self.prefetch_next_bucket();
        true
    }

    /// Starts loading the next occupied bucket's events (a hint): written when they were
    /// scheduled, milliseconds ago, they are cold by their turn, and sorting them stalled on
    /// the first read. Its vector header sits next to the current one, so reading it is
    /// cheap; the headers after it are asked for too, for the next load.
    #[inline]
    fn prefetch_next_bucket(&mut self) {
        let Some(b) = self.next_wheel_bucket() else { return };
        let slot = (b as usize) & (WHEEL - 1);
        self.next_slot = slot;
        let v = &self.wheel[slot];
        if let Some(first) = v.first() {
            let lines = (v.len() * std::mem::size_of::<Slot<E>>()).div_ceil(64);
            crate::hint::prefetch_lines(first, lines.min(4));
        }
        crate::hint::prefetch(&self.wheel[(slot + 2) & (WHEEL - 1)]);
    }

    /// Time of the next event, if any.
    pub fn peek_time(&mut self) -> Option<SimTime> {
        if !self.refill(u64::MAX) {
            return None;
        }
        Some(SimTime(self.cur[self.head].time))
    }

    /// The events queued after the next one (a hint for prefetching what they will touch):
    /// the rest of the current bucket in order, then the next bucket's as they were
    /// scheduled (not sorted yet, and possibly changed since; without them the first events
    /// of every bucket went unprefetched: 5-10 % of a 10 000-flow run).
    pub fn upcoming(&self) -> impl Iterator<Item = &E> {
        let next = &self.wheel[self.next_slot];
        self.cur[self.head..].iter().chain(next.iter()).map(|s| &s.event)
    }

    /// Pops the next event and advances the clock to its time.
    pub fn pop(&mut self) -> Option<(SimTime, E)>
    where
        E: Copy,
    {
        if !self.refill(u64::MAX) {
            return None;
        }
        let s = &self.cur[self.head];
        let (t, event) = (SimTime(s.time), s.event);
        self.head += 1;
        self.len -= 1;
        self.now = t;
        self.popped += 1;
        Some((t, event))
    }

    /// Pops the next event only if it is due at or before `limit`.
    pub fn pop_until(&mut self, limit: SimTime) -> Option<(SimTime, E)>
    where
        E: Copy,
    {
        if !self.refill(limit.0) || self.cur[self.head].time > limit.0 {
            return None;
        }
        self.pop()
    }

    /// Moves the clock forward to `t` when no event is due before it.
    pub fn advance_to(&mut self, t: SimTime) {
        if t > self.now {
            self.now = t;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_pop_in_time_order() {
        let mut q = EventQueue::new();
        q.schedule(SimTime(30), 'c');
        q.schedule(SimTime(10), 'a');
        q.schedule(SimTime(20), 'b');
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['a', 'b', 'c']);
    }

    #[test]
    fn simultaneous_events_keep_insertion_order() {
        let mut q = EventQueue::new();
        for i in 0..100 {
            q.schedule(SimTime(5), i);
        }
        let order: Vec<i32> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, (0..100).collect::<Vec<_>>());
    }

    #[test]
    fn crowded_buckets_do_not_leave_their_capacity_on_the_wheel() {
        // 10 000 timers in each of 16 consecutive buckets, each popped in turn: the slots
        // the crowd passed through must not each keep room for 10 000 events.
        let mut q = EventQueue::with_bucket_shift(10);
        let bucket = 1u64 << 10;
        for b in 1..=16u64 {
            for i in 0..10_000u64 {
                q.schedule(SimTime(b * bucket + i % bucket), i);
            }
            while q.pop_until(SimTime(b * bucket + bucket - 1)).is_some() {}
        }
        let most = q.wheel.iter().map(Vec::capacity).max().unwrap_or(0);
        assert!(most <= KEEP_CAPACITY, "an empty slot keeps room for {most} events");
    }

    #[test]
    fn pop_until_leaves_later_events_queued() {
        let mut q = EventQueue::new();
        q.schedule(SimTime(10), 1);
        q.schedule(SimTime(50), 2);
        assert_eq!(q.pop_until(SimTime(20)).map(|(_, e)| e), Some(1));
        assert_eq!(q.pop_until(SimTime(20)), None);
        assert_eq!(q.len(), 1);
    }

    /// The reference: every event in one sorted list by (time, seq).
    fn check_against_sort(shift: u32, ops: &[(u8, u64)]) {
        let mut q = EventQueue::with_bucket_shift(shift);
        let mut model = std::collections::BTreeSet::new();
        let mut seq = 0u64;
        for &(op, x) in ops {
            if op % 3 == 0 {
                assert_eq!(q.pop().map(|(t, e)| (t.0, e)), model.pop_first());
            } else {
                let at = q.now().0 + x;
                q.schedule(SimTime(at), seq);
                model.insert((at, seq));
                seq += 1;
            }
            assert_eq!(q.len(), model.len());
        }
        let rest: Vec<(u64, u64)> = std::iter::from_fn(|| q.pop().map(|(t, e)| (t.0, e))).collect();
        assert_eq!(rest, model.into_iter().collect::<Vec<_>>());
    }

    #[test]
    fn any_bucket_width_pops_in_time_then_insertion_order() {
        // Delays from 0 (same bucket) to far beyond the wheel, with many ties.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for shift in [0, 3, 10, 20] {
            let ops: Vec<(u8, u64)> = (0..20_000)
                .map(|_| {
                    let r = next();
                    let delay = match r % 5 {
                        0 => 0,
                        1 => r % 8,
                        2 => r % 5_000,
                        3 => r % (1 << (shift + 15)),
                        _ => r % (1 << (shift + 20)),
                    };
                    ((r >> 40) as u8, delay)
                })
                .collect();
            check_against_sort(shift, &ops);
        }
    }

    proptest::proptest! {
        #[test]
        fn pops_follow_time_then_insertion(
            shift in 0u32..12,
            ops in proptest::collection::vec((0u8..3, 0u64..100_000_000), 1..400),
        ) {
            check_against_sort(shift, &ops);
        }
    }

    use proptest::prelude::*;

    /// One step of a random workload: schedule an event `delay` ns from now, or pop one.
    #[derive(Clone, Debug)]
    enum Op {
        Schedule { delay: u64 },
        Pop,
        PopUntil { horizon: u64 },
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            // Small delays make ties in time common; large ones spread the heap.
            3 => (0u64..4).prop_map(|delay| Op::Schedule { delay }),
            2 => (0u64..1_000_000).prop_map(|delay| Op::Schedule { delay }),
            3 => Just(Op::Pop),
            1 => (0u64..1_000).prop_map(|horizon| Op::PopUntil { horizon }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Whatever the interleaving of schedules and pops, events leave in (time, insertion
        /// seq) order, the clock never goes back, and nothing is lost or duplicated.
        #[test]
        fn events_pop_in_time_then_insertion_order(ops in prop::collection::vec(op(), 1..400)) {
            let mut q = EventQueue::new();
            // Reference: every pending event as (time, seq); the event payload is its seq.
            let mut pending = std::collections::BTreeSet::new();
            let mut seq = 0u64;
            let mut last = (SimTime::ZERO, 0u64);
            let mut check_pop = |got: Option<(SimTime, u64)>, pending: &mut std::collections::BTreeSet<(SimTime, u64)>, limit: Option<SimTime>|
             -> Result<(), TestCaseError> {
                let want = pending.first().copied().filter(|&(t, _)| limit.is_none_or(|l| t <= l));
                prop_assert_eq!(got, want);
                if let Some(e) = want {
                    pending.remove(&e);
                    prop_assert!(e >= last, "popped {:?} after {:?}", e, last);
                    last = e;
                }
                Ok(())
            };
            for op in ops {
                match op {
                    Op::Schedule { delay } => {
                        let at = SimTime(q.now().0 + delay);
                        q.schedule(at, seq);
                        pending.insert((at, seq));
                        seq += 1;
                    }
                    Op::Pop => check_pop(q.pop(), &mut pending, None)?,
                    Op::PopUntil { horizon } => {
                        let limit = SimTime(q.now().0 + horizon);
                        check_pop(q.pop_until(limit), &mut pending, Some(limit))?;
                    }
                }
                prop_assert_eq!(q.len(), pending.len());
                prop_assert_eq!(q.peek_time(), pending.first().map(|e| e.0));
            }
            while let Some(e) = q.pop() {
                check_pop(Some(e), &mut pending, None)?;
            }
            prop_assert!(pending.is_empty());
            prop_assert_eq!(q.events_processed(), seq);
        }
    }
}
