//! The simulation's Web Worker: the page posts [`protocol::ToSim`] (JSON text), the worker
//! answers with [`FromSim`] (bytes; see [`protocol`]). Its first message is
//! [`FromSim::Ready`]; a panic posts [`FromSim::Unavailable`] with its message before the
//! module traps (the page then also hears the worker's `error` event).
//!
//! Between messages it keeps running the [`Engine`] in slices of [`SLICE_MS`], yielding to
//! the event loop after each so a Pause or a speed change is heard at once. At "as fast as
//! possible" it yields through a message to itself (a `MessageChannel`), which runs as soon
//! as the messages before it; `setTimeout(0)` would wait at least 4 ms once nested. At a
//! real-time speed it waits [`IDLE_MS`] between slices instead of spinning.

use crate::engine::Engine;
use crate::protocol::{self, FromSim};
use gloo::events::EventListener;
use gloo::timers::callback::Timeout;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{DedicatedWorkerGlobalScope, MessageChannel, MessageEvent, MessagePort};

/// Wall time one slice of simulation may take in the worker.
pub const SLICE_MS: f64 = 25.0;
/// Pause between slices at a real-time speed (the worker need not spin).
const IDLE_MS: u32 = 15;

struct SimWorker {
    engine: RefCell<Engine>,
    scope: DedicatedWorkerGlobalScope,
    /// Posting to this port wakes [`SimWorker::tick`] through the other end of the channel.
    wake: MessagePort,
    scheduled: Cell<bool>,
    /// The wait before the next slice at a real-time speed (dropping it cancels it).
    idle: RefCell<Option<Timeout>>,
}

thread_local! {
    /// The worker and its listeners, kept for the worker's lifetime.
    static WORKER: RefCell<Option<(Rc<SimWorker>, [EventListener; 2])>> = const { RefCell::new(None) };
}

/// Whether this module runs in a dedicated worker (the simulation's) rather than the page.
pub fn in_worker() -> bool {
    js_sys::global().is_instance_of::<DedicatedWorkerGlobalScope>()
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn now_ms(scope: &DedicatedWorkerGlobalScope) -> f64 {
    scope.performance().map_or_else(js_sys::Date::now, |p| p.now())
}

/// Posts one message to the page; one that cannot be encoded is reported instead.
fn post(scope: &DedicatedWorkerGlobalScope, m: &FromSim) {
    let bytes = protocol::encode_from_sim(m).or_else(|e| {
        protocol::encode_from_sim(&FromSim::Error(format!("a result could not be sent to the page: {e}")))
    });
    if let Ok(b) = bytes {
        let _ = scope.post_message_with_transfer(&b, &protocol::transfer(&b));
    }
}

impl SimWorker {
    fn send(&self, out: &[FromSim]) {
        for m in out {
            post(&self.scope, m);
        }
    }

    fn received(self: &Rc<Self>, data: &JsValue) {
        let out = match protocol::decode_to_sim(data) {
            Ok(msg) => {
                let scope = &self.scope;
                self.engine.borrow_mut().handle(msg, &|| now_ms(scope))
            }
            Err(e) => vec![FromSim::Error(format!("the worker could not read a message: {e}"))],
        };
        self.send(&out);
        self.schedule();
    }

    fn tick(self: &Rc<Self>) {
        self.scheduled.set(false);
        let scope = &self.scope;
        let out = self.engine.borrow_mut().tick(SLICE_MS, &|| now_ms(scope));
        self.send(&out);
        self.schedule();
    }

    fn schedule(self: &Rc<Self>) {
        let engine = self.engine.borrow();
        if !engine.busy() || self.scheduled.get() {
            return;
        }
        self.scheduled.set(true);
        if engine.running_at_max() {
            let _ = self.wake.post_message(&JsValue::NULL);
        } else {
            let me = self.clone();
            *self.idle.borrow_mut() = Some(Timeout::new(IDLE_MS, move || me.tick()));
        }
    }
}

/// The worker's entry point: installs the panic report and the message handlers, then tells
/// the page it is ready.
pub fn run() {
    std::panic::set_hook(Box::new(|info| {
        let msg = info.to_string();
        web_sys::console::error_1(&msg.clone().into());
        post(&scope(), &FromSim::Unavailable(format!(
            "The simulation hit an internal error and stopped: {msg}. Reload the page; your scenario is in the address bar."
        )));
    }));
    let scope = scope();
    let channel = MessageChannel::new().expect("MessageChannel in a worker");
    let worker = Rc::new(SimWorker {
        engine: RefCell::new(Engine::default()),
        scope: scope.clone(),
        wake: channel.port1(),
        scheduled: Cell::new(false),
        idle: RefCell::new(None),
    });
    let w = worker.clone();
    let on_message = EventListener::new(&scope, "message", move |e| {
        if let Some(e) = e.dyn_ref::<MessageEvent>() {
            w.received(&e.data());
        }
    });
    let w = worker.clone();
    let port = channel.port2();
    let on_wake = EventListener::new(&port, "message", move |_| w.tick());
    port.start();
    WORKER.with(|slot| *slot.borrow_mut() = Some((worker, [on_message, on_wake])));
    post(&scope, &FromSim::Ready);
}
