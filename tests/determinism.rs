//! Same seed → identical results; different seed → different drop times; and the committed
//! digest that the browser test checks too.

use aqm_tests::{
    determinism_probe_scenario, probe_digest, run, split_digest, warbler_digest, PROBE_DIGEST, SPLIT_DIGEST,
    WARBLER_DIGEST,
};

#[test]
fn same_seed_gives_an_identical_summary_and_trace() {
    let sc = determinism_probe_scenario();
    let (a, sa) = run(&sc);
    let (b, sb) = run(&sc);
    assert_eq!(sa, sb);
    assert_eq!(a.recorder().drops.kept, b.recorder().drops.kept);
    assert_eq!(a.recorder().samples.kept, b.recorder().samples.kept);
}

#[test]
fn different_seeds_give_different_drop_times() {
    let mut sc = determinism_probe_scenario();
    let (a, _) = run(&sc);
    sc.seed += 1;
    let (b, _) = run(&sc);
    let ta: Vec<f64> = a.recorder().drops.kept.iter().map(|d| d.t_s).collect();
    let tb: Vec<f64> = b.recorder().drops.kept.iter().map(|d| d.t_s).collect();
    assert!(!ta.is_empty());
    assert_ne!(ta, tb);
}

#[test]
fn native_run_matches_the_committed_digest() {
    assert_eq!(probe_digest(), PROBE_DIGEST, "digest changed: {:#x}", probe_digest());
}

#[test]
fn a_split_run_matches_the_committed_digest() {
    assert_eq!(split_digest(), SPLIT_DIGEST, "digest changed: {:#x}", split_digest());
}

#[test]
fn a_run_with_timed_changes_matches_the_committed_digest() {
    let d = aqm_tests::changes_digest();
    assert_eq!(d, aqm_tests::CHANGES_DIGEST, "digest changed: {d:#x}");
}

#[test]
fn a_warbler_run_matches_the_committed_digest() {
    assert_eq!(warbler_digest(), WARBLER_DIGEST, "digest changed: {:#x}", warbler_digest());
}

#[test]
fn warbler_clustering_of_ten_thousand_flows_matches_the_committed_digest() {
    let d = aqm_tests::kmeans_probe();
    let digest = aqm_tests::kmeans_digest(&d);
    assert_eq!(digest, aqm_tests::KMEANS_DIGEST, "digest changed: {digest:#x}");
    assert!(d.winner.is_some(), "the round-robin mapping is improved on");
}
