//! The application component: owns the editor, the runner and the animation-frame loop.
//! Views are free functions in the submodules; everything they change comes back as a
//! [`Msg`].

mod controls_view;
mod editor_view;
mod results_view;

use crate::chart_data;
use crate::charts;
use crate::compare;
use crate::dom;
use crate::editor::{Editor, Kind};
use crate::runner::{RunState, Runner, Speed};
use crate::share;
use gloo::file::callbacks::FileReader;
use gloo::render::{request_animation_frame, AnimationFrame};
use serde_json::Value;
use sim_core::metrics::{export, Summary};
use sim_core::scenario::{preset, preset_list, Scenario};
use yew::prelude::*;

/// Wall time a frame may spend simulating; drawing comes on top.
const FRAME_BUDGET_MS: f64 = 12.0;
/// Charts redraw at most this often while running.
const DRAW_EVERY_MS: f64 = 50.0;
const SUMMARY_EVERY_MS: f64 = 500.0;
/// Charts redrawn in one frame: two keep a frame well under 50 ms of work.
const CHARTS_PER_FRAME: usize = 2;
const ALL_CHARTS: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChartId {
    Queue,
    Goodput,
    Drops,
    Backlog,
    Delay,
    Cwnd,
    CumulativeBacklog,
    Share,
    CompareQueue,
    CompareGoodput,
    CompareDrops,
}

impl ChartId {
    pub const SINGLE: [ChartId; 8] = [
        ChartId::Queue,
        ChartId::Goodput,
        ChartId::Drops,
        ChartId::Backlog,
        ChartId::Delay,
        ChartId::Cwnd,
        ChartId::CumulativeBacklog,
        ChartId::Share,
    ];
    pub const COMPARE: [ChartId; 3] = [ChartId::CompareQueue, ChartId::CompareGoodput, ChartId::CompareDrops];

    pub fn file_name(self) -> &'static str {
        match self {
            ChartId::Queue => "queue",
            ChartId::Goodput => "goodput",
            ChartId::Drops => "drops",
            ChartId::Backlog => "backlog-kde",
            ChartId::Delay => "delay-kde",
            ChartId::Cwnd => "cwnd",
            ChartId::CumulativeBacklog => "cumulative-backlog",
            ChartId::Share => "goodput-share",
            ChartId::CompareQueue => "compare-queue",
            ChartId::CompareGoodput => "compare-goodput",
            ChartId::CompareDrops => "compare-drops",
        }
    }
}

pub enum Msg {
    LoadPreset(String),
    Edit(String, String, Kind),
    Set(String, Value),
    AddFlow,
    DuplicateFlow(usize),
    RemoveFlow(usize),
    QueueType(String),
    /// A buffer limit at a path takes another unit.
    LimitUnit(String, String),
    Run,
    Pause,
    Step,
    Reset,
    SetSpeed(String),
    Frame,
    CompareMode(bool),
    CompareDisc(String, bool),
    ExportScenario,
    ImportFile(web_sys::File),
    Imported(Result<String, String>),
    ExportResults,
    DownloadPng(ChartId),
    CopyLink,
    DismissNotice,
    /// Draw the next charts of a pending refresh.
    Redraw,
}

pub struct App {
    editor: Editor,
    /// "preset/variant" last loaded, for the picker and the published figures.
    loaded: String,
    runner: Option<Runner>,
    speed: Speed,
    compare_on: bool,
    compare_discs: Vec<String>,
    raf: Option<AnimationFrame>,
    last_frame_ms: Option<f64>,
    last_draw_ms: f64,
    last_summary_ms: f64,
    summaries: Vec<(String, Summary)>,
    /// Charts still to redraw; they are drawn two per frame, in turn, to keep frames short.
    charts_left: usize,
    draw_cursor: usize,
    redraw_raf: Option<AnimationFrame>,
    notice: Option<String>,
    reader: Option<FileReader>,
    canvases: Vec<(ChartId, NodeRef)>,
}

fn preset_key(name: &str, variant: &str) -> String {
    format!("{name}/{variant}")
}

fn speed_from(s: &str) -> Speed {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 => Speed::Times(x),
        _ => Speed::Max,
    }
}

impl App {
    fn canvas(&self, id: ChartId) -> NodeRef {
        self.canvases.iter().find(|(c, _)| *c == id).map(|(_, r)| r.clone()).unwrap_or_default()
    }

    fn load(&mut self, sc: &Scenario, key: String) {
        self.editor = Editor::new(sc);
        self.loaded = key;
        self.reset();
        self.sync_url();
    }

    fn reset(&mut self) {
        self.runner = None;
        self.raf = None;
        self.summaries.clear();
        self.charts_left = ALL_CHARTS;
    }

    fn sync_url(&self) {
        if let (true, Some(sc)) = (self.editor.is_runnable(), self.editor.scenario()) {
            dom::replace_hash(&share::to_fragment(sc));
        }
    }

    /// The lanes a run starts with: the scenario, or one per disc in compare mode.
    fn build_runner(&self) -> Result<Runner, String> {
        let sc = self.editor.scenario().ok_or("the scenario is incomplete")?;
        let runs = if self.compare_on && !self.compare_discs.is_empty() {
            self.compare_discs.iter().map(|d| (d.clone(), compare::with_disc(sc, d))).collect()
        } else {
            vec![(sc.bottleneck.queue.name().to_string(), sc.clone())]
        };
        Runner::new(runs, self.speed)
    }

    fn ensure_runner(&mut self) -> bool {
        if self.runner.is_none() {
            match self.build_runner() {
                Ok(r) => self.runner = Some(r),
                Err(e) => {
                    self.notice = Some(e);
                    return false;
                }
            }
        }
        true
    }

    fn schedule_frame(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        self.raf = Some(request_animation_frame(move |_| link.send_message(Msg::Frame)));
    }

    fn refresh_summaries(&mut self, now: f64, force: bool) {
        if let Some(r) = &self.runner {
            if force || now - self.last_summary_ms >= SUMMARY_EVERY_MS {
                self.summaries = r.summaries();
                self.last_summary_ms = now;
            }
        }
    }

    /// Redraws `count` charts starting at the cursor.
    fn draw_charts(&mut self, count: usize) {
        let Some(r) = &self.runner else { return };
        let ids: &[ChartId] = if r.lanes.len() > 1 { &ChartId::COMPARE } else { &ChartId::SINGLE };
        let count = count.min(ids.len());
        let chosen: Vec<ChartId> = (0..count).map(|k| ids[(self.draw_cursor + k) % ids.len()]).collect();
        self.draw_cursor = (self.draw_cursor + count) % ids.len();
        for id in chosen {
            if let Err(e) = self.draw_chart(id) {
                web_sys::console::warn_1(&format!("chart {}: {e}", id.file_name()).into());
            }
        }
    }

    fn draw_chart(&self, id: ChartId) -> Result<(), String> {
        let Some(r) = &self.runner else { return Ok(()) };
        let x_max = r.end_s();
        let lanes: Vec<(&str, &crate::series::Series)> =
            r.lanes.iter().map(|l| (l.label.as_str(), &l.series)).collect();
        let s = &r.lanes[0].series;
        self.with_canvas(id, |c| match id {
            ChartId::CompareQueue => charts::draw_time(c, &chart_data::compare_queue(&lanes, x_max)),
            ChartId::CompareGoodput => charts::draw_time(c, &chart_data::compare_goodput(&lanes, x_max)),
            ChartId::CompareDrops => charts::draw_scatter(c, &chart_data::compare_drops(&lanes, x_max)),
            ChartId::Queue => charts::draw_time(c, &chart_data::queue_chart(s, x_max)),
            ChartId::Goodput => charts::draw_time(c, &chart_data::throughput_chart(s, x_max)),
            ChartId::Drops => charts::draw_scatter(c, &chart_data::drops_chart(s, x_max)),
            ChartId::Backlog => charts::draw_density(c, &chart_data::backlog_chart(s)),
            ChartId::Delay => charts::draw_density(c, &chart_data::delay_chart(s)),
            ChartId::Cwnd => charts::draw_time(c, &chart_data::cwnd_chart(s, x_max)),
            ChartId::CumulativeBacklog => {
                charts::draw_time(c, &chart_data::cumulative_backlog_chart(s, x_max))
            }
            ChartId::Share => charts::draw_bars(c, &chart_data::share_chart(s)),
        })
    }

    fn with_canvas(
        &self,
        id: ChartId,
        draw: impl FnOnce(&web_sys::HtmlCanvasElement) -> Result<(), String>,
    ) -> Result<(), String> {
        match self.canvas(id).cast::<web_sys::HtmlCanvasElement>() {
            Some(c) => draw(&c),
            None => Ok(()),
        }
    }

    fn export_results(&self) -> Result<(), String> {
        let r = self.runner.as_ref().ok_or("run the scenario first")?;
        for lane in &r.lanes {
            let rec = lane.sim.recorder();
            let alg = &lane.label;
            dom::download_text(
                &format!("{alg}_queue.csv"),
                "text/csv",
                &export::queue_csv(&rec.samples.kept, &rec.series_info),
            )?;
            dom::download_text(&format!("{alg}_drops.csv"), "text/csv", &export::drops_csv(&rec.drops.kept))?;
            dom::download_text(
                &format!("{alg}_throughput.csv"),
                "text/csv",
                &export::throughput_csv(&rec.samples.kept),
            )?;
            dom::download_text(
                &format!("{alg}_flows.csv"),
                "text/csv",
                &export::flows_csv(&rec.samples.kept),
            )?;
        }
        let summaries = r.summaries();
        let json = serde_json::to_string_pretty(
            &summaries.iter().map(|(l, s)| (l.clone(), s)).collect::<std::collections::BTreeMap<_, _>>(),
        )
        .map_err(|e| e.to_string())?;
        dom::download_text("summary.json", "application/json", &json)
    }
}

impl Component for App {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        let first = preset_list().into_iter().next().expect("at least one preset");
        let key = preset_key(first.name, first.default_variant);
        let default = preset(first.name, None).expect("preset builds");
        let mut app = App {
            editor: Editor::new(&default),
            loaded: key,
            runner: None,
            speed: Speed::Times(5.0),
            compare_on: false,
            compare_discs: vec!["red".into(), "ared".into(), "gentle".into()],
            raf: None,
            last_frame_ms: None,
            last_draw_ms: 0.0,
            last_summary_ms: 0.0,
            summaries: Vec::new(),
            charts_left: 0,
            draw_cursor: 0,
            redraw_raf: None,
            notice: None,
            reader: None,
            canvases: ChartId::SINGLE
                .iter()
                .chain(ChartId::COMPARE.iter())
                .map(|&c| (c, NodeRef::default()))
                .collect(),
        };
        match share::from_fragment(&dom::location_hash()) {
            Ok(Some(sc)) => {
                app.editor = Editor::new(&sc);
                app.loaded = String::new();
            }
            Ok(None) => {}
            Err(e) => app.notice = Some(format!("The link's scenario was not loaded: {e}")),
        }
        let query = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
        if query.contains("speed=max") {
            app.speed = Speed::Max;
        }
        if query.contains("autorun") {
            ctx.link().send_message(Msg::Run);
        }
        app
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::LoadPreset(key) => {
                let (name, variant) = key.split_once('/').unwrap_or((&key, ""));
                match preset(name, (!variant.is_empty()).then_some(variant)) {
                    Ok(sc) => self.load(&sc, key.clone()),
                    Err(e) => self.notice = Some(e),
                }
            }
            Msg::Edit(path, raw, kind) => {
                self.editor.edit(&path, &raw, kind);
                self.sync_url();
            }
            Msg::Set(path, v) => {
                self.editor.set(&path, v);
                self.sync_url();
            }
            Msg::AddFlow => self.editor.add_flow_group(),
            Msg::DuplicateFlow(i) => self.editor.duplicate_flow_group(i),
            Msg::RemoveFlow(i) => self.editor.remove_flow_group(i),
            Msg::QueueType(t) => {
                if let Some(sc) = self.editor.scenario() {
                    let swapped = compare::with_disc(sc, &t).bottleneck.queue;
                    self.editor.set("bottleneck.queue", serde_json::to_value(swapped).unwrap());
                    self.sync_url();
                }
            }
            Msg::LimitUnit(path, unit) => {
                // Keep the same buffer in the new unit (full-sized packets of this scenario).
                let pkt = self.editor.scenario().map_or(1500, |s| s.full_packet_bytes()) as u64;
                let bytes = match self.editor.value(&path) {
                    Some(v) if v.get("packets").is_some() => v["packets"].as_u64().unwrap_or(100) * pkt,
                    Some(v) if v.get("bytes").is_some() => v["bytes"].as_u64().unwrap_or(150_000),
                    Some(v) if v.get("cells").is_some() => {
                        let c = &v["cells"];
                        c["cells"].as_u64().unwrap_or(1000) * c["cell_bytes"].as_u64().unwrap_or(160)
                    }
                    _ => 100 * pkt,
                };
                let v = match unit.as_str() {
                    "none" => Value::Null,
                    "bytes" => serde_json::json!({ "bytes": bytes }),
                    "cells" => {
                        serde_json::json!({ "cells": { "cells": bytes.div_ceil(160), "cell_bytes": 160 } })
                    }
                    _ => serde_json::json!({ "packets": bytes.div_ceil(pkt).max(1) }),
                };
                self.editor.set(&path, v);
                self.sync_url();
            }
            Msg::Run => {
                if !self.editor.is_runnable() || !self.ensure_runner() {
                    return true;
                }
                if let Some(r) = &mut self.runner {
                    if r.state != RunState::Finished {
                        dom::mark("aqmlab-run");
                        r.state = RunState::Running;
                        r.speed = self.speed;
                        self.last_frame_ms = None;
                        self.schedule_frame(ctx);
                    }
                }
            }
            Msg::Pause => {
                if let Some(r) = &mut self.runner {
                    if r.state == RunState::Running {
                        r.state = RunState::Paused;
                    }
                }
                self.raf = None;
                self.refresh_summaries(dom::now_ms(), true);
                self.charts_left = ALL_CHARTS;
            }
            Msg::Step => {
                if !self.editor.is_runnable() || !self.ensure_runner() {
                    return true;
                }
                self.raf = None;
                if let Some(r) = &mut self.runner {
                    if r.state == RunState::Running {
                        r.state = RunState::Paused;
                    }
                    r.step(&dom::now_ms);
                }
                self.refresh_summaries(dom::now_ms(), true);
                self.charts_left = ALL_CHARTS;
            }
            Msg::Reset => self.reset(),
            Msg::SetSpeed(s) => {
                self.speed = speed_from(&s);
                if let Some(r) = &mut self.runner {
                    r.speed = self.speed;
                }
            }
            Msg::Frame => {
                let now = dom::now_ms();
                let dt = self.last_frame_ms.map_or(16.0, |t| now - t);
                self.last_frame_ms = Some(now);
                let Some(r) = &mut self.runner else { return false };
                if r.busy_ms == 0.0 {
                    dom::mark("aqmlab-first-frame");
                }
                let changed = r.frame(dt, FRAME_BUDGET_MS, &dom::now_ms);
                let running = r.state == RunState::Running;
                if r.state == RunState::Finished {
                    dom::mark("aqmlab-finished");
                }
                if changed && running && now - self.last_draw_ms >= DRAW_EVERY_MS {
                    self.charts_left = self.charts_left.max(CHARTS_PER_FRAME);
                }
                self.refresh_summaries(now, !running);
                if running {
                    self.schedule_frame(ctx);
                } else {
                    self.raf = None;
                    self.charts_left = ALL_CHARTS;
                }
            }
            Msg::CompareMode(on) => {
                self.compare_on = on;
                self.reset();
            }
            Msg::CompareDisc(d, on) => {
                self.compare_discs.retain(|x| *x != d);
                if on {
                    self.compare_discs.push(d);
                    let discs = compare::discs();
                    let order = |x: &String| discs.iter().position(|(k, _)| k == x);
                    self.compare_discs.sort_by_key(order);
                }
                self.reset();
            }
            Msg::ExportScenario => {
                if let Some(sc) = self.editor.scenario() {
                    let name = format!("{}.json", sc.name.replace(['/', ' '], "-"));
                    if let Err(e) = dom::download_text(&name, "application/json", &sc.to_json()) {
                        self.notice = Some(e);
                    }
                }
            }
            Msg::ImportFile(file) => {
                if file.size() > share::MAX_SCENARIO_BYTES as f64 {
                    self.notice = Some(format!(
                        "{} is larger than the {} KiB limit",
                        file.name(),
                        share::MAX_SCENARIO_BYTES / 1024
                    ));
                    return true;
                }
                let link = ctx.link().clone();
                let blob = gloo::file::File::from(file);
                self.reader = Some(gloo::file::callbacks::read_as_text(&blob, move |res| {
                    link.send_message(Msg::Imported(res.map_err(|e| e.to_string())))
                }));
            }
            Msg::Imported(res) => {
                self.reader = None;
                match res.and_then(|text| share::parse_checked(&text)) {
                    Ok(sc) => self.load(&sc, String::new()),
                    Err(e) => self.notice = Some(format!("Import failed: {e}")),
                }
            }
            Msg::ExportResults => {
                if let Err(e) = self.export_results() {
                    self.notice = Some(e);
                }
            }
            Msg::DownloadPng(id) => {
                if let Some(c) = self.canvas(id).cast::<web_sys::HtmlCanvasElement>() {
                    if let Err(e) = dom::download_png(&format!("{}.png", id.file_name()), &c) {
                        self.notice = Some(e);
                    }
                }
            }
            Msg::CopyLink => {
                self.sync_url();
                dom::copy_to_clipboard(&dom::full_url());
                self.notice = Some("Link copied: it opens this scenario.".into());
            }
            Msg::DismissNotice => self.notice = None,
            Msg::Redraw => self.redraw_raf = None,
        }
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        html! {
            <div class="app">
                { controls_view::header(self, link) }
                if let Some(n) = &self.notice {
                    <div class="notice" role="status">
                        <span>{ n }</span>
                        <button onclick={link.callback(|_| Msg::DismissNotice)}>{ "×" }</button>
                    </div>
                }
                <div class="layout">
                    <aside class="editor">{ editor_view::view(&self.editor, link) }</aside>
                    <main>
                        { controls_view::preset_text(self) }
                        { controls_view::controls(self, link) }
                        { results_view::charts(self, link) }
                        { results_view::summary(self) }
                    </main>
                </div>
            </div>
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, _first: bool) {
        if self.charts_left == 0 {
            return;
        }
        let n = self.charts_left.min(CHARTS_PER_FRAME);
        self.charts_left -= n;
        self.last_draw_ms = dom::now_ms();
        self.draw_charts(n);
        let running = self.runner.as_ref().is_some_and(|r| r.state == RunState::Running);
        if self.charts_left > 0 && !running {
            // Not running: no frame loop to carry the rest, so ask for one.
            let link = ctx.link().clone();
            self.redraw_raf = Some(request_animation_frame(move |_| link.send_message(Msg::Redraw)));
        }
    }
}
