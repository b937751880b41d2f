//! Runs a [`Scenario`]: builds the dumbbell, pops events, and records what happens.
//!
//! The run can be advanced in bounded slices (`step_until`, `run_events`) so a UI frame
//! never blocks, or to the end (`finish`). `poll` hands out what was recorded since the
//! previous poll.

mod backlog;
mod build;
mod departures;
mod event;
mod forward;
mod lane;
mod senders;
mod slab;

use crate::cc::{CcFactory, CcMetrics, SpecFactory};
use crate::engine::EventQueue;
use crate::metrics::{DropRecord, FlowFacts, PacketCounts, Recorder, Sample, Summary, SummaryInput, Update};
use crate::net::{Link, Packet, PacketKind};
use crate::queue::{Dropped, Occupancy, QdiscCtx, QueueLimit};
use crate::scenario::{Scenario, ScenarioError};
use crate::tcp::{TcpReceiver, TcpSender};
use crate::time::{SimDuration, SimTime};
use crate::trace::LogRecord;
use backlog::Backlog;
use departures::Departures;
use event::Event;
use lane::SenderLane;
use senders::{SenderSink, Senders};
use slab::PacketSlab;

/// Runs with fewer flows keep their per-flow state in a core's cache, and prefetching the
/// next events' state only costs instructions (2026-11-30, min of 15 runs: the RED study
/// 6 % and rtt-unfair's FQ-CoDel 10 % faster without; 1000 flows 13 % slower without).
const PREFETCH_MIN_FLOWS: usize = 512;

/// Index of the bottleneck link (router → receiver); its reverse direction is link 1.
pub const BOTTLENECK: u32 = 0;

/// Links crossed by a flow's data (sender → receiver) and by its ACKs (receiver → sender).
/// Kept apart from [`Flow`] (hundreds of bytes) so a hop reads 16 bytes of a dense table.
#[derive(Clone, Copy, Debug)]
struct Paths {
    data: [u32; 2],
    ack: [u32; 2],
}

pub struct Simulation {
    scenario: Scenario,
    q: EventQueue<Event>,
    /// The bottleneck (0), its reverse (1), and per flow the access link its ACKs return on.
    links: Vec<Link>,
    senders: Senders,
    receivers: Vec<TcpReceiver>,
    /// Per flow, its group in the scenario.
    groups: Vec<u32>,
    /// Per flow, the links its packets cross.
    paths: Vec<Paths>,
    pkts: PacketSlab,
    rec: Recorder,
    end: SimTime,
    interval: SimDuration,
    /// Scratch space reused across events (endpoint output, queue-disc drops).
    out: Vec<Packet>,
    drops: Vec<Dropped>,
    counts: PacketCounts,
    /// Per flow: delivered and received bytes at the previous sample.
    last_delivered: Vec<u64>,
    last_received: Vec<u64>,
    backlog: Backlog,
    /// Earliest wake-up scheduled for each link's discipline.
    wake_at: Vec<Option<SimTime>>,
    /// Departures of a closed-form bottleneck not yet applied to `backlog` and its counters.
    departures: Departures,
    /// Scratch space for named-series values and log records.
    series_buf: Vec<f64>,
    log_buf: Vec<LogRecord>,
    finished: bool,
    /// Big scenarios: the sender side runs apart, in windows (see `lane.rs`); then the
    /// ACKs sent during the current window wait here, samples are taken between windows
    /// (next at `next_sample`), and `parallel` runs the two sides on two threads.
    lane: Option<Box<SenderLane>>,
    /// Whether this run is split (the lane is lent to a thread during a window).
    split: bool,
    to_senders: Vec<(SimTime, Packet)>,
    /// What the sender side sent during the last window, taken in when this one starts.
    from_senders: Vec<(SimTime, Packet)>,
    next_sample: SimTime,
    parallel: bool,
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

    pub fn events_processed(&self) -> u64 {
        self.q.events_processed() + self.lane.as_ref().map_or(0, |l| l.q.events_processed())
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
        let n = if self.split {
            self.advance_split(limit, budget)
        } else {
            let n = self.run_core(limit, budget);
            if n < budget {
                self.q.advance_to(limit);
            }
            n
        };
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

    /// Whether the two sides of a split run use two threads (the default off wasm). The
    /// results are the same either way.
    pub fn set_parallel(&mut self, on: bool) {
        self.parallel = on && cfg!(not(target_arch = "wasm32"));
    }

    /// Split mode: runs windows, each side in turn (or both at once), until `limit` or
    /// `budget` events. Stopping inside a window changes nothing: what a side sends is
    /// handed over at the window's end either way.
    fn advance_split(&mut self, limit: SimTime, budget: u64) -> u64 {
        let mut n = 0;
        while !self.finished && n < budget {
            let window_end = self.lane.as_ref().map_or(SimTime::ZERO, |l| l.window_end);
            let last = SimTime(window_end.0 - 1);
            let stop = last.min(limit);
            if self.parallel && budget == u64::MAX {
                n += self.run_window_parallel(stop);
            } else {
                let prefetch = self.receivers.len() >= PREFETCH_MIN_FLOWS;
                let lane = self.lane.as_deref_mut().expect("split mode");
                n += lane.run(&mut self.senders, stop, budget - n, prefetch);
                if n < budget {
                    lane::take_in(&mut self.from_senders, &mut self.pkts, &mut self.q);
                    n += self.run_core(stop, budget - n);
                }
                if n >= budget {
                    break;
                }
            }
            if stop < last {
                self.q.advance_to(limit);
                break;
            }
            self.end_window(window_end);
        }
        n
    }

    /// Runs both sides' events due by `stop`, the sender side on a second thread.
    #[cfg(not(target_arch = "wasm32"))]
    fn run_window_parallel(&mut self, stop: SimTime) -> u64 {
        let prefetch = self.receivers.len() >= PREFETCH_MIN_FLOWS;
        let mut lane = self.lane.take().expect("split mode");
        let mut senders = std::mem::take(&mut self.senders);
        let (a, b) = std::thread::scope(|s| {
            let side = s.spawn(|| lane.run(&mut senders, stop, u64::MAX, prefetch));
            lane::take_in(&mut self.from_senders, &mut self.pkts, &mut self.q);
            let b = self.run_core(stop, u64::MAX);
            (side.join().expect("the sender side's thread"), b)
        });
        self.lane = Some(lane);
        self.senders = senders;
        a + b
    }

    #[cfg(target_arch = "wasm32")]
    fn run_window_parallel(&mut self, _stop: SimTime) -> u64 {
        unreachable!("no threads in wasm")
    }

    /// Between windows: hands over what each side sent (each takes it in, on its own
    /// thread, as the next window starts), takes a sample if one is due, and opens the next
    /// window (or ends the run).
    fn end_window(&mut self, t: SimTime) {
        let lane = self.lane.as_deref_mut().expect("split mode");
        debug_assert!(self.from_senders.is_empty() && lane.inbox.is_empty());
        std::mem::swap(&mut lane.outbox, &mut self.from_senders);
        std::mem::swap(&mut self.to_senders, &mut lane.inbox);
        for d in lane.drops.drain(..) {
            self.rec.push_drop(d);
            self.counts.dropped += 1;
        }
        if t > self.end {
            lane.q.advance_to(self.end);
            self.q.advance_to(self.end);
            self.finished = true;
            return;
        }
        lane.q.advance_to(t);
        self.q.advance_to(t);
        if t == self.next_sample {
            self.sample();
            self.next_sample = t + self.interval;
        }
        let lane = self.lane.as_deref_mut().expect("split mode");
        lane.window_end = (t + lane.lookahead).min(self.next_sample).min(SimTime(self.end.0 + 1));
    }

    /// Runs to the end and returns the summary.
    pub fn finish(&mut self) -> Summary {
        self.step_until(self.end);
        self.summary()
    }

    fn check_finished(&mut self) {
        // Whatever reads the recorder next sees every delay (see `on_delay_deferred`).
        self.rec.window.flush_delays();
        if !self.split && self.q.peek_time().is_none_or(|t| t > self.end) {
            self.q.advance_to(self.end);
            self.finished = true;
        }
    }

    /// What was recorded since the previous poll.
    pub fn poll(&mut self) -> Update {
        let (samples, drops, log) = self.rec.take_update();
        Update {
            now_s: self.now().as_secs_f64(),
            progress: self.progress(),
            events: self.events_processed(),
            finished: self.finished,
            samples,
            drops,
            log,
        }
    }

    /// Everything recorded so far.
    pub fn recorder(&self) -> &Recorder {
        &self.rec
    }

    pub fn packet_counts(&self) -> PacketCounts {
        let (lane_in_flight, lane_delivered) =
            self.lane.as_ref().map_or((0, 0), |l| (l.in_flight(), l.delivered));
        PacketCounts {
            in_flight: self.pkts.live()
                + (self.to_senders.len() + self.from_senders.len()) as u64
                + lane_in_flight,
            sent: self.counts.sent + self.senders.sent,
            delivered: self.counts.delivered + lane_delivered,
            ..self.counts
        }
    }

    /// Statistics over the window simulated so far, in O(flows + histogram buckets).
    pub fn summary(&self) -> Summary {
        let sc = &self.scenario;
        let flows = (self.senders.tcp.iter().zip(&self.receivers).zip(&self.groups))
            .map(|((s, r), &group)| {
                let st = s.stats();
                FlowFacts {
                    group,
                    cca: sc.flows[group as usize].cca.tag().to_string(),
                    received_bytes: r.received_bytes(),
                    delivered_bytes: r.delivered_bytes(),
                    retransmissions: st.retransmissions,
                    timeouts: st.timeouts,
                    fast_recoveries: st.fast_recoveries,
                    completion_time_s: s.completed_at().map(|t| t.as_secs_f64()),
                }
            })
            .collect();
        Summary::compute(SummaryInput {
            scenario: sc.name.clone(),
            queue_disc: sc.bottleneck.queue.name().to_string(),
            duration_s: self.now().as_secs_f64(),
            warmup_s: sc.warmup_s,
            link_rate_bps: sc.bottleneck.rate_bps as f64,
            flows,
            packets: self.packet_counts(),
            events: self.events_processed(),
            window: &self.rec.window,
            series: &self.rec.series_info,
        })
    }

    /// A flow's TCP sender, for inspection (window, state, counters).
    pub fn sender(&self, flow: u32) -> &TcpSender {
        &self.senders.tcp[flow as usize]
    }

    /// Bytes that finished serialisation on a link (0 = bottleneck, 1 = its reverse).
    pub fn link_tx_bytes(&self, link: u32) -> u64 {
        let pending = if link == BOTTLENECK { self.departures.done_by(self.now()).0 } else { 0 };
        self.links[link as usize].tx_bytes + pending
    }

    /// A flow's congestion-control internals now (BBR mode and path model, Vegas BaseRTT...).
    pub fn cc_metrics(&self, flow: u32) -> Option<CcMetrics> {
        self.senders.tcp.get(flow as usize).map(|s| s.cc().metrics())
    }

    /// What the bottleneck's disc holds now (packets, bytes, cells).
    pub fn bottleneck_occupancy(&self) -> Occupancy {
        self.links[BOTTLENECK as usize].occupancy(self.now())
    }

    /// Unit of the bottleneck's buffer limit.
    pub fn bottleneck_limit(&self) -> QueueLimit {
        self.links[BOTTLENECK as usize].qdisc.limit()
    }

    fn handle(&mut self, ev: Event) {
        if self.receivers.len() >= PREFETCH_MIN_FLOWS {
            self.prefetch_ahead();
        }
        match ev {
            Event::Arrive { pkt } => self.arrive(pkt),
            Event::TxDone { link } => self.tx_done(link),
            Event::FlowStart { .. }
            | Event::FlowStop { .. }
            | Event::SenderTimer { .. }
            | Event::PaceTimer { .. } => {
                let now = self.now();
                let Simulation { senders, q, pkts, rec, counts, .. } = self;
                senders.handle(ev, now, &mut Direct { q, pkts, rec, counts });
            }
            Event::ReceiverTimer { flow } => self.receiver_acts(flow, |r, now, out| r.on_timer(now, out)),
            Event::Sample => self.sample(),
            Event::WindowOpen => {
                let received = self.receivers.iter().map(|r| r.received_bytes());
                self.rec.window.open(received);
            }
            Event::DiscWake { link } => self.disc_wake(link),
        }
    }

    /// Starts loading what the next events will touch (hints only; results do not change),
    /// as a pipeline over the events queued after this one:
    /// - three ahead: the packet of an arrival (usually cold: it left ~a delay ago);
    /// - two ahead: what that packet says it goes to, a link or a flow endpoint (its packet
    ///   was asked for one and two events ago);
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
            // A packet about to enter a queue disc: where it goes in there.
            let p = self.pkts.get(pkt);
            if (p.hop as usize) + 1 < 2 {
                if let Some(l) = self.links.get(self.path_link(p, p.hop + 1) as usize) {
                    l.qdisc.prefetch_flow(p.flow, true);
                }
            }
        }
        if let Some((flow, true)) = self.endpoint_of(first) {
            if let Some(s) = self.senders.tcp.get(flow as usize) {
                crate::hint::prefetch_lines(s.cc(), 4);
                // And the scoreboard records an ACK touches (its buffer is another allocation).
                if let Event::Arrive { pkt } = first {
                    let newest_sacked =
                        self.pkts.get(pkt).sack_blocks().first().map(|b| b.end.wrapping_sub(1));
                    s.scoreboard().prefetch_for_ack(newest_sacked);
                }
            }
        }
    }

    /// The flow endpoint event `e` will act on, and whether it is the sender; None when the
    /// event is a packet reaching a link, or touches no endpoint.
    #[inline]
    fn endpoint_of(&self, e: Event) -> Option<(u32, bool)> {
        match e {
            Event::Arrive { pkt } => {
                let p = self.pkts.get(pkt);
                ((p.hop as usize) + 1 >= 2)
                    .then_some((p.flow, matches!(p.kind, PacketKind::Ack | PacketKind::SynAck)))
            }
            Event::SenderTimer { flow } | Event::PaceTimer { flow } => Some((flow, true)),
            Event::ReceiverTimer { flow } => Some((flow, false)),
            _ => None,
        }
    }

    /// Starts loading the link or endpoint event `e` will act on, and the host link what the
    /// endpoint sends goes through first: data leave on the sender's access link; ACKs cross
    /// the reverse bottleneck (hot) onto the sender's.
    #[inline]
    fn prefetch_target(&self, e: Event) {
        if let Event::Arrive { pkt } = e {
            let p = self.pkts.get(pkt);
            if (p.hop as usize) + 1 < 2 {
                let link = self.path_link(p, p.hop + 1);
                if let Some(l) = self.links.get(link as usize) {
                    crate::hint::prefetch_lines(l, 2);
                    l.qdisc.prefetch_flow(p.flow, false);
                }
                return;
            }
        }
        let Some((flow, to_sender)) = self.endpoint_of(e) else { return };
        if to_sender {
            self.senders.prefetch(flow);
            return;
        }
        let (Some(r), Some(path)) = (self.receivers.get(flow as usize), self.paths.get(flow as usize)) else {
            return;
        };
        crate::hint::prefetch_lines(r, std::mem::size_of::<TcpReceiver>().div_ceil(64));
        if let Some(l) = self.links.get(path.ack[1] as usize) {
            crate::hint::prefetch_lines(l, 2);
        }
    }

    /// Lets `flow`'s sender act (see [`Senders::act`]).
    fn sender_acts(&mut self, flow: u32, act: impl FnOnce(&mut TcpSender, SimTime, &mut Vec<Packet>)) {
        let now = self.now();
        let Simulation { senders, q, pkts, rec, counts, .. } = self;
        senders.act(flow, now, act, &mut Direct { q, pkts, rec, counts });
    }

    /// Lets `flow`'s receiver act, sends what it produced and schedules its delayed-ACK
    /// timer (only the receiver's: an endpoint's timers change only when it acts).
    fn receiver_acts(&mut self, flow: u32, act: impl FnOnce(&mut TcpReceiver, SimTime, &mut Vec<Packet>)) {
        let now = self.now();
        let mut out = std::mem::take(&mut self.out);
        act(&mut self.receivers[flow as usize], now, &mut out);
        self.emit(&mut out);
        self.out = out;
        if let Some(t) = self.receivers[flow as usize].delack_timer.event_needed() {
            self.q.schedule(t, Event::ReceiverTimer { flow });
        }
    }

    /// Wakes a link's discipline if its `poll_at` is due, lets the link send, and asks again.
    fn disc_wake(&mut self, link: u32) {
        let now = self.now();
        let l = link as usize;
        if self.wake_at[l].is_some_and(|t| t <= now) {
            self.wake_at[l] = None;
        }
        if self.links[l].qdisc.poll_at().is_some_and(|t| t <= now) {
            let mut cx = QdiscCtx::new(now, &mut self.drops);
            self.links[l].qdisc.on_wakeup(&mut cx);
            self.settle_drops(link);
            self.kick(link);
        }
        self.sync_disc_wake(link);
    }

    /// Schedules a wake-up for a link's discipline when it wants one earlier than planned.
    pub(super) fn sync_disc_wake(&mut self, link: u32) {
        let l = link as usize;
        let Some(t) = self.links[l].qdisc.poll_at() else { return };
        if self.wake_at[l].is_none_or(|w| t < w) {
            let t = t.max(self.now());
            self.wake_at[l] = Some(t);
            if t <= self.end {
                self.q.schedule(t, Event::DiscWake { link });
            }
        }
    }

    fn sample(&mut self) {
        let now = self.now();
        self.settle_bottleneck(now);
        let link = &self.links[BOTTLENECK as usize];
        let occ = link.occupancy(now);
        let dt = self.interval.as_secs_f64();
        let n = self.receivers.len();
        self.series_buf.clear();
        link.qdisc.sample_series(&mut self.series_buf);
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
            flow_backlog_packets: self.backlog.packets.clone(),
            flow_backlog_cells: self.backlog.cells.clone(),
            flow_queue: (0..n as u32).map(|f| link.qdisc.flow_queue(f).unwrap_or(0)).collect(),
            series: self.series_buf.clone(),
        };
        let (mut total, mut arrived) = (0u64, 0u64);
        let mut srtt = Vec::with_capacity(n);
        for (i, (r, sender)) in self.receivers.iter().zip(&self.senders.tcp).enumerate() {
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
        self.links[BOTTLENECK as usize].qdisc.drain_log(&mut self.log_buf);
        for r in self.log_buf.drain(..) {
            self.rec.push_log(r);
        }
        let next = now + self.interval;
        if next <= self.end && !self.split {
            self.q.schedule(next, Event::Sample);
        }
    }
}

/// In one event queue: a sender's packets and wake-ups are scheduled as it acts.
struct Direct<'a> {
    q: &'a mut EventQueue<Event>,
    pkts: &'a mut PacketSlab,
    rec: &'a mut Recorder,
    counts: &'a mut PacketCounts,
}

impl SenderSink for Direct<'_> {
    fn to_bottleneck(&mut self, at: SimTime, p: Packet) {
        let id = self.pkts.insert(p);
        self.q.schedule(at, Event::Arrive { pkt: id });
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
