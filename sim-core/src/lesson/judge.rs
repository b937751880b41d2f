//! Judging a step on its runs: the prediction against what the runs show, each check, the
//! challenge's goal. Pure functions of the runs' summaries, so the page (whose worker runs
//! them) and the CLI (which runs them here, [`check_lesson`]) judge alike.

use super::expr::Expr;
use super::{Lesson, Prediction, Step};
use crate::metrics::figures::figure;
use crate::metrics::Summary;
use crate::sim::Simulation;
use serde::{Deserialize, Serialize};
use serde_json::Map;

/// A student's answer to a step's prediction.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// The option's index.
    Choice(usize),
    Number(f64),
}

/// A prediction judged: whether it was right, what the runs showed, what to say.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Judged {
    pub right: bool,
    pub outcome: String,
    pub feedback: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckResult {
    pub expr: String,
    pub passed: bool,
    pub feedback: String,
    /// Each figure the expression read, with its value on the runs (how close it came).
    pub values: Vec<(String, f64)>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepReport {
    pub title: String,
    pub prediction: Option<Judged>,
    pub checks: Vec<CheckResult>,
    /// The challenge's goal, when the step has one.
    pub challenge: Option<CheckResult>,
}

impl StepReport {
    /// The prediction was right, every check and the goal held.
    pub fn passed(&self) -> bool {
        self.prediction.as_ref().is_none_or(|p| p.right)
            && self.checks.iter().chain(&self.challenge).all(|c| c.passed)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LessonReport {
    pub lesson: String,
    pub steps: Vec<StepReport>,
}

impl LessonReport {
    pub fn passed(&self) -> bool {
        self.steps.iter().all(StepReport::passed)
    }
}

/// Figure `name` of run `run`.
fn read(runs: &[(String, Summary)], run: &str, name: &str) -> Result<f64, String> {
    let (_, s) = runs.iter().find(|(l, _)| l == run).ok_or_else(|| format!("no run '{run}'"))?;
    figure(s, name)?.ok_or_else(|| format!("run '{run}' has no {name}"))
}

/// The value of `src` on `runs` (label, summary).
fn value(src: &str, runs: &[(String, Summary)]) -> Result<f64, String> {
    let e = Expr::parse(src).map_err(|e| format!("'{src}' {e}"))?;
    e.eval(&|run: &str, name: &str| read(runs, run, name))
}

fn check(src: &str, runs: &[(String, Summary)], pass: &str, fail: &str) -> Result<CheckResult, String> {
    let passed = value(src, runs)? != 0.0;
    let mut values: Vec<(String, f64)> = Vec::new();
    for (run, name) in Expr::parse(src).map_err(|e| e.to_string())?.figures() {
        let key = format!("{run}.{name}");
        // A figure an && or || did not need may be missing: it is left out.
        if let (false, Ok(v)) = (values.iter().any(|(k, _)| *k == key), read(runs, run, name)) {
            values.push((key, v));
        }
    }
    Ok(CheckResult { expr: src.into(), passed, feedback: if passed { pass } else { fail }.into(), values })
}

/// A figure as people read it: three significant digits, no exponent.
pub fn readable(v: f64) -> String {
    let digits = if v.abs() >= 100.0 {
        0
    } else if v.abs() >= 10.0 {
        1
    } else {
        2
    };
    format!("{v:.digits$}")
}

/// Judges `step` on its runs' summaries and the student's `answer` (none: the prediction
/// is not judged). An `Err` is a lesson that does not fit its runs (no option holds, a
/// figure the run has not): a bug the lesson tests catch.
pub fn judge_step(
    step: &Step,
    runs: &[(String, Summary)],
    answer: Option<Answer>,
) -> Result<StepReport, String> {
    let prediction = match (&step.predict, answer) {
        (Some(Prediction::Choice { options, .. }), Some(Answer::Choice(chosen))) => {
            let holds: Vec<usize> = (0..options.len())
                .filter_map(|i| value(&options[i].when, runs).map(|v| (v != 0.0).then_some(i)).transpose())
                .collect::<Result<_, _>>()?;
            let [outcome] = holds[..] else {
                return Err(format!("{} options hold on these runs, not one", holds.len()));
            };
            let o = &options[outcome];
            // The outcome says what happened; the feedback why, whatever was chosen.
            Some(Judged { right: chosen == outcome, outcome: o.text.clone(), feedback: o.feedback.clone() })
        }
        (
            Some(Prediction::Number { figure, tolerance_pct, unit, low, right, high, .. }),
            Some(Answer::Number(x)),
        ) => {
            let v = value(figure, runs)?;
            let band = tolerance_pct / 100.0 * v.abs();
            let not_a_number = "That is not a number this question can take.".to_string();
            let (ok, said) = if !x.is_finite() {
                (false, &not_a_number)
            } else if x < v - band {
                (false, low)
            } else if x > v + band {
                (false, high)
            } else {
                (true, right)
            };
            Some(Judged { right: ok, outcome: format!("{} {unit}", readable(v)), feedback: said.clone() })
        }
        (Some(_), Some(a)) => return Err(format!("{a:?} does not answer this step's question")),
        _ => None,
    };
    let checks =
        step.checks.iter().map(|c| check(&c.expr, runs, &c.pass, &c.fail)).collect::<Result<_, _>>()?;
    let challenge = step.challenge.as_ref().map(|c| check(&c.goal, runs, &c.pass, &c.fail)).transpose()?;
    Ok(StepReport { title: step.title.clone(), prediction, checks, challenge })
}

/// A challenge's goal scored on runs still going (or done): each of its top-level `&&`
/// terms, whether it holds so far and the figures it read.
#[derive(Clone, Debug, PartialEq)]
pub struct GoalScore {
    pub terms: Vec<CheckResult>,
}

impl GoalScore {
    pub fn met(&self) -> usize {
        self.terms.iter().filter(|t| t.passed).count()
    }
}

/// The top-level `&&` terms of an expression's text (one term when it has none).
pub fn conjuncts(src: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'&' if depth == 0 && b.get(i + 1) == Some(&b'&') => {
                out.push(src[start..i].trim());
                start = i + 2;
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(src[start..].trim());
    out
}

/// Scores `goal` term by term on `runs`: a term whose figures the runs do not have yet (no
/// window so far) is not met.
pub fn score_goal(goal: &str, runs: &[(String, Summary)]) -> GoalScore {
    let terms = (conjuncts(goal).into_iter())
        .map(|t| {
            check(t, runs, "", "").unwrap_or(CheckResult {
                expr: t.into(),
                passed: false,
                feedback: String::new(),
                values: Vec::new(),
            })
        })
        .collect();
    GoalScore { terms }
}

/// The reference answer of a step's prediction.
fn reference(step: &Step) -> Option<Answer> {
    match step.predict.as_ref()? {
        Prediction::Choice { reference, .. } => Some(Answer::Choice(*reference)),
        Prediction::Number { reference, .. } => Some(Answer::Number(*reference)),
    }
}

/// Runs every step of `lesson` with the reference answers and the challenges' reference
/// edits, and judges them: a lesson whose own answers fail is wrong.
pub fn check_lesson(lesson: &Lesson) -> Result<LessonReport, String> {
    check_lesson_with(lesson, reference, |step| {
        step.challenge.as_ref().map_or_else(Map::new, |c| c.reference.clone())
    })
}

/// [`check_lesson`] with other answers and edits (the tests' wrong answers).
pub fn check_lesson_with(
    lesson: &Lesson,
    answer: impl Fn(&Step) -> Option<Answer>,
    edits: impl Fn(&Step) -> Map<String, serde_json::Value>,
) -> Result<LessonReport, String> {
    let mut steps = Vec::new();
    for (i, step) in lesson.steps.iter().enumerate() {
        let at = |e: String| format!("{} step {} ({}): {e}", lesson.name, i + 1, step.title);
        let runs: Vec<(String, Summary)> = step
            .scenarios(&edits(step))
            .map_err(at)?
            .into_iter()
            .map(|(label, sc)| Ok((label, Simulation::new(&sc).map_err(|e| format!("{e:?}"))?.finish())))
            .collect::<Result<_, String>>()
            .map_err(at)?;
        steps.push(judge_step(step, &runs, answer(step)).map_err(at)?);
    }
    Ok(LessonReport { lesson: lesson.name.clone(), steps })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;
    use crate::time::SimTime;

    #[test]
    fn a_goal_splits_into_its_top_level_terms() {
        assert_eq!(
            conjuncts("a.x < 8 && (a.y > 1 && a.z < 2) && b.w >= 3"),
            ["a.x < 8", "(a.y > 1 && a.z < 2)", "b.w >= 3"]
        );
        assert_eq!(conjuncts("a.x < 8 || a.y > 1"), ["a.x < 8 || a.y > 1"]);
    }

    /// Scored while the run goes: no window yet, no mean met; part-way, each term with the
    /// figures it read, and at the end the same verdict as the judged goal.
    #[test]
    fn a_goal_is_scored_term_by_term_as_the_run_goes() {
        let goal = "red.queue_mean < 8 && red.drops < 1000 && red.mbps >= 9.5";
        let mut sc = preset("red-ecn", Some("red")).unwrap();
        sc.duration_s = 8.0;
        let mut sim = Simulation::new(&sc).unwrap();
        let score = score_goal(goal, &[("red".into(), sim.summary())]);
        // Before the window opens only the drop count (none so far) can hold.
        assert_eq!(score.terms.len(), 3);
        assert!(!score.terms[0].passed && !score.terms[2].passed, "{score:?}");
        sim.step_until(SimTime::from_secs_f64(6.0));
        let score = score_goal(goal, &[("red".into(), sim.summary())]);
        assert!(score.terms.iter().all(|t| t.values.len() == 1), "{score:?}");
        let end = [("red".to_string(), sim.finish())];
        let whole = value(goal, &end).unwrap() != 0.0;
        assert_eq!(score_goal(goal, &end).met() == 3, whole);
    }
}
