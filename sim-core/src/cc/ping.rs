//! A ping: an echo request at a fixed interval, answered by the receiver, each answer an
//! RTT sample (the Mininet bufferbloat lab pings every 100 ms beside its long flow). As
//! `ping -i`: the request carries its send time, the reply echoes it, nothing is resent.
//! It sits in the congestion-control menu as UDP does (a group picks what its flows send);
//! its packets queue like any other, so it reads the delay the other flows cause, and it
//! is left out of goodput, shares and Jain's index. ns-3.44's `Ping` application sends
//! the same requests (56 data bytes, 1 s apart by default).

use super::udp::{Datagrams, Unresponsive};
use super::{CcaConfig, CongestionControl};
use crate::params::{Algorithm, Described, Field, Kind, Range};
use crate::rng::SimRng;
use crate::time::SimDuration;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PingConfig {
    /// Between two requests, ms.
    pub interval_ms: f64,
    /// Data bytes per request (ping's `-s`); the 8-byte ICMP header and IP come on top.
    pub packet_bytes: u32,
}

impl Default for PingConfig {
    fn default() -> Self {
        PingConfig { interval_ms: 100.0, packet_bytes: 56 }
    }
}

impl Described for PingConfig {
    const INFO: Algorithm = Algorithm {
        tag: "ping",
        label: "Ping (probe)",
        help: "Not TCP: an echo request every interval, answered by the receiver; each answer is an RTT sample. Left out of goodput and fairness.",
        fields: &[
            Field::new("interval_ms", "Interval", "ms", Kind::Float(Range::closed(1.0, 60_000.0)), "Between two echo requests (ping -i)."),
            Field::new("packet_bytes", "Data", "bytes", Kind::Int(Range::closed(1.0, 1472.0)), "Data bytes per request (ping -s; 56 by default)."),
        ],
        flavours: &[],
    };
}

impl CcaConfig for PingConfig {
    fn build(&self, _rng: SimRng) -> Result<Box<dyn CongestionControl>, String> {
        Ok(Box::new(Unresponsive(Datagrams {
            payload: self.packet_bytes,
            interval: SimDuration::from_secs_f64(self.interval_ms.max(1e-3) / 1e3),
            on: SimDuration::from_secs_f64(1.0),
            off: SimDuration::ZERO,
            echo: true,
        })))
    }
}
