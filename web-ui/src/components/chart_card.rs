//! One chart: a canvas redrawn (through the draw queue) whenever its data changes, with a
//! PNG export at twice the resolution, a full-screen button and a text description for
//! screen readers.

use super::draw_queue;
use crate::chart_data::ChartData;
use crate::charts;
use crate::dom;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ChartProps {
    /// Key and file name, e.g. `queue`, `red_goodput`.
    pub id: AttrValue,
    pub data: Rc<ChartData>,
    /// Full screen (presentation) asked for this chart.
    pub on_present: Callback<AttrValue>,
    #[prop_or_default]
    pub large: bool,
    /// Whether the chart is picked for the projector view, when it can be (a tick box on
    /// the card), and what ticking it says.
    #[prop_or_default]
    pub picked: Option<bool>,
    #[prop_or_default]
    pub pick_disabled: bool,
    #[prop_or_default]
    pub on_pick: Callback<(AttrValue, bool)>,
}

pub struct ChartCard {
    canvas: NodeRef,
}

pub enum Msg {
    Png,
}

impl Component for ChartCard {
    type Message = Msg;
    type Properties = ChartProps;

    fn create(_ctx: &Context<Self>) -> Self {
        ChartCard { canvas: NodeRef::default() }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        let Msg::Png = msg;
        let p = ctx.props();
        let Some(shown) = self.canvas.cast::<HtmlCanvasElement>() else { return false };
        let result = (|| {
            let doc = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
            let c: HtmlCanvasElement =
                wasm_bindgen::JsCast::dyn_into(doc.create_element("canvas").map_err(|_| "no canvas")?)
                    .map_err(|_| "no canvas")?;
            let (w, h) =
                (f64::from(shown.client_width().max(720)), f64::from(shown.client_height().max(360)));
            charts::draw_at(&c, &p.data, w, h, 2.0)?;
            dom::download_png(&format!("{}.png", p.id), &c)
        })();
        if let Err(e) = result {
            web_sys::console::warn_1(&format!("PNG {}: {e}", p.id).into());
        }
        false
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let p = ctx.props();
        let id = p.id.clone();
        let present = p.on_present.reform(move |_| id.clone());
        let coincide = p.data.coincidences();
        let desc = p.data.describe_with(&coincide);
        // Which lines lie on one another ("CoDel = FQ-CoDel here"), for tests and scripts.
        let notes: Vec<String> = coincide.into_iter().map(|c| c.note).collect();
        let coincide = (!notes.is_empty()).then(|| notes.join("; "));
        html! {
            <figure class={classes!("chart", p.large.then_some("large"))} data-chart={p.id.clone()} data-coincide={coincide}>
                <canvas ref={self.canvas.clone()} role="img" aria-label={desc.clone()}></canvas>
                <figcaption class="sr-only">{ desc }</figcaption>
                <div class="chart-tools">
                    if let Some(picked) = p.picked {
                        <label class="pick" title="Show this chart in the projector view (2 or 3 at once)">
                            <input type="checkbox" checked={picked} disabled={p.pick_disabled && !picked}
                                aria-label={format!("Show {} in the projector view", p.data.title())}
                                onchange={let (id, on) = (p.id.clone(), p.on_pick.clone()); Callback::from(move |e: Event| on.emit((id.clone(), super::editor_panel::checked(&e))))} />
                            { "Projector" }
                        </label>
                    }
                    <button class="png" title="Download as PNG (2× resolution)" aria-label={format!("Download {} as PNG", p.data.title())}
                        onclick={ctx.link().callback(|_| Msg::Png)}>{ "PNG" }</button>
                    if !p.large {
                        <button class="fullscreen" title="Full screen" aria-label={format!("Show {} full screen", p.data.title())} onclick={present}>{ "Enlarge" }</button>
                    }
                </div>
            </figure>
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, _first: bool) {
        let Some(canvas) = self.canvas.cast::<HtmlCanvasElement>() else { return };
        let data = ctx.props().data.clone();
        let id = ctx.props().id.to_string();
        draw_queue::schedule(&format!("{id}{}", if ctx.props().large { "!" } else { "" }), move || {
            if let Err(e) = charts::draw(&canvas, &data, dom::pixel_ratio()) {
                web_sys::console::warn_1(&format!("chart {id}: {e}").into());
            }
        });
    }
}
