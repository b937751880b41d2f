//! Warbler in the browser: its settings, an A/B run (the paper's Figs. 4-8 without and with
//! Warbler side by side), and the decisions it took. Its charts (the flow → queue map,
//! weights, J, centroids) follow right under it, before every other chart of the run.

use super::editor_panel::{EditMsg, EditorPanel};
use crate::editor::Editor;
use crate::state::{RunView, Shared};
use serde_json::Value;
use yew::prelude::*;

#[derive(Clone, Debug, PartialEq)]
pub enum WarblerMsg {
    /// Run the scenario twice, with the static mapping and with Warbler.
    AbRun,
}

#[derive(Properties, PartialEq)]
pub struct WarblerProps {
    pub editor: Shared<Editor>,
    pub run: Shared<RunView>,
    pub on_edit: Callback<EditMsg>,
    pub on: Callback<WarblerMsg>,
}

/// The JSON of a Warbler switch port made from the current scenario's buffer: three
/// queues splitting it (in 160-byte cells), Warbler on from the start.
fn warbler_port(ed: &Editor) -> Option<Value> {
    let sc = ed.scenario()?;
    let mut port = sim_core::switch::SwitchConfig {
        queues: 3,
        control: sim_core::switch::ControlPlaneSpec::Warbler(Default::default()),
        ..Default::default()
    };
    sim_core::aqm::DiscConfig::set_limit(&mut port, sc.bottleneck().queue.limit(), sc.full_packet_bytes());
    Some(sim_core::aqm::QueueDiscSpec::Switch(port).to_value())
}

#[function_component(WarblerPanel)]
pub fn warbler_panel(p: &WarblerProps) -> Html {
    let ed = p.editor.borrow();
    let queue = format!("{}.queue", ed.studied());
    let disc = ed.value(&format!("{queue}.type")).and_then(Value::as_str).unwrap_or("").to_string();
    let app = ed.value(&format!("{queue}.control.type")).and_then(Value::as_str).unwrap_or("").to_string();
    let on_edit = p.on_edit.clone();
    let body = if disc != "switch" {
        let port = warbler_port(&ed);
        let q = queue.clone();
        let onclick = on_edit.reform(move |_| EditMsg::Set(q.clone(), port.clone().unwrap_or(Value::Null)));
        html! {
            <>
                <p>{ "Warbler runs on a multi-queue switch port. This scenario's bottleneck is not one." }</p>
                <button class="primary" {onclick}>{ "Use a 3-queue switch port with Warbler (same buffer)" }</button>
            </>
        }
    } else if app != "warbler" {
        let warbler = sim_core::switch::ControlPlaneSpec::FAMILY.default_value_of("warbler");
        let control = format!("{queue}.control");
        let onclick = on_edit.reform(move |_| EditMsg::Set(control.clone(), warbler.clone()));
        html! {
            <>
                <p>{ "The port keeps its initial flow → queue table (the paper's \"without Warbler\")." }</p>
                <button class="primary" {onclick}>{ "Run Warbler on this port" }</button>
            </>
        }
    } else {
        html! {
            <>
                <EditorPanel editor={p.editor.clone()} on={p.on_edit.clone()} only={AttrValue::from(queue)} />
                <button onclick={p.on.reform(|_| WarblerMsg::AbRun)} data-testid="warbler-ab">
                    { "Run without and with Warbler side by side (Figs. 4-8)" }</button>
            </>
        }
    };
    html! {
        <section class="warbler" aria-label="Warbler">
            <h3>{ "Warbler: clustering flows by their backlog" }</h3>
            <p class="hint">{ "Every control period the switch CPU reads each long flow's backlog in cells, smooths it, clusters the flows into the port's queues with SSRE K-means (three starts, the one that improves J most wins), and weighs each queue by its flows." }</p>
            { body }
            { decisions(&p.run.borrow()) }
        </section>
    }
}

fn cell(v: Option<&Value>) -> String {
    match v {
        Some(Value::Number(n)) => n.as_f64().map_or(String::new(), |x| {
            if x.fract() == 0.0 {
                format!("{x:.0}")
            } else {
                format!("{x:.4}")
            }
        }),
        Some(Value::Array(a)) => a.iter().map(|x| cell(Some(x))).collect::<Vec<_>>().join(", "),
        Some(Value::String(s)) => s.clone(),
        _ => String::new(),
    }
}

/// The last decisions of the first lane running Warbler.
fn decisions(run: &RunView) -> Html {
    let Some(lane) = run.lanes.iter().find(|l| l.series.log.iter().any(|r| r.source == "warbler")) else {
        return html! {};
    };
    let log: Vec<_> = lane.series.log.iter().filter(|r| r.source == "warbler").collect();
    html! {
        <div class="table-wrap">
        <table class="decisions" data-testid="warbler-decisions">
            <caption>{ format!("Warbler's last decisions ({} in all, {})", log.len(), lane.label) }</caption>
            <tr><th>{ "t (s)" }</th><th>{ "flows" }</th><th>{ "J_pre" }</th><th>{ "J far / random / conservative" }</th><th>{ "winner" }</th><th>{ "centroids (cells)" }</th><th>{ "weights" }</th><th>{ "moved" }</th></tr>
            { for log.iter().rev().take(8).map(|r| {
                let f = &r.fields;
                html! { <tr>
                    <td class="num">{ format!("{:.1}", r.t_s) }</td>
                    <td class="num">{ cell(f.get("flows")) }</td>
                    <td class="num">{ cell(f.get("j_pre")) }</td>
                    <td class="num">{ format!("{} / {} / {}", cell(f.get("j_far")), cell(f.get("j_random")), cell(f.get("j_conservative"))) }</td>
                    <td>{ cell(f.get("winner")) }</td>
                    <td>{ cell(f.get("centroids")) }</td>
                    <td>{ cell(f.get("weights")) }</td>
                    <td class="num">{ cell(f.get("moved")) }</td>
                </tr> }
            }) }
        </table>
        </div>
    }
}
