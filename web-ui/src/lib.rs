//! AQM Lab's web front end: a Yew app over `sim-core`.
//!
//! The simulation runs in a Web Worker (`worker`, driven through `link`) so the page stays
//! responsive; the page only keeps bounded chart data (`series`, `state`) and draws it.
//! The parts that are plain Rust (engine, editor model, chart data, sharing, zip) have no
//! DOM and are tested natively; `components`, `charts`, `dom`, `link` touch the browser.
//!
//! One wasm module (`src/main.rs`) serves the page and its worker: it starts the app in a
//! window and the simulation in a worker. The browser tests [`mount`] the app with the
//! engine in the page.

pub mod archive_name;
pub mod chart_data;
pub mod charts;
pub mod compare;
pub mod components;
pub mod dom;
pub mod editor;
pub mod engine;
pub mod labels;
pub mod learning;
pub mod lesson;
pub mod link;
pub mod live;
pub mod network;
pub mod network_svg;
pub mod pace;
pub mod packet_model;
pub mod packet_scene;
pub mod panic;
pub mod place;
pub mod protocol;
pub mod series;
pub mod share;
pub mod state;
pub mod sweep;
pub mod units;
pub mod wire;
pub mod worker;
pub mod zip;

use components::app::{App, AppProps};

/// Installs the panic banner and mounts the app on `<body>`, simulating in a worker.
pub fn start() {
    panic::install();
    yew::Renderer::<App>::with_props(AppProps { local: false }).render();
}

/// Mounts the app into `host`, simulating in the page (the browser tests use this).
pub fn mount(host: web_sys::Element) -> yew::AppHandle<App> {
    panic::install();
    yew::Renderer::<App>::with_root_and_props(host, AppProps { local: true }).render()
}
