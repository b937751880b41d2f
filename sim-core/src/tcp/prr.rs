//! Proportional Rate Reduction (RFC 6937): during fast recovery cwnd = pipe + sndcnt,
//! where sndcnt spreads the reduction to ssthresh over the ACKs of one round trip.
//!
//! [`PrrRules::Ns3`] follows ns-3.44's `TcpPrrRecovery` (ns-3.42 to 3.44, RFC 6937bis-08),
//! which the papers' ns-3 releases ran, [`PrrRules::Rfc9937`] the RFC (as Linux and ns-3-dev
//! after its fixes #1282, #1350 and #1351). Where they part ways:
//! - RecoverFS: ns-3.44 takes the pipe at the start of recovery; RFC 9937 §6.1 the
//!   FlightSize less what SACK had already shown delivered.
//! - DeliveredData: ns-3.44 credits one more segment for every duplicate ACK (while
//!   prr_delivered < RecoverFS) on top of the bytes that ACK SACKed; RFC 9937 §6.2 does so
//!   only without SACK. So ns-3.44 sends about as much as is delivered while pipe > ssthresh
//!   and the window drops to ssthresh only when recovery ends.
//! - Arithmetic: ns-3.44 multiplies prr_delivered by ssthresh (both in bytes) in 32 bits, so
//!   the product wraps past 4 GiB (at MSS 1448, within the first few ACKs of a 400-segment
//!   window's recovery) and the proportional part then sends nothing; and prr_delivered −
//!   prr_out wraps when more was sent than delivered, so PRR-CRB then sends nothing either.
//!   Both reproduced here.

use serde::{Deserialize, Serialize};

/// Which PRR (see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrrRules {
    /// ns-3.44 `TcpPrrRecovery`, its 32-bit arithmetic included.
    #[default]
    Ns3,
    /// RFC 9937 §6 with SACK (Linux's `tcp_cwnd_reduction`).
    Rfc9937,
}

#[derive(Clone, Debug, Default)]
pub struct Prr {
    rules: PrrRules,
    /// RecoverFS in bytes.
    recover_fs: u64,
    prr_delivered: u64,
    prr_out: u64,
}

impl Prr {
    pub fn new(rules: PrrRules) -> Prr {
        Prr { rules, ..Prr::default() }
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
        let fs = match self.rules {
            PrrRules::Ns3 => pipe_bytes, // `EnterRecovery`: tcb->m_bytesInFlight
            PrrRules::Rfc9937 => (flight_bytes + delivered_bytes).saturating_sub(sacked_bytes),
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
        let ns3 = self.rules == PrrRules::Ns3;
        if ns3 && dupack && self.prr_delivered < self.recover_fs {
            delivered += u64::from(mss);
        }
        if delivered == 0 {
            return None;
        }
        self.prr_delivered += delivered;
        let sndcnt = if ns3 {
            self.ns3_send_count(delivered, pipe, ssthresh, mss, safe_ack)
        } else {
            self.send_count(delivered, pipe, ssthresh, mss, safe_ack)
        };
        // The fast retransmit itself always goes out.
        let floor = if self.prr_out > 0 { 0 } else { i64::from(mss) };
        let sndcnt = sndcnt.max(floor).max(0);
        Some((pipe as i64 + sndcnt).clamp(0, i64::from(u32::MAX)) as u32)
    }

    /// RFC 9937 §6.3.
    fn send_count(&self, delivered: u64, pipe: u64, ssthresh: u64, mss: u32, safe_ack: bool) -> i64 {
        if pipe > ssthresh {
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
        }
    }

    /// ns-3.44 `TcpPrrRecovery::DoRecovery`, in its types: u32 counters, an int result.
    #[allow(clippy::cast_possible_wrap)]
    fn ns3_send_count(&self, delivered: u64, pipe: u64, ssthresh: u64, mss: u32, safe_ack: bool) -> i64 {
        let (delivered_total, out) = (self.prr_delivered as u32, self.prr_out as u32);
        let (ssthresh, pipe, delivered) = (ssthresh as u32, pipe as u32, delivered as u32);
        if pipe > ssthresh {
            // `std::ceil(m_prrDelivered * tcb->m_ssThresh * 1.0 / m_recoveryFlightSize) - m_prrOut`:
            // the product is taken in 32 bits before the conversion to double.
            let product = delivered_total.wrapping_mul(ssthresh);
            (f64::from(product) / self.recover_fs as f64).ceil() as i64 - i64::from(out)
        } else {
            // `int limit = std::max(m_prrDelivered - m_prrOut, deliveredBytes)`: an unsigned
            // difference, so a deficit wraps to a huge value that wins the max and comes back
            // negative as an int.
            let mut limit = delivered_total.wrapping_sub(out).max(delivered) as i32;
            if safe_ack {
                limit = limit.wrapping_add(mss as i32);
            }
            i64::from(limit.min(ssthresh.wrapping_sub(pipe) as i32))
        }
    }

    pub fn on_sent(&mut self, bytes: u32) {
        self.prr_out += u64::from(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ten duplicate ACKs, one segment each, from a flight of 20 with ssthresh 10: bytes sent
    /// after the fast retransmit.
    fn sent_over_ten_dupacks(rules: PrrRules) -> u64 {
        let mut p = Prr::new(rules);
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
        assert_eq!(sent_over_ten_dupacks(PrrRules::Rfc9937), 4000);
        // ns-3.44: 2 segments credited per ACK over RecoverFS = pipe = 19 segments, so
        // ceil(2000·k·10 000 / 19 000) bytes by the k-th ACK, less the fast retransmit:
        // nearly what was delivered, so the flight does not shrink until recovery ends.
        assert_eq!(sent_over_ten_dupacks(PrrRules::Ns3), 9527);
    }

    #[test]
    fn ns3_344_sends_nothing_once_its_32_bit_product_wraps() {
        // A 400-segment window at MSS 1448 (ns-3 #1282): ssthresh 280 segments, one segment
        // SACKed per duplicate ACK. RFC 9937 sends 0.7 segments per ACK; ns-3.44's
        // prr_delivered · ssthresh (2 segments credited per ACK) passes 2^32 at the 4th ACK
        // and from then on the proportional part asks for less than was already sent.
        let mss = 1448u32;
        let seg = u64::from(mss);
        let sent = |rules| {
            let mut p = Prr::new(rules);
            p.enter(399 * seg, 400 * seg, 0, 0, mss);
            p.on_sent(mss);
            let (mut sent, mut pipe) = (0u64, 400 * seg);
            for _ in 0..40 {
                pipe -= seg;
                let cwnd = u64::from(p.on_ack(seg, pipe, 280 * seg, mss, false, true).unwrap());
                let allowed = cwnd.saturating_sub(pipe);
                p.on_sent(allowed as u32);
                sent += allowed;
                pipe += allowed;
            }
            sent / seg
        };
        assert_eq!(sent(PrrRules::Rfc9937), 27);
        assert_eq!(sent(PrrRules::Ns3), 3);
    }

    #[test]
    fn ns3_344_crb_sends_nothing_when_more_went_out_than_came_back() {
        let mut p = Prr::new(PrrRules::Ns3);
        p.enter(10_000, 10_000, 0, 0, 1000);
        p.on_sent(5000); // prr_out 5000 > prr_delivered after the next ACK
                         // pipe 6000 ≤ ssthresh 7000: RFC 9937 would send min(max(-4000, 1000), 1000) = 1000.
        assert_eq!(p.on_ack(1000, 6000, 7000, 1000, false, false), Some(6000));
        let mut r = Prr::new(PrrRules::Rfc9937);
        r.enter(10_000, 10_000, 0, 0, 1000);
        r.on_sent(5000);
        assert_eq!(r.on_ack(1000, 6000, 7000, 1000, false, false), Some(7000));
    }

    #[test]
    fn below_ssthresh_prr_catches_up_but_not_beyond_ssthresh() {
        let mut p = Prr::new(PrrRules::Rfc9937);
        p.enter(9_000, 10_000, 0, 0, 1000);
        p.on_sent(1000);
        let cwnd = p.on_ack(3000, 2000, 7000, 1000, false, false).unwrap();
        // limit = max(3000 − 1000, 3000) = 3000 ≤ ssthresh − pipe = 5000
        assert_eq!(cwnd, 5000);
    }
}
