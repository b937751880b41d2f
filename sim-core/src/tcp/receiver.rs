//! The receiving side: in-order delivery to the application (what ns-3's PacketSink counts),
//! SACK blocks (RFC 2018), delayed ACKs (RFC 5681 §4.2, ns-3 `ReceivedData`) and timestamp
//! echo (RFC 7323 §4.3).

use super::ooo::OutOfOrder;
use super::timer::Timer;
use super::TcpConfig;
use crate::net::{Packet, PacketKind, SackBlock, MAX_SACK_BLOCKS};
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
    ts_recent: u32,
    last_ack_sent: u32,
    delivered_bytes: u64,
    /// Payload bytes of new data on first arrival, in order or not.
    received_bytes: u64,
    syn_seen: bool,
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
            ts_recent: 0,
            last_ack_sent: 0,
            delivered_bytes: 0,
            received_bytes: 0,
            syn_seen: false,
        }
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
        match p.kind {
            PacketKind::Syn => {
                self.syn_seen = true;
                self.ts_recent = p.ts_val;
                let mut ack = self.ack_packet(now);
                ack.kind = PacketKind::SynAck;
                out.push(ack);
            }
            PacketKind::Data => self.on_data(p, now, out),
            _ => {}
        }
    }

    fn on_data(&mut self, p: &Packet, now: SimTime, out: &mut Vec<Packet>) {
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
            out.push(self.ack_packet(now));
            return;
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
            out.push(self.ack_packet(now));
            return;
        }
        self.delack_count += 1;
        if self.delack_count >= self.delack_max {
            out.push(self.ack_packet(now));
        } else if !self.delack_timer.is_armed() {
            self.delack_timer.arm(now + self.delack_timeout);
        }
    }

    /// The delayed-ACK timer fired.
    pub fn on_timer(&mut self, now: SimTime, out: &mut Vec<Packet>) {
        if self.delack_timer.on_wake(now) && self.delack_count > 0 {
            out.push(self.ack_packet(now));
        }
    }

    fn ack_packet(&mut self, now: SimTime) -> Packet {
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
        self.last_ack_sent = self.rcv_nxt;
        let rwnd = u64::from(self.recv_buffer).saturating_sub(self.ooo_bytes()) as u32;
        Packet {
            flow: self.flow,
            kind: PacketKind::Ack,
            seq: 0,
            payload: 0,
            wire_bytes: self.headers.ack(self.ack_header_bytes_ts, n),
            ack: self.rcv_nxt,
            sack,
            sack_len: n as u8,
            ts_val: now.as_millis() as u32,
            ts_ecr: self.ts_recent,
            rwnd,
            hop: 0,
            retransmission: false,
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
        }
    }

    fn rx() -> TcpReceiver {
        TcpReceiver::new(0, &TcpConfig { mss_bytes: 1000, ..TcpConfig::default() })
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
