//! Wall time of whole runs. Events and packets per run are printed once (with the events/s
//! of that first run) so that events/s and packets/s follow from the times criterion reports.

use criterion::{criterion_group, criterion_main, Criterion};
use sim_core::aqm::{FqCodelConfig, QueueDiscSpec, QueueLimit};
use sim_core::cc::CcaSpec;
use sim_core::scenario::{preset, FlowGroup, Link, Scenario};
use sim_core::sim::Simulation;
use sim_core::tcp::TcpConfig;
use std::time::Instant;

fn fifo_10_flows_100mbps() -> Scenario {
    Scenario {
        name: "fifo-10x100M".into(),
        duration_s: 60.0,
        links: Scenario::one_link(Link::new(
            100_000_000,
            5.0,
            QueueDiscSpec::fifo(QueueLimit::Packets(1000)),
        )),
        flows: vec![FlowGroup {
            count: 10,
            cca: CcaSpec::default(),
            access_rate_bps: 1_000_000_000,
            access_delay_ms: 5.0,
            ..FlowGroup::default()
        }],
        tcp: TcpConfig {
            mss_bytes: 1448,
            send_buffer_bytes: 4 << 20,
            recv_buffer_bytes: 4 << 20,
            ..TcpConfig::default()
        },
        ..Scenario::default()
    }
}

/// 1000 CUBIC flows through FQ-CoDel on a 1 Gbit/s, 10 ms bottleneck for 10 s.
fn fq_codel_1000_flows() -> Scenario {
    Scenario {
        name: "fq-codel-1000".into(),
        duration_s: 10.0,
        links: Scenario::one_link(Link::new(
            1_000_000_000,
            5.0,
            QueueDiscSpec::FqCodel(FqCodelConfig::default()),
        )),
        flows: vec![FlowGroup {
            count: 1000,
            cca: CcaSpec::default(),
            access_rate_bps: 10_000_000_000,
            access_delay_ms: 5.0,
            ..FlowGroup::default()
        }],
        tcp: TcpConfig { mss_bytes: 1448, ..TcpConfig::default() },
        ..Scenario::default()
    }
}

/// Two NewReno flows (RTT 20 and 42 ms) with MSS 100 and 16 MB buffers through a 1 Gbit/s
/// bottleneck with a 100 000-packet FIFO, for 1 s: ~160 000 segments in flight and bursts
/// of losses, the case where a scoreboard that scans the window per ACK crawled (18 k
/// events/s before the run-based scoreboard).
fn large_window_mss_100() -> Scenario {
    let mut sc = preset("rtt-unfair", Some("fifo")).unwrap();
    sc.name = "large-window-mss-100".into();
    sc.duration_s = 1.0;
    sc.warmup_s = 0.0;
    sc.bottleneck_mut().rate_bps = 1_000_000_000;
    sc.bottleneck_mut().queue = QueueDiscSpec::fifo(QueueLimit::Packets(100_000));
    for g in &mut sc.flows {
        g.access_rate_bps = 10_000_000_000;
    }
    sc.tcp.mss_bytes = 100;
    sc.tcp.send_buffer_bytes = 16_000_000;
    sc.tcp.recv_buffer_bytes = 16_000_000;
    sc
}

/// 10 000 CUBIC flows through a 20 000-packet FIFO on a 10 Gbit/s, 10 ms bottleneck for 1 s.
fn fifo_10000_flows_10gbps() -> Scenario {
    Scenario {
        name: "fifo-10000x10G".into(),
        duration_s: 1.0,
        warmup_s: 0.0,
        links: Scenario::one_link(Link::new(
            10_000_000_000,
            5.0,
            QueueDiscSpec::fifo(QueueLimit::Packets(20_000)),
        )),
        flows: vec![FlowGroup {
            count: 10_000,
            cca: CcaSpec::default(),
            access_rate_bps: 10_000_000_000,
            access_delay_ms: 5.0,
            ..FlowGroup::default()
        }],
        tcp: TcpConfig {
            mss_bytes: 1448,
            send_buffer_bytes: 512 << 10,
            recv_buffer_bytes: 512 << 10,
            ..TcpConfig::default()
        },
        ..Scenario::default()
    }
}

fn report(name: &str, sc: &Scenario) {
    let start = Instant::now();
    let mut sim = Simulation::new(sc).unwrap();
    let s = sim.finish();
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{name}: {} events ({:.2} M events/s in this run), {} packets delivered, {} dropped, goodput {:.3} Mbit/s per run",
        s.events,
        s.events as f64 / secs / 1e6,
        s.packets.delivered,
        s.drops.total_all,
        s.throughput.mean_bps / 1e6
    );
}

fn bench(c: &mut Criterion) {
    let red = preset("red-study", Some("red")).unwrap();
    let fifo = fifo_10_flows_100mbps();
    report("red-study 60 s", &red);
    report("fifo 10 flows 100 Mbit/s 60 s", &fifo);
    let warbler = preset("cubic-bbr-vegas-3q", None).unwrap();
    let many = fq_codel_1000_flows();
    report("cubic-bbr-vegas-3q 60 s", &warbler);
    report("fq-codel 1000 flows 1 Gbit/s 10 s", &many);
    let large = large_window_mss_100();
    let fifo_10k = fifo_10000_flows_10gbps();
    report("large window, MSS 100, 1 Gbit/s 1 s", &large);
    report("fifo 10 000 flows 10 Gbit/s 1 s", &fifo_10k);
    let mut g = c.benchmark_group("simulate");
    g.sample_size(20);
    g.bench_function("red_study_60s", |b| b.iter(|| Simulation::new(&red).unwrap().finish()));
    g.bench_function("fifo_10_flows_100mbps_60s", |b| b.iter(|| Simulation::new(&fifo).unwrap().finish()));
    g.bench_function("cubic_bbr_vegas_3q_60s", |b| b.iter(|| Simulation::new(&warbler).unwrap().finish()));
    g.sample_size(10);
    g.bench_function("fq_codel_1000_flows_1gbps_10s", |b| {
        b.iter(|| Simulation::new(&many).unwrap().finish())
    });
    g.bench_function("large_window_mss_100_1gbps_1s", |b| {
        b.iter(|| Simulation::new(&large).unwrap().finish())
    });
    g.bench_function("fifo_10000_flows_10gbps_1s", |b| {
        b.iter(|| Simulation::new(&fifo_10k).unwrap().finish())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
