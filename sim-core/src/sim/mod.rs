//! Runs a [`Scenario`]: builds its network, pops events, and records what happens.
//!
//! The run can be advanced in bounded slices (`step_until`, `run_events`) so a UI frame
//! never blocks, or to the end (`finish`). `poll` hands out what was recorded since the
//! previous poll.

mod backlog;
mod build;
mod changes;
mod event;
mod forward;
pub mod guard;
mod hosts;
mod lane;
mod link_meters;
pub use link_meters::LinkCounts;
mod receivers;
mod senders;
mod slab;
pub mod traffic;
mod watch;
mod windows;
#[cfg(not(target_arch = "wasm32"))]
mod worker;

use crate::cc::{CcFactory, CcMetrics, SpecFactory};
use crate::engine::EventQueue;
use crate::metrics::{
    DropRecord, FlowFacts, PacketCounts, Recorder, Sample, Summary, SummaryInput, TimeoutsByState, Update,
};
use crate::net::{Network, Packet};
use crate::queue::{Dropped, Occupancy, QdiscCtx, QueueLimit};
use crate::scenario::{Scenario, ScenarioError};
use crate::tcp::TcpSender;
use crate::time::{SimDuration, SimTime};
use crate::trace::LogRecord;
use backlog::Backlog;
use event::Event;
use hosts::{HostSink, Hosts};
use lane::Mail;
use receivers::AckPath;
use slab::PacketSlab;

/// Runs with fewer flows keep their per-flow state in a core's cache, and prefetching the
/// next events' state only costs instructions (2026-11-30, min of 15 runs: the RED study
/// 6 % and rtt-unfair's FQ-CoDel 10 % faster without; 1000 flows 13 % slower without).
const PREFETCH_MIN_FLOWS: usize = 512;

pub use crate::net::BOTTLENECK;

pub struct Simulation {
    scenario: Scenario,
    q: EventQueue<Event>,
    /// The disc links data cross and each group's route through them.
    net: Network,
    /// The endpoints and their access links.
    hosts: Hosts,
    /// The reverse bottleneck and the ACKs' access links.
    ack_path: AckPath,
    /// Per flow, its group in the scenario.
    groups: Vec<u32>,
    pkts: PacketSlab,
    rec: Recorder,
    end: SimTime,
    interval: SimDuration,
    /// Scratch space for the queue disc's drops.
    drops: Vec<Dropped>,
    /// The scenario as changed so far, the changes to come, the flows' planned starts.
    changes: changes::Changes,
    counts: PacketCounts,
    /// Per flow: delivered and received bytes at the previous sample.
    last_delivered: Vec<u64>,
    last_received: Vec<u64>,
    /// A data segment's headers (wire bytes less these are its payload): the window counts
    /// only the payload the bottleneck sent after it opened (`Backlog::departed`), so it
    /// never reports more than the link carried.
    data_headers: u32,
    /// Per flow, the headers of its datagrams where a group sends UDP (empty when none
    /// does): their payload is the wire bytes less these.
    datagram_headers: Vec<u32>,
    backlog: Backlog,
    /// Per disc link, the earliest wake-up scheduled for its discipline.
    wake_at: Vec<Option<SimTime>>,
    /// Per disc link, what it does per sample and in the measured window (scenarios with
    /// links; empty for a dumbbell).
    meters: link_meters::LinkMeters,
    /// Each flow's max-min and proportionally fair goodput (scenarios with links).
    fair: Option<(Vec<f64>, Vec<f64>)>,
    /// Scratch space for named-series values and log records.
    series_buf: Vec<f64>,
    log_buf: Vec<LogRecord>,
    finished: bool,
    /// Big scenarios: the senders run apart, in windows (see `lane.rs`, `windows.rs`);
    /// `None` runs every event in one queue.
    split: Option<Box<windows::Split>>,
    /// A split run's two sides run on two threads.
    parallel: bool,
    /// Marks every end of a bottleneck transmission with an event, as before they were
    /// settled lazily (`forward.rs`); tests compare the two.
    tx_events: bool,
    /// Transfers and pings handed out by `poll` so far.
    polled: (usize, usize),
}

impl Simulation {
    /// Validates the scenario and builds the world; nothing runs until a step is taken.
    pub fn new(scenario: &Scenario) -> Result<Simulation, Vec<ScenarioError>> {
        Simulation::with_factory(scenario, &SpecFactory)
    }

    /// As [`Simulation::new`], with each flow's congestion control built by `factory` (a
    /// trainer hands every flow one shared policy, quinn's `ControllerFactory` idea).
    pub fn with_factory(
        scenario: &Scenario,
        factory: &dyn CcFactory,
    ) -> Result<Simulation, Vec<ScenarioError>> {
        scenario.validate()?;
        build::build(scenario, factory, true)
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    pub fn now(&self) -> SimTime {
        self.q.now()
    }

    pub fn end(&self) -> SimTime {
        self.end
    }

    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Whether the senders run apart, in windows (big scenarios, `lane.rs`).
    pub fn is_split(&self) -> bool {
        self.split.is_some()
    }

    pub fn events_processed(&self) -> u64 {
        self.q.events_processed()
            + self.split.as_ref().map_or(0, |s| s.events_processed())
            + self.changes.made_now
    }

    /// Fraction of the run simulated so far.
    pub fn progress(&self) -> f64 {
        (self.now().as_secs_f64() / self.end.as_secs_f64()).min(1.0)
    }

    /// Processes every event up to `t` (or the end of the run) and moves the clock there.
    pub fn step_until(&mut self, t: SimTime) {
        self.advance(t, u64::MAX);
    }

    /// Processes at most `budget` events; returns how many ran.
    pub fn run_events(&mut self, budget: u64) -> u64 {
        self.advance(self.end, budget)
    }

    /// Processes events due by `t`, at most `budget` of them; when none are left before `t`
    /// the clock moves to `t`. Returns how many ran. A UI frame uses it to spend a bounded
    /// slice of work on a bounded slice of simulated time.
    pub fn advance(&mut self, t: SimTime, budget: u64) -> u64 {
        let limit = t.min(self.end);
        let n = if self.split.is_some() {
            self.advance_split(limit, budget)
        } else {
            let n = self.run_core(limit, budget);
            if n < budget {
                self.q.advance_to(limit);
            }
            n
        };
        if n < budget {
            // Every event due by `limit` has run: what the link finished by then is done
            // (as the next event would do it), for whoever reads the link now.
            self.settle_tx(SimTime(limit.0 + 1));
        }
        self.check_finished();
        n
    }

    /// Runs the bottleneck side's (in one queue: every) event due by `limit`, at most `budget`.
    fn run_core(&mut self, limit: SimTime, budget: u64) -> u64 {
        let mut n = 0;
        while n < budget {
            match self.q.pop_until(limit) {
                Some((_, ev)) => self.handle(ev),
                None => break,
            }
            n += 1;
        }
        n
    }

    /// Runs to the end and returns the summary.
    pub fn finish(&mut self) -> Summary {
        self.step_until(self.end);
        self.summary()
    }

    fn check_finished(&mut self) {
        // Whatever reads the recorder next sees every delay (see `on_delay_deferred`).
        self.rec.window.flush_delays();
        if self.split.is_none() && self.q.peek_time().is_none_or(|t| t > self.end) {
            self.q.advance_to(self.end);
            self.finished = true;
        }
    }

    /// What was recorded since the previous poll.
    pub fn poll(&mut self) -> Update {
        let new = self.rec.take_update();
        let traffic = &self.hosts.senders.traffic;
        let transfers = traffic.transfers[self.polled.0.min(traffic.transfers.len())..].to_vec();
        let pings = traffic.pings[self.polled.1.min(traffic.pings.len())..].to_vec();
        self.polled = (traffic.transfers.len(), traffic.pings.len());
        Update {
            now_s: self.now().as_secs_f64(),
            progress: self.progress(),
            events: self.events_processed(),
            finished: self.finished,
            samples: new.samples,
            drops: new.drops,
            marks: new.marks,
            log: new.log,
            redeclared: self.rec.take_redeclared(),
            transfers,
            pings,
        }
    }

    /// Everything recorded so far.
    pub fn recorder(&self) -> &Recorder {
        &self.rec
    }

    pub fn packet_counts(&self) -> PacketCounts {
        let (lane_in_flight, lane_delivered, lane_dropped) =
            self.split.as_ref().map_or((0, 0, 0), |s| s.in_flight_delivered_dropped());
        PacketCounts {
            in_flight: self.pkts.live() + lane_in_flight,
            sent: self.counts.sent + self.hosts.senders.sent + self.hosts.receivers.sent,
            delivered: self.counts.delivered + lane_delivered,
            dropped: self.counts.dropped + lane_dropped,
        }
    }

    /// Statistics over the window simulated so far, in O(flows + histogram buckets).
    pub fn summary(&self) -> Summary {
        let sc = &self.scenario;
        let (senders, receivers) = (&self.hosts.senders.tcp, &self.hosts.receivers.tcp);
        let recycled = |g: u32| sc.flows[g as usize].recycles();
        let flows = (senders.iter().zip(receivers).zip(&self.groups))
            .map(|((s, r), &group)| {
                let st = s.stats();
                FlowFacts {
                    group,
                    cca: sc.flows[group as usize].cca.tag().to_string(),
                    received_bytes: r.received_bytes(),
                    delivered_bytes: r.delivered_bytes(),
                    retransmissions: st.retransmissions,
                    timeouts: st.timeouts,
                    timeouts_by_state: TimeoutsByState {
                        open: st.timeouts_open,
                        disorder: st.timeouts_disorder,
                        recovery: st.timeouts_recovery,
                        loss: st.timeouts_loss,
                    },
                    fast_recoveries: st.fast_recoveries,
                    start_time_s: s.started_at().map(|t| t.as_secs_f64()),
                    // A recycled connection's transfers are in `completions`.
                    completion_time_s: s.completed_at().filter(|_| !recycled(group)).map(|t| t.as_secs_f64()),
                    crosses_bottleneck: self.net.crosses(group, BOTTLENECK),
                    probe: sc.flows[group as usize].cca.is_probe(),
                    pooled: recycled(group),
                    loss_pct: self.datagram_loss_pct(s, group),
                }
            })
            .collect();
        let mut summary = Summary::compute(SummaryInput {
            scenario: sc.name.clone(),
            queue_disc: sc.bottleneck().queue.name().to_string(),
            duration_s: self.now().as_secs_f64(),
            warmup_s: sc.warmup_s,
            link_rate_bps: sc.bottleneck().rate_bps as f64,
            device_queue: sc.bottleneck().nic_queue_packets > 0,
            access_waits: self.hosts.senders.waits,
            ack_waits: self.ack_path.waits,
            flows,
            packets: self.packet_counts(),
            events: self.events_processed(),
            window: &self.rec.window,
            series: &self.rec.series_info,
        });
        summary.links = self.link_summaries(&summary.flows);
        let (done, unfinished) = self.completions();
        summary.fct = crate::metrics::fct::stats(&done, unfinished);
        let calls = self.net.link(BOTTLENECK).qdisc().long_flow_calls();
        summary.long_flows = calls.map(crate::metrics::LongFlowStats::of);
        summary.pings = crate::metrics::pings::stats(sc, self.pings(), &summary.flows, |f| {
            self.hosts.senders.tcp[f as usize].stats().segments_sent
        });
        if let Some((mm, pf)) = &self.fair {
            for ((f, &m), &p) in summary.flows.iter_mut().zip(mm).zip(pf) {
                (f.max_min_bps, f.proportional_bps) = (Some(m), Some(p));
                f.hop_delays = self.hop_delays(f.id);
            }
        }
        summary
    }

    /// Every finite TCP flow or transfer that completed, in the order they completed, and
    /// how many started (or arrived) and had not completed.
    pub fn completions(&self) -> (Vec<crate::metrics::fct::Completion>, u32) {
        let sc = &self.scenario;
        let traffic = &self.hosts.senders.traffic;
        // A flow's transfers end in order at its receiver as at its sender: the k-th close its
        // receiver saw is its k-th completion's.
        let mut closes: Vec<Vec<f64>> = vec![Vec::new(); self.groups.len()];
        for &(flow, at) in &self.hosts.receivers.closed {
            closes[flow as usize].push(at.as_secs_f64());
        }
        let mut nth = vec![0usize; self.groups.len()];
        let done = (traffic.transfers.iter())
            .map(|t| {
                let end = t.arrived_s + t.fct_s;
                let mut c =
                    crate::metrics::fct::Completion::of(sc, t.flow, t.group, t.bytes, t.arrived_s, end);
                let k = &mut nth[t.flow as usize];
                c.received_s = closes[t.flow as usize].get(*k).map(|at| at - t.arrived_s);
                *k += 1;
                c
            })
            .collect();
        // Flows sent once that started and did not complete (a transfer's are the pool's).
        let running = (self.hosts.senders.tcp.iter().zip(&self.groups))
            .filter(|(s, &g)| {
                let group = &sc.flows[g as usize];
                !group.recycles() && !group.cca.sends_datagrams() && s.size_bytes().is_some()
            })
            .filter(|(s, _)| s.started_at().is_some() && s.completed_at().is_none())
            .count() as u32;
        (done, running + traffic.unfinished())
    }

    /// A datagram source's datagrams sent that did not arrive (a ping's: whose answer did
    /// not come back), %; `None` for TCP or before it sent.
    fn datagram_loss_pct(&self, s: &TcpSender, group: u32) -> Option<f64> {
        let cca = &self.scenario.flows[group as usize].cca;
        let (_, payload) = cca.datagrams_per_s()?;
        let sent = s.stats().segments_sent;
        let arrived = match cca.is_probe() {
            true => self.pings().iter().filter(|p| p.flow == s.flow()).count() as u64,
            false => {
                (self.hosts.receivers.tcp[s.flow() as usize].received_bytes() as f64 / payload).round() as u64
            }
        };
        (sent > 0).then(|| 100.0 * sent.saturating_sub(arrived) as f64 / sent as f64)
    }

    /// Every ping answered so far, in the order the answers arrived.
    pub fn pings(&self) -> &[traffic::PingSample] {
        &self.hosts.senders.traffic.pings
    }

    /// A flow's TCP sender, for inspection (window, state, counters).
    pub fn sender(&self, flow: u32) -> &TcpSender {
        &self.hosts.senders.tcp[flow as usize]
    }

    /// Bytes that finished serialisation on a link (by id: see [`BOTTLENECK`]).
    pub fn link_tx_bytes(&self, link: u32) -> u64 {
        if link < self.net.len() {
            return self.net.link(link).tx_bytes();
        }
        let first_up = self.hosts.senders.first_uplink_id;
        let l = match link {
            _ if link >= first_up => self.hosts.senders.uplinks.get((link - first_up) as usize),
            _ => self.ack_path.link(link),
        };
        l.map_or(0, |l| l.tx_bytes())
    }

    /// A flow's congestion-control internals now (BBR mode and path model, Vegas BaseRTT...).
    pub fn cc_metrics(&self, flow: u32) -> Option<CcMetrics> {
        self.hosts.senders.tcp.get(flow as usize).map(|s| s.cc().metrics())
    }

    /// What the bottleneck's disc holds now (packets, bytes, cells).
    pub fn bottleneck_occupancy(&self) -> Occupancy {
        self.net.link(BOTTLENECK).occupancy()
    }

    /// Unit of the bottleneck's buffer limit.
    pub fn bottleneck_limit(&self) -> QueueLimit {
        self.net.link(BOTTLENECK).qdisc().limit()
    }

    fn handle(&mut self, ev: Event) {
        if self.groups.len() >= PREFETCH_MIN_FLOWS {
            self.prefetch_ahead();
        }
        self.settle_tx(self.now());
        match ev {
            Event::Arrive { pkt } => self.arrive(pkt),
            Event::TxDone { .. } => self.settle_tx(SimTime(self.now().0 + 1)),
            Event::FlowStart { .. } | Event::FlowStop { .. } if !self.is_planned(ev) => {}
            Event::Change => self.apply_due_change(),
            Event::FlowStart { .. }
            | Event::FlowStop { .. }
            | Event::Arrival { .. }
            | Event::SenderTimer { .. }
            | Event::PaceTimer { .. }
            | Event::ReceiverTimer { .. } => {
                let now = self.now();
                let (hosts, mut sink) = self.hosts_and_sink();
                hosts.handle(ev, now, &mut sink);
            }
            Event::Sample => self.sample(),
            Event::WindowOpen => self.open_window(),
            Event::DiscWake { link } => self.disc_wake(link),
            Event::DeviceWake { link } => self.device_wake(link),
        }
    }

    /// The warm-up is over: the measured window opens.
    fn open_window(&mut self) {
        let now = self.now();
        self.settle_tx(now);
        // With links each flow starts counting from the first link of its route (the
        // bottleneck need not be on its way); a dumbbell's is the bottleneck.
        let departed = if self.meters.is_active() {
            self.first_hop_departed(now)
        } else {
            let mut departed = self.backlog.departed();
            // Of a segment on the wire now, the part still to send counts in the window.
            if let Some((it, left)) = self.net.link(BOTTLENECK).on_wire_left(now) {
                departed[it.flow as usize] -= self.payload_share(it.flow, it.bytes, left);
            }
            departed
        };
        let received = self.hosts.receivers.tcp.iter().map(|r| r.received_bytes());
        self.rec.window.open(received.zip(departed));
        self.open_link_windows();
    }

    /// The payload bytes in `share` of a `bytes`-long data packet of `flow`.
    pub(super) fn payload_share(&self, flow: u32, bytes: u32, share: f64) -> u64 {
        (f64::from(self.payload_of(flow, bytes)) * share).floor() as u64
    }

    /// The payload of a `bytes`-long data packet (or datagram) of `flow`.
    #[inline]
    pub(super) fn payload_of(&self, flow: u32, bytes: u32) -> u32 {
        let headers = self.datagram_headers.get(flow as usize).copied().unwrap_or(self.data_headers);
        bytes.saturating_sub(headers)
    }

    /// Starts loading what the next events will touch (hints only; results do not change),
    /// as a pipeline over the events queued after this one:
    /// - three ahead: the packet of an arrival (usually cold: it left ~a delay ago);
    /// - two ahead: what that packet says it goes to, the bottleneck's queue or an endpoint
    ///   and the link it sends on (its packet was asked for one and two events ago);
    /// - next: what the endpoint's struct points to, the sender's boxed congestion control
    ///   and scoreboard records (the struct was asked for last event; reading its pointers
    ///   earlier would wait).
    #[inline]
    fn prefetch_ahead(&self) {
        let mut next = self.q.upcoming();
        let Some(&first) = next.next() else { return };
        let second = next.next().copied();
        if let Some(&Event::Arrive { pkt }) = next.next() {
            self.pkts.prefetch(pkt);
        }
        if let Some(e) = second {
            if let Event::Arrive { pkt } = e {
                self.pkts.prefetch(pkt); // a repeat costs little; at a bucket's start it is new
            }
            self.prefetch_target(e);
        }
        if let Event::Arrive { pkt } = first {
            let p = self.pkts.get(pkt);
            if let Some(link) = self.entering(p) {
                // A packet about to enter a queue disc: where it goes in there.
                self.net.link(link).qdisc().prefetch_flow(p.flow, true);
            } else {
                self.hosts.prefetch_sender_inner(p);
            }
        } else if let Event::SenderTimer { flow } | Event::PaceTimer { flow } = first {
            if let Some(s) = self.hosts.senders.tcp.get(flow as usize) {
                crate::hint::prefetch_lines(s.cc(), 4);
            }
        }
    }

    /// Starts loading the bottleneck's or the endpoint's state event `e` will act on.
    #[inline]
    fn prefetch_target(&self, e: Event) {
        match e {
            Event::Arrive { pkt } => {
                let p = self.pkts.get(pkt);
                if let Some(link) = self.entering(p) {
                    let l = self.net.link(link);
                    crate::hint::prefetch_lines(l, 2);
                    l.qdisc().prefetch_flow(p.flow, false);
                } else {
                    self.hosts.prefetch_for(p);
                    if p.kind.is_data() {
                        self.ack_path.prefetch(p.flow); // its ACK's way back, crossed here
                    }
                }
            }
            Event::SenderTimer { flow } | Event::PaceTimer { flow } => self.hosts.senders.prefetch(flow),
            Event::ReceiverTimer { flow } => self.hosts.receivers.prefetch(flow),
            _ => {}
        }
    }

    /// The disc link a packet arriving now enters, if any (else it reaches its endpoint).
    #[inline]
    fn entering(&self, p: &Packet) -> Option<u32> {
        if !p.kind.is_data() {
            return None;
        }
        self.net.link_at(p.hop + 1, || self.groups[p.flow as usize])
    }

    /// Wakes `link`'s discipline if its `poll_at` is due, lets it send, and asks again.
    fn disc_wake(&mut self, link: u32) {
        let now = self.now();
        let wake = &mut self.wake_at[link as usize];
        if wake.is_some_and(|t| t <= now) {
            *wake = None;
        }
        let disc = self.net.link_mut(link).qdisc_mut();
        if disc.poll_at().is_some_and(|t| t <= now) {
            disc.on_wakeup(&mut QdiscCtx::new(now, &mut self.drops));
            self.settle_drops(link, now);
            self.kick(link, now);
        }
        self.sync_disc_wake(link);
    }

    /// Schedules a wake-up for `link`'s discipline when it wants one earlier than planned.
    pub(super) fn sync_disc_wake(&mut self, link: u32) {
        let Some(t) = self.net.link(link).qdisc().poll_at() else { return };
        let wake = &mut self.wake_at[link as usize];
        if wake.is_none_or(|w| t < w) {
            let t = t.max(self.q.now());
            *wake = Some(t);
            if t <= self.end {
                self.q.schedule(t, Event::DiscWake { link });
            }
        }
    }

    fn sample(&mut self) {
        let now = self.now();
        self.settle_tx(now);
        let dt = self.interval.as_secs_f64();
        let n = self.groups.len();
        let mut series = std::mem::take(&mut self.series_buf);
        series.clear();
        self.net.link(BOTTLENECK).qdisc().sample_series(&mut series);
        if self.meters.is_active() {
            self.sample_links(now, dt, &mut series);
        }
        let link = self.net.link(BOTTLENECK);
        let occ = link.occupancy();
        let mut s = Sample {
            t_s: now.as_secs_f64(),
            queue_packets: occ.packets,
            queue_bytes: occ.bytes,
            queue_cells: occ.cells,
            nic_packets: link.nic_packets(),
            goodput_bps: 0.0,
            arrival_bps: 0.0,
            flow_goodput_bps: Vec::with_capacity(n),
            flow_cwnd_bytes: Vec::with_capacity(n),
            flow_srtt_ms: Vec::with_capacity(n),
            flow_backlog_packets: self.backlog.packets(),
            flow_backlog_cells: self.backlog.cells(),
            flow_delay_ms: self.backlog.take_waits_ms(),
            flow_queue: (0..n as u32).map(|f| link.qdisc().flow_queue(f).unwrap_or(0)).collect(),
            series: series.clone(),
        };
        self.series_buf = series;
        let (mut total, mut arrived) = (0u64, 0u64);
        let mut srtt = Vec::with_capacity(n);
        let (receivers, senders) = (&self.hosts.receivers.tcp, &self.hosts.senders.tcp);
        for (i, (r, sender)) in receivers.iter().zip(senders).enumerate() {
            let d = r.delivered_bytes();
            total += d - self.last_delivered[i];
            s.flow_goodput_bps.push((d - self.last_delivered[i]) as f64 * 8.0 / dt);
            self.last_delivered[i] = d;
            let got = r.received_bytes();
            arrived += got - self.last_received[i];
            self.last_received[i] = got;
            s.flow_cwnd_bytes.push(sender.cwnd());
            let rtt = sender.srtt().map(|r| r.as_secs_f64() * 1e3);
            s.flow_srtt_ms.push(rtt.unwrap_or(0.0));
            srtt.push(rtt);
        }
        s.goodput_bps = total as f64 * 8.0 / dt;
        s.arrival_bps = arrived as f64 * 8.0 / dt;
        self.rec.window.on_sample(
            now,
            s.queue_packets,
            s.goodput_bps,
            &s.flow_backlog_cells,
            &srtt,
            &s.series,
        );
        self.rec.push_sample(s);
        self.net.link_mut(BOTTLENECK).qdisc_mut().drain_log(&mut self.log_buf);
        for r in self.log_buf.drain(..) {
            self.rec.push_log(r);
        }
        let next = now + self.interval;
        if next <= self.end && self.split.is_none() {
            self.q.schedule(next, Event::Sample);
        }
    }
}

impl Simulation {
    /// The hosts, and where what they send goes from this side: into its event queue, or
    /// (ACKs, split) over to the senders' side at the window's end.
    fn hosts_and_sink(&mut self) -> (&mut Hosts, Direct<'_>) {
        let Simulation { hosts, ack_path, q, pkts, rec, counts, split, .. } = self;
        let to_senders = split.as_deref_mut().map(|s| &mut s.to_senders);
        (hosts, Direct { q, pkts, rec, counts, ack_path, to_senders })
    }
}

/// What the hosts send, scheduled in this side's event queue as they act.
struct Direct<'a> {
    q: &'a mut EventQueue<Event>,
    pkts: &'a mut PacketSlab,
    rec: &'a mut Recorder,
    counts: &'a mut PacketCounts,
    ack_path: &'a mut AckPath,
    /// Split runs: ACKs for the senders' side, handed over at the window's end.
    to_senders: Option<&'a mut Mail>,
}

impl Direct<'_> {
    /// An ACK that crossed its ACK route goes over its sender's access link.
    fn ack_home(&mut self, at: SimTime, mut p: Packet) {
        match self.ack_path.cross_downlink(at, &p) {
            Ok(arrival) => {
                // The arrival that delivers it, wherever the senders run.
                p.hop = forward::ACK_HOME - 1;
                self.send_to_sender(arrival, p);
            }
            Err(d) => self.dropped(d),
        }
    }

    /// An ACK for its sender at `arrival`: over to the senders' side of a split run, or an
    /// arrival in this side's queue.
    fn send_to_sender(&mut self, arrival: SimTime, p: Packet) {
        match &mut self.to_senders {
            Some(out) => out.push(arrival, p),
            None => self.to_bottleneck(arrival, p),
        }
    }
}

impl HostSink for Direct<'_> {
    fn to_bottleneck(&mut self, at: SimTime, p: Packet) {
        let id = self.pkts.insert(p);
        self.q.schedule(at, Event::Arrive { pkt: id });
    }

    fn ack(&mut self, at: SimTime, mut p: Packet) {
        if self.ack_path.via_discs(p.flow) {
            // Its group's ACK route: into the first disc link now (see `forward::arrive`).
            p.hop = 0;
            self.to_bottleneck(at, p);
            return;
        }
        match self.ack_path.cross(at, &mut p) {
            Ok(arrival) => self.send_to_sender(arrival, p),
            Err(d) => self.dropped(d),
        }
    }

    fn dropped(&mut self, d: DropRecord) {
        self.rec.push_drop(d);
        self.counts.dropped += 1;
    }

    fn wake(&mut self, at: SimTime, ev: Event) {
        self.q.schedule(at, ev);
    }
}

#[cfg(test)]
mod aqm_tests;
#[cfg(test)]
mod tests;
