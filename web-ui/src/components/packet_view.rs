//! The packet view: one disc link's packets (or every link's, one under another) as they arrive, wait in each sub-queue and the
//! device queue, cross the wire, are dropped or marked (`packet_scene.rs` draws it), with
//! the disc's own state beside it. While the run goes it shows the latest instant; paused
//! or finished it plays the link's recent trace in slow motion and steps one event forward
//! or back. Set the charts' time cursor before the trace kept and the lane is run again to
//! it (same seed, same result).

use crate::packet_model::{LinkView, PacketModel};
use crate::packet_scene::{scene, Scene, Shape};
use crate::protocol::RunState;
use crate::state::{PacketsView, RunView, Shared};
use gloo::render::{request_animation_frame, AnimationFrame};
use sim_core::net::packet_trace::{Stage, TraceKind, TRACE_EVENTS};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlSelectElement};
use yew::prelude::*;

/// Events asked for while the run goes (the latest instant and the drops just before it).
const LIVE_EVENTS: u32 = 1024;
/// Slow-motion rates: simulated time per second of wall time.
const RATES: [(f64, &str); 5] = [
    (1e-5, "10 µs per second"),
    (1e-4, "0.1 ms per second"),
    (1e-3, "1 ms per second"),
    (1e-2, "10 ms per second"),
    (1e-1, "100 ms per second"),
];
/// How long a drop is shown falling, in wall seconds.
const FALL_WALL_S: f64 = 0.8;

/// What the view asks of the simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct PacketAsk {
    pub lane: usize,
    pub link: u32,
    pub events: u32,
    pub at_s: Option<f64>,
}

#[derive(Properties, PartialEq)]
pub struct PacketProps {
    pub run: Shared<RunView>,
    pub packets: Shared<PacketsView>,
    pub lane: usize,
    /// The charts' time cursor (s).
    pub cursor: Option<f64>,
    pub on_ask: Callback<PacketAsk>,
}

pub enum Msg {
    /// The link to watch; `None`: every link of the network.
    Link(Option<u32>),
    Play,
    Pause,
    Step(i64),
    Rate(usize),
    Scrub(f64),
    Frame(f64),
    Pointer(f64, f64, bool),
    Toggle(bool),
}

pub struct PacketView {
    canvas: NodeRef,
    details: NodeRef,
    /// The link watched; `None`: every link of the network, one under another.
    link: Option<u32>,
    model: PacketModel,
    playing: bool,
    rate: usize,
    /// The user picked the rate (else it follows the link's speed).
    rate_chosen: bool,
    frame: Option<AnimationFrame>,
    last_frame_ms: Option<f64>,
    /// Under the pointer, and pinned by a click.
    hover: Option<String>,
    pinned: Option<String>,
    open: bool,
    /// The question last asked while paused (lane, link, cursor, time now), and the links
    /// still to ask it for.
    asked_paused: Option<(usize, Option<u32>, Option<u64>, u64)>,
    to_ask: Vec<u32>,
    /// While running with every link shown, the next link to refresh.
    next_live: u32,
}

/// Height of a link's name above its picture when every link is shown (CSS px).
const LINK_HEAD: f64 = 18.0;

impl PacketView {
    fn running(ctx: &Context<Self>) -> bool {
        ctx.props().run.borrow().state == RunState::Running
    }

    fn link_names(ctx: &Context<Self>) -> Vec<String> {
        let run = ctx.props().run.borrow();
        run.lanes
            .get(ctx.props().lane)
            .map_or_else(Vec::new, |l| l.scenario.link_names().map(String::from).collect())
    }

    /// The links shown, in id order.
    fn shown(&self, ctx: &Context<Self>) -> Vec<u32> {
        match self.link {
            Some(l) => vec![l],
            None => (0..Self::link_names(ctx).len() as u32).collect(),
        }
    }

    /// Asks for what the view needs now, one question at a time.
    fn ask(&mut self, ctx: &Context<Self>) {
        let p = ctx.props();
        if !self.open || p.packets.borrow().asked {
            return;
        }
        let shown = self.shown(ctx);
        let run = p.run.borrow();
        if run.lanes.is_empty() || shown.is_empty() || run.state == RunState::Ready && run.now_s == 0.0 {
            return;
        }
        let now_ns = (run.now_s * 1e9) as u64;
        if run.state == RunState::Running {
            self.asked_paused = None;
            let link = shown[self.next_live as usize % shown.len()];
            self.next_live = self.next_live.wrapping_add(1);
            p.on_ask.emit(PacketAsk { lane: p.lane, link, events: LIVE_EVENTS, at_s: None });
            return;
        }
        let cursor = p.cursor.map(|c| (c * 1e9) as u64);
        let key = (p.lane, self.link, cursor, now_ns);
        if self.asked_paused != Some(key) {
            self.asked_paused = Some(key);
            self.to_ask = shown.into_iter().rev().collect();
        }
        if let Some(link) = self.to_ask.pop() {
            p.on_ask.emit(PacketAsk { lane: p.lane, link, events: TRACE_EVENTS as u32, at_s: p.cursor });
        }
    }

    /// Takes the windows the simulation sent for the links shown.
    fn take_windows(&mut self, ctx: &Context<Self>) {
        let shown = self.shown(ctx);
        let (windows, lane) = {
            let p = ctx.props().packets.borrow();
            (shown.iter().map(|l| p.windows.get(l).cloned()).collect::<Vec<_>>(), p.lane)
        };
        if lane != ctx.props().lane || windows.iter().any(Option::is_none) {
            return;
        }
        let windows: Vec<_> = windows.into_iter().flatten().collect();
        let same = self.model.views.len() == windows.len()
            && self.model.views.iter().zip(&windows).all(|(v, w)| Rc::ptr_eq(&v.window, w));
        if same {
            return;
        }
        let (sc_packet, rates) = {
            let run = ctx.props().run.borrow();
            let l = run.lanes.get(ctx.props().lane);
            let rates: Vec<u64> =
                l.map_or_else(Vec::new, |l| l.scenario.links_in_id_order().map(|k| k.rate_bps).collect());
            (l.map_or(1500, |l| l.scenario.full_packet_bytes()), rates)
        };
        let old_to = self.model.span().map(|s| s.1);
        let running = Self::running(ctx);
        let views: Vec<LinkView> = (windows.into_iter().enumerate())
            .map(|(i, w)| {
                let mut v = LinkView::new(w, sc_packet);
                // While the run goes the rows never shrink, so they do not jump.
                if let Some(old) = self.model.views.get(i).filter(|_| running) {
                    v.scale = v.scale.max(old.scale);
                }
                v
            })
            .collect();
        self.model.views = views;
        if !self.rate_chosen {
            // One full packet's transmission on the fastest link shown in about half a
            // second of slow motion.
            let fastest =
                shown.iter().filter_map(|l| rates.get(*l as usize)).max().copied().unwrap_or(10_000_000);
            let tx_s = f64::from(sc_packet) * 8.0 / fastest.max(1) as f64;
            self.rate = RATES.iter().rposition(|(r, _)| *r <= 2.0 * tx_s).unwrap_or(0);
        }
        let Some((from, to)) = self.model.span() else { return };
        let cursor = ctx.props().cursor.map(|c| (c * 1e9) as u64).filter(|c| (from..=to).contains(c));
        // The run moved on (or another link): its latest instant, unless the cursor is set.
        let t = match (cursor, old_to != Some(to)) {
            (Some(c), _) => c,
            (None, true) => to,
            (None, false) => self.model.t_ns,
        };
        self.model.seek(t);
    }

    fn fall_ns(&self, ctx: &Context<Self>) -> u64 {
        let rate = if Self::running(ctx) { 1e-2 } else { RATES[self.rate].0 };
        (rate * FALL_WALL_S * 1e9) as u64
    }

    /// Each view's picture and where it starts down the canvas.
    fn scenes(&self, ctx: &Context<Self>, width: f64) -> Vec<(f64, Scene)> {
        let names = Self::link_names(ctx);
        let multi = self.model.views.len() > 1;
        let mut y = 0.0;
        let t = self.model.t_ns;
        let fall = self.fall_ns(ctx);
        (self.model.views.iter())
            .map(|v| {
                let mut s = scene(&v.window, &v.replay.at(t), t, width, v.scale, fall);
                if multi {
                    let name = names.get(v.window.link as usize).map_or("", String::as_str);
                    s.shapes.push(Shape::Text {
                        x: 0.0,
                        y: 4.0 - LINK_HEAD * 0.25,
                        text: format!("Link {name}"),
                        right: false,
                    });
                    s.height += LINK_HEAD;
                }
                let at = y + if multi { LINK_HEAD } else { 0.0 };
                y += s.height;
                (at, s)
            })
            .collect()
    }

    fn draw(&self, ctx: &Context<Self>) {
        if self.model.views.is_empty() {
            return;
        }
        let Some(canvas) = self.canvas.cast::<HtmlCanvasElement>() else { return };
        let width = f64::from(canvas.client_width().max(200));
        let scenes = self.scenes(ctx, width);
        let height = scenes.iter().map(|(_, s)| s.height).sum::<f64>();
        let dpr = crate::dom::pixel_ratio();
        let (pw, ph) = ((width * dpr) as u32, (height * dpr) as u32);
        if canvas.width() != pw || canvas.height() != ph {
            canvas.set_width(pw);
            canvas.set_height(ph);
            let _ = canvas.set_attribute("style", &format!("height:{height}px"));
        }
        let Some(c) = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        // Pictures drawn so far (the page's checks count frames while it plays).
        let drawn = canvas.get_attribute("data-frames").and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
        let _ = canvas.set_attribute("data-frames", &(drawn + 1).to_string());
        let _ = c.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
        c.clear_rect(0.0, 0.0, width, height);
        c.set_font("12px system-ui, sans-serif");
        c.set_line_width(1.5);
        for (y0, s) in &scenes {
            let _ = c.set_transform(dpr, 0.0, 0.0, dpr, 0.0, dpr * y0);
            paint(&c, &s.shapes);
        }
    }

    fn frame(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        self.frame = Some(request_animation_frame(move |ms| link.send_message(Msg::Frame(ms))));
    }

    /// The discs' own state at the view's time: the longest wait (against the disc's delay
    /// target, if it has one) and the series the studied link's disc reports, as of the
    /// last sample.
    fn disc_state(&self, ctx: &Context<Self>) -> Vec<String> {
        let p = ctx.props();
        let run = p.run.borrow();
        let Some(lane) = run.lanes.get(p.lane) else { return Vec::new() };
        let mut out = Vec::new();
        let t = self.model.t_ns;
        let names: Vec<&str> = lane.scenario.link_names().collect();
        let multi = self.model.views.len() > 1;
        for v in &self.model.views {
            let oldest = v.replay.at(t).iter().filter(|x| x.stage == Stage::Disc).map(|x| x.queued_ns).min();
            let link = lane.scenario.links_in_id_order().nth(v.window.link as usize);
            let target = link.and_then(|l| l.queue.get().delay_target_ms());
            let waited = oldest.map_or(0.0, |q| (t - q.min(t)) as f64 / 1e6);
            let at = if multi {
                format!("{}: ", names.get(v.window.link as usize).unwrap_or(&""))
            } else {
                String::new()
            };
            out.push(match (target, v.window.queue_names.len() > 1) {
                (Some(tg), false) => format!(
                    "{at}the oldest packet in the disc has waited {waited:.2} ms; the disc's delay target is {tg} ms {}",
                    if waited > tg { "(above it: the control law may drop or mark)" } else { "(below it)" }
                ),
                (Some(tg), true) => format!(
                    "{at}the longest wait in any sub-queue is {waited:.2} ms; each sub-queue's control law compares its own packets' waits with the {tg} ms target."
                ),
                (None, _) => format!("{at}the oldest packet in the disc has waited {waited:.2} ms."),
            });
        }
        // The studied link's disc reports its own series (RED's average, PIE's probability…).
        let s = &lane.series;
        let t_s = t as f64 / 1e9;
        if self.model.views.iter().any(|v| v.window.link == 0) {
            if let Some(i) = s.t.iter().rposition(|&x| x <= t_s + 1e-9) {
                for (info, v) in s.info.iter().zip(&s.named).filter(|(f, _)| !f.name.starts_with("link.")) {
                    let Some(val) = v.get(i) else { continue };
                    let th: Vec<String> =
                        info.thresholds.iter().map(|t| format!("{} {}", t.label, t.value)).collect();
                    let th = if th.is_empty() {
                        String::new()
                    } else {
                        format!(" (thresholds: {})", th.join(", "))
                    };
                    let val = sim_core::lesson::readable(*val);
                    out.push(format!(
                        "{}: {val} {}{th} at the sample of {:.2} s",
                        info.label, info.unit, s.t[i]
                    ));
                }
            }
        }
        out
    }
}

/// Paints `shapes` on `c` (its transform set).
fn paint(c: &CanvasRenderingContext2d, shapes: &[Shape]) {
    for sh in shapes {
        match sh {
            Shape::Rect { x, y, w, h, fill, ring } => {
                c.set_fill_style_str(fill);
                c.fill_rect(*x, *y, *w, *h);
                if let Some(r) = ring {
                    c.set_stroke_style_str(r);
                    c.set_line_width(2.5);
                    c.stroke_rect(*x + 1.25, *y + 1.25, (*w - 2.5).max(0.5), *h - 2.5);
                    c.set_line_width(1.5);
                }
            }
            Shape::Dot { x, y, r, color } => {
                c.set_fill_style_str(color);
                c.begin_path();
                let _ = c.arc(*x, *y, *r, 0.0, std::f64::consts::TAU);
                c.fill();
            }
            Shape::Cross { x, y, r, color } => {
                c.set_stroke_style_str(color);
                c.begin_path();
                c.move_to(x - r, y - r);
                c.line_to(x + r, y + r);
                c.move_to(x + r, y - r);
                c.line_to(x - r, y + r);
                c.stroke();
            }
            Shape::Line { x1, y1, x2, y2, color } => {
                c.set_stroke_style_str(color);
                c.begin_path();
                c.move_to(*x1, *y1);
                c.line_to(*x2, *y2);
                c.stroke();
            }
            Shape::Text { x, y, text, right } => {
                c.set_fill_style_str("#333");
                c.set_text_align(if *right { "right" } else { "left" });
                let _ = c.fill_text(text, *x, *y);
            }
        }
    }
}

/// An event in words.
fn event_words(kind: TraceKind, reason: Option<sim_core::queue::DropReason>) -> String {
    match kind {
        TraceKind::Queued => "queued".into(),
        TraceKind::Sent => "started on the wire".into(),
        TraceKind::ToDevice => "moved to the device queue".into(),
        k => crate::packet_scene::drop_words(k, reason),
    }
}

impl Component for PacketView {
    type Message = Msg;
    type Properties = PacketProps;

    fn create(_ctx: &Context<Self>) -> Self {
        PacketView {
            canvas: NodeRef::default(),
            details: NodeRef::default(),
            link: Some(0),
            model: PacketModel::default(),
            playing: false,
            rate: 1,
            rate_chosen: false,
            frame: None,
            last_frame_ms: None,
            hover: None,
            pinned: None,
            open: true,
            asked_paused: None,
            to_ask: Vec::new(),
            next_live: 0,
        }
    }

    fn changed(&mut self, ctx: &Context<Self>, old: &Self::Properties) -> bool {
        if ctx.props().run.borrow().lanes.is_empty() || ctx.props().lane != old.lane {
            self.model = PacketModel::default();
            self.playing = false;
        }
        self.take_windows(ctx);
        if ctx.props().cursor != old.cursor {
            if let Some(c) = ctx.props().cursor {
                self.playing = false;
                self.model.seek((c * 1e9) as u64);
            }
        }
        if Self::running(ctx) {
            self.playing = false;
        }
        true
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Link(l) => {
                self.link = l;
                self.model = PacketModel::default();
                self.asked_paused = None;
                self.take_windows(ctx);
            }
            Msg::Play => {
                if let Some((from, to)) = self.model.span() {
                    if self.model.t_ns >= to {
                        self.model.seek(from);
                    }
                    self.playing = true;
                    self.last_frame_ms = None;
                    self.frame(ctx);
                }
            }
            Msg::Pause => self.playing = false,
            Msg::Step(d) => {
                self.playing = false;
                self.model.step(d);
            }
            Msg::Rate(i) => {
                self.rate = i.min(RATES.len() - 1);
                self.rate_chosen = true;
            }
            Msg::Scrub(frac) => {
                self.playing = false;
                if let Some((from, to)) = self.model.span() {
                    self.model.seek(from + ((to - from) as f64 * frac.clamp(0.0, 1.0)) as u64);
                }
            }
            Msg::Frame(ms) => {
                self.frame = None;
                if !self.playing {
                    return false;
                }
                let dt = self.last_frame_ms.map_or(0.0, |l| (ms - l).clamp(0.0, 100.0));
                self.last_frame_ms = Some(ms);
                let to = self.model.span().map_or(0, |s| s.1);
                self.model.seek(self.model.t_ns + (RATES[self.rate].0 * dt * 1e6) as u64);
                if self.model.t_ns >= to {
                    self.playing = false;
                } else {
                    self.frame(ctx);
                }
                // The picture alone changes: paint it without re-rendering the controls
                // more than a few times a second.
                self.draw(ctx);
                return (ms / 250.0) as u64 != ((ms - dt) / 250.0) as u64;
            }
            Msg::Pointer(x, y, click) => {
                let width =
                    self.canvas.cast::<HtmlCanvasElement>().map_or(600.0, |c| f64::from(c.client_width()));
                let scenes = self.scenes(ctx, width);
                let text = (scenes.iter())
                    .find_map(|(y0, s)| {
                        let y = y - y0;
                        s.hits.iter().rev().find(|h| x >= h.x && x <= h.x + h.w && y >= h.y && y <= h.y + h.h)
                    })
                    .map(|h| h.text.clone());
                if click {
                    self.pinned = text;
                } else if text == self.hover {
                    return false;
                } else {
                    self.hover = text;
                }
            }
            Msg::Toggle(open) => {
                self.open = open;
                self.asked_paused = None;
            }
        }
        true
    }

    fn rendered(&mut self, ctx: &Context<Self>, _first: bool) {
        self.ask(ctx);
        self.draw(ctx);
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let p = ctx.props();
        let link = ctx.link();
        let names = Self::link_names(ctx);
        let running = p.run.borrow().state == RunState::Running;
        let replayed = p.packets.borrow().replayed;
        let on_link = link.callback(|e: Event| {
            Msg::Link(e.target_unchecked_into::<HtmlSelectElement>().value().parse().ok())
        });
        let on_rate = link.callback(|e: Event| {
            Msg::Rate(e.target_unchecked_into::<HtmlSelectElement>().value().parse().unwrap_or(1))
        });
        let on_scrub = link.callback(|e: InputEvent| {
            Msg::Scrub(e.target_unchecked_into::<web_sys::HtmlInputElement>().value().parse().unwrap_or(0.0))
        });
        let pointer = |click: bool| {
            link.callback(move |e: MouseEvent| {
                Msg::Pointer(f64::from(e.offset_x()), f64::from(e.offset_y()), click)
            })
        };
        let details = self.details.clone();
        let on_toggle = link.callback(move |_: Event| {
            Msg::Toggle(details.cast::<web_sys::HtmlDetailsElement>().is_some_and(|d| d.open()))
        });
        let t = self.model.t_ns;
        let (status, frac) = match self.model.span() {
            Some((from, to)) => {
                let per_link: Vec<String> = (self.model.views.iter())
                    .map(|v| {
                        let pk = v.replay.at(t);
                        let count = |s: Stage| pk.iter().filter(|p| p.stage == s).count();
                        let at = match self.model.views.len() {
                            1 => String::new(),
                            _ => {
                                format!("{}: ", names.get(v.window.link as usize).map_or("", String::as_str))
                            }
                        };
                        format!(
                            "{at}{} waiting in the disc, {} in the device queue, {} on the wire",
                            count(Stage::Disc),
                            count(Stage::Device),
                            count(Stage::Wire)
                        )
                    })
                    .collect();
                (
                    format!(
                        "t = {:.6} s · {} · the trace holds {:.4} s to {:.4} s{}",
                        t as f64 / 1e9,
                        per_link.join(" · "),
                        from as f64 / 1e9,
                        to as f64 / 1e9,
                        if replayed { " (run again to the cursor: same seed, same packets)" } else { "" }
                    ),
                    (t - from.min(t)) as f64 / (to - from).max(1) as f64,
                )
            }
            None => ("Run the scenario: its packets appear here.".to_string(), 0.0),
        };
        let (applied, n_events) = self.model.counts();
        let event_text = match self.model.latest_event() {
            Some((v, i)) => {
                let e = &self.model.views[v].window.events[i];
                let at = match self.model.views.len() {
                    1 => format!("Event {applied} of {n_events}"),
                    _ => format!(
                        "Latest event, at {}",
                        names.get(self.model.views[v].window.link as usize).map_or("", String::as_str)
                    ),
                };
                format!(
                    "{at}: flow {}'s {} B {} at {:.6} s",
                    e.flow,
                    e.bytes,
                    event_words(e.kind, e.reason),
                    e.t_ns as f64 / 1e9
                )
            }
            None => format!("{n_events} events in the trace"),
        };
        let selected = self.link;
        html! {
            <details class="packet-view" open={self.open} ref={self.details.clone()} ontoggle={on_toggle} data-testid="packet-view">
                <summary>{ "Packets: watch a link's queue, packet by packet" }</summary>
                <div class="packet-controls">
                    <label>{ "Link " }
                        <select onchange={on_link} aria-label="Link to watch" data-testid="packet-link">
                            { for names.iter().enumerate().map(|(i, n)| html! { <option value={i.to_string()} selected={selected == Some(i as u32)}>{ n }</option> }) }
                            if names.len() > 1 {
                                <option value="all" selected={selected.is_none()}>{ "every link" }</option>
                            }
                        </select>
                    </label>
                    <button onclick={link.callback(|_| Msg::Step(-1))} disabled={running} aria-label="One event back" data-testid="packet-back">{ "◀ event" }</button>
                    if self.playing {
                        <button onclick={link.callback(|_| Msg::Pause)} data-testid="packet-pause">{ "Pause" }</button>
                    } else {
                        <button onclick={link.callback(|_| Msg::Play)} disabled={running || self.model.views.is_empty()} data-testid="packet-play">{ "Play slowly" }</button>
                    }
                    <button onclick={link.callback(|_| Msg::Step(1))} disabled={running} aria-label="One event forward" data-testid="packet-forward">{ "event ▶" }</button>
                    <label>{ "Speed " }
                        <select onchange={on_rate} aria-label="Slow-motion speed">
                            { for RATES.iter().enumerate().map(|(i, (_, l))| html! { <option value={i.to_string()} selected={i == self.rate}>{ *l }</option> }) }
                        </select>
                    </label>
                    <input type="range" min="0" max="1" step="0.0005" value={frac.to_string()} oninput={on_scrub} disabled={running}
                        aria-label="Time within the trace" data-testid="packet-scrub" />
                </div>
                <canvas ref={self.canvas.clone()} class="packet-canvas"
                    onmousemove={pointer(false)} onclick={pointer(true)} data-testid="packet-canvas"
                    aria-label="The link's packets: each sub-queue of the disc, the device queue and the wire" />
                <p class="packet-status" data-testid="packet-status">{ status }</p>
                <p class="packet-event" data-testid="packet-event">{ event_text }</p>
                if let Some(t) = self.pinned.as_ref().or(self.hover.as_ref()) {
                    <p class="packet-hover" data-testid="packet-hover">{ t }</p>
                }
                <ul class="packet-disc">
                    { for self.disc_state(ctx).into_iter().map(|l| html! { <li>{ l }</li> }) }
                </ul>
                <p class="hint">{ "Each box is a packet, coloured by its flow (ACKs grey) and as wide as its size; the head of each queue is on the right. \
                    A ring and a dot above a packet are a CE mark, coloured by why as on the drop chart (the packet goes on, carrying the signal; \
                    the view learns of a mark as the packet leaves the disc, so marks show from then on); a cross falling below a queue is a drop: at the left when the \
                    arrival was refused, at the head when a packet that had waited was dropped. While the run goes this shows its latest \
                    instant; pause it to play the last 16 384 events slowly or step one event at a time. Pick ‘every link’ to watch each link of the network \
                    at once, one under another, stepping through all of them together. Point at a packet to see its flow, size, \
                    wait and mark; set the charts' time cursor to look at an earlier moment." }</p>
            </details>
        }
    }
}
