//! [`DqnConfig`]: every knob of the learner, with defaults, and a validation that names each
//! bad field with its value and the allowed range.
//!
//! Sources: the paper (§3.3.4: one hidden layer of 64 ReLU, linear output, Adam, ε-greedy
//! from 1.0 with a slow per-step decay, Bellman target) and, where the paper is silent, the
//! common open setup it descends from (ns3-ai / ns3-gym rl-tcp: replay 2000, batch 32,
//! target network synced every 100 steps).

use super::error::FieldError;
use super::file;
use super::weights::check_sizes;
use crate::params::{fmt_num, json};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How the TD error of the taken action becomes a loss.
///
/// The paper compiles its Keras model with `categorical_crossentropy`. That loss compares
/// two probability distributions; Q-values are unbounded regression targets (a sum of
/// discounted rewards, possibly negative) and a linear output layer is not a distribution,
/// so cross-entropy is not meaningful here and is not offered. Huber is the default: it is
/// what DQN (Mnih et al. 2015) effectively uses by clipping the error term to [−1, 1], and
/// keeps one outlying target (a sudden RTT spike) from producing a huge gradient.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", from = "LossForm")]
pub enum Loss {
    /// ½δ² for |δ| ≤ `delta`, `delta`·(|δ| − ½`delta`) beyond: the gradient is the TD error
    /// clipped to ±`delta`.
    Huber { delta: f64 },
    /// ½δ²: the gradient is the TD error itself.
    Mse,
}

/// How a [`Loss`] is read: serde ignores stray keys beside an internally tagged unit
/// variant (`{"type": "mse", "delta": 1}`), so `mse` is read as an empty struct.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum LossForm {
    Huber { delta: f64 },
    Mse {},
}

impl From<LossForm> for Loss {
    fn from(f: LossForm) -> Loss {
        match f {
            LossForm::Huber { delta } => Loss::Huber { delta },
            LossForm::Mse {} => Loss::Mse,
        }
    }
}

impl Loss {
    /// Loss and dLoss/dQ for TD error δ = Q(s, a) − target.
    pub fn value_and_slope(self, td: f64) -> (f64, f64) {
        match self {
            Loss::Mse => (0.5 * td * td, td),
            Loss::Huber { delta } if td.abs() <= delta => (0.5 * td * td, td),
            Loss::Huber { delta } => {
                (delta * (td.abs() - 0.5 * delta), if td > 0.0 { delta } else { -delta })
            }
        }
    }
}

/// Where the training samples come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// DQN as in Mnih et al. 2015: store every transition in a ring of `replay_capacity`,
    /// train on uniform mini-batches of `batch` drawn from it.
    Replay,
    /// The paper's loop (§3.3.4 step 4): one update per step on the latest transition only,
    /// no replay; `batch` and `replay_capacity` are ignored. The paper bootstraps from the
    /// network being trained (no target network): set `target_sync_steps` to 0 for that, or
    /// keep a target network, which is allowed here too. [`DqnConfig::paper_online`] has it.
    Online,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DqnConfig {
    /// Length of the state vector (paper §3.3.1: bytesInFlight, cWnd, RTT, segmentsAcked,
    /// ssThresh). The caller normalises it; the network sees it as given.
    pub state_dim: usize,
    /// Number of discrete actions (paper §3.3.2: 0, +1500, −150, +4000 bytes of cWnd).
    pub actions: usize,
    /// Hidden-layer widths, all ReLU (paper: one layer of 64).
    pub hidden: Vec<usize>,
    /// Discount γ. Default 0.95: a horizon 1/(1 − γ) of 20 decisions, 0.2-2 s at 10-100 ms
    /// decision intervals, many RTTs of the paper's dumbbell, so the delayed effect of a cWnd
    /// change on RTT is credited, while Q stays about 20× the per-step reward, an easy scale
    /// to regress. The paper gives no value; open setups use 0.8-0.99.
    pub gamma: f64,
    /// Adam step size (REFERENCE: 1e-4 to 1e-3 in open setups; Keras's default 1e-3).
    pub lr: f64,
    /// Exploration rate at the start (paper: 1.0).
    pub eps_start: f64,
    /// Exploration never decays below this.
    pub eps_floor: f64,
    /// Multiplicative decay of ε per observed transition (the paper's Keras-style
    /// `epsilon *= epsilon_decay`). 0.9995 reaches the 0.05 floor after ≈ 6000 steps: about
    /// 60 of the paper's 100 episodes at a 100 ms decision interval.
    pub eps_decay: f64,
    /// Transitions kept for replay (ns3-ai rl-tcp: 2000).
    pub replay_capacity: usize,
    /// Mini-batch size (ns3-ai rl-tcp: 32).
    pub batch: usize,
    /// Copy the online network into the target network every this many transitions
    /// (ns3-ai rl-tcp: 100). 0: no target network; targets bootstrap from the network being
    /// trained, as the paper does.
    pub target_sync_steps: u64,
    /// No update until this many transitions have been observed, so the first mini-batches
    /// are not drawn from a handful of near-identical start-up states.
    pub learning_starts: u64,
    /// One gradient step every this many transitions.
    pub train_every: u64,
    pub loss: Loss,
    pub mode: Mode,
    /// Rescale the gradient when its global L2 norm exceeds this. None (default): Huber
    /// already bounds each sample's output gradient.
    pub grad_clip_norm: Option<f64>,
}

impl Default for DqnConfig {
    fn default() -> Self {
        DqnConfig {
            state_dim: 5,
            actions: 4,
            hidden: vec![64],
            gamma: 0.95,
            lr: 1e-3,
            eps_start: 1.0,
            eps_floor: 0.05,
            eps_decay: 0.9995,
            replay_capacity: 2000,
            batch: 32,
            target_sync_steps: 100,
            learning_starts: 200,
            train_every: 1,
            loss: Loss::Huber { delta: 1.0 },
            mode: Mode::Replay,
            grad_clip_norm: None,
        }
    }
}

/// Largest replay buffer accepted: 200k transitions of a 5-dim state is 19 MB.
pub const MAX_REPLAY: usize = 200_000;

impl DqnConfig {
    /// The paper's own loop as far as it is described: online updates on each transition,
    /// no replay, no target network. The loss stays Huber (see [`Loss`]).
    pub fn paper_online() -> DqnConfig {
        DqnConfig { mode: Mode::Online, target_sync_steps: 0, learning_starts: 0, ..DqnConfig::default() }
    }

    /// Parses a settings file strictly ([`super::file`]: each key once, no unknown key, no
    /// positional list for the settings or the loss, finite numbers) and validates it;
    /// missing fields take their defaults. Every error names its field.
    pub fn from_json(text: &str) -> Result<DqnConfig, Vec<FieldError>> {
        let c: DqnConfig = file::read(
            text,
            "an object of named settings, e.g. {\"gamma\": 0.95, \"hidden\": [64]}",
            allowed_at,
        )?;
        c.validate()?;
        Ok(c)
    }

    /// `[state_dim, hidden.., actions]`.
    pub fn layer_sizes(&self) -> Vec<usize> {
        let mut s = Vec::with_capacity(self.hidden.len() + 2);
        s.push(self.state_dim);
        s.extend(&self.hidden);
        s.push(self.actions);
        s
    }

    /// Checks every field; returns all problems at once.
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut e = Vec::new();
        let mut push = |field: &str, value: &dyn std::fmt::Display, allowed: &str| {
            e.push(FieldError::new(field, value, allowed));
        };
        let f_in = |v: f64, lo: f64, hi: f64| v.is_finite() && v >= lo && v <= hi;
        if !(1..=64).contains(&self.state_dim) {
            push("state_dim", &self.state_dim, "1 to 64");
        }
        if !(2..=64).contains(&self.actions) {
            push("actions", &self.actions, "2 to 64");
        }
        if self.hidden.len() > 8 {
            push("hidden", &format!("{} layers", self.hidden.len()), "at most 8 layers");
        }
        for (i, &h) in self.hidden.iter().enumerate() {
            if !(1..=4096).contains(&h) {
                push(&format!("hidden[{i}]"), &h, "1 to 4096");
            }
        }
        if self.hidden.len() <= 8 && self.hidden.iter().all(|h| (1..=4096).contains(h)) {
            if let Err(err) = check_sizes(&self.layer_sizes()) {
                push("hidden", &err.value, &err.allowed);
            }
        }
        if !(f_in(self.gamma, 0.0, 1.0) && self.gamma < 1.0) {
            push("gamma", &fmt_num(self.gamma), "0 to 1 (1 excluded)");
        }
        if !(f_in(self.lr, 0.0, 1.0) && self.lr > 0.0) {
            push("lr", &fmt_num(self.lr), "more than 0, at most 1");
        }
        if !f_in(self.eps_start, 0.0, 1.0) {
            push("eps_start", &fmt_num(self.eps_start), "0 to 1");
        }
        if !f_in(self.eps_floor, 0.0, 1.0) || self.eps_floor > self.eps_start {
            push("eps_floor", &fmt_num(self.eps_floor), "0 to eps_start");
        }
        if !(f_in(self.eps_decay, 0.0, 1.0) && self.eps_decay > 0.0) {
            push("eps_decay", &fmt_num(self.eps_decay), "more than 0, at most 1");
        }
        if self.mode == Mode::Replay {
            if !(1..=MAX_REPLAY).contains(&self.replay_capacity) {
                push("replay_capacity", &self.replay_capacity, "1 to 200000");
            }
            if !(1..=1024).contains(&self.batch) {
                push("batch", &self.batch, "1 to 1024");
            }
        }
        if self.target_sync_steps > 100_000_000 {
            push("target_sync_steps", &self.target_sync_steps, "0 (no target network) to 100000000");
        }
        if self.learning_starts > 1_000_000_000 {
            push("learning_starts", &self.learning_starts, "0 to 1000000000");
        }
        if !(1..=1_000_000).contains(&self.train_every) {
            push("train_every", &self.train_every, "1 to 1000000");
        }
        if let Loss::Huber { delta } = self.loss {
            if !(f_in(delta, 0.0, 1e6) && delta > 0.0) {
                push("loss.delta", &fmt_num(delta), "more than 0, at most 1000000");
            }
        }
        if let Some(c) = self.grad_clip_norm {
            if !(f_in(c, 0.0, 1e9) && c > 0.0) {
                push("grad_clip_norm", &fmt_num(c), "none, or more than 0 and at most 1000000000");
            }
        }
        if e.is_empty() {
            Ok(())
        } else {
            Err(e)
        }
    }
}

/// What the setting at `path` allows, asked of [`DqnConfig::validate`] with a value out of
/// every range in its place (a huge float, else a huge whole number).
fn allowed_at(doc: &Value, path: &str) -> Option<String> {
    let pointer = file::pointer(path);
    [Value::from(1e308), Value::from(u32::MAX)].into_iter().find_map(|probe| {
        let mut d = doc.clone();
        *d.pointer_mut(&pointer)? = probe;
        let errs = json::deserialize::<DqnConfig>(&d).ok()?.validate().err()?;
        errs.into_iter().find(|e| e.field == path).map(|e| e.allowed)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(c: &DqnConfig) -> Vec<String> {
        c.validate().unwrap_err().into_iter().map(|e| e.field).collect()
    }

    #[test]
    fn defaults_and_the_paper_preset_validate() {
        assert_eq!(DqnConfig::default().validate(), Ok(()));
        assert_eq!(DqnConfig::paper_online().validate(), Ok(()));
        assert_eq!(DqnConfig::default().layer_sizes(), [5, 64, 4]);
    }

    #[test]
    fn every_bad_field_is_named() {
        let c = DqnConfig {
            state_dim: 0,
            actions: 1,
            hidden: vec![64, 0],
            gamma: 1.0,
            lr: 0.0,
            eps_start: 1.5,
            eps_floor: f64::NAN,
            eps_decay: 0.0,
            replay_capacity: 0,
            batch: 5000,
            target_sync_steps: u64::MAX,
            learning_starts: u64::MAX,
            train_every: 0,
            loss: Loss::Huber { delta: -1.0 },
            mode: Mode::Replay,
            grad_clip_norm: Some(f64::INFINITY),
        };
        let expect = [
            "state_dim",
            "actions",
            "hidden[1]",
            "gamma",
            "lr",
            "eps_start",
            "eps_floor",
            "eps_decay",
            "replay_capacity",
            "batch",
            "target_sync_steps",
            "learning_starts",
            "train_every",
            "loss.delta",
            "grad_clip_norm",
        ];
        assert_eq!(fields(&c), expect);
    }

    #[test]
    fn a_network_too_big_is_refused_on_hidden() {
        let c = DqnConfig { hidden: vec![4096, 4096], ..DqnConfig::default() };
        assert_eq!(fields(&c), ["hidden"]);
    }

    #[test]
    fn online_mode_ignores_replay_fields() {
        let c = DqnConfig { replay_capacity: 0, batch: 0, ..DqnConfig::paper_online() };
        assert_eq!(c.validate(), Ok(()));
    }

    #[test]
    fn config_round_trips_through_json_and_fills_missing_fields() {
        let c = DqnConfig { loss: Loss::Mse, grad_clip_norm: Some(10.0), ..DqnConfig::paper_online() };
        let back: DqnConfig = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(back, c);
        let partial: DqnConfig =
            serde_json::from_str(r#"{"gamma": 0.9, "loss": {"type": "huber", "delta": 2.0}}"#).unwrap();
        assert_eq!(partial.gamma, 0.9);
        assert_eq!(partial.loss, Loss::Huber { delta: 2.0 });
        assert_eq!(partial.batch, 32);
    }

    #[test]
    fn settings_files_are_read_strictly_with_the_field_named() {
        let err = |text: &str| DqnConfig::from_json(text).unwrap_err().remove(0).to_string();
        assert_eq!(DqnConfig::from_json(r#"{"gamma": 0.9}"#).unwrap().gamma, 0.9);
        assert_eq!(err(r#"{"gama": 0.9}"#), "gama: expected an object of named settings, e.g. {\"gamma\": 0.95, \"hidden\": [64]}, got unknown field 'gama'; did you mean 'gamma'?");
        assert_eq!(err(r#"{"gamma": Infinity}"#), "gamma: expected 0 to 1 (1 excluded), got Infinity");
        assert_eq!(err(r#"{"hidden": [NaN]}"#), "hidden[0]: expected 1 to 4096, got NaN");
        assert_eq!(
            err(r#"{"loss": {"type": "huber", "delta": -Infinity}}"#),
            "loss.delta: expected more than 0, at most 1000000, got -Infinity"
        );
        assert_eq!(err(r#"{"lr": 0.1, "lr": 0.2}"#), "lr: expected each key once, got \"lr\" given twice");
        // Positional lists, for the settings or for the loss, are not read.
        assert!(err("[5, 4, [64]]").starts_with("json: expected an object of named settings"));
        assert!(
            err(r#"{"loss": ["huber", 1.0]}"#).starts_with("loss: expected"),
            "{}",
            err(r#"{"loss": ["huber", 1.0]}"#)
        );
        assert!(err(r#"{"loss": {"type": "mse", "delta": 1}}"#).contains("unknown field 'delta'"));
        assert_eq!(err(r#"{"batch": 1e400}"#), "batch: expected 1 to 1024, got 1e400");
        assert!(err(r#"{"gamma": 2}"#).starts_with("gamma: expected 0 to 1"));
        let long = format!("{{\"batch\": 1{}}}", "0".repeat(300));
        assert!(err(&long).len() < 200, "{}", err(&long));
    }

    #[test]
    fn huber_slope_is_the_td_error_clipped_to_delta() {
        let h = Loss::Huber { delta: 1.0 };
        assert_eq!(h.value_and_slope(0.5), (0.125, 0.5));
        assert_eq!(h.value_and_slope(3.0), (2.5, 1.0));
        assert_eq!(h.value_and_slope(-3.0), (2.5, -1.0));
        assert_eq!(Loss::Mse.value_and_slope(-3.0), (4.5, -3.0));
    }
}
