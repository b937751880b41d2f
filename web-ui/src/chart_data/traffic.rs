//! The charts of traffic beyond long flows: each ping's RTT, each repeated transfer's
//! completion time (a page fetch, an answer to a query), the completion-time CDF and the
//! slowdown by flow size (the datacentre papers' figure).

use super::{flow_color, line, nice_max, robust_max, time, Frame, Line, TimeChart, MAX_FLOW_LINES};
use crate::series::Series;
use sim_core::metrics::fct::{self, Completion};
use sim_core::scenario::Scenario;
use sim_core::traffic::Pattern;

/// Points of a CDF line at most.
const CDF_POINTS: usize = 200;

/// Each ping's round trip at the time it was sent, a line per ping flow; `None` without pings.
pub fn ping_chart(s: &Series, f: &Frame) -> Option<TimeChart> {
    if s.pings.is_empty() {
        return None;
    }
    let flows = distinct(s.pings.iter().map(|p| p.flow));
    // A flow's packets keep their order on every link: its answers come in sending order.
    let lines: Vec<Line> = (flows.iter().take(MAX_FLOW_LINES))
        .map(|&fl| {
            let (xs, ys): (Vec<f64>, Vec<f64>) =
                s.pings.iter().filter(|p| p.flow == fl).map(|p| (p.sent_s, p.rtt_ms)).unzip();
            line(format!("ping (flow {fl})"), flow_color(fl as usize), &xs, &ys)
        })
        .collect();
    let rtts: Vec<f64> = s.pings.iter().map(|p| p.rtt_ms).collect();
    let mut c = time("Ping round-trip time", "ms", f, lines, robust_max(&rtts));
    c.note = Some("One point per echo request, at the time it left: it waits in the same queues as the flows' packets, so it reads the delay they cause (what a video call or a game feels).".into());
    Some(c)
}

/// The share of pings answered within each RTT, a line per ping flow; `None` without pings.
pub fn ping_cdf_chart(s: &Series) -> Option<TimeChart> {
    if s.pings.is_empty() {
        return None;
    }
    let flows = distinct(s.pings.iter().map(|p| p.flow));
    let mut x_max: f64 = 0.0;
    let lines = (flows.iter().take(MAX_FLOW_LINES))
        .map(|&fl| {
            let of: Vec<f64> = s.pings.iter().filter(|p| p.flow == fl).map(|p| p.rtt_ms).collect();
            let (points, p99) = cdf(&of);
            x_max = x_max.max(p99);
            Line {
                label: format!("ping (flow {fl})"),
                color: flow_color(fl as usize),
                points,
                bold: false,
                dashed: false,
                faint: false,
            }
        })
        .collect();
    Some(cdf_chart("Ping round-trip time (CDF)", "round-trip time (ms)", "share of pings", x_max, lines,
        "Each curve: the share of a ping's answers that came back within a time; the axis stops at the slowest 1 %."))
}

/// A CDF line's points (at most [`CDF_POINTS`] and the last) and its 99th percentile.
fn cdf(values: &[f64]) -> (Vec<(f64, f64)>, f64) {
    let v = sim_core::metrics::stats::sorted(values);
    let n = v.len().max(1);
    let step = n.div_ceil(CDF_POINTS).max(1);
    let mut points: Vec<(f64, f64)> =
        (0..v.len()).step_by(step).map(|i| (v[i], (i + 1) as f64 / n as f64)).collect();
    if let Some(&last) = v.last() {
        points.push((last, 1.0));
    }
    let p99 = v.get(((n as f64 * 0.99).ceil() as usize).clamp(1, n) - 1).copied().unwrap_or(0.0);
    (points, p99)
}

/// A CDF's chart: the share (0-1) against values up to `x_max`.
fn cdf_chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    x_max: f64,
    lines: Vec<Line>,
    note: &str,
) -> TimeChart {
    TimeChart {
        title: title.into(),
        x_label: x_label.into(),
        y_label: y_label.into(),
        x_max: nice_max(x_max),
        y_min: 0.0,
        y_max: 1.0,
        lines,
        bands: Vec::new(),
        markers: Vec::new(),
        levels: Vec::new(),
        cursor: None,
        note: Some(note.into()),
    }
}

/// Each transfer of a repeated source (a page fetch, incast's answers) by when it was asked
/// for: its completion time, a line per group; `None` without one.
pub fn transfer_chart(s: &Series, sc: &Scenario, f: &Frame) -> Option<TimeChart> {
    let repeated = |g: u32| {
        sc.flows.get(g as usize).is_some_and(|g| matches!(g.arrivals.pattern(), Pattern::Every { .. }))
    };
    let groups = distinct(s.transfers.iter().map(|t| t.group).filter(|&g| repeated(g)));
    if groups.is_empty() {
        return None;
    }
    let lines: Vec<Line> = (groups.iter().take(MAX_FLOW_LINES))
        .map(|&g| {
            let pts = by_arrival(s.transfers.iter().filter(|t| t.group == g).map(|t| (t.arrived_s, t.fct_s)));
            let (xs, ys): (Vec<f64>, Vec<f64>) = pts.into_iter().unzip();
            line(format!("group {}", g + 1), flow_color(g as usize), &xs, &ys)
        })
        .collect();
    let fcts: Vec<f64> = s.transfers.iter().filter(|t| repeated(t.group)).map(|t| t.fct_s).collect();
    let mut c = time("Completion time of each repeated transfer", "s", f, lines, robust_max(&fcts));
    c.note = Some("One point per transfer (a page fetch, a server's answer), at the time it was asked for: from then to the ACK of its last byte, a wait for a free connection included.".into());
    Some(c)
}

/// The distinct values, in the order they first come (a handful of groups or ping flows).
fn distinct(v: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut out = Vec::new();
    for x in v {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

/// Points in the order they were asked for. Transfers are recorded as they complete, which
/// is nearly that order already (a later one seldom overtakes), so an insertion pass does it.
fn by_arrival(points: impl Iterator<Item = (f64, f64)>) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::new();
    for p in points {
        let mut i = out.len();
        while i > 0 && out[i - 1].0 > p.0 {
            i -= 1;
        }
        out.insert(i, p);
    }
    out
}

/// The completed transfers as the summary computes them, with their ideals.
fn completions(s: &Series, sc: &Scenario) -> Vec<Completion> {
    (s.transfers.iter())
        .filter(|t| (t.group as usize) < sc.flows.len())
        .map(|t| Completion::of(sc, t.flow, t.group, t.bytes, t.arrived_s, t.arrived_s + t.fct_s))
        .collect()
}

/// The share of transfers completed within each time, a line per group; `None` without any.
pub fn fct_cdf_chart(s: &Series, sc: &Scenario) -> Option<TimeChart> {
    let done = completions(s, sc);
    if done.is_empty() {
        return None;
    }
    let groups = distinct(done.iter().map(|c| c.group));
    let mut x_max: f64 = 0.0;
    let lines = (groups.iter().take(MAX_FLOW_LINES))
        .map(|&g| {
            let of: Vec<f64> = done.iter().filter(|c| c.group == g).map(|c| c.fct_s).collect();
            let (points, p99) = cdf(&of);
            x_max = x_max.max(p99);
            Line {
                label: format!("group {}", g + 1),
                color: flow_color(g as usize),
                points,
                bold: false,
                dashed: false,
                faint: false,
            }
        })
        .collect();
    Some(cdf_chart("Completion times (CDF)", "completion time (s)", "share of transfers", x_max, lines,
        "Each curve: the share of a group's finite flows and transfers done within a time, from arrival to the ACK of the last byte; the axis stops at the slowest 1 %."))
}

/// Slowdown (completion time over the same transfer alone on an empty path) by flow size,
/// the datacentre papers' figure: the median, 95th and 99th percentiles of each size decade,
/// both axes in powers of ten (a slowdown spans 1 to thousands); `None` without transfers.
pub fn slowdown_chart(s: &Series, sc: &Scenario) -> Option<TimeChart> {
    let stats = fct::stats(&completions(s, sc), 0)?;
    let rows = &stats.by_size;
    if rows.is_empty() {
        return None;
    }
    // Each decade at its middle: under 10 kB at 10^3.5 bytes, 10-100 kB at 10^4.5...
    let x = |r: &fct::FctRow| r.max_bytes.map_or(r.min_bytes as f64 * 10.0, |m| m as f64).log10() - 0.5;
    let curve = |label: &str, color: usize, bold: bool, pick: fn(&fct::FctRow) -> f64| Line {
        label: label.into(),
        color,
        points: rows.iter().map(|r| (x(r), pick(r).max(1.0).log10())).collect(),
        bold,
        dashed: false,
        faint: false,
    };
    let lines = vec![
        curve("median", 0, true, |r| r.slowdown_p50),
        curve("95th percentile", 1, false, |r| r.slowdown_p95),
        curve("99th percentile", 3, false, |r| r.slowdown_p99),
    ];
    let top = rows.iter().map(|r| r.slowdown_p99.max(1.0).log10()).fold(1.0, f64::max);
    let flows: Vec<String> = rows.iter().map(|r| format!("{} {}", r.sizes(), r.flows)).collect();
    Some(TimeChart {
        title: "Slowdown by flow size".into(),
        x_label: "flow size, powers of ten (4 = 10 kB, 6 = 1 MB)".into(),
        y_label: "slowdown, powers of ten".into(),
        x_max: 8.0,
        y_min: 0.0,
        y_max: nice_max(top),
        lines,
        bands: Vec::new(),
        markers: Vec::new(),
        levels: Vec::new(),
        cursor: None,
        note: Some(format!(
            "Completion time over the same flow alone on an empty path, per size decade: 0 = as fast as alone, 1 = ten times slower, 2 = a hundred. Flows per decade: {}.",
            flows.join(", ")
        )),
    })
}
