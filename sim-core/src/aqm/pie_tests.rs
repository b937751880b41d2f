use super::*;
use crate::aqm::Dropped;
use crate::rng::StreamId;

/// RFC 8033's rules with its departure-rate estimator (the ns-3 defaults are tested below).
fn rfc() -> PieConfig {
    PieConfig { rules: PieRules::Rfc8033, use_dequeue_rate_estimator: true, ..PieConfig::default() }
}

fn pie(cfg: PieConfig) -> Pie {
    Pie::new(&cfg, SimRng::new(3, StreamId::Queue(0)))
}

fn item(id: u32, bytes: u32, at: SimTime) -> QItem {
    QItem { id, bytes, flow: id % 3, enqueued_at: at, conn: 0, ..QItem::default() }
}

fn ms(v: f64) -> SimTime {
    SimTime::from_secs_f64(v / 1e3)
}

/// Offers `n` packets of `bytes` at `now`; returns the drops.
fn offer(p: &mut Pie, n: u32, bytes: u32, now: SimTime) -> Vec<Dropped> {
    let mut drops = Vec::new();
    for i in 0..n {
        let mut cx = QdiscCtx::new(now, &mut drops);
        p.enqueue(item(i, bytes, now), &mut cx);
    }
    drops
}

/// 16 KiB drain in 13.1 ms: a 10 Mbit/s link's departure rate.
const AVG_DQ_TIME_10MBPS: f64 = 16_384.0 * 8.0 / 10e6;

#[test]
fn pie_probability_rises_while_delay_is_above_target() {
    let mut p = pie(rfc());
    // 40 kB queued at 10 Mbit/s: Little's law gives 32 ms, above the 15 ms target.
    assert!(offer(&mut p, 40, 1000, SimTime::ZERO).is_empty());
    p.avg_dq_time = AVG_DQ_TIME_10MBPS;
    assert!((p.current_qdelay() - 0.032).abs() < 1e-3);
    let mut last = p.drop_prob();
    for k in 1..=200 {
        p.catch_up(ms(15.0 * f64::from(k)));
        let now = p.drop_prob();
        assert!(now > last || now == 1.0, "update {k}: p {now} after {last}");
        last = now;
    }
    assert_eq!(p.stats().updates, 200);
    assert!(last > 0.05, "p after 3 s of 32 ms delay: {last}");
}

#[test]
fn pie_probability_falls_back_when_delay_is_below_target() {
    let mut p = pie(rfc());
    // Two 1 kB packets at 10 Mbit/s: 1.6 ms of delay, well below target.
    assert!(offer(&mut p, 2, 1000, SimTime::ZERO).is_empty());
    p.avg_dq_time = AVG_DQ_TIME_10MBPS;
    p.drop_prob = 0.3;
    p.qdelay_old = p.current_qdelay();
    let mut last = p.drop_prob();
    let mut k = 1;
    while last > 0.0 {
        p.catch_up(ms(15.0 * f64::from(k)));
        assert!(p.drop_prob() < last, "update {k}: p {} after {last}", p.drop_prob());
        last = p.drop_prob();
        k += 1;
        assert!(k < 100_000, "p never reached 0");
    }
    // p = 0 with both delays below target/2: the burst allowance is restored.
    assert_eq!(p.burst_allowance_s(), 0.15);
}

#[test]
fn pie_probability_decays_to_zero_over_an_idle_period() {
    let mut p = pie(rfc());
    p.drop_prob = 0.5;
    p.burst_allowance = SimDuration::ZERO;
    // An empty queue for 100 s: lazily applied, skipping the periods that change nothing.
    let mut drops = Vec::new();
    let mut cx = QdiscCtx::new(SimTime::from_secs_f64(100.0), &mut drops);
    assert!(p.enqueue(item(0, 1000, cx.now), &mut cx));
    assert_eq!(p.drop_prob(), 0.0);
    assert_eq!(p.burst_allowance_s(), 0.15);
    assert_eq!(p.stats().updates, 6666);
    assert_eq!(p.next_update, SimTime::from_secs_f64(100.005));
}

#[test]
fn pie_burst_allowance_suppresses_drops_at_start() {
    let mut p = pie(rfc());
    assert!(offer(&mut p, 50, 1000, SimTime::ZERO).is_empty());
    // Heavy congestion: 40 ms of delay and the probability forced to 1.
    p.avg_dq_time = AVG_DQ_TIME_10MBPS;
    p.drop_prob = 1.0;
    p.qdelay_old = p.current_qdelay();
    // 100 ms in: 6 updates have used 90 of the 150 ms allowance; nothing is dropped.
    assert!(offer(&mut p, 10, 1000, ms(100.0)).is_empty());
    assert!((p.burst_allowance_s() - 0.06).abs() < 1e-9);
    // 200 ms in: the allowance is spent and p = 1 drops every arrival.
    let drops = offer(&mut p, 10, 1000, ms(200.0));
    assert_eq!(p.burst_allowance_s(), 0.0);
    assert_eq!(drops.len(), 10);
    assert!(drops.iter().all(|d| d.reason == DropReason::Early && !d.was_queued));
}

#[test]
fn pie_never_drops_with_fewer_than_two_packets_queued() {
    // A small MEAN_PKTSIZE so the byte rule of §4.1 does not hide the packet rule.
    let mut p = pie(PieConfig { mean_pkt_size_bytes: 64, ..rfc() });
    p.drop_prob = 1.0;
    p.qdelay_old = 1.0;
    p.burst_allowance = SimDuration::ZERO;
    let mut rng = SimRng::new(9, StreamId::Other(0));
    let (mut small_arrivals, mut drops_seen) = (0, 0);
    for id in 0..2000 {
        let mut drops = Vec::new();
        let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
        if rng.uniform() < 0.5 {
            p.dequeue(SimTime::ZERO);
            continue;
        }
        let queued = p.occupancy().packets;
        let accepted = p.enqueue(item(id, 1500, SimTime::ZERO), &mut cx);
        if queued < 2 {
            small_arrivals += 1;
            assert!(accepted, "arrival {id} dropped with {queued} packets queued");
        } else {
            assert!(!accepted, "p = 1 must drop with {queued} packets queued");
            drops_seen += 1;
        }
    }
    assert!(small_arrivals > 100 && drops_seen > 100, "{small_arrivals} / {drops_seen}");
}

#[test]
fn pie_tail_drops_at_the_limit_and_resets_the_accumulated_probability() {
    let mut p = pie(PieConfig { limit: QueueLimit::Packets(3), derandomize: true, ..rfc() });
    p.accu_prob = 0.7;
    let drops = offer(&mut p, 4, 1000, SimTime::ZERO);
    assert_eq!(drops.len(), 1);
    assert_eq!(drops[0].reason, DropReason::Overflow);
    assert_eq!(p.accu_prob, 0.0);
}

#[test]
fn pie_derandomization_spaces_drops_by_accumulated_probability() {
    let mut p = pie(PieConfig { derandomize: true, ..rfc() });
    assert!(offer(&mut p, 10, 1000, SimTime::ZERO).is_empty());
    p.drop_prob = 0.1;
    p.qdelay_old = 1.0;
    p.burst_allowance = SimDuration::ZERO;
    // accu_prob reaches 0.85 only at the 9th arrival: the first 8 are always accepted.
    for id in 0..8 {
        let mut drops = Vec::new();
        let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
        assert!(p.enqueue(item(100 + id, 1000, SimTime::ZERO), &mut cx));
        p.dequeue(SimTime::ZERO);
    }
    assert!((p.accu_prob - 0.8).abs() < 1e-12);
}

#[test]
fn pie_sojourn_estimator_reads_the_last_packets_waiting_time() {
    let mut p = pie(PieConfig { use_dequeue_rate_estimator: false, ..rfc() });
    assert!(offer(&mut p, 3, 1000, SimTime::ZERO).is_empty());
    p.dequeue(ms(20.0));
    assert!((p.current_qdelay() - 0.020).abs() < 1e-12);
    p.dequeue(ms(25.0));
    p.dequeue(ms(30.0));
    assert_eq!(p.current_qdelay(), 0.0, "an empty queue has no delay");
}

#[test]
fn pie_departure_rate_is_measured_over_dq_threshold_bytes() {
    let mut p = pie(rfc());
    assert!(offer(&mut p, 40, 1000, SimTime::ZERO).is_empty());
    // 1000-byte packets leave every 0.8 ms (10 Mbit/s).
    for k in 1..=40u64 {
        p.dequeue(SimTime(k * 800_000));
    }
    // The cycle began at the first departure (queue ≥ 16 KiB) and ended 17 packets later.
    assert!((p.avg_dq_time - 17.0 * 0.0008).abs() < 1e-9, "{}", p.avg_dq_time);
}

#[test]
fn pie_occupancy_matches_the_packets_it_holds() {
    let mut p = pie(PieConfig { limit: QueueLimit::Bytes(30_000), ..PieConfig::default() });
    let mut rng = SimRng::new(5, StreamId::Other(1));
    let mut model: VecDeque<QItem> = VecDeque::new();
    let mut t = SimTime::ZERO;
    for id in 0..20_000 {
        t += SimDuration(rng.below(2_000_000));
        if rng.uniform() < 0.55 {
            let it = item(id, 40 + rng.below(1460) as u32, t);
            let mut drops = Vec::new();
            let mut cx = QdiscCtx::new(t, &mut drops);
            if p.enqueue(it, &mut cx) {
                model.push_back(it);
            }
            assert_eq!(drops.len() + model.iter().filter(|m| m.id == id).count(), 1);
        } else {
            assert_eq!(p.dequeue(t), model.pop_front());
        }
        let occ = p.occupancy();
        assert_eq!(occ.packets as usize, model.len());
        assert_eq!(occ.bytes, model.iter().map(|m| u64::from(m.bytes)).sum::<u64>());
    }
    assert!(p.stats().early > 0, "the run should exercise early drops");
}

#[test]
fn pie_auto_tuning_scales_the_step_by_the_probability_range() {
    let mut p = pie(rfc());
    assert!(offer(&mut p, 40, 1000, SimTime::ZERO).is_empty());
    p.avg_dq_time = AVG_DQ_TIME_10MBPS; // 32 ms of delay
    let step = 0.125 * (0.032 - 0.015); // α·(qdelay − target) with a flat trend
    for (dp, divisor) in
        [(5e-7, 2048.0), (5e-6, 512.0), (5e-5, 128.0), (5e-4, 32.0), (5e-3, 8.0), (0.05, 2.0)]
    {
        p.drop_prob = dp;
        p.qdelay_old = p.current_qdelay();
        p.update_probability();
        let want = dp + step / divisor;
        assert!((p.drop_prob() - want).abs() < 1e-12, "from {dp}: {} vs {want}", p.drop_prob());
    }
    // Above 10 % a step is capped at +2 % (§5.5): a rising delay would otherwise add 4.2 %.
    p.drop_prob = 0.2;
    p.qdelay_old = 0.0;
    p.update_probability();
    assert!((p.drop_prob() - 0.22).abs() < 1e-12, "{}", p.drop_prob());
}

#[test]
fn pie_spec_is_tagged_pie_and_fills_missing_fields_with_defaults() {
    use crate::aqm::QueueDiscSpec;
    let spec: QueueDiscSpec = serde_json::from_str(r#"{"type":"pie","target_ms":20.0}"#).unwrap();
    let want = PieConfig { target_ms: 20.0, ..PieConfig::default() };
    assert_eq!(spec, QueueDiscSpec::Pie(want));
    assert_eq!(spec.name(), "pie");
    assert_eq!(serde_json::from_str::<QueueDiscSpec>(&serde_json::to_string(&spec).unwrap()).unwrap(), spec);
}

#[test]
fn pie_defaults_are_ns3_pie_queue_disc() {
    let c = PieConfig::default();
    assert_eq!(c.rules, PieRules::Ns3);
    assert!(!c.use_dequeue_rate_estimator, "ns-3.44 UseDequeueRateEstimator is false");
    assert!(!c.derandomize, "ns-3.44 UseDerandomization is false");
    assert_eq!(
        (c.alpha, c.beta, c.target_ms, c.tupdate_ms, c.max_burst_ms),
        (0.125, 1.25, 15.0, 15.0, 150.0)
    );
    assert_eq!((c.dq_threshold_bytes, c.mean_pkt_size_bytes), (16_384, 1000));
}

#[test]
fn pie_ns3_first_check_arms_the_allowance_and_updates_hold_p_at_zero() {
    let mut p = pie(PieConfig::default());
    assert_eq!(p.burst_allowance_s(), 0.0, "ns-3 starts with no allowance");
    // The first arrival's check arms 150 ms of allowance.
    assert!(offer(&mut p, 50, 1000, SimTime::ZERO).is_empty());
    assert_eq!(p.burst_allowance_s(), 0.15);
    // 40 ms of sojourn time, far above target: p stays 0 while allowance is left ...
    p.dequeue(ms(40.0));
    for k in 1..=10 {
        p.catch_up(ms(15.0 * f64::from(k)));
        assert_eq!(p.drop_prob(), 0.0, "update {k}");
    }
    assert_eq!(p.burst_allowance_s(), 0.0);
    // ... and integrates from the first update after it ran out.
    p.catch_up(ms(165.0));
    assert!(p.drop_prob() > 0.0);
}

#[test]
fn pie_ns3_protection_ends_after_1_5_s_of_quiet_updates() {
    let mut p = pie(PieConfig::default());
    assert!(offer(&mut p, 1, 1000, SimTime::ZERO).is_empty());
    p.dequeue(SimTime::ZERO);
    // Empty queue: the allowance runs out in 10 updates; then one update enters the quiet
    // count and 101 more (> 1.5 s / 15 ms) end the protection.
    p.catch_up(ms(15.0 * 10.0));
    assert_eq!((p.burst_allowance_s(), p.burst_state), (0.0, BurstState::Quiet));
    p.catch_up(ms(15.0 * 110.0));
    assert_eq!(p.burst_state, BurstState::Quiet);
    p.catch_up(ms(15.0 * 112.0));
    assert_eq!(p.burst_state, BurstState::NoBurst);
    // The next arrival re-arms it.
    assert!(offer(&mut p, 1, 1000, ms(15.0 * 112.0 + 1.0)).is_empty());
    assert_eq!(p.burst_allowance_s(), 0.15);
}

#[test]
fn pie_ns3_packet_limit_spares_up_to_two_queued_packets() {
    let mut p = pie(PieConfig::default());
    p.burst_state = BurstState::Protecting;
    p.drop_prob = 1.0;
    p.qdelay_old = 1.0;
    // Two 1500-byte packets (3000 B > 2·MEAN_PKTSIZE) still spare the third arrival.
    assert!(offer(&mut p, 3, 1500, SimTime::ZERO).is_empty());
    assert_eq!(offer(&mut p, 1, 1500, SimTime::ZERO).len(), 1);
}

#[test]
fn pie_ns3_departure_rate_is_a_byte_rate_averaged_by_halves() {
    let mut p = pie(PieConfig { use_dequeue_rate_estimator: true, ..PieConfig::default() });
    assert!(offer(&mut p, 60, 1000, SimTime::ZERO).is_empty());
    // 1000-byte packets leave every 0.8 ms (10 Mbit/s = 1.25 MB/s), then twice as fast.
    let mut t = 0;
    // The cycle starts at the first departure (which it counts) and ends at the 17th.
    for _ in 0..17 {
        t += 800_000;
        p.dequeue(SimTime(t));
    }
    assert!((p.avg_dq_rate - 17_000.0 / (16.0 * 0.0008)).abs() < 1e-6, "{}", p.avg_dq_rate);
    // 43 kB left: the next cycle starts there and counts the next 17 departures.
    let first = p.avg_dq_rate;
    for _ in 0..17 {
        t += 400_000;
        p.dequeue(SimTime(t));
    }
    let second = 17_000.0 / (17.0 * 0.0004);
    assert!((p.avg_dq_rate - (0.5 * first + 0.5 * second)).abs() < 1e-6, "{}", p.avg_dq_rate);
    assert!((p.current_qdelay() - p.occupancy().bytes as f64 / p.avg_dq_rate).abs() < 1e-12);
}

#[test]
fn pie_ns3_byte_limit_scales_p_by_packet_size() {
    // Byte limit: p = 0.5 becomes 0.25 for a 500-byte packet (MEAN_PKTSIZE 1000).
    let mut p = pie(PieConfig { limit: QueueLimit::Bytes(10_000_000), ..PieConfig::default() });
    p.burst_state = BurstState::Protecting;
    p.drop_prob = 0.5;
    p.qdelay_old = 1.0;
    assert!(offer(&mut p, 5, 500, SimTime::ZERO).is_empty(), "≤ 2000 bytes queued: no drop");
    let drops = offer(&mut p, 20_000, 500, SimTime::ZERO).len() as f64;
    assert!((drops / 20_000.0 - 0.25).abs() < 0.02, "drop share {}", drops / 20_000.0);
}

#[test]
fn pie_with_ecn_marks_below_the_threshold_and_drops_above_it() {
    use crate::net::Ecn;
    let cfg = PieConfig { ecn: true, max_burst_ms: 0.0, ..rfc() };
    let offer_ect = |p: &mut Pie, ecn: Ecn| {
        let mut drops = Vec::new();
        let mut cx = QdiscCtx::new(ms(100.0), &mut drops);
        for i in 0..200 {
            p.enqueue(QItem { ecn, ..item(i, 1000, ms(100.0)) }, &mut cx);
        }
        drops.len()
    };
    let marked =
        |p: &mut Pie| std::iter::from_fn(|| p.dequeue(ms(100.0))).filter(|i| i.marked.is_some()).count();
    for (prob, ecn, marks, drops) in
        [(0.1, Ecn::Ect0, true, false), (0.1, Ecn::NotEct, false, true), (0.5, Ecn::Ect0, false, true)]
    {
        let mut p = pie(cfg.clone());
        assert!(offer(&mut p, 50, 1000, SimTime::ZERO).is_empty());
        p.avg_dq_time = AVG_DQ_TIME_10MBPS;
        (p.drop_prob, p.qdelay_old) = (prob, 0.04);
        p.next_update = ms(1e6); // no update: p stays where it was set
        let dropped = offer_ect(&mut p, ecn);
        assert_eq!((marked(&mut p) > 0, dropped > 0), (marks, drops), "p = {prob}, {ecn:?}");
    }
}
