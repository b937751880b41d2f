//! The receiving side: in-order delivery to the application (what ns-3's PacketSink counts),
//! SACK blocks (RFC 2018), delayed ACKs (RFC 5681 §4.2, ns-3 `ReceivedData`) and timestamp
//! echo (RFC 7323 §4.3).
//!
//! Which segments are acknowledged at once rather than after a second segment or the
//! delayed-ACK timer (RFC 1122 §4.2.3.2, RFC 5681 §4.2):
//! - a duplicate, or one that does not fit the receive buffer (ns-3 `ReceivedData` when
//!   `RxBuffer::Add` fails; Linux `tcp_data_queue` → `tcp_send_dupack`);
//! - one that arrives out of order or fills a gap (RFC 5681 §4.2 SHOULD; ns-3 and Linux);
//! - the first `initial_quick_acks` in order ([`TcpConfig::initial_quick_acks`]);
//! - a FIN, once every byte before it has arrived (RFC 9293 §3.10.7.4, "eighth, check the
//!   FIN bit": advance RCV.NXT over the FIN and acknowledge it). ns-3.44 `PeerClose` →
//!   `DoPeerClose` sends the ACK at once (its PacketSink never closes, so that is the whole
//!   close seen from here). Linux schedules the ACK (`tcp_fin`) and sends it at once when
//!   more than one MSS is unacknowledged; otherwise the receiving application's close,
//!   which follows the end of file, carries it on its own FIN. A FIN that arrives ahead of a
//!   gap gets the out-of-order ACK, and the ACK of the FIN waits for the gap to fill (ns-3:
//!   `DoPeerClose` from `ReceivedData` once the buffer is `Finished`).
//!
//! The receiver's own FIN and the sender's ACK of it are not modelled: they do not move a
//! flow's completion (every byte acknowledged) and ns-3's sink never sends one.

use super::ooo::OutOfOrder;
use super::timer::Timer;
use super::{CwrRules, DctcpRules, TcpConfig};
use crate::net::{Ecn, Packet, PacketKind, SackBlock, TcpEcnFlags, MAX_SACK_BLOCKS};
use crate::time::{SimDuration, SimTime};

#[derive(Clone, Debug)]
pub struct TcpReceiver {
    flow: u32,
    mss: u32,
    ack_header_bytes_ts: bool,
    headers: crate::net::HeaderOverhead,
    sack: bool,
    delack_max: u32,
    delack_timeout: SimDuration,
    recv_buffer: u32,
    rcv_nxt: u32,
    /// Out-of-order ranges, listed most recently changed first (RFC 2018 §4 ordering).
    blocks: OutOfOrder,
    /// A final segment shorter than the MSS, if seen: (segment, bytes).
    short_segment: Option<(u32, u32)>,
    delack_count: u32,
    pub delack_timer: Timer,
    /// In-order segments still to be acknowledged at once (quick ACKs at the start).
    quick_acks: u32,
    /// The segment after the FIN-carrying one, once a FIN has arrived (RFC 9293 §3.10.7.4).
    fin_at: Option<u32>,
    ts_recent: u32,
    last_ack_sent: u32,
    delivered_bytes: u64,
    /// Payload bytes of new data on first arrival, in order or not.
    received_bytes: u64,
    syn_seen: bool,
    /// The connection it serves (see [`Packet::conn`]).
    conn: u8,
    initial_quick_acks: u32,
    /// The sender asked for ECN in its SYN (ECE and CWR); the SYN-ACK agrees.
    ecn_on: bool,
    /// Echo every segment's CE state as DCTCP's receiver does (RFC 8257 §3.2), rather than
    /// RFC 3168's ECE from a CE until the sender's CWR.
    accurate_echo: bool,
    /// Classic: ECE on every ACK until a CWR arrives. Accurate: the last segment was CE.
    ce_state: bool,
    /// Classic, under ns-3.44's rules ([`CwrRules`]): an ACK has echoed the last CE
    /// (`m_ecnState` ECN_SENDING_ECE rather than ECN_CE_RCVD), so a CWR may end the echo.
    ce_echoed: bool,
    cwr_rules: CwrRules,
    /// How an accurate echo acknowledges a change of CE state ([`DctcpRules`]).
    dctcp_rules: DctcpRules,
    /// ns-3.44's `TcpDctcp` receiver state (`dctcp_rules = ns3`): `m_delayedAckReserved`
    /// (the last in-order segment was delayed, or the delayed-ACK timer fired),
    /// `m_priorRcvNxt` (RCV.NXT before the last ECN-capable segment was taken in; `None`
    /// before the first) and `m_ecnCESeq` (the highest segment seen CE).
    ack_reserved: bool,
    prior_rcv_nxt: Option<u32>,
    ce_seq: Option<u32>,
}

impl TcpReceiver {
    pub fn new(flow: u32, cfg: &TcpConfig) -> TcpReceiver {
        TcpReceiver {
            flow,
            mss: cfg.mss_bytes.max(1),
            ack_header_bytes_ts: cfg.timestamps,
            headers: cfg.headers,
            sack: cfg.sack,
            delack_max: cfg.delayed_ack_count.max(1),
            delack_timeout: SimDuration::from_secs_f64(cfg.delayed_ack_timeout_ms / 1e3),
            recv_buffer: cfg.recv_buffer_bytes,
            rcv_nxt: 0,
            blocks: OutOfOrder::default(),
            short_segment: None,
            delack_count: 0,
            delack_timer: Timer::default(),
            quick_acks: cfg.initial_quick_acks,
            fin_at: None,
            ts_recent: 0,
            last_ack_sent: 0,
            delivered_bytes: 0,
            received_bytes: 0,
            syn_seen: false,
            conn: 0,
            initial_quick_acks: cfg.initial_quick_acks,
            ecn_on: false,
            accurate_echo: false,
            ce_state: false,
            ce_echoed: false,
            cwr_rules: cfg.cwr_rules,
            dctcp_rules: cfg.dctcp_rules,
            ack_reserved: false,
            prior_rcv_nxt: None,
            ce_seq: None,
        }
    }

    /// Echoes CE per segment (DCTCP's and Prague's receivers, RFC 8257 §3.2).
    pub fn set_accurate_echo(&mut self, on: bool) {
        self.accurate_echo = on;
    }

    /// The flow's next connection (or message) began: the connection's state starts again
    /// (the byte counters go on; they are the flow's), and a delayed-ACK wake-up already
    /// queued stays known.
    fn renew(&mut self, conn: u8) {
        self.rcv_nxt = 0;
        self.blocks = OutOfOrder::default();
        self.short_segment = None;
        self.delack_count = 0;
        self.delack_timer.disarm();
        self.quick_acks = self.initial_quick_acks;
        self.fin_at = None;
        self.ts_recent = 0;
        self.last_ack_sent = 0;
        self.syn_seen = false;
        self.ce_state = false;
        self.ce_echoed = false;
        self.ack_reserved = false;
        self.prior_rcv_nxt = None;
        self.ce_seq = None;
        self.conn = conn;
    }

    /// Application bytes delivered in order so far.
    pub fn delivered_bytes(&self) -> u64 {
        self.delivered_bytes
    }

    /// Payload bytes of new data that have arrived, counted once on first arrival whether in
    /// order or not: what crossed the bottleneck, so over any window it never exceeds what
    /// the link could carry (unlike in-order delivery, which releases held data in bursts).
    pub fn received_bytes(&self) -> u64 {
        self.received_bytes
    }

    pub fn rcv_nxt(&self) -> u32 {
        self.rcv_nxt
    }

    /// Whether every segment up to and including a FIN has arrived (the peer closed).
    pub fn peer_closed(&self) -> bool {
        self.fin_at.is_some_and(|f| self.rcv_nxt >= f)
    }

    fn bytes_of(&self, from: u32, to: u32) -> u64 {
        let mut b = u64::from(to - from) * u64::from(self.mss);
        if let Some((seq, bytes)) = self.short_segment {
            if (from..to).contains(&seq) {
                b = b - u64::from(self.mss) + u64::from(bytes);
            }
        }
        b
    }

    fn ooo_bytes(&self) -> u64 {
        self.blocks.segments() * u64::from(self.mss)
    }

    fn holds(&self, seq: u32) -> bool {
        seq < self.rcv_nxt || self.blocks.contains(seq)
    }

    /// Handles a SYN or data segment; pushes any ACK to send into `out`.
    pub fn on_packet(&mut self, p: &Packet, now: SimTime, out: &mut Vec<Packet>) {
        if p.conn != self.conn {
            // A later connection's first packet (its SYN, or a persistent connection's next
            // message) opens it; an earlier one's is a straggler (the count wraps at 256,
            // and no two connections in flight are that far apart).
            if (p.conn.wrapping_sub(self.conn) as i8) < 0 {
                return;
            }
            self.renew(p.conn);
        }
        match p.kind {
            PacketKind::Syn => {
                self.syn_seen = true;
                self.ts_recent = p.ts_val;
                // RFC 3168 §6.1.1: an ECN-setup SYN (ECE and CWR) gets an ECN-setup SYN-ACK.
                self.ecn_on = p.tcp_ecn.ece() && p.tcp_ecn.cwr();
                let mut ack = self.ack_packet(now);
                ack.kind = PacketKind::SynAck;
                ack.tcp_ecn = TcpEcnFlags::new(self.ecn_on, false);
                out.push(ack);
            }
            PacketKind::Data => self.on_data(p, now, out),
            // UDP: what arrives is delivered, in any order, and nothing answers.
            PacketKind::Datagram => {
                self.received_bytes += u64::from(p.payload);
                self.delivered_bytes += u64::from(p.payload);
            }
            // A ping: answered at once, its send time echoed; not data, so not counted.
            PacketKind::Echo => out.push(Packet { kind: PacketKind::EchoReply, hop: 0, ..*p }),
            _ => {}
        }
    }

    fn on_data(&mut self, p: &Packet, now: SimTime, out: &mut Vec<Packet>) {
        if self.ecn_on {
            let ce = p.ecn == Ecn::Ce;
            if self.accurate_echo && self.dctcp_rules == DctcpRules::Ns3 {
                self.ns3_ce_change(p, now, out);
            } else if self.accurate_echo {
                // RFC 8257 §3.2: when the CE state changes, ACK what came before at once
                // with the old state, so the sender counts marked bytes exactly despite
                // delayed ACKs.
                if ce != self.ce_state && self.delack_count > 0 {
                    self.send_ack(now, out);
                }
                self.ce_state = ce;
            } else if self.cwr_rules == CwrRules::Ns3 {
                self.ns3_classic_echo(p);
            } else if ce {
                self.ce_state = true; // RFC 3168 §6.1.3: echo until the sender's CWR
            } else if p.tcp_ecn.cwr() {
                self.ce_state = false;
            }
        }
        // RFC 7323 §4.3 as ns-3 applies it: echo the segment at the left edge of the window.
        if p.ts_val >= self.ts_recent && p.seq == self.rcv_nxt && p.seq <= self.last_ack_sent {
            self.ts_recent = p.ts_val;
        }
        if p.payload < self.mss {
            self.short_segment = Some((p.seq, p.payload));
        }
        let expected = self.rcv_nxt;
        let fits = self.ooo_bytes() + u64::from(p.payload) <= u64::from(self.recv_buffer);
        if self.holds(p.seq) || (p.seq > expected && !fits) {
            // Duplicate (or no room): acknowledge at once so the sender learns where we are.
            self.send_ack(now, out);
            return;
        }
        if p.fin {
            self.fin_at = Some(p.seq + 1);
        }
        self.received_bytes += u64::from(p.payload);
        if p.seq == expected {
            self.rcv_nxt += 1;
            if let Some(b) = self.blocks.take_starting_at(self.rcv_nxt) {
                self.rcv_nxt = b.end;
            }
            self.blocks.drop_below(self.rcv_nxt);
            self.delivered_bytes += self.bytes_of(expected, self.rcv_nxt);
        } else {
            self.blocks.insert(p.seq);
        }
        // A gap remains or was just filled: ACK immediately (RFC 5681 §4.2).
        if !self.blocks.is_empty() || self.rcv_nxt > expected + 1 {
            self.ack_reserved = false; // ns-3.44: CA_EVENT_NON_DELAYED_ACK
            self.send_ack(now, out);
            return;
        }
        // Every byte up to a FIN is in: acknowledge the FIN now (RFC 9293 §3.10.7.4), which
        // also covers a last segment that would otherwise wait for the delayed-ACK timer.
        if self.peer_closed() || self.quick_acks > 0 {
            if !self.peer_closed() {
                // ns-3.44 acknowledges its first data segment for the count.
                self.ack_reserved = false;
            }
            self.send_ack(now, out);
            return;
        }
        self.delack_count += 1;
        // ns-3.44: CA_EVENT_NON_DELAYED_ACK for an ACK sent for the count,
        // CA_EVENT_DELAYED_ACK for a segment left waiting.
        self.ack_reserved = self.delack_count < self.delack_max;
        if self.delack_count >= self.delack_max {
            self.send_ack(now, out);
        } else if !self.delack_timer.is_armed() {
            self.delack_timer.arm(now + self.delack_timeout);
        }
    }

    /// ns-3.44's `TcpDctcp` receiver (`CeState0to1`, `CeState1to0`), as
    /// `TcpSocketBase::ForwardUp` calls it for an ECN-capable segment before the segment is
    /// taken in: on a change of CE state with a delayed ACK reserved, an ACK of RCV.NXT as
    /// it was before the *previous* segment, with the old state (ECE from CE to not-CE only);
    /// then RCV.NXT as it is now is kept for the next change. A CE segment at or below the
    /// highest seen CE counts as not CE (`m_ecnCESeq < seq`).
    fn ns3_ce_change(&mut self, p: &Packet, now: SimTime, out: &mut Vec<Packet>) {
        if p.ecn == Ecn::NotEct {
            return;
        }
        let ce = p.ecn == Ecn::Ce && self.ce_seq.is_none_or(|s| s < p.seq);
        if ce {
            self.ce_seq = Some(p.seq);
        }
        if ce != self.ce_state && self.ack_reserved {
            if let Some(prior) = self.prior_rcv_nxt {
                self.quick_acks = self.quick_acks.saturating_sub(1);
                let ack = self.ack_packet_of(prior, now);
                out.push(ack);
            }
        }
        self.prior_rcv_nxt = Some(self.rcv_nxt);
        self.ce_state = ce;
    }

    /// ns-3.44's RFC 3168 receiver (`TcpSocketBase::ForwardUp`, then `DoForwardUp`): a CE
    /// segment above the highest seen CE (`m_ecnCESeq < seq`) sets ECN_CE_RCVD; a segment
    /// with CWR ends the echo (ECN_IDLE) only once an ACK has carried it (ECN_SENDING_ECE):
    /// a CE whose ACK was still delayed when the CWR segment came is echoed all the same.
    /// (Linux acknowledges the first CE at once, `tcp_ecn_check_ce` → quick ACK, so a CWR
    /// never finds one unechoed; our Linux rules end the echo on any CWR.)
    fn ns3_classic_echo(&mut self, p: &Packet) {
        if p.ecn == Ecn::Ce && self.ce_seq.is_none_or(|s| s < p.seq) {
            self.ce_seq = Some(p.seq);
            (self.ce_state, self.ce_echoed) = (true, false);
        } else if p.tcp_ecn.cwr() && self.ce_echoed {
            self.ce_state = false;
        }
    }

    /// The delayed-ACK timer fired.
    pub fn on_timer(&mut self, now: SimTime, out: &mut Vec<Packet>) {
        if self.delack_timer.on_wake(now) && self.delack_count > 0 {
            // ns-3.44's DelAckTimeout raises CA_EVENT_DELAYED_ACK.
            self.ack_reserved = true;
            self.send_ack(now, out);
        }
    }

    /// An ACK of data. Every one uses up a quick ACK, as Linux's `tcp_dec_quickack_mode`
    /// and ns-3's `SendEmptyPacket` (which zeroes the delayed-ACK count) do.
    fn send_ack(&mut self, now: SimTime, out: &mut Vec<Packet>) {
        self.quick_acks = self.quick_acks.saturating_sub(1);
        out.push(self.ack_packet(now));
    }

    fn ack_packet(&mut self, now: SimTime) -> Packet {
        self.ack_packet_of(self.rcv_nxt, now)
    }

    /// An ACK of everything before segment `ack` (RCV.NXT but for ns-3.44's DCTCP ACK at a
    /// change of CE state).
    fn ack_packet_of(&mut self, ack: u32, now: SimTime) -> Packet {
        let mut sack = [SackBlock::default(); MAX_SACK_BLOCKS];
        let mut n = 0;
        if self.sack {
            for (slot, b) in sack.iter_mut().zip(self.blocks.recent_first()) {
                *slot = b;
                n += 1;
            }
        }
        self.delack_count = 0;
        self.delack_timer.disarm();
        // ns-3's m_highTxAck: the highest ACK sent (an ns-3 DCTCP receiver's ACK at a change
        // of CE state may be below it).
        self.last_ack_sent = self.last_ack_sent.max(ack);
        let ece = self.ecn_on && self.ce_state;
        self.ce_echoed |= ece;
        let rwnd = u64::from(self.recv_buffer).saturating_sub(self.ooo_bytes()) as u32;
        Packet {
            flow: self.flow,
            kind: PacketKind::Ack,
            seq: 0,
            payload: 0,
            wire_bytes: self.headers.ack(self.ack_header_bytes_ts, n),
            ack,
            sack,
            sack_len: n as u8,
            ts_val: now.as_millis() as u32,
            ts_ecr: self.ts_recent,
            rwnd,
            hop: 0,
            retransmission: false,
            fin: false,
            conn: self.conn,
            ecn: Ecn::NotEct,
            tcp_ecn: TcpEcnFlags::new(ece, false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(seq: u32) -> Packet {
        Packet {
            flow: 0,
            kind: PacketKind::Data,
            seq,
            payload: 1000,
            wire_bytes: 1054,
            ack: 0,
            sack: Default::default(),
            sack_len: 0,
            ts_val: seq,
            ts_ecr: 0,
            rwnd: 0,
            hop: 0,
            retransmission: false,
            fin: false,
            conn: 0,
            ecn: Ecn::NotEct,
            tcp_ecn: TcpEcnFlags::NONE,
        }
    }

    fn fin(seq: u32, payload: u32) -> Packet {
        Packet { fin: true, payload, ..data(seq) }
    }

    /// Delayed ACKs from the first segment (no quick ACKs).
    fn rx() -> TcpReceiver {
        rx_quick(0)
    }

    fn rx_quick(initial_quick_acks: u32) -> TcpReceiver {
        TcpReceiver::new(0, &TcpConfig { mss_bytes: 1000, initial_quick_acks, ..TcpConfig::default() })
    }

    /// ACKs (cumulative ack) sent for segments `0..n` arriving in order.
    fn acks_for_in_order(r: &mut TcpReceiver, n: u32) -> Vec<u32> {
        let mut out = Vec::new();
        for s in 0..n {
            r.on_packet(&data(s), SimTime::ZERO, &mut out);
        }
        out.iter().map(|a| a.ack).collect()
    }

    #[test]
    fn first_data_segment_is_acked_at_once_with_one_quick_ack_as_ns3() {
        let mut r = rx_quick(1);
        assert_eq!(acks_for_in_order(&mut r, 5), vec![1, 3, 5]);
        assert!(!r.delack_timer.is_armed());
    }

    #[test]
    fn quick_acks_acknowledge_that_many_segments_one_by_one_then_every_second() {
        // Linux's quick-ACK mode at the start of a connection (16 with large windows).
        assert_eq!(acks_for_in_order(&mut rx_quick(3), 7), vec![1, 2, 3, 5, 7]);
        assert_eq!(acks_for_in_order(&mut rx_quick(0), 4), vec![2, 4]);
    }

    #[test]
    fn an_out_of_order_ack_uses_up_a_quick_ack() {
        let mut r = rx_quick(1);
        let mut out = Vec::new();
        r.on_packet(&data(1), SimTime::ZERO, &mut out);
        assert_eq!(out.len(), 1, "out of order: acknowledged at once");
        r.on_packet(&data(0), SimTime::ZERO, &mut out);
        assert_eq!(out.len(), 2, "fills the gap: acknowledged at once");
        r.on_packet(&data(2), SimTime::ZERO, &mut out);
        assert_eq!(out.len(), 2, "the quick ACK went to the out-of-order segment");
        assert!(r.delack_timer.is_armed());
    }

    #[test]
    fn an_odd_last_segment_with_fin_is_acked_at_once() {
        let mut r = rx();
        let mut out = Vec::new();
        for s in 0..4 {
            r.on_packet(&data(s), SimTime::ZERO, &mut out);
        }
        assert_eq!(out.len(), 2);
        r.on_packet(&fin(4, 300), SimTime::ZERO, &mut out);
        assert_eq!(out.len(), 3);
        assert_eq!(out[2].ack, 5);
        assert!(r.peer_closed());
        assert!(!r.delack_timer.is_armed(), "nothing left for the timer");
        assert_eq!(r.delivered_bytes(), 4300);
    }

    #[test]
    fn a_lone_last_segment_without_fin_waits_for_the_timer() {
        let mut r = rx();
        let mut out = Vec::new();
        for s in 0..5 {
            r.on_packet(&data(s), SimTime::ZERO, &mut out);
        }
        assert_eq!(out.len(), 2);
        assert!(r.delack_timer.is_armed());
        assert!(!r.peer_closed());
    }

    #[test]
    fn a_fin_ahead_of_a_gap_is_acknowledged_when_the_gap_fills() {
        let mut r = rx();
        let mut out = Vec::new();
        r.on_packet(&data(0), SimTime::ZERO, &mut out);
        r.on_packet(&fin(2, 1000), SimTime::ZERO, &mut out);
        assert_eq!(out.len(), 1, "out of order: a duplicate ACK at once");
        assert_eq!(out[0].ack, 1);
        assert!(!r.peer_closed());
        r.on_packet(&data(1), SimTime::ZERO, &mut out);
        assert_eq!(out.last().unwrap().ack, 3);
        assert!(r.peer_closed());
    }

    #[test]
    fn a_retransmitted_fin_is_acknowledged_again() {
        let mut r = rx();
        let mut out = Vec::new();
        r.on_packet(&fin(0, 10), SimTime::ZERO, &mut out);
        r.on_packet(&fin(0, 10), SimTime::ZERO, &mut out);
        assert_eq!(out.iter().map(|a| a.ack).collect::<Vec<_>>(), vec![1, 1]);
        assert_eq!(r.delivered_bytes(), 10);
    }

    #[test]
    fn in_order_segments_are_acked_every_second_segment() {
        let mut r = rx();
        let mut out = Vec::new();
        r.on_packet(&data(0), SimTime::ZERO, &mut out);
        assert!(out.is_empty());
        assert!(r.delack_timer.is_armed());
        r.on_packet(&data(1), SimTime::ZERO, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].ack, 2);
        assert_eq!(r.delivered_bytes(), 2000);
    }

    #[test]
    fn delayed_ack_timer_acknowledges_a_lone_segment() {
        let mut r = rx();
        let mut out = Vec::new();
        r.on_packet(&data(0), SimTime::ZERO, &mut out);
        let t = r.delack_timer.deadline().unwrap();
        assert_eq!(t, SimTime::from_secs_f64(0.2));
        r.on_timer(t, &mut out);
        assert_eq!(out.len(), 1);
    }

    /// A DCTCP receiver (per-segment echo) under `rules`, ECN agreed at the handshake, ns-3's
    /// first data segment acknowledged at once.
    fn dctcp_rx(rules: DctcpRules) -> TcpReceiver {
        let cfg =
            TcpConfig { mss_bytes: 1000, initial_quick_acks: 1, dctcp_rules: rules, ..TcpConfig::default() };
        let mut r = TcpReceiver::new(0, &cfg);
        r.set_accurate_echo(true);
        let syn = Packet { kind: PacketKind::Syn, tcp_ecn: TcpEcnFlags::new(true, true), ..data(0) };
        r.on_packet(&syn, SimTime::ZERO, &mut Vec::new());
        r
    }

    /// (ack, ECE) of every ACK sent for segments 0..n arriving in order, ECT, those in
    /// `ce` marked.
    fn echoes(r: &mut TcpReceiver, n: u32, ce: &[u32]) -> Vec<(u32, bool)> {
        let mut out = Vec::new();
        for s in 0..n {
            let ecn = if ce.contains(&s) { Ecn::Ce } else { Ecn::Ect0 };
            r.on_packet(&Packet { ecn, ..data(s) }, SimTime::ZERO, &mut out);
        }
        out.iter().map(|a| (a.ack, a.tcp_ecn.ece())).collect()
    }

    #[test]
    fn a_change_of_ce_state_is_acknowledged_a_segment_behind_under_ns3s_dctcp() {
        // Segment 3 is delayed when CE segment 4 arrives; marks then on 4, 6 and 7.
        let ce = [4, 6, 7];
        // Linux (`dctcp_ece_ack_update`): the delayed ACK goes out at once with the old
        // state and covers 3; each ACK echoes the segments it covers.
        let linux = echoes(&mut dctcp_rx(DctcpRules::Linux), 10, &ce);
        assert_eq!(
            linux,
            vec![(1, false), (3, false), (4, false), (5, true), (6, false), (8, true), (10, false)]
        );
        // ns-3.44 (`CeState0to1` / `CeState1to0` before the segment is taken in): at 4 an
        // ACK of what came before 3 (a duplicate, no ECE); at 5 one of what came before 4
        // (covers 3, ECE: the old state, 4's); at 6 one covering 4, without ECE. Through
        // the changes each segment is acknowledged alone with the next one's state. At 8
        // the ACK for the count (7) has cleared the reservation: no extra ACK.
        let ns3 = echoes(&mut dctcp_rx(DctcpRules::Ns3), 10, &ce);
        assert_eq!(
            ns3,
            vec![(1, false), (3, false), (3, false), (4, true), (5, false), (8, true), (10, false)]
        );
    }

    #[test]
    fn ns3s_dctcp_receiver_sends_its_extra_ack_after_a_delayed_ack_timeout_too() {
        // ns-3.44's DelAckTimeout raises CA_EVENT_DELAYED_ACK: the reservation outlives the
        // timer's ACK (of 3), so the next change of state sends an ACK with nothing pending,
        // of what came before segment 3: below the last ACK, which the sender ignores.
        // Linux's, with no ACK pending, sends none.
        for (rules, want) in [
            (DctcpRules::Ns3, vec![(4, false), (3, false), (6, true)]),
            (DctcpRules::Linux, vec![(4, false), (6, true)]),
        ] {
            let mut r = dctcp_rx(rules);
            let mut out = Vec::new();
            for s in 0..4 {
                r.on_packet(&Packet { ecn: Ecn::Ect0, ..data(s) }, SimTime::ZERO, &mut out);
            }
            out.clear();
            let t = r.delack_timer.deadline().unwrap();
            r.on_timer(t, &mut out);
            for s in 4..6 {
                r.on_packet(&Packet { ecn: Ecn::Ce, ..data(s) }, t, &mut out);
            }
            let got: Vec<(u32, bool)> = out.iter().map(|a| (a.ack, a.tcp_ecn.ece())).collect();
            assert_eq!(got, want, "{rules:?}");
        }
    }

    #[test]
    fn ns3s_classic_receiver_ends_its_echo_on_cwr_only_once_an_ack_carried_it() {
        // RFC 3168 receivers, ECN agreed; CE on segment 3, which waits for a delayed ACK;
        // segment 4 carries CWR (the sender's answer to an earlier echo); then 5 and 6 plain.
        for (rules, want) in [
            // ns-3.44: 3's CE is still ECN_CE_RCVD when 4's CWR comes, so the echo goes on
            // until an ACK has carried it (ACK 5) and a later CWR ends it.
            (CwrRules::Ns3, vec![(1, false), (3, false), (5, true), (7, true)]),
            // Linux's rules here: any CWR ends the echo, 3's CE is never echoed.
            (CwrRules::Linux, vec![(1, false), (3, false), (5, false), (7, false)]),
        ] {
            let cfg = TcpConfig {
                mss_bytes: 1000,
                initial_quick_acks: 1,
                cwr_rules: rules,
                ..TcpConfig::default()
            };
            let mut r = TcpReceiver::new(0, &cfg);
            let syn = Packet { kind: PacketKind::Syn, tcp_ecn: TcpEcnFlags::new(true, true), ..data(0) };
            r.on_packet(&syn, SimTime::ZERO, &mut Vec::new());
            let mut out = Vec::new();
            for s in 0..7 {
                let ecn = if s == 3 { Ecn::Ce } else { Ecn::Ect0 };
                let tcp_ecn = TcpEcnFlags::new(false, s == 4);
                r.on_packet(&Packet { ecn, tcp_ecn, ..data(s) }, SimTime::ZERO, &mut out);
            }
            let got: Vec<(u32, bool)> = out.iter().map(|a| (a.ack, a.tcp_ecn.ece())).collect();
            assert_eq!(got, want, "{rules:?}");
        }
        // Once echoed, a CWR ends it under ns-3's rules too.
        let cfg = TcpConfig { mss_bytes: 1000, initial_quick_acks: 1, ..TcpConfig::default() };
        let mut r = TcpReceiver::new(0, &cfg);
        let syn = Packet { kind: PacketKind::Syn, tcp_ecn: TcpEcnFlags::new(true, true), ..data(0) };
        r.on_packet(&syn, SimTime::ZERO, &mut Vec::new());
        let mut out = Vec::new();
        for s in 0..7 {
            let ecn = if s == 2 { Ecn::Ce } else { Ecn::Ect0 };
            r.on_packet(
                &Packet { ecn, tcp_ecn: TcpEcnFlags::new(false, s == 4), ..data(s) },
                SimTime::ZERO,
                &mut out,
            );
        }
        let got: Vec<(u32, bool)> = out.iter().map(|a| (a.ack, a.tcp_ecn.ece())).collect();
        assert_eq!(got, vec![(1, false), (3, true), (5, false), (7, false)]);
    }

    #[test]
    fn out_of_order_segment_is_acked_at_once_with_a_sack_block_for_it_first() {
        let mut r = rx();
        let mut out = Vec::new();
        r.on_packet(&data(0), SimTime::ZERO, &mut out);
        r.on_packet(&data(2), SimTime::ZERO, &mut out);
        r.on_packet(&data(5), SimTime::ZERO, &mut out);
        r.on_packet(&data(3), SimTime::ZERO, &mut out);
        let last = out.last().unwrap();
        assert_eq!(last.ack, 1);
        assert_eq!(last.sack_blocks()[0], SackBlock { start: 2, end: 4 });
        assert_eq!(last.sack_blocks()[1], SackBlock { start: 5, end: 6 });
        assert_eq!(r.delivered_bytes(), 1000);
    }

    #[test]
    fn filling_the_hole_delivers_everything_buffered() {
        let mut r = rx();
        let mut out = Vec::new();
        for s in [1, 2, 3] {
            r.on_packet(&data(s), SimTime::ZERO, &mut out);
        }
        r.on_packet(&data(0), SimTime::ZERO, &mut out);
        assert_eq!(out.last().unwrap().ack, 4);
        assert_eq!(out.last().unwrap().sack_len, 0);
        assert_eq!(r.delivered_bytes(), 4000);
    }

    #[test]
    fn timestamp_echo_is_the_segment_at_the_left_edge() {
        let mut r = rx();
        let mut out = Vec::new();
        let mut a = data(0);
        a.ts_val = 100;
        let mut b = data(1);
        b.ts_val = 105;
        r.on_packet(&a, SimTime::ZERO, &mut out);
        r.on_packet(&b, SimTime::ZERO, &mut out);
        // The delayed ACK echoes the older segment's timestamp (RTT includes the delay).
        assert_eq!(out[0].ts_ecr, 100);
    }
}
