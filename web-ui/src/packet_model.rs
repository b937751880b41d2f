//! The packet view's model: the links watched (one, or every link of the network), each
//! with its stretch of trace replayed to one shared time, stepped an event at a time or
//! moved to a time. Plain Rust, tested natively; `components/packet_view.rs` draws it.

use crate::packet_scene::row_scale;
use sim_core::net::packet_trace::{Stage, TraceReplay, TraceWindow};
use std::rc::Rc;

/// One watched link: its window, replayed to the model's time, and its rows' scale.
pub struct LinkView {
    pub window: Rc<TraceWindow>,
    pub replay: TraceReplay,
    pub scale: f64,
}

impl LinkView {
    pub fn new(window: Rc<TraceWindow>, packet_bytes: u32) -> LinkView {
        let mut replay = TraceReplay::new(&window);
        // The rows' scale: the fullest sub-queue at the window's end.
        replay.seek_time(&window, window.to_ns);
        let mut rows: Vec<(u32, u64)> = Vec::new();
        for p in replay.at(window.to_ns).iter().filter(|p| p.stage == Stage::Disc) {
            match rows.iter_mut().find(|r| r.0 == p.queue) {
                Some(r) => r.1 += u64::from(p.bytes),
                None => rows.push((p.queue, u64::from(p.bytes))),
            }
        }
        let scale = row_scale(rows.iter().map(|r| r.1).max().unwrap_or(0), packet_bytes);
        LinkView { window, replay, scale }
    }
}

#[derive(Default)]
pub struct PacketModel {
    pub views: Vec<LinkView>,
    pub t_ns: u64,
}

impl PacketModel {
    /// The times every view's trace holds: the latest start to the earliest end.
    pub fn span(&self) -> Option<(u64, u64)> {
        let from = self.views.iter().map(|v| v.window.from_ns).max()?;
        let to = self.views.iter().map(|v| v.window.to_ns).min()?;
        Some((from.min(to), to))
    }

    /// Every view replayed to `t_ns` (within the span).
    pub fn seek(&mut self, t_ns: u64) {
        let Some((from, to)) = self.span() else { return };
        self.t_ns = t_ns.clamp(from, to);
        for v in &mut self.views {
            v.replay.seek_time(&v.window, self.t_ns);
        }
    }

    /// One event forward (`d` > 0) or back: with one link exactly one event (ties too),
    /// with several to the next or previous instant any of them has an event at.
    pub fn step(&mut self, d: i64) {
        if let [v] = &mut self.views[..] {
            let n = (v.replay.applied() as i64 + d).clamp(0, v.window.events.len() as i64) as usize;
            v.replay.seek(&v.window, n);
            self.t_ns = match n {
                0 => v.window.from_ns,
                n => v.window.events[n - 1].t_ns,
            };
            return;
        }
        let t = self.t_ns;
        let next = if d > 0 {
            (self.views.iter())
                .filter_map(|v| {
                    v.window.events.get(v.window.events.partition_point(|e| e.t_ns <= t)).map(|e| e.t_ns)
                })
                .min()
        } else {
            (self.views.iter())
                .filter_map(|v| {
                    let i = v.window.events.partition_point(|e| e.t_ns < t);
                    i.checked_sub(1).map(|i| v.window.events[i].t_ns)
                })
                .max()
        };
        if let Some(t) = next {
            self.seek(t);
        }
    }

    /// The last event applied, over every view: (view, its index in the window).
    pub fn latest_event(&self) -> Option<(usize, usize)> {
        (self.views.iter().enumerate())
            .filter_map(|(i, v)| v.replay.applied().checked_sub(1).map(|n| (i, n)))
            .max_by_key(|&(i, n)| (self.views[i].window.events[n].t_ns, i))
    }

    /// Events applied and held, over every view.
    pub fn counts(&self) -> (usize, usize) {
        (
            self.views.iter().map(|v| v.replay.applied()).sum(),
            self.views.iter().map(|v| v.window.events.len()).sum(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::scenario::preset;
    use sim_core::sim::Simulation;
    use sim_core::time::SimTime;

    fn model(p: &str, v: &str) -> PacketModel {
        let sc = preset(p, Some(v)).unwrap();
        let mut sim = Simulation::new(&sc).unwrap();
        sim.watch_all_links();
        sim.step_until(SimTime::from_secs_f64(6.0));
        let views = (0..sc.link_names().count() as u32)
            .map(|l| LinkView::new(Rc::new(sim.packet_window(l, 4000).unwrap()), 1500))
            .collect();
        let mut m = PacketModel { views, t_ns: 0 };
        m.seek(u64::MAX);
        m
    }

    /// Every link of the parking lot at one time: stepping forward then back returns to
    /// the same packets in every link, each step moving to an instant some link has an
    /// event at.
    #[test]
    fn every_link_steps_together_and_back_to_the_same_packets() {
        let mut m = model("parking-lot", "fifo");
        assert_eq!(m.views.len(), 3);
        let (from, to) = m.span().unwrap();
        m.seek((from + to) / 2);
        let before: Vec<Vec<_>> = m.views.iter().map(|v| v.replay.at(m.t_ns)).collect();
        let t0 = m.t_ns;
        for _ in 0..20 {
            m.step(1);
        }
        assert!(m.t_ns > t0);
        let (v, i) = m.latest_event().unwrap();
        assert_eq!(m.views[v].window.events[i].t_ns, m.t_ns, "the latest event is at the time shown");
        for _ in 0..20 {
            m.step(-1);
        }
        m.seek(t0);
        let after: Vec<Vec<_>> = m.views.iter().map(|v| v.replay.at(m.t_ns)).collect();
        assert_eq!(before, after);
    }

    #[test]
    fn one_link_steps_one_event_at_a_time() {
        let mut m = model("red-study", "red");
        let n = m.views[0].window.events.len();
        m.step(-1);
        assert_eq!(m.counts(), (n - 1, n));
        m.step(1);
        assert_eq!(m.counts(), (n, n));
    }
}
