//! Run controls: run, pause, step, reset, speed, compare, and the progress line.

use super::editor_panel::checked;
use crate::compare::discs;
use crate::editor::Problem;
use crate::protocol::RunState;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[derive(Clone, Debug, PartialEq)]
pub enum ControlMsg {
    Run,
    Pause,
    Step,
    Reset,
    Speed(String),
    Compare(bool),
    CompareDisc(String, bool),
}

#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    pub state: Option<RunState>,
    pub now_s: f64,
    pub end_s: f64,
    pub events_per_s: f64,
    pub runnable: bool,
    pub messages: Rc<Vec<Problem>>,
    /// "5" (s per s) or "max".
    pub speed: AttrValue,
    pub compare_on: bool,
    pub compare_discs: Rc<Vec<String>>,
    /// A warning about the run's cost, when it is large.
    pub cost: Option<AttrValue>,
    pub on: Callback<ControlMsg>,
}

#[function_component(Controls)]
pub fn controls(p: &ControlsProps) -> Html {
    let running = p.state == Some(RunState::Running);
    let finished = p.state == Some(RunState::Finished);
    // A paused run resumes whatever the editor holds: edits of fields that can change
    // became changes of the run, the others wait for the next run.
    let paused = p.state == Some(RunState::Paused);
    let on = &p.on;
    let on_speed =
        on.reform(|e: Event| ControlMsg::Speed(e.target_unchecked_into::<HtmlSelectElement>().value()));
    let on_compare = on.reform(|e: Event| ControlMsg::Compare(checked(&e)));
    let progress = if p.end_s > 0.0 { p.now_s / p.end_s } else { 0.0 };
    let ticked = p.compare_discs.len();
    html! {
        <section class="controls" aria-label="Run controls">
            <div class="buttons">
                if running {
                    <button data-testid="pause" onclick={on.reform(|_| ControlMsg::Pause)} title="Pause (space)">{ "Pause" }</button>
                } else {
                    <button data-testid="run" class="primary" disabled={!p.runnable && !paused}
                        title={p.messages.first().filter(|_| !paused).map_or_else(|| "Run (space)".into(), |m| m.text.clone())}
                        onclick={on.reform(|_| ControlMsg::Run)}>{ if paused { "Resume" } else if finished { "Run again" } else { "Run" } }</button>
                }
                <button data-testid="step" disabled={!p.runnable && !paused} onclick={on.reform(|_| ControlMsg::Step)} title="One sample interval (s)">{ "Step" }</button>
                <button data-testid="reset" onclick={on.reform(|_| ControlMsg::Reset)}>{ "Reset" }</button>
                <label>{ "Speed " }
                    <select key={p.speed.to_string()} data-testid="speed" onchange={on_speed} aria-label="Speed">
                        { for ["0.5", "1", "2", "5", "10", "30", "max"].iter().map(|v| html! {
                            <option value={*v} selected={p.speed == *v}>{ if *v == "max" { "as fast as possible".to_string() } else { format!("{v} s per s") } }</option>
                        }) }
                    </select>
                </label>
                <label class="compare-toggle">
                    <input type="checkbox" checked={p.compare_on} onchange={on_compare} data-testid="compare" />{ " Compare discs" }
                </label>
                // On one column (a phone) the editor is far below the charts: a way there.
                <button type="button" class="jump-editor" data-testid="edit-scenario" onclick={Callback::from(|e: MouseEvent| {
                    if let Some(from) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                        crate::dom::show_editor(&from);
                    }
                })}>{ "Edit scenario ↓" }</button>
            </div>
            if p.compare_on {
                <div class="discs" data-testid="compare-discs">
                    { for discs().into_iter().map(|(key, label)| {
                        let k = key.to_string();
                        let onchange = on.reform(move |e: Event| ControlMsg::CompareDisc(k.clone(), checked(&e)));
                        html! { <label class="disc"><input type="checkbox" checked={p.compare_discs.iter().any(|d| d == key)} {onchange} />{ format!(" {label}") }</label> }
                    }) }
                    <p class="hint" data-testid="compare-hint">{ match ticked {
                        0 => "Tick two or more discs: each runs this scenario with its own bottleneck discipline, side by side.".to_string(),
                        1 => "One disc ticked: tick another to compare (a single one runs alone).".to_string(),
                        n => format!("{n} discs run side by side; the buffer stays the same in each (converted to cells for a switch port with this scenario's packet size)."),
                    } }</p>
                </div>
            }
            <div class="progress">
                <progress max="1" value={format!("{progress}")} aria-label="Progress"></progress>
                <span data-testid="clock">{ format!("t = {:.1} / {} s", p.now_s, crate::charts::fmt_tick(p.end_s)) }</span>
                if p.events_per_s > 0.0 { <span class="rate" title="Simulated events (packet arrivals, timers, samples) processed per second of wall time">{ format!(" · {} events/s", per_second(p.events_per_s)) }</span> }
                if finished { <span class="done">{ " · finished" }</span> }
            </div>
            if let Some(c) = &p.cost { <p class="cost" role="status">{ c.clone() }</p> }
            if !p.messages.is_empty() {
                <ul class="errors" data-testid="errors" role="alert">
                    { for p.messages.iter().map(problem) }
                </ul>
            }
        </section>
    }
}

/// Events per second in words a person reads: 850, 12 k, 3.4 M.
pub fn per_second(v: f64) -> String {
    match v {
        v if v >= 1e6 => format!("{:.1} M", v / 1e6),
        v if v >= 1e4 => format!("{:.0} k", v / 1e3),
        v if v >= 1e3 => format!("{:.1} k", v / 1e3),
        v => format!("{v:.0}"),
    }
}

/// An entry of the list: a button that takes the user to the input at fault.
fn problem(m: &Problem) -> Html {
    let path = m.path.clone();
    let onclick = Callback::from(move |e: MouseEvent| {
        if let Some(from) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
            crate::dom::focus_field(&from, &path);
        }
    });
    html! {
        <li><button type="button" class="problem" data-field={m.path.clone()} disabled={m.path.is_empty()}
            title={format!("Go to {}", m.place)} {onclick}>{ &m.text }</button></li>
    }
}
