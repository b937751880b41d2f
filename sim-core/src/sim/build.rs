//! Builds the dumbbell of a scenario: per flow an access link each way, one shared
//! bottleneck each way.

use super::{Event, Flow, Simulation, BOTTLENECK};
use crate::aqm::{QueueDiscSpec, QueueLimit};
use crate::engine::EventQueue;
use crate::metrics::{PacketCounts, Recorder};
use crate::net::{Link, LinkSpec};
use crate::rng::{SimRng, StreamId};
use crate::scenario::Scenario;
use crate::tcp::{TcpReceiver, TcpSender};
use crate::time::{Rate, SimDuration, SimTime};

fn ms(v: f64) -> SimDuration {
    SimDuration::from_secs_f64(v / 1e3)
}

fn host_link(spec: LinkSpec, fifo: &QueueDiscSpec, rng: SimRng) -> Link {
    Link::closed_form(spec, fifo.limit(), fifo.build(spec.rate, rng))
}

pub(super) fn build(sc: &Scenario) -> Simulation {
    let host_fifo = QueueDiscSpec::Fifo { limit: QueueLimit::Packets(sc.host_queue_packets) };
    let b = &sc.bottleneck;
    let b_rate = Rate(b.rate_bps);
    let fwd = LinkSpec { rate: b_rate, delay: ms(b.delay_ms), nic_queue_packets: b.nic_queue_packets };
    let rev = LinkSpec { nic_queue_packets: 0, ..fwd };
    let mut links = vec![
        Link::new(fwd, b.queue.build(b_rate, SimRng::new(sc.seed, StreamId::Queue(BOTTLENECK)))),
        host_link(rev, &host_fifo, SimRng::new(sc.seed, StreamId::Queue(1))),
    ];

    let mut q = EventQueue::new();
    let mut flows = Vec::new();
    for (g, group) in sc.flows.iter().enumerate() {
        let rate = Rate(group.access_rate_bps);
        let spec = LinkSpec { rate, delay: ms(group.access_delay_ms), nic_queue_packets: 0 };
        for _ in 0..group.count {
            let id = flows.len() as u32;
            let up = links.len() as u32;
            for dir in 0..2 {
                let rng = SimRng::new(sc.seed, StreamId::Queue(up + dir));
                links.push(host_link(spec, &host_fifo, rng));
            }
            // The ACK return link of this sender is fed by the reverse bottleneck alone.
            links[up as usize + 1].fed_only_by = Some(1);
            // The flow's own random stream (only BBR draws from it).
            let cc = group.cca.build_with_rng(SimRng::new(sc.seed, StreamId::Flow(id)));
            flows.push(Flow {
                sender: TcpSender::with_cc(id, &sc.tcp, cc, group.size_bytes),
                receiver: TcpReceiver::new(id, &sc.tcp),
                data_path: [up, BOTTLENECK],
                ack_path: [1, up + 1],
                group: g as u32,
            });
            q.schedule(SimTime::from_secs_f64(group.start_s), Event::FlowStart { flow: id });
            if let Some(stop) = group.stop_s {
                q.schedule(SimTime::from_secs_f64(stop), Event::FlowStop { flow: id });
            }
        }
    }
    let interval = SimDuration::from_secs_f64(sc.sample_interval_s);
    q.schedule(SimTime::ZERO + interval, Event::Sample);
    if let Some(port) = links[BOTTLENECK as usize].qdisc.as_switch() {
        q.schedule(SimTime::ZERO + port.control_period(), Event::ControlTick);
    }
    let cell_bytes =
        links[BOTTLENECK as usize].qdisc.cell_bytes().unwrap_or(crate::switch::TOFINO2_CELL_BYTES);
    let n = flows.len();
    Simulation {
        scenario: sc.clone(),
        q,
        links,
        flows,
        pkts: Default::default(),
        rec: Recorder::default(),
        end: SimTime::from_secs_f64(sc.duration_s),
        interval,
        out: Vec::new(),
        drops: Vec::new(),
        counts: PacketCounts::default(),
        last_delivered: vec![0; n],
        backlog: vec![0; n],
        backlog_cells: vec![0; n],
        cell_bytes,
        finished: false,
    }
}
