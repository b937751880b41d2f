//! Wall time of whole runs. Events and packets per run are printed once so that events/s
//! and packets/s follow from the times criterion reports.

use criterion::{criterion_group, criterion_main, Criterion};
use sim_core::aqm::{FqCodelConfig, QueueDiscSpec, QueueLimit};
use sim_core::cc::CcaSpec;
use sim_core::scenario::{preset, Bottleneck, FlowGroup, Scenario};
use sim_core::sim::Simulation;
use sim_core::tcp::TcpConfig;

fn fifo_10_flows_100mbps() -> Scenario {
    Scenario {
        name: "fifo-10x100M".into(),
        duration_s: 60.0,
        bottleneck: Bottleneck {
            rate_bps: 100_000_000,
            delay_ms: 5.0,
            queue: QueueDiscSpec::fifo(QueueLimit::Packets(1000)),
            nic_queue_packets: 0,
        },
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
        bottleneck: Bottleneck {
            rate_bps: 1_000_000_000,
            delay_ms: 5.0,
            queue: QueueDiscSpec::FqCodel(FqCodelConfig::default()),
            nic_queue_packets: 0,
        },
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

fn report(name: &str, sc: &Scenario) {
    let mut sim = Simulation::new(sc).unwrap();
    let s = sim.finish();
    eprintln!(
        "{name}: {} events, {} packets delivered, goodput {:.3} Mbit/s per run",
        s.events,
        s.packets.delivered,
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
    let mut g = c.benchmark_group("simulate");
    g.sample_size(20);
    g.bench_function("red_study_60s", |b| b.iter(|| Simulation::new(&red).unwrap().finish()));
    g.bench_function("fifo_10_flows_100mbps_60s", |b| b.iter(|| Simulation::new(&fifo).unwrap().finish()));
    g.bench_function("cubic_bbr_vegas_3q_60s", |b| b.iter(|| Simulation::new(&warbler).unwrap().finish()));
    g.sample_size(10);
    g.bench_function("fq_codel_1000_flows_1gbps_10s", |b| {
        b.iter(|| Simulation::new(&many).unwrap().finish())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
