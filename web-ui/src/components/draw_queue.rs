//! Chart drawing spread over animation frames: each frame draws charts until
//! [`FRAME_BUDGET_MS`] is spent (at least one), newest data first replacing older jobs of the
//! same chart, so no frame's task grows with the number of charts.

use gloo::render::{request_animation_frame, AnimationFrame};
use std::cell::RefCell;

/// Wall time one frame may spend drawing charts.
const FRAME_BUDGET_MS: f64 = 18.0;

type Job = Box<dyn FnOnce()>;

thread_local! {
    static JOBS: RefCell<Vec<(String, Job)>> = const { RefCell::new(Vec::new()) };
    static FRAME: RefCell<Option<AnimationFrame>> = const { RefCell::new(None) };
}

/// Queues `job` to draw chart `key`, replacing a job for the same chart not yet run.
pub fn schedule(key: &str, job: impl FnOnce() + 'static) {
    JOBS.with(|j| {
        let mut j = j.borrow_mut();
        j.retain(|(k, _)| k != key);
        j.push((key.to_string(), Box::new(job)));
    });
    ensure_frame();
}

fn ensure_frame() {
    FRAME.with(|f| {
        if f.borrow().is_none() {
            *f.borrow_mut() = Some(request_animation_frame(|_| pump()));
        }
    });
}

fn pump() {
    FRAME.with(|f| f.borrow_mut().take());
    let start = crate::dom::now_ms();
    loop {
        let job = JOBS.with(|j| {
            let mut j = j.borrow_mut();
            (!j.is_empty()).then(|| j.remove(0))
        });
        let Some((_, job)) = job else { return };
        job();
        if crate::dom::now_ms() - start >= FRAME_BUDGET_MS {
            break;
        }
    }
    if JOBS.with(|j| !j.borrow().is_empty()) {
        ensure_frame();
    }
}

/// Jobs still waiting (the browser tests wait for zero).
pub fn pending() -> usize {
    JOBS.with(|j| j.borrow().len())
}
