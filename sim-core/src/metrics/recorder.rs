//! The run's record: periodic samples (traces for charts and CSV files), the drop log,
//! named series declared by the algorithms, their structured log records, and the window
//! statistics the summary is computed from. [`Recorder::take_update`] hands out what is new.

use super::window::WindowStats;
use crate::queue::DropReason;
use crate::trace::{LogRecord, SeriesInfo};
use serde::{Deserialize, Serialize};

/// One sampling instant (every `sample_interval_s`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    pub t_s: f64,
    /// Packets in the bottleneck queue disc (what ns-3's `GetCurrentSize` reports).
    pub queue_packets: u32,
    pub queue_bytes: u64,
    /// Cells the queued packets occupy, when the limit is in cells.
    pub queue_cells: u64,
    /// Packets waiting in the NIC queue under the disc.
    pub nic_packets: u32,
    /// Aggregate application goodput over the last interval (in-order delivery, as ns-3's
    /// PacketSink counts it), bit/s. Can exceed the link rate right after a loss is repaired.
    pub goodput_bps: f64,
    /// New payload bytes arriving at the receivers over the last interval, bit/s: what
    /// crossed the bottleneck, never more than the link carries.
    pub arrival_bps: f64,
    pub flow_goodput_bps: Vec<f64>,
    pub flow_cwnd_bytes: Vec<u32>,
    /// Smoothed RTT per flow, ms (0 before the first sample).
    pub flow_srtt_ms: Vec<f64>,
    /// Packets of each flow waiting at the bottleneck (disc + NIC).
    pub flow_backlog_packets: Vec<u32>,
    /// The same backlog in buffer cells (ceil(bytes / cell) per packet).
    pub flow_backlog_cells: Vec<u64>,
    /// Sub-queue each flow's packets enter at a multi-queue discipline (0 otherwise).
    pub flow_queue: Vec<u32>,
    /// One value per named series ([`Recorder::series_info`]), in order.
    pub series: Vec<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DropRecord {
    pub t_s: f64,
    pub flow: u32,
    /// Index of the link whose queue dropped it (0 = bottleneck).
    pub link: u32,
    pub reason: DropReason,
}

/// What happened since the previous poll.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Update {
    pub now_s: f64,
    /// Fraction of the scenario's duration simulated so far.
    pub progress: f64,
    pub events: u64,
    pub finished: bool,
    pub samples: Vec<Sample>,
    pub drops: Vec<DropRecord>,
    pub log: Vec<LogRecord>,
}

#[derive(Clone, Debug)]
pub struct Recorder {
    /// The named series the algorithms declared, in the order of `Sample::series`.
    pub series_info: Vec<SeriesInfo>,
    pub samples: Vec<Sample>,
    pub drops: Vec<DropRecord>,
    pub log: Vec<LogRecord>,
    pub window: WindowStats,
    cursor: (usize, usize, usize),
}

impl Recorder {
    pub fn new(window: WindowStats) -> Recorder {
        Recorder {
            series_info: Vec::new(),
            samples: Vec::new(),
            drops: Vec::new(),
            log: Vec::new(),
            window,
            cursor: (0, 0, 0),
        }
    }

    pub fn set_series(&mut self, info: Vec<SeriesInfo>) {
        self.window.set_series(&info);
        self.series_info = info;
    }

    /// Index of a named series.
    pub fn series_index(&self, name: &str) -> Option<usize> {
        self.series_info.iter().position(|s| s.name == name)
    }

    /// Copies out everything recorded since the last call.
    pub fn take_update(&mut self) -> (Vec<Sample>, Vec<DropRecord>, Vec<LogRecord>) {
        let (s, d, l) = self.cursor;
        self.cursor = (self.samples.len(), self.drops.len(), self.log.len());
        (self.samples[s..].to_vec(), self.drops[d..].to_vec(), self.log[l..].to_vec())
    }
}
