//! The scenario editor, generated from sim-core's parameter descriptors: the scenario's
//! own fields, TCP's, and each algorithm's from its registry entry. Each input is bound to
//! a path in the scenario's JSON. A component: it re-renders only when the editor changes.

use crate::editor::{Editor, Input, Kind as TextKind};
use crate::state::Shared;
use serde_json::Value;
use sim_core::aqm::QueueDiscSpec;
use sim_core::params::field::{CELL_BYTES, LIMIT_BYTES, LIMIT_CELLS, LIMIT_PACKETS};
use sim_core::params::{Family, Field, Kind};
use sim_core::scenario::fields::{FLOW_FIELDS, LINK_FIELDS, RUN_FIELDS};
use sim_core::scenario::patch;
use sim_core::scenario::{FlowGroup, Scenario};
use sim_core::tcp::TcpConfig;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// What an editor input asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum EditMsg {
    /// Text typed into the input of `path`: (path, text, what the input holds).
    Edit(String, String, Input),
    /// A structured value (checkbox, select, a whole nested configuration).
    Set(String, Value),
    /// A nested configuration's menu chose a member: (path, tag, its default JSON).
    Choose(String, String, Value),
    AddFlow,
    DuplicateFlow(usize),
    RemoveFlow(usize),
    /// A queue-disc picker entry (a tag or a flavour such as `ared`) for the disc at a path
    /// (`bottleneck.queue`, `links.NAME.queue`).
    QueueType(String, String),
    /// A link like the bottleneck, on no route yet.
    AddLink,
    RemoveLink(String),
    /// Group `i`'s route crosses the named link or not.
    Route(usize, String, bool),
    /// Group `i`'s ACKs cross the named link or not.
    AckRoute(usize, String, bool),
    /// A buffer limit at a path takes another unit.
    LimitUnit(String, String),
    /// The text of the input at `path` was committed (Enter, or focus left it): during a
    /// run, an edit of a field that can change becomes a timed change now.
    Commit(String),
    AddChange(sim_core::scenario::TimedChange),
    RemoveChange(usize),
    /// The TCP profile menu chose one: its ten fields take its values.
    TcpProfile(sim_core::tcp::TcpProfile),
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

/// A value as a hint shows it: a menu's label, on / off, a number with its unit.
fn shown(v: Option<&Value>, f: &Field) -> String {
    let with_unit = |n: String| if f.unit.is_empty() { n } else { format!("{n} {}", f.unit) };
    match (v, f.kind) {
        (Some(Value::Null) | None, Kind::OptLimit) => "none".into(),
        (Some(Value::Null) | None, _) => "automatic".into(),
        (Some(Value::Bool(b)), _) => (if *b { "on" } else { "off" }).into(),
        (Some(Value::String(s)), Kind::Choice(options)) => {
            options.iter().find(|(k, _)| k == s).map_or(s.as_str(), |(_, l)| *l).to_string()
        }
        (Some(v), Kind::Tagged(family)) => {
            let tag = v.get("type").and_then(Value::as_str).unwrap_or("");
            family.member(tag).map_or(tag, |m| m.label).to_string()
        }
        (Some(v), Kind::Limit | Kind::OptLimit) => match v.as_object().and_then(|m| m.iter().next()) {
            Some((unit, Value::Object(c))) if unit == "cells" => {
                format!("{} cells of {} bytes", c["cells"], c["cell_bytes"])
            }
            Some((unit, n)) => format!("{n} {unit}"),
            None => v.to_string(),
        },
        (Some(Value::Array(a)), _) if a.is_empty() => "none".into(),
        (Some(Value::Array(a)), _) => a.iter().map(Value::to_string).collect::<Vec<_>>().join(", "),
        (Some(v), _) => with_unit(v.to_string()),
    }
}

/// "Default: 25." or, where the preset set it otherwise, "Preset: 100 · library default: 25.":
/// the library default is read from the configuration's own `Default`.
fn default_hint(ed: &Editor, full: &str, f: &Field, defaults: &Value) -> String {
    let library = shown(patch::get(defaults, f.path), f);
    match ed.preset_value(full).map(|v| shown(Some(v), f)) {
        Some(p) if p != library => format!("Preset: {p} · library default: {library}."),
        _ => format!("Default: {library}."),
    }
}

/// The allowed values in words; a menu's by their labels, not their tags.
fn allowed(f: &Field) -> String {
    let labels = |l: Vec<&str>| format!("one of: {}", l.join(", "));
    match f.kind {
        Kind::Tagged(family) => labels(family.members.iter().map(|m| m.label).collect()),
        Kind::Choice(options) => labels(options.iter().map(|(_, l)| *l).collect()),
        _ => f.allowed(),
    }
}

/// One input for `f` at `prefix`; nested configurations and buffers get their own widgets.
fn input(ed: &Editor, link: &Link, prefix: &str, f: &'static Field, defaults: &Value) -> Html {
    let full = join(prefix, f.path);
    let help = format!("{} Allowed: {}. {}", f.help, allowed(f), default_hint(ed, &full, f, defaults));
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
        // Its allowed values are the unit's, given with the value's input.
        Kind::Limit | Kind::OptLimit => {
            limit(ed, link, &full, f, &format!("{} {}", f.help, default_hint(ed, &full, f, defaults)))
        }
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
        _ => {
            let input = Input::of(f).expect("numeric kinds are text inputs");
            text_input(ed, link, &full, input, help)
        }
    }
}

/// A text input for the number at `path`, with its unit, message and help.
fn text_input(ed: &Editor, link: &Link, path: &str, input: Input, help: String) -> Html {
    let p = path.to_string();
    let on = link.reform(move |e: InputEvent| {
        EditMsg::Edit(p.clone(), e.target_unchecked_into::<HtmlInputElement>().value(), input)
    });
    let p = path.to_string();
    let on_commit = link.reform(move |_: Event| EditMsg::Commit(p.clone()));
    let error = ed.error_for(path);
    let placeholder = if matches!(input.kind, TextKind::OptFloat | TextKind::OptInt) { "none" } else { "" };
    // A phone's number pad has no letters: fields that take units get the full keyboard.
    let inputmode = if crate::units::takes_units(input.unit) { "text" } else { "decimal" };
    html! {
        <div class={classes!("field", error.is_some().then_some("invalid"))} title={help.clone()}>
            <label>
                <span class="label">{ input.label }</span>
                <input name={path.to_string()} value={ed.text(path)} oninput={on} onchange={on_commit} {placeholder} {inputmode} aria-label={input.label} />
                <span class="unit">{ input.unit }</span>
            </label>
            if let Some(e) = error { <div class="field-error" data-field={path.to_string()}>{ e }</div> }
            { changes_of(ed, path) }
            <div class="help">{ help }</div>
        </div>
    }
}

/// The timed changes of the field at `path`, under it: "→ 50 packets from t = 12.3 s".
fn changes_of(ed: &Editor, path: &str) -> Html {
    let set = crate::live::change_path(path);
    let mine: Vec<String> = (ed.changes().iter())
        .filter(|c| c.set == set)
        .map(|c| format!("→ {} from t = {:.3} s", c.label().split(" → ").nth(1).unwrap_or_default(), c.at_s))
        .collect();
    if mine.is_empty() {
        return html! {};
    }
    html! { <div class="field-changes" data-testid={format!("changes-of-{set}")}>{ format!("{} (timed changes; this is the value at the start)", mine.join(", ")) }</div> }
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
        EditMsg::Choose(p.clone(), tag.clone(), family.default_value_of(&tag))
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
    let tcp_defaults = serde_json::to_value(TcpConfig::default()).unwrap();
    html! {
        <>
            { section("Run", true, inputs(ed, link, "", RUN_FIELDS, &scenario_defaults, &[])) }
            { links(ed, link) }
            { flows(ed, link) }
            { section("TCP", false, html! { <>{ tcp_profile(ed, link) }{ inputs(ed, link, "tcp", TcpConfig::FIELDS, &tcp_defaults, &[]) }</> }) }
        </>
    }
}

/// The studied link and every other link, each its own section (the diagram's links open
/// theirs), and a button that adds one.
fn links(ed: &Editor, link: &Link) -> Html {
    let Some(sc) = ed.scenario() else {
        return link_section(ed, link, &ed.studied(), "Bottleneck", None, true);
    };
    let bottleneck = sc.bottleneck_name().to_string();
    let title = match sc.has_links() {
        true => format!("Link {bottleneck} (the charted one)"),
        false => "Bottleneck".to_string(),
    };
    let others: Vec<String> = sc.other_links().map(|(n, _)| n.to_string()).collect();
    html! {
        <>
            { link_section(ed, link, &ed.studied(), &title, Some(&bottleneck), true) }
            { for others.iter().map(|n| link_section(ed, link, &format!("links.{n}"), &format!("Link {n}"), Some(n), false)) }
            <button onclick={link.reform(|_| EditMsg::AddLink)} data-testid="add-link"
                title="A link like the bottleneck, crossed by no group yet: tick it in a group's route">{ "Add link" }</button>
        </>
    }
}

/// One link's rate, delay, device queue and queue disc; a link other than the bottleneck
/// can be removed (and leaves every route).
fn link_section(ed: &Editor, link: &Link, base: &str, title: &str, name: Option<&str>, first: bool) -> Html {
    let defaults = serde_json::to_value(Scenario::default().bottleneck()).unwrap();
    let id = name.map(|n| format!("link-editor-{n}"));
    let remove = (!first).then(|| name.map(str::to_string)).flatten();
    html! {
        <details open={first} id={id} data-link={name.map(str::to_string)}>
            <summary>{ title }</summary>
            // The studied link is always charted: no "Monitored" box for it.
            { inputs(ed, link, base, LINK_FIELDS, &defaults, if first { &["queue", "monitored"] } else { &["queue"] }) }
            { queue_disc(ed, link, base) }
            if let Some(n) = remove {
                <button onclick={link.reform(move |_| EditMsg::RemoveLink(n.clone()))} data-testid={format!("remove-link-{}", name.unwrap_or(""))}>
                    { "Remove this link" }</button>
            }
        </details>
    }
}

/// The TCP profile the ten fields where ns-3.44 and Linux differ match (or "edited" when
/// they match neither); choosing one sets them, each still editable below.
fn tcp_profile(ed: &Editor, link: &Link) -> Html {
    use sim_core::tcp::TcpProfile;
    let current = ed.scenario().and_then(|s| TcpProfile::of(&s.tcp));
    let key = current.map_or("edited", TcpProfile::tag);
    let on = link.reform(|e: Event| {
        let tag = e.target_unchecked_into::<HtmlSelectElement>().value();
        EditMsg::TcpProfile(TcpProfile::from_tag(&tag).unwrap_or(TcpProfile::Ns3))
    });
    html! {
        <div class="field">
            <label><span class="label">{ "Profile" }</span>
                <select key={key} name="tcp.profile" onchange={on} aria-label="TCP profile">
                    if current.is_none() {
                        <option value="edited" selected=true disabled=true>{ "edited (neither)" }</option>
                    }
                    { for TcpProfile::ALL.iter().map(|p| html! { <option value={p.tag()} selected={current == Some(*p)}>{ p.label() }</option> }) }
                </select>
            </label>
            <div class="help">{ "Sets the rules where ns-3.44 and Linux differ at once: minimum RTO (1 s / 200 ms), PRR (ns-3.44's / RFC 9937), Karn's rule with timestamps, rate snapshots, a paced first window, the reduction for an ECN echo (CWR). Each stays editable below." }</div>
        </div>
    }
}

/// The queue disc of the link at `base`: its algorithm, then that algorithm's fields.
fn queue_disc(ed: &Editor, link: &Link, base: &str) -> Html {
    let family = &QueueDiscSpec::FAMILY;
    let path = format!("{base}.queue");
    let tag = ed.value(&format!("{path}.type")).and_then(Value::as_str).unwrap_or("fifo").to_string();
    let spec = ed.value(&path).cloned().and_then(|v| QueueDiscSpec::from_value(v).ok());
    let current = spec.as_ref().map_or(tag.as_str(), |s| s.name()).to_string();
    let p = path.clone();
    let on_type = link.reform(move |e: Event| {
        EditMsg::QueueType(p.clone(), e.target_unchecked_into::<HtmlSelectElement>().value())
    });
    let member = family.member(&tag);
    let defaults = family.default_value_of(&tag);
    html! {
        <div class="queue-disc">
            <div class="field">
                <label><span class="label">{ "Queue disc" }</span>
                    <select key={current.clone()} name={format!("{path}.type")} onchange={on_type} aria-label="Queue disc">
                        { for family.entries().into_iter().map(|(k, l, _)| html! { <option value={k} selected={current == k}>{ l }</option> }) }
                    </select>
                </label>
                <div class="help">{ member.map_or("", |m| m.help) }</div>
            </div>
            if let Some(m) = member { { inputs(ed, link, &path, m.fields, &defaults, &[]) } }
        </div>
    }
}

/// A buffer limit: its unit (packets, bytes, cells) and value, plus the cell size.
fn limit(ed: &Editor, link: &Link, base: &str, f: &Field, help: &str) -> Html {
    let unit = ["packets", "bytes", "cells"]
        .into_iter()
        .find(|u| ed.value(&format!("{base}.{u}")).is_some())
        .unwrap_or(if ed.value(base).is_some_and(Value::is_null) { "none" } else { "packets" });
    let b = base.to_string();
    let on_unit = link.reform(move |e: Event| {
        EditMsg::LimitUnit(b.clone(), e.target_unchecked_into::<HtmlSelectElement>().value())
    });
    let optional = matches!(f.kind, Kind::OptLimit) || ed.value(base).is_some_and(Value::is_null);
    let units: &[&str] =
        if optional { &["none", "packets", "bytes", "cells"] } else { &["packets", "bytes", "cells"] };
    let int = |unit, label, range| Input { kind: TextKind::Int, unit, label, range: Some(range) };
    // What the unit counts, so a buffer in packets says nothing of cells.
    let (value, cell, counts) = match unit {
        "cells" => (
            Some((format!("{base}.cells.cells"), int("cells", f.label, LIMIT_CELLS))),
            Some((format!("{base}.cells.cell_bytes"), int("bytes", "Cell size", CELL_BYTES))),
            "A packet takes ceil(bytes / cell size) cells, as in a Tofino switch's buffer.",
        ),
        "bytes" => (
            Some((format!("{base}.bytes"), int("bytes", f.label, LIMIT_BYTES))),
            None,
            "Bytes of the packets waiting, whatever their number.",
        ),
        "none" => (None, None, "No limit."),
        _ => (
            Some((format!("{base}.packets"), int("packets", f.label, LIMIT_PACKETS))),
            None,
            "Packets waiting, whatever their size.",
        ),
    };
    let field = |(path, input): (String, Input)| {
        let help = format!("Allowed: {}.", input.range.map_or(String::new(), |r| r.words(input.unit)));
        text_input(ed, link, &path, input, help)
    };
    html! {
        <>
            <div class="field" title={help.to_string()}>
                <label><span class="label">{ format!("{} unit", f.label) }</span>
                    <select key={unit} name={format!("{base}.unit")} onchange={on_unit} aria-label={format!("{} unit", f.label)}>
                        { for units.iter().map(|u| html! { <option value={*u} selected={unit == *u}>{ *u }</option> }) }
                    </select>
                </label>
                <div class="help">{ format!("{counts} {help}") }</div>
            </div>
            if let Some(v) = value { { field(v) } }
            if let Some(c) = cell { { field(c) } }
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
            <button onclick={link.reform(|_| EditMsg::AddFlow)} data-testid="add-flow">{ "Add flow group" }</button>
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
        EditMsg::Choose(p.clone(), tag.clone(), family.default_value_of(&tag))
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
                <button onclick={link.reform(move |_| EditMsg::DuplicateFlow(i))} title="Duplicate" data-testid={format!("duplicate-flow-{i}")}>{ "Duplicate" }</button>
                <button onclick={link.reform(move |_| EditMsg::RemoveFlow(i))} title="Remove" data-testid={format!("remove-flow-{i}")}>{ "Remove" }</button>
            </div>
            { inputs(ed, link, &prefix, FLOW_FIELDS, &defaults, &["cca"]) }
            { route(ed, link, i) }
            if let Some(m) = member.filter(|m| !m.fields.is_empty()) {
                <details class="cca-params">
                    <summary>{ format!("{} parameters", m.label) }</summary>
                    { inputs(ed, link, &cca_path, m.fields, &cca_defaults, &[]) }
                </details>
            }
        </div>
    }
}

/// The links group `i`'s data cross, and those its ACKs cross, ticked in the order the
/// diagram draws the links; shown once the scenario has more than one link. The last link
/// of the data's route cannot be unticked; no ACK link ticked is the uncongested path.
fn route(ed: &Editor, link: &Link, i: usize) -> Html {
    let Some(sc) = ed.scenario().filter(|s| !s.links.is_empty()) else { return html! {} };
    let Some(g) = sc.flows.get(i) else { return html! {} };
    let order = sim_core::scenario::topology::chain_order(sc);
    let data: Vec<String> = sc.route_of(g).iter().map(|(n, _)| n.to_string()).collect();
    html! { <>
        { ticks(ed, link, i, "route", "Route", &order, &data, true,
            "The links this group's data cross, in the order the network diagram draws them.") }
        { ticks(ed, link, i, "ack_route", "ACK route", &order, &g.ack_route, false,
            "The links its ACKs cross on the way back, where they queue beside other traffic (ACK congestion on a slow uplink). None ticked: an uncongested reverse path with the route's delays.") }
    </> }
}

/// A row of checkboxes, one per link of `order`, for the list at `flows[i].field`.
#[allow(clippy::too_many_arguments)]
fn ticks(
    ed: &Editor,
    link: &Link,
    i: usize,
    field: &'static str,
    label: &str,
    order: &[String],
    on: &[String],
    keep_one: bool,
    help: &str,
) -> Html {
    let path = format!("flows[{i}].{field}");
    let error = ed.error_for(&path);
    html! {
        <div class={classes!("field", "route", error.is_some().then_some("invalid"))} data-testid={format!("{}-{i}", field.replace('_', "-"))}>
            <span class="label">{ label.to_string() }</span>
            { for order.iter().map(|n| {
                let ticked = on.contains(n);
                let name = n.clone();
                let cb = link.reform(move |e: Event| match field {
                    "route" => EditMsg::Route(i, name.clone(), checked(&e)),
                    _ => EditMsg::AckRoute(i, name.clone(), checked(&e)),
                });
                html! { <label class="route-link"><input type="checkbox" name={format!("{path}.{n}")} checked={ticked}
                    disabled={keep_one && ticked && on.len() == 1} onchange={cb} />{ format!(" {n}") }</label> }
            }) }
            if let Some(e) = error { <div class="field-error" data-field={path.clone()}>{ e }</div> }
            <div class="help">{ help.to_string() }</div>
        </div>
    }
}
