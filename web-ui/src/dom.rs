//! The few browser facilities the app needs: clock, URL fragment, downloads.

use wasm_bindgen::JsCast;
use web_sys::{HtmlAnchorElement, HtmlCanvasElement};

fn window() -> web_sys::Window {
    web_sys::window().expect("a browser window")
}

/// Milliseconds from a monotonic clock.
pub fn now_ms() -> f64 {
    window().performance().map_or_else(js_sys::Date::now, |p| p.now())
}

pub fn location_hash() -> String {
    window().location().hash().unwrap_or_default()
}

/// Rewrites the URL fragment without adding a history entry.
pub fn replace_hash(fragment: &str) {
    if let Ok(h) = window().history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("#{fragment}")));
    }
}

pub fn full_url() -> String {
    window().location().href().unwrap_or_default()
}

/// Offers `content` as a file download.
pub fn download_text(filename: &str, mime: &str, content: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(content));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)
        .map_err(|_| "cannot build the file")?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| "cannot link the file")?;
    let result = click_link(filename, &url);
    let _ = web_sys::Url::revoke_object_url(&url);
    result
}

/// Offers a canvas as a PNG download.
pub fn download_png(filename: &str, canvas: &HtmlCanvasElement) -> Result<(), String> {
    let url = canvas.to_data_url_with_type("image/png").map_err(|_| "cannot encode the chart")?;
    click_link(filename, &url)
}

fn click_link(filename: &str, href: &str) -> Result<(), String> {
    let doc = window().document().ok_or("no document")?;
    let a: HtmlAnchorElement =
        doc.create_element("a").map_err(|_| "no anchor")?.dyn_into().map_err(|_| "no anchor")?;
    a.set_href(href);
    a.set_download(filename);
    a.click();
    Ok(())
}

/// Copies text to the clipboard (best effort; the link also stays in the address bar).
pub fn copy_to_clipboard(text: &str) {
    let _ = window().navigator().clipboard().write_text(text);
}

/// A named point on the page's performance timeline (read by benchmarks and devtools).
pub fn mark(name: &str) {
    if let Some(p) = window().performance() {
        let _ = p.mark(name);
    }
}
