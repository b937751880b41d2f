//! The thread that runs the senders' side of a split run's windows, for the run's
//! lifetime: one thread stays on its core with its cache warm (a thread spawned per
//! window started cold and cost ~30 µs, 2000 times in a 10 s run). The queueing delays the
//! other side gathered in the window before (cold per-flow histograms, ~8 % of a side's
//! work) are recorded by whichever side finishes its window's events first.

use super::lane::SenderLane;
use super::senders::Senders;
use crate::metrics::window::LentFlows;
use crate::time::SimTime;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

/// What the thread borrows for a window: the senders' side.
pub(super) struct Lent {
    pub lane: Box<SenderLane>,
    pub senders: Senders,
}

/// The recorder's per-flow windows and the delays to record in them, in order (the
/// delays' buffer comes back emptied, for reuse).
pub(super) struct Recording {
    pub flows: LentFlows,
    pub delays: Vec<(u32, f64)>,
}

impl Recording {
    pub fn record(&mut self) {
        self.flows.record(&mut self.delays);
    }
}

/// A window to run: what is lent, and how far.
pub(super) struct Job {
    pub lent: Lent,
    pub stop: SimTime,
    pub prefetch: bool,
}

/// What was lent, handed back, with the recording if this thread did it, and how many
/// events ran.
pub(super) struct Done {
    pub lent: Lent,
    pub recorded: Option<Recording>,
    pub events: u64,
}

pub(super) struct Worker {
    /// `None` ends the thread.
    jobs: Arc<Handoff<Option<Job>>>,
    /// `None` if the thread panicked.
    done: Arc<Handoff<Option<Done>>>,
    /// The window's recording, until a side takes it.
    recording: Arc<Mutex<Option<Recording>>>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    pub fn start() -> Worker {
        let jobs = Arc::new(Handoff::new());
        let done = Arc::new(Handoff::new());
        let recording: Arc<Mutex<Option<Recording>>> = Arc::new(Mutex::new(None));
        let (job_rx, done_tx, slot) = (jobs.clone(), done.clone(), recording.clone());
        let thread = std::thread::Builder::new()
            .name("aqmlab-senders".into())
            .spawn(move || {
                let _guard = SayIfPanicked(&done_tx);
                while let Some(Job { mut lent, stop, prefetch }) = job_rx.take() {
                    let events = lent.lane.run(&mut lent.senders, stop, u64::MAX, prefetch);
                    let recorded = take(&slot).map(|mut r| {
                        r.record();
                        r
                    });
                    done_tx.put(Some(Done { lent, recorded, events }));
                }
            })
            .expect("start the senders' thread");
        Worker { jobs, done, recording, thread: Some(thread) }
    }

    /// Starts a window; its recording waits for the side that finishes first.
    pub fn send(&self, job: Job, recording: Recording) {
        *self.recording.lock().unwrap_or_else(|e| e.into_inner()) = Some(recording);
        self.jobs.put(Some(job));
    }

    /// The window's recording, unless the thread took it first.
    pub fn take_recording(&self) -> Option<Recording> {
        take(&self.recording)
    }

    pub fn wait(&self) -> Done {
        self.done.take().expect("the senders' thread panicked")
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.jobs.put(None);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn take<T>(slot: &Mutex<Option<T>>) -> Option<T> {
    slot.lock().unwrap_or_else(|e| e.into_inner()).take()
}

/// Tells a side waiting for the thread's window that it will not come.
struct SayIfPanicked<'a>(&'a Handoff<Option<Done>>);

impl Drop for SayIfPanicked<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.put(None);
        }
    }
}

/// How long a side waiting for the other spins before it sleeps, in pause instructions
/// (about 0.4 ms on our 2-core VM, 24 ns each; counted, not timed: sim-core reads no OS
/// clock). A window's work is a few ms, and waking a sleeping thread cost ~70 µs each way,
/// twice a window (5 % of a 10 000-flow run).
const SPIN_PAUSES: u32 = 1 << 14;

/// A one-item mailbox between the two threads.
struct Handoff<T> {
    full: AtomicBool,
    slot: Mutex<Option<T>>,
    cv: Condvar,
}

impl<T> Handoff<T> {
    fn new() -> Self {
        Handoff { full: AtomicBool::new(false), slot: Mutex::new(None), cv: Condvar::new() }
    }

    fn put(&self, v: T) {
        *self.slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(v);
        self.full.store(true, Ordering::Release);
        self.cv.notify_one();
    }

    fn take(&self) -> T {
        for _ in 0..SPIN_PAUSES / 64 {
            if self.full.load(Ordering::Acquire) {
                break;
            }
            for _ in 0..64 {
                std::hint::spin_loop();
            }
        }
        let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(v) = slot.take() {
                self.full.store(false, Ordering::Relaxed);
                return v;
            }
            slot = self.cv.wait(slot).unwrap_or_else(|e| e.into_inner());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_handoff_passes_each_item_once_in_order_across_threads() {
        let (there, back) = (Arc::new(Handoff::new()), Arc::new(Handoff::new()));
        let (rx, tx) = (there.clone(), back.clone());
        let t = std::thread::spawn(move || {
            while let Some(i) = rx.take() {
                tx.put(i * 2);
            }
        });
        for i in 0..1000u64 {
            there.put(Some(i));
            assert_eq!(back.take(), i * 2);
        }
        there.put(None);
        t.join().unwrap();
    }
}
