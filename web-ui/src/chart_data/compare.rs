//! Compare: one line per lane on shared axes.

use super::*;

/// Per sample, the mean over flows of the values that count (`keep`; NaN for none).
pub(super) fn mean_over_flows(flows: &[Vec<f64>], n: usize, keep: impl Fn(f64) -> bool) -> Vec<f64> {
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

/// The links every lane has, by name, in the first lane's order (scenarios with links).
pub fn shared_links(lanes: &[(&str, &Series)]) -> Vec<String> {
    let names =
        |s: &Series| -> Vec<String> { s.group("link-queue").iter().map(|(i, _)| i.label.clone()).collect() };
    let first = lanes.first().map(|(_, s)| names(s)).unwrap_or_default();
    first.into_iter().filter(|n| lanes.iter().all(|(_, s)| names(s).contains(n))).collect()
}

/// Compare for one link: its queue (`link-queue`) or queueing delay (`link-delay`) in every
/// lane, one line each.
pub fn compare_link_chart(lanes: &[(&str, &Series)], f: &Frame, link: &str, group: &str) -> TimeChart {
    let mut y_max: f64 = 0.0;
    let lines = (lanes.iter().enumerate())
        .filter_map(|(i, (name, s))| {
            let g = s.group(group);
            let (_, v) = g.iter().find(|(info, _)| info.label == link)?;
            y_max = y_max.max(max_of(v.iter()));
            Some(line(*name, flow_color(i), &s.t, v))
        })
        .collect();
    let (title, unit) = match group {
        "link-delay" => (format!("Queueing delay at {link}, side by side"), "ms"),
        _ => (format!("Packets waiting at {link} (disc + device queue), side by side"), "packets"),
    };
    time(&title, unit, f, lines, y_max)
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
