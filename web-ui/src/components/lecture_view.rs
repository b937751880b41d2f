//! The lecture view, inside the projector overlay: the preset's title, its "what to watch"
//! points one at a time as a large callout (→ and ← or Page Down and Page Up step through
//! them; a timed one moves the time cursor to its moment when the run has passed it, so the
//! charts and the packet view show it), the two or three charts picked, and the packet
//! view if ticked. Space still runs and pauses; Escape leaves.

use super::chart_card::ChartCard;
use super::packet_view::{PacketAsk, PacketView};
use crate::chart_data::ChartData;
use crate::state::{PacketsView, RunView, Shared};
use gloo::events::EventListener;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LectureProps {
    pub title: AttrValue,
    /// The watch points: when (if timed) and what.
    pub points: Rc<Vec<(Option<f64>, String)>>,
    pub charts: Vec<(String, Rc<ChartData>)>,
    pub on_present: Callback<AttrValue>,
    pub with_packets: bool,
    pub run: Shared<RunView>,
    pub packets: Shared<PacketsView>,
    pub lane: usize,
    pub cursor: Option<f64>,
    pub on_ask: Callback<PacketAsk>,
    pub on_scrub: Callback<Option<f64>>,
}

/// A watch point as the callout reads it.
pub fn point_text((at, text): &(Option<f64>, String)) -> String {
    match at {
        Some(t) => format!("At {t} s: {text}"),
        None => text.clone(),
    }
}

#[function_component(LectureView)]
pub fn lecture_view(p: &LectureProps) -> Html {
    let at = use_state(|| 0usize);
    let n = p.points.len();
    {
        // The presenter's keys, while the view is open.
        let (at, points, run, on_scrub) = (at.clone(), p.points.clone(), p.run.clone(), p.on_scrub.clone());
        use_effect_with((*at, n), move |_| {
            let listener = web_sys::window().map(|w| {
                EventListener::new(&w, "keydown", move |e| {
                    let Some(k) = e.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                    let step: i64 = match k.key().as_str() {
                        "ArrowRight" | "PageDown" => 1,
                        "ArrowLeft" | "PageUp" => -1,
                        _ => return,
                    };
                    e.prevent_default();
                    if points.is_empty() {
                        return;
                    }
                    let next = (*at as i64 + step).clamp(0, points.len() as i64 - 1) as usize;
                    at.set(next);
                    // A timed point the run has passed: the cursor goes to its moment.
                    if let Some(t) = points[next].0.filter(|t| *t <= run.borrow().now_s) {
                        on_scrub.emit(Some(t));
                    }
                })
            });
            move || drop(listener)
        });
    }
    let current = p.points.get((*at).min(n.saturating_sub(1)));
    html! {
        <div class="lecture" data-testid="projected" style={format!("--n: {}", p.charts.len())}>
            <header class="lecture-head">
                <h2>{ p.title.clone() }</h2>
                if let Some(pt) = current {
                    <p class="callout" data-testid="callout" aria-live="polite">
                        <span class="callout-n">{ format!("{} / {n}", (*at).min(n - 1) + 1) }</span>
                        { point_text(pt) }
                    </p>
                }
                <p class="keys">{ "→ / ← the next or previous point · space runs and pauses · Escape leaves" }</p>
            </header>
            <div class="projected">
                { for p.charts.iter().map(|(k, c)| html! {
                    <ChartCard key={format!("projected-{k}")} id={AttrValue::from(k.clone())} data={c.clone()} on_present={p.on_present.clone()} large=true />
                }) }
            </div>
            if p.with_packets {
                <PacketView run={p.run.clone()} packets={p.packets.clone()} lane={p.lane} cursor={p.cursor} on_ask={p.on_ask.clone()} />
            }
        </div>
    }
}
