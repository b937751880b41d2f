//! The Lessons tab's model, plain Rust: which lesson and step are open, the student's
//! predictions and challenge edits, each step's judged report, and the result link that
//! carries them. sim-core judges (`sim_core::lesson`); the page only runs the step's runs
//! in its worker and hands their summaries back.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sim_core::lesson::{judge_step, lesson, Answer, Lesson, StepReport};
use sim_core::metrics::Summary;
use sim_core::scenario::Scenario;

/// What the student did in a lesson: what a result link carries.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Work {
    /// Per step, the prediction made (before its runs).
    pub answers: Vec<Option<Answer>>,
    /// Per step, the challenge's edits, field → value as typed.
    pub edits: Vec<Map<String, Value>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LessonView {
    pub lesson: Lesson,
    pub step: usize,
    pub work: Work,
    /// Per step, its report once its runs finished.
    pub reports: Vec<Option<StepReport>>,
    /// The step whose runs are going, if any.
    pub running: Option<usize>,
    /// Why the last step could not run or be judged.
    pub error: Option<String>,
}

impl LessonView {
    /// Lesson `name` at its first step, with `work` where a result link brought some.
    pub fn open(name: &str, work: Option<Work>) -> Result<LessonView, String> {
        let lesson = lesson(name)?;
        let n = lesson.steps.len();
        let mut work = work.unwrap_or_default();
        work.answers.resize(n, None);
        work.edits.resize(n, Map::new());
        Ok(LessonView { lesson, step: 0, work, reports: vec![None; n], running: None, error: None })
    }

    pub fn go_to(&mut self, step: usize) {
        self.step = step.min(self.lesson.steps.len().saturating_sub(1));
        self.error = None;
    }

    /// Records the prediction for the open step; a step already run keeps its report (the
    /// prediction was made before, or it was not).
    pub fn answer(&mut self, a: Answer) {
        if self.reports[self.step].is_none() {
            self.work.answers[self.step] = Some(a);
        }
    }

    /// Sets a challenge field to `text` (JSON, or a word as a string); empty text removes
    /// the edit. Refused past the budget.
    pub fn edit(&mut self, path: &str, text: &str) -> Result<(), String> {
        let Some(c) = &self.lesson.steps[self.step].challenge else {
            return Err("this step has no challenge".into());
        };
        if !c.fields.iter().any(|f| f == path) {
            return Err(format!("{path} is not one of this challenge's fields"));
        }
        let edits = &mut self.work.edits[self.step];
        if text.trim().is_empty() {
            edits.remove(path);
            return Ok(());
        }
        if !edits.contains_key(path) && edits.len() >= c.budget {
            return Err(format!("the budget is {} changes: clear one first", c.budget));
        }
        let v = serde_json::from_str(text.trim()).unwrap_or_else(|_| Value::String(text.trim().to_string()));
        edits.insert(path.to_string(), v);
        Ok(())
    }

    /// The open step's runs as lanes, its challenge's edits applied.
    pub fn lanes(&self) -> Result<Vec<(String, Scenario)>, String> {
        self.lesson.steps[self.step].scenarios(&self.work.edits[self.step])
    }

    /// The open step's runs are going.
    pub fn started(&mut self) {
        self.running = Some(self.step);
        self.error = None;
    }

    /// The runs of the step that was running finished with these summaries (by label):
    /// judge it.
    pub fn finished(&mut self, runs: &[(String, Summary)]) {
        let Some(k) = self.running.take() else { return };
        match judge_step(&self.lesson.steps[k], runs, self.work.answers[k]) {
            Ok(r) => self.reports[k] = Some(r),
            Err(e) => self.error = Some(e),
        }
    }

    /// Steps whose runs have been judged, and of them those passed.
    pub fn progress(&self) -> (usize, usize) {
        let done = self.reports.iter().flatten().count();
        let passed = self.reports.iter().flatten().filter(|r| r.passed()).count();
        (done, passed)
    }

    /// The fragment of a link that opens this lesson with this work.
    pub fn fragment(&self) -> String {
        let work = serde_json::to_string(&self.work).unwrap_or_default();
        format!("lesson={}&work={}", self.lesson.name, URL_SAFE_NO_PAD.encode(work))
    }
}

/// The lesson and work a fragment names (`lesson=NAME[&work=…]`), if it names one.
pub fn from_fragment(fragment: &str) -> Option<Result<LessonView, String>> {
    let mut name = None;
    let mut work = None;
    for part in fragment.trim_start_matches('#').split('&') {
        if let Some(n) = part.strip_prefix("lesson=") {
            name = Some(n);
        } else if let Some(w) = part.strip_prefix("work=") {
            work = Some(w);
        }
    }
    let name = name?;
    let work = match work.map(read_work).transpose() {
        Ok(w) => w,
        Err(e) => return Some(Err(e)),
    };
    Some(LessonView::open(name, work))
}

fn read_work(encoded: &str) -> Result<Work, String> {
    if encoded.len() > 64 * 1024 {
        return Err("the link's lesson work is too long".into());
    }
    let bytes = URL_SAFE_NO_PAD.decode(encoded).map_err(|e| format!("the link is damaged ({e})"))?;
    serde_json::from_slice(&bytes).map_err(|e| format!("the link's lesson work does not read ({e})"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::sim::Simulation;

    fn run_step(v: &mut LessonView) {
        let runs: Vec<(String, Summary)> = v
            .lanes()
            .unwrap()
            .into_iter()
            .map(|(l, sc)| (l, Simulation::new(&sc).unwrap().finish()))
            .collect();
        v.started();
        v.finished(&runs);
    }

    #[test]
    fn a_step_is_judged_on_its_runs_and_the_work_travels_in_the_link() {
        let mut v = LessonView::open("l4s", None).unwrap();
        v.answer(Answer::Choice(0));
        run_step(&mut v);
        let r = v.reports[0].as_ref().unwrap();
        assert!(r.prediction.as_ref().unwrap().right);
        // Once run, the prediction is kept as it was made.
        v.answer(Answer::Choice(2));
        assert_eq!(v.work.answers[0], Some(Answer::Choice(0)));
        assert_eq!(v.progress(), (1, 1));
        let back = from_fragment(&format!("#{}", v.fragment())).unwrap().unwrap();
        assert_eq!((back.lesson.name.as_str(), &back.work), ("l4s", &v.work));
        assert!(from_fragment("#p=red-study/red").is_none());
        assert!(from_fragment("#lesson=l4s&work=%%%").unwrap().is_err());
        assert!(from_fragment("#lesson=nosuch").unwrap().unwrap_err().contains("no lesson"));
    }

    #[test]
    fn challenge_edits_are_held_to_their_fields_and_budget() {
        let mut v = LessonView::open("red-tuning", None).unwrap();
        v.go_to(1);
        let c = v.lesson.steps[1].challenge.clone().unwrap();
        assert!(v.edit("links.bottleneck.rate_bps", "1e6").unwrap_err().contains("not one of"));
        v.edit(&c.fields[0], "3").unwrap();
        v.edit(&c.fields[1], "7").unwrap();
        assert!(v.edit(&c.fields[2], "0.5").unwrap_err().contains("budget is 2"));
        v.edit(&c.fields[0], "").unwrap();
        v.edit(&c.fields[2], "0.5").unwrap();
        assert_eq!(v.work.edits[1].len(), 2);
        v.edit(&c.fields[1], "").unwrap();
        run_step(&mut v);
        let goal = v.reports[1].as_ref().unwrap().challenge.as_ref().unwrap();
        assert!(goal.passed, "max_p 0.5 meets the goal: {}", goal.feedback);
    }
}
