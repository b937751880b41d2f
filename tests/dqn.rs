//! The DQN paper's comparison (§4) with the agent shipped in `sim-core/models/`: frozen,
//! against CUBIC and NewReno on the paper's dumbbell, over seeds (start-time jitter).

use aqm_tests::run;
use sim_core::metrics::Summary;
use sim_core::scenario::preset;

fn runs(variant: &str) -> Vec<Summary> {
    (1..=5)
        .map(|seed| {
            let mut sc = preset("dqn-dumbbell", Some(variant)).unwrap();
            sc.seed = seed;
            run(&sc).1
        })
        .collect()
}

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let v: Vec<f64> = xs.collect();
    v.iter().sum::<f64>() / v.len() as f64
}

fn figures(s: &[Summary]) -> (f64, f64, f64) {
    (
        mean(s.iter().map(|x| x.throughput.mean_bps / 1e6)),
        mean(s.iter().map(|x| x.flows[0].srtt_ms_mean.unwrap())),
        mean(s.iter().map(|x| x.drops.total_all as f64)),
    )
}

#[test]
fn the_shipped_agent_keeps_cubics_throughput_with_a_fraction_of_its_rtt_and_losses() {
    let (dqn, cubic, newreno) = (figures(&runs("dqn")), figures(&runs("cubic")), figures(&runs("newreno")));
    println!("throughput / RTT / losses: DQN {dqn:.3?}, CUBIC {cubic:.3?}, NewReno {newreno:.3?}");
    assert!(cubic.2 >= 300.0, "CUBIC should overflow the buffer (paper: ≈ 500 losses): {}", cubic.2);
    assert!((dqn.0 / cubic.0 - 1.0).abs() <= 0.05, "throughput {} vs CUBIC {}", dqn.0, cubic.0);
    assert!(dqn.1 <= 0.7 * cubic.1, "RTT {} vs CUBIC {}", dqn.1, cubic.1);
    assert!(dqn.1 < newreno.1, "RTT {} vs NewReno {}", dqn.1, newreno.1);
    assert!(dqn.2 <= 0.1 * cubic.2, "losses {} vs CUBIC {}", dqn.2, cubic.2);
}

#[test]
fn training_is_deterministic_and_matches_the_committed_digest() {
    let d = aqm_tests::dqn_training_digest();
    assert_eq!(d, aqm_tests::dqn_training_digest());
    assert_eq!(d, aqm_tests::DQN_DIGEST, "digest changed: {d:#x}");
}
