//! The DQN learner at the paper's size (5 → 64 ReLU → 4): one forward pass, and one
//! training step (a batch of 32 from a full 2000-transition replay buffer, Huber loss,
//! Adam), which is what each simulated decision costs while training.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use sim_core::ml::{DqnAgent, DqnConfig, Mlp};
use sim_core::rng::{SimRng, StreamId};

fn state(rng: &mut SimRng) -> [f64; 5] {
    std::array::from_fn(|_| rng.uniform() * 2.0 - 1.0)
}

fn forward(c: &mut Criterion) {
    let mut rng = SimRng::new(1, StreamId::Other(0));
    let net = Mlp::new(&[5, 64, 4], &mut rng).unwrap();
    let x = state(&mut rng);
    let mut scratch = net.scratch();
    c.bench_function("mlp 5-64-4 forward (scratch reused)", |b| {
        b.iter(|| net.forward_batch(black_box(&x), &mut scratch)[0])
    });
    c.bench_function("mlp 5-64-4 forward (allocating)", |b| b.iter(|| net.forward(black_box(&x))));
    let xs: Vec<f64> = (0..32).flat_map(|_| state(&mut rng)).collect();
    c.bench_function("mlp 5-64-4 forward, batch of 32", |b| {
        b.iter(|| net.forward_batch(black_box(&xs), &mut scratch)[0])
    });
}

fn train_step(c: &mut Criterion) {
    let mut rng = SimRng::new(2, StreamId::Other(0));
    let config = DqnConfig { learning_starts: 0, ..DqnConfig::default() };
    let mut agent = DqnAgent::new(config, SimRng::new(3, StreamId::Other(1))).unwrap();
    // Fill the replay buffer; from then on every observe() takes one batch-32 step.
    let mut s = state(&mut rng);
    for _ in 0..2000 {
        let s2 = state(&mut rng);
        let a = agent.act(&s);
        agent.observe(&s, a, rng.uniform(), &s2, false).unwrap();
        s = s2;
    }
    c.bench_function("dqn observe + train step (batch 32)", |b| {
        b.iter(|| {
            let s2 = state(&mut rng);
            let a = agent.act(&s);
            let loss = agent.observe(&s, a, rng.uniform() - 0.5, &s2, false).unwrap();
            s = s2;
            loss
        })
    });
}

criterion_group!(benches, forward, train_step);
criterion_main!(benches);
