//! Edits made while a run goes: a field that can change becomes a timed change of the run
//! now (recorded in the editor's scenario, so it replays the run); any other waits for the
//! next run.

use super::*;

impl App {
    /// Whether a run is loaded and not finished: edits then either change it or wait.
    pub(super) fn run_active(&self) -> bool {
        let run = self.run.borrow();
        self.loaded && !run.lanes.is_empty() && matches!(run.state, RunState::Running | RunState::Paused)
    }

    /// An edit at `path` was committed during a run: a field that can change is sent to the
    /// run as a change now; any other says it waits for the next run.
    pub(super) fn edit_during_run(&mut self, path: &str) {
        if !self.run_active() {
            return;
        }
        let ed = self.editor.borrow();
        let place = ed.place(path);
        if ed.error_for(path).is_some() {
            return; // the field says what is wrong; nothing goes to the run
        }
        if !live::is_live(path) {
            drop(ed);
            self.notice = Some(format!(
                "{place} cannot change during a run: the running simulation keeps its value and yours applies to the next run (Run again once this one ends, or Reset now)."
            ));
            return;
        }
        let Some((set, to)) = live::change_of(&ed, path) else { return };
        drop(ed);
        let running_value = self.run.borrow().lanes.first().and_then(|l| value_now(&l.scenario, &set));
        if running_value.as_ref() == Some(&to) {
            return;
        }
        self.link.send(ToSim::Change { set, to });
    }

    /// The run took a change (in some lanes): it is marked on the charts and recorded in the
    /// editor's scenario, whose field shows its value at the start again, so the scenario
    /// replays the run; a lane that refused says why.
    pub(super) fn on_changed(&mut self, results: &[Result<sim_core::scenario::TimedChange, String>]) {
        // A run changed while it ran is no longer the paper's: its paper column goes.
        let any = results.iter().any(Result::is_ok);
        self.run.update(|r| {
            r.record_changes(results);
            r.modified |= any;
        });
        self.markers = self.markers();
        let refused: Vec<String> = results.iter().filter_map(|r| r.as_ref().err().cloned()).collect();
        let applied = results.iter().find_map(|r| r.as_ref().ok()).cloned();
        let base = self.run.borrow().base.clone();
        if let Some(c) = &applied {
            let start = base.and_then(|b| value_now(&Scenario { changes: Vec::new(), ..b }, &c.set));
            let mut ed = self.editor.clone();
            ed.update(|e| {
                if let Some(v) = start {
                    e.set(&c.set, v);
                }
                e.add_change(c);
            });
            self.editor = ed;
            self.sync_url();
        }
        self.notice = match (&applied, refused.is_empty()) {
            (Some(c), true) => Some(format!(
                "At t = {:.3} s: {} → {}. Added to the scenario's timed changes (the field shows its starting value).",
                c.at_s,
                self.editor.borrow().place(&c.set),
                c.label().split(" → ").nth(1).unwrap_or_default()
            )),
            (_, false) => Some(format!(
                "Not applied {}: {}. Your value stays in the editor for the next run.",
                if applied.is_some() { "in every lane" } else { "to the running simulation" },
                refused.join("; ")
            )),
            (None, true) => None,
        };
    }
}

/// The value at `path` in `sc` once its timed changes have applied (what a running lane
/// holds at its end, which is where a change made now starts from).
fn value_now(sc: &Scenario, path: &str) -> Option<Value> {
    let (_, state) = sim_core::scenario::changes::states(sc).pop()?;
    sim_core::scenario::patch::get(&serde_json::to_value(&state).ok()?, path).cloned()
}
