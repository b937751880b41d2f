//! The sender's ECN (RFC 3168 §6.1, RFC 8257): what it asks for at the handshake, how its
//! data segments are marked, and the once-per-round-trip reduction an echo starts.

use super::TcpSender;
use crate::cc::{CongState, CongestionKind};
use crate::net::{Ecn, Packet, TcpEcnFlags};
use crate::time::SimTime;

impl TcpSender {
    /// Asks for classic ECN at the handshake (its flow group's switch).
    pub fn set_classic_ecn(&mut self, on: bool) {
        self.classic_ecn = on;
    }

    /// The codepoint its data would carry on an ECN connection: the congestion control's
    /// own (DCTCP ECT(0), Prague ECT(1)), else ECT(0) for classic ECN; `None` = not asked.
    pub(super) fn ecn_codepoint(&self) -> Option<Ecn> {
        self.cc.ecn_codepoint().or(self.classic_ecn.then_some(Ecn::Ect0))
    }

    /// Whether ECN was agreed at the handshake.
    pub fn ecn_on(&self) -> bool {
        self.ecn_on
    }

    /// The ECN marks of a data segment about to leave on an ECN connection.
    pub(super) fn stamp_ecn(&mut self, segment: &mut Packet, retransmission: bool) {
        if !self.ecn_on {
            return;
        }
        // RFC 3168 §6.1.5: classic ECN leaves retransmissions Not-ECT; DCTCP and Prague
        // send every segment ECT (Linux `INET_ECN_xmit` for `tcp_ca_needs_ecn`).
        let scalable = self.cc.ecn_codepoint().is_some();
        if let Some(cp) = self.ecn_codepoint().filter(|_| scalable || !retransmission) {
            segment.ecn = cp;
        }
        // §6.1.2: CWR on the first new segment after the reduction.
        if self.cwr_pending && !retransmission {
            segment.tcp_ecn = TcpEcnFlags::new(false, true);
            self.cwr_pending = false;
        }
    }

    /// RFC 3168 §6.1.2: an echo of congestion reduces the window as a loss would, once
    /// per round trip, with no retransmission: ssthresh from the congestion control, PRR
    /// down to it until everything sent so far is acknowledged (ns-3.44 `EnterCwr`, Linux
    /// `tcp_enter_cwr`), and CWR on the next new segment.
    pub(super) fn enter_cwr(&mut self, now: SimTime) {
        let in_flight = self.bytes_in_flight();
        self.recover = self.sb.nxt();
        self.stats.ecn_reductions += 1;
        self.tcb.ssthresh = self.cc.on_congestion(&self.tcb, in_flight, CongestionKind::Ecn);
        self.set_state(CongState::Cwr, now);
        self.prr_enter(in_flight, 0);
        self.cwr_pending = true;
    }
}
