//! The packet view's side of a run: which disc links keep a trace of their recent packets
//! (`net/packet_trace.rs`), and a stretch of it to draw. Watching changes no result.

use super::Simulation;
use crate::net::packet_trace::{TraceKind, TraceWindow};

impl Simulation {
    /// Starts tracing disc link `link`'s packets (link ids as in the scenario's
    /// `links_in_id_order`: 0 is the bottleneck); false if there is no such link.
    pub fn watch_link(&mut self, link: u32) -> bool {
        if link >= self.net.len() {
            return false;
        }
        self.net.link_mut(link).watch();
        true
    }

    /// Traces every disc link.
    pub fn watch_all_links(&mut self) {
        for l in 0..self.net.len() {
            self.net.link_mut(l).watch();
        }
    }

    /// Events `link`'s trace has seen since it began (0 when not watched).
    pub fn packet_events(&self, link: u32) -> u64 {
        self.net.links().get(link as usize).and_then(|l| l.trace()).map_or(0, |t| t.total())
    }

    /// The last `max_events` events of `link`'s trace with the packets in the link before
    /// them, up to now; `None` when the link is not watched.
    pub fn packet_window(&self, link: u32, max_events: usize) -> Option<TraceWindow> {
        let l = self.net.links().get(link as usize)?;
        let mut w = l.trace()?.window(link, self.now().0, max_events);
        let mut queues: Vec<u32> = (w.base.iter().map(|r| r.queue))
            .chain(w.events.iter().filter(|e| e.kind == TraceKind::Queued).map(|e| e.queue))
            .collect();
        queues.sort_unstable();
        queues.dedup();
        w.queue_names = queues.into_iter().map(|q| (q, l.qdisc().queue_name(q))).collect();
        Some(w)
    }
}

#[cfg(test)]
mod tests {
    use crate::net::packet_trace::{Stage, TraceKind, TraceReplay};
    use crate::scenario::preset;
    use crate::sim::Simulation;
    use crate::time::SimTime;

    /// At every sample of a short RED study, the trace replayed to now holds exactly what the
    /// disc and the device queue hold; and watching changed no result.
    #[test]
    fn the_replayed_trace_holds_what_the_link_holds_and_changes_nothing() {
        let mut sc = preset("red-study", Some("red")).unwrap();
        (sc.duration_s, sc.warmup_s) = (3.0, 1.0);
        let mut plain = Simulation::new(&sc).unwrap();
        let mut watched = Simulation::new(&sc).unwrap();
        assert!(watched.watch_link(0) && !watched.watch_link(99));
        let mut checked = 0;
        for step in 1..=300u64 {
            let t = SimTime(step * 10_000_000);
            watched.step_until(t);
            let w = watched.packet_window(0, usize::MAX).unwrap();
            assert!(w.events.windows(2).all(|p| p[0].t_ns <= p[1].t_ns), "events in time order");
            let mut r = TraceReplay::new(&w);
            r.seek(&w, w.events.len());
            let link = watched.net.link(0);
            let disc = r.at(w.to_ns).iter().filter(|p| p.stage == Stage::Disc).count() as u32;
            let device = r.at(w.to_ns).iter().filter(|p| p.stage == Stage::Device).count() as u32;
            assert_eq!((disc, device), (link.occupancy().packets, link.nic_packets()), "at {t:?}");
            checked += u32::from(disc > 0);
        }
        assert!(checked > 100, "the queue was busy at {checked} of 300 samples");
        let (a, b) = (plain.finish(), watched.finish());
        assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
    }

    /// Every link of multi-queue, multi-link and ACK-route runs: the replay's packets per
    /// link match the link at the end, each sub-queue is named, and the results are the
    /// unwatched run's.
    #[test]
    fn every_watched_link_of_every_kind_of_run_replays_to_its_contents() {
        for (p, v) in [
            ("parking-lot", "fq-codel"),
            ("l4s-coexistence", "dualpi2"),
            ("cubic-vegas-2q", "warbler"),
            ("ack-congestion", "with-upload-fq-codel"),
            ("incast", "n16"),
        ] {
            let mut sc = preset(p, Some(v)).unwrap();
            sc.duration_s = sc.duration_s.min(4.0);
            sc.warmup_s = sc.warmup_s.min(0.5);
            for g in &mut sc.flows {
                g.start_s = g.start_s.min(1.0);
            }
            let mut plain = Simulation::new(&sc).unwrap();
            let mut watched = Simulation::new(&sc).unwrap();
            watched.watch_all_links();
            watched.step_until(SimTime(1_500_000_000));
            for link in 0..watched.net.len() {
                let w = watched.packet_window(link, usize::MAX).unwrap();
                let mut r = TraceReplay::new(&w);
                r.seek(&w, w.events.len());
                let l = watched.net.link(link);
                assert_eq!(
                    r.waiting() as u32,
                    l.occupancy().packets + l.nic_packets(),
                    "{p}/{v} link {link}"
                );
                let queued = w.events.iter().filter(|e| e.kind == TraceKind::Queued).map(|e| e.queue);
                assert!(queued.clone().all(|q| w.queue_names.iter().any(|(n, _)| *n == q)), "{p}/{v}: named");
            }
            let (a, b) = (plain.finish(), watched.finish());
            assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap(), "{p}/{v}");
        }
    }
}
