//! TCP NewReno window management (RFC 5681 §3.1) as ns-3's `TcpNewReno` does it. Partial-ACK
//! recovery (RFC 6582) and SACK live in the sender.
//!
//! Two growth rules, chosen by [`NewRenoConfig::count_segments`]:
//!
//! - **Per ACK** (default): released ns-3 up to 3.44, which the papers ran (the RED study
//!   names 3.41). Slow start adds one MSS per ACK and congestion avoidance
//!   max(1, MSS²/cwnd) bytes per ACK, however many segments the ACK covers (RFC 5681 eq. 2
//!   and 3 with the per-ACK reading). With delayed ACKs (one ACK per two segments) the
//!   window grows half as fast as the segment count would say.
//! - **Per segment acknowledged**: ns-3-dev after 3.44 and Linux (RFC 3465 appropriate byte
//!   counting, L = ∞ in slow start but capped at ssthresh; one MSS per cwnd's worth of
//!   acknowledged segments in congestion avoidance).

use super::{CcaConfig, CongestionControl, CongestionKind, Tcb};
use crate::params::{Algorithm, Described, Field, Kind};
use crate::rng::SimRng;
use crate::time::SimTime;
use serde::{Deserialize, Serialize};

/// NewReno's one parameter is its growth rule (loss recovery and its options are TCP's).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NewRenoConfig {
    /// Grow by the segments each ACK acknowledges (ns-3-dev, Linux) instead of once per ACK
    /// (ns-3 ≤ 3.44, the default: what the papers ran).
    pub count_segments: bool,
}

impl Described for NewRenoConfig {
    const INFO: Algorithm = Algorithm {
        tag: "new_reno",
        label: "NewReno",
        help: "Slow start, one segment per window in congestion avoidance, halving on loss (RFC 5681, RFC 6582).",
        fields: &[Field::new(
            "count_segments",
            "Count segments acknowledged",
            "",
            Kind::Bool,
            "Grow by the segments each ACK covers (ns-3-dev, Linux); off = once per ACK (ns-3 ≤ 3.44, the papers').",
        )],
        flavours: &[],
    };
}

impl CcaConfig for NewRenoConfig {
    fn build(&self, _rng: SimRng) -> Result<Box<dyn CongestionControl>, String> {
        Ok(Box::new(NewReno::new(self.count_segments)))
    }
}

#[derive(Clone, Debug, Default)]
pub struct NewReno {
    /// Segments acknowledged since the last congestion-avoidance increase.
    cwnd_cnt: u32,
    /// Grow by segments acknowledged rather than once per ACK.
    count_segments: bool,
}

impl NewReno {
    pub fn new(count_segments: bool) -> NewReno {
        NewReno { cwnd_cnt: 0, count_segments }
    }

    /// ns-3 ≤ 3.44 `TcpNewReno::SlowStart`: one MSS for an ACK of at least one segment, not
    /// capped at ssthresh; returns the segments left over (one fewer than acknowledged).
    pub fn slow_start_per_ack(tcb: &mut Tcb, segments_acked: u32) -> u32 {
        if segments_acked == 0 {
            return 0;
        }
        tcb.cwnd = tcb.cwnd.saturating_add(tcb.mss);
        segments_acked - 1
    }

    /// ns-3 ≤ 3.44 `TcpNewReno::CongestionAvoidance`: max(1, MSS²/cwnd) bytes per ACK,
    /// truncated to whole bytes.
    pub fn congestion_avoidance_per_ack(tcb: &mut Tcb, segments_acked: u32) {
        if segments_acked == 0 {
            return;
        }
        let mss = f64::from(tcb.mss);
        let adder = (mss * mss / f64::from(tcb.cwnd.max(1))).max(1.0);
        tcb.cwnd = tcb.cwnd.saturating_add(adder as u32);
    }

    /// Slow start: cwnd += segments·MSS, not past ssthresh; returns segments left over.
    pub fn slow_start(tcb: &mut Tcb, segments_acked: u32) -> u32 {
        if segments_acked == 0 {
            return 0;
        }
        let before = tcb.cwnd;
        let grown = (u64::from(tcb.cwnd) + u64::from(segments_acked) * u64::from(tcb.mss))
            .min(u64::from(tcb.ssthresh));
        tcb.cwnd = grown.max(u64::from(before)) as u32;
        segments_acked - (tcb.cwnd - before) / tcb.mss
    }

    /// Congestion avoidance: one MSS per cwnd's worth of acknowledged segments (RFC 5681 eq. 3).
    pub fn congestion_avoidance(&mut self, tcb: &mut Tcb, segments_acked: u32) {
        let w = tcb.cwnd_segments().max(1);
        if self.cwnd_cnt >= w {
            self.cwnd_cnt = 0;
            tcb.cwnd = tcb.cwnd.saturating_add(tcb.mss);
        }
        self.cwnd_cnt += segments_acked;
        if self.cwnd_cnt >= w {
            let delta = self.cwnd_cnt / w;
            self.cwnd_cnt -= delta * w;
            tcb.cwnd = tcb.cwnd.saturating_add(delta.saturating_mul(tcb.mss));
        }
    }
}

impl CongestionControl for NewReno {
    fn grow_window(&mut self, tcb: &mut Tcb, mut segments_acked: u32, _now: SimTime) {
        if !self.count_segments {
            if tcb.cwnd < tcb.ssthresh {
                segments_acked = Self::slow_start_per_ack(tcb, segments_acked);
            }
            if tcb.cwnd >= tcb.ssthresh {
                Self::congestion_avoidance_per_ack(tcb, segments_acked);
            }
            return;
        }
        if tcb.cwnd < tcb.ssthresh {
            segments_acked = Self::slow_start(tcb, segments_acked);
        }
        if tcb.cwnd >= tcb.ssthresh {
            self.congestion_avoidance(tcb, segments_acked);
        }
    }

    /// ssthresh = max(FlightSize / 2, 2·SMSS) (RFC 5681 eq. 4).
    fn on_congestion(&mut self, tcb: &Tcb, bytes_in_flight: u32, _kind: CongestionKind) -> u32 {
        (bytes_in_flight / 2).max(2 * tcb.mss)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::cc::CongState;

    pub fn tcb(cwnd_segs: u32, ssthresh_segs: u32) -> Tcb {
        Tcb {
            cwnd: cwnd_segs * 1000,
            ssthresh: ssthresh_segs * 1000,
            mss: 1000,
            state: CongState::Open,
            bytes_in_flight: cwnd_segs * 1000,
            high_tx: 0,
            last_acked: 0,
            cwnd_limited: true,
            srtt: None,
            min_rtt: None,
        }
    }

    fn counting() -> NewReno {
        NewReno::new(true)
    }

    #[test]
    fn slow_start_grows_by_segments_acked_but_not_past_ssthresh() {
        let mut t = tcb(10, 12);
        let mut r = counting();
        r.grow_window(&mut t, 2, SimTime::ZERO);
        assert_eq!(t.cwnd, 12_000);
        r.grow_window(&mut t, 1, SimTime::ZERO);
        assert_eq!(t.cwnd, 12_000); // first CA ack only counts
    }

    #[test]
    fn congestion_avoidance_adds_one_segment_per_window_of_acks() {
        let mut t = tcb(10, 5);
        let mut r = counting();
        for _ in 0..10 {
            r.grow_window(&mut t, 1, SimTime::ZERO);
        }
        assert_eq!(t.cwnd, 11_000);
    }

    #[test]
    fn ns3_slow_start_adds_one_segment_per_ack_whatever_it_covers() {
        // ns-3 ≤ 3.44: a delayed ACK of two segments grows cwnd by one MSS, not two.
        let mut t = tcb(10, 100);
        let mut r = NewReno::default();
        r.grow_window(&mut t, 2, SimTime::ZERO);
        assert_eq!(t.cwnd, 11_000);
        // Counting segments (ns-3-dev, Linux) grows by two.
        let mut t = tcb(10, 100);
        counting().grow_window(&mut t, 2, SimTime::ZERO);
        assert_eq!(t.cwnd, 12_000);
    }

    #[test]
    fn ns3_slow_start_may_overshoot_ssthresh_then_adds_the_ca_increment() {
        // cwnd 11.5 segments, ssthresh 12: +1 MSS (no cap) and, with a segment left over,
        // one congestion-avoidance step of MSS²/cwnd = 1e6 / 12_500 = 80 bytes.
        let mut t = tcb(10, 12);
        t.cwnd = 11_500;
        NewReno::default().grow_window(&mut t, 2, SimTime::ZERO);
        assert_eq!(t.cwnd, 12_500 + 80);
    }

    #[test]
    fn ns3_congestion_avoidance_adds_mss_squared_over_cwnd_per_ack() {
        // Twenty delayed ACKs of two segments each from cwnd 10 segments: about 95 bytes
        // each, under two MSS in all; counting the forty segments gives three.
        let mut t = tcb(10, 5);
        let mut r = NewReno::default();
        for _ in 0..20 {
            r.grow_window(&mut t, 2, SimTime::ZERO);
        }
        assert!((11_800..12_000).contains(&t.cwnd), "cwnd {}", t.cwnd);
        let mut t = tcb(10, 5);
        let mut r = counting();
        for _ in 0..20 {
            r.grow_window(&mut t, 2, SimTime::ZERO);
        }
        assert_eq!(t.cwnd, 13_000);
    }

    #[test]
    fn ssthresh_is_half_the_flight_with_a_two_segment_floor() {
        let t = tcb(10, 5);
        let mut r = NewReno::default();
        assert_eq!(r.on_congestion(&t, 10_000, CongestionKind::DupAck), 5_000);
        assert_eq!(r.on_congestion(&t, 1_000, CongestionKind::DupAck), 2_000);
    }
}
