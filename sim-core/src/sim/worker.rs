//! The thread that runs the senders' side of a split run's windows, for the run's
//! lifetime: one thread stays on its core with its cache warm (a thread spawned per
//! window started cold and cost ~30 µs, 2000 times in a 10 s run). It also records the
//! queueing delays the other side gathered in the window before (cold per-flow histograms:
//! 8 % of that side's work).

use super::lane::SenderLane;
use super::receivers::AckPath;
use super::senders::Senders;
use crate::metrics::window::{record_delays, FlowWindow};
use crate::time::SimTime;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::JoinHandle;

/// What the thread borrows for a window: the senders' side, and the recorder's per-flow
/// windows with the delays to record in them, in order (handed back emptied, for reuse).
pub(super) struct Lent {
    pub lane: Box<SenderLane>,
    pub senders: Senders,
    pub path: AckPath,
    pub flows: Vec<FlowWindow>,
    pub delays: Vec<(u32, f64)>,
}

/// A window to run: what is lent, and how far.
pub(super) struct Job {
    pub lent: Lent,
    pub stop: SimTime,
    pub prefetch: bool,
}

/// What was lent, handed back, with how many events ran.
pub(super) struct Done {
    pub lent: Lent,
    pub events: u64,
}

pub(super) struct Worker {
    jobs: Option<Sender<Job>>,
    done: Receiver<Done>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    pub fn start() -> Worker {
        let (jobs, job_rx) = channel::<Job>();
        let (done_tx, done) = channel();
        let thread = std::thread::Builder::new()
            .name("aqmlab-senders".into())
            .spawn(move || {
                for Job { mut lent, stop, prefetch } in job_rx {
                    let events = lent.lane.run(&mut lent.senders, &mut lent.path, stop, u64::MAX, prefetch);
                    record_delays(&mut lent.flows, &mut lent.delays);
                    let done = Done { lent, events };
                    if done_tx.send(done).is_err() {
                        break;
                    }
                }
            })
            .expect("start the senders' thread");
        Worker { jobs: Some(jobs), done, thread: Some(thread) }
    }

    pub fn send(&self, job: Job) {
        self.jobs.as_ref().expect("running").send(job).expect("the senders' thread is running");
    }

    pub fn wait(&self) -> Done {
        self.done.recv().expect("the senders' thread finished its window")
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.jobs = None; // ends the thread's loop
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
