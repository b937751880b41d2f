//! How long a run takes in this browser, from what it measured, not from a constant: the
//! rate (events per wall-clock second) of each finished run, by its number of flows, for
//! the estimate before a run; and the pace of the run going now (simulated seconds per
//! wall second over the last few seconds) for the time left. Plain Rust, tested natively.

use std::collections::VecDeque;

/// Events per wall-clock second assumed before this browser has finished a run of a
/// similar size: about the slowest rate a browser has shown for a large run (6·10⁷
/// estimated events in 52 s, charts drawing; a quiet machine runs 3-9 M/s), so a first
/// estimate errs long rather than short.
pub const FIRST_GUESS_EVENTS_PER_S: f64 = 1.2e6;

/// Measured rates of finished runs: (flows, events per wall second).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RateBook {
    runs: Vec<(f64, f64)>,
}

impl RateBook {
    /// A run of `flows` flows took `events` events in `wall_ms` (Run to finished, pauses
    /// excluded); `paced` if it was held to a real-time speed at some point, when its wall
    /// time measures the speed chosen rather than this browser.
    pub fn record(&mut self, flows: u32, events: u64, wall_ms: f64, paced: bool) {
        if paced || wall_ms < 200.0 || events < 100_000 {
            return; // says nothing about how fast this browser runs
        }
        self.runs.push((f64::from(flows.max(1)), events as f64 / wall_ms * 1e3));
        if self.runs.len() > 32 {
            self.runs.remove(0);
        }
    }

    /// Events per second to expect for a run of `flows`: the slowest measured for a run
    /// within a factor of ten in flows (per-flow state decides how cache-bound a run is),
    /// else the first guess.
    pub fn rate(&self, flows: u32) -> f64 {
        self.similar(flows).reduce(f64::min).unwrap_or(FIRST_GUESS_EVENTS_PER_S)
    }

    /// The rates measured for runs within a factor of ten of `flows`.
    fn similar(&self, flows: u32) -> impl Iterator<Item = f64> + '_ {
        let n = f64::from(flows.max(1));
        self.runs.iter().filter(move |(m, _)| (m / n).log10().abs() <= 1.0).map(|(_, r)| *r)
    }

    /// Seconds a run of `events` events and `flows` flows should take here.
    pub fn seconds(&self, events: f64, flows: u32) -> f64 {
        events / self.rate(flows)
    }

    /// Whether the estimate comes from a run measured here.
    pub fn measured(&self, flows: u32) -> bool {
        self.similar(flows).next().is_some()
    }
}

/// The pace of the run going now: (wall ms, simulated s) over the last few wall seconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pace {
    points: VecDeque<(f64, f64)>,
}

/// Wall time the pace is measured over.
const WINDOW_MS: f64 = 3000.0;

impl Pace {
    pub fn push(&mut self, wall_ms: f64, sim_s: f64) {
        self.points.push_back((wall_ms, sim_s));
        while self.points.front().is_some_and(|p| wall_ms - p.0 > WINDOW_MS) {
            self.points.pop_front();
        }
    }

    pub fn clear(&mut self) {
        self.points.clear();
    }

    /// Wall seconds left to reach `end_s` at the pace of the last seconds (`None` before
    /// a second of it has been seen, or when the run does not move).
    pub fn left_s(&self, end_s: f64) -> Option<f64> {
        let (&(w0, s0), &(w1, s1)) = (self.points.front()?, self.points.back()?);
        if w1 - w0 < 1000.0 || s1 <= s0 {
            return None;
        }
        Some((end_s - s1).max(0.0) / ((s1 - s0) / (w1 - w0) * 1e3))
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // the rates compared are exact by construction
mod tests {
    use super::*;

    #[test]
    fn the_estimate_follows_the_slowest_run_measured_at_a_similar_size() {
        let mut b = RateBook::default();
        assert_eq!(b.rate(10), FIRST_GUESS_EVENTS_PER_S);
        b.record(10, 2_000_000, 500.0, false); // 4 M/s
        b.record(12, 3_000_000, 1000.0, false); // 3 M/s
        b.record(1000, 6_000_000, 5000.0, false); // 1.2 M/s
        assert_eq!(b.rate(10), 3e6);
        assert_eq!(b.rate(2000), 1.2e6);
        assert!(!b.measured(100_000));
        assert_eq!(b.seconds(6e6, 11), 2.0);
        b.record(10, 10, 1.0, false); // too short to count
        assert_eq!(b.rate(10), 3e6);
        b.record(10, 3_000_000, 60_000.0, true); // at 1 s per s: the speed, not the browser
        assert_eq!(b.rate(10), 3e6);
    }

    #[test]
    fn time_left_is_what_remains_at_the_recent_pace() {
        let mut p = Pace::default();
        p.push(0.0, 0.0);
        assert_eq!(p.left_s(10.0), None);
        p.push(2000.0, 4.0); // 2 simulated s per wall s
        assert_eq!(p.left_s(10.0), Some(3.0));
        p.push(6000.0, 8.0); // the first point falls out of the window: 1 s per s
        assert_eq!(p.left_s(10.0), None, "one point left");
        p.push(8000.0, 9.0);
        assert_eq!(p.left_s(10.0), Some(2.0));
    }
}
