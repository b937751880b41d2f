use crate::time::SimTime;

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

/// Future events, popped in (time, insertion seq) order.
pub struct EventQueue<E> {
    heap: QuadHeap<E>,
    seq: u64,
    now: SimTime,
    popped: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue { heap: QuadHeap { v: Vec::with_capacity(1024) }, seq: 0, now: SimTime::ZERO, popped: 0 }
    }
}

impl<E> EventQueue<E> {
    pub fn new() -> Self {
        Self::default()
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
        self.heap.v.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.v.is_empty()
    }

    /// Schedules `event` at `at`. Scheduling in the past is a logic error; it is clamped to now.
    pub fn schedule(&mut self, at: SimTime, event: E) {
        debug_assert!(at >= self.now, "event scheduled in the past");
        let at = at.max(self.now);
        let key = ((at.0 as u128) << 64) | self.seq as u128;
        self.seq += 1;
        self.heap.push(Entry { key, event });
    }

    /// Time of the next event, if any.
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek_key().map(|k| SimTime((k >> 64) as u64))
    }

    /// Pops the next event and advances the clock to its time.
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let e = self.heap.pop()?;
        let t = SimTime((e.key >> 64) as u64);
        self.now = t;
        self.popped += 1;
        Some((t, e.event))
    }

    /// Pops the next event only if it is due at or before `limit`.
    pub fn pop_until(&mut self, limit: SimTime) -> Option<(SimTime, E)> {
        match self.peek_time() {
            Some(t) if t <= limit => self.pop(),
            _ => None,
        }
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
    fn pop_until_leaves_later_events_queued() {
        let mut q = EventQueue::new();
        q.schedule(SimTime(10), 1);
        q.schedule(SimTime(50), 2);
        assert_eq!(q.pop_until(SimTime(20)).map(|(_, e)| e), Some(1));
        assert_eq!(q.pop_until(SimTime(20)), None);
        assert_eq!(q.len(), 1);
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
