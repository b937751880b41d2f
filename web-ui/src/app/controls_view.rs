//! Header (presets, share, import/export) and the run controls.

use super::{preset_key, App, Msg};
use crate::compare::discs;
use crate::runner::{RunState, Speed};
use sim_core::scenario::preset_list;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::html::Scope;
use yew::prelude::*;

pub fn header(app: &App, link: &Scope<App>) -> Html {
    let on_preset =
        link.callback(|e: Event| Msg::LoadPreset(e.target_unchecked_into::<HtmlSelectElement>().value()));
    let on_import = link.batch_callback(|e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        let file = input.files().and_then(|f| f.get(0));
        input.set_value("");
        file.map(Msg::ImportFile)
    });
    html! {
        <header>
            <h1>{ "AQM Lab" }</h1>
            <label class="preset-picker">{ "Preset " }
                <select key={app.loaded.clone()} data-testid="preset-select" onchange={on_preset}>
                    <option value="" selected={app.loaded.is_empty()} disabled=true>{ "custom scenario" }</option>
                    { for preset_list().into_iter().flat_map(|p| p.variants.iter().map(move |v| {
                        let key = preset_key(p.name, v);
                        html! { <option value={key.clone()} selected={app.loaded == key}>{ format!("{} — {}", p.name, v) }</option> }
                    }).collect::<Vec<_>>()) }
                </select>
            </label>
            <div class="share">
                <button onclick={link.callback(|_| Msg::CopyLink)} title="Copy a link that opens this scenario">{ "Copy link" }</button>
                <button onclick={link.callback(|_| Msg::ExportScenario)}>{ "Export scenario" }</button>
                <label class="file-button">{ "Import scenario" }
                    <input type="file" accept=".json,application/json" onchange={on_import} />
                </label>
                <button onclick={link.callback(|_| Msg::ExportResults)} disabled={app.runner.is_none()}>{ "Export results" }</button>
            </div>
        </header>
    }
}

/// What the loaded preset reproduces and what to look at.
pub fn preset_text(app: &App) -> Html {
    let name = app.loaded.split('/').next().unwrap_or("");
    match preset_list().into_iter().find(|p| p.name == name) {
        Some(p) => html! {
            <section class="preset-info">
                <h2>{ p.title }</h2>
                <p>{ p.description }</p>
            </section>
        },
        None => html! {},
    }
}

fn speed_value(s: Speed) -> String {
    match s {
        Speed::Max => "max".into(),
        Speed::Times(x) => format!("{x}"),
    }
}

pub fn controls(app: &App, link: &Scope<App>) -> Html {
    let runnable = app.editor.is_runnable();
    let state = app.runner.as_ref().map(|r| r.state);
    let running = state == Some(RunState::Running);
    let finished = state == Some(RunState::Finished);
    let on_speed =
        link.callback(|e: Event| Msg::SetSpeed(e.target_unchecked_into::<HtmlSelectElement>().value()));
    let current = speed_value(app.speed);
    let (now, end, progress, eps, busy) = match &app.runner {
        Some(r) => (r.now_s(), r.end_s(), r.progress(), r.events_per_s, r.busy_ms),
        None => (0.0, app.editor.scenario().map_or(0.0, |s| s.duration_s), 0.0, 0.0, 0.0),
    };
    let messages = app.editor.messages();
    let on_compare =
        link.callback(|e: Event| Msg::CompareMode(e.target_unchecked_into::<HtmlInputElement>().checked()));
    html! {
        <section class="controls">
            <div class="buttons">
                if running {
                    <button data-testid="pause" onclick={link.callback(|_| Msg::Pause)}>{ "Pause" }</button>
                } else {
                    <button data-testid="run" class="primary" disabled={!runnable || finished}
                        title={messages.first().cloned().unwrap_or_default()}
                        onclick={link.callback(|_| Msg::Run)}>{ if state.is_some() && !finished { "Resume" } else { "Run" } }</button>
                }
                <button data-testid="step" disabled={!runnable || finished} onclick={link.callback(|_| Msg::Step)}>{ "Step" }</button>
                <button data-testid="reset" onclick={link.callback(|_| Msg::Reset)}>{ "Reset" }</button>
                <label>{ "Speed " }
                    <select key={current.clone()} data-testid="speed" onchange={on_speed}>
                        { for ["0.5", "1", "2", "5", "10", "30", "max"].iter().map(|v| html! {
                            <option value={*v} selected={current == *v}>{ if *v == "max" { "as fast as possible".to_string() } else { format!("{v} s per s") } }</option>
                        }) }
                    </select>
                </label>
                <label class="compare-toggle">
                    <input type="checkbox" checked={app.compare_on} onchange={on_compare} />{ " Compare discs" }
                </label>
                if app.compare_on {
                    { for discs().into_iter().map(|(key, label)| {
                        let k = key.to_string();
                        let on = link.callback(move |e: Event| Msg::CompareDisc(k.clone(), e.target_unchecked_into::<HtmlInputElement>().checked()));
                        html! { <label class="disc"><input type="checkbox" checked={app.compare_discs.iter().any(|d| d == key)} onchange={on} />{ format!(" {label}") }</label> }
                    }) }
                }
            </div>
            <div class="progress" data-busy-ms={format!("{busy:.1}")}>
                <progress max="1" value={format!("{progress}")}></progress>
                <span data-testid="clock">{ format!("t = {now:.1} / {end:.0} s · {:.2} M events/s", eps / 1e6) }</span>
                if finished { <span class="done">{ " · finished" }</span> }
            </div>
            if !messages.is_empty() {
                <ul class="errors" data-testid="errors">
                    { for messages.iter().map(|m| html! { <li>{ m }</li> }) }
                </ul>
            }
        </section>
    }
}

/// The checkbox state of an input event's target.
pub fn checked(e: &Event) -> bool {
    e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()).is_some_and(|i| i.checked())
}
