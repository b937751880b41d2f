//! The sending side of a TCP connection: handshake, windowed transmission, SACK-based loss
//! recovery (RFC 6675) with PRR (RFC 6937), NewReno partial ACKs without SACK (RFC 6582),
//! and the retransmission timer (RFC 6298). The state machine mirrors ns-3's
//! `TcpSocketBase` (Open / Disorder / Recovery / Loss).

use super::prr::Prr;
use super::rate::{RateEstimator, RateSample};
use super::rtt::RttEstimator;
use super::scoreboard::{NextSeg, Scoreboard};
use super::timer::Timer;
use super::{CwrRules, TcpConfig};
use crate::cc::{AckSample, CcaSpec, CongState, CongestionControl, CongestionKind, Tcb};
use crate::net::{Packet, PacketKind, SackBlock, TcpEcnFlags, MAX_SACK_BLOCKS};
use crate::time::{SimDuration, SimTime};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    NotStarted,
    SynSent,
    Established,
    /// Every byte of a finite flow is acknowledged.
    Completed,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SenderStats {
    pub segments_sent: u64,
    pub retransmissions: u64,
    /// Every expiry of the retransmission timer on data, backed-off repeats included.
    pub timeouts: u64,
    /// Of `timeouts`, by the congestion state the timer found: Open (a tail loss, or no
    /// duplicate ACK came back), Disorder (fewer than dupthresh duplicate ACKs, or no
    /// SACKed segment far enough above the hole), Recovery (a retransmission or what
    /// recovery had left to send was lost), Loss (the backed-off timer expiring again
    /// before the timeout's retransmission was acknowledged). ns-3's `CongState` trace
    /// fires only on a change, so an entry count there (`tests/ns3/dumbbell.cc` before
    /// issue 22) leaves out the Loss column.
    pub timeouts_open: u64,
    pub timeouts_disorder: u64,
    pub timeouts_recovery: u64,
    pub timeouts_loss: u64,
    pub fast_recoveries: u64,
    /// Window reductions for an ECN echo (RFC 3168 §6.1.2: at most one per round trip).
    pub ecn_reductions: u64,
}

#[derive(Debug)]
pub struct TcpSender {
    flow: u32,
    cfg: TcpConfig,
    header_bytes: u32,
    total_segments: Option<u32>,
    last_segment_bytes: u32,
    phase: Phase,
    sb: Scoreboard,
    tcb: Tcb,
    cc: Box<dyn CongestionControl>,
    dupacks: u32,
    recover: u32,
    recover_active: bool,
    /// ns-3's `m_isFirstPartialAck` (`TcpConfig::impatient_rto`).
    first_partial_ack: bool,
    /// SND.NXT at the last timeout: ns-3's `m_history` holds the segments from here on
    /// (`TcpConfig::rtt_history`).
    rtt_history_from: u32,
    prr: Prr,
    rtt: RttEstimator,
    rwnd: u32,
    /// Retransmission timer (data) or connection timer (SYN).
    pub rto_timer: Timer,
    /// Wakes the sender when pacing allows the next segment.
    pub pace_timer: Timer,
    next_send_time: SimTime,
    rate: RateEstimator,
    syn_sent_at: SimTime,
    syn_retries: u32,
    app_stopped: bool,
    stats: SenderStats,
    started_at: Option<SimTime>,
    completed_at: Option<SimTime>,
    /// The connection it serves (see [`Packet::conn`]).
    conn: u8,
    /// Bytes of its finite transfer; `None` for a bulk one.
    size_bytes: Option<u64>,
    /// Classic ECN (RFC 3168) asked for by its flow group; a scalable congestion control
    /// (DCTCP, Prague) asks for its own codepoint whatever this says.
    classic_ecn: bool,
    /// ECN was agreed at the handshake (SYN with ECE and CWR, SYN-ACK with ECE).
    ecn_on: bool,
    /// The next new data segment carries CWR: the window was reduced for an echo.
    cwr_pending: bool,
    /// The ACK being processed echoed congestion (ECE, on an ECN connection; under
    /// ns-3.44's CWR rules, as its `m_ecnState == ECN_ECE_RCVD` reads).
    ece: bool,
    /// ns-3.44's sender ECN state (`tcp.cwr_rules = ns3`): `ECN_ECE_RCVD`, the ack of the
    /// last echo (`m_ecnEchoSeq`) and the last segment sent with CWR (`m_ecnCWRSeq`).
    ece_rcvd: bool,
    ecn_echo_seq: u32,
    ecn_cwr_seq: Option<u32>,
}

fn ms(v: f64) -> SimDuration {
    SimDuration::from_secs_f64(v / 1e3)
}

impl TcpSender {
    /// A sender for `flow`; `size_bytes` None means an unlimited (bulk) transfer.
    pub fn new(flow: u32, cfg: &TcpConfig, cca: &CcaSpec, size_bytes: Option<u64>) -> TcpSender {
        TcpSender::with_cc(flow, cfg, cca.build(), size_bytes)
    }

    /// A sender with an already built congestion control (e.g. one given its flow's random
    /// stream through its [`crate::cc::CcFactory`]).
    pub fn with_cc(
        flow: u32,
        cfg: &TcpConfig,
        mut cc: Box<dyn CongestionControl>,
        size_bytes: Option<u64>,
    ) -> TcpSender {
        cc.tcp_rules(cfg);
        TcpSender::assemble(flow, cfg, cc, size_bytes)
    }

    /// A sender around a congestion control already told the TCP rules (a persistent
    /// connection's next message keeps its own).
    fn assemble(
        flow: u32,
        cfg: &TcpConfig,
        cc: Box<dyn CongestionControl>,
        size_bytes: Option<u64>,
    ) -> TcpSender {
        // A UDP source counts its datagrams as TCP counts segments.
        let mss = cc.datagrams().map_or(cfg.mss_bytes, |d| d.payload).max(1);
        let (total_segments, last_segment_bytes) = match size_bytes {
            None => (None, mss),
            // A connection opened with nothing to send yet (a persistent connection's
            // handshake ahead of its first message): complete once established.
            Some(0) => (Some(0), mss),
            Some(b) => {
                let n = b.div_ceil(u64::from(mss)).max(1);
                let last = (b - (n - 1) * u64::from(mss)) as u32;
                (Some(n.min(u64::from(u32::MAX)) as u32), last.max(1))
            }
        };
        let tcb = Tcb {
            cwnd: cfg.initial_cwnd_segments.max(1) * mss,
            ssthresh: u32::MAX,
            mss,
            state: CongState::Open,
            bytes_in_flight: 0,
            high_tx: 0,
            last_acked: 0,
            cwnd_limited: false,
            srtt: None,
            min_rtt: None,
        };
        let mut sb = Scoreboard::default();
        sb.set_sacked_retrans_in_pipe(cfg.sacked_retransmissions_in_pipe);
        TcpSender {
            flow,
            cfg: cfg.clone(),
            header_bytes: cfg.headers.base(cfg.timestamps),
            total_segments,
            last_segment_bytes,
            phase: Phase::NotStarted,
            sb,
            tcb,
            cc,
            dupacks: 0,
            recover: 0,
            recover_active: false,
            first_partial_ack: true,
            rtt_history_from: 0,
            prr: Prr::new(cfg.prr),
            rtt: RttEstimator::new(
                ms(cfg.min_rto_ms),
                ms(cfg.initial_rto_ms),
                ms(cfg.max_rto_ms),
                ms(cfg.clock_granularity_ms),
            ),
            rwnd: cfg.recv_buffer_bytes,
            rto_timer: Timer::default(),
            pace_timer: Timer::default(),
            next_send_time: SimTime::ZERO,
            rate: RateEstimator::new(cfg.rate_snapshot_before_ack),
            syn_sent_at: SimTime::ZERO,
            syn_retries: 0,
            app_stopped: false,
            stats: SenderStats::default(),
            started_at: None,
            completed_at: None,
            conn: 0,
            size_bytes,
            classic_ecn: false,
            ecn_on: false,
            cwr_pending: false,
            ece: false,
            ece_rcvd: false,
            ecn_echo_seq: 0,
            ecn_cwr_seq: None,
        }
    }

    /// Makes ready the flow's next connection, for a new transfer of `size_bytes` with a
    /// fresh congestion control: every connection state starts again, the counters go on
    /// (they are the flow's), and the timers' wake-ups already queued stay known (a stale
    /// one finds nothing due). [`TcpSender::start`] then sends its SYN.
    pub fn renew(&mut self, cc: Box<dyn CongestionControl>, size_bytes: Option<u64>) {
        let mut next = TcpSender::with_cc(self.flow, &self.cfg, cc, size_bytes);
        next.stats = self.stats;
        next.conn = self.conn.wrapping_add(1);
        next.classic_ecn = self.classic_ecn;
        (next.rto_timer, next.pace_timer) = (self.rto_timer, self.pace_timer);
        next.rto_timer.disarm();
        next.pace_timer.disarm();
        *self = next;
    }

    /// Sends the next message of `size_bytes` on the same connection once the last is
    /// complete (a persistent connection: no handshake): the sequence space starts again
    /// (the message is the connection's next, [`Packet::conn`]), the congestion control,
    /// window, slow-start threshold and RTT estimate carry over. After an idle period of an
    /// RTO or more the window restarts at the initial window (RFC 9293's and Linux's
    /// `tcp_slow_start_after_idle`, RFC 2861 §3, simplified to one step).
    pub fn next_message(&mut self, size_bytes: u64, now: SimTime, out: &mut Vec<Packet>) {
        let idle = self.completed_at.is_none_or(|t| now - t >= self.rtt.rto());
        let idle_cc: Box<dyn CongestionControl> = Box::new(crate::cc::udp::Unresponsive::idle());
        let cc = std::mem::replace(&mut self.cc, idle_cc);
        let mut next = TcpSender::assemble(self.flow, &self.cfg, cc, Some(size_bytes));
        next.stats = self.stats;
        next.conn = self.conn.wrapping_add(1);
        (next.rto_timer, next.pace_timer) = (self.rto_timer, self.pace_timer);
        next.rto_timer.disarm();
        next.pace_timer.disarm();
        let initial = next.tcb.cwnd;
        next.tcb =
            Tcb { state: CongState::Open, bytes_in_flight: 0, high_tx: 0, last_acked: 0, ..self.tcb.clone() };
        if idle {
            next.tcb.cwnd = next.tcb.cwnd.min(initial);
        }
        next.rtt = self.rtt.clone();
        next.rwnd = self.rwnd;
        (next.classic_ecn, next.ecn_on) = (self.classic_ecn, self.ecn_on);
        next.started_at = Some(now);
        next.phase = Phase::Established;
        *self = next;
        self.send_pending(now, out);
    }

    /// Whether its finite transfer is complete (every byte acknowledged).
    pub fn is_complete(&self) -> bool {
        self.phase == Phase::Completed
    }

    // ---- accessors -------------------------------------------------------------------

    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn cwnd(&self) -> u32 {
        self.tcb.cwnd
    }
    pub fn ssthresh(&self) -> u32 {
        self.tcb.ssthresh
    }
    pub fn cong_state(&self) -> CongState {
        self.tcb.state
    }
    pub fn srtt(&self) -> Option<SimDuration> {
        self.rtt.srtt()
    }
    pub fn latest_rtt(&self) -> Option<SimDuration> {
        self.rtt.latest()
    }
    /// RFC 6675 pipe in bytes, saturating (retransmissions can make pipe exceed what was
    /// sent once, and a send buffer may be up to 4 GiB).
    pub fn bytes_in_flight(&self) -> u32 {
        self.sb.pipe().saturating_mul(self.tcb.mss)
    }
    /// Segments sent and not yet cumulatively acknowledged (SND.NXT − SND.UNA).
    pub fn segments_outstanding(&self) -> u32 {
        self.sb.outstanding()
    }
    /// The sender's record of outstanding segments (for inspection and tests).
    pub fn scoreboard(&self) -> &Scoreboard {
        &self.sb
    }

    pub fn stats(&self) -> SenderStats {
        self.stats
    }
    /// When the connection opened (its first SYN): the group's start plus this flow's jitter.
    pub fn started_at(&self) -> Option<SimTime> {
        self.started_at
    }
    pub fn flow(&self) -> u32 {
        self.flow
    }
    pub fn completed_at(&self) -> Option<SimTime> {
        self.completed_at
    }
    /// Bytes of its (current) finite transfer; `None` for a bulk one.
    pub fn size_bytes(&self) -> Option<u64> {
        self.size_bytes
    }
    pub fn cc(&self) -> &dyn CongestionControl {
        self.cc.as_ref()
    }
    pub fn rto(&self) -> SimDuration {
        self.rtt.rto()
    }

    fn seg_bytes(&self, seq: u32) -> u32 {
        match self.total_segments {
            Some(n) if seq + 1 == n => self.last_segment_bytes,
            _ => self.tcb.mss,
        }
    }

    // ---- application -------------------------------------------------------------------

    /// Opens the connection: sends a SYN (a UDP source its first datagram).
    pub fn start(&mut self, now: SimTime, out: &mut Vec<Packet>) {
        if self.phase != Phase::NotStarted {
            return;
        }
        self.started_at = Some(now);
        if let Some(d) = self.cc.datagrams() {
            self.phase = Phase::Established;
            self.send_datagram(d, now, out);
            return;
        }
        self.phase = Phase::SynSent;
        self.cc.init(&mut self.tcb, now);
        self.send_syn(now, out);
    }

    /// The application stops offering new data (outstanding data is still delivered).
    pub fn stop(&mut self) {
        self.app_stopped = true;
    }

    /// The application offers data again after a stop (a timed change moved the stop).
    pub fn resume(&mut self, now: SimTime, out: &mut Vec<Packet>) {
        if std::mem::replace(&mut self.app_stopped, false) {
            match self.cc.datagrams() {
                Some(d) if self.phase == Phase::Established && !self.pace_timer.is_armed() => {
                    self.send_datagram(d, now, out)
                }
                Some(_) => {}
                None => self.send_pending(now, out),
            }
        }
    }

    /// A UDP source's next datagram, unless stopped or done, and the wake-up for the one
    /// after it.
    fn send_datagram(&mut self, d: crate::cc::Datagrams, now: SimTime, out: &mut Vec<Packet>) {
        let seq = self.stats.segments_sent.min(u64::from(u32::MAX)) as u32;
        if self.app_stopped || self.total_segments.is_some_and(|n| seq >= n) {
            return;
        }
        let payload = self.seg_bytes(seq);
        let h = &self.cfg.headers;
        let wire = payload + crate::cc::udp::UDP_HEADER_BYTES + h.ip_bytes + h.link_bytes;
        let kind = if d.echo { PacketKind::Echo } else { PacketKind::Datagram };
        let mut p = self.packet(kind, seq, payload, wire, now, false);
        if d.echo {
            p.stamp(now);
        }
        out.push(p);
        self.stats.segments_sent += 1;
        let start = self.started_at.unwrap_or(now);
        self.pace_timer.arm(d.next_after(start, now));
    }

    pub fn is_stopped(&self) -> bool {
        self.app_stopped
    }

    fn send_syn(&mut self, now: SimTime, out: &mut Vec<Packet>) {
        self.syn_sent_at = now;
        // MSS and SACK-permitted options ride on the SYN: 8 more bytes.
        let mut syn = self.packet(PacketKind::Syn, 0, 0, self.header_bytes + 8, now, self.syn_retries > 0);
        // RFC 3168 §6.1.1: an ECN-setup SYN carries ECE and CWR.
        if self.ecn_codepoint().is_some() {
            syn.tcp_ecn = TcpEcnFlags::new(true, true);
        }
        out.push(syn);
        // ns-3: connection timeout doubles per retry.
        let timeout = ms(self.cfg.syn_timeout_ms).mul(1 << self.syn_retries.min(16));
        self.rto_timer.arm(now + timeout);
    }

    fn packet(
        &self,
        kind: PacketKind,
        seq: u32,
        payload: u32,
        wire: u32,
        now: SimTime,
        retx: bool,
    ) -> Packet {
        Packet {
            flow: self.flow,
            kind,
            seq,
            payload,
            wire_bytes: wire,
            ack: 0,
            sack: [SackBlock::default(); MAX_SACK_BLOCKS],
            sack_len: 0,
            ts_val: now.as_millis() as u32,
            ts_ecr: 0,
            rwnd: self.cfg.recv_buffer_bytes,
            hop: 0,
            retransmission: retx,
            fin: false,
            conn: self.conn,
            ecn: crate::net::Ecn::NotEct,
            tcp_ecn: TcpEcnFlags::NONE,
        }
    }

    // ---- sending -----------------------------------------------------------------------

    fn can_send_new(&self) -> bool {
        if self.app_stopped || self.phase != Phase::Established {
            return false;
        }
        let nxt = self.sb.nxt();
        if self.total_segments.is_some_and(|n| nxt >= n) {
            return false;
        }
        // The send buffer holds everything unacknowledged plus what is about to go.
        (u64::from(self.sb.outstanding()) + 1) * u64::from(self.tcb.mss)
            <= u64::from(self.cfg.send_buffer_bytes)
    }

    /// RFC 6675 (C): send while cwnd − pipe allows a full segment, no faster than the
    /// congestion control's pacing rate.
    ///
    /// The window used is min(cwnd, rwnd), and new data also waits for room in the send
    /// buffer (`can_send_new`), so what is in flight is bounded by the receive and send
    /// buffers whatever cwnd says. cwnd itself is the algorithm's, as in ns-3, which does not
    /// clamp it: a flow limited by rwnd for long keeps growing it (NewReno grows it whether or
    /// not it is used), so every algorithm grows it with saturating arithmetic and it stops
    /// at `u32::MAX` (4 GiB) instead of wrapping.
    pub fn send_pending(&mut self, now: SimTime, out: &mut Vec<Packet>) {
        if self.phase != Phase::Established {
            return;
        }
        let rule3 = self.cfg.sack && self.tcb.state == CongState::Recovery;
        loop {
            let window = u64::from(self.tcb.cwnd.min(self.rwnd));
            if u64::from(self.bytes_in_flight()) + u64::from(self.tcb.mss) > window {
                break;
            }
            let Some(next) = self.sb.next_seg(self.can_send_new(), rule3) else {
                // The window allows more but there is nothing to send (draft-cheng §3.4).
                self.rate.mark_app_limited(self.bytes_in_flight());
                break;
            };
            if self.pacing() && now < self.next_send_time {
                self.pace_timer.arm(self.next_send_time);
                break;
            }
            match next {
                NextSeg::Retransmit(seq) => self.transmit(Some(seq), now, out),
                NextSeg::New => self.transmit(None, now, out),
            }
        }
        if self.sb.outstanding() > 0 && !self.rto_timer.is_armed() {
            self.rto_timer.arm(now + self.rtt.rto());
        }
    }

    /// Whether sends wait for the pacing rate: a pacing congestion control, and (ns-3.44
    /// `PaceInitialWindow` false) once the initial window has gone out; the segment that
    /// completes it starts the pacing clock.
    fn pacing(&self) -> bool {
        self.cc.pacing_rate().is_some()
            && (self.cfg.pace_initial_window || self.sb.nxt() >= self.cfg.initial_cwnd_segments)
    }

    /// Sends segment `seq` again, or the next new segment when `None`.
    fn transmit(&mut self, seq: Option<u32>, now: SimTime, out: &mut Vec<Packet>) {
        let tx = self.rate.on_send(now, self.bytes_in_flight());
        let retransmission = seq.is_some();
        let seq = match seq {
            Some(seq) => {
                self.sb.on_retransmit(seq, now, tx);
                self.stats.retransmissions += 1;
                seq
            }
            None => self.sb.push_new(now, tx),
        };
        let payload = self.seg_bytes(seq);
        let mut segment =
            self.packet(PacketKind::Data, seq, payload, payload + self.header_bytes, now, retransmission);
        // The application closed when it wrote its last byte: the FIN rides on the last
        // segment, and on its retransmissions (ns-3.44 `SendDataPacket`, Linux `tcp_send_fin`).
        segment.fin = self.total_segments.is_some_and(|n| seq + 1 == n);
        self.stamp_ecn(&mut segment, retransmission);
        out.push(segment);
        self.stats.segments_sent += 1;
        self.tcb.high_tx = self.sb.nxt();
        self.tcb.bytes_in_flight = self.bytes_in_flight();
        // ns-3: window-limited if less than a segment of cwnd is left after this send.
        self.tcb.cwnd_limited = self.tcb.cwnd < self.tcb.bytes_in_flight.saturating_add(self.tcb.mss);
        if matches!(self.tcb.state, CongState::Recovery | CongState::Cwr) {
            self.prr.on_sent(payload);
        }
        self.cc.on_sent(&self.tcb, payload, now);
        if let Some(rate) = self.cc.pacing_rate().filter(|_| self.pacing()) {
            // Paced by payload bytes, as Linux (EDT, `skb->len`) and ns-3 (`SendDataPacket`)
            // do: the rate is a delivery rate of payload.
            let start = self.next_send_time.max(now);
            self.next_send_time = start + rate.tx_time(payload);
        }
    }

    // ---- receiving ---------------------------------------------------------------------

    pub fn on_packet(&mut self, p: &Packet, now: SimTime, out: &mut Vec<Packet>) {
        if p.conn != self.conn {
            return; // an earlier connection's straggler
        }
        match (p.kind, self.phase) {
            (PacketKind::SynAck, Phase::SynSent) => {
                self.phase = Phase::Established;
                self.ecn_on = self.ecn_codepoint().is_some() && p.tcp_ecn.ece();
                self.rto_timer.disarm();
                if self.syn_retries == 0 {
                    self.rtt.sample(now - self.syn_sent_at);
                    self.sync_rtt_to_tcb();
                }
                self.rwnd = p.rwnd;
                if self.total_segments == Some(0) {
                    self.phase = Phase::Completed;
                    self.completed_at = Some(now);
                    return;
                }
                self.send_pending(now, out);
            }
            (PacketKind::Ack, Phase::Established) => self.on_ack(p, now, out),
            _ => {}
        }
    }

    fn sync_rtt_to_tcb(&mut self) {
        self.tcb.srtt = self.rtt.srtt();
        self.tcb.min_rtt = self.rtt.min_rtt();
    }

    fn on_ack(&mut self, p: &Packet, now: SimTime, out: &mut Vec<Packet>) {
        let old_una = self.sb.una();
        if p.ack < old_una || p.ack > self.sb.nxt() {
            return; // stale, or acknowledges data never sent
        }
        self.rwnd = p.rwnd;
        self.ece = self.read_echo(p, old_una);
        let prior_in_flight = self.bytes_in_flight();
        let reno_before = self.sb.reno_sacked();
        let (total, last, mss) = (self.total_segments, self.last_segment_bytes, self.tcb.mss);
        let seg_bytes = |seq: u32| if total.is_some_and(|n| seq + 1 == n) { last } else { mss };
        let rate = &mut self.rate;
        let mut on_delivered =
            |seq: u32, tx: &super::rate::TxSnapshot| rate.on_delivered(tx, seg_bytes(seq), now);
        let newly_sacked =
            if self.cfg.sack { self.sb.apply_sack(p.sack_blocks(), &mut on_delivered) } else { 0 };
        let retx_head_acked = p.ack > old_una && self.sb.is_retransmitted(old_una);
        let adv = self.sb.advance(p.ack, &mut on_delivered);
        // Without SACK, duplicate ACKs already counted the segments they stood for.
        let reno_after_advance = self.sb.reno_sacked();
        self.rate.uncount_reno_delivered(
            u64::from(reno_before.saturating_sub(reno_after_advance)) * u64::from(mss),
        );
        let newly_lost = if self.cfg.sack && newly_sacked > 0 {
            self.sb.mark_lost_by_sack(self.cfg.dupack_threshold)
        } else {
            0
        };
        let delivered_segs = adv.segments - adv.previously_sacked + newly_sacked;

        let rtt = if p.ack <= old_una {
            None
        } else if self.cfg.karn_with_timestamps {
            // ns-3 (`NewAck`, `EstimateRtt`): every ACK of new data recomputes the RTO from
            // the estimate, dropping the backoff, and no sample is taken, timestamps or not,
            // when the oldest segment it covers was retransmitted.
            self.rtt.clear_backoff();
            let skip = if self.cfg.rtt_history {
                // ns-3.44 `EstimateRtt`: the ACK must cover the oldest recorded segment, the
                // first one sent as new data since the last timeout; with timestamps it
                // need not be a first transmission.
                p.ack <= old_una.max(self.rtt_history_from) || (!self.cfg.timestamps && retx_head_acked)
            } else {
                retx_head_acked
            };
            if skip {
                None
            } else {
                self.take_rtt_sample(p, &adv, now)
            }
        } else {
            self.take_rtt_sample(p, &adv, now)
        };
        self.tcb.last_acked = p.ack;
        self.tcb.bytes_in_flight = self.bytes_in_flight();

        let is_dupack =
            if self.cfg.sack { newly_sacked > 0 } else { p.ack == old_una && old_una < self.sb.nxt() };
        self.process_ack(p.ack, old_una, is_dupack, delivered_segs, retx_head_acked, now, out);
        let reno_added = self.sb.reno_sacked().saturating_sub(reno_after_advance);
        if reno_added > 0 {
            self.rate.count_reno_delivered(u64::from(reno_added) * u64::from(mss), now);
        }

        // Model-based control (BBR) sees every delivery-rate sample (ns-3 `CongControl`).
        if let Some(rs) = self.rate.take_sample(self.rtt.min_rtt()) {
            let rs = RateSample { prior_in_flight, newly_lost, rtt, ..rs };
            self.tcb.bytes_in_flight = self.bytes_in_flight();
            self.cc.on_rate_sample(&mut self.tcb, &rs, now);
            if self.cc.marks_app_limited() {
                self.rate.mark_app_limited(self.bytes_in_flight());
            }
        }

        if self.total_segments.is_some_and(|n| self.sb.una() >= n) {
            self.phase = Phase::Completed;
            self.completed_at = Some(now);
            self.rto_timer.disarm();
            return;
        }
        self.send_pending(now, out);
    }

    /// RTT from the echoed timestamp (RFC 7323 §4.1), else from a segment that was never
    /// retransmitted (Karn's algorithm, RFC 6298 §3).
    fn take_rtt_sample(
        &mut self,
        p: &Packet,
        adv: &super::scoreboard::Advance,
        now: SimTime,
    ) -> Option<SimDuration> {
        let sample = if self.cfg.timestamps {
            let now_ms = now.as_millis() as u32;
            now_ms.checked_sub(p.ts_ecr).map(|d| SimDuration::from_millis(u64::from(d)))
        } else {
            adv.unambiguous_sent_at.map(|t| now - t)
        };
        if let Some(r) = sample {
            self.rtt.sample(r);
            self.sync_rtt_to_tcb();
        }
        sample
    }

    fn set_state(&mut self, s: CongState, now: SimTime) {
        self.tcb.state = s;
        self.cc.on_state(&mut self.tcb, s, now);
    }

    fn ack_sample(&self, segs: u32, now: SimTime) -> AckSample {
        AckSample {
            now,
            segments_acked: segs,
            rtt: self.rtt.srtt(),
            latest_rtt: self.rtt.latest(),
            ece: self.ece,
        }
    }

    /// ns-3 `ProcessAck`: the congestion state machine for one ACK.
    #[allow(clippy::too_many_arguments)]
    fn process_ack(
        &mut self,
        ack: u32,
        old_una: u32,
        is_dupack: bool,
        delivered: u32,
        safe: bool,
        now: SimTime,
        out: &mut Vec<Packet>,
    ) {
        let old_dupacks = self.dupacks;
        // ns-3.44 ends CWR, and starts it for an echo, before the ACK is processed.
        let safe = self.ns3_cwr_before_ack(ack, old_una, delivered, safe, now);
        if is_dupack {
            self.on_dupack(delivered, now, out);
        }
        if ack == old_una {
            if ack < self.sb.nxt() {
                // A duplicate ACK still shows one segment arrived.
                let s = self.ack_sample(1, now);
                self.cc.on_ack(&mut self.tcb, &s);
            }
            return;
        }
        let segs = delivered;
        if !is_dupack {
            self.dupacks = 0;
        }
        // RFC 6298 (5.3) restarts the timer on every ACK of new data. ns-3.44's ProcessAck
        // passes `m_isFirstPartialAck` as NewAck's resetRTO in CA_RECOVERY (RFC 6582 §3.2
        // step 5 / §4, "impatient") and sets it again when a full ACK ends CA_RECOVERY or
        // CA_LOSS; its EstimateRtt updates m_rto without rescheduling the timer.
        // ns-3.44 calls NewAck only from Open, Loss, CWR and the partial-ACK branch, not
        // when a duplicate ACK that also advanced SND.UNA leaves CA_DISORDER as it is
        // (`TcpConfig::rto_restart_in_disorder`).
        let partial = self.tcb.state == CongState::Recovery && ack < self.recover;
        let stays_disorder = self.tcb.state == CongState::Disorder && is_dupack;
        let held_in_recovery = partial && self.cfg.impatient_rto && !self.first_partial_ack;
        let held_in_disorder = stays_disorder && !self.cfg.rto_restart_in_disorder;
        if !held_in_recovery && !held_in_disorder {
            self.restart_rto(now);
        }
        if partial {
            self.first_partial_ack = false;
        } else if ack >= self.recover && matches!(self.tcb.state, CongState::Recovery | CongState::Loss) {
            self.first_partial_ack = true;
        }
        match self.tcb.state {
            CongState::Recovery if ack < self.recover => {
                // Partial ACK (RFC 6582 §3.2 / RFC 6675 (B)). Without SACK the next hole is
                // presumed lost. As ns-3 does, one segment goes out whatever the window says
                // unless the new head is already being retransmitted: this keeps the ACK
                // clock alive when a run of consecutive losses left nothing to SACK.
                if !self.cfg.sack {
                    self.sb.mark_head_lost();
                }
                if delivered >= 1 {
                    self.prr_update(delivered, safe, false);
                }
                if !self.sb.is_retransmitted(self.sb.una()) {
                    self.do_retransmit(now, out);
                }
                let s = self.ack_sample(1, now);
                self.cc.on_ack(&mut self.tcb, &s);
            }
            CongState::Loss if ack < self.recover => {
                let s = self.ack_sample(segs, now);
                self.cc.on_ack(&mut self.tcb, &s);
                self.cc.grow_window(&mut self.tcb, segs, now);
            }
            CongState::Cwr if self.cwr_goes_on(ack) => {
                // The reduction for an echo goes on: PRR, no growth (Linux
                // `tcp_cwnd_reduction` while `tcp_in_cwnd_reduction`; ns-3.44 `ProcessAck`'s
                // CA_CWR branch).
                self.prr_update(delivered, safe, false);
                let s = self.ack_sample(segs, now);
                self.cc.on_ack(&mut self.tcb, &s);
            }
            state => {
                let mut grow = segs;
                match state {
                    CongState::Open => {
                        let s = self.ack_sample(segs, now);
                        self.cc.on_ack(&mut self.tcb, &s);
                    }
                    CongState::Disorder => {
                        let s = self.ack_sample(segs.saturating_sub(old_dupacks), now);
                        self.cc.on_ack(&mut self.tcb, &s);
                        if !is_dupack {
                            self.set_state(CongState::Open, now);
                        }
                    }
                    CongState::Cwr => {
                        // Everything sent before the reduction is acknowledged: it ends
                        // with cwnd = ssthresh (Linux `tcp_end_cwnd_reduction`).
                        let s = self.ack_sample(segs, now);
                        self.cc.on_ack(&mut self.tcb, &s);
                        self.set_state(CongState::Open, now);
                        if !self.cc.has_cong_control() {
                            self.tcb.cwnd = self.tcb.ssthresh;
                        }
                    }
                    CongState::Recovery => {
                        // Full ACK: recovery ends with cwnd = ssthresh (RFC 6675 (A), RFC 6937).
                        grow = ack - old_una;
                        let s = self.ack_sample(grow, now);
                        self.cc.on_ack(&mut self.tcb, &s);
                        self.set_state(CongState::Open, now);
                        self.dupacks = 0;
                        if !self.cc.has_cong_control() {
                            self.tcb.cwnd = self.tcb.ssthresh;
                        }
                    }
                    CongState::Loss => {
                        // ns-3.44 grows the window by the segments above the recovery point;
                        // Linux's `tcp_cong_avoid` by every segment the ACK delivered
                        // (`tcp.grow_at_loss_exit`), so a window of one does not stay one.
                        grow = match self.cfg.grow_at_loss_exit {
                            true => delivered.max(ack.saturating_sub(self.recover)),
                            false => ack.saturating_sub(self.recover),
                        };
                        let s = self.ack_sample(grow, now);
                        self.cc.on_ack(&mut self.tcb, &s);
                        self.set_state(CongState::Open, now);
                    }
                }
                if ack >= self.recover {
                    self.recover_active = false;
                }
                if self.tcb.state == CongState::Open && !self.ece {
                    self.cc.grow_window(&mut self.tcb, grow, now);
                }
            }
        }
        let linux_cwr = self.cfg.cwr_rules == CwrRules::Linux;
        if linux_cwr && self.ece && matches!(self.tcb.state, CongState::Open | CongState::Disorder) {
            self.enter_cwr(now);
        }
    }

    /// PRR starts a reduction from what is in flight (a recovery's or an echo's).
    fn prr_enter(&mut self, in_flight: u32, delivered_segs: u32) {
        let mss = u64::from(self.tcb.mss);
        self.prr.enter(
            u64::from(in_flight),
            u64::from(self.sb.outstanding()) * mss,
            u64::from(self.sb.sacked()) * mss,
            u64::from(delivered_segs) * mss,
            self.tcb.mss,
        );
    }

    /// ns-3 `DupAck` with RFC 6675 §5 steps (1)-(2).
    fn on_dupack(&mut self, delivered: u32, now: SimTime, out: &mut Vec<Packet>) {
        if self.tcb.state == CongState::Loss {
            return;
        }
        if self.tcb.state != CongState::Recovery {
            self.dupacks += 1;
        }
        if self.tcb.state == CongState::Open {
            self.set_state(CongState::Disorder, now);
        }
        match self.tcb.state {
            // A loss while reducing for an echo: fast recovery takes over (Linux leaves
            // CWR for Recovery). ns-3.44's `DupAck` only counts it in CA_CWR.
            CongState::Cwr if self.cfg.cwr_rules == CwrRules::Linux => {
                let (una, thresh) = (self.sb.una(), self.cfg.dupack_threshold);
                if self.dupacks >= thresh || (self.cfg.sack && self.sb.is_lost(una, thresh)) {
                    self.enter_recovery(delivered, now, out);
                }
            }
            CongState::Recovery => {
                if !self.cfg.sack {
                    self.sb.add_reno_sack();
                }
                self.prr_update(delivered, false, true);
            }
            CongState::Disorder => {
                let una = self.sb.una();
                let thresh = self.cfg.dupack_threshold;
                let by_count = self.dupacks == thresh && (una >= self.recover || !self.recover_active);
                if by_count || (self.cfg.sack && self.sb.is_lost(una, thresh)) {
                    self.enter_recovery(delivered, now, out);
                } else if !self.cfg.sack {
                    self.sb.add_reno_sack(); // limited transmit (RFC 3042)
                }
            }
            _ => {}
        }
    }

    /// PRR sets cwnd during recovery, unless the algorithm sets it itself (ns-3 skips
    /// `DoRecovery` when `HasCongControl`).
    fn prr_update(&mut self, delivered_segs: u32, safe: bool, dupack: bool) {
        if self.cc.has_cong_control() {
            return;
        }
        let mss = self.tcb.mss;
        let delivered =
            if self.cfg.sack { u64::from(delivered_segs) * u64::from(mss) } else { u64::from(mss) };
        let pipe = u64::from(self.bytes_in_flight());
        if let Some(c) = self.prr.on_ack(delivered, pipe, u64::from(self.tcb.ssthresh), mss, safe, dupack) {
            self.tcb.cwnd = c;
        }
    }

    /// ns-3 `DoRetransmit`: send what `NextSeg` rules (1)-(2) pick, or the head again when
    /// they pick nothing, regardless of the window.
    fn do_retransmit(&mut self, now: SimTime, out: &mut Vec<Packet>) {
        match self.sb.next_seg(self.can_send_new(), false) {
            Some(NextSeg::Retransmit(seq)) => self.transmit(Some(seq), now, out),
            Some(NextSeg::New) => self.transmit(None, now, out),
            None if self.sb.outstanding() > 0 => self.transmit(Some(self.sb.una()), now, out),
            None => {}
        }
    }

    /// RFC 6675 (4): fast retransmit and enter recovery.
    fn enter_recovery(&mut self, delivered_segs: u32, now: SimTime, out: &mut Vec<Packet>) {
        if !self.cfg.sack {
            self.sb.add_reno_sack();
        }
        self.sb.mark_head_lost();
        self.recover = self.sb.nxt();
        self.recover_active = true;
        self.stats.fast_recoveries += 1;
        self.set_state(CongState::Recovery, now);
        let in_flight = self.bytes_in_flight();
        self.tcb.ssthresh = self.cc.on_congestion(&self.tcb, in_flight, CongestionKind::DupAck);
        self.prr_enter(in_flight, delivered_segs);
        self.prr_update(delivered_segs, false, true);
        // (4.3) Retransmit the first segment presumed lost now, whatever the window says.
        let head = self.sb.una();
        if !self.sb.is_retransmitted(head) {
            self.transmit(Some(head), now, out);
        }
    }
}

#[path = "sender_ecn.rs"]
mod ecn;
#[path = "sender_timers.rs"]
mod timers;

#[cfg(test)]
#[path = "sender_tests.rs"]
mod tests;
