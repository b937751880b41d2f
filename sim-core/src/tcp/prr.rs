//! Proportional Rate Reduction (RFC 6937), as ns-3's `TcpPrrRecovery` applies it:
//! during fast recovery cwnd = pipe + sndcnt, where sndcnt spreads the reduction to
//! ssthresh over the ACKs of one round trip.
//!
//! Two rules differ between ns-3 up to 3.44 (the papers' releases) and RFC 9937 (Linux,
//! ns-3-dev after its fixes #1350-#1351); `dupack_credit` picks ns-3.44's:
//! - RecoverFS: the pipe at the start of recovery, or RFC 9937 §6.1's FlightSize less what
//!   SACK had already shown delivered;
//! - DeliveredData: ns-3.44 adds one segment for every duplicate ACK (while prr_delivered
//!   < RecoverFS) on top of the bytes that ACK SACKed, RFC 9937 §6.2 only without SACK.

#[derive(Clone, Debug, Default)]
pub struct Prr {
    /// ns-3.44's rules (see the module doc).
    dupack_credit: bool,
    /// RecoverFS in bytes.
    recover_fs: u64,
    prr_delivered: u64,
    prr_out: u64,
}

impl Prr {
    pub fn new(dupack_credit: bool) -> Prr {
        Prr { dupack_credit, ..Prr::default() }
    }

    /// Starts a recovery episode. `pipe_bytes` is RFC 6675's pipe with the head marked lost;
    /// the others as RFC 9937 §6.1's SACK refinement of RecoverFS names them.
    pub fn enter(
        &mut self,
        pipe_bytes: u64,
        flight_bytes: u64,
        sacked_bytes: u64,
        delivered_bytes: u64,
        mss: u32,
    ) {
        self.prr_delivered = 0;
        self.prr_out = 0;
        let fs = if self.dupack_credit {
            pipe_bytes // ns-3.44 `TcpPrrRecovery::EnterRecovery`: tcb->m_bytesInFlight
        } else {
            (flight_bytes + delivered_bytes).saturating_sub(sacked_bytes)
        };
        self.recover_fs = fs.max(u64::from(mss));
    }

    /// On each ACK in recovery (`dupack`: a duplicate ACK, or the one that started
    /// recovery): returns the new cwnd in bytes.
    pub fn on_ack(
        &mut self,
        mut delivered: u64,
        pipe: u64,
        ssthresh: u64,
        mss: u32,
        safe_ack: bool,
        dupack: bool,
    ) -> Option<u32> {
        if self.dupack_credit && dupack && self.prr_delivered < self.recover_fs {
            delivered += u64::from(mss);
        }
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
        let mut p = Prr::new(false);
        p.enter(19_000, 20_000, 0, 0, 1000);
        p.on_sent(1000); // the fast retransmit
        let mut sent = 1000u64;
        // 20 in flight: 19 originals + the retransmission.
        let mut pipe = 20_000u64;
        for _ in 0..10 {
            pipe -= 1000;
            let cwnd = u64::from(p.on_ack(1000, pipe, 10_000, 1000, false, true).unwrap());
            let allowed = cwnd.saturating_sub(pipe);
            p.on_sent(allowed as u32);
            sent += allowed;
            pipe += allowed;
        }
        assert_eq!(sent, 5000);
    }

    /// Ten duplicate ACKs, one segment each, from a flight of 20 with ssthresh 10: bytes sent
    /// after the fast retransmit.
    fn sent_over_ten_dupacks(dupack_credit: bool) -> u64 {
        let mut p = Prr::new(dupack_credit);
        p.enter(19_000, 20_000, 0, 0, 1000); // pipe 19 with the head marked lost
        p.on_sent(1000);
        let (mut sent, mut pipe) = (0u64, 20_000u64);
        for _ in 0..10 {
            pipe -= 1000;
            let cwnd = u64::from(p.on_ack(1000, pipe, 10_000, 1000, false, true).unwrap());
            let allowed = cwnd.saturating_sub(pipe);
            p.on_sent(allowed as u32);
            sent += allowed;
            pipe += allowed;
        }
        sent
    }

    #[test]
    fn ns3_344_credits_each_dupack_twice_and_keeps_the_flight_during_recovery() {
        // RFC 9937: one segment out per two delivered (ssthresh / RecoverFS = 10 / 20),
        // the fast retransmit counted.
        assert_eq!(sent_over_ten_dupacks(false), 4000);
        // ns-3.44: 2 segments credited per ACK over RecoverFS = pipe = 19 segments, so
        // ceil(2000·k·10 000 / 19 000) bytes by the k-th ACK, less the fast retransmit:
        // nearly what was delivered, so the flight does not shrink until recovery ends.
        assert_eq!(sent_over_ten_dupacks(true), 9527);
    }

    #[test]
    fn below_ssthresh_prr_catches_up_but_not_beyond_ssthresh() {
        let mut p = Prr::new(false);
        p.enter(9_000, 10_000, 0, 0, 1000);
        p.on_sent(1000);
        let cwnd = p.on_ack(3000, 2000, 7000, 1000, false, false).unwrap();
        // limit = max(3000 − 1000, 3000) = 3000 ≤ ssthresh − pipe = 5000
        assert_eq!(cwnd, 5000);
    }
}
