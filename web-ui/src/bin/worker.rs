//! The simulation's Web Worker entry point.

fn main() {
    web_ui::worker::run();
}
