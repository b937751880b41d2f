//! A Tofino-like switch egress port: K physical queues in a shared cell buffer, a
//! flow → queue classifier table, per-flow registers, a count-min sketch that tells long
//! flows from mice, an egress scheduler (RR / WRR / DWRR / strict priority) and a control
//! plane whose app rewrites the tables every period after a compute latency.
//!
//! The port is a queue discipline like any other (registered in [`crate::aqm`]).

pub mod apps;
mod cms;
mod port;
pub mod scheduler;

pub use apps::{AppConfig, ControlPlaneSpec, StaticConfig};
pub use cms::CountMinSketch;
pub use port::MultiQueuePort;
pub use scheduler::{Scheduler, SchedulerSpec};

use crate::aqm::{BuildCx, DiscConfig};
use crate::params::{Algorithm, Checker, Described, Field, Kind, Range};
use crate::queue::{cells_for, QueueDisc, QueueLimit};
use serde::{Deserialize, Serialize};

/// Cell size of Tofino 2 as the Warbler paper counts it (1 BDP of 125 kB ≈ 780 cells).
pub const TOFINO2_CELL_BYTES: u32 = 160;

/// Most counters a count-min sketch may hold (width × depth): 16 MiB of u32.
pub const MAX_CMS_COUNTERS: u64 = 1 << 22;
/// Most physical queues on one port (Tofino's 32 per port).
pub const MAX_QUEUES: u32 = 32;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SwitchConfig {
    /// Physical queues on the port (Tofino 1: 8 per port, Tofino 2: 16; up to 32 here).
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
    /// The app on the switch CPU.
    pub control: ControlPlaneSpec,
    pub control_period_ms: f64,
    /// Time from the end of a period to the moment its table writes take effect, unless the
    /// app models its own compute time.
    pub compute_latency_ms: f64,
    /// Weight of the newest sample in the registers' backlog moving average (Warbler §4 step 2).
    pub backlog_wma_weight: f64,
    /// Mark an ECN-capable packet CE when its queue already holds more than this many cells
    /// as it arrives (a P4 program's test of the traffic manager's enqueue depth, DCTCP's
    /// step per queue); `None` = no marking.
    pub ecn_threshold_cells: Option<u32>,
}

impl Default for SwitchConfig {
    fn default() -> Self {
        SwitchConfig {
            queues: 2,
            cell_bytes: TOFINO2_CELL_BYTES,
            queue_limit_cells: 3000,
            shared_buffer_cells: None,
            scheduler: SchedulerSpec::default(),
            weights: Vec::new(),
            initial_mapping: Vec::new(),
            long_flow_threshold_packets: 10,
            default_queue: 0,
            cms_width: 2048,
            cms_depth: 3,
            control: ControlPlaneSpec::default(),
            control_period_ms: 1000.0,
            compute_latency_ms: 50.0,
            backlog_wma_weight: 0.5,
            ecn_threshold_cells: None,
        }
    }
}

impl SwitchConfig {
    pub fn total_cells(&self) -> u64 {
        self.shared_buffer_cells.map_or(u64::from(self.queues) * u64::from(self.queue_limit_cells), u64::from)
    }
}

const QUEUE_INDEX: Range = Range::closed(0.0, (MAX_QUEUES - 1) as f64);

impl Described for SwitchConfig {
    const INFO: Algorithm = Algorithm {
        tag: "switch",
        label: "Switch port (multi-queue)",
        help: "A Tofino-like port: K queues in a cell buffer, a flow → queue table, a scheduler and a control-plane app.",
        fields: &[
            Field::new("queues", "Queues", "", Kind::Int(Range::closed(1.0, MAX_QUEUES as f64)), "Physical queues on the port (1-32)."),
            Field::new("cell_bytes", "Cell size", "bytes", Kind::Int(Range::closed(16.0, 4096.0)), "Buffer cell: 80 Tofino 1, 160 as the Warbler paper counts Tofino 2, 176 Intel's driver."),
            Field::new("queue_limit_cells", "Queue limit", "cells", Kind::Int(Range::closed(1.0, 1e8)), "Per-queue buffer; 1 BDP of 125 kB ≈ 780 cells of 160 B."),
            Field::new("shared_buffer_cells", "Shared buffer", "cells", Kind::OptInt(Range::closed(1.0, 1e9)), "Whole-port buffer; empty = the sum of the queue limits."),
            Field::new("scheduler", "Scheduler", "", Kind::Tagged(&SchedulerSpec::FAMILY), "How the port picks the next queue; weights apply to WRR and DWRR."),
            Field::new("weights", "Weights", "", Kind::IntList(Range::closed(1.0, 1023.0)), "Scheduler weight per queue, e.g. 1, 1, 2 (missing = 1; Tofino DWRR weights)."),
            Field::new("initial_mapping", "Initial mapping", "", Kind::IntList(QUEUE_INDEX), "Queue of flow 0, 1, 2…; flows not listed go round robin as they turn long."),
            Field::new("long_flow_threshold_packets", "Long-flow threshold", "packets", Kind::Int(Range::closed(0.0, 1e9)), "Count-min sketch count after which a flow leaves the default queue (0 = at once)."),
            Field::new("default_queue", "Default queue", "", Kind::Int(QUEUE_INDEX), "Where mice (not yet long flows) go."),
            Field::new("cms_width", "Sketch width", "counters", Kind::Int(Range::closed(1.0, 16_777_216.0)), "Counters per row of the count-min sketch."),
            Field::new("cms_depth", "Sketch depth", "rows", Kind::Int(Range::closed(1.0, 16.0)), "Rows (hash functions) of the count-min sketch."),
            Field::new("control", "Control plane", "", Kind::Tagged(&ControlPlaneSpec::FAMILY), "The app on the switch CPU."),
            Field::new("control_period_ms", "Control period", "ms", Kind::Float(Range::closed(1.0, 3_600_000.0)), "How often the control plane reads the registers (a CPU: at least 1 ms)."),
            Field::new("compute_latency_ms", "Compute latency", "ms", Kind::Float(Range::closed(0.0, 3_600_000.0)), "Delay before the control plane's table writes take effect."),
            Field::new("backlog_wma_weight", "Backlog WMA weight", "", Kind::Float(Range::closed(0.0, 1.0)), "Weight of the newest backlog sample in the registers' moving average."),
            Field::new("ecn_threshold_cells", "ECN threshold", "cells", Kind::OptInt(Range::closed(0.0, 1e8)), "Mark an ECN-capable arrival CE when its queue holds more cells than this (per queue, at enqueue); empty = no marking."),
        ],
        flavours: &[],
    };

    fn check_more(&self, c: &mut Checker) {
        c.at("scheduler", |c| self.scheduler.check(c));
        c.at("control", |c| self.control.check(c));
        let last = u64::from(self.queues.clamp(1, 32)) - 1;
        // The bound comes from `queues`, so the message names it too.
        let index = format!("0 to {last} (a queue index; queues = {})", self.queues);
        for (i, q) in self.initial_mapping.iter().enumerate() {
            if u64::from(*q) > last {
                c.push(&format!("initial_mapping[{i}]"), q, index.clone());
            }
        }
        if u64::from(self.default_queue) > last {
            c.push("default_queue", self.default_queue, index);
        }
        if self.weights.len() > self.queues as usize {
            c.push(
                "weights",
                format!("{} weights", self.weights.len()),
                format!("at most one per queue ({})", self.queues),
            );
        }
        let counters = u64::from(self.cms_width) * u64::from(self.cms_depth);
        if counters > MAX_CMS_COUNTERS {
            c.push("cms_width", self.cms_width, format!("width × depth at most {MAX_CMS_COUNTERS} counters"));
        }
    }
}

impl DiscConfig for SwitchConfig {
    fn build(&self, cx: BuildCx) -> Box<dyn QueueDisc> {
        Box::new(MultiQueuePort::new(self, cx.rng))
    }
    fn limit(&self) -> QueueLimit {
        QueueLimit::Cells {
            cells: self.total_cells().min(u64::from(u32::MAX)) as u32,
            cell_bytes: self.cell_bytes,
        }
    }
    fn markers(&self) -> Vec<(f64, String)> {
        self.control.get().markers()
    }

    /// Converts the buffer to cells with the scenario's packet size and splits it evenly.
    fn set_limit(&mut self, limit: QueueLimit, packet_bytes: u32) {
        let cell = u64::from(self.cell_bytes.max(1));
        let total = match limit {
            QueueLimit::Packets(p) => u64::from(p) * cells_for(packet_bytes, self.cell_bytes),
            QueueLimit::Bytes(b) => b / cell,
            QueueLimit::Cells { cells, cell_bytes } => u64::from(cells) * u64::from(cell_bytes) / cell,
        };
        self.queue_limit_cells = (total / u64::from(self.queues.max(1))).clamp(1, u64::from(u32::MAX)) as u32;
        self.shared_buffer_cells = None;
    }
}
