//! The Lessons tab's requests: opening a lesson, predictions and challenge edits, running a
//! step's runs as the run's lanes (the charts show them side by side), judging them when
//! they finish, and the result link.

use super::*;
use crate::lesson::LessonView;
use sim_core::lesson::Answer;

impl App {
    pub(super) fn on_lesson(&mut self, m: LessonMsg) {
        if let LessonMsg::Open(name) = &m {
            match LessonView::open(name, None) {
                Ok(v) => self.lesson.update(|l| *l = Some(v)),
                Err(e) => self.notice = Some(e),
            }
            return;
        }
        if m == LessonMsg::Close {
            self.lesson.update(|l| *l = None);
            return;
        }
        if m == LessonMsg::Run {
            return self.run_lesson_step();
        }
        if let LessonMsg::EditAll(label) = &m {
            let found = self.lesson.borrow().as_ref().map(|v| {
                let step = &v.lesson.steps[v.step];
                let run = step.runs.iter().find(|r| &r.label == label).cloned();
                (v.lanes(), run)
            });
            match found {
                Some((Ok(lanes), Some(run))) => {
                    if let Some((_, sc)) = lanes.into_iter().find(|(l, _)| l == label) {
                        let variant = run.variant.clone().or_else(|| {
                            preset_list()
                                .into_iter()
                                .find(|p| p.name == run.preset)
                                .map(|p| p.default_variant.to_string())
                        });
                        self.set_editor(&sc, variant.map(|v| (run.preset.clone(), v)));
                        self.tab = Tab::Charts;
                        self.sync_url();
                    }
                }
                Some((Err(e), _)) => self.notice = Some(e),
                _ => {}
            }
            return;
        }
        if m == LessonMsg::CopyLink {
            if let Some(v) = self.lesson.borrow().as_ref() {
                let url = dom::full_url();
                let base = url.split('#').next().unwrap_or(&url);
                dom::copy_to_clipboard(&format!("{base}#{}", v.fragment()));
            }
            return;
        }
        self.lesson.update(|l| {
            let Some(v) = l.as_mut() else { return };
            v.error = match m {
                LessonMsg::Step(i) => {
                    v.go_to(i);
                    None
                }
                LessonMsg::Choose(i) => {
                    v.answer(Answer::Choice(i));
                    None
                }
                LessonMsg::Number(text) => match text.trim().parse::<f64>() {
                    Ok(x) if x.is_finite() => {
                        v.answer(Answer::Number(x));
                        None
                    }
                    _ if text.trim().is_empty() => None,
                    _ => Some(format!("'{}' is not a number", sim_core::params::echo(&text))),
                },
                LessonMsg::Edit(path, text) => v.edit(&path, &text).err(),
                LessonMsg::Open(_)
                | LessonMsg::Close
                | LessonMsg::Run
                | LessonMsg::CopyLink
                | LessonMsg::EditAll(_) => None,
            };
        });
    }

    /// Loads the open step's runs as the run's lanes and runs them.
    fn run_lesson_step(&mut self) {
        let lanes = self.lesson.borrow().as_ref().map(LessonView::lanes);
        let lanes = match lanes {
            Some(Ok(lanes)) => lanes,
            Some(Err(e)) => {
                self.lesson.update(|l| l.iter_mut().for_each(|v| v.error = Some(e.clone())));
                return;
            }
            None => return,
        };
        self.forget_load();
        self.loaded = true;
        self.pace.clear();
        self.running_ms = 0.0;
        self.paced = self.speed != Speed::Max;
        self.pending_lanes(lanes.clone());
        self.link.send(ToSim::Load { lanes, speed: self.speed });
        self.link.send(ToSim::Run);
        self.last_redraw_ms = dom::now_ms();
        dom::mark("aqmlab-run");
        self.lesson.update(|l| l.iter_mut().for_each(LessonView::started));
    }

    /// The run ended: if it was a lesson step's, judge it on its lanes' summaries.
    pub(super) fn lesson_run_finished(&mut self) {
        if self.lesson.borrow().as_ref().is_none_or(|v| v.running.is_none()) {
            return;
        }
        let runs: Vec<(String, sim_core::metrics::Summary)> = (self.run.borrow().lanes.iter())
            .filter_map(|l| l.summary.clone().map(|s| (l.label.clone(), s)))
            .collect();
        self.lesson.update(|l| l.iter_mut().for_each(|v| v.finished(&runs)));
    }
}
