//! Runs a split scenario window by window (see `lane.rs`): the senders, then the rest, or
//! both at once on two threads; between windows, what each sent goes over, and samples
//! and the opening of the measured window are taken.

use super::lane::{self, Mail, SenderLane};
use super::{Simulation, PREFETCH_MIN_FLOWS};
use crate::time::SimTime;

/// What a split run keeps besides the bottleneck side's own state: a run in one event
/// queue has none of it (`Simulation::split` is `None`).
pub(super) struct Split {
    /// The senders' side; lent to the worker thread during a window.
    lane: Option<Box<SenderLane>>,
    /// ACKs sent during the current window, with when each reaches its sender.
    pub to_senders: Mail,
    /// What the senders sent during the last window, taken in when this one starts.
    from_senders: Mail,
    /// Samples and the opening of the measured window come between windows.
    next_sample: SimTime,
    open_at: Option<SimTime>,
    #[cfg(not(target_arch = "wasm32"))]
    worker: Option<super::worker::Worker>,
    /// An emptied buffer of delays, for the next window's hand-over.
    #[cfg(not(target_arch = "wasm32"))]
    spare_delays: Vec<(u32, f64)>,
}

impl Split {
    pub fn new(lane: Box<SenderLane>, first_sample: SimTime, open_at: SimTime) -> Split {
        Split {
            lane: Some(lane),
            to_senders: Mail::default(),
            from_senders: Mail::default(),
            next_sample: first_sample,
            open_at: Some(open_at),
            #[cfg(not(target_arch = "wasm32"))]
            worker: None,
            #[cfg(not(target_arch = "wasm32"))]
            spare_delays: Vec::new(),
        }
    }

    fn lane(&self) -> &SenderLane {
        self.lane.as_deref().expect("the lane is home between windows")
    }

    fn lane_mut(&mut self) -> &mut SenderLane {
        self.lane.as_deref_mut().expect("the lane is home between windows")
    }

    /// Events the senders' side ran.
    pub fn events_processed(&self) -> u64 {
        self.lane().q.events_processed()
    }

    /// Packets on their way on the senders' side or between the sides, those the senders'
    /// side delivered, and those it dropped and has not handed over yet (a window run in
    /// part, by an event budget, hands them over at its end).
    pub fn in_flight_delivered_dropped(&self) -> (u64, u64, u64) {
        let l = self.lane();
        let in_flight = l.in_flight() + (self.to_senders.len() + self.from_senders.len()) as u64;
        (in_flight, l.delivered, l.drops.len() as u64)
    }
}

impl Simulation {
    /// Whether the two sides of a split run use two threads (the default off wasm). The
    /// results are the same either way.
    pub fn set_parallel(&mut self, on: bool) {
        self.parallel = on && cfg!(not(target_arch = "wasm32"));
    }

    fn split_mut(&mut self) -> &mut Split {
        self.split.as_deref_mut().expect("split mode")
    }

    /// Before the first window: the measured window opens at 0 if there is no warm-up, and
    /// the first window's end is set.
    pub(super) fn start_split(&mut self) {
        if self.split().open_at == Some(SimTime::ZERO) {
            self.split_mut().open_at = None;
            self.open_window();
        }
        let first_end = self.next_window_end(SimTime::ZERO);
        self.split_mut().lane_mut().window_end = first_end;
    }

    fn split(&self) -> &Split {
        self.split.as_deref().expect("split mode")
    }

    /// Runs windows until `limit` or `budget` events. Stopping inside a window changes
    /// nothing: what a side sends is handed over at the window's end either way.
    pub(super) fn advance_split(&mut self, limit: SimTime, budget: u64) -> u64 {
        let mut n = 0;
        while !self.finished && n < budget {
            let window_end = self.split().lane().window_end;
            let last = SimTime(window_end.0 - 1);
            let stop = last.min(limit);
            if self.parallel && budget == u64::MAX {
                n += self.run_window_parallel(stop);
            } else {
                let prefetch = self.groups.len() >= PREFETCH_MIN_FLOWS;
                let Simulation { split, hosts, pkts, q, .. } = self;
                let split = split.as_deref_mut().expect("split mode");
                n += split.lane_mut().run(&mut hosts.senders, stop, budget - n, prefetch);
                if n < budget {
                    lane::take_in(&mut split.from_senders, pkts, q);
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
        let Simulation { split, hosts, rec, pkts, q, .. } = self;
        let split = split.as_deref_mut().expect("split mode");
        let lane = split.lane.take().expect("the lane is home between windows");
        let senders = std::mem::take(&mut hosts.senders);
        // The delays gathered so far are recorded by whichever side finishes its events
        // first (the same records either way: one side records them all, in order); this
        // side gathers the window's meanwhile.
        let w = &mut rec.window;
        let flows = w.lend_flows();
        let recording = Recording { flows, delays: w.take_delays(std::mem::take(&mut split.spare_delays)) };
        let worker = split.worker.get_or_insert_with(Worker::start);
        worker.send(Job { lent: Lent { lane, senders }, stop, prefetch }, recording);
        lane::take_in(&mut split.from_senders, pkts, q);
        let b = self.run_core(stop, u64::MAX);
        let split = self.split.as_deref_mut().expect("split mode");
        let worker = split.worker.as_ref().expect("started");
        let mine = worker.take_recording().map(|mut r| {
            r.record();
            r
        });
        let Done { lent: Lent { lane, senders }, recorded, events } = worker.wait();
        let Recording { flows, delays } = mine.or(recorded).expect("one side recorded the delays");
        split.lane = Some(lane);
        split.spare_delays = delays;
        self.hosts.senders = senders;
        self.rec.window.take_back(flows);
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
        let Simulation { split, rec, counts, q, end, .. } = self;
        let split = split.as_deref_mut().expect("split mode");
        let lane = split.lane.as_deref_mut().expect("the lane is home between windows");
        debug_assert!(split.from_senders.is_empty() && lane.inbox.is_empty());
        std::mem::swap(&mut lane.outbox, &mut split.from_senders);
        std::mem::swap(&mut split.to_senders, &mut lane.inbox);
        for d in lane.drops.drain(..) {
            rec.push_drop(d);
            counts.dropped += 1;
        }
        let at = t.min(*end);
        lane.q.advance_to(at);
        q.advance_to(at);
        if t > *end {
            self.finished = true;
            return;
        }
        let open = split.open_at == Some(t);
        if open {
            split.open_at = None;
        }
        let sample = t == split.next_sample;
        if sample {
            split.next_sample = t + self.interval;
        }
        if open {
            self.open_window();
        }
        if sample {
            self.sample();
        }
        let next = self.next_window_end(t);
        self.split_mut().lane_mut().window_end = next;
    }

    /// Where the window starting at `t` ends (exclusive): a lookahead later, or at the next
    /// sample or opening of the measured window, or just after the run's end.
    fn next_window_end(&self, t: SimTime) -> SimTime {
        let split = self.split();
        let mut end = (t + split.lane().lookahead).min(split.next_sample).min(SimTime(self.end.0 + 1));
        if let Some(open) = split.open_at.filter(|&o| o > t) {
            end = end.min(open);
        }
        end
    }
}
