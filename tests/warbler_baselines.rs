//! The Warbler paper's baselines, qualitatively: who wins and roughly by how much.
//! Tolerances are wide where the paper reports a testbed figure we do not model exactly
//! (real Linux hosts, a Tofino 2) and tight where the mechanism decides (FQ is fair).

use aqm_tests::run;
use sim_core::aqm::{CodelConfig, QueueDiscSpec, QueueLimit};
use sim_core::cc::{CcaSpec, CubicConfig, VegasConfig};
use sim_core::metrics::Summary;
use sim_core::scenario::{preset, FlowGroup, Link, Scenario};
use sim_core::tcp::TcpConfig;

fn summary(name: &str, variant: &str) -> Summary {
    let s = run(&preset(name, Some(variant)).unwrap()).1;
    println!(
        "{name}/{variant}: JFI {:.3}, goodput {:.1} Mbit/s, delay {:.1} ms, jitter {:.1} ms, buffer {:.0} cells, shares {:?}",
        s.jfi,
        s.throughput.mean_bps / 1e6,
        s.delay_mean_s.unwrap_or(0.0) * 1e3,
        s.jitter_s.unwrap_or(0.0) * 1e3,
        s.buffer_cells_mean.unwrap_or(0.0),
        s.flows.iter().map(|f| (100.0 * f.throughput_share).round()).collect::<Vec<_>>()
    );
    s
}

fn one_queue(flows: Vec<FlowGroup>, queue: QueueDiscSpec) -> Scenario {
    Scenario {
        name: "one-queue".into(),
        duration_s: 30.0,
        warmup_s: 5.0,
        links: Scenario::one_link(Link::new(100_000_000, 1.0, queue)),
        flows,
        tcp: TcpConfig {
            mss_bytes: 1448,
            min_rto_ms: 200.0,
            send_buffer_bytes: 6 << 20,
            recv_buffer_bytes: 6 << 20,
            ..TcpConfig::default()
        },
        ..Scenario::default()
    }
}

fn group(count: u32, cca: CcaSpec) -> FlowGroup {
    FlowGroup { count, cca, access_rate_bps: 1_000_000_000, access_delay_ms: 4.0, ..FlowGroup::default() }
}

#[test]
fn cubic_starves_vegas_in_one_fifo_queue() {
    let sc = one_queue(
        vec![
            group(1, CcaSpec::Cubic(CubicConfig::default())),
            group(1, CcaSpec::Vegas(VegasConfig::default())),
        ],
        QueueDiscSpec::fifo(QueueLimit::Cells { cells: 3000, cell_bytes: 160 }),
    );
    let s = run(&sc).1;
    assert!(s.jfi < 0.8, "JFI {}", s.jfi);
    assert!(s.flows[0].throughput_share > 0.75, "CUBIC share {}", s.flows[0].throughput_share);
}

#[test]
fn codel_keeps_the_median_sojourn_near_five_ms_under_ten_bulk_flows() {
    let sc = one_queue(
        vec![group(10, CcaSpec::NewReno(Default::default()))],
        QueueDiscSpec::Codel(CodelConfig::default()),
    );
    let (sim, _) = run(&sc);
    // The window opens after the 5 s warm-up.
    let median_ms = sim.recorder().window.all_delays().quantile(0.5).unwrap() * 1e3;
    assert!((2.5..=10.0).contains(&median_ms), "median sojourn {median_ms:.2} ms");
}

#[test]
fn rtt_unfair_fifo_favours_the_20_ms_flow() {
    let s = summary("rtt-unfair", "fifo");
    assert!(s.flows[0].throughput_share > 0.6, "20 ms flow share {}", s.flows[0].throughput_share);
    assert!(s.jfi < 0.9);
}

#[test]
fn rtt_unfair_ideal_fq_and_fq_codel_are_fair() {
    for v in ["fq", "fq-codel"] {
        let s = summary("rtt-unfair", v);
        assert!(s.jfi >= 0.95, "{v}: JFI {}", s.jfi);
    }
}

#[test]
fn rtt_unfair_cebinae_is_fair_but_leaves_capacity_unused() {
    let s = summary("rtt-unfair", "cebinae");
    assert!(s.jfi >= 0.95, "JFI {}", s.jfi);
    let link_payload = 100e6 * 1448.0 / 1502.0;
    assert!(s.throughput.mean_bps < 0.95 * link_payload, "goodput {}", s.throughput.mean_bps);
    assert!(s.throughput.mean_bps > 0.5 * link_payload, "goodput {}", s.throughput.mean_bps);
}

#[test]
fn cubic_vegas_two_queues_are_unfair_without_warbler() {
    // §5.1: before Warbler, JFI about 0.6: CUBIC takes most of each queue's share.
    let s = summary("cubic-vegas-2q", "baseline");
    assert!(s.jfi < 0.8, "JFI {}", s.jfi);
    let cubic: f64 = s.flows.iter().filter(|f| f.cca == "cubic").map(|f| f.throughput_share).sum();
    assert!(cubic > 0.7, "CUBIC share {cubic}");
}

#[test]
fn cubic_bbr_vegas_three_queues_are_unfair_and_bufferbloated_without_warbler() {
    // §5.2 Table 2 without Warbler: JFI 0.69, buffer 1614 cells.
    let s = summary("cubic-bbr-vegas-3q", "baseline");
    assert!(s.jfi < 0.9, "JFI {}", s.jfi);
    let buffer = s.buffer_cells_mean.unwrap();
    assert!(buffer > 500.0, "buffer {buffer}");
    let vegas: f64 = s.flows.iter().filter(|f| f.cca == "vegas").map(|f| f.throughput_share).sum();
    assert!(vegas < 2.0 / 6.0, "Vegas share {vegas}");
}

#[test]
fn vegas_newreno_mix_fifo_is_unfair_and_ideal_fq_is_the_upper_bound() {
    for mix in ["7v1n", "6v2n", "1v7n"] {
        let fifo = summary("vegas-newreno-mix", &format!("{mix}-fifo"));
        let fq = summary("vegas-newreno-mix", &format!("{mix}-fq"));
        assert!(fq.jfi >= 0.95, "{mix} FQ JFI {}", fq.jfi);
        assert!(fifo.jfi < fq.jfi - 0.1, "{mix}: FIFO {} vs FQ {}", fifo.jfi, fq.jfi);
    }
}

#[test]
fn more_queues_bring_the_load_balanced_mix_closer_to_ideal_fq() {
    let one = summary("vegas-newreno-mix", "6v2n-fifo");
    let eight = summary("vegas-newreno-mix", "6v2n-8q");
    assert!(eight.jfi > one.jfi, "8 queues {} vs 1 {}", eight.jfi, one.jfi);
}
