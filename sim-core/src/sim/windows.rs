//! Runs a split scenario window by window (see `lane.rs`): the senders, then the rest, or
//! both at once on two threads; between windows, what each sent goes over, and samples
//! and the opening of the measured window are taken.

use super::{lane, Simulation, PREFETCH_MIN_FLOWS};
use crate::time::SimTime;

impl Simulation {
    /// Whether the two sides of a split run use two threads (the default off wasm). The
    /// results are the same either way.
    pub fn set_parallel(&mut self, on: bool) {
        self.parallel = on && cfg!(not(target_arch = "wasm32"));
    }

    /// Runs windows until `limit` or `budget` events. Stopping inside a window changes
    /// nothing: what a side sends is handed over at the window's end either way.
    pub(super) fn advance_split(&mut self, limit: SimTime, budget: u64) -> u64 {
        let mut n = 0;
        while !self.finished && n < budget {
            let window_end = self.lane.as_ref().expect("split mode").window_end;
            let last = SimTime(window_end.0 - 1);
            let stop = last.min(limit);
            if self.parallel && budget == u64::MAX {
                n += self.run_window_parallel(stop);
            } else {
                let prefetch = self.groups.len() >= PREFETCH_MIN_FLOWS;
                let lane = self.lane.as_deref_mut().expect("split mode");
                n += lane.run(&mut self.hosts.senders, stop, budget - n, prefetch);
                if n < budget {
                    lane::take_in(&mut self.from_senders, &mut self.pkts, &mut self.q);
                    n += self.run_core(stop, budget - n);
                }
                if n >= budget {
                    break;
                }
            }
            if stop < last {
                self.q.advance_to(limit);
                break;
            }
            self.end_window(window_end);
        }
        n
    }

    /// Runs both sides' events due by `stop`, the senders on a second thread.
    #[cfg(not(target_arch = "wasm32"))]
    fn run_window_parallel(&mut self, stop: SimTime) -> u64 {
        use super::worker::{Done, Job, Lent, Recording, Worker};
        let prefetch = self.groups.len() >= PREFETCH_MIN_FLOWS;
        let lane = self.lane.take().expect("split mode");
        let senders = std::mem::take(&mut self.hosts.senders);
        // The delays gathered so far are recorded by whichever side finishes its events
        // first (the same records either way: one side records them all, in order); this
        // side gathers the window's meanwhile.
        let w = &mut self.rec.window;
        let flows = std::mem::take(&mut w.flows);
        let recording = Recording { flows, delays: w.take_delays(std::mem::take(&mut self.spare_delays)) };
        let worker = self.worker.get_or_insert_with(Worker::start);
        worker.send(Job { lent: Lent { lane, senders }, stop, prefetch }, recording);
        lane::take_in(&mut self.from_senders, &mut self.pkts, &mut self.q);
        let b = self.run_core(stop, u64::MAX);
        let worker = self.worker.as_ref().expect("started");
        let mine = worker.take_recording().map(|mut r| {
            r.record();
            r
        });
        let Done { lent: Lent { lane, senders }, recorded, events } = worker.wait();
        let Recording { flows, delays } = mine.or(recorded).expect("one side recorded the delays");
        self.lane = Some(lane);
        self.hosts.senders = senders;
        self.rec.window.flows = flows;
        self.spare_delays = delays;
        events + b
    }

    #[cfg(target_arch = "wasm32")]
    fn run_window_parallel(&mut self, _stop: SimTime) -> u64 {
        unreachable!("no threads in wasm")
    }

    /// Between windows, at `t`: hands over what each side sent (each takes it in, on its
    /// own thread, as the next window starts), opens the measured window and takes a sample
    /// when due, and opens the next window (or ends the run).
    fn end_window(&mut self, t: SimTime) {
        let lane = self.lane.as_deref_mut().expect("split mode");
        debug_assert!(self.from_senders.is_empty() && lane.inbox.is_empty());
        std::mem::swap(&mut lane.outbox, &mut self.from_senders);
        std::mem::swap(&mut self.to_senders, &mut lane.inbox);
        for d in lane.drops.drain(..) {
            self.rec.push_drop(d);
            self.counts.dropped += 1;
        }
        let at = t.min(self.end);
        lane.q.advance_to(at);
        self.q.advance_to(at);
        if t > self.end {
            self.finished = true;
            return;
        }
        if self.open_at == Some(t) {
            self.open_at = None;
            self.open_window();
        }
        if t == self.next_sample {
            self.sample();
            self.next_sample = t + self.interval;
        }
        let next = self.next_window_end(t);
        self.lane.as_deref_mut().expect("split mode").window_end = next;
    }

    /// Where the window starting at `t` ends (exclusive): a lookahead later, or at the next
    /// sample or opening of the measured window, or just after the run's end.
    pub(super) fn next_window_end(&self, t: SimTime) -> SimTime {
        let lookahead = self.lane.as_ref().expect("split mode").lookahead;
        let mut end = (t + lookahead).min(self.next_sample).min(SimTime(self.end.0 + 1));
        if let Some(open) = self.open_at.filter(|&o| o > t) {
            end = end.min(open);
        }
        end
    }
}
