//! The simulation's Web Worker (gloo-worker): the page sends [`ToSim`], the worker answers
//! with [`FromSim`]. Between messages it keeps running the [`Engine`] in slices of
//! [`SLICE_MS`], yielding to the event loop after each so a Pause or a speed change is heard
//! at once. Messages travel as structured JS values ([`JsCodec`]): gloo's default, bincode,
//! cannot read the scenario's tagged enums.

use crate::engine::Engine;
use crate::protocol::{FromSim, ToSim};
use gloo::timers::future::TimeoutFuture;
use gloo::worker::{HandlerId, Worker, WorkerScope};

/// Wall time one slice of simulation may take in the worker.
pub const SLICE_MS: f64 = 25.0;
/// Pause between slices at a real-time speed (the worker need not spin).
const IDLE_MS: u32 = 15;

/// serde-wasm-bindgen both ways; 64-bit integers (seeds, digests) as BigInt so none is
/// rounded, floats as JS numbers so NaN survives.
pub struct JsCodec;

impl gloo::worker::Codec for JsCodec {
    fn encode<I: serde::Serialize>(input: I) -> wasm_bindgen::JsValue {
        let s = serde_wasm_bindgen::Serializer::new().serialize_large_number_types_as_bigints(true);
        input.serialize(&s).expect("worker messages serialise")
    }

    fn decode<O: for<'de> serde::Deserialize<'de>>(input: wasm_bindgen::JsValue) -> O {
        serde_wasm_bindgen::from_value(input).expect("worker messages deserialise")
    }
}

pub enum Tick {
    Go,
}

pub struct SimWorker {
    engine: Engine,
    /// The page that talks to this worker (there is one).
    page: Option<HandlerId>,
    scheduled: bool,
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

impl SimWorker {
    fn send(&self, scope: &WorkerScope<Self>, out: Vec<FromSim>) {
        if let Some(id) = self.page {
            for m in out {
                scope.respond(id, m);
            }
        }
    }

    fn schedule(&mut self, scope: &WorkerScope<Self>) {
        if self.engine.busy() && !self.scheduled {
            self.scheduled = true;
            let wait = if self.engine.running_at_max() { 0 } else { IDLE_MS };
            scope.send_future(async move {
                TimeoutFuture::new(wait).await;
                Tick::Go
            });
        }
    }
}

impl Worker for SimWorker {
    type Message = Tick;
    type Input = ToSim;
    type Output = FromSim;

    fn create(_scope: &WorkerScope<Self>) -> Self {
        crate::panic::install_quiet();
        SimWorker { engine: Engine::default(), page: None, scheduled: false }
    }

    fn update(&mut self, scope: &WorkerScope<Self>, _msg: Tick) {
        self.scheduled = false;
        let out = self.engine.tick(SLICE_MS, &now_ms);
        self.send(scope, out);
        self.schedule(scope);
    }

    fn received(&mut self, scope: &WorkerScope<Self>, msg: ToSim, id: HandlerId) {
        self.page = Some(id);
        let out = self.engine.handle(msg, &now_ms);
        self.send(scope, out);
        self.schedule(scope);
    }
}
