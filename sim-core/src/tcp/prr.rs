//! Proportional Rate Reduction (RFC 6937), as ns-3's `TcpPrrRecovery` applies it:
//! during fast recovery cwnd = pipe + sndcnt, where sndcnt spreads the reduction to
//! ssthresh over the ACKs of one round trip.

#[derive(Clone, Debug, Default)]
pub struct Prr {
    /// RecoverFS: flight at the start of recovery, minus what SACK already showed delivered.
    recover_fs: u64,
    prr_delivered: u64,
    prr_out: u64,
}

impl Prr {
    /// Starts a recovery episode (RFC 6937 §3 / RFC 9937 §6.1, SACK refinement).
    pub fn enter(&mut self, flight_bytes: u64, sacked_bytes: u64, delivered_bytes: u64, mss: u32) {
        self.prr_delivered = 0;
        self.prr_out = 0;
        self.recover_fs = (flight_bytes + delivered_bytes).saturating_sub(sacked_bytes).max(u64::from(mss));
    }

    /// On each ACK in recovery: returns the new cwnd in bytes.
    pub fn on_ack(
        &mut self,
        delivered: u64,
        pipe: u64,
        ssthresh: u64,
        mss: u32,
        safe_ack: bool,
    ) -> Option<u32> {
        if delivered == 0 {
            return None;
        }
        self.prr_delivered += delivered;
        let sndcnt: i64 = if pipe > ssthresh {
            // Proportional part: ceil(prr_delivered · ssthresh / RecoverFS) − prr_out.
            let q = (self.prr_delivered * ssthresh).div_ceil(self.recover_fs.max(1));
            q as i64 - self.prr_out as i64
        } else {
            // PRR-CRB, or PRR-SSRB when the ACK shows the retransmission arrived.
            let mut limit = (self.prr_delivered as i64 - self.prr_out as i64).max(delivered as i64);
            if safe_ack {
                limit += i64::from(mss);
            }
            limit.min(ssthresh as i64 - pipe as i64)
        };
        // The fast retransmit itself always goes out.
        let floor = if self.prr_out > 0 { 0 } else { i64::from(mss) };
        let sndcnt = sndcnt.max(floor).max(0);
        Some((pipe as i64 + sndcnt).clamp(0, i64::from(u32::MAX)) as u32)
    }

    pub fn on_sent(&mut self, bytes: u32) {
        self.prr_out += u64::from(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prr_sends_about_ssthresh_over_recoverfs_per_delivered_segment() {
        // Flight 20 segments, ssthresh 10: one segment out per two delivered.
        let mut p = Prr::default();
        p.enter(20_000, 0, 0, 1000);
        p.on_sent(1000); // the fast retransmit
        let mut sent = 1000u64;
        // 20 in flight: 19 originals + the retransmission.
        let mut pipe = 20_000u64;
        for _ in 0..10 {
            pipe -= 1000;
            let cwnd = u64::from(p.on_ack(1000, pipe, 10_000, 1000, false).unwrap());
            let allowed = cwnd.saturating_sub(pipe);
            p.on_sent(allowed as u32);
            sent += allowed;
            pipe += allowed;
        }
        assert_eq!(sent, 5000);
    }

    #[test]
    fn below_ssthresh_prr_catches_up_but_not_beyond_ssthresh() {
        let mut p = Prr::default();
        p.enter(10_000, 0, 0, 1000);
        p.on_sent(1000);
        let cwnd = p.on_ack(3000, 2000, 7000, 1000, false).unwrap();
        // limit = max(3000 − 1000, 3000) = 3000 ≤ ssthresh − pipe = 5000
        assert_eq!(cwnd, 5000);
    }
}
