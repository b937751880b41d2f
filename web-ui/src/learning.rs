//! The DQN's learning curve as charts: each episode's return faint under its moving average
//! on an axis that a few extreme episodes do not stretch, ε and the TD loss each on an axis
//! of its own, and the recent action mix. Plain Rust, tested natively.

use crate::chart_data::{nice_max, Bars, ChartData, Line, TimeChart, FLOW_COLORS};
use sim_core::metrics::stats::{quantile_sorted, sorted};
use sim_core::train::EpisodeReport;

/// The action names, in the agent's order.
const ACTIONS: [&str; 4] = ["hold (0)", "+1500 bytes", "−150 bytes", "+4000 bytes"];

/// A line of points as given.
pub fn line(label: &str, color: usize, points: Vec<(f64, f64)>) -> Line {
    Line { label: label.into(), color, points, bold: false, dashed: false, faint: false }
}

/// A chart over `x_max` whose axis holds every point of its lines.
pub fn time_chart(title: &str, x_label: &str, y_label: &str, x_max: f64, lines: Vec<Line>) -> ChartData {
    let y_max = lines.iter().flat_map(|l| l.points.iter().map(|p| p.1)).fold(0.0, f64::max);
    let y_min = lines.iter().flat_map(|l| l.points.iter().map(|p| p.1)).fold(0.0, f64::min);
    let range = (if y_min < 0.0 { -nice_max(-y_min) } else { 0.0 }, nice_max(y_max));
    ChartData::Time(chart(title, x_label, y_label, x_max, range, lines))
}

fn chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    x_max: f64,
    y: (f64, f64),
    lines: Vec<Line>,
) -> TimeChart {
    TimeChart {
        title: title.into(),
        x_label: x_label.into(),
        y_label: y_label.into(),
        x_max: x_max.max(1.0),
        y_min: y.0,
        y_max: y.1,
        lines,
        bands: Vec::new(),
        markers: Vec::new(),
        levels: Vec::new(),
        cursor: None,
        note: None,
    }
}

/// The trailing mean over the last `window` points (fewer at the start).
pub fn moving_average(points: &[(f64, f64)], window: usize) -> Vec<(f64, f64)> {
    let window = window.max(1);
    let mut sum = 0.0;
    points
        .iter()
        .enumerate()
        .map(|(i, &(x, y))| {
            sum += y;
            if i >= window {
                sum -= points[i - window].1;
            }
            (x, sum / (i + 1).min(window) as f64)
        })
        .collect()
}

/// An axis for `values` that the extreme few do not stretch: from the 5th to the 95th
/// percentile, widened by a sixth each way (and to 0 when that is near), with whether any
/// value falls outside it.
pub fn robust_range(values: &[f64]) -> ((f64, f64), bool) {
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    if finite.is_empty() {
        return ((0.0, 1.0), false);
    }
    let s = sorted(&finite);
    let (lo, hi) = (quantile_sorted(&s, 0.05), quantile_sorted(&s, 0.95));
    let pad = ((hi - lo) / 6.0).max(1e-9 + hi.abs() * 0.05);
    let (mut a, mut b) = (lo - pad, hi + pad);
    if a > 0.0 && a < (b - a) {
        a = 0.0;
    }
    if b < 0.0 && -b < (b - a) {
        b = 0.0;
    }
    ((a, b), s[0] < a || s[s.len() - 1] > b)
}

/// Episodes the moving average spans: about a twentieth of the run, at least 5.
pub fn smoothing_window(episodes: usize) -> usize {
    (episodes / 20).max(5)
}

/// A faint line of raw values (`name`, `names` in the plural), its moving average over it,
/// on a robust axis.
fn smoothed(
    title: &str,
    y_label: &str,
    (name, names): (&str, &str),
    color: usize,
    raw: Vec<(f64, f64)>,
    x_max: f64,
) -> TimeChart {
    let w = smoothing_window(raw.len());
    let ys: Vec<f64> = raw.iter().map(|p| p.1).collect();
    let (range, clipped) = robust_range(&ys);
    let mut avg = line(&format!("mean of the last {w}"), color, moving_average(&raw, w));
    avg.bold = true;
    let mut faint = line(&format!("{name}, each episode"), color, raw);
    faint.faint = true;
    let mut c = chart(title, "episode", y_label, x_max, range, vec![faint, avg]);
    if clipped {
        c.note = Some(format!(
            "The axis spans the 5th to the 95th percentile of the {names}, widened: the few beyond it run off the edge."
        ));
    }
    c
}

/// The learning curve's charts, keyed by id: return, ε, TD loss, action mix.
pub fn curve_charts(curve: &[EpisodeReport]) -> Vec<(String, ChartData)> {
    let n = curve.len() as f64;
    let per = |f: &dyn Fn(&EpisodeReport) -> Option<f64>| -> Vec<(f64, f64)> {
        curve.iter().filter_map(|r| f(r).map(|v| (f64::from(r.episode), v))).collect()
    };
    let ret = per(&|r| Some(r.episode_return));
    let eps = per(&|r| Some(r.epsilon));
    let loss = per(&|r| r.mean_loss);
    let tail = &curve[curve.len().saturating_sub(10)..];
    let total: u64 = tail.iter().map(|r| r.actions.iter().sum::<u64>()).sum();
    let bars = (0..4)
        .map(|a| {
            let c: u64 = tail.iter().map(|r| r.actions[a]).sum();
            (ACTIONS[a].to_string(), if total > 0 { c as f64 / total as f64 } else { 0.0 }, FLOW_COLORS + a)
        })
        .collect();
    let mut eps_line = line("ε", 1, eps);
    eps_line.bold = true;
    let mut out = vec![
        (
            "train-return".to_string(),
            ChartData::Time(smoothed("Return per episode", "return", ("return", "returns"), 0, ret, n)),
        ),
        (
            "train-eps".to_string(),
            ChartData::Time(chart("Exploration ε", "episode", "ε", n, (0.0, 1.0), vec![eps_line])),
        ),
    ];
    if !loss.is_empty() {
        let mut c = smoothed("Mean TD loss per episode", "TD loss", ("loss", "losses"), 3, loss, n);
        c.y_min = c.y_min.max(0.0);
        out.push(("train-loss".into(), ChartData::Time(c)));
    }
    out.push((
        "train-actions".into(),
        ChartData::Bars(Bars {
            title: "Action mix, last 10 episodes".into(),
            x_label: "share of decisions".into(),
            bars,
            fair: None,
            refs: Vec::new(),
        }),
    ));
    out
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // the values compared are exact by construction
mod tests {
    use super::*;

    fn report(episode: u32, ret: f64, loss: Option<f64>) -> EpisodeReport {
        EpisodeReport {
            episode,
            episode_return: ret,
            epsilon: 1.0 / f64::from(episode + 1),
            mean_loss: loss,
            actions: [1, 2, 3, 4],
            throughput_mbps: 1.0,
            mean_rtt_ms: None,
            drops: 0,
        }
    }

    #[test]
    fn the_moving_average_trails_over_its_window() {
        let p: Vec<(f64, f64)> =
            [0.0, 2.0, 4.0, 6.0, 8.0].iter().enumerate().map(|(i, &y)| (i as f64, y)).collect();
        let m = moving_average(&p, 2);
        assert_eq!(m.iter().map(|q| q.1).collect::<Vec<_>>(), vec![0.0, 1.0, 3.0, 5.0, 7.0]);
        assert_eq!(m[4].0, 4.0);
    }

    #[test]
    fn a_few_extreme_returns_do_not_flatten_the_learning_curve() {
        // Learning from −100 to −20 over 100 episodes, with two disastrous episodes.
        let mut curve: Vec<EpisodeReport> =
            (0..100).map(|e| report(e, -100.0 + 0.8 * f64::from(e), Some(1.0))).collect();
        curve[3].episode_return = -50_000.0;
        curve[60].episode_return = -40_000.0;
        let charts = curve_charts(&curve);
        let ChartData::Time(ret) = &charts[0].1 else { panic!("a time chart") };
        assert!(ret.y_min > -200.0 && ret.y_max <= 0.0, "axis {}..{}", ret.y_min, ret.y_max);
        // The trend spans most of the axis instead of a pixel of it.
        assert!((-20.8 - -100.0) / (ret.y_max - ret.y_min) > 0.5);
        assert!(ret.note.as_deref().is_some_and(|n| n.contains("percentile")));
        assert!(ret.lines[0].faint && ret.lines[1].bold, "raw faint, average bold");
        assert_eq!(ret.lines[1].label, "mean of the last 5");
    }

    #[test]
    fn epsilon_and_the_loss_have_axes_of_their_own() {
        let curve: Vec<EpisodeReport> =
            (0..30).map(|e| report(e, 1.0, (e > 2).then(|| 5000.0 + f64::from(e)))).collect();
        let charts = curve_charts(&curve);
        let keys: Vec<&str> = charts.iter().map(|c| c.0.as_str()).collect();
        assert_eq!(keys, vec!["train-return", "train-eps", "train-loss", "train-actions"]);
        let ChartData::Time(eps) = &charts[1].1 else { panic!() };
        assert_eq!((eps.y_min, eps.y_max), (0.0, 1.0));
        let ChartData::Time(loss) = &charts[2].1 else { panic!() };
        assert!(loss.y_min >= 0.0 && loss.y_max > 5000.0, "{}..{}", loss.y_min, loss.y_max);
        // Before learning starts there is no loss to chart.
        assert_eq!(curve_charts(&curve[..2]).len(), 3);
    }

    #[test]
    fn a_robust_range_keeps_zero_in_sight_and_says_when_it_clips() {
        let ((lo, hi), clipped) = robust_range(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(lo, 0.0);
        assert!(hi > 4.0 && !clipped);
        let mut v: Vec<f64> = (0..100).map(f64::from).collect();
        v.push(1e6);
        assert!(robust_range(&v).1);
    }
}
