//! What each chart shows, prepared from [`Series`] as plain data. Drawing lives in
//! `charts`; this part is tested natively.

use crate::series::{decimate, Series};
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
    /// (time, row, colour)
    pub points: Vec<(f64, usize, usize)>,
    pub legend: Vec<(String, usize)>,
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
                format!(
                    "{}: {} over time (0 to {:.0} s): {}{marked}",
                    c.title,
                    c.y_label,
                    c.x_max,
                    names.join(", ")
                ) + &notes(coincide)
            }
            ChartData::Scatter(c) => {
                format!("{}: {} events over {} rows", c.title, c.points.len(), c.rows.len())
            }
            ChartData::Density(c) => {
                format!("{}: {} distributions of {}", c.title, c.curves.len(), c.x_label) + &notes(coincide)
            }
            ChartData::Bars(c) => {
                let b: Vec<String> =
                    c.bars.iter().take(8).map(|(l, v, _)| format!("{l} {:.0} %", 100.0 * v)).collect();
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

/// Lines that lie on one another where the chart draws them: their indices in drawing order
/// (the first is underneath) and what the legend says ("flows 0-6 coincide", "codel =
/// fq_codel here").
#[derive(Clone, Debug, PartialEq)]
pub struct Coincidence {
    pub members: Vec<usize>,
    pub note: String,
}

/// Two lines read as one when they are at most this share of the axis apart (3 px of a
/// 300 px chart, less than the lines' own width)...
pub const COINCIDE_WITHIN: f64 = 0.01;
/// ... at this share of the places either is drawn (a start-up transient does not part
/// them); below [`COINCIDE_ALL`] the legend gives the share.
pub const COINCIDE_SHARE: f64 = 0.9;
pub const COINCIDE_ALL: f64 = 0.95;
/// Places compared along the x axis.
const PROBES: usize = 256;

/// Groups of lines that coincide on an axis from `y_min` to `y_max` (values beyond it are
/// drawn at its edge, and compared there). Each line joins the first group whose first
/// line it coincides with, so a group's first member is the one drawn underneath.
pub fn coincidences(lines: &[Line], y_min: f64, y_max: f64) -> Vec<Coincidence> {
    let ends = lines.iter().filter_map(|l| Some((l.points.first()?.0, l.points.last()?.0)));
    let (lo, hi) = ends.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (f, l)| (a.min(f), b.max(l)));
    if hi.partial_cmp(&lo) != Some(std::cmp::Ordering::Greater)
        || y_max.partial_cmp(&y_min) != Some(std::cmp::Ordering::Greater)
    {
        return Vec::new();
    }
    let probes: Vec<Vec<Probe>> = lines
        .iter()
        .map(|l| {
            (0..PROBES)
                .map(|i| {
                    if l.faint {
                        return Probe::Off;
                    }
                    let x = lo + (hi - lo) * i as f64 / (PROBES - 1) as f64;
                    match value_at(l, x) {
                        Probe::At(y) => Probe::At(y.clamp(y_min, y_max)),
                        Probe::Off => Probe::Off,
                    }
                })
                .collect()
        })
        .collect();
    let tol = COINCIDE_WITHIN * (y_max - y_min);
    let mut group_of: Vec<Option<usize>> = vec![None; lines.len()];
    // Members, and the least share of agreement with the first member.
    let mut groups: Vec<(Vec<usize>, f64)> = Vec::new();
    for j in 0..lines.len() {
        // Against the first line of each group (or a line alone so far): no chains of
        // lines each a little further from the first.
        let leads = |i: &usize| group_of[*i].is_none_or(|g| groups[g].0[0] == *i);
        let found = (0..j).filter(leads).find_map(|i| agreement(&probes[i], &probes[j], tol).map(|a| (i, a)));
        if let Some((i, share)) = found {
            let g = *group_of[i].get_or_insert_with(|| {
                groups.push((vec![i], 1.0));
                groups.len() - 1
            });
            groups[g].0.push(j);
            groups[g].1 = groups[g].1.min(share);
            group_of[j] = Some(g);
        }
    }
    groups
        .into_iter()
        .map(|(members, share)| {
            let labels: Vec<&str> = members.iter().map(|&m| lines[m].label.as_str()).collect();
            Coincidence { note: coincide_note(&labels, share), members }
        })
        .collect()
}

/// A line at one place along the x axis.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Probe {
    /// Not drawn there: before it starts, after it ends, or in a gap (a NaN: no value in
    /// that interval, e.g. a flow that sent nothing).
    Off,
    At(f64),
}

/// The line's value at `x` as drawn: interpolated, or held for a line drawn as steps.
fn value_at(l: &Line, x: f64) -> Probe {
    let p = &l.points;
    let (Some(first), Some(last)) = (p.first(), p.last()) else { return Probe::Off };
    if x < first.0 || x > last.0 {
        return Probe::Off;
    }
    let i = p.partition_point(|q| q.0 <= x).max(1);
    let a = p[i - 1];
    let y = match p.get(i) {
        Some(b) if !l.dashed && b.0 > a.0 => a.1 + (x - a.0) / (b.0 - a.0) * (b.1 - a.1),
        _ => a.1,
    };
    if y.is_finite() {
        Probe::At(y)
    } else {
        Probe::Off
    }
}

/// The share of places where two lines agree, if they coincide: where both are drawn,
/// within `tol`. Where either is not drawn (a gap, or before it starts or after it ends) it
/// says nothing: a line that is hidden while it runs is hidden all the same.
fn agreement(a: &[Probe], b: &[Probe], tol: f64) -> Option<f64> {
    let (mut seen, mut agree) = (0usize, 0usize);
    for (x, y) in a.iter().zip(b) {
        if let (Probe::At(x), Probe::At(y)) = (x, y) {
            seen += 1;
            agree += usize::from((x - y).abs() <= tol);
        }
    }
    let share = agree as f64 / seen.max(1) as f64;
    (seen >= 8 && share >= COINCIDE_SHARE).then_some(share)
}

/// "flows 0-6 coincide" when every member is a flow, else "codel = fq_codel here"; "over
/// 93 % of the chart" where they part for a while.
fn coincide_note(labels: &[&str], share: f64) -> String {
    let flows: Option<Vec<usize>> = labels.iter().map(|l| flow_number(l)).collect();
    let whole = share >= COINCIDE_ALL;
    let over = format!("over {:.0} % of the chart", (100.0 * share).floor());
    match flows {
        Some(mut f) => {
            f.sort_unstable();
            format!("flows {} coincide{}", spans(&f), if whole { String::new() } else { format!(" {over}") })
        }
        None => format!("{} {}", labels.join(" = "), if whole { "here" } else { &over }),
    }
}

/// The flow a label names ("flow 12 (Q1) · Vegas" is 12).
fn flow_number(label: &str) -> Option<usize> {
    let digits: String = label.strip_prefix("flow ")?.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Sorted numbers as spans in words: [0..6] is "0-6", [0, 1] "0 and 1", [0, 1, 2, 5] "0-2 and 5".
fn spans(n: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < n.len() {
        let mut j = i;
        while j + 1 < n.len() && n[j + 1] == n[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(format!("{}-{}", n[i], n[j]));
        } else {
            parts.extend(n[i..=j].iter().map(usize::to_string));
        }
        i = j + 1;
    }
    match parts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => parts.concat(),
    }
}

/// What the charts share: the time axis and its annotations.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Frame {
    pub x_max: f64,
    pub markers: Vec<Marker>,
    pub cursor: Option<f64>,
    /// The paper's Jain's index for this experiment, drawn on the fairness chart.
    pub expected_jfi: Option<Level>,
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
    let title = if s.device_queue {
        "Bottleneck queues: the disc and the device queue under it"
    } else {
        "Bottleneck queue"
    };
    let mut c = time(title, "packets", f, lines, y_max);
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
    let mut c = time("Queueing delay at the bottleneck", "ms", f, lines, y_max);
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
pub fn drops_chart(s: &Series, f: &Frame) -> Scatter {
    let shown = s.drops.len().min(MAX_DROPS);
    Scatter {
        title: "Drops".into(),
        x_max: f.x_max,
        rows: (0..s.flows()).map(|i| format!("flow {i}")).collect(),
        points: thinned(&s.drops, MAX_DROPS).map(|&(t, fl, r)| (t, fl as usize, reason_color(r))).collect(),
        legend: reason_legend(),
        markers: f.markers.clone(),
        cursor: f.cursor,
        note: (shown < s.drops.len())
            .then(|| format!("{shown} of {} drops shown, evenly spread", s.drops.len())),
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
pub fn share_chart(s: &Series) -> Bars {
    let means = s.flow_mean_mbps();
    let total: f64 = means.iter().sum();
    Bars {
        title: "Share of goodput".into(),
        x_label: "share of the aggregate".into(),
        bars: means
            .iter()
            .enumerate()
            .take(MAX_FLOW_LINES * 2)
            .map(|(f, m)| (flow_label(s, f), if total > 0.0 { m / total } else { 0.0 }, flow_color(f)))
            .collect(),
        fair: (!means.is_empty()).then(|| 1.0 / means.len() as f64),
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
        other => format!("{} ({unit})", other),
    };
    time(&title, unit, f, lines, y_max)
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

/// Per sample, the mean over flows of the values that count (`keep`; NaN for none).
fn mean_over_flows(flows: &[Vec<f64>], n: usize, keep: impl Fn(f64) -> bool) -> Vec<f64> {
    (0..n)
        .map(|k| {
            let v: Vec<f64> = flows
                .iter()
                .filter_map(|f| f.get(k).copied())
                .filter(|x| x.is_finite() && keep(*x))
                .collect();
            if v.is_empty() {
                f64::NAN
            } else {
                v.iter().sum::<f64>() / v.len() as f64
            }
        })
        .collect()
}

/// Compare view: one line per variant on shared axes.
pub fn compare_chart(lanes: &[(&str, &Series)], f: &Frame, what: CompareWhat) -> TimeChart {
    let pick = |s: &Series| -> (Vec<f64>, Vec<f64>) {
        match what {
            // Every packet waiting at the bottleneck: the disc's and the device queue's.
            CompareWhat::Queue => (s.t.clone(), s.queue.iter().zip(&s.nic).map(|(q, n)| q + n).collect()),
            CompareWhat::Delay => (s.t.clone(), mean_over_flows(&s.flow_delay_ms, s.t.len(), |_| true)),
            CompareWhat::Rtt => (s.t.clone(), mean_over_flows(&s.flow_rtt_ms, s.t.len(), |v| v > 0.0)),
            CompareWhat::Goodput => (s.t.clone(), s.goodput_mbps.clone()),
            CompareWhat::Jfi => (s.t.clone(), s.jfi.clone()),
            CompareWhat::Drops => {
                let xs: Vec<f64> = s.drops.iter().map(|d| d.0).collect();
                let ys: Vec<f64> = (1..=xs.len()).map(|i| i as f64).collect();
                (xs, ys)
            }
        }
    };
    let mut y_max: f64 = 0.0;
    let lines = lanes
        .iter()
        .enumerate()
        .map(|(i, (name, s))| {
            let (xs, ys) = pick(s);
            let robust = matches!(what, CompareWhat::Goodput | CompareWhat::Delay | CompareWhat::Rtt);
            y_max = y_max.max(if robust { robust_max(&ys) } else { max_of(ys.iter()) });
            line(*name, flow_color(i), &xs, &ys)
        })
        .collect();
    let (title, unit) = match what {
        CompareWhat::Queue => {
            ("Packets waiting at the bottleneck (disc + device queue), side by side", "packets")
        }
        CompareWhat::Delay => ("Queueing delay (mean over flows), side by side", "ms"),
        CompareWhat::Rtt => ("Round-trip time (mean over flows), side by side", "ms"),
        CompareWhat::Goodput => ("Goodput, side by side", "Mbit/s"),
        CompareWhat::Jfi => ("Jain's index, side by side", "Jain's index"),
        CompareWhat::Drops => ("Cumulative drops, side by side", "drops"),
    };
    let mut c = time(title, unit, f, lines, y_max);
    if what == CompareWhat::Goodput {
        cap_at_link(&mut c, lanes.iter().map(|(_, s)| s.link_mbps).fold(0.0, f64::max));
    }
    if what == CompareWhat::Jfi {
        c.y_max = 1.0;
        c.levels.extend(f.expected_jfi.clone());
    }
    c
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareWhat {
    Queue,
    Delay,
    Rtt,
    Goodput,
    Jfi,
    Drops,
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
mod tests {
    use super::*;
    use sim_core::scenario::preset;
    use sim_core::sim::Simulation;

    fn run(name: &str, variant: &str, duration: f64) -> Series {
        let mut sc = preset(name, Some(variant)).unwrap();
        sc.duration_s = duration;
        run_scenario(&sc)
    }

    fn run_scenario(sc: &sim_core::scenario::Scenario) -> Series {
        let mut sc = sc.clone();
        sc.warmup_s = sc.warmup_s.min(sc.duration_s / 2.0);
        let mut sim = Simulation::new(&sc).unwrap();
        sim.finish();
        let mut s = Series::new(
            sc.total_flows() as usize,
            sc.sample_interval_s,
            sc.tcp.mss_bytes,
            matches!(sc.bottleneck.queue.limit(), sim_core::queue::QueueLimit::Cells { .. }),
            &sim.recorder().series_info,
        );
        s.flow_cca = crate::labels::flow_ccas(&sc);
        s.link_mbps = crate::state::peak_rate_bps(&sc) / 1e6;
        s.push(&sim.poll(), &[]);
        s.set_delays(sim.recorder().window.flows.iter().map(|f| f.delay.clone()).collect());
        s
    }

    fn frame() -> Frame {
        Frame { x_max: 60.0, ..Frame::default() }
    }

    #[test]
    fn queue_chart_shades_both_red_zones_and_fits_them() {
        let c = queue_chart(&run("red-study", "gentle", 4.0), &frame());
        assert_eq!(c.bands.len(), 2);
        assert_eq!((c.bands[1].lo, c.bands[1].hi), (10.0, 20.0));
        assert!(c.y_max >= 22.0);
        assert_eq!(c.lines.len(), 2);
    }

    /// Over ns-3's device queue the queue chart draws the disc, the device queue and
    /// their total; the delay chart draws each flow, broken where a flow sent nothing.
    #[test]
    fn every_queue_a_packet_waits_in_is_drawn_and_the_delay_over_time_too() {
        let mut s = run("red-study", "red", 6.0);
        s.device_queue = true;
        let c = queue_chart(&s, &frame());
        let labels: Vec<&str> = c.lines.iter().map(|l| l.label.as_str()).collect();
        assert!(
            labels.contains(&"in the device queue") && labels.contains(&"waiting in all (disc + device)"),
            "{labels:?}"
        );
        let total = &c.lines.iter().find(|l| l.label.starts_with("waiting in all")).unwrap().points;
        assert!(total.iter().any(|p| p.1 > 90.0), "the device queue's 100 packets are in the total");
        let d = delay_time_chart(&s, &frame(), None);
        assert_eq!(d.lines.len(), 10);
        assert!(d.y_max >= 200.0, "RED's wait is mostly the device queue's: {}", d.y_max);
    }

    /// CoDel's target is drawn as a step line that follows a timed change of it.
    #[test]
    fn the_delay_chart_draws_the_discs_target_through_its_changes() {
        let s = run("bufferbloat", "codel", 4.0);
        let steps = [(0.0, 5.0), (2.0, 20.0)];
        let d = delay_time_chart(&s, &frame(), Some(("CoDel target", &steps)));
        let t = d.lines.iter().find(|l| l.label == "CoDel target").unwrap();
        assert_eq!(t.points, vec![(0.0, 5.0), (2.0, 20.0), (60.0, 20.0)]);
        assert!(t.dashed && d.y_max >= 30.0);
        let c = compare_chart(&[("codel", &s)], &frame(), CompareWhat::Delay);
        assert!(c.lines[0].points.iter().filter(|p| p.1.is_finite()).count() > 30);
    }

    #[test]
    fn a_switch_port_draws_its_queues_and_warbler_its_groups_and_queue_map() {
        let s = run("cubic-bbr-vegas-3q", "warbler", 8.0);
        assert_eq!(queue_chart(&s, &frame()).lines.len(), 3);
        let groups = s.extra_groups();
        for g in ["weights", "clustering", "centroids"] {
            assert!(groups.iter().any(|x| x == g), "{g} missing from {groups:?}");
        }
        let map = queue_map_chart(&s, &frame()).unwrap();
        assert_eq!(map.rows.len(), 6);
        assert!(!map.cells.is_empty());
    }

    #[test]
    fn a_flows_label_names_its_cca_only_where_the_groups_differ() {
        let mixed = run("cubic-bbr-vegas-3q", "warbler", 2.0);
        let labels: Vec<String> =
            cwnd_chart(&mixed, &frame()).lines.iter().map(|l| l.label.clone()).collect();
        assert!(labels[0].starts_with("flow 0 (Q") && labels[0].ends_with(" · CUBIC"), "{labels:?}");
        assert!(labels[5].ends_with(" · Vegas"), "{labels:?}");
        let same = cwnd_chart(&run("red-study", "red", 2.0), &frame());
        assert_eq!(same.lines[3].label, "flow 3");
    }

    #[test]
    fn goodput_has_a_line_per_flow_the_aggregate_and_the_arrivals() {
        let c = throughput_chart(&run("red-study", "gentle", 4.0), &frame());
        assert_eq!(c.lines.len(), 12);
        assert!(c.note.is_some());
    }

    #[test]
    fn goodput_axes_stop_near_the_link_and_say_what_they_clip() {
        let mut s = run("bufferbloat", "fifo", 40.0);
        assert!(max_of(s.goodput_mbps.iter()) > 3.0 * s.link_mbps, "FIFO's in-order release spikes");
        let c = throughput_chart(&s, &frame());
        assert_eq!(c.y_max, GOODPUT_CAP * 10.0);
        let note = c.note.unwrap();
        assert!(note.contains("10 Mbit/s bottleneck") && note.contains("clipped"), "{note}");
        let cmp = compare_chart(&[("fifo", &s)], &frame(), CompareWhat::Goodput);
        assert_eq!(cmp.y_max, 12.0);
        assert!(cmp.note.is_some_and(|n| n.contains("clipped")));
        // Under a faster link nothing is clipped: the axis is the data's, the note the usual.
        s.link_mbps = 1000.0;
        let c = throughput_chart(&s, &frame());
        assert!(c.y_max > 12.0 && !c.note.unwrap().contains("clipped"));
    }

    #[test]
    fn the_peak_rate_is_the_highest_through_the_timed_changes() {
        let mut sc = preset("bufferbloat", Some("fifo")).unwrap();
        assert_eq!(crate::state::peak_rate_bps(&sc), 10e6);
        sc.changes.push(sim_core::scenario::TimedChange {
            at_s: 5.0,
            set: "bottleneck.rate_bps".into(),
            to: serde_json::json!(25_000_000),
        });
        assert_eq!(crate::state::peak_rate_bps(&sc), 25e6);
    }

    #[test]
    fn drops_are_plotted_on_their_flows_row() {
        let s = run("red-study", "gentle", 4.0);
        let c = drops_chart(&s, &frame());
        assert_eq!(c.points.len(), s.drops.len());
        assert!(c.points.iter().all(|&(_, row, _)| row < 10));
    }

    #[test]
    fn every_density_is_scaled_to_its_own_peak() {
        let s = run("red-study", "gentle", 4.0);
        for c in [delay_chart(&s), backlog_chart(&s)] {
            assert!(!c.curves.is_empty());
            for curve in &c.curves {
                let peak = curve.points.iter().map(|p| p.1).fold(0.0, f64::max);
                assert!((peak - 1.0).abs() < 1e-9, "{} peaks at {peak}", curve.label);
            }
        }
        assert_eq!(delay_chart(&s).marks.len(), 2 * delay_chart(&s).curves.len());
    }

    #[test]
    fn shares_sum_to_one_and_mark_the_fair_share() {
        let c = share_chart(&run("red-study", "gentle", 4.0));
        let sum: f64 = c.bars.iter().map(|b| b.1).sum();
        assert!((sum - 1.0).abs() < 1e-9);
        assert!((c.fair.unwrap() - 0.1).abs() < 1e-12);
    }

    #[test]
    fn the_fairness_panel_carries_the_papers_figure() {
        let f = Frame { expected_jfi: Some(Level { y: 0.99, label: "paper".into() }), ..frame() };
        let c = jfi_chart(&run("red-study", "red", 3.0), &f);
        assert_eq!(c.levels.len(), 1);
        assert_eq!(c.y_max, 1.0);
    }

    #[test]
    fn compare_drops_are_cumulative_counts_per_lane() {
        let a = run("red-study", "red", 3.0);
        let b = run("red-study", "gentle", 3.0);
        let c = compare_chart(&[("red", &a), ("gentle", &b)], &frame(), CompareWhat::Drops);
        assert_eq!(c.lines.len(), 2);
        assert_eq!(c.lines[0].points.last().unwrap().1, a.drops.len() as f64);
    }

    fn flat(label: &str, ys: impl Fn(usize) -> f64) -> Line {
        let xs: Vec<f64> = (0..400).map(|i| f64::from(i) * 0.1).collect();
        let ys: Vec<f64> = (0..400).map(ys).collect();
        line(label, 4, &xs, &ys)
    }

    #[test]
    fn lines_within_a_hundredth_of_the_axis_coincide_and_two_hundredths_part() {
        let base = |i: usize| 5.0 + (i as f64 * 0.05).sin() * 4.0;
        let lines = vec![flat("a", base), flat("b", |i| base(i) + 0.5), flat("c", |i| base(i) + 2.0)];
        let c = coincidences(&lines, 0.0, 100.0);
        assert_eq!(c, vec![Coincidence { members: vec![0, 1], note: "a = b here".into() }]);
        // The same half unit on an axis ten times as tall is closer still; on one ten
        // times shorter it parts them too.
        assert_eq!(coincidences(&lines, 0.0, 1000.0)[0].members, vec![0, 1, 2]);
        assert!(coincidences(&lines, 0.0, 10.0).is_empty());
    }

    #[test]
    fn a_brief_excursion_keeps_lines_together_a_long_one_parts_them() {
        let base = |_: usize| 10.0;
        let brief = flat("brief", |i| if (100..110).contains(&i) { 30.0 } else { 10.0 });
        let longer = flat("longer", |i| if (100..130).contains(&i) { 30.0 } else { 10.0 });
        let long = flat("long", |i| if (100..160).contains(&i) { 30.0 } else { 10.0 });
        let c = coincidences(&[flat("base", base), brief, longer, long], 0.0, 40.0);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].members, vec![0, 1, 2]);
        // The least agreement in the group: "longer" parts from "base" for 30 of 400 samples.
        assert_eq!(c[0].note, "base = brief = longer over 92 % of the chart");
    }

    #[test]
    fn a_line_is_compared_only_where_it_is_drawn() {
        let base = |_: usize| 10.0;
        // A gap (no value in an interval) says nothing, nor does the end of a line that
        // stops: while drawn, both lie under the base line.
        let gappy = flat("gappy", |i| if i % 3 == 0 { f64::NAN } else { 10.0 });
        let stops = flat("stops", |i| if i < 200 { 10.0 } else { f64::NAN });
        let c = coincidences(&[flat("base", base), gappy, stops], 0.0, 40.0);
        assert_eq!(c[0].note, "base = gappy = stops here");
        // Values beyond the axis are drawn at its edge: two spikes off the top coincide.
        let spikes = [flat("x", |i| 500.0 + i as f64), flat("y", |i| 900.0 - i as f64)];
        assert_eq!(coincidences(&spikes, 0.0, 100.0).len(), 1);
        // Lines with nothing drawn in common do not.
        let early = flat("early", |i| if i < 100 { 10.0 } else { f64::NAN });
        let late = flat("late", |i| if i >= 100 { 10.0 } else { f64::NAN });
        assert!(coincidences(&[early, late], 0.0, 40.0).is_empty());
    }

    #[test]
    fn the_legend_names_coinciding_flows_by_span() {
        let same: Vec<Line> = (0..7).map(|f| flat(&format!("flow {f} · NewReno"), |i| i as f64)).collect();
        let c = coincidences(&same, 0.0, 400.0);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].note, "flows 0-6 coincide");
        assert_eq!(spans(&[0, 1]), "0 and 1");
        assert_eq!(spans(&[0, 1, 2, 5]), "0-2 and 5");
        assert_eq!(spans(&[1, 3, 5]), "1, 3 and 5");
        assert_eq!(flow_number("flow 12 (Q1) · Vegas"), Some(12));
        assert_eq!(flow_number("aggregate goodput"), None);
    }

    #[test]
    fn in_a_fifo_every_flows_delay_coincides_and_the_text_alternative_says_so() {
        let s = run("bufferbloat", "fifo", 40.0);
        let c = ChartData::Time(delay_time_chart(&s, &frame(), None));
        let groups = c.coincidences();
        assert_eq!(groups.len(), 1, "{groups:?}");
        assert_eq!(groups[0].note, "flows 0-3 coincide");
        assert!(c.describe().ends_with("; flows 0-3 coincide"), "{}", c.describe());
        // Their goodputs do not.
        assert!(ChartData::Time(throughput_chart(&s, &frame())).coincidences().is_empty());
    }

    #[test]
    fn codel_and_fq_codel_coincide_in_compares_delay_fifo_stands_apart() {
        let lanes: Vec<(String, Series)> = ["fifo", "codel", "fq_codel"]
            .iter()
            .map(|d| {
                (
                    d.to_string(),
                    run_scenario(&crate::compare::with_disc(&preset("bufferbloat", None).unwrap(), d)),
                )
            })
            .collect();
        let refs: Vec<(&str, &Series)> = lanes.iter().map(|(l, s)| (l.as_str(), s)).collect();
        let c = compare_chart(&refs, &frame(), CompareWhat::Delay);
        let g = coincidences(&c.lines, c.y_min, c.y_max);
        assert_eq!(g.len(), 1, "{g:?}");
        assert_eq!(g[0].members, vec![1, 2]);
        // They part only in the first second or two, while the flows start.
        assert_eq!(g[0].note, "codel = fq_codel here");
    }

    #[test]
    fn nice_max_rounds_up_to_one_two_five() {
        assert_eq!(nice_max(7.3), 10.0);
        assert_eq!(nice_max(1.2), 2.0);
        assert_eq!(nice_max(0.031), 0.05);
        assert_eq!(nice_max(0.0), 1.0);
    }
}
