//! Unresponsive traffic: a UDP source sending datagrams at a set rate, constant or on/off,
//! whatever the network does (RFC 7928 §5 evaluates an AQM against such traffic). Not a
//! congestion control: it sits in the same menu because a flow group picks what its flows
//! send, and the sender then runs it in place of TCP (no handshake, no ACKs, no
//! retransmissions; the receiver counts what arrives).
//!
//! As ns-3's `OnOffApplication` over UDP: `rate_bps` is the application's rate (its
//! payload), `packet_bytes` each datagram's payload (ns-3's `PacketSize`), sent evenly
//! spaced while on; the wire adds UDP's 8 bytes and the IP and link headers. The on and off
//! periods are fixed (ns-3's default random variables are constants too).

use super::{CcaConfig, CongestionControl, CongestionKind, Tcb};
use crate::params::{Algorithm, Described, Field, Kind, Range};
use crate::rng::SimRng;
use crate::time::{SimDuration, SimTime};
use serde::{Deserialize, Serialize};

/// UDP's header, bytes (an ICMP echo's header is as long).
pub const UDP_HEADER_BYTES: u32 = 8;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UdpConfig {
    /// Payload bit/s while on.
    pub rate_bps: u64,
    /// Payload bytes per datagram.
    pub packet_bytes: u32,
    /// Seconds on, then `off_s` seconds silent, repeated from the flow's start; `off_s` 0 =
    /// constant bit rate.
    pub on_s: f64,
    pub off_s: f64,
}

impl Default for UdpConfig {
    fn default() -> Self {
        UdpConfig { rate_bps: 5_000_000, packet_bytes: 1000, on_s: 1.0, off_s: 0.0 }
    }
}

impl Described for UdpConfig {
    const INFO: Algorithm = Algorithm {
        tag: "udp",
        label: "UDP (unresponsive)",
        help: "Not TCP: datagrams at a set rate, constant or on/off, that ignore loss and delay (RFC 7928 §5; ns-3's OnOffApplication).",
        fields: &[
            Field::new("rate_bps", "Rate", "bit/s", Kind::Int(Range::closed(1000.0, 4e11)), "Payload rate while on."),
            Field::new("packet_bytes", "Datagram", "bytes", Kind::Int(Range::closed(1.0, 1472.0)), "Payload per datagram (UDP and IP headers come on top; 1472 fills a 1500-byte MTU)."),
            Field::new("on_s", "On", "s", Kind::Float(Range::closed(0.001, 3600.0)), "Seconds sending, from the flow's start."),
            Field::new("off_s", "Off", "s", Kind::Float(Range::closed(0.0, 3600.0)), "Seconds silent after each on period; 0 = constant bit rate."),
        ],
        flavours: &[],
    };
}

impl CcaConfig for UdpConfig {
    fn build(&self, _rng: SimRng) -> Result<Box<dyn CongestionControl>, String> {
        let payload = self.packet_bytes.max(1);
        let interval = SimDuration::from_secs_f64(f64::from(payload) * 8.0 / self.rate_bps.max(1) as f64);
        Ok(Box::new(Unresponsive(Datagrams {
            payload,
            interval: interval.max(SimDuration(1)),
            on: SimDuration::from_secs_f64(self.on_s),
            off: SimDuration::from_secs_f64(self.off_s.max(0.0)),
            echo: false,
        })))
    }
}

/// When a UDP source sends, and how much.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Datagrams {
    pub payload: u32,
    /// Between two datagrams while on.
    pub interval: SimDuration,
    pub on: SimDuration,
    /// Zero: always on.
    pub off: SimDuration,
    /// Each is a ping's echo request, answered by the receiver ([`super::ping`]).
    pub echo: bool,
}

impl Datagrams {
    /// When the datagram after one sent at `sent` goes, for a source that started at
    /// `start`: an interval later, or at the next on period's start if that falls while off.
    pub fn next_after(&self, start: SimTime, sent: SimTime) -> SimTime {
        let next = sent + self.interval;
        if self.off == SimDuration::ZERO {
            return next;
        }
        let cycle = self.on.0 + self.off.0;
        let into = (next.0 - start.0) % cycle;
        if into < self.on.0 {
            next
        } else {
            SimTime(next.0 - into + cycle)
        }
    }
}

/// The source as the sender holds it in place of a congestion control.
#[derive(Clone, Debug)]
pub struct Unresponsive(pub(super) Datagrams);

impl Unresponsive {
    /// A source that sends nothing: what a sender holds for the instant its congestion
    /// control moves to its next message ([`crate::tcp::TcpSender::next_message`]).
    pub fn idle() -> Unresponsive {
        Unresponsive(Datagrams {
            payload: 1,
            interval: SimDuration(1),
            on: SimDuration::ZERO,
            off: SimDuration(1),
            echo: false,
        })
    }
}

impl CongestionControl for Unresponsive {
    fn grow_window(&mut self, _tcb: &mut Tcb, _segments_acked: u32, _now: SimTime) {}
    fn on_congestion(&mut self, tcb: &Tcb, _bytes_in_flight: u32, _kind: CongestionKind) -> u32 {
        tcb.ssthresh
    }
    fn datagrams(&self) -> Option<Datagrams> {
        Some(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn datagrams_are_spaced_by_their_payload_at_the_rate_and_skip_the_off_periods() {
        let cfg = UdpConfig { rate_bps: 8_000_000, packet_bytes: 1000, on_s: 0.01, off_s: 0.02 };
        let d = cfg.build(SimRng::new(0, crate::rng::StreamId::Flow(0))).unwrap().datagrams().unwrap();
        assert_eq!(d.interval, SimDuration::from_secs_f64(0.001), "8000 bits at 8 Mbit/s");
        let start = SimTime::from_secs_f64(1.0);
        let at = |s: f64| SimTime::from_secs_f64(s);
        assert_eq!(d.next_after(start, at(1.005)), at(1.006));
        // The 10th datagram would leave at 1.010, the end of the on period: the next on
        // period starts at 1.030.
        assert_eq!(d.next_after(start, at(1.009)), at(1.030));
        let cbr = Datagrams { off: SimDuration::ZERO, ..d };
        assert_eq!(cbr.next_after(start, at(5.0)), at(5.001));
    }
}
