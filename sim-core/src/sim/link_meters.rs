//! What each disc link does, for scenarios with more links than the bottleneck (the
//! bottleneck's own figures are the recorder's, in far more detail): per sample interval
//! its queue, queueing delay, utilisation and drops as named series (the page's per-link
//! charts, `<alg>_series.csv`), over the measured window the same figures for the summary,
//! and each flow's queueing delay split by the links of its route.

use super::Simulation;
use crate::metrics::{jain_index, FlowSummary, HopDelay, LinkSummary};
use crate::queue::DropReason;
use crate::time::{SimDuration, SimTime};
use crate::trace::SeriesInfo;

/// Drops and queueing waits over a span of time.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    /// By [`DropReason`], in its order.
    drops: [u64; 4],
    /// CE marks its disc set (on packets that then left it).
    marks: u64,
    /// Queueing waits (disc and device queue) of the packets that started on the wire, s.
    wait_s: f64,
    sent: u64,
}

impl Tally {
    fn wait_mean_ms(&self) -> Option<f64> {
        (self.sent > 0).then(|| self.wait_s / self.sent as f64 * 1e3)
    }
}

/// Packets a disc link has seen over the whole run: every one that arrived has started on
/// its wire, been dropped, or waits there (a per-link conservation law the tests check).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkCounts {
    pub arrived: u64,
    pub started: u64,
    pub dropped: u64,
}

#[derive(Clone, Copy, Debug, Default)]
struct LinkMeter {
    counts: LinkCounts,
    window: Tally,
    interval: Tally,
    /// Bytes sent before the window opened and before the last sample, the part of a
    /// packet then on the wire included.
    sent_at_open: f64,
    sent_at_sample: f64,
    queue_sum: f64,
    samples: u64,
    /// Its series are recorded (the scenario's `monitored`; the studied link's always).
    charted: bool,
}

/// Every disc link's meters; empty (and doing nothing) for a dumbbell.
#[derive(Clone, Debug, Default)]
pub(super) struct LinkMeters {
    links: Vec<LinkMeter>,
    /// Per flow and link (`flow * links + link`), the window's queueing waits, s, and count.
    hop_wait_s: Vec<f64>,
    hop_sent: Vec<u32>,
    /// Per flow, payload bytes the first link of its route has started sending: where the
    /// window's goodput starts counting (as the bottleneck's departures do for a dumbbell),
    /// so that no link of the route carries more of it in the window than it sent.
    first_hop_sent: Vec<u64>,
}

impl LinkMeters {
    /// Meters for the links, in id order, each charted or not, and `flows` flows.
    pub fn new(charted: impl Iterator<Item = bool>, flows: usize) -> LinkMeters {
        let links: Vec<LinkMeter> =
            charted.map(|charted| LinkMeter { charted, ..LinkMeter::default() }).collect();
        let n = links.len();
        LinkMeters {
            links,
            hop_wait_s: vec![0.0; n * flows],
            hop_sent: vec![0; n * flows],
            first_hop_sent: vec![0; flows],
        }
    }

    #[inline]
    pub fn is_active(&self) -> bool {
        !self.links.is_empty()
    }

    /// A packet reached `link`'s disc.
    #[inline]
    pub fn on_arrival(&mut self, link: u32) {
        if let Some(m) = self.links.get_mut(link as usize) {
            m.counts.arrived += 1;
        }
    }

    /// A drop by `link`'s disc.
    #[inline]
    pub fn on_drop(&mut self, link: u32, reason: DropReason, in_window: bool) {
        let Some(m) = self.links.get_mut(link as usize) else { return };
        m.counts.dropped += 1;
        m.interval.drops[reason as usize] += 1;
        if in_window {
            m.window.drops[reason as usize] += 1;
        }
    }

    /// A packet `link`'s disc marked CE left it.
    #[inline]
    pub fn on_mark(&mut self, link: u32, in_window: bool) {
        if let (Some(m), true) = (self.links.get_mut(link as usize), in_window) {
            m.window.marks += 1;
        }
    }

    /// `payload` bytes of `flow`'s data started on the first link of its route.
    #[inline]
    pub fn on_first_hop(&mut self, flow: u32, payload: u32) {
        if let Some(b) = self.first_hop_sent.get_mut(flow as usize) {
            *b += u64::from(payload);
        }
    }

    /// A packet of `flow` started on `link`'s wire after waiting `waited` in its queues.
    #[inline]
    pub fn on_sent(&mut self, link: u32, flow: u32, waited: SimDuration, in_window: bool) {
        let n = self.links.len();
        let Some(m) = self.links.get_mut(link as usize) else { return };
        let w = waited.as_secs_f64();
        m.counts.started += 1;
        m.interval.wait_s += w;
        m.interval.sent += 1;
        if in_window {
            m.window.wait_s += w;
            m.window.sent += 1;
            let i = flow as usize * n + link as usize;
            self.hop_wait_s[i] += w;
            self.hop_sent[i] += 1;
        }
    }
}

/// Whether each disc link's series are recorded, in id order: the studied link's always,
/// another's if it is `monitored`.
pub(super) fn charted(sc: &crate::scenario::Scenario) -> impl Iterator<Item = bool> + '_ {
    std::iter::once(true).chain(sc.other_links().map(|(_, l)| l.monitored))
}

/// The named series of every charted link, four each, in the order
/// [`Simulation::sample_links`] hands their values.
pub(super) fn link_series(sc: &crate::scenario::Scenario) -> Vec<SeriesInfo> {
    let mut out = Vec::new();
    for (n, _) in sc.link_names().zip(charted(sc)).filter(|(_, c)| *c) {
        out.push(SeriesInfo::new(format!("link.{n}.queue"), n, "packets", "link-queue"));
        out.push(SeriesInfo::new(format!("link.{n}.delay"), n, "ms", "link-delay"));
        out.push(SeriesInfo::new(format!("link.{n}.utilisation"), n, "%", "link-utilisation"));
        out.push(SeriesInfo::new(format!("link.{n}.drops"), n, "drops per s", "link-drops"));
    }
    out
}

impl Simulation {
    /// What disc link `link` has seen over the run, and the packets it holds now (disc and
    /// device queue, not the one on the wire); `None` for a dumbbell, whose link the
    /// recorder counts.
    pub fn link_counts(&self, link: u32) -> Option<(LinkCounts, u64)> {
        let m = self.meters.links.get(link as usize)?;
        let l = self.net.link(link);
        Some((m.counts, u64::from(l.occupancy().packets + l.nic_packets())))
    }

    /// Each flow's payload the first link of its route has sent by now, the part of a
    /// packet then on its wire left out: what was past that link at the window's opening is
    /// not the window's. (Every later link has sent less of the flow, so the window's goodput
    /// is bounded by what each link of the route sends in it.)
    pub(super) fn first_hop_departed(&self, now: SimTime) -> Vec<u64> {
        let mut out = self.meters.first_hop_sent.clone();
        for (link, l) in (0u32..).zip(self.net.links()) {
            let Some((it, left)) = l.on_wire_left(now) else { continue };
            let group = self.groups[it.flow as usize];
            let data = !self.net.any_ack_route() || self.pkts.get(it.id).kind.is_data();
            if data && self.net.route(group).links().first() == Some(&link) {
                out[it.flow as usize] -= self.payload_share(it.flow, it.bytes, left);
            }
        }
        out
    }

    /// The window opens: what each link has sent so far is not the window's.
    pub(super) fn open_link_windows(&mut self) {
        let now = self.now();
        for (m, l) in self.meters.links.iter_mut().zip(self.net.links()) {
            m.sent_at_open = l.sent_bytes_at(now);
        }
    }

    /// Every charted link's queue now and its delay, utilisation and drops since the last
    /// sample, appended to the sample's series; every link's queue into the window's mean.
    pub(super) fn sample_links(&mut self, now: SimTime, dt_s: f64, out: &mut Vec<f64>) {
        let opened = self.rec.window.opened;
        for (m, l) in self.meters.links.iter_mut().zip(self.net.links()) {
            let queue = f64::from(l.occupancy().packets + l.nic_packets());
            let sent = l.sent_bytes_at(now);
            let rate = l.spec().rate.0 as f64;
            let busy =
                if rate > 0.0 && dt_s > 0.0 { (sent - m.sent_at_sample) * 8.0 / (rate * dt_s) } else { 0.0 };
            let drops: u64 = m.interval.drops.iter().sum();
            if m.charted {
                out.extend([
                    queue,
                    m.interval.wait_mean_ms().unwrap_or(0.0),
                    100.0 * busy.clamp(0.0, 1.0),
                    if dt_s > 0.0 { drops as f64 / dt_s } else { 0.0 },
                ]);
            }
            m.interval = Tally::default();
            m.sent_at_sample = sent;
            if opened {
                m.queue_sum += queue;
                m.samples += 1;
            }
        }
    }

    /// Each flow's max-min and proportionally fair goodput (payload bit/s); none for a
    /// dumbbell.
    pub(super) fn fair_shares(&self) -> Option<(Vec<f64>, Vec<f64>)> {
        let f = crate::scenario::topology::fair_shares(&self.scenario)?;
        let per_flow = |v: &[f64]| self.groups.iter().map(|&g| v[g as usize]).collect();
        Some((per_flow(&f.max_min_bps), per_flow(&f.proportional_bps)))
    }

    /// Every disc link's figures over the window, its Jain's index among the `flows` that
    /// cross it; none for a dumbbell.
    pub(super) fn link_summaries(&self, flows: &[FlowSummary]) -> Vec<LinkSummary> {
        if !self.meters.is_active() {
            return Vec::new();
        }
        let now = self.now();
        let window_s = (now.as_secs_f64() - self.scenario.warmup_s).max(0.0);
        (self.scenario.link_names().zip(self.net.links()).zip(&self.meters.links).enumerate())
            .map(|(id, ((name, l), m))| {
                let through: Vec<f64> = (flows.iter())
                    .filter(|f| self.net.crosses(self.groups[f.id as usize], id as u32))
                    .map(|f| f.throughput_bps)
                    .collect();
                let rate = l.spec().rate.0 as f64;
                let sent = (l.sent_bytes_at(now) - m.sent_at_open).max(0.0) * 8.0;
                // Threshold is a reason to mark, never to drop.
                let [early, forced, overflow, _] = m.window.drops;
                LinkSummary {
                    name: name.to_string(),
                    rate_bps: rate,
                    // At most 1: the parts of packets on the wire at either end are
                    // interpolated, which can round a busy link a hair above.
                    utilisation: if self.rec.window.opened && window_s > 0.0 && rate > 0.0 {
                        (sent / (rate * window_s)).min(1.0)
                    } else {
                        0.0
                    },
                    queue_mean_packets: (m.samples > 0).then(|| m.queue_sum / m.samples as f64),
                    delay_mean_ms: m.window.wait_mean_ms(),
                    jfi: (!through.is_empty()).then(|| jain_index(&through)),
                    drops: early + forced + overflow,
                    marks: m.window.marks,
                    early,
                    forced,
                    overflow,
                }
            })
            .collect()
    }

    /// Each flow's mean queueing delay at each link of its route, in route order; empty
    /// for a dumbbell.
    pub(super) fn hop_delays(&self, flow: u32) -> Vec<HopDelay> {
        if !self.meters.is_active() {
            return Vec::new();
        }
        let n = self.meters.links.len();
        let group = self.groups[flow as usize];
        let names: Vec<&str> = self.scenario.link_names().collect();
        (self.net.route(group).links().iter())
            .map(|&l| {
                let i = flow as usize * n + l as usize;
                let sent = self.meters.hop_sent[i];
                HopDelay {
                    link: names[l as usize].to_string(),
                    mean_ms: (sent > 0).then(|| self.meters.hop_wait_s[i] / f64::from(sent) * 1e3),
                }
            })
            .collect()
    }
}
