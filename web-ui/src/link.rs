//! The page's handle on the simulation: a Web Worker (the page then only draws). The worker
//! runs this same module: its loader (static/worker_loader.js) waits for the page's
//! `WebAssembly.Module` as the first message, so nothing is downloaded or compiled twice.
//! For the browser tests the same [`Engine`](crate::engine::Engine) can run in the page
//! instead, driven by animation frames in slices of [`LOCAL_SLICE_MS`].
//!
//! A worker that cannot start is reported, never left silent: the constructor failing, an
//! `error` event (its script or wasm failed to load, or it crashed), or no
//! [`FromSim::Ready`] within [`START_TIMEOUT_MS`] each reach the page as
//! [`FromSim::Unavailable`]. Messages sent before the worker is ready wait for it.

use crate::protocol::{self, FromSim, ToSim};
use gloo::events::EventListener;
use gloo::timers::callback::Timeout;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{ErrorEvent, MessageEvent, Worker};
use yew::Callback;

/// Wall time a frame may spend simulating when the engine runs in the page.
pub const LOCAL_SLICE_MS: f64 = 12.0;

/// How long the worker may take to start before the page says it did not (it compiles the
/// page's module again from memory: well under a second). A late start still works.
pub const START_TIMEOUT_MS: u32 = 20_000;

/// Where the worker's loader lives, relative to the page (so a sub-folder works).
const WORKER_LOADER: &str = "./worker_loader.js";

pub enum SimLink {
    Worker(WorkerLink),
    Local(Rc<local::LocalSim>),
    /// No worker could be created; the page was told why.
    None,
}

/// Messages waiting for the worker's [`FromSim::Ready`] (`None` once it is ready).
type Pending = Rc<RefCell<Option<Vec<JsValue>>>>;

pub struct WorkerLink {
    worker: Worker,
    pending: Pending,
    _listeners: [EventListener; 2],
    _start: Timeout,
}

impl Drop for WorkerLink {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

impl WorkerLink {
    fn spawn(on: &Callback<FromSim>) -> Result<WorkerLink, String> {
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        let worker = Worker::new_with_options(WORKER_LOADER, &options).map_err(|e| describe(&e))?;
        // Before anything else: the loader instantiates this module from it.
        worker.post_message(&wasm_bindgen::module()).map_err(|e| describe(&e))?;
        let pending: Pending = Rc::new(RefCell::new(Some(Vec::new())));
        let (w, p, cb) = (worker.clone(), pending.clone(), on.clone());
        let on_message = EventListener::new(&worker, "message", move |e| {
            let Some(e) = e.dyn_ref::<MessageEvent>() else { return };
            let m = protocol::decode_from_sim(&e.data()).unwrap_or_else(|err| {
                FromSim::Unavailable(format!(
                    "The simulation sent a message this page cannot read ({err}): reload the page."
                ))
            });
            if matches!(m, FromSim::Ready) {
                for v in p.borrow_mut().take().unwrap_or_default() {
                    let _ = w.post_message(&v);
                }
            }
            cb.emit(m);
        });
        let cb = on.clone();
        let on_error = EventListener::new(&worker, "error", move |e| {
            let what = e
                .dyn_ref::<ErrorEvent>()
                .map(|e| e.message())
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| "its script or wasm failed to load".into());
            cb.emit(FromSim::Unavailable(format!(
                "The simulation is unavailable: its worker failed ({what}). Reload the page; your scenario is in the address bar."
            )));
        });
        let (p, cb) = (pending.clone(), on.clone());
        let start = Timeout::new(START_TIMEOUT_MS, move || {
            if p.borrow().is_some() {
                cb.emit(FromSim::Unavailable(format!(
                    "The simulation did not start within {} s (its files may be blocked or the connection too slow). Reload the page to try again.",
                    START_TIMEOUT_MS / 1000
                )));
            }
        });
        Ok(WorkerLink { worker, pending, _listeners: [on_message, on_error], _start: start })
    }

    fn send(&self, msg: &ToSim) {
        let v = match protocol::encode_to_sim(msg) {
            Ok(v) => v,
            Err(e) => {
                web_sys::console::error_1(&format!("message not sent: {e}").into());
                return;
            }
        };
        match self.pending.borrow_mut().as_mut() {
            Some(queue) => queue.push(v),
            None => {
                let _ = self.worker.post_message(&v);
            }
        }
    }
}

fn describe(e: &JsValue) -> String {
    let text = js_sys::Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "no Web Worker".into());
    format!("The simulation cannot run here: {text}. Try a current Chrome, Firefox or Safari.")
}

impl SimLink {
    /// A worker; with `local` the engine in the page (the browser tests).
    pub fn new(on: Callback<FromSim>, local: bool) -> SimLink {
        if local {
            return SimLink::Local(local::LocalSim::new(on));
        }
        let _ = local;
        match WorkerLink::spawn(&on) {
            Ok(w) => SimLink::Worker(w),
            Err(e) => {
                // After the component that asked exists.
                yew::platform::spawn_local(async move { on.emit(FromSim::Unavailable(e)) });
                SimLink::None
            }
        }
    }

    // By value: the in-page engine takes the message.
    pub fn send(&self, msg: ToSim) {
        match self {
            SimLink::Worker(w) => w.send(&msg),
            SimLink::Local(l) => l.send(msg),
            SimLink::None => {}
        }
    }

    pub fn in_worker(&self) -> bool {
        matches!(self, SimLink::Worker(_))
    }
}

mod local {
    use super::LOCAL_SLICE_MS;
    use crate::engine::Engine;
    use crate::protocol::{FromSim, ToSim};
    use gloo::render::{request_animation_frame, AnimationFrame};
    use std::cell::RefCell;
    use std::rc::Rc;
    use yew::Callback;

    pub struct LocalSim {
        engine: RefCell<Engine>,
        on: Callback<FromSim>,
        frame: RefCell<Option<AnimationFrame>>,
    }

    impl LocalSim {
        pub fn new(on: Callback<FromSim>) -> Rc<LocalSim> {
            Rc::new(LocalSim { engine: RefCell::new(Engine::default()), on, frame: RefCell::new(None) })
        }

        pub fn send(self: &Rc<Self>, msg: ToSim) {
            let out = self.engine.borrow_mut().handle(msg, &crate::dom::now_ms);
            for m in out {
                self.on.emit(m);
            }
            self.pump();
        }

        fn pump(self: &Rc<Self>) {
            if !self.engine.borrow().busy() || self.frame.borrow().is_some() {
                return;
            }
            let me = self.clone();
            *self.frame.borrow_mut() = Some(request_animation_frame(move |_| {
                me.frame.borrow_mut().take();
                let out = me.engine.borrow_mut().tick(LOCAL_SLICE_MS, &crate::dom::now_ms);
                for m in out {
                    me.on.emit(m);
                }
                me.pump();
            }));
        }
    }
}
