//! The app in headless Chromium (the engine runs in the page: `mount` asks for it): a preset
//! runs and fills the charts and the summary with the same figures as the simulator, an
//! invalid value is marked and blocks Run, the URL carries the scenario, and the Warbler,
//! Train and Playground tabs do their job.
#![cfg(target_arch = "wasm32")]

use gloo::timers::future::TimeoutFuture;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlButtonElement, HtmlInputElement, HtmlSelectElement};

wasm_bindgen_test_configure!(run_in_browser);

mod common;
use common::*;

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
    assert!(host.query_selector_all("canvas").unwrap().length() >= 10, "every single-run chart");
    assert!(find(&host, "[data-testid=clock]").text_content().unwrap().contains("t = 2.5"));
    // The page's summary is the simulator's: the same run stepped natively to 2.5 s.
    let cell = find(&host, "[data-testid=summary-table] tr:nth-child(2) td.num").text_content().unwrap();
    let sc = sim_core::scenario::preset("red-study", Some("gentle")).unwrap();
    let mut sim = sim_core::sim::Simulation::new(&sc).unwrap();
    sim.step_until(sim_core::time::SimTime::from_secs_f64(2.5));
    assert_eq!(cell.trim(), format!("{:.4}", sim.summary().throughput.mean_bps / 1e6));
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
    type_into(&host, "links.bottleneck.rate_bps", "-5").await;
    let msg = find(&host, ".field-error[data-field='links.bottleneck.rate_bps']").text_content().unwrap();
    assert!(msg.contains("-5"), "{msg}");
    let input: HtmlInputElement = find(&host, "input[name='links.bottleneck.rate_bps']").dyn_into().unwrap();
    assert_eq!(input.value(), "-5", "what the user typed stays");
    assert!(run_becomes(&host, true).await);
    type_into(&host, "links.bottleneck.rate_bps", "0").await;
    assert!(find(&host, ".field-error[data-field='links.bottleneck.rate_bps']")
        .text_content()
        .unwrap()
        .contains("allowed"));
    type_into(&host, "links.bottleneck.rate_bps", "3000000").await;
    assert!(run_becomes(&host, false).await);
}

#[wasm_bindgen_test]
async fn the_url_round_trip_restores_an_identical_scenario() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "red-study/ared-nic1").await;
    type_into(&host, "seed", "99").await;
    type_into(&host, "flows[0].access_delay_ms", "7.5").await;
    // The edits are in the address bar; a page opened with it restores the same scenario.
    let restored = web_ui::share::from_fragment(&web_ui::dom::location_hash()).unwrap().unwrap();
    let mut expected = sim_core::scenario::preset("red-study", Some("ared-nic1")).unwrap();
    expected.seed = 99;
    expected.flows[0].access_delay_ms = 7.5;
    assert_eq!(restored.scenario, expected);
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

async fn choose(host: &Element, sel: &str, value: &str) {
    let select: HtmlSelectElement = find(host, sel).dyn_into().unwrap();
    select.set_value(value);
    fire(&select, "change");
    settle().await;
}

#[wasm_bindgen_test]
async fn the_cca_menu_shows_each_groups_algorithm() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "vegas-newreno-mix/7v1n-fifo").await;
    let sc = sim_core::scenario::preset("vegas-newreno-mix", Some("7v1n-fifo")).unwrap();
    for (i, g) in sc.flows.iter().enumerate() {
        let sel = format!("select[name='flows[{i}].cca.type']");
        // The editor follows the load a few frames later on a busy machine.
        for _ in 0..100 {
            if find(&host, &sel).dyn_into::<HtmlSelectElement>().unwrap().value() == g.cca.tag() {
                break;
            }
            settle().await;
        }
        let menu: HtmlSelectElement = find(&host, &sel).dyn_into().unwrap();
        assert_eq!(menu.value(), g.cca.tag(), "group {i}");
    }
    // Switching a group's algorithm keeps the rest of the scenario and shows the new one.
    choose(&host, "select[name='flows[0].cca.type']", "cubic").await;
    let menu: HtmlSelectElement = find(&host, "select[name='flows[0].cca.type']").dyn_into().unwrap();
    assert_eq!(menu.value(), "cubic");
    assert!(find(&host, "[data-testid=modified]").text_content().unwrap().contains("Vegas/NewReno mixes"));
}

#[wasm_bindgen_test]
async fn compare_offers_every_registered_disc_and_runs_them_side_by_side() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "red-study/red").await;
    let toggle: HtmlInputElement = find(&host, "[data-testid=compare]").dyn_into().unwrap();
    toggle.set_checked(true);
    fire(&toggle, "change");
    settle().await;
    let offered = find(&host, "[data-testid=compare-discs]").text_content().unwrap();
    for (_, label) in web_ui::compare::discs() {
        assert!(offered.contains(label), "{label} missing from {offered}");
    }
    for _ in 0..5 {
        click(&host, "step").await;
    }
    let lanes = host.query_selector_all(".lane-picker option").unwrap().length();
    assert_eq!(lanes, 3, "red, ared and gentle side by side");
    assert!(host.query_selector("[data-chart=compare-queue]").unwrap().is_some());
}

#[wasm_bindgen_test]
async fn an_edited_preset_says_so_and_hides_the_papers_column() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "red-study/red").await;
    click(&host, "step").await;
    assert!(host.query_selector("[data-testid=modified]").unwrap().is_none());
    assert!(find(&host, "[data-testid=summary-table]").text_content().unwrap().contains("paper"));
    // Typed during the (paused) run and committed: a change of the run from now on, so the
    // run is no longer the paper's.
    type_into(&host, "links.bottleneck.rate_bps", "3000000").await;
    fire(&find(&host, "input[name='links.bottleneck.rate_bps']"), "change");
    settle().await;
    assert!(host.query_selector("[data-testid=modified]").unwrap().is_some());
    click(&host, "step").await;
    assert!(!find(&host, "[data-testid=summary-table]").text_content().unwrap().contains("paper"));
}

#[wasm_bindgen_test]
async fn following_a_shared_link_loads_its_scenario() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "red-study/red").await;
    let sc = sim_core::scenario::preset("dqn-dumbbell", Some("cubic")).unwrap();
    let origin = ("dqn-dumbbell".to_string(), "cubic".to_string());
    web_ui::dom::push_hash(&web_ui::share::to_fragment(&sc, Some(&origin), false));
    // pushState fires no hashchange; the browser does when a link is followed.
    web_sys::window().unwrap().dispatch_event(&web_sys::Event::new("hashchange").unwrap()).unwrap();
    // Every app the earlier tests mounted reloads too: give them time.
    for _ in 0..100 {
        settle().await;
        let select: HtmlSelectElement = find(&host, "[data-testid=preset-select]").dyn_into().unwrap();
        if select.value() != "red-study/red" {
            break;
        }
    }
    let select: HtmlSelectElement = find(&host, "[data-testid=preset-select]").dyn_into().unwrap();
    let notice = host.query_selector(".notice").unwrap().map(|n| n.text_content().unwrap());
    assert_eq!(
        select.value(),
        "dqn-dumbbell/cubic",
        "hash {} notice {notice:?}",
        web_ui::dom::location_hash()
    );
}

#[wasm_bindgen_test]
async fn the_scrubber_moves_the_window_summary_back_in_time() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "red-study/red").await;
    for _ in 0..20 {
        click(&host, "step").await;
    }
    let scrubber: HtmlInputElement = find(&host, "[data-testid=scrubber]").dyn_into().unwrap();
    scrubber.set_value("1");
    fire(&scrubber, "input");
    settle().await;
    assert!(find(&host, ".scrubber").text_content().unwrap().contains("t = 1.0 s"));
    assert!(find(&host, "[data-testid=window-table]").text_content().unwrap().contains("1.0 s"));
}

#[wasm_bindgen_test]
async fn warbler_decisions_appear_once_it_switches_on() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "cubic-vegas-2q/warbler").await;
    type_into(&host, "links.bottleneck.queue.control.activation_s", "1").await;
    type_into(&host, "warmup_s", "0.5").await;
    type_into(&host, "duration_s", "3.5").await;
    type_into(&host, "links.bottleneck.rate_bps", "10000000").await;
    click(&host, "tab-warbler").await;
    choose(&host, "[data-testid=speed]", "max").await;
    click(&host, "run").await;
    for _ in 0..1500 {
        if find(&host, ".controls .progress").text_content().unwrap().contains("finished") {
            break;
        }
        TimeoutFuture::new(20).await;
    }
    let table = find(&host, "[data-testid=warbler-decisions]").text_content().unwrap();
    // Activation at 1 s, a decision every 1 s control period: at 1, 2 and 3 s.
    assert!(table.contains("Warbler's last decisions (3 in all"), "{table}");
    assert!(host.query_selector("[data-chart=queue-map]").unwrap().is_some(), "the flow → queue map");
    // Warbler's own charts come first, right under its controls, the generic ones after.
    let charts = host.query_selector_all("[data-chart]").unwrap();
    let first = charts.get(0).unwrap().dyn_into::<Element>().unwrap().get_attribute("data-chart");
    assert_eq!(first.as_deref(), Some("queue-map"));
    let lead = find(&host, "[data-testid=warbler-charts]").text_content().unwrap();
    assert!(lead.contains("weights") || lead.contains("Weights"), "{lead}");
}

#[wasm_bindgen_test]
async fn training_two_episodes_draws_the_curve_and_gives_weights() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    click(&host, "tab-train").await;
    type_into(&host, "episodes", "2").await;
    click(&host, "train-start").await;
    for _ in 0..1500 {
        if find(&host, "[data-testid=train-status]").text_content().unwrap().contains("digest") {
            break;
        }
        TimeoutFuture::new(20).await;
    }
    let status = find(&host, "[data-testid=train-status]").text_content().unwrap();
    assert!(status.contains("2 episodes") && status.contains("digest"), "{status}");
    assert!(host.query_selector("[data-chart=train-return]").unwrap().is_some());
    // Training's own controls come first: the scenario's run controls are not there.
    assert!(host.query_selector("[data-testid=run]").unwrap().is_none());
    // Its Enlarge works, and Escape closes it.
    find(&host, "[data-chart=train-return] .fullscreen").dyn_into::<web_sys::HtmlElement>().unwrap().click();
    settle().await;
    assert!(host.query_selector(".present [data-chart=train-return]").unwrap().is_some());
    press_escape(&find(&host, ".present")).await;
    assert!(host.query_selector(".present").unwrap().is_none());
}

/// A keydown of Escape from `el`, bubbling as a real key press does.
async fn press_escape(el: &Element) {
    press_key(el, "Escape").await;
}

/// Ticks a disc in Compare's picker by its label.
async fn tick_disc(host: &Element, label: &str) {
    let labels = host.query_selector_all("[data-testid=compare-discs] label.disc").unwrap();
    let found = (0..labels.length())
        .filter_map(|i| labels.get(i)?.dyn_into::<Element>().ok())
        .find(|l| l.text_content().unwrap_or_default().trim() == label)
        .unwrap_or_else(|| panic!("no disc labelled {label}"));
    let input: HtmlInputElement = found.query_selector("input").unwrap().unwrap().dyn_into().unwrap();
    input.set_checked(true);
    fire(&input, "change");
    settle().await;
}

async fn run_to_the_end(host: &Element) {
    choose(host, "[data-testid=speed]", "max").await;
    click(host, "run").await;
    for _ in 0..3000 {
        if find(host, ".controls .progress").text_content().unwrap().contains("finished") {
            return;
        }
        TimeoutFuture::new(20).await;
    }
    panic!("the run did not finish: {}", find(host, ".controls .progress").text_content().unwrap());
}

/// Issue 20, item 8: CoDel's line lay exactly under FQ-CoDel's and looked like one. On the
/// page's first screen (the bufferbloat preset in Compare) with FQ-CoDel ticked too, the
/// side-by-side delay chart says they coincide, in its text alternative and its data; FIFO
/// stands apart, and in FIFO's own delay chart the long flows' lines coincide.
#[wasm_bindgen_test]
async fn compare_says_codel_and_fq_codel_coincide_on_the_bufferbloat_preset() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    assert!(find(&host, "[data-testid=comparing]").text_content().unwrap().contains("FIFO and CoDel"));
    tick_disc(&host, "FQ-CoDel").await;
    run_to_the_end(&host).await;
    let delay = find(&host, "[data-chart=compare-delay]");
    let said = delay.get_attribute("data-coincide").unwrap_or_default();
    assert_eq!(said, "CoDel = FQ-CoDel here", "lanes by their labels");
    let alt = find(&host, "[data-chart=compare-delay] canvas").get_attribute("aria-label").unwrap();
    assert!(alt.contains("; CoDel = FQ-CoDel"), "{alt}");
    let fifo = find(&host, "[data-chart=fifo-delay]").get_attribute("data-coincide").unwrap_or_default();
    // The upload and the ping wait in the same FIFO (the page fetches' connections come and go).
    assert_eq!(fifo, "flows 0 and 1 coincide");
}

/// Escape closes an enlarged chart even with the focus on the Enlarge button (the page's
/// own shortcut listener leaves keys typed on buttons alone); the projector view shows the
/// charts ticked for it, and Escape leaves it too.
#[wasm_bindgen_test]
async fn escape_closes_an_enlarged_chart_from_its_button_and_the_projector_shows_the_picked() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "red-study/red").await;
    for _ in 0..5 {
        click(&host, "step").await;
    }
    let enlarge: web_sys::HtmlElement = find(&host, "[data-chart=goodput] .fullscreen").dyn_into().unwrap();
    enlarge.focus().unwrap();
    enlarge.click();
    settle().await;
    assert!(host.query_selector(".present [data-chart=goodput]").unwrap().is_some(), "enlarged");
    press_escape(&enlarge).await;
    assert!(host.query_selector(".present").unwrap().is_none(), "Escape on the Enlarge button closed it");
    let projector: HtmlButtonElement = find(&host, "[data-testid=projector]").dyn_into().unwrap();
    assert!(projector.disabled(), "nothing picked yet");
    for chart in ["queue", "delay", "goodput", "fairness"] {
        let pick: HtmlInputElement =
            find(&host, &format!("[data-chart={chart}] .pick input")).dyn_into().unwrap();
        if !pick.disabled() {
            pick.set_checked(true);
            fire(&pick, "change");
            settle().await;
        }
    }
    let fourth: HtmlInputElement = find(&host, "[data-chart=fairness] .pick input").dyn_into().unwrap();
    assert!(fourth.disabled() && !fourth.checked(), "three at most");
    click(&host, "projector").await;
    let shown = host.query_selector_all("[data-testid=projected] .chart").unwrap().length();
    assert_eq!(shown, 3);
    // The lecture view: the preset's points to watch one at a time, the packet view below.
    let callout = || find(&host, "[data-testid=callout]").text_content().unwrap();
    assert!(callout().starts_with("1 / 3") && callout().contains("queue chart"), "{}", callout());
    let shown = find(&host, "[data-testid=projected]");
    press_key(&shown, "ArrowRight").await;
    assert!(callout().starts_with("2 / 3") && callout().contains("EWMA"), "{}", callout());
    press_key(&shown, "ArrowLeft").await;
    assert!(callout().starts_with("1 / 3"));
    assert!(host.query_selector("[data-testid=projected] [data-testid=packet-canvas]").unwrap().is_some());
    press_escape(&find(&host, "[data-testid=projected]")).await;
    assert!(host.query_selector("[data-testid=projected]").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn the_playground_clusters_what_is_typed() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    click(&host, "tab-playground").await;
    type_into_el(&host, "[data-testid=playground-values]", "1, 2, 100, 110, 5000").await;
    type_into_el(&host, "input[aria-label=K]", "2").await;
    let ssre = find(&host, "[data-testid=playground-ssre]").text_content().unwrap();
    let sse = find(&host, "[data-testid=playground-sse]").text_content().unwrap();
    assert!(sse.starts_with("SSE: {1, 2, 100, 110} {5000}"), "{sse}");
    assert!(ssre.starts_with("SSRE: {1, 2} {100, 110, 5000}"), "{ssre}");
}

async fn type_into_el(host: &Element, sel: &str, text: &str) {
    let input: HtmlInputElement = find(host, sel).dyn_into().unwrap();
    input.set_value(text);
    fire(&input, "input");
    settle().await;
}

fn run_disabled(host: &Element) -> bool {
    find(host, "[data-testid=run]").dyn_into::<HtmlButtonElement>().unwrap().disabled()
}

/// Whether Run's state comes to be `disabled` within about 3 s: on a loaded machine the
/// editor's checks and the redraw can take longer than one settle.
async fn run_becomes(host: &Element, disabled: bool) -> bool {
    for _ in 0..100 {
        if run_disabled(host) == disabled {
            return true;
        }
        settle().await;
    }
    false
}

/// The scenario the address bar carries (it follows every valid edit).
fn scenario_in_url() -> sim_core::scenario::Scenario {
    web_ui::share::from_fragment(&web_ui::dom::location_hash()).unwrap().unwrap().scenario
}

#[wasm_bindgen_test]
async fn units_typed_are_converted_a_capital_b_being_a_byte() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "red-study/red").await;
    type_into(&host, "links.bottleneck.rate_bps", "2 MB/s").await;
    type_into(&host, "links.bottleneck.delay_ms", "0.02 s").await;
    assert!(host.query_selector(".field-error").unwrap().is_none(), "both are read");
    assert_eq!(input_value(&host, "links.bottleneck.rate_bps"), "2 MB/s", "what was typed stays");
    let sc = scenario_in_url();
    assert_eq!(sc.bottleneck().rate_bps, 16_000_000, "2 MB/s is 16 Mbit/s, not 2");
    assert_eq!(sc.bottleneck().delay_ms.to_bits(), 20f64.to_bits());
    // A unit the field cannot take is refused with the units it takes.
    type_into(&host, "links.bottleneck.rate_bps", "2 MB").await;
    let msg = find(&host, ".field-error[data-field='links.bottleneck.rate_bps']").text_content().unwrap();
    assert!(msg.contains("takes a rate") && msg.contains("Mbit/s"), "{msg}");
    assert!(run_becomes(&host, true).await);
}

#[wasm_bindgen_test]
async fn invalid_text_survives_remove_duplicate_and_disc_switches_and_keeps_run_disabled() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "red-study/red").await;
    click(&host, "add-flow").await;
    type_into(&host, "flows[1].count", "lots").await;
    assert!(run_becomes(&host, true).await);
    // Duplicating group 1 puts a copy after it: group 2's text is group 3's now.
    click(&host, "duplicate-flow-0").await;
    assert_eq!(input_value(&host, "flows[2].count"), "lots");
    assert!(host.query_selector(".field-error[data-field='flows[2].count']").unwrap().is_some());
    assert!(run_becomes(&host, true).await, "the text was never fixed");
    // Removing group 1 moves it up again.
    click(&host, "remove-flow-0").await;
    assert_eq!(input_value(&host, "flows[1].count"), "lots");
    assert!(run_becomes(&host, true).await);
    // A disc's refused text goes aside with the disc and comes back with it.
    type_into(&host, "links.bottleneck.queue.max_p", "abc").await;
    choose(&host, "select[name='links.bottleneck.queue.type']", "codel").await;
    assert!(host.query_selector("input[name='links.bottleneck.queue.max_p']").unwrap().is_none());
    assert!(run_becomes(&host, true).await, "the flow group's text still blocks Run");
    choose(&host, "select[name='links.bottleneck.queue.type']", "red").await;
    assert_eq!(input_value(&host, "links.bottleneck.queue.max_p"), "abc");
    assert!(run_becomes(&host, true).await);
    let list = find(&host, "[data-testid=errors]").text_content().unwrap();
    assert!(list.contains("Flow group 2 › Flows") && list.contains("Queue disc › max_p"), "{list}");
    assert!(!list.contains("flows[") && !list.contains('\0'), "{list}");
    // Fixed, the group no longer blocks; the disc not selected does not either.
    type_into(&host, "flows[1].count", "2").await;
    assert!(run_becomes(&host, true).await, "RED's max_p is still 'abc'");
    choose(&host, "select[name='links.bottleneck.queue.type']", "codel").await;
    assert!(run_becomes(&host, false).await, "CoDel does not use RED's max_p");
    choose(&host, "select[name='links.bottleneck.queue.type']", "red").await;
    assert!(run_becomes(&host, true).await);
    assert_eq!(input_value(&host, "links.bottleneck.queue.max_p"), "abc");
}

#[wasm_bindgen_test]
async fn an_entry_of_the_list_takes_you_to_its_field_in_a_folded_section() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "red-study/red").await;
    type_into(&host, "tcp.mss_bytes", "big").await;
    let entry = find(&host, "[data-testid=errors] button.problem[data-field='tcp.mss_bytes']");
    assert!(entry.text_content().unwrap().starts_with("TCP › MSS "), "{:?}", entry.text_content());
    let tcp = find(&host, "input[name='tcp.mss_bytes']").closest("details").unwrap().unwrap();
    assert!(!tcp.has_attribute("open"), "the TCP section starts folded");
    entry.dyn_into::<web_sys::HtmlElement>().unwrap().click();
    settle().await;
    assert!(tcp.has_attribute("open"));
    let active = document().active_element().unwrap();
    assert_eq!(active.get_attribute("name").as_deref(), Some("tcp.mss_bytes"));
}

#[wasm_bindgen_test]
async fn cancelling_a_preset_pick_keeps_the_menu_on_the_scenario_still_loaded() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "red-study/red").await;
    type_into(&host, "links.bottleneck.rate_bps", "3000000").await;
    let window = web_sys::window().unwrap();
    let original = js_sys::Reflect::get(&window, &"confirm".into()).unwrap();
    let cancel = wasm_bindgen::closure::Closure::<dyn Fn() -> bool>::new(|| false);
    js_sys::Reflect::set(&window, &"confirm".into(), cancel.as_ref()).unwrap();
    let select: HtmlSelectElement = find(&host, "[data-testid=preset-select]").dyn_into().unwrap();
    select.set_value("red-study/ared");
    fire(&select, "change");
    settle().await;
    js_sys::Reflect::set(&window, &"confirm".into(), &original).unwrap();
    let select: HtmlSelectElement = find(&host, "[data-testid=preset-select]").dyn_into().unwrap();
    assert_eq!(select.value(), "", "the menu says 'modified from …', not the refused preset");
    let shown = select.query_selector("option:checked").unwrap().unwrap().text_content().unwrap();
    assert!(shown.starts_with("modified from"), "{shown}");
    assert_eq!(input_value(&host, "links.bottleneck.rate_bps"), "3000000", "nothing was replaced");
}

#[wasm_bindgen_test]
async fn import_is_a_button_tab_reaches_and_tags_show_as_labels() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "red-study/ared-nic1").await;
    let import = find(&host, "[data-testid=import]");
    assert_eq!(import.tag_name(), "BUTTON");
    assert!(import.dyn_into::<web_sys::HtmlElement>().unwrap().tab_index() >= 0);
    let picked = find(&host, "[data-testid=preset-select]").dyn_into::<HtmlSelectElement>().unwrap();
    let shown = picked.query_selector("option:checked").unwrap().unwrap().text_content().unwrap();
    assert_eq!(shown, "Adaptive RED · 1-packet device queue");
    let editor = find(&host, "aside.editor").text_content().unwrap();
    assert!(!editor.contains("new_reno") && !editor.contains("fq_codel"), "tags in the editor");
}

/// The names of the editor's controls that stick out of its box.
fn sticking_out(host: &Element) -> (u32, Vec<String>) {
    let aside = find(host, "aside.editor").get_bounding_client_rect();
    let controls =
        host.query_selector_all("aside.editor input, aside.editor select, aside.editor button").unwrap();
    let mut wide = Vec::new();
    for i in 0..controls.length() {
        let el: Element = controls.item(i).unwrap().dyn_into().unwrap();
        let r = el.get_bounding_client_rect();
        if r.width() > 0.0 && r.right() > aside.right() + 0.5 {
            let name = el.get_attribute("name").unwrap_or_else(|| el.tag_name());
            wide.push(format!("{name} ({:.0} > {:.0} px)", r.right(), aside.right()));
        }
    }
    (controls.length(), wide)
}

#[wasm_bindgen_test]
async fn every_editor_control_fits_the_editors_box() {
    // The page's own stylesheet, for this test only.
    let style = document().create_element("style").unwrap();
    style.set_text_content(Some(include_str!("../../static/style.css")));
    document().head().unwrap().append_child(&style).unwrap();
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "cubic-bbr-vegas-3q/warbler").await;
    // The editor as narrow as its column on a wide screen (420 px) and on a phone.
    let mut found = Vec::new();
    for width in [420, 360] {
        host.set_attribute("style", &format!("width: {width}px")).unwrap();
        settle().await;
        let (n, wide) = sticking_out(&host);
        assert!(n > 20);
        found.extend(wide.into_iter().map(|w| format!("{width}: {w}")));
    }
    style.remove();
    host.remove();
    assert!(found.is_empty(), "wider than the editor: {found:?}");
}

fn chart_text(host: &Element, id: &str) -> String {
    find(host, &format!("[data-chart='{id}'] figcaption")).text_content().unwrap()
}

/// Item 1: the first screen compares FIFO and CoDel on the bufferbloat preset, with the
/// delay side by side; over ns-3's device queue the queue chart draws it and the summary
/// splits the delay between the disc and the device queue.
#[wasm_bindgen_test]
async fn the_first_screen_compares_fifo_and_codel_and_every_queue_is_shown() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    assert!(find(&host, "[data-testid=comparing]").text_content().unwrap().contains("FIFO and CoDel"));
    // Unedited, so picking another preset below needs no confirmation.
    for _ in 0..20 {
        click(&host, "step").await;
    }
    assert_eq!(host.query_selector_all(".lane-picker option").unwrap().length(), 2);
    assert!(chart_text(&host, "compare-delay").contains("FIFO, CoDel"), "lanes by their labels");
    assert!(
        host.query_selector("[data-chart='fifo-delay']").unwrap().is_some(),
        "each lane's delay over time"
    );
    choose_preset(&host, "red-study/red").await;
    for _ in 0..30 {
        click(&host, "step").await;
    }
    assert!(chart_text(&host, "queue").contains("in the device queue"));
    let summary = find(&host, "[data-testid=summary-table]").text_content().unwrap();
    for row in ["of which in the queue disc", "of which in the device queue", "Wait in senders' access links"]
    {
        assert!(summary.contains(row), "{row} missing from the summary");
    }
    assert!(chart_text(&host, "delay").contains("Queueing delay at the bottleneck"));
}

/// Item 2: an edit of a field that can change, committed during a run, becomes a timed
/// change now: it is listed, marked on the time charts, the field shows its starting
/// value again; a field that cannot change says so; the finished run can run again.
#[wasm_bindgen_test]
async fn an_edit_during_a_run_becomes_a_timed_change_and_the_run_can_run_again() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "bufferbloat/fifo").await;
    type_into(&host, "duration_s", "10").await;
    for _ in 0..40 {
        click(&host, "step").await;
    }
    type_into(&host, "links.bottleneck.queue.limit.packets", "50").await;
    fire(&find(&host, "input[name='links.bottleneck.queue.limit.packets']"), "change");
    settle().await;
    settle().await;
    assert!(host.query_selector("[data-testid=remove-change-0]").unwrap().is_some(), "listed");
    let input: HtmlInputElement =
        find(&host, "input[name='links.bottleneck.queue.limit.packets']").dyn_into().unwrap();
    assert_eq!(input.value(), "1000", "the field shows the value at the start");
    assert!(
        find(&host, ".notice").text_content().unwrap().contains("limit → 50 packets")
            || find(&host, ".notice").text_content().unwrap().contains("50 packets")
    );
    click(&host, "step").await;
    assert!(
        chart_text(&host, "queue").contains("limit → 50 packets at 4.0 s"),
        "{}",
        chart_text(&host, "queue")
    );

    // A flow count cannot change while the run goes: it waits for the next run.
    type_into(&host, "flows[0].count", "3").await;
    fire(&find(&host, "input[name='flows[0].count']"), "change");
    settle().await;
    assert!(find(&host, ".notice").text_content().unwrap().contains("next run"));
    type_into(&host, "flows[0].count", "2").await;

    run_to_the_end(&host).await;
    let run: HtmlButtonElement = find(&host, "[data-testid=run]").dyn_into().unwrap();
    assert!(!run.disabled() && run.text_content().unwrap().contains("Run again"));
    click(&host, "run").await;
    settle().await;
    let progress = find(&host, ".controls .progress").text_content().unwrap();
    assert!(!progress.contains("finished") || progress.contains("t = 10.0"), "a new run started: {progress}");
    // The new run replays the change: it is marked from the start.
    assert!(chart_text(&host, "queue").contains("limit → 50 packets"), "{}", chart_text(&host, "queue"));
}

#[wasm_bindgen_test]
async fn the_tcp_profile_sets_its_fields_each_stays_editable_and_an_edit_reads_as_neither() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "cubic-vegas-2q/warbler").await;
    let profile =
        || find(&host, "select[name='tcp.profile']").dyn_into::<HtmlSelectElement>().unwrap().value();
    // As the editor shows them ("200.0"), read as whole numbers.
    let value = |name: &str| -> i64 {
        let v: f64 = find(&host, &format!("input[name='{name}']"))
            .dyn_into::<HtmlInputElement>()
            .unwrap()
            .value()
            .parse()
            .unwrap();
        v.round() as i64
    };
    for _ in 0..100 {
        if profile() == "linux" {
            break;
        }
        settle().await;
    }
    assert_eq!(profile(), "linux", "the Warbler presets' hosts are Linux's");
    assert_eq!(value("tcp.min_rto_ms"), 200);
    choose(&host, "select[name='tcp.profile']", "ns3-3.44").await;
    assert_eq!(profile(), "ns3-3.44");
    until(|| value("tcp.min_rto_ms") == 1000).await;
    assert_eq!(value("tcp.min_rto_ms"), 1000);
    assert_eq!(value("tcp.mss_bytes"), 1448, "the profile leaves the rest alone");
    type_into(&host, "tcp.min_rto_ms", "300").await;
    assert_eq!(profile(), "edited");
}

#[wasm_bindgen_test]
async fn a_scenario_with_links_runs_and_shows_each_links_window() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "red-study/red").await;
    let mut sc = sim_core::scenario::preset("red-study", Some("red-nonic")).unwrap();
    (sc.duration_s, sc.warmup_s) = (3.0, 1.0);
    sc.links.insert("core".into(), sim_core::scenario::Link { delay_ms: 2.0, ..sc.bottleneck().clone() });
    for g in &mut sc.flows {
        g.route = vec!["bottleneck".into(), "core".into()];
    }
    web_ui::dom::push_hash(&web_ui::share::to_fragment(&sc, None, true));
    web_sys::window().unwrap().dispatch_event(&web_sys::Event::new("hashchange").unwrap()).unwrap();
    for _ in 0..100 {
        settle().await;
        if scenario_in_url().links.contains_key("core") && !run_disabled(&host) {
            break;
        }
    }
    let mut table = None;
    for _ in 0..60 {
        click(&host, "step").await;
        table = host.query_selector("[data-testid=links-table]").unwrap();
        if table.is_some() {
            break;
        }
    }
    let text = table.expect("a links table once the run has a summary").text_content().unwrap();
    assert!(text.contains("bottleneck") && text.contains("core"), "{text}");
    let flows = find(&host, "[data-testid=flows-table]").text_content().unwrap();
    assert!(flows.contains("max-min / prop. fair"), "the reference shares beside each flow: {flows}");
}

/// Ticks or unticks the checkbox named `name`.
async fn set_checkbox(host: &Element, name: &str, on: bool) {
    let input: HtmlInputElement = find(host, &format!("input[name='{name}']")).dyn_into().unwrap();
    input.set_checked(on);
    fire(&input, "change");
    settle().await;
}

#[wasm_bindgen_test]
async fn the_network_is_drawn_edited_and_coloured_by_its_queues() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "red-study/red").await;
    // A dumbbell: one link, the charted one.
    let links = |host: &Element| host.query_selector_all("[data-testid=network] .net-link").unwrap().length();
    assert_eq!(links(&host), 1);
    let class = find(&host, "[data-testid=network] .net-link").get_attribute("class").unwrap_or_default();
    assert!(class.contains("charted"), "{class}");
    // Add a link: it is drawn and has its own section, on no route until ticked (a busy
    // machine may take more than one settle to render it).
    click(&host, "add-link").await;
    for _ in 0..50 {
        if links(&host) == 2 {
            break;
        }
        settle().await;
    }
    assert_eq!(links(&host), 2);
    assert!(scenario_in_url().links.contains_key("link2"), "the new link is in the scenario");
    find(&host, "details#link-editor-link2");
    set_checkbox(&host, "flows[0].route.link2", true).await;
    let sc = scenario_in_url();
    assert_eq!(sc.flows[0].route, ["bottleneck", "link2"], "ticked links keep the diagram's order");
    // Its ACKs can cross a link too: the diagram dashes it under the group's bar.
    set_checkbox(&host, "flows[0].ack_route.link2", true).await;
    assert_eq!(scenario_in_url().flows[0].ack_route, ["link2"]);
    assert!(until(|| host.query_selector("[data-testid=network] .ack-bar").unwrap().is_some()).await);
    set_checkbox(&host, "flows[0].ack_route.link2", false).await;
    assert!(scenario_in_url().flows[0].ack_route.is_empty());
    // Its disc is picked in its own section, and its rate typed there.
    choose(&host, "select[name='links.link2.queue.type']", "fifo").await;
    type_into(&host, "links.link2.rate_bps", "1000000").await;
    let sc = scenario_in_url();
    assert_eq!(sc.links["link2"].queue.name(), "fifo");
    assert_eq!(sc.links["link2"].rate_bps, 1_000_000);
    // The slower link fills: a few steps colour its queue.
    for _ in 0..40 {
        click(&host, "step").await;
    }
    let fill = |name: &str| {
        let el = find(&host, &format!("[data-testid=network] .net-link[data-link={name}] .queue-fill"));
        el.get_attribute("data-fill").unwrap().parse::<f64>().unwrap()
    };
    assert!(fill("link2") > 0.0, "the 1 Mbit/s link queues");
    assert!(fill("bottleneck") < 1e-9, "the 2 Mbit/s link ahead of it does not");
    // Removing the link takes it off the route.
    click(&host, "remove-link-link2").await;
    assert_eq!(links(&host), 1);
    assert!(scenario_in_url().flows[0].route.is_empty());
}

#[wasm_bindgen_test]
async fn an_edit_of_another_link_during_a_run_becomes_a_timed_change_of_that_link() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "two-bottlenecks/fq-codel-unshaped").await;
    type_into(&host, "duration_s", "6").await;
    for _ in 0..20 {
        click(&host, "step").await;
    }
    type_into(&host, "links.modem.queue.limit.packets", "30").await;
    fire(&find(&host, "input[name='links.modem.queue.limit.packets']"), "change");
    settle().await;
    settle().await;
    let changes = scenario_in_url().changes;
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(changes[0].set, "links.modem.queue.limit");
    assert_eq!(changes[0].to, serde_json::json!({ "packets": 30 }));
    let input: HtmlInputElement =
        find(&host, "input[name='links.modem.queue.limit.packets']").dyn_into().unwrap();
    assert_eq!(input.value(), "300", "the field shows the value at the start");
}
