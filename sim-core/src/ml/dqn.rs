//! The DQN learner, independent of any simulator type: states are `&[f64]`, actions indices.
//!
//! Per observed transition (s, a, r, s′, done) the agent stores it, decays ε, and when due
//! takes one Adam step on the TD loss of a mini-batch (or, in [`Mode::Online`], of that
//! transition alone). The target is the Bellman backup (paper §3.3.4)
//!
//!   y = r + γ·max_a′ Q_target(s′, a′),  y = r when s′ is terminal,
//!
//! and the loss, Huber or ½-squared, applies to the taken action's output only: dL/dQ is
//! zero for the other actions. The batch loss is the mean over samples. Targets use the
//! parameters from before the step (the target network, or the online network when there
//! is none).
//!
//! After training, [`DqnAgent::set_frozen`] gives the paper's test phase (§4): ε = 0, no
//! learning, greedy actions from the learned weights.

use super::adam::Adam;
use super::dqn_config::{DqnConfig, Mode};
use super::error::{DqnError, FieldError};
use super::mlp::{Activations, Gradients, Mlp};
use super::replay::ReplayBuffer;
use super::weights::MlpWeights;
use crate::rng::SimRng;

#[derive(Clone, Debug)]
pub struct DqnAgent {
    config: DqnConfig,
    online: Mlp,
    /// None when `target_sync_steps` is 0: targets bootstrap from `online`.
    target: Option<Mlp>,
    adam: Adam,
    grads: Gradients,
    replay: ReplayBuffer,
    rng: SimRng,
    eps: f64,
    steps: u64,
    frozen: bool,
    last_loss: Option<f64>,
    scratch: Activations,
    scratch_target: Activations,
    batch_idx: Vec<usize>,
    /// The batch's states and next states, back to back, and dL/dQ for each sample.
    xs: Vec<f64>,
    next_xs: Vec<f64>,
    dl_dy: Vec<f64>,
}

impl DqnAgent {
    /// A fresh agent. Weight initialisation draws from `rng` first; exploration and replay
    /// sampling then draw from it too, so one stream fixes the whole run.
    pub fn new(config: DqnConfig, mut rng: SimRng) -> Result<DqnAgent, Vec<FieldError>> {
        config.validate()?;
        let online = Mlp::new(&config.layer_sizes(), &mut rng).map_err(|e| vec![e])?;
        Ok(DqnAgent::build(config, online, rng))
    }

    /// An agent starting from saved weights, whose widths must be `config.layer_sizes()`.
    /// Adam's moments and the replay buffer start empty; ε starts at `eps_start`.
    pub fn from_weights(
        config: DqnConfig,
        weights: &MlpWeights,
        rng: SimRng,
    ) -> Result<DqnAgent, Vec<FieldError>> {
        config.validate()?;
        let online = Mlp::from_weights(weights)?;
        let want = config.layer_sizes();
        if online.sizes() != want.as_slice() {
            return Err(vec![FieldError::new("sizes", format!("{:?}", online.sizes()), format!("{want:?}"))]);
        }
        Ok(DqnAgent::build(config, online, rng))
    }

    fn build(config: DqnConfig, online: Mlp, rng: SimRng) -> DqnAgent {
        let capacity = if config.mode == Mode::Online { 1 } else { config.replay_capacity };
        DqnAgent {
            target: (config.target_sync_steps > 0).then(|| online.clone()),
            adam: Adam::new(&online, config.lr),
            grads: online.zero_gradients(),
            replay: ReplayBuffer::new(config.state_dim, capacity),
            rng,
            eps: config.eps_start,
            steps: 0,
            frozen: false,
            last_loss: None,
            scratch: online.scratch(),
            scratch_target: online.scratch(),
            batch_idx: Vec::new(),
            xs: Vec::new(),
            next_xs: Vec::new(),
            dl_dy: Vec::new(),
            online,
            config,
        }
    }

    pub fn config(&self) -> &DqnConfig {
        &self.config
    }

    /// Current exploration rate (0 when frozen).
    pub fn epsilon(&self) -> f64 {
        if self.frozen {
            0.0
        } else {
            self.eps
        }
    }

    /// Transitions observed while learning.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Gradient steps taken.
    pub fn updates(&self) -> u64 {
        self.adam.steps()
    }

    /// Loss of the most recent update.
    pub fn last_loss(&self) -> Option<f64> {
        self.last_loss
    }

    /// Frozen: ε = 0 and [`observe`](DqnAgent::observe) neither stores nor learns (the
    /// paper's test phase). Unfreezing resumes with the ε it had.
    pub fn set_frozen(&mut self, frozen: bool) {
        self.frozen = frozen;
    }

    pub fn is_frozen(&self) -> bool {
        self.frozen
    }

    /// Q(s, ·) from the online network.
    pub fn q_values(&self, state: &[f64]) -> Vec<f64> {
        self.online.forward(state)
    }

    /// argmax_a Q(s, a); ties go to the lowest index.
    pub fn greedy(&self, state: &[f64]) -> usize {
        argmax(&self.q_values(state))
    }

    /// ε-greedy: with probability ε a uniformly random action, else [`greedy`](DqnAgent::greedy).
    /// Frozen: always greedy, and no random draw.
    pub fn act(&mut self, state: &[f64]) -> usize {
        if !self.frozen && self.rng.uniform() < self.eps {
            self.rng.below(self.config.actions as u64) as usize
        } else {
            self.greedy(state)
        }
    }

    /// Records one transition and learns when due; returns the update's loss if one
    /// happened. Frozen: does nothing and returns `Ok(None)`.
    pub fn observe(
        &mut self,
        state: &[f64],
        action: usize,
        reward: f64,
        next_state: &[f64],
        done: bool,
    ) -> Result<Option<f64>, DqnError> {
        if self.frozen {
            return Ok(None);
        }
        self.check_transition(state, action, reward, next_state)?;
        self.steps += 1;
        self.replay.push(state, action, reward, next_state, done);
        if self.eps > self.config.eps_floor {
            let decayed = self.eps * self.config.eps_decay;
            self.eps = if decayed > self.config.eps_floor { decayed } else { self.config.eps_floor };
        }
        let mut loss = None;
        if self.steps >= self.config.learning_starts && self.steps % self.config.train_every == 0 {
            loss = Some(self.train()?);
            self.last_loss = loss;
        }
        if let Some(target) = &mut self.target {
            if self.steps % self.config.target_sync_steps == 0 {
                target.copy_from(&self.online);
            }
        }
        Ok(loss)
    }

    fn check_transition(&self, s: &[f64], a: usize, r: f64, s2: &[f64]) -> Result<(), DqnError> {
        let bad = |problem: String| Err(DqnError::BadTransition { step: self.steps + 1, problem });
        let dim = self.config.state_dim;
        if s.len() != dim || s2.len() != dim {
            return bad(format!("state lengths {} and {}, expected {dim}", s.len(), s2.len()));
        }
        if a >= self.config.actions {
            return bad(format!("action {a}, expected below {}", self.config.actions));
        }
        if !r.is_finite() {
            return bad(format!("reward {r}"));
        }
        if let Some(i) = s.iter().chain(s2).position(|v| !v.is_finite()) {
            let (which, j) = if i < dim { ("state", i) } else { ("next_state", i - dim) };
            return bad(format!("{which}[{j}] = {}", if i < dim { s[j] } else { s2[j] }));
        }
        Ok(())
    }

    /// One Adam step on the mean TD loss of a mini-batch; returns that mean.
    fn train(&mut self) -> Result<f64, DqnError> {
        match self.config.mode {
            Mode::Replay => self.replay.sample_into(self.config.batch, &mut self.rng, &mut self.batch_idx),
            Mode::Online => {
                self.batch_idx.clear();
                self.batch_idx.push(self.replay.latest());
            }
        }
        let actions = self.config.actions;
        let gamma = self.config.gamma;
        self.xs.clear();
        self.next_xs.clear();
        for &i in &self.batch_idx {
            let t = self.replay.get(i);
            self.xs.extend_from_slice(t.state);
            self.next_xs.extend_from_slice(t.next_state);
        }
        let bootstrap = self.target.as_ref().unwrap_or(&self.online);
        let q_next = bootstrap.forward_batch(&self.next_xs, &mut self.scratch_target);
        let q = self.online.forward_batch(&self.xs, &mut self.scratch);
        let n = self.batch_idx.len() as f64;
        self.dl_dy.clear();
        self.dl_dy.resize(self.batch_idx.len() * actions, 0.0);
        let mut total = 0.0;
        for (j, &i) in self.batch_idx.iter().enumerate() {
            let t = self.replay.get(i);
            let y = if t.done {
                t.reward
            } else {
                let row = &q_next[j * actions..][..actions];
                t.reward + gamma * row[argmax(row)]
            };
            let (loss, slope) = self.config.loss.value_and_slope(q[j * actions + t.action] - y);
            total += loss;
            self.dl_dy[j * actions + t.action] = slope / n;
        }
        self.grads.clear();
        self.online.backward_batch(&mut self.scratch, &self.dl_dy, &mut self.grads);
        let mean = total / n;
        if !mean.is_finite() {
            return Err(DqnError::Diverged { step: self.steps, what: format!("loss {mean}") });
        }
        if let Some(max_norm) = self.config.grad_clip_norm {
            let norm = self.grads.global_norm();
            if norm > max_norm {
                self.grads.scale(max_norm / norm);
            }
        }
        self.adam.step(&mut self.online, &self.grads);
        if let Some(k) = self.online.params().iter().position(|p| !p.is_finite()) {
            return Err(DqnError::Diverged {
                step: self.steps,
                what: format!("parameter {k} is non-finite"),
            });
        }
        Ok(mean)
    }

    /// The online network's weights.
    pub fn weights(&self) -> MlpWeights {
        self.online.weights()
    }

    /// FNV-1a digest of the online network's exact bits (see [`MlpWeights::digest`]).
    pub fn weights_digest(&self) -> u64 {
        self.online.digest()
    }

    pub fn online(&self) -> &Mlp {
        &self.online
    }
}

/// Index of the largest value; the first one on ties. Comparisons with NaN are false, so a
/// NaN never replaces the current best.
pub fn argmax(xs: &[f64]) -> usize {
    let mut best = 0;
    for (i, &x) in xs.iter().enumerate().skip(1) {
        if x > xs[best] {
            best = i;
        }
    }
    best
}

#[cfg(test)]
#[path = "dqn_tests.rs"]
mod tests;
