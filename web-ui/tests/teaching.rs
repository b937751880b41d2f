//! The teaching layer in headless Chromium (issue 26): a lesson step judged, a challenge
//! scored live, a lesson's run opened whole in the editor, the packet view against the
//! simulator's own count, a sweep kept on its axes.
#![cfg(target_arch = "wasm32")]

mod common;
use common::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlButtonElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Red-tuning's challenge step open, with max_p typed as 0.5.
async fn red_tuning_challenge_with_max_p(host: &web_sys::Element) {
    click(host, "tab-lessons").await;
    click(host, "lesson-open-red-tuning").await;
    find(host, ".lesson-steps .step:nth-child(2)").dyn_into::<web_sys::HtmlElement>().unwrap().click();
    settle().await;
    assert!(
        until(|| host.query_selector("input[name='links.bottleneck.queue.max_p']").unwrap().is_some()).await
    );
    type_into(host, "links.bottleneck.queue.max_p", "0.5").await;
}

#[wasm_bindgen_test]
async fn a_lesson_step_asks_first_runs_its_runs_and_judges_the_prediction() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    click(&host, "tab-lessons").await;
    click(&host, "lesson-open-red-tuning").await;
    let run: HtmlButtonElement = find(&host, "[data-testid=lesson-run]").dyn_into().unwrap();
    assert!(run.disabled(), "no run before a prediction");
    // Predict "between minTh and maxTh", the second option.
    let option: HtmlInputElement =
        host.query_selector_all("input[name=lesson-choice]").unwrap().item(1).unwrap().dyn_into().unwrap();
    option.set_checked(true);
    fire(&option, "change");
    settle().await;
    assert!(!run.disabled());
    click(&host, "lesson-run").await;
    let mut report = None;
    for _ in 0..2000 {
        report = host.query_selector("[data-testid=lesson-report]").unwrap();
        if report.is_some() {
            break;
        }
        settle().await;
    }
    let report = report.expect("a report once the step's run finished");
    assert_eq!(report.get_attribute("data-passed").as_deref(), Some("true"), "{:?}", report.text_content());
    let text = report.text_content().unwrap();
    assert!(text.contains("Your prediction was right") && text.contains("red.queue_mean = "), "{text}");
    let progress = find(&host, "[data-testid=lesson-progress]").text_content().unwrap();
    assert!(progress.contains("1 run, 1 passed"), "{progress}");
}

/// Issue 26: the packet view shows what the simulator holds at the paused instant, steps
/// one event back and forward, and names what a packet is when pointed at.
#[wasm_bindgen_test]
async fn the_packet_view_shows_the_paused_links_packets_and_steps_through_events() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "red-study/red").await;
    for _ in 0..30 {
        click(&host, "step").await;
    }
    let status = || find(&host, "[data-testid=packet-status]").text_content().unwrap();
    for _ in 0..100 {
        if status().starts_with("t = 3.0") {
            break;
        }
        settle().await;
    }
    // The simulator's own count at 3 s, watched from the start as the page's lane is.
    let sc = sim_core::scenario::preset("red-study", Some("red")).unwrap();
    let mut sim = sim_core::sim::Simulation::new(&sc).unwrap();
    sim.watch_link(0);
    sim.step_until(sim_core::time::SimTime::from_secs_f64(3.0));
    let w = sim.packet_window(0, usize::MAX).unwrap();
    let mut r = sim_core::net::packet_trace::TraceReplay::new(&w);
    r.seek(&w, w.events.len());
    let disc = r.at(w.to_ns).iter().filter(|p| p.stage == sim_core::net::packet_trace::Stage::Disc).count();
    assert!(disc > 0, "RED's queue holds packets at 3 s");
    assert!(status().contains(&format!("{disc} waiting in the disc")), "{} (simulator: {disc})", status());
    let event = || find(&host, "[data-testid=packet-event]").text_content().unwrap();
    let n = w.events.len();
    click(&host, "packet-back").await;
    assert!(event().starts_with(&format!("Event {} of {n}", n - 1)), "{}", event());
    click(&host, "packet-back").await;
    click(&host, "packet-forward").await;
    assert!(event().starts_with(&format!("Event {} of {n}", n - 1)), "{}", event());
    // Pointing at the head of the queue names the packet.
    let canvas = find(&host, "[data-testid=packet-canvas]");
    let rect = canvas.get_bounding_client_rect();
    let init = web_sys::MouseEventInit::new();
    init.set_bubbles(true);
    init.set_client_x((rect.left() + rect.width() * 0.55 - 3.0) as i32);
    init.set_client_y((rect.top() + 30.0) as i32);
    let ev = web_sys::MouseEvent::new_with_mouse_event_init_dict("click", &init).unwrap();
    canvas.dispatch_event(&ev).unwrap();
    settle().await;
    let hover = find(&host, "[data-testid=packet-hover]").text_content().unwrap();
    assert!(hover.contains("of flow") && hover.contains("in Q0 for"), "{hover}");
}

/// Issue 26: a challenge is scored while its run goes, term by term, and the verdict says
/// how many edits it took.
#[wasm_bindgen_test]
async fn a_challenge_is_scored_live_and_its_verdict_counts_the_edits() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    red_tuning_challenge_with_max_p(&host).await;
    click(&host, "lesson-run").await;
    let mut live_seen = false;
    let mut verdict = None;
    for _ in 0..3000 {
        if let Some(s) = host.query_selector("[data-testid=live-score]").unwrap() {
            let text = s.text_content().unwrap();
            assert!(text.contains("parts of the goal met") && text.contains("1 of 2 edits used"), "{text}");
            live_seen = true;
        }
        verdict = host.query_selector("[data-testid=challenge-score]").unwrap();
        if verdict.is_some() {
            break;
        }
        settle().await;
    }
    assert!(live_seen, "the score showed while the run went");
    let verdict = verdict.expect("a verdict once the run finished").text_content().unwrap();
    assert!(verdict.contains("Challenge met with 1 of 2 edits"), "{verdict}");
}

/// Issue 26: a sweep of the buffer runs its points in the simulation and plots them, the
/// earlier sweep staying on the axes.
#[wasm_bindgen_test]
async fn a_sweep_plots_each_value_and_keeps_the_earlier_sweep() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    choose_preset(&host, "bufferbloat/fifo").await;
    type_into(&host, "duration_s", "12").await;
    click(&host, "tab-sweep").await;
    let values: HtmlInputElement = find(&host, "[data-testid=sweep-values]").dyn_into().unwrap();
    values.set_value("20, 300");
    fire(&values, "input");
    settle().await;
    for round in 1..=2 {
        click(&host, "sweep-run").await;
        for _ in 0..1000 {
            if host.query_selector("[data-testid=sweep-run]").unwrap().is_some() {
                break;
            }
            settle().await;
        }
        let status = find(&host, "[data-testid=sweep-status]");
        assert_eq!(status.text_content().unwrap(), "The last sweep ran 2 points.", "round {round}");
    }
    let delay = host.query_selector("[data-chart=sweep_delay_ms]").unwrap().expect("the delay chart");
    let text = delay.text_content().unwrap_or_default();
    assert!(text.contains("against links.bottleneck.queue.limit.packets"), "{text}");
    assert!(
        text.contains(": bufferbloat/fifo, edited, bufferbloat/fifo, edited"),
        "both sweeps on the axes: {text}"
    );
    // The same sweep twice: the same figures, so the two lines lie on one another.
    assert!(delay.get_attribute("data-coincide").is_some(), "{text}");
}

/// Issue 26: a lesson shows only the fields its runs set, and one click opens a run with
/// every field in the editor.
#[wasm_bindgen_test]
async fn a_lessons_run_names_its_fields_and_opens_whole_in_the_editor() {
    let host = host();
    let _app = web_ui::mount(host.clone());
    settle().await;
    red_tuning_challenge_with_max_p(&host).await;
    let runs = find(&host, "[data-testid=lesson-runs]").text_content().unwrap();
    assert!(runs.contains("Run red: red-ecn / red"), "{runs}");
    find(&host, "[data-testid=lesson-runs] .link-button").dyn_into::<web_sys::HtmlElement>().unwrap().click();
    settle().await;
    assert!(
        find(&host, "[data-testid=tab-charts]").get_attribute("aria-selected").as_deref() == Some("true")
    );
    let field = "input[name='links.bottleneck.queue.max_p']";
    assert!(until(|| host.query_selector(field).unwrap().is_some()).await, "the editor shows RED's fields");
    assert_eq!(input_value(&host, "links.bottleneck.queue.max_p"), "0.5", "the challenge's edit came along");
    assert!(find(&host, "[data-testid=modified]").text_content().unwrap().contains("Modified from"));
}
