//! The Sweep tab's requests (a sweep of the editor's scenario, run in the worker) and the
//! run history the charts draw under the run.

use super::*;

impl App {
    pub(super) fn on_sweep(&mut self, m: SweepMsg) {
        match m {
            SweepMsg::Run(spec) => {
                let Some(sc) = self.scenario().filter(|_| self.editor.borrow().is_runnable()) else {
                    self.notice =
                        Some("The scenario in the editor does not read: mend it before sweeping.".into());
                    return;
                };
                let label = match &self.origin {
                    Some((p, v)) if !self.modified() => format!("{p}/{v}"),
                    Some((p, v)) => format!("{p}/{v}, edited"),
                    None => "custom scenario".into(),
                };
                self.sweep.update(|s| {
                    s.running = Some(SweepRun { label, spec: spec.clone(), points: Vec::new(), error: None })
                });
                self.link.send(ToSim::Sweep { scenario: sc, spec });
            }
            SweepMsg::Stop => self.link.send(ToSim::StopSweep),
            SweepMsg::Clear => self.sweep.update(|s| s.history.clear()),
        }
    }

    /// Keeps a finished single run's aggregate lines for the charts of the runs after it.
    pub(super) fn keep_earlier(&mut self) {
        let run = self.run.borrow();
        let [lane] = &run.lanes[..] else { return };
        let f = crate::chart_data::Frame {
            x_max: run.end_s,
            markers: Vec::new(),
            cursor: None,
            expected_jfi: None,
        };
        let title = run.title(0);
        let lines = crate::chart_data::aggregate_lines(&lane.series, &f);
        drop(run);
        self.earlier_shown = self.earlier.clone();
        let mut v: Vec<_> = self.earlier.iter().cloned().collect();
        v.push((title, lines));
        let extra = v.len().saturating_sub(crate::chart_data::EARLIER_KEPT);
        v.drain(..extra);
        self.earlier = Rc::new(v);
    }
}
