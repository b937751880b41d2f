//! A run's headline figures by name: what preset texts quote (`{app:VARIANT:FIGURE}`), the
//! golden test pins and lessons check (`codel.ping_ms < fifo.ping_ms / 10`). One definition
//! for all three, read from the [`Summary`].

use super::Summary;

/// Every figure name with what it is; a link's `LINK_delay_ms` and `LINK_jfi` come on top.
pub const FIGURES: &[(&str, &str)] = &[
    ("mbps", "goodput of all flows, Mbit/s"),
    ("queue_mean", "packets in the bottleneck's disc, mean over the samples"),
    ("drops", "drops at the bottleneck after the warm-up"),
    ("losses", "drops at the bottleneck over the whole run"),
    ("marks", "CE marks at the bottleneck after the warm-up"),
    ("cv_pct", "goodput's coefficient of variation over 100 ms, %"),
    ("zone0_pct", "RED's average below minTh, % of samples"),
    ("zone1_pct", "RED's average in [minTh, maxTh), % of samples"),
    ("zone2_pct", "RED's average in [maxTh, 2·maxTh), % of samples"),
    ("zone3_pct", "RED's average at 2·maxTh or above, % of samples"),
    ("jfi", "Jain's index of the flows' goodput"),
    ("delay_ms", "mean queueing delay at the bottleneck, ms"),
    ("device_ms", "of it, in the device queue, ms"),
    ("jitter_ms", "mean over flows of the 95th minus the 50th percentile of delay, ms"),
    ("buffer_cells", "cells the flows hold at the bottleneck, mean"),
    ("rtt_ms", "flow 0's mean smoothed RTT, ms"),
    ("flow0_mbps", "flow 0's goodput, Mbit/s (any flow N: flowN_mbps)"),
    ("flow0_p50_ms", "flow 0's median queueing delay, ms (any flow N: flowN_p50_ms)"),
    ("fetch_s", "the last flow group's median completion time, s"),
    ("ping_ms", "the first ping group's median RTT, ms"),
    ("small_p95", "95th-percentile slowdown of the smallest flows"),
    ("small_p50", "median slowdown of the smallest flows"),
    ("all_p50", "median slowdown of all finite flows"),
    ("precision", "the switch's long-flow calls: precision"),
    ("recall", "the switch's long-flow calls: recall"),
    ("udp_mbps", "goodput of the UDP flows, Mbit/s"),
    ("tcp_mbps", "mean goodput of the other flows, Mbit/s"),
    ("long_mbps", "flow 0's goodput (the parking lot's long flow), Mbit/s"),
    ("local_mbps", "the other flows' mean goodput, Mbit/s"),
    ("mm_long_mbps", "flow 0's max-min fair share, Mbit/s"),
    ("pf_long_mbps", "flow 0's proportionally fair share, Mbit/s"),
    ("retransmissions", "segments sent again, all flows"),
    ("timeouts", "retransmission timeouts, all flows"),
    ("utilisation", "goodput over the bottleneck's rate"),
];

/// The figure `name` of a run; `Err` names an unknown figure, `Ok(None)` one this run has
/// not (no pings, no second flow).
pub fn figure(s: &Summary, name: &str) -> Result<Option<f64>, String> {
    let zone = |i: usize| s.series.iter().find(|x| !x.zones.is_empty()).map(|x| x.zones[i].pct);
    let flow = |i: usize| s.flows.get(i);
    let tcp: Vec<f64> = s.flows.iter().filter(|f| f.cca != "udp").map(|f| f.throughput_bps).collect();
    Ok(match name {
        "mbps" => Some(s.throughput.mean_bps / 1e6),
        "queue_mean" => s.queue.mean_packets,
        "drops" => Some(s.drops.total as f64),
        "losses" => Some(s.drops.total_all as f64),
        "marks" => Some(s.marks.as_ref().map_or(0.0, |m| m.total as f64)),
        "cv_pct" => s.throughput.cv_pct,
        "zone0_pct" => zone(0),
        "zone1_pct" => zone(1),
        "zone2_pct" => zone(2),
        "zone3_pct" => zone(3),
        "jfi" => Some(s.jfi),
        "delay_ms" => s.delay_mean_s.map(|d| d * 1e3),
        "device_ms" => s.delay_device_mean_s.map(|d| d * 1e3),
        "jitter_ms" => s.jitter_s.map(|d| d * 1e3),
        "buffer_cells" => s.buffer_cells_mean,
        "rtt_ms" => flow(0).and_then(|f| f.srtt_ms_mean),
        "long_mbps" => flow(0).map(|f| f.throughput_bps / 1e6),
        "fetch_s" => s.fct.as_ref().and_then(|f| f.by_group.last()).map(|(_, r)| r.fct_p50_s),
        "ping_ms" => s.pings.first().and_then(|p| p.rtt_p50_ms),
        "small_p95" => s.fct.as_ref().and_then(|f| f.by_size.first()).map(|r| r.slowdown_p95),
        "small_p50" => s.fct.as_ref().and_then(|f| f.by_size.first()).map(|r| r.slowdown_p50),
        "all_p50" => s.fct.as_ref().and_then(|f| f.all.as_ref()).map(|r| r.slowdown_p50),
        "precision" => s.long_flows.as_ref().and_then(|l| l.precision),
        "recall" => s.long_flows.as_ref().and_then(|l| l.recall),
        "udp_mbps" => {
            Some(s.flows.iter().filter(|f| f.cca == "udp").map(|f| f.throughput_bps).sum::<f64>() / 1e6)
        }
        "tcp_mbps" => Some(tcp.iter().sum::<f64>() / tcp.len().max(1) as f64 / 1e6),
        "local_mbps" => (s.flows.len() > 1).then(|| {
            s.flows[1..].iter().map(|f| f.throughput_bps).sum::<f64>() / (s.flows.len() - 1) as f64 / 1e6
        }),
        "mm_long_mbps" => flow(0).and_then(|f| f.max_min_bps).map(|b| b / 1e6),
        "pf_long_mbps" => flow(0).and_then(|f| f.proportional_bps).map(|b| b / 1e6),
        "retransmissions" => Some(s.flows.iter().map(|f| f.retransmissions).sum::<u64>() as f64),
        "timeouts" => Some(s.flows.iter().map(|f| f.timeouts).sum::<u64>() as f64),
        "utilisation" => Some(s.throughput.utilisation),
        // Flow N's goodput and median queueing delay.
        n if flow_figure(n).is_some() => {
            let (i, what) = flow_figure(n).expect("matched");
            let f = flow(i);
            match what {
                "mbps" => f.map(|f| f.throughput_bps / 1e6),
                _ => f.and_then(|f| f.delay_p50_s).map(|d| d * 1e3),
            }
        }
        // A link's mean queueing delay and Jain's index, by its name.
        n if n.ends_with("_delay_ms") => {
            let link = n.trim_end_matches("_delay_ms");
            s.links.iter().find(|l| l.name == link).and_then(|l| l.delay_mean_ms)
        }
        n if n.ends_with("_jfi") => {
            let link = n.trim_end_matches("_jfi");
            s.links.iter().find(|l| l.name == link).and_then(|l| l.jfi)
        }
        other => return Err(unknown(other)),
    })
}

/// `flowN_mbps` or `flowN_p50_ms`: (N, "mbps" or "p50_ms").
fn flow_figure(name: &str) -> Option<(usize, &str)> {
    let rest = name.strip_prefix("flow")?;
    let digits = rest.find(|c: char| !c.is_ascii_digit())?;
    let what = rest[digits..].strip_prefix('_')?;
    matches!(what, "mbps" | "p50_ms").then_some(())?;
    Some((rest[..digits].parse().ok()?, what))
}

/// Whether `name` is a figure (a flow's `flowN_…` and a link's `_delay_ms` and `_jfi` included).
pub fn is_figure(name: &str) -> bool {
    FIGURES.iter().any(|(n, _)| *n == name)
        || flow_figure(name).is_some()
        || name.ends_with("_delay_ms")
        || name.ends_with("_jfi")
}

fn unknown(name: &str) -> String {
    let names: Vec<&str> = FIGURES.iter().map(|(n, _)| *n).collect();
    let hint = crate::params::closest(name, names.iter().copied())
        .map_or(String::new(), |s| format!(" (did you mean '{s}'?)"));
    let shown = crate::params::echo(name);
    format!(
        "unknown figure '{shown}'{hint}; known: {}, flowN_mbps, flowN_p50_ms, LINK_delay_ms, LINK_jfi",
        names.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;
    use crate::sim::Simulation;

    #[test]
    fn every_listed_figure_reads_and_an_unknown_one_is_named() {
        let mut sc = preset("bufferbloat", Some("codel")).unwrap();
        sc.duration_s = 6.0;
        let s = Simulation::new(&sc).unwrap().finish();
        for (name, _) in FIGURES {
            assert!(figure(&s, name).is_ok(), "{name}");
        }
        assert!(figure(&s, "ping_ms").unwrap().unwrap() > 0.0);
        assert_eq!(figure(&s, "flow1_mbps").unwrap().map(|_| ()), Some(()));
        let e = figure(&s, "ping_mz").unwrap_err();
        assert!(e.contains("did you mean 'ping_ms'"), "{e}");
        assert!(is_figure("bottleneck_delay_ms") && !is_figure("nonsense"));
        assert!(
            is_figure("flow12_mbps")
                && is_figure("flow1_p50_ms")
                && !is_figure("flow_mbps")
                && !is_figure("flow1_x")
        );
        assert_eq!(figure(&s, "flow3_mbps").unwrap(), s.flows.get(3).map(|f| f.throughput_bps / 1e6));
    }
}
