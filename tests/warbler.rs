//! Warbler's experiments (paper §5), with the targets the paper's figures set: isolation by
//! backlog restores fairness between heterogeneous congestion controls. Each run is a preset
//! of the CLI and the web app; the printed lines are what the README's table reports.

use aqm_tests::{run, window_jfi};
use sim_core::metrics::Summary;
use sim_core::scenario::preset;

fn table2(s: &Summary) -> (f64, f64, f64, f64) {
    (s.jfi, s.delay_mean_s.unwrap(), s.jitter_s.unwrap(), s.buffer_cells_mean.unwrap())
}

#[test]
fn fig4_warbler_lifts_jain_from_cubic_dominance_to_fairness_after_activation() {
    let (sim, _) = run(&preset("cubic-vegas-2q", Some("warbler")).unwrap());
    let before = window_jfi(&sim, 5.0, 30.0);
    let after = window_jfi(&sim, 40.0, 60.0);
    println!("§5.1: JFI {before:.3} before activation at 30 s, {after:.3} from 40 s");
    assert!(before <= 0.75, "JFI before activation {before}");
    assert!(after >= 0.95, "JFI from 10 s after activation {after}");
}

#[test]
fn table2_warbler_improves_fairness_delay_jitter_and_buffer() {
    let (_, without) = run(&preset("cubic-bbr-vegas-3q", Some("baseline")).unwrap());
    let (_, with) = run(&preset("cubic-bbr-vegas-3q", Some("warbler")).unwrap());
    let (a, b) = (table2(&without), table2(&with));
    println!("§5.2 without → with Warbler: JFI {:.3} → {:.3}, delay {:.1} → {:.1} ms, jitter {:.1} → {:.1} ms, buffer {:.0} → {:.0} cells", a.0, b.0, a.1 * 1e3, b.1 * 1e3, a.2 * 1e3, b.2 * 1e3, a.3, b.3);
    assert!(a.0 <= 0.8, "JFI without {}", a.0);
    assert!(b.0 >= 0.95, "JFI with {}", b.0);
    assert!(b.1 < 0.8 * a.1, "mean delay {} vs {}", b.1, a.1);
    assert!(b.2 < 0.8 * a.2, "jitter {} vs {}", b.2, a.2);
    assert!(b.3 < 0.8 * a.3, "buffer {} vs {}", b.3, a.3);
}

#[test]
fn rtt_unfairness_warbler_is_fair_and_keeps_more_capacity_than_cebinae() {
    let (_, w) = run(&preset("rtt-unfair", Some("warbler")).unwrap());
    let (_, c) = run(&preset("rtt-unfair", Some("cebinae")).unwrap());
    println!(
        "§5.3: Warbler JFI {:.3} at {:.1} Mbit/s; Cebinae JFI {:.3} at {:.1} Mbit/s",
        w.jfi,
        w.throughput.mean_bps / 1e6,
        c.jfi,
        c.throughput.mean_bps / 1e6
    );
    assert!(w.jfi >= 0.95, "Warbler JFI {}", w.jfi);
    assert!(w.throughput.mean_bps > c.throughput.mean_bps);
}

#[test]
fn fig11_warbler_approaches_ideal_fq_as_queues_are_added() {
    for mix in ["7v1n", "6v2n", "1v7n"] {
        let jfi = |d: &str| run(&preset("vegas-newreno-mix", Some(&format!("{mix}-{d}"))).unwrap()).1.jfi;
        let (fifo, fq) = (jfi("fifo"), jfi("fq"));
        let w: Vec<f64> = ["warbler-2q", "warbler-4q", "warbler-8q"].iter().map(|d| jfi(d)).collect();
        println!(
            "Fig. 11 {mix}: FIFO {fifo:.2}, Warbler 2/4/8 queues {:.2}/{:.2}/{:.2}, ideal FQ {fq:.2}",
            w[0], w[1], w[2]
        );
        assert!(w[0] <= w[1] + 0.01 && w[1] <= w[2] + 0.01, "{mix}: JFI should rise with queues: {w:?}");
        assert!((fq - w[2]).abs() <= 0.05, "{mix}: 8 queues {} vs FQ {fq}", w[2]);
        assert!(w[0] >= fifo + 0.04, "{mix}: 2 queues {} vs FIFO {fifo}", w[0]);
    }
}

#[test]
fn every_decision_is_logged_with_its_candidates_and_winner() {
    let (sim, _) = run(&preset("cubic-bbr-vegas-3q", Some("warbler")).unwrap());
    let log: Vec<_> = sim.recorder().log.kept.iter().filter(|r| r.source == "warbler").collect();
    assert_eq!(log.len(), 60, "one decision per 1 s period");
    for r in &log {
        for key in ["j_pre", "j", "winner", "centroids", "weights", "queues", "j_far", "j_random"] {
            assert!(r.fields.contains_key(key), "{key} missing at {}", r.t_s);
        }
        assert!(r.fields["j"].as_f64().unwrap() <= r.fields["j_pre"].as_f64().unwrap() + 1e-9);
    }
}
