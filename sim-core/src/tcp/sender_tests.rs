//! Sender behaviour over a loss-controlled loopback: each packet arrives after a fixed
//! one-way delay, and chosen transmissions of chosen segments are dropped.

use super::*;
use crate::cc::CcaSpec;
use crate::tcp::TcpReceiver;
use crate::tcp::{CwrRules, DctcpRules};
use std::collections::BTreeMap;

struct Loopback {
    s: TcpSender,
    r: TcpReceiver,
    now: SimTime,
    one_way: SimDuration,
    /// (arrival time, insertion order) → (packet, towards receiver?)
    wire: BTreeMap<(SimTime, u64), (Packet, bool)>,
    order: u64,
    /// segment → how many of its next transmissions to drop
    drops: BTreeMap<u32, u32>,
    /// segment → how many of its next ECN-capable transmissions to mark CE
    marks: BTreeMap<u32, u32>,
    /// The sender after each ACK it took.
    acks: Vec<AckLog>,
    /// times a retransmission timeout fired
    rto_times: Vec<SimTime>,
    /// The sender just before the ACK that started the first fast recovery.
    before_recovery: Option<Snapshot>,
}

/// The sender after an ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct AckLog {
    ack: u32,
    ece: bool,
    /// The state the ACK found, and the one it left.
    was: CongState,
    state: CongState,
    cwnd: u32,
    ssthresh: u32,
    /// Pipe in bytes, before the sender sent what the ACK allowed.
    pipe: u32,
}

/// What the sender held before an ACK.
#[derive(Clone, Copy, Debug)]
struct Snapshot {
    cwnd: u32,
    /// SND.NXT − SND.UNA, segments.
    outstanding: u32,
}

impl Loopback {
    fn new(cfg: TcpConfig, cca: CcaSpec, segments: u64) -> Loopback {
        let bytes = segments * u64::from(cfg.mss_bytes);
        Loopback {
            s: TcpSender::new(0, &cfg, &cca, Some(bytes)),
            r: TcpReceiver::new(0, &cfg),
            now: SimTime::ZERO,
            one_way: SimDuration::from_millis(10),
            wire: BTreeMap::new(),
            order: 0,
            drops: BTreeMap::new(),
            marks: BTreeMap::new(),
            acks: Vec::new(),
            rto_times: Vec::new(),
            before_recovery: None,
        }
    }

    fn drop_segment(mut self, seq: u32, times: u32) -> Self {
        self.drops.insert(seq, times);
        self
    }

    fn mark_segment(mut self, seq: u32, times: u32) -> Self {
        self.marks.insert(seq, times);
        self
    }

    fn put(&mut self, out: Vec<Packet>, to_receiver: bool) {
        for mut p in out {
            if to_receiver && p.kind == PacketKind::Data {
                if let Some(n) = self.drops.get_mut(&p.seq) {
                    if *n > 0 {
                        *n -= 1;
                        continue;
                    }
                }
                if let Some(n) = self.marks.get_mut(&p.seq) {
                    if *n > 0 && p.ecn != crate::net::Ecn::NotEct {
                        *n -= 1;
                        p.ecn = crate::net::Ecn::Ce;
                    }
                }
            }
            self.order += 1;
            self.wire.insert((self.now + self.one_way, self.order), (p, to_receiver));
        }
    }

    fn run(&mut self, until: SimTime) {
        let mut out = Vec::new();
        self.s.start(self.now, &mut out);
        self.put(std::mem::take(&mut out), true);
        loop {
            let next_wire = self.wire.keys().next().map(|k| k.0);
            let candidates = [
                next_wire,
                self.s.rto_timer.deadline(),
                self.r.delack_timer.deadline(),
                self.s.pace_timer.deadline(),
            ];
            let Some(t) = candidates.iter().flatten().min().copied() else {
                break;
            };
            if t > until || self.s.phase() == Phase::Completed {
                break;
            }
            self.now = t;
            if next_wire == Some(t) {
                let (_, (p, to_rx)) = self.wire.pop_first().unwrap();
                if to_rx {
                    self.r.on_packet(&p, t, &mut out);
                    self.put(std::mem::take(&mut out), false);
                } else {
                    let snap = Snapshot { cwnd: self.s.cwnd(), outstanding: self.s.segments_outstanding() };
                    let was = self.s.cong_state();
                    // What the ACK leaves, before the sender sends what it allows.
                    let mut probe = Vec::new();
                    self.s.on_packet(&p, t, &mut probe);
                    let state = self.s.cong_state();
                    if was != CongState::Recovery && state == CongState::Recovery {
                        self.before_recovery.get_or_insert(snap);
                    }
                    if p.kind == PacketKind::Ack {
                        let sent: u32 =
                            probe.iter().filter(|q| q.kind == PacketKind::Data).map(|q| q.payload).sum();
                        self.acks.push(AckLog {
                            ack: p.ack,
                            ece: p.tcp_ecn.ece(),
                            was,
                            state,
                            cwnd: self.s.cwnd(),
                            ssthresh: self.s.ssthresh(),
                            pipe: self.s.bytes_in_flight().saturating_sub(sent),
                        });
                    }
                    out.append(&mut probe);
                    self.put(std::mem::take(&mut out), true);
                }
            } else if self.s.pace_timer.deadline() == Some(t) {
                self.s.on_pace_timer(t, &mut out);
                self.put(std::mem::take(&mut out), true);
            } else if self.s.rto_timer.deadline() == Some(t) {
                if self.s.phase() == Phase::Established {
                    self.rto_times.push(t);
                }
                self.s.on_timer(t, &mut out);
                self.put(std::mem::take(&mut out), true);
            } else {
                self.r.on_timer(t, &mut out);
                self.put(std::mem::take(&mut out), false);
            }
        }
    }
}

/// ns-3.44's receiver: the first data segment is acknowledged at once.
fn cfg(sack: bool) -> TcpConfig {
    TcpConfig { mss_bytes: 1000, sack, initial_quick_acks: 1, ..TcpConfig::default() }
}

fn recover(sack: bool, cca: CcaSpec, lost: &[u32]) -> Loopback {
    let mut l = Loopback::new(cfg(sack), cca, 200);
    for &s in lost {
        l = l.drop_segment(s, 1);
    }
    l.run(SimTime::from_secs_f64(30.0));
    l
}

fn assert_recovered_without_rto(l: &Loopback, lost: usize) {
    assert_eq!(l.s.phase(), Phase::Completed, "flow did not finish");
    assert_eq!(l.s.stats().timeouts, 0, "an RTO fired");
    assert_eq!(l.s.stats().fast_recoveries, 1);
    assert_eq!(l.s.stats().retransmissions, lost as u64);
    assert_eq!(l.r.delivered_bytes(), 200_000);
}

#[test]
fn sack_recovers_one_loss_in_a_window_without_rto() {
    assert_recovered_without_rto(&recover(true, CcaSpec::NewReno(Default::default()), &[30]), 1);
}

#[test]
fn sack_recovers_two_losses_in_a_window_without_rto() {
    assert_recovered_without_rto(&recover(true, CcaSpec::NewReno(Default::default()), &[30, 33]), 2);
}

#[test]
fn sack_recovers_three_losses_in_a_window_without_rto() {
    assert_recovered_without_rto(&recover(true, CcaSpec::NewReno(Default::default()), &[30, 31, 36]), 3);
}

#[test]
fn cubic_with_sack_recovers_three_losses_without_rto() {
    assert_recovered_without_rto(&recover(true, CcaSpec::default(), &[30, 31, 36]), 3);
}

#[test]
fn newreno_partial_acks_recover_one_loss_without_rto() {
    assert_recovered_without_rto(&recover(false, CcaSpec::NewReno(Default::default()), &[30]), 1);
}

#[test]
fn newreno_partial_acks_recover_two_losses_without_rto() {
    assert_recovered_without_rto(&recover(false, CcaSpec::NewReno(Default::default()), &[30, 33]), 2);
}

#[test]
fn newreno_partial_acks_recover_three_losses_without_rto() {
    assert_recovered_without_rto(&recover(false, CcaSpec::NewReno(Default::default()), &[30, 31, 36]), 3);
}

/// One loss (segment 40) in slow start; returns the loopback after the run.
fn one_loss_in_slow_start(cca: CcaSpec) -> Loopback {
    let mut l = Loopback::new(cfg(true), cca, 400).drop_segment(40, 1);
    l.run(SimTime::from_secs_f64(30.0));
    assert_eq!(l.s.stats().fast_recoveries, 1);
    assert_eq!(l.s.stats().timeouts, 0);
    l
}

#[test]
fn recovery_halves_the_pipe_for_newreno() {
    // RFC 5681 (4) with RFC 6675's pipe as FlightSize (ns-3's BytesInFlight):
    // ssthresh = max(pipe / 2, 2·SMSS), pipe taken when the third SACKed segment above the
    // hole marks it lost: outstanding − SACKed (3) − lost (1).
    let l = one_loss_in_slow_start(CcaSpec::NewReno(Default::default()));
    let before = l.before_recovery.expect("recovery entered");
    let pipe = (before.outstanding - 3 - 1) * 1000;
    assert_eq!(l.s.ssthresh(), (pipe / 2).max(2 * 1000), "{before:?}");
    // By hand: ns-3's slow start adds one MSS per ACK of new data, and delayed ACKs gave
    // 5, 7 and 8 of them in the first three round trips, so cwnd went from 10 to 30
    // segments and segments 40-69 were out at the first duplicate ACK. Limited transmit
    // (RFC 3042) sent 70 and 71 on the first two; at the third, pipe = 32 − 3 SACKed −
    // 1 lost = 28 segments, and ssthresh is 14.
    assert_eq!((before.cwnd, before.outstanding), (30_000, 32), "{before:?}");
    assert_eq!(l.s.ssthresh(), 14_000);
}

#[test]
fn recovery_multiplies_the_window_by_beta_for_cubic() {
    // RFC 9438 §4.6: ssthresh = cwnd · β_cubic (0.7), in whole segments as ns-3 and Linux.
    let l = one_loss_in_slow_start(CcaSpec::Cubic(crate::cc::CubicConfig {
        hystart: false,
        ..Default::default()
    }));
    let before = l.before_recovery.expect("recovery entered");
    // By hand: CUBIC's slow start adds the segments each ACK covers (2 with delayed ACKs,
    // 1 for the quick ACK of segment 0, after which one segment of each round waits for the
    // next). 5, 9 and 6 ACKs of new data in the first three round trips covered 9, 18 and 12
    // segments (segment 40 is lost; 41 draws the first duplicate ACK) and took cwnd from 10
    // to 49 segments; ssthresh = ⌊49 · 0.7⌋ = 34 segments.
    assert_eq!(before.cwnd, 49_000, "{before:?}");
    assert_eq!(l.s.ssthresh(), 34_000);
}

#[test]
fn tail_loss_is_repaired_by_the_retransmission_timer_after_min_rto() {
    let mut l = Loopback::new(cfg(true), CcaSpec::NewReno(Default::default()), 5).drop_segment(4, 1);
    l.run(SimTime::from_secs_f64(30.0));
    assert_eq!(l.s.phase(), Phase::Completed);
    assert_eq!(l.s.stats().timeouts, 1);
    // Segment 0 took the quick ACK and 1-2 were acknowledged together, so segment 3 waited
    // for the 200 ms delayed-ACK timer: its ACK at ~0.23 s restarted the 1 s timer (RFC 6298
    // (5.3)), which then fired for segment 4 (whose FIN never arrived).
    let fired = l.rto_times[0].as_secs_f64();
    assert!((1.2..1.3).contains(&fired), "RTO fired at {fired}");
}

#[test]
fn rto_backs_off_exponentially_while_retransmissions_are_lost() {
    let mut l = Loopback::new(cfg(true), CcaSpec::NewReno(Default::default()), 5).drop_segment(4, 3);
    l.run(SimTime::from_secs_f64(60.0));
    assert_eq!(l.s.stats().timeouts, 3);
    // The first expiry found the flow out of recovery; the two backed-off ones in Loss (the
    // ones ns-3's CongState trace does not show).
    let st = l.s.stats();
    assert_eq!(st.timeouts_open + st.timeouts_disorder + st.timeouts_recovery, 1, "{st:?}");
    assert_eq!(st.timeouts_loss, 2, "{st:?}");
    let gaps: Vec<f64> = l.rto_times.windows(2).map(|w| (w[1] - w[0]).as_secs_f64()).collect();
    assert!((gaps[0] - 2.0).abs() < 0.01, "{gaps:?}");
    assert!((gaps[1] - 4.0).abs() < 0.01, "{gaps:?}");
    assert_eq!(l.s.phase(), Phase::Completed);
}

#[test]
fn repeated_rto_holds_ssthresh() {
    let mut l = Loopback::new(cfg(true), CcaSpec::NewReno(Default::default()), 5).drop_segment(4, 2);
    l.run(SimTime::from_secs_f64(1.5));
    let after_first = l.s.ssthresh();
    assert_eq!(l.s.stats().timeouts, 1);
    l.run(SimTime::from_secs_f64(4.0));
    assert_eq!(l.s.stats().timeouts, 2);
    assert_eq!(l.s.ssthresh(), after_first);
}

#[test]
fn karn_rtt_is_not_sampled_from_a_retransmitted_segment() {
    // Without timestamps a retransmission's ACK is ambiguous: under RFC 6298 the backed-off
    // RTO stays (ns-3 clears it on any new ACK: see the ns3_ tests below).
    let cfg = TcpConfig { timestamps: false, karn_with_timestamps: false, ..cfg(true) };
    let mut l = Loopback::new(cfg, CcaSpec::NewReno(Default::default()), 5).drop_segment(4, 1);
    l.run(SimTime::from_secs_f64(30.0));
    assert_eq!(l.s.stats().timeouts, 1);
    assert_eq!(l.s.rto(), SimDuration::from_secs(2), "backoff must survive an ambiguous ACK");
}

#[test]
fn with_timestamps_a_retransmission_still_gives_a_valid_sample() {
    // RFC 7323 (karn_with_timestamps off).
    let cfg = TcpConfig { karn_with_timestamps: false, ..cfg(true) };
    let mut l = Loopback::new(cfg, CcaSpec::NewReno(Default::default()), 5).drop_segment(4, 1);
    l.run(SimTime::from_secs_f64(30.0));
    assert_eq!(l.s.rto(), SimDuration::from_secs(1));
}

/// A bulk sender whose application stops after the initial window of four segments: the
/// first takes the quick ACK, the next two are acknowledged together, and the lone fourth
/// (no FIN, so nothing flushes it) waits 1.5 s for its delayed ACK. The 1 s RTO fires first
/// and resends it, and the receiver's immediate ACK of the duplicate echoes the original's
/// timestamp.
fn spurious_rto(karn_with_timestamps: bool) -> Loopback {
    spurious_rto_with(TcpConfig { karn_with_timestamps, ..cfg(true) })
}

fn spurious_rto_with(cfg: TcpConfig) -> Loopback {
    let cfg = TcpConfig { delayed_ack_timeout_ms: 1500.0, initial_cwnd_segments: 4, ..cfg };
    let cca = CcaSpec::NewReno(Default::default());
    let mut l = Loopback::new(cfg.clone(), cca.clone(), 1);
    l.s = TcpSender::new(0, &cfg, &cca, None);
    // The handshake takes 20 ms; the window leaves at 20 ms and its first ACK is back at 40.
    l.run(SimTime::from_secs_f64(0.025));
    assert_eq!(l.s.segments_outstanding(), 4);
    l.s.stop();
    l.run(SimTime::from_secs_f64(30.0));
    assert_eq!(l.s.stats().timeouts, 1);
    assert_eq!(l.s.segments_outstanding(), 0);
    l
}

#[test]
fn ns3_rules_take_no_timestamp_sample_from_an_ack_of_a_retransmitted_segment() {
    let rfc = spurious_rto(false).s.latest_rtt().unwrap();
    assert!(rfc > SimDuration::from_millis(900), "RFC 7323 samples the echo: {rfc:?}");
    let ns3 = spurious_rto(true).s.latest_rtt().unwrap();
    assert!(ns3 < SimDuration::from_millis(100), "ns-3 applies Karn's rule: {ns3:?}");
}

#[test]
fn ns3_rtt_record_takes_no_sample_from_data_sent_before_a_timeout() {
    // ns-3.44's ReTxTimeout empties m_history: the ACK of the resent segment covers nothing
    // recorded, so its echo (the original's timestamp, 1.5 s old) is not sampled either.
    let ns3 = spurious_rto_with(TcpConfig { rtt_history: true, ..cfg(true) }).s.latest_rtt().unwrap();
    assert!(ns3 < SimDuration::from_millis(100), "{ns3:?}");
}

#[test]
fn ns3_rtt_record_samples_the_ack_of_a_fast_retransmission() {
    // One loss, repaired by fast recovery; from the moment recovery starts every packet takes
    // 40 ms each way instead of 10, so the ACKs that come back with the retransmission's echo
    // give 50 ms where the earlier ones were about 20 ms. ns-3.44 samples the ACK of the
    // retransmitted segment too (it is in m_history, and with timestamps CalculateRttSample
    // ignores its retransmitted flag); Karn's rule skips it, so one 50 ms sample fewer has
    // reached the estimate when the cumulative ACK first passes the hole.
    let srtt = |rtt_history: bool| {
        let cfg = TcpConfig { rtt_history, ..cfg(true) };
        let mut l = Loopback::new(cfg, CcaSpec::NewReno(Default::default()), 200).drop_segment(30, 1);
        let mut t = SimTime::ZERO;
        let step = SimDuration::from_micros(10);
        while l.s.cong_state() != CongState::Recovery {
            t += step;
            l.run(t);
        }
        l.one_way = SimDuration::from_millis(40);
        while l.s.scoreboard().una() <= 30 {
            t += step;
            l.run(t);
        }
        assert_eq!(l.s.stats().timeouts, 0);
        assert_eq!(l.s.latest_rtt(), Some(SimDuration::from_millis(50)));
        l.s.srtt().unwrap()
    };
    let (karn, ns3) = (srtt(false), srtt(true));
    assert!(ns3 > karn, "ns-3.44's record {ns3:?}, Karn's rule {karn:?}");
}

#[test]
fn ns3_rules_clear_the_backoff_on_an_ack_of_new_data_without_a_sample() {
    let cfg = TcpConfig { timestamps: false, ..cfg(true) };
    let mut l = Loopback::new(cfg, CcaSpec::NewReno(Default::default()), 5).drop_segment(4, 1);
    l.run(SimTime::from_secs_f64(30.0));
    assert_eq!(l.s.stats().timeouts, 1);
    assert_eq!(l.s.rto(), SimDuration::from_secs(1), "ns-3 recomputes the RTO on every new ACK");
}

#[test]
fn send_buffer_caps_the_data_in_flight() {
    let cfg = TcpConfig { send_buffer_bytes: 8_000, ..cfg(true) };
    let mut l = Loopback::new(cfg, CcaSpec::NewReno(Default::default()), 100);
    l.run(SimTime::from_secs_f64(0.021));
    assert!(l.s.segments_outstanding() <= 8);
}

fn bbr() -> CcaSpec {
    CcaSpec::Bbr(crate::cc::BbrConfig::default())
}

#[test]
fn bbr_with_sack_recovers_three_losses_without_rto() {
    assert_recovered_without_rto(&recover(true, bbr(), &[30, 31, 36]), 3);
}

#[test]
fn bbr_with_partial_acks_recovers_two_losses_without_rto() {
    assert_recovered_without_rto(&recover(false, bbr(), &[30, 33]), 2);
}

#[test]
fn a_model_based_window_is_not_touched_by_prr_in_recovery() {
    // BBR's first recovery round conserves packets: cwnd ≥ what is in flight, whereas PRR
    // would pull it towards ssthresh (which BBR leaves at its Drain value or infinity).
    let mut l = Loopback::new(cfg(true), bbr(), 400).drop_segment(60, 1);
    while l.s.cong_state() != CongState::Recovery && l.now < SimTime::from_secs_f64(5.0) {
        let t = l.now + SimDuration::from_micros(100);
        l.run(t);
        l.now = l.now.max(t);
    }
    assert_eq!(l.s.cong_state(), CongState::Recovery);
    assert!(l.s.cwnd() >= l.s.bytes_in_flight(), "cwnd {} < in flight {}", l.s.cwnd(), l.s.bytes_in_flight());
    l.run(SimTime::from_secs_f64(30.0));
    assert_eq!(l.s.stats().timeouts, 0);
    assert_eq!(l.s.phase(), Phase::Completed);
}

/// Send times of the first `n` data segments of a BBR flow.
fn first_send_times(cfg: TcpConfig, n: usize) -> Vec<SimTime> {
    let mut l = Loopback::new(cfg, bbr(), n as u64);
    let mut sent = Vec::new();
    while sent.len() < n && l.now < SimTime::from_secs_f64(1.0) {
        let t = l.now + SimDuration::from_micros(10);
        l.run(t);
        l.now = l.now.max(t);
        for (&(arrival, _), (p, to_rx)) in l.wire.iter() {
            let sent_at = SimTime(arrival.0 - l.one_way.0);
            if *to_rx && p.kind == PacketKind::Data && !sent.contains(&sent_at) {
                sent.push(sent_at);
            }
        }
    }
    sent.sort();
    sent
}

#[test]
fn the_initial_window_leaves_in_one_burst_unless_paced() {
    // ns-3.44 (PaceInitialWindow false): ten segments, one send time.
    let burst = first_send_times(cfg(true), 10);
    assert_eq!(burst.len(), 1, "{burst:?}");
    // Linux: paced from the first segment.
    let paced = first_send_times(TcpConfig { pace_initial_window: true, ..cfg(true) }, 10);
    assert_eq!(paced.len(), 10);
}

#[test]
fn pacing_spaces_segments_by_their_payload() {
    // BBR's first pacing rate: 2.89 × 10 segments of 1000 B / 20 ms handshake RTT, less 1 %.
    let sent = first_send_times(TcpConfig { pace_initial_window: true, ..cfg(true) }, 10);
    let rate: f64 = 2.89 * 10_000.0 * 8.0 / 0.020 * 0.99;
    let gap = crate::time::Rate(rate.round() as u64).tx_time(1000);
    assert_eq!(gap.as_nanos(), 699_032); // 1054 B on the wire: 736 780 ns
    for w in sent.windows(2) {
        assert_eq!(w[1] - w[0], gap, "segments of 1000 B payload (1054 B on the wire)");
    }
}

#[test]
fn an_impatient_recovery_times_out_where_a_patient_one_repairs_hole_by_hole() {
    // Five holes in one window without SACK: NewReno repairs one per RTT (20 ms), about
    // 100 ms in all, against a 50 ms RTO. Restarting the timer on every partial ACK
    // (RFC 6298 §5.3) carries the recovery through; ns-3.44's rule restarts it only on the
    // first (RFC 6582 §4, `impatient_rto`), so the timer fires mid-recovery.
    let run = |impatient: bool| {
        let cfg = TcpConfig { min_rto_ms: 50.0, impatient_rto: impatient, ..cfg(false) };
        let mut l = Loopback::new(cfg, CcaSpec::NewReno(Default::default()), 120);
        for s in [40, 42, 44, 46, 48] {
            l = l.drop_segment(s, 1);
        }
        l.run(SimTime::from_secs_f64(10.0));
        assert_eq!(l.s.phase(), Phase::Completed);
        l.s.stats().timeouts
    };
    assert_eq!(run(false), 0, "every partial ACK restarts the timer");
    assert!(run(true) >= 1, "the first partial ACK alone restarts it");
}

// ---- ECN: Linux's CWR rules against ns-3.44's (`tcp.cwr_rules`) ------------------------

/// A classic-ECN NewReno flow of 300 segments (or DCTCP with its receiver's per-segment
/// echo) under `rules`; `edit` marks and drops segments before the run.
fn ecn_flow(rules: CwrRules, cca: CcaSpec, sack: bool, edit: impl FnOnce(Loopback) -> Loopback) -> Loopback {
    let scalable = matches!(cca, CcaSpec::Dctcp(_));
    // Linux's DCTCP receiver and α window, whose numbers the CWR tests below work out
    // (`tcp.dctcp_rules` has its own tests).
    let cfg = TcpConfig { cwr_rules: rules, dctcp_rules: DctcpRules::Linux, ..cfg(sack) };
    let mut l = edit(Loopback::new(cfg, cca, 300));
    l.s.set_classic_ecn(true);
    l.r.set_accurate_echo(scalable);
    l.run(SimTime::from_secs_f64(60.0));
    assert_eq!(l.s.phase(), Phase::Completed, "flow did not finish");
    assert!(l.s.ecn_on());
    l
}

fn newreno() -> CcaSpec {
    CcaSpec::NewReno(Default::default())
}

/// The first ACK that echoes congestion, and those after it.
fn from_the_echo(l: &Loopback) -> &[AckLog] {
    let i = l.acks.iter().position(|a| a.ece).expect("an echo");
    &l.acks[i..]
}

#[test]
fn an_echo_holds_dctcps_flight_through_the_cwr_round_under_ns3s_rules() {
    // DCTCP (α ≈ 0.08 when segment 60 is marked, ssthresh = 70 000 · (1 − α/2) = 67 116 B);
    // the receiver's state change acknowledges 60 alone, with ECE (D = 1000 B), and finds
    // 69 segments in flight after it.
    let dctcp = || CcaSpec::Dctcp(crate::cc::DctcpConfig { alpha_on_init: 0.1, ..Default::default() });
    let linux = ecn_flow(CwrRules::Linux, dctcp(), true, |l| l.mark_segment(60, 1));
    let ns3 = ecn_flow(CwrRules::Ns3, dctcp(), true, |l| l.mark_segment(60, 1));
    let (l, n) = (from_the_echo(&linux), from_the_echo(&ns3));
    for a in [l[0], n[0]] {
        assert_eq!(
            (a.ack, a.was, a.state, a.ssthresh, a.pipe),
            (61, CongState::Open, CongState::Cwr, 67_116, 69_000)
        );
    }
    // Linux (`tcp_enter_cwr`): the window is left as it is; PRR works from the next ACK:
    // ceil(2000 · 67 116 / 69 000) − 1000 sent = 946 B over the pipe, and the flight falls
    // to ssthresh within the round.
    assert_eq!((l[0].cwnd, l[1].cwnd), (70_000, 68_946));
    assert_eq!(l[3].pipe, 65_000);
    // ns-3.44 (`EnterCwr` → `TcpPrrRecovery::EnterRecovery` → `DoRecovery` as a duplicate
    // ACK, then `ProcessAck`'s CA_CWR branch → `DoRecovery` again): prr_delivered = 1000 +
    // 1000 (the extra segment) + 1000 (counted twice): cwnd = 69 000 + ceil(3000 · 67 116 /
    // 69 000) = 71 919, then 1000 B delivered for each 1000 sent: the flight stays at the 69
    // segments it had when the echo came, through the round.
    assert_eq!((n[0].cwnd, n[1].cwnd), (71_919, 71_864));
    assert!(n.iter().take_while(|a| a.ack <= 95).all(|a| a.pipe == 69_000), "{n:?}");
}

#[test]
fn ns3_credits_the_echoing_ack_twice_and_ends_cwr_above_the_recovery_point() {
    // Classic ECN, NewReno: the echo of segment 60 comes on the ACK of 59-60 (D = 2000 B)
    // with 38 segments left in flight; ssthresh = 38 000 / 2, under both rules.
    let linux = ecn_flow(CwrRules::Linux, newreno(), true, |l| l.mark_segment(60, 1));
    let ns3 = ecn_flow(CwrRules::Ns3, newreno(), true, |l| l.mark_segment(60, 1));
    let (l, n) = (from_the_echo(&linux), from_the_echo(&ns3));
    for a in [l[0], n[0]] {
        assert_eq!((a.ack, a.state, a.ssthresh, a.pipe), (61, CongState::Cwr, 19_000, 38_000));
    }
    // Linux: untouched, then ceil(2000 · ½) − 2000 sent < 0: nothing more.
    assert_eq!((l[0].cwnd, l[1].cwnd), (40_000, 38_000));
    // ns-3.44: 38 000 + ceil((2000 + 1000 + 2000) · ½), then ceil(7000 · ½) − 2000 sent.
    assert_eq!((n[0].cwnd, n[1].cwnd), (40_500, 39_500));
    // The CWR flag rode on segment 99, the first sent after the echo (SND.NXT = 99 then),
    // so the receiver echoes until its ACK of 98. ns-3.44 and Linux (`snd_una !=
    // high_seq`) both hold CWR until an ACK above 99: one reduction for one mark.
    for run in [&n, &l] {
        let exit = run.iter().find(|a| a.state == CongState::Open).unwrap();
        assert_eq!((exit.ack, exit.was, exit.ece), (101, CongState::Cwr, false));
        assert!(exit.cwnd >= 19_000 && exit.cwnd < 19_100, "cwnd = ssthresh, then grown: {exit:?}");
    }
    assert_eq!(ns3.s.stats().ecn_reductions, 1);
    assert_eq!(linux.s.stats().ecn_reductions, 1);
}

#[test]
fn a_loss_in_cwr_waits_for_the_timer_under_ns3s_rules_and_starts_fast_recovery_under_linuxs() {
    // Without SACK: segment 64, sent before the echo of 60 came, is lost. Linux leaves CWR
    // for Recovery on the third duplicate ACK; ns-3.44's `DupAck` only counts them in
    // CA_CWR, nothing marks the hole lost, and the retransmission timer (1 s) repairs it.
    let run = |rules| ecn_flow(rules, newreno(), false, |l| l.mark_segment(60, 1).drop_segment(64, 1));
    let linux = run(CwrRules::Linux);
    let st = linux.s.stats();
    assert_eq!((st.fast_recoveries, st.timeouts, st.retransmissions), (1, 0, 1));
    assert!(linux.acks.iter().any(|a| a.was == CongState::Cwr && a.state == CongState::Recovery));
    let ns3 = run(CwrRules::Ns3);
    let st = ns3.s.stats();
    assert_eq!((st.fast_recoveries, st.timeouts, st.timeouts_open, st.retransmissions), (0, 1, 1, 1));
    let dupacks_in_cwr = ns3.acks.iter().filter(|a| a.ack == 64 && a.state == CongState::Cwr).count();
    assert!(dupacks_in_cwr >= 30, "{dupacks_in_cwr} duplicate ACKs in CWR");
    assert!(ns3.rto_times[0].as_secs_f64() > 1.0, "{:?}", ns3.rto_times);
}

#[test]
fn with_sack_ns3_resends_a_loss_in_cwr_as_sack_marks_it_and_keeps_its_flight() {
    // The same loss with SACK: under ns-3.44's rules the hole is marked lost by the SACKs
    // above it (`TcpTxBuffer::UpdateLostCount`) and `SendPendingData` resends it by
    // `NextSeg` rule 1 as soon as cwnd − pipe allows, in CA_CWR: no fast recovery, no
    // second reduction, and the frozen cwnd keeps the flight while the duplicate ACKs come.
    let run = |rules| ecn_flow(rules, newreno(), true, |l| l.mark_segment(60, 1).drop_segment(64, 1));
    let linux = run(CwrRules::Linux);
    assert_eq!((linux.s.stats().fast_recoveries, linux.s.stats().timeouts), (1, 0));
    let ns3 = run(CwrRules::Ns3);
    let st = ns3.s.stats();
    assert_eq!((st.fast_recoveries, st.timeouts, st.retransmissions), (0, 0, 1));
    let hole: Vec<&AckLog> = ns3.acks.iter().filter(|a| a.ack == 64).collect();
    assert!(hole.iter().all(|a| a.state == CongState::Cwr && a.pipe >= 36_000), "{hole:?}");
    let min_linux = linux.acks.iter().filter(|a| a.ack == 64).map(|a| a.pipe).min().unwrap();
    assert!(min_linux <= 26_000, "Linux's recovery halves the flight: {min_linux}");
}

#[test]
fn an_echo_on_a_partial_ack_leaves_recovery_for_cwr_under_ns3s_rules() {
    // Segments 60 and 70 lost, 62 marked: fast recovery for 60; the ACK of its
    // retransmission is a partial one (the hole at 70) and echoes 62's mark. ns-3.44's
    // `ReceivedAck` calls `EnterCwr` from CA_RECOVERY: ssthresh again, from what is in
    // flight (27 000 / 2), and the recovery is over; 70 goes out by `NextSeg` once SACK
    // marks it lost. Linux (`tcp_enter_cwr` acts below TCP_CA_CWR) stays in Recovery.
    let run = |rules| {
        ecn_flow(rules, newreno(), true, |l| l.drop_segment(60, 1).drop_segment(70, 1).mark_segment(62, 1))
    };
    let ns3 = run(CwrRules::Ns3);
    let partial =
        ns3.acks.iter().find(|a| a.was == CongState::Recovery && a.state != CongState::Recovery).unwrap();
    assert_eq!(
        (partial.ack, partial.ece, partial.state, partial.ssthresh),
        (70, true, CongState::Cwr, 13_500)
    );
    assert_eq!(
        (ns3.s.stats().fast_recoveries, ns3.s.stats().timeouts, ns3.s.stats().retransmissions),
        (1, 0, 2)
    );
    let linux = run(CwrRules::Linux);
    let a = linux.acks.iter().find(|a| a.ack == 70).unwrap();
    assert_eq!((a.was, a.state, a.ssthresh), (CongState::Recovery, CongState::Recovery, 19_000));
}
