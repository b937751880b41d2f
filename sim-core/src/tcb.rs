//! What a TCP sender shares with its congestion control: the window state ([`Tcb`], ns-3's
//! `TcpSocketState`), the ACK and delivery-rate samples handed to the algorithm, and the
//! loss-recovery states. A leaf below both `tcp` and `cc`, so neither imports the other's
//! internals.

use crate::time::{SimDuration, SimTime};
use serde::{Deserialize, Serialize};

/// Loss-recovery state of the sender (the Linux/ns-3 congestion state machine).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CongState {
    Open,
    /// Duplicate ACKs seen, not yet enough to declare a loss.
    Disorder,
    /// Fast recovery after a loss detected by duplicate ACKs / SACK.
    Recovery,
    /// Recovery after a retransmission timeout.
    Loss,
    /// Reducing the window for an ECN echo (RFC 3168 §6.1.2; Linux and ns-3 `CA_CWR`).
    Cwr,
}

/// What signalled congestion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CongestionKind {
    /// Three duplicate ACKs or SACK-detected loss.
    DupAck,
    /// Retransmission timeout.
    Rto,
    /// An ECN echo (ECE): a mark, not a loss.
    Ecn,
}

/// The sender state congestion control reads and writes (ns-3 `TcpSocketState`).
#[derive(Clone, Debug)]
pub struct Tcb {
    /// Congestion window in bytes. Algorithms grow it with saturating arithmetic: it stops at
    /// `u32::MAX` rather than wrap; the sender bounds what it sends by rwnd and the buffers.
    pub cwnd: u32,
    /// Slow-start threshold in bytes.
    pub ssthresh: u32,
    /// Sender maximum segment size (payload bytes).
    pub mss: u32,
    pub state: CongState,
    /// Bytes in flight (RFC 6675 pipe) after the current ACK was applied.
    pub bytes_in_flight: u32,
    /// Highest segment index sent so far plus one.
    pub high_tx: u32,
    /// Cumulative ACK of the current ACK (next segment expected by the receiver).
    pub last_acked: u32,
    /// True when the window, not the application or the peer, limits sending.
    pub cwnd_limited: bool,
    pub srtt: Option<SimDuration>,
    pub min_rtt: Option<SimDuration>,
}

impl Tcb {
    pub fn cwnd_segments(&self) -> u32 {
        self.cwnd / self.mss.max(1)
    }
}

/// An ACK as congestion control sees it.
#[derive(Clone, Copy, Debug)]
pub struct AckSample {
    pub now: SimTime,
    /// Segments newly acknowledged (cumulatively or by SACK).
    pub segments_acked: u32,
    /// RTT passed to the algorithm: ns-3 hands `PktsAcked` the smoothed RTT.
    pub rtt: Option<SimDuration>,
    /// The latest RTT sample (what Linux hands its algorithms).
    pub latest_rtt: Option<SimDuration>,
    /// The ACK echoed congestion (ECE on an ECN connection).
    pub ece: bool,
}

/// One delivery-rate sample, produced per ACK that delivered data.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RateSample {
    /// Bytes delivered over `interval`.
    pub delivered: u64,
    pub interval: SimDuration,
    /// delivered / interval in bit/s (0 when not `valid`).
    pub delivery_rate_bps: f64,
    /// The connection's delivered count when the sampled packet was sent (BBR's rounds).
    pub prior_delivered: u64,
    /// The connection's total delivered bytes after this ACK.
    pub total_delivered: u64,
    pub is_app_limited: bool,
    /// False when the interval is shorter than the minimum RTT (draft §3.3: discard).
    pub valid: bool,
    /// Bytes newly acknowledged or SACKed by this ACK.
    pub newly_delivered: u64,
    /// Segments newly marked lost by this ACK.
    pub newly_lost: u32,
    /// Bytes in flight before this ACK was processed.
    pub prior_in_flight: u32,
    /// RTT sample carried by this ACK, if any.
    pub rtt: Option<SimDuration>,
}
