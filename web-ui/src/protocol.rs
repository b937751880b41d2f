//! The messages between the page and the simulation, which runs in a Web Worker (or, in the
//! browser tests, in the page itself behind the same interface). Plain serde data: the
//! page's as JSON text ([`encode_to_sim`]), the simulation's as bytes ([`encode_from_sim`]).

use crate::sweep::{SweepPoint, SweepSpec};
use serde::{Deserialize, Serialize};
use sim_core::metrics::{LogHistogram, Summary, Update};
use sim_core::ml::{DqnConfig, MlpWeights};
use sim_core::net::packet_trace::TraceWindow;
use sim_core::scenario::{Scenario, TimedChange};
use sim_core::trace::SeriesInfo;
use sim_core::train::EpisodeReport;
use wasm_bindgen::JsCast;

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Speed {
    /// Simulated seconds per wall-clock second.
    Times(f64),
    /// As fast as the worker can.
    Max,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RunState {
    Ready,
    Running,
    Paused,
    Finished,
}

/// What the page asks of the simulation.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[allow(clippy::large_enum_variant)] // a handful of messages per run; boxing buys nothing
pub enum ToSim {
    /// A new run: one lane per scenario (several in Compare), paused at t = 0.
    Load {
        #[serde(deserialize_with = "read::labelled")]
        lanes: Vec<(String, Scenario)>,
        speed: Speed,
    },
    Run,
    Pause,
    /// Advance every lane by one sample interval.
    Step,
    SetSpeed(Speed),
    /// Make weights available to scenarios under a model id.
    RegisterModel {
        id: String,
        weights: MlpWeights,
    },
    /// Start training the DQN on `scenario`, one episode per message back.
    Train {
        #[serde(deserialize_with = "read::scenario")]
        scenario: Scenario,
        dqn: DqnConfig,
        episodes: u32,
        seed: u64,
    },
    StopTraining,
    /// Run `runs` to the end (the frozen agent against CUBIC and NewReno, over seeds).
    Evaluate {
        #[serde(deserialize_with = "read::runs")]
        runs: Vec<(String, u64, Scenario)>,
    },
    /// Every file of a finished lane (CSV traces, KDEs, logs, summary), for the zip export.
    Export {
        lane: usize,
    },
    /// Set a field of the running scenario now (a timed change at the current time), in
    /// every lane that can take it.
    Change {
        set: String,
        to: serde_json::Value,
    },
    /// Run `spec`'s sweep on `scenario` in the worker, point by point.
    Sweep {
        #[serde(deserialize_with = "read::scenario")]
        scenario: Scenario,
        spec: SweepSpec,
    },
    StopSweep,
    /// The packet view: the last `events` packet events of disc link `link` in lane `lane`
    /// and the packets in it before them. With `at_s` earlier than the trace kept, the lane
    /// is run again (same seed, same result) to that time, and the events around it sent.
    Packets {
        lane: usize,
        link: u32,
        events: u32,
        at_s: Option<f64>,
    },
}

/// The scenarios of a message read as a file is ([`Scenario::from_value`]): the module then
/// holds one reader of scenarios, not two (a reader is a few kB of the download).
mod read {
    use serde::de::{Deserialize, Deserializer, Error};
    use serde_json::Value;
    use sim_core::scenario::Scenario;

    fn one<E: Error>(v: Value) -> Result<Scenario, E> {
        Scenario::from_value(v).map_err(E::custom)
    }

    pub fn scenario<'de, D: Deserializer<'de>>(d: D) -> Result<Scenario, D::Error> {
        one(Value::deserialize(d)?)
    }

    pub fn labelled<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(String, Scenario)>, D::Error> {
        Vec::<(String, Value)>::deserialize(d)?.into_iter().map(|(l, v)| Ok((l, one(v)?))).collect()
    }

    pub fn runs<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(String, u64, Scenario)>, D::Error> {
        Vec::<(String, u64, Value)>::deserialize(d)?
            .into_iter()
            .map(|(l, s, v)| Ok((l, s, one(v)?)))
            .collect()
    }
}

/// What the simulation tells the page.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum FromSim {
    /// A run was loaded: the named series each lane's algorithms report.
    Loaded(Vec<Vec<SeriesInfo>>),
    Progress(Progress),
    Episode(EpisodeReport),
    Trained {
        weights: MlpWeights,
        digest: u64,
    },
    Evaluated(Vec<EvalRun>),
    Files {
        lane: usize,
        files: Vec<(String, String)>,
    },
    /// What became of a [`ToSim::Change`] in each lane: the change as recorded (its time)
    /// or why the lane could not take it.
    Changed(Vec<Result<TimedChange, String>>),
    /// A stretch of a link's packet trace ([`ToSim::Packets`]) as words
    /// ([`TraceWindow::to_words`]) with its sub-queues' names; `replayed` when the lane was
    /// run again to reach it.
    Packets {
        lane: usize,
        words: Vec<u64>,
        queue_names: Vec<(u32, String)>,
        replayed: bool,
    },
    /// A point of the sweep going.
    SweepPoint(SweepPoint),
    /// The sweep ended: every point ran, it was stopped, or it was refused (why).
    SweepDone(Option<String>),
    /// Something the user should read (a scenario refused, training diverged).
    Error(String),
    /// The worker has loaded and takes messages (its first message).
    Ready,
    /// The simulation cannot run: its worker failed to load, did not start or crashed.
    Unavailable(String),
}

impl FromSim {
    /// A packet-trace message for `window`.
    pub fn packets(lane: usize, window: &TraceWindow, replayed: bool) -> FromSim {
        FromSim::Packets { lane, words: window.to_words(), queue_names: window.queue_names.clone(), replayed }
    }
}

/// Where every lane stands, with what is new since the last progress.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Progress {
    pub state: RunState,
    pub now_s: f64,
    pub end_s: f64,
    /// Events processed per wall-clock second while simulating, over the last second.
    pub events_per_s: f64,
    pub lanes: Vec<LaneProgress>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LaneProgress {
    pub update: Update,
    /// Queueing delays of the first flows over the measured window (for the delay KDE).
    pub delays: Vec<LogHistogram>,
    /// Statistics of the window so far (sent a few times a second, and at the end).
    pub summary: Option<Summary>,
    /// Flow 0's congestion-control internals now (the DQN agent's action and Q-values).
    pub cc: Vec<(String, f64)>,
}

/// One finished run of an evaluation.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EvalRun {
    pub label: String,
    pub seed: u64,
    pub summary: Summary,
    /// Per sample: time, flow 0's goodput (Mbit/s), smoothed RTT (ms), drops so far.
    pub trace: Vec<(f64, f64, f64, u64)>,
}

/// What the page posts, as JSON text: a scenario's canonical form (share links and files),
/// which the page's module carries anyway (serialising scenarios a second way cost it 3 kB
/// gzipped). Floats read back bit for bit; a scenario is validated, so none is NaN, which
/// JSON cannot carry (a message that did would be refused by the worker, visibly).
pub fn encode_to_sim(m: &ToSim) -> Result<wasm_bindgen::JsValue, String> {
    // Through the JSON value: the module then writes scenarios to text one way only.
    let v = serde_json::to_value(m).map_err(|e| e.to_string())?;
    serde_json::to_string(&v).map(wasm_bindgen::JsValue::from).map_err(|e| e.to_string())
}

/// The inverse of [`encode_to_sim`].
pub fn decode_to_sim(v: &wasm_bindgen::JsValue) -> Result<ToSim, String> {
    let text = v.as_string().ok_or("a message that is not text")?;
    serde_json::from_str(&text).map_err(|e| e.to_string())
}

/// What the simulation posts, as bytes ([`crate::wire`]: NaN, the statistics of an empty
/// window, and 64-bit integers survive), handed over with their buffer ([`transfer`]).
pub fn encode_from_sim(m: &FromSim) -> Result<js_sys::Uint8Array, String> {
    crate::wire::to_bytes(m).map(|b| js_sys::Uint8Array::from(&b[..])).map_err(|e| e.to_string())
}

/// The inverse of [`encode_from_sim`].
pub fn decode_from_sim(v: &wasm_bindgen::JsValue) -> Result<FromSim, String> {
    let bytes = v.dyn_ref::<js_sys::Uint8Array>().ok_or("a message that is not bytes")?;
    crate::wire::from_bytes(&bytes.to_vec()).map_err(|e| e.to_string())
}

/// The transfer list that moves `bytes`' buffer to the other thread instead of copying it.
pub fn transfer(bytes: &js_sys::Uint8Array) -> js_sys::Array {
    js_sys::Array::of1(&bytes.buffer())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::scenario::{preset, preset_list};

    fn round_trip(m: &ToSim) -> ToSim {
        serde_json::from_str(&serde_json::to_string(m).unwrap()).unwrap()
    }

    #[test]
    fn every_preset_and_the_shipped_weights_reach_the_worker_unchanged() {
        for p in preset_list() {
            for v in p.variants {
                let sc = preset(p.name, Some(v)).unwrap();
                let m = ToSim::Load { lanes: vec![(v.to_string(), sc.clone())], speed: Speed::Times(0.5) };
                let ToSim::Load { lanes, speed } = round_trip(&m) else { panic!("not a load") };
                assert_eq!((lanes[0].1 == sc, speed), (true, Speed::Times(0.5)), "{}/{v}", p.name);
            }
        }
        let weights = sim_core::cc::dqn::model_weights(sim_core::cc::dqn::SHIPPED_MODEL).unwrap();
        let ToSim::RegisterModel { weights: back, .. } =
            round_trip(&ToSim::RegisterModel { id: "m".into(), weights: weights.clone() })
        else {
            panic!("not a model")
        };
        assert_eq!(back, weights, "weights bit for bit");
        let ToSim::Train { seed, .. } = round_trip(&ToSim::Train {
            scenario: preset("dqn-dumbbell", Some("dqn")).unwrap(),
            dqn: Default::default(),
            episodes: 3,
            seed: u64::MAX,
        }) else {
            panic!("not training")
        };
        assert_eq!(seed, u64::MAX);
    }

    /// Every message of a RED study and of a Warbler run (whose log holds JSON values) to
    /// their ends, their exports, a training episode, its weights and an evaluation, each
    /// read back and written again to the same bytes.
    #[test]
    fn what_the_simulation_sends_reads_back_to_the_same_bytes() {
        use crate::engine::Engine;
        let clock = || 0.0;
        let mut out = Vec::new();
        let mut warbler = preset("cubic-vegas-2q", Some("warbler")).unwrap();
        (warbler.duration_s, warbler.warmup_s) = (4.0, 1.0);
        if let sim_core::aqm::QueueDiscSpec::Switch(p) = &mut warbler.bottleneck_mut().queue {
            if let sim_core::switch::ControlPlaneSpec::Warbler(w) = &mut p.control {
                w.activation_s = 1.0;
            }
        }
        for sc in [preset("red-study", Some("red")).unwrap(), warbler] {
            let mut e = Engine::default();
            out.extend(e.handle(ToSim::Load { lanes: vec![("x".into(), sc)], speed: Speed::Max }, &clock));
            e.handle(ToSim::Run, &clock);
            while e.busy() {
                out.extend(e.tick(f64::INFINITY, &clock));
            }
            out.extend(e.handle(ToSim::Export { lane: 0 }, &clock));
        }
        let mut e = Engine::default();
        let dqn = preset("dqn-dumbbell", Some("dqn")).unwrap();
        e.handle(
            ToSim::Train { scenario: dqn.clone(), dqn: Default::default(), episodes: 1, seed: 1 },
            &clock,
        );
        while e.busy() {
            out.extend(e.tick(f64::INFINITY, &clock));
        }
        out.extend(e.handle(ToSim::Evaluate { runs: vec![("dqn".into(), 1, dqn)] }, &clock));
        out.push(FromSim::Unavailable("x".into()));
        let logs: usize = out
            .iter()
            .map(|m| match m {
                FromSim::Progress(p) => p.lanes.iter().map(|l| l.update.log.len()).sum(),
                _ => 0,
            })
            .sum();
        assert!(logs > 0, "the Warbler run logged its decisions");
        for kind in ["Loaded", "Progress", "Files", "Episode", "Trained", "Evaluated"] {
            assert!(out.iter().any(|m| format!("{m:?}").starts_with(kind)), "no {kind} message");
        }
        for m in &out {
            let bytes = crate::wire::to_bytes(m).unwrap();
            let back: FromSim = crate::wire::from_bytes(&bytes).unwrap();
            assert_eq!(crate::wire::to_bytes(&back).unwrap(), bytes, "{m:?}");
        }
    }
}
