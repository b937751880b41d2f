//! One module for the page and for its simulation worker (static/worker_loader.js starts it
//! there): which one runs depends on where it wakes up.
fn main() {
    if web_ui::worker::in_worker() {
        web_ui::worker::run();
    } else {
        web_ui::start();
    }
}
