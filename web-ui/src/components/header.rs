//! The header: preset picker, sharing, import and export.

use crate::share::Origin;
use sim_core::scenario::preset_list;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Clone, Debug, PartialEq)]
pub enum HeaderMsg {
    LoadPreset(String),
    CopyLink,
    ExportScenario,
    Import(web_sys::File),
    ExportResults,
}

#[derive(Properties, PartialEq)]
pub struct HeaderProps {
    pub origin: Option<Origin>,
    pub modified: bool,
    pub can_export: bool,
    pub on: Callback<HeaderMsg>,
}

pub fn preset_key(name: &str, variant: &str) -> String {
    format!("{name}/{variant}")
}

#[function_component(Header)]
pub fn header(p: &HeaderProps) -> Html {
    let on_preset =
        p.on.reform(|e: Event| HeaderMsg::LoadPreset(e.target_unchecked_into::<HtmlSelectElement>().value()));
    let on = p.on.clone();
    let on_import = Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        let file = input.files().and_then(|f| f.get(0));
        input.set_value("");
        if let Some(f) = file {
            on.emit(HeaderMsg::Import(f));
        }
    });
    let current =
        p.origin.as_ref().filter(|_| !p.modified).map(|(n, v)| preset_key(n, v)).unwrap_or_default();
    html! {
        <header>
            <h1>{ "AQM Lab" }</h1>
            <label class="preset-picker">{ "Preset " }
                <select key={current.clone()} data-testid="preset-select" onchange={on_preset} aria-label="Preset">
                    <option value="" selected={current.is_empty()} disabled=true>
                        { match &p.origin {
                            Some((n, v)) if p.modified => format!("modified from {n} — {v}"),
                            _ => "custom scenario".to_string(),
                        } }
                    </option>
                    { for preset_list().into_iter().map(|pr| html! {
                        <optgroup label={pr.title}>
                            { for pr.variants.iter().map(|v| {
                                let key = preset_key(pr.name, v);
                                html! { <option value={key.clone()} selected={current == key}>{ format!("{} — {}", pr.name, v) }</option> }
                            }) }
                        </optgroup>
                    }) }
                </select>
            </label>
            <div class="share">
                <button onclick={p.on.reform(|_| HeaderMsg::CopyLink)} title="Copy a link that opens this scenario">{ "Copy link" }</button>
                <button onclick={p.on.reform(|_| HeaderMsg::ExportScenario)} title="Download the scenario as JSON">{ "Export scenario" }</button>
                <label class="file-button" title="Open a scenario JSON file (at most 64 KiB)">{ "Import scenario" }
                    <input type="file" accept=".json,application/json" onchange={on_import} aria-label="Import scenario" />
                </label>
                <button onclick={p.on.reform(|_| HeaderMsg::ExportResults)} disabled={!p.can_export}
                    title="One zip: every trace, the KDEs, logs, summaries and the scenario">{ "Export results" }</button>
            </div>
        </header>
    }
}
