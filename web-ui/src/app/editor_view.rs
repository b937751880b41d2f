//! The scenario editor: generated from the field lists, each input bound to a path.

use super::controls_view::checked;
use super::{App, Msg};
use crate::editor::{Editor, Kind};
use crate::fields::{self, Field, FieldKind};
use serde_json::Value;
use sim_core::aqm::{CebinaeConfig, CodelConfig, FqCodelConfig, FqConfig, PieConfig, RedConfig};
use sim_core::cc::{BbrConfig, CcaSpec, CubicConfig, VegasConfig};
use sim_core::scenario::{FlowGroup, Scenario};
use sim_core::tcp::TcpConfig;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::html::Scope;
use yew::prelude::*;

/// Default of a field, read from the type's own `Default`.
fn default_text(root: &Value, path: &str) -> String {
    match sim_core::scenario::patch::get(root, path) {
        Some(Value::Null) | None => "automatic".into(),
        Some(v) => v.to_string(),
    }
}

fn input(ed: &Editor, link: &Scope<App>, full: String, f: &Field, defaults: &Value) -> Html {
    let error = ed.error_for(&full);
    let help = format!("{} Default: {}.", f.help, default_text(defaults, f.path));
    match f.kind {
        FieldKind::Check => {
            let path = full.clone();
            let on = link.callback(move |e: Event| Msg::Set(path.clone(), Value::Bool(checked(&e))));
            html! {
                <div class="field check" title={help.clone()}>
                    <label><input type="checkbox" name={full.clone()} checked={ed.bool(&full)} onchange={on} />{ format!(" {}", f.label) }</label>
                    <div class="help">{ help }</div>
                </div>
            }
        }
        FieldKind::Text(kind) => {
            let path = full.clone();
            let on = link.callback(move |e: InputEvent| {
                Msg::Edit(path.clone(), e.target_unchecked_into::<HtmlInputElement>().value(), kind)
            });
            let placeholder = if matches!(kind, Kind::OptFloat | Kind::OptInt) { "none" } else { "" };
            html! {
                <div class={classes!("field", error.is_some().then_some("invalid"))} title={help.clone()}>
                    <label>
                        <span class="label">{ f.label }</span>
                        <input name={full.clone()} value={ed.text(&full)} oninput={on} {placeholder} inputmode="decimal" />
                        <span class="unit">{ f.unit }</span>
                    </label>
                    if let Some(e) = error { <div class="field-error" data-field={full.clone()}>{ e }</div> }
                    <div class="help">{ help }</div>
                </div>
            }
        }
    }
}

fn section(
    ed: &Editor,
    link: &Scope<App>,
    title: &str,
    prefix: &str,
    list: &[Field],
    defaults: &Value,
    open: bool,
) -> Html {
    let join = |p: &str| if prefix.is_empty() { p.to_string() } else { format!("{prefix}.{p}") };
    html! {
        <details {open}>
            <summary>{ title }</summary>
            { for list.iter().map(|f| input(ed, link, join(f.path), f, defaults)) }
        </details>
    }
}

pub fn view(ed: &Editor, link: &Scope<App>) -> Html {
    let scenario_defaults = serde_json::to_value(Scenario::default()).unwrap();
    let bottleneck_defaults = serde_json::to_value(&Scenario::default().bottleneck).unwrap();
    let tcp_defaults = serde_json::to_value(TcpConfig::default()).unwrap();
    html! {
        <>
            { section(ed, link, "Run", "", fields::RUN, &scenario_defaults, true) }
            { section(ed, link, "Bottleneck", "bottleneck", fields::BOTTLENECK, &bottleneck_defaults, true) }
            { queue_disc(ed, link) }
            { flows(ed, link) }
            { section(ed, link, "TCP", "tcp", fields::TCP, &tcp_defaults, false) }
        </>
    }
}

fn queue_disc(ed: &Editor, link: &Scope<App>) -> Html {
    let kind = ed.value("bottleneck.queue.type").and_then(Value::as_str).unwrap_or("fifo").to_string();
    let current = match (&*kind, ed.bool("bottleneck.queue.adaptive"), ed.bool("bottleneck.queue.gentle")) {
        ("red", true, _) => "ared",
        ("red", _, true) => "gentle",
        (k, _, _) => k,
    };
    let on_type =
        link.callback(|e: Event| Msg::QueueType(e.target_unchecked_into::<HtmlSelectElement>().value()));
    let red_defaults = serde_json::to_value(RedConfig::default()).unwrap();
    html! {
        <details open=true>
            <summary>{ "Queue disc" }</summary>
            <div class="field">
                <label><span class="label">{ "Algorithm" }</span>
                    <select key={current.to_string()} name="bottleneck.queue.type" onchange={on_type}>
                        { for crate::compare::DISCS.iter().map(|(k, l)| html! { <option value={*k} selected={current == *k}>{ *l }</option> }) }
                    </select>
                </label>
                <div class="help">{ "Tail-drop FIFO, or RED with ns-3's RedQueueDisc semantics (gentle / adaptive switch the variant)." }</div>
            </div>
            if kind == "switch" {
                { switch(ed, link) }
            } else {
                { limit(ed, link) }
            }
            { disc_params(ed, link, &kind, &red_defaults) }
        </details>
    }
}

/// The chosen algorithm's own parameters, each with its default.
fn disc_params(ed: &Editor, link: &Scope<App>, kind: &str, red_defaults: &Value) -> Html {
    let group = |list: &[Field], defaults: Value| -> Html {
        list.iter().map(|f| input(ed, link, format!("bottleneck.queue.{}", f.path), f, &defaults)).collect()
    };
    match kind {
        "red" => group(fields::RED, red_defaults.clone()),
        "codel" => group(fields::CODEL, serde_json::to_value(CodelConfig::default()).unwrap()),
        "fq_codel" => {
            let d = serde_json::to_value(FqCodelConfig::default()).unwrap();
            html! { <>{ group(fields::FQ_CODEL, d.clone()) }{ group(fields::CODEL, d) }</> }
        }
        "fq" => group(fields::FQ, serde_json::to_value(FqConfig::default()).unwrap()),
        "pie" => group(fields::PIE, serde_json::to_value(PieConfig::default()).unwrap()),
        "cebinae" => group(fields::CEBINAE, serde_json::to_value(CebinaeConfig::default()).unwrap()),
        _ => html! {},
    }
}

fn switch(ed: &Editor, link: &Scope<App>) -> Html {
    let defaults = serde_json::to_value(sim_core::switch::SwitchConfig::default()).unwrap();
    let sched =
        ed.value("bottleneck.queue.scheduler.type").and_then(Value::as_str).unwrap_or("wrr").to_string();
    let on_sched = link.callback(|e: Event| {
        let v = match e.target_unchecked_into::<HtmlSelectElement>().value().as_str() {
            "round_robin" => serde_json::json!({ "type": "round_robin" }),
            "dwrr" => serde_json::json!({ "type": "dwrr", "quantum_bytes": 1514 }),
            "strict_priority" => serde_json::json!({ "type": "strict_priority" }),
            _ => serde_json::json!({ "type": "wrr" }),
        };
        Msg::Set("bottleneck.queue.scheduler".into(), v)
    });
    html! {
        <>
            { for fields::SWITCH.iter().map(|f| input(ed, link, format!("bottleneck.queue.{}", f.path), f, &defaults)) }
            <div class="field">
                <label><span class="label">{ "Scheduler" }</span>
                    <select key={sched.clone()} name="bottleneck.queue.scheduler.type" onchange={on_sched}>
                        { for [("round_robin", "RR"), ("wrr", "WRR (packets)"), ("dwrr", "DWRR (bytes)"), ("strict_priority", "Strict priority")]
                            .iter().map(|(k, l)| html! { <option value={*k} selected={sched == *k}>{ *l }</option> }) }
                    </select>
                </label>
                <div class="help">{ "How the port picks the next queue; weights apply to WRR and DWRR." }</div>
            </div>
        </>
    }
}

fn limit(ed: &Editor, link: &Scope<App>) -> Html {
    let base = "bottleneck.queue.limit";
    let unit = ["packets", "bytes", "cells"]
        .into_iter()
        .find(|u| ed.value(&format!("{base}.{u}")).is_some())
        .unwrap_or("packets");
    let on_unit =
        link.callback(|e: Event| Msg::LimitUnit(e.target_unchecked_into::<HtmlSelectElement>().value()));
    let (value_path, cell_path) = match unit {
        "cells" => (format!("{base}.cells.cells"), Some(format!("{base}.cells.cell_bytes"))),
        u => (format!("{base}.{u}"), None),
    };
    let field = |path: String, label: &'static str, unit: &'static str| {
        let p = path.clone();
        let on = link.callback(move |e: InputEvent| {
            Msg::Edit(p.clone(), e.target_unchecked_into::<HtmlInputElement>().value(), Kind::Int)
        });
        let error = ed.error_for(&path);
        html! {
            <div class={classes!("field", error.is_some().then_some("invalid"))}>
                <label><span class="label">{ label }</span>
                    <input name={path.clone()} value={ed.text(&path)} oninput={on} inputmode="numeric" />
                    <span class="unit">{ unit }</span>
                </label>
                if let Some(e) = error { <div class="field-error" data-field={path.clone()}>{ e }</div> }
            </div>
        }
    };
    html! {
        <>
            <div class="field">
                <label><span class="label">{ "Buffer unit" }</span>
                    <select key={unit} name="bottleneck.queue.limit.unit" onchange={on_unit}>
                        { for ["packets", "bytes", "cells"].iter().map(|u| html! { <option value={*u} selected={unit == *u}>{ *u }</option> }) }
                    </select>
                </label>
                <div class="help">{ "A packet takes ceil(bytes / cell size) cells, as in a Tofino switch's buffer." }</div>
            </div>
            { field(value_path, "Buffer", unit) }
            if let Some(p) = cell_path { { field(p, "Cell size", "bytes") } }
        </>
    }
}

fn flows(ed: &Editor, link: &Scope<App>) -> Html {
    html! {
        <details open=true>
            <summary>{ "Flows" }</summary>
            <div class="flows">
                { for (0..ed.flow_groups()).map(|i| flow_group(ed, link, i)) }
            </div>
            <button onclick={link.callback(|_| Msg::AddFlow)}>{ "Add flow group" }</button>
        </details>
    }
}

/// The chosen congestion control's parameters, folded away by default.
fn cca_params(ed: &Editor, link: &Scope<App>, prefix: &str, cca: &str) -> Html {
    let (list, defaults): (&[Field], Value) = match cca {
        "cubic" => (fields::CUBIC, serde_json::to_value(CubicConfig::default()).unwrap()),
        "vegas" => (fields::VEGAS, serde_json::to_value(VegasConfig::default()).unwrap()),
        "bbr" => (fields::BBR, serde_json::to_value(BbrConfig::default()).unwrap()),
        _ => return html! {},
    };
    html! {
        <details class="cca-params">
            <summary>{ format!("{} parameters", cca) }</summary>
            { for list.iter().map(|f| input(ed, link, format!("{prefix}.cca.{}", f.path), f, &defaults)) }
        </details>
    }
}

fn flow_group(ed: &Editor, link: &Scope<App>, i: usize) -> Html {
    let prefix = format!("flows[{i}]");
    let defaults = serde_json::to_value(FlowGroup::default()).unwrap();
    let cca_path = format!("{prefix}.cca");
    let cca = ed.value(&format!("{cca_path}.type")).and_then(Value::as_str).unwrap_or("cubic").to_string();
    let on_cca = link.callback(move |e: Event| {
        let spec = match e.target_unchecked_into::<HtmlSelectElement>().value().as_str() {
            "newreno" => CcaSpec::NewReno,
            "vegas" => CcaSpec::Vegas(VegasConfig::default()),
            "bbr" => CcaSpec::Bbr(BbrConfig::default()),
            _ => CcaSpec::Cubic(CubicConfig::default()),
        };
        Msg::Set(cca_path.clone(), serde_json::to_value(spec).unwrap())
    });
    let rtt = ed.scenario().and_then(|s| s.flows.get(i).map(|g| s.base_rtt_ms(g)));
    html! {
        <div class="flow-group">
            <div class="flow-head">
                <strong>{ format!("Group {}", i + 1) }</strong>
                <select key={cca.clone()} onchange={on_cca} name={format!("{prefix}.cca.type")}>
                    <option value="cubic" selected={cca == "cubic"}>{ "CUBIC" }</option>
                    <option value="newreno" selected={cca == "newreno"}>{ "NewReno" }</option>
                    <option value="vegas" selected={cca == "vegas"}>{ "Vegas" }</option>
                    <option value="bbr" selected={cca == "bbr"}>{ "BBR v1" }</option>
                </select>
                if let Some(r) = rtt { <span class="rtt">{ format!("base RTT {r:.1} ms") }</span> }
                <button onclick={link.callback(move |_| Msg::DuplicateFlow(i))} title="Duplicate">{ "Duplicate" }</button>
                <button onclick={link.callback(move |_| Msg::RemoveFlow(i))} title="Remove">{ "Remove" }</button>
            </div>
            { for fields::FLOW.iter().map(|f| input(ed, link, format!("{prefix}.{}", f.path), f, &defaults)) }
            { cca_params(ed, link, &prefix, &cca) }
        </div>
    }
}
