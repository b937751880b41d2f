//! # sim-core: AQM Lab's simulator
//!
//! A packet-level discrete-event network simulator, pure Rust, identical on native and
//! wasm targets. The layers, bottom up:
//!
//! - [`time`] and [`rng`]: integer-nanosecond time, rates in bit/s, seeded random streams.
//! - [`engine`]: the event queue, ordered by (time, insertion sequence).
//! - [`net`]: packets with header overhead, links (queue disc + optional NIC queue +
//!   serialisation + propagation).
//! - [`aqm`]: queue disciplines (FIFO, RED / Gentle RED / Adaptive RED).
//! - [`tcp`] and [`cc`]: segment-level TCP (SACK, PRR, RTO, delayed ACKs) and congestion
//!   control (NewReno, CUBIC).
//! - [`metrics`]: what runs record and how summaries are computed.
//! - [`scenario`] and [`sim`]: a serde scenario with validation and presets, and the
//!   [`sim::Simulation`] that runs one: `step_until`, `run_events`, `finish`, `poll`.
//!
//! ## Determinism
//! One `u64` seed per scenario; each component draws from its own stream derived from
//! (seed, component id). No OS time, no OS randomness, no hash-map iteration where order
//! matters; transcendental functions go through `libm`. Same seed and scenario give
//! bit-identical results on every target, and a test checks it. A big run (2000+ flows)
//! moves its senders apart in windows (`sim/lane.rs`); what it records depends on the
//! windows only, not on whether they run on one thread or two, nor on how a caller slices
//! the run, and tests check that too.
//!
//! ## Units
//! Time in nanoseconds ([`time::SimTime`]); sizes in bytes; rates in bit/s. Scenario
//! fields carry their unit in the name (`delay_ms`, `rate_bps`, `duration_s`).
// Tests compare deterministic results exactly, on purpose.
#![cfg_attr(
    test,
    allow(clippy::float_cmp, clippy::needless_pass_by_value, clippy::field_reassign_with_default)
)]

pub mod aqm;
pub mod cc;
pub mod control;
pub mod engine;
pub mod hint;
pub mod lesson;
pub mod metrics;
pub mod ml;
pub mod net;
pub mod params;
pub mod queue;
pub mod rng;
pub mod scenario;
pub mod sim;
pub mod switch;
pub mod tcb;
pub mod tcp;
pub mod time;
pub mod trace;
pub mod traffic;
pub mod train;
pub mod warbler;
