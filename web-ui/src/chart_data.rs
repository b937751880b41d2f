//! What each chart shows, prepared from [`Series`] as plain data. Drawing lives in
//! `charts`; this part is tested natively.

use crate::series::{decimate, Series};
use sim_core::aqm::DropReason;

/// Points per line handed to the canvas: enough for a projector, cheap to draw.
pub const MAX_POINTS: usize = 800;
/// Drop markers drawn at most (evenly thinned beyond that).
pub const MAX_DROPS: usize = 4000;

#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub label: String,
    pub color: usize,
    pub points: Vec<(f64, f64)>,
    /// Drawn against the secondary (right, 0..1) axis.
    pub secondary: bool,
}

/// A shaded horizontal band, e.g. [minTh, maxTh).
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    pub lo: f64,
    pub hi: f64,
    pub label: String,
    pub color: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TimeChart {
    pub title: String,
    pub y_label: String,
    pub x_max: f64,
    pub y_max: f64,
    pub lines: Vec<Line>,
    pub bands: Vec<Band>,
    /// Label of the secondary axis, if any line uses it.
    pub secondary_label: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Scatter {
    pub title: String,
    pub x_max: f64,
    /// Names of the rows (flows or variants), bottom to top.
    pub rows: Vec<String>,
    /// (time, row, colour)
    pub points: Vec<(f64, usize, usize)>,
    pub legend: Vec<(String, usize)>,
}

/// Horizontal bars with a dashed "fair share" mark.
#[derive(Clone, Debug, PartialEq)]
pub struct Bars {
    pub title: String,
    /// (label, value in 0..1, colour)
    pub bars: Vec<(String, f64, usize)>,
    pub fair: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DensityChart {
    pub title: String,
    pub x_label: String,
    pub x_max: f64,
    pub curves: Vec<Line>,
    /// Vertical marks: (x, label, colour).
    pub marks: Vec<(f64, String, usize)>,
}

fn line(label: impl Into<String>, color: usize, xs: &[f64], ys: &[f64]) -> Line {
    Line { label: label.into(), color, points: decimate(xs, ys, MAX_POINTS), secondary: false }
}

fn max_of<'a>(vals: impl Iterator<Item = &'a f64>) -> f64 {
    vals.copied().fold(0.0, f64::max)
}

/// Per-flow lines are drawn only for this many flows; beyond it, aggregates only.
pub const MAX_FLOW_LINES: usize = 12;

/// Queue length with the discipline's average and the zones between its thresholds shaded
/// (RED's [minTh, maxTh) and [maxTh, 2·maxTh)); for a multi-queue port, the cells each
/// physical queue holds.
pub fn queue_chart(s: &Series, x_max: f64) -> TimeChart {
    if !s.queue_cells.is_empty() {
        let lines: Vec<Line> =
            s.queue_cells.iter().enumerate().map(|(q, v)| line(format!("Q{q}"), q, &s.t, v)).collect();
        let y_max = s.queue_cells.iter().map(|v| max_of(v.iter())).fold(0.0, f64::max);
        return TimeChart {
            title: "Switch queues".into(),
            y_label: "cells".into(),
            x_max,
            y_max: nice_max(y_max),
            lines,
            bands: Vec::new(),
            secondary_label: None,
        };
    }
    let mut lines = vec![line("queue (packets)", 0, &s.t, &s.queue)];
    let mut bands = Vec::new();
    let mut y_max = max_of(s.queue.iter());
    if !s.avg.is_empty() {
        lines.push(line("EWMA average", 1, &s.t, &s.avg));
        y_max = y_max.max(max_of(s.avg.iter()));
    }
    let labels = s.info.iter().find(|i| i.group == "queue" && !i.thresholds.is_empty());
    for (k, w) in s.thresholds.windows(2).enumerate() {
        let name = |i: usize| labels.map_or(String::new(), |l| l.thresholds[i].label.clone());
        bands.push(Band {
            lo: w[0],
            hi: w[1],
            label: format!("[{}, {})", name(k), name(k + 1)),
            color: 2 + k,
        });
        y_max = y_max.max(1.1 * w[1]);
    }
    TimeChart {
        title: "Bottleneck queue".into(),
        y_label: "packets".into(),
        x_max,
        y_max: nice_max(y_max),
        lines,
        bands,
        secondary_label: None,
    }
}

/// Per-flow goodput, the aggregate, and Jain's index (right axis).
pub fn throughput_chart(s: &Series, x_max: f64) -> TimeChart {
    let mut lines = Vec::new();
    if s.flows() <= MAX_FLOW_LINES {
        for (f, v) in s.flow_mbps.iter().enumerate() {
            lines.push(line(format!("flow {f}"), 4 + f, &s.t, v));
        }
    }
    lines.push(line("aggregate", 0, &s.t, &s.goodput_mbps));
    let mut jfi = line("Jain's index (1 s)", 1, &s.t, &s.jfi);
    jfi.secondary = true;
    lines.push(jfi);
    TimeChart {
        title: "Goodput".into(),
        y_label: "Mbit/s".into(),
        x_max,
        y_max: nice_max(robust_max(&s.goodput_mbps)),
        lines,
        bands: Vec::new(),
        secondary_label: Some("Jain's index".into()),
    }
}

/// Congestion windows in segments.
pub fn cwnd_chart(s: &Series, x_max: f64) -> TimeChart {
    let lines: Vec<Line> = s
        .flow_cwnd
        .iter()
        .take(MAX_FLOW_LINES)
        .enumerate()
        .map(|(f, v)| line(format!("flow {f}"), 4 + f, &s.t, v))
        .collect();
    let y_max = s.flow_cwnd.iter().take(MAX_FLOW_LINES).map(|v| max_of(v.iter())).fold(0.0, f64::max);
    TimeChart {
        title: "Congestion window".into(),
        y_label: "segments".into(),
        x_max,
        y_max: nice_max(y_max),
        lines,
        bands: Vec::new(),
        secondary_label: None,
    }
}

pub fn reason_color(r: DropReason) -> usize {
    match r {
        DropReason::Early => 1,
        DropReason::Forced => 3,
        DropReason::Overflow => 0,
    }
}

fn reason_legend() -> Vec<(String, usize)> {
    [DropReason::Early, DropReason::Forced, DropReason::Overflow]
        .into_iter()
        .map(|r| (r.as_str().to_string(), reason_color(r)))
        .collect()
}

/// Every `k`-th drop so that at most `cap` are drawn, spread over the whole run.
fn thinned(drops: &[(f64, u32, DropReason)], cap: usize) -> impl Iterator<Item = &(f64, u32, DropReason)> {
    drops.iter().step_by(drops.len().div_ceil(cap.max(1)).max(1))
}

/// Each drop at the bottleneck: time × flow, coloured by reason.
pub fn drops_chart(s: &Series, x_max: f64) -> Scatter {
    Scatter {
        title: "Drops".into(),
        x_max,
        rows: (0..s.flows()).map(|f| format!("flow {f}")).collect(),
        points: thinned(&s.drops, MAX_DROPS).map(|&(t, f, r)| (t, f as usize, reason_color(r))).collect(),
        legend: reason_legend(),
    }
}

fn backlog_unit(s: &Series) -> &'static str {
    if s.in_cells {
        "cells"
    } else {
        "packets"
    }
}

/// Label of a flow, with its queue at a multi-queue port (Warbler Fig. 5 groups by queue).
fn flow_label(s: &Series, f: usize) -> String {
    if s.queue_cells.is_empty() {
        format!("flow {f}")
    } else {
        format!("flow {f} (Q{})", s.flow_queue.get(f).copied().unwrap_or(0))
    }
}

/// Per-flow backlog KDE at the bottleneck (Warbler Fig. 5).
pub fn backlog_chart(s: &Series) -> DensityChart {
    let hi = s.flow_backlog.iter().map(|v| max_of(v.iter())).fold(1.0, f64::max);
    let curves = (0..s.flows().min(MAX_FLOW_LINES))
        .filter_map(|f| s.backlog_density(f, hi).map(|d| (f, d)))
        .map(|(f, d)| Line {
            label: flow_label(s, f),
            color: 4 + f,
            points: zip(&d.xs, &d.ys),
            secondary: false,
        })
        .collect();
    DensityChart {
        title: "Backlog per flow (KDE)".into(),
        x_label: backlog_unit(s).into(),
        x_max: hi,
        curves,
        marks: Vec::new(),
    }
}

/// Cumulative average backlog of each flow over time (Warbler Fig. 6).
pub fn cumulative_backlog_chart(s: &Series, x_max: f64) -> TimeChart {
    let mut y_max: f64 = 0.0;
    let lines = (0..s.flows().min(MAX_FLOW_LINES))
        .map(|f| {
            let c = s.cumulative_backlog(f);
            y_max = y_max.max(max_of(c.iter()));
            line(flow_label(s, f), 4 + f, &s.t, &c)
        })
        .collect();
    TimeChart {
        title: "Cumulative average backlog".into(),
        y_label: backlog_unit(s).into(),
        x_max,
        y_max: nice_max(y_max),
        lines,
        bands: Vec::new(),
        secondary_label: None,
    }
}

/// Each flow's share of the aggregate goodput so far (Warbler Fig. 7), as bars.
pub fn share_chart(s: &Series) -> Bars {
    let means = s.flow_mean_mbps();
    let total: f64 = means.iter().sum();
    Bars {
        title: "Share of goodput".into(),
        bars: means
            .iter()
            .enumerate()
            .take(MAX_FLOW_LINES * 2)
            .map(|(f, m)| (flow_label(s, f), if total > 0.0 { m / total } else { 0.0 }, 4 + f))
            .collect(),
        fair: if means.is_empty() { 0.0 } else { 1.0 / means.len() as f64 },
    }
}

/// Per-flow queueing-delay KDE with P50 and P95 marks.
pub fn delay_chart(s: &Series) -> DensityChart {
    let hi = s.delay_range_ms().max(0.1);
    let mut curves = Vec::new();
    let mut marks = Vec::new();
    for f in 0..s.flows().min(MAX_FLOW_LINES) {
        if let Some(d) = s.delay_density(f, hi) {
            curves.push(Line {
                label: format!("flow {f}"),
                color: 4 + f,
                points: zip(&d.density.xs, &d.density.ys),
                secondary: false,
            });
            marks.push((d.p50, format!("P50 {f}"), 4 + f));
            marks.push((d.p95, format!("P95 {f}"), 4 + f));
        }
    }
    DensityChart {
        title: "Queueing delay per flow (KDE)".into(),
        x_label: "ms".into(),
        x_max: hi,
        curves,
        marks,
    }
}

fn zip(xs: &[f64], ys: &[f64]) -> Vec<(f64, f64)> {
    xs.iter().copied().zip(ys.iter().copied()).collect()
}

/// Compare view: one line per variant on shared axes.
pub fn compare_queue(lanes: &[(&str, &Series)], x_max: f64) -> TimeChart {
    let lines = lanes.iter().enumerate().map(|(i, (name, s))| line(*name, i, &s.t, &s.queue)).collect();
    let y_max = lanes.iter().map(|(_, s)| max_of(s.queue.iter())).fold(0.0, f64::max);
    TimeChart {
        title: "Queue, side by side".into(),
        y_label: "packets".into(),
        x_max,
        y_max: nice_max(y_max),
        lines,
        bands: Vec::new(),
        secondary_label: None,
    }
}

pub fn compare_goodput(lanes: &[(&str, &Series)], x_max: f64) -> TimeChart {
    let lines =
        lanes.iter().enumerate().map(|(i, (name, s))| line(*name, i, &s.t, &s.goodput_mbps)).collect();
    let y_max = lanes.iter().map(|(_, s)| robust_max(&s.goodput_mbps)).fold(0.0, f64::max);
    TimeChart {
        title: "Goodput, side by side".into(),
        y_label: "Mbit/s".into(),
        x_max,
        y_max: nice_max(y_max),
        lines,
        bands: Vec::new(),
        secondary_label: None,
    }
}

pub fn compare_drops(lanes: &[(&str, &Series)], x_max: f64) -> Scatter {
    let mut points = Vec::new();
    for (row, (_, s)) in lanes.iter().enumerate() {
        points.extend(
            thinned(&s.drops, MAX_DROPS / lanes.len().max(1)).map(|&(t, _, r)| (t, row, reason_color(r))),
        );
    }
    Scatter {
        title: "Drops, side by side".into(),
        x_max,
        rows: lanes.iter().map(|(n, _)| n.to_string()).collect(),
        points,
        legend: reason_legend(),
    }
}

/// An axis maximum that lets the rare burst run off the top instead of flattening the
/// rest: 1.2 × the 99th percentile (in-order delivery after a loss is very bursty).
pub fn robust_max(v: &[f64]) -> f64 {
    if v.is_empty() {
        return 1.0;
    }
    let s = sim_core::metrics::stats::sorted(v);
    1.2 * sim_core::metrics::stats::quantile_sorted(&s, 0.99)
}

/// Rounds an axis maximum up to 1, 2 or 5 × 10^k so ticks land on round numbers.
pub fn nice_max(v: f64) -> f64 {
    if !(v > 0.0) || !v.is_finite() {
        return 1.0;
    }
    let p = 10f64.powi(v.log10().floor() as i32);
    for m in [1.0, 2.0, 5.0, 10.0] {
        if v <= m * p {
            return m * p;
        }
    }
    10.0 * p
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::scenario::preset;
    use sim_core::sim::Simulation;

    fn series() -> Series {
        let mut sc = preset("red-study", Some("gentle")).unwrap();
        sc.duration_s = 4.0;
        let mut sim = Simulation::new(&sc).unwrap();
        sim.finish();
        let mut s = Series::new(10, 0.1, 512, false, &sim.recorder().series_info);
        s.push(&sim.poll());
        s.set_delays(&sim.recorder().window);
        s
    }

    #[test]
    fn queue_chart_shades_both_red_zones_and_fits_them() {
        let c = queue_chart(&series(), 60.0);
        assert_eq!(c.bands.len(), 2);
        assert_eq!((c.bands[1].lo, c.bands[1].hi), (10.0, 20.0));
        assert!(c.y_max >= 22.0);
        assert_eq!(c.lines.len(), 2);
    }

    #[test]
    fn throughput_chart_has_a_line_per_flow_plus_aggregate_and_jfi() {
        let c = throughput_chart(&series(), 60.0);
        assert_eq!(c.lines.len(), 12);
        assert!(c.lines.last().unwrap().secondary);
    }

    #[test]
    fn drops_are_plotted_on_their_flows_row() {
        let s = series();
        let c = drops_chart(&s, 60.0);
        assert_eq!(c.points.len(), s.drops.len());
        assert!(c.points.iter().all(|&(_, row, _)| row < 10));
    }

    #[test]
    fn delay_chart_marks_p50_and_p95_per_flow() {
        let c = delay_chart(&series());
        assert_eq!(c.marks.len(), 2 * c.curves.len());
        assert!(!c.curves.is_empty());
    }

    #[test]
    fn shares_sum_to_one_and_mark_the_fair_share() {
        let c = share_chart(&series());
        let sum: f64 = c.bars.iter().map(|b| b.1).sum();
        assert!((sum - 1.0).abs() < 1e-9);
        assert!((c.fair - 0.1).abs() < 1e-12);
    }

    #[test]
    fn cumulative_backlog_is_the_running_mean() {
        let mut s = Series::new(1, 0.1, 512, true, &[]);
        s.flow_backlog[0] = vec![2.0, 4.0, 6.0];
        assert_eq!(s.cumulative_backlog(0), vec![2.0, 3.0, 4.0]);
    }

    #[test]
    fn nice_max_rounds_up_to_one_two_five() {
        assert_eq!(nice_max(7.3), 10.0);
        assert_eq!(nice_max(1.2), 2.0);
        assert_eq!(nice_max(0.031), 0.05);
        assert_eq!(nice_max(0.0), 1.0);
    }
}
