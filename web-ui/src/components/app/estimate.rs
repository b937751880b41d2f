//! What a run will take in this browser, said before it starts (from the rates measured
//! here) and while it goes (at its recent pace).

use super::*;

impl App {
    /// The estimate of a large run, from the rate this browser measured on runs of a
    /// similar size (or a cautious first guess), and the time left of the run going now.
    pub(super) fn cost_text(&self) -> Option<AttrValue> {
        let sc = self.scenario()?;
        let run = self.run.borrow();
        if run.state == RunState::Running {
            let left = self.pace.left_s(run.end_s).filter(|s| *s >= 5.0)?;
            return Some(AttrValue::from(format!(
                "About {} left at the pace of the last seconds.",
                duration(left)
            )));
        }
        let lanes = if self.compare_on { self.compare_discs.len().max(1) as f64 } else { 1.0 };
        let e = cost::estimate(&sc).events * lanes;
        let secs = self.rates.seconds(work_units(&sc) * lanes, sc.total_flows());
        let basis = if self.rates.measured(sc.total_flows()) {
            "at the rate this browser ran a run of about as many flows"
        } else {
            "a cautious first guess until a run of about as many flows has been measured here"
        };
        (secs > 10.0).then(|| {
            AttrValue::from(format!(
                "A large run: about {e:.1e} events, roughly {} ({basis}).",
                duration(secs)
            ))
        })
    }
}

/// "45 s", "3 min 20 s".
pub(super) fn duration(secs: f64) -> String {
    let s = secs.round() as u64;
    if s < 120 {
        format!("{s} s")
    } else {
        format!("{} min {} s", s / 60, s % 60)
    }
}

/// What a run costs in the estimate's units: its events and the work beside them (samples
/// over every flow, a control plane's clustering). The page's measured rates are in them.
pub(super) fn work_units(sc: &sim_core::scenario::Scenario) -> f64 {
    let c = cost::estimate(sc);
    c.events + c.work
}
