//! The few browser facilities the app needs: clock, URL and history, downloads, dialogs.

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

/// The query string (`?speed=max&autorun`).
pub fn query() -> String {
    window().location().search().unwrap_or_default()
}

/// Rewrites the URL fragment without adding a history entry.
pub fn replace_hash(fragment: &str) {
    if let Ok(h) = window().history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("#{fragment}")));
    }
}

/// Sets the URL fragment as a new history entry (Back returns to the previous scenario).
pub fn push_hash(fragment: &str) {
    if let Ok(h) = window().history() {
        let _ = h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("#{fragment}")));
    }
}

pub fn full_url() -> String {
    window().location().href().unwrap_or_default()
}

/// Device pixels per CSS pixel (2 or 3 on phones and retina screens).
pub fn pixel_ratio() -> f64 {
    window().device_pixel_ratio().max(1.0)
}

/// Asks the user; false when dialogs are unavailable.
pub fn confirm(text: &str) -> bool {
    window().confirm_with_message(text).unwrap_or(false)
}

/// Offers `content` as a file download.
pub fn download_text(filename: &str, mime: &str, content: &str) -> Result<(), String> {
    download_bytes(filename, mime, content.as_bytes())
}

pub fn download_bytes(filename: &str, mime: &str, content: &[u8]) -> Result<(), String> {
    let bytes = js_sys::Uint8Array::from(content);
    let parts = js_sys::Array::of1(&bytes);
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &opts)
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

/// Removes the "loading" placeholder that index.html shows while the wasm downloads.
pub fn remove_loading() {
    if let Some(el) = window().document().and_then(|d| d.get_element_by_id("loading")) {
        el.remove();
    }
}

/// Brings the editor input named `path` into view and focuses it, opening every folded
/// section around it (the whole editor on a phone). Looked up in the app that `from` is in
/// (a page may hold several); a path without an input of its own goes to the nearest
/// enclosing one that has one (`bottleneck.queue` to the disc's menu).
pub fn focus_field(from: &web_sys::Element, path: &str) -> bool {
    let Some(root) = from.closest(".app").ok().flatten() else { return false };
    let find = |name: &str| {
        let q = format!("[name=\"{}\"]", name.replace('\\', "\\\\").replace('"', "\\\""));
        root.query_selector(&q).ok().flatten()
    };
    let mut p = path.to_string();
    let el = loop {
        if let Some(el) = find(&p).or_else(|| find(&format!("{p}.type"))) {
            break el;
        }
        match p.rfind(['.', '[']) {
            Some(i) => p.truncate(i),
            None => return false,
        }
    };
    let mut up = el.parent_element();
    while let Some(e) = up {
        if e.tag_name().eq_ignore_ascii_case("details") {
            let _ = e.set_attribute("open", "");
        }
        up = e.parent_element();
    }
    el.scroll_into_view();
    el.dyn_ref::<web_sys::HtmlElement>().is_some_and(|h| h.focus().is_ok())
}

/// Brings the scenario editor of the app that `from` is in into view, unfolded, and focuses
/// its first input (the jump from the run controls on a phone, where it is far below).
pub fn show_editor(from: &web_sys::Element) -> bool {
    let Some(editor) =
        from.closest(".app").ok().flatten().and_then(|a| a.query_selector("aside.editor").ok().flatten())
    else {
        return false;
    };
    if let Ok(Some(d)) = editor.query_selector("details.editor-toggle") {
        let _ = d.set_attribute("open", "");
    }
    editor.scroll_into_view();
    let first = editor.query_selector("input, select").ok().flatten();
    first.and_then(|f| f.dyn_into::<web_sys::HtmlElement>().ok()).is_some_and(|h| h.focus().is_ok())
}
