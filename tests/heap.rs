//! Peak heap, counted by a pass-through global allocator: a binary that wants the figure
//! (`tests/cost.rs`, `examples/arrivals_memory.rs`) declares
//! `#[global_allocator] static ALLOC: aqm_tests::heap::Counting = aqm_tests::heap::Counting;`
//! and reads [`NOW`] and [`PEAK`]. Counted, not sampled: the figure is the same run to run.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Bytes allocated now, and the most since [`PEAK`] was last set.
pub static NOW: AtomicUsize = AtomicUsize::new(0);
pub static PEAK: AtomicUsize = AtomicUsize::new(0);

pub struct Counting;

// SAFETY: every call goes to the system allocator unchanged; only sizes are counted.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            let now = NOW.fetch_add(l.size(), Relaxed) + l.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) };
        NOW.fetch_sub(l.size(), Relaxed);
    }

    unsafe fn realloc(&self, p: *mut u8, l: Layout, size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, l, size) };
        if !q.is_null() {
            if size >= l.size() {
                let now = NOW.fetch_add(size - l.size(), Relaxed) + (size - l.size());
                PEAK.fetch_max(now, Relaxed);
            } else {
                NOW.fetch_sub(l.size() - size, Relaxed);
            }
        }
        q
    }
}
