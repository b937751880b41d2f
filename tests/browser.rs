//! Runs in headless Chromium (wasm-bindgen-test): the simulator must give the browser the
//! very same results as a native build.
#![cfg(target_arch = "wasm32")]

use aqm_tests::{determinism_probe_scenario, probe_digest, run, PROBE_DIGEST};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn same_seed_gives_identical_summaries_in_the_browser() {
    let sc = determinism_probe_scenario();
    assert_eq!(run(&sc).1, run(&sc).1);
}

#[wasm_bindgen_test]
fn short_red_study_in_the_browser_matches_the_native_digest() {
    assert_eq!(probe_digest(), PROBE_DIGEST, "wasm digest {:#x}", probe_digest());
}

#[wasm_bindgen_test]
fn red_study_in_the_browser_delivers_about_ninety_percent_of_the_link() {
    let (_, s) = run(&determinism_probe_scenario());
    let mbps = s.throughput.mean_bps / 1e6;
    assert!((1.70..1.90).contains(&mbps), "goodput {mbps} Mbit/s");
}
