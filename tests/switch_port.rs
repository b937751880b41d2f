//! The Tofino port model with real TCP flows on top.

use aqm_tests::run;
use sim_core::aqm::QueueDiscSpec;
use sim_core::cc::CcaSpec;
use sim_core::queue::DropReason;
use sim_core::scenario::{FlowGroup, Link, Scenario};
use sim_core::sim::Simulation;
use sim_core::switch::scheduler::DwrrConfig;
use sim_core::switch::{SchedulerSpec, SwitchConfig};
use sim_core::tcp::TcpConfig;

fn two_queue_port(scheduler: SchedulerSpec, weights: Vec<u32>) -> Scenario {
    Scenario {
        name: "wrr-shares".into(),
        duration_s: 30.0,
        warmup_s: 5.0,
        links: Scenario::one_link(Link::new(
            100_000_000,
            1.0,
            QueueDiscSpec::Switch(SwitchConfig {
                queues: 2,
                queue_limit_cells: 3000,
                scheduler,
                weights,
                initial_mapping: vec![0, 1],
                ..SwitchConfig::default()
            }),
        )),
        flows: vec![FlowGroup {
            count: 2,
            cca: CcaSpec::default(),
            access_rate_bps: 1_000_000_000,
            access_delay_ms: 4.0,
            ..FlowGroup::default()
        }],
        tcp: TcpConfig {
            mss_bytes: 1448,
            send_buffer_bytes: 6 << 20,
            recv_buffer_bytes: 6 << 20,
            min_rto_ms: 200.0,
            ..TcpConfig::default()
        },
        ..Scenario::default()
    }
}

fn shares(sc: &Scenario) -> Vec<f64> {
    let (_, s) = run(sc);
    s.flows.iter().map(|f| f.throughput_share).collect()
}

#[test]
fn wrr_weights_one_to_three_give_backlogged_queues_a_quarter_and_three_quarters() {
    // Equal-sized packets: WRR counts packets, so shares follow the weights.
    let s = shares(&two_queue_port(SchedulerSpec::Wrr(Default::default()), vec![1, 3]));
    assert!((s[0] - 0.25).abs() <= 0.02 * 0.25, "shares {s:?}");
    assert!((s[1] - 0.75).abs() <= 0.02 * 0.75, "shares {s:?}");
}

#[test]
fn dwrr_weights_two_to_one_split_bytes_two_to_one() {
    let s = shares(&two_queue_port(SchedulerSpec::Dwrr(DwrrConfig { quantum_bytes: 1514 }), vec![2, 1]));
    assert!((s[0] - 2.0 / 3.0).abs() <= 0.02 * 2.0 / 3.0, "shares {s:?}");
}

#[test]
#[allow(clippy::float_cmp)] // cells are whole numbers: exact
fn backlog_is_counted_in_cells_of_the_ports_cell_size() {
    let (sim, s) = run(&two_queue_port(SchedulerSpec::Wrr(Default::default()), vec![1, 1]));
    // Two CUBIC flows each fill their own 3000-cell queue most of the time.
    let buffer = s.buffer_cells_mean.unwrap();
    assert!(buffer > 1000.0, "{buffer}");
    let rec = sim.recorder();
    let queues: Vec<usize> =
        (0..2).map(|q| rec.series_index(&format!("queue[{q}].cells")).unwrap()).collect();
    for x in &rec.samples.kept {
        assert_eq!(x.flow_queue, vec![0, 1]);
        // Each flow has its own queue: the queue's cells are the flow's backlog.
        for (f, &q) in queues.iter().enumerate() {
            assert_eq!(x.series[q], x.flow_backlog_cells[f] as f64, "t = {}", x.t_s);
        }
    }
}

#[test]
fn a_port_queue_fills_to_its_cell_limit_and_the_first_drop_comes_exactly_there() {
    // One 3000-cell queue for both flows: the port's occupancy is that queue's.
    let mut sc = two_queue_port(SchedulerSpec::Wrr(Default::default()), vec![1]);
    let QueueDiscSpec::Switch(port) = &mut sc.bottleneck_mut().queue else { unreachable!() };
    port.queues = 1;
    port.initial_mapping = vec![0, 0];
    sc.duration_s = 5.0;
    sc.warmup_s = 0.0;
    // 1448 B of payload + 54 B of headers = 1502 B on the wire: 10 cells of 160 B.
    assert_eq!(sc.full_packet_bytes(), 1502);
    let (limit, packet_cells) = (3000u64, 10u64);
    let mut sim = Simulation::new(&sc).unwrap();
    let mut peak = 0;
    loop {
        assert!(!sim.is_finished(), "no drop in 5 s: the queue peaked at {peak} cells");
        sim.run_events(1);
        let cells = sim.bottleneck_occupancy().cells;
        assert!(cells <= limit, "{cells} cells in a {limit}-cell queue");
        peak = peak.max(cells);
        let drops = sim.poll().drops;
        if let Some(d) = drops.first() {
            assert_eq!((d.link, d.reason), (0, DropReason::Overflow), "{d:?}");
            // The arrival did not fit: the queue was within one packet of its limit, and no
            // earlier moment had it fuller.
            assert!(cells + packet_cells > limit, "dropped with {cells} of {limit} cells");
            assert_eq!(peak, cells);
            break;
        }
    }
}
