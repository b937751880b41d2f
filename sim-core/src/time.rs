//! Simulation time and rates.
//!
//! Time is an integer count of nanoseconds so that event ordering never depends on
//! floating-point rounding; `as_secs_f64()` exists only for maths and reporting.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// A point in simulated time, in nanoseconds since the start of the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SimTime(pub u64);

/// A span of simulated time, in nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SimDuration(pub u64);

/// A link or sending rate in bits per second.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Rate(pub u64);

pub const NANOS_PER_SEC: u64 = 1_000_000_000;

impl SimTime {
    pub const ZERO: SimTime = SimTime(0);
    pub const MAX: SimTime = SimTime(u64::MAX);

    pub fn from_secs_f64(s: f64) -> SimTime {
        SimTime(secs_to_nanos(s))
    }
    pub fn as_nanos(self) -> u64 {
        self.0
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / NANOS_PER_SEC as f64
    }
    /// Whole milliseconds, as a TCP timestamp clock with 1 ms granularity reads it.
    pub fn as_millis(self) -> u64 {
        self.0 / 1_000_000
    }
    pub fn saturating_sub(self, other: SimTime) -> SimDuration {
        SimDuration(self.0.saturating_sub(other.0))
    }
}

impl SimDuration {
    pub const ZERO: SimDuration = SimDuration(0);

    pub fn from_secs_f64(s: f64) -> SimDuration {
        SimDuration(secs_to_nanos(s))
    }
    pub fn from_millis(ms: u64) -> SimDuration {
        SimDuration(ms * 1_000_000)
    }
    pub fn from_micros(us: u64) -> SimDuration {
        SimDuration(us * 1_000)
    }
    pub fn from_secs(s: u64) -> SimDuration {
        SimDuration(s * NANOS_PER_SEC)
    }
    pub fn as_nanos(self) -> u64 {
        self.0
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / NANOS_PER_SEC as f64
    }
    /// Saturating, unlike `std::ops::Mul` would be expected to be.
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, k: u64) -> SimDuration {
        SimDuration(self.0.saturating_mul(k))
    }
}

fn secs_to_nanos(s: f64) -> u64 {
    if s <= 0.0 || !s.is_finite() {
        0
    } else {
        (s * NANOS_PER_SEC as f64).round() as u64
    }
}

impl Rate {
    pub fn bps(self) -> u64 {
        self.0
    }
    /// Time to serialise `bytes` onto a link of this rate, rounded up to whole nanoseconds.
    pub fn tx_time(self, bytes: u32) -> SimDuration {
        if self.0 == 0 {
            return SimDuration(u64::MAX / 4);
        }
        match u64::from(bytes).checked_mul(8 * NANOS_PER_SEC) {
            Some(bits) => SimDuration(bits.div_ceil(self.0)),
            None => SimDuration(
                (u128::from(bytes) * 8 * u128::from(NANOS_PER_SEC)).div_ceil(u128::from(self.0)) as u64,
            ),
        }
    }
}

impl Add<SimDuration> for SimTime {
    type Output = SimTime;
    fn add(self, d: SimDuration) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }
}
impl AddAssign<SimDuration> for SimTime {
    fn add_assign(&mut self, d: SimDuration) {
        self.0 = self.0.saturating_add(d.0);
    }
}
impl Sub for SimTime {
    type Output = SimDuration;
    fn sub(self, o: SimTime) -> SimDuration {
        SimDuration(self.0 - o.0)
    }
}
impl Add for SimDuration {
    type Output = SimDuration;
    fn add(self, o: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_add(o.0))
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.6}s", self.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tx_time_of_a_512_byte_segment_at_2_mbps_is_exact() {
        // 566 bytes on the wire at 2 Mbit/s = 2.264 ms.
        assert_eq!(Rate(2_000_000).tx_time(566), SimDuration(2_264_000));
    }

    #[test]
    fn tx_time_rounds_up_to_the_next_nanosecond() {
        assert_eq!(Rate(3).tx_time(1), SimDuration(2_666_666_667));
    }
}
