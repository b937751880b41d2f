//! The Lessons tab: pick a lesson, read a step, predict, run the step's runs (the charts
//! below show them side by side), and read what sim-core judged: the prediction against
//! the runs, each check, a challenge's goal. A result link carries the predictions and edits.

use crate::lesson::LessonView;
use crate::state::{RunView, Shared};
use serde_json::{Map, Value};
use sim_core::lesson::{lessons, readable, Answer, CheckResult, Prediction, Step};
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Clone, Debug, PartialEq)]
pub enum LessonMsg {
    Open(String),
    Close,
    Step(usize),
    Choose(usize),
    /// The number typed for a number prediction.
    Number(String),
    /// A challenge field and the text typed for it.
    Edit(String, String),
    Run,
    CopyLink,
    /// Open the step's run with this label (its edits applied) in the full editor.
    EditAll(String),
}

#[derive(Properties, PartialEq)]
pub struct LessonProps {
    pub lesson: Shared<Option<LessonView>>,
    /// The run going (a challenge is scored on it live).
    pub run: Shared<RunView>,
    pub on: Callback<LessonMsg>,
}

/// A challenge's goal scored on the runs so far, term by term, with the edits spent.
fn live_score(goal: &str, run: &RunView, used: usize, budget: usize) -> Html {
    let runs: Vec<(String, sim_core::metrics::Summary)> =
        run.lanes.iter().filter_map(|l| l.summary.clone().map(|s| (l.label.clone(), s))).collect();
    let score = sim_core::lesson::score_goal(goal, &runs);
    let n = score.terms.len();
    html! {
        <div class="live-score" data-testid="live-score" data-met={score.met().to_string()}>
            <strong>{ format!("Live score at t = {:.1} s: {} of {n} parts of the goal met · {used} of {budget} edits used", run.now_s, score.met()) }</strong>
            <ul class="checks">
                { for score.terms.iter().map(|t| {
                    let values: Vec<String> = t.values.iter().map(|(k, v)| format!("{k} = {}", readable(*v))).collect();
                    html! { <li class={if t.passed { "pass" } else { "fail" }}><span class="mark">{ mark(t.passed) }</span>{ format!(" {} ", t.expr) }
                        <span class="hint values">{ if values.is_empty() { "(no window yet)".to_string() } else { format!("({})", values.join(" · ")) } }</span></li> }
                }) }
            </ul>
            <p class="hint">{ "Scored on the measured window so far: a mean can still move, a count only grows. The verdict comes when the run ends." }</p>
        </div>
    }
}

fn mark(ok: bool) -> &'static str {
    if ok {
        "✓"
    } else {
        "✗"
    }
}

fn check_item(c: &CheckResult) -> Html {
    let values: Vec<String> = c.values.iter().map(|(k, v)| format!("{k} = {}", readable(*v))).collect();
    html! {
        <li class={if c.passed { "pass" } else { "fail" }}>
            <span class="mark">{ mark(c.passed) }</span>{ " " }{ &c.feedback }
            <span class="hint values">{ format!(" ({})", values.join(" · ")) }</span>
        </li>
    }
}

/// The list of lessons, each with what it teaches.
fn catalogue(on: &Callback<LessonMsg>) -> Html {
    html! {
        <ul class="lesson-list">
            { for lessons().into_iter().map(|l| {
                let name = l.name.clone();
                html! {
                    <li>
                        <button class="primary" data-testid={format!("lesson-open-{}", l.name)} onclick={on.reform(move |_| LessonMsg::Open(name.clone()))}>{ "Open" }</button>
                        <strong>{ format!(" {} ", l.title) }</strong><span class="hint">{ format!("({} steps)", l.steps.len()) }</span>
                        <ul class="objectives">{ for l.objectives.iter().map(|o| html! { <li>{ o }</li> }) }</ul>
                    </li>
                }
            }) }
        </ul>
    }
}

/// The prediction's inputs: options as radio buttons, or a number with its unit.
fn prediction(step: &Step, answer: Option<Answer>, locked: bool, on: &Callback<LessonMsg>) -> Html {
    match &step.predict {
        Some(Prediction::Choice { question, options, .. }) => html! {
            <fieldset class="predict" disabled={locked}>
                <legend>{ format!("Predict: {question}") }</legend>
                { for options.iter().enumerate().map(|(i, o)| html! {
                    <label class="option">
                        <input type="radio" name="lesson-choice" checked={answer == Some(Answer::Choice(i))} onchange={on.reform(move |_| LessonMsg::Choose(i))} />
                        { format!(" {}", o.text) }
                    </label>
                }) }
            </fieldset>
        },
        Some(Prediction::Number { question, unit, .. }) => {
            let value = match answer {
                Some(Answer::Number(x)) => x.to_string(),
                _ => String::new(),
            };
            let oninput = on.reform(|e: InputEvent| {
                LessonMsg::Number(e.target_unchecked_into::<HtmlInputElement>().value())
            });
            html! {
                <fieldset class="predict" disabled={locked}>
                    <legend>{ format!("Predict: {question}") }</legend>
                    <label><input name="lesson-number" {value} {oninput} inputmode="decimal" aria-label={question.clone()} />{ format!(" {unit}") }</label>
                </fieldset>
            }
        }
        None => html! {},
    }
}

/// The fields a run sets, labelled as the editor labels them, with their values: all a
/// beginner needs to read of the scenario (the rest is one click away).
fn set_fields(r: &sim_core::lesson::RunSpec) -> Vec<String> {
    let base =
        r.scenario(&Map::new()).ok().and_then(|sc| serde_json::to_value(sc).ok()).unwrap_or(Value::Null);
    r.set
        .iter()
        .map(|(path, v)| {
            format!(
                " · {} = {v}",
                crate::place::label(&base, path).unwrap_or(path.rsplit('.').next().unwrap_or(path))
            )
        })
        .collect()
}

/// A challenge's fields, each labelled as the editor labels it, its value in the run as
/// the placeholder.
fn challenge_fields(
    step: &Step,
    run: &str,
    fields: &[String],
    edits: &Map<String, Value>,
    on: &Callback<LessonMsg>,
) -> Html {
    let base = (step.runs.iter().find(|r| r.label == run))
        .and_then(|r| r.scenario(&Map::new()).ok())
        .and_then(|sc| serde_json::to_value(sc).ok())
        .unwrap_or(Value::Null);
    fields
        .iter()
        .map(|f| {
            let path = f.clone();
            let value = edits.get(f).map_or(String::new(), |x| x.to_string());
            let now = sim_core::scenario::patch::get(&base, f).map_or("unchanged".to_string(), |v| format!("now {v}"));
            let label = crate::place::label(&base, f).unwrap_or(f.rsplit('.').next().unwrap_or(f));
            let oninput = on.reform(move |e: InputEvent| LessonMsg::Edit(path.clone(), e.target_unchecked_into::<HtmlInputElement>().value()));
            html! { <label class="field"><span class="label">{ label }</span><input name={f.clone()} {value} {oninput} placeholder={now} /></label> }
        })
        .collect()
}

#[function_component(LessonPanel)]
pub fn lesson_panel(p: &LessonProps) -> Html {
    let on = &p.on;
    let view = p.lesson.borrow();
    let Some(v) = view.as_ref() else {
        return html! {
            <section class="lesson" aria-label="Lessons" data-testid="lessons">
                <p class="hint">{ "Each lesson asks you to predict what a run will show, runs it here, and checks the run's own figures. Pick one:" }</p>
                { catalogue(on) }
            </section>
        };
    };
    let n = v.lesson.steps.len();
    let k = v.step;
    let step = &v.lesson.steps[k];
    let report = v.reports[k].as_ref();
    let answer = v.work.answers[k];
    let (done, passed) = v.progress();
    let running = v.running.is_some();
    let needs_prediction = step.predict.is_some() && answer.is_none() && report.is_none();
    let edits = &v.work.edits[k];
    html! {
        <section class="lesson" aria-label={format!("Lesson: {}", v.lesson.title)} data-testid="lesson" data-step={k.to_string()}>
            <div class="lesson-head">
                <button onclick={on.reform(|_| LessonMsg::Close)}>{ "All lessons" }</button>
                <h3>{ &v.lesson.title }</h3>
                <span class="hint" data-testid="lesson-progress">{ format!("Step {} of {n} · {done} run, {passed} passed", k + 1) }</span>
                <button onclick={on.reform(|_| LessonMsg::CopyLink)} title="A link to this lesson with your predictions and edits">{ "Copy result link" }</button>
            </div>
            <details class="objectives"><summary>{ "What you will learn" }</summary>
                <ul>{ for v.lesson.objectives.iter().map(|o| html! { <li>{ o }</li> }) }</ul>
            </details>
            <nav class="lesson-steps">
                { for (0..n).map(|i| {
                    let state = match &v.reports[i] { Some(r) if r.passed() => "passed", Some(_) => "missed", None => "" };
                    html! { <button class={classes!("step", (i == k).then_some("active"), state)} onclick={on.reform(move |_| LessonMsg::Step(i))} aria-current={(i == k).then_some("step")}>{ i + 1 }</button> }
                }) }
            </nav>
            <h4>{ &step.title }</h4>
            <p>{ &step.text }</p>
            <div class="lesson-runs" data-testid="lesson-runs">
                { for step.runs.iter().map(|r| {
                    let label = r.label.clone();
                    html! {
                        <p class="hint">
                            { format!("Run {}: {}{}", r.label, r.preset, r.variant.as_ref().map_or(String::new(), |x| format!(" / {x}"))) }
                            { for set_fields(r).into_iter().map(|t| html! { <span class="set-field">{ t }</span> }) }
                            <button class="link-button" onclick={on.reform(move |_| LessonMsg::EditAll(label.clone()))}
                                title="Open this run, with your edits, in the full editor (the Charts tab)">{ "Every field ›" }</button>
                        </p>
                    }
                }) }
            </div>
            { prediction(step, answer, report.is_some() || running, on) }
            if let Some(c) = &step.challenge {
                <fieldset class="challenge" data-testid="lesson-challenge">
                    <legend>{ format!("Challenge: change at most {} ({} left)", c.budget, c.budget.saturating_sub(edits.len())) }</legend>
                    <p class="hint">{ format!("Goal: {}", c.goal) }</p>
                    { challenge_fields(step, &c.run, &c.fields, edits, on) }
                    if running { { live_score(&c.goal, &p.run.borrow(), edits.len(), c.budget) } }
                    if let Some(g) = report.and_then(|r| r.challenge.as_ref()) {
                        <p class={if g.passed { "pass" } else { "fail" }} data-testid="challenge-score">
                            { if g.passed { format!("Challenge met with {} of {} edits. Copy the result link to share it.", edits.len(), c.budget) }
                              else { format!("Not met yet ({} of {} edits used).", edits.len(), c.budget) } }
                        </p>
                    }
                </fieldset>
            }
            <div class="buttons">
                <button class="primary" data-testid="lesson-run" disabled={running || needs_prediction} onclick={on.reform(|_| LessonMsg::Run)}>
                    { if running { "Running…" } else if report.is_some() { "Run again" } else { "Run this step" } }
                </button>
                if needs_prediction { <span class="hint">{ " Predict first: the run will tell you if you were right." }</span> }
                if k + 1 < n { <button onclick={on.reform(move |_| LessonMsg::Step(k + 1))}>{ "Next step" }</button> }
            </div>
            if let Some(e) = &v.error { <p class="errors" role="alert">{ e }</p> }
            if let Some(r) = report {
                <div class="lesson-report" data-testid="lesson-report" data-passed={r.passed().to_string()}>
                    if let Some(j) = &r.prediction {
                        <p class={if j.right { "pass" } else { "fail" }}>
                            <span class="mark">{ mark(j.right) }</span>
                            { format!(" Your prediction was {}. The runs: {}. {}", if j.right { "right" } else { "not what happened" }, j.outcome, j.feedback) }
                        </p>
                    }
                    <ul class="checks">{ for r.checks.iter().chain(&r.challenge).map(check_item) }</ul>
                </div>
            }
        </section>
    }
}
