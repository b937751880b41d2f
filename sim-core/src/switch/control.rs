//! The switch's control plane: an app called every period with a read-only view of the
//! data plane's registers; the table writes it returns take effect after the configured
//! compute latency (the CPU is not the ASIC).

use crate::time::SimTime;
use serde::{Deserialize, Serialize};

/// What the data plane's registers hold about one long flow.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowRegisters {
    pub flow: u32,
    /// Queue the flow is mapped to now.
    pub queue: u32,
    /// Cells the flow occupies in the buffer at the end of the period.
    pub backlog_cells: u64,
    /// Weighted moving average of the backlog sampled every period.
    pub backlog_wma_cells: f64,
    pub packets_in_period: u64,
    pub bytes_in_period: u64,
}

/// A read-only snapshot handed to the app.
#[derive(Clone, Debug)]
pub struct RegisterView<'a> {
    pub now: SimTime,
    pub queues: u32,
    pub flows: &'a [FlowRegisters],
    pub queue_depth_cells: &'a [u64],
    pub weights: &'a [u32],
}

/// A change to the data plane's tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableWrite {
    /// Flow Distribution Table: send `flow` to `queue`.
    MapFlow { flow: u32, queue: u32 },
    /// Bandwidth Allocation Table: scheduler weight of `queue`.
    SetWeight { queue: u32, weight: u32 },
}

pub trait ControlPlaneApp {
    fn name(&self) -> &'static str;
    /// Called once per period; returns the writes to apply after the compute latency.
    fn on_period(&mut self, view: &RegisterView) -> Vec<TableWrite>;
}

/// Which app runs on the switch CPU.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ControlPlaneSpec {
    /// Keep the initial mapping and weights: the paper's "without Warbler" baseline.
    #[default]
    Static,
}

impl ControlPlaneSpec {
    pub fn build(&self) -> ControlApp {
        match self {
            ControlPlaneSpec::Static => ControlApp::Static(StaticMapping),
        }
    }
}

/// The built-in app: writes nothing.
#[derive(Clone, Debug, Default)]
pub struct StaticMapping;

impl ControlPlaneApp for StaticMapping {
    fn name(&self) -> &'static str {
        "static"
    }
    fn on_period(&mut self, _view: &RegisterView) -> Vec<TableWrite> {
        Vec::new()
    }
}

/// Static dispatch over the apps.
#[derive(Clone, Debug)]
pub enum ControlApp {
    Static(StaticMapping),
}

impl ControlPlaneApp for ControlApp {
    fn name(&self) -> &'static str {
        match self {
            ControlApp::Static(a) => a.name(),
        }
    }
    fn on_period(&mut self, view: &RegisterView) -> Vec<TableWrite> {
        match self {
            ControlApp::Static(a) => a.on_period(view),
        }
    }
}
