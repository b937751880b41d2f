//! The simulation's Web Worker entry point.

use gloo::worker::Registrable;

fn main() {
    web_ui::worker::SimWorker::registrar().encoding::<web_ui::worker::JsCodec>().register();
}
