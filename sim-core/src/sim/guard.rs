//! Stops a run that goes past twice its estimate. The estimate (`scenario::cost`) bounds
//! what its model sees; a scenario doing something it does not see (a storm of timers, a
//! log growing per flow) is stopped early with what it had cost, rather than left to run
//! for an hour or take the machine's memory. `aqmsim --force` and nothing else skips it.

use super::Simulation;
use crate::scenario::cost::Cost;
use crate::time::SimTime;
use std::cell::Cell;

/// Below these a run is never stopped, whatever its estimate: events, bytes of memory
/// beyond the estimate's twice (the process and the allocator's own), bytes of traces.
const MIN_EVENTS: f64 = 2e6;
const SLACK_BYTES: f64 = 64e6;
const SLACK_DISK: f64 = 16e6;
/// Events run between two looks at the cost.
const CHECK_EVERY: u64 = 1 << 18;

#[derive(Clone, Debug)]
pub struct Guard {
    estimate: Cost,
    /// Events run at the last look: looking reads the process's memory, which a slice of a
    /// few hundred events should not pay for.
    looked: Cell<u64>,
}

impl Guard {
    pub fn new(estimate: Cost) -> Guard {
        Guard { estimate, looked: Cell::new(0) }
    }

    /// Why the run must stop, if it has gone past twice the estimate: its events so far,
    /// `memory` (bytes the process holds, where the caller can tell) or `written` (bytes of
    /// trace files so far).
    pub fn overrun(&self, sim: &Simulation, memory: Option<f64>, written: f64) -> Option<String> {
        let e = &self.estimate;
        let events = sim.events_processed() as f64;
        let what = if events > (2.0 * e.events).max(MIN_EVENTS) {
            format!("{events:.1e} events, more than twice the {:.1e} estimated", e.events)
        } else if let Some(m) = memory.filter(|m| *m > 2.0 * e.bytes + SLACK_BYTES) {
            format!("{:.0} MB of memory, more than twice the {:.0} MB estimated", m / 1e6, e.bytes / 1e6)
        } else if written > 2.0 * e.disk_bytes + SLACK_DISK {
            format!(
                "{:.0} MB of traces, more than twice the {:.0} MB estimated",
                written / 1e6,
                e.disk_bytes / 1e6
            )
        } else {
            return None;
        };
        Some(format!(
            "the run was stopped at t = {:.3} s of {} s: it had taken {what} (this scenario costs more than its estimate can see)",
            sim.now().as_secs_f64(),
            sim.scenario().duration_s
        ))
    }

    /// Runs `sim` up to `t`, looking at the cost every [`CHECK_EVERY`] events.
    pub fn step_until(
        &self,
        sim: &mut Simulation,
        t: SimTime,
        memory: &dyn Fn() -> Option<f64>,
        written: f64,
    ) -> Result<(), String> {
        while sim.now() < t.min(sim.end()) && !sim.is_finished() {
            sim.advance(t, CHECK_EVERY);
            let events = sim.events_processed();
            if events < self.looked.get() + CHECK_EVERY {
                continue;
            }
            self.looked.set(events);
            if let Some(why) = self.overrun(sim, memory(), written) {
                return Err(why);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;

    #[test]
    fn a_run_past_twice_its_estimate_is_stopped_with_what_it_cost() {
        // An estimate of a tenth of the real cost: the guard must stop the run early.
        let mut sc = preset("rtt-unfair", Some("fifo")).unwrap();
        (sc.flows[0].count, sc.flows[1].count, sc.duration_s, sc.warmup_s) = (500, 500, 4.0, 1.0);
        (sc.tcp.min_rto_ms, sc.tcp.max_rto_ms, sc.tcp.initial_rto_ms) = (1.0, 1.0, 1.0);
        let mut low = crate::scenario::cost::estimate(&sc);
        low.events /= 10.0;
        let mut sim = Simulation::new(&sc).unwrap();
        let end = sim.end();
        let err = Guard::new(low).step_until(&mut sim, end, &|| None, 0.0).unwrap_err();
        assert!(err.contains("stopped at t =") && err.contains("events"), "{err}");
        assert!(sim.now() < sim.end(), "stopped early");
        assert!(
            (sim.events_processed() as f64) < 2.0 * low.events.max(MIN_EVENTS) + CHECK_EVERY as f64 * 2.0
        );
    }

    #[test]
    fn a_run_within_its_estimate_runs_to_the_end() {
        let sc = preset("red-study", Some("red")).unwrap();
        let mut sim = Simulation::new(&sc).unwrap();
        let g = Guard::new(crate::scenario::cost::estimate(&sc));
        let end = sim.end();
        g.step_until(&mut sim, end, &|| Some(1e6), 1e5).unwrap();
        assert!(sim.is_finished());
        assert!(g.overrun(&sim, Some(1e12), 0.0).unwrap().contains("memory"));
        assert!(g.overrun(&sim, None, 1e12).unwrap().contains("traces"));
    }
}
