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
    /// Mean queueing delay at the bottleneck (disc + device queue), ms, of each flow's
    /// packets that started on the wire during the last interval; `None` if none did.
    pub flow_delay_ms: Vec<Option<f32>>,
    /// Sub-queue each flow's packets enter at a multi-queue discipline (0 otherwise).
    pub flow_queue: Vec<u32>,
    /// One value per named series ([`Recorder::series_info`]), in order.
    pub series: Vec<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DropRecord {
    pub t_s: f64,
    pub flow: u32,
    /// Index of the link whose queue dropped it ([`crate::net::BOTTLENECK`] = the
    /// scenario's bottleneck).
    pub link: u32,
    pub reason: DropReason,
}

impl DropRecord {
    /// Dropped by the scenario's bottleneck (the measured link), not a host link's queue.
    pub fn at_bottleneck(&self) -> bool {
        self.link == crate::net::BOTTLENECK
    }
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
    /// CE marks, as the history keeps them ([`TRACE_MARKS`], thinned evenly).
    #[serde(default)]
    pub marks: Vec<DropRecord>,
    pub log: Vec<LogRecord>,
    /// The series as declared anew during the run (a retuned RED's thresholds), with when.
    #[serde(default)]
    pub redeclared: Vec<(f64, Vec<SeriesInfo>)>,
    /// Finite flows and transfers that completed, and pings answered ([`crate::traffic`]).
    #[serde(default)]
    pub transfers: Vec<crate::metrics::fct::Transfer>,
    #[serde(default)]
    pub pings: Vec<crate::metrics::pings::PingSample>,
}

/// Flow-samples (samples × flows) the history keeps before thinning itself out: at 10 flows
/// 400 000 samples, at 10 000 flows 400; about 20 MB of per-flow values.
pub const TRACE_FLOW_SAMPLES: f64 = 4e6;
/// Drop records the history keeps before thinning.
pub const TRACE_DROPS: usize = 500_000;
/// CE marks kept: a marking queue signals far more often than a dropping one (DCTCP marks
/// a sixth of its packets), so fewer are kept, thinned evenly over the run.
pub const TRACE_MARKS: usize = 100_000;
/// Log records kept (a Warbler decision per period: ten hours at 1 s)...
pub const TRACE_LOG: usize = 36_000;
/// ...and values over all of them (a JSON value is 32 bytes: about 50 MB), so records of
/// 10 000 flows keep 75 of them, not 36 000 (23 GB).
pub const TRACE_LOG_VALUES: usize = 1_500_000;

/// Which records of a stream a bounded list keeps: every `stride`-th, and past the
/// capacity every other kept one goes and the stride doubles, so the list always spans the
/// whole stream. The list lives with its owner ([`Thinned`] here, the page's series).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thinning {
    stride: u64,
    seen: u64,
    capacity: usize,
}

/// A list of two (a placeholder until its owner sets the capacity).
impl Default for Thinning {
    fn default() -> Self {
        Thinning::new(2)
    }
}

impl Thinning {
    pub fn new(capacity: usize) -> Thinning {
        Thinning { stride: 1, seen: 0, capacity: capacity.max(2) }
    }

    /// Offers `x` to `kept`; says whether it was kept.
    pub fn offer<T>(&mut self, kept: &mut Vec<T>, x: T) -> bool {
        let keep = self.seen % self.stride == 0;
        if keep {
            kept.push(x);
            if kept.len() > self.capacity {
                halve(kept);
                self.stride *= 2;
            }
        }
        self.seen += 1;
        keep
    }

    /// Records offered so far (kept or not).
    pub fn seen(&self) -> u64 {
        self.seen
    }

    /// 1 while every record is kept; 2, 4, ... once thinned.
    pub fn stride(&self) -> u64 {
        self.stride
    }
}

/// Keeps every other element, the first included.
pub fn halve<T>(v: &mut Vec<T>) {
    let mut i = 0;
    v.retain(|_| {
        i += 1;
        i % 2 == 1
    });
}

/// A bounded history of records, thinned by a [`Thinning`].
#[derive(Clone, Debug)]
pub struct Thinned<T> {
    pub kept: Vec<T>,
    thinning: Thinning,
}

impl<T> Thinned<T> {
    pub fn new(capacity: usize) -> Thinned<T> {
        Thinned { kept: Vec::new(), thinning: Thinning::new(capacity) }
    }

    /// Offers a record; says whether it was kept.
    pub fn push(&mut self, x: T) -> bool {
        self.thinning.offer(&mut self.kept, x)
    }

    /// Records offered so far (kept or not).
    pub fn seen(&self) -> u64 {
        self.thinning.seen()
    }

    /// 1 while every record is kept; 2, 4, ... once thinned.
    pub fn stride(&self) -> u64 {
        self.thinning.stride()
    }
}

#[derive(Clone, Debug)]
pub struct Recorder {
    /// The named series the algorithms declared, in the order of `Sample::series`.
    pub series_info: Vec<SeriesInfo>,
    /// Bounded histories of the samples, drops and log records (see [`Thinned`]).
    pub samples: Thinned<Sample>,
    pub drops: Thinned<DropRecord>,
    /// CE marks, as drops are kept: when, which flow, which link, why.
    pub marks: Thinned<DropRecord>,
    pub log: Thinned<LogRecord>,
    pub window: WindowStats,
    /// Every redeclaration of the series during the run, with when (`redeclare_series`).
    pub redeclared: Vec<(f64, Vec<SeriesInfo>)>,
    /// Everything since the last poll, in full, once someone polls (the CLI streams it to
    /// files, the web app into its charts).
    polled: bool,
    pending: Pending,
    pending_redeclared: usize,
}

/// What the recorder hands out at each poll: everything since the last one (the marks as
/// the history keeps them, so a marking queue's thousands a second stay bounded).
#[derive(Clone, Debug, Default)]
pub struct Pending {
    pub samples: Vec<Sample>,
    pub drops: Vec<DropRecord>,
    pub marks: Vec<DropRecord>,
    pub log: Vec<LogRecord>,
}

impl Recorder {
    /// Jain's index of the flows' mean goodput over the kept samples whose interval ends in
    /// (from_s, to_s]: fairness before and after a control plane switches on (§5.1).
    pub fn jfi_between(&self, from_s: f64, to_s: f64) -> f64 {
        let samples: Vec<&Sample> =
            self.samples.kept.iter().filter(|s| s.t_s > from_s && s.t_s <= to_s).collect();
        let flows = samples.first().map_or(0, |s| s.flow_goodput_bps.len());
        let means: Vec<f64> = (0..flows)
            .map(|f| samples.iter().map(|s| s.flow_goodput_bps[f]).sum::<f64>() / samples.len() as f64)
            .collect();
        super::jain_index(&means)
    }

    pub fn new(window: WindowStats, flows: usize) -> Recorder {
        Recorder {
            series_info: Vec::new(),
            samples: Thinned::new((TRACE_FLOW_SAMPLES / flows.max(1) as f64) as usize),
            drops: Thinned::new(TRACE_DROPS),
            marks: Thinned::new(TRACE_MARKS),
            log: Thinned::new(TRACE_LOG),
            window,
            redeclared: Vec::new(),
            polled: false,
            pending: Default::default(),
            pending_redeclared: 0,
        }
    }

    pub fn set_series(&mut self, info: Vec<SeriesInfo>) {
        self.window.set_series(&info);
        self.series_info = info;
    }

    /// The same series, declared anew at `t_s` (a retuned disc's thresholds moved): zones
    /// from now on count against the new thresholds.
    pub fn redeclare_series(&mut self, t_s: f64, info: Vec<SeriesInfo>) {
        self.window.retarget_series(&info);
        self.redeclared.push((t_s, info.clone()));
        self.series_info = info;
    }

    /// Redeclarations not yet handed out by [`Recorder::take_update`].
    pub fn take_redeclared(&mut self) -> Vec<(f64, Vec<SeriesInfo>)> {
        let new = self.redeclared[self.pending_redeclared..].to_vec();
        self.pending_redeclared = self.redeclared.len();
        new
    }

    /// Index of a named series.
    pub fn series_index(&self, name: &str) -> Option<usize> {
        self.series_info.iter().position(|s| s.name == name)
    }

    pub fn push_sample(&mut self, s: Sample) {
        if self.polled {
            self.pending.samples.push(s.clone());
        }
        self.samples.push(s);
    }

    pub fn push_drop(&mut self, d: DropRecord) {
        if self.polled {
            self.pending.drops.push(d);
        }
        self.drops.push(d);
    }

    pub fn push_mark(&mut self, m: DropRecord) {
        if self.marks.push(m) && self.polled {
            self.pending.marks.push(m);
        }
    }

    pub fn push_log(&mut self, r: LogRecord) {
        if self.log.seen() == 0 {
            self.log = Thinned::new(TRACE_LOG.min(TRACE_LOG_VALUES / r.values()));
        }
        if self.polled {
            self.pending.log.push(r.clone());
        }
        self.log.push(r);
    }

    /// Everything recorded since the last call; the first call hands out the history.
    pub fn take_update(&mut self) -> Pending {
        if !self.polled {
            self.polled = true;
            return Pending {
                samples: self.samples.kept.clone(),
                drops: self.drops.kept.clone(),
                marks: self.marks.kept.clone(),
                log: self.log.kept.clone(),
            };
        }
        std::mem::take(&mut self.pending)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thinned_history_stays_bounded_and_spans_the_whole_run() {
        let mut t = Thinned::new(100);
        for i in 0..100_000u32 {
            t.push(i);
        }
        assert!(t.kept.len() <= 100 && t.kept.len() >= 50, "{}", t.kept.len());
        assert_eq!(t.kept[0], 0);
        assert!(*t.kept.last().unwrap() > 99_000 - t.stride() as u32);
        assert!(t.kept.windows(2).all(|w| w[1] - w[0] == t.stride() as u32));
    }
}
