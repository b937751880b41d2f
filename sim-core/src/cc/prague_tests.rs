use super::*;

const MSS: u32 = 1000;

fn tcb(cwnd_segs: u32, ssthresh_segs: u32, srtt_ms: u64) -> Tcb {
    let mut t = crate::cc::new_reno::tests::tcb(cwnd_segs, ssthresh_segs);
    t.srtt = Some(SimDuration::from_millis(srtt_ms));
    t
}

fn ack(t_ms: u64, segs: u32, ece: bool) -> AckSample {
    let now = SimTime(t_ms * 1_000_000);
    AckSample { now, segments_acked: segs, rtt: None, latest_rtt: None, ece }
}

fn prague(cfg: PragueConfig, t: &mut Tcb) -> Prague {
    let mut p = Prague::new(&cfg);
    p.init(t, SimTime::ZERO);
    p
}

/// Acknowledges one round of `segs` segments, `marked` of them echoed CE, one ACK per
/// segment, while the next round's segments are in flight.
fn round(p: &mut Prague, t: &mut Tcb, t_ms: u64, segs: u32, marked: u32) {
    let start = t.last_acked;
    if p.round_end <= start {
        p.round_end = start + segs; // the first round
    }
    t.high_tx = start + 2 * segs;
    for i in 0..segs {
        t.last_acked = start + i + 1;
        p.on_ack(t, &ack(t_ms, 1, i < marked));
    }
}

#[test]
fn the_first_mark_halves_the_window_and_ends_slow_start() {
    let mut t = tcb(100, u32::MAX / MSS, 20);
    let mut p = prague(PragueConfig::default(), &mut t);
    assert_eq!(p.alpha, 0.0);
    let ssthresh = p.on_congestion(&t, 100 * MSS, CongestionKind::Ecn);
    assert_eq!(ssthresh, 50 * MSS);
    t.ssthresh = ssthresh;
    p.on_state(&mut t, CongState::Cwr, SimTime::ZERO);
    assert_eq!(t.cwnd, 50 * MSS, "the cut applies at once, without PRR");
    // Later marks cut by α/2: α is still 0 until a round has been measured.
    assert_eq!(p.on_congestion(&t, 50 * MSS, CongestionKind::Ecn), 50 * MSS);
}

#[test]
fn alpha_moves_once_per_round_by_g_towards_the_marked_share() {
    let mut t = tcb(10, 10, 20);
    let mut p = prague(PragueConfig::default(), &mut t);
    // No α before the first mark, however many rounds are marked.
    round(&mut p, &mut t, 0, 10, 0);
    assert_eq!(p.alpha, 0.0);
    p.on_congestion(&t, 10 * MSS, CongestionKind::Ecn);
    round(&mut p, &mut t, 20, 10, 4);
    // The round's share is counted as its last segment is acknowledged.
    assert!((p.alpha - 0.4 / 16.0).abs() < 1e-12, "α = {}", p.alpha);
    round(&mut p, &mut t, 40, 10, 0);
    assert!((p.alpha - 0.4 / 16.0 * 15.0 / 16.0).abs() < 1e-12, "α = {}", p.alpha);
    // A later echo cuts by α/2.
    let w = p.w;
    p.on_congestion(&t, 0, CongestionKind::Ecn);
    assert!((p.w - w * (1.0 - p.alpha / 2.0)).abs() < 1e-9);
}

#[test]
fn marked_segments_do_not_grow_the_window_and_unmarked_ones_add_one_per_round() {
    let mut t = tcb(20, 10, 30); // congestion avoidance, RTT above the target: s = 1
    let mut p = prague(PragueConfig::default(), &mut t);
    round(&mut p, &mut t, 0, 20, 0);
    assert!((p.w - 21.0).abs() < 0.05, "W = {}", p.w);
    let before = p.w;
    round(&mut p, &mut t, 30, 20, 20);
    assert_eq!(p.w, before, "an all-marked round adds nothing");
    // Half marked: half the growth.
    round(&mut p, &mut t, 60, 20, 10);
    assert!((p.w - before - 0.5).abs() < 0.05, "W = {}", p.w);
}

#[test]
fn below_the_target_rtt_growth_is_scaled_after_the_transition_rounds() {
    let mut t = tcb(100, 10, 5); // 5 ms against the 25 ms target: s = 1/25
    let mut p = prague(PragueConfig::default(), &mut t);
    assert_eq!(p.ai_scale(&t), 1.0, "not before 4 rounds out of slow start");
    for k in 0..4 {
        round(&mut p, &mut t, 5 * k, 100, 0);
    }
    assert!((p.ai_scale(&t) - 0.04).abs() < 1e-12);
    let w = p.w;
    round(&mut p, &mut t, 20, 100, 0);
    assert!((p.w - w - 0.04).abs() < 0.005, "a 5 ms round adds 1/25 segment: {}", p.w - w);
    let off = PragueConfig { rtt_independence: false, ..PragueConfig::default() };
    let mut t2 = tcb(100, 10, 5);
    let mut q = prague(off, &mut t2);
    for k in 0..5 {
        round(&mut q, &mut t2, 5 * k, 100, 0);
    }
    assert_eq!(q.ai_scale(&t2), 1.0);
}

#[test]
fn with_rtt_independence_cuts_come_at_most_once_per_target_rtt() {
    let mut t = tcb(100, 10, 5);
    let mut p = prague(PragueConfig::default(), &mut t);
    for k in 0..5 {
        round(&mut p, &mut t, 5 * k, 100, 0);
    }
    p.on_congestion(&t, 0, CongestionKind::Ecn); // the first mark: halved
    p.alpha = 0.5;
    let w = p.w;
    // 10 ms later (two 5 ms rounds): no cut yet; 25 ms after the first: cut by α/2.
    p.now = SimTime(p.now.0 + 10_000_000);
    p.on_congestion(&t, 0, CongestionKind::Ecn);
    assert_eq!(p.w, w);
    p.now = SimTime(p.now.0 + 15_000_000);
    p.on_congestion(&t, 0, CongestionKind::Ecn);
    assert!((p.w - w * 0.75).abs() < 1e-9);
}

#[test]
fn a_loss_halves_the_window_and_stops_growth_until_recovery_ends() {
    let mut t = tcb(40, 10, 30);
    let mut p = prague(PragueConfig::default(), &mut t);
    t.ssthresh = p.on_congestion(&t, 40 * MSS, CongestionKind::DupAck);
    t.state = CongState::Recovery;
    p.on_state(&mut t, CongState::Recovery, SimTime::ZERO);
    assert_eq!(t.cwnd, 20 * MSS);
    round(&mut p, &mut t, 0, 20, 0);
    assert_eq!(p.w, 20.0);
    t.state = CongState::Open;
    p.on_state(&mut t, CongState::Open, SimTime::ZERO);
    round(&mut p, &mut t, 30, 20, 0);
    assert!(p.w > 20.9);
}

#[test]
fn pacing_is_the_window_over_the_rtt_twice_that_in_slow_start() {
    let mut t = tcb(10, 100, 10);
    let mut p = prague(PragueConfig::default(), &mut t);
    t.bytes_in_flight = 0;
    t.cwnd_limited = false; // no growth: W stays 10
    p.on_ack(&mut t, &ack(0, 0, false));
    // 10 segments of 1000 bytes per 10 ms = 8 Mbit/s; slow start (cwnd < ssthresh/2): 16.
    assert_eq!(p.pacing_rate(), Some(Rate(16_000_000)));
    t.ssthresh = 10 * MSS;
    p.on_ack(&mut t, &ack(1, 0, false));
    assert_eq!(p.pacing_rate(), Some(Rate(8_000_000)));
}

#[test]
fn a_window_the_sender_set_is_taken_over() {
    let mut t = tcb(40, 10, 30);
    let mut p = prague(PragueConfig::default(), &mut t);
    t.cwnd = 7 * MSS; // an idle restart, say
    t.cwnd_limited = false;
    p.on_ack(&mut t, &ack(0, 1, false));
    assert_eq!((p.w, t.cwnd), (7.0, 7 * MSS));
}
