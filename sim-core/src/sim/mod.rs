//! Runs a [`Scenario`]: builds the dumbbell, pops events, and records what happens.
//!
//! The run can be advanced in bounded slices (`step_until`, `run_events`) so a UI frame
//! never blocks, or to the end (`finish`). `poll` hands out what was recorded since the
//! previous poll.

mod build;
mod event;
mod forward;
mod slab;

use crate::aqm::{Dropped, QueueLimit};
use crate::cc::{CcMetrics, CongestionControl};
use crate::engine::EventQueue;
use crate::metrics::{FlowFacts, PacketCounts, Recorder, Sample, Summary, SummaryInput, Update};
use crate::net::{Link, Packet};
use crate::scenario::{Scenario, ScenarioError};
use crate::tcp::{TcpReceiver, TcpSender};
use crate::time::{SimDuration, SimTime};
use event::Event;
use slab::PacketSlab;

/// Index of the bottleneck link (router → receiver); its reverse direction is link 1.
pub const BOTTLENECK: u32 = 0;

struct Flow {
    sender: TcpSender,
    receiver: TcpReceiver,
    /// Links crossed by data (sender → receiver) and by ACKs (receiver → sender).
    data_path: [u32; 2],
    ack_path: [u32; 2],
    group: u32,
}

pub struct Simulation {
    scenario: Scenario,
    q: EventQueue<Event>,
    links: Vec<Link>,
    flows: Vec<Flow>,
    pkts: PacketSlab,
    rec: Recorder,
    end: SimTime,
    interval: SimDuration,
    /// Scratch space reused across events (endpoint output, queue-disc drops).
    out: Vec<Packet>,
    drops: Vec<Dropped>,
    counts: PacketCounts,
    /// Per flow: delivered bytes at the previous sample, packets waiting at the bottleneck.
    last_delivered: Vec<u64>,
    backlog: Vec<u32>,
    /// Per flow: cells its waiting packets take at the bottleneck.
    backlog_cells: Vec<u64>,
    /// Cell size for backlog accounting (the switch's or the limit's; else Tofino 2's).
    cell_bytes: u32,
    finished: bool,
}

impl Simulation {
    /// Validates the scenario and builds the world; nothing runs until a step is taken.
    pub fn new(scenario: &Scenario) -> Result<Simulation, Vec<ScenarioError>> {
        scenario.validate()?;
        Ok(build::build(scenario))
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
        self.q.events_processed()
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
        let mut n = 0;
        while n < budget {
            match self.q.pop_until(self.end) {
                Some((_, ev)) => self.handle(ev),
                None => break,
            }
            n += 1;
        }
        self.check_finished();
        n
    }

    /// Processes events due by `t`, at most `budget` of them; when none are left before `t`
    /// the clock moves to `t`. Returns how many ran. A UI frame uses it to spend a bounded
    /// slice of work on a bounded slice of simulated time.
    pub fn advance(&mut self, t: SimTime, budget: u64) -> u64 {
        let limit = t.min(self.end);
        let mut n = 0;
        while n < budget {
            match self.q.pop_until(limit) {
                Some((_, ev)) => self.handle(ev),
                None => {
                    self.q.advance_to(limit);
                    break;
                }
            }
            n += 1;
        }
        self.check_finished();
        n
    }

    /// Runs to the end and returns the summary.
    pub fn finish(&mut self) -> Summary {
        self.step_until(self.end);
        self.summary()
    }

    fn check_finished(&mut self) {
        if self.q.peek_time().is_none_or(|t| t > self.end) {
            self.q.advance_to(self.end);
            self.finished = true;
        }
    }

    /// What was recorded since the previous poll.
    pub fn poll(&mut self) -> Update {
        let (samples, drops, delays) = self.rec.take_update();
        Update {
            now_s: self.now().as_secs_f64(),
            progress: self.progress(),
            events: self.events_processed(),
            finished: self.finished,
            samples,
            drops,
            delays,
        }
    }

    /// Everything recorded so far.
    pub fn recorder(&self) -> &Recorder {
        &self.rec
    }

    pub fn packet_counts(&self) -> PacketCounts {
        PacketCounts { in_flight: self.pkts.live(), ..self.counts }
    }

    /// Statistics over what has been simulated so far (normally called at the end).
    pub fn summary(&self) -> Summary {
        let sc = &self.scenario;
        let flows = self
            .flows
            .iter()
            .map(|f| {
                let st = f.sender.stats();
                FlowFacts {
                    group: f.group,
                    cca: sc.flows[f.group as usize].cca.name().to_string(),
                    delivered_bytes: f.receiver.delivered_bytes(),
                    retransmissions: st.retransmissions,
                    timeouts: st.timeouts,
                    fast_recoveries: st.fast_recoveries,
                    completion_time_s: f.sender.completed_at().map(|t| t.as_secs_f64()),
                }
            })
            .collect();
        Summary::compute(SummaryInput {
            scenario: sc.name.clone(),
            queue_disc: sc.bottleneck.queue.name().to_string(),
            duration_s: self.now().as_secs_f64(),
            warmup_s: sc.warmup_s,
            interval_s: sc.sample_interval_s,
            link_rate_bps: sc.bottleneck.rate_bps as f64,
            red: self.links[BOTTLENECK as usize].qdisc.red_view(),
            flows,
            packets: self.packet_counts(),
            events: self.events_processed(),
            rec: &self.rec,
        })
    }

    /// RED's thresholds as the bottleneck applies them (after ARED's automatic reset).
    pub fn red_thresholds(&self) -> Option<(f64, f64)> {
        self.links[BOTTLENECK as usize].qdisc.red_view().map(|v| (v.min_th, v.max_th))
    }

    /// A flow's TCP sender, for inspection (window, state, counters).
    pub fn sender(&self, flow: u32) -> &TcpSender {
        &self.flows[flow as usize].sender
    }

    /// Bytes that finished serialisation on a link (0 = bottleneck, 1 = its reverse).
    pub fn link_tx_bytes(&self, link: u32) -> u64 {
        self.links[link as usize].tx_bytes
    }

    /// A flow's congestion-control internals now (BBR mode and path model, Vegas BaseRTT...).
    pub fn cc_metrics(&self, flow: u32) -> Option<CcMetrics> {
        self.flows.get(flow as usize).map(|f| f.sender.cc().metrics())
    }

    /// Unit of the bottleneck's buffer limit.
    pub fn bottleneck_limit(&self) -> QueueLimit {
        self.links[BOTTLENECK as usize].qdisc.limit()
    }

    fn handle(&mut self, ev: Event) {
        match ev {
            Event::Arrive { link, pkt } => self.arrive(link, pkt),
            Event::TxDone { link } => self.tx_done(link),
            Event::FlowStart { flow } => self.endpoint(flow, |f, now, out| f.sender.start(now, out)),
            Event::FlowStop { flow } => self.flows[flow as usize].sender.stop(),
            Event::SenderTimer { flow } => self.endpoint(flow, |f, now, out| f.sender.on_timer(now, out)),
            Event::PaceTimer { flow } => self.endpoint(flow, |f, now, out| f.sender.on_pace_timer(now, out)),
            Event::ReceiverTimer { flow } => self.endpoint(flow, |f, now, out| f.receiver.on_timer(now, out)),
            Event::Sample => self.sample(),
            Event::ControlTick => self.control_tick(),
            Event::ControlApply => {
                let now = self.now();
                if let Some(port) = self.links[BOTTLENECK as usize].qdisc.as_switch_mut() {
                    port.apply_writes(now);
                }
            }
        }
    }

    /// Lets one of `flow`'s endpoints act, then sends what it produced and syncs its timers.
    fn endpoint(&mut self, flow: u32, act: impl FnOnce(&mut Flow, SimTime, &mut Vec<Packet>)) {
        let now = self.now();
        let mut out = std::mem::take(&mut self.out);
        act(&mut self.flows[flow as usize], now, &mut out);
        self.emit(&mut out);
        self.out = out;
        self.sync_timers(flow);
    }

    /// Schedules wake-ups for any timer of `flow` that needs one.
    fn sync_timers(&mut self, flow: u32) {
        let f = &mut self.flows[flow as usize];
        if let Some(t) = f.sender.rto_timer.event_needed() {
            self.q.schedule(t, Event::SenderTimer { flow });
        }
        if let Some(t) = f.sender.pace_timer.event_needed() {
            self.q.schedule(t, Event::PaceTimer { flow });
        }
        if let Some(t) = f.receiver.delack_timer.event_needed() {
            self.q.schedule(t, Event::ReceiverTimer { flow });
        }
    }

    fn control_tick(&mut self) {
        let now = self.now();
        let Some(port) = self.links[BOTTLENECK as usize].qdisc.as_switch_mut() else { return };
        if let Some(at) = port.control_tick(now) {
            self.q.schedule(at, Event::ControlApply);
        }
        let next = now + port.control_period();
        if next <= self.end {
            self.q.schedule(next, Event::ControlTick);
        }
    }

    fn sample(&mut self) {
        let now = self.now();
        let link = &self.links[BOTTLENECK as usize];
        let occ = link.qdisc.occupancy();
        let dt = self.interval.as_secs_f64();
        let n = self.flows.len();
        let mut s = Sample {
            t_s: now.as_secs_f64(),
            queue_packets: occ.packets,
            queue_bytes: occ.bytes,
            queue_cells: occ.cells,
            queue_avg: link.qdisc.red_view().map(|v| v.avg),
            nic_packets: link.nic_packets(),
            goodput_bps: 0.0,
            flow_goodput_bps: Vec::with_capacity(n),
            flow_cwnd_bytes: Vec::with_capacity(n),
            flow_srtt_ms: Vec::with_capacity(n),
            flow_backlog_packets: self.backlog.clone(),
            flow_backlog_cells: self.backlog_cells.clone(),
            flow_queue: (0..n as u32)
                .map(|f| link.qdisc.as_switch().and_then(|p| p.flow_queue(f)).unwrap_or(0))
                .collect(),
            per_queue_cells: link.qdisc.as_switch().map_or_else(Vec::new, |p| p.queue_cells().to_vec()),
        };
        let mut total = 0u64;
        for (i, f) in self.flows.iter().enumerate() {
            let d = f.receiver.delivered_bytes();
            let got = d - self.last_delivered[i];
            self.last_delivered[i] = d;
            total += got;
            s.flow_goodput_bps.push(got as f64 * 8.0 / dt);
            s.flow_cwnd_bytes.push(f.sender.cwnd());
            s.flow_srtt_ms.push(f.sender.srtt().map_or(0.0, |r| r.as_secs_f64() * 1e3));
        }
        s.goodput_bps = total as f64 * 8.0 / dt;
        self.rec.samples.push(s);
        let next = now + self.interval;
        if next <= self.end {
            self.q.schedule(next, Event::Sample);
        }
    }
}

#[cfg(test)]
mod aqm_tests;
#[cfg(test)]
mod tests;
