//! The switch CPU's side of a programmable switch: a control-plane app is called at the end
//! of every control period with a read-only view of the data plane's registers and answers
//! with table writes, which take effect after the app's compute time (the CPU is not the
//! ASIC). A leaf module: the port (`switch`) drives apps, apps (`warbler`) implement them.

use crate::time::{SimDuration, SimTime};
use crate::trace::{LogRecord, SeriesInfo};
use std::fmt::Debug;

/// What the data plane's registers hold about one long flow.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowRegisters {
    pub flow: u32,
    /// Queue the flow is mapped to now (its Flow Distribution Table entry).
    pub queue: u32,
    /// Cells the flow occupies in the buffer at the end of the period.
    pub backlog_cells: u64,
    /// Weighted moving average of the backlog sampled every period (Warbler §4 step 2).
    pub backlog_wma_cells: f64,
    /// Packets and bytes the flow sent into the port during the period.
    pub packets_in_period: u64,
    pub bytes_in_period: u64,
}

/// A read-only snapshot handed to the app.
#[derive(Clone, Debug)]
pub struct RegisterView<'a> {
    pub now: SimTime,
    /// Physical queues on the port (Warbler's K, §5).
    pub queues: u32,
    /// Long flows still active (§6.2 "double check": sent something this period or still
    /// hold cells), by flow id.
    pub flows: &'a [FlowRegisters],
    pub queue_depth_cells: &'a [u64],
    pub weights: &'a [u32],
    /// Length of the period that just ended.
    pub period: SimDuration,
}

/// A change to the data plane's tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableWrite {
    /// Flow Distribution Table: send `flow` to `queue`.
    MapFlow { flow: u32, queue: u32 },
    /// Bandwidth Allocation Table: scheduler weight of `queue`.
    SetWeight { queue: u32, weight: u32 },
}

/// An app's answer to one period.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AppOutput {
    pub writes: Vec<TableWrite>,
    /// How long the CPU takes to compute them; `None` = the port's configured latency.
    pub compute: Option<SimDuration>,
}

/// A control-plane program. Deterministic: it sees simulated time only.
pub trait ControlPlaneApp: Send {
    fn on_period(&mut self, view: &RegisterView) -> AppOutput;
    /// Series the app reports at every sample.
    fn series(&self) -> Vec<SeriesInfo> {
        Vec::new()
    }
    fn sample_series(&self, _out: &mut Vec<f64>) {}
    /// Structured records (decisions) since the last call.
    fn drain_log(&mut self, _out: &mut Vec<LogRecord>) {}
}

/// What `{:?}` shows of a boxed control-plane app: a summary. Debug is not a supertrait, so the vtable
/// of every algorithm does not link its derived Debug (the worker's module was 9 kB gzipped
/// larger); the algorithms still derive it, for a look at their state.
impl Debug for dyn ControlPlaneApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let series: Vec<String> = self.series().into_iter().map(|s| s.name).collect();
        f.debug_struct("ControlPlaneApp").field("series", &series).finish()
    }
}
