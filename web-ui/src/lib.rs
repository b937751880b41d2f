//! AQM Lab's web front end: a Yew app over `sim-core`.
//!
//! The simulation runs in a Web Worker (`worker`, driven through `link`) so the page stays
//! responsive; the page only keeps bounded chart data (`series`, `state`) and draws it.
//! The parts that are plain Rust (engine, editor model, chart data, sharing, zip) have no
//! DOM and are tested natively; `components`, `charts`, `dom`, `link` touch the browser.
//!
//! Two wasm modules are built from this crate: the worker (`src/bin/worker.rs`: the engine,
//! no Yew, no plotting) and the page (`src/main.rs`), which trunk builds without the
//! default `engine` feature, so it carries scenarios, validation, presets and charts but
//! not the simulator. The browser tests keep the feature and [`mount`] the app with the
//! engine in the page.

pub mod archive_name;
pub mod chart_data;
pub mod charts;
pub mod compare;
pub mod components;
pub mod dom;
pub mod editor;
#[cfg(feature = "engine")]
pub mod engine;
pub mod labels;
pub mod learning;
pub mod link;
pub mod live;
pub mod pace;
pub mod panic;
pub mod place;
pub mod protocol;
pub mod series;
pub mod share;
pub mod state;
pub mod units;
pub mod wire;
#[cfg(feature = "engine")]
pub mod worker;
pub mod zip;

use components::app::{App, AppProps};

/// Installs the panic banner and mounts the app on `<body>`, simulating in a worker.
pub fn start() {
    panic::install();
    yew::Renderer::<App>::with_props(AppProps { local: false }).render();
}

/// Mounts the app into `host`, simulating in the page (the browser tests use this).
#[cfg(feature = "engine")]
pub fn mount(host: web_sys::Element) -> yew::AppHandle<App> {
    panic::install();
    yew::Renderer::<App>::with_root_and_props(host, AppProps { local: true }).render()
}
