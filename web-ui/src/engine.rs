//! The simulation side of the app: the lanes of a run advanced in bounded slices at the
//! chosen speed, training episodes, evaluations and exports. Plain Rust with the wall clock
//! passed in, so it runs in the Web Worker, in the page (fallback and tests) and natively.

use crate::protocol::{EvalRun, FromSim, LaneProgress, Progress, RunState, Speed, ToSim};
use crate::series::DELAY_FLOWS;
use crate::sweep::SweepJob;
use sim_core::cc::dqn::register_model;
use sim_core::metrics::export::{self, Trace};
use sim_core::net::packet_trace::TRACE_EVENTS;
use sim_core::scenario::Scenario;
use sim_core::sim::guard::Guard;
use sim_core::sim::Simulation;
use sim_core::time::{SimDuration, SimTime};
use sim_core::train::Trainer;

/// Events processed between two looks at the clock.
const CHUNK: u64 = 2_000;
/// Summaries are recomputed at most this often while running (they cost O(flows)).
const SUMMARY_EVERY_MS: f64 = 250.0;
/// Flow-samples one progress message carries at most (see [`Engine::sample_cap`]).
const FLOW_SAMPLES_PER_MESSAGE: u64 = 40_000;
/// Longest wall-clock gap credited to a real-time speed (a throttled tab should not jump).
const MAX_DT_MS: f64 = 100.0;

struct Lane {
    label: String,
    sim: Simulation,
    /// Stops the lane past twice its estimated events (`sim::guard`); dropped once it has
    /// spoken, so Resume lets the run go on.
    guard: Option<Guard>,
}

/// Events per wall-clock second over a sliding second of busy time.
#[derive(Default)]
struct Rate {
    events: f64,
    busy_ms: f64,
}

impl Rate {
    fn add(&mut self, events: u64, ms: f64) {
        let keep = (1.0 - ms / 1000.0).clamp(0.0, 1.0);
        self.events = self.events * keep + events as f64;
        self.busy_ms = self.busy_ms * keep + ms;
    }
    fn per_s(&self) -> f64 {
        if self.busy_ms > 0.0 {
            self.events / self.busy_ms * 1e3
        } else {
            0.0
        }
    }
}

pub struct Engine {
    lanes: Vec<Lane>,
    speed: Speed,
    state: RunState,
    last_tick_ms: Option<f64>,
    last_summary_ms: f64,
    rate: Rate,
    trainer: Option<(Trainer, u32)>,
    /// A parameter sweep going, a point at a time.
    sweep: Option<SweepJob>,
    /// A lane run again for the packet view (to a time before the live trace).
    /// Its lane, the time asked for, and the run.
    replay: Option<(usize, u64, Simulation)>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine {
            lanes: Vec::new(),
            speed: Speed::Times(5.0),
            state: RunState::Ready,
            last_tick_ms: None,
            last_summary_ms: f64::NEG_INFINITY,
            rate: Rate::default(),
            trainer: None,
            replay: None,
            sweep: None,
        }
    }
}

impl Engine {
    /// Whether [`Engine::tick`] has work to do (running, or training).
    pub fn busy(&self) -> bool {
        self.state == RunState::Running || self.trainer.is_some() || self.sweep.is_some()
    }

    /// Running as fast as possible, or training: no reason to idle between slices.
    pub fn running_at_max(&self) -> bool {
        self.trainer.is_some()
            || self.sweep.is_some()
            || (self.state == RunState::Running && self.speed == Speed::Max)
    }

    /// Handles one message; returns what to tell the page right away.
    pub fn handle(&mut self, msg: ToSim, clock: &dyn Fn() -> f64) -> Vec<FromSim> {
        match msg {
            ToSim::Load { lanes, speed } => match load(lanes) {
                Ok(l) => {
                    *self = Engine { lanes: l, speed, trainer: self.trainer.take(), ..Engine::default() };
                    let info = self.lanes.iter().map(|l| l.sim.recorder().series_info.clone()).collect();
                    vec![FromSim::Loaded(info), FromSim::Progress(self.progress(true))]
                }
                Err(e) => {
                    // The run before is gone too: a Run or Step sent behind this Load finds
                    // nothing to do.
                    *self = Engine { speed, trainer: self.trainer.take(), ..Engine::default() };
                    vec![FromSim::Error(e)]
                }
            },
            ToSim::Run => {
                if self.state != RunState::Finished && !self.lanes.is_empty() {
                    self.state = RunState::Running;
                    self.last_tick_ms = Some(clock());
                }
                Vec::new()
            }
            ToSim::Pause => {
                if self.state == RunState::Running {
                    self.state = RunState::Paused;
                }
                vec![FromSim::Progress(self.progress(true))]
            }
            ToSim::Step if self.lanes.is_empty() => Vec::new(),
            ToSim::Step => {
                self.step(clock);
                vec![FromSim::Progress(self.progress(true))]
            }
            ToSim::SetSpeed(s) => {
                self.speed = s;
                Vec::new()
            }
            ToSim::RegisterModel { id, weights } => match register_model(&id, &weights) {
                Ok(()) => Vec::new(),
                Err(e) => vec![FromSim::Error(format!("model {id}: {e}"))],
            },
            ToSim::Train { scenario, dqn, episodes, seed } => match Trainer::new(&scenario, dqn, seed) {
                Ok(t) => {
                    self.trainer = Some((t, episodes));
                    Vec::new()
                }
                Err(e) => vec![FromSim::Error(format!("training: {e}"))],
            },
            ToSim::StopTraining => self.finish_training(),
            ToSim::Evaluate { runs } => vec![evaluate(runs)],
            ToSim::Export { lane } => match self.lanes.get(lane) {
                Some(l) => vec![FromSim::Files { lane, files: files(l) }],
                None => vec![FromSim::Error(format!("no lane {lane} to export"))],
            },
            ToSim::Change { set, to } => {
                vec![self.change(&set, &to), FromSim::Progress(self.progress(false))]
            }
            ToSim::Packets { lane, link, events, at_s } => self.packets(lane, link, events as usize, at_s),
            ToSim::Sweep { scenario, spec } => match SweepJob::new(&scenario, spec) {
                Ok(job) => {
                    self.sweep = Some(job);
                    Vec::new()
                }
                Err(e) => vec![FromSim::SweepDone(Some(e))],
            },
            ToSim::StopSweep => match self.sweep.take() {
                Some(_) => vec![FromSim::SweepDone(Some("stopped".into()))],
                None => Vec::new(),
            },
        }
    }

    /// A stretch of a lane's packet trace for the packet view: the live run's when it holds
    /// `at_s` (or none is asked for), else from the lane run again to `at_s`.
    fn packets(&mut self, lane: usize, link: u32, events: usize, at_s: Option<f64>) -> Vec<FromSim> {
        let Some(l) = self.lanes.get_mut(lane) else { return Vec::new() };
        if !l.sim.watch_link(link) {
            return vec![FromSim::Error(format!("{}: no disc link {link}", l.label))];
        }
        let Some(live) = l.sim.packet_window(link, events) else { return Vec::new() };
        let at_ns = at_s.filter(|t| t.is_finite() && *t >= 0.0).map(|t| SimTime::from_secs_f64(t).as_nanos());
        let before_trace = at_ns.is_some_and(|t| t < live.from_ns && t < l.sim.now().as_nanos());
        let Some(at) = at_ns.filter(|_| before_trace) else {
            return vec![FromSim::packets(lane, &live, false)];
        };
        // The replay made for this time already (another link of it), or again from the
        // start (or from an earlier replay of this lane not past `at`) to `at`, then on
        // until half a trace of events follows it.
        if let Some((_, _, s)) = self.replay.as_ref().filter(|(rl, ra, _)| *rl == lane && *ra == at) {
            return s
                .packet_window(link, events)
                .map(|w| FromSim::packets(lane, &w, true))
                .into_iter()
                .collect();
        }
        let reuse = matches!(&self.replay, Some((rl, _, s)) if *rl == lane && s.now().as_nanos() <= at);
        if !reuse {
            let Ok(mut s) = Simulation::new(l.sim.scenario()) else { return Vec::new() };
            s.watch_all_links();
            s.set_parallel(false);
            self.replay = Some((lane, at, s));
        }
        let Some((_, ra, s)) = self.replay.as_mut() else { return Vec::new() };
        *ra = at;
        s.step_until(SimTime(at));
        let mark = s.packet_events(link);
        let end = s.end();
        let mut to = SimTime(at);
        while s.packet_events(link) - mark < (TRACE_EVENTS / 2) as u64 && to < end {
            to = (to + SimDuration::from_secs_f64(0.001)).min(end);
            s.step_until(to);
        }
        match s.packet_window(link, events) {
            Some(window) => vec![FromSim::packets(lane, &window, true)],
            None => Vec::new(),
        }
    }

    /// Sets a field in every lane at one instant: the lanes (which advance in turn) first
    /// catch up with the one furthest on.
    fn change(&mut self, set: &str, to: &serde_json::Value) -> FromSim {
        let at = self.lanes.iter().map(|l| l.sim.now()).max().unwrap_or(SimTime::ZERO);
        let results = (self.lanes.iter_mut())
            .map(|l| {
                l.sim.step_until(at);
                l.sim.change_now(set, to.clone()).map_err(|e| format!("{}: {e}", l.label))
            })
            .collect();
        FromSim::Changed(results)
    }

    /// Spends at most `budget_ms` (by `clock`) on the run or one training episode; returns
    /// what to tell the page.
    pub fn tick(&mut self, budget_ms: f64, clock: &dyn Fn() -> f64) -> Vec<FromSim> {
        let mut out = Vec::new();
        if self.trainer.is_some() {
            out.extend(self.train_one());
        }
        if let Some(job) = &mut self.sweep {
            // Beside a run going, the sweep takes half the slice.
            let share = if self.state == RunState::Running { budget_ms / 2.0 } else { budget_ms };
            out.extend(job.tick(share, clock).map(FromSim::SweepPoint));
            if job.is_done() {
                self.sweep = None;
                out.push(FromSim::SweepDone(None));
            }
        }
        if self.state == RunState::Running {
            let now = clock();
            let dt = self.last_tick_ms.map_or(16.0, |t| (now - t).clamp(0.0, MAX_DT_MS));
            self.last_tick_ms = Some(now);
            let target = match self.speed {
                Speed::Max => SimTime::MAX,
                Speed::Times(x) => SimTime::from_secs_f64(self.now_s() + x * dt / 1e3),
            };
            self.advance(target.min(self.sample_cap()), budget_ms, clock);
            if let Some(why) = self.overrun() {
                self.state = RunState::Paused;
                out.push(FromSim::Error(format!("{why}. Resume to let it go on.")));
            }
            let finished = self.lanes.iter().all(|l| l.sim.is_finished());
            if finished {
                self.state = RunState::Finished;
            }
            let summary = finished || now - self.last_summary_ms >= SUMMARY_EVERY_MS;
            if summary {
                self.last_summary_ms = now;
            }
            out.push(FromSim::Progress(self.progress(summary)));
        }
        out
    }

    /// Why a lane went past twice its estimated events, once (its guard then stands down).
    /// Memory is not watched here: a wasm module's memory never shrinks, so it tells of
    /// earlier runs too.
    fn overrun(&mut self) -> Option<String> {
        self.lanes.iter_mut().find_map(|l| {
            let why = l.guard.as_ref()?.overrun(&l.sim, None, 0.0)?;
            l.guard = None;
            Some(format!("{}: {why}", l.label))
        })
    }

    /// How far one message may reach: at most [`FLOW_SAMPLES_PER_MESSAGE`] per-flow values
    /// per series, so the page decodes and folds in each message in a few milliseconds
    /// however many flows there are (10 000 flows sampled every 10 ms made 80 ms tasks).
    fn sample_cap(&self) -> SimTime {
        let flows: u64 = self.lanes.iter().map(|l| u64::from(l.sim.scenario().total_flows())).sum();
        let interval = (self.lanes.iter())
            .map(|l| SimTime::from_secs_f64(l.sim.scenario().sample_interval_s).as_nanos())
            .min()
            .unwrap_or(u64::MAX);
        let samples = (FLOW_SAMPLES_PER_MESSAGE / flows.max(1)).max(1);
        let now = self.lanes.iter().map(|l| l.sim.now().as_nanos()).min().unwrap_or(0);
        SimTime(now.saturating_add(samples.saturating_mul(interval)))
    }

    fn now_s(&self) -> f64 {
        self.lanes.iter().map(|l| l.sim.now().as_secs_f64()).fold(f64::INFINITY, f64::min)
    }

    /// One sample interval further in every lane (integer nanoseconds: 0.3 / 0.1 in floating
    /// point is 2.999…, which would not move).
    fn step(&mut self, clock: &dyn Fn() -> f64) {
        let Some(first) = self.lanes.first() else { return };
        let step = SimTime::from_secs_f64(first.sim.scenario().sample_interval_s).as_nanos().max(1);
        let now = self.lanes.iter().map(|l| l.sim.now().as_nanos()).min().unwrap_or(0);
        self.advance(SimTime((now / step + 1) * step), f64::INFINITY, clock);
        if self.state == RunState::Ready || self.state == RunState::Running {
            self.state = RunState::Paused;
        }
        if self.lanes.iter().all(|l| l.sim.is_finished()) {
            self.state = RunState::Finished;
        }
    }

    fn advance(&mut self, target: SimTime, budget_ms: f64, clock: &dyn Fn() -> f64) {
        let start = clock();
        let mut events = 0;
        'outer: loop {
            let mut all_there = true;
            for lane in &mut self.lanes {
                if lane.sim.now() < target.min(lane.sim.end()) && !lane.sim.is_finished() {
                    events += lane.sim.advance(target, CHUNK);
                    all_there = false;
                }
                if clock() - start >= budget_ms {
                    break 'outer;
                }
            }
            if all_there {
                break;
            }
        }
        self.rate.add(events, (clock() - start).max(1e-3));
    }

    /// What is new in every lane; `summary` adds the window statistics.
    fn progress(&mut self, summary: bool) -> Progress {
        let lanes = self
            .lanes
            .iter_mut()
            .map(|l| {
                let cc =
                    l.sim.cc_metrics(0).map(|m| m.values.iter().map(|(k, v)| (k.to_string(), *v)).collect());
                LaneProgress {
                    update: l.sim.poll(),
                    delays: l
                        .sim
                        .recorder()
                        .window
                        .flows()
                        .iter()
                        .take(DELAY_FLOWS)
                        .map(|f| f.delay.clone())
                        .collect(),
                    summary: summary.then(|| l.sim.summary()),
                    cc: cc.unwrap_or_default(),
                }
            })
            .collect();
        Progress {
            state: self.state,
            now_s: if self.lanes.is_empty() { 0.0 } else { self.now_s() },
            end_s: self.lanes.iter().map(|l| l.sim.end().as_secs_f64()).fold(0.0, f64::max),
            events_per_s: self.rate.per_s(),
            lanes,
        }
    }

    fn train_one(&mut self) -> Vec<FromSim> {
        let Some((t, episodes)) = &mut self.trainer else { return Vec::new() };
        if t.episodes_done() >= *episodes {
            return self.finish_training();
        }
        match t.run_episode() {
            Ok(r) => vec![FromSim::Episode(r)],
            Err(e) => {
                self.trainer = None;
                vec![FromSim::Error(e)]
            }
        }
    }

    fn finish_training(&mut self) -> Vec<FromSim> {
        match self.trainer.take() {
            Some((t, _)) => vec![FromSim::Trained { weights: t.weights(), digest: t.weights_digest() }],
            None => Vec::new(),
        }
    }
}

fn load(lanes: Vec<(String, Scenario)>) -> Result<Vec<Lane>, String> {
    lanes
        .into_iter()
        .map(|(label, sc)| {
            let mut sim = Simulation::new(&sc).map_err(|e| {
                let list: Vec<String> = e.iter().map(|x| x.to_string()).collect();
                format!("{label}: {}", list.join("; "))
            })?;
            // The packet view opens on the studied link; another starts its trace when asked.
            sim.watch_link(0);
            Ok(Lane { label, sim, guard: Some(Guard::new(sim_core::scenario::cost::estimate(&sc))) })
        })
        .collect()
}

fn evaluate(runs: Vec<(String, u64, Scenario)>) -> FromSim {
    let mut out = Vec::with_capacity(runs.len());
    for (label, seed, sc) in runs {
        let mut sim = match Simulation::new(&sc) {
            Ok(s) => s,
            Err(e) => return FromSim::Error(format!("{label}: {}", e[0])),
        };
        let summary = sim.finish();
        let mut drops = 0u64;
        let mut di = 0;
        let all_drops = &sim.recorder().drops.kept;
        let trace = sim
            .recorder()
            .samples
            .kept
            .iter()
            .map(|s| {
                while di < all_drops.len() && all_drops[di].t_s <= s.t_s {
                    drops += u64::from(all_drops[di].at_bottleneck());
                    di += 1;
                }
                let g = s.flow_goodput_bps.first().copied().unwrap_or(0.0) / 1e6;
                (s.t_s, g, s.flow_srtt_ms.first().copied().unwrap_or(0.0), drops)
            })
            .collect();
        out.push(EvalRun { label, seed, summary, trace });
    }
    FromSim::Evaluated(out)
}

/// Every file the CLI would write for this lane, from the run's (bounded) record.
fn files(l: &Lane) -> Vec<(String, String)> {
    let rec = l.sim.recorder();
    let alg = l.label.replace(['/', ' '], "-");
    let mut out: Vec<(String, String)> = Trace::ALL
        .into_iter()
        .filter(|t| t.applies(&rec.series_info))
        .map(|t| (format!("{alg}_{}.csv", t.file_suffix()), t.csv(&rec.samples.kept, &rec.series_info)))
        .collect();
    out.push((format!("{alg}_drops.csv"), export::drops_csv(&rec.drops.kept)));
    out.push((format!("{alg}_backlog_kde.csv"), export::backlog_kde_csv(rec)));
    out.push((format!("{alg}_delay_kde.csv"), export::delay_kde_csv(rec)));
    for (source, body) in export::log_csvs(&rec.log.kept) {
        out.push((format!("{alg}_{source}.csv"), body));
    }
    let summary = l.sim.summary();
    if let Some(csv) = export::fct_csv(&summary, &l.sim.completions().0) {
        out.push((format!("{alg}_fct.csv"), csv));
    }
    if let Some(csv) = export::pings_csv(l.sim.pings()) {
        out.push((format!("{alg}_pings.csv"), csv));
    }
    out.push((format!("{alg}_summary.json"), serde_json::to_string_pretty(&summary).unwrap_or_default()));
    out.push((format!("{alg}_scenario.json"), l.sim.scenario().to_json()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::scenario::preset;
    use std::cell::Cell;

    /// A fake clock that advances 1 ms per reading.
    fn ticking() -> impl Fn() -> f64 {
        let t = Cell::new(0.0);
        move || {
            t.set(t.get() + 1.0);
            t.get()
        }
    }

    fn loaded(variants: &[&str], speed: Speed) -> Engine {
        let mut e = Engine::default();
        let lanes = variants.iter().map(|v| (v.to_string(), preset("red-study", Some(v)).unwrap())).collect();
        e.handle(ToSim::Load { lanes, speed }, &ticking());
        e
    }

    fn progress(out: &[FromSim]) -> &Progress {
        out.iter().find_map(|m| if let FromSim::Progress(p) = m { Some(p) } else { None }).unwrap()
    }

    fn packets(out: Vec<FromSim>) -> (sim_core::net::packet_trace::TraceWindow, bool) {
        match out.into_iter().next() {
            Some(FromSim::Packets { words, queue_names, replayed, .. }) => {
                (sim_core::net::packet_trace::TraceWindow::from_words(&words, queue_names).unwrap(), replayed)
            }
            other => panic!("no packets: {other:?}"),
        }
    }

    /// The live trace while it holds the time asked for; before it, the lane run again
    /// gives exactly what a run watched from the start had at that time.
    #[test]
    fn the_packet_view_gets_the_live_trace_or_the_lane_run_again_to_an_earlier_time() {
        let mut e = loaded(&["red"], Speed::Max);
        let clock = ticking();
        e.lanes[0].sim.step_until(SimTime::from_secs_f64(30.0));
        let ask = |at_s| ToSim::Packets { lane: 0, link: 0, events: TRACE_EVENTS as u32, at_s };
        let (live, replayed) = packets(e.handle(ask(None), &clock));
        assert!(!replayed && live.events.len() == TRACE_EVENTS && live.to_ns == 30_000_000_000);
        let inside = (live.from_ns + live.to_ns) as f64 / 2e9;
        assert!(!packets(e.handle(ask(Some(inside)), &clock)).1, "the live trace holds it");
        let (w, replayed) = packets(e.handle(ask(Some(5.0)), &clock));
        assert!(
            replayed && w.from_ns <= 5_000_000_000 && w.to_ns > 5_000_000_000,
            "{} {}",
            w.from_ns,
            w.to_ns
        );
        let mut fresh = Simulation::new(e.lanes[0].sim.scenario()).unwrap();
        fresh.watch_link(0);
        fresh.step_until(SimTime(w.to_ns));
        assert_eq!(fresh.packet_window(0, TRACE_EVENTS).unwrap(), w, "same seed, same packets");
        // A later time reuses the replay; an unknown link is an error, not a panic.
        assert!(packets(e.handle(ask(Some(6.0)), &clock)).1);
        let bad = e.handle(ToSim::Packets { lane: 0, link: 7, events: 10, at_s: None }, &clock);
        assert!(matches!(&bad[0], FromSim::Error(m) if m.contains("no disc link 7")));
        assert!(e
            .handle(ToSim::Packets { lane: 3, link: 0, events: 10, at_s: Some(f64::NAN) }, &clock)
            .is_empty());
    }

    #[test]
    fn a_tick_never_spends_much_more_than_its_budget() {
        let mut e = loaded(&["red"], Speed::Max);
        e.handle(ToSim::Run, &ticking());
        let clock = ticking();
        let before = clock();
        e.tick(10.0, &clock);
        // One clock reading per chunk: the overshoot is at most one chunk.
        assert!(clock() - before <= 14.0);
        assert!(e.now_s() > 0.0);
    }

    #[test]
    fn a_lane_past_twice_its_estimate_pauses_with_why_and_resumes_on_request() {
        let mut e = loaded(&["red"], Speed::Max);
        // As if the estimate had seen a tenth of the cost (the guard's floor is 2 M events).
        let mut low = sim_core::scenario::cost::estimate(e.lanes[0].sim.scenario());
        low.events = 1e5;
        e.lanes[0].guard = Some(Guard::new(low));
        let mut sc = e.lanes[0].sim.scenario().clone();
        sc.duration_s = 3000.0;
        e.lanes[0].sim = Simulation::new(&sc).unwrap();
        e.handle(ToSim::Run, &ticking());
        let mut why = None;
        for _ in 0..10_000 {
            let out = e.tick(f64::INFINITY, &ticking());
            why = out.iter().find_map(|m| if let FromSim::Error(w) = m { Some(w.clone()) } else { None });
            if why.is_some() || e.state != RunState::Running {
                break;
            }
        }
        let why = why.expect("the guard spoke");
        assert!(why.starts_with("red: the run was stopped at t =") && why.contains("Resume"), "{why}");
        assert_eq!(e.state, RunState::Paused);
        e.handle(ToSim::Run, &ticking());
        let out = e.tick(10.0, &ticking());
        assert!(!out.iter().any(|m| matches!(m, FromSim::Error(_))), "the guard speaks once");
    }

    #[test]
    fn realtime_speed_moves_simulated_time_by_speed_times_wall_time() {
        let mut e = loaded(&["red"], Speed::Times(2.0));
        let clock = Cell::new(0.0);
        let read = || clock.get();
        e.handle(ToSim::Run, &read);
        clock.set(50.0);
        e.tick(f64::INFINITY, &read);
        assert!((e.now_s() - 0.1).abs() < 1e-9, "{}", e.now_s());
    }

    #[test]
    fn step_advances_exactly_one_sample_interval_in_every_lane() {
        let mut e = loaded(&["red", "gentle"], Speed::Max);
        let mut samples = 0;
        for _ in 0..25 {
            let out = e.handle(ToSim::Step, &ticking());
            samples += progress(&out).lanes[1].update.samples.len();
        }
        assert!((e.now_s() - 2.5).abs() < 1e-9);
        assert_eq!(samples, 25);
        assert_eq!(e.state, RunState::Paused);
    }

    #[test]
    fn running_to_the_end_gives_the_same_summary_as_finish() {
        let mut e = loaded(&["ared"], Speed::Max);
        e.handle(ToSim::Run, &ticking());
        let mut last = None;
        while e.state == RunState::Running {
            for m in e.tick(1e9, &ticking()) {
                if let FromSim::Progress(p) = m {
                    last = p.lanes[0].summary.clone().or(last);
                }
            }
        }
        let mut direct = Simulation::new(&preset("red-study", Some("ared")).unwrap()).unwrap();
        assert_eq!(last.unwrap(), direct.finish());
    }

    /// A change during a run applies in every lane at one instant, and the lanes'
    /// scenarios, replayed, give the same summaries.
    #[test]
    fn a_change_during_a_run_applies_in_every_lane_and_replays() {
        let mut e = loaded(&["red", "gentle"], Speed::Max);
        for _ in 0..30 {
            e.handle(ToSim::Step, &ticking());
        }
        e.lanes[1].sim.run_events(10); // the lanes stand at different times
        let out = e.handle(
            ToSim::Change { set: "links.bottleneck.queue.max_th".into(), to: 20.0.into() },
            &ticking(),
        );
        let FromSim::Changed(results) = &out[0] else { panic!("no answer: {out:?}") };
        let at: Vec<f64> = results.iter().map(|r| r.as_ref().unwrap().at_s).collect();
        assert_eq!(at[0].to_bits(), at[1].to_bits(), "one instant for every lane");
        let refused = e.handle(ToSim::Change { set: "flows[0].count".into(), to: 3.into() }, &ticking());
        assert!(
            matches!(&refused[0], FromSim::Changed(r) if r.iter().all(|r| r.as_ref().is_err_and(|e| e.contains("next run"))))
        );
        e.handle(ToSim::Run, &ticking());
        while e.state == RunState::Running {
            e.tick(1e9, &ticking());
        }
        for l in &e.lanes {
            let replayed = Simulation::new(l.sim.scenario()).unwrap().finish();
            assert_eq!(l.sim.summary(), replayed, "{}", l.label);
        }
    }

    /// However many flows, a message carries a bounded number of flow-samples: 10 000
    /// flows sampled every 10 ms go four samples a message at full speed.
    #[test]
    fn a_message_carries_a_bounded_number_of_flow_samples() {
        let mut sc = preset("rtt-unfair", Some("fq-codel")).unwrap();
        (sc.flows[0].count, sc.duration_s, sc.sample_interval_s, sc.warmup_s) = (9999, 0.2, 0.01, 0.0);
        let mut e = Engine::default();
        e.handle(ToSim::Load { lanes: vec![("big".into(), sc)], speed: Speed::Max }, &ticking());
        e.handle(ToSim::Run, &ticking());
        let mut most = 0;
        while e.state == RunState::Running {
            for m in e.tick(1e9, &ticking()) {
                if let FromSim::Progress(p) = m {
                    most = most.max(p.lanes[0].update.samples.len());
                }
            }
        }
        assert_eq!(most, 4, "40 000 flow-samples a message");
    }

    #[test]
    fn a_bad_scenario_is_reported_not_run() {
        let mut sc = preset("red-study", None).unwrap();
        sc.duration_s = -1.0;
        let mut e = Engine::default();
        let out = e.handle(ToSim::Load { lanes: vec![("x".into(), sc)], speed: Speed::Max }, &ticking());
        assert!(matches!(&out[0], FromSim::Error(m) if m.contains("duration_s")));
    }

    #[test]
    fn a_run_or_step_behind_a_refused_load_does_nothing() {
        let mut e = loaded(&["red"], Speed::Max);
        e.handle(ToSim::Step, &ticking());
        let mut sc = preset("red-study", None).unwrap();
        sc.duration_s = -1.0;
        e.handle(ToSim::Load { lanes: vec![("x".into(), sc)], speed: Speed::Max }, &ticking());
        assert!(e.handle(ToSim::Step, &ticking()).is_empty());
        e.handle(ToSim::Run, &ticking());
        assert!(!e.busy());
        assert!(e.tick(1e9, &ticking()).is_empty());
    }

    #[test]
    fn training_reports_every_episode_then_the_weights() {
        let mut e = Engine::default();
        let sc = preset("dqn-dumbbell", Some("dqn")).unwrap();
        e.handle(ToSim::Train { scenario: sc, dqn: Default::default(), episodes: 2, seed: 1 }, &ticking());
        let mut got = Vec::new();
        while e.busy() {
            got.extend(e.tick(50.0, &ticking()));
        }
        assert!(matches!(got[0], FromSim::Episode(_)));
        assert!(matches!(got[1], FromSim::Episode(_)));
        assert!(matches!(got[2], FromSim::Trained { .. }));
    }

    #[test]
    fn an_export_holds_the_clis_files_and_the_scenario() {
        let mut e = loaded(&["gentle"], Speed::Max);
        for _ in 0..10 {
            e.handle(ToSim::Step, &ticking());
        }
        let out = e.handle(ToSim::Export { lane: 0 }, &ticking());
        let FromSim::Files { files, .. } = &out[0] else { panic!("no files") };
        let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
        for n in [
            "gentle_queue.csv",
            "gentle_drops.csv",
            "gentle_throughput.csv",
            "gentle_delay_kde.csv",
            "gentle_scenario.json",
        ] {
            assert!(names.contains(&n), "{n} missing from {names:?}");
        }
    }
}
