//! The page's handle on the simulation: a Web Worker when one starts (the page then only
//! draws), else the same [`Engine`] in the page, driven by animation frames in slices of
//! [`LOCAL_SLICE_MS`] (the browser tests and browsers without workers).

use crate::engine::Engine;
use crate::protocol::{FromSim, ToSim};
use crate::worker::SimWorker;
use gloo::render::{request_animation_frame, AnimationFrame};
use gloo::worker::{Spawnable, WorkerBridge};
use std::cell::RefCell;
use std::rc::Rc;
use yew::Callback;

/// Wall time a frame may spend simulating when the engine runs in the page.
pub const LOCAL_SLICE_MS: f64 = 12.0;

/// Where the worker's loader lives, relative to the page (so a sub-folder works).
const WORKER_LOADER: &str = "./worker_loader.js";

pub enum SimLink {
    Worker(WorkerBridge<SimWorker>),
    Local(Rc<LocalSim>),
}

pub struct LocalSim {
    engine: RefCell<Engine>,
    on: Callback<FromSim>,
    frame: RefCell<Option<AnimationFrame>>,
}

impl LocalSim {
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

impl SimLink {
    /// A worker, unless `local` is asked for or the worker cannot start.
    pub fn new(on: Callback<FromSim>, local: bool) -> SimLink {
        if !local && worker_available() {
            let cb = on.clone();
            let bridge = SimWorker::spawner()
                .callback(move |m| cb.emit(m))
                .encoding::<crate::worker::JsCodec>()
                .spawn_with_loader(WORKER_LOADER);
            return SimLink::Worker(bridge);
        }
        SimLink::Local(Rc::new(LocalSim {
            engine: RefCell::new(Engine::default()),
            on,
            frame: RefCell::new(None),
        }))
    }

    pub fn send(&self, msg: ToSim) {
        match self {
            SimLink::Worker(b) => b.send(msg),
            SimLink::Local(l) => {
                let out = l.engine.borrow_mut().handle(msg, &crate::dom::now_ms);
                for m in out {
                    l.on.emit(m);
                }
                l.pump();
            }
        }
    }

    pub fn in_worker(&self) -> bool {
        matches!(self, SimLink::Worker(_))
    }
}

/// Workers exist and the page was not opened with `?local` (then the engine runs in the
/// page, as in the tests).
fn worker_available() -> bool {
    let has_worker = js_sys::Reflect::has(&js_sys::global(), &"Worker".into()).unwrap_or(false);
    has_worker && !crate::dom::query().contains("local")
}
