//! The discrete-event core: a priority queue of events ordered by (time, insertion seq).
//!
//! Ties in time are broken by insertion order, so two events scheduled for the same
//! nanosecond run first-in first-out and the run is reproducible.

mod queue;

pub use queue::EventQueue;
