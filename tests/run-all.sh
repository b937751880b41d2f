#!/usr/bin/env bash
# Runs every test of the project: native unit and integration tests, then the browser
# tests (wasm-bindgen-test in headless Chromium), then the deployed page (trunk build served
# from a sub-folder, driven through chromedriver). README command 2.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== setup (installs the wasm target, wasm-bindgen-cli and Chromium if missing)"
tests/setup.sh

echo "== native tests (cargo test --workspace)"
cargo test --workspace --all-features

echo "== browser tests (headless Chromium)"
# A slow CI machine gets more than the runner's default 20 s per test.
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-120}"
export CHROMEDRIVER="${CHROMEDRIVER:-$(command -v chromedriver || echo /usr/bin/chromedriver)}"
# wasm-bindgen-test-runner reads webdriver.json from the working directory.
(cd tests && cargo test -p aqm-tests --target wasm32-unknown-unknown --test browser)
(cd web-ui && cargo test -p web-ui --target wasm32-unknown-unknown --test app --test teaching)

echo "== the deployed page (tests/ui-check.py)"
python3 tests/ui-check.py
