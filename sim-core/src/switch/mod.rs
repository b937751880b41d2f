//! A Tofino-like switch egress port: K physical queues in a shared cell buffer, a
//! flow → queue classifier table, per-flow registers, a count-min sketch that tells long
//! flows from mice, an egress scheduler (RR / WRR / DWRR / strict priority) and a control
//! plane that rewrites the tables every period after a compute latency.
//!
//! The port is a queue discipline like any other ([`crate::aqm::Qdisc::Switch`]).

mod cms;
pub mod control;
mod port;
pub mod scheduler;

pub use cms::CountMinSketch;
pub use control::{ControlApp, ControlPlaneApp, ControlPlaneSpec, FlowRegisters, RegisterView, TableWrite};
pub use port::MultiQueuePort;
pub use scheduler::{Scheduler, SchedulerSpec};

use serde::{Deserialize, Serialize};

/// Cell size of Tofino 2 as the Warbler paper counts it (1 BDP of 125 kB ≈ 780 cells).
pub const TOFINO2_CELL_BYTES: u32 = 160;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SwitchConfig {
    /// Physical queues on the port (Tofino 1: 8 per port usable here up to 32).
    pub queues: u32,
    /// Buffer cell: 80 B on Tofino 1, 160 B as the Warbler paper counts Tofino 2, 176 B
    /// per Intel's driver headers. A packet takes ceil(bytes / cell) cells.
    pub cell_bytes: u32,
    /// Per-queue limit in cells.
    pub queue_limit_cells: u32,
    /// Shared buffer for the whole port in cells; `None` = the sum of the queue limits.
    pub shared_buffer_cells: Option<u32>,
    pub scheduler: SchedulerSpec,
    /// Initial scheduler weight per queue (missing entries weigh 1).
    pub weights: Vec<u32>,
    /// Flow → queue for the first flows (flow id = index); flows beyond it are mapped
    /// round robin in the order they are detected as long (the "load balancing" baseline).
    pub initial_mapping: Vec<u32>,
    /// A flow counts as long once the count-min sketch has seen more than this many of its
    /// packets; until then it uses `default_queue`. 0 = every flow is long at once.
    pub long_flow_threshold_packets: u32,
    pub default_queue: u32,
    pub cms_width: u32,
    pub cms_depth: u32,
    pub control: ControlPlaneSpec,
    pub control_period_ms: f64,
    /// Time from the end of a period to the moment its table writes take effect.
    pub compute_latency_ms: f64,
    /// Weight of the newest sample in the registers' backlog moving average.
    pub backlog_wma_weight: f64,
}

impl Default for SwitchConfig {
    fn default() -> Self {
        SwitchConfig {
            queues: 2,
            cell_bytes: TOFINO2_CELL_BYTES,
            queue_limit_cells: 3000,
            shared_buffer_cells: None,
            scheduler: SchedulerSpec::Wrr,
            weights: Vec::new(),
            initial_mapping: Vec::new(),
            long_flow_threshold_packets: 10,
            default_queue: 0,
            cms_width: 2048,
            cms_depth: 3,
            control: ControlPlaneSpec::Static,
            control_period_ms: 1000.0,
            compute_latency_ms: 50.0,
            backlog_wma_weight: 0.5,
        }
    }
}

impl SwitchConfig {
    pub fn total_cells(&self) -> u64 {
        self.shared_buffer_cells.map_or(self.queues as u64 * self.queue_limit_cells as u64, |c| c as u64)
    }
}
