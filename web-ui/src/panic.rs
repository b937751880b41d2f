//! A panic shows a visible banner with its message instead of leaving a dead page.

use wasm_bindgen::JsCast;

pub const BANNER_ID: &str = "panic-banner";

/// Installs the hook once per page (several apps may mount in one page, e.g. in tests).
pub fn install() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| std::panic::set_hook(Box::new(|info| {
        let msg = info.to_string();
        web_sys::console::error_1(&msg.clone().into());
        show_banner(&format!("AQM Lab hit an internal error and stopped: {msg}. Reload the page to continue; your scenario is in the address bar."));
    })));
}

pub fn show_banner(text: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let banner = match doc.get_element_by_id(BANNER_ID) {
        Some(b) => b,
        None => {
            let Ok(b) = doc.create_element("div") else { return };
            b.set_id(BANNER_ID);
            b.set_attribute("role", "alert").ok();
            if let Some(body) = doc.body() {
                let _ = body.insert_before(&b, body.first_child().as_ref());
            }
            b
        }
    };
    if let Some(el) = banner.dyn_ref::<web_sys::HtmlElement>() {
        el.set_inner_text(text);
    }
}
