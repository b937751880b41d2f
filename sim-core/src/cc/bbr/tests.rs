//! BBR state machine, driven by hand-made rate samples.

use super::*;
use crate::cc::new_reno::tests::tcb;
use crate::rng::StreamId;

const MBPS: f64 = 1e6;

fn ms(v: u64) -> SimDuration {
    SimDuration::from_millis(v)
}

/// A BBR and its window, fed one ACK at a time (1000-byte segments).
struct Harness {
    b: Bbr,
    t: Tcb,
    now: SimTime,
    delivered: u64,
}

impl Harness {
    fn new(cfg: BbrConfig) -> Harness {
        Harness::seeded(cfg, 1)
    }

    fn seeded(cfg: BbrConfig, seed: u64) -> Harness {
        let mut t = tcb(10, 1_000_000);
        t.srtt = Some(ms(10));
        let mut b = Bbr::new(cfg, SimRng::new(seed, StreamId::Flow(0)));
        b.init(&mut t, SimTime::ZERO);
        Harness { b, t, now: SimTime::ZERO, delivered: 0 }
    }

    /// One ACK of 2 segments `dt_ms` after the previous one, carrying a delivery-rate sample
    /// and an RTT sample; `new_round` makes it the first ACK of a packet-timed round.
    fn ack(&mut self, dt_ms: u64, rate_bps: f64, rtt_ms: u64, new_round: bool) {
        self.now += ms(dt_ms);
        let prior_delivered = if new_round { self.delivered } else { 0 };
        self.delivered += 2000;
        let rs = RateSample {
            delivered: 2000,
            interval: ms(10),
            delivery_rate_bps: rate_bps,
            prior_delivered,
            total_delivered: self.delivered,
            is_app_limited: false,
            valid: true,
            newly_delivered: 2000,
            newly_lost: 0,
            prior_in_flight: self.t.bytes_in_flight,
            rtt: Some(ms(rtt_ms)),
        };
        self.b.on_rate_sample(&mut self.t, &rs, self.now);
    }

    /// Startup at 10 Mbit/s until the pipe is full; in-flight data stays above the BDP so
    /// the flow sits in Drain afterwards.
    fn fill_pipe(&mut self) {
        self.t.bytes_in_flight = 100_000;
        for _ in 0..4 {
            self.ack(10, 10.0 * MBPS, 10, true);
        }
        assert_eq!(self.b.mode(), BbrMode::Drain);
    }

    /// Startup, Drain, then ProbeBW with 10 Mbit/s × 10 ms = 12.5 kB BDP.
    fn reach_probe_bw(&mut self) {
        self.fill_pipe();
        self.t.bytes_in_flight = 12_000;
        self.ack(1, 10.0 * MBPS, 10, false);
        assert_eq!(self.b.mode(), BbrMode::ProbeBw);
    }
}

#[test]
fn bbr_startup_exits_after_three_rounds_without_growth() {
    let mut h = Harness::new(BbrConfig::default());
    h.t.bytes_in_flight = 100_000;
    // Bandwidth doubles every round: still filling the pipe.
    for i in 0..6 {
        h.ack(10, MBPS * (1u64 << i) as f64, 10, true);
        assert_eq!(h.b.mode(), BbrMode::Startup, "round {i}");
    }
    // Growth under 25 %: the first two such rounds are not enough...
    h.ack(10, 35.0 * MBPS, 10, true);
    h.ack(10, 38.0 * MBPS, 10, true);
    // ...nor are extra ACKs within a round.
    for _ in 0..5 {
        h.ack(1, 35.0 * MBPS, 10, false);
    }
    assert_eq!(h.b.mode(), BbrMode::Startup);
    assert_eq!(h.b.pacing_gain(), 2.89);
    h.ack(10, 39.0 * MBPS, 10, true);
    assert_eq!(h.b.mode(), BbrMode::Drain);
    assert!((h.b.pacing_gain() - 1.0 / 2.89).abs() < 1e-12);
}

#[test]
fn bbr_startup_keeps_going_while_bandwidth_grows_by_a_quarter_each_round() {
    let mut h = Harness::new(BbrConfig::default());
    h.t.bytes_in_flight = 100_000;
    let mut bw = MBPS;
    for _ in 0..20 {
        h.ack(10, bw, 10, true);
        bw *= 1.26;
    }
    assert_eq!(h.b.mode(), BbrMode::Startup);
}

#[test]
fn bbr_drain_ends_when_inflight_falls_to_bdp() {
    let mut h = Harness::new(BbrConfig::default());
    h.fill_pipe();
    // BDP 12.5 kB plus 3 segments of quantization budget: 15.5 kB.
    assert_eq!(h.t.ssthresh, 15_500, "Drain entry sets ssthresh to the in-flight target");
    h.t.bytes_in_flight = 15_501;
    h.ack(1, 10.0 * MBPS, 10, false);
    assert_eq!(h.b.mode(), BbrMode::Drain);
    h.t.bytes_in_flight = 15_500;
    h.ack(1, 10.0 * MBPS, 10, false);
    assert_eq!(h.b.mode(), BbrMode::ProbeBw);
    assert_eq!(h.b.cwnd_gain(), 2.0);
}

#[test]
fn bbr_probe_bw_cycles_gains_in_order() {
    let mut h = Harness::new(BbrConfig::default());
    h.reach_probe_bw();
    let start = h.b.cycle_index;
    let mut gains = vec![h.b.pacing_gain()];
    for _ in 0..16 {
        // Each ACK comes more than one RTprop (10 ms) after the phase began, with enough
        // data in flight for the 1.25 phase to count as probed.
        h.t.bytes_in_flight = 30_000;
        h.ack(11, 10.0 * MBPS, 10, true);
        gains.push(h.b.pacing_gain());
    }
    let expected: Vec<f64> = (0..17).map(|i| PROBE_BW_GAINS[(start + i) % 8]).collect();
    assert_eq!(gains, expected);
}

#[test]
fn bbr_probe_bw_probes_until_the_extra_data_is_in_flight() {
    let mut h = Harness::new(BbrConfig::default());
    h.reach_probe_bw();
    while h.b.cycle_index != 0 {
        h.t.bytes_in_flight = 30_000;
        h.ack(11, 10.0 * MBPS, 10, true);
    }
    // 1.25·BDP + 5 segments = 20.625 kB is the target.
    h.t.bytes_in_flight = 20_000;
    h.ack(50, 10.0 * MBPS, 10, true);
    h.ack(50, 10.0 * MBPS, 10, true);
    assert_eq!(h.b.pacing_gain(), 1.25, "not enough in flight yet");
    h.t.bytes_in_flight = 21_000;
    h.ack(1, 10.0 * MBPS, 10, true);
    assert_eq!(h.b.pacing_gain(), 0.75);
    // The 0.75 phase ends early once in flight is down to one BDP.
    h.t.bytes_in_flight = 15_000;
    h.ack(1, 10.0 * MBPS, 10, true);
    assert_eq!(h.b.pacing_gain(), 1.0);
}

/// Linux's choices where ns-3's TcpBbr (the defaults) differs.
fn linux() -> BbrConfig {
    BbrConfig { random_phases: 7, min_rtt_refresh_on_equal: false, ..BbrConfig::default() }
}

/// The phases ProbeBW starts in, over 200 seeds.
fn starting_phases(cfg: BbrConfig) -> [bool; 8] {
    let mut seen = [false; 8];
    for seed in 0..200 {
        let mut h = Harness::seeded(cfg.clone(), seed);
        h.reach_probe_bw();
        seen[h.b.cycle_index] = true;
    }
    seen
}

#[test]
fn bbr_probe_bw_never_starts_in_the_draining_phase() {
    let seen = starting_phases(linux());
    assert!(!seen[1], "started in the 0.75 phase");
    assert_eq!(seen.iter().filter(|s| **s).count(), 7, "{seen:?}");
}

#[test]
fn bbr_probe_bw_starts_in_one_of_six_phases_as_ns3_does() {
    // ns-3 `EnterProbeBW`: cycle index 7 − ⌊U[0, 6)⌋, then advanced: 1.25 or one of the last
    // five 1.0 phases, never 0.75 nor the first 1.0 phase (Linux's 7 allows that one).
    let seen = starting_phases(BbrConfig::default());
    assert_eq!(seen, [true, false, false, true, true, true, true, true]);
}

#[test]
fn bbr_rtt_samples_equal_to_rt_prop_postpone_probe_rtt_as_in_ns3() {
    let mut h = Harness::new(BbrConfig::default());
    h.reach_probe_bw();
    h.t.bytes_in_flight = 20_000;
    // 12 s of samples equal to the 10 ms minimum: ns-3's `<=` keeps refreshing it.
    while h.now < SimTime::ZERO + SimDuration::from_secs(12) {
        h.ack(10, 10.0 * MBPS, 10, true);
        assert_ne!(h.b.mode(), BbrMode::ProbeRtt, "at {:?}", h.now);
    }
    assert_eq!(h.b.probe_rtt_count(), 0);
}

#[test]
fn bbr_enters_probe_rtt_after_ten_seconds_without_a_new_min_rtt_and_stays_200ms() {
    let mut h = Harness::new(linux());
    h.reach_probe_bw();
    // RTprop = 10 ms was measured by the first ACK, at 10 ms; RTT samples equal to or above
    // it do not refresh it, so it expires after 10.010 s.
    assert_eq!(h.b.rt_prop(), Some(ms(10)));
    let expiry = SimTime::ZERO + ms(10) + SimDuration::from_secs(10);
    h.t.bytes_in_flight = 20_000;
    while h.now + ms(10) <= expiry {
        h.ack(10, 10.0 * MBPS, 10, true);
        assert_ne!(h.b.mode(), BbrMode::ProbeRtt, "at {:?}", h.now);
    }
    h.t.cwnd = 25_000;
    h.ack(10, 10.0 * MBPS, 12, true);
    assert_eq!(h.b.mode(), BbrMode::ProbeRtt);
    assert_eq!(h.b.probe_rtt_count(), 1);
    assert_eq!(h.t.cwnd, 4_000, "cwnd is 4 segments");
    assert!(h.b.marks_app_limited());
    // The 200 ms start once in-flight data is down to 4 segments.
    h.t.bytes_in_flight = 4_000;
    h.ack(5, 10.0 * MBPS, 10, false);
    let low = h.now;
    while h.now < low + ms(200) {
        h.ack(10, 1.0 * MBPS, 10, false);
        assert_eq!(h.b.mode(), BbrMode::ProbeRtt, "{:?} after the window fell", h.now - low);
        assert_eq!(h.t.cwnd, 4_000);
    }
    // Past 200 ms, the next round start ends ProbeRTT and restores the window.
    h.ack(1, 1.0 * MBPS, 10, false);
    assert_eq!(h.b.mode(), BbrMode::ProbeRtt, "needs a round start too");
    h.ack(1, 1.0 * MBPS, 10, true);
    assert_eq!(h.b.mode(), BbrMode::ProbeBw);
    assert!(h.t.cwnd >= 25_000, "cwnd restored, got {}", h.t.cwnd);
    h.ack(1, 10.0 * MBPS, 10, false);
    assert!(!h.b.marks_app_limited(), "samples count again after ProbeRTT");
    // The expired estimate took the 12 ms sample; ProbeRTT found the 10 ms again.
    assert_eq!(h.b.rt_prop(), Some(ms(10)));
}

#[test]
fn bbr_pacing_rate_is_gain_times_max_bandwidth() {
    let cfg = BbrConfig { pacing_margin_percent: 0.0, ..BbrConfig::default() };
    let mut h = Harness::new(cfg);
    h.reach_probe_bw();
    h.ack(1, 20.0 * MBPS, 10, true); // new maximum
    h.ack(1, 5.0 * MBPS, 10, false); // a lower sample does not lower it
    let rate = |h: &Harness| h.b.pacing_rate().unwrap().bps() as f64;
    assert!((rate(&h) - h.b.pacing_gain() * 20.0 * MBPS).abs() <= 1.0, "{}", rate(&h));
    for _ in 0..10 {
        h.t.bytes_in_flight = 30_000;
        h.ack(11, 5.0 * MBPS, 10, false);
        let expected = h.b.pacing_gain() * 20.0 * MBPS;
        assert!((rate(&h) - expected).abs() <= 1.0, "{} vs {expected}", rate(&h));
    }
}

#[test]
fn bbr_pacing_rate_keeps_a_one_percent_margin_by_default() {
    let mut h = Harness::new(BbrConfig::default());
    h.reach_probe_bw();
    let expected = h.b.pacing_gain() * 10.0 * MBPS * 0.99;
    assert!((h.b.pacing_rate().unwrap().bps() as f64 - expected).abs() <= 1.0);
}

#[test]
fn bbr_initial_pacing_rate_is_high_gain_times_initial_window_over_srtt() {
    let h = Harness::new(BbrConfig { pacing_margin_percent: 0.0, ..BbrConfig::default() });
    // 2.89 × 10 kB × 8 / 10 ms = 23.12 Mbit/s.
    assert_eq!(h.b.pacing_rate().unwrap().bps(), 23_120_000);
    let mut t = tcb(10, 1_000);
    let mut b = Bbr::new(BbrConfig { pacing_margin_percent: 0.0, ..BbrConfig::default() }, h.b.rng.clone());
    b.init(&mut t, SimTime::ZERO); // no RTT yet: nominal 1 ms
    assert_eq!(b.pacing_rate().unwrap().bps(), 231_200_000);
}

#[test]
fn bbr_cwnd_is_cwnd_gain_times_bdp_plus_quantization_budget() {
    let mut h = Harness::new(BbrConfig::default());
    h.reach_probe_bw();
    for _ in 0..50 {
        h.ack(1, 10.0 * MBPS, 10, false);
    }
    let budget = if h.b.cycle_index == 0 { 5_000 } else { 3_000 };
    assert_eq!(h.t.cwnd, 25_000 + budget);
}

#[test]
fn bbr_startup_grows_the_window_by_the_bytes_acked() {
    let mut h = Harness::new(BbrConfig::default());
    h.ack(1, 10.0 * MBPS, 10, true);
    assert_eq!(h.t.cwnd, 12_000);
}

#[test]
fn bbr_recovery_conserves_packets_for_a_round_then_restores_the_window() {
    // Linux's rules: the window saved at recovery's start comes back.
    bbr_recovery(BbrConfig { linux_rto_handling: true, ..BbrConfig::default() });
    bbr_recovery(BbrConfig { exit_recovery_at_ssthresh: false, ..BbrConfig::default() });
}

/// ns-3.44: the full ACK restores the saved window (CA_EVENT_COMPLETE_CWR) and then
/// `ExitRecovery` sets cwnd = ssthresh (InFlight(1) from Drain); BBR adds the bytes acked.
#[test]
fn bbr_leaves_fast_recovery_at_ssthresh_under_ns3_rules() {
    assert!(BbrConfig::default().exit_recovery_at_ssthresh, "the default");
    bbr_recovery(BbrConfig::default());
}

fn bbr_recovery(cfg: BbrConfig) {
    let at_ssthresh = cfg.exit_recovery_at_ssthresh && !cfg.linux_rto_handling;
    let mut h = Harness::new(cfg);
    h.reach_probe_bw();
    h.t.cwnd = 28_000;
    // A loss: the sender enters Recovery and asks for ssthresh.
    h.t.state = CongState::Recovery;
    h.b.on_state(&mut h.t, CongState::Recovery, h.now);
    let ss = h.b.on_congestion(&h.t, 20_000, CongestionKind::DupAck);
    assert_eq!(ss, h.t.ssthresh, "BBR leaves ssthresh alone");
    h.t.bytes_in_flight = 10_000;
    h.ack(1, 10.0 * MBPS, 10, false);
    assert_eq!(h.t.cwnd, 12_000, "in flight + acked");
    h.t.bytes_in_flight = 9_000;
    h.ack(1, 10.0 * MBPS, 10, false);
    assert_eq!(h.t.cwnd, 12_000, "never below in flight + acked, never grown past it");
    // Recovery ends.
    h.t.state = CongState::Open;
    let ss = h.t.ssthresh;
    h.ack(1, 10.0 * MBPS, 10, true);
    if !at_ssthresh {
        assert_eq!(h.t.cwnd, h.b.inflight(&h.t, 2.0), "restored to 28 kB, then up to the target");
    } else {
        assert!(ss < 28_000, "ssthresh {ss} is about one BDP");
        assert_eq!(h.t.cwnd, (ss + 2000).min(h.b.inflight(&h.t, 2.0)), "ssthresh + acked");
    }
}

#[test]
fn app_limited_samples_only_count_when_they_raise_the_estimate() {
    let mut h = Harness::new(BbrConfig::default());
    h.reach_probe_bw();
    let mut rs = RateSample {
        delivered: 2000,
        interval: ms(10),
        delivery_rate_bps: 50.0 * MBPS,
        prior_delivered: h.delivered,
        total_delivered: h.delivered + 2000,
        is_app_limited: true,
        valid: true,
        newly_delivered: 2000,
        ..RateSample::default()
    };
    h.b.on_rate_sample(&mut h.t, &rs, h.now);
    assert_eq!(h.b.btl_bw_bps(), 50.0 * MBPS);
    // Twelve rounds of low app-limited samples: the estimate is not refreshed downwards...
    for _ in 0..12 {
        rs.delivery_rate_bps = MBPS;
        rs.prior_delivered = rs.total_delivered;
        rs.total_delivered += 2000;
        h.b.on_rate_sample(&mut h.t, &rs, h.now);
    }
    assert_eq!(h.b.btl_bw_bps(), 50.0 * MBPS);
}

/// cwnd after a timeout at 28 kB, one ACK in the loss state and one after it.
fn cwnd_after_timeout(linux: bool) -> u32 {
    let mut h = Harness::new(BbrConfig { linux_rto_handling: linux, ..BbrConfig::default() });
    h.reach_probe_bw();
    h.t.cwnd = 28_000;
    let _ = h.b.on_congestion(&h.t, 20_000, CongestionKind::Rto);
    h.t.state = CongState::Loss;
    h.b.on_state(&mut h.t, CongState::Loss, h.now);
    h.t.cwnd = 1_000; // the sender's one segment after a timeout
    h.t.bytes_in_flight = 1_000;
    h.ack(1, 10.0 * MBPS, 10, false);
    h.t.state = CongState::Open;
    h.ack(1, 10.0 * MBPS, 10, false);
    h.t.cwnd
}

#[test]
fn bbr_after_a_timeout_grows_from_one_segment_as_ns3_or_restores_as_linux() {
    // ns-3.44: no CA_EVENT_COMPLETE_CWR after CA_LOSS: 1 kB + 2 kB acked, raised to the
    // 4-segment floor, + 2 kB.
    assert_eq!(cwnd_after_timeout(false), 6_000);
    // Linux: leaving the loss state restores the 28 kB saved at the timeout.
    assert!(cwnd_after_timeout(true) >= 28_000, "{}", cwnd_after_timeout(true));
}
