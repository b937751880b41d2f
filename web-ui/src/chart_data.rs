//! What each chart shows, prepared from [`Series`] as plain data. Drawing lives in
//! `charts`; this part is tested natively.

mod coincide;
mod compare;
pub mod traffic;

use crate::series::{decimate, Series};
pub use coincide::*;
use compare::mean_over_flows;
pub use compare::{compare_chart, compare_link_chart, shared_links, CompareWhat};
use sim_core::aqm::DropReason;

/// Points per line handed to the canvas: enough for a projector, cheap to draw.
pub const MAX_POINTS: usize = 800;
/// Drop markers drawn at most (evenly thinned beyond that).
pub const MAX_DROPS: usize = 3000;
/// Per-flow lines are drawn only for this many flows; beyond it, aggregates only.
pub const MAX_FLOW_LINES: usize = 12;

/// Colour roles: palette indices below [`FLOW_COLORS`] are for aggregates, averages and
/// bands; flow `f` gets [`flow_color`]`(f)`, one of [`FLOW_PALETTE`] colours that never
/// reach a role's, however many flows there are.
pub const FLOW_COLORS: usize = 4;
pub const FLOW_PALETTE: usize = 20;

pub fn flow_color(f: usize) -> usize {
    FLOW_COLORS + f % FLOW_PALETTE
}

#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub label: String,
    pub color: usize,
    pub points: Vec<(f64, f64)>,
    /// Drawn thicker (aggregates, averages).
    pub bold: bool,
    /// Drawn as steps (a value that holds until the next sample, e.g. a decision).
    pub dashed: bool,
    /// Drawn thin and pale: the raw values under their moving average (never counted as
    /// hiding another line).
    pub faint: bool,
}

/// A shaded horizontal band, e.g. [minTh, maxTh), over the times [from, to) (a change
/// moves RED's thresholds: one band per stretch).
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    pub lo: f64,
    pub hi: f64,
    pub label: String,
    pub color: usize,
    pub from: f64,
    pub to: f64,
}

/// Something that happened at a time (Warbler switched on, the warm-up ended).
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    pub t: f64,
    pub label: String,
}

/// A reference level (the paper's figure).
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    pub y: f64,
    pub label: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TimeChart {
    pub title: String,
    /// "time (s)" for runs, "episode" for a learning curve.
    pub x_label: String,
    pub y_label: String,
    pub x_max: f64,
    pub y_min: f64,
    pub y_max: f64,
    pub lines: Vec<Line>,
    pub bands: Vec<Band>,
    pub markers: Vec<Marker>,
    pub levels: Vec<Level>,
    /// The scrubber's time, drawn as a vertical line.
    pub cursor: Option<f64>,
    /// A sentence under the title (why goodput can exceed the link rate).
    pub note: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Scatter {
    pub title: String,
    pub x_max: f64,
    /// Names of the rows (flows or variants), bottom to top.
    pub rows: Vec<String>,
    /// (time, row, colour), drawn as dots
    pub points: Vec<(f64, usize, usize)>,
    pub legend: Vec<(String, usize)>,
    /// (time, row, colour), drawn as rings over the dots (CE marks beside the drops)
    pub rings: Vec<(f64, usize, usize)>,
    pub ring_legend: Vec<(String, usize)>,
    pub markers: Vec<Marker>,
    pub cursor: Option<f64>,
    pub note: Option<String>,
}

/// Horizontal bars with a dashed "fair share" mark.
#[derive(Clone, Debug, PartialEq)]
pub struct Bars {
    pub title: String,
    pub x_label: String,
    /// (label, value, colour)
    pub bars: Vec<(String, f64, usize)>,
    pub fair: Option<f64>,
    /// References drawn as a tick on each bar (a flow's max-min fair share).
    pub refs: Vec<BarRef>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BarRef {
    pub label: String,
    pub color: usize,
    pub dashed: bool,
    /// One per bar, in the bars' order.
    pub values: Vec<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DensityChart {
    pub title: String,
    pub x_label: String,
    pub x_max: f64,
    /// Each curve scaled to its own peak, so wide and narrow distributions both show.
    pub curves: Vec<Line>,
    /// Vertical marks: (x, "P50" or "P95", the flow's colour).
    pub marks: Vec<(f64, String, usize)>,
}

/// Rows × time bins, each cell coloured by a small integer (the queue a flow is in).
#[derive(Clone, Debug, PartialEq)]
pub struct Heatmap {
    pub title: String,
    pub x_max: f64,
    pub rows: Vec<String>,
    /// (time from, time to, row, colour)
    pub cells: Vec<(f64, f64, usize, usize)>,
    pub legend: Vec<(String, usize)>,
    pub markers: Vec<Marker>,
    pub cursor: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ChartData {
    Time(TimeChart),
    Scatter(Scatter),
    Density(DensityChart),
    Bars(Bars),
    Heat(Heatmap),
}

impl ChartData {
    pub fn title(&self) -> &str {
        match self {
            ChartData::Time(c) => &c.title,
            ChartData::Scatter(c) => &c.title,
            ChartData::Density(c) => &c.title,
            ChartData::Bars(c) => &c.title,
            ChartData::Heat(c) => &c.title,
        }
    }

    /// A sentence for screen readers and the chart's alt text.
    pub fn describe(&self) -> String {
        self.describe_with(&self.coincidences())
    }

    /// [`Self::describe`] with the chart's coincidences found already.
    pub fn describe_with(&self, coincide: &[Coincidence]) -> String {
        match self {
            ChartData::Time(c) => {
                let names: Vec<&str> = c.lines.iter().take(6).map(|l| l.label.as_str()).collect();
                let marks: Vec<String> =
                    c.markers.iter().map(|m| format!("{} at {:.1} s", m.label, m.t)).collect();
                let marked =
                    if marks.is_empty() { String::new() } else { format!("; marked: {}", marks.join(", ")) };
                let x = match c.x_label.starts_with("time") {
                    true => format!("over time (0 to {:.0} s)", c.x_max),
                    false => format!("against {} (0 to {:.0})", c.x_label, c.x_max),
                };
                format!("{}: {} {x}: {}{marked}", c.title, c.y_label, names.join(", ")) + &notes(coincide)
            }
            ChartData::Scatter(c) => {
                let rings =
                    if c.rings.is_empty() { String::new() } else { format!(" and {} rings", c.rings.len()) };
                format!("{}: {} dots{rings} over {} rows", c.title, c.points.len(), c.rows.len())
            }
            ChartData::Density(c) => {
                format!("{}: {} distributions of {}", c.title, c.curves.len(), c.x_label) + &notes(coincide)
            }
            ChartData::Bars(c) => {
                let b: Vec<String> = (c.bars.iter().enumerate().take(8))
                    .map(|(i, (l, v, _))| {
                        let refs: Vec<String> = (c.refs.iter())
                            .filter_map(|r| {
                                r.values.get(i).map(|x| format!("{} {:.0} %", r.label, 100.0 * x))
                            })
                            .collect();
                        let refs =
                            if refs.is_empty() { String::new() } else { format!(" ({})", refs.join(", ")) };
                        format!("{l} {:.0} %{refs}", 100.0 * v)
                    })
                    .collect();
                format!("{}: {}", c.title, b.join(", "))
            }
            ChartData::Heat(c) => format!("{}: {} rows over time", c.title, c.rows.len()),
        }
    }

    /// The lines drawn on one another (none for charts without lines).
    pub fn coincidences(&self) -> Vec<Coincidence> {
        match self {
            ChartData::Time(c) => coincidences(&c.lines, c.y_min, c.y_max),
            ChartData::Density(c) => coincidences(&c.curves, 0.0, DENSITY_TOP),
            _ => Vec::new(),
        }
    }
}

fn notes(c: &[Coincidence]) -> String {
    c.iter().map(|c| format!("; {}", c.note)).collect()
}

/// Top of a density chart's axis: curves peak at 1, the P50/P95 ticks sit above.
pub const DENSITY_TOP: f64 = 1.35;

/// What the charts share: the time axis and its annotations.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Frame {
    pub x_max: f64,
    pub markers: Vec<Marker>,
    pub cursor: Option<f64>,
    /// The paper's Jain's index for this experiment, drawn on the fairness chart.
    pub expected_jfi: Option<Level>,
}

/// The charts an earlier run is drawn on, by id, and how many earlier runs are kept.
pub const OVERLAID: [&str; 4] = ["queue", "delay", "goodput", "fairness"];
pub const EARLIER_KEPT: usize = 3;

/// An earlier run: its title and its aggregate lines by chart id.
pub type EarlierRun = (String, Vec<(String, Line)>);

/// A finished run's aggregate lines (the queue, the mean delay, the aggregate goodput,
/// Jain's index) by chart id, to draw under a later run's for comparison.
pub fn aggregate_lines(s: &Series, f: &Frame) -> Vec<(String, Line)> {
    let charts = [queue_chart(s, f), delay_time_chart(s, f, None), throughput_chart(s, f), jfi_chart(s, f)];
    let mut out: Vec<(String, Line)> = (OVERLAID.iter().zip(charts))
        .filter_map(|(id, c)| c.lines.into_iter().find(|l| l.color == 0).map(|l| (id.to_string(), l)))
        .collect();
    // With few flows the delay chart draws each; the earlier run's is their mean.
    if !out.iter().any(|(k, _)| k == "delay") {
        let mean = mean_over_flows(&s.flow_delay_ms, s.t.len(), |_| true);
        out.push(("delay".into(), line("mean over flows", 0, &s.t, &mean)));
    }
    out
}

/// Draws `earlier` (label, its aggregate lines) on the chart `id`, pale, older first;
/// the queue and delay axes grow to hold them.
pub fn overlay_earlier(id: &str, c: &mut TimeChart, earlier: &[EarlierRun]) {
    for (label, lines) in earlier {
        for (_, l) in lines.iter().filter(|(k, _)| k == id) {
            if matches!(id, "queue" | "delay") {
                c.y_max = c.y_max.max(1.05 * l.points.iter().map(|p| p.1).fold(0.0, f64::max));
            }
            let label = format!("earlier: {label}{}", if id == "delay" { " (mean over flows)" } else { "" });
            c.lines.push(Line { label, color: 1, faint: true, bold: false, dashed: false, ..l.clone() });
        }
    }
}

fn line(label: impl Into<String>, color: usize, xs: &[f64], ys: &[f64]) -> Line {
    Line {
        label: label.into(),
        color,
        points: decimate(xs, ys, MAX_POINTS),
        bold: color < FLOW_COLORS,
        dashed: false,
        faint: false,
    }
}

fn max_of<'a>(vals: impl Iterator<Item = &'a f64>) -> f64 {
    vals.copied().filter(|v| v.is_finite()).fold(0.0, f64::max)
}

fn time(title: &str, y_label: &str, f: &Frame, lines: Vec<Line>, y_max: f64) -> TimeChart {
    TimeChart {
        title: title.into(),
        x_label: "time (s)".into(),
        y_label: y_label.into(),
        x_max: f.x_max,
        y_min: 0.0,
        y_max: nice_max(y_max),
        lines,
        bands: Vec::new(),
        markers: f.markers.clone(),
        levels: Vec::new(),
        cursor: f.cursor,
        note: None,
    }
}

/// Label of a flow, with its queue at a multi-queue port (Warbler Fig. 5 groups by queue)
/// and its CCA where the flows' differ ("flow 2 (Q1) · Vegas").
pub fn flow_label(s: &Series, f: usize) -> String {
    let mut label = match s.flow_queue.last().and_then(|q| q.get(f)) {
        Some(q) if !s.queue_cells_series().is_empty() => format!("flow {f} (Q{q})"),
        _ => format!("flow {f}"),
    };
    let mixed = s.flow_cca.iter().any(|c| Some(c) != s.flow_cca.first());
    if let Some(cca) = s.flow_cca.get(f).filter(|_| mixed) {
        label.push_str(" · ");
        label.push_str(cca);
    }
    label
}

impl Series {
    /// Per-queue cells of a multi-queue port (queue-group series counted in cells).
    pub fn queue_cells_series(&self) -> Vec<(&str, &[f64])> {
        self.group("queue")
            .into_iter()
            .filter(|(i, _)| i.unit == "cells")
            .map(|(i, v)| (i.label.as_str(), v))
            .collect()
    }
}

/// Queue length with the discipline's average and the zones between its thresholds shaded
/// (RED's [minTh, maxTh) and [maxTh, 2·maxTh)); for a multi-queue port, each queue's cells.
pub fn queue_chart(s: &Series, f: &Frame) -> TimeChart {
    let cells = s.queue_cells_series();
    if !cells.is_empty() {
        let mut lines: Vec<Line> =
            cells.iter().enumerate().map(|(q, (label, v))| line(*label, flow_color(q), &s.t, v)).collect();
        let mut y_max = cells.iter().map(|(_, v)| max_of(v.iter())).fold(0.0, f64::max);
        if s.device_queue {
            // The device queue under the port counts packets: in cells of full packets here.
            let nic: Vec<f64> = s.nic.iter().map(|n| n * s.cells_per_packet).collect();
            y_max = y_max.max(max_of(nic.iter()));
            let mut l = line("device queue (full packets, in cells)", 2, &s.t, &nic);
            l.dashed = true;
            lines.push(l);
        }
        return time("Switch queues", "cells", f, lines, y_max);
    }
    let mut lines = vec![line(if s.device_queue { "in the queue disc" } else { "queue" }, 0, &s.t, &s.queue)];
    let mut y_max = max_of(s.queue.iter());
    if s.device_queue {
        // Packets wait in the device queue under the disc too: the total is what a packet
        // arriving now has in front of it.
        let total: Vec<f64> = s.queue.iter().zip(&s.nic).map(|(q, n)| q + n).collect();
        let mut nic = line("in the device queue", 2, &s.t, &s.nic);
        nic.dashed = true;
        lines.push(nic);
        y_max = y_max.max(max_of(total.iter()));
        lines.push(line("waiting in all (disc + device)", 3, &s.t, &total));
    }
    if let (Some(avg), Some(info)) =
        (s.avg(), s.info.iter().find(|i| i.group == "queue" && !i.thresholds.is_empty()))
    {
        lines.push(line(&info.label, 1, &s.t, avg));
        y_max = y_max.max(max_of(avg.iter()));
    }
    // The disc's own queues, where it has several (DualPI2's L and C), under its total.
    let sub = s.group("queue").into_iter().filter(|(i, _)| i.unit == "packets" && i.thresholds.is_empty());
    for (k, (info, v)) in sub.enumerate() {
        let mut l = line(&info.label, 4 + k, &s.t, v);
        l.dashed = true;
        lines.push(l);
    }
    let title = match (&s.charted_link, s.device_queue) {
        (Some(l), true) => format!("Queues at {l}: the disc and the device queue under it"),
        (Some(l), false) => format!("Queue at {l}"),
        (None, true) => "Link queues: the disc and the device queue under it".into(),
        (None, false) => "Link queue".into(),
    };
    let mut c = time(&title, "packets", f, lines, y_max);
    let labels = s.info.iter().find(|i| !i.thresholds.is_empty());
    for (h, (from, values)) in s.threshold_history.iter().enumerate() {
        let to = s.threshold_history.get(h + 1).map_or(f64::INFINITY, |n| n.0);
        for (k, w) in values.windows(2).enumerate() {
            let name = |i: usize| {
                labels.and_then(|l| l.thresholds.get(i)).map_or(String::new(), |t| t.label.clone())
            };
            c.bands.push(Band {
                lo: w[0],
                hi: w[1],
                label: format!("[{}, {})", name(k), name(k + 1)),
                color: 2 + k,
                from: *from,
                to,
            });
            c.y_max = c.y_max.max(nice_max(1.1 * w[1]));
        }
    }
    if s.device_queue {
        c.note = Some("The disc only fills once the device queue under it is full (ns-3's flow control): most of the wait can be in the device queue, where no AQM acts.".into());
    }
    c
}

/// The queueing delay each flow's packets met at the bottleneck, interval by interval, with
/// what the disc steers towards (`target`: (from time, ms) steps, where it has one).
pub fn delay_time_chart(s: &Series, f: &Frame, target: Option<(&str, &[(f64, f64)])>) -> TimeChart {
    let mut lines: Vec<Line> = s
        .flow_delay_ms
        .iter()
        .take(MAX_FLOW_LINES)
        .enumerate()
        .map(|(i, v)| line(flow_label(s, i), flow_color(i), &s.t, v))
        .collect();
    let mut y_max = s.flow_delay_ms.iter().take(MAX_FLOW_LINES).map(|v| robust_max(v)).fold(0.0, f64::max);
    if s.flows() > MAX_FLOW_LINES || s.flows() == 0 {
        lines.clear();
    }
    let mean = mean_over_flows(&s.flow_delay_ms, s.t.len(), |_| true);
    if lines.is_empty() {
        y_max = robust_max(&mean);
        lines.push(line("mean over flows", 0, &s.t, &mean));
    }
    if let Some((label, steps)) = target {
        let mut pts: Vec<(f64, f64)> = steps.to_vec();
        if let Some(&(_, last)) = steps.last() {
            pts.push((f.x_max, last));
        }
        y_max = y_max.max(steps.iter().map(|p| p.1).fold(0.0, f64::max) * 1.5);
        lines.push(Line {
            label: label.to_string(),
            color: 1,
            points: pts,
            bold: true,
            dashed: true,
            faint: false,
        });
    }
    let title = s.charted_link.as_ref().map_or("the bottleneck".to_string(), |l| l.clone());
    let mut c = time(&format!("Queueing delay at {title}"), "ms", f, lines, y_max);
    c.note = Some(if s.device_queue {
        "Each flow's packets that started on the wire in the interval: their mean wait in the disc and the device queue together."
    } else {
        "Each flow's packets that started on the wire in the interval: their mean wait in the queue."
    }.into());
    c
}

/// Per-flow goodput and the aggregate; new bytes arriving at the receivers beside it.
pub fn throughput_chart(s: &Series, f: &Frame) -> TimeChart {
    let mut lines = Vec::new();
    if s.flows() <= MAX_FLOW_LINES {
        for (i, v) in s.flow_mbps.iter().enumerate() {
            lines.push(line(flow_label(s, i), flow_color(i), &s.t, v));
        }
    }
    lines.push(line("aggregate goodput", 0, &s.t, &s.goodput_mbps));
    let mut arrival = line("arriving at receivers", 1, &s.t, &s.arrival_mbps);
    arrival.dashed = true;
    lines.push(arrival);
    let mut c =
        time("Goodput", "Mbit/s", f, lines, robust_max(&s.goodput_mbps).max(max_of(s.arrival_mbps.iter())));
    c.note = Some("Goodput is in-order delivery: after a loss is repaired, held data arrives at once and can exceed the link rate; bytes arriving at the receivers cannot.".into());
    cap_at_link(&mut c, s.link_mbps);
    c
}

/// Goodput axes stop at this multiple of the bottleneck's rate.
pub const GOODPUT_CAP: f64 = 1.2;

/// Stops a goodput axis at [`GOODPUT_CAP`] × the link rate (`link_mbps`; nothing when 0):
/// in-order release after a loss can reach 5-10 × the link for a sample, and an axis that
/// shows it squeezes every flow into its bottom tenth. What runs off the top is clipped,
/// and the note says so, how far and why.
pub fn cap_at_link(c: &mut TimeChart, link_mbps: f64) {
    let cap = GOODPUT_CAP * link_mbps;
    if cap <= 0.0 || c.y_max <= cap {
        return;
    }
    c.y_max = cap;
    let peak = max_of(c.lines.iter().flat_map(|l| l.points.iter().map(|p| &p.1)));
    if peak > cap {
        c.note = Some(format!(
            "Axis stops at {GOODPUT_CAP} × the {} Mbit/s bottleneck; spikes above it (up to {:.0} Mbit/s) are clipped: after a loss is repaired, in-order delivery releases held data at once. Arrivals at the receivers stay under the link rate.",
            crate::charts::fmt_tick(link_mbps),
            peak
        ));
    }
}

/// Jain's index over the last second, in its own panel, with the paper's figure.
pub fn jfi_chart(s: &Series, f: &Frame) -> TimeChart {
    let mut c = time(
        "Jain's fairness index (1 s windows)",
        "Jain's index",
        f,
        vec![line("Jain's index", 0, &s.t, &s.jfi)],
        1.0,
    );
    c.y_max = 1.0;
    c.levels.extend(f.expected_jfi.clone());
    c
}

/// Congestion windows in segments.
pub fn cwnd_chart(s: &Series, f: &Frame) -> TimeChart {
    let lines: Vec<Line> = s
        .flow_cwnd
        .iter()
        .take(MAX_FLOW_LINES)
        .enumerate()
        .map(|(i, v)| line(flow_label(s, i), flow_color(i), &s.t, v))
        .collect();
    let y_max = s.flow_cwnd.iter().take(MAX_FLOW_LINES).map(|v| max_of(v.iter())).fold(0.0, f64::max);
    time("Congestion window", "segments", f, lines, y_max)
}

/// Smoothed RTT per flow (the DQN paper's Fig. 3).
pub fn rtt_chart(s: &Series, f: &Frame) -> TimeChart {
    let lines: Vec<Line> = s
        .flow_rtt_ms
        .iter()
        .take(MAX_FLOW_LINES)
        .enumerate()
        .map(|(i, v)| line(flow_label(s, i), flow_color(i), &s.t, v))
        .collect();
    let y_max = s.flow_rtt_ms.iter().take(MAX_FLOW_LINES).map(|v| max_of(v.iter())).fold(0.0, f64::max);
    time("Round-trip time (smoothed)", "ms", f, lines, y_max)
}

pub fn reason_color(r: DropReason) -> usize {
    match r {
        DropReason::Early => 1,
        DropReason::Forced => 3,
        DropReason::Overflow => 0,
        DropReason::Threshold => 4,
    }
}

/// A CE mark's colour by why it was marked: flow colours, apart from the drops' greys and
/// red, so a ring never reads as a drop.
pub fn mark_color(r: DropReason) -> usize {
    match r {
        DropReason::Early => 4,
        DropReason::Forced => 9,
        DropReason::Overflow => 7,
        DropReason::Threshold => 6,
    }
}

/// The reasons in `of`, in a fixed order, each with its colour and `label`'s wording.
fn reason_legend(
    of: &[(f64, u32, DropReason)],
    colour: fn(DropReason) -> usize,
    label: impl Fn(&str) -> String,
) -> Vec<(String, usize)> {
    [DropReason::Early, DropReason::Forced, DropReason::Overflow, DropReason::Threshold]
        .into_iter()
        .filter(|r| of.iter().any(|d| d.2 == *r))
        .map(|r| (label(r.as_str()), colour(r)))
        .collect()
}

/// Every `k`-th drop so that at most `cap` are drawn, spread over the whole run.
fn thinned(drops: &[(f64, u32, DropReason)], cap: usize) -> impl Iterator<Item = &(f64, u32, DropReason)> {
    drops.iter().step_by(drops.len().div_ceil(cap.max(1)).max(1))
}

/// Each drop at the bottleneck (a dot) and each CE mark (a ring): time × flow, coloured by
/// reason.
pub fn drops_chart(s: &Series, f: &Frame) -> Scatter {
    let at = s.charted_link.as_ref().map_or(String::new(), |l| format!(" at {l}"));
    let title = if s.marks.is_empty() { format!("Drops{at}") } else { format!("Drops and ECN marks{at}") };
    // Every drop reaches the page, so their total is known; marks come already thinned by
    // the simulator's history (the summary counts them all).
    let drops_note = (s.drops.len() > MAX_DROPS)
        .then(|| format!("{MAX_DROPS} of {} drops shown, evenly spread", s.drops_seen()));
    let marks_note = (s.marks.len() > MAX_DROPS).then(|| format!("{MAX_DROPS} marks shown, evenly spread"));
    let points =
        |v: &[(f64, u32, DropReason)], colour: fn(DropReason) -> usize| -> Vec<(f64, usize, usize)> {
            thinned(v, MAX_DROPS).map(|&(t, fl, r)| (t, fl as usize, colour(r))).collect()
        };
    let notes: Vec<String> = [drops_note, marks_note].into_iter().flatten().collect();
    Scatter {
        title,
        x_max: f.x_max,
        rows: (0..s.flows()).map(|i| format!("flow {i}")).collect(),
        points: points(&s.drops, reason_color),
        legend: reason_legend(&s.drops, reason_color, |r| format!("dropped: {r}")),
        rings: points(&s.marks, mark_color),
        ring_legend: reason_legend(&s.marks, mark_color, |r| format!("marked CE: {r}")),
        markers: f.markers.clone(),
        cursor: f.cursor,
        note: (!notes.is_empty()).then(|| notes.join("; ")),
    }
}

/// Per-flow backlog KDE at the bottleneck (Warbler Fig. 5), each curve scaled to its peak.
pub fn backlog_chart(s: &Series) -> DensityChart {
    let hi = s.flow_backlog.iter().map(|v| max_of(v.iter())).fold(1.0, f64::max);
    let curves = (0..s.flows().min(MAX_FLOW_LINES))
        .filter_map(|f| s.backlog_density(f, hi).map(|d| (f, d)))
        .map(|(f, d)| scaled_curve(flow_label(s, f), flow_color(f), &d.xs, &d.ys))
        .collect();
    DensityChart {
        title: "Backlog per flow (KDE)".into(),
        x_label: if s.in_cells { "cells" } else { "packets" }.into(),
        x_max: hi,
        curves,
        marks: Vec::new(),
    }
}

/// A density divided by its own peak.
fn scaled_curve(label: String, color: usize, xs: &[f64], ys: &[f64]) -> Line {
    let peak = max_of(ys.iter()).max(1e-300);
    Line {
        label,
        color,
        points: xs.iter().zip(ys).map(|(&x, &y)| (x, y / peak)).collect(),
        bold: false,
        dashed: false,
        faint: false,
    }
}

/// Per-flow queueing-delay KDE with P50 and P95 marks (Warbler Fig. 8).
pub fn delay_chart(s: &Series) -> DensityChart {
    let hi = s.delay_range_ms().max(0.1);
    let mut curves = Vec::new();
    let mut marks = Vec::new();
    for f in 0..s.flows().min(MAX_FLOW_LINES) {
        if let Some(d) = s.delay_density(f, hi) {
            curves.push(scaled_curve(flow_label(s, f), flow_color(f), &d.density.xs, &d.density.ys));
            marks.push((d.p50, "P50".to_string(), flow_color(f)));
            marks.push((d.p95, "P95".to_string(), flow_color(f)));
        }
    }
    DensityChart {
        title: "Queueing delay per flow (KDE, after warm-up)".into(),
        x_label: "ms".into(),
        x_max: hi,
        curves,
        marks,
    }
}

/// Cumulative average backlog of each flow over time (Warbler Fig. 6).
pub fn cumulative_backlog_chart(s: &Series, f: &Frame) -> TimeChart {
    let mut y_max: f64 = 0.0;
    let lines = (0..s.flows().min(MAX_FLOW_LINES))
        .map(|i| {
            let c = s.cumulative_backlog(i);
            y_max = y_max.max(max_of(c.iter()));
            line(flow_label(s, i), flow_color(i), &s.t, &c)
        })
        .collect();
    time("Cumulative average backlog", if s.in_cells { "cells" } else { "packets" }, f, lines, y_max)
}

/// Each flow's share of the aggregate goodput so far (Warbler Fig. 7), as bars.
/// Each flow's share of the aggregate goodput. On a dumbbell the fair share is the same for
/// all; with links each flow's max-min and proportionally fair shares (as shares of their
/// allocations' totals) are ticked on its bar.
pub fn share_chart(s: &Series) -> Bars {
    let means = s.flow_mean_mbps();
    let total: f64 = means.iter().sum();
    let shown = means.len().min(MAX_FLOW_LINES * 2);
    let shares = |v: &[f64]| -> Vec<f64> {
        let all: f64 = v.iter().sum();
        v.iter().take(shown).map(|x| if all > 0.0 { x / all } else { 0.0 }).collect()
    };
    let refs = s.fair_shares.as_ref().map_or(Vec::new(), |(mm, pf)| {
        vec![
            BarRef { label: "max-min fair share".into(), color: 0, dashed: false, values: shares(mm) },
            BarRef { label: "proportionally fair share".into(), color: 1, dashed: true, values: shares(pf) },
        ]
    });
    Bars {
        title: "Share of goodput".into(),
        x_label: "share of the aggregate".into(),
        bars: means
            .iter()
            .enumerate()
            .take(shown)
            .map(|(f, m)| (flow_label(s, f), if total > 0.0 { m / total } else { 0.0 }, flow_color(f)))
            .collect(),
        fair: (!means.is_empty() && refs.is_empty()).then(|| 1.0 / means.len() as f64),
        refs,
    }
}

/// Which queue each flow is in over time (Warbler moving flows between queues).
pub fn queue_map_chart(s: &Series, f: &Frame) -> Option<Heatmap> {
    let k = s.queue_cells_series().len();
    if k < 2 || s.t.is_empty() {
        return None;
    }
    let flows = s.flows().min(64);
    // At most ~300 time columns, each showing the queue at its first sample.
    let per = s.t.len().div_ceil(300).max(1);
    let mut cells = Vec::new();
    for start in (0..s.t.len()).step_by(per) {
        let end = (start + per).min(s.t.len());
        let t0 = if start == 0 { 0.0 } else { s.t[start - 1] };
        for (row, q) in s.flow_queue[start].iter().take(flows).enumerate() {
            cells.push((t0, s.t[end - 1], row, flow_color(*q as usize)));
        }
    }
    Some(Heatmap {
        title: "Flow → queue over time".into(),
        x_max: f.x_max,
        rows: (0..flows).map(|i| format!("flow {i}")).collect(),
        cells,
        legend: (0..k).map(|q| (format!("Q{q}"), flow_color(q))).collect(),
        markers: f.markers.clone(),
        cursor: f.cursor,
    })
}

/// One chart per group of named series beyond the queue's (weights, centroids, PIE's p).
pub fn group_chart(s: &Series, group: &str, f: &Frame) -> TimeChart {
    let g = s.group(group);
    let lines: Vec<Line> =
        g.iter().enumerate().map(|(i, (info, v))| line(&info.label, flow_color(i), &s.t, v)).collect();
    let y_max = g.iter().map(|(_, v)| max_of(v.iter())).fold(0.0, f64::max);
    let unit = g.first().map_or("", |(i, _)| i.unit.as_str());
    let title = match group {
        "weights" => "Queue weights (Bandwidth Allocation Table)".to_string(),
        "centroids" => "Cluster centroids (backlog)".to_string(),
        "clustering" => "Clustering objective (J_pre and the chosen J)".to_string(),
        "moves" => "Flows moved per decision".to_string(),
        "link-queue" => "Queue at each link (packets in its disc and device queue)".to_string(),
        "link-delay" => "Queueing delay at each link (ms)".to_string(),
        "link-utilisation" => "Utilisation of each link (%)".to_string(),
        "link-drops" => "Drops at each link (per s)".to_string(),
        "dualpi2-delay" => "DualPI2: head-of-queue delay (ms)".to_string(),
        "aqm" if unit == "probability" => "The AQM's probabilities".to_string(),
        "aqm" => format!("The AQM's state ({unit})"),
        other => format!("{} ({unit})", other),
    };
    let mut c = time(&title, unit, f, lines, y_max);
    c.note = group_note(group).map(String::from);
    if group == "link-utilisation" {
        c.y_max = 100.0;
    }
    c
}

/// What a group chart's values are, under its title (per link: the queue builds where a route's
/// slowest link is, and only that link's disc then matters).
fn group_note(group: &str) -> Option<&'static str> {
    Some(match group {
        "link-queue" => "At each sample; the queue builds at the slowest link of a route",
        "link-delay" => "Mean wait of the packets that started on its wire in each interval (0 if none did)",
        "link-utilisation" => "Bytes it sent in each interval over what its rate allows",
        "link-drops" => "Drops by its disc in each interval, every reason",
        "dualpi2-delay" => "How long each queue's head packet has waited, at each probability update: the PI controller steers the larger towards its target; the L queue's step marks above 1 ms",
        _ => return None,
    })
}

/// The DQN agent's decisions: the chosen action (cWnd change) over time.
pub fn agent_chart(s: &Series, f: &Frame) -> Option<TimeChart> {
    let pts: Vec<(f64, f64)> =
        s.cc.iter()
            .filter_map(|(t, v)| {
                v.iter()
                    .find(|(k, _)| k == "action")
                    .map(|(_, a)| (*t, sim_core::cc::dqn::ACTIONS[*a as usize] as f64))
            })
            .collect();
    if pts.is_empty() {
        return None;
    }
    let (xs, ys): (Vec<f64>, Vec<f64>) = pts.into_iter().unzip();
    let mut action = line("cWnd change chosen (bytes)", flow_color(0), &xs, &ys);
    action.dashed = true;
    let mut c = time("The agent's decisions (flow 0)", "bytes per decision", f, vec![action], 4000.0);
    c.y_min = -500.0;
    c.y_max = 4500.0;
    Some(c)
}

/// What the DQN agent saw and earned (flow 0): its five normalised features at each
/// decision and the reward of the one before (§3.3.1, §3.3.3), as the run goes.
pub fn agent_state_chart(s: &Series, f: &Frame) -> Option<TimeChart> {
    let labels = [
        ("state_in_flight", "bytes in flight"),
        ("state_cwnd", "cWnd"),
        ("state_rtt", "RTT"),
        ("state_acked", "acknowledged"),
        ("state_ssthresh", "ssThresh"),
        ("reward", "reward"),
    ];
    let mut lines = Vec::new();
    let (mut y_min, mut y_max) = (0.0_f64, 1.0_f64);
    for (i, (key, label)) in labels.iter().enumerate() {
        let (xs, ys): (Vec<f64>, Vec<f64>) = (s.cc.iter())
            .filter_map(|(t, v)| v.iter().find(|(k, _)| k == key).map(|(_, x)| (*t, *x)))
            .unzip();
        if xs.is_empty() {
            continue;
        }
        y_max = y_max.max(robust_max(&ys));
        y_min = y_min.min(ys.iter().copied().fold(0.0, f64::min));
        let mut l = line(*label, if *key == "reward" { 0 } else { flow_color(i) }, &xs, &ys);
        l.bold = *key == "reward";
        lines.push(l);
    }
    if lines.is_empty() {
        return None;
    }
    let mut c =
        time("What the agent sees and earns (flow 0)", "feature (÷ its scale) · reward", f, lines, y_max);
    c.y_min = y_min;
    c.note = Some("Each feature divided by its scale (bytes by the normalisation size, RTT by its ms), as the network reads them; the reward is α·throughput − β·RTT of the decision before.".into());
    Some(c)
}

/// An axis maximum that lets the rare burst run off the top instead of flattening the
/// rest: 1.2 × the 99th percentile (in-order delivery after a loss is very bursty).
pub fn robust_max(v: &[f64]) -> f64 {
    let finite: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    if finite.is_empty() {
        return 1.0;
    }
    let s = sim_core::metrics::stats::sorted(&finite);
    1.2 * sim_core::metrics::stats::quantile_sorted(&s, 0.99)
}

/// Rounds an axis maximum up to 1, 2 or 5 × 10^k so ticks land on round numbers.
pub fn nice_max(v: f64) -> f64 {
    if !v.is_finite() || v <= 0.0 {
        return 1.0;
    }
    let p = 10f64.powi(v.log10().floor() as i32);
    for m in [1.0, 2.0, 5.0, 10.0] {
        if v <= m * p * (1.0 + 1e-9) {
            return m * p;
        }
    }
    10.0 * p
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // the values compared are exact by construction
mod tests;
