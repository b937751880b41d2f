//! The RED study's three CSV traces, written from a run's record. The CLI writes them to
//! files and the web app offers them as downloads.

use super::kde::kde_binned;
use super::{DelayRecord, DropRecord, Sample};
use std::fmt::Write as _;

/// `<alg>_queue.csv`: time_s,packets,avg_packets (avg empty for non-RED discs).
pub fn queue_csv(samples: &[Sample]) -> String {
    let mut s = String::from("time_s,packets,avg_packets\n");
    for x in samples {
        let avg = x.queue_avg.map(|a| format!("{a:.6}")).unwrap_or_default();
        let _ = writeln!(s, "{:.3},{},{}", x.t_s, x.queue_packets, avg);
    }
    s
}

/// `<alg>_drops.csv`: time_s,flow,reason for every drop at the bottleneck.
pub fn drops_csv(drops: &[DropRecord]) -> String {
    let mut s = String::from("time_s,flow,reason\n");
    for d in drops.iter().filter(|d| d.link == 0) {
        let _ = writeln!(s, "{:.9},{},{}", d.t_s, d.flow, d.reason.as_str());
    }
    s
}

/// `<alg>_throughput.csv`: time_s,bits_per_s (aggregate goodput over the interval).
pub fn throughput_csv(samples: &[Sample]) -> String {
    let mut s = String::from("time_s,bits_per_s\n");
    for x in samples {
        let _ = writeln!(s, "{:.3},{:.1}", x.t_s, x.goodput_bps);
    }
    s
}

/// `<alg>_flows.csv`: per sample and flow, the queue it uses, its backlog in cells and
/// packets, goodput, cwnd and smoothed RTT (Warbler Figs. 4-7 come from these columns).
pub fn flows_csv(samples: &[Sample]) -> String {
    let mut s =
        String::from("time_s,flow,queue,backlog_cells,backlog_packets,goodput_bps,cwnd_bytes,srtt_ms\n");
    for x in samples {
        for f in 0..x.flow_goodput_bps.len() {
            let _ = writeln!(
                s,
                "{:.3},{},{},{},{},{:.1},{},{:.3}",
                x.t_s,
                f,
                x.flow_queue.get(f).copied().unwrap_or(0),
                x.flow_backlog_cells.get(f).copied().unwrap_or(0),
                x.flow_backlog_packets.get(f).copied().unwrap_or(0),
                x.flow_goodput_bps[f],
                x.flow_cwnd_bytes.get(f).copied().unwrap_or(0),
                x.flow_srtt_ms.get(f).copied().unwrap_or(0.0)
            );
        }
    }
    s
}

/// Rows `flow,x,density` of a per-flow Gaussian KDE (Silverman bandwidth) over `points`.
fn kde_rows(header: &str, per_flow: &[Vec<f64>], points: usize) -> String {
    let mut s = String::from(header);
    let hi = per_flow.iter().flatten().copied().fold(0.0, f64::max).max(1e-9);
    for (f, data) in per_flow.iter().enumerate() {
        if data.len() < 2 {
            continue;
        }
        let d = kde_binned(data, 0.0, hi, points, 512, None);
        for (x, y) in d.xs.iter().zip(&d.ys) {
            let _ = writeln!(s, "{f},{x:.6},{y:.9}");
        }
    }
    s
}

/// `<alg>_backlog_kde.csv`: each flow's backlog density in cells after `warmup_s` (Fig. 5).
pub fn backlog_kde_csv(samples: &[Sample], warmup_s: f64) -> String {
    let n = samples.first().map_or(0, |x| x.flow_backlog_cells.len());
    let mut per_flow = vec![Vec::new(); n];
    for x in samples.iter().filter(|x| x.t_s > warmup_s) {
        for (f, c) in x.flow_backlog_cells.iter().enumerate() {
            per_flow[f].push(*c as f64);
        }
    }
    kde_rows("flow,backlog_cells,density\n", &per_flow, 200)
}

/// `<alg>_delay_kde.csv`: each flow's queueing-delay density in ms after `warmup_s` (Fig. 8).
pub fn delay_kde_csv(delays: &[DelayRecord], flows: usize, warmup_s: f64) -> String {
    let mut per_flow = vec![Vec::new(); flows];
    for d in delays.iter().filter(|d| d.t_s > warmup_s) {
        if let Some(v) = per_flow.get_mut(d.flow as usize) {
            v.push(d.delay_s as f64 * 1e3);
        }
    }
    kde_rows("flow,delay_ms,density\n", &per_flow, 200)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;
    use crate::sim::Simulation;

    #[test]
    fn every_export_has_its_header_and_one_row_per_record() {
        let mut sc = preset("red-study", Some("gentle")).unwrap();
        sc.duration_s = 3.0;
        let mut sim = Simulation::new(&sc).unwrap();
        sim.finish();
        let r = sim.recorder();
        assert_eq!(queue_csv(&r.samples).lines().count(), 1 + r.samples.len());
        assert_eq!(throughput_csv(&r.samples).lines().count(), 1 + r.samples.len());
        assert_eq!(drops_csv(&r.drops).lines().count(), 1 + r.drops.iter().filter(|d| d.link == 0).count());
        assert_eq!(flows_csv(&r.samples).lines().count(), 1 + 10 * r.samples.len());
        let kde = delay_kde_csv(&r.delays, 10, 1.0);
        assert!(kde.starts_with("flow,delay_ms,density\n"));
        // 200 points per flow that has at least two delay samples.
        let rows = kde.lines().count() - 1;
        assert!(rows % 200 == 0 && rows >= 5 * 200, "{rows} rows");
        assert!(backlog_kde_csv(&r.samples, 1.0).lines().count() > 1);
    }
}
