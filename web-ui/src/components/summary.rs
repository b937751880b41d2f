//! The summary of each lane (the RED study's Table 5 set, the Warbler paper's Table 2 set)
//! next to the published figures when the scenario is the paper's own, the scrubbed window
//! when the time cursor is set, and the per-flow table (the first flows of a large run).

use crate::share::Origin;
use crate::state::{RunView, Shared};
use sim_core::metrics::{FlowSummary, Summary};
use sim_core::scenario::published;
use yew::prelude::*;

/// Rows of the per-flow table shown; beyond them, one line for the rest.
const FLOW_ROWS: usize = 40;

#[derive(Properties, PartialEq)]
pub struct SummaryProps {
    /// The run, with the preset it was loaded from (its own label and paper column).
    pub run: Shared<RunView>,
    pub cursor: Option<f64>,
}

fn pct(v: impl Into<Option<f64>>) -> String {
    match v.into() {
        Some(v) if v.is_finite() => format!("{v:.1} %"),
        _ => "–".into(),
    }
}

fn num(v: impl Into<Option<f64>>, prec: usize) -> String {
    match v.into() {
        Some(v) if v.is_finite() => format!("{v:.prec$}"),
        _ => "–".into(),
    }
}

fn scaled(v: Option<f64>, k: f64) -> Option<f64> {
    v.map(|x| x * k)
}

/// A row of the summary: its label, its value, and what it means (shown with it).
type Row = (&'static str, String, &'static str);

/// The rows of one run: the study's Table 5 set, then fairness and where the delay is.
fn metric_rows(s: &Summary) -> Vec<Row> {
    let q = &s.queue;
    let t = &s.throughput;
    let d = &s.drops;
    let ms = |v: Option<f64>| num(scaled(v, 1e3), 2);
    let mut rows: Vec<Row> = vec![
        ("Mean goodput (Mbit/s)", num(t.mean_bps / 1e6, 4), "New payload reaching the receivers over the window, per second."),
        (
            "Goodput std / min / max (Mbit/s)",
            format!(
                "{} / {} / {}",
                num(scaled(t.std_bps, 1e-6), 3),
                num(scaled(t.min_bps, 1e-6), 3),
                num(scaled(t.max_bps, 1e-6), 3)
            ),
            "Of the in-order goodput sampled every interval (the study's Table 8).",
        ),
        ("Goodput CV, 100 ms (study's)", pct(t.cv_pct), "Standard deviation over mean of the sampled goodput."),
        ("Goodput CV, 1 s bins", pct(t.cv_1s_pct), "The same over whole seconds: less of the in-order release after each loss."),
        ("Mean queue (pkt)", num(q.mean_packets, 2), "Packets in the queue disc at each sample (not the device queue under it)."),
        ("Queue std / median (pkt)", format!("{} / {}", num(q.std_packets, 2), num(q.median_packets, 1)), "Of the disc's queue at each sample."),
        ("Queue p90 / p99 (pkt)", format!("{} / {}", num(q.p90_packets, 1), num(q.p99_packets, 1)), "Of the disc's queue at each sample."),
        ("Empty queue", pct(q.empty_pct), "Share of samples that found the disc empty."),
        ("Drops after warm-up (study's) / all", format!("{} / {}", d.total, d.total_all), "At the bottleneck; the study counts from the end of the warm-up."),
        ("Drops per second", num(d.per_second, 2), "Drops after the warm-up over the window's length."),
        ("Median inter-drop interval (ms)", num(d.median_interval_ms, 1), "Median gap between consecutive drops: short when drops come in bursts."),
        (
            "Seconds with drops / largest in one s",
            format!("{}/{} / {}", d.seconds_with_drops, d.seconds_observed, d.max_in_one_second),
            "Whole seconds with at least one drop, and the most drops in one second.",
        ),
        ("Early / forced / overflow drops", format!("{} / {} / {}", d.early, d.forced, d.overflow), "Early: the AQM's choice below the limit; forced: RED above maxTh; overflow: the buffer was full."),
        ("Jain's index", num(s.jfi, 4), "(Σx)² / (n·Σx²) over the flows' goodput: 1 is an equal share, 1/n one flow takes all."),
        ("Jitter: mean P95 − P50 delay (ms)", num(scaled(s.jitter_s, 1e3), 2), "Per flow, the 95th minus the 50th percentile of its queueing delay, averaged over flows."),
        ("Mean queueing delay (ms)", ms(s.delay_mean_s), "Time a packet waits at the bottleneck before it starts on the wire: in the disc and, under it, in the device queue."),
    ];
    if let Some(m) = &s.marks {
        // Beside the drops they stand in for.
        let at = rows
            .iter()
            .position(|r| r.0.starts_with("Early / forced / overflow"))
            .map_or(rows.len(), |i| i + 1);
        rows.splice(at..at, [
            ("ECN marks after warm-up / all", format!("{} / {}", m.total, m.total_all), "Packets the disc marked CE in place of a drop: the sender slows down as for a loss, and nothing is resent. Only flows that negotiated ECN can be marked."),
            ("Packets marked", pct(m.marked_pct), "Of the data packets that left the bottleneck after the warm-up, the share marked CE."),
            ("Early / forced / threshold marks", format!("{} / {} / {}", m.early, m.forced, m.threshold), "Early: where the AQM would have dropped (RED, CoDel, PIE, DualPI2's coupled probability); forced: RED's hard zone without hard drops; threshold: a step on the queue (DCTCP's K, CoDel's CE threshold, DualPI2's L4S step)."),
        ]);
    }
    if let Some(device) = s.delay_device_mean_s {
        rows.push((
            "  of which in the queue disc (ms)",
            ms(s.delay_disc_mean_s),
            "The part the AQM sees and controls.",
        ));
        rows.push(("  of which in the device queue (ms)", ms(Some(device)), "The driver's DropTail queue under the disc (ns-3 has 100 packets there): the disc only fills once it is full, so an AQM cannot shorten this part."));
    }
    rows.extend([
        ("Wait in senders' access links (ms)", ms(Some(s.access_wait_mean_s)), "A data packet's wait at its own sender's link, before the bottleneck (bursts the window allows)."),
        ("Wait of ACKs on the way back (ms)", ms(Some(s.ack_wait_mean_s)), "An ACK's wait at the reverse bottleneck and its access link."),
        ("Buffer occupancy (cells)", num(s.buffer_cells_mean, 0), "What the flows hold at the bottleneck, in 160-byte cells (Warbler's Table 2), averaged over samples."),
    ]);
    if let Some(z) = s.zones() {
        let shares: Vec<String> = z.zones.iter().map(|z| pct(z.pct)).collect();
        rows.push((
            "EWMA zones <min / [min,max) / [max,2max) / ≥2max",
            shares.join(" / "),
            "Share of samples with RED's average in each zone of its thresholds (Table 7).",
        ));
    }
    rows
}

/// Published figures by row label, when the lane reproduces the RED study unmodified.
fn published_rows(origin: Option<&Origin>, label: &str) -> Option<Vec<(&'static str, String)>> {
    if origin.is_none_or(|(p, _)| p != "red-study") {
        return None;
    }
    let p = published::red_study(label)?;
    Some(vec![
        ("Mean goodput (Mbit/s)", num(p.throughput_mbps, 4)),
        (
            "Goodput std / min / max (Mbit/s)",
            format!("{} / {} / {}", p.throughput_std_mbps, p.throughput_min_mbps, p.throughput_max_mbps),
        ),
        ("Goodput CV, 100 ms (study's)", pct(p.cv_pct)),
        ("Mean queue (pkt)", num(p.queue_mean, 2)),
        ("Queue std / median (pkt)", format!("{} / {}", p.queue_std, p.queue_median)),
        ("Queue p90 / p99 (pkt)", format!("{} / {}", p.queue_p90, p.queue_p99)),
        ("Empty queue", pct(p.empty_pct)),
        ("Drops after warm-up (study's) / all", p.drops.to_string()),
        ("Drops per second", num(p.drops_per_s, 2)),
        ("Median inter-drop interval (ms)", num(p.median_interval_ms, 1)),
        ("Seconds with drops / largest in one s", format!("{}/58 / {}", p.active_seconds, p.max_burst)),
        (
            "EWMA zones <min / [min,max) / [max,2max) / ≥2max",
            format!(
                "{} / {} / {} / {}",
                pct(p.zones_pct[0]),
                pct(p.zones_pct[1]),
                pct(p.zones_pct[2]),
                pct(p.zones_pct[3])
            ),
        ),
    ])
}

/// The Warbler paper's Table 2 row for an unmodified §5.2 preset.
fn table2(origin: Option<&Origin>) -> Option<published::WarblerTable2> {
    match origin {
        Some((p, v)) if p == "cubic-bbr-vegas-3q" => {
            Some(if v == "warbler" { published::WARBLER_WITH } else { published::WARBLER_WITHOUT })
        }
        _ => None,
    }
}

#[function_component(SummaryPanel)]
pub fn summary_panel(p: &SummaryProps) -> Html {
    let run = p.run.borrow();
    let summaries: Vec<(&str, &Summary, String)> = (run.lanes.iter().enumerate())
        .filter_map(|(i, l)| l.summary.as_ref().map(|s| (l.label.as_str(), s, run.title(i))))
        .collect();
    if summaries.is_empty() {
        return html! {};
    }
    let origin = run.origin.as_ref().filter(|_| !run.modified);
    // Per lane: its label, its rows and the paper's value per row where it applies.
    type Column<'a> = (&'a str, Vec<Row>, Option<Vec<(&'static str, String)>>);
    let columns: Vec<Column> = summaries
        .iter()
        .map(|(label, s, title)| {
            let variant =
                if summaries.len() == 1 { origin.map_or(*label, |(_, v)| v.as_str()) } else { label };
            (
                title.as_str(),
                metric_rows(s),
                published_rows(origin, sim_core::scenario::red_study_algorithm(variant)),
            )
        })
        .collect();
    let labels: Vec<(&'static str, &'static str)> = columns
        .iter()
        .max_by_key(|c| c.1.len())
        .map_or(Vec::new(), |c| c.1.iter().map(|r| (r.0, r.2)).collect());
    let t2 = table2(origin);
    html! {
        <section class="summary" id="summary" aria-label="Summary">
            <h3>{ if columns.len() > 1 { "Side by side (Table 10 style), after the warm-up" } else { "Summary (after the warm-up)" } }</h3>
            if let Some(t) = p.cursor { { window_table(&run, t) } }
            <div class="table-wrap">
            <table data-testid="summary-table">
                <tr>
                    <th>{ "metric" }</th>
                    { for columns.iter().map(|(l, _, pb)| html! {
                        <>
                            <th>{ *l }</th>
                            if pb.is_some() { <th class="paper">{ "paper" }</th> }
                        </>
                    }) }
                </tr>
                { for labels.iter().map(|(label, means)| html! {
                    <tr title={*means}>
                        <td>{ *label }<span class="means">{ *means }</span></td>
                        { for columns.iter().map(|(_, rows, pb)| html! {
                            <>
                                <td class="num">{ rows.iter().find(|r| r.0 == *label).map(|r| r.1.clone()).unwrap_or_default() }</td>
                                if let Some(pb) = pb { <td class="num paper">{ pb.iter().find(|r| r.0 == *label).map_or("–".to_string(), |r| r.1.clone()) }</td> }
                            </>
                        }) }
                    </tr>
                }) }
            </table>
            </div>
            if let Some(t) = t2 {
                <p class="paper" data-testid="table2-paper">{ format!(
                    "The paper's Table 2 for this run: Jain's index {}, mean delay {:.1} ms, jitter {:.1} ms, buffer {:.0} cells.",
                    t.jfi, t.delay_mean_s * 1e3, t.jitter_s * 1e3, t.buffer_cells) }</p>
            }
            if let [(_, s, _)] = summaries.as_slice() { { links_table(s) }{ fct_table(s) }{ flows_table(s) } }
        </section>
    }
}

/// The stretch from the warm-up to the cursor, per lane, from the charts' data.
fn window_table(run: &RunView, t: f64) -> Html {
    html! {
        <table class="window" data-testid="window-table">
            <tr><th>{ format!("up to t = {t:.1} s") }</th><th>{ "goodput (Mbit/s)" }</th><th>{ "Jain's index" }</th><th>{ "mean queue (pkt)" }</th><th>{ "drops" }</th>
                <th title="CE marks at the bottleneck in place of drops">{ "marks" }</th></tr>
            { for run.lanes.iter().enumerate().map(|(i, l)| {
                let w = l.series.window(l.scenario.warmup_s, t);
                html! { <tr><td>{ run.title(i) }</td><td class="num">{ num(w.goodput_mbps, 3) }</td><td class="num">{ num(w.jfi, 3) }</td>
                    <td class="num">{ num(w.queue_mean, 2) }</td><td class="num">{ w.drops }</td><td class="num">{ w.marks }</td></tr> }
            }) }
        </table>
    }
}

/// A finite flow's rate while it was active: its bytes over the time from its start to its
/// completion, bit/s (the window average spreads them over the whole run). `None` for a
/// flow that has not completed.
pub fn active_rate_bps(f: &FlowSummary) -> Option<f64> {
    let fct = completion_s(f)?;
    (fct > 0.0).then(|| f.delivered_bytes as f64 * 8.0 / fct)
}

/// A finite flow's completion time: from its SYN to the ACK of its last byte, s.
pub fn completion_s(f: &FlowSummary) -> Option<f64> {
    Some(f.completion_time_s? - f.start_time_s?)
}

/// Every disc link's window, for a scenario that names links beyond the bottleneck (the
/// table above is the bottleneck's).
fn links_table(s: &Summary) -> Html {
    if s.links.is_empty() {
        return html! {};
    }
    let marked = s.links.iter().any(|l| l.marks > 0);
    html! {
        <div class="table-wrap"><table class="links-table" data-testid="links-table">
            <caption>{ "Each link of the route, over the window (the table above is the bottleneck's)" }</caption>
            <tr><th>{ "link" }</th><th>{ "Mbit/s" }</th>
                <th title="Bytes on the wire it sent over what its rate allows: 1 is a link never idle">{ "utilisation" }</th>
                <th title="Packets in its disc and device queue at each sample, averaged">{ "mean queue (pkt)" }</th>
                <th title="How long the packets that started on its wire waited in its disc and device queue, averaged">{ "mean delay (ms)" }</th>
                <th title="Jain's index of the goodputs of the flows that cross it: 1 when they get the same">{ "Jain's index" }</th>
                <th title="Packets its disc dropped after the warm-up: early (the AQM's choice), forced (its hard zone), overflow (the buffer was full)">{ "drops (early / forced / overflow)" }</th>
                if marked { <th title="Packets its disc marked CE after the warm-up, in place of drops">{ "CE marks" }</th> }</tr>
            { for s.links.iter().map(|l| html! {
                <tr><td>{ l.name.clone() }</td><td class="num">{ num(Some(l.rate_bps / 1e6), 1) }</td>
                    <td class="num">{ num(Some(l.utilisation), 3) }</td><td class="num">{ num(l.queue_mean_packets, 1) }</td>
                    <td class="num">{ num(l.delay_mean_ms, 2) }</td>
                    <td class="num">{ num(l.jfi, 3) }</td>
                    <td class="num">{ format!("{} ({} / {} / {})", l.drops, l.early, l.forced, l.overflow) }</td>
                    if marked { <td class="num">{ l.marks }</td> }</tr>
            }) }
        </table></div>
    }
}

/// Finite flows' completion times and slowdowns by size, for runs with finite flows.
fn fct_table(s: &Summary) -> Html {
    let Some(f) = &s.fct else { return html! {} };
    let rows = (f.by_size.iter().map(|r| (r.sizes(), r))).chain(f.all.iter().map(|r| ("all".to_string(), r)));
    let cell = |a: f64, b: f64, c: f64, prec: usize| {
        format!("{} / {} / {}", num(Some(a), prec), num(Some(b), prec), num(Some(c), prec))
    };
    html! {
        <div class="table-wrap"><table class="fct-table" data-testid="fct-table">
            <caption>{ format!("Flow completion: {} finite flows completed, {} started and not (yet) complete", f.completed, f.unfinished) }</caption>
            <tr><th>{ "size" }</th><th>{ "flows" }</th>
                <th title="From the flow's SYN to the ACK of its last byte, over the whole run">{ "completion time (s) P50 / P95 / P99" }</th>
                <th title="Its completion time over the same flow's alone on an empty path: two base RTTs (handshake, last ACK) and its bytes at the slowest link of its route. 1 = no queue and no window ever held it back">{ "slowdown P50 / P95 / P99" }</th></tr>
            { for rows.map(|(label, r)| html! {
                <tr><td>{ label }</td><td class="num">{ r.flows }</td>
                    <td class="num">{ cell(r.fct_p50_s, r.fct_p95_s, r.fct_p99_s, 3) }</td>
                    <td class="num">{ cell(r.slowdown_p50, r.slowdown_p95, r.slowdown_p99, 2) }</td></tr>
            }) }
        </table></div>
    }
}

/// A flow's queueing delay at each link of its route: `bottleneck 10.3 → hop2 9.9`, each
/// hop kept on one line.
fn hop_delays(f: &FlowSummary) -> Html {
    let last = f.hop_delays.len().saturating_sub(1);
    (f.hop_delays.iter().enumerate())
        .map(|(i, h)| html! {
            <span class="hop">{ format!("{} {}{}", h.link, num(h.mean_ms, 1), if i < last { " →" } else { "" }) }</span>
        })
        .collect()
}

/// A per-flow column's explanation, naming the link it is measured at where there are
/// several (a flow that does not cross it shows none).
fn charted_title(s: &Summary, what: &str) -> String {
    match s.links.first() {
        Some(l) => {
            format!("At {} (the charted link): {what}; a flow that does not cross it shows none", l.name)
        }
        None => format!("At the bottleneck: {what}"),
    }
}

fn flows_table(s: &Summary) -> Html {
    // Finite flows get their completion and their rate while active beside the window's
    // average, which spreads a short transfer over the whole run.
    let finite = s.flows.iter().take(FLOW_ROWS).any(|f| f.completion_time_s.is_some());
    // With links: what max-min and proportional fairness would give each flow.
    let fair = s.flows.iter().any(|f| f.max_min_bps.is_some());
    // Where anything was marked: each flow's marks.
    let marked = s.marks.is_some();
    let columns = if finite { 11 } else { 9 } + if fair { 2 } else { 0 } + usize::from(marked);
    html! {
        <div class="table-wrap"><table class="flows-table" data-testid="flows-table">
            <tr><th>{ "flow" }</th><th>{ "CCA" }</th><th>{ "goodput (Mbit/s)" }</th>
                if fair {
                    <th title="Its share under max-min fairness (every link split evenly among the flows it limits) and under proportional fairness (the rates that maximise the sum of their logarithms: a flow pays for every link it crosses), from the links' rates and the routes">{ "max-min / prop. fair (Mbit/s)" }</th>
                }
                <th>{ "share" }</th>
                if finite {
                    <th title="From the flow's SYN to the ACK of its last byte">{ "completion time (s)" }</th>
                    <th title="Bytes over the time from its start to its completion">{ "rate while active (Mbit/s)" }</th>
                }
                <th title={charted_title(s, "its packets in the queue, mean over the samples")}>{ "backlog (cells)" }</th>
                <th title={charted_title(s, "its packets' queueing delay, median and 95th percentile")}>{ "delay P50 / P95 (ms)" }</th>
                if fair {
                    <th title="Its packets' mean queueing delay at each link of its route, in order: where its delay comes from">{ "delay hop by hop (ms)" }</th>
                }
                if marked {
                    <th title={charted_title(s, "its packets marked CE after the warm-up, in place of drops")}>{ "ECN marks" }</th>
                }
                <th title="Segments sent again; for a UDP source or a ping, the share of its datagrams that did not arrive (or were not answered)">{ "retransmits" }</th><th>{ "timeouts" }</th><th>{ "fast recoveries" }</th></tr>
            { for s.flows.iter().take(FLOW_ROWS).map(|f| html! {
                <tr>
                    <td>{ f.id }</td><td>{ crate::labels::cca(&f.cca) }</td>
                    <td class="num">{ num(f.throughput_bps / 1e6, 4) }</td>
                    if fair {
                        <td class="num">{ format!("{} / {}", num(scaled(f.max_min_bps, 1e-6), 3), num(scaled(f.proportional_bps, 1e-6), 3)) }</td>
                    }
                    <td class="num">{ pct(100.0 * f.throughput_share) }</td>
                    if finite {
                        <td class="num">{ num(completion_s(f), 3) }</td>
                        <td class="num">{ num(scaled(active_rate_bps(f), 1e-6), 4) }</td>
                    }
                    <td class="num">{ num(f.backlog_cells_mean, 0) }</td>
                    <td class="num">{ format!("{} / {}", num(scaled(f.delay_p50_s, 1e3), 1), num(scaled(f.delay_p95_s, 1e3), 1)) }</td>
                    if fair {
                        <td>{ hop_delays(f) }</td>
                    }
                    if marked {
                        <td class="num">{ f.marks }</td>
                    }
                    <td class="num">{ f.loss_pct.map_or(f.retransmissions.to_string(), |l| format!("{l:.1} % lost")) }</td>
                    <td class="num">{ f.timeouts }</td><td class="num">{ f.fast_recoveries }</td>
                </tr>
            }) }
            if s.flows.len() > FLOW_ROWS {
                <tr class="more"><td colspan={columns.to_string()}>{ format!(
                    "… and {} more flows (Jain's index over all {}: {:.4}; Export results has every flow)",
                    s.flows.len() - FLOW_ROWS, s.flows.len(), s.jfi) }</td></tr>
            }
        </table></div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::scenario::{preset, FlowGroup};
    use sim_core::sim::Simulation;

    #[test]
    fn a_finite_flows_rate_is_its_bytes_over_its_active_time_not_the_runs() {
        let mut sc = preset("red-study", Some("red-nonic")).unwrap();
        (sc.duration_s, sc.warmup_s) = (10.0, 0.0);
        let bulk = FlowGroup { count: 1, start_jitter_s: 0.0, ..sc.flows[0].clone() };
        sc.flows = vec![bulk.clone(), FlowGroup { start_s: 1.0, size_bytes: Some(100_000), ..bulk }];
        let s = Simulation::new(&sc).unwrap().finish();
        assert_eq!(active_rate_bps(&s.flows[0]), None, "a bulk flow never completes");
        let f = &s.flows[1];
        let rate = active_rate_bps(f).expect("100 kB completes in 9 s");
        let active = completion_s(f).unwrap();
        assert!((f.start_time_s.unwrap() - 1.0).abs() < 1e-9);
        assert!((rate - 800_000.0 / active).abs() < 1.0, "{rate} bit/s over {active} s");
        assert!(rate > 3.0 * f.throughput_bps, "{rate} against the window's {}", f.throughput_bps);
    }
}
