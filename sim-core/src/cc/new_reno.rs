//! TCP NewReno window management (RFC 5681 §3.1) as ns-3's `TcpNewReno` does it: slow start
//! by segments acknowledged (RFC 3465 ABC, capped at ssthresh), then one segment per window
//! of ACKed segments. Partial-ACK recovery (RFC 6582) and SACK live in the sender.

use super::{CcaConfig, CongestionControl, CongestionKind, Tcb};
use crate::params::{Algorithm, Described};
use crate::rng::SimRng;
use crate::time::SimTime;
use serde::{Deserialize, Serialize};

/// NewReno has no parameters of its own (loss recovery and its options are TCP's).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NewRenoConfig {}

impl Described for NewRenoConfig {
    const INFO: Algorithm = Algorithm {
        tag: "new_reno",
        label: "NewReno",
        help: "Slow start, one segment per window in congestion avoidance, halving on loss (RFC 5681, RFC 6582).",
        fields: &[],
        flavours: &[],
    };
}

impl CcaConfig for NewRenoConfig {
    fn build(&self, _rng: SimRng) -> Result<Box<dyn CongestionControl>, String> {
        Ok(Box::new(NewReno::default()))
    }
}

#[derive(Clone, Debug, Default)]
pub struct NewReno {
    /// Segments acknowledged since the last congestion-avoidance increase.
    cwnd_cnt: u32,
}

impl NewReno {
    /// Slow start: cwnd += segments·MSS, not past ssthresh; returns segments left over.
    pub fn slow_start(tcb: &mut Tcb, segments_acked: u32) -> u32 {
        if segments_acked == 0 {
            return 0;
        }
        let before = tcb.cwnd;
        let grown = (tcb.cwnd as u64 + segments_acked as u64 * tcb.mss as u64).min(tcb.ssthresh as u64);
        tcb.cwnd = grown.max(before as u64) as u32;
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

    #[test]
    fn slow_start_grows_by_segments_acked_but_not_past_ssthresh() {
        let mut t = tcb(10, 12);
        let mut r = NewReno::default();
        r.grow_window(&mut t, 2, SimTime::ZERO);
        assert_eq!(t.cwnd, 12_000);
        r.grow_window(&mut t, 1, SimTime::ZERO);
        assert_eq!(t.cwnd, 12_000); // first CA ack only counts
    }

    #[test]
    fn congestion_avoidance_adds_one_segment_per_window_of_acks() {
        let mut t = tcb(10, 5);
        let mut r = NewReno::default();
        for _ in 0..10 {
            r.grow_window(&mut t, 1, SimTime::ZERO);
        }
        assert_eq!(t.cwnd, 11_000);
    }

    #[test]
    fn ssthresh_is_half_the_flight_with_a_two_segment_floor() {
        let t = tcb(10, 5);
        let mut r = NewReno::default();
        assert_eq!(r.on_congestion(&t, 10_000, CongestionKind::DupAck), 5_000);
        assert_eq!(r.on_congestion(&t, 1_000, CongestionKind::DupAck), 2_000);
    }
}
