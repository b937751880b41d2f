//! Sender behaviour over a loss-controlled loopback: each packet arrives after a fixed
//! one-way delay, and chosen transmissions of chosen segments are dropped.

use super::*;
use crate::cc::CcaSpec;
use crate::tcp::TcpReceiver;
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
    /// times a retransmission timeout fired
    rto_times: Vec<SimTime>,
    /// The sender just before the ACK that started the first fast recovery.
    before_recovery: Option<Snapshot>,
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
            rto_times: Vec::new(),
            before_recovery: None,
        }
    }

    fn drop_segment(mut self, seq: u32, times: u32) -> Self {
        self.drops.insert(seq, times);
        self
    }

    fn put(&mut self, out: Vec<Packet>, to_receiver: bool) {
        for p in out {
            if to_receiver && p.kind == PacketKind::Data {
                if let Some(n) = self.drops.get_mut(&p.seq) {
                    if *n > 0 {
                        *n -= 1;
                        continue;
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
                    self.s.on_packet(&p, t, &mut out);
                    if was != CongState::Recovery && self.s.cong_state() == CongState::Recovery {
                        self.before_recovery.get_or_insert(snap);
                    }
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
