//! The root component: owns the editor, the link to the simulation (a Web Worker), the run
//! and training views and the URL; its children get shared views and callbacks made once.

mod edits;
mod estimate;
mod files;
mod lessons;
mod live_edits;
mod sweep;
mod train;

use estimate::duration;

use super::changes_panel::ChangesPanel;
use super::charts_panel::{ChartsMsg, ChartsPanel};
use super::controls::{ControlMsg, Controls};
use super::editor_panel::{EditMsg, EditorPanel};
use super::header::{Header, HeaderMsg};
use super::lesson_panel::{LessonMsg, LessonPanel};
use super::network_view::NetworkView;
use super::packet_view::{PacketAsk, PacketView};
use super::playground::Playground;
use super::preset_info::PresetInfo;
use super::summary::SummaryPanel;
use super::sweep_panel::{SweepMsg, SweepPanel};
use super::train_panel::{TrainMsg, TrainPanel, MAX_WEIGHTS_BYTES};
use super::warbler_panel::{WarblerMsg, WarblerPanel};
use crate::compare;
use crate::dom;
use crate::editor::Editor;
use crate::link::SimLink;
use crate::live;
use crate::protocol::{FromSim, RunState, Speed, ToSim};
use crate::share::{self, Origin};
use crate::state::{PacketsView, RunView, Shared, SweepRun, SweepView, TrainView};
use gloo::events::EventListener;
use gloo::file::callbacks::FileReader;
use gloo::timers::callback::Interval;
use serde_json::Value;
use sim_core::cc::dqn::{model_weights, SHIPPED_MODEL};
use sim_core::cc::CcaSpec;
use sim_core::ml::MlpWeights;
use sim_core::scenario::{cost, preset, preset_list, published, Scenario};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Charts and the summary re-render at most this often while running.
const REDRAW_EVERY_MS: f64 = 200.0;
/// A running worker that is silent this long has died (out of memory, a trap).
const SILENT_MS: f64 = 6000.0;
/// Seconds a browser run may take (by this browser's measured rate) before asking.
const CONFIRM_S: f64 = 60.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Charts,
    Lessons,
    Sweep,
    Warbler,
    Train,
    Playground,
}

pub enum Msg {
    Edit(EditMsg),
    Header(HeaderMsg),
    Control(ControlMsg),
    Charts(ChartsMsg),
    Warbler(WarblerMsg),
    Train(TrainMsg),
    Lesson(LessonMsg),
    Packets(PacketAsk),
    Sweep(SweepMsg),
    Sim(FromSim),
    Imported(Result<String, String>),
    WeightsUploaded(Result<String, String>),
    HashChanged,
    Key(String),
    Watchdog,
    Tab(Tab),
    DismissNotice,
}

#[derive(Properties, PartialEq)]
pub struct AppProps {
    /// Run the simulation in the page instead of a worker (the browser tests).
    #[prop_or_default]
    pub local: bool,
}

pub struct App {
    editor: Shared<Editor>,
    origin: Option<Origin>,
    link: SimLink,
    run: Shared<RunView>,
    /// The time markers of the lanes the charts show (those of a run being loaded once it
    /// reports).
    markers: Rc<Vec<(f64, String)>>,
    /// Whether a run is loaded (until Reset or a new scenario): Run and Step go to it until
    /// it finishes.
    loaded: bool,
    speed: Speed,
    compare_on: bool,
    compare_discs: Rc<Vec<String>>,
    lane: usize,
    cursor: Option<f64>,
    present: Option<String>,
    tab: Tab,
    train: Shared<TrainView>,
    /// The packet view's latest stretch of a link's trace.
    packets: Shared<PacketsView>,
    /// Earlier finished runs' aggregate lines, drawn under the run's on its charts.
    earlier: Rc<Vec<crate::chart_data::EarlierRun>>,
    /// Those the charts draw: the runs before the one on them.
    earlier_shown: Rc<Vec<crate::chart_data::EarlierRun>>,
    /// The parameter sweep going and the earlier ones.
    sweep: Shared<SweepView>,
    /// The lesson open in the Lessons tab, if any.
    lesson: Shared<Option<crate::lesson::LessonView>>,
    notice: Option<String>,
    /// Preset picks refused at the confirm: the header's menu is drawn anew each time.
    refused_picks: u32,
    reader: Option<FileReader>,
    last_redraw_ms: f64,
    last_message_ms: f64,
    /// This browser's measured rates, the pace of the run going now, and the wall time it
    /// has spent running (pauses excluded).
    rates: crate::pace::RateBook,
    pace: crate::pace::Pace,
    running_ms: f64,
    /// The run was held to a real-time speed at some point: its wall time measures the
    /// speed chosen, not this browser's rate, and is not recorded.
    paced: bool,
    last_progress_ms: f64,
    /// Why the simulation cannot run (its worker failed to load or crashed), if it cannot.
    sim_down: Option<String>,
    /// The worker said it is ready (the engine in the page always is).
    sim_ready: bool,
    exports: Vec<Option<Vec<(String, String)>>>,
    cbs: Callbacks,
    _listeners: Vec<EventListener>,
    _watchdog: Interval,
}

/// Children's callbacks, made once so their props compare equal between renders.
struct Callbacks {
    edit: Callback<EditMsg>,
    header: Callback<HeaderMsg>,
    control: Callback<ControlMsg>,
    charts: Callback<ChartsMsg>,
    warbler: Callback<WarblerMsg>,
    train: Callback<TrainMsg>,
    lesson: Callback<LessonMsg>,
    packets: Callback<PacketAsk>,
    sweep: Callback<SweepMsg>,
}

fn speed_from(s: &str) -> Speed {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 => Speed::Times(x),
        _ => Speed::Max,
    }
}

fn speed_text(s: Speed) -> String {
    match s {
        Speed::Max => "max".into(),
        Speed::Times(x) => format!("{x}"),
    }
}

impl App {
    fn scenario(&self) -> Option<Scenario> {
        self.editor.borrow().scenario().cloned()
    }

    /// Whether the editor's scenario differs from the preset it came from.
    fn modified(&self) -> bool {
        match (&self.origin, self.scenario()) {
            (Some((p, v)), Some(sc)) => preset(p, Some(v)).map_or(true, |orig| orig != sc),
            _ => true,
        }
    }

    fn set_editor(&mut self, sc: &Scenario, origin: Option<Origin>) {
        let mut editor = Editor::new(sc);
        // The hints show the preset's values, also under a link to an edited preset.
        if let Some(p) = origin.as_ref().and_then(|(p, v)| preset(p, Some(v)).ok()) {
            editor = editor.with_preset(&p);
        }
        self.editor = Shared::new(editor);
        self.origin = origin;
        self.reset();
    }

    fn reset(&mut self) {
        self.forget_load();
        self.run = Shared::new(RunView::default());
        self.packets = Shared::new(PacketsView::default());
        self.markers = self.markers();
    }

    fn forget_load(&mut self) {
        self.loaded = false;
        self.cursor = None;
        self.present = None;
    }

    fn fragment(&self) -> Option<String> {
        let sc = self.scenario().filter(|_| self.editor.borrow().is_runnable())?;
        Some(share::to_fragment(&sc, self.origin.as_ref(), self.modified()))
    }

    fn sync_url(&self) {
        if let Some(f) = self.fragment() {
            dom::replace_hash(&f);
        }
    }

    /// Asks before an edited scenario is replaced.
    fn may_replace(&self) -> bool {
        !(self.origin.is_none() || self.modified())
            || self.editor.borrow().version <= 1
            || dom::confirm("Replace the scenario you edited? (Back returns to it.)")
    }

    /// The lanes a run starts with: the scenario, or one per ticked disc in Compare.
    fn lanes(&self, sc: &Scenario) -> Vec<(String, Scenario)> {
        if self.compare_on && self.compare_discs.len() >= 2 {
            return self.compare_discs.iter().map(|d| (d.clone(), compare::with_disc(sc, d))).collect();
        }
        let label = match &self.origin {
            Some((_, v)) if !self.modified() => v.clone(),
            _ => sc.bottleneck().queue.name().to_string(),
        };
        vec![(label, sc.clone())]
    }

    /// Loads the run the editor describes unless it is loaded; returns false if it cannot.
    fn ensure_loaded(&mut self, then: ToSim) -> bool {
        // A run in progress resumes whatever was edited meanwhile (an edit of a field that
        // can change became a change of the run; the others wait for the next run); a
        // finished one gives way to a new run.
        if self.loaded && !self.run_finished() {
            self.link.send(then);
            return true;
        }
        let Some(sc) = self.scenario().filter(|_| self.editor.borrow().is_runnable()) else { return false };
        let lanes = self.lanes(&sc);
        let c = lanes.iter().map(|(_, s)| cost::estimate(s).events).sum::<f64>();
        let secs =
            self.rates.seconds(lanes.iter().map(|(_, s)| estimate::work_units(s)).sum(), sc.total_flows());
        if c > cost::MAX_EVENTS {
            self.notice = Some(format!(
                "This run would take about {c:.1e} events (roughly {:.0} minutes here); shorten it, use fewer flows or a coarser sample interval, or run it from the command line.",
                secs / 60.0
            ));
            return false;
        }
        if secs > CONFIRM_S
            && !dom::confirm(&format!(
                "This run takes about {c:.1e} events: roughly {} here. Run it?",
                duration(secs)
            ))
        {
            return false;
        }
        self.earlier_shown = self.earlier.clone();
        self.pace.clear();
        self.running_ms = 0.0;
        self.paced = self.speed != Speed::Max;
        self.forget_load();
        self.loaded = true;
        self.pending_lanes(lanes.clone());
        self.link.send(ToSim::Load { lanes, speed: self.speed });
        // Right behind the Load, not after Loaded comes back: this thread may be busy
        // drawing by then. A Load the simulation refuses leaves nothing to run.
        self.link.send(then);
        self.last_redraw_ms = dom::now_ms();
        dom::mark("aqmlab-run");
        true
    }

    /// The lanes of the run being loaded, in place of the last run's but quietly: the charts
    /// keep the last run until this one reports running (a run over within a frame or two
    /// then draws once, not empty first).
    fn pending_lanes(&mut self, lanes: Vec<(String, Scenario)>) {
        let info = vec![Vec::new(); lanes.len()];
        let mut run = RunView::new(lanes, &info);
        self.label_run(&mut run);
        self.run.update_quiet(|r| *r = run);
    }

    /// The run keeps the label it was loaded under, whatever the editor does next.
    fn label_run(&self, run: &mut RunView) {
        run.origin = self.origin.clone();
        run.modified = self.modified();
        run.base = self.scenario();
    }

    /// "FIFO and CoDel", when Compare runs two discs or more.
    fn comparing(&self) -> Option<AttrValue> {
        let names: Vec<&str> = (self.compare_discs.iter())
            .filter_map(|d| compare::discs().into_iter().find(|(k, _)| k == d).map(|(_, l)| l))
            .collect();
        (self.compare_on && names.len() >= 2).then(|| match names.split_last() {
            Some((last, rest)) => AttrValue::from(format!("{} and {last}", rest.join(", "))),
            None => AttrValue::default(),
        })
    }

    fn run_finished(&self) -> bool {
        self.run.borrow().state == RunState::Finished
    }

    fn markers(&self) -> Rc<Vec<(f64, String)>> {
        let run = self.run.borrow();
        // Every lane's (Warbler switches on in one lane of an A/B run), each once.
        let mut all: Vec<(f64, String)> = Vec::new();
        for m in run.lanes.iter().flat_map(|l| l.scenario.markers()) {
            if !all.contains(&m) {
                all.push(m);
            }
        }
        // The run's preset's timed points to watch, numbered as the lecture view's callouts.
        let info = run.origin.as_ref().and_then(|(n, _)| preset_list().into_iter().find(|i| i.name == n));
        let end = run.lanes.iter().map(|l| l.scenario.duration_s).fold(0.0, f64::max);
        for (i, at) in info.map(|i| i.texts().watch_at).unwrap_or_default().into_iter().enumerate() {
            if let Some(t) = at.filter(|t| *t < end) {
                all.push((t, format!("watch {}", i + 1)));
            }
        }
        Rc::new(all)
    }

    fn expected_jfi(&self) -> Option<(f64, AttrValue)> {
        let run = self.run.borrow();
        let (p, v) = run.origin.as_ref().filter(|_| !run.modified && run.lanes.len() <= 1)?;
        published::expected_jfi(p, v).map(|(y, l)| (y, AttrValue::from(l)))
    }

    fn load_shared(&mut self, s: share::Shared) {
        self.set_editor(&s.scenario, s.origin);
    }

    fn on_sim(&mut self, m: FromSim) -> bool {
        self.last_message_ms = dom::now_ms();
        match m {
            FromSim::Loaded(info) => {
                let lanes: Vec<(String, Scenario)> =
                    self.run.borrow().lanes.iter().map(|l| (l.label.clone(), l.scenario.clone())).collect();
                let mut run = RunView::new(lanes, &info);
                {
                    let old = self.run.borrow();
                    (run.origin, run.modified, run.base) =
                        (old.origin.clone(), old.modified, old.base.clone());
                }
                self.run.update_quiet(|r| *r = run);
                false
            }
            FromSim::Progress(p) => {
                let now = dom::now_ms();
                let state = p.state;
                let was = self.run.borrow().state;
                let state_changed = state != was;
                if was == RunState::Running {
                    self.running_ms += now - self.last_progress_ms;
                }
                self.last_progress_ms = now;
                self.pace.push(now, p.now_s);
                self.run.update_quiet(|r| r.apply(p, now));
                // While running, at most every REDRAW_EVERY_MS counted from the start (a run
                // over sooner draws once, at its end); at once when it pauses or ends. A
                // loaded run is Ready only until the Run or Step sent behind its Load.
                let redraw = match state {
                    RunState::Ready => false,
                    RunState::Running => now - self.last_redraw_ms >= REDRAW_EVERY_MS,
                    RunState::Paused | RunState::Finished => true,
                };
                if redraw {
                    self.run.touch();
                    self.markers = self.markers();
                    self.last_redraw_ms = now;
                }
                if state == RunState::Finished && state_changed {
                    dom::mark("aqmlab-finished");
                    let run = self.run.borrow();
                    let flows = run.lanes.iter().map(|l| l.scenario.total_flows()).max().unwrap_or(1);
                    // The rate is kept in the estimate's units (events and the work beside
                    // them), so an estimate divided by it is a time.
                    let events =
                        run.lanes.iter().map(|l| estimate::work_units(&l.scenario)).sum::<f64>() as u64;
                    drop(run);
                    self.rates.record(flows, events, self.running_ms, self.paced);
                    self.keep_earlier();
                    self.lesson_run_finished();
                }
                true
            }
            FromSim::Episode(r) => {
                self.train.update(|t| t.curve.push(r));
                true
            }
            FromSim::Trained { weights, digest } => {
                // The page validates scenarios too, so it must know the model the worker runs.
                if let Err(e) = sim_core::cc::dqn::register_model("trained", &weights) {
                    self.notice = Some(format!("The trained weights cannot be used: {e}"));
                }
                self.link.send(ToSim::RegisterModel { id: "trained".into(), weights: weights.clone() });
                self.train.update(|t| {
                    t.running = false;
                    t.weights = Some((weights, digest));
                    t.ended_ms = Some(dom::now_ms());
                });
                true
            }
            FromSim::Evaluated(runs) => {
                self.train.update(|t| {
                    t.evaluating = false;
                    t.evaluation = Some(runs);
                });
                true
            }
            FromSim::Files { lane, files } => {
                if let Some(slot) = self.exports.get_mut(lane) {
                    *slot = Some(files);
                }
                if !self.exports.is_empty() && self.exports.iter().all(Option::is_some) {
                    let files: Vec<(String, String)> = self.exports.drain(..).flatten().flatten().collect();
                    // Named after the run exported (its lanes, and how far it got), not the editor.
                    let run = self.run.borrow();
                    let scenario = run.base.as_ref().or(run.lanes.first().map(|l| &l.scenario));
                    let lanes: Vec<&str> = run.lanes.iter().map(|l| l.label.as_str()).collect();
                    let name = crate::archive_name::zip_name(
                        scenario.map_or("results", |s| s.name.as_str()),
                        &lanes,
                        crate::archive_name::exported_at(&files),
                        scenario.map_or(0.0, |s| s.duration_s),
                    );
                    drop(run);
                    if let Err(e) = dom::download_bytes(&name, "application/zip", &crate::zip::zip(&files)) {
                        self.notice = Some(e);
                    }
                }
                false
            }
            FromSim::Packets { lane, words, queue_names, replayed } => {
                let Some(window) = sim_core::net::packet_trace::TraceWindow::from_words(&words, queue_names)
                else {
                    self.packets.update_quiet(|p| p.asked = false);
                    return false;
                };
                self.packets.update(|p| {
                    if p.lane != lane {
                        p.windows.clear();
                    }
                    p.windows.insert(window.link, Rc::new(window));
                    p.lane = lane;
                    p.replayed = replayed;
                    p.asked = false;
                });
                true
            }
            FromSim::SweepPoint(point) => {
                self.sweep.update(|s| {
                    if let Some(r) = &mut s.running {
                        r.points.push(point);
                    }
                });
                true
            }
            FromSim::SweepDone(error) => {
                self.sweep.update(|s| s.finish(error));
                true
            }
            FromSim::Changed(results) => {
                self.on_changed(&results);
                true
            }
            FromSim::Ready => {
                self.sim_down = None;
                self.sim_ready = true;
                true
            }
            FromSim::Unavailable(e) => {
                if self.sim_down.is_none() {
                    web_sys::console::error_1(&e.clone().into());
                    self.sim_down = Some(e);
                }
                self.run.update(|r| {
                    if r.state == RunState::Running {
                        r.state = RunState::Paused;
                    }
                });
                self.train.update(|t| {
                    t.running = false;
                    t.evaluating = false;
                });
                true
            }
            FromSim::Error(e) => {
                self.train.update(|t| {
                    if t.running || t.evaluating {
                        t.running = false;
                        t.evaluating = false;
                        t.error = Some(e.clone());
                    }
                });
                self.notice = Some(e);
                true
            }
        }
    }

    fn on_control(&mut self, m: ControlMsg) {
        match m {
            ControlMsg::Run => {
                self.cursor = None;
                self.ensure_loaded(ToSim::Run);
            }
            ControlMsg::Pause => self.link.send(ToSim::Pause),
            ControlMsg::Step => {
                self.ensure_loaded(ToSim::Step);
            }
            ControlMsg::Reset => {
                self.link.send(ToSim::Pause);
                self.reset();
            }
            ControlMsg::Speed(s) => {
                self.speed = speed_from(&s);
                self.paced |= self.speed != Speed::Max;
                self.link.send(ToSim::SetSpeed(self.speed));
            }
            ControlMsg::Compare(on) => {
                if self.run.borrow().state == RunState::Finished
                    && !dom::confirm("Switch modes and clear the finished run?")
                {
                    return;
                }
                self.compare_on = on;
                self.reset();
            }
            ControlMsg::CompareDisc(d, on) => {
                let finished = self.run.borrow().state == RunState::Finished && self.compare_on;
                if finished && !dom::confirm("Change the compared discs and clear the finished run?") {
                    return;
                }
                let mut discs: Vec<String> =
                    self.compare_discs.iter().filter(|x| **x != d).cloned().collect();
                if on {
                    discs.push(d);
                }
                let order = compare::discs();
                discs.sort_by_key(|x| order.iter().position(|(k, _)| k == x));
                self.compare_discs = Rc::new(discs);
                self.reset();
            }
        }
    }

    fn ab_run(&mut self) {
        let Some(sc) = self.scenario() else { return };
        let sim_core::aqm::QueueDiscSpec::Switch(port) = &sc.bottleneck().queue else { return };
        let mut without = sc.clone();
        if let sim_core::aqm::QueueDiscSpec::Switch(p) = &mut without.bottleneck_mut().queue {
            p.control = Default::default();
        }
        let _ = port;
        let lanes = vec![("without Warbler".to_string(), without), ("with Warbler".to_string(), sc)];
        self.forget_load();
        self.loaded = true;
        self.pending_lanes(lanes.clone());
        self.link.send(ToSim::Load { lanes, speed: self.speed });
        self.link.send(ToSim::Run);
        self.last_redraw_ms = dom::now_ms();
        self.tab = Tab::Charts;
    }
}

impl Component for App {
    type Message = Msg;
    type Properties = AppProps;

    fn create(ctx: &Context<Self>) -> Self {
        let link = ctx.link();
        let cbs = Callbacks {
            edit: link.callback(Msg::Edit),
            header: link.callback(Msg::Header),
            control: link.callback(Msg::Control),
            charts: link.callback(Msg::Charts),
            warbler: link.callback(Msg::Warbler),
            train: link.callback(Msg::Train),
            lesson: link.callback(Msg::Lesson),
            packets: link.callback(Msg::Packets),
            sweep: link.callback(Msg::Sweep),
        };
        let sim = SimLink::new(link.callback(Msg::Sim), ctx.props().local);
        let sim_ready = !sim.in_worker();
        let first = preset_list().into_iter().next().expect("at least one preset");
        let default = preset(first.name, None).expect("preset builds");
        let mut listeners = Vec::new();
        if let Some(w) = web_sys::window() {
            let l = link.clone();
            listeners.push(EventListener::new(&w, "hashchange", move |_| l.send_message(Msg::HashChanged)));
            let l = link.clone();
            listeners.push(EventListener::new(&w, "keydown", move |e| {
                let Some(k) = e.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                let typing =
                    e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).is_some_and(|el| {
                        matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA" | "BUTTON")
                    });
                if !typing && !k.ctrl_key() && !k.meta_key() && !k.alt_key() {
                    if k.key() == " " {
                        e.prevent_default();
                    }
                    l.send_message(Msg::Key(k.key()));
                }
            }));
        }
        let l = link.clone();
        let mut app = App {
            editor: Shared::new(Editor::new(&default).with_preset(&default)),
            origin: Some((first.name.to_string(), first.default_variant.to_string())),
            link: sim,
            run: Shared::new(RunView::default()),
            markers: Rc::default(),
            loaded: false,
            speed: Speed::Times(5.0),
            compare_on: false,
            compare_discs: Rc::new(preset_discs(first.name)),
            lane: 0,
            cursor: None,
            present: None,
            tab: Tab::Charts,
            train: Shared::new(TrainView::default()),
            lesson: Shared::new(None),
            packets: Shared::new(PacketsView::default()),
            sweep: Shared::new(SweepView::default()),
            earlier: Rc::new(Vec::new()),
            earlier_shown: Rc::new(Vec::new()),
            notice: None,
            refused_picks: 0,
            reader: None,
            last_redraw_ms: 0.0,
            last_message_ms: dom::now_ms(),
            rates: Default::default(),
            pace: Default::default(),
            running_ms: 0.0,
            paced: false,
            last_progress_ms: dom::now_ms(),
            sim_down: None,
            sim_ready,
            exports: Vec::new(),
            cbs,
            _listeners: listeners,
            _watchdog: Interval::new(2000, move || l.send_message(Msg::Watchdog)),
        };
        // A lesson's link opens it (and its work) in the Lessons tab.
        match crate::lesson::from_fragment(&dom::location_hash()) {
            Some(Ok(v)) => {
                app.lesson = Shared::new(Some(v));
                app.tab = Tab::Lessons;
            }
            Some(Err(e)) => app.notice = Some(format!("The link's lesson was not opened: {e}")),
            None => {}
        }
        match share::from_fragment(&dom::location_hash()) {
            Ok(Some(s)) => app.load_shared(s),
            // The first screen teaches: the default preset's FIFO and CoDel side by side.
            Ok(None) => {
                app.compare_on = true;
                app.compare_discs = Rc::new(vec!["fifo".into(), "codel".into()]);
            }
            Err(e) => app.notice = Some(format!("The link's scenario was not loaded: {e}")),
        }
        let query = dom::query();
        if query.contains("speed=max") {
            app.speed = Speed::Max;
        }
        if query.contains("autorun") {
            link.send_message(Msg::Control(ControlMsg::Run));
        }
        dom::remove_loading();
        app
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Edit(m) => self.on_edit(m),
            Msg::Header(m) => self.on_header(ctx, m),
            Msg::Control(m) => self.on_control(m),
            Msg::Charts(m) => match m {
                ChartsMsg::Present(p) => self.present = p,
                ChartsMsg::Scrub(t) => self.cursor = t,
                ChartsMsg::ForgetEarlier => {
                    (self.earlier, self.earlier_shown) = (Rc::default(), Rc::default())
                }
                ChartsMsg::Lane(l) => self.lane = l,
            },
            Msg::Warbler(WarblerMsg::AbRun) => self.ab_run(),
            Msg::Train(m) => self.on_train(ctx, m),
            Msg::Lesson(m) => self.on_lesson(m),
            Msg::Sweep(m) => self.on_sweep(m),
            Msg::Sim(m) => return self.on_sim(m),
            Msg::Imported(r) => match r.and_then(|t| share::parse_checked(&t)) {
                Ok(sc) if self.may_replace() => {
                    let origin = preset_list()
                        .into_iter()
                        .flat_map(|p| p.variants.iter().map(move |v| (p.name, *v)))
                        .find(|(p, v)| preset(p, Some(v)).is_ok_and(|s| s == sc));
                    self.set_editor(&sc, origin.map(|(p, v)| (p.to_string(), v.to_string())));
                    if let Some(f) = self.fragment() {
                        dom::push_hash(&f);
                    }
                }
                Ok(_) => {}
                Err(e) => self.notice = Some(format!("Not imported (your scenario is unchanged): {e}")),
            },
            Msg::WeightsUploaded(r) => {
                let parsed = r.and_then(|t| {
                    let w = MlpWeights::from_json(&t)
                        .map_err(|e| e.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("; "))?;
                    sim_core::cc::dqn::register_model("trained", &w)?;
                    Ok(w)
                });
                match parsed {
                    Ok(w) => {
                        let digest = w.digest();
                        self.link.send(ToSim::RegisterModel { id: "trained".into(), weights: w.clone() });
                        self.train.update(|t| t.weights = Some((w, digest)));
                        self.notice = Some("Weights loaded: the tests use them.".into());
                    }
                    Err(e) => self.notice = Some(format!("Weights not loaded (nothing changed): {e}")),
                }
            }
            Msg::HashChanged => {
                let hash = dom::location_hash();
                if Some(hash.trim_start_matches('#').to_string()) == self.fragment() {
                    return false;
                }
                match share::from_fragment(&hash) {
                    Ok(Some(s)) => self.load_shared(s),
                    Ok(None) => return false,
                    Err(e) => self.notice = Some(format!("The link's scenario was not loaded: {e}")),
                }
            }
            Msg::Key(k) => match k.as_str() {
                " " => {
                    let running = self.run.borrow().state == RunState::Running;
                    self.on_control(if running { ControlMsg::Pause } else { ControlMsg::Run });
                }
                "s" => self.on_control(ControlMsg::Step),
                "Escape" => self.present = None,
                _ => return false,
            },
            Msg::Watchdog => {
                let running = self.run.borrow().state == RunState::Running || self.train.borrow().running;
                if running && self.link.in_worker() && dom::now_ms() - self.last_message_ms > SILENT_MS {
                    crate::panic::show_banner("The simulation stopped answering (it may have run out of memory). Reset or reload the page; your scenario is in the address bar.");
                    self.last_message_ms = f64::INFINITY;
                }
                return false;
            }
            Msg::Tab(t) => self.tab = t,
            Msg::Packets(a) => {
                if !self.packets.borrow().asked {
                    self.packets.update_quiet(|p| p.asked = true);
                    self.link.send(ToSim::Packets {
                        lane: a.lane,
                        link: a.link,
                        events: a.events,
                        at_s: a.at_s,
                    });
                }
                return false;
            }
            Msg::DismissNotice => self.notice = None,
        }
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let ed = self.editor.borrow();
        let run = self.run.borrow();
        let modified = self.modified();
        let down = self.sim_down.iter().map(|e| crate::editor::Problem {
            path: String::new(),
            place: "Simulation".into(),
            text: e.clone(),
        });
        let messages = Rc::new(down.chain(ed.problems()).collect::<Vec<_>>());
        let runnable = ed.is_runnable() && self.sim_down.is_none();
        let state = (!run.lanes.is_empty()).then_some(run.state);
        let (now_s, end_s) = if run.lanes.is_empty() {
            (0.0, self.scenario().map_or(0.0, |s| s.duration_s))
        } else {
            (run.now_s, run.end_s)
        };
        let eps = run.events_per_s;
        drop(run);
        drop(ed);
        let link = ctx.link();
        let tab = |t: Tab, label: &str, id: &str| {
            html! { <button role="tab" aria-selected={(self.tab == t).to_string()} class={classes!("tab", (self.tab == t).then_some("active"))} data-testid={id.to_string()} onclick={link.callback(move |_| Msg::Tab(t))}>{ label }</button> }
        };
        // The diagram draws the editor's scenario, or in a lesson the run's (its runs are
        // not the editor's scenario).
        let diagram = match self.tab {
            Tab::Lessons => {
                self.run.borrow().lanes.get(self.lane).map(|l| l.scenario.clone()).or_else(|| self.scenario())
            }
            _ => self.scenario(),
        };
        let charts = html! {
            <>
                <NetworkView scenario={diagram} run={self.run.clone()} lane={self.lane} cursor={self.cursor} />
                <PacketView run={self.run.clone()} packets={self.packets.clone()} lane={self.lane} cursor={self.cursor} on_ask={self.cbs.packets.clone()} />
                <ChartsPanel run={self.run.clone()} markers={self.markers.clone()} expected_jfi={self.expected_jfi()} cursor={self.cursor}
                    lane={self.lane} present={self.present.clone().map(AttrValue::from)} warbler_first={self.tab == Tab::Warbler} on={self.cbs.charts.clone()}
                    packets={self.packets.clone()} on_ask={self.cbs.packets.clone()} earlier={self.earlier_shown.clone()} />
                <SummaryPanel run={self.run.clone()} cursor={self.cursor} />
            </>
        };
        html! {
            <div class="app" data-engine={if self.link.in_worker() { "worker" } else { "page" }} data-sim={match (&self.sim_down, self.sim_ready) { (Some(_), _) => "down", (None, true) => "up", (None, false) => "starting" }}>
                <Header origin={self.origin.clone()} {modified} can_export={state.is_some()} refused_picks={self.refused_picks} on={self.cbs.header.clone()} />
                if let Some(n) = &self.notice {
                    <div class="notice" role="status">
                        <span>{ n }</span>
                        <button onclick={link.callback(|_| Msg::DismissNotice)} aria-label="Dismiss">{ "×" }</button>
                    </div>
                }
                <div class="layout">
                    <main>
                        // Training has controls of its own: the scenario's run controls give way.
                        if self.tab != Tab::Train {
                            <PresetInfo origin={self.origin.clone()} {modified} comparing={self.comparing()} />
                            <Controls {state} {now_s} {end_s} events_per_s={eps} {runnable} messages={messages}
                                speed={AttrValue::from(speed_text(self.speed))} compare_on={self.compare_on}
                                compare_discs={self.compare_discs.clone()} cost={self.cost_text()} on={self.cbs.control.clone()} />
                        }
                        <nav class="tabs" role="tablist">
                            { tab(Tab::Charts, "Charts", "tab-charts") }
                            { tab(Tab::Lessons, "Lessons", "tab-lessons") }
                            { tab(Tab::Sweep, "Sweep", "tab-sweep") }
                            { tab(Tab::Warbler, "Warbler", "tab-warbler") }
                            { tab(Tab::Train, "Train a DQN", "tab-train") }
                            { tab(Tab::Playground, "Clustering playground", "tab-playground") }
                        </nav>
                        { match self.tab {
                            Tab::Charts => charts,
                            Tab::Lessons => html! { <>
                                <LessonPanel lesson={self.lesson.clone()} run={self.run.clone()} on={self.cbs.lesson.clone()} />
                                { charts }
                            </> },
                            Tab::Warbler => html! { <>
                                <WarblerPanel editor={self.editor.clone()} run={self.run.clone()} on_edit={self.cbs.edit.clone()} on={self.cbs.warbler.clone()} />
                                { charts }
                            </> },
                            Tab::Train => html! { <TrainPanel train={self.train.clone()} on={self.cbs.train.clone()} /> },
                            Tab::Playground => html! { <Playground /> },
                            Tab::Sweep => html! { <SweepPanel sweep={self.sweep.clone()} scenario={self.scenario()} on={self.cbs.sweep.clone()} /> },
                        } }
                    </main>
                    <aside class="editor" aria-label="Scenario editor">
                        <details open=true class="editor-toggle"><summary>{ "Scenario" }</summary>
                            <EditorPanel editor={self.editor.clone()} on={self.cbs.edit.clone()} />
                            <ChangesPanel editor={self.editor.clone()} on={self.cbs.edit.clone()} />
                        </details>
                    </aside>
                </div>
            </div>
        }
    }
}

/// The Compare picker's keys of the discs a preset compares (its `compared` variants).
fn preset_discs(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let info = preset_list().into_iter().find(|p| p.name == name);
    for v in info.map_or(&[][..], |p| p.compared) {
        if let Ok(sc) = preset(name, Some(v)) {
            let d = sc.bottleneck().queue.name().to_string();
            if !out.contains(&d) {
                out.push(d);
            }
        }
    }
    out
}
