//! The vocabulary of a Warbler clustering decision (paper §3.2.2): what the caller asks
//! for ([`KmeansConfig`]), what each K-means instance produced ([`Candidate`]) and which
//! partition the arbitration of eq. (7) picked ([`Decision`]). Shared by the floating-point
//! clustering and its integer twin; the input checks both run live here too.

use crate::params::fmt_num;
use crate::switch::MAX_QUEUES;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Largest backlog clustered, in cells. A port's registers count far less (u32); the bound
/// keeps n · x² finite for any n a u32 label can index (4.3e9 · 1e30 < 1.8e308), so every
/// sum, centroid and objective stays finite: 1e308 cells would give Σx² = ∞ and J = NaN.
pub const MAX_BACKLOG_CELLS: f64 = 1e15;

/// What K-means minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    /// Sum of squared relative errors with weighted centroids Σx²/Σx: Warbler, eqs. (1)-(3).
    Ssre,
    /// Sum of squared errors with arithmetic-mean centroids: textbook K-means, the contrast
    /// of the paper's Fig. 2 (§3.2.3).
    Sse,
}

/// How one K-means instance picks its starting centroids (§3.2.2, Phase 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Init {
    /// Start from the current flow → queue mapping ("minimal change"). Skipped when the
    /// caller gives no current mapping.
    Conservative,
    /// Farthest-first centroids: far apart under the objective's own error.
    Far,
    /// K distinct backlog values drawn from the caller's seeded random stream.
    Random,
    /// Not an initialisation: the exact minimum of J by dynamic programming (not in the
    /// paper; [`super::optimal`]), offered to the arbitration as one more candidate.
    Optimal,
}

/// One clustering request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct KmeansConfig {
    /// Clusters = physical queues at the bottleneck port (§3.2.1); at least 1.
    pub k: usize,
    pub objective: Objective,
    /// The instances to run, each at most once, in this order; the order also breaks ties
    /// in the arbitration. The paper runs all three (M = 3).
    pub inits: Vec<Init>,
    /// Cap on assignment steps per instance; at least 1.
    pub max_iters: u32,
}

impl Default for KmeansConfig {
    fn default() -> Self {
        KmeansConfig {
            k: 2,
            objective: Objective::Ssre,
            inits: vec![Init::Conservative, Init::Far, Init::Random],
            max_iters: 50,
        }
    }
}

/// A flow → queue mapping with its centroids and objective.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Partition {
    /// Queue of each flow, in input order; every label is below k.
    pub labels: Vec<u32>,
    /// Centroid of each of the k queues, `None` for a queue with no flow. In a partition
    /// K-means produced, queues are numbered by ascending centroid and the empty ones come
    /// last; a kept current mapping keeps the caller's numbering.
    pub centroids: Vec<Option<f64>>,
    /// J of this partition, eq. (3)/(6) for SSRE, the sum of squared errors for SSE.
    pub objective: f64,
    /// Assignment steps run, counting the final one that changed nothing; 0 for the kept
    /// current mapping and for the exact optimum (no K-means steps).
    pub iterations: u32,
}

impl Partition {
    /// The values of `x` (one per flow, in input order) that each of the k queues holds.
    pub fn members(&self, x: &[f64]) -> Vec<Vec<f64>> {
        let mut out = vec![Vec::new(); self.centroids.len()];
        for (&v, &q) in x.iter().zip(&self.labels) {
            out[q as usize].push(v);
        }
        out
    }

    /// Flows per queue (k entries): what the Bandwidth Allocation Table weighs queues by.
    pub fn queue_sizes(&self) -> Vec<u32> {
        let mut sizes = vec![0u32; self.centroids.len()];
        for &q in &self.labels {
            sizes[q as usize] += 1;
        }
        sizes
    }
}

/// The converged result of one K-means instance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub init: Init,
    pub partition: Partition,
}

/// The arbitration of §3.2.2 Phase 3.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// J of the current mapping, when the caller gave one.
    pub j_pre: Option<f64>,
    /// Every instance that ran, in the configured order.
    pub candidates: Vec<Candidate>,
    /// The instance whose partition was chosen; `None` = the current mapping was kept
    /// because no candidate improved on J_pre.
    pub winner: Option<Init>,
    /// The partition to apply (the current mapping itself when kept).
    pub chosen: Partition,
}

/// Why a clustering request was refused. The messages are meant for a user to read.
#[derive(Clone, Debug, PartialEq)]
pub enum ClusterError {
    ZeroQueues,
    /// More queues than a port has and than there are flows: the extra ones could only
    /// be empty, and each costs memory.
    TooManyQueues {
        k: usize,
        max: usize,
    },
    ZeroIterations,
    DuplicateInit(Init),
    /// No current mapping and no instance that runs without one (Conservative starts from
    /// the current mapping): nothing to choose from.
    NothingToRun,
    /// A backlog that is NaN, infinite, negative or above [`MAX_BACKLOG_CELLS`].
    InvalidBacklog {
        index: usize,
        value: f64,
    },
    MappingLength {
        flows: usize,
        labels: usize,
    },
    LabelOutOfRange {
        index: usize,
        label: u32,
        k: usize,
    },
    /// More flows than u32 labels can index.
    TooManyFlows {
        n: usize,
    },
    /// n · (largest backlog)² reaches 2⁶⁴, the integer clustering's overflow bound.
    IntegerOverflow {
        n: usize,
        max_cells: u32,
    },
    /// The integer clustering implements SSRE only.
    UnsupportedObjective(Objective),
}

impl fmt::Display for ClusterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClusterError::ZeroQueues => write!(f, "k = 0: clustering needs at least one queue"),
            ClusterError::TooManyQueues { k, max } => write!(
                f,
                "k = {k}: from 1 to {max} queues (a port has at most {MAX_QUEUES}; more than the flows would stay empty)"
            ),
            ClusterError::ZeroIterations => write!(f, "max_iters = 0: K-means needs at least one step"),
            ClusterError::DuplicateInit(init) => {
                write!(f, "initialisation '{}' is listed twice; each runs at most once", serde_name(init))
            }
            ClusterError::NothingToRun => write!(
                f,
                "no current mapping and no initialisation that runs without one (conservative \
                 starts from the current mapping): nothing to choose from"
            ),
            ClusterError::InvalidBacklog { index, value } => write!(
                f,
                "backlog[{index}] = {}: backlogs must be finite, from 0 to {} cells",
                fmt_num(*value),
                fmt_num(MAX_BACKLOG_CELLS)
            ),
            ClusterError::MappingLength { flows, labels } => {
                write!(f, "current mapping has {labels} labels for {flows} flows")
            }
            ClusterError::LabelOutOfRange { index, label, k } => {
                write!(f, "current mapping[{index}] = {label}: queues are 0..{k}")
            }
            ClusterError::TooManyFlows { n } => write!(f, "{n} flows: at most {} are supported", u32::MAX),
            ClusterError::IntegerOverflow { n, max_cells } => write!(
                f,
                "{n} flows with a largest backlog of {max_cells} cells: the integer clustering \
                 needs flows × (largest backlog)² < 2^64"
            ),
            ClusterError::UnsupportedObjective(o) => {
                write!(f, "objective '{}': the integer clustering implements SSRE only", serde_name(o))
            }
        }
    }
}

impl std::error::Error for ClusterError {}

/// A choice as a scenario spells it (`far`), not as Rust names it.
fn serde_name<T: Serialize>(x: &T) -> String {
    serde_json::to_value(x).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// Checks what does not depend on the number type: k, the iteration cap, the list of
/// instances and the current mapping's shape.
pub(crate) fn validate_request(
    n: usize,
    current: Option<&[u32]>,
    cfg: &KmeansConfig,
) -> Result<(), ClusterError> {
    if cfg.k == 0 {
        return Err(ClusterError::ZeroQueues);
    }
    // k sizes per-queue vectors: bounded by the input, not by whoever wrote k.
    let max = n.max(MAX_QUEUES as usize);
    if cfg.k > max {
        return Err(ClusterError::TooManyQueues { k: cfg.k, max });
    }
    if n > u32::MAX as usize {
        return Err(ClusterError::TooManyFlows { n });
    }
    if cfg.max_iters == 0 {
        return Err(ClusterError::ZeroIterations);
    }
    for (i, init) in cfg.inits.iter().enumerate() {
        if cfg.inits[..i].contains(init) {
            return Err(ClusterError::DuplicateInit(*init));
        }
    }
    match current {
        None if cfg.inits.iter().all(|i| *i == Init::Conservative) => return Err(ClusterError::NothingToRun),
        None => {}
        Some(labels) => {
            if labels.len() != n {
                return Err(ClusterError::MappingLength { flows: n, labels: labels.len() });
            }
            if let Some((index, &label)) = labels.iter().enumerate().find(|(_, &q)| q as usize >= cfg.k) {
                return Err(ClusterError::LabelOutOfRange { index, label, k: cfg.k });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enums_serialise_in_snake_case() {
        assert_eq!(serde_json::to_string(&Objective::Ssre).unwrap(), "\"ssre\"");
        assert_eq!(serde_json::to_string(&Init::Conservative).unwrap(), "\"conservative\"");
        let cfg: KmeansConfig = serde_json::from_str(r#"{"k":3,"inits":["far"]}"#).unwrap();
        assert_eq!(cfg.k, 3);
        assert_eq!(cfg.inits, vec![Init::Far]);
        assert_eq!(cfg.max_iters, 50);
    }

    #[test]
    fn queue_sizes_count_flows_per_queue_including_empty_ones() {
        let p = Partition {
            labels: vec![0, 1, 1, 0, 1],
            centroids: vec![Some(1.0), Some(2.0), None],
            objective: 0.0,
            iterations: 1,
        };
        assert_eq!(p.queue_sizes(), vec![2, 3, 0]);
    }

    #[test]
    fn bad_requests_are_refused_with_the_offending_value() {
        let cfg = KmeansConfig { k: 0, ..KmeansConfig::default() };
        assert_eq!(validate_request(1, None, &cfg), Err(ClusterError::ZeroQueues));
        let cfg = KmeansConfig { max_iters: 0, ..KmeansConfig::default() };
        assert_eq!(validate_request(1, None, &cfg), Err(ClusterError::ZeroIterations));
        let cfg = KmeansConfig { inits: vec![Init::Far, Init::Far], ..KmeansConfig::default() };
        assert_eq!(validate_request(1, None, &cfg), Err(ClusterError::DuplicateInit(Init::Far)));
        let cfg = KmeansConfig { inits: vec![], ..KmeansConfig::default() };
        assert_eq!(validate_request(1, None, &cfg), Err(ClusterError::NothingToRun));
        assert!(validate_request(1, Some(&[0]), &cfg).is_ok());
        let cfg = KmeansConfig { inits: vec![Init::Conservative], ..KmeansConfig::default() };
        assert_eq!(validate_request(1, None, &cfg), Err(ClusterError::NothingToRun));
        assert!(validate_request(1, Some(&[0]), &cfg).is_ok());
        let cfg = KmeansConfig { k: u32::MAX as usize, ..KmeansConfig::default() };
        let err = validate_request(4, None, &cfg).unwrap_err();
        assert_eq!(err, ClusterError::TooManyQueues { k: u32::MAX as usize, max: 32 });
        assert!(err.to_string().starts_with("k = 4294967295: from 1 to 32 queues"), "{err}");
        let cfg = KmeansConfig { k: 40, ..KmeansConfig::default() };
        assert!(validate_request(40, None, &cfg).is_ok());
        let cfg = KmeansConfig::default();
        assert_eq!(
            validate_request(2, Some(&[0]), &cfg),
            Err(ClusterError::MappingLength { flows: 2, labels: 1 })
        );
        let err = validate_request(2, Some(&[0, 2]), &cfg).unwrap_err();
        assert_eq!(err, ClusterError::LabelOutOfRange { index: 1, label: 2, k: 2 });
        assert_eq!(err.to_string(), "current mapping[1] = 2: queues are 0..2");
    }
}
