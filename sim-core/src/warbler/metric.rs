//! What one K-means flavour supplies to the engine (`lloyd`) and to the exact optimum
//! (`optimal`): its number type, its error (eq. 2 or squared error) and its objective. The
//! floating-point SSRE and the integer one are two of them.

use std::ops::Add;

/// The number type and error of one K-means flavour.
pub(crate) trait Metric {
    /// A backlog.
    type X: Copy + PartialEq;
    /// A centroid.
    type Mu: Copy + PartialOrd;
    /// What a centroid and an objective are computed from (count, Σx, Σx²).
    type Sums: Copy + Default;
    /// An objective value; `Default` is zero.
    type J: Copy + PartialOrd + Default + Add<Output = Self::J>;
    /// An error value compared by the farthest-first initialisation.
    type D: Copy + PartialOrd;

    fn add(&self, sums: &mut Self::Sums, x: Self::X);
    /// Centroid of a non-empty cluster whose members lie in [lo, hi] (eqs. 1 and 5).
    fn centroid(&self, sums: &Self::Sums, lo: Self::X, hi: Self::X) -> Self::Mu;
    /// A data point used as an initial centroid.
    fn seed(&self, x: Self::X) -> Self::Mu;
    /// Eq. (4) between two centroids: is `b` strictly closer to `x` than `a`?
    fn next_is_closer(&self, x: Self::X, a: Self::Mu, b: Self::Mu) -> bool;
    /// How far apart `x` and the seed `mu` are, as farthest-first compares it: symmetric and
    /// increasing with the objective's cost of putting the two in one cluster.
    fn distance(&self, x: Self::X, mu: Self::Mu) -> Self::D;
    /// J of one cluster at centroid `mu` (eq. 3 restricted to the cluster).
    fn cluster_objective<I: Iterator<Item = Self::X>>(
        &self,
        sums: &Self::Sums,
        mu: Self::Mu,
        members: I,
    ) -> Self::J;
    /// Does `j` improve on `j_pre` by more than rounding could explain? `all` sums the data.
    fn improves(&self, j_pre: Self::J, j: Self::J, k: usize, all: &Self::Sums) -> bool;
    fn mu_f64(&self, mu: Self::Mu) -> f64;
    fn j_f64(&self, j: Self::J) -> f64;
    /// Prefix sums of sorted data, for the O(1) run costs of the exact optimum.
    type Prefix;
    fn prefix(&self, v: &[Self::X]) -> Self::Prefix;
    /// J of the run `v[s..e]` at its own centroid, from [`Metric::prefix`] (0 when empty).
    fn run_cost(&self, p: &Self::Prefix, s: usize, e: usize) -> Self::J;
}
