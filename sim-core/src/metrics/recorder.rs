//! The run's record: periodic samples, the drop log and per-packet queueing delays.
//! Everything is kept for the summary; [`Recorder::take_update`] hands out what is new.

use crate::aqm::DropReason;
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
    /// RED's EWMA average queue, for RED-family discs.
    pub queue_avg: Option<f64>,
    /// Packets waiting in the NIC queue under the disc.
    pub nic_packets: u32,
    /// Aggregate application goodput over the last interval, bit/s.
    pub goodput_bps: f64,
    pub flow_goodput_bps: Vec<f64>,
    pub flow_cwnd_bytes: Vec<u32>,
    /// Smoothed RTT per flow, ms (0 before the first sample).
    pub flow_srtt_ms: Vec<f64>,
    /// Packets of each flow waiting at the bottleneck (disc + NIC).
    pub flow_backlog_packets: Vec<u32>,
    /// The same backlog in buffer cells (ceil(bytes / cell) per packet).
    pub flow_backlog_cells: Vec<u64>,
    /// Queue each flow's packets enter at a multi-queue switch port (0 otherwise).
    pub flow_queue: Vec<u32>,
    /// Cells held by each queue of a switch port (empty for single-queue discs).
    pub per_queue_cells: Vec<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DropRecord {
    pub t_s: f64,
    pub flow: u32,
    /// Index of the link whose queue dropped it (0 = bottleneck).
    pub link: u32,
    pub reason: DropReason,
}

/// Time a packet waited at the bottleneck, from arrival to the start of its transmission.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DelayRecord {
    pub t_s: f64,
    pub flow: u32,
    pub delay_s: f32,
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
    pub delays: Vec<DelayRecord>,
}

#[derive(Clone, Debug, Default)]
pub struct Recorder {
    pub samples: Vec<Sample>,
    pub drops: Vec<DropRecord>,
    pub delays: Vec<DelayRecord>,
    cursor: (usize, usize, usize),
}

impl Recorder {
    /// Copies out everything recorded since the last call.
    pub fn take_update(&mut self) -> (Vec<Sample>, Vec<DropRecord>, Vec<DelayRecord>) {
        let (s, d, l) = self.cursor;
        self.cursor = (self.samples.len(), self.drops.len(), self.delays.len());
        (self.samples[s..].to_vec(), self.drops[d..].to_vec(), self.delays[l..].to_vec())
    }
}
