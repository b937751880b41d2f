//! Machine learning for the DQN congestion controller (paper: `dqn-tcp-congestion-control`,
//! §3.3-§4): a small multilayer perceptron, Adam, experience replay and a DQN learner.
//!
//! - [`mlp`]: dense layers, ReLU hidden, linear output; batched forward, backward from a
//!   caller-supplied dL/dy, gradients. [`kernels`] holds its inner loops.
//! - [`adam`]: the optimiser.
//! - [`weights`]: the serde JSON form of a network, its validation and digest.
//! - [`replay`]: a fixed-capacity ring of transitions, sampled uniformly with replacement.
//! - [`dqn_config`] and [`dqn`]: the learner's settings and the agent (ε-greedy, TD target,
//!   target network, divergence guard), independent of any simulator type.
//!
//! ## Why hand-written
//! The paper's network is 5 → 64 → 4: 644 parameters. An ML crate would bring a tensor
//! runtime, threads or BLAS, and build features to tame for wasm32-unknown-unknown, for
//! matrix products of a few hundred multiply-adds; and it would hide the exact order of
//! floating-point operations that bit-identical native and wasm results depend on. A few
//! hundred lines of plain loops are dependency-free, wasm-friendly, fast enough (a batch-32
//! training step takes microseconds) and readable next to the paper.
//!
//! ## Numbers and determinism
//! Everything is `f64`. Only correctly rounded IEEE-754 operations are used (`+ − × ÷ √`,
//! comparisons); no `mul_add` (Rust never contracts `a·b + c` into an FMA on its own), no
//! `exp`/`ln`/`pow` (Adam tracks β^t as running products; a caller needing them uses
//! `libm`), no `f64::max` (its signed-zero and NaN handling is target-defined; ReLU and
//! argmax are plain comparisons). Sums run in a fixed index order. All randomness (weight
//! initialisation, ε-greedy, replay sampling) comes from one [`SimRng`](crate::rng::SimRng)
//! the caller hands in. So the same seed and the same transitions give bit-identical
//! weights on every target; [`MlpWeights::digest`] / [`DqnAgent::weights_digest`] compare
//! them.
//!
//! Weights round-trip through JSON bit for bit: serde_json prints the shortest decimal
//! that reads back to the same `f64`, and its `float_roundtrip` feature (enabled in this
//! crate's manifest) parses it correctly rounded.

pub mod adam;
pub mod dqn;
pub mod dqn_config;
pub mod error;
mod file;
pub mod kernels;
pub mod mlp;
pub mod replay;
pub mod weights;

pub use adam::Adam;
pub use dqn::{argmax, DqnAgent};
pub use dqn_config::{DqnConfig, Loss, Mode};
pub use error::{DqnError, FieldError};
pub use mlp::{Activations, Gradients, Mlp};
pub use replay::{ReplayBuffer, Transition};
pub use weights::{LayerWeights, MlpWeights};
