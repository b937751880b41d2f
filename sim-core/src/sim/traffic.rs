//! Flows that arrive during the run ([`crate::traffic`]): each group whose flows arrive
//! (Poisson, repeated) is a source with a pool of connections, its `count` flows. An
//! arrival takes a free connection, or waits in arrival order for one to complete; a
//! completed transfer frees its connection for the next. The sender's state is made anew
//! for each transfer ([`crate::tcp::TcpSender::renew`]; a persistent connection's next
//! message keeps its window, `next_message`) and the receiver's when the new connection's
//! first packet reaches it, so what a run holds follows the connections open at once.
//!
//! Also here, because the senders' side sees them: every finite flow or transfer that
//! completed, in the order they completed, and every ping's answer.

use crate::cc::{CcaSpec, CongestionControl};
use crate::rng::{SimRng, StreamId};
use crate::scenario::Scenario;
use crate::time::{SimDuration, SimTime};
use crate::traffic::{sizes, Pattern};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

pub use crate::metrics::fct::Transfer;
pub use crate::metrics::pings::PingSample;

/// A round that ended: its source, and when the next is due.
pub(super) type NextRound = (u32, SimTime);

/// A transfer asked for: when, and how many bytes.
#[derive(Clone, Copy, Debug)]
struct Request {
    at: SimTime,
    bytes: u64,
}

struct Source {
    group: u32,
    cca: CcaSpec,
    pattern: Pattern,
    keep_alive: bool,
    /// Its connections are flows `first..first + count`.
    first: u32,
    count: u32,
    /// Free connections, the lowest id on top (taken first), so which connection carries
    /// what does not depend on the order connections were freed in within an instant. A
    /// heap: a sorted vector re-sorted on each completion cost O(count) per transfer (a
    /// quarter of a 1000-connection run of 50 kB flows).
    free: BinaryHeap<Reverse<u32>>,
    /// Per connection, the transfer it carries.
    busy: Vec<Option<Request>>,
    waiting: VecDeque<Request>,
    /// Poisson: mean seconds between arrivals (while on), and when the source began.
    mean_gap_s: f64,
    start: SimTime,
    arrivals: SimRng,
    sizes: SimRng,
    fixed: u64,
    cdf: Option<Vec<(f64, f64)>>,
    started: u32,
    /// Every-after-all: transfers of the round still running, and when it began.
    round_left: u32,
    round_at: SimTime,
    stop: Option<SimTime>,
}

/// Every source of the run, and what their transfers and the pings recorded.
#[derive(Default)]
pub(super) struct Traffic {
    sources: Vec<Source>,
    /// Per flow, its source, if its connection is recycled.
    source_of: Vec<Option<u32>>,
    seed: u64,
    /// Every finite flow or transfer that completed, in the order they completed.
    pub transfers: Vec<Transfer>,
    pub pings: Vec<PingSample>,
    /// Per flow, its group, and whether its (once) completion is in `transfers`.
    group_of: Vec<u32>,
    logged: Vec<bool>,
}

impl Traffic {
    /// The sources of `sc` whose flows are `groups` (flow → group), and the first arrival
    /// of each, (source, time), for the caller to schedule.
    pub fn new(sc: &Scenario, groups: &[u32]) -> (Traffic, Vec<(u32, SimTime)>) {
        let mut t = Traffic {
            seed: sc.seed,
            source_of: vec![None; groups.len()],
            logged: vec![false; groups.len()],
            group_of: groups.to_vec(),
            ..Traffic::default()
        };
        let mut first_arrivals = Vec::new();
        for (gi, g) in sc.flows.iter().enumerate() {
            if !g.recycles() {
                continue;
            }
            let first = groups.iter().position(|&x| x as usize == gi).unwrap_or(0) as u32;
            let id = t.sources.len() as u32;
            let mean_gap_s = match g.arrivals.pattern() {
                Pattern::Poisson { load, .. } => {
                    let mean = g.mean_size_bytes().unwrap_or(1.0);
                    8.0 * mean / (load * sc.route_capacity_bps(g))
                }
                _ => 0.0,
            };
            let mut s = Source {
                group: gi as u32,
                cca: g.cca.clone(),
                pattern: g.arrivals.pattern(),
                keep_alive: g.arrivals.keep_alive(),
                first,
                count: g.count,
                free: (first..first + g.count).map(Reverse).collect(),
                busy: vec![None; g.count as usize],
                waiting: VecDeque::new(),
                mean_gap_s,
                start: SimTime::from_secs_f64(g.start_s),
                arrivals: SimRng::new(sc.seed, StreamId::Arrivals(gi as u32)),
                sizes: SimRng::new(sc.seed, StreamId::Sizes(gi as u32)),
                fixed: g.size_bytes.unwrap_or(1).max(1),
                cdf: g.size_cdf().map(|c| c.to_vec()),
                started: 0,
                round_left: 0,
                round_at: SimTime::ZERO,
                stop: g.stop_s.map(SimTime::from_secs_f64),
            };
            let start = SimTime::from_secs_f64(g.start_s);
            let at = match s.pattern {
                Pattern::Poisson { .. } => s.next_arrival(start),
                // Persistent connections open first (each at the start plus its jitter,
                // `build.rs`), and join the pool as their handshakes complete; the first
                // round is a period after the last has begun.
                Pattern::Every { period, .. } if s.keep_alive => {
                    s.free.clear();
                    SimTime::from_secs_f64(g.start_s + g.start_jitter_s) + period
                }
                _ => start,
            };
            for f in first..first + g.count {
                t.source_of[f as usize] = Some(id);
            }
            t.sources.push(s);
            first_arrivals.push((id, at));
        }
        (t, first_arrivals)
    }

    /// A flow sent once completed at `end`, having started at `start`: recorded, once.
    pub fn completed_once(&mut self, flow: u32, bytes: u64, start: SimTime, end: SimTime) {
        if let Some(l) = self.logged.get_mut(flow as usize).filter(|l| !**l) {
            *l = true;
            let group = self.group_of[flow as usize];
            let arrived_s = start.as_secs_f64();
            self.transfers.push(Transfer {
                flow,
                group,
                bytes,
                arrived_s,
                fct_s: end.as_secs_f64() - arrived_s,
            });
        }
    }

    /// Whether `flow`'s connection carries its transfers without a handshake each.
    pub fn keeps_alive(&self, flow: u32) -> bool {
        self.source_of
            .get(flow as usize)
            .copied()
            .flatten()
            .is_some_and(|s| self.sources[s as usize].keep_alive)
    }

    /// Whether `flow`'s connection is recycled.
    #[inline]
    pub fn recycles(&self, flow: u32) -> bool {
        self.source_of.get(flow as usize).is_some_and(|s| s.is_some())
    }

    /// Source `id`'s arrival is due at `now`: the transfers to start now, (flow, bytes),
    /// and when its next arrival is due, if it has one.
    pub fn arrive(&mut self, id: u32, now: SimTime) -> (Vec<(u32, u64)>, Option<SimTime>) {
        let s = &mut self.sources[id as usize];
        if s.stop.is_some_and(|t| now >= t) {
            return (Vec::new(), None);
        }
        let n = match s.pattern {
            Pattern::Every { transfers: Some(n), .. } => n,
            Pattern::Every { transfers: None, .. } => s.count,
            _ => 1,
        };
        for _ in 0..n {
            let bytes = s.draw_size();
            s.waiting.push_back(Request { at: now, bytes });
        }
        let next = match s.pattern {
            Pattern::Poisson { .. } => Some(s.next_arrival(now)),
            Pattern::Every { period, after_all: false, .. } => Some(now + period),
            Pattern::Every { after_all: true, .. } => {
                (s.round_left, s.round_at) = (n, now);
                None // the round's last completion schedules the next
            }
            Pattern::Once => None,
        };
        (s.start_waiting(), next)
    }

    /// `flow`'s transfer completed at `now`: it is recorded, and the connection takes the
    /// next waiting transfer. Returns the transfers to start now and, for a round that
    /// ended, when the next round is due: (starts, Some((source, at))).
    pub fn complete(&mut self, flow: u32, now: SimTime) -> (Vec<(u32, u64)>, Option<NextRound>) {
        let Some(Some(id)) = self.source_of.get(flow as usize).copied() else { return (Vec::new(), None) };
        let s = &mut self.sources[id as usize];
        let Some(req) = s.busy[(flow - s.first) as usize].take() else {
            // A persistent connection's handshake: it joins the pool.
            if s.keep_alive && !s.free.iter().any(|f| f.0 == flow) {
                s.free.push(Reverse(flow));
                return (s.start_waiting(), None);
            }
            return (Vec::new(), None);
        };
        self.transfers.push(Transfer {
            flow,
            group: s.group,
            bytes: req.bytes,
            arrived_s: req.at.as_secs_f64(),
            fct_s: (now - req.at).as_secs_f64(),
        });
        s.free.push(Reverse(flow));
        let mut next_round = None;
        if let Pattern::Every { period, after_all: true, .. } = s.pattern {
            s.round_left = s.round_left.saturating_sub(1);
            if s.round_left == 0 {
                next_round = Some((id, now.max(s.round_at + period)));
            }
        }
        (s.start_waiting(), next_round)
    }

    /// A fresh congestion control for the next transfer on `flow`'s connection, from its
    /// own stream (group, transfer number).
    pub fn cc_for(&mut self, flow: u32) -> Box<dyn CongestionControl> {
        let id = self.source_of[flow as usize].expect("a recycled connection");
        let s = &mut self.sources[id as usize];
        s.started += 1;
        let rng = SimRng::new(self.seed, StreamId::Transfer(s.group, s.started));
        s.cca.build_with(rng).unwrap_or_else(|_| s.cca.build())
    }

    /// Transfers asked for and not complete: running and waiting for a connection.
    pub fn unfinished(&self) -> u32 {
        (self.sources.iter())
            .map(|s| s.busy.iter().filter(|b| b.is_some()).count() as u32 + s.waiting.len() as u32)
            .sum()
    }
}

impl Source {
    /// The arrival after one at `from`: an exponential gap of on-time later (the off
    /// stretches of an on/off source skipped; Poisson arrivals are memoryless, so the gap
    /// runs on where the next on stretch begins).
    fn next_arrival(&mut self, from: SimTime) -> SimTime {
        let gap = self.gap();
        let Pattern::Poisson { on, off, .. } = self.pattern else { return from + gap };
        if off == SimDuration::ZERO {
            return from + gap;
        }
        let (on, cycle) = (on.0.max(1), on.0.max(1) + off.0);
        let since = from.0.saturating_sub(self.start.0);
        let (mut k, mut into) = (since / cycle, since % cycle);
        if into >= on {
            (k, into) = (k + 1, 0);
        }
        // On-time from the current on stretch's start to the arrival.
        let t = into + gap.0;
        SimTime(self.start.0 + (k + t / on) * cycle + t % on)
    }

    /// An exponential gap between two Poisson arrivals.
    fn gap(&mut self) -> SimDuration {
        let u = self.arrivals.uniform();
        SimDuration::from_secs_f64(-libm::log(1.0 - u) * self.mean_gap_s).max(SimDuration(1))
    }

    fn draw_size(&mut self) -> u64 {
        match &self.cdf {
            Some(cdf) => sizes::draw(cdf, &mut self.sizes),
            None => self.fixed,
        }
    }

    /// Hands waiting transfers to free connections: (flow, bytes) to start now.
    fn start_waiting(&mut self) -> Vec<(u32, u64)> {
        let mut out = Vec::new();
        while !self.waiting.is_empty() {
            let Some(Reverse(flow)) = self.free.pop() else { break };
            let req = self.waiting.pop_front().expect("one is waiting");
            self.busy[(flow - self.first) as usize] = Some(req);
            out.push((flow, req.bytes));
        }
        out
    }
}
