//! What the page knows about the current run and training, shared with the views through
//! [`Shared`]: an `Rc<RefCell<_>>` with a version number, so a view re-renders only when
//! what it shows changed, never because the editor or a button did.

use crate::protocol::{EvalRun, Progress, RunState};
use crate::series::Series;
use sim_core::metrics::Summary;
use sim_core::ml::MlpWeights;
use sim_core::scenario::Scenario;
use sim_core::train::EpisodeReport;
use std::cell::{Ref, RefCell};
use std::rc::Rc;

/// A value shared with views; equal while neither the value nor its version changed.
pub struct Shared<T> {
    cell: Rc<RefCell<T>>,
    version: u64,
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared { cell: self.cell.clone(), version: self.version }
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.cell, &other.cell) && self.version == other.version
    }
}

impl<T> Shared<T> {
    pub fn new(v: T) -> Shared<T> {
        Shared { cell: Rc::new(RefCell::new(v)), version: 0 }
    }

    pub fn borrow(&self) -> Ref<'_, T> {
        self.cell.borrow()
    }

    /// Changes the value; views see a new version.
    pub fn update<R>(&mut self, f: impl FnOnce(&mut T) -> R) -> R {
        self.version += 1;
        f(&mut self.cell.borrow_mut())
    }

    /// Changes the value without a new version: views catch up at the next [`Self::touch`]
    /// (progress arrives faster than charts are worth redrawing).
    pub fn update_quiet<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        f(&mut self.cell.borrow_mut())
    }

    /// A new version without a change, for what [`Self::update_quiet`] changed.
    pub fn touch(&mut self) {
        self.version += 1;
    }

    pub fn version(&self) -> u64 {
        self.version
    }
}

/// One lane of a run: its chart data and latest summary.
pub struct Lane {
    pub label: String,
    pub scenario: Scenario,
    pub series: Series,
    pub summary: Option<Summary>,
}

/// One sweep: what it varied, its points so far, and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepRun {
    /// What it ran on (the preset's name, or "custom scenario").
    pub label: String,
    pub spec: crate::sweep::SweepSpec,
    pub points: Vec<crate::sweep::SweepPoint>,
    /// Why it ended early, if it did.
    pub error: Option<String>,
}

/// The sweep going and the earlier ones (the history the chart overlays).
#[derive(Default)]
pub struct SweepView {
    pub running: Option<SweepRun>,
    pub history: Vec<SweepRun>,
}

impl SweepView {
    /// Sweeps the history keeps (the oldest goes first).
    pub const KEPT: usize = 6;

    /// The running sweep ended (`error`: why early): into the history.
    pub fn finish(&mut self, error: Option<String>) {
        if let Some(mut r) = self.running.take() {
            r.error = error;
            self.history.push(r);
            if self.history.len() > Self::KEPT {
                self.history.remove(0);
            }
        }
    }
}

/// The packet view's data: the last stretch of a link's trace the simulation sent.
#[derive(Default)]
pub struct PacketsView {
    /// By link, the latest window sent for it.
    pub windows: std::collections::BTreeMap<u32, Rc<sim_core::net::packet_trace::TraceWindow>>,
    /// Whose windows they are.
    pub lane: usize,
    /// The lane was run again to reach the time asked for.
    pub replayed: bool,
    /// A question is out (the view asks one at a time).
    pub asked: bool,
}

/// The run as the page shows it.
pub struct RunView {
    pub state: RunState,
    pub now_s: f64,
    pub end_s: f64,
    /// Events per wall-clock second over the last second (not per busy millisecond).
    pub events_per_s: f64,
    pub lanes: Vec<Lane>,
    /// The preset the run was loaded from, and whether its scenario was edited then: the
    /// run keeps its own label and paper column whatever the editor does afterwards.
    pub origin: Option<crate::share::Origin>,
    pub modified: bool,
    /// The editor's scenario when the run was loaded (an edit during the run reverts to it
    /// and becomes a timed change).
    pub base: Option<Scenario>,
    /// Wall time and events at the start of the current rate window.
    rate_mark: Option<(f64, u64)>,
}

impl Default for RunView {
    fn default() -> Self {
        RunView {
            state: RunState::Ready,
            now_s: 0.0,
            end_s: 0.0,
            events_per_s: 0.0,
            lanes: Vec::new(),
            origin: None,
            modified: true,
            base: None,
            rate_mark: None,
        }
    }
}

impl RunView {
    pub fn new(lanes: Vec<(String, Scenario)>, info: &[Vec<sim_core::trace::SeriesInfo>]) -> RunView {
        let lanes = lanes
            .into_iter()
            .zip(info)
            .map(|((label, sc), info)| {
                let in_cells =
                    matches!(sc.bottleneck().queue.limit(), sim_core::queue::QueueLimit::Cells { .. });
                let mut series = Series::new(
                    sc.total_flows() as usize,
                    sc.sample_interval_s,
                    sc.tcp.mss_bytes,
                    in_cells,
                    info,
                );
                series.device_queue = sc.bottleneck().nic_queue_packets > 0;
                let cell = (sc.bottleneck().queue)
                    .get()
                    .limit()
                    .cell_bytes()
                    .unwrap_or(sim_core::switch::TOFINO2_CELL_BYTES);
                series.cells_per_packet = sim_core::queue::cells_for(sc.full_packet_bytes(), cell) as f64;
                series.flow_cca = crate::labels::flow_ccas(&sc);
                series.link_mbps = peak_rate_bps(&sc) / 1e6;
                series.fair_shares = flow_fair_shares(&sc);
                series.charted_link = sc.has_links().then(|| sc.bottleneck_name().to_string());
                series.in_fairness = (sc.flows.iter())
                    .flat_map(|g| std::iter::repeat_n(!g.cca.is_probe() && !g.recycles(), g.count as usize))
                    .collect();
                Lane { label, scenario: sc, series, summary: None }
            })
            .collect();
        RunView { lanes, ..RunView::default() }
    }

    /// Folds in a progress message; `wall_ms` measures the event rate over wall time.
    pub fn apply(&mut self, p: Progress, wall_ms: f64) {
        self.state = p.state;
        self.now_s = p.now_s;
        self.end_s = p.end_s;
        let events: u64 = p.lanes.iter().map(|l| l.update.events).sum();
        match self.rate_mark {
            Some((t0, e0)) if wall_ms - t0 >= 1000.0 => {
                self.events_per_s = (events.saturating_sub(e0)) as f64 / (wall_ms - t0) * 1e3;
                self.rate_mark = Some((wall_ms, events));
            }
            None => self.rate_mark = Some((wall_ms, events)),
            _ => {}
        }
        if p.state != RunState::Running {
            self.rate_mark = None;
        }
        for (lane, lp) in self.lanes.iter_mut().zip(p.lanes) {
            lane.series.push(&lp.update, &lp.cc);
            lane.series.set_delays(lp.delays);
            if lp.summary.is_some() {
                lane.summary = lp.summary;
            }
        }
    }

    /// What a lane is called on the page: a preset variant's or a disc's label, never its
    /// key (`ared-nic1`, `fq_codel`); labels that are words already ("with Warbler") stay.
    pub fn title(&self, lane: usize) -> String {
        let Some(l) = self.lanes.get(lane) else { return String::new() };
        if l.label.contains(' ') {
            return l.label.clone();
        }
        let variant = self.origin.as_ref().filter(|(_, v)| self.lanes.len() == 1 && *v == l.label);
        let info =
            variant.and_then(|(p, _)| sim_core::scenario::preset_list().into_iter().find(|i| i.name == p));
        match info.and_then(|i| crate::labels::variants(&i).into_iter().find(|(v, _)| *v == l.label)) {
            Some((_, label)) => label,
            None => crate::labels::disc(&l.scenario.bottleneck().queue),
        }
    }

    /// The lane's scenario with the changes made so far, and each lane's changes.
    pub fn record_changes(&mut self, results: &[Result<sim_core::scenario::TimedChange, String>]) {
        for (lane, r) in self.lanes.iter_mut().zip(results) {
            if let Ok(c) = r {
                lane.scenario.changes.push(c.clone());
                lane.series.link_mbps = peak_rate_bps(&lane.scenario) / 1e6;
            }
        }
    }

    pub fn samples(&self) -> usize {
        self.lanes.iter().map(|l| l.series.len()).min().unwrap_or(0)
    }

    pub fn drops(&self) -> usize {
        self.lanes.iter().map(|l| l.series.drops.len()).sum()
    }
}

/// The bottleneck's highest rate over the run, bit/s: its rate at the start or after any of
/// its timed changes.
pub fn peak_rate_bps(sc: &Scenario) -> f64 {
    let states = sim_core::scenario::changes::states(sc);
    states.iter().map(|(_, s)| s.bottleneck().rate_bps).max().unwrap_or(0) as f64
}

/// Training and testing the DQN agent in the browser.
#[derive(Default)]
pub struct TrainView {
    pub running: bool,
    pub curve: Vec<EpisodeReport>,
    pub weights: Option<(MlpWeights, u64)>,
    pub evaluation: Option<Vec<EvalRun>>,
    pub evaluating: bool,
    pub error: Option<String>,
    /// Wall time training started and ended (ms), for the speed figure.
    pub started_ms: f64,
    pub ended_ms: Option<f64>,
}

/// Each flow's max-min and proportionally fair goodput (bit/s of payload) in a scenario with
/// links; `None` for a dumbbell.
pub fn flow_fair_shares(sc: &Scenario) -> Option<(Vec<f64>, Vec<f64>)> {
    let f = sim_core::scenario::topology::fair_shares(sc)?;
    let per_flow = |v: &[f64]| -> Vec<f64> {
        (sc.flows.iter().zip(v)).flat_map(|(g, x)| std::iter::repeat_n(*x, g.count as usize)).collect()
    };
    Some((per_flow(&f.max_min_bps), per_flow(&f.proportional_bps)))
}
