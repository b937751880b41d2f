//! Training the DQN congestion control (DQN paper §3.3.4, §4): episode after episode of
//! the same scenario, every DQN flow acting through one learning agent (handed to the flows
//! by a [`CcFactory`]), ε decaying per decision. Afterwards the agent is frozen (ε = 0) and
//! its weights can be registered as a model that scenarios name.
//!
//! Each episode runs the scenario with seed `seed + episode`, so randomised parts (start
//! times, random losses) differ between episodes while the whole run stays reproducible.

use crate::cc::dqn::{Learner, Policy};
use crate::cc::{CcFactory, CcaSpec, CongestionControl, Dqn};
use crate::ml::{DqnAgent, DqnConfig, MlpWeights};
use crate::rng::{SimRng, StreamId};
use crate::scenario::Scenario;
use crate::sim::Simulation;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex};

/// Hands every DQN flow the shared learning agent; other flows are built from their spec.
pub struct LearningFactory {
    pub learner: Arc<Mutex<Learner>>,
}

impl CcFactory for LearningFactory {
    fn build(&self, _flow: u32, spec: &CcaSpec, rng: SimRng) -> Result<Box<dyn CongestionControl>, String> {
        match spec {
            CcaSpec::Dqn(c) => Ok(Box::new(Dqn::new(c.clone(), Policy::Learning(self.learner.clone())))),
            other => other.build_with(rng),
        }
    }
}

/// One row of the learning curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpisodeReport {
    pub episode: u32,
    /// Sum of the rewards the agent received in the episode.
    pub episode_return: f64,
    /// ε at the end of the episode.
    pub epsilon: f64,
    /// Mean TD loss of the episode's updates (None before learning starts).
    pub mean_loss: Option<f64>,
    /// How often each action (0, +1500, −150, +4000 bytes) was taken.
    pub actions: [u64; 4],
    pub throughput_mbps: f64,
    pub mean_rtt_ms: Option<f64>,
    pub drops: u64,
}

/// A training run that advances one episode at a time (the CLI loops; the browser's worker
/// runs one per message so the page can draw the curve between them).
pub struct Trainer {
    scenario: Scenario,
    learner: Arc<Mutex<Learner>>,
    episode: u32,
}

impl Trainer {
    /// Refuses a scenario without a DQN flow and a learner configuration out of range.
    pub fn new(scenario: &Scenario, dqn: DqnConfig, seed: u64) -> Result<Trainer, String> {
        if !scenario.flows.iter().any(|g| matches!(g.cca, CcaSpec::Dqn(_))) {
            return Err("the scenario has no DQN flow to train".into());
        }
        scenario.validate().map_err(|e| e.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("; "))?;
        crate::cc::dqn::check_learner(&dqn)
            .map_err(|e| e.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("; "))?;
        let agent = DqnAgent::new(dqn, SimRng::new(seed, StreamId::Other(0xD0)))
            .map_err(|e| e.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("; "))?;
        Ok(Trainer {
            scenario: scenario.clone(),
            learner: Arc::new(Mutex::new(Learner::new(agent))),
            episode: 0,
        })
    }

    pub fn episodes_done(&self) -> u32 {
        self.episode
    }

    /// Runs the next episode; a diverged update stops training with its message.
    pub fn run_episode(&mut self) -> Result<EpisodeReport, String> {
        let mut sc = self.scenario.clone();
        sc.seed = self.scenario.seed.wrapping_add(u64::from(self.episode));
        self.learner.lock().expect("one thread").reset_episode();
        let factory = LearningFactory { learner: self.learner.clone() };
        let mut sim = Simulation::with_factory(&sc, &factory)
            .map_err(|e| e.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("; "))?;
        let summary = sim.finish();
        let l = self.learner.lock().expect("one thread");
        if let Some(e) = &l.error {
            return Err(format!("training stopped in episode {}: {e}", self.episode + 1));
        }
        let dqn_flows: Vec<_> = summary.flows.iter().filter(|f| f.cca == "dqn").collect();
        let rtts: Vec<f64> = dqn_flows.iter().filter_map(|f| f.srtt_ms_mean).collect();
        self.episode += 1;
        Ok(EpisodeReport {
            episode: self.episode,
            episode_return: l.reward_sum,
            epsilon: l.agent.epsilon(),
            mean_loss: (l.losses > 0).then(|| l.loss_sum / l.losses as f64),
            actions: l.actions,
            throughput_mbps: dqn_flows.iter().map(|f| f.throughput_bps).sum::<f64>() / 1e6,
            mean_rtt_ms: (!rtts.is_empty()).then(|| rtts.iter().sum::<f64>() / rtts.len() as f64),
            drops: summary.drops.total,
        })
    }

    /// The agent's weights now (frozen use: register them as a model).
    pub fn weights(&self) -> MlpWeights {
        self.learner.lock().expect("one thread").agent.weights()
    }

    pub fn weights_digest(&self) -> u64 {
        self.learner.lock().expect("one thread").agent.weights_digest()
    }
}

/// `episodes` episodes; `progress` sees each row of the learning curve as it comes.
pub fn train(
    scenario: &Scenario,
    dqn: DqnConfig,
    seed: u64,
    episodes: u32,
    mut progress: impl FnMut(&EpisodeReport),
) -> Result<(MlpWeights, Vec<EpisodeReport>), String> {
    let mut t = Trainer::new(scenario, dqn, seed)?;
    let mut curve = Vec::with_capacity(episodes as usize);
    for _ in 0..episodes {
        let r = t.run_episode()?;
        progress(&r);
        curve.push(r);
    }
    Ok((t.weights(), curve))
}

/// The learning curve as CSV: episode,return,epsilon,mean_td_loss,hold,up,down,rocket,
/// throughput_mbps,mean_rtt_ms,drops.
pub fn curve_csv(curve: &[EpisodeReport]) -> String {
    let mut s = String::from(
        "episode,return,epsilon,mean_td_loss,a_hold,a_up1500,a_down150,a_up4000,throughput_mbps,mean_rtt_ms,drops\n",
    );
    for r in curve {
        let opt = |v: Option<f64>| v.map(|x| format!("{x:.6}")).unwrap_or_default();
        s.push_str(&format!(
            "{},{:.6},{:.6},{},{},{},{},{},{:.6},{},{}\n",
            r.episode,
            r.episode_return,
            r.epsilon,
            opt(r.mean_loss),
            r.actions[0],
            r.actions[1],
            r.actions[2],
            r.actions[3],
            r.throughput_mbps,
            opt(r.mean_rtt_ms),
            r.drops
        ));
    }
    s
}
