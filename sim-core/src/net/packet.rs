//! Packets as the simulator moves them: a TCP segment or ACK plus its wire size.

use serde::{Deserialize, Serialize};

/// What a packet carries. Data and SYN travel sender → receiver; ACK and SYN-ACK back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketKind {
    Syn,
    SynAck,
    Data,
    Ack,
    /// A UDP datagram: data no one acknowledges.
    Datagram,
    /// A ping's echo request (ICMP type 8), answered by its receiver.
    Echo,
    /// The answer to an echo request (ICMP type 0), on the ACKs' way back.
    EchoReply,
}

impl PacketKind {
    /// Data, a SYN or a datagram: what crosses a route forward and fills a queue's per-flow backlog
    /// (ACKs and SYN-ACKs go the other way).
    #[inline]
    pub fn is_data(self) -> bool {
        matches!(self, PacketKind::Data | PacketKind::Syn | PacketKind::Datagram | PacketKind::Echo)
    }

    /// What the sender side receives (ACKs, SYN-ACKs, echo replies).
    #[inline]
    pub fn to_sender(self) -> bool {
        !self.is_data()
    }
}

/// The IP header's ECN field (RFC 3168 §5): whether the sender's transport reacts to
/// congestion marks, and if it is marked. ECT(1) asks for L4S treatment (RFC 9331).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ecn {
    #[default]
    NotEct,
    Ect1,
    Ect0,
    /// Congestion Experienced: a queue marked it instead of dropping it.
    Ce,
}

impl Ecn {
    /// ECN-capable transport (ECT(0), ECT(1) or already CE): a queue may mark it.
    #[inline]
    pub fn is_ect(self) -> bool {
        self != Ecn::NotEct
    }
}

/// The TCP header's ECN flags (RFC 3168 §6.1): ECE echoes congestion to the sender, CWR
/// tells the receiver the window was reduced. A SYN with both asks for ECN; a SYN-ACK with
/// ECE agrees.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcpEcnFlags(u8);

impl TcpEcnFlags {
    const ECE: u8 = 1;
    const CWR: u8 = 2;
    pub const NONE: TcpEcnFlags = TcpEcnFlags(0);

    pub fn new(ece: bool, cwr: bool) -> TcpEcnFlags {
        TcpEcnFlags(if ece { Self::ECE } else { 0 } | if cwr { Self::CWR } else { 0 })
    }
    pub fn ece(self) -> bool {
        self.0 & Self::ECE != 0
    }
    pub fn cwr(self) -> bool {
        self.0 & Self::CWR != 0
    }
}

/// One SACK block: segments `start..end` (end exclusive) received out of order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlock {
    pub start: u32,
    pub end: u32,
}

/// The most SACK blocks that fit next to a timestamp option (RFC 2018 §3, RFC 7323).
pub const MAX_SACK_BLOCKS: usize = 3;

/// One cache line (64-byte aligned, so a packet never straddles two): the event loop touches
/// a cold packet on nearly every arrival.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
pub struct Packet {
    pub flow: u32,
    pub kind: PacketKind,
    /// Data: segment index. ACK: unused.
    pub seq: u32,
    /// Application bytes carried (0 for ACK, SYN).
    pub payload: u32,
    /// Bytes on the wire: payload plus every header.
    pub wire_bytes: u32,
    /// ACK: next segment expected by the receiver (cumulative acknowledgement).
    pub ack: u32,
    pub sack: [SackBlock; MAX_SACK_BLOCKS],
    pub sack_len: u8,
    /// TCP timestamp option (RFC 7323), in milliseconds of the sender's clock.
    pub ts_val: u32,
    pub ts_ecr: u32,
    /// Receive window advertised by an ACK, in bytes.
    pub rwnd: u32,
    /// Index into the flow's path of the link being crossed.
    pub hop: u8,
    pub retransmission: bool,
    /// FIN (RFC 9293 §3.10.7.4): set on the last data segment of a finite flow, every time
    /// it is sent. ns-3.44 (`SendDataPacket` with `m_closeOnEmpty`) and Linux (`tcp_send_fin`
    /// appending to the tail skb) put the FIN on the last segment when the application has
    /// closed with data still queued, as a finite flow does here; segments count data only,
    /// so the FIN takes no sequence number of its own.
    pub fin: bool,
    /// Which of its flow's connections it belongs to: a flow whose connection is recycled
    /// for a new transfer ([`crate::traffic`]) counts them, and its endpoints ignore what
    /// arrives late from an earlier one (modulo 256, far more than are ever in flight).
    pub conn: u8,
    /// The IP ECN field; queues turn ECT into CE instead of dropping.
    pub ecn: Ecn,
    pub tcp_ecn: TcpEcnFlags,
}

const _: () = assert!(std::mem::size_of::<Packet>() == 64);

impl Packet {
    /// An echo request carries its send time, as ping puts its timeval in the payload:
    /// in the two timestamp words (an echo has no TCP option).
    pub fn stamp(&mut self, at: crate::time::SimTime) {
        (self.ts_val, self.ts_ecr) = (at.0 as u32, (at.0 >> 32) as u32);
    }

    /// The send time an echo request or its reply carries.
    pub fn stamped(&self) -> crate::time::SimTime {
        crate::time::SimTime(u64::from(self.ts_val) | (u64::from(self.ts_ecr) << 32))
    }

    pub fn sack_blocks(&self) -> &[SackBlock] {
        &self.sack[..self.sack_len as usize]
    }
}

/// Header bytes added to every packet on the wire. Defaults match ns-3's TCP over
/// point-to-point: IPv4 20 + TCP 20 + timestamp option 12 (10 padded to 12) + PPP 2.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HeaderOverhead {
    pub ip_bytes: u32,
    pub tcp_bytes: u32,
    /// Bytes of the timestamp option when timestamps are on (0 when off).
    pub timestamp_option_bytes: u32,
    pub link_bytes: u32,
}

impl Default for HeaderOverhead {
    fn default() -> Self {
        HeaderOverhead { ip_bytes: 20, tcp_bytes: 20, timestamp_option_bytes: 12, link_bytes: 2 }
    }
}

impl HeaderOverhead {
    /// Header bytes of a segment without SACK blocks.
    pub fn base(&self, timestamps: bool) -> u32 {
        let ts = if timestamps { self.timestamp_option_bytes } else { 0 };
        self.ip_bytes + self.tcp_bytes + ts + self.link_bytes
    }

    /// Header bytes of an ACK carrying `blocks` SACK blocks: kind+len (2) + 8 per block,
    /// padded to a 4-byte boundary with NOPs (RFC 2018 §3).
    pub fn ack(&self, timestamps: bool, blocks: usize) -> u32 {
        let sack = if blocks == 0 { 0 } else { (2 + 8 * blocks as u32).div_ceil(4) * 4 };
        self.base(timestamps) + sack
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_512_byte_segment_is_566_bytes_on_the_wire_with_ns3_headers() {
        assert_eq!(512 + HeaderOverhead::default().base(true), 566);
    }

    #[test]
    fn sack_option_is_padded_to_four_bytes() {
        let h = HeaderOverhead::default();
        assert_eq!(h.ack(true, 0), 54);
        assert_eq!(h.ack(true, 1), 66);
        assert_eq!(h.ack(true, 3), 82);
    }
}
