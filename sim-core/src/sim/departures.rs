//! Departures from a bottleneck solved in closed form (a plain FIFO): each packet's start
//! and end of transmission are known when it arrives, so the link needs no event per
//! packet. What the event-driven link did at those instants, lowering the flow's backlog
//! when the packet leaves the queue and counting its bytes once serialised, is applied here
//! whenever someone is about to read it (a sample, the next arrival).

use crate::time::SimTime;
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug)]
pub(super) struct Departure {
    /// Leaves the queue (starts serialisation).
    pub start: SimTime,
    /// Last bit on the wire.
    pub done: SimTime,
    pub flow: u32,
    pub bytes: u32,
}

/// Departures in order (a FIFO's starts and ends both increase).
#[derive(Debug, Default)]
pub(super) struct Departures {
    q: VecDeque<Departure>,
    /// How many at the front have already been reported as started.
    started: usize,
}

impl Departures {
    pub fn push(&mut self, d: Departure) {
        self.q.push_back(d);
    }

    /// Reports every departure started by `now` not yet reported (`on_start`), then drops
    /// those done by `now` (`on_done`).
    pub fn settle(
        &mut self,
        now: SimTime,
        mut on_start: impl FnMut(&Departure),
        mut on_done: impl FnMut(&Departure),
    ) {
        while let Some(d) = self.q.get(self.started) {
            if d.start > now {
                break;
            }
            on_start(d);
            self.started += 1;
        }
        while let Some(d) = self.q.front() {
            if d.done > now {
                break;
            }
            on_done(d);
            self.q.pop_front();
            self.started -= 1; // done implies started: start < done
        }
    }

    /// (bytes, packets) done by `now` and not settled yet.
    pub fn done_by(&self, now: SimTime) -> (u64, u64) {
        self.q.iter().take_while(|d| d.done <= now).fold((0, 0), |(b, n), d| (b + u64::from(d.bytes), n + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dep(start: u64, done: u64, flow: u32) -> Departure {
        Departure { start: SimTime(start), done: SimTime(done), flow, bytes: 100 }
    }

    #[test]
    fn starts_and_ends_are_reported_once_each_in_order() {
        let mut d = Departures::default();
        for (i, s) in [0u64, 10, 20, 30].into_iter().enumerate() {
            d.push(dep(s, s + 10, i as u32));
        }
        let (mut started, mut done) = (Vec::new(), Vec::new());
        d.settle(SimTime(15), |x| started.push(x.flow), |x| done.push(x.flow));
        assert_eq!((started.clone(), done.clone()), (vec![0, 1], vec![0]));
        assert_eq!(d.done_by(SimTime(25)), (100, 1));
        d.settle(SimTime(15), |x| started.push(x.flow), |x| done.push(x.flow));
        assert_eq!((started.len(), done.len()), (2, 1), "nothing reported twice");
        d.settle(SimTime(100), |x| started.push(x.flow), |x| done.push(x.flow));
        assert_eq!((started, done), (vec![0, 1, 2, 3], vec![0, 1, 2, 3]));
        assert_eq!(d.done_by(SimTime(1000)), (0, 0));
    }
}
