//! A unidirectional link: an egress queue disc, an optional NIC transmit queue beneath it,
//! serialisation at the link rate and a fixed propagation delay.
//!
//! With a NIC queue of N packets the queue disc is only asked for a packet while the NIC
//! holds fewer than N (ns-3's flow control between a queue disc and a device queue), so the
//! disc only builds up once the device queue is full.

use crate::aqm::{QItem, Qdisc};
use crate::time::{Rate, SimDuration};
use std::collections::VecDeque;

/// Rate, delay and queue of one direction of a link.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkSpec {
    pub rate: Rate,
    pub delay: SimDuration,
    /// Device (NIC) transmit queue under the disc, in packets; 0 = none.
    pub nic_queue_packets: u32,
}

#[derive(Clone, Debug)]
pub struct Link {
    pub spec: LinkSpec,
    pub qdisc: Qdisc,
    pub nic: VecDeque<QItem>,
    /// The packet being serialised, if any.
    pub transmitting: Option<QItem>,
    /// Bytes that finished serialisation on this link.
    pub tx_bytes: u64,
    pub tx_packets: u64,
}

impl Link {
    pub fn new(spec: LinkSpec, qdisc: Qdisc) -> Link {
        Link {
            spec,
            qdisc,
            nic: VecDeque::new(),
            transmitting: None,
            tx_bytes: 0,
            tx_packets: 0,
        }
    }

    pub fn tx_time(&self, bytes: u32) -> SimDuration {
        self.spec.rate.tx_time(bytes)
    }

    /// Packets held in the NIC queue (not counting the one on the wire).
    pub fn nic_packets(&self) -> u32 {
        self.nic.len() as u32
    }
}
