//! Live charts and the summary tables.

use super::{App, ChartId, Msg};
use sim_core::metrics::Summary;
use sim_core::scenario::published;
use yew::html::Scope;
use yew::prelude::*;

fn canvas(app: &App, link: &Scope<App>, id: ChartId) -> Html {
    html! {
        <figure class="chart">
            <canvas ref={app.canvas(id)} width="720" height="340" data-chart={id.file_name()}></canvas>
            <button class="png" onclick={link.callback(move |_| Msg::DownloadPng(id))}>{ "PNG" }</button>
        </figure>
    }
}

pub fn charts(app: &App, link: &Scope<App>) -> Html {
    let lanes = app.runner.as_ref().map_or(0, |r| r.lanes.len());
    let samples =
        app.runner.as_ref().map_or(0, |r| r.lanes.iter().map(|l| l.series.len()).min().unwrap_or(0));
    let drops: usize = app.runner.as_ref().map_or(0, |r| r.lanes.iter().map(|l| l.series.drops.len()).sum());
    let ids: &[ChartId] = if lanes > 1 { &ChartId::COMPARE } else { &ChartId::SINGLE };
    html! {
        <section class="charts" data-samples={samples.to_string()} data-drops={drops.to_string()}>
            if app.runner.is_none() {
                <p class="hint">{ "Press Run (or Step) to start; charts fill in as the simulation goes." }</p>
            }
            <div class="grid">{ for ids.iter().map(|&id| canvas(app, link, id)) }</div>
        </section>
    }
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

/// (label, value) rows of the study's Table 5 set for one run.
fn metric_rows(s: &Summary) -> Vec<(&'static str, String)> {
    let q = &s.queue;
    let t = &s.throughput;
    let d = &s.drops;
    let mut rows = vec![
        ("Mean goodput (Mbit/s)", num(t.mean_bps / 1e6, 4)),
        (
            "Goodput std / min / max (Mbit/s)",
            format!(
                "{} / {} / {}",
                num(scaled(t.std_bps, 1e-6), 3),
                num(scaled(t.min_bps, 1e-6), 3),
                num(scaled(t.max_bps, 1e-6), 3)
            ),
        ),
        ("Goodput CV, 100 ms (study's)", pct(t.cv_pct)),
        ("Goodput CV, 1 s bins", pct(t.cv_1s_pct)),
        ("Mean queue (pkt)", num(q.mean_packets, 2)),
        ("Queue std / median (pkt)", format!("{} / {}", num(q.std_packets, 2), num(q.median_packets, 1))),
        ("Queue p90 / p99 (pkt)", format!("{} / {}", num(q.p90_packets, 1), num(q.p99_packets, 1))),
        ("Empty queue", pct(q.empty_pct)),
        ("Drops after warm-up (study's) / all", format!("{} / {}", d.total, d.total_all)),
        ("Drops per second", num(d.per_second, 2)),
        ("Median inter-drop interval (ms)", num(d.median_interval_ms, 1)),
        (
            "Seconds with drops / largest in one s",
            format!("{}/{} / {}", d.seconds_with_drops, d.seconds_observed, d.max_in_one_second),
        ),
        ("Early / forced / overflow drops", format!("{} / {} / {}", d.early, d.forced, d.overflow)),
        ("Jain's index", num(s.jfi, 4)),
        ("Jitter: mean P95 − P50 delay (ms)", num(scaled(s.jitter_s, 1e3), 2)),
        ("Mean queueing delay (ms)", num(scaled(s.delay_mean_s, 1e3), 2)),
        ("Buffer occupancy (cells)", num(s.buffer_cells_mean, 0)),
    ];
    if let Some(z) = s.zones() {
        let shares: Vec<String> = z.zones.iter().map(|z| pct(z.pct)).collect();
        rows.push(("EWMA zones <min / [min,max) / [max,2max) / ≥2max", shares.join(" / ")));
    }
    rows
}

/// Published figures next to a lane, when the lane reproduces the RED study.
fn published_rows(app: &App, label: &str) -> Option<Vec<String>> {
    if !app.loaded.starts_with("red-study") {
        return None;
    }
    let p = published::red_study(label)?;
    Some(vec![
        num(p.throughput_mbps, 4),
        format!("{} / {} / {}", p.throughput_std_mbps, p.throughput_min_mbps, p.throughput_max_mbps),
        pct(p.cv_pct),
        "–".into(),
        num(p.queue_mean, 2),
        format!("{} / {}", p.queue_std, p.queue_median),
        format!("{} / {}", p.queue_p90, p.queue_p99),
        pct(p.empty_pct),
        p.drops.to_string(),
        num(p.drops_per_s, 2),
        num(p.median_interval_ms, 1),
        format!("{}/58 / {}", p.active_seconds, p.max_burst),
        "–".into(),
        "–".into(),
        "–".into(),
        "–".into(),
        "–".into(),
        format!(
            "{} / {} / {} / {}",
            pct(p.zones_pct[0]),
            pct(p.zones_pct[1]),
            pct(p.zones_pct[2]),
            pct(p.zones_pct[3])
        ),
    ])
}

pub fn summary(app: &App) -> Html {
    if app.summaries.is_empty() {
        return html! {};
    }
    let columns: Vec<(String, Vec<(&'static str, String)>, Option<Vec<String>>)> = app
        .summaries
        .iter()
        .map(|(label, s)| (label.clone(), metric_rows(s), published_rows(app, label)))
        .collect();
    let labels: Vec<&'static str> = columns.iter().map(|c| c.1.len()).max().map_or(Vec::new(), |n| {
        columns.iter().find(|c| c.1.len() == n).unwrap().1.iter().map(|r| r.0).collect()
    });
    html! {
        <section class="summary" id="summary">
            <h3>{ if columns.len() > 1 { "Side by side (Table 10 style)" } else { "Summary (after warm-up)" } }</h3>
            <table data-testid="summary-table">
                <tr>
                    <th>{ "metric" }</th>
                    { for columns.iter().map(|(l, _, p)| html! {
                        <>
                            <th>{ l }</th>
                            if p.is_some() { <th class="paper">{ "paper" }</th> }
                        </>
                    }) }
                </tr>
                { for labels.iter().enumerate().map(|(i, label)| html! {
                    <tr>
                        <td>{ *label }</td>
                        { for columns.iter().map(|(_, rows, p)| html! {
                            <>
                                <td class="num">{ rows.get(i).map(|r| r.1.clone()).unwrap_or_default() }</td>
                                if let Some(p) = p { <td class="num paper">{ p.get(i).cloned().unwrap_or_default() }</td> }
                            </>
                        }) }
                    </tr>
                }) }
            </table>
            if let [(_, s)] = app.summaries.as_slice() { { flows_table(s) } }
        </section>
    }
}

fn flows_table(s: &Summary) -> Html {
    html! {
        <table class="flows-table" data-testid="flows-table">
            <tr><th>{ "flow" }</th><th>{ "CCA" }</th><th>{ "goodput (Mbit/s)" }</th><th>{ "share" }</th>
                <th>{ "backlog (cells)" }</th><th>{ "delay P50 / P95 (ms)" }</th>
                <th>{ "retransmits" }</th><th>{ "timeouts" }</th><th>{ "fast recoveries" }</th></tr>
            { for s.flows.iter().map(|f| html! {
                <tr>
                    <td>{ f.id }</td><td>{ &f.cca }</td>
                    <td class="num">{ num(f.throughput_bps / 1e6, 4) }</td>
                    <td class="num">{ pct(100.0 * f.throughput_share) }</td>
                    <td class="num">{ num(f.backlog_cells_mean, 0) }</td>
                    <td class="num">{ format!("{} / {}", num(scaled(f.delay_p50_s, 1e3), 1), num(scaled(f.delay_p95_s, 1e3), 1)) }</td>
                    <td class="num">{ f.retransmissions }</td><td class="num">{ f.timeouts }</td><td class="num">{ f.fast_recoveries }</td>
                </tr>
            }) }
        </table>
    }
}
