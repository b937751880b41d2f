//! End-of-run (or so-far) statistics: the RED study's Table 5 set (queue, zones, throughput,
//! drops) plus per-flow goodput, delay percentiles and Jain's index, over the measured
//! window (see [`super::window`] for the one warm-up convention). Computed from the window
//! accumulators in O(flows + histogram buckets); figures that are undefined (no packet,
//! fewer than two drops) are `None`, so the JSON has no NaN and reads back.

use super::jain_index;
use super::window::{Moments, WaitTally, WindowStats};
use crate::queue::DropReason;
use crate::trace::SeriesInfo;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub scenario: String,
    pub queue_disc: String,
    pub duration_s: f64,
    pub warmup_s: f64,
    /// Length of the measured window [warm-up, end].
    pub window_s: f64,
    pub flows: Vec<FlowSummary>,
    /// Jain's index over per-flow throughput.
    pub jfi: f64,
    /// Mean over flows of (P95 − P50) of the bottleneck queueing delay, seconds.
    pub jitter_s: Option<f64>,
    /// Mean bottleneck queueing delay over every packet, seconds: the disc's part plus the
    /// device queue's.
    pub delay_mean_s: Option<f64>,
    /// Of that mean, the part spent in the queue disc, seconds.
    pub delay_disc_mean_s: Option<f64>,
    /// Of that mean, the part spent in the device queue under the disc (ns-3's
    /// DropTail device queue), seconds; `None` when the link has none.
    pub delay_device_mean_s: Option<f64>,
    /// Mean wait of a data packet in its sender's access-link queue, seconds (a burst
    /// the sender's window allows waits there before the bottleneck).
    pub access_wait_mean_s: f64,
    /// Mean wait of an ACK in the queues of its way back (the reverse bottleneck and the
    /// access link), seconds.
    pub ack_wait_mean_s: f64,
    /// Mean total buffer occupancy at the bottleneck in cells (Warbler Table 2).
    pub buffer_cells_mean: Option<f64>,
    pub queue: QueueStats,
    /// The algorithms' named series: mean and, where they declare thresholds, the share of
    /// samples in each zone (RED's Table 7).
    pub series: Vec<SeriesSummary>,
    pub throughput: ThroughputStats,
    pub drops: DropStats,
    /// CE marks at the bottleneck; absent when nothing was marked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marks: Option<MarkStats>,
    pub packets: PacketCounts,
    pub events: u64,
    /// Every disc link's own figures over the window, when the scenario names more links
    /// than the bottleneck (none for a dumbbell, whose figures are the ones above).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<LinkSummary>,
    /// Finite flows' completion times and slowdowns, over the whole run; none when every
    /// flow is a bulk transfer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fct: Option<super::fct::FctStats>,
    /// Each ping group's RTTs over the window and its answers over the run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pings: Vec<super::pings::PingStats>,
    /// A switch port's count-min sketch: the connections it called long or not against
    /// their exact counts over the run, with its precision and recall.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub long_flows: Option<LongFlowStats>,
}

/// How well the studied link's classifier told long flows from mice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LongFlowStats {
    pub calls: crate::queue::LongFlowCalls,
    pub precision: Option<f64>,
    pub recall: Option<f64>,
}

impl LongFlowStats {
    pub fn of(calls: crate::queue::LongFlowCalls) -> LongFlowStats {
        LongFlowStats { calls, precision: calls.precision(), recall: calls.recall() }
    }
}

/// One disc link over the measured window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LinkSummary {
    /// `bottleneck` or its key in the scenario's `links`.
    pub name: String,
    pub rate_bps: f64,
    /// Bytes on the wire it sent in the window over what its rate allows (headers
    /// included, so a busy link reads 1).
    pub utilisation: f64,
    /// Packets in its disc and device queue, mean over the samples.
    pub queue_mean_packets: Option<f64>,
    /// Queueing delay (disc and device queue) of the packets that started on its wire in
    /// the window, mean, ms; `None` if none did.
    #[serde(default)]
    pub delay_mean_ms: Option<f64>,
    /// Jain's index of the goodputs of the flows that cross it.
    #[serde(default)]
    pub jfi: Option<f64>,
    /// Packets its disc dropped in the window, and of them by reason.
    pub drops: u64,
    #[serde(default)]
    pub early: u64,
    #[serde(default)]
    pub forced: u64,
    #[serde(default)]
    pub overflow: u64,
    /// Packets its disc marked CE in the window (in place of drops).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub marks: u64,
}

/// A flow's mean queueing delay at one link of its route over the window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HopDelay {
    pub link: String,
    /// `None` if none of its packets started on that link's wire in the window.
    pub mean_ms: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlowSummary {
    pub id: u32,
    pub group: u32,
    pub cca: String,
    /// New payload bytes that reached the receiver in the window / window, bit/s.
    pub throughput_bps: f64,
    /// Bytes delivered in order over the whole run.
    pub delivered_bytes: u64,
    pub retransmissions: u64,
    /// Every expiry of the retransmission timer (backed-off repeats included).
    pub timeouts: u64,
    /// The same expiries by the congestion state the timer found.
    #[serde(default)]
    pub timeouts_by_state: TimeoutsByState,
    pub fast_recoveries: u64,
    pub delay_p50_s: Option<f64>,
    pub delay_p95_s: Option<f64>,
    pub delay_mean_s: Option<f64>,
    /// Mean cells this flow held at the bottleneck over the window samples.
    pub backlog_cells_mean: f64,
    /// Mean smoothed RTT over the window samples, ms.
    pub srtt_ms_mean: Option<f64>,
    /// Share of the aggregate throughput (Warbler Fig. 7).
    pub throughput_share: f64,
    pub completion_time_s: Option<f64>,
    /// When the flow opened its connection (the group's start plus its jitter), s; `None`
    /// before it starts. With the completion time it gives a finite flow's rate while active.
    pub start_time_s: Option<f64>,
    /// Its max-min fair and proportionally fair goodput, from the links' capacities and the
    /// routes ([`super::fair_shares`]), bit/s of payload; in scenarios with links.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_min_bps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proportional_bps: Option<f64>,
    /// Its queueing delay split by the links of its route, in route order; in scenarios
    /// with links.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hop_delays: Vec<HopDelay>,
    /// A ping: its goodput is not counted, nor in the shares and Jain's index.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub probe: bool,
    /// A recycled connection that carries transfers as they arrive: in the goodput, not in
    /// the shares and Jain's index.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pooled: bool,
    /// A UDP source or a ping: the datagrams it sent over the run that did not arrive, %
    /// (the last few may still be on their way at the end); `None` for TCP.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss_pct: Option<f64>,
    /// CE marks its packets got at the bottleneck in the window.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub marks: u64,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

/// Table 6: bottleneck queue length in packets over the window samples.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct QueueStats {
    pub mean_packets: Option<f64>,
    /// Sample standard deviation (n − 1).
    pub std_packets: Option<f64>,
    pub median_packets: Option<f64>,
    pub p90_packets: Option<f64>,
    pub p99_packets: Option<f64>,
    pub max_packets: Option<f64>,
    pub empty_pct: Option<f64>,
}

/// One zone of a series between two thresholds (`lo` None = −∞, `hi` None = +∞).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Zone {
    pub label: String,
    pub lo: Option<f64>,
    pub hi: Option<f64>,
    pub pct: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeriesSummary {
    pub name: String,
    pub label: String,
    pub unit: String,
    pub mean: Option<f64>,
    pub zones: Vec<Zone>,
}

/// Table 8: aggregate throughput.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThroughputStats {
    /// New payload bytes reaching the receivers over the window / window: bounded by what
    /// the link could carry.
    pub mean_bps: f64,
    /// Statistics of the in-order goodput series sampled every interval (the study's
    /// Table 8 definition): mean, sample deviation, extremes.
    pub series_mean_bps: Option<f64>,
    pub std_bps: Option<f64>,
    pub min_bps: Option<f64>,
    pub max_bps: Option<f64>,
    /// std / mean of that series, %.
    pub cv_pct: Option<f64>,
    /// std / mean over whole 1 s bins of it, %.
    pub cv_1s_pct: Option<f64>,
    /// mean_bps / bottleneck rate (payload only, so ≤ 1).
    pub utilisation: f64,
}

/// Table 9: drops at the bottleneck.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DropStats {
    /// Every drop, warm-up included.
    pub total_all: u64,
    /// Drops in the window: the study's definition.
    pub total: u64,
    pub per_second: f64,
    /// Median gap between consecutive drops (within 1 %), ms.
    pub median_interval_ms: Option<f64>,
    pub seconds_with_drops: u32,
    pub seconds_observed: u32,
    pub max_in_one_second: u32,
    pub early: u64,
    pub forced: u64,
    pub overflow: u64,
}

/// CE marks at the bottleneck, counted as the marked packets leave it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MarkStats {
    /// Every mark, warm-up included.
    pub total_all: u64,
    /// Marks in the window.
    pub total: u64,
    pub per_second: f64,
    /// Of the data packets that left the bottleneck in the window, the share marked, %.
    pub marked_pct: Option<f64>,
    /// By why the disc marked: probabilistic or control law, RED's hard zone without hard
    /// drops, a step threshold.
    pub early: u64,
    pub forced: u64,
    pub threshold: u64,
}

/// Packet conservation: every packet created is delivered, dropped or still in the network.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PacketCounts {
    pub sent: u64,
    pub delivered: u64,
    pub dropped: u64,
    pub in_flight: u64,
}

/// A flow's retransmission timeouts by the congestion state the timer found (ns-3's
/// names: Open, Disorder, Recovery, Loss). Open and Disorder: too few duplicate ACKs to
/// start fast recovery (a tail loss, a small window); Recovery: fast recovery stalled (a
/// retransmission lost); Loss: the backed-off timer again, before the timeout's
/// retransmission was acknowledged. Entries into Loss are all but the last column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeoutsByState {
    pub open: u64,
    pub disorder: u64,
    pub recovery: u64,
    pub loss: u64,
}

/// Per-flow facts the window does not hold.
pub struct FlowFacts {
    pub group: u32,
    pub cca: String,
    /// New bytes received so far (in order or not).
    pub received_bytes: u64,
    pub delivered_bytes: u64,
    pub retransmissions: u64,
    pub timeouts: u64,
    pub timeouts_by_state: TimeoutsByState,
    pub fast_recoveries: u64,
    pub start_time_s: Option<f64>,
    pub completion_time_s: Option<f64>,
    /// Its data cross the bottleneck (every flow of a dumbbell): its goodput counts in
    /// the bottleneck's utilisation.
    pub crosses_bottleneck: bool,
    /// A ping: left out of goodput, shares and Jain's index.
    pub probe: bool,
    /// A recycled connection ([`crate::traffic`]): its goodput counts, but a pool of
    /// connections is not a flow, so it is left out of the shares and Jain's index.
    pub pooled: bool,
    /// A datagram source's loss over the run, %.
    pub loss_pct: Option<f64>,
}

pub struct SummaryInput<'a> {
    pub scenario: String,
    pub queue_disc: String,
    pub duration_s: f64,
    pub warmup_s: f64,
    pub link_rate_bps: f64,
    /// Whether the bottleneck has a device queue under its disc.
    pub device_queue: bool,
    /// Waits in the senders' access links and on the ACKs' way back.
    pub access_waits: WaitTally,
    pub ack_waits: WaitTally,
    pub flows: Vec<FlowFacts>,
    pub packets: PacketCounts,
    pub events: u64,
    pub window: &'a WindowStats,
    pub series: &'a [SeriesInfo],
}

fn pct(k: u64, n: u64) -> Option<f64> {
    (n > 0).then(|| 100.0 * k as f64 / n as f64)
}

fn cv(m: &Moments) -> Option<f64> {
    let mean = m.mean()?;
    (mean > 0.0).then_some(100.0 * m.std()? / mean)
}

impl Summary {
    pub fn compute(inp: SummaryInput) -> Summary {
        let w = inp.window;
        let window_s = (inp.duration_s - inp.warmup_s).max(0.0);
        let crosses: Vec<bool> = inp.flows.iter().map(|f| f.crosses_bottleneck).collect();
        let probes: Vec<bool> = inp.flows.iter().map(|f| f.probe).collect();
        let fair = |f: &FlowSummary| !f.probe && !f.pooled;
        let mut flows: Vec<FlowSummary> = inp
            .flows
            .into_iter()
            .zip(w.flows())
            .enumerate()
            .map(|(i, (f, fw))| {
                let got = f.received_bytes.saturating_sub(fw.received_at_start);
                FlowSummary {
                    id: i as u32,
                    group: f.group,
                    cca: f.cca,
                    throughput_bps: if w.opened && window_s > 0.0 {
                        got as f64 * 8.0 / window_s
                    } else {
                        0.0
                    },
                    delivered_bytes: f.delivered_bytes,
                    retransmissions: f.retransmissions,
                    timeouts: f.timeouts,
                    timeouts_by_state: f.timeouts_by_state,
                    fast_recoveries: f.fast_recoveries,
                    delay_p50_s: fw.delay.quantile(0.5),
                    delay_p95_s: fw.delay.quantile(0.95),
                    delay_mean_s: fw.delay.mean(),
                    backlog_cells_mean: if w.samples > 0 { fw.backlog_sum / w.samples as f64 } else { 0.0 },
                    srtt_ms_mean: fw.srtt_ms.mean(),
                    throughput_share: 0.0,
                    completion_time_s: f.completion_time_s,
                    start_time_s: f.start_time_s,
                    max_min_bps: None,
                    proportional_bps: None,
                    hop_delays: Vec::new(),
                    probe: f.probe,
                    pooled: f.pooled,
                    loss_pct: f.loss_pct,
                    marks: w.marks.per_flow.get(i).copied().unwrap_or(0),
                }
            })
            .collect();
        let counted = |i: usize| !probes[i];
        let total: f64 =
            (flows.iter().enumerate()).filter(|(i, _)| counted(*i)).map(|(_, f)| f.throughput_bps).sum();
        let through_bottleneck: f64 =
            (flows.iter().zip(&crosses)).filter(|(_, &c)| c).map(|(f, _)| f.throughput_bps).sum();
        let shared: f64 = flows.iter().filter(|f| fair(f)).map(|f| f.throughput_bps).sum();
        for f in flows.iter_mut().filter(|f| fair(f)) {
            f.throughput_share = if shared > 0.0 { f.throughput_bps / shared } else { 0.0 };
        }
        let jfi = jain_index(&flows.iter().filter(|f| fair(f)).map(|f| f.throughput_bps).collect::<Vec<_>>());
        let spreads: Vec<f64> = flows.iter().filter_map(|f| Some(f.delay_p95_s? - f.delay_p50_s?)).collect();
        let (delay_sum, delay_n) =
            w.flows().iter().fold((0.0, 0u64), |(s, n), f| (s + f.delay.sum(), n + f.delay.count()));
        let delay_mean_s = (delay_n > 0).then(|| delay_sum / delay_n as f64);
        let delay_device_mean_s = inp.device_queue.then(|| w.device_wait.mean_s());
        Summary {
            scenario: inp.scenario,
            queue_disc: inp.queue_disc,
            duration_s: inp.duration_s,
            warmup_s: inp.warmup_s,
            window_s,
            jfi,
            jitter_s: (!spreads.is_empty()).then(|| spreads.iter().sum::<f64>() / spreads.len() as f64),
            delay_mean_s,
            delay_disc_mean_s: delay_mean_s.map(|d| (d - delay_device_mean_s.unwrap_or(0.0)).max(0.0)),
            delay_device_mean_s,
            access_wait_mean_s: inp.access_waits.mean_s(),
            ack_wait_mean_s: inp.ack_waits.mean_s(),
            buffer_cells_mean: w.buffer_cells.mean(),
            flows,
            queue: queue_stats(w),
            series: series_stats(w, inp.series),
            throughput: ThroughputStats {
                mean_bps: total,
                series_mean_bps: w.goodput.mean(),
                std_bps: w.goodput.std(),
                min_bps: w.goodput.min(),
                max_bps: w.goodput.max(),
                cv_pct: cv(&w.goodput),
                cv_1s_pct: cv(&w.goodput_1s),
                utilisation: if inp.link_rate_bps > 0.0 {
                    through_bottleneck / inp.link_rate_bps
                } else {
                    0.0
                },
            },
            drops: drop_stats(w, window_s),
            marks: mark_stats(w, window_s),
            packets: inp.packets,
            events: inp.events,
            links: Vec::new(),
            fct: None,
            pings: Vec::new(),
            long_flows: None,
        }
    }
}

fn queue_stats(w: &WindowStats) -> QueueStats {
    let q = &w.queue_packets;
    let m = q.moments();
    QueueStats {
        mean_packets: m.mean(),
        std_packets: m.std(),
        median_packets: q.quantile(0.5),
        p90_packets: q.quantile(0.9),
        p99_packets: q.quantile(0.99),
        max_packets: m.max(),
        empty_pct: pct(q.count_of(0), m.n),
    }
}

fn series_stats(w: &WindowStats, info: &[SeriesInfo]) -> Vec<SeriesSummary> {
    info.iter()
        .zip(&w.series)
        .map(|(s, sw)| {
            let n = sw.moments.n;
            let t = &s.thresholds;
            let zones = if t.is_empty() {
                Vec::new()
            } else {
                (0..=t.len())
                    .map(|z| {
                        let lo = z.checked_sub(1).map(|i| &t[i]);
                        let hi = t.get(z);
                        let label = match (lo, hi) {
                            (None, Some(h)) => format!("< {}", h.label),
                            (Some(l), Some(h)) => format!("[{}, {})", l.label, h.label),
                            (Some(l), None) => format!("≥ {}", l.label),
                            (None, None) => "all".into(),
                        };
                        Zone {
                            label,
                            lo: lo.map(|x| x.value),
                            hi: hi.map(|x| x.value),
                            pct: pct(sw.zone_counts[z], n).unwrap_or(0.0),
                        }
                    })
                    .collect()
            };
            SeriesSummary {
                name: s.name.clone(),
                label: s.label.clone(),
                unit: s.unit.clone(),
                mean: sw.moments.mean(),
                zones,
            }
        })
        .collect()
}

fn drop_stats(w: &WindowStats, window_s: f64) -> DropStats {
    let d = &w.drops;
    DropStats {
        total_all: d.total_all,
        total: d.total,
        per_second: if window_s > 0.0 { d.total as f64 / window_s } else { 0.0 },
        median_interval_ms: d.gaps_ms.quantile(0.5),
        seconds_with_drops: d.per_second.iter().filter(|&&c| c > 0).count() as u32,
        seconds_observed: d.per_second.len() as u32,
        max_in_one_second: d.per_second.iter().copied().max().unwrap_or(0),
        early: d.by_reason[0],
        forced: d.by_reason[1],
        overflow: d.by_reason[2],
    }
}

fn mark_stats(w: &WindowStats, window_s: f64) -> Option<MarkStats> {
    let m = &w.marks;
    (m.total_all > 0).then(|| MarkStats {
        total_all: m.total_all,
        total: m.total,
        per_second: if window_s > 0.0 { m.total as f64 / window_s } else { 0.0 },
        marked_pct: pct(m.total, m.departed),
        early: m.by_reason[DropReason::Early as usize],
        forced: m.by_reason[DropReason::Forced as usize],
        threshold: m.by_reason[DropReason::Threshold as usize],
    })
}

impl Summary {
    /// The zones of the first series that declares thresholds (RED's EWMA: Table 7).
    pub fn zones(&self) -> Option<&SeriesSummary> {
        self.series.iter().find(|s| !s.zones.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::{SimDuration, SimTime};

    fn s(x: f64) -> SimTime {
        SimTime::from_secs_f64(x)
    }

    fn facts(received: u64) -> FlowFacts {
        FlowFacts {
            group: 0,
            cca: "cubic".into(),
            received_bytes: received,
            delivered_bytes: received,
            retransmissions: 0,
            timeouts: 0,
            timeouts_by_state: TimeoutsByState::default(),
            fast_recoveries: 0,
            start_time_s: None,
            completion_time_s: None,
            crosses_bottleneck: true,
            probe: false,
            pooled: false,
            loss_pct: None,
        }
    }

    /// A two-second window worked out by hand: goodput, shares, Jain's index,
    /// utilisation, the delay mean, the queue's statistics, drops and marks.
    #[test]
    fn the_published_figures_of_a_window_worked_out_by_hand() {
        let mut w = WindowStats::new(s(1.0), SimDuration::from_millis(100), s(3.0), 2);
        w.open([(1_000, 0), (2_000, 0)].into_iter());
        // Flow 0 gets 250 000 bytes in the 2 s window (1 Mbit/s), flow 1 750 000 (3 Mbit/s).
        let flows = vec![facts(1_000 + 250_000), facts(2_000 + 750_000)];
        // Delays: flow 0 10 and 30 ms, flow 1 20 ms; one before the window, left out.
        w.on_delay(s(0.5), 0, 9.0);
        w.on_delay(s(1.5), 0, 0.010);
        w.on_delay(s(1.6), 0, 0.030);
        w.on_delay(s(1.7), 1, 0.020);
        // Four samples of the queue: 0, 10, 20, 30 packets (the first at the warm-up's end
        // plus one interval).
        for (i, q) in [0u32, 10, 20, 30].into_iter().enumerate() {
            w.on_sample(s(1.1 + 0.1 * i as f64), q, 4e6, &[0, 0], &[None, None], &[]);
        }
        // Drops: one in the warm-up (counted over the whole run only), two 500 ms apart.
        for t in [0.5, 1.5, 2.0] {
            w.on_drop(s(t), DropReason::Early);
        }
        // Two data packets leave after the warm-up, flow 1's marked.
        w.on_departure(s(1.5), 1, Some(DropReason::Early));
        w.on_departure(s(1.6), 0, None);
        let sum = Summary::compute(SummaryInput {
            scenario: "hand".into(),
            queue_disc: "red".into(),
            duration_s: 3.0,
            warmup_s: 1.0,
            link_rate_bps: 8e6,
            device_queue: false,
            access_waits: WaitTally::default(),
            ack_waits: WaitTally::default(),
            flows,
            packets: PacketCounts::default(),
            events: 0,
            window: &w,
            series: &[],
        });
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9 * b.abs().max(1.0);
        assert!(close(sum.flows[0].throughput_bps, 1e6) && close(sum.flows[1].throughput_bps, 3e6));
        assert!(close(sum.throughput.mean_bps, 4e6));
        assert!(close(sum.flows[0].throughput_share, 0.25) && close(sum.flows[1].throughput_share, 0.75));
        // Jain: (1 + 3)² / (2 · (1² + 3²)) = 16 / 20.
        assert!(close(sum.jfi, 0.8), "{}", sum.jfi);
        assert!(close(sum.throughput.utilisation, 0.5));
        // (10 + 30 + 20) ms over three packets; the histograms keep values to about 1 %.
        let mean = sum.delay_mean_s.unwrap();
        assert!((mean - 0.020).abs() < 0.0005, "{mean}");
        assert_eq!(sum.window_s, 2.0);
        assert_eq!(sum.queue.mean_packets, Some(15.0));
        assert_eq!(sum.queue.max_packets, Some(30.0));
        assert_eq!(sum.queue.empty_pct, Some(25.0));
        assert_eq!((sum.drops.total_all, sum.drops.total, sum.drops.early), (3, 2, 2));
        assert!(close(sum.drops.per_second, 1.0));
        let gap = sum.drops.median_interval_ms.unwrap();
        assert!((gap - 500.0).abs() < 10.0, "{gap}");
        let marks = sum.marks.unwrap();
        assert_eq!((marks.total, marks.early), (1, 1));
        assert_eq!(marks.marked_pct, Some(50.0));
        assert_eq!((sum.flows[0].marks, sum.flows[1].marks), (0, 1));
    }
}
