//! The sender's ECN (RFC 3168 §6.1, RFC 8257): what it asks for at the handshake, how its
//! data segments are marked, and the once-per-round-trip reduction an echo starts, by
//! Linux's rules or ns-3.44's (`tcp.cwr_rules`, [`CwrRules`]).

use super::TcpSender;
use crate::cc::{CongState, CongestionKind};
use crate::net::{Ecn, Packet, TcpEcnFlags};
use crate::tcp::CwrRules;
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
        if !retransmission && self.cwr_flag_due(segment.seq) {
            segment.tcp_ecn = TcpEcnFlags::new(false, true);
        }
    }

    /// Whether a new data segment carries CWR. Linux (RFC 3168 §6.1.2, `tcp_ecn_send`):
    /// the first after each reduction. ns-3.44 (`TcpSocketBase::SendDataPacket`): the first
    /// after an echo (`m_ecnState == ECN_ECE_RCVD`) once the last segment sent with CWR is
    /// acknowledged (`m_ecnEchoSeq > m_ecnCWRSeq`), whether or not the echo reduced the
    /// window (an echo during CWR does not); the state becomes ECN_CWR_SENT.
    fn cwr_flag_due(&mut self, seq: u32) -> bool {
        match self.cfg.cwr_rules {
            CwrRules::Linux => std::mem::replace(&mut self.cwr_pending, false),
            CwrRules::Ns3 => {
                let due = self.ece_rcvd && self.ecn_cwr_seq.is_none_or(|c| self.ecn_echo_seq > c);
                if due {
                    self.ece_rcvd = false;
                    self.ecn_cwr_seq = Some(seq);
                }
                due
            }
        }
    }

    /// Whether an ACK echoes congestion, for the congestion control (DCTCP's marked bytes)
    /// and the reduction. Linux: ECE on an ECN connection. ns-3.44 (`ReceivedAck`): an echo
    /// that advances SND.UNA sets `m_ecnState` to ECN_ECE_RCVD (and `m_ecnEchoSeq`), an ACK
    /// without one leaves that state, and a duplicate ACK with ECE keeps what it finds: once
    /// the CWR flag went out (ECN_CWR_SENT) DCTCP's `PktsAcked` does not count it marked.
    pub(super) fn read_echo(&mut self, p: &Packet, old_una: u32) -> bool {
        let ece = self.ecn_on && p.tcp_ecn.ece();
        if self.cfg.cwr_rules == CwrRules::Linux {
            return ece;
        }
        if ece && p.ack > old_una {
            self.ece_rcvd = true;
            self.ecn_echo_seq = p.ack;
        } else if !ece {
            self.ece_rcvd = false;
        }
        self.ece_rcvd
    }

    /// Linux's rules: RFC 3168 §6.1.2, an echo of congestion reduces the window as a loss
    /// would, once per round trip, with no retransmission: ssthresh from the congestion
    /// control, PRR down to it from the next ACK until everything sent so far is
    /// acknowledged (`tcp_enter_cwr`, called after the ACK was processed, from Open and
    /// Disorder only), and CWR on the next new segment.
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

/// ns-3.44's CWR (`tcp.cwr_rules = ns3`), from `tcp-socket-base.cc` and
/// `tcp-prr-recovery.cc` (tag ns-3.44).
impl TcpSender {
    /// `TcpSocketBase::ReceivedAck`, before it calls `ProcessAck` (nothing under Linux's
    /// rules): CA_CWR ends on an ACK above the recovery point (`ackNumber > m_recover`:
    /// cwnd = ssthresh, and the ACK is then processed in Open), and an echo on an ACK that
    /// advances SND.UNA then enters CWR from any state but CWR, Recovery and Loss included
    /// (`EnterCwr`). Returns the ACK's PRR safe flag as ns-3 has it: `m_isRetransDataAcked`
    /// is set only for a partial ACK found in CA_RECOVERY, so never for an ACK in CWR but
    /// the one that leaves a recovery for it.
    pub(super) fn ns3_cwr_before_ack(
        &mut self,
        ack: u32,
        old_una: u32,
        delivered: u32,
        safe: bool,
        now: SimTime,
    ) -> bool {
        if self.cfg.cwr_rules != CwrRules::Ns3 {
            return safe;
        }
        let safe = safe && self.tcb.state == CongState::Recovery && ack < self.recover;
        if self.tcb.state == CongState::Cwr && ack > self.recover {
            self.set_state_quietly(CongState::Open, now);
            if !self.cc.has_cong_control() {
                self.tcb.cwnd = self.tcb.ssthresh;
            }
        }
        if self.ece && ack > old_una && self.tcb.state != CongState::Cwr {
            self.ns3_enter_cwr(delivered, safe, now);
        }
        safe
    }

    /// `TcpSocketBase::EnterCwr`: ssthresh from the congestion control as this ACK finds it
    /// (the window before its growth, DCTCP's α before its `PktsAcked`), CA_CWR with the
    /// recovery point at SND.NXT (`m_highTxMark`; `m_recoverActive`, the scoreboard and a
    /// recovery's partial-ACK flag stay as they are), and `TcpPrrRecovery::EnterRecovery`:
    /// RecoverFS from the pipe, then `DoRecovery(tcb, currentDelivered, isDupAck = true)`,
    /// which credits a segment more than the ACK delivered and, with nothing sent yet,
    /// allows one at least. `ProcessAck`'s CA_CWR branch then runs `DoRecovery` again for
    /// the same ACK (`process_ack`), so PRR starts with the ACK's delivery counted twice
    /// and a segment more: about DCTCP's whole cut at α ≈ 0.15 and 40 segments, so the
    /// flight holds through the CWR round and falls to ssthresh when it ends.
    fn ns3_enter_cwr(&mut self, delivered: u32, safe: bool, now: SimTime) {
        let in_flight = self.bytes_in_flight();
        self.stats.ecn_reductions += 1;
        self.tcb.ssthresh = self.cc.on_congestion(&self.tcb, in_flight, CongestionKind::Ecn);
        self.set_state_quietly(CongState::Cwr, now);
        self.recover = self.sb.nxt();
        self.prr_enter(in_flight, delivered);
        self.prr_update(delivered, safe, true);
    }

    /// ns-3.44 enters and leaves CA_CWR without `CongestionStateSet`. A congestion control
    /// that sets the window itself (Prague, which ns-3.44 does not have) is still told: it
    /// takes its cut there.
    fn set_state_quietly(&mut self, s: CongState, now: SimTime) {
        if self.cc.has_cong_control() {
            self.set_state(s, now);
        } else {
            self.tcb.state = s;
        }
    }

    /// Whether an ACK in CWR leaves the reduction going. Linux ends it on an ACK above the
    /// recovery point (`tcp_fastretrans_alert`: "CWR is to be held something *above*
    /// high_seq is ACKed for CWR bit to reach receiver"), so the receiver has seen CWR and
    /// stopped echoing; ns-3.44's rules ended it already, above it too
    /// (`ns3_cwr_before_ack`).
    pub(super) fn cwr_goes_on(&self, ack: u32) -> bool {
        ack <= self.recover || self.cfg.cwr_rules == CwrRules::Ns3
    }
}
