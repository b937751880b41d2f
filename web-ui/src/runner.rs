//! Runs one scenario, or several side by side (compare), in bounded slices so that an
//! animation frame never blocks. Plain Rust: the wall clock is passed in.

use crate::series::Series;
use sim_core::metrics::Summary;
use sim_core::scenario::Scenario;
use sim_core::sim::Simulation;
use sim_core::time::SimTime;

/// Events processed between two looks at the clock.
const CHUNK: u64 = 2_000;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Speed {
    /// Simulated seconds per wall-clock second.
    Times(f64),
    /// As fast as the frame budget allows.
    Max,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    Ready,
    Running,
    Paused,
    Finished,
}

/// One simulation and the chart data it produced.
pub struct Lane {
    pub label: String,
    pub sim: Simulation,
    pub series: Series,
}

pub struct Runner {
    pub lanes: Vec<Lane>,
    pub speed: Speed,
    pub state: RunState,
    /// Events processed per wall-clock second over the last frames.
    pub events_per_s: f64,
    /// Wall time spent simulating, in ms.
    pub busy_ms: f64,
}

impl Runner {
    /// Builds the lanes; fails with the first invalid scenario's errors.
    pub fn new(runs: Vec<(String, Scenario)>, speed: Speed) -> Result<Runner, String> {
        let mut lanes = Vec::new();
        for (label, sc) in runs {
            let sim = Simulation::new(&sc).map_err(|e| {
                let list: Vec<String> = e.iter().map(|x| x.to_string()).collect();
                format!("{label}: {}", list.join("; "))
            })?;
            let in_cells = matches!(sc.bottleneck.queue.limit(), sim_core::aqm::QueueLimit::Cells { .. });
            let info = &sim.recorder().series_info;
            let series = Series::new(
                sc.total_flows() as usize,
                sc.sample_interval_s,
                sc.tcp.mss_bytes,
                in_cells,
                info,
            );
            lanes.push(Lane { label, sim, series });
        }
        Ok(Runner { lanes, speed, state: RunState::Ready, events_per_s: 0.0, busy_ms: 0.0 })
    }

    pub fn now_s(&self) -> f64 {
        self.lanes.iter().map(|l| l.sim.now().as_secs_f64()).fold(f64::INFINITY, f64::min)
    }

    pub fn end_s(&self) -> f64 {
        self.lanes.iter().map(|l| l.sim.end().as_secs_f64()).fold(0.0, f64::max)
    }

    pub fn progress(&self) -> f64 {
        self.lanes.iter().map(|l| l.sim.progress()).fold(1.0, f64::min)
    }

    pub fn is_finished(&self) -> bool {
        self.lanes.iter().all(|l| l.sim.is_finished())
    }

    /// One animation frame: `dt_ms` of wall time passed since the last; spend at most
    /// `budget_ms` (measured with `clock`, in ms) moving every lane towards the target time.
    /// Returns true if new data arrived.
    pub fn frame(&mut self, dt_ms: f64, budget_ms: f64, clock: &dyn Fn() -> f64) -> bool {
        if self.state != RunState::Running {
            return false;
        }
        let target = match self.speed {
            Speed::Max => f64::INFINITY,
            Speed::Times(x) => self.now_s() + x * dt_ms.min(100.0) / 1e3,
        };
        self.advance_to(target, budget_ms, clock)
    }

    /// Advances every lane by one sample interval.
    pub fn step(&mut self, clock: &dyn Fn() -> f64) -> bool {
        let interval = self.lanes.first().map_or(0.1, |l| l.sim.scenario().sample_interval_s);
        // Integer nanoseconds: 0.3 / 0.1 in floating point is 2.999…, which would not move.
        let step = SimTime::from_secs_f64(interval).as_nanos().max(1);
        let now = self.lanes.iter().map(|l| l.sim.now().as_nanos()).min().unwrap_or(0);
        let target = SimTime((now / step + 1) * step);
        let changed = self.advance_to_time(target, f64::INFINITY, clock);
        if self.state == RunState::Ready {
            self.state = RunState::Paused;
        }
        changed
    }

    fn advance_to(&mut self, target_s: f64, budget_ms: f64, clock: &dyn Fn() -> f64) -> bool {
        let target = if target_s.is_finite() { SimTime::from_secs_f64(target_s) } else { SimTime::MAX };
        self.advance_to_time(target, budget_ms, clock)
    }

    fn advance_to_time(&mut self, target: SimTime, budget_ms: f64, clock: &dyn Fn() -> f64) -> bool {
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
        let spent = (clock() - start).max(1e-3);
        self.busy_ms += spent;
        if events > 0 {
            self.events_per_s = 0.7 * self.events_per_s + 0.3 * (events as f64 / spent * 1e3);
        }
        let mut changed = false;
        for lane in &mut self.lanes {
            let u = lane.sim.poll();
            changed |= !u.samples.is_empty() || !u.drops.is_empty();
            lane.series.push(&u);
            lane.series.set_delays(&lane.sim.recorder().window);
        }
        if self.is_finished() {
            self.state = RunState::Finished;
        }
        changed
    }

    /// Summaries of what has run so far, one per lane.
    pub fn summaries(&self) -> Vec<(String, Summary)> {
        self.lanes.iter().map(|l| (l.label.clone(), l.sim.summary())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::scenario::preset;
    use std::cell::Cell;

    fn runner(variants: &[&str], speed: Speed) -> Runner {
        let runs = variants.iter().map(|v| (v.to_string(), preset("red-study", Some(v)).unwrap())).collect();
        Runner::new(runs, speed).unwrap()
    }

    /// A fake clock that advances 1 ms per reading.
    fn ticking() -> impl Fn() -> f64 {
        let t = Cell::new(0.0);
        move || {
            t.set(t.get() + 1.0);
            t.get()
        }
    }

    #[test]
    fn a_frame_never_spends_much_more_than_its_budget() {
        let mut r = runner(&["red"], Speed::Max);
        r.state = RunState::Running;
        let clock = ticking();
        let before = clock();
        r.frame(16.0, 10.0, &clock);
        // One reading per chunk: the overshoot is at most one chunk (one tick here).
        assert!(clock() - before <= 14.0);
        assert!(r.now_s() > 0.0);
    }

    #[test]
    fn realtime_speed_moves_simulated_time_by_speed_times_wall_time() {
        let mut r = runner(&["red"], Speed::Times(2.0));
        r.state = RunState::Running;
        r.frame(50.0, f64::INFINITY, &ticking());
        assert!((r.now_s() - 0.1).abs() < 1e-9, "{}", r.now_s());
    }

    #[test]
    fn step_advances_exactly_one_sample_interval_in_every_lane() {
        let mut r = runner(&["red", "gentle"], Speed::Max);
        for _ in 0..25 {
            r.step(&ticking());
        }
        assert!((r.now_s() - 2.5).abs() < 1e-9);
        assert!(r.lanes.iter().all(|l| l.series.len() == 25));
        assert_eq!(r.state, RunState::Paused);
    }

    #[test]
    fn running_to_the_end_finishes_every_lane_with_the_same_result_as_finish() {
        let mut r = runner(&["ared"], Speed::Max);
        r.state = RunState::Running;
        while r.state == RunState::Running {
            r.frame(16.0, 1e9, &ticking());
        }
        let mut direct = Simulation::new(&preset("red-study", Some("ared")).unwrap()).unwrap();
        assert_eq!(r.summaries()[0].1, direct.finish());
    }
}
