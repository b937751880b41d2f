#!/usr/bin/env bash
# Installs what the tests need on a fresh machine, skipping what is already there: the wasm
# target, wasm-bindgen-cli matching the pinned crate, trunk (the app's build, for the
# deployed-page check), Chromium and its driver, python3 (that check's driver script), and
# wasm-opt from binaryen 132 under target/tools (that check builds the release page;
# Debian's binaryen is too old).
set -euo pipefail

SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null; then SUDO="sudo"; fi

rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$' || rustup target add wasm32-unknown-unknown

# The CLI must match the pinned wasm-bindgen crate exactly (Cargo.toml: =0.2.130).
if ! wasm-bindgen --version 2>/dev/null | grep -q '0\.2\.130'; then
  cargo install wasm-bindgen-cli --version 0.2.130
fi

if ! trunk --version 2>/dev/null | grep -q '0\.21\.14'; then
  cargo install trunk --version 0.21.14 --locked
fi

# Only what is missing: Debian's npm conflicts with a Node.js that ships its own npm.
missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v chromedriver >/dev/null || missing+=(chromium-driver)
command -v python3 >/dev/null || missing+=(python3)
command -v npm >/dev/null || missing+=(npm)
if [ "${#missing[@]}" -gt 0 ]; then
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

WASM_OPT="$(dirname "$0")/../target/tools/node_modules/.bin/wasm-opt"
if ! "$WASM_OPT" --version 2>/dev/null | grep -q 'version 132'; then
  npm install --prefix "$(dirname "$0")/../target/tools" binaryen@132
fi
