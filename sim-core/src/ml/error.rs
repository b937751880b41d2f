//! Errors of the ML layer: a field-level error for configs and weight files, and the
//! run-time errors a learning agent can hit.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One bad field of a [`DqnConfig`](super::DqnConfig) or an [`MlpWeights`](super::MlpWeights)
/// file, shaped like the scenario's errors so the UI can mark the field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FieldError {
    /// Path of the field, e.g. `layers[1].w` or `gamma`.
    pub field: String,
    /// What was found, e.g. `255 values` or `1.5`.
    pub value: String,
    /// What is allowed, in words, e.g. `256 values` or `0 to 1 (1 excluded)`.
    pub allowed: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, value: impl fmt::Display, allowed: impl Into<String>) -> FieldError {
        FieldError { field: field.into(), value: value.to_string(), allowed: allowed.into() }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: expected {}, got {}", self.field, self.allowed, self.value)
    }
}

impl std::error::Error for FieldError {}

/// What can go wrong while a [`DqnAgent`](super::DqnAgent) learns. `step` is the agent's
/// transition count when it happened.
#[derive(Clone, Debug, PartialEq)]
pub enum DqnError {
    /// The caller handed over a transition the network cannot take: wrong state length,
    /// action out of range, or a non-finite state or reward.
    BadTransition { step: u64, problem: String },
    /// Training produced a non-finite loss or weight. The agent's weights are garbage from
    /// here on; the caller should stop and report (lower the learning rate, normalise the
    /// state, scale the reward, or clip gradients).
    Diverged { step: u64, what: String },
}

impl fmt::Display for DqnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DqnError::BadTransition { step, problem } => {
                write!(f, "bad transition at step {step}: {problem}")
            }
            DqnError::Diverged { step, what } => write!(f, "training diverged at step {step}: {what}"),
        }
    }
}

impl std::error::Error for DqnError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_error_reads_as_expected_then_got() {
        let e = FieldError::new("layers[1].w", "255 values", "256 values");
        assert_eq!(e.to_string(), "layers[1].w: expected 256 values, got 255 values");
    }
}
