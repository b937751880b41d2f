//! Chart data: what the live charts draw, accumulated from the simulator's polls.
//! Plain Rust, so it is tested natively.

use sim_core::aqm::DropReason;
use sim_core::metrics::kde::{kde_binned, kde_histogram, Density};
use sim_core::metrics::{jain_index, LogHistogram, Update, WindowStats};
use sim_core::trace::SeriesInfo;

/// Flows whose delay distribution the delay chart shows.
pub const DELAY_FLOWS: usize = 12;

#[derive(Clone, Debug, Default)]
pub struct Series {
    pub interval_s: f64,
    mss: f64,
    pub t: Vec<f64>,
    pub queue: Vec<f64>,
    /// The algorithms' named series and their values per sample.
    pub info: Vec<SeriesInfo>,
    pub named: Vec<Vec<f64>>,
    /// A queue-group series with thresholds (RED's EWMA average), its values and thresholds.
    pub avg: Vec<f64>,
    pub thresholds: Vec<f64>,
    pub goodput_mbps: Vec<f64>,
    /// Per flow, per sample.
    pub flow_mbps: Vec<Vec<f64>>,
    pub flow_cwnd: Vec<Vec<f64>>,
    /// Backlog per flow at the bottleneck: cells when `in_cells`, else packets.
    pub flow_backlog: Vec<Vec<f64>>,
    pub in_cells: bool,
    /// Latest queue of each flow at a multi-queue port.
    pub flow_queue: Vec<u32>,
    /// Cells held by each queue of a multi-queue port, per sample.
    pub queue_cells: Vec<Vec<f64>>,
    /// Jain's index over the last second of per-flow goodput, per sample.
    pub jfi: Vec<f64>,
    pub drops: Vec<(f64, u32, DropReason)>,
    /// Queueing delays of the first flows over the measured window, seconds.
    delays: Vec<LogHistogram>,
    pub events: u64,
    pub now_s: f64,
}

/// A density with the marks the delay chart draws.
#[derive(Clone, Debug, PartialEq)]
pub struct DelayDensity {
    pub density: Density,
    pub p50: f64,
    pub p95: f64,
}

impl Series {
    pub fn new(n_flows: usize, interval_s: f64, mss: u32, in_cells: bool, info: &[SeriesInfo]) -> Series {
        let avg_series = info.iter().find(|i| i.group == "queue" && !i.thresholds.is_empty());
        Series {
            interval_s,
            in_cells,
            flow_queue: vec![0; n_flows],
            mss: mss.max(1) as f64,
            flow_mbps: vec![Vec::new(); n_flows],
            flow_cwnd: vec![Vec::new(); n_flows],
            flow_backlog: vec![Vec::new(); n_flows],
            named: vec![Vec::new(); info.len()],
            info: info.to_vec(),
            thresholds: avg_series
                .map(|i| i.thresholds.iter().map(|t| t.value).collect())
                .unwrap_or_default(),
            ..Series::default()
        }
    }

    /// Takes the first flows' delay distributions from the run's window statistics.
    pub fn set_delays(&mut self, w: &WindowStats) {
        self.delays = w.flows.iter().take(DELAY_FLOWS).map(|f| f.delay.clone()).collect();
    }

    pub fn flows(&self) -> usize {
        self.flow_mbps.len()
    }

    pub fn len(&self) -> usize {
        self.t.len()
    }

    pub fn is_empty(&self) -> bool {
        self.t.is_empty()
    }

    /// Folds in one poll's worth of records.
    pub fn push(&mut self, u: &Update) {
        self.events = u.events;
        self.now_s = u.now_s;
        let window = (1.0 / self.interval_s).round().max(1.0) as usize;
        for s in &u.samples {
            self.t.push(s.t_s);
            self.queue.push(s.queue_packets as f64);
            for (i, v) in s.series.iter().enumerate() {
                if let Some(col) = self.named.get_mut(i) {
                    col.push(*v);
                }
                let info = &self.info[i];
                if info.group == "queue" && !info.thresholds.is_empty() {
                    self.avg.push(*v);
                }
            }
            self.goodput_mbps.push(s.goodput_bps / 1e6);
            for (f, v) in s.flow_goodput_bps.iter().enumerate() {
                self.flow_mbps[f].push(v / 1e6);
                self.flow_cwnd[f].push(s.flow_cwnd_bytes[f] as f64 / self.mss);
                let backlog = if self.in_cells {
                    s.flow_backlog_cells[f] as f64
                } else {
                    s.flow_backlog_packets[f] as f64
                };
                self.flow_backlog[f].push(backlog);
            }
            self.flow_queue.clone_from(&s.flow_queue);
            let cells: Vec<f64> = self
                .info
                .iter()
                .zip(&s.series)
                .filter(|(i, _)| i.group == "queue" && i.unit == "cells")
                .map(|(_, v)| *v)
                .collect();
            if self.queue_cells.len() < cells.len() {
                self.queue_cells.resize(cells.len(), Vec::new());
            }
            for (q, c) in cells.into_iter().enumerate() {
                self.queue_cells[q].push(c);
            }
            let means: Vec<f64> = self
                .flow_mbps
                .iter()
                .map(|v| {
                    let tail = &v[v.len().saturating_sub(window)..];
                    tail.iter().sum::<f64>() / tail.len().max(1) as f64
                })
                .collect();
            self.jfi.push(jain_index(&means));
        }
        self.drops.extend(u.drops.iter().filter(|d| d.link == 0).map(|d| (d.t_s, d.flow, d.reason)));
    }

    /// Mean goodput of each flow over the samples so far, Mbit/s.
    pub fn flow_mean_mbps(&self) -> Vec<f64> {
        self.flow_mbps.iter().map(|v| v.iter().sum::<f64>() / v.len().max(1) as f64).collect()
    }

    /// Cumulative average backlog of a flow at each sample (Warbler Fig. 6).
    pub fn cumulative_backlog(&self, flow: usize) -> Vec<f64> {
        let mut sum = 0.0;
        self.flow_backlog[flow]
            .iter()
            .enumerate()
            .map(|(i, b)| {
                sum += b;
                sum / (i + 1) as f64
            })
            .collect()
    }

    /// Density of a flow's backlog at the bottleneck (cells or packets).
    pub fn backlog_density(&self, flow: usize, hi: f64) -> Option<Density> {
        let data = &self.flow_backlog[flow];
        (data.len() >= 2).then(|| kde_binned(data, 0.0, hi.max(1.0), 120, 256, None))
    }

    /// Density of a flow's queueing delay at the bottleneck, in ms, with P50 and P95.
    pub fn delay_density(&self, flow: usize, hi_ms: f64) -> Option<DelayDensity> {
        let h = self.delays.get(flow)?;
        let mut ms = LogHistogram::default();
        for (x, c) in h.density_points() {
            ms.record_n(x * 1e3, c);
        }
        Some(DelayDensity {
            density: kde_histogram(&ms, 0.0, hi_ms.max(0.1), 120)?,
            p50: h.quantile(0.5)? * 1e3,
            p95: h.quantile(0.95)? * 1e3,
        })
    }

    /// The delay chart's x range: 1.5 × the largest P99 over the flows shown, so that the
    /// start-up burst does not squeeze the steady state into a corner.
    pub fn delay_range_ms(&self) -> f64 {
        self.delays.iter().filter_map(|h| h.quantile(0.99)).fold(0.0, f64::max) * 1.5e3
    }
}

/// Reduces a line to at most `max` points, keeping each bucket's extremes so spikes survive.
pub fn decimate(xs: &[f64], ys: &[f64], max: usize) -> Vec<(f64, f64)> {
    let n = xs.len().min(ys.len());
    if n <= max || max < 4 {
        return xs.iter().zip(ys).map(|(&x, &y)| (x, y)).collect();
    }
    let per = n.div_ceil(max / 2);
    let mut out = Vec::with_capacity(max);
    for start in (0..n).step_by(per) {
        let end = (start + per).min(n);
        let (mut lo, mut hi) = (start, start);
        for i in start..end {
            if ys[i] < ys[lo] {
                lo = i;
            }
            if ys[i] > ys[hi] {
                hi = i;
            }
        }
        let (a, b) = if lo <= hi { (lo, hi) } else { (hi, lo) };
        out.push((xs[a], ys[a]));
        if b != a {
            out.push((xs[b], ys[b]));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::scenario::preset;
    use sim_core::sim::Simulation;

    fn series_of(duration: f64) -> Series {
        let mut sc = preset("red-study", Some("red")).unwrap();
        sc.duration_s = duration;
        let mut sim = Simulation::new(&sc).unwrap();
        let mut s = Series::new(10, 0.1, 512, false, &sim.recorder().series_info);
        while !sim.is_finished() {
            sim.run_events(5_000);
            s.push(&sim.poll());
        }
        s.set_delays(&sim.recorder().window);
        s
    }

    #[test]
    fn polls_accumulate_one_point_per_sample_for_every_series() {
        let s = series_of(3.0);
        assert_eq!(s.len(), 30);
        assert_eq!(s.avg.len(), 30);
        assert!(s.flow_mbps.iter().all(|v| v.len() == 30));
        assert_eq!(s.jfi.len(), 30);
        assert!(s.jfi.iter().all(|&j| (0.1..=1.0).contains(&j)));
        assert!(!s.drops.is_empty());
    }

    #[test]
    fn chunked_polling_gives_the_same_series_as_one_poll() {
        let a = series_of(2.0);
        let mut sc = preset("red-study", Some("red")).unwrap();
        sc.duration_s = 2.0;
        let mut sim = Simulation::new(&sc).unwrap();
        sim.finish();
        let mut b = Series::new(10, 0.1, 512, false, &sim.recorder().series_info);
        b.push(&sim.poll());
        assert_eq!(a.queue, b.queue);
        assert_eq!(a.drops, b.drops);
        assert_eq!(a.jfi, b.jfi);
    }

    #[test]
    fn delay_density_marks_p50_below_p95() {
        let s = series_of(3.0);
        let d = s.delay_density(0, s.delay_range_ms()).unwrap();
        assert!(d.p50 <= d.p95);
        assert!(d.density.ys.iter().all(|y| y.is_finite() && *y >= 0.0));
    }

    #[test]
    fn decimation_keeps_spikes_and_bounds_points() {
        let xs: Vec<f64> = (0..10_000).map(|i| i as f64).collect();
        let mut ys = vec![1.0; 10_000];
        ys[5_123] = 99.0;
        let d = decimate(&xs, &ys, 500);
        assert!(d.len() <= 500);
        assert!(d.iter().any(|&(_, y)| y == 99.0));
    }
}
