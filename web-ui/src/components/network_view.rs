//! The network as a diagram: every link a packet's data wait at, left to right in the order
//! the routes cross them, each one's queue drawn filling from its exit, coloured by how full
//! it is, with its utilisation, live during a run; under them a bar per flow group over the
//! links its route crosses. Clicking a link opens its settings in the editor.

use crate::chart_data::flow_color;
use crate::charts::css_color;
use crate::network::{self, Diagram, LinkLive, COLUMN, LINK_HEIGHT, LINK_TOP};
use crate::state::{RunView, Shared};
use sim_core::scenario::Scenario;
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

/// Where a link's queue stands: calm, building, nearly full.
fn fill_class(fill: f64) -> &'static str {
    match fill {
        f if f < 0.3 => "calm",
        f if f < 0.7 => "building",
        _ => "full",
    }
}

/// Opens the editor's section of link `name` and brings it into view.
fn open_in_editor(name: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    if let Some(el) = doc.get_element_by_id(&format!("link-editor-{name}")) {
        let _ = el.set_attribute("open", "");
        el.scroll_into_view();
    }
}

fn link_box(l: &network::LinkBox, live: Option<LinkLive>) -> Html {
    let mid = LINK_TOP + LINK_HEIGHT / 2.0;
    let (qx, qw, qh) = (l.x + 22.0, COLUMN - 44.0, 18.0);
    let fill = live.map_or(0.0, |v| v.fill);
    let status = live.map(|v| {
        let util = v.utilisation_pct.map_or(String::new(), |u| format!(" · {u:.0} % busy"));
        format!("{:.0} pkt queued{util}", v.queue_packets)
    });
    let name = l.name.clone();
    let onclick = Callback::from(move |_: MouseEvent| open_in_editor(&name));
    let title = format!(
        "{}: {}, {}, a buffer of {:.0} packets.{} Click to edit it.",
        l.name,
        l.rate,
        l.disc,
        l.limit_packets,
        if l.charted { " The queue, delay and drop charts are this link's." } else { "" }
    );
    html! {
        <g class={classes!("net-link", l.charted.then_some("charted"))} data-link={l.name.clone()} {onclick}
            role="button" tabindex="0" aria-label={title.clone()}>
            <title>{ title }</title>
            <rect class="hit" x={format!("{}", l.x)} y={format!("{LINK_TOP}")} width={format!("{COLUMN}")} height={format!("{LINK_HEIGHT}")} />
            <line class="wire" x1={format!("{}", l.x)} y1={format!("{mid}")} x2={format!("{}", l.x + COLUMN)} y2={format!("{mid}")} />
            <rect class="queue" x={format!("{qx}")} y={format!("{}", mid - qh / 2.0)} width={format!("{qw}")} height={format!("{qh}")} />
            <rect class={classes!("queue-fill", fill_class(fill))} x={format!("{}", qx + qw * (1.0 - fill))} y={format!("{}", mid - qh / 2.0)}
                width={format!("{}", qw * fill)} height={format!("{qh}")} data-fill={format!("{fill:.3}")} />
            <text class="link-name" x={format!("{}", l.x + COLUMN / 2.0)} y={format!("{}", LINK_TOP + 10.0)}>
                { format!("{} · {}", l.name, l.rate) }</text>
            <text class="link-disc" x={format!("{}", l.x + COLUMN / 2.0)} y={format!("{}", mid + qh / 2.0 + 14.0)}>{ l.disc.clone() }</text>
            if let Some(s) = status {
                <text class="link-live" x={format!("{}", l.x + COLUMN / 2.0)} y={format!("{}", mid + qh / 2.0 + 28.0)}>{ s }</text>
            }
        </g>
    }
}

/// Room a group's label takes, in the diagram's units (12 px text).
const LABEL_WIDTH: f64 = 250.0;

fn group_bar(g: &network::GroupBar, width: f64) -> Html {
    let color = css_color(flow_color(g.group));
    let (x0, x1) = (g.spans.first().map_or(0.0, |s| s.0), g.spans.last().map_or(0.0, |s| s.1));
    // A label that would run off the right edge ends where its bar does.
    let (label_x, anchor) = if x0 + LABEL_WIDTH > width { (x1 - 6.0, "end") } else { (x0 + 6.0, "start") };
    html! {
        <g class="net-group" data-group={g.group.to_string()}>
            { for g.spans.iter().map(|(a, b)| html! {
                <rect x={format!("{}", a + 4.0)} y={format!("{}", g.y + 15.0)} width={format!("{}", (b - a - 8.0).max(1.0))} height="8"
                    rx="4" style={format!("fill: {color}")} />
            }) }
            <text x={format!("{label_x}")} y={format!("{}", g.y + 11.0)} text-anchor={anchor}>{ g.label.clone() }</text>
        </g>
    }
}

fn nodes(d: &Diagram) -> Html {
    let mid = LINK_TOP + LINK_HEIGHT / 2.0;
    let xs: Vec<f64> = d.links.iter().map(|l| l.x).chain(d.links.last().map(|l| l.x + COLUMN)).collect();
    xs.iter()
        .map(|x| html! { <circle class="net-node" cx={format!("{x}")} cy={format!("{mid}")} r="6" /> })
        .collect()
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
    let live_of = |i: usize| live.as_ref().and_then(|v| v.get(i).copied().flatten());
    let links: Vec<Html> = d.links.iter().enumerate().map(|(i, l)| link_box(l, live_of(i))).collect();
    html! {
        <section class="network" aria-label="Network" data-testid="network">
            // Never drawn below 0.85 px per unit (text of 10 px): a phone scrolls it instead.
            <div class="network-scroll">
                <svg viewBox={format!("0 0 {} {}", d.width, d.height)} style={format!("max-width: {}px; min-width: {}px", d.width * 1.4, d.width * 0.85)}
                    role="group" aria-label="The network's links, left to right, and the flow groups under the links they cross">
                    { for links }
                    { nodes(&d) }
                    { for d.groups.iter().map(|g| group_bar(g, d.width)) }
                    if let Some(m) = &d.more {
                        <text class="net-more" x="10" y={format!("{}", d.height - 10.0)}>{ m.clone() }</text>
                    }
                </svg>
            </div>
            <p class="hint">{ "Each link's queue fills from its exit (right): green below 30 % of its buffer, amber below 70 %, red above. \
                Every flow also has its own access link from its sender, not drawn; ACKs return on an uncongested path. \
                Click a link to edit it." }</p>
        </section>
    }
}
