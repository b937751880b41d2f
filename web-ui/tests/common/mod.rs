//! What the page tests share: a fresh host for the app, waiting for it to render, finding,
//! typing and clicking.
#![allow(dead_code)] // each test file uses its own share of these

use gloo::timers::future::TimeoutFuture;
use wasm_bindgen::JsCast;
use web_sys::{Element, EventInit, HtmlInputElement, HtmlSelectElement};

pub fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// A fresh host element and a clean URL for each test.
pub fn host() -> Element {
    web_ui::dom::replace_hash("");
    let h = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&h).unwrap();
    h
}

pub async fn settle() {
    TimeoutFuture::new(30).await;
}

/// Waits (up to 3 s) for `cond`: a busy machine may take more than one settle to render.
pub async fn until(cond: impl Fn() -> bool) -> bool {
    for _ in 0..100 {
        if cond() {
            return true;
        }
        settle().await;
    }
    cond()
}

pub fn find(host: &Element, sel: &str) -> Element {
    host.query_selector(sel).unwrap().unwrap_or_else(|| panic!("no element matches {sel}"))
}

pub fn fire(el: &Element, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict(kind, &init).unwrap();
    el.dispatch_event(&ev).unwrap();
}

pub async fn type_into(host: &Element, name: &str, text: &str) {
    let input: HtmlInputElement = find(host, &format!("input[name='{name}']")).dyn_into().unwrap();
    input.set_value(text);
    fire(&input, "input");
    settle().await;
}

pub async fn choose_preset(host: &Element, key: &str) {
    let select: HtmlSelectElement = find(host, "[data-testid=preset-select]").dyn_into().unwrap();
    select.set_value(key);
    assert_eq!(select.value(), key, "{key} is offered");
    fire(&select, "change");
    settle().await;
    let notice = host.query_selector(".notice").unwrap().map(|n| n.text_content().unwrap());
    assert_eq!(select.value(), key, "{key} loaded (notice: {notice:?})");
}

pub async fn click(host: &Element, testid: &str) {
    find(host, &format!("[data-testid={testid}]")).dyn_into::<web_sys::HtmlElement>().unwrap().click();
    settle().await;
}

pub async fn press_key(el: &Element, key: &str) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    el.dispatch_event(&ev).unwrap();
    settle().await;
}

pub fn input_value(host: &Element, name: &str) -> String {
    find(host, &format!("input[name='{name}']")).dyn_into::<HtmlInputElement>().unwrap().value()
}
