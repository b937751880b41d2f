//! The scenario editor, generated from sim-core's parameter descriptors: the scenario's
//! own fields, TCP's, and each algorithm's from its registry entry. Each input is bound to
//! a path in the scenario's JSON. A component: it re-renders only when the editor changes.

use crate::editor::{Editor, Kind as TextKind};
use crate::state::Shared;
use serde_json::Value;
use sim_core::aqm::QueueDiscSpec;
use sim_core::params::{Family, Field, Kind};
use sim_core::scenario::fields::{BOTTLENECK_FIELDS, FLOW_FIELDS, RUN_FIELDS};
use sim_core::scenario::{FlowGroup, Scenario};
use sim_core::tcp::TcpConfig;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// What an editor input asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum EditMsg {
    /// Text typed into the input of `path`: (path, text, kind, unit, label).
    Edit(String, String, TextKind, &'static str, &'static str),
    /// A structured value (checkbox, select, a whole nested configuration).
    Set(String, Value),
    AddFlow,
    DuplicateFlow(usize),
    RemoveFlow(usize),
    /// A queue-disc picker entry (a tag or a flavour such as `ared`).
    QueueType(String),
    /// A buffer limit at a path takes another unit.
    LimitUnit(String, String),
}

type Link = Callback<EditMsg>;

/// The checkbox state of an input event's target.
pub fn checked(e: &Event) -> bool {
    e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()).is_some_and(|i| i.checked())
}

#[derive(Properties, PartialEq)]
pub struct EditorProps {
    pub editor: Shared<Editor>,
    pub on: Callback<EditMsg>,
    /// Only these sections (all when empty): the Warbler panel shows the control plane.
    #[prop_or_default]
    pub only: Option<AttrValue>,
}

#[function_component(EditorPanel)]
pub fn editor_panel(p: &EditorProps) -> Html {
    let ed = p.editor.borrow();
    match p.only.as_deref() {
        // The switch's control plane: its period and smoothing, then the app's own fields.
        Some(port) => {
            let switch = sim_core::aqm::QueueDiscSpec::FAMILY.member("switch").map_or(&[][..], |m| m.fields);
            let port_defaults =
                serde_json::to_value(sim_core::switch::SwitchConfig::default()).unwrap_or_default();
            let cadence: Vec<&'static Field> = switch
                .iter()
                .filter(|f| {
                    ["control_period_ms", "compute_latency_ms", "backlog_wma_weight"].contains(&f.path)
                })
                .collect();
            let control = format!("{port}.control");
            let value = ed.value(&control).cloned().unwrap_or(Value::Null);
            let family = &sim_core::switch::ControlPlaneSpec::FAMILY;
            let tag = value.get("type").and_then(Value::as_str).unwrap_or("").to_string();
            let defaults = family.default_value_of(&tag);
            html! {
                <>
                    { for cadence.into_iter().map(|f| input(&ed, &p.on, port, f, &port_defaults)) }
                    { family.member(&tag).map_or(html! {}, |m| inputs(&ed, &p.on, &control, m.fields, &defaults, &[])) }
                </>
            }
        }
        None => view(&ed, &p.on),
    }
}

fn join(prefix: &str, path: &str) -> String {
    if prefix.is_empty() {
        path.to_string()
    } else {
        format!("{prefix}.{path}")
    }
}

/// A field's default, read from the configuration's own `Default`.
fn default_text(defaults: &Value, path: &str) -> String {
    match sim_core::scenario::patch::get(defaults, path) {
        Some(Value::Null) | None => "automatic".into(),
        Some(Value::Array(a)) if a.is_empty() => "none".into(),
        Some(v) => v.to_string(),
    }
}

fn text_kind(k: Kind) -> Option<TextKind> {
    match k {
        Kind::Float(_) => Some(TextKind::Float),
        Kind::OptFloat(_) => Some(TextKind::OptFloat),
        Kind::Int(_) => Some(TextKind::Int),
        Kind::OptInt(_) => Some(TextKind::OptInt),
        Kind::IntList(_) => Some(TextKind::IntList),
        _ => None,
    }
}

/// One input for `f` at `prefix`; nested configurations and buffers get their own widgets.
fn input(ed: &Editor, link: &Link, prefix: &str, f: &'static Field, defaults: &Value) -> Html {
    let full = join(prefix, f.path);
    let help = format!("{} Allowed: {}. Default: {}.", f.help, f.allowed(), default_text(defaults, f.path));
    match f.kind {
        Kind::Bool => {
            let path = full.clone();
            let on = link.reform(move |e: Event| EditMsg::Set(path.clone(), Value::Bool(checked(&e))));
            html! {
                <div class="field check" title={help.clone()}>
                    <label><input type="checkbox" name={full.clone()} checked={ed.bool(&full)} onchange={on} />{ format!(" {}", f.label) }</label>
                    <div class="help">{ help }</div>
                </div>
            }
        }
        Kind::Limit | Kind::OptLimit => limit(ed, link, &full, f.label),
        Kind::Tagged(family) => tagged(ed, link, &full, f.label, family, &help),
        Kind::Choice(options) => {
            let current = ed.value(&full).and_then(Value::as_str).unwrap_or("").to_string();
            let path = full.clone();
            let on = link.reform(move |e: Event| {
                EditMsg::Set(
                    path.clone(),
                    Value::String(e.target_unchecked_into::<HtmlSelectElement>().value()),
                )
            });
            html! {
                <div class="field" title={help.clone()}>
                    <label><span class="label">{ f.label }</span>
                        <select key={current.clone()} name={full.clone()} onchange={on} aria-label={f.label}>
                            { for options.iter().map(|(v, l)| html! { <option value={*v} selected={current == *v}>{ *l }</option> }) }
                        </select>
                    </label>
                    <div class="help">{ help }</div>
                </div>
            }
        }
        k => {
            let kind = text_kind(k).expect("numeric kinds are text inputs");
            let path = full.clone();
            let (unit, label) = (f.unit, f.label);
            let on = link.reform(move |e: InputEvent| {
                EditMsg::Edit(
                    path.clone(),
                    e.target_unchecked_into::<HtmlInputElement>().value(),
                    kind,
                    unit,
                    label,
                )
            });
            let error = ed.error_for(&full);
            let placeholder = if matches!(k, Kind::OptFloat(_) | Kind::OptInt(_)) { "none" } else { "" };
            html! {
                <div class={classes!("field", error.is_some().then_some("invalid"))} title={help.clone()}>
                    <label>
                        <span class="label">{ f.label }</span>
                        <input name={full.clone()} value={ed.text(&full)} oninput={on} {placeholder} inputmode="decimal" aria-label={f.label} />
                        <span class="unit">{ f.unit }</span>
                    </label>
                    if let Some(e) = error { <div class="field-error" data-field={full.clone()}>{ e }</div> }
                    <div class="help">{ help }</div>
                </div>
            }
        }
    }
}

/// The inputs of `fields` at `prefix`, skipping the paths in `skip` (drawn elsewhere).
fn inputs(
    ed: &Editor,
    link: &Link,
    prefix: &str,
    fields: &'static [Field],
    defaults: &Value,
    skip: &[&str],
) -> Html {
    fields.iter().filter(|f| !skip.contains(&f.path)).map(|f| input(ed, link, prefix, f, defaults)).collect()
}

/// A nested configuration: a select over the family's members, then the chosen one's fields.
fn tagged(ed: &Editor, link: &Link, path: &str, label: &str, family: &'static Family, help: &str) -> Html {
    let tag = ed.value(&format!("{path}.type")).and_then(Value::as_str).unwrap_or("").to_string();
    let p = path.to_string();
    let on = link.reform(move |e: Event| {
        let tag = e.target_unchecked_into::<HtmlSelectElement>().value();
        EditMsg::Set(p.clone(), family.default_value_of(&tag))
    });
    let member = family.member(&tag);
    let defaults = family.default_value_of(&tag);
    html! {
        <>
            <div class="field" title={help.to_string()}>
                <label><span class="label">{ label }</span>
                    <select key={tag.clone()} name={format!("{path}.type")} onchange={on} aria-label={label.to_string()}>
                        { for family.members.iter().map(|a| html! { <option value={a.tag} selected={tag == a.tag} title={a.help}>{ a.label }</option> }) }
                    </select>
                </label>
                <div class="help">{ member.map_or(help, |m| m.help) }</div>
            </div>
            if let Some(m) = member { { inputs(ed, link, path, m.fields, &defaults, &[]) } }
        </>
    }
}

fn section(title: &str, open: bool, body: Html) -> Html {
    html! { <details {open}><summary>{ title }</summary>{ body }</details> }
}

fn view(ed: &Editor, link: &Link) -> Html {
    let scenario_defaults = serde_json::to_value(Scenario::default()).unwrap();
    let bottleneck_defaults = serde_json::to_value(&Scenario::default().bottleneck).unwrap();
    let tcp_defaults = serde_json::to_value(TcpConfig::default()).unwrap();
    html! {
        <>
            { section("Run", true, inputs(ed, link, "", RUN_FIELDS, &scenario_defaults, &[])) }
            { section("Bottleneck", true, inputs(ed, link, "bottleneck", BOTTLENECK_FIELDS, &bottleneck_defaults, &["queue"])) }
            { queue_disc(ed, link) }
            { flows(ed, link) }
            { section("TCP", false, inputs(ed, link, "tcp", TcpConfig::FIELDS, &tcp_defaults, &[])) }
        </>
    }
}

fn queue_disc(ed: &Editor, link: &Link) -> Html {
    let family = &QueueDiscSpec::FAMILY;
    let tag = ed.value("bottleneck.queue.type").and_then(Value::as_str).unwrap_or("fifo").to_string();
    let current = ed.scenario().map_or(tag.as_str(), |s| s.bottleneck.queue.name()).to_string();
    let on_type =
        link.reform(|e: Event| EditMsg::QueueType(e.target_unchecked_into::<HtmlSelectElement>().value()));
    let member = family.member(&tag);
    let defaults = family.default_value_of(&tag);
    html! {
        <details open=true>
            <summary>{ "Queue disc" }</summary>
            <div class="field">
                <label><span class="label">{ "Algorithm" }</span>
                    <select key={current.clone()} name="bottleneck.queue.type" onchange={on_type} aria-label="Queue disc">
                        { for family.entries().into_iter().map(|(k, l, _)| html! { <option value={k} selected={current == k}>{ l }</option> }) }
                    </select>
                </label>
                <div class="help">{ member.map_or("", |m| m.help) }</div>
            </div>
            if let Some(m) = member { { inputs(ed, link, "bottleneck.queue", m.fields, &defaults, &[]) } }
        </details>
    }
}

/// A buffer limit: its unit (packets, bytes, cells) and value, plus the cell size.
fn limit(ed: &Editor, link: &Link, base: &str, label: &'static str) -> Html {
    let unit = ["packets", "bytes", "cells"]
        .into_iter()
        .find(|u| ed.value(&format!("{base}.{u}")).is_some())
        .unwrap_or(if ed.value(base).is_some_and(Value::is_null) { "none" } else { "packets" });
    let b = base.to_string();
    let on_unit = link.reform(move |e: Event| {
        EditMsg::LimitUnit(b.clone(), e.target_unchecked_into::<HtmlSelectElement>().value())
    });
    let (value_path, cell_path) = match unit {
        "cells" => (Some(format!("{base}.cells.cells")), Some(format!("{base}.cells.cell_bytes"))),
        "none" => (None, None),
        u => (Some(format!("{base}.{u}")), None),
    };
    let optional = ed.value(base).is_some_and(Value::is_null) || base.ends_with("queue_limit");
    let field = |path: String, label: &'static str, unit: &'static str| {
        let p = path.clone();
        let on = link.reform(move |e: InputEvent| {
            EditMsg::Edit(
                p.clone(),
                e.target_unchecked_into::<HtmlInputElement>().value(),
                TextKind::Int,
                "",
                label,
            )
        });
        let error = ed.error_for(&path);
        html! {
            <div class={classes!("field", error.is_some().then_some("invalid"))}>
                <label><span class="label">{ label }</span>
                    <input name={path.clone()} value={ed.text(&path)} oninput={on} inputmode="numeric" aria-label={label} />
                    <span class="unit">{ unit }</span>
                </label>
                if let Some(e) = error { <div class="field-error" data-field={path.clone()}>{ e }</div> }
            </div>
        }
    };
    let units: &[&str] =
        if optional { &["none", "packets", "bytes", "cells"] } else { &["packets", "bytes", "cells"] };
    let shown_unit: &'static str = match unit {
        "bytes" => "bytes",
        "cells" => "cells",
        _ => "packets",
    };
    html! {
        <>
            <div class="field">
                <label><span class="label">{ format!("{label} unit") }</span>
                    <select key={unit} name={format!("{base}.unit")} onchange={on_unit}>
                        { for units.iter().map(|u| html! { <option value={*u} selected={unit == *u}>{ *u }</option> }) }
                    </select>
                </label>
                <div class="help">{ "A packet takes ceil(bytes / cell size) cells, as in a Tofino switch's buffer." }</div>
            </div>
            if let Some(p) = value_path { { field(p, label, shown_unit) } }
            if let Some(p) = cell_path { { field(p, "Cell size", "bytes") } }
        </>
    }
}

fn flows(ed: &Editor, link: &Link) -> Html {
    html! {
        <details open=true>
            <summary>{ "Flows" }</summary>
            <div class="flows">
                { for (0..ed.flow_groups()).map(|i| flow_group(ed, link, i)) }
            </div>
            <button onclick={link.reform(|_| EditMsg::AddFlow)}>{ "Add flow group" }</button>
        </details>
    }
}

fn flow_group(ed: &Editor, link: &Link, i: usize) -> Html {
    let prefix = format!("flows[{i}]");
    let defaults = serde_json::to_value(FlowGroup::default()).unwrap();
    let cca_path = format!("{prefix}.cca");
    let family = &sim_core::cc::CcaSpec::FAMILY;
    let cca = ed.value(&format!("{cca_path}.type")).and_then(Value::as_str).unwrap_or("cubic").to_string();
    let p = cca_path.clone();
    let on_cca = link.reform(move |e: Event| {
        let tag = e.target_unchecked_into::<HtmlSelectElement>().value();
        EditMsg::Set(p.clone(), family.default_value_of(&tag))
    });
    let rtt = ed.scenario().and_then(|s| s.flows.get(i).map(|g| s.base_rtt_ms(g)));
    let member = family.member(&cca);
    let cca_defaults = family.default_value_of(&cca);
    html! {
        <div class="flow-group">
            <div class="flow-head">
                <strong>{ format!("Group {}", i + 1) }</strong>
                <select key={cca.clone()} onchange={on_cca} name={format!("{cca_path}.type")} aria-label="Congestion control">
                    { for family.members.iter().map(|a| html! { <option value={a.tag} selected={cca == a.tag} title={a.help}>{ a.label }</option> }) }
                </select>
                if let Some(r) = rtt { <span class="rtt">{ format!("base RTT {r:.1} ms") }</span> }
                <button onclick={link.reform(move |_| EditMsg::DuplicateFlow(i))} title="Duplicate">{ "Duplicate" }</button>
                <button onclick={link.reform(move |_| EditMsg::RemoveFlow(i))} title="Remove">{ "Remove" }</button>
            </div>
            { inputs(ed, link, &prefix, FLOW_FIELDS, &defaults, &["cca"]) }
            if let Some(m) = member.filter(|m| !m.fields.is_empty()) {
                <details class="cca-params">
                    <summary>{ format!("{} parameters", m.label) }</summary>
                    { inputs(ed, link, &cca_path, m.fields, &cca_defaults, &[]) }
                </details>
            }
        </div>
    }
}
