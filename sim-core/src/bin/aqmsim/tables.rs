//! The RED study's tables, printed for a run next to the published figures.

use sim_core::metrics::Summary;
use sim_core::scenario::published::{self, RedStudyFigures};
use std::fmt::Write as _;

fn pub_or_dash(v: Option<f64>, prec: usize) -> String {
    v.map(|x| format!("{x:.prec$}")).unwrap_or_else(|| "-".into())
}

/// Tables 6-9 for one run; `alg` picks the published row (red, ared, gentle).
pub fn run_tables(s: &Summary, alg: &str) -> String {
    let p = published::red_study(alg);
    let mut o = String::new();
    let row = |o: &mut String, name: &str, ours: Option<f64>, paper: Option<f64>, prec: usize| {
        let _ = writeln!(o, "  {name:<34} {:>12} {:>12}", pub_or_dash(ours, prec), pub_or_dash(paper, prec));
    };
    let mbps = |v: Option<f64>| v.map(|x| x / 1e6);
    let _ = writeln!(
        o,
        "{} ({} flows, {:.0} s, warm-up {:.0} s)",
        s.scenario,
        s.flows.len(),
        s.duration_s,
        s.warmup_s
    );
    let _ = writeln!(o, "  {:<34} {:>12} {:>12}", "", "simulated", "published");
    let _ = writeln!(o, "Table 6: queue length (packets, 100 ms samples)");
    let q = &s.queue;
    row(&mut o, "mean", q.mean_packets, p.map(|p| p.queue_mean), 2);
    row(&mut o, "std. dev.", q.std_packets, p.map(|p| p.queue_std), 2);
    row(&mut o, "median", q.median_packets, p.map(|p| p.queue_median), 1);
    row(&mut o, "p90", q.p90_packets, p.map(|p| p.queue_p90), 1);
    row(&mut o, "p99", q.p99_packets, p.map(|p| p.queue_p99), 1);
    row(&mut o, "empty (%)", q.empty_pct, p.map(|p| p.empty_pct), 1);
    if let Some(z) = s.zones() {
        let bounds: Vec<String> = z.zones.iter().filter_map(|z| z.hi).map(|v| format!("{v}")).collect();
        let _ = writeln!(o, "Table 7: {} in each zone (%), thresholds {}", z.label, bounds.join(" / "));
        // The study's four zones line up with RED's three thresholds.
        let zp = p.filter(|_| z.zones.len() == 4).map(|p| p.zones_pct);
        for (i, zone) in z.zones.iter().enumerate() {
            row(&mut o, &zone.label, Some(zone.pct), zp.map(|z| z[i]), 1);
        }
    }
    let t = &s.throughput;
    let _ = writeln!(o, "Table 8: aggregate goodput (Mbit/s, 100 ms samples)");
    row(&mut o, "mean (bytes reaching receivers)", Some(t.mean_bps / 1e6), p.map(|p| p.throughput_mbps), 4);
    row(&mut o, "mean of the 100 ms series", mbps(t.series_mean_bps), None, 4);
    row(&mut o, "std. dev.", mbps(t.std_bps), p.map(|p| p.throughput_std_mbps), 4);
    row(&mut o, "min", mbps(t.min_bps), p.map(|p| p.throughput_min_mbps), 3);
    row(&mut o, "max", mbps(t.max_bps), p.map(|p| p.throughput_max_mbps), 3);
    row(&mut o, "CV (%) over 100 ms [study's]", t.cv_pct, p.map(|p| p.cv_pct), 1);
    row(&mut o, "CV (%) over 1 s bins", t.cv_1s_pct, None, 1);
    let d = &s.drops;
    let _ = writeln!(o, "Table 9: drops at the bottleneck");
    row(&mut o, "total after warm-up [study's]", Some(d.total as f64), p.map(|p| p.drops as f64), 0);
    row(&mut o, "total incl. warm-up", Some(d.total_all as f64), None, 0);
    row(&mut o, "per second", Some(d.per_second), p.map(|p| p.drops_per_s), 2);
    row(&mut o, "median interval (ms)", d.median_interval_ms, p.map(|p| p.median_interval_ms), 1);
    let _ = writeln!(
        o,
        "  {:<34} {:>12} {:>12}",
        "seconds with drops",
        format!("{}/{}", d.seconds_with_drops, d.seconds_observed),
        p.map(|p| format!("{}/58", p.active_seconds)).unwrap_or("-".into())
    );
    row(
        &mut o,
        "largest drops in one second",
        Some(f64::from(d.max_in_one_second)),
        p.map(|p| f64::from(p.max_burst)),
        0,
    );
    let _ = writeln!(
        o,
        "  {:<34} {:>12}",
        "early / forced / overflow",
        format!("{}/{}/{}", d.early, d.forced, d.overflow)
    );
    if let Some(m) = &s.marks {
        let _ = writeln!(o, "ECN marks at the bottleneck (CE instead of a drop)");
        row(&mut o, "total after warm-up", Some(m.total as f64), None, 0);
        row(&mut o, "per second", Some(m.per_second), None, 2);
        row(&mut o, "share of packets marked (%)", m.marked_pct, None, 2);
        let _ = writeln!(
            o,
            "  {:<34} {:>12}",
            "early / forced / threshold",
            format!("{}/{}/{}", m.early, m.forced, m.threshold)
        );
    }
    o
}

/// Tables for a run: the RED study's set, then fairness, delay and buffer.
pub fn all_tables(s: &Summary, alg: &str, paper: Option<published::WarblerTable2>) -> String {
    let mut o = run_tables(s, alg);
    o.push_str(&fairness_tables(s, paper));
    o.push_str(&links_table(s));
    o.push_str(&fct_table(s));
    o.push_str(&pings_table(s));
    if let Some(l) = &s.long_flows {
        let c = &l.calls;
        let _ = writeln!(
            o,
            "Long-flow sketch: precision {} recall {} ({} long called long, {} mice called long, {} long missed, {} mice)",
            pub_or_dash(l.precision, 3),
            pub_or_dash(l.recall, 3),
            c.hits,
            c.false_alarms,
            c.misses,
            c.mice
        );
    }
    o
}

/// Each ping group's RTTs over the window (runs with pings).
fn pings_table(s: &Summary) -> String {
    let mut o = String::new();
    if s.pings.is_empty() {
        return o;
    }
    let _ = writeln!(o, "Pings (RTT of the requests sent in the window; answered of sent over the run)");
    let _ = writeln!(
        o,
        "  {:<8} {:>16} {:>10} {:>26}",
        "group", "answered / sent", "min ms", "RTT P50/P95/P99 ms"
    );
    for p in &s.pings {
        let q = |v: Option<f64>| pub_or_dash(v, 1);
        let _ = writeln!(
            o,
            "  {:<8} {:>16} {:>10} {:>26}",
            p.group,
            format!("{} / {}", p.answered, p.sent),
            q(p.rtt_min_ms),
            format!("{}/{}/{}", q(p.rtt_p50_ms), q(p.rtt_p95_ms), q(p.rtt_p99_ms))
        );
    }
    o
}
/// Finite flows' completion times and slowdowns by size and by group (runs with finite
/// flows).
fn fct_table(s: &Summary) -> String {
    let mut o = String::new();
    let Some(f) = &s.fct else { return o };
    let _ = writeln!(
        o,
        "Flow completion ({} finite flows completed, {} started and not complete; slowdown = completion time over the same flow alone on an empty path)",
        f.completed, f.unfinished
    );
    let _ = writeln!(
        o,
        "  {:<20} {:>6} {:>28} {:>22}",
        "size", "flows", "completion s P50/P95/P99", "slowdown P50/P95/P99"
    );
    let rows = f.by_size.iter().map(|r| (r.sizes(), r)).chain(f.all.iter().map(|r| ("all".to_string(), r)));
    let rows = rows.chain(f.by_group.iter().map(|(g, r)| (format!("group {g}"), r)));
    for (label, r) in rows {
        let _ = writeln!(
            o,
            "  {:<20} {:>6} {:>28} {:>22}",
            label,
            r.flows,
            format!("{:.3}/{:.3}/{:.3}", r.fct_p50_s, r.fct_p95_s, r.fct_p99_s),
            format!("{:.2}/{:.2}/{:.2}", r.slowdown_p50, r.slowdown_p95, r.slowdown_p99)
        );
    }
    o
}

/// Every disc link's window, and each flow's queueing delay hop by hop (scenarios with
/// links; the tables above are the bottleneck's).
fn links_table(s: &Summary) -> String {
    let mut o = String::new();
    if s.links.is_empty() {
        return o;
    }
    let _ = writeln!(
        o,
        "Links (the tables above are the bottleneck's; utilisation counts every byte on the wire)"
    );
    // CE marks beside the drops, where any link marked.
    let marked = s.links.iter().any(|l| l.marks > 0);
    let _ = writeln!(
        o,
        "  {:<16} {:>10} {:>12} {:>12} {:>14} {:>8} {:>8} {:>20}{}",
        "link",
        "Mbit/s",
        "utilisation",
        "mean queue",
        "mean delay ms",
        "Jain",
        "drops",
        "early/forced/overflow",
        if marked { format!(" {:>10}", "CE marks") } else { String::new() }
    );
    for l in &s.links {
        let _ = writeln!(
            o,
            "  {:<16} {:>10.1} {:>12.3} {:>12} {:>14} {:>8} {:>8} {:>20}{}",
            l.name,
            l.rate_bps / 1e6,
            l.utilisation,
            pub_or_dash(l.queue_mean_packets, 1),
            pub_or_dash(l.delay_mean_ms, 2),
            pub_or_dash(l.jfi, 3),
            l.drops,
            format!("{}/{}/{}", l.early, l.forced, l.overflow),
            if marked { format!(" {:>10}", l.marks) } else { String::new() }
        );
    }
    let _ = writeln!(
        o,
        "Queueing delay hop by hop (ms, mean over each flow's packets at each link of its route)"
    );
    for f in s.flows.iter().filter(|f| !f.hop_delays.is_empty()) {
        let hops: Vec<String> =
            f.hop_delays.iter().map(|h| format!("{} {}", h.link, pub_or_dash(h.mean_ms, 2))).collect();
        let _ = writeln!(o, "  flow {:>4}: {}", f.id, hops.join(" → "));
    }
    o
}

/// Where the queueing delay is: a disc over a full device queue holds only part of it,
/// and data and ACKs also wait on the host links.
fn delay_parts(s: &Summary) -> String {
    let mut o = String::new();
    if let Some(device) = s.delay_device_mean_s {
        let disc = pub_or_dash(s.delay_disc_mean_s, 4);
        let _ = writeln!(o, "    {:<32} {disc:>12}", "of which in the queue disc (s)");
        let _ = writeln!(o, "    {:<32} {device:>12.4}", "of which in the device queue (s)");
    }
    let _ = writeln!(o, "  {:<34} {:>12.4}", "wait in senders' access links (s)", s.access_wait_mean_s);
    let _ = writeln!(o, "  {:<34} {:>12.4}", "wait of ACKs on the way back (s)", s.ack_wait_mean_s);
    o
}

/// Fairness, delay and buffer figures (the Warbler paper's Table 2 set) and a per-flow table.
pub fn fairness_tables(s: &Summary, paper: Option<published::WarblerTable2>) -> String {
    let mut o = String::new();
    let col = |f: fn(&published::WarblerTable2) -> f64, prec: usize| pub_or_dash(paper.as_ref().map(f), prec);
    let source = if paper.is_some() { "; published: §5.2, with or without Warbler as run" } else { "" };
    let _ = writeln!(o, "Fairness, delay, buffer (the Warbler paper's Table 2 set{source})");
    type Row<'a> = (&'a str, Option<f64>, fn(&published::WarblerTable2) -> f64, usize);
    let rows: [Row; 4] = [
        ("Jain's index", Some(s.jfi), |p| p.jfi, 4),
        ("mean queueing delay (s)", s.delay_mean_s, |p| p.delay_mean_s, 4),
        ("jitter: mean P95 - P50 (s)", s.jitter_s, |p| p.jitter_s, 4),
        ("buffer occupancy (cells)", s.buffer_cells_mean, |p| p.buffer_cells, 0),
    ];
    for (i, (label, ours, paper, prec)) in rows.into_iter().enumerate() {
        let _ = writeln!(o, "  {label:<34} {:>12} {:>12}", pub_or_dash(ours, prec), col(paper, prec));
        if i == 1 {
            o.push_str(&delay_parts(s));
        }
    }
    // With links, each flow's max-min and proportionally fair goodput beside its own.
    let fair = s.flows.iter().any(|f| f.max_min_bps.is_some());
    let _ = write!(
        o,
        "  {:>4} {:<8} {:>12} {:>7} {:>14} {:>16}",
        "flow", "cca", "goodput Mb/s", "share", "backlog cells", "delay P50/P95 ms"
    );
    let _ = writeln!(o, "{}", if fair { format!(" {:>16}", "max-min / PF") } else { String::new() });
    // A pool of recycled connections is one row: what its transfers carried.
    let mut pools_shown: Vec<u32> = Vec::new();
    for f in &s.flows {
        if f.pooled {
            if !pools_shown.contains(&f.group) {
                pools_shown.push(f.group);
                let pool: Vec<_> = s.flows.iter().filter(|x| x.group == f.group).collect();
                let bps: f64 = pool.iter().map(|x| x.throughput_bps).sum();
                let _ = writeln!(
                    o,
                    "  {:>4} {:<8} {:>12.3}   (group {}: {} connections carrying the transfers that arrive)",
                    format!("{}-", f.id),
                    f.cca,
                    bps / 1e6,
                    f.group,
                    pool.len()
                );
            }
            continue;
        }
        let _ = write!(
            o,
            "  {:>4} {:<8} {:>12.3} {:>6.1}% {:>14.0} {:>16}",
            f.id,
            f.cca,
            f.throughput_bps / 1e6,
            100.0 * f.throughput_share,
            f.backlog_cells_mean,
            format!(
                "{}/{}",
                pub_or_dash(f.delay_p50_s.map(|d| d * 1e3), 1),
                pub_or_dash(f.delay_p95_s.map(|d| d * 1e3), 1)
            )
        );
        let refs = format!(
            "{} / {}",
            pub_or_dash(f.max_min_bps.map(|b| b / 1e6), 3),
            pub_or_dash(f.proportional_bps.map(|b| b / 1e6), 3)
        );
        let loss = f.loss_pct.map_or(String::new(), |l| format!("  datagrams lost {l:.1} %"));
        let _ = writeln!(o, "{}{loss}", if fair { format!(" {refs:>16}") } else { String::new() });
    }
    o
}

type Pick = fn(&Summary) -> Option<f64>;
type PickPaper = fn(&RedStudyFigures) -> f64;

/// Table 10: the variants side by side, each with its published value.
pub fn compare_table(runs: &[(String, Summary)]) -> String {
    let rows: [(&str, usize, Pick, PickPaper); 9] = [
        ("Mean throughput (Mbit/s)", 4, |s| Some(s.throughput.mean_bps / 1e6), |p| p.throughput_mbps),
        ("Throughput CV (%)", 1, |s| s.throughput.cv_pct, |p| p.cv_pct),
        ("Mean queue (pkt)", 2, |s| s.queue.mean_packets, |p| p.queue_mean),
        ("Queue std. dev.", 2, |s| s.queue.std_packets, |p| p.queue_std),
        ("p99 queue (pkt)", 1, |s| s.queue.p99_packets, |p| p.queue_p99),
        ("Empty queue (%)", 1, |s| s.queue.empty_pct, |p| p.empty_pct),
        ("Total drops", 0, |s| Some(s.drops.total as f64), |p| p.drops as f64),
        ("Median inter-drop (ms)", 1, |s| s.drops.median_interval_ms, |p| p.median_interval_ms),
        (
            "Seconds with drops",
            0,
            |s| Some(f64::from(s.drops.seconds_with_drops)),
            |p| f64::from(p.active_seconds),
        ),
    ];
    let mut o = String::new();
    let _ = write!(o, "{:<26}", "Table 10");
    for (name, _) in runs {
        let _ = write!(o, " {:>11} {:>8}", name, "paper");
    }
    let _ = writeln!(o);
    for (label, prec, ours, paper) in rows {
        let _ = write!(o, "{label:<26}");
        for (name, s) in runs {
            let alg = sim_core::scenario::red_study_algorithm(name);
            let pv = published::red_study(alg).map(|p| paper(&p));
            let _ = write!(o, " {:>11} {:>8}", pub_or_dash(ours(s), prec), pub_or_dash(pv, prec));
        }
        let _ = writeln!(o);
    }
    o
}

/// One variant of a fairness comparison: its summary and, when a control plane switches on
/// mid-run (Warbler at 30 s in §5.1), Jain's index before it and from 10 s after it.
pub struct FairnessRun {
    pub variant: String,
    pub summary: Summary,
    pub jfi_before_after: Option<(f64, f64)>,
}

/// The Warbler paper's Table 2 set for every variant side by side, with the paper's figures
/// where it gives them for that variant (§5.2's Table 2; the Jain's index of §5.1 and §5.3).
pub fn fairness_compare_table(preset: &str, runs: &[FairnessRun]) -> String {
    let table2 = |v: &str| match (preset, v) {
        ("cubic-bbr-vegas-3q", "baseline") => Some(published::WARBLER_WITHOUT),
        ("cubic-bbr-vegas-3q", "warbler") => Some(published::WARBLER_WITH),
        _ => None,
    };
    type Row = (&'static str, usize, fn(&FairnessRun) -> Option<f64>, fn(&published::WarblerTable2) -> f64);
    let rows: [Row; 6] = [
        ("Jain's index", 3, |r| Some(r.summary.jfi), |p| p.jfi),
        ("goodput (Mbit/s)", 1, |r| Some(r.summary.throughput.mean_bps / 1e6), |_| f64::NAN),
        (
            "mean queueing delay (ms)",
            1,
            |r| r.summary.delay_mean_s.map(|d| d * 1e3),
            |p| p.delay_mean_s * 1e3,
        ),
        ("jitter P95 - P50 (ms)", 1, |r| r.summary.jitter_s.map(|d| d * 1e3), |p| p.jitter_s * 1e3),
        ("buffer (cells)", 0, |r| r.summary.buffer_cells_mean, |p| p.buffer_cells),
        ("drops", 0, |r| Some(r.summary.drops.total as f64), |_| f64::NAN),
    ];
    let mut o = String::new();
    let _ = write!(o, "{:<28}", preset);
    for r in runs {
        let _ = write!(o, " {:>14} {:>7}", r.variant, "paper");
    }
    let _ = writeln!(o);
    for (label, prec, ours, paper) in rows {
        let _ = write!(o, "{label:<28}");
        for r in runs {
            let mut pv = table2(&r.variant).map(|p| paper(&p)).filter(|x| x.is_finite());
            if label == "Jain's index" && pv.is_none() {
                pv = published::expected_jfi(preset, &r.variant).map(|(j, _)| j);
            }
            let _ = write!(o, " {:>14} {:>7}", pub_or_dash(ours(r), prec), pub_or_dash(pv, prec.min(2)));
        }
        let _ = writeln!(o);
    }
    if runs.iter().any(|r| r.jfi_before_after.is_some()) {
        let _ = write!(o, "{:<28}", "JFI before / 10 s after on");
        for r in runs {
            let cell = r.jfi_before_after.map_or("-".into(), |(b, a)| format!("{b:.3} / {a:.3}"));
            let _ = write!(o, " {:>14} {:>7}", cell, "");
        }
        let _ = writeln!(o);
    }
    o
}
