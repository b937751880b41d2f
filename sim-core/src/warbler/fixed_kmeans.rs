//! Warbler's SSRE K-means in integers only, as a P4 data plane without floating point would
//! have to run it (paper §6.3, future work). Same initialisations, same iteration, same
//! arbitration and the same [`Decision`] as [`super::ssre_kmeans`]; only the arithmetic
//! differs. Centroids and objectives are converted to `f64` at the very end, for display.
//!
//! ## Number formats
//! - Backlogs are whole cells, `u32`.
//! - A centroid is kept as the exact fraction of eq. (1), μ = Σx² / Σx, i.e. the two sums
//!   (`u64` each), never divided out. The update step (eq. 5) is therefore additions only,
//!   and nothing is rounded: this version evaluates eq. (4) exactly, ties included, where
//!   the floating-point one rounds. (A Q16.16 centroid would need one division per cluster
//!   per step and would break exact ties arbitrarily; the fraction costs one more multiply.)
//! - Assignment (eq. 4) never divides: for μ = S2/S1, SRE(x, μ) = (|x·S1 − S2| / S2)², so
//!   "b is closer than a" is |x·S1b − S2b|·S2a < |x·S1a − S2a|·S2b (comparing the unsquared
//!   relative errors is the same test, both being ≥ 0), in `u128`. Centroids are ordered by
//!   S2a·S1b against S2b·S1a.
//! - The objective of a cluster uses the identity Σ((x−μ)/μ)² = n − (Σx)²/Σx² at
//!   μ = Σx²/Σx (expand the square, use μ·Σx = Σx²): one division per cluster, when the
//!   objective is evaluated, result in units of 2⁻³² ([`FRAC_BITS`]). That is the exact J
//!   rounded per cluster, so a partition must beat J_pre (or another candidate) by more
//!   than k units, the worst rounding of two totals, to count as better.
//!
//! ## Overflow bounds
//! With n flows and largest backlog X, every product above stays below 2¹²⁸ as long as
//! n·X² < 2⁶⁴ (and n < 2³², as everywhere): then Σx² < 2⁶⁴, x·S1 ≤ (n·x² + S2)/2 < 2⁶⁴,
//! S1 < 2⁶⁴, (Σx)²·2³² ≤ n·Σx²·2³² < 2¹²⁸ and J ≤ n·2³² < 2⁶⁴. Examples: 100 000 flows of up to 13 million cells, or
//! 10 million flows of up to 1.3 million cells (Tofino 2's whole buffer is about 400 000
//! cells of 160 B). Beyond the bound the request is refused with
//! [`ClusterError::IntegerOverflow`]. SSE is not implemented here
//! ([`ClusterError::UnsupportedObjective`]).
//!
//! Zero backlogs, empty queues and ties follow the same rules as the floating-point version
//! (a cluster of zero backlogs is the fraction 0/0, read as centroid 0).

use super::decision::{validate_request, ClusterError, Decision, KmeansConfig, Objective};
use super::lloyd::{Prepared, Sorted};
use super::metric::Metric;
use crate::rng::SimRng;
use std::cmp::Ordering;

/// Fractional bits of the objective values.
pub const FRAC_BITS: u32 = 32;

/// Integer twin of [`super::ssre_kmeans::decide`]: clusters backlogs in whole `cells` into
/// `cfg.k` queues with SSRE and arbitrates against the `current` mapping.
pub fn decide_fixed(
    cells: &[u32],
    current: Option<&[u32]>,
    cfg: &KmeansConfig,
    rng: &mut SimRng,
) -> Result<Decision, ClusterError> {
    if cfg.objective != Objective::Ssre {
        return Err(ClusterError::UnsupportedObjective(cfg.objective));
    }
    validate_request(cells.len(), current, cfg)?;
    let max = cells.iter().copied().max().unwrap_or(0);
    if (cells.len() as u128) * u128::from(max) * u128::from(max) >= 1 << 64 {
        return Err(ClusterError::IntegerOverflow { n: cells.len(), max_cells: max });
    }
    let mut keys: Vec<u64> =
        cells.iter().enumerate().map(|(i, &c)| (u64::from(c) << 32) | i as u64).collect();
    keys.sort_unstable();
    let data = Sorted {
        values: keys.iter().map(|k| k >> 32).collect(),
        order: keys.iter().map(|&k| k as u32).collect(),
    };
    let prepared = Prepared::new(&FixedMetric, &data, current, cfg.k);
    prepared.decide(cfg, rng, current)
}

/// a / b rounded to nearest (halves up), b > 0.
fn div_round(a: u128, b: u128) -> u128 {
    let (q, r) = (a / b, a % b);
    if r >= b - r {
        q + 1
    } else {
        q
    }
}

/// Count, Σx and Σx² of a cluster.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FixedSums {
    n: u64,
    s1: u64,
    s2: u64,
}

/// A centroid as the unreduced fraction Σx² / Σx of eq. (1); 0/0 is centroid 0.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Centroid {
    s1: u64,
    s2: u64,
}

impl Centroid {
    /// |x − μ|·Σx, the numerator of the relative error |x − μ|/μ = |x·S1 − S2| / S2.
    fn gap(self, x: u64) -> u128 {
        (u128::from(x) * u128::from(self.s1)).abs_diff(u128::from(self.s2))
    }
}

impl PartialEq for Centroid {
    fn eq(&self, other: &Self) -> bool {
        self.partial_cmp(other) == Some(Ordering::Equal)
    }
}

impl PartialOrd for Centroid {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(match (self.s1 == 0, other.s1 == 0) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => (u128::from(self.s2) * u128::from(other.s1))
                .cmp(&(u128::from(other.s2) * u128::from(self.s1))),
        })
    }
}

/// A ratio of backlogs kept as a fraction and compared by cross-multiplication; `den` = 0
/// is +∞ (a positive backlog against centroid 0, or 0 against a positive one).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ratio {
    num: u128,
    den: u128,
}

impl PartialEq for Ratio {
    fn eq(&self, other: &Self) -> bool {
        self.partial_cmp(other) == Some(Ordering::Equal)
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        (self.num * other.den).partial_cmp(&(other.num * self.den))
    }
}

/// SSRE over whole cells with exact fractional centroids.
pub(crate) struct FixedMetric;

impl Metric for FixedMetric {
    type X = u64;
    type Mu = Centroid;
    type Sums = FixedSums;
    type J = u64;
    type D = Ratio;

    fn add(&self, s: &mut FixedSums, x: u64) {
        s.n += 1;
        s.s1 += x;
        s.s2 += x * x;
    }

    fn centroid(&self, s: &FixedSums, _lo: u64, _hi: u64) -> Centroid {
        Centroid { s1: s.s1, s2: s.s2 }
    }

    fn seed(&self, x: u64) -> Centroid {
        Centroid { s1: x, s2: x * x }
    }

    fn next_is_closer(&self, x: u64, a: Centroid, b: Centroid) -> bool {
        if a.s1 == 0 {
            // Centroid 0 holds exactly the zero backlogs (b is positive: equal ones merged).
            return x > 0;
        }
        b.gap(x) * u128::from(a.s2) < a.gap(x) * u128::from(b.s2)
    }

    /// max(x, μ)/min(x, μ) with μ = S2/S1, as the float version (see there for why the
    /// ratio): x·S1 against S2, both below 2⁶⁴ by the overflow bound.
    fn distance(&self, x: u64, mu: Centroid) -> Ratio {
        let (a, b) = (u128::from(x) * u128::from(mu.s1), u128::from(mu.s2));
        match (a.min(b), a.max(b)) {
            _ if a == b && (mu.s1 != 0 || x == 0) => Ratio { num: 1, den: 1 },
            (0, _) => Ratio { num: 1, den: 0 },
            (lo, hi) => Ratio { num: hi, den: lo },
        }
    }

    fn cluster_objective<I: Iterator<Item = u64>>(&self, s: &FixedSums, _mu: Centroid, _members: I) -> u64 {
        if s.s2 == 0 {
            return 0;
        }
        let s1 = u128::from(s.s1);
        let explained = div_round((s1 * s1) << FRAC_BITS, u128::from(s.s2)) as u64;
        (s.n << FRAC_BITS).saturating_sub(explained)
    }

    fn improves(&self, j_pre: u64, j: u64, k: usize, _all: &FixedSums) -> bool {
        j_pre > j && j_pre - j > k as u64
    }

    fn mu_f64(&self, mu: Centroid) -> f64 {
        if mu.s1 == 0 {
            0.0
        } else {
            mu.s2 as f64 / mu.s1 as f64
        }
    }

    fn j_f64(&self, j: u64) -> f64 {
        j as f64 / (1u64 << FRAC_BITS) as f64
    }

    /// Exact: every prefix is at most the whole set's sums, below 2⁶⁴ by the overflow bound.
    type Prefix = Vec<FixedSums>;

    fn prefix(&self, v: &[u64]) -> Vec<FixedSums> {
        let mut p = vec![FixedSums::default()];
        for &x in v {
            let mut s = *p.last().unwrap();
            self.add(&mut s, x);
            p.push(s);
        }
        p
    }

    fn run_cost(&self, p: &Vec<FixedSums>, s: usize, e: usize) -> u64 {
        let (a, b) = (p[s], p[e]);
        let run = FixedSums { n: b.n - a.n, s1: b.s1 - a.s1, s2: b.s2 - a.s2 };
        self.cluster_objective(&run, Centroid { s1: run.s1, s2: run.s2 }, std::iter::empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::StreamId;
    use crate::warbler::decision::Init;
    use crate::warbler::ssre_kmeans::{decide, sre};
    use proptest::prelude::*;

    fn rng() -> SimRng {
        SimRng::new(42, StreamId::Other(7))
    }

    fn cfg(k: usize) -> KmeansConfig {
        KmeansConfig { k, ..KmeansConfig::default() }
    }

    #[test]
    fn fig2_partition_matches_the_floating_point_one() {
        let cells = [40, 152, 200, 1952, 2384, 2414];
        let d = decide_fixed(&cells, None, &cfg(3), &mut rng()).unwrap();
        assert_eq!(d.chosen.labels, vec![0, 1, 1, 2, 2, 2]);
        let want = (2.0 - 352.0 * 352.0 / 63_104.0) + (3.0 - 6750.0 * 6750.0 / 15_321_156.0);
        assert!(
            (d.chosen.objective - want).abs() < 3.0 / 4_294_967_296.0,
            "{} vs {want}",
            d.chosen.objective
        );
        assert_eq!(d.chosen.centroids[1], Some(63_104.0 / 352.0));
        let d2 = decide_fixed(&cells, None, &cfg(2), &mut rng()).unwrap();
        assert_eq!(d2.chosen.labels, vec![0, 0, 0, 1, 1, 1]);
    }

    #[test]
    fn cross_multiplied_comparison_is_eq4_with_exact_ties() {
        let m = FixedMetric;
        // Centroids 2 and 6 cells: the SRE boundary is their harmonic mean, 3 cells.
        let (a, b) = (m.seed(2), m.seed(6));
        assert!(!m.next_is_closer(3, a, b), "a tie goes to the lower centroid");
        assert!(!m.next_is_closer(2, a, b));
        assert!(m.next_is_closer(4, a, b));
        // μ = 14/5 = 2.8 against 7: the harmonic mean is exactly 4, a tie no binary
        // fraction of 2.8 would reproduce.
        let (a, b) = (Centroid { s1: 5, s2: 14 }, m.seed(7));
        assert!(!m.next_is_closer(4, a, b));
        assert!(m.next_is_closer(5, a, b));
        assert!(sre(4.0, 2.8) != sre(4.0, 7.0), "floating point breaks this tie by rounding");
        // Centroid 0 holds only zero backlogs; zero ties between positive centroids.
        let zero = m.centroid(&FixedSums::default(), 0, 0);
        assert!(!m.next_is_closer(0, zero, a));
        assert!(m.next_is_closer(1, zero, a));
        assert!(!m.next_is_closer(0, a, b));
        assert!(m.distance(1, zero) > m.distance(1_000_000, m.seed(1)));
        assert!(
            m.distance(0, m.seed(1)) == m.distance(1, zero)
                && m.distance(0, zero) == m.distance(5, m.seed(5))
        );
        assert!(m.distance(2, m.seed(6)) == m.distance(6, m.seed(2)), "the spread is symmetric");
        assert!(zero < m.seed(1) && m.seed(3) == Centroid { s1: 6, s2: 18 });
    }

    #[test]
    fn the_cluster_objective_identity_matches_eq3() {
        let xs = [3u64, 10, 11, 40];
        let mut s = FixedSums::default();
        xs.iter().for_each(|&x| FixedMetric.add(&mut s, x));
        let mu = 1830.0 / 64.0;
        let direct: f64 = xs.iter().map(|&x| sre(x as f64, mu)).sum();
        let mu_fixed = FixedMetric.centroid(&s, 3, 40);
        assert_eq!(FixedMetric.mu_f64(mu_fixed), mu);
        let j = FixedMetric.j_f64(FixedMetric.cluster_objective(&s, mu_fixed, std::iter::empty()));
        assert!((j - direct).abs() <= 0.5 / 4_294_967_296.0, "{j} vs {direct}");
    }

    #[test]
    fn backlogs_at_the_overflow_bound_cluster_like_floating_point() {
        // 4 · (2³¹ − 1)² < 2⁶⁴: the largest backlogs four flows may have.
        let big = (1u32 << 31) - 1;
        let cells = [big, big - 1, 1, 0];
        let d = decide_fixed(&cells, Some(&[0, 0, 0, 0]), &cfg(3), &mut rng()).unwrap();
        assert_eq!(d.chosen.labels, vec![2, 2, 1, 0]);
        let x: Vec<f64> = cells.iter().map(|&c| f64::from(c)).collect();
        let f = decide(&x, Some(&[0, 0, 0, 0]), &cfg(3), &mut rng()).unwrap();
        assert_eq!(f.chosen.labels, d.chosen.labels);
        assert!((f.j_pre.unwrap() - d.j_pre.unwrap()).abs() < 1e-4);
    }

    #[test]
    fn requests_beyond_the_bounds_are_refused() {
        let sse = KmeansConfig { objective: Objective::Sse, ..cfg(2) };
        assert_eq!(
            decide_fixed(&[1, 2], None, &sse, &mut rng()),
            Err(ClusterError::UnsupportedObjective(Objective::Sse))
        );
        let err = decide_fixed(&[1 << 31, 1, 2, 3], None, &cfg(2), &mut rng()).unwrap_err();
        assert_eq!(err, ClusterError::IntegerOverflow { n: 4, max_cells: 1 << 31 });
        assert!(err.to_string().contains("< 2^64"), "{err}");
        assert_eq!(decide_fixed(&[1], None, &cfg(0), &mut rng()), Err(ClusterError::ZeroQueues));
    }

    #[test]
    fn edge_cases_look_like_the_floating_point_ones() {
        let d = decide_fixed(&[0, 0], None, &cfg(2), &mut rng()).unwrap();
        assert_eq!(
            (d.chosen.labels.clone(), d.chosen.centroids.clone()),
            (vec![0, 0], vec![Some(0.0), None])
        );
        let d = decide_fixed(&[7], Some(&[1]), &cfg(3), &mut rng()).unwrap();
        assert_eq!((d.winner, d.chosen.labels.clone()), (None, vec![1]));
        let d = decide_fixed(&[], None, &cfg(3), &mut rng()).unwrap();
        assert!(d.chosen.labels.is_empty());
        let d = decide_fixed(&[5, 5, 5, 5], Some(&[0, 1, 0, 1]), &cfg(2), &mut rng()).unwrap();
        assert_eq!((d.j_pre, d.winner), (Some(0.0), None));
        let d = decide_fixed(&[0, 9, 0, 30], None, &cfg(4), &mut rng()).unwrap();
        assert_eq!(d.chosen.labels, vec![0, 1, 0, 2]);
        assert_eq!(d.chosen.centroids, vec![Some(0.0), Some(9.0), Some(30.0), None]);
    }

    #[test]
    fn a_hundred_thousand_flows_cluster() {
        let mut r = SimRng::new(9, StreamId::Other(1));
        let cells: Vec<u32> = (0..100_000).map(|_| 1 + r.below(6000) as u32).collect();
        let current: Vec<u32> = (0..100_000).map(|i| i % 16).collect();
        let d = decide_fixed(&cells, Some(&current), &cfg(16), &mut rng()).unwrap();
        assert!(d.chosen.objective <= d.j_pre.unwrap());
        assert!(d.chosen.labels.iter().all(|&q| q < 16));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        /// Same data and seed: the integer candidates' J, read as f64, stays within the
        /// per-cluster rounding of the float J of the *same* labels.
        #[test]
        fn fixed_objective_is_the_float_objective_of_its_labels(
            cells in prop::collection::vec(0u32..5000, 1..40),
            k in 1usize..5,
            seed in 0u64..100,
        ) {
            let d = decide_fixed(&cells, None, &cfg(k), &mut SimRng::new(seed, StreamId::Other(0))).unwrap();
            let x: Vec<f64> = cells.iter().map(|&c| f64::from(c)).collect();
            for c in &d.candidates {
                let j = crate::warbler::ssre_kmeans::objective(&x, &c.partition.labels, k, Objective::Ssre).unwrap();
                prop_assert!((c.partition.objective - j).abs() <= 1e-9 * j + k as f64 / 4_294_967_296.0,
                    "{:?}: {} vs {}", c.init, c.partition.objective, j);
            }
        }

        #[test]
        fn far_and_conservative_agree_with_float_on_well_separated_data(
            classes in prop::collection::vec(1u32..20, 1..5),
            n in 1usize..40,
            k in 1usize..5,
        ) {
            // Classes 10x apart with ±5 % spread: no near-tie for rounding to flip.
            let mut r = SimRng::new(n as u64, StreamId::Other(0));
            let cells: Vec<u32> = (0..n).map(|_| {
                let c = classes[r.below(classes.len() as u64) as usize];
                let base = 10u32.pow(c % 5 + 1);
                base + r.below(u64::from(base / 20) + 1) as u32
            }).collect();
            let x: Vec<f64> = cells.iter().map(|&c| f64::from(c)).collect();
            let current: Vec<u32> = (0..n).map(|i| (i % k) as u32).collect();
            let cfg = KmeansConfig { inits: vec![Init::Conservative, Init::Far], ..cfg(k) };
            let a = decide(&x, Some(&current), &cfg, &mut rng()).unwrap();
            let b = decide_fixed(&cells, Some(&current), &cfg, &mut rng()).unwrap();
            for (ca, cb) in a.candidates.iter().zip(&b.candidates) {
                prop_assert_eq!(&ca.partition.labels, &cb.partition.labels, "{:?}", ca.init);
            }
        }
    }
}
