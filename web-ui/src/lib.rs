//! AQM Lab's web front end: a Yew app over `sim-core`.
//!
//! The parts that are plain Rust (editor model, runner, chart data, sharing) have no DOM
//! and are tested natively; `app`, `charts` and `dom` touch the browser.

pub mod app;
pub mod chart_data;
pub mod charts;
pub mod compare;
pub mod dom;
pub mod editor;
pub mod panic;
pub mod runner;
pub mod series;
pub mod share;

/// Installs the panic banner and mounts the app on `<body>`.
pub fn start() {
    panic::install();
    yew::Renderer::<app::App>::new().render();
}

/// Mounts the app into `host` (the browser tests use this).
pub fn mount(host: web_sys::Element) -> yew::AppHandle<app::App> {
    panic::install();
    yew::Renderer::<app::App>::with_root(host).render()
}
