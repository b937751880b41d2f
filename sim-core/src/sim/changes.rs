//! Timed changes in the running network (see [`crate::scenario::changes`]): a change due
//! at t applies before every other event of that instant (its event was queued first, when
//! the run was built), and a change made now (`change_now`, the page's edit during a run)
//! is recorded at the next nanosecond, so replaying the scenario gives the same run.

use super::{Event, Simulation, BOTTLENECK};
use crate::queue::{shed_to_limit, QdiscCtx};
use crate::rng::{SimRng, StreamId};
use crate::scenario::changes::{apply, changed_link, live_field, ordered};
use crate::scenario::{LiveField, Scenario, TimedChange};
use crate::time::{Rate, SimTime};
use crate::trace::LogRecord;
use serde_json::Value;

/// What the run keeps to apply changes: the scenario as it stands now, the changes still
/// to come, and when each flow is to start and stop (a moved start or stop leaves a stale
/// event behind, which is then ignored).
#[derive(Debug, Default)]
pub(super) struct Changes {
    pub live: Scenario,
    pub due: std::collections::VecDeque<TimedChange>,
    pub start_at: Vec<SimTime>,
    pub stop_at: Vec<Option<SimTime>>,
    /// Changes made with `change_now`: each counts as the event its replay will have.
    pub made_now: u64,
}

impl Changes {
    /// For `sc`: schedules every change in `q` first (so each comes before anything else
    /// of its instant) and returns the state.
    pub fn new(sc: &Scenario, q: &mut crate::engine::EventQueue<Event>) -> Changes {
        let due: std::collections::VecDeque<TimedChange> =
            ordered(&sc.changes).into_iter().cloned().collect();
        for c in &due {
            q.schedule(SimTime::from_secs_f64(c.at_s), Event::Change);
        }
        Changes { live: Scenario { changes: Vec::new(), ..sc.clone() }, due, ..Changes::default() }
    }
}

/// When flow `id` of `group` starts: its group's start plus its own jitter.
pub(super) fn start_time(sc: &Scenario, group: usize, id: u32) -> SimTime {
    let g = &sc.flows[group];
    let jitter = g.start_jitter_s * SimRng::new(sc.seed, StreamId::FlowStart(id)).uniform();
    SimTime::from_secs_f64(g.start_s + jitter)
}

impl Simulation {
    /// The next change in time order is due now.
    pub(super) fn apply_due_change(&mut self) {
        if let Some(c) = self.changes.due.pop_front() {
            self.apply_change(&c);
        }
    }

    /// Sets a field now, during the run, and records it in the scenario as a timed change
    /// (at the next nanosecond: what is due now has run). Err, with nothing changed, if the
    /// field cannot change during a run or the value is not allowed.
    pub fn change_now(&mut self, set: &str, to: Value) -> Result<TimedChange, String> {
        if self.split.is_some() {
            return Err(
                "a run of 2000 flows or more runs in windows on two threads and takes no changes while it runs; \
                 add it as a timed change before the run (a run with changes runs on one thread)"
                    .into(),
            );
        }
        let now = self.now();
        let at = SimTime(now.0 + 1);
        if self.finished || at > self.end {
            return Err("the run has finished: the change applies to the next run".into());
        }
        let c = TimedChange { at_s: at.as_secs_f64(), set: set.to_string(), to };
        let mut sc = self.scenario.clone();
        sc.changes.push(c.clone());
        sc.validate().map_err(|e| e.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "))?;
        // Whatever is due at `now` runs first, as a replay does before the change's event.
        self.step_until(now);
        self.q.advance_to(at);
        self.apply_change(&c);
        self.scenario.changes.push(c.clone());
        self.changes.made_now += 1;
        Ok(c)
    }

    /// Makes the running network what the scenario is once `c` has applied.
    fn apply_change(&mut self, c: &TimedChange) {
        let now = self.now();
        let field = live_field(&c.set).expect("validated: a live field");
        let new = apply(&self.changes.live, c).expect("validated: the change applies");
        // The link the field is of: the bottleneck, or one of `links`.
        let name = changed_link(&new, &c.set).unwrap_or(new.bottleneck_name()).to_string();
        let link = new.link_id(&name).unwrap_or(BOTTLENECK);
        let b = new.link_named(&name).unwrap_or(new.bottleneck()).clone();
        match field {
            LiveField::LinkRate => {
                self.net.link_mut(link).set_rate(Rate(b.rate_bps));
                self.follow_reverse_links(&new);
                // A disc that reads the link's rate (RED's idle decay, PIE) follows it.
                self.retune_disc(&new, link, &b);
            }
            LiveField::LinkDelay => {
                self.net.link_mut(link).set_delay(crate::time::SimDuration::from_secs_f64(b.delay_ms / 1e3));
                self.follow_reverse_links(&new);
            }
            LiveField::DeviceQueue => {
                self.net.link_mut(link).set_nic_queue(b.nic_queue_packets);
                self.kick(link, now);
            }
            LiveField::Disc => self.retune_disc(&new, link, &b),
            LiveField::AccessRate(g) | LiveField::AccessDelay(g) => {
                let (rate, delay) = (Rate(new.flows[g].access_rate_bps), new.flows[g].access_delay_ms);
                let delay = crate::time::SimDuration::from_secs_f64(delay / 1e3);
                for f in self.flows_of(g) {
                    for l in [&mut self.hosts.senders.uplinks[f], &mut self.ack_path.downlinks[f]] {
                        l.set_rate_delay(rate, delay);
                    }
                }
            }
            LiveField::Start(g) => {
                for f in self.flows_of(g) {
                    if self.hosts.senders.tcp[f].phase() != crate::tcp::Phase::NotStarted {
                        continue;
                    }
                    let at = start_time(&new, g, f as u32).max(now);
                    self.changes.start_at[f] = at;
                    self.q.schedule(at, Event::FlowStart { flow: f as u32 });
                }
            }
            LiveField::Stop(g) => {
                let stop = new.flows[g].stop_s.map(SimTime::from_secs_f64);
                for f in self.flows_of(g) {
                    self.changes.stop_at[f] = stop;
                    match stop {
                        Some(t) if t <= now => self.hosts.senders.tcp[f].stop(),
                        _ => {
                            if let Some(t) = stop {
                                self.q.schedule(t, Event::FlowStop { flow: f as u32 });
                            }
                            let (hosts, mut sink) = self.hosts_and_sink();
                            hosts.senders.act(f as u32, now, |s, now, out| s.resume(now, out), &mut sink);
                        }
                    }
                }
            }
        }
        self.changes.live = new;
        let log = LogRecord::new(now.as_secs_f64(), "change")
            .with("set", c.set.clone())
            .with("to", c.to.to_string())
            .with("label", c.label());
        self.rec.push_log(log);
    }

    /// Each reverse link carries its route's delays at its slowest rate (see `build.rs`):
    /// it follows a change of a link's rate or delay.
    fn follow_reverse_links(&mut self, new: &Scenario) {
        let specs: Vec<_> = new.flows.iter().map(|g| super::build::reverse_spec(new, g)).collect();
        let path = &mut self.ack_path;
        for (f, &r) in path.reverse_of.iter().enumerate() {
            let spec = specs[self.groups[f] as usize];
            if let Some(l) = path.reverse.get_mut(r as usize) {
                l.set_rate_delay(spec.rate, spec.delay);
            }
        }
    }

    /// The disc of `link` (whose settings are now `spec`) takes its new parameters
    /// (validated), sheds what a lowered limit no longer holds, and the series are
    /// redeclared if the bottleneck's thresholds moved.
    fn retune_disc(&mut self, new: &Scenario, link: u32, spec: &crate::scenario::Link) {
        let now = self.now();
        let disc = self.net.link_mut(link).qdisc_mut();
        spec.queue.retune(disc, Rate(spec.rate_bps), now).expect("validated: the disc takes the change");
        shed_to_limit(disc, &mut QdiscCtx::new(now, &mut self.drops));
        self.settle_drops(link, now);
        let mut info = self.net.link(BOTTLENECK).qdisc().series();
        if new.has_links() {
            info.extend(super::link_meters::link_series(new));
        }
        if info != self.rec.series_info {
            self.rec.redeclare_series(now.as_secs_f64(), info);
        }
        self.kick(link, now);
        self.sync_disc_wake(link);
    }

    /// Whether a flow's start or stop event is still the one planned (a change may have
    /// moved it since it was queued).
    pub(super) fn is_planned(&self, ev: Event) -> bool {
        let now = self.now();
        match ev {
            Event::FlowStart { flow } => self.changes.start_at.get(flow as usize).is_none_or(|&t| t == now),
            Event::FlowStop { flow } => {
                self.changes.stop_at.get(flow as usize).is_none_or(|&t| t == Some(now))
            }
            _ => true,
        }
    }

    fn flows_of(&self, group: usize) -> Vec<usize> {
        (self.groups.iter().enumerate()).filter(|(_, &g)| g as usize == group).map(|(f, _)| f).collect()
    }
}
