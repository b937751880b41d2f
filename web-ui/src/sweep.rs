//! A parameter sweep in the page: one field of the scenario set to each of a few values,
//! each run to its end in the worker (a slice at a time, beside any run going), and chosen
//! figures of each ([`sim_core::metrics::figures`]) sent back point by point. Plain Rust
//! with the clock passed in, tested natively. `aqmsim sweep --vary` is the same from the
//! command line.

use serde::{Deserialize, Serialize};
use sim_core::metrics::figures::{figure, is_figure};
use sim_core::scenario::{cost, patch, Scenario};
use sim_core::sim::Simulation;

/// Values one sweep takes at most.
pub const MAX_POINTS: usize = 24;
/// Figures one sweep reports at most.
pub const MAX_FIGURES: usize = 4;
/// Events between two looks at the clock.
const CHUNK: u64 = 2_000;

/// What a sweep asks for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepSpec {
    /// A field path as the editor and `--set` write it (`links.bottleneck.queue.limit.packets`).
    pub set: String,
    /// Each value as typed (JSON, a bare word being a string).
    pub values: Vec<String>,
    /// Figure names (`delay_ms`, `mbps`).
    pub figures: Vec<String>,
}

/// One finished point: the value, each figure (None: the run has no such figure).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    pub index: usize,
    pub value: String,
    pub figures: Vec<Option<f64>>,
}

pub struct SweepJob {
    scenarios: Vec<Scenario>,
    spec: SweepSpec,
    at: usize,
    sim: Option<Simulation>,
}

impl SweepJob {
    /// Checks every point before any runs: the field and each value (an error names the
    /// value and what the field allows), the figures, and each run's cost.
    pub fn new(base: &Scenario, spec: SweepSpec) -> Result<SweepJob, String> {
        if spec.values.is_empty() || spec.values.len() > MAX_POINTS {
            return Err(format!("sweep values: from 1 to {MAX_POINTS} values, not {}", spec.values.len()));
        }
        if spec.figures.is_empty() || spec.figures.len() > MAX_FIGURES {
            return Err(format!("sweep figures: from 1 to {MAX_FIGURES}, not {}", spec.figures.len()));
        }
        if let Some(f) = spec.figures.iter().find(|f| !is_figure(f)) {
            return Err(format!("sweep figure '{f}': not a figure of a run"));
        }
        let mut scenarios = Vec::with_capacity(spec.values.len());
        for v in &spec.values {
            let sc = patch::apply(base, &[(spec.set.clone(), v.clone())])
                .map_err(|e| format!("{} = {v}: {e}", spec.set))?;
            sc.validate().map_err(|e| format!("{} = {v}: {}", spec.set, e[0]))?;
            cost::check(&sc, false).map_err(|e| format!("{} = {v}: {e}", spec.set))?;
            scenarios.push(sc);
        }
        Ok(SweepJob { scenarios, spec, at: 0, sim: None })
    }

    pub fn spec(&self) -> &SweepSpec {
        &self.spec
    }

    pub fn is_done(&self) -> bool {
        self.at >= self.scenarios.len()
    }

    /// Spends at most `budget_ms` running the current point; returns it once finished.
    pub fn tick(&mut self, budget_ms: f64, clock: &dyn Fn() -> f64) -> Option<SweepPoint> {
        let start = clock();
        let sc = self.scenarios.get(self.at)?;
        let sim = match &mut self.sim {
            Some(s) => s,
            none => none.insert(Simulation::new(sc).ok()?),
        };
        while !sim.is_finished() {
            sim.run_events(CHUNK);
            if clock() - start >= budget_ms {
                return None;
            }
        }
        let summary = sim.summary();
        let figures = self.spec.figures.iter().map(|f| figure(&summary, f).ok().flatten()).collect();
        let point = SweepPoint { index: self.at, value: self.spec.values[self.at].clone(), figures };
        self.at += 1;
        self.sim = None;
        Some(point)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::scenario::preset;

    fn spec(values: &[&str]) -> SweepSpec {
        SweepSpec {
            set: "links.bottleneck.queue.limit.packets".into(),
            values: values.iter().map(|v| v.to_string()).collect(),
            figures: vec!["delay_ms".into(), "mbps".into()],
        }
    }

    /// Each point is the run `aqmsim run --set` would make: the same figures.
    #[test]
    fn each_point_is_the_run_with_that_value() {
        let mut base = preset("bufferbloat", Some("fifo")).unwrap();
        base.duration_s = 6.0;
        let mut job = SweepJob::new(&base, spec(&["20", "200"])).unwrap();
        let clock = || 0.0;
        let mut points = Vec::new();
        while !job.is_done() {
            points.extend(job.tick(f64::INFINITY, &clock));
        }
        assert_eq!(points.len(), 2);
        for p in &points {
            let sc = patch::apply(&base, &[(job.spec().set.clone(), p.value.clone())]).unwrap();
            let s = Simulation::new(&sc).unwrap().finish();
            assert_eq!(p.figures, vec![figure(&s, "delay_ms").unwrap(), figure(&s, "mbps").unwrap()]);
        }
        assert!(points[0].figures[0] < points[1].figures[0], "a bigger buffer, a longer delay");
    }

    #[test]
    fn a_bad_value_field_or_figure_is_refused_before_anything_runs() {
        let base = preset("bufferbloat", Some("fifo")).unwrap();
        let e = SweepJob::new(&base, spec(&["20", "-3"])).err().unwrap();
        assert!(e.contains("-3"), "{e}");
        assert!(SweepJob::new(&base, spec(&[])).is_err());
        let mut s = spec(&["20"]);
        s.figures = vec!["nope".into()];
        assert!(SweepJob::new(&base, s).err().unwrap().contains("nope"));
        let mut s = spec(&["20"]);
        s.set = "links.nowhere.rate_bps".into();
        assert!(SweepJob::new(&base, s).is_err());
    }
}
