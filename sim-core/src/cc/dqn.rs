//! A congestion control whose window comes from a Deep Q-Network (paper
//! `dqn-tcp-congestion-control`, §3.3): every decision interval the agent sees five
//! normalised features (§3.3.1: bytes in flight, cWnd, RTT, segments acknowledged,
//! ssThresh), picks one of four changes to cWnd (§3.3.2: 0, +1500, −150, +4000 bytes) and,
//! while training, is rewarded α·throughput(Mbit/s) − β·RTT(s) (§3.3.3).
//!
//! **Decision interval.** ns3-gym's rl-tcp offers an event-based agent (called on every
//! ACK) and a time-based one (called every `envTimeStep`, 0.1 s in its example). Adding
//! +4000 bytes per ACK would be slow start many times over, so this is the time-based
//! interface: a decision at the first ACK after each `step_ms` (default 100 ms, 100
//! decisions per 10 s episode).
//!
//! **Loss and timeouts.** The agent sets the window only while the sender is in Open or
//! Disorder. On a loss detected by duplicate ACKs ssthresh becomes max(FlightSize/2, 2·MSS)
//! as in RFC 5681 and the sender's recovery (PRR) brings cwnd down to it; on a timeout the
//! sender restarts from one segment. The agent resumes deciding from there; it has no slow
//! start of its own (its +4000 action is its start-up, §3.3.2).
//!
//! **One policy for all flows.** Every DQN flow of a run acts through the same policy: a
//! frozen network shared read-only (`Arc`), or, while training, one agent behind a mutex
//! that all flows feed with experience ([`crate::train`]).

use super::{AckSample, CcMetrics, CcaConfig, CongState, CongestionControl, CongestionKind, Tcb};
use crate::ml::{argmax, DqnAgent, DqnConfig, DqnError, FieldError, Mlp, MlpWeights};
use crate::params::{Algorithm, Checker, Described, Field, Kind, Range};
use crate::rng::SimRng;
use crate::time::{SimDuration, SimTime};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Bytes each action adds to cWnd (§3.3.2): maintain, standard increase, conservative
/// decrease, "rocket" increase.
pub const ACTIONS: [i64; 4] = [0, 1500, -150, 4000];

/// Features the controller observes (§3.3.1): bytes in flight, cWnd, RTT, segments
/// acknowledged, ssThresh.
pub const FEATURES: usize = 5;

/// A learner this controller can train: [`FEATURES`] inputs and one output per action (a
/// network of another shape would index past the features or the actions).
pub fn check_learner(cfg: &DqnConfig) -> Result<(), Vec<FieldError>> {
    let mut errs = Vec::new();
    if cfg.state_dim != FEATURES {
        errs.push(FieldError::new(
            "state_dim",
            cfg.state_dim,
            format!("{FEATURES} (the DQN congestion control observes {FEATURES} features)"),
        ));
    }
    if cfg.actions != ACTIONS.len() {
        errs.push(FieldError::new(
            "actions",
            cfg.actions,
            format!("{} (the cWnd changes 0, +1500, −150, +4000 bytes)", ACTIONS.len()),
        ));
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs)
    }
}

/// The model shipped with AQM Lab: trained by `aqmsim train --preset dqn-dumbbell`.
pub const SHIPPED_MODEL: &str = "dqn-dumbbell";
const SHIPPED_WEIGHTS: &str = include_str!("../../models/dqn-dumbbell.json");

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DqnCcConfig {
    /// Which learned network decides: a model id (the shipped `dqn-dumbbell`, or one a
    /// trainer or the browser registered). Scenarios name models, never inline weights.
    pub model: String,
    /// Time between decisions, ms.
    pub step_ms: f64,
    /// Reward = α·throughput(Mbit/s) − β·RTT(s) (§3.3.3: β = 0.5).
    pub alpha: f64,
    pub beta: f64,
    /// Bytes that normalise bytes in flight, cWnd and ssThresh (divided by it, capped at 16).
    pub norm_bytes: f64,
    /// RTT that normalises the RTT feature, ms (capped at 16 of it).
    pub norm_rtt_ms: f64,
}

impl Default for DqnCcConfig {
    fn default() -> Self {
        DqnCcConfig {
            model: SHIPPED_MODEL.into(),
            step_ms: 100.0,
            alpha: 1.0,
            beta: 0.5,
            norm_bytes: 100_000.0,
            norm_rtt_ms: 100.0,
        }
    }
}

impl Described for DqnCcConfig {
    const INFO: Algorithm = Algorithm {
        tag: "dqn",
        label: "DQN (learned)",
        help: "A Deep Q-Network picks one of 0, +1500, −150, +4000 bytes of cWnd every step from five features (DQN paper §3.3).",
        fields: &[
            Field::new("step_ms", "Decision interval", "ms", Kind::Float(Range::closed(1.0, 10_000.0)), "Time between decisions (ns3-gym time-based step: 100 ms)."),
            Field::new("alpha", "α", "", Kind::Float(Range::closed(0.0, 1000.0)), "Reward per Mbit/s of throughput (training only)."),
            Field::new("beta", "β", "", Kind::Float(Range::closed(0.0, 1000.0)), "Penalty per second of RTT (paper: 0.5; training only)."),
            Field::new("norm_bytes", "Byte scale", "bytes", Kind::Float(Range::closed(1.0, 1e9)), "Bytes in flight, cWnd and ssThresh are divided by it."),
            Field::new("norm_rtt_ms", "RTT scale", "ms", Kind::Float(Range::closed(0.001, 1e5)), "The RTT feature is divided by it."),
        ],
        flavours: &[],
    };

    /// A model no one registered would pass here and fail when the run is built.
    fn check_more(&self, c: &mut Checker) {
        if model(&self.model).is_none() {
            let known = model_ids().join(", ");
            c.push("model", crate::params::echo(&self.model), format!("a known model: {known}"));
        }
    }
}

impl CcaConfig for DqnCcConfig {
    fn build(&self, _rng: SimRng) -> Result<Box<dyn CongestionControl>, String> {
        let net = model(&self.model).ok_or_else(|| {
            format!("unknown model '{}'; known: {}", crate::params::echo(&self.model), model_ids().join(", "))
        })?;
        Ok(Box::new(Dqn::new(self.clone(), Policy::Frozen(net))))
    }
}

/// Models a run can name: the shipped one, and any registered since (a trained or an
/// uploaded network), by id.
fn models() -> &'static Mutex<BTreeMap<String, Arc<Mlp>>> {
    static MODELS: OnceLock<Mutex<BTreeMap<String, Arc<Mlp>>>> = OnceLock::new();
    MODELS.get_or_init(|| {
        let w = MlpWeights::from_json(SHIPPED_WEIGHTS).expect("the shipped weights are valid");
        let net = Mlp::from_weights(&w).expect("the shipped weights build");
        Mutex::new(BTreeMap::from([(SHIPPED_MODEL.to_string(), Arc::new(net))]))
    })
}

/// The network registered under `id`.
pub fn model(id: &str) -> Option<Arc<Mlp>> {
    models().lock().ok()?.get(id).cloned()
}

/// The weights registered under `id`, for download.
pub fn model_weights(id: &str) -> Option<MlpWeights> {
    model(id).map(|m| m.weights())
}

pub fn model_ids() -> Vec<String> {
    models().lock().map(|m| m.keys().cloned().collect()).unwrap_or_default()
}

/// Registers `weights` under `id` (validated: 5 inputs, 4 outputs, finite values), so
/// scenarios can name it.
pub fn register_model(id: &str, weights: &MlpWeights) -> Result<(), String> {
    let net = Mlp::from_weights(weights)
        .map_err(|e| e.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("; "))?;
    if net.inputs() != FEATURES || net.outputs() != ACTIONS.len() {
        return Err(format!(
            "the network has {} inputs and {} outputs; the DQN controller needs {FEATURES} and {}",
            net.inputs(),
            net.outputs(),
            ACTIONS.len()
        ));
    }
    models().lock().map_err(|_| "model store unavailable".to_string())?.insert(id.into(), Arc::new(net));
    Ok(())
}

/// What a training run collects from every flow's decisions.
#[derive(Debug)]
pub struct Learner {
    pub agent: DqnAgent,
    /// Sum of rewards, per-action counts and TD losses since the last reset.
    pub reward_sum: f64,
    pub actions: [u64; 4],
    pub loss_sum: f64,
    pub losses: u64,
    /// The first error (a diverged update): training stops learning from then on.
    pub error: Option<DqnError>,
}

impl Learner {
    pub fn new(agent: DqnAgent) -> Learner {
        Learner { agent, reward_sum: 0.0, actions: [0; 4], loss_sum: 0.0, losses: 0, error: None }
    }

    pub fn reset_episode(&mut self) {
        self.reward_sum = 0.0;
        self.actions = [0; 4];
        self.loss_sum = 0.0;
        self.losses = 0;
    }
}

/// Where a flow's decisions come from.
#[derive(Clone, Debug)]
pub enum Policy {
    /// A frozen network: greedy, shared read-only by every flow.
    Frozen(Arc<Mlp>),
    /// One learning agent shared by every flow of the run.
    Learning(Arc<Mutex<Learner>>),
}

impl Policy {
    fn act(&self, state: &[f64]) -> (usize, Vec<f64>) {
        match self {
            Policy::Frozen(net) => {
                let q = net.forward(state);
                (argmax(&q), q)
            }
            Policy::Learning(l) => {
                let mut l = l.lock().expect("one thread");
                let a = l.agent.act(state);
                l.actions[a] += 1;
                (a, l.agent.q_values(state))
            }
        }
    }

    fn observe(&self, s: &[f64], a: usize, r: f64, s2: &[f64]) {
        let Policy::Learning(l) = self else { return };
        let mut l = l.lock().expect("one thread");
        l.reward_sum += r;
        if l.error.is_some() {
            return;
        }
        match l.agent.observe(s, a, r, s2, false) {
            Ok(Some(loss)) => {
                l.loss_sum += loss;
                l.losses += 1;
            }
            Ok(None) => {}
            Err(e) => l.error = Some(e),
        }
    }
}

/// Per-step tallies.
#[derive(Clone, Debug, Default)]
struct Step {
    start: SimTime,
    segments_acked: u32,
    rtt_sum_s: f64,
    rtt_n: u32,
}

#[derive(Debug)]
pub struct Dqn {
    cfg: DqnCcConfig,
    policy: Policy,
    step: Step,
    interval: SimDuration,
    /// The state and action of the decision in force, awaiting its reward.
    pending: Option<(Vec<f64>, usize)>,
    last_q: Vec<f64>,
    last_reward: f64,
    started: bool,
}

/// The state's features as [`CongestionControl::metrics`] names them.
pub const STATE_NAMES: [&str; 5] =
    ["state_in_flight", "state_cwnd", "state_rtt", "state_acked", "state_ssthresh"];

impl Dqn {
    pub fn new(cfg: DqnCcConfig, policy: Policy) -> Dqn {
        Dqn {
            interval: SimDuration::from_secs_f64(cfg.step_ms / 1e3).max(SimDuration::from_millis(1)),
            cfg,
            policy,
            step: Step::default(),
            pending: None,
            last_q: vec![0.0; ACTIONS.len()],
            last_reward: 0.0,
            started: false,
        }
    }

    /// §3.3.1's five features, each divided by its scale and capped at 16 (named, in
    /// order, by [`STATE_NAMES`]).
    fn state(&self, tcb: &Tcb, rtt_s: f64) -> Vec<f64> {
        let b = self.cfg.norm_bytes;
        let cap = |x: f64| x.clamp(0.0, 16.0);
        vec![
            cap(f64::from(tcb.bytes_in_flight) / b),
            cap(f64::from(tcb.cwnd) / b),
            cap(rtt_s * 1e3 / self.cfg.norm_rtt_ms),
            cap(f64::from(self.step.segments_acked) * f64::from(tcb.mss) / b),
            cap(f64::from(tcb.ssthresh) / b),
        ]
    }

    /// Closes the step: reward the decision in force, take the next one.
    fn decide(&mut self, tcb: &mut Tcb, now: SimTime) {
        let dt = (now - self.step.start).as_secs_f64().max(1e-9);
        let rtt_s = if self.step.rtt_n > 0 {
            self.step.rtt_sum_s / f64::from(self.step.rtt_n)
        } else {
            tcb.srtt.map_or(0.0, |r| r.as_secs_f64())
        };
        let mbps = f64::from(self.step.segments_acked) * f64::from(tcb.mss) * 8.0 / dt / 1e6;
        let reward = self.cfg.alpha * mbps - self.cfg.beta * rtt_s;
        let state = self.state(tcb, rtt_s);
        if let Some((s, a)) = self.pending.take() {
            self.policy.observe(&s, a, reward, &state);
        }
        let (action, q) = self.policy.act(&state);
        if matches!(tcb.state, CongState::Open | CongState::Disorder) {
            let w = i64::from(tcb.cwnd) + ACTIONS[action];
            tcb.cwnd = w.clamp(2 * i64::from(tcb.mss), i64::from(u32::MAX)) as u32;
        }
        self.last_q = q;
        self.last_reward = reward;
        self.pending = Some((state, action));
        self.step = Step { start: now, ..Step::default() };
    }
}

impl CongestionControl for Dqn {
    fn on_ack(&mut self, tcb: &mut Tcb, ack: &AckSample) {
        if !self.started {
            self.started = true;
            self.step.start = ack.now;
        }
        self.step.segments_acked += ack.segments_acked;
        if let Some(r) = ack.latest_rtt {
            self.step.rtt_sum_s += r.as_secs_f64();
            self.step.rtt_n += 1;
        }
        if ack.now >= self.step.start + self.interval {
            self.decide(tcb, ack.now);
        }
    }

    /// The agent, not an increase rule, grows the window.
    fn grow_window(&mut self, _tcb: &mut Tcb, _segments_acked: u32, _now: SimTime) {}

    /// RFC 5681 eq. 4: ssthresh = max(FlightSize / 2, 2·SMSS).
    fn on_congestion(&mut self, tcb: &Tcb, bytes_in_flight: u32, _kind: CongestionKind) -> u32 {
        (bytes_in_flight / 2).max(2 * tcb.mss)
    }

    fn metrics(&self) -> CcMetrics {
        let action = self.pending.as_ref().map(|(_, a)| *a as f64);
        let mut m = CcMetrics { mode: Some("dqn"), values: Vec::new() }
            .with("action", action)
            .with("reward", Some(self.last_reward));
        for (name, q) in ["q_hold", "q_up", "q_down", "q_rocket"].iter().zip(&self.last_q) {
            m.values.push((name, *q));
        }
        // What the agent saw at its last decision (§3.3.1's features, normalised).
        if let Some((state, _)) = &self.pending {
            for (name, x) in STATE_NAMES.iter().zip(state) {
                m.values.push((name, *x));
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::new_reno::tests::tcb;
    use crate::cc::CcaSpec;
    use crate::rng::StreamId;

    fn ack(ms: u64) -> AckSample {
        let rtt = Some(SimDuration::from_millis(30));
        AckSample { now: SimTime(ms * 1_000_000), segments_acked: 2, rtt, latest_rtt: rtt, ece: false }
    }

    #[test]
    fn the_shipped_model_loads_and_has_the_papers_shape() {
        let net = model(SHIPPED_MODEL).unwrap();
        assert_eq!(net.sizes(), &[5, 64, 4]);
    }

    #[test]
    fn a_decision_is_taken_once_per_interval_and_changes_cwnd_by_an_action() {
        let mut d = DqnCcConfig::default().build(SimRng::new(1, StreamId::Flow(0))).unwrap();
        let mut t = tcb(10, 1000);
        let before = i64::from(t.cwnd);
        d.on_ack(&mut t, &ack(0));
        d.on_ack(&mut t, &ack(50));
        assert_eq!(i64::from(t.cwnd), before, "no decision within the first 100 ms");
        d.on_ack(&mut t, &ack(100));
        assert!(
            ACTIONS.contains(&(i64::from(t.cwnd) - before)),
            "cwnd moved by {}",
            i64::from(t.cwnd) - before
        );
        assert!(d.metrics().get("action").is_some());
        assert!(STATE_NAMES.iter().all(|n| d.metrics().get(n).is_some()), "the state it acted on");
    }

    #[test]
    fn the_window_is_left_to_recovery_outside_open_and_never_below_two_segments() {
        let agent = DqnAgent::new(
            DqnConfig { eps_start: 0.0, eps_floor: 0.0, ..Default::default() },
            SimRng::new(1, StreamId::Other(0)),
        )
        .unwrap();
        let mut d =
            Dqn::new(DqnCcConfig::default(), Policy::Learning(Arc::new(Mutex::new(Learner::new(agent)))));
        let mut t = tcb(2, 1000);
        t.state = CongState::Recovery;
        d.on_ack(&mut t, &ack(0));
        d.on_ack(&mut t, &ack(200));
        assert_eq!(t.cwnd, 2000);
        t.state = CongState::Open;
        for i in 0..50 {
            d.on_ack(&mut t, &ack(300 + 100 * i));
            assert!(t.cwnd >= 2 * t.mss);
        }
    }

    #[test]
    fn learning_flows_feed_one_shared_agent() {
        let agent = DqnAgent::new(DqnConfig::default(), SimRng::new(1, StreamId::Other(0))).unwrap();
        let shared = Arc::new(Mutex::new(Learner::new(agent)));
        let mut flows: Vec<Dqn> =
            (0..3).map(|_| Dqn::new(DqnCcConfig::default(), Policy::Learning(shared.clone()))).collect();
        let mut t = tcb(10, 1000);
        for i in 0..5 {
            for f in &mut flows {
                f.on_ack(&mut t, &ack(100 * i));
            }
        }
        let l = shared.lock().unwrap();
        assert_eq!(l.actions.iter().sum::<u64>(), 3 * 4, "three flows, four decisions each");
        assert_eq!(l.agent.steps(), 3 * 3, "each decision after the first is rewarded");
    }

    #[test]
    fn unknown_models_are_refused_by_name() {
        let cfg = DqnCcConfig { model: "nope".into(), ..DqnCcConfig::default() };
        let e = cfg.build(SimRng::new(1, StreamId::Flow(0))).unwrap_err();
        assert!(e.contains("unknown model 'nope'") && e.contains(SHIPPED_MODEL), "{e}");
    }

    #[test]
    fn an_unknown_model_is_refused_by_validation_with_the_known_ones() {
        let mut sc = crate::scenario::preset("dqn-dumbbell", None).unwrap();
        sc.flows[0].cca = CcaSpec::Dqn(DqnCcConfig { model: "nope".into(), ..DqnCcConfig::default() });
        let errs = sc.validate().unwrap_err();
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "flows[0].cca.model");
        assert_eq!(errs[0].value, "nope");
        assert!(errs[0].allowed.contains(SHIPPED_MODEL), "{}", errs[0]);
    }

    #[test]
    fn a_learner_of_another_shape_is_refused_before_training() {
        let sc = crate::scenario::preset("dqn-dumbbell", None).unwrap();
        for (cfg, field, value) in [
            (DqnConfig { state_dim: 6, ..DqnConfig::default() }, "state_dim", "6"),
            (DqnConfig { actions: 5, ..DqnConfig::default() }, "actions", "5"),
            (DqnConfig { actions: 3, ..DqnConfig::default() }, "actions", "3"),
        ] {
            let e = crate::train::Trainer::new(&sc, cfg, 1).err().expect("refused");
            assert!(
                e.starts_with(&format!("{field}: expected ")) && e.ends_with(&format!("got {value}")),
                "{e}"
            );
        }
    }

    #[test]
    fn a_registered_model_needs_five_inputs_and_four_outputs() {
        let net = Mlp::new(&[3, 8, 4], &mut SimRng::new(1, StreamId::Other(0))).unwrap();
        assert!(register_model("bad", &net.weights()).unwrap_err().contains("5 and 4"));
    }
}
