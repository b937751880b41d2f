//! RTT estimation and the retransmission timeout (RFC 6298).

use crate::time::SimDuration;

#[derive(Clone, Debug)]
pub struct RttEstimator {
    srtt: Option<SimDuration>,
    rttvar: SimDuration,
    min_rtt: Option<SimDuration>,
    latest: Option<SimDuration>,
    min_rto: SimDuration,
    max_rto: SimDuration,
    initial_rto: SimDuration,
    granularity: SimDuration,
    /// Times the timer has been doubled since the last valid sample (RFC 6298 (5.5)).
    backoff: u32,
}

impl RttEstimator {
    pub fn new(
        min_rto: SimDuration,
        initial_rto: SimDuration,
        max_rto: SimDuration,
        granularity: SimDuration,
    ) -> Self {
        RttEstimator {
            srtt: None,
            rttvar: SimDuration::ZERO,
            min_rtt: None,
            latest: None,
            min_rto,
            max_rto,
            initial_rto,
            granularity,
            backoff: 0,
        }
    }

    /// Folds in a valid sample (RFC 6298 (2.2)/(2.3), α = 1/8, β = 1/4) and, per Karn's
    /// algorithm, clears the backoff: only unambiguous samples reach this point.
    pub fn sample(&mut self, r: SimDuration) {
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = SimDuration(r.0 / 2);
            }
            Some(s) => {
                let err = s.0.abs_diff(r.0);
                self.rttvar = SimDuration((3 * self.rttvar.0 + err) / 4);
                self.srtt = Some(SimDuration((7 * s.0 + r.0) / 8));
            }
        }
        self.min_rtt = Some(self.min_rtt.map_or(r, |m| m.min(r)));
        self.latest = Some(r);
        self.backoff = 0;
    }

    /// RTO = max(min_rto, SRTT + max(G, 4·RTTVAR)), doubled per backoff, capped at max_rto.
    pub fn rto(&self) -> SimDuration {
        let base = match self.srtt {
            None => self.initial_rto,
            Some(s) => SimDuration(s.0 + self.granularity.0.max(4 * self.rttvar.0)).max(self.min_rto),
        };
        let backed = base.0.saturating_mul(1u64 << self.backoff.min(32));
        SimDuration(backed.min(self.max_rto.0))
    }

    /// RFC 6298 (5.5): the timer expired, double it.
    pub fn back_off(&mut self) {
        if self.rto() < self.max_rto {
            self.backoff += 1;
        }
    }

    /// Forgets the backoff without a sample (ns-3 recomputes the RTO on every new ACK).
    pub fn clear_backoff(&mut self) {
        self.backoff = 0;
    }

    pub fn backoff(&self) -> u32 {
        self.backoff
    }
    pub fn srtt(&self) -> Option<SimDuration> {
        self.srtt
    }
    pub fn min_rtt(&self) -> Option<SimDuration> {
        self.min_rtt
    }
    pub fn latest(&self) -> Option<SimDuration> {
        self.latest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est() -> RttEstimator {
        RttEstimator::new(
            SimDuration::from_secs(1),
            SimDuration::from_secs(1),
            SimDuration::from_secs(60),
            SimDuration::from_millis(1),
        )
    }

    #[test]
    fn first_sample_sets_srtt_and_half_of_it_as_rttvar() {
        let mut e = est();
        e.sample(SimDuration::from_millis(100));
        assert_eq!(e.srtt(), Some(SimDuration::from_millis(100)));
        assert_eq!(e.rttvar, SimDuration::from_millis(50));
    }

    #[test]
    fn rto_never_goes_below_the_minimum() {
        let mut e = est();
        e.sample(SimDuration::from_millis(20));
        assert_eq!(e.rto(), SimDuration::from_secs(1));
    }

    #[test]
    fn rto_doubles_on_each_backoff_up_to_the_maximum() {
        let mut e = est();
        for k in 0..10 {
            assert_eq!(e.rto(), SimDuration::from_secs((1u64 << k).min(60)));
            e.back_off();
        }
        assert_eq!(e.rto(), SimDuration::from_secs(60));
    }

    #[test]
    fn a_valid_sample_clears_the_backoff() {
        let mut e = est();
        e.back_off();
        e.back_off();
        e.sample(SimDuration::from_millis(30));
        assert_eq!(e.rto(), SimDuration::from_secs(1));
    }

    #[test]
    fn clear_backoff_restores_the_rto_without_a_sample() {
        let mut e = est();
        e.sample(SimDuration::from_millis(30));
        e.back_off();
        assert_eq!(e.rto(), SimDuration::from_secs(2));
        e.clear_backoff();
        assert_eq!(e.rto(), SimDuration::from_secs(1));
        assert_eq!(e.latest(), Some(SimDuration::from_millis(30)));
    }

    #[test]
    fn smoothing_follows_rfc6298_gains() {
        let mut e = est();
        e.sample(SimDuration::from_millis(100));
        e.sample(SimDuration::from_millis(200));
        // rttvar = 3/4·50 + 1/4·100 = 62.5 ms; srtt = 7/8·100 + 1/8·200 = 112.5 ms
        assert_eq!(e.rttvar, SimDuration(62_500_000));
        assert_eq!(e.srtt(), Some(SimDuration(112_500_000)));
    }
}
