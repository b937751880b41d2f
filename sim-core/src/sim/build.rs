//! Builds the network of a scenario: per flow an access link each way, the disc links
//! data cross (today the dumbbell's one bottleneck, every group's route) and the reverse
//! bottleneck the ACKs cross.

use super::changes::{start_time, Changes};
use super::hosts::Hosts;
use super::lane::{SenderLane, LANE_BUCKETS, SPLIT_MIN_FLOWS, SPLIT_MIN_LOOKAHEAD};
use super::link_meters::{link_series, LinkMeters};
use super::receivers::{AckPath, Receivers};
use super::senders::Senders;
use super::windows::Split;
use super::{Backlog, Event, Simulation, BOTTLENECK};
use crate::aqm::BuildCx;
use crate::cc::CcFactory;
use crate::engine::EventQueue;
use crate::metrics::{PacketCounts, Recorder, WindowStats};
use crate::net::{DiscLink, HostLink, LinkSpec, Network, Route};
use crate::queue::QueueLimit;
use crate::rng::{SimRng, StreamId};
use crate::scenario::{Scenario, ScenarioError};
use crate::tcp::{TcpReceiver, TcpSender};
use crate::time::{Rate, SimDuration, SimTime};

fn ms(v: f64) -> SimDuration {
    SimDuration::from_secs_f64(v / 1e3)
}

/// A host or reverse-path link: a tail-drop FIFO solved in closed form.
fn host_link(spec: LinkSpec, packets: u32) -> HostLink {
    HostLink::new(spec, QueueLimit::Packets(packets))
}

/// The disc links (the bottleneck, then `links` in name order) and each group's route.
fn network(sc: &Scenario) -> Network {
    let named = sc.links_in_id_order();
    let links = (named.enumerate())
        .map(|(id, l)| {
            let spec = LinkSpec {
                rate: Rate(l.rate_bps),
                delay: ms(l.delay_ms),
                nic_queue_packets: l.nic_queue_packets,
            };
            let cx = BuildCx {
                link_rate: spec.rate,
                rng: SimRng::new(sc.seed, StreamId::Queue(id as u32)),
                packet_bytes: sc.full_packet_bytes(),
            };
            DiscLink::new(spec, l.queue.build(cx))
        })
        .collect();
    let routes = (sc.flows.iter())
        .map(|g| match g.route.is_empty() {
            true => Route::new(vec![BOTTLENECK]),
            false => Route::new(g.route.iter().map(|n| sc.link_id(n).expect("validated: a link")).collect()),
        })
        .collect();
    let ack_routes = (sc.flows.iter())
        .map(|g| Route::new(g.ack_route.iter().map(|n| sc.link_id(n).expect("validated: a link")).collect()))
        .collect();
    Network::new(links, routes).with_ack_routes(ack_routes)
}

/// A group's ACKs come back over one link with its route's delays added up, at the route's
/// slowest rate (for the dumbbell: the reverse bottleneck). ACKs are small: on the way
/// back they meet no queue in any preset.
pub(super) fn reverse_spec(sc: &Scenario, g: &crate::scenario::FlowGroup) -> LinkSpec {
    let route = sc.route_of(g);
    let delay_ms: f64 = route.iter().map(|(_, l)| l.delay_ms).sum();
    let rate = route.iter().map(|(_, l)| l.rate_bps).min().unwrap_or(sc.bottleneck().rate_bps);
    LinkSpec { rate: Rate(rate), delay: ms(delay_ms), nic_queue_packets: 0 }
}

/// Per flow, its datagrams' headers where some group sends UDP or pings; empty where none does.
fn datagram_headers(sc: &Scenario, groups: &[u32]) -> Vec<u32> {
    let udp = |g: u32| sc.flows[g as usize].cca.sends_datagrams();
    if !(0..sc.flows.len() as u32).any(udp) {
        return Vec::new();
    }
    let h = &sc.tcp.headers;
    let tcp = sc.full_packet_bytes() - sc.tcp.mss_bytes;
    let udp_bytes = crate::cc::udp::UDP_HEADER_BYTES + h.ip_bytes + h.link_bytes;
    groups.iter().map(|&g| if udp(g) { udp_bytes } else { tcp }).collect()
}

/// Builds the world; `allow_split` false keeps even a big run in one event queue (tests
/// compare the two).
pub(super) fn build(
    sc: &Scenario,
    factory: &dyn CcFactory,
    allow_split: bool,
) -> Result<Simulation, Vec<ScenarioError>> {
    let b_rate = Rate(sc.bottleneck().rate_bps);
    let n_flows = sc.total_flows() as usize;
    let net = network(sc);
    // The ACKs' way back: one reverse link per distinct route (the dumbbell's: the reverse
    // bottleneck), then each flow's own access link.
    let mut reverse_routes: Vec<Vec<&str>> = Vec::new();
    let mut reverse = Vec::new();
    let mut reverse_of_group = Vec::with_capacity(sc.flows.len());
    for g in &sc.flows {
        let route: Vec<&str> = sc.route_of(g).iter().map(|(n, _)| *n).collect();
        let i = match reverse_routes.iter().position(|r| *r == route) {
            Some(i) => i,
            None => {
                reverse_routes.push(route);
                reverse.push(host_link(reverse_spec(sc, g), sc.host_queue_packets));
                reverse.len() - 1
            }
        };
        reverse_of_group.push(i as u32);
    }

    // Calendar buckets four full packet times of the bottleneck wide: a few events each.
    let mut q = EventQueue::with_bucket_ns(4 * b_rate.tx_time(sc.full_packet_bytes()).as_nanos());
    let interval = SimDuration::from_secs_f64(sc.sample_interval_s);
    let end = SimTime::from_secs_f64(sc.duration_s);
    let warmup = SimTime::from_secs_f64(sc.warmup_s);
    let first_sample = SimTime::ZERO + interval;
    // The senders run apart when the scenario is big enough to gain (see `lane.rs`); then
    // the flows' starts and stops are their events.
    let lookahead = sc.flows.iter().map(|g| ms(g.access_delay_ms)).min().unwrap_or_default();
    // Changes come before everything else of their instant: their events are queued first.
    // A run with changes stays in one queue (they touch both sides at once).
    let mut changes = Changes::new(sc, &mut q);
    let split = allow_split && sc.changes.is_empty();
    let mut lane = (split && n_flows >= SPLIT_MIN_FLOWS && lookahead >= SPLIT_MIN_LOOKAHEAD).then(|| {
        Box::new(SenderLane::new(EventQueue::with_bucket_ns(LANE_BUCKETS * q.bucket_ns()), lookahead))
    });
    // Link ids: the disc links, the reverse bottleneck, per flow the ACK return link, then
    // per flow the uplink.
    let reverse_id = net.len();
    let first_uplink_id = reverse_id + reverse.len() as u32 + n_flows as u32;
    let mut reverse_of = Vec::with_capacity(n_flows);
    let (mut senders, mut uplinks) = (Vec::with_capacity(n_flows), Vec::with_capacity(n_flows));
    let (mut receivers, mut downlinks) = (Vec::with_capacity(n_flows), Vec::with_capacity(n_flows));
    let mut groups = Vec::with_capacity(n_flows);
    for (g, group) in sc.flows.iter().enumerate() {
        let rate = Rate(group.access_rate_bps);
        let spec = LinkSpec { rate, delay: ms(group.access_delay_ms), nic_queue_packets: 0 };
        // Flows sent once with sizes from a CDF draw them in flow order.
        let mut sizes = SimRng::new(sc.seed, StreamId::Sizes(g as u32));
        for _ in 0..group.count {
            let size = match group.size_cdf().filter(|_| !group.recycles()) {
                Some(cdf) => Some(crate::traffic::sizes::draw(cdf, &mut sizes)),
                None if group.arrivals.keep_alive() => Some(0),
                None => group.size_bytes,
            };
            let id = senders.len() as u32;
            uplinks.push(host_link(spec, sc.host_queue_packets));
            downlinks.push(host_link(spec, sc.host_queue_packets));
            // The flow's own random stream (BBR's first ProbeBW phase, a DQN's exploration).
            let cc =
                factory.build(id, &group.cca, SimRng::new(sc.seed, StreamId::Flow(id))).map_err(|e| {
                    vec![ScenarioError {
                        field: format!("flows[{g}].cca"),
                        value: group.cca.tag().into(),
                        allowed: e,
                    }]
                })?;
            // A scalable congestion control (DCTCP, Prague) asks for ECN itself and its
            // receiver echoes every segment's mark (RFC 8257 §3.2).
            let scalable = cc.ecn_codepoint().is_some();
            let mut sender = TcpSender::with_cc(id, &sc.tcp, cc, size);
            sender.set_classic_ecn(group.ecn);
            senders.push(sender);
            let mut receiver = TcpReceiver::new(id, &sc.tcp);
            receiver.set_accurate_echo(scalable);
            receivers.push(receiver);
            groups.push(g as u32);
            reverse_of.push(reverse_of_group[g]);
            let starts = lane.as_mut().map_or(&mut q, |l| &mut l.q);
            let (start, stop) = (start_time(sc, g, id), group.stop_s.map(SimTime::from_secs_f64));
            // A recycled connection starts with its source's arrivals (below); a persistent
            // one opens first, with nothing to send.
            if group.arrivals.keep_alive() {
                starts.schedule(start, Event::FlowStart { flow: id });
            } else if !group.recycles() {
                starts.schedule(start, Event::FlowStart { flow: id });
                if let Some(stop) = stop {
                    starts.schedule(stop, Event::FlowStop { flow: id });
                }
            }
            changes.start_at.push(start);
            changes.stop_at.push(stop);
        }
    }
    if lane.is_none() {
        q.schedule(warmup, Event::WindowOpen);
        q.schedule(first_sample, Event::Sample);
    }
    let bottleneck = net.link(BOTTLENECK).qdisc();
    let cell_bytes = bottleneck.cell_bytes().unwrap_or(crate::switch::TOFINO2_CELL_BYTES);
    let n = receivers.len();
    let mut rec = Recorder::new(WindowStats::new(warmup, interval, end, n), n);
    let mut series = bottleneck.series();
    if sc.has_links() {
        series.extend(link_series(sc));
    }
    rec.set_series(series);
    let mut senders = Senders::new(senders, uplinks, first_uplink_id, warmup);
    let (traffic, first_arrivals) = super::traffic::Traffic::new(sc, &groups);
    senders.traffic = traffic;
    let starts = lane.as_mut().map_or(&mut q, |l| &mut l.q);
    for (source, at) in first_arrivals {
        starts.schedule(at, Event::Arrival { source });
    }
    let hosts = Hosts { senders, receivers: Receivers::new(receivers) };
    let mut ack_path = AckPath::new(reverse, reverse_of, reverse_id, downlinks, warmup);
    if net.any_ack_route() {
        ack_path.via_discs = groups.iter().map(|&g| net.has_ack_route(g)).collect();
    }
    let datagram_headers = datagram_headers(sc, &groups);
    let mut sim = Simulation {
        scenario: sc.clone(),
        q,
        wake_at: vec![None; net.len() as usize],
        // A dumbbell's one link is the recorder's: no per-link window to keep.
        meters: if !sc.has_links() {
            LinkMeters::default()
        } else {
            LinkMeters::new(super::link_meters::charted(sc), n)
        },
        fair: None,
        net,
        hosts,
        ack_path,
        groups,
        pkts: Default::default(),
        rec,
        end,
        interval,
        drops: Vec::new(),
        changes,
        counts: PacketCounts::default(),
        last_delivered: vec![0; n],
        last_received: vec![0; n],
        data_headers: sc.full_packet_bytes() - sc.tcp.mss_bytes,
        datagram_headers,
        backlog: Backlog::new(n, cell_bytes),
        series_buf: Vec::new(),
        log_buf: Vec::new(),
        finished: false,
        split: lane.map(|lane| Box::new(Split::new(lane, first_sample, warmup))),
        parallel: cfg!(not(target_arch = "wasm32")),
        tx_events: false,
        polled: (0, 0),
    };
    if sim.split.is_some() {
        // The measured window opens between windows; at 0, before the first.
        sim.start_split();
    }
    for link in 0..sim.net.len() {
        sim.sync_disc_wake(link);
    }
    // The links and routes do not change during a run (changes are refused with links).
    sim.fair = sim.fair_shares();
    Ok(sim)
}
