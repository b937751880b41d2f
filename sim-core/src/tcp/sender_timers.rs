//! The sender's timers: pacing's wake-up and the retransmission timer (RFC 6298), its
//! restart and what a timeout does.

use super::{Phase, TcpSender};
use crate::cc::{CongState, CongestionKind};
use crate::net::Packet;
use crate::time::SimTime;

impl TcpSender {
    /// Pacing allows the next segment now.
    pub fn on_pace_timer(&mut self, now: SimTime, out: &mut Vec<Packet>) {
        if self.pace_timer.on_wake(now) {
            match self.cc.datagrams() {
                Some(d) => self.send_datagram(d, now, out),
                None => self.send_pending(now, out),
            }
        }
    }

    pub(super) fn restart_rto(&mut self, now: SimTime) {
        // RFC 6298 (5.3): restart on an ACK of new data; (5.2) stop when all is acknowledged.
        if self.sb.outstanding() == 0 {
            self.rto_timer.disarm();
        } else {
            self.rto_timer.arm(now + self.rtt.rto());
        }
    }

    /// The retransmission (or SYN) timer fired.
    pub fn on_timer(&mut self, now: SimTime, out: &mut Vec<Packet>) {
        if !self.rto_timer.on_wake(now) {
            return;
        }
        match self.phase {
            Phase::SynSent => {
                self.syn_retries += 1;
                self.send_syn(now, out);
            }
            Phase::Established if self.sb.outstanding() > 0 => self.on_rto(now, out),
            _ => {}
        }
    }

    /// RFC 6298 (5.4)-(5.6) and RFC 5681 §3.1 on a retransmission timeout.
    fn on_rto(&mut self, now: SimTime, out: &mut Vec<Packet>) {
        self.stats.timeouts += 1;
        *match self.tcb.state {
            CongState::Open => &mut self.stats.timeouts_open,
            CongState::Disorder => &mut self.stats.timeouts_disorder,
            CongState::Recovery => &mut self.stats.timeouts_recovery,
            CongState::Loss => &mut self.stats.timeouts_loss,
            // A reduction for an echo is Open as far as the timer is concerned.
            CongState::Cwr => &mut self.stats.timeouts_open,
        } += 1;
        let in_flight = self.bytes_in_flight();
        let head_already_resent =
            self.tcb.state == CongState::Loss && self.sb.is_retransmitted(self.sb.una());
        self.dupacks = 0;
        self.sb.mark_all_lost(!self.cfg.sack);
        self.recover = self.sb.nxt();
        self.recover_active = true;
        self.rtt_history_from = self.sb.nxt();
        self.rtt.back_off();
        // A segment already resent by the timer does not reduce ssthresh again.
        if !head_already_resent {
            self.tcb.ssthresh = self.cc.on_congestion(&self.tcb, in_flight, CongestionKind::Rto);
        }
        self.set_state(CongState::Loss, now);
        self.tcb.cwnd = self.tcb.mss;
        self.send_pending(now, out);
        self.rto_timer.arm(now + self.rtt.rto());
    }
}
