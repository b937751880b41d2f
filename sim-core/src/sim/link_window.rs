//! What each disc link did in the measured window, for scenarios with more links than the
//! bottleneck (the bottleneck's own figures are the recorder's, in far more detail).

use super::Simulation;
use crate::metrics::LinkSummary;

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct LinkWindow {
    /// Bytes sent before the window opened, the part of a packet then on the wire included.
    tx_bytes_at_open: f64,
    drops: u64,
    queue_sum: f64,
    samples: u64,
}

impl LinkWindow {
    /// A drop by the link's disc in the window.
    #[inline]
    pub fn count(&mut self) {
        self.drops += 1;
    }
}

impl Simulation {
    /// The window opens: what each link has sent so far is not the window's.
    pub(super) fn open_link_windows(&mut self) {
        let now = self.now();
        for (w, l) in self.link_window.iter_mut().zip(self.net.links()) {
            // A packet on the wire counts when its transmission ends: the part sent before
            // now is not the window's.
            let on_wire = l.on_wire(now).map_or(0.0, |(it, done)| {
                let tx = l.tx_time(it.bytes).as_nanos().max(1) as f64;
                f64::from(it.bytes) * (1.0 - ((done - now).as_nanos() as f64 / tx).min(1.0))
            });
            w.tx_bytes_at_open = l.tx_bytes() as f64 + on_wire;
        }
    }

    /// A sample of every link's disc.
    pub(super) fn sample_links(&mut self) {
        if !self.rec.window.opened {
            return;
        }
        for (w, l) in self.link_window.iter_mut().zip(self.net.links()) {
            w.queue_sum += f64::from(l.occupancy().packets);
            w.samples += 1;
        }
    }

    /// Each flow's max-min and proportionally fair goodput (payload bit/s) over the disc
    /// links and its own access link; none for a dumbbell.
    pub(super) fn fair_shares(&self) -> Option<(Vec<f64>, Vec<f64>)> {
        use crate::metrics::fair_shares::{max_min, proportional, Demand};
        let sc = &self.scenario;
        if sc.links.is_empty() {
            return None;
        }
        let payload = f64::from(sc.tcp.mss_bytes) / f64::from(sc.full_packet_bytes().max(1));
        let capacity: Vec<f64> = self.net.links().iter().map(|l| l.spec().rate.0 as f64 * payload).collect();
        let demands: Vec<Demand> = (sc.flows.iter().enumerate())
            .map(|(g, group)| Demand {
                count: group.count,
                links: (self.net.links().iter().enumerate())
                    .filter(|(l, _)| self.net.crosses(g as u32, *l as u32))
                    .map(|(l, _)| l)
                    .collect(),
                cap: group.access_rate_bps as f64 * payload,
            })
            .collect();
        let (mm, pf) = (max_min(&capacity, &demands), proportional(&capacity, &demands));
        let per_flow = |v: &[f64]| self.groups.iter().map(|&g| v[g as usize]).collect();
        Some((per_flow(&mm), per_flow(&pf)))
    }

    /// Every disc link's figures over the window; none for a dumbbell.
    pub(super) fn link_summaries(&self) -> Vec<LinkSummary> {
        let sc = &self.scenario;
        if sc.links.is_empty() {
            return Vec::new();
        }
        let window_s = (self.now().as_secs_f64() - sc.warmup_s).max(0.0);
        let names = std::iter::once(crate::scenario::Scenario::BOTTLENECK_NAME)
            .chain(sc.links.keys().map(|k| k.as_str()));
        (names.zip(self.net.links()).zip(&self.link_window))
            .map(|((name, l), w)| {
                let rate = l.spec().rate.0 as f64;
                let sent = (l.tx_bytes() as f64 - w.tx_bytes_at_open).max(0.0) * 8.0;
                LinkSummary {
                    name: name.to_string(),
                    rate_bps: rate,
                    utilisation: if self.rec.window.opened && window_s > 0.0 && rate > 0.0 {
                        sent / (rate * window_s)
                    } else {
                        0.0
                    },
                    queue_mean_packets: (w.samples > 0).then(|| w.queue_sum / w.samples as f64),
                    drops: w.drops,
                }
            })
            .collect()
    }
}
