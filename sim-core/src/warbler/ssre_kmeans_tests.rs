use super::*;
use crate::rng::StreamId;
use crate::warbler::decision::{Candidate, Init, Partition};
use crate::warbler::lloyd::Lloyd;
use proptest::prelude::*;

const FIG2: [f64; 6] = [40.0, 152.0, 200.0, 1952.0, 2384.0, 2414.0];

fn rng() -> SimRng {
    SimRng::new(42, StreamId::Other(7))
}

fn cfg(k: usize, objective: Objective) -> KmeansConfig {
    KmeansConfig { k, objective, ..KmeansConfig::default() }
}

/// Groups of input indices by queue, each group sorted, the groups sorted: a partition
/// written independently of queue numbering.
fn groups(labels: &[u32]) -> Vec<Vec<usize>> {
    let k = labels.iter().max().map_or(0, |&m| m as usize + 1);
    let mut g = vec![Vec::new(); k];
    for (i, &q) in labels.iter().enumerate() {
        g[q as usize].push(i);
    }
    g.retain(|v| !v.is_empty());
    g.sort();
    g
}

fn best_candidate(d: &Decision) -> &Candidate {
    d.candidates.iter().min_by(|a, b| a.partition.objective.total_cmp(&b.partition.objective)).unwrap()
}

fn assert_well_formed(p: &Partition, n: usize, k: usize) {
    assert_eq!(p.labels.len(), n);
    assert_eq!(p.centroids.len(), k);
    assert!(p.labels.iter().all(|&q| (q as usize) < k));
    let sizes = p.queue_sizes();
    for (q, c) in p.centroids.iter().enumerate() {
        assert_eq!(c.is_some(), sizes[q] > 0, "queue {q}: centroid {c:?} with {} flows", sizes[q]);
    }
}

/// Candidates K-means produced: non-empty queues first, centroids non-decreasing.
fn assert_canonical(p: &Partition) {
    let used = p.centroids.iter().take_while(|c| c.is_some()).count();
    assert!(p.centroids[used..].iter().all(|c| c.is_none()), "empty queues come last: {:?}", p.centroids);
    let cs: Vec<f64> = p.centroids[..used].iter().map(|c| c.unwrap()).collect();
    assert!(cs.windows(2).all(|w| w[0] <= w[1]), "centroids ascending: {cs:?}");
}

#[test]
fn fig2_ssre_keeps_the_three_large_backlogs_together_and_separates_40() {
    for k in [2, 3] {
        let d = decide(&FIG2, None, &cfg(k, Objective::Ssre), &mut rng()).unwrap();
        let l = &d.chosen.labels;
        assert!(l[3] == l[4] && l[4] == l[5], "k = {k}: {l:?}");
        assert_ne!(l[0], l[3], "k = {k}: {l:?}");
        assert_eq!(groups(&best_candidate(&d).partition.labels), groups(l), "k = {k}");
    }
    let k3 = decide(&FIG2, None, &cfg(3, Objective::Ssre), &mut rng()).unwrap();
    assert_eq!(k3.chosen.labels, vec![0, 1, 1, 2, 2, 2]);
    let k2 = decide(&FIG2, None, &cfg(2, Objective::Ssre), &mut rng()).unwrap();
    assert_eq!(k2.chosen.labels, vec![0, 0, 0, 1, 1, 1]);
    // Farthest-first seeds 2414 and 40 and stays in the local optimum {40} | the rest
    // (J ≈ 1.72 against 0.65); the arbitration picks the better instance.
    let far = k2.candidates.iter().find(|c| c.init == Init::Far).unwrap();
    assert_eq!(far.partition.labels, vec![0, 1, 1, 1, 1, 1]);
    assert!(far.partition.objective > k2.chosen.objective);
    let far3 = k3.candidates.iter().find(|c| c.init == Init::Far).unwrap();
    assert_eq!(far3.partition.labels, vec![0, 1, 1, 2, 2, 2]);
}

#[test]
fn fig2_sse_groups_the_small_backlogs_and_splits_the_large_ones() {
    let d = decide(&FIG2, None, &cfg(3, Objective::Sse), &mut rng()).unwrap();
    let best = best_candidate(&d);
    assert_eq!(best.partition.labels, vec![0, 0, 0, 1, 2, 2]);
    assert_eq!(d.chosen.labels, best.partition.labels);
    // SSE of {40,152,200} + {1952} + {2384,2414} = 13 482.67 + 0 + 450.
    assert!((d.chosen.objective - 13_932.666_666_666_666).abs() < 1e-6, "{}", d.chosen.objective);
    // With k = 2 SSE and SSRE agree: small ones against large ones.
    let d2 = decide(&FIG2, None, &cfg(2, Objective::Sse), &mut rng()).unwrap();
    assert_eq!(d2.chosen.labels, vec![0, 0, 0, 1, 1, 1]);
}

#[test]
fn fig2_ssre_objective_matches_the_hand_computation() {
    // {40} + {152,200} + {1952,2384,2414}: J_k = n_k − (Σx)²/Σx² per cluster.
    let want = 0.0 + (2.0 - 352.0 * 352.0 / 63_104.0) + (3.0 - 6750.0 * 6750.0 / 15_321_156.0);
    let d = decide(&FIG2, None, &cfg(3, Objective::Ssre), &mut rng()).unwrap();
    assert!((d.chosen.objective - want).abs() < 1e-12, "{} vs {want}", d.chosen.objective);
    let c = d.chosen.centroids;
    assert_eq!(c[0], Some(40.0));
    assert!((c[1].unwrap() - 63_104.0 / 352.0).abs() < 1e-9);
}

#[test]
fn weighted_centroid_minimises_the_clusters_ssre() {
    let xs = [3.0, 10.0, 11.0, 40.0];
    let mu = weighted_centroid(&xs);
    let j = |m: f64| xs.iter().map(|&x| sre(x, m)).sum::<f64>();
    for m in [mu * 0.99, mu * 1.01, mu - 1e-3, mu + 1e-3] {
        assert!(j(m) > j(mu));
    }
    assert_eq!(weighted_centroid(&[0.0, 0.0]), 0.0);
}

#[test]
fn sre_boundary_between_two_centroids_is_their_harmonic_mean_not_the_midpoint() {
    let (a, b) = (2.0, 6.0);
    let h = 2.0 * a * b / (a + b); // 3, where the midpoint is 4
    assert_eq!(sre(h, a), sre(h, b));
    assert!(sre(3.5, b) < sre(3.5, a));
    assert!(sre(2.9, a) < sre(2.9, b));
}

#[test]
fn zero_backlog_rules_are_the_documented_ones() {
    assert_eq!(sre(0.0, 0.0), 0.0);
    assert_eq!(sre(1.0, 0.0), f64::INFINITY);
    assert_eq!(sre(0.0, 7.0), 1.0);
    // All zeros: one queue, centroid 0, J = 0.
    let d = decide(&[0.0, 0.0, -0.0], None, &cfg(3, Objective::Ssre), &mut rng()).unwrap();
    assert_eq!(d.chosen.labels, vec![0, 0, 0]);
    assert_eq!(d.chosen.centroids, vec![Some(0.0), None, None]);
    assert_eq!(d.chosen.objective, 0.0);
    // Zeros get a queue of their own when one is available...
    let d = decide(&[0.0, 100.0, 0.0, 110.0], None, &cfg(2, Objective::Ssre), &mut rng()).unwrap();
    assert_eq!(d.chosen.labels, vec![0, 1, 0, 1]);
    assert_eq!(d.chosen.centroids[0], Some(0.0));
    // ...and otherwise cost 1 each in the smallest positive queue.
    let d = decide(&[0.0, 100.0, 1000.0], None, &cfg(1, Objective::Ssre), &mut rng()).unwrap();
    assert_eq!(d.chosen.labels, vec![0, 0, 0]);
    let mu: f64 = (100.0 * 100.0 + 1000.0 * 1000.0) / 1100.0;
    assert!((d.chosen.objective - (1.0 + sre(100.0, mu) + sre(1000.0, mu))).abs() < 1e-12);
}

#[test]
fn fewer_distinct_backlogs_than_queues_leave_the_last_queues_empty() {
    let d = decide(&[30.0, 10.0, 30.0], None, &cfg(4, Objective::Ssre), &mut rng()).unwrap();
    for c in &d.candidates {
        assert_eq!(c.partition.labels, vec![1, 0, 1], "{:?}", c.init);
        assert_eq!(c.partition.centroids, vec![Some(10.0), Some(30.0), None, None]);
        assert_eq!(c.partition.objective, 0.0);
    }
}

#[test]
fn one_flow_takes_queue_zero() {
    let d = decide(&[123.0], None, &cfg(3, Objective::Ssre), &mut rng()).unwrap();
    assert_eq!(d.chosen.labels, vec![0]);
    assert_eq!(d.chosen.centroids, vec![Some(123.0), None, None]);
    assert_eq!(d.chosen.objective, 0.0);
    let kept = decide(&[123.0], Some(&[2]), &cfg(3, Objective::Ssre), &mut rng()).unwrap();
    assert_eq!(kept.winner, None, "J_pre = 0 cannot be improved");
    assert_eq!(kept.chosen.labels, vec![2]);
    assert_eq!(kept.chosen.centroids, vec![None, None, Some(123.0)]);
}

#[test]
fn equal_backlogs_keep_a_round_robin_mapping() {
    let x = vec![500.0; 9];
    let current: Vec<u32> = (0..9).map(|i| i % 3).collect();
    let d = decide(&x, Some(&current), &cfg(3, Objective::Ssre), &mut rng()).unwrap();
    assert_eq!(d.j_pre, Some(0.0));
    assert_eq!(d.winner, None);
    assert_eq!(d.chosen.labels, current);
    assert_eq!(d.chosen.centroids, vec![Some(500.0); 3]);
    for c in &d.candidates {
        assert_eq!(c.partition.labels, vec![0; 9], "{:?}", c.init);
    }
}

#[test]
fn no_flows_give_empty_partitions() {
    let d = decide(&[], None, &cfg(2, Objective::Ssre), &mut rng()).unwrap();
    assert_eq!(d.winner, Some(Init::Far), "the first instance that ran");
    assert!(d.chosen.labels.is_empty());
    assert_eq!(d.chosen.centroids, vec![None, None]);
    let d = decide(&[], Some(&[]), &cfg(2, Objective::Ssre), &mut rng()).unwrap();
    assert_eq!((d.j_pre, d.winner, d.candidates.len()), (Some(0.0), None, 3));
}

#[test]
fn invalid_backlogs_are_refused_with_index_and_value() {
    for (bad, idx) in [(f64::NAN, 1), (f64::INFINITY, 1), (-1.0, 1)] {
        let err = decide(&[1.0, bad], None, &cfg(2, Objective::Ssre), &mut rng()).unwrap_err();
        assert!(matches!(err, ClusterError::InvalidBacklog { index, .. } if index == idx), "{err}");
    }
    let err = decide(&[1.0, -2.0], None, &cfg(2, Objective::Ssre), &mut rng()).unwrap_err();
    assert_eq!(err.to_string(), "backlog[1] = -2: backlogs must be finite, from 0 to 1e15 cells");
    let err = decide(&[1.0], None, &cfg(0, Objective::Ssre), &mut rng()).unwrap_err();
    assert_eq!(err, ClusterError::ZeroQueues);
}

/// 1e308 cells once gave Σx² = ∞ and J = NaN; beyond the bound a backlog is refused by
/// index and value, and up to it every sum stays finite under both objectives.
#[test]
fn huge_backlogs_are_refused_and_those_up_to_the_bound_give_finite_results() {
    let err = decide(&[1e308, 1e308, 5.0, 1e308], None, &cfg(3, Objective::Ssre), &mut rng()).unwrap_err();
    assert_eq!(err, ClusterError::InvalidBacklog { index: 0, value: 1e308 });
    assert_eq!(err.to_string(), "backlog[0] = 1e308: backlogs must be finite, from 0 to 1e15 cells");
    let m = MAX_BACKLOG_CELLS;
    let x = [m, m, 5.0, m, 0.0, 1.0, m * 0.5];
    for objective in [Objective::Ssre, Objective::Sse] {
        let d = decide(&x, Some(&[0, 1, 0, 1, 0, 1, 2]), &cfg(3, objective), &mut rng()).unwrap();
        assert!(d.j_pre.is_some_and(f64::is_finite), "{objective:?}: {:?}", d.j_pre);
        for c in &d.candidates {
            let p = &c.partition;
            assert!(p.objective.is_finite(), "{objective:?} {:?}: J = {}", c.init, p.objective);
            assert!(p.centroids.iter().flatten().all(|mu| mu.is_finite()), "{objective:?}: {p:?}");
        }
    }
}

/// `--init conservative` alone without a current mapping once reached `unreachable!`.
#[test]
fn conservative_alone_without_a_current_mapping_is_refused() {
    let only = KmeansConfig { inits: vec![Init::Conservative], ..cfg(3, Objective::Ssre) };
    assert_eq!(decide(&FIG2, None, &only, &mut rng()), Err(ClusterError::NothingToRun));
    assert!(decide(&FIG2, Some(&[0, 0, 1, 1, 2, 2]), &only, &mut rng()).is_ok());
}

#[test]
fn conservative_is_skipped_without_a_current_mapping() {
    let d = decide(&FIG2, None, &cfg(3, Objective::Ssre), &mut rng()).unwrap();
    let inits: Vec<Init> = d.candidates.iter().map(|c| c.init).collect();
    assert_eq!(inits, vec![Init::Far, Init::Random]);
    assert_eq!(d.j_pre, None);
}

#[test]
fn a_better_partition_replaces_a_poor_current_mapping() {
    let current = [0, 1, 0, 1, 0, 1];
    let d = decide(&FIG2, Some(&current), &cfg(3, Objective::Ssre), &mut rng()).unwrap();
    let j_pre = objective(&FIG2, &current, 3, Objective::Ssre).unwrap();
    assert_eq!(d.j_pre, Some(j_pre));
    assert!(d.winner.is_some());
    assert_eq!(d.chosen.labels, vec![0, 1, 1, 2, 2, 2]);
    assert!(d.chosen.objective < j_pre);
}

#[test]
fn rerunning_on_the_chosen_partition_moves_no_flow() {
    let x: Vec<f64> =
        (0..200).map(|i| f64::from((i * 7919) % 1000 + 1) * if i % 3 == 0 { 10.0 } else { 1.0 }).collect();
    let first = decide(&x, None, &cfg(4, Objective::Ssre), &mut rng()).unwrap();
    let again = decide(&x, Some(&first.chosen.labels), &cfg(4, Objective::Ssre), &mut rng()).unwrap();
    assert_eq!(again.chosen.labels, first.chosen.labels);
    assert_eq!(again.winner, None);
}

#[test]
fn same_seed_gives_the_same_decision() {
    let x: Vec<f64> = (0..500).map(|i| f64::from((i * 31337) % 977)).collect();
    let a = decide(&x, None, &cfg(5, Objective::Ssre), &mut rng()).unwrap();
    let b = decide(&x, None, &cfg(5, Objective::Ssre), &mut rng()).unwrap();
    assert_eq!(a, b);
}

#[test]
fn a_hundred_thousand_flows_cluster() {
    let mut r = SimRng::new(9, StreamId::Other(1));
    let x: Vec<f64> = (0..100_000)
        .map(|_| (1.0 + r.below(6000) as f64) * if r.below(4) == 0 { 5.0 } else { 1.0 })
        .collect();
    let current: Vec<u32> = (0..100_000).map(|i| i % 16).collect();
    let d = decide(&x, Some(&current), &cfg(16, Objective::Ssre), &mut rng()).unwrap();
    assert_well_formed(&d.chosen, x.len(), 16);
    assert!(d.chosen.objective <= d.j_pre.unwrap());
}

/// The first centroid of least error: eq. (4) evaluated literally.
fn argmin_scan(m: &FloatMetric, x: f64, mus: &[f64]) -> usize {
    let mut best = 0;
    for (j, &mu) in mus.iter().enumerate() {
        if m.err(x, mu) < m.err(x, mus[best]) {
            best = j;
        }
    }
    best
}

fn backlogs() -> impl Strategy<Value = Vec<f64>> {
    prop_oneof![
        prop::collection::vec((0u32..3000).prop_map(f64::from), 0..40),
        prop::collection::vec(0.0f64..1e4, 1..40),
        prop::collection::vec(prop_oneof![Just(0.0), Just(5.0), Just(40.0), Just(41.0), Just(2000.0)], 1..20),
    ]
}

fn objectives() -> impl Strategy<Value = Objective> {
    prop_oneof![Just(Objective::Ssre), Just(Objective::Sse)]
}

/// Backlogs with a current mapping into k queues.
fn mapped() -> impl Strategy<Value = (Vec<f64>, Vec<u32>, usize)> {
    (backlogs(), 1usize..6).prop_flat_map(|(x, k)| {
        let n = x.len();
        (Just(x), prop::collection::vec(0u32..k as u32, n), Just(k))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn fast_assignment_equals_the_literal_argmin(
        x in backlogs(),
        mut mus in prop::collection::vec(prop_oneof![Just(0.0), 0.5f64..5000.0], 1..8),
        objective in objectives(),
    ) {
        let m = FloatMetric(objective);
        let data = sort_backlogs(&x).unwrap();
        mus.sort_by(f64::total_cmp);
        mus.dedup();
        let mut l = Lloyd::from_centroids(&m, &data.values, mus.clone());
        l.step();
        for (i, &q) in l.sorted_labels().iter().enumerate() {
            prop_assert_eq!(q as usize, argmin_scan(&m, data.values[i], &mus), "x = {}", data.values[i]);
        }
    }

    #[test]
    fn an_iteration_never_raises_the_objective((x, current, k) in mapped(), objective in objectives(), seed in 0u64..1000) {
        let m = FloatMetric(objective);
        let data = sort_backlogs(&x).unwrap();
        let prepared = Prepared::new(&m, &data, Some(&current), k);
        let j_pre = objective_of(&x, &current, k, objective);
        for init in [Init::Conservative, Init::Far, Init::Random] {
            let mut r = SimRng::new(seed, StreamId::Other(0));
            let mut l = prepared.start(init, &mut r).unwrap();
            let mut last = if init == Init::Conservative { j_pre } else { f64::INFINITY };
            for _ in 0..60 {
                let changed = l.step();
                let j = l.objective();
                prop_assert!(j <= last + 1e-9 * last.abs() + 1e-12, "{:?}: {} after {}", init, j, last);
                last = j;
                if !changed { break; }
            }
        }
    }

    #[test]
    fn the_chosen_partition_is_never_worse_than_the_current_one((x, current, k) in mapped(), objective in objectives(), seed in 0u64..1000) {
        let d = decide(&x, Some(&current), &cfg(k, objective), &mut SimRng::new(seed, StreamId::Other(0))).unwrap();
        let j_pre = d.j_pre.unwrap();
        prop_assert!(d.chosen.objective <= j_pre);
        match d.winner {
            None => prop_assert_eq!(&d.chosen.labels, &current),
            Some(w) => {
                let c = d.candidates.iter().find(|c| c.init == w).unwrap();
                prop_assert_eq!(&c.partition, &d.chosen);
                // Lowest J, up to the tie tolerance of the arbitration.
                let j = d.chosen.objective;
                let scale = x.len() as f64 + x.iter().map(|v| v * v).sum::<f64>();
                prop_assert!(d.candidates.iter().all(|o| o.partition.objective >= j - 1e-9 * j - 1e-12 * scale));
            }
        }
    }

    #[test]
    fn the_result_does_not_depend_on_input_order(
        ((x, current, k), perm) in mapped().prop_flat_map(|m| {
            let n = m.0.len();
            (Just(m), Just((0..n).collect::<Vec<usize>>()).prop_shuffle())
        }),
        objective in objectives(),
        seed in 0u64..1000,
        with_current in any::<bool>(),
    ) {
        let px: Vec<f64> = perm.iter().map(|&i| x[i]).collect();
        let pc: Vec<u32> = perm.iter().map(|&i| current[i]).collect();
        let run = |x: &[f64], c: &[u32]| {
            let c = with_current.then_some(c);
            decide(x, c, &cfg(k, objective), &mut SimRng::new(seed, StreamId::Other(0))).unwrap()
        };
        let (a, b) = (run(&x, &current), run(&px, &pc));
        let pairs = |x: &[f64], p: &Partition| {
            let mut v: Vec<(u64, u32)> = x.iter().zip(&p.labels).map(|(v, &q)| ((v + 0.0).to_bits(), q)).collect();
            v.sort();
            v
        };
        prop_assert_eq!(a.winner, b.winner);
        prop_assert_eq!(pairs(&x, &a.chosen), pairs(&px, &b.chosen));
        prop_assert_eq!(a.chosen.objective.to_bits(), b.chosen.objective.to_bits());
        prop_assert_eq!(&a.chosen.centroids, &b.chosen.centroids);
        for (ca, cb) in a.candidates.iter().zip(&b.candidates) {
            prop_assert_eq!(pairs(&x, &ca.partition), pairs(&px, &cb.partition));
        }
    }

    #[test]
    fn labels_are_queues_and_centroids_ascend((x, current, k) in mapped(), objective in objectives(), seed in 0u64..1000) {
        let d = decide(&x, Some(&current), &cfg(k, objective), &mut SimRng::new(seed, StreamId::Other(0))).unwrap();
        assert_well_formed(&d.chosen, x.len(), k);
        for c in &d.candidates {
            assert_well_formed(&c.partition, x.len(), k);
            assert_canonical(&c.partition);
        }
    }
}

fn objective_of(x: &[f64], labels: &[u32], k: usize, o: Objective) -> f64 {
    objective(x, labels, k, o).unwrap()
}
