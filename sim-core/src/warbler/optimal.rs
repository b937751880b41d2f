//! The exact minimum of Warbler's objective (paper §3.2.1, eq. 3) over all partitions of
//! the backlogs into at most K queues: a fourth candidate beside the three K-means starts
//! of §3.2.2, which only reach local minima. Not in the paper.
//!
//! ## Why contiguous runs suffice
//! In an optimal partition every point sits with a centroid it is nearest to (else moving
//! it would lower J, and re-centring only lowers it further, eq. 5). SRE's nearest-centroid
//! regions are intervals of the sorted data, bounded by harmonic means of consecutive
//! centroids (see [`super::lloyd`], checked by `sre_boundary_between_two_centroids_is_their_harmonic_mean_not_the_midpoint`),
//! so some optimum is a set of runs of the sorted backlogs. Equal backlogs are equally near
//! every centroid, so runs never need to split them: cuts fall between distinct values only,
//! which also keeps the result a function of the multiset.
//!
//! ## Cost of a run
//! With μ = S2/S1 (eq. 1), a run's SSRE is Σ(x/μ − 1)² = m − 2·S1/μ + S2/μ² = m − S1²/S2
//! (m members, S1 = Σx, S2 = Σx²; 0 for a run of zeros), so prefix sums give it in O(1)
//! ([`Metric::run_cost`]); for SSE it is S2 − S1²/m.
//!
//! ## Dynamic programming
//! f[c][j] = min over i of f[c−1][i] + cost(i, j), over d distinct values. The run cost
//! satisfies the quadrangle inequality cost(a,c) + cost(b,d) ≤ cost(a,d) + cost(b,c) for
//! a ≤ b ≤ c ≤ d (checked exhaustively on small sets by the tests below: the brute force
//! over all partitions would catch a miss), so the smallest optimal i is monotone in j and
//! divide and conquer computes each layer in O(d log d): O(K·d log d) in all.

use super::metric::Metric;

/// The optimal runs of sorted `v` into at most `k` clusters, as (start, end) ranges that
/// cover `v` in ascending order, each non-empty; ties go to the earliest cut.
pub(crate) fn optimal_ranges<M: Metric>(m: &M, v: &[M::X], k: usize) -> Vec<(usize, usize)> {
    // cuts[g] = sorted position where the g-th distinct value starts; cuts[d] = n.
    let mut cuts: Vec<usize> = (0..v.len()).filter(|&i| i == 0 || v[i] != v[i - 1]).collect();
    let d = cuts.len();
    if d == 0 {
        return Vec::new();
    }
    cuts.push(v.len());
    let prefix = m.prefix(v);
    let cost = |a: usize, b: usize| m.run_cost(&prefix, cuts[a], cuts[b]);
    // More runs never cost more (splitting a run cannot raise its J), so use all k' of them.
    let kk = k.min(d);
    let mut prev: Vec<M::J> = (0..=d).map(|j| cost(0, j)).collect();
    // choice[c][j]: where the last of c + 2 runs over the first j values starts.
    let mut choice: Vec<Vec<u32>> = Vec::with_capacity(kk.saturating_sub(1));
    for c in 1..kk {
        let mut cur = prev.clone();
        let mut arg = vec![0u32; d + 1];
        layer(&prev, &mut cur, &mut arg, &cost, c, (c + 1, d), (c, d - 1));
        choice.push(arg);
        prev = cur;
    }
    let mut ranges = Vec::with_capacity(kk);
    let mut end = d;
    for arg in choice.iter().rev() {
        let start = arg[end] as usize;
        ranges.push((cuts[start], cuts[end]));
        end = start;
    }
    ranges.push((cuts[0], cuts[end]));
    ranges.reverse();
    ranges
}

/// Fills `cur[j]` for j in `js` with min over i in `is` (and i ≥ c, i < j) of
/// `prev[i] + cost(i, j)`, splitting at the middle j: its argmin bounds both halves.
fn layer<J: Copy + PartialOrd + std::ops::Add<Output = J>>(
    prev: &[J],
    cur: &mut [J],
    arg: &mut [u32],
    cost: &impl Fn(usize, usize) -> J,
    c: usize,
    js: (usize, usize),
    is: (usize, usize),
) {
    if js.0 > js.1 {
        return;
    }
    let j = (js.0 + js.1) / 2;
    let (lo, hi) = (is.0.max(c), is.1.min(j - 1));
    let mut best = lo;
    let mut best_j = prev[lo] + cost(lo, j);
    for (i, &f) in prev.iter().enumerate().take(hi + 1).skip(lo + 1) {
        let t = f + cost(i, j);
        if t < best_j {
            best = i;
            best_j = t;
        }
    }
    cur[j] = best_j;
    arg[j] = best as u32;
    if j > js.0 {
        layer(prev, cur, arg, cost, c, (js.0, j - 1), (is.0, best));
    }
    layer(prev, cur, arg, cost, c, (j + 1, js.1), (best, is.1));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{SimRng, StreamId};
    use crate::warbler::decision::{Init, KmeansConfig, Objective};
    use crate::warbler::fixed_kmeans::{decide_fixed, FixedMetric};
    use crate::warbler::ssre_kmeans::{decide, objective, FloatMetric};
    use proptest::prelude::*;

    /// Every partition of `n` items into at most `k` labelled-by-first-appearance groups
    /// (restricted growth strings), contiguous or not.
    fn all_partitions(n: usize, k: usize, f: &mut impl FnMut(&[u32])) {
        fn go(l: &mut Vec<u32>, n: usize, k: usize, used: u32, f: &mut impl FnMut(&[u32])) {
            if l.len() == n {
                return f(l);
            }
            for q in 0..=used.min(k as u32 - 1) {
                l.push(q);
                go(l, n, k, used.max(q + 1), f);
                l.pop();
            }
        }
        go(&mut Vec::with_capacity(n), n, k, 0, f);
    }

    fn brute_force(x: &[f64], k: usize, o: Objective) -> f64 {
        let mut best = f64::INFINITY;
        all_partitions(x.len(), k, &mut |l| best = best.min(objective(x, l, k, o).unwrap()));
        best
    }

    fn only(init: Init, k: usize, objective: Objective) -> KmeansConfig {
        KmeansConfig { k, objective, inits: vec![init], ..KmeansConfig::default() }
    }

    fn rng(seed: u64) -> SimRng {
        SimRng::new(seed, StreamId::Other(3))
    }

    #[test]
    fn fig2_optimum_is_the_papers_partition() {
        let x = [40.0, 152.0, 200.0, 1952.0, 2384.0, 2414.0];
        let d = decide(&x, None, &only(Init::Optimal, 3, Objective::Ssre), &mut rng(0)).unwrap();
        assert_eq!(d.chosen.labels, vec![0, 1, 1, 2, 2, 2]);
        assert_eq!(d.winner, Some(Init::Optimal));
        assert_eq!(d.chosen.objective, brute_force(&x, 3, Objective::Ssre));
    }

    #[test]
    fn run_cost_from_prefix_sums_is_the_objective_of_the_run() {
        let v = [0.0, 0.0, 3.0, 10.0, 11.0, 40.0, 40.0, 977.5];
        for o in [Objective::Ssre, Objective::Sse] {
            let m = FloatMetric(o);
            let p = m.prefix(&v);
            for s in 0..v.len() {
                for e in s + 1..=v.len() {
                    let direct = objective(&v[s..e], &vec![0; e - s], 1, o).unwrap();
                    let fast = m.run_cost(&p, s, e);
                    assert!(
                        (fast - direct).abs() <= 1e-9 * direct.max(1.0),
                        "{o:?} {s}..{e}: {fast} vs {direct}"
                    );
                }
            }
        }
        let cells = [0u64, 3, 10, 11, 40];
        let p = FixedMetric.prefix(&cells);
        // 3, 10, 11: m − S1²/S2 = 3 − 576/230, in units of 2⁻³².
        let want = 3.0 - 576.0 / 230.0;
        assert!((FixedMetric.j_f64(FixedMetric.run_cost(&p, 1, 4)) - want).abs() < 1e-9);
        assert_eq!(FixedMetric.run_cost(&p, 0, 1), 0, "a run of zeros costs nothing");
    }

    #[test]
    fn fewer_distinct_values_than_queues_use_one_run_each() {
        let x = [5.0, 0.0, 5.0, 9.0];
        let d = decide(&x, None, &only(Init::Optimal, 8, Objective::Ssre), &mut rng(0)).unwrap();
        assert_eq!(d.chosen.labels, vec![1, 0, 1, 2]);
        assert_eq!(d.chosen.objective, 0.0);
        assert_eq!(d.chosen.centroids[3..], [None; 5]);
        let empty = decide(&[], None, &only(Init::Optimal, 3, Objective::Ssre), &mut rng(0)).unwrap();
        assert!(empty.chosen.labels.is_empty());
    }

    fn small_sets() -> impl Strategy<Value = (Vec<f64>, usize)> {
        (prop::collection::vec(prop_oneof![0u32..4, 1u32..60, 1u32..5000], 1..9), 1usize..5)
            .prop_map(|(v, k)| (v.into_iter().map(f64::from).collect(), k))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        /// Differential: the DP's J equals the minimum over every partition, contiguous or
        /// not, for both objectives (SSE's regions are intervals too: midpoints).
        #[test]
        fn the_optimum_equals_brute_force_over_all_partitions((x, k) in small_sets(), sse in any::<bool>()) {
            let o = if sse { Objective::Sse } else { Objective::Ssre };
            let d = decide(&x, None, &only(Init::Optimal, k, o), &mut rng(0)).unwrap();
            let best = brute_force(&x, k, o);
            let scale = if sse { x.iter().map(|v| v * v).sum::<f64>() } else { x.len() as f64 };
            prop_assert!((d.chosen.objective - best).abs() <= 1e-9 * best + 1e-12 * scale,
                "{:?} k = {}: {} vs brute force {}", o, k, d.chosen.objective, best);
        }

        /// The integer twin agrees with brute force up to its per-run rounding (k units of 2⁻³²).
        #[test]
        fn the_integer_optimum_equals_brute_force((x, k) in small_sets()) {
            let cells: Vec<u32> = x.iter().map(|&v| v as u32).collect();
            let d = decide_fixed(&cells, None, &only(Init::Optimal, k, Objective::Ssre), &mut rng(0)).unwrap();
            let best = brute_force(&x, k, Objective::Ssre);
            prop_assert!((d.chosen.objective - best).abs() <= 1e-9 + 2.0 * k as f64 / 4_294_967_296.0,
                "k = {}: {} vs brute force {}", k, d.chosen.objective, best);
        }

        /// Never worse than any K-means start, on log-normal clusters of up to 400 flows.
        #[test]
        fn the_optimum_is_never_worse_than_any_start(
            n in 1usize..400, k in 1usize..9, classes in 1u32..9, seed in 0u64..10_000,
        ) {
            let mut r = rng(seed);
            let x = lognormal_clusters(n, classes, &mut r);
            let current: Vec<u32> = (0..n as u32).map(|i| i % k as u32).collect();
            let cfg = KmeansConfig {
                k,
                inits: vec![Init::Conservative, Init::Far, Init::Random, Init::Optimal],
                ..KmeansConfig::default()
            };
            let d = decide(&x, Some(&current), &cfg, &mut r).unwrap();
            let opt = d.candidates[3].partition.objective;
            for c in &d.candidates[..3] {
                prop_assert!(opt <= c.partition.objective * (1.0 + 1e-9) + 1e-12 * n as f64,
                    "{:?}: {} beats the optimum {}", c.init, c.partition.objective, opt);
            }
            let cells: Vec<u32> = x.iter().map(|&v| v as u32).collect();
            let f = decide_fixed(&cells, Some(&current), &cfg, &mut rng(seed)).unwrap();
            let opt = f.candidates[3].partition.objective;
            for c in &f.candidates[..3] {
                prop_assert!(opt <= c.partition.objective + k as f64 / 4_294_967_296.0,
                    "integer {:?}: {} beats the optimum {}", c.init, c.partition.objective, opt);
            }
        }
    }

    /// How often the K-means starts reach the optimum on 1000 log-normal sets (K = 2-8,
    /// n < 400, 1-8 classes): Far + Random alone, and the paper's three from a round-robin
    /// mapping. The figures are quoted in `lloyd.rs` (Far) and README.md; a change to the
    /// clustering that moves them must update those too.
    #[test]
    fn measure_how_often_the_starts_reach_the_optimum() {
        let (mut reach, mut over5, mut worst, mut reach3) = (0, 0, 1.0f64, 0);
        for s in 0..1000 {
            let mut r = SimRng::new(s, StreamId::Other(11));
            let k = 2 + r.below(7) as usize;
            let n = 1 + r.below(400) as usize;
            let x = lognormal_clusters(n, 1 + r.below(8) as u32, &mut r);
            let inits = vec![Init::Far, Init::Random, Init::Optimal];
            let d = decide(&x, None, &KmeansConfig { k, inits, ..KmeansConfig::default() }, &mut r).unwrap();
            let j = |i: usize| d.candidates[i].partition.objective;
            let (best, opt) = (j(0).min(j(1)), j(2));
            let tol = 1e-9 * opt + 1e-12 * n as f64;
            reach += usize::from(best <= opt + tol);
            over5 += usize::from(best > 1.05 * opt + tol);
            if opt > 0.0 {
                worst = worst.max(best / opt);
            }
            let current: Vec<u32> = (0..n as u32).map(|i| i % k as u32).collect();
            let three = KmeansConfig { k, ..KmeansConfig::default() };
            let d3 = decide(&x, Some(&current), &three, &mut SimRng::new(s, StreamId::Other(12))).unwrap();
            reach3 += usize::from(d3.chosen.objective <= opt + tol);
        }
        assert_eq!((reach, over5, (worst * 10.0).round() / 10.0, reach3), (362, 311, 3.2, 400));
    }

    /// `classes` log-normal clusters (σ = 0.15 in ln) with medians log-uniform in [8, 8000]
    /// cells, whole cells.
    pub(crate) fn lognormal_clusters(n: usize, classes: u32, r: &mut SimRng) -> Vec<f64> {
        let medians: Vec<f64> =
            (0..classes).map(|_| libm::exp(libm::log(8.0) + r.uniform() * libm::log(1000.0))).collect();
        (0..n)
            .map(|_| {
                let mu = medians[r.below(u64::from(classes)) as usize];
                // Box-Muller: a standard normal from two uniforms.
                let (u1, u2) = (1.0 - r.uniform(), r.uniform());
                let z = libm::sqrt(-2.0 * libm::log(u1)) * libm::cos(std::f64::consts::TAU * u2);
                libm::round(mu * libm::exp(0.15 * z))
            })
            .collect()
    }
}
