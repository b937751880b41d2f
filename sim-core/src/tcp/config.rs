use super::PrrRules;
use crate::net::HeaderOverhead;
use crate::params::{fmt_num, Checker, Field, Kind, Range};
use serde::{Deserialize, Serialize};

/// TCP parameters shared by every flow of a scenario. Defaults are ns-3 3.44's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
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
    /// In-order data segments acknowledged at once when a connection starts, before delayed
    /// ACKs (RFC 5681 §4.2, RFC 1122 §4.2.3.2) take over. ns-3.44: 1 (`ProcessSynRcvd` sets
    /// the delayed-ACK count to its maximum, "always respond to first data packet to speed
    /// up the connection"). Linux: quick-ACK mode, `tcp_incr_quickack` on the first data
    /// segment, min(16 (`TCP_MAX_QUICKACKS`), rcv_wnd / (2·MSS)) ACKs. 0 = delayed ACKs from
    /// the first segment. Any ACK sent uses one up. The default is 0, not ns-3.44's 1: one
    /// segment earlier in slow start moves the long-flow presets' loss patterns, and with
    /// them paper figures (RED zones, Vegas/NewReno jitter and delay, bufferbloat drops)
    /// out of their golden bands; `tests/ns3/compare.py` sets 1.
    pub initial_quick_acks: u32,
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
    /// Delivery-rate snapshots take the delivered count from before the ACK that let the
    /// segment go, as ns-3.44's `TcpRateLinux` behaves (traced): BBR then overestimates the
    /// bottleneck by about one ACK per round and keeps a standing queue. Off = Linux.
    pub rate_snapshot_before_ack: bool,
    /// Karn's rule also for timestamp samples, and a backoff that every ACK of new data
    /// clears, as ns-3's `TcpSocketBase` does. With a 200 ms minimum RTO and 200 ms delayed
    /// ACKs a flow left with one segment after a timeout then times out again and again
    /// (ns-3's CUBIC starves next to BBR). Off = RFC 7323 / Linux: every ACK with a
    /// timestamp gives a sample and only a sample clears the backoff. Which ACKs ns-3.44
    /// samples exactly: `rtt_history`.
    pub karn_with_timestamps: bool,
    /// A pacing congestion control (BBR) paces the initial window too. Off = ns-3.44
    /// (`TcpSocketState::PaceInitialWindow` false): the first `initial_cwnd_segments` leave
    /// in one burst and pacing starts with the next. Linux paces from the first segment.
    pub pace_initial_window: bool,
    /// Proportional Rate Reduction as ns-3.44's `TcpPrrRecovery` (RecoverFS from pipe, a
    /// segment credited per duplicate ACK besides the SACKed bytes, 32-bit arithmetic) or
    /// as RFC 9937 / Linux. See [`PrrRules`].
    pub prr: PrrRules,
    /// In fast recovery only the first partial ACK restarts the retransmission timer (RFC
    /// 6582 §3.2 step 5 and §4, the "impatient" variant), as ns-3.44's
    /// `TcpSocketBase::ProcessAck` does (`NewAck(ackNumber, m_isFirstPartialAck)`; the flag
    /// is set again when a full ACK ends CA_RECOVERY or CA_LOSS): a recovery lasting an RTO
    /// past its first partial ACK ends in a timeout. Off = RFC 6298 (5.3) / Linux: every
    /// ACK of new data restarts the timer. On by default (the ns-3.44 profile); off in the
    /// Linux one. Over ten seeds of the RED study (device queue 100) it moves timeouts
    /// against ns-3.44 from −17 / −2 / −10 % (RED / ARED / Gentle) to −15 / −8 / −9 %.
    pub impatient_rto: bool,
    /// An ACK that advances SND.UNA but also SACKs new data, leaving the sender in Disorder
    /// (fewer than dupthresh duplicate ACKs), restarts the retransmission timer. Off (the
    /// default, the ns-3.44 profile) = ns-3.44's `TcpSocketBase::ProcessAck`, which calls
    /// `NewAck` (the timer's only restart on an ACK) in CA_OPEN, CA_LOSS, CA_CWR and on a
    /// recovery's first partial ACK but not in CA_DISORDER: the timer keeps the expiry of
    /// the last ACK in Open. On = RFC 6298 (5.3) / Linux (`tcp_clean_rtx_queue` rearms it
    /// whenever data is cumulatively acknowledged), the Linux profile. In slow start's
    /// overshoot the ACK that reports a flow's first hole often advances SND.UNA too (the
    /// delayed ACK of the segment before it), after a gap of 100 ms or more behind the
    /// other flows' bursts; ns-3's flows then time out that much sooner.
    pub rto_restart_in_disorder: bool,
    /// A retransmission that is then SACKed still counts in the pipe until the cumulative
    /// ACK covers it, as in ns-3.44: `TcpTxBuffer::Update` sets `m_sacked` and leaves
    /// `m_retrans` with its byte count, and `BytesInFlight()` = sent − SACKed − lost +
    /// retransmitted (ns-3's own `BytesInFlightRFC()`, which skips SACKed octets, is only
    /// checked in a commented-out assertion). In a recovery with many holes each repaired
    /// hole above the first keeps a segment in the pipe, so cwnd − pipe allows less: about
    /// 0.78 segments sent per ACK in ns-3's first recoveries of `pie-8newreno-20M-rtt20`
    /// against 1.0 with the RFC's count. On by default (the ns-3.44 profile); off = RFC 6675
    /// `SetPipe()` and Linux (`tcp_sacktag_one` lowers `retrans_out`), the Linux profile.
    pub sacked_retransmissions_in_pipe: bool,
    /// With `karn_with_timestamps`: which ACKs give an RTT sample, as ns-3.44's
    /// `TcpSocketBase::EstimateRtt` picks them from `m_history`. ns-3 keeps a record of every
    /// segment sent as new data, empties it on a timeout (`ReTxTimeout`: `m_history.clear()`)
    /// and samples when an ACK covers the oldest segment still recorded; with timestamps the
    /// sample is the echo (`CalculateRttSample`), whether or not that segment was
    /// retransmitted. So after a timeout no sample comes until an ACK covers data first sent
    /// after it, but in fast recovery the ACKs of retransmitted segments do give samples.
    /// Off: no sample whenever the oldest segment an ACK covers was retransmitted (Karn's
    /// rule for timestamps too), which also freezes the estimate through a fast recovery.
    /// Ignored without `karn_with_timestamps` (RFC 7323 / Linux: every timestamped ACK of new
    /// data gives a sample). Off by default, and so not part of the ns-3.44 profile, because
    /// on it moves the RED study's golden figures (seed 1 of RED: throughput CV 50.4 → 43.2 %,
    /// zone 0 37.8 → 28.8 %); `tests/ns3/compare.py` sets it on its Warbler-path rows, where
    /// a starved CUBIC flow's estimate decides whether it ever leaves back-to-back timeouts
    /// (`tests/ns3/COMPARISON.md`).
    pub rtt_history: bool,
    /// The ACK that ends a timeout's recovery (Loss) grows the window by every segment it
    /// delivered, newly acknowledged or SACKed, as Linux's `tcp_cong_avoid` counts
    /// `acked_sacked`; off (ns-3.44, the default): only by the segments above the recovery
    /// point, so a window of one segment whose last holes are filled by that ACK stays at one,
    /// and with a minimum RTO below the delayed-ACK timeout each next segment times out.
    /// Not in the Linux profile yet ([`super::TcpProfile`] says why).
    pub grow_at_loss_exit: bool,
    /// How the sender answers an ECN echo: ns-3.44's (the default, the ns-3.44 profile) or
    /// Linux's CWR state (the Linux profile). Only an ACK with ECE on an ECN connection
    /// tells them apart. See [`CwrRules`].
    pub cwr_rules: CwrRules,
    /// DCTCP as ns-3.44's `TcpDctcp` has it (the default, the ns-3.44 profile) or as
    /// Linux's `tcp_dctcp.c` (the Linux profile): the receiver's ACK when the CE state of
    /// arriving segments changes, and the sender's first window of α. Only DCTCP (and the
    /// per-segment echo Prague's receiver shares with it) tells them apart. See
    /// [`DctcpRules`].
    pub dctcp_rules: DctcpRules,
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
            initial_quick_acks: 0,
            sack: true,
            timestamps: true,
            dupack_threshold: 3,
            send_buffer_bytes: 131_072,
            recv_buffer_bytes: 131_072,
            rate_snapshot_before_ack: true,
            karn_with_timestamps: true,
            pace_initial_window: false,
            prr: PrrRules::Ns3,
            impatient_rto: true,
            rto_restart_in_disorder: false,
            sacked_retransmissions_in_pipe: true,
            rtt_history: false,
            grow_at_loss_exit: false,
            cwr_rules: CwrRules::Ns3,
            dctcp_rules: DctcpRules::Ns3,
            headers: HeaderOverhead::default(),
        }
    }
}

/// How the sender answers an echo of congestion (ECE, RFC 3168 §6.1.2): the CWR state's
/// entry and exit, a loss in it, and the CWR flag. Linux's `tcp_input.c` and ns-3.44's
/// `TcpSocketBase` (`tcp-socket-base.cc`) part ways on each; ACKs without ECE, and so every
/// scenario without ECN, run alike under both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CwrRules {
    /// Linux (`tcp_fastretrans_alert`) and RFC 3168:
    /// - an echo on an ACK that advances SND.UNA reduces the window only from Open or
    ///   Disorder (`tcp_enter_cwr` acts below `TCP_CA_CWR`), after the ACK was processed:
    ///   ssthresh from the congestion control, PRR from the next ACK on;
    /// - in CWR, duplicate ACKs that show a loss start fast recovery;
    /// - CWR ends with cwnd = ssthresh on an ACK above the recovery point (`snd_una !=
    ///   high_seq`: the CWR flag has then reached the receiver, which stops echoing);
    /// - the CWR flag rides on the first new segment after each reduction
    ///   (`tcp_ecn_queue_cwr`).
    Linux,
    /// ns-3.44 `TcpSocketBase::ReceivedAck`, `ProcessAck`, `EnterCwr`, `DupAck` and
    /// `SendDataPacket` (`sender_ecn.rs` has the details):
    /// - CWR ends (cwnd = ssthresh) on an ACK above the recovery point, and an echo on an
    ///   ACK that advances SND.UNA enters it from any state but CWR (Recovery and Loss
    ///   too, leaving their recovery), before the ACK is processed: ssthresh from the window
    ///   and (DCTCP) α as they were before this ACK;
    /// - `TcpPrrRecovery::EnterRecovery` (RecoverFS = pipe) runs `DoRecovery` for the ACK
    ///   as a duplicate ACK (a segment more credited, one at least allowed), and the CA_CWR
    ///   branch of `ProcessAck` runs it again for the same ACK;
    /// - a duplicate ACK in CWR is only counted: no fast recovery (a segment SACK marks
    ///   lost still goes out when the window allows, `NextSeg` rule 1, else the timer
    ///   repairs it);
    /// - the CWR flag rides on the first new segment after any echo once the last CWR
    ///   segment is acknowledged, reduction or not (the receiver then stops echoing).
    Ns3,
}

/// Where ns-3.44's DCTCP (`tcp-dctcp.cc`, `TcpDctcp`, which the receiving socket runs too)
/// and Linux's (`tcp_dctcp.c`) part ways. Both receivers, when the CE state of arriving
/// segments changes while an ACK is delayed (RFC 8257 §3.2), send that ACK at once with the
/// old state and go on with the new one; they differ in what it covers and when it is sent.
/// Both senders update α once per window of data; they differ in where the first window
/// ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DctcpRules {
    /// Linux (`dctcp_ece_ack_update`, `dctcp_init`):
    /// - when a delayed ACK is pending, an ACK of everything received before the segment
    ///   that changed the state (`prior_rcv_nxt`, read after the previous segment was
    ///   taken in), with the old state; the segment that changed it then waits for the
    ///   next delayed ACK here (Linux also acknowledges it at once, `ICSK_ACK_NOW`, which
    ///   is not modelled);
    /// - the first window of α ends at SND.NXT when the connection starts (`next_seq =
    ///   snd_nxt` at init), so the first ACK of data already updates α.
    Linux,
    /// ns-3.44 (`TcpDctcp::CeState0to1` / `CeState1to0`, which `TcpSocketBase::ForwardUp`
    /// calls for every ECN-capable segment before `ReceivedData` takes it in, and
    /// `TcpDctcp::PktsAcked`):
    /// - `m_priorRcvNxt` is read before each segment is taken in, so the ACK sent at a
    ///   change covers what came before the *previous* segment: a duplicate of the last
    ///   ACK when that segment was the delayed one, one segment behind through a run of
    ///   changes (marks on every other segment), and with it the echo of each segment's
    ///   state a segment late;
    /// - it is sent when `m_delayedAckReserved` is set (by the last in-order segment being
    ///   delayed, or by the delayed-ACK timer; cleared by an ACK sent for the count or for
    ///   a gap), not when an ACK is pending, and, as every ACK, restarts the delayed-ACK
    ///   count;
    /// - it carries ECE when the state goes from CE to not-CE, none the other way;
    /// - a CE segment counts as CE only above the highest seen CE (`m_ecnCESeq < seq`);
    /// - the first window of α ends at SND.NXT as of the first ACK (`m_nextSeq` is set
    ///   on the first `PktsAcked` call), one window later than Linux's.
    Ns3,
}

/// A timer of at least 1 ms: below it a retransmission or SYN timer would spin in place.
const TIMER_MS: Range = Range::closed(1.0, 600_000.0);
const HEADER: Range = Range::closed(0.0, 1000.0);
const BUFFER: Range = Range::closed(16.0, 4_294_967_295.0);

impl TcpConfig {
    /// Every parameter, with its range (paths under `tcp`).
    pub const FIELDS: &'static [Field] = &[
        Field::new(
            "mss_bytes",
            "MSS",
            "bytes",
            Kind::Int(Range::closed(16.0, 65_000.0)),
            "Segment payload (ns-3 536; the RED study uses 512).",
        ),
        Field::new(
            "initial_cwnd_segments",
            "Initial window",
            "segments",
            Kind::Int(Range::closed(1.0, 1000.0)),
            "Congestion window at the start.",
        ),
        Field::new(
            "min_rto_ms",
            "Minimum RTO",
            "ms",
            Kind::Float(TIMER_MS),
            "RFC 6298 and ns-3: 1000 ms; Linux: 200 ms.",
        ),
        Field::new(
            "initial_rto_ms",
            "Initial RTO",
            "ms",
            Kind::Float(TIMER_MS),
            "RTO before the first RTT sample (RFC 6298: 1 s).",
        ),
        Field::new("max_rto_ms", "Maximum RTO", "ms", Kind::Float(TIMER_MS), "Backoff stops here (60 s)."),
        Field::new(
            "clock_granularity_ms",
            "Clock granularity",
            "ms",
            Kind::Float(Range::closed(0.0, 1000.0)),
            "G in RTO = SRTT + max(G, 4·RTTVAR).",
        ),
        Field::new(
            "syn_timeout_ms",
            "SYN timeout",
            "ms",
            Kind::Float(TIMER_MS),
            "Retransmission timeout of a SYN (ns-3 ConnTimeout, 3 s).",
        ),
        Field::new(
            "delayed_ack_count",
            "Delayed ACK count",
            "segments",
            Kind::Int(Range::closed(1.0, 64.0)),
            "ACK every this many in-order segments...",
        ),
        Field::new(
            "delayed_ack_timeout_ms",
            "Delayed ACK timeout",
            "ms",
            Kind::Float(Range::closed(0.0, 10_000.0)),
            "...or after this long.",
        ),
        Field::new(
            "initial_quick_acks",
            "Quick ACKs at start",
            "segments",
            Kind::Int(Range::closed(0.0, 1000.0)),
            "The first in-order data segments are acknowledged at once: ns-3.44 1 (the first), Linux 16 (quick-ACK mode); 0 = delayed ACKs from the start (the default, which keeps the paper figures).",
        ),
        Field::new(
            "sack",
            "SACK",
            "",
            Kind::Bool,
            "Selective ACKs with RFC 6675 recovery; off = NewReno partial ACKs.",
        ),
        Field::new(
            "timestamps",
            "Timestamps",
            "",
            Kind::Bool,
            "RFC 7323: an RTT sample on every ACK, 12 header bytes per packet.",
        ),
        Field::new(
            "dupack_threshold",
            "Dup-ACK threshold",
            "ACKs",
            Kind::Int(Range::closed(1.0, 100.0)),
            "Duplicate ACKs that trigger fast retransmit.",
        ),
        Field::new(
            "send_buffer_bytes",
            "Send buffer",
            "bytes",
            Kind::Int(BUFFER),
            "Caps data in flight (ns-3: 128 KiB); at least one MSS.",
        ),
        Field::new(
            "recv_buffer_bytes",
            "Receive buffer",
            "bytes",
            Kind::Int(BUFFER),
            "Out-of-order data held; the advertised window; at least one MSS.",
        ),
        Field::new(
            "rate_snapshot_before_ack",
            "ns-3 rate samples",
            "",
            Kind::Bool,
            "Delivery-rate samples count one ACK more than their interval, as ns-3.44 (BBR's standing queue); off = Linux.",
        ),
        Field::new(
            "karn_with_timestamps",
            "ns-3 RTO rules",
            "",
            Kind::Bool,
            "No RTT sample from an ACK of a retransmitted segment even with timestamps; each new ACK clears the RTO backoff (ns-3); off = RFC 7323 / Linux.",
        ),
        Field::new(
            "pace_initial_window",
            "Pace initial window",
            "",
            Kind::Bool,
            "A pacing sender (BBR) paces its first window too (Linux); off = ns-3.44, which sends it in one burst.",
        ),
        Field::new(
            "prr",
            "PRR",
            "",
            Kind::Choice(&[("ns3", "ns-3.44"), ("rfc9937", "RFC 9937")]),
            "Proportional rate reduction in fast recovery: ns-3.44's (RecoverFS from pipe, a segment credited per duplicate ACK, 32-bit arithmetic) or RFC 9937's (Linux).",
        ),
        Field::new(
            "impatient_rto",
            "ns-3 recovery timer",
            "",
            Kind::Bool,
            "In fast recovery only the first partial ACK restarts the retransmission timer (RFC 6582 impatient, as ns-3.44, the default); off = every ACK of new data restarts it (RFC 6298, Linux).",
        ),
        Field::new(
            "rto_restart_in_disorder",
            "Timer restart in Disorder",
            "",
            Kind::Bool,
            "An ACK of new data that leaves the sender in Disorder (it SACKs new data too) restarts the retransmission timer (RFC 6298, Linux); off = ns-3.44 (the default), which restarts it only from Open, Loss and a recovery's first partial ACK.",
        ),
        Field::new(
            "sacked_retransmissions_in_pipe",
            "SACKed retransmissions in pipe",
            "",
            Kind::Bool,
            "A retransmission that is SACKed keeps counting in the pipe until the cumulative ACK (ns-3.44's BytesInFlight, the default); off = RFC 6675 and Linux.",
        ),
        Field::new(
            "rtt_history",
            "ns-3 RTT sample record",
            "",
            Kind::Bool,
            "With the ns-3 RTO rules: an ACK gives an RTT sample when it covers the oldest segment sent as new data since the last timeout, retransmitted or not, as ns-3.44's m_history; off = none from an ACK whose oldest segment was retransmitted.",
        ),
        Field::new(
            "grow_at_loss_exit",
            "Grow at Loss exit",
            "",
            Kind::Bool,
            "The ACK that ends a timeout's recovery grows the window by every segment it delivered (Linux); off = ns-3.44 (the default), only by those above the recovery point.",
        ),
        Field::new(
            "cwr_rules",
            "CWR",
            "",
            Kind::Choice(&[("linux", "Linux"), ("ns3", "ns-3.44")]),
            "The reduction for an ECN echo: ns-3.44's (the default: from any state, Recovery and Loss included; PRR credits the echoing ACK twice and a segment more; a loss in it starts no fast recovery; CWR on new data after every echo) or Linux's (from Open or Disorder only, PRR from the next ACK, a loss in it starts fast recovery).",
        ),
        Field::new(
            "dctcp_rules",
            "DCTCP",
            "",
            Kind::Choice(&[("linux", "Linux"), ("ns3", "ns-3.44")]),
            "DCTCP as ns-3.44's TcpDctcp (the default: the receiver's ACK at a change of CE state covers what came before the previous segment, a segment behind Linux's; the first α window ends at SND.NXT of the first ACK) or as Linux's tcp_dctcp.c.",
        ),
        Field::new("headers.ip_bytes", "IP header", "bytes", Kind::Int(HEADER), "IPv4: 20."),
        Field::new("headers.tcp_bytes", "TCP header", "bytes", Kind::Int(HEADER), "Without options: 20."),
        Field::new(
            "headers.timestamp_option_bytes",
            "Timestamp option",
            "bytes",
            Kind::Int(HEADER),
            "10, padded to 12.",
        ),
        Field::new(
            "headers.link_bytes",
            "Link header",
            "bytes",
            Kind::Int(HEADER),
            "Point-to-point (PPP): 2.",
        ),
    ];

    /// Rules between fields, beyond each one's range.
    pub fn check_more(&self, c: &mut Checker) {
        if self.max_rto_ms.is_finite() && self.max_rto_ms < self.min_rto_ms {
            c.push(
                "max_rto_ms",
                fmt_num(self.max_rto_ms),
                format!("min_rto_ms = {} to 600000 ms", fmt_num(self.min_rto_ms)),
            );
        }
        for (name, v) in
            [("send_buffer_bytes", self.send_buffer_bytes), ("recv_buffer_bytes", self.recv_buffer_bytes)]
        {
            if v < self.mss_bytes {
                c.push(name, v, format!("{} to 4294967295 bytes (at least one MSS)", self.mss_bytes));
            }
        }
    }
}
