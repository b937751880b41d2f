//! Warbler's flow clustering in floating point (paper §3.2): SSRE K-means over per-flow
//! backlogs, and textbook SSE K-means with the same interface for the Fig. 2 contrast.
//! Pure functions; no simulator types besides the seeded random stream.
//!
//! ## Rules at the edges
//! - **Input**: every backlog must be finite, ≥ 0 (−0 counts as 0) and at most
//!   [`MAX_BACKLOG_CELLS`], so that no sum overflows, else [`ClusterError::InvalidBacklog`];
//!   1 ≤ k ≤ max(32, n), `max_iters` ≥ 1, each initialisation listed at most once, a current
//!   mapping of one label below k per flow, and without one an initialisation other than
//!   Conservative.
//! - **Zero backlogs**: a cluster whose Σx is 0 (only zero backlogs) has centroid 0. A zero
//!   backlog is exactly at centroid 0 (SRE 0); a positive backlog against centroid 0 has
//!   SRE +∞, so it is never assigned there. Against any positive centroid a zero backlog
//!   has SRE exactly 1 (eq. 2), a tie between all positive centroids that goes to the
//!   smallest. This is the limit-free reading of eq. (2): error 0 when x = μ.
//! - **Fewer distinct backlogs than queues** (n < k, all equal, n = 1): Far and Random seed
//!   one centroid per distinct value, so there are as many non-empty queues as distinct
//!   values; they take queues 0.. in ascending centroid order and the remaining queues are
//!   empty (`centroids[q] = None`, no label points at them).
//! - **Empty clusters during iteration** keep their last centroid, so they can win points
//!   back at the next step (this never raises J: it only adds a choice to eq. 4).
//! - **No flows**: every candidate is the empty partition with J = 0.
//! - **Replacing the current mapping** needs J_pre − J_j > 1e-9·J_pre + 1e-12·s, where s
//!   is n for SSRE (errors are dimensionless) and Σx² for SSE: more than rounding could
//!   explain. Candidates whose J differ by less than that tolerance tie, and the one listed
//!   first in `cfg.inits` wins.
//! - **Random** draws by rank among the distinct values, so, like everything else here, the
//!   result depends on the multiset of (backlog, current queue) pairs, not on input order.

use super::decision::{validate_request, ClusterError, Decision, KmeansConfig, Objective, MAX_BACKLOG_CELLS};
use super::lloyd::{Prepared, Sorted};
use super::metric::Metric;
use crate::rng::SimRng;

/// Weighted centroid μ = Σx² / Σx of a cluster (eqs. 1 and 5): the value that minimises
/// the cluster's SSRE (set d/dμ Σ(x/μ − 1)² = 0). 0 when Σx = 0 (only zero backlogs).
pub fn weighted_centroid(xs: &[f64]) -> f64 {
    let s1: f64 = xs.iter().sum();
    let s2: f64 = xs.iter().map(|x| x * x).sum();
    if s1 == 0.0 {
        0.0
    } else {
        s2 / s1
    }
}

/// Squared relative error ((x − μ)/μ)² (eq. 2). Against centroid 0: 0 for x = 0, +∞ for
/// x > 0 (see the module docs).
pub fn sre(x: f64, mu: f64) -> f64 {
    if mu == 0.0 {
        if x == 0.0 {
            0.0
        } else {
            f64::INFINITY
        }
    } else {
        let r = (x - mu) / mu;
        r * r
    }
}

/// J of a given partition of `x` into `k` queues (eq. 3/6 for SSRE; Σ(x−mean)² for SSE),
/// each cluster at its own centroid. This is J_pre when `labels` is the current mapping.
pub fn objective(x: &[f64], labels: &[u32], k: usize, objective: Objective) -> Result<f64, ClusterError> {
    let cfg = KmeansConfig { k, objective, inits: vec![], max_iters: 1 };
    let d = decide(x, Some(labels), &cfg, &mut SimRng::new(0, crate::rng::StreamId::Other(0)))?;
    Ok(d.j_pre.expect("a current mapping gives J_pre"))
}

/// Clusters backlogs `x` into `cfg.k` queues and arbitrates against the `current` mapping
/// (§3.2.2). `rng` feeds the Random initialisation only. Labels in the result are in the
/// order of `x`.
pub fn decide(
    x: &[f64],
    current: Option<&[u32]>,
    cfg: &KmeansConfig,
    rng: &mut SimRng,
) -> Result<Decision, ClusterError> {
    validate_request(x.len(), current, cfg)?;
    let data = sort_backlogs(x)?;
    let metric = FloatMetric(cfg.objective);
    let prepared = Prepared::new(&metric, &data, current, cfg.k);
    prepared.decide(cfg, rng, current)
}

/// Checks and sorts the backlogs (ascending, ties by input index); −0 becomes 0.
fn sort_backlogs(x: &[f64]) -> Result<Sorted<f64>, ClusterError> {
    let bad = |v: f64| !(0.0..=MAX_BACKLOG_CELLS).contains(&v); // NaN is outside too
    if let Some((index, &value)) = x.iter().enumerate().find(|(_, v)| bad(**v)) {
        return Err(ClusterError::InvalidBacklog { index, value });
    }
    let mut pairs: Vec<(f64, u32)> = x.iter().enumerate().map(|(i, &v)| (v + 0.0, i as u32)).collect();
    pairs.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    Ok(Sorted { values: pairs.iter().map(|p| p.0).collect(), order: pairs.iter().map(|p| p.1).collect() })
}

/// Count, Σx and Σx² of a cluster, summed in ascending order.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FloatSums {
    n: f64,
    s1: f64,
    s2: f64,
}

/// SSRE or SSE over `f64` backlogs.
pub(crate) struct FloatMetric(pub Objective);

impl FloatMetric {
    fn err(&self, x: f64, mu: f64) -> f64 {
        match self.0 {
            Objective::Ssre => sre(x, mu),
            Objective::Sse => (x - mu) * (x - mu),
        }
    }
}

impl Metric for FloatMetric {
    type X = f64;
    type Mu = f64;
    type Sums = FloatSums;
    type J = f64;
    type D = f64;

    fn add(&self, sums: &mut FloatSums, x: f64) {
        sums.n += 1.0;
        sums.s1 += x;
        sums.s2 += x * x;
    }

    /// Eq. (1) for SSRE, the mean for SSE. Both lie in [lo, hi] exactly; clamping only
    /// removes rounding, so centroids of ordered clusters stay ordered.
    fn centroid(&self, s: &FloatSums, lo: f64, hi: f64) -> f64 {
        let mu = match self.0 {
            Objective::Ssre if s.s1 == 0.0 => 0.0,
            Objective::Ssre => s.s2 / s.s1,
            Objective::Sse => s.s1 / s.n,
        };
        mu.clamp(lo, hi)
    }

    fn seed(&self, x: f64) -> f64 {
        x
    }

    fn next_is_closer(&self, x: f64, a: f64, b: f64) -> bool {
        self.err(x, b) < self.err(x, a)
    }

    /// SSRE: the ratio max/min (∞ against 0, 1 when equal). Its own error (eq. 2) is no
    /// distance: against a seed x_j it is (x/x_j − 1)², at most 1 below x_j and unbounded
    /// above, so farthest-first from the largest backlog crowded its seeds at the small end
    /// (with backlogs 1 and 1000 chosen, 2 "beat" 31). The objective's own pairwise cost,
    /// J of the two-point cluster {a, b} = 2 − (a+b)²/(a²+b²) = (a−b)²/(a²+b²) (eq. 3 at the
    /// eq. 1 centroid), is symmetric and increasing in max/min: SSRE is scale invariant, its
    /// geometry is the log scale. SSE: the squared error, symmetric already.
    fn distance(&self, x: f64, mu: f64) -> f64 {
        match self.0 {
            Objective::Ssre => {
                let (lo, hi) = if x < mu { (x, mu) } else { (mu, x) };
                if hi <= lo {
                    1.0
                } else if lo == 0.0 {
                    f64::INFINITY
                } else {
                    hi / lo
                }
            }
            Objective::Sse => self.err(x, mu),
        }
    }

    fn cluster_objective<I: Iterator<Item = f64>>(&self, _: &FloatSums, mu: f64, members: I) -> f64 {
        members.map(|x| self.err(x, mu)).sum()
    }

    fn improves(&self, j_pre: f64, j: f64, _k: usize, all: &FloatSums) -> bool {
        let scale = match self.0 {
            Objective::Ssre => all.n,
            Objective::Sse => all.s2,
        };
        j_pre - j > 1e-9 * j_pre + 1e-12 * scale
    }

    fn mu_f64(&self, mu: f64) -> f64 {
        mu
    }

    fn j_f64(&self, j: f64) -> f64 {
        j
    }

    type Prefix = FloatPrefix;

    /// SSE sums x − shift (the median) so that S2 − S1²/m cancels less; SSRE cannot shift
    /// (it is not translation invariant) and needs none for the same reason it is scale
    /// invariant: m − S1²/S2 is a difference of O(m) numbers.
    fn prefix(&self, v: &[f64]) -> FloatPrefix {
        let shift = match self.0 {
            Objective::Ssre => 0.0,
            Objective::Sse => v.get(v.len() / 2).copied().unwrap_or(0.0),
        };
        let (mut s1, mut s2) = (vec![(0.0, 0.0)], vec![(0.0, 0.0)]);
        for &x in v {
            let y = x - shift;
            s1.push(two_sum_acc(*s1.last().unwrap(), y));
            s2.push(two_sum_acc(*s2.last().unwrap(), y * y));
        }
        FloatPrefix { s1, s2 }
    }

    /// §3.2.1: at μ = S2/S1 (eq. 1) a run's SSRE (eq. 3) is m − S1²/S2; SSE's is S2 − S1²/m.
    fn run_cost(&self, p: &FloatPrefix, s: usize, e: usize) -> f64 {
        let m = (e - s) as f64;
        let diff = |a: &[(f64, f64)]| (a[e].0 - a[s].0) + (a[e].1 - a[s].1);
        let (s1, s2) = (diff(&p.s1), diff(&p.s2));
        let j = match self.0 {
            Objective::Ssre if s2 <= 0.0 => 0.0,
            Objective::Ssre => m - s1 * s1 / s2,
            Objective::Sse if e == s => 0.0,
            Objective::Sse => s2 - s1 * s1 / m,
        };
        j.max(0.0)
    }
}

/// Running sums (value, accumulated rounding error) of [`FloatMetric::prefix`]: a run's
/// sum is a difference of two prefixes, which plain prefix sums would get wrong by the
/// rounding of the whole total (Knuth's TwoSum keeps that error).
pub(crate) struct FloatPrefix {
    s1: Vec<(f64, f64)>,
    s2: Vec<(f64, f64)>,
}

/// (hi, lo) + y with hi's rounding error added to lo (TwoSum, Knuth TAOCP 4.2.2).
fn two_sum_acc((hi, lo): (f64, f64), y: f64) -> (f64, f64) {
    let s = hi + y;
    let bp = s - hi;
    let err = (hi - (s - bp)) + (y - bp);
    (s, lo + err)
}

#[cfg(test)]
#[path = "ssre_kmeans_tests.rs"]
mod tests;
