//! The packet view: one disc link's packets as they arrive, wait in each sub-queue and the
//! device queue, cross the wire, are dropped or marked (`packet_scene.rs` draws it), with
//! the disc's own state beside it. While the run goes it shows the latest instant; paused
//! or finished it plays the link's recent trace in slow motion and steps one event forward
//! or back. Set the charts' time cursor before the trace kept and the lane is run again to
//! it (same seed, same result).

use crate::packet_scene::{row_scale, scene, Shape};
use crate::protocol::RunState;
use crate::state::{PacketsView, RunView, Shared};
use gloo::render::{request_animation_frame, AnimationFrame};
use sim_core::net::packet_trace::{Stage, TraceReplay, TraceWindow, TRACE_EVENTS};
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
    Link(u32),
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
    link: u32,
    window: Option<Rc<TraceWindow>>,
    replay: Option<TraceReplay>,
    t_ns: u64,
    scale: f64,
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
    /// The question last asked while paused (lane, link, cursor, time now): asked once.
    asked_paused: Option<(usize, u32, Option<u64>, u64)>,
}

impl PacketView {
    fn running(ctx: &Context<Self>) -> bool {
        ctx.props().run.borrow().state == RunState::Running
    }

    /// Asks for what the view needs now, one question at a time.
    fn ask(&mut self, ctx: &Context<Self>) {
        let p = ctx.props();
        if !self.open || p.packets.borrow().asked {
            return;
        }
        let run = p.run.borrow();
        if run.lanes.is_empty() || run.state == RunState::Ready && run.now_s == 0.0 {
            return;
        }
        let now_ns = (run.now_s * 1e9) as u64;
        if run.state == RunState::Running {
            self.asked_paused = None;
            p.on_ask.emit(PacketAsk { lane: p.lane, link: self.link, events: LIVE_EVENTS, at_s: None });
            return;
        }
        let cursor = p.cursor.map(|c| (c * 1e9) as u64);
        let key = (p.lane, self.link, cursor, now_ns);
        if self.asked_paused != Some(key) {
            self.asked_paused = Some(key);
            p.on_ask.emit(PacketAsk {
                lane: p.lane,
                link: self.link,
                events: TRACE_EVENTS as u32,
                at_s: p.cursor,
            });
        }
    }

    /// Takes a new window from the simulation, if one came.
    fn take_window(&mut self, ctx: &Context<Self>) {
        let (w, lane) = {
            let p = ctx.props().packets.borrow();
            (p.window.clone(), p.lane)
        };
        let Some(w) = w.filter(|w| w.link == self.link && lane == ctx.props().lane) else { return };
        if self.window.as_ref().is_some_and(|o| Rc::ptr_eq(o, &w)) {
            return;
        }
        let mut replay = TraceReplay::new(&w);
        let cursor =
            ctx.props().cursor.map(|c| (c * 1e9) as u64).filter(|c| (w.from_ns..=w.to_ns).contains(c));
        // The run moved on (or another link): its latest instant, unless the cursor is set.
        let moved = self.window.as_ref().is_none_or(|o| o.to_ns != w.to_ns);
        let t = match (cursor, moved) {
            (Some(c), _) => c,
            (None, true) => w.to_ns,
            (None, false) => self.t_ns.clamp(w.from_ns, w.to_ns),
        };
        // The rows' scale: the fullest sub-queue at the window's end, never shrinking
        // while the run goes.
        replay.seek_time(&w, w.to_ns);
        let mut rows: Vec<(u32, u64)> = Vec::new();
        for p in replay.at(w.to_ns).iter().filter(|p| p.stage == Stage::Disc) {
            match rows.iter_mut().find(|r| r.0 == p.queue) {
                Some(r) => r.1 += u64::from(p.bytes),
                None => rows.push((p.queue, u64::from(p.bytes))),
            }
        }
        let fullest = rows.iter().map(|r| r.1).max().unwrap_or(0);
        let packet = ctx
            .props()
            .run
            .borrow()
            .lanes
            .get(ctx.props().lane)
            .map_or(1500, |l| l.scenario.full_packet_bytes());
        let s = row_scale(fullest, packet);
        self.scale = if Self::running(ctx) { self.scale.max(s) } else { s };
        if !self.rate_chosen {
            // One full packet's transmission in about half a second of slow motion.
            let link = ctx
                .props()
                .run
                .borrow()
                .lanes
                .get(ctx.props().lane)
                .and_then(|l| l.scenario.links_in_id_order().nth(self.link as usize).map(|k| k.rate_bps));
            let tx_s = f64::from(packet) * 8.0 / link.unwrap_or(10_000_000) as f64;
            self.rate = RATES.iter().rposition(|(r, _)| *r <= 2.0 * tx_s).unwrap_or(0);
        }
        replay.seek_time(&w, t);
        self.t_ns = t;
        self.replay = Some(replay);
        self.window = Some(w);
    }

    fn seek(&mut self, t: u64) {
        let (Some(w), Some(r)) = (&self.window, &mut self.replay) else { return };
        self.t_ns = t.clamp(w.from_ns, w.to_ns);
        r.seek_time(w, self.t_ns);
    }

    fn fall_ns(&self, ctx: &Context<Self>) -> u64 {
        let rate = if Self::running(ctx) { 1e-2 } else { RATES[self.rate].0 };
        (rate * FALL_WALL_S * 1e9) as u64
    }

    fn draw(&self, ctx: &Context<Self>) {
        let (Some(w), Some(r)) = (&self.window, &self.replay) else { return };
        let Some(canvas) = self.canvas.cast::<HtmlCanvasElement>() else { return };
        let width = f64::from(canvas.client_width().max(200));
        let s = scene(w, &r.at(self.t_ns), self.t_ns, width, self.scale, self.fall_ns(ctx));
        let dpr = crate::dom::pixel_ratio();
        let (pw, ph) = ((width * dpr) as u32, (s.height * dpr) as u32);
        if canvas.width() != pw || canvas.height() != ph {
            canvas.set_width(pw);
            canvas.set_height(ph);
            let _ = canvas.set_attribute("style", &format!("height:{}px", s.height));
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
        c.clear_rect(0.0, 0.0, width, s.height);
        c.set_font("12px system-ui, sans-serif");
        c.set_line_width(1.5);
        for sh in &s.shapes {
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

    fn frame(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        self.frame = Some(request_animation_frame(move |ms| link.send_message(Msg::Frame(ms))));
    }

    /// The disc's own state at the view's time: the oldest packet's wait (against the
    /// disc's delay target, if it has one) and the series the disc reports, as of the last
    /// sample.
    fn disc_state(&self, ctx: &Context<Self>) -> Vec<String> {
        let p = ctx.props();
        let run = p.run.borrow();
        let Some(lane) = run.lanes.get(p.lane) else { return Vec::new() };
        let mut out = Vec::new();
        let t_s = self.t_ns as f64 / 1e9;
        if let Some(r) = &self.replay {
            let oldest = r.at(self.t_ns).iter().filter(|x| x.stage == Stage::Disc).map(|x| x.queued_ns).min();
            let link = lane.scenario.links_in_id_order().nth(self.link as usize);
            let target = link.and_then(|l| l.queue.get().delay_target_ms());
            let waited = oldest.map_or(0.0, |q| (self.t_ns - q.min(self.t_ns)) as f64 / 1e6);
            let many = self.window.as_ref().is_some_and(|w| w.queue_names.len() > 1);
            out.push(match (target, many) {
                (Some(tg), false) => format!(
                    "The oldest packet in the disc has waited {waited:.2} ms; the disc's delay target is {tg} ms {}",
                    if waited > tg { "(above it: the control law may drop or mark)" } else { "(below it)" }
                ),
                (Some(tg), true) => format!(
                    "The longest wait in any sub-queue is {waited:.2} ms; each sub-queue's control law compares its own packets' waits with the {tg} ms target."
                ),
                (None, _) => format!("The oldest packet in the disc has waited {waited:.2} ms."),
            });
        }
        // The bottleneck's disc reports its own series (RED's average, PIE's probability…).
        let s = &lane.series;
        if self.link == 0 {
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

impl Component for PacketView {
    type Message = Msg;
    type Properties = PacketProps;

    fn create(_ctx: &Context<Self>) -> Self {
        PacketView {
            canvas: NodeRef::default(),
            details: NodeRef::default(),
            link: 0,
            window: None,
            replay: None,
            t_ns: 0,
            scale: 0.0,
            playing: false,
            rate: 1,
            rate_chosen: false,
            frame: None,
            last_frame_ms: None,
            hover: None,
            pinned: None,
            open: true,
            asked_paused: None,
        }
    }

    fn changed(&mut self, ctx: &Context<Self>, old: &Self::Properties) -> bool {
        if ctx.props().run.borrow().lanes.is_empty() || ctx.props().lane != old.lane {
            self.window = None;
            self.replay = None;
            self.scale = 0.0;
            self.playing = false;
        }
        self.take_window(ctx);
        if ctx.props().cursor != old.cursor {
            if let Some(c) = ctx.props().cursor {
                self.playing = false;
                self.seek((c * 1e9) as u64);
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
                self.window = None;
                self.replay = None;
                self.scale = 0.0;
                self.asked_paused = None;
            }
            Msg::Play => {
                if let Some(w) = &self.window {
                    if self.t_ns >= w.to_ns {
                        self.seek(w.from_ns);
                    }
                    self.playing = true;
                    self.last_frame_ms = None;
                    self.frame(ctx);
                }
            }
            Msg::Pause => self.playing = false,
            Msg::Step(d) => {
                self.playing = false;
                let (Some(w), Some(r)) = (&self.window, &mut self.replay) else { return false };
                let n = (r.applied() as i64 + d).clamp(0, w.events.len() as i64) as usize;
                r.seek(w, n);
                self.t_ns = match n {
                    0 => w.from_ns,
                    n => w.events[n - 1].t_ns,
                };
            }
            Msg::Rate(i) => {
                self.rate = i.min(RATES.len() - 1);
                self.rate_chosen = true;
            }
            Msg::Scrub(frac) => {
                self.playing = false;
                if let Some(w) = &self.window {
                    let t = w.from_ns + ((w.to_ns - w.from_ns) as f64 * frac.clamp(0.0, 1.0)) as u64;
                    self.seek(t);
                }
            }
            Msg::Frame(ms) => {
                self.frame = None;
                if !self.playing {
                    return false;
                }
                let dt = self.last_frame_ms.map_or(0.0, |l| (ms - l).clamp(0.0, 100.0));
                self.last_frame_ms = Some(ms);
                let to = self.window.as_ref().map_or(0, |w| w.to_ns);
                let t = self.t_ns + (RATES[self.rate].0 * dt * 1e6) as u64;
                self.seek(t);
                if self.t_ns >= to {
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
                let (Some(w), Some(r)) = (&self.window, &self.replay) else { return false };
                let width =
                    self.canvas.cast::<HtmlCanvasElement>().map_or(600.0, |c| f64::from(c.client_width()));
                let s = scene(w, &r.at(self.t_ns), self.t_ns, width, self.scale, self.fall_ns(ctx));
                let hit =
                    s.hits.iter().rev().find(|h| x >= h.x && x <= h.x + h.w && y >= h.y && y <= h.y + h.h);
                let text = hit.map(|h| h.text.clone());
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
        let run = p.run.borrow();
        let link = ctx.link();
        let names: Vec<String> = run
            .lanes
            .get(p.lane)
            .map_or_else(Vec::new, |l| l.scenario.link_names().map(String::from).collect());
        let running = run.state == RunState::Running;
        let replayed = p.packets.borrow().replayed;
        drop(run);
        let on_link = link.callback(|e: Event| {
            Msg::Link(e.target_unchecked_into::<HtmlSelectElement>().value().parse().unwrap_or(0))
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
        let (status, frac, n_events, applied) = match (&self.window, &self.replay) {
            (Some(w), Some(r)) => {
                let pk = r.at(self.t_ns);
                let count = |s: Stage| pk.iter().filter(|p| p.stage == s).count();
                let span = (w.to_ns - w.from_ns).max(1) as f64;
                (
                    format!(
                        "t = {:.6} s · {} waiting in the disc, {} in the device queue, {} on the wire · the trace holds {:.4} s to {:.4} s{}",
                        self.t_ns as f64 / 1e9,
                        count(Stage::Disc),
                        count(Stage::Device),
                        count(Stage::Wire),
                        w.from_ns as f64 / 1e9,
                        w.to_ns as f64 / 1e9,
                        if replayed { " (run again to the cursor: same seed, same packets)" } else { "" }
                    ),
                    (self.t_ns - w.from_ns.min(self.t_ns)) as f64 / span,
                    w.events.len(),
                    r.applied(),
                )
            }
            _ => ("Run the scenario: its packets appear here.".to_string(), 0.0, 0, 0),
        };
        let event_text = match (&self.window, applied) {
            (Some(w), n) if n > 0 => {
                let e = &w.events[n - 1];
                let what = match e.kind {
                    sim_core::net::packet_trace::TraceKind::Queued => "queued".to_string(),
                    sim_core::net::packet_trace::TraceKind::Sent => "started on the wire".to_string(),
                    sim_core::net::packet_trace::TraceKind::ToDevice => {
                        "moved to the device queue".to_string()
                    }
                    k => crate::packet_scene::drop_words(k, e.reason),
                };
                format!(
                    "Event {n} of {n_events}: flow {}'s {} B {} at {:.6} s",
                    e.flow,
                    e.bytes,
                    what,
                    e.t_ns as f64 / 1e9
                )
            }
            _ => format!("{n_events} events in the trace"),
        };
        html! {
            <details class="packet-view" open={self.open} ref={self.details.clone()} ontoggle={on_toggle} data-testid="packet-view">
                <summary>{ "Packets: watch a link's queue, packet by packet" }</summary>
                <div class="packet-controls">
                    <label>{ "Link " }
                        <select onchange={on_link} aria-label="Link to watch" data-testid="packet-link">
                            { for names.iter().enumerate().map(|(i, n)| html! { <option value={i.to_string()} selected={i as u32 == self.link}>{ n }</option> }) }
                        </select>
                    </label>
                    <button onclick={link.callback(|_| Msg::Step(-1))} disabled={running} aria-label="One event back" data-testid="packet-back">{ "◀ event" }</button>
                    if self.playing {
                        <button onclick={link.callback(|_| Msg::Pause)} data-testid="packet-pause">{ "Pause" }</button>
                    } else {
                        <button onclick={link.callback(|_| Msg::Play)} disabled={running || self.window.is_none()} data-testid="packet-play">{ "Play slowly" }</button>
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
                    instant; pause it to play the last 16 384 events slowly or step one event at a time. Point at a packet to see its flow, size, \
                    wait and mark; set the charts' time cursor to look at an earlier moment." }</p>
            </details>
        }
    }
}
