use crate::net::HeaderOverhead;
use serde::{Deserialize, Serialize};

/// TCP parameters shared by every flow of a scenario. Defaults are ns-3 3.44's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TcpConfig {
    /// Segment payload in bytes (ns-3 `SegmentSize` 536; the RED study uses 512).
    pub mss_bytes: u32,
    pub initial_cwnd_segments: u32,
    /// Minimum retransmission timeout (RFC 6298 (2.4): 1 s; Linux uses 200 ms).
    pub min_rto_ms: f64,
    /// RTO before the first RTT sample (RFC 6298 (2.1)).
    pub initial_rto_ms: f64,
    pub max_rto_ms: f64,
    /// Clock granularity G in RTO = SRTT + max(G, 4·RTTVAR).
    pub clock_granularity_ms: f64,
    /// Retransmission timeout of a SYN (ns-3 `ConnTimeout`).
    pub syn_timeout_ms: f64,
    /// ACK every this many in-order segments...
    pub delayed_ack_count: u32,
    /// ...or after this long, whichever comes first.
    pub delayed_ack_timeout_ms: f64,
    /// Selective acknowledgements (RFC 2018) with RFC 6675 loss recovery. Off = NewReno
    /// partial-ACK recovery (RFC 6582).
    pub sack: bool,
    /// Timestamp option (RFC 7323): RTT sampled on every ACK at 1 ms granularity.
    pub timestamps: bool,
    pub dupack_threshold: u32,
    /// Send buffer: caps unacknowledged plus unsent data (ns-3 `SndBufSize`).
    pub send_buffer_bytes: u32,
    /// Receive buffer: the most out-of-order data held, and the advertised window.
    pub recv_buffer_bytes: u32,
    pub headers: HeaderOverhead,
}

impl Default for TcpConfig {
    fn default() -> Self {
        TcpConfig {
            mss_bytes: 536,
            initial_cwnd_segments: 10,
            min_rto_ms: 1000.0,
            initial_rto_ms: 1000.0,
            max_rto_ms: 60_000.0,
            clock_granularity_ms: 1.0,
            syn_timeout_ms: 3000.0,
            delayed_ack_count: 2,
            delayed_ack_timeout_ms: 200.0,
            sack: true,
            timestamps: true,
            dupack_threshold: 3,
            send_buffer_bytes: 131_072,
            recv_buffer_bytes: 131_072,
            headers: HeaderOverhead::default(),
        }
    }
}
