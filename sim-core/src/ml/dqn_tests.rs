//! Behaviour of [`DqnAgent`] on a toy MDP, plus its guards and determinism.

use super::*;
use crate::ml::{DqnConfig, Loss, MlpWeights, Mode};
use crate::rng::StreamId;

/// A 5-state chain, one-hot states. Action 0 moves right, 1 moves left (walls hold), 2 and
/// 3 stay. Reaching state 4 pays 1 and ends the episode; any other step pays 0. Episodes
/// also end without `done` after 30 steps (a time limit, so the transition still
/// bootstraps). Optimal: always right, Q*(s, right) = γ^(3 − s), Q*(s, stay) = γ^(4 − s).
struct Chain {
    pos: usize,
    t: u32,
}

const GOAL: usize = 4;

fn one_hot(pos: usize) -> [f64; 5] {
    let mut s = [0.0; 5];
    s[pos] = 1.0;
    s
}

impl Chain {
    fn step(&mut self, action: usize) -> (f64, bool) {
        match action {
            0 => self.pos += 1,
            1 => self.pos = self.pos.saturating_sub(1),
            _ => {}
        }
        self.t += 1;
        (if self.pos == GOAL { 1.0 } else { 0.0 }, self.pos == GOAL)
    }
}

fn rng(seed: u64) -> SimRng {
    SimRng::new(seed, StreamId::Other(7))
}

fn chain_config(mode: Mode) -> DqnConfig {
    let base = if mode == Mode::Online { DqnConfig::paper_online() } else { DqnConfig::default() };
    DqnConfig { eps_decay: 0.995, learning_starts: if mode == Mode::Online { 0 } else { 100 }, ..base }
}

/// Runs `steps` transitions of the chain; returns the sum of the update losses.
fn train(agent: &mut DqnAgent, steps: usize) -> f64 {
    let mut env = Chain { pos: 0, t: 0 };
    let mut loss_sum = 0.0;
    for _ in 0..steps {
        let s = one_hot(env.pos);
        let a = agent.act(&s);
        let (r, done) = env.step(a);
        let s2 = one_hot(env.pos);
        loss_sum += agent.observe(&s, a, r, &s2, done).unwrap().unwrap_or(0.0);
        if done || env.t >= 30 {
            env = Chain { pos: 0, t: 0 };
        }
    }
    loss_sum
}

fn assert_learned_the_chain(agent: &DqnAgent, q_tolerance: f64) {
    let gamma = agent.config().gamma;
    for pos in 0..GOAL {
        let q = agent.q_values(&one_hot(pos));
        assert_eq!(argmax(&q), 0, "state {pos}: q {q:?}");
        let want = libm::pow(gamma, (3 - pos) as f64);
        assert!((q[0] - want).abs() < q_tolerance, "state {pos}: Q(right) {} vs {want}", q[0]);
    }
}

#[test]
fn replay_dqn_learns_to_walk_the_chain() {
    let mut agent = DqnAgent::new(chain_config(Mode::Replay), rng(1)).unwrap();
    train(&mut agent, 3000);
    assert_learned_the_chain(&agent, 0.1);
    assert_eq!(agent.epsilon(), 0.05, "ε decayed to its floor");
    assert_eq!(agent.updates(), 3000 - 100 + 1);
}

#[test]
fn replay_dqn_learns_the_chain_for_several_seeds() {
    for seed in 2..6 {
        let mut agent = DqnAgent::new(chain_config(Mode::Replay), rng(seed)).unwrap();
        train(&mut agent, 3000);
        assert_learned_the_chain(&agent, 0.15);
    }
}

#[test]
fn online_updates_as_in_the_paper_learn_the_chain_too() {
    // One update per transition on that transition alone, bootstrapping from the network
    // being trained: slower and noisier than replay, hence more steps and a looser check
    // on the values. It is also seed-sensitive: over seeds 0..20, 3 still had one state
    // wrong after 6000 steps (replay: none wrong after 3000), so this pins one seed.
    let mut agent = DqnAgent::new(chain_config(Mode::Online), rng(1)).unwrap();
    train(&mut agent, 6000);
    assert_learned_the_chain(&agent, 0.2);
    assert_eq!(agent.updates(), 6000);
}

#[test]
fn same_seed_gives_bit_identical_weights() {
    let run = |seed| {
        let mut agent = DqnAgent::new(chain_config(Mode::Replay), rng(seed)).unwrap();
        let loss = train(&mut agent, 1000);
        (agent.weights_digest(), agent.weights().to_json(), loss.to_bits())
    };
    let a = run(21);
    assert_eq!(a, run(21));
    assert_ne!(a.0, run(22).0);
}

#[test]
fn frozen_agent_is_greedy_and_learns_nothing() {
    let mut agent = DqnAgent::new(chain_config(Mode::Replay), rng(3)).unwrap();
    train(&mut agent, 500);
    agent.set_frozen(true);
    let before = (agent.weights_digest(), agent.steps(), agent.clone().act(&one_hot(0)));
    assert_eq!(agent.epsilon(), 0.0);
    for pos in 0..GOAL {
        let s = one_hot(pos);
        assert_eq!(agent.act(&s), agent.greedy(&s));
        assert_eq!(agent.observe(&s, 0, 1.0, &one_hot(pos + 1), false), Ok(None));
    }
    assert_eq!((agent.weights_digest(), agent.steps(), agent.act(&one_hot(0))), before);
    agent.set_frozen(false);
    assert!(agent.epsilon() > 0.0);
}

#[test]
fn saved_weights_restore_the_same_policy() {
    let mut agent = DqnAgent::new(chain_config(Mode::Replay), rng(4)).unwrap();
    train(&mut agent, 800);
    let json = agent.weights().to_json();
    let w = MlpWeights::from_json(&json).unwrap();
    let restored = DqnAgent::from_weights(chain_config(Mode::Replay), &w, rng(99)).unwrap();
    assert_eq!(restored.weights_digest(), agent.weights_digest());
    for pos in 0..5 {
        assert_eq!(restored.q_values(&one_hot(pos)), agent.q_values(&one_hot(pos)));
    }
    let wrong = DqnConfig { hidden: vec![32], ..chain_config(Mode::Replay) };
    let err = DqnAgent::from_weights(wrong, &w, rng(99)).unwrap_err();
    assert_eq!(err[0].to_string(), "sizes: expected [5, 32, 4], got [5, 64, 4]");
}

#[test]
fn an_invalid_config_is_refused() {
    let c = DqnConfig { gamma: 1.5, ..DqnConfig::default() };
    assert_eq!(DqnAgent::new(c, rng(0)).unwrap_err()[0].field, "gamma");
}

#[test]
fn bad_transitions_are_refused_before_storing() {
    let mut agent = DqnAgent::new(DqnConfig::default(), rng(5)).unwrap();
    let s = [0.0; 5];
    let cases = [
        agent.observe(&s[..4], 0, 0.0, &s, false),
        agent.observe(&s, 4, 0.0, &s, false),
        agent.observe(&s, 0, f64::NAN, &s, false),
        agent.observe(&s, 0, 0.0, &[0.0, 0.0, f64::INFINITY, 0.0, 0.0], false),
    ];
    let problems: Vec<String> = cases
        .into_iter()
        .map(|r| match r {
            Err(DqnError::BadTransition { step: 1, problem }) => problem,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        problems,
        [
            "state lengths 4 and 5, expected 5",
            "action 4, expected below 4",
            "reward NaN",
            "next_state[2] = inf"
        ]
    );
    assert_eq!(agent.steps(), 0);
}

#[test]
fn a_non_finite_loss_is_reported_as_divergence() {
    // ½δ² of a 1e200 reward overflows; Huber would stay finite (δ·|td|).
    let c = DqnConfig { loss: Loss::Mse, learning_starts: 1, ..DqnConfig::default() };
    let mut agent = DqnAgent::new(c, rng(6)).unwrap();
    let s = [0.5; 5];
    match agent.observe(&s, 1, 1e200, &s, true) {
        Err(DqnError::Diverged { step: 1, what }) => assert_eq!(what, "loss inf"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn huber_keeps_a_huge_reward_finite_and_clipping_bounds_the_step() {
    let c = DqnConfig { learning_starts: 1, grad_clip_norm: Some(1.0), ..DqnConfig::default() };
    let mut agent = DqnAgent::new(c, rng(6)).unwrap();
    let s = [0.5; 5];
    let loss = agent.observe(&s, 1, 1e200, &s, true).unwrap().unwrap();
    assert!(loss.is_finite() && loss > 1e199);
}

#[test]
fn target_network_lags_until_the_sync_step() {
    let c = DqnConfig { learning_starts: 1, target_sync_steps: 10, ..DqnConfig::default() };
    let mut agent = DqnAgent::new(c, rng(8)).unwrap();
    let s = [0.1, 0.2, 0.3, 0.4, 0.5];
    for k in 1..=10u64 {
        agent.observe(&s, 2, 1.0, &s, false).unwrap();
        let same = agent.target.as_ref().unwrap().digest() == agent.online().digest();
        assert_eq!(same, k == 10, "step {k}");
    }
}

#[test]
fn epsilon_decays_multiplicatively_to_the_floor() {
    let c = DqnConfig { eps_decay: 0.5, eps_floor: 0.1, learning_starts: 1_000, ..DqnConfig::default() };
    let mut agent = DqnAgent::new(c, rng(9)).unwrap();
    let s = [0.0; 5];
    let mut seen = Vec::new();
    for _ in 0..5 {
        agent.observe(&s, 0, 0.0, &s, false).unwrap();
        seen.push(agent.epsilon());
    }
    assert_eq!(seen, [0.5, 0.25, 0.125, 0.1, 0.1]);
}
