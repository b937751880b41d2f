//! BBR's two path-model filters.
//!
//! - [`MaxFilter`]: the windowed maximum of delivery-rate samples over a window of packet-timed
//!   round trips (draft-cardwell-iccrg-bbr-congestion-control-00 §4.1.1.2 and §4.1.1.5,
//!   BBR.BtlBwFilter). It is Kathleen Nichols' three-sample running max, as Linux
//!   `lib/win_minmax.c` and ns-3's `WindowedFilter` implement it: it keeps the best, second-
//!   and third-best samples from successive sub-windows so an expired maximum is replaced by
//!   the best later sample without storing every sample.
//! - [`MinRttFilter`]: the windowed minimum of RTT samples over wall-clock time (draft §4.1.2.2-§4.1.2.3,
//!   BBR.RTprop with RTpropFilterLen): a lower sample replaces the estimate at once; once the
//!   estimate is older than the window, the next sample replaces it whatever its value. Its
//!   age is what schedules ProbeRTT, so unlike the max filter it deliberately does not keep
//!   runner-up samples (as Linux `tcp_bbr.c` `bbr_update_min_rtt` and ns-3 `UpdateRTprop`).

use crate::time::{SimDuration, SimTime};

#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Sample {
    t: u64,
    v: f64,
}

/// Windowed running maximum over a window measured in an integer clock (BBR: round count).
#[derive(Clone, Debug, PartialEq)]
pub struct MaxFilter {
    window: u64,
    s: [Sample; 3],
}

impl MaxFilter {
    /// A filter whose samples expire once more than `window` ticks old.
    pub fn new(window: u64) -> MaxFilter {
        MaxFilter { window, s: [Sample::default(); 3] }
    }

    /// The current maximum (0 before any sample).
    pub fn best(&self) -> f64 {
        self.s[0].v
    }

    /// Forget everything and start over from `v` at time `t`.
    pub fn reset(&mut self, t: u64, v: f64) -> f64 {
        self.s = [Sample { t, v }; 3];
        v
    }

    /// Adds sample `v` taken at time `t` (non-decreasing); returns the new maximum
    /// (`minmax_running_max`).
    pub fn update(&mut self, t: u64, v: f64) -> f64 {
        let val = Sample { t, v };
        // A new maximum, or nothing left in the window: forget earlier samples.
        if v >= self.s[0].v || t.saturating_sub(self.s[2].t) > self.window {
            return self.reset(t, v);
        }
        if v >= self.s[1].v {
            self.s[2] = val;
            self.s[1] = val;
        } else if v >= self.s[2].v {
            self.s[2] = val;
        }
        self.subwindow_update(val)
    }

    /// Keeps the three samples spread over the window (`minmax_subwin_update`).
    fn subwindow_update(&mut self, val: Sample) -> f64 {
        let dt = val.t.saturating_sub(self.s[0].t);
        if dt > self.window {
            // The best sample left the window: promote the 2nd and 3rd choices. The 2nd may
            // be out of the window too (the 3rd was checked on entry), so once more.
            self.s[0] = self.s[1];
            self.s[1] = self.s[2];
            self.s[2] = val;
            if val.t.saturating_sub(self.s[0].t) > self.window {
                self.s[0] = self.s[1];
                self.s[1] = self.s[2];
                self.s[2] = val;
            }
        } else if self.s[1].t == self.s[0].t && dt > self.window / 4 {
            // A quarter of the window without a new best: take a 2nd choice from the 2nd quarter.
            self.s[2] = val;
            self.s[1] = val;
        } else if self.s[2].t == self.s[1].t && dt > self.window / 2 {
            // Half the window without one: take a 3rd choice from the last half.
            self.s[2] = val;
        }
        self.s[0].v
    }
}

/// Windowed minimum RTT over time, with the age that schedules ProbeRTT.
#[derive(Clone, Debug, PartialEq)]
pub struct MinRttFilter {
    window: SimDuration,
    /// A sample equal to the estimate refreshes its time stamp (draft/ns-3: `<=`); Linux
    /// accepts only strictly lower samples (`<`).
    refresh_on_equal: bool,
    value: Option<SimDuration>,
    stamp: SimTime,
}

impl MinRttFilter {
    pub fn new(window: SimDuration, refresh_on_equal: bool) -> MinRttFilter {
        MinRttFilter { window, refresh_on_equal, value: None, stamp: SimTime::ZERO }
    }

    pub fn value(&self) -> Option<SimDuration> {
        self.value
    }

    /// When the current estimate was taken (or last refreshed).
    pub fn stamp(&self) -> SimTime {
        self.stamp
    }

    /// True once the estimate is older than the window (draft §4.1.2.3: rtprop_expired);
    /// never before the first sample.
    pub fn is_expired(&self, now: SimTime) -> bool {
        self.value.is_some() && now > self.stamp + self.window
    }

    /// Adds an RTT sample; returns whether the estimate had expired before it (the caller
    /// enters ProbeRTT on that, draft §4.3.5).
    pub fn update(&mut self, rtt: Option<SimDuration>, now: SimTime) -> bool {
        let expired = self.is_expired(now);
        if let Some(rtt) = rtt {
            let better = match self.value {
                None => true,
                Some(v) => rtt < v || (self.refresh_on_equal && rtt == v),
            };
            if better || expired {
                self.value = Some(rtt);
                self.stamp = now;
            }
        }
        expired
    }

    /// Restarts the window without a new sample (ProbeRTT done: "wait a while until the next").
    pub fn refresh(&mut self, now: SimTime) {
        self.stamp = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_filter_keeps_the_largest_sample_within_the_window() {
        let mut f = MaxFilter::new(10);
        f.update(0, 5.0);
        f.update(1, 9.0);
        for t in 2..=11 {
            assert_eq!(f.update(t, 3.0), 9.0, "round {t}");
        }
    }

    #[test]
    fn max_filter_forgets_samples_older_than_window() {
        let mut f = MaxFilter::new(10);
        f.update(0, 100.0);
        for t in 1..=10 {
            assert_eq!(f.update(t, 50.0), 100.0, "round {t}");
        }
        // Round 11 is more than 10 rounds after the 100: it is gone.
        assert_eq!(f.update(11, 50.0), 50.0);
    }

    #[test]
    fn max_filter_falls_back_to_the_best_later_sample_when_the_max_expires() {
        let mut f = MaxFilter::new(10);
        f.update(0, 100.0);
        f.update(3, 80.0); // 2nd choice (after a quarter of the window)
        f.update(6, 60.0); // 3rd choice (after half of it)
        for t in 7..=10 {
            f.update(t, 10.0);
        }
        assert_eq!(f.update(11, 10.0), 80.0);
        assert_eq!(f.update(14, 10.0), 60.0);
    }

    #[test]
    fn max_filter_takes_a_new_maximum_at_once() {
        let mut f = MaxFilter::new(10);
        f.update(0, 10.0);
        assert_eq!(f.update(1, 20.0), 20.0);
        assert_eq!(f.best(), 20.0);
    }

    #[test]
    fn max_filter_restarts_when_nothing_is_left_in_the_window() {
        let mut f = MaxFilter::new(10);
        f.update(0, 100.0);
        assert_eq!(f.update(50, 1.0), 1.0);
    }

    fn ms(v: u64) -> SimDuration {
        SimDuration::from_millis(v)
    }

    fn at(s: f64) -> SimTime {
        SimTime::from_secs_f64(s)
    }

    #[test]
    fn min_filter_takes_a_lower_sample_at_once_and_ignores_higher_ones() {
        let mut f = MinRttFilter::new(SimDuration::from_secs(10), false);
        f.update(Some(ms(20)), at(0.0));
        f.update(Some(ms(30)), at(1.0));
        assert_eq!(f.value(), Some(ms(20)));
        f.update(Some(ms(15)), at(2.0));
        assert_eq!(f.value(), Some(ms(15)));
        assert_eq!(f.stamp(), at(2.0));
    }

    #[test]
    fn min_filter_forgets_samples_older_than_window() {
        let mut f = MinRttFilter::new(SimDuration::from_secs(10), false);
        f.update(Some(ms(10)), at(0.0));
        assert!(!f.update(Some(ms(40)), at(10.0)));
        assert_eq!(f.value(), Some(ms(10)));
        // More than 10 s later the old minimum has expired: a higher sample replaces it.
        assert!(f.update(Some(ms(40)), at(10.001)));
        assert_eq!(f.value(), Some(ms(40)));
        assert!(!f.is_expired(at(10.5)));
    }

    #[test]
    fn an_empty_min_filter_never_counts_as_expired() {
        let mut f = MinRttFilter::new(SimDuration::from_secs(10), false);
        assert!(!f.update(None, at(30.0)));
        assert!(!f.update(Some(ms(10)), at(40.0)));
        assert_eq!(f.value(), Some(ms(10)));
    }

    #[test]
    fn min_filter_refreshes_on_an_equal_sample_only_when_configured() {
        let mut strict = MinRttFilter::new(SimDuration::from_secs(10), false);
        let mut loose = MinRttFilter::new(SimDuration::from_secs(10), true);
        for f in [&mut strict, &mut loose] {
            f.update(Some(ms(10)), at(0.0));
            f.update(Some(ms(10)), at(5.0));
        }
        assert_eq!(strict.stamp(), at(0.0));
        assert_eq!(loose.stamp(), at(5.0));
    }
}
