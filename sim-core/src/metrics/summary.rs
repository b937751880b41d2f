//! End-of-run statistics: the RED study's Table 5 set (queue, zones, throughput, drops)
//! plus per-flow goodput, delay percentiles and Jain's index. Everything after the warm-up.

use super::stats::{mean, quantile_sorted, sorted, std_dev};
use super::{jain_index, Recorder};
use crate::aqm::{DropReason, RedView};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub scenario: String,
    pub queue_disc: String,
    pub duration_s: f64,
    pub warmup_s: f64,
    pub flows: Vec<FlowSummary>,
    /// Jain's index over per-flow goodput.
    pub jfi: f64,
    /// Mean over flows of (P95 − P50) of the bottleneck queueing delay, seconds.
    pub jitter_s: f64,
    /// Mean bottleneck queueing delay over every packet, seconds.
    pub delay_mean_s: f64,
    /// Mean total buffer occupancy at the bottleneck in cells (Warbler Table 2).
    pub buffer_cells_mean: f64,
    pub queue: QueueStats,
    /// Table 7: share of samples with the EWMA average in each zone (RED family only).
    pub zones: Option<ZoneShares>,
    pub throughput: ThroughputStats,
    pub drops: DropStats,
    pub packets: PacketCounts,
    pub events: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlowSummary {
    pub id: u32,
    pub group: u32,
    pub cca: String,
    /// Application goodput after the warm-up, bit/s.
    pub throughput_bps: f64,
    pub delivered_bytes: u64,
    pub retransmissions: u64,
    pub timeouts: u64,
    pub fast_recoveries: u64,
    pub delay_p50_s: f64,
    pub delay_p95_s: f64,
    /// Mean cells this flow held at the bottleneck over the samples.
    pub backlog_cells_mean: f64,
    /// Share of the aggregate goodput (Warbler Fig. 7).
    pub throughput_share: f64,
    pub completion_time_s: Option<f64>,
}

/// Table 6: bottleneck queue length in packets over the 100 ms samples.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QueueStats {
    pub mean_packets: f64,
    /// Sample standard deviation (n − 1).
    pub std_packets: f64,
    pub median_packets: f64,
    pub p90_packets: f64,
    pub p99_packets: f64,
    pub max_packets: f64,
    pub empty_pct: f64,
    /// Mean EWMA average (RED family).
    pub mean_avg_packets: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ZoneShares {
    pub min_th: f64,
    pub max_th: f64,
    pub below_min_pct: f64,
    pub min_to_max_pct: f64,
    pub max_to_2max_pct: f64,
    pub above_2max_pct: f64,
}

/// Table 8: aggregate goodput.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThroughputStats {
    pub mean_bps: f64,
    pub std_bps: f64,
    pub min_bps: f64,
    pub max_bps: f64,
    /// std / mean over the 100 ms series: the study's definition.
    pub cv_pct: f64,
    /// std / mean over 1 s bins.
    pub cv_1s_pct: f64,
    /// Goodput / bottleneck rate.
    pub utilisation: f64,
}

/// Table 9: drops at the bottleneck.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DropStats {
    /// Every drop, warm-up included.
    pub total_all: u64,
    /// Drops after the warm-up: the study's definition.
    pub total: u64,
    pub per_second: f64,
    pub median_interval_ms: f64,
    pub seconds_with_drops: u32,
    pub seconds_observed: u32,
    pub max_in_one_second: u32,
    pub early: u64,
    pub forced: u64,
    pub overflow: u64,
}

/// Packet conservation: every packet created is delivered, dropped or still in the network.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PacketCounts {
    pub sent: u64,
    pub delivered: u64,
    pub dropped: u64,
    pub in_flight: u64,
}

/// Per-flow facts the recorder does not hold.
pub struct FlowFacts {
    pub group: u32,
    pub cca: String,
    pub delivered_bytes: u64,
    pub retransmissions: u64,
    pub timeouts: u64,
    pub fast_recoveries: u64,
    pub completion_time_s: Option<f64>,
}

pub struct SummaryInput<'a> {
    pub scenario: String,
    pub queue_disc: String,
    pub duration_s: f64,
    pub warmup_s: f64,
    pub interval_s: f64,
    pub link_rate_bps: f64,
    pub red: Option<RedView>,
    pub flows: Vec<FlowFacts>,
    pub packets: PacketCounts,
    pub events: u64,
    pub rec: &'a Recorder,
}

impl Summary {
    pub fn compute(inp: SummaryInput) -> Summary {
        let warm = inp.warmup_s;
        let samples: Vec<_> = inp.rec.samples.iter().filter(|s| s.t_s > warm + 1e-9).collect();
        let n_flows = inp.flows.len();

        let mut flow_bps = vec![Vec::new(); n_flows];
        let mut flow_cells = vec![0.0; n_flows];
        for s in &samples {
            for (i, b) in s.flow_goodput_bps.iter().enumerate() {
                flow_bps[i].push(*b);
            }
            for (i, c) in s.flow_backlog_cells.iter().enumerate() {
                flow_cells[i] += *c as f64 / samples.len() as f64;
            }
        }
        let all_delays: Vec<f64> =
            inp.rec.delays.iter().filter(|d| d.t_s > warm).map(|d| d.delay_s as f64).collect();
        let buffer: Vec<f64> =
            samples.iter().map(|s| s.flow_backlog_cells.iter().sum::<u64>() as f64).collect();
        let mut delays = vec![Vec::new(); n_flows];
        for d in inp.rec.delays.iter().filter(|d| d.t_s > warm) {
            delays[d.flow as usize].push(d.delay_s as f64);
        }
        let flows: Vec<FlowSummary> = inp
            .flows
            .into_iter()
            .enumerate()
            .map(|(i, f)| {
                let ds = sorted(&delays[i]);
                FlowSummary {
                    id: i as u32,
                    group: f.group,
                    cca: f.cca,
                    throughput_bps: if flow_bps[i].is_empty() { 0.0 } else { mean(&flow_bps[i]) },
                    delivered_bytes: f.delivered_bytes,
                    retransmissions: f.retransmissions,
                    timeouts: f.timeouts,
                    fast_recoveries: f.fast_recoveries,
                    delay_p50_s: quantile_sorted(&ds, 0.5),
                    delay_p95_s: quantile_sorted(&ds, 0.95),
                    backlog_cells_mean: flow_cells[i],
                    throughput_share: 0.0,
                    completion_time_s: f.completion_time_s,
                }
            })
            .collect();
        let mut flows = flows;
        let total: f64 = flows.iter().map(|f| f.throughput_bps).sum();
        for f in &mut flows {
            f.throughput_share = if total > 0.0 { f.throughput_bps / total } else { 0.0 };
        }
        let jfi = jain_index(&flows.iter().map(|f| f.throughput_bps).collect::<Vec<_>>());
        let spreads: Vec<f64> = flows
            .iter()
            .filter(|f| f.delay_p50_s.is_finite())
            .map(|f| f.delay_p95_s - f.delay_p50_s)
            .collect();
        let jitter_s = if spreads.is_empty() { 0.0 } else { mean(&spreads) };

        Summary {
            scenario: inp.scenario,
            queue_disc: inp.queue_disc,
            duration_s: inp.duration_s,
            warmup_s: warm,
            jfi,
            jitter_s,
            delay_mean_s: if all_delays.is_empty() { 0.0 } else { mean(&all_delays) },
            buffer_cells_mean: if buffer.is_empty() { 0.0 } else { mean(&buffer) },
            flows,
            queue: queue_stats(&samples),
            zones: inp.red.map(|r| zone_shares(&samples, r)),
            throughput: throughput_stats(&samples, inp.interval_s, inp.link_rate_bps),
            drops: drop_stats(inp.rec, warm, inp.duration_s),
            packets: inp.packets,
            events: inp.events,
        }
    }
}

fn queue_stats(samples: &[&super::Sample]) -> QueueStats {
    let q: Vec<f64> = samples.iter().map(|s| s.queue_packets as f64).collect();
    let qs = sorted(&q);
    let avgs: Vec<f64> = samples.iter().filter_map(|s| s.queue_avg).collect();
    QueueStats {
        mean_packets: mean(&q),
        std_packets: std_dev(&q),
        median_packets: quantile_sorted(&qs, 0.5),
        p90_packets: quantile_sorted(&qs, 0.9),
        p99_packets: quantile_sorted(&qs, 0.99),
        max_packets: qs.last().copied().unwrap_or(0.0),
        empty_pct: pct(q.iter().filter(|&&x| x == 0.0).count(), q.len()),
        mean_avg_packets: (!avgs.is_empty()).then(|| mean(&avgs)),
    }
}

fn pct(k: usize, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        100.0 * k as f64 / n as f64
    }
}

fn zone_shares(samples: &[&super::Sample], r: RedView) -> ZoneShares {
    let avgs: Vec<f64> = samples.iter().filter_map(|s| s.queue_avg).collect();
    let count = |f: &dyn Fn(f64) -> bool| pct(avgs.iter().filter(|&&a| f(a)).count(), avgs.len());
    let (lo, hi) = (r.min_th, r.max_th);
    ZoneShares {
        min_th: lo,
        max_th: hi,
        below_min_pct: count(&|a| a < lo),
        min_to_max_pct: count(&|a| a >= lo && a < hi),
        max_to_2max_pct: count(&|a| a >= hi && a < 2.0 * hi),
        above_2max_pct: count(&|a| a >= 2.0 * hi),
    }
}

fn throughput_stats(samples: &[&super::Sample], interval: f64, link: f64) -> ThroughputStats {
    let g: Vec<f64> = samples.iter().map(|s| s.goodput_bps).collect();
    let m = mean(&g);
    // 1 s bins: whole seconds after the warm-up, each the mean of its samples.
    let per_bin = (1.0 / interval).round().max(1.0) as usize;
    let bins: Vec<f64> = g.chunks(per_bin).filter(|c| c.len() == per_bin).map(mean).collect();
    ThroughputStats {
        mean_bps: m,
        std_bps: std_dev(&g),
        min_bps: g.iter().copied().fold(f64::INFINITY, f64::min),
        max_bps: g.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        cv_pct: 100.0 * std_dev(&g) / m,
        cv_1s_pct: 100.0 * std_dev(&bins) / mean(&bins),
        utilisation: m / link,
    }
}

fn drop_stats(rec: &Recorder, warm: f64, duration: f64) -> DropStats {
    let all: Vec<_> = rec.drops.iter().filter(|d| d.link == 0).collect();
    let after: Vec<_> = all.iter().filter(|d| d.t_s >= warm).collect();
    let gaps: Vec<f64> = after.windows(2).map(|w| (w[1].t_s - w[0].t_s) * 1e3).collect();
    let first = warm.ceil() as u32;
    let last = duration.floor() as u32;
    let mut per_sec = vec![0u32; last.saturating_sub(first) as usize];
    for d in &after {
        let k = d.t_s.floor() as i64 - first as i64;
        if k >= 0 && (k as usize) < per_sec.len() {
            per_sec[k as usize] += 1;
        }
    }
    let by = |r: DropReason| after.iter().filter(|d| d.reason == r).count() as u64;
    DropStats {
        total_all: all.len() as u64,
        total: after.len() as u64,
        per_second: after.len() as f64 / (duration - warm).max(1e-9),
        median_interval_ms: if gaps.is_empty() { f64::NAN } else { quantile_sorted(&sorted(&gaps), 0.5) },
        seconds_with_drops: per_sec.iter().filter(|&&c| c > 0).count() as u32,
        seconds_observed: per_sec.len() as u32,
        max_in_one_second: per_sec.iter().copied().max().unwrap_or(0),
        early: by(DropReason::Early),
        forced: by(DropReason::Forced),
        overflow: by(DropReason::Overflow),
    }
}
