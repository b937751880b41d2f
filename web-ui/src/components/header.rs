//! The header: preset picker, sharing, import and export.

use crate::labels::variants;
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
    /// Bumped when a pick was refused (Cancel on "Replace the scenario you edited?"): the
    /// menu is drawn anew, showing the scenario still loaded instead of the one refused.
    pub refused_picks: u32,
    pub on: Callback<HeaderMsg>,
}

pub fn preset_key(name: &str, variant: &str) -> String {
    format!("{name}/{variant}")
}

#[function_component(Header)]
pub fn header(p: &HeaderProps) -> Html {
    let current =
        p.origin.as_ref().filter(|_| !p.modified).map(|(n, v)| preset_key(n, v)).unwrap_or_default();
    let on_preset =
        p.on.reform(|e: Event| HeaderMsg::LoadPreset(e.target_unchecked_into::<HtmlSelectElement>().value()));
    let presets = use_memo((), |_| {
        preset_list().into_iter().map(|pr| (pr.texts().title, pr.name, variants(&pr))).collect::<Vec<_>>()
    });
    let file = use_node_ref();
    let open_file = {
        let file = file.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(input) = file.cast::<HtmlInputElement>() {
                input.click();
            }
        })
    };
    let on = p.on.clone();
    let on_import = Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        let file = input.files().and_then(|f| f.get(0));
        input.set_value("");
        if let Some(f) = file {
            on.emit(HeaderMsg::Import(f));
        }
    });
    let label_of = |name: &str, variant: &str| {
        presets.iter().find(|(_, n, _)| *n == name).and_then(|(title, _, vs)| {
            vs.iter().find(|(v, _)| *v == variant).map(|(_, l)| format!("{title}: {l}"))
        })
    };
    html! {
        <header>
            <h1>{ "AQM Lab" }</h1>
            <label class="preset-picker">{ "Preset " }
                <select key={format!("{current}#{}", p.refused_picks)} data-testid="preset-select" onchange={on_preset} aria-label="Preset">
                    <option value="" selected={current.is_empty()} disabled=true>
                        { match &p.origin {
                            Some((n, v)) if p.modified => {
                                format!("modified from {}", label_of(n, v).unwrap_or_else(|| format!("{n} {v}")))
                            }
                            _ => "custom scenario".to_string(),
                        } }
                    </option>
                    { for presets.iter().map(|(title, name, vs)| html! {
                        <optgroup label={title.clone()}>
                            { for vs.iter().map(|(v, label)| {
                                let key = preset_key(name, v);
                                html! { <option value={key.clone()} selected={current == key}>{ label }</option> }
                            }) }
                        </optgroup>
                    }) }
                </select>
            </label>
            <div class="share">
                <button onclick={p.on.reform(|_| HeaderMsg::CopyLink)} title="Copy a link that opens this scenario">{ "Copy link" }</button>
                <button onclick={p.on.reform(|_| HeaderMsg::ExportScenario)} title="Download the scenario as JSON">{ "Export scenario" }</button>
                // A real button, so Tab reaches it; the file input itself stays out of sight.
                <button onclick={open_file} data-testid="import" title="Open a scenario JSON file (at most 64 KiB)">{ "Import scenario" }</button>
                <input ref={file} type="file" class="file-input" accept=".json,application/json" onchange={on_import} tabindex="-1" aria-hidden="true" />
                <button onclick={p.on.reform(|_| HeaderMsg::ExportResults)} disabled={!p.can_export}
                    title="One zip: every trace, the KDEs, logs, summaries and the scenario">{ "Export results" }</button>
            </div>
        </header>
    }
}
