//! The RED study (Palagashvili et al. 2026) reproduced as ns-3 runs it (the default variants:
//! ns-3's 100-packet device queue under the disc, ARED with Gentle on) and without a device
//! queue (`-nonic`). Tolerances: goodput is a property of the link and headers
//! (512 / 566 of 2 Mbit/s = 1.81), so ±4 %; RED's excess of drops is the paper's headline
//! (19-21 % more), and we require at least 10 % over the mean of five seeds (one seed's
//! drops spread by ±6 %: seed 1 of RED has 753 where seeds 1-10 average 865).

use aqm_tests::run;
use sim_core::metrics::Summary;
use sim_core::scenario::{preset, published};

const SEEDS: u64 = 5;

fn study(variant: &str) -> Summary {
    let (_, s) = run(&preset("red-study", Some(variant)).unwrap());
    let alg = sim_core::scenario::red_study_algorithm(variant);
    let p = published::red_study(alg).unwrap();
    println!(
        "{variant:<11} goodput {:.4} (paper {:.4}) Mbit/s | drops {} (paper {}) | mean queue {:.2?} (paper {:.2}) | CV {:.1?} % (paper {:.1} %)",
        s.throughput.mean_bps / 1e6,
        p.throughput_mbps,
        s.drops.total,
        p.drops,
        s.queue.mean_packets,
        p.queue_mean,
        s.throughput.cv_pct,
        p.cv_pct
    );
    s
}

fn check(suffix: &str) {
    let red = study(&format!("red{suffix}"));
    let ared = study(&format!("ared{suffix}"));
    let gentle = study(&format!("gentle{suffix}"));
    for s in [&red, &ared, &gentle] {
        let mbps = s.throughput.mean_bps / 1e6;
        assert!((1.75..=1.88).contains(&mbps), "{}: goodput {mbps}", s.scenario);
    }
    let mean_drops = |variant: String| -> f64 {
        let total: u64 = (1..=SEEDS)
            .map(|seed| {
                let mut sc = preset("red-study", Some(&variant)).unwrap();
                sc.seed = seed;
                run(&sc).1.drops.total
            })
            .sum();
        total as f64 / SEEDS as f64
    };
    let (r, a, g) = (
        mean_drops(format!("red{suffix}")),
        mean_drops(format!("ared{suffix}")),
        mean_drops(format!("gentle{suffix}")),
    );
    assert!(r >= 1.1 * a.max(g), "mean drops over {SEEDS} seeds: RED {r} vs ARED {a} / Gentle {g}");
}

#[test]
fn red_study_without_nic_queue_red_drops_most_at_the_same_goodput() {
    check("-nonic");
}

#[test]
fn red_study_with_ns3_device_queue_red_drops_most_at_the_same_goodput() {
    check("");
}

#[test]
fn ared_runs_with_ns3s_automatic_thresholds() {
    let (_, s) = run(&preset("red-study", Some("ared")).unwrap());
    let zones = s.zones().expect("RED reports its EWMA's zones");
    let bounds: Vec<Option<f64>> = zones.zones.iter().map(|z| z.hi).collect();
    assert_eq!(bounds, [Some(5.0), Some(15.0), Some(30.0), None]);
}
