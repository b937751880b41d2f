//! Lessons: predict-then-observe handouts that check themselves. A lesson is data, one JSON
//! file each under `lessons/` and one line in [`LESSON_FILES`]: a title, what the student
//! will learn, and steps. A step names the runs it needs (a preset's variant, with edits),
//! may ask for a prediction (one of a few answers, or a number) before they run, and checks
//! the runs' own figures with expressions ([`expr`]), each with feedback for either outcome.
//! A challenge step gives a goal, the fields the student may change and a budget of edits.
//!
//! sim-core judges everything ([`judge`]), so a lesson runs the same natively (`aqmsim
//! lesson check NAME` runs its reference answers) and in the browser, and its tests run here.

pub mod expr;
mod judge;

pub use judge::{
    check_lesson, check_lesson_with, conjuncts, judge_step, readable, score_goal, Answer, CheckResult,
    GoalScore, Judged, LessonReport, StepReport,
};

use crate::metrics::figures::is_figure;
use crate::scenario::{patch, preset, Scenario};
use expr::Expr;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Every lesson, in the order a course would take them. Adding one: a file and a line.
const LESSON_FILES: &[&str] = &[
    include_str!("lessons/bufferbloat.json"),
    include_str!("lessons/buffer-sizing.json"),
    include_str!("lessons/red-tuning.json"),
    include_str!("lessons/rtt-fairness.json"),
    include_str!("lessons/parking-lot.json"),
    include_str!("lessons/cca-buffers.json"),
    include_str!("lessons/ecn-dctcp.json"),
    include_str!("lessons/l4s.json"),
    include_str!("lessons/incast.json"),
    include_str!("lessons/warbler.json"),
    include_str!("lessons/dqn.json"),
];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Its tag: `aqmsim lesson check NAME`, the page's `#lesson=NAME`.
    pub name: String,
    pub title: String,
    /// What the student will be able to say after it.
    pub objectives: Vec<String>,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub title: String,
    /// What to read and do, shown before the runs.
    pub text: String,
    /// The runs the step's figures come from, each under a label its expressions use.
    pub runs: Vec<RunSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predict: Option<Prediction>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<Check>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge: Option<Challenge>,
}

/// One run of a step: a preset's variant with edits (paths as `aqmsim run --set` takes
/// them, values as JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSpec {
    /// A word: letters, digits, `_` (expressions read `LABEL.FIGURE`).
    pub label: String,
    pub preset: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub set: Map<String, Value>,
}

/// A question asked before the runs; the runs decide which answer was right.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Prediction {
    /// One of a few answers; exactly one option's `when` holds on the runs.
    Choice {
        question: String,
        options: Vec<ChoiceOption>,
        /// The answer a student who understood gives (what `lesson check` answers).
        reference: usize,
    },
    /// A number, right within `tolerance_pct` of `figure`'s value on the runs.
    Number {
        question: String,
        unit: String,
        /// An expression over the runs' figures.
        figure: String,
        tolerance_pct: f64,
        reference: f64,
        /// Feedback for an answer below, within and above the band.
        low: String,
        right: String,
        high: String,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChoiceOption {
    pub text: String,
    /// When this answer is the right one, on the runs.
    pub when: String,
    /// Why, shown once the runs are in.
    pub feedback: String,
}

/// A claim about the runs, with what to say when it holds and when not.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    pub expr: String,
    pub pass: String,
    pub fail: String,
}

/// A goal to reach by editing one run within a budget of edits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Challenge {
    /// The label of the run the student edits.
    pub run: String,
    /// The fields they may change (paths as `--set` takes them).
    pub fields: Vec<String>,
    /// How many of them they may change.
    pub budget: usize,
    /// An expression over the runs: the challenge is met when it holds.
    pub goal: String,
    /// A solution within the budget (what `lesson check` tries).
    pub reference: Map<String, Value>,
    pub pass: String,
    pub fail: String,
}

/// Every lesson, read and checked; a lesson file that does not read is a bug the tests
/// catch, so it panics here with its name.
pub fn lessons() -> Vec<Lesson> {
    LESSON_FILES
        .iter()
        .map(|text| {
            let l: Lesson =
                serde_json::from_str(text).unwrap_or_else(|e| panic!("a lesson file does not read: {e}"));
            if let Err(e) = l.validate() {
                panic!("lesson '{}': {}", l.name, e.join("; "));
            }
            l
        })
        .collect()
}

/// The lesson named `name`, or an error listing the names.
pub fn lesson(name: &str) -> Result<Lesson, String> {
    let all = lessons();
    let names: Vec<String> = all.iter().map(|l| l.name.clone()).collect();
    all.into_iter().find(|l| l.name == name).ok_or_else(|| {
        let hint = crate::params::closest(name, names.iter().map(String::as_str))
            .map_or(String::new(), |c| format!("did you mean '{c}'? "));
        format!("no lesson '{}'; {hint}lessons: {}", crate::params::echo(name), names.join(", "))
    })
}

impl RunSpec {
    /// Its scenario with `extra` edits on top of its own.
    pub fn scenario(&self, extra: &Map<String, Value>) -> Result<Scenario, String> {
        let base = preset(&self.preset, self.variant.as_deref())?;
        let sets: Vec<(String, String)> =
            self.set.iter().chain(extra.iter()).map(|(k, v)| (k.clone(), v.to_string())).collect();
        let sc = patch::apply(&base, &sets)?;
        sc.validate().map_err(|e| e.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("; "))?;
        Ok(sc)
    }
}

impl Step {
    /// Each run's label and scenario, the challenge's edits applied to its run.
    pub fn scenarios(&self, edits: &Map<String, Value>) -> Result<Vec<(String, Scenario)>, String> {
        self.runs
            .iter()
            .map(|r| {
                let mine = self.challenge.as_ref().is_some_and(|c| c.run == r.label);
                let none = Map::new();
                Ok((r.label.clone(), r.scenario(if mine { edits } else { &none })?))
            })
            .collect()
    }

    /// Every expression of the step, with where it stands.
    fn expressions(&self) -> Vec<(String, &str)> {
        let mut out: Vec<(String, &str)> =
            self.checks.iter().enumerate().map(|(i, c)| (format!("checks[{i}]"), c.expr.as_str())).collect();
        match &self.predict {
            Some(Prediction::Choice { options, .. }) => out.extend(
                options
                    .iter()
                    .enumerate()
                    .map(|(i, o)| (format!("predict.options[{i}].when"), o.when.as_str())),
            ),
            Some(Prediction::Number { figure, .. }) => out.push(("predict.figure".into(), figure.as_str())),
            None => {}
        }
        if let Some(c) = &self.challenge {
            out.push(("challenge.goal".into(), c.goal.as_str()));
        }
        out
    }
}

impl Lesson {
    /// Everything that can be checked without running: the runs build, the expressions
    /// read and name runs and figures that exist, the references fit their questions.
    pub fn validate(&self) -> Result<(), Vec<String>> {
        let mut errors = Vec::new();
        let word = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if self.steps.is_empty() {
            errors.push("no steps".into());
        }
        for (i, step) in self.steps.iter().enumerate() {
            let at = |what: &str| format!("steps[{i}].{what}");
            let labels: Vec<&str> = step.runs.iter().map(|r| r.label.as_str()).collect();
            for (k, r) in step.runs.iter().enumerate() {
                if !word(&r.label) || labels.iter().filter(|l| **l == r.label).count() > 1 {
                    errors.push(format!(
                        "{}: '{}' is not a unique word",
                        at(&format!("runs[{k}].label")),
                        r.label
                    ));
                }
                if let Err(e) = r.scenario(&Map::new()) {
                    errors.push(format!("{}: {e}", at(&format!("runs[{k}]"))));
                }
            }
            for (where_, src) in step.expressions() {
                match Expr::parse(src) {
                    Err(e) => errors.push(format!("{}: '{src}' {e}", at(&where_))),
                    Ok(e) => {
                        for (run, fig) in e.figures() {
                            if !labels.contains(&run) {
                                errors.push(format!(
                                    "{}: no run '{run}' (runs: {})",
                                    at(&where_),
                                    labels.join(", ")
                                ));
                            }
                            if !is_figure(fig) {
                                errors.push(format!("{}: no figure '{fig}'", at(&where_)));
                            }
                        }
                    }
                }
            }
            match &step.predict {
                Some(Prediction::Choice { options, reference, .. }) if *reference >= options.len() => errors
                    .push(format!(
                        "{}: {reference} is not an option (0 to {})",
                        at("predict.reference"),
                        options.len().saturating_sub(1)
                    )),
                Some(Prediction::Number { tolerance_pct, .. })
                    if tolerance_pct.is_nan() || *tolerance_pct <= 0.0 =>
                {
                    errors.push(format!("{}: {tolerance_pct} is not above 0", at("predict.tolerance_pct")))
                }
                _ => {}
            }
            if let Some(c) = &step.challenge {
                if !labels.contains(&c.run.as_str()) {
                    errors.push(format!("{}: no run '{}'", at("challenge.run"), c.run));
                }
                if let Some(k) = c.reference.keys().find(|k| !c.fields.contains(k)) {
                    errors.push(format!(
                        "{}: '{k}' is not one of the fields the student may change",
                        at("challenge.reference")
                    ));
                }
                if c.reference.len() > c.budget {
                    errors.push(format!(
                        "{}: {} edits, over the budget of {}",
                        at("challenge.reference"),
                        c.reference.len(),
                        c.budget
                    ));
                }
                if let Err(e) = step.scenarios(&c.reference) {
                    errors.push(format!("{}: {e}", at("challenge.reference")));
                }
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}
