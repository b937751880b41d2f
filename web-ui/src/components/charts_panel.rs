//! The live charts of a run: every single-run chart of the lane shown (in Compare, the
//! side-by-side aggregates first and a picker for the lane whose own charts follow), the
//! scrubber of a paused or finished run, and the full-screen view of one chart.

use super::chart_card::ChartCard;
use super::lecture_view::LectureView;
use super::overlay::Overlay;
use super::packet_view::PacketAsk;
use crate::chart_data::{self as cd, ChartData, CompareWhat, Frame, Level, Marker};
use crate::protocol::RunState;
use crate::state::PacketsView;
use crate::state::{RunView, Shared};
use sim_core::scenario::preset_list;
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Clone, Debug, PartialEq)]
pub enum ChartsMsg {
    Present(Option<String>),
    ForgetEarlier,
    Scrub(Option<f64>),
    Lane(usize),
}

#[derive(Properties, PartialEq)]
pub struct ChartsProps {
    pub run: Shared<RunView>,
    pub markers: Rc<Vec<(f64, String)>>,
    pub expected_jfi: Option<(f64, AttrValue)>,
    pub cursor: Option<f64>,
    pub lane: usize,
    pub present: Option<AttrValue>,
    /// Warbler's own charts (flow → queue map, weights, J, centroids) first, under the
    /// Warbler tab's controls; every other chart after them.
    #[prop_or_default]
    pub warbler_first: bool,
    pub on: Callback<ChartsMsg>,
    /// Earlier finished runs (label, aggregate lines by chart), drawn under this one's.
    pub earlier: Rc<Vec<cd::EarlierRun>>,
    /// For the packet view in the lecture view.
    pub packets: Shared<PacketsView>,
    pub on_ask: Callback<PacketAsk>,
}

/// Every chart of one lane, keyed by id.
fn lane_charts(run: &RunView, lane: usize, f: &Frame, prefix: &str) -> Vec<(String, ChartData)> {
    let Some(l) = run.lanes.get(lane) else { return Vec::new() };
    let s = &l.series;
    let target = delay_target(&l.scenario);
    let target = target.as_ref().map(|(label, steps)| (label.as_str(), steps.as_slice()));
    let mut out = vec![
        ("queue", ChartData::Time(cd::queue_chart(s, f))),
        ("delay", ChartData::Time(cd::delay_time_chart(s, f, target))),
        ("goodput", ChartData::Time(cd::throughput_chart(s, f))),
        ("fairness", ChartData::Time(cd::jfi_chart(s, f))),
        ("drops", ChartData::Scatter(cd::drops_chart(s, f))),
        ("backlog-kde", ChartData::Density(cd::backlog_chart(s))),
        ("delay-kde", ChartData::Density(cd::delay_chart(s))),
        ("cwnd", ChartData::Time(cd::cwnd_chart(s, f))),
        ("rtt", ChartData::Time(cd::rtt_chart(s, f))),
        ("cumulative-backlog", ChartData::Time(cd::cumulative_backlog_chart(s, f))),
        ("goodput-share", ChartData::Bars(cd::share_chart(s))),
    ]
    .into_iter()
    .map(|(k, c)| (format!("{prefix}{k}"), c))
    .collect::<Vec<_>>();
    if let Some(m) = cd::queue_map_chart(s, f) {
        out.push((format!("{prefix}queue-map"), ChartData::Heat(m)));
    }
    for g in s.extra_groups() {
        // The per-link charts are the network's, not an algorithm's series.
        let key = if g.starts_with("link-") { g.clone() } else { format!("series-{g}") };
        out.push((format!("{prefix}{key}"), ChartData::Time(cd::group_chart(s, &g, f))));
    }
    if let Some(a) = cd::agent_chart(s, f) {
        out.push((format!("{prefix}agent"), ChartData::Time(a)));
    }
    if let Some(a) = cd::agent_state_chart(s, f) {
        out.push((format!("{prefix}agent-state"), ChartData::Time(a)));
    }
    let sc = &l.scenario;
    let traffic = [
        ("ping-rtt", cd::traffic::ping_chart(s, f).map(ChartData::Time)),
        ("ping-cdf", cd::traffic::ping_cdf_chart(s).map(ChartData::Time)),
        ("transfer-times", cd::traffic::transfer_chart(s, sc, f).map(ChartData::Time)),
        ("fct-cdf", cd::traffic::fct_cdf_chart(s, sc).map(ChartData::Time)),
        ("slowdown", cd::traffic::slowdown_chart(s, sc).map(ChartData::Time)),
    ];
    out.extend(traffic.into_iter().filter_map(|(k, c)| Some((format!("{prefix}{k}"), c?))));
    out
}

/// The delay the lane's disc steers towards, as (from time, ms) steps through its timed
/// changes, with its label; `None` for a disc without one.
fn delay_target(sc: &sim_core::scenario::Scenario) -> Option<(String, Vec<(f64, f64)>)> {
    let target = |s: &sim_core::scenario::Scenario| s.bottleneck().queue.get().delay_target_ms();
    let mut steps: Vec<(f64, f64)> = Vec::new();
    for (at, state) in sim_core::scenario::changes::states(sc) {
        match target(&state) {
            Some(t) if steps.last().is_none_or(|s| s.1.to_bits() != t.to_bits()) => steps.push((at, t)),
            Some(_) => {}
            None if steps.is_empty() => return None,
            None => break,
        }
    }
    Some((format!("{} target", sc.bottleneck().queue.info().label), steps))
}

/// The charts Warbler's decisions draw (its map, weights, J and centroids), by key suffix.
fn is_warblers(key: &str) -> bool {
    key.ends_with("queue-map") || key.contains("series-")
}

fn lane_prefix(run: &RunView, lane: usize) -> String {
    if run.lanes.len() <= 1 {
        return String::new();
    }
    format!("{}-", run.lanes[lane].label.replace(['/', ' ', '[', ']'], "-"))
}

/// The charts shown first (Warbler's, when asked: from the first lane that runs it) and
/// the rest (in Compare the side-by-side ones, then the picked lane's), each keyed by id.
#[allow(clippy::type_complexity)]
fn all_charts(p: &ChartsProps) -> (Vec<(String, ChartData)>, Vec<(String, ChartData)>) {
    let run = p.run.borrow();
    let f = Frame {
        x_max: run.end_s.max(1e-3),
        markers: p.markers.iter().map(|(t, l)| Marker { t: *t, label: l.clone() }).collect(),
        cursor: p.cursor,
        expected_jfi: p.expected_jfi.as_ref().map(|(y, l)| Level { y: *y, label: l.to_string() }),
    };
    if run.lanes.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let lane = p.lane.min(run.lanes.len() - 1);
    let mut out: Vec<(String, ChartData)> = Vec::new();
    if run.lanes.len() > 1 {
        let titles: Vec<String> = (0..run.lanes.len()).map(|i| run.title(i)).collect();
        let lanes: Vec<(&str, &crate::series::Series)> =
            run.lanes.iter().zip(&titles).map(|(l, t)| (t.as_str(), &l.series)).collect();
        out = [
            ("compare-delay", CompareWhat::Delay),
            ("compare-rtt", CompareWhat::Rtt),
            ("compare-queue", CompareWhat::Queue),
            ("compare-goodput", CompareWhat::Goodput),
            ("compare-fairness", CompareWhat::Jfi),
            ("compare-drops", CompareWhat::Drops),
        ]
        .into_iter()
        .map(|(k, w)| (k.to_string(), ChartData::Time(cd::compare_chart(&lanes, &f, w))))
        .collect();
        // With links: each link's queue and delay, every lane on one chart.
        for link in cd::shared_links(&lanes) {
            for group in ["link-queue", "link-delay"] {
                let key = format!("compare-{group}-{link}");
                out.push((key, ChartData::Time(cd::compare_link_chart(&lanes, &f, &link, group))));
            }
        }
    }
    let mut mine = lane_charts(&run, lane, &f, &lane_prefix(&run, lane));
    if run.lanes.len() == 1 {
        for (k, c) in &mut mine {
            if let ChartData::Time(t) = c {
                cd::overlay_earlier(k, t, &p.earlier);
            }
        }
    }
    out.extend(mine);
    if !p.warbler_first {
        return (Vec::new(), out);
    }
    let runs_warbler = |i: &usize| run.lanes[*i].series.extra_groups().iter().any(|g| g == "clustering");
    let from = (0..run.lanes.len()).find(runs_warbler).unwrap_or(lane);
    let lead: Vec<(String, ChartData)> = lane_charts(&run, from, &f, &lane_prefix(&run, from))
        .into_iter()
        .filter(|(k, _)| is_warblers(k))
        .collect();
    out.retain(|(k, _)| !lead.iter().any(|(l, _)| l == k));
    (lead, out)
}

/// Charts the projector view shows at most.
pub const PROJECTED: usize = 3;

#[function_component(ChartsPanel)]
pub fn charts_panel(p: &ChartsProps) -> Html {
    // Picked for the projector view (chart ids, in the order ticked), and whether it is on.
    let picked = use_state(Vec::<String>::new);
    let projector = use_state(|| false);
    let with_packets = use_state(|| true);
    let on_pick = {
        let picked = picked.clone();
        Callback::from(move |(id, on): (AttrValue, bool)| {
            let mut v: Vec<String> = picked.iter().filter(|k| k.as_str() != id.as_str()).cloned().collect();
            if on && v.len() < PROJECTED {
                v.push(id.to_string());
            }
            picked.set(v);
        })
    };
    let (lead, rest) = all_charts(p);
    let rc = |v: Vec<(String, ChartData)>| -> Vec<(String, Rc<ChartData>)> {
        v.into_iter().map(|(k, c)| (k, Rc::new(c))).collect()
    };
    let (lead, charts) = (rc(lead), rc(rest));
    let run = p.run.borrow();
    let on_present = p.on.reform(|id: AttrValue| ChartsMsg::Present(Some(id.to_string())));
    let scrubbable = matches!(run.state, RunState::Paused | RunState::Finished) && run.now_s > 0.0;
    let interval = run.lanes.first().map_or(0.1, |l| l.series.interval_s);
    let on_scrub = p.on.reform(|e: InputEvent| {
        ChartsMsg::Scrub(e.target_unchecked_into::<HtmlInputElement>().value().parse::<f64>().ok())
    });
    let on_lane = p.on.reform(|e: Event| {
        ChartsMsg::Lane(e.target_unchecked_into::<HtmlSelectElement>().value().parse().unwrap_or(0))
    });
    let presented =
        p.present.as_ref().and_then(|id| lead.iter().chain(&charts).find(|(k, _)| k.as_str() == id.as_str()));
    let full = picked.len() >= PROJECTED;
    let card = |(k, c): &(String, Rc<ChartData>)| {
        html! { <ChartCard key={k.clone()} id={AttrValue::from(k.clone())} data={c.clone()} on_present={on_present.clone()}
        picked={Some(picked.contains(k))} pick_disabled={full} on_pick={on_pick.clone()} /> }
    };
    let projected: Vec<&(String, Rc<ChartData>)> =
        picked.iter().filter_map(|id| lead.iter().chain(&charts).find(|(k, _)| k == id)).collect();
    // The lecture view's title and points to watch: the run's preset's, if it was loaded
    // from one.
    let (title, points) =
        match run.origin.as_ref().and_then(|(n, _)| preset_list().into_iter().find(|i| i.name == n)) {
            Some(info) => {
                let t = info.texts();
                (AttrValue::from(t.title), Rc::new(t.watch_at.into_iter().zip(t.watch).collect::<Vec<_>>()))
            }
            None => (AttrValue::from("This run"), Rc::new(Vec::new())),
        };
    let toggle_packets = {
        let w = with_packets.clone();
        Callback::from(move |_: Event| w.set(!*w))
    };
    let (open, leave) = {
        let (a, b) = (projector.clone(), projector.clone());
        (Callback::from(move |_: MouseEvent| a.set(true)), Callback::from(move |()| b.set(false)))
    };
    html! {
        <section class="charts" data-samples={run.samples().to_string()} data-drops={run.drops().to_string()} aria-label="Charts">
            if run.lanes.is_empty() {
                <p class="hint">{ "Press Run (space) or Step (s) to start; the charts fill in as the simulation goes." }</p>
            }
            if scrubbable {
                <div class="scrubber">
                    <label>{ "Time cursor " }
                        <input type="range" min="0" max={format!("{}", run.now_s)} step={format!("{interval}")}
                            value={format!("{}", p.cursor.unwrap_or(run.now_s))} oninput={on_scrub} data-testid="scrubber" aria-label="Time cursor" />
                    </label>
                    <span>{ p.cursor.map_or("drag to look back; the summary follows".to_string(), |t| format!("t = {t:.1} s")) }</span>
                    if p.cursor.is_some() { <button onclick={p.on.reform(|_| ChartsMsg::Scrub(None))}>{ "Clear" }</button> }
                </div>
            }
            if !lead.is_empty() {
                <h3 class="charts-head">{ "Warbler's decisions over time" }</h3>
                <div class="grid lead" data-testid="warbler-charts">{ for lead.iter().map(card) }</div>
                <h3 class="charts-head">{ "Every chart of the run" }</h3>
            }
            if !run.lanes.is_empty() {
                <div class="projector-bar">
                    <button data-testid="projector" disabled={projected.is_empty()} onclick={open}
                        title="The charts ticked Projector, large and alone on the screen, with the preset's points to watch and the packet view">
                        { format!("Lecture view ({})", projected.len()) }</button>
                    <label><input type="checkbox" checked={*with_packets} onchange={toggle_packets} data-testid="lecture-packets" />{ " with the packet view" }</label>
                    if !p.earlier.is_empty() {
                        <span class="hint" data-testid="earlier-runs">{ format!("The queue, delay, goodput and fairness charts also show the last {} finished run{} in pale grey, labelled earlier.", p.earlier.len(), if p.earlier.len() == 1 { "" } else { "s" }) }</span>
                        <button onclick={p.on.reform(|_| ChartsMsg::ForgetEarlier)}>{ "Forget earlier runs" }</button>
                    }
                    <span class="hint">{ if projected.is_empty() {
                        "Tick Projector on two or three charts to show them large together.".to_string()
                    } else {
                        format!("{} of at most {PROJECTED} charts picked; Escape leaves the view.", projected.len())
                    } }</span>
                </div>
            }
            if run.lanes.len() > 1 {
                <label class="lane-picker">{ "Charts of each run below: " }
                    <select onchange={on_lane} aria-label="Lane shown">
                        { for run.lanes.iter().enumerate().map(|(i, l)| html! { <option value={i.to_string()} selected={i == p.lane} data-key={l.label.clone()}>{ run.title(i) }</option> }) }
                    </select>
                </label>
            }
            <div class="grid">{ for charts.iter().map(card) }</div>
            if *projector && !projected.is_empty() {
                <Overlay label="Lecture view" class="projector" close_text="Leave the lecture view" on_close={leave}>
                    <LectureView title={title} points={points} charts={projected.iter().map(|(k, c)| (k.clone(), c.clone())).collect::<Vec<_>>()}
                        on_present={on_present.clone()} with_packets={*with_packets} run={p.run.clone()} packets={p.packets.clone()}
                        lane={p.lane} cursor={p.cursor} on_ask={p.on_ask.clone()} on_scrub={p.on.reform(ChartsMsg::Scrub)} />
                </Overlay>
            }
            if let Some((k, c)) = presented {
                <Overlay label="Chart, full screen" on_close={p.on.reform(|_| ChartsMsg::Present(None))}>
                    <ChartCard id={AttrValue::from(k.clone())} data={c.clone()} on_present={on_present.clone()} large=true />
                </Overlay>
            }
        </section>
    }
}
