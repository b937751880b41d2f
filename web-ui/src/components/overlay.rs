//! A dialog over the page (one chart enlarged, the projector view): Escape closes it
//! wherever the focus is (its own listener, not the page's, which leaves keys typed on
//! buttons alone), as do its Close button and a click beside it. Focus moves into it (onto
//! the dialog itself, so space still runs and pauses) and goes back where it was.

use gloo::events::EventListener;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct OverlayProps {
    /// The dialog's accessible name.
    pub label: AttrValue,
    #[prop_or_default]
    pub class: Classes,
    /// The Close button's text.
    #[prop_or(AttrValue::from("✕"))]
    pub close_text: AttrValue,
    pub on_close: Callback<()>,
    pub children: Html,
}

#[function_component(Overlay)]
pub fn overlay(p: &OverlayProps) -> Html {
    let body = use_node_ref();
    {
        let (body, on_close) = (body.clone(), p.on_close.clone());
        use_effect_with((), move |_| {
            let doc = web_sys::window().and_then(|w| w.document());
            let before =
                doc.as_ref().and_then(|d| d.active_element()).and_then(|e| e.dyn_into::<HtmlElement>().ok());
            if let Some(b) = body.cast::<HtmlElement>() {
                let _ = b.focus();
            }
            let listener = web_sys::window().map(|w| {
                EventListener::new(&w, "keydown", move |e| {
                    if e.dyn_ref::<web_sys::KeyboardEvent>().is_some_and(|k| k.key() == "Escape") {
                        e.prevent_default();
                        on_close.emit(());
                    }
                })
            });
            move || {
                drop(listener);
                if let Some(el) = before.filter(|e| e.is_connected()) {
                    let _ = el.focus();
                }
            }
        });
    }
    let close = p.on_close.reform(|_| ());
    html! {
        <div class={classes!("present", p.class.clone())} role="dialog" aria-modal="true" aria-label={p.label.clone()} onclick={close.clone()}>
            <div class="present-body" ref={body} tabindex="-1" onclick={Callback::from(|e: MouseEvent| e.stop_propagation())}>
                <button class="close" onclick={close} aria-label="Close (Escape)" title="Close (Escape)">{ p.close_text.clone() }</button>
                { p.children.clone() }
            </div>
        </div>
    }
}
