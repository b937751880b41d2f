//! The app in headless Chromium: a preset runs and fills the charts and the summary, an
//! invalid value is marked and blocks Run, and the URL carries the scenario.
#![cfg(target_arch = "wasm32")]

use gloo::timers::future::TimeoutFuture;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, EventInit, HtmlButtonElement, HtmlInputElement, HtmlSelectElement};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// A fresh host element and a clean URL for each test.
fn host() -> Element {
    web_ui::dom::replace_hash("");
    let h = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&h).unwrap();
    h
}

async fn settle() {
    TimeoutFuture::new(30).await;
}

fn find(host: &Element, sel: &str) -> Element {
    host.query_selector(sel).unwrap().unwrap_or_else(|| panic!("no element matches {sel}"))
}

fn fire(el: &Element, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict(kind, &init).unwrap();
    el.dispatch_event(&ev).unwrap();
}

async fn type_into(host: &Element, name: &str, text: &str) {
    let input: HtmlInputElement = find(host, &format!("input[name='{name}']")).dyn_into().unwrap();
    input.set_value(text);
    fire(&input, "input");
    settle().await;
}

async fn choose_preset(host: &Element, key: &str) {
    let select: HtmlSelectElement = find(host, "[data-testid=preset-select]").dyn_into().unwrap();
    select.set_value(key);
    fire(&select, "change");
    settle().await;
}

async fn click(host: &Element, testid: &str) {
    find(host, &format!("[data-testid={testid}]")).dyn_into::<web_sys::HtmlElement>().unwrap().click();
    settle().await;
}

#[wasm_bindgen_test]
async fn the_red_preset_steps_fill_the_charts_and_the_summary_shows_numbers() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "red-study/gentle").await;
    for _ in 0..25 {
        click(&host, "step").await;
    }
    let charts = find(&host, ".charts");
    let samples: usize = charts.get_attribute("data-samples").unwrap().parse().unwrap();
    assert_eq!(samples, 25, "one sample per step");
    assert!(charts.get_attribute("data-drops").unwrap().parse::<usize>().unwrap() > 0);
    assert_eq!(host.query_selector_all("canvas").unwrap().length(), 8);
    let cell = find(&host, "[data-testid=summary-table] tr:nth-child(2) td.num").text_content().unwrap();
    let goodput: f64 = cell.trim().parse().unwrap_or_else(|_| panic!("not a number: {cell}"));
    // 1.5 s after the warm-up, in the slow-start aftermath: some goodput, below 2.5× the link.
    assert!(goodput > 0.05 && goodput < 5.0, "goodput {goodput}");
    assert!(find(&host, "[data-testid=clock]").text_content().unwrap().contains("t = 2.5"));
}

#[wasm_bindgen_test]
async fn running_at_full_speed_finishes_the_study_in_the_browser() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "red-study/red").await;
    type_into(&host, "duration_s", "5").await;
    let speed: HtmlSelectElement = find(&host, "[data-testid=speed]").dyn_into().unwrap();
    speed.set_value("max");
    fire(&speed, "change");
    click(&host, "run").await;
    for _ in 0..200 {
        if find(&host, "[data-testid=clock]").text_content().unwrap().contains("t = 5.0") {
            break;
        }
        TimeoutFuture::new(20).await;
    }
    assert!(find(&host, "[data-testid=clock]").text_content().unwrap().contains("t = 5.0 / 5 s"));
    let samples: usize = find(&host, ".charts").get_attribute("data-samples").unwrap().parse().unwrap();
    assert_eq!(samples, 50);
}

#[wasm_bindgen_test]
async fn an_invalid_value_is_marked_kept_and_blocks_run() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "red-study/red").await;
    type_into(&host, "bottleneck.rate_bps", "-5").await;
    let msg = find(&host, ".field-error[data-field='bottleneck.rate_bps']").text_content().unwrap();
    assert!(msg.contains("-5"), "{msg}");
    let input: HtmlInputElement = find(&host, "input[name='bottleneck.rate_bps']").dyn_into().unwrap();
    assert_eq!(input.value(), "-5", "what the user typed stays");
    let run: HtmlButtonElement = find(&host, "[data-testid=run]").dyn_into().unwrap();
    assert!(run.disabled());
    type_into(&host, "bottleneck.rate_bps", "0").await;
    assert!(find(&host, ".field-error[data-field='bottleneck.rate_bps']")
        .text_content()
        .unwrap()
        .contains("allowed"));
    type_into(&host, "bottleneck.rate_bps", "3000000").await;
    let run: HtmlButtonElement = find(&host, "[data-testid=run]").dyn_into().unwrap();
    assert!(!run.disabled());
}

#[wasm_bindgen_test]
async fn the_url_round_trip_restores_an_identical_scenario() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "red-study/ared-nic").await;
    type_into(&host, "seed", "99").await;
    type_into(&host, "flows[0].access_delay_ms", "7.5").await;
    // The edits are in the address bar; a page opened with it restores the same scenario.
    let restored = web_ui::share::from_fragment(&web_ui::dom::location_hash()).unwrap().unwrap();
    let mut expected = sim_core::scenario::preset("red-study", Some("ared-nic")).unwrap();
    expected.seed = 99;
    expected.flows[0].access_delay_ms = 7.5;
    assert_eq!(restored, expected);
    let second = host_keeping_hash();
    let _app2 = web_ui::mount(second.clone());
    settle().await;
    let seed: HtmlInputElement = find(&second, "input[name='seed']").dyn_into().unwrap();
    assert_eq!(seed.value(), "99");
}

fn host_keeping_hash() -> Element {
    let h = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&h).unwrap();
    h
}
