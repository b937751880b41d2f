//! Chart data accumulated from the simulation's progress messages, in bounded memory:
//! past a budget of points every other sample is dropped and the stride doubles, so a long
//! run keeps its whole span at a coarser step. Plain Rust, tested natively.

use sim_core::aqm::DropReason;
use sim_core::metrics::fct::Transfer;
use sim_core::metrics::kde::{kde_binned, kde_histogram, Density};
use sim_core::metrics::pings::PingSample;
use sim_core::metrics::{halve, jain_index, DropRecord, LogHistogram, Thinning, Update};
use sim_core::trace::{LogRecord, SeriesInfo};

/// Flows whose delay distribution the delay chart shows.
pub const DELAY_FLOWS: usize = 12;
/// Values kept per per-flow array (samples × flows) before thinning: ~10 MB per lane.
const POINT_BUDGET: usize = 400_000;
/// Drop and mark markers kept before thinning (each list).
const DROP_BUDGET: usize = 50_000;
/// Completed transfers and answered pings kept before thinning (each list).
const RECORD_BUDGET: usize = 20_000;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    pub interval_s: f64,
    mss: f64,
    pub t: Vec<f64>,
    /// Packets in the queue disc, and in the device queue under it, per sample.
    pub queue: Vec<f64>,
    pub nic: Vec<f64>,
    /// Whether the bottleneck has a device queue under its disc, and the cells a full
    /// packet takes (to draw it beside a switch port's queues, which count cells).
    pub device_queue: bool,
    pub cells_per_packet: f64,
    /// Each flow's CCA label (legends name it when the flows' differ).
    pub flow_cca: Vec<String>,
    /// The bottleneck's highest rate over the run (through its timed changes), Mbit/s; 0
    /// when unknown. Goodput axes stop a little above it.
    pub link_mbps: f64,
    /// With links: each flow's max-min fair and proportionally fair goodput, bit/s of
    /// payload (the scenario's, drawn beside what the flows get).
    pub fair_shares: Option<(Vec<f64>, Vec<f64>)>,
    /// With links: the name of the link the queue, delay and drop charts are of.
    pub charted_link: Option<String>,
    /// The algorithms' named series and their values per sample.
    pub info: Vec<SeriesInfo>,
    pub named: Vec<Vec<f64>>,
    /// The queue-group series with thresholds (RED's EWMA average), and its thresholds.
    avg_index: Option<usize>,
    pub thresholds: Vec<f64>,
    /// The thresholds over time: from each time on, until the next (a change retuned RED).
    pub threshold_history: Vec<(f64, Vec<f64>)>,
    /// Aggregate in-order goodput and new bytes arriving at the receivers, Mbit/s.
    pub goodput_mbps: Vec<f64>,
    pub arrival_mbps: Vec<f64>,
    /// Per flow, per sample.
    pub flow_mbps: Vec<Vec<f64>>,
    pub flow_cwnd: Vec<Vec<f64>>,
    pub flow_rtt_ms: Vec<Vec<f64>>,
    /// Mean queueing delay of the packets each flow sent in the interval, ms (NaN: none).
    pub flow_delay_ms: Vec<Vec<f64>>,
    /// Backlog per flow at the bottleneck: cells when `in_cells`, else packets.
    pub flow_backlog: Vec<Vec<f64>>,
    pub in_cells: bool,
    /// Queue of each flow at a multi-queue port, per sample.
    pub flow_queue: Vec<Vec<u32>>,
    /// Jain's index over the last second of per-flow goodput, per sample.
    pub jfi: Vec<f64>,
    /// Per flow, the sum of its goodput over the samples of the last second.
    window_sums: Vec<f64>,
    pub drops: Vec<(f64, u32, DropReason)>,
    /// CE marks at the bottleneck: time, flow, why (thinned as the drops are).
    pub marks: Vec<(f64, u32, DropReason)>,
    /// Finite flows and transfers that completed, and pings answered, thinned evenly past a
    /// budget (every other one kept, then every fourth...).
    pub transfers: Vec<Transfer>,
    pub pings: Vec<PingSample>,
    /// Per flow, whether it counts in Jain's index (not a ping, not a pool of connections);
    /// empty: every flow does.
    pub in_fairness: Vec<bool>,
    /// The algorithms' structured records (Warbler's decisions).
    pub log: Vec<LogRecord>,
    /// Flow 0's congestion-control values (the DQN agent's action, Q-values) over time.
    pub cc: Vec<(f64, Vec<(String, f64)>)>,
    /// Queueing delays of the first flows over the measured window, seconds.
    delays: Vec<LogHistogram>,
    pub events: u64,
    pub now_s: f64,
    stride: usize,
    seen: usize,
    drops_kept: Thinning,
    marks_kept: Thinning,
    transfers_kept: Thinning,
    pings_kept: Thinning,
}

/// A stream's records kept in a bounded list ([`Thinning`], as the recorder keeps its own),
/// by the page's budgets.
trait Keep {
    fn extend<T>(&mut self, kept: &mut Vec<T>, new: impl IntoIterator<Item = T>);
}

impl Keep for Thinning {
    fn extend<T>(&mut self, kept: &mut Vec<T>, new: impl IntoIterator<Item = T>) {
        for r in new {
            self.offer(kept, r);
        }
    }
}

/// A density with the marks the delay chart draws.
#[derive(Clone, Debug, PartialEq)]
pub struct DelayDensity {
    pub density: Density,
    pub p50: f64,
    pub p95: f64,
}

/// Figures over a stretch of the run, for the scrubber.
#[derive(Clone, Debug, PartialEq)]
pub struct WindowFigures {
    pub from_s: f64,
    pub to_s: f64,
    pub goodput_mbps: f64,
    pub flow_mbps: Vec<f64>,
    pub jfi: f64,
    pub queue_mean: f64,
    pub drops: usize,
    /// CE marks at the bottleneck in the stretch.
    pub marks: usize,
}

impl Series {
    pub fn new(n_flows: usize, interval_s: f64, mss: u32, in_cells: bool, info: &[SeriesInfo]) -> Series {
        let avg_index = info.iter().position(|i| i.group == "queue" && !i.thresholds.is_empty());
        Series {
            interval_s,
            in_cells,
            mss: f64::from(mss.max(1)),
            flow_mbps: vec![Vec::new(); n_flows],
            flow_cwnd: vec![Vec::new(); n_flows],
            flow_rtt_ms: vec![Vec::new(); n_flows],
            flow_delay_ms: vec![Vec::new(); n_flows],
            flow_backlog: vec![Vec::new(); n_flows],
            named: vec![Vec::new(); info.len()],
            info: info.to_vec(),
            avg_index,
            thresholds: avg_index
                .map(|i| info[i].thresholds.iter().map(|t| t.value).collect())
                .unwrap_or_default(),
            threshold_history: avg_index
                .map(|i| vec![(0.0, info[i].thresholds.iter().map(|t| t.value).collect())])
                .unwrap_or_default(),
            stride: 1,
            drops_kept: Thinning::new(DROP_BUDGET),
            marks_kept: Thinning::new(DROP_BUDGET),
            transfers_kept: Thinning::new(RECORD_BUDGET),
            pings_kept: Thinning::new(RECORD_BUDGET),
            ..Series::default()
        }
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

    /// The EWMA-like series drawn over the queue (RED's average), if any.
    pub fn avg(&self) -> Option<&[f64]> {
        self.avg_index.map(|i| self.named[i].as_slice())
    }

    /// Values of named series `i` whose group is `group`.
    pub fn group(&self, group: &str) -> Vec<(&SeriesInfo, &[f64])> {
        self.info
            .iter()
            .zip(&self.named)
            .filter(|(i, _)| i.group == group)
            .map(|(i, v)| (i, v.as_slice()))
            .collect()
    }

    /// Groups of named series other than the queue's, in order of first appearance.
    pub fn extra_groups(&self) -> Vec<String> {
        let mut g: Vec<String> = Vec::new();
        for i in &self.info {
            if i.group != "queue" && !g.contains(&i.group) {
                g.push(i.group.clone());
            }
        }
        g
    }

    pub fn set_delays(&mut self, delays: Vec<LogHistogram>) {
        self.delays = delays;
    }

    /// Folds in one progress message of this lane.
    pub fn push(&mut self, u: &Update, cc: &[(String, f64)]) {
        self.events = u.events;
        self.now_s = u.now_s;
        if !cc.is_empty() {
            self.cc.push((u.now_s, cc.to_vec()));
            if self.cc.len() > 20_000 {
                halve(&mut self.cc);
            }
        }
        for s in &u.samples {
            self.seen += 1;
            if !(self.seen - 1).is_multiple_of(self.stride) {
                continue;
            }
            self.t.push(s.t_s);
            self.queue.push(f64::from(s.queue_packets));
            self.nic.push(f64::from(s.nic_packets));
            for (col, v) in self.named.iter_mut().zip(&s.series) {
                col.push(*v);
            }
            self.goodput_mbps.push(s.goodput_bps / 1e6);
            self.arrival_mbps.push(s.arrival_bps / 1e6);
            for (f, v) in s.flow_goodput_bps.iter().enumerate() {
                self.flow_mbps[f].push(v / 1e6);
                self.flow_cwnd[f].push(f64::from(s.flow_cwnd_bytes[f]) / self.mss);
                self.flow_rtt_ms[f].push(s.flow_srtt_ms[f]);
                let delay = s.flow_delay_ms.get(f).copied().flatten();
                self.flow_delay_ms[f].push(delay.map_or(f64::NAN, f64::from));
                let backlog = if self.in_cells {
                    s.flow_backlog_cells[f] as f64
                } else {
                    f64::from(s.flow_backlog_packets[f])
                };
                self.flow_backlog[f].push(backlog);
            }
            self.flow_queue.push(s.flow_queue.clone());
            self.push_jfi();
            if self.t.len() * self.flows().max(1) > POINT_BUDGET {
                self.thin();
            }
        }
        let at_bottleneck = |recs: &[DropRecord]| -> Vec<(f64, u32, DropReason)> {
            recs.iter().filter(|d| d.at_bottleneck()).map(|d| (d.t_s, d.flow, d.reason)).collect()
        };
        self.drops_kept.extend(&mut self.drops, at_bottleneck(&u.drops));
        self.marks_kept.extend(&mut self.marks, at_bottleneck(&u.marks));
        self.transfers_kept.extend(&mut self.transfers, u.transfers.iter().copied());
        self.pings_kept.extend(&mut self.pings, u.pings.iter().copied());
        self.log.extend(u.log.iter().cloned());
        for (t, info) in &u.redeclared {
            if let Some(i) = self.avg_index.and_then(|i| info.get(i)) {
                let values: Vec<f64> = i.thresholds.iter().map(|t| t.value).collect();
                self.thresholds.clone_from(&values);
                self.threshold_history.push((*t, values));
            }
        }
    }

    /// Samples kept in the last second.
    fn jfi_window(&self) -> usize {
        ((1.0 / self.interval_s).round().max(1.0) as usize / self.stride).max(1)
    }

    /// Jain's index of the flows' goodput over the last second, from running per-flow
    /// sums (one add and one subtract a flow a sample: 10 000 flows sampled every 10 ms
    /// made summing each flow's whole second a task of tens of milliseconds), refreshed
    /// from scratch once a window so rounding cannot build up.
    fn push_jfi(&mut self) {
        let window = self.jfi_window();
        let len = self.t.len();
        if self.window_sums.len() != self.flows() || len.is_multiple_of(window) {
            self.window_sums = (self.flow_mbps.iter())
                .map(|v| v[v.len().saturating_sub(window)..].iter().sum::<f64>())
                .collect();
        } else {
            for (sum, v) in self.window_sums.iter_mut().zip(&self.flow_mbps) {
                *sum += v[v.len() - 1];
                if v.len() > window {
                    *sum -= v[v.len() - 1 - window];
                }
            }
        }
        let n = len.min(window).max(1) as f64;
        let counted = |f: usize| self.in_fairness.get(f).is_none_or(|&c| c);
        let means: Vec<f64> =
            self.window_sums.iter().enumerate().filter(|(f, _)| counted(*f)).map(|(_, s)| s / n).collect();
        self.jfi.push(jain_index(&means));
    }

    /// Keeps every other sample and doubles the stride.
    fn thin(&mut self) {
        halve(&mut self.t);
        halve(&mut self.queue);
        halve(&mut self.nic);
        halve(&mut self.goodput_mbps);
        halve(&mut self.arrival_mbps);
        halve(&mut self.jfi);
        halve(&mut self.flow_queue);
        for v in self.named.iter_mut().chain(&mut self.flow_mbps).chain(&mut self.flow_cwnd) {
            halve(v);
        }
        for v in self.flow_rtt_ms.iter_mut().chain(&mut self.flow_backlog).chain(&mut self.flow_delay_ms) {
            halve(v);
        }
        self.stride *= 2;
        self.window_sums.clear(); // the window counts other samples now
    }

    /// Samples dropped per sample kept (1 until the run outgrows the budget).
    pub fn stride(&self) -> usize {
        self.stride
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
        (data.len() >= 2).then(|| kde_binned(data, 0.0, hi.max(1.0), 160, 256, None))
    }

    /// Density of a flow's queueing delay at the bottleneck, in ms, with P50 and P95.
    pub fn delay_density(&self, flow: usize, hi_ms: f64) -> Option<DelayDensity> {
        let h = self.delays.get(flow)?;
        let mut ms = LogHistogram::default();
        for (x, c) in h.density_points() {
            ms.record_n(x * 1e3, c);
        }
        Some(DelayDensity {
            density: kde_histogram(&ms, 0.0, hi_ms.max(0.1), 160)?,
            p50: h.quantile(0.5)? * 1e3,
            p95: h.quantile(0.95)? * 1e3,
        })
    }

    /// The delay chart's x range: 1.5 × the largest P99 over the flows shown, so that the
    /// start-up burst does not squeeze the steady state into a corner.
    pub fn delay_range_ms(&self) -> f64 {
        self.delays.iter().filter_map(|h| h.quantile(0.99)).fold(0.0, f64::max) * 1.5e3
    }

    /// Drops at the bottleneck so far, kept or not.
    pub fn drops_seen(&self) -> usize {
        self.drops_kept.seen() as usize
    }

    /// Goodput, fairness, queue and drops between `from_s` and `to_s` (the scrubber).
    pub fn window(&self, from_s: f64, to_s: f64) -> WindowFigures {
        let idx: Vec<usize> =
            (0..self.t.len()).filter(|&i| self.t[i] > from_s && self.t[i] <= to_s).collect();
        let n = idx.len().max(1) as f64;
        let flow_mbps: Vec<f64> =
            self.flow_mbps.iter().map(|v| idx.iter().map(|&i| v[i]).sum::<f64>() / n).collect();
        WindowFigures {
            from_s,
            to_s,
            goodput_mbps: idx.iter().map(|&i| self.goodput_mbps[i]).sum::<f64>() / n,
            jfi: jain_index(&flow_mbps),
            flow_mbps,
            queue_mean: idx.iter().map(|&i| self.queue[i]).sum::<f64>() / n,
            drops: self.drops.iter().filter(|d| d.0 > from_s && d.0 <= to_s).count()
                * self.drops_kept.stride() as usize,
            marks: self.marks.iter().filter(|d| d.0 > from_s && d.0 <= to_s).count()
                * self.marks_kept.stride() as usize,
        }
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
#[allow(clippy::float_cmp)] // the values compared are exact by construction
mod tests {
    use super::*;
    use sim_core::scenario::preset;
    use sim_core::sim::Simulation;

    fn series_of(duration: f64) -> (Series, Simulation) {
        let mut sc = preset("red-study", Some("red")).unwrap();
        sc.duration_s = duration;
        let mut sim = Simulation::new(&sc).unwrap();
        let mut s = Series::new(10, 0.1, 512, false, &sim.recorder().series_info);
        while !sim.is_finished() {
            sim.run_events(5_000);
            s.push(&sim.poll(), &[]);
        }
        s.set_delays(sim.recorder().window.flows().iter().map(|f| f.delay.clone()).collect());
        (s, sim)
    }

    #[test]
    fn polls_accumulate_one_point_per_sample_for_every_series() {
        let (s, _) = series_of(3.0);
        assert_eq!(s.len(), 30);
        assert_eq!(s.avg().unwrap().len(), 30);
        assert_eq!(s.thresholds, vec![5.0, 10.0, 20.0]);
        assert!(s.flow_mbps.iter().all(|v| v.len() == 30));
        assert_eq!(s.jfi.len(), 30);
        assert!(!s.drops.is_empty());
    }

    #[test]
    fn jains_index_over_the_last_second_is_recomputed_from_the_goodput() {
        let (s, _) = series_of(3.0);
        for k in [5usize, 9, 10, 23, 29] {
            let from = (k + 1).saturating_sub(10);
            let n = (k + 1 - from) as f64;
            let last: Vec<f64> = s.flow_mbps.iter().map(|v| v[from..=k].iter().sum::<f64>() / n).collect();
            assert!((s.jfi[k] - jain_index(&last)).abs() < 1e-9, "sample {k}");
        }
    }

    #[test]
    fn chunked_polling_gives_the_same_series_as_one_poll() {
        let (a, _) = series_of(2.0);
        let mut sc = preset("red-study", Some("red")).unwrap();
        sc.duration_s = 2.0;
        let mut sim = Simulation::new(&sc).unwrap();
        sim.finish();
        let mut b = Series::new(10, 0.1, 512, false, &sim.recorder().series_info);
        b.push(&sim.poll(), &[]);
        assert_eq!(a.queue, b.queue);
        assert_eq!(a.drops, b.drops);
        assert_eq!(a.jfi, b.jfi);
    }

    #[test]
    fn delay_density_marks_the_flows_own_median_and_p95() {
        // The marks are the recorder's own quantiles of flow 0's delays, in ms, and the
        // curve peaks where the delays are.
        let (s, sim) = series_of(3.0);
        let d = s.delay_density(0, s.delay_range_ms()).unwrap();
        let h = &sim.recorder().window.flows()[0].delay;
        assert_eq!(d.p50, h.quantile(0.5).unwrap() * 1e3);
        assert_eq!(d.p95, h.quantile(0.95).unwrap() * 1e3);
        assert!(d.p50 < d.p95, "RED's queue moves: the tail is longer than the median");
        assert!(d.density.ys.iter().all(|y| y.is_finite() && *y >= 0.0));
        let peak =
            (0..d.density.ys.len()).max_by(|&a, &b| d.density.ys[a].total_cmp(&d.density.ys[b])).unwrap();
        let x = d.density.xs[peak];
        assert!(x <= d.p95 * 1.5, "the density peaks at {x} ms, beyond the P95 {} ms", d.p95);
    }

    #[test]
    fn a_long_run_is_thinned_to_the_budget_and_keeps_its_span() {
        let mut sc = preset("red-study", Some("red")).unwrap();
        sc.duration_s = 60.0;
        sc.sample_interval_s = 0.001;
        let mut sim = Simulation::new(&sc).unwrap();
        let mut s = Series::new(10, 0.001, 512, false, &sim.recorder().series_info);
        while !sim.is_finished() {
            sim.run_events(50_000);
            s.push(&sim.poll(), &[]);
        }
        assert!(s.len() * 10 <= POINT_BUDGET, "{} samples kept", s.len());
        assert!(s.stride() >= 2);
        assert!(*s.t.last().unwrap() > 59.9 && s.t[0] < 0.01);
        assert!(s.flow_mbps.iter().all(|v| v.len() == s.len()));
    }

    #[test]
    fn the_scrubber_window_sees_only_its_stretch() {
        let (s, _) = series_of(3.0);
        let w = s.window(1.0, 2.0);
        // Each flow's mean over the samples with 1 < t <= 2, by hand.
        let inside: Vec<usize> = (0..s.len()).filter(|&i| s.t[i] > 1.0 && s.t[i] <= 2.0).collect();
        assert_eq!(inside.len(), 10, "100 ms samples in one second");
        let by_hand: Vec<f64> = s
            .flow_mbps
            .iter()
            .map(|v| inside.iter().map(|&i| v[i]).sum::<f64>() / inside.len() as f64)
            .collect();
        assert_eq!(w.flow_mbps, by_hand);
        assert_eq!(w.jfi, jain_index(&by_hand));
        // Slow start ends in the first second: the window's share of the drops is smaller.
        let all = s.window(0.0, 3.0);
        assert!(w.drops < all.drops, "{} of {}", w.drops, all.drops);
    }

    #[test]
    fn decimation_keeps_spikes_and_bounds_points() {
        let xs: Vec<f64> = (0..10_000).map(f64::from).collect();
        let mut ys = vec![1.0; 10_000];
        ys[5_123] = 99.0;
        let d = decimate(&xs, &ys, 500);
        assert!(d.len() <= 500);
        assert!(d.iter().any(|&(_, y)| y == 99.0));
    }
}
