//! Warbler's flow identification (paper §3.2): K-means over per-flow backlogs that maps
//! long flows to the K physical queues of a switch port.
//!
//! - [`ssre_kmeans`]: the paper's clustering in floating point, SSRE (eqs. 1-7) and plain
//!   SSE K-means for the Fig. 2 contrast; three initialisations and the J_pre arbitration.
//! - [`fixed_kmeans`]: the same SSRE clustering in integers only, as a P4 data plane without
//!   floating point would run it (the paper's future work, §6.3).
//! - [`mod@agreement`]: how often the integer and floating-point clusterings decide alike.
//! - [`sample`]: synthetic backlog sets for that comparison and for benchmarks.
//! - [`controller`]: the control-plane app (§4) that runs it every period on the switch.
//! - `optimal`: the exact SSRE optimum by dynamic programming, a fourth candidate.
//! - `decision`: the request and result types both share; `lloyd`: the one-dimensional
//!   Lloyd engine both drive.

pub mod agreement;
pub mod controller;
mod decision;
pub mod fixed_kmeans;
mod lloyd;
mod metric;
mod optimal;
pub mod sample;
pub mod ssre_kmeans;

pub use agreement::{agreement, Agreement};
pub use controller::{Warbler, WarblerConfig};
pub use decision::{
    Candidate, ClusterError, Decision, Init, KmeansConfig, Objective, Partition, MAX_BACKLOG_CELLS,
};
pub use fixed_kmeans::decide_fixed;
pub use sample::BacklogSet;
pub use ssre_kmeans::decide;
