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

/// The senders' side and how far to run it: lent to the thread for one window.
pub(super) struct Job {
    pub lane: Box<SenderLane>,
    pub senders: Senders,
    pub path: AckPath,
    /// The recorder's per-flow windows, and the delays to record in them, in order.
    pub flows: Vec<FlowWindow>,
    pub delays: Vec<(u32, f64)>,
    pub stop: SimTime,
    pub prefetch: bool,
}

/// The side handed back, with how many events ran.
pub(super) struct Done {
    pub lane: Box<SenderLane>,
    pub senders: Senders,
    pub path: AckPath,
    pub flows: Vec<FlowWindow>,
    /// Emptied, for reuse.
    pub delays: Vec<(u32, f64)>,
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
                for mut j in job_rx {
                    let events = j.lane.run(&mut j.senders, &mut j.path, j.stop, u64::MAX, j.prefetch);
                    record_delays(&mut j.flows, &mut j.delays);
                    let Job { lane, senders, path, flows, delays, .. } = j;
                    let done = Done { lane, senders, path, flows, delays, events };
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
