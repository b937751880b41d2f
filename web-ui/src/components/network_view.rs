//! The network as a diagram: every link a packet's data wait at, left to right in the order
//! the routes cross them, each one's queue drawn filling from its exit, coloured by how full
//! it is, with its utilisation, live during a run; under them a bar per flow group over the
//! links its route crosses (drawn by `network_svg.rs`). Clicking a link opens its settings
//! in the editor.

use crate::state::{RunView, Shared};
use crate::{network, network_svg};
use sim_core::scenario::Scenario;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct NetworkProps {
    /// The editor's scenario (the run's when the editor has none that reads).
    pub scenario: Option<Scenario>,
    pub run: Shared<RunView>,
    pub lane: usize,
    /// The time cursor (s): the queues shown are the sample's at or before it.
    pub cursor: Option<f64>,
}

/// Opens the editor's section of link `name` and brings it into view.
fn open_in_editor(name: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    if let Some(el) = doc.get_element_by_id(&format!("link-editor-{name}")) {
        let _ = el.set_attribute("open", "");
        el.scroll_into_view();
    }
}

/// The link an event happened on (its `<g data-link>`), if any.
fn link_of(e: &Event) -> Option<String> {
    let target = e.target()?.dyn_into::<web_sys::Element>().ok()?;
    target.closest("[data-link]").ok().flatten()?.get_attribute("data-link")
}

#[function_component(NetworkView)]
pub fn network_view(p: &NetworkProps) -> Html {
    let run = p.run.borrow();
    let lane = run.lanes.get(p.lane.min(run.lanes.len().saturating_sub(1)));
    // The editor's network (what Run would start); the run's queues where its links have
    // the same names.
    let Some(sc) = p.scenario.as_ref().or(lane.map(|l| &l.scenario)) else { return html! {} };
    let d = network::diagram(sc);
    let live = lane.map(|l| {
        let at = p.cursor.map(|t| l.series.t.iter().rposition(|&x| x <= t + 1e-9).unwrap_or(0));
        network::live(&d, &l.series, at)
    });
    let svg = network_svg::svg(&d, &live.unwrap_or_default());
    let onclick = Callback::from(|e: MouseEvent| {
        if let Some(l) = link_of(&e) {
            open_in_editor(&l);
        }
    });
    let onkeydown = Callback::from(|e: KeyboardEvent| {
        if e.key() == "Enter" || e.key() == " " {
            if let Some(l) = link_of(&e) {
                e.prevent_default();
                open_in_editor(&l);
            }
        }
    });
    html! {
        <section class="network" aria-label="Network" data-testid="network">
            <div class="network-scroll" {onclick} {onkeydown}>{ Html::from_html_unchecked(AttrValue::from(svg)) }</div>
            <p class="hint">{ "Each link's queue fills from its exit (right): green below 30 % of its buffer, amber below 70 %, red above. \
                Every flow also has its own access link from its sender, not drawn. " }
                { if d.acks_drawn {
                    "A dashed bar marks the links a group's ACKs cross on the way back; a group without one gets its ACKs back on an uncongested path. "
                } else {
                    "ACKs return on an uncongested path. "
                } }
                { "Click a link to edit it." }</p>
        </section>
    }
}
