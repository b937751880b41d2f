//! RFC 9332's behaviours, each on its own: the classifier, the coupling p_CL = k·p' and
//! p_C = p'², the L4S step, the two-MTU floor, overload, the PI update and the classic
//! queue's protection.

use super::*;
use crate::aqm::Dropped;
use crate::rng::StreamId;

const MS: u64 = 1_000_000;

fn disc(cfg: DualPi2Config) -> DualPi2 {
    DualPi2::new(&cfg, SimRng::new(7, StreamId::Queue(0)))
}

fn item(id: u32, ecn: Ecn, at: SimTime) -> QItem {
    QItem { id, bytes: 1500, flow: id % 4, enqueued_at: at, ecn, ..QItem::default() }
}

/// p' held at `p`: no update before the test ends.
fn frozen(cfg: DualPi2Config, p: f64) -> DualPi2 {
    let mut d = disc(cfg);
    d.p = p;
    d.next_update = SimTime(u64::MAX / 2);
    d
}

/// Keeps `backlog` packets of `ecn` queued, each dequeued 0.5 ms after it arrived (below the
/// step), until `n` have been sent; returns (marked, dropped).
fn churn(d: &mut DualPi2, ecn: Ecn, backlog: u32, n: u32) -> (u32, u32) {
    let mut drops: Vec<Dropped> = Vec::new();
    let (mut marked, mut id, mut sent) = (0, 0, 0);
    let mut t = SimTime(10 * MS);
    while sent < n {
        let mut cx = QdiscCtx::new(t, &mut drops);
        while d.occupancy().packets < backlog {
            assert!(d.enqueue(item(id, ecn, t), &mut cx));
            id += 1;
        }
        t += SimDuration(MS / 2);
        let mut cx = QdiscCtx::new(t, &mut drops);
        let it = d.dequeue(&mut cx).expect("a backlog");
        marked += u32::from(it.marked.is_some());
        sent += 1;
        // Whatever is still queued waited 0.5 ms by the next dequeue.
        d.l.iter_mut().for_each(|x| x.item.enqueued_at = t);
        d.c.iter_mut().for_each(|x| x.enqueued_at = t);
    }
    (marked, drops.len() as u32)
}

#[test]
fn ect1_and_ce_go_to_the_l_queue_and_the_rest_to_c() {
    let mut d = disc(DualPi2Config::default());
    let mut drops = Vec::new();
    let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
    for (i, e) in [Ecn::Ect1, Ecn::Ce, Ecn::Ect0, Ecn::NotEct].into_iter().enumerate() {
        d.enqueue(item(i as u32, e, SimTime::ZERO), &mut cx);
    }
    assert_eq!(d.lengths(), (2, 2));
    let mut any = disc(DualPi2Config { l4s_id: L4sId::AnyEct, ..DualPi2Config::default() });
    for (i, e) in [Ecn::Ect1, Ecn::Ce, Ecn::Ect0, Ecn::NotEct].into_iter().enumerate() {
        any.enqueue(item(i as u32, e, SimTime::ZERO), &mut cx);
    }
    assert_eq!(any.lengths(), (3, 1));
}

#[test]
fn the_l_queue_is_marked_with_k_times_p_and_the_c_queue_signalled_with_p_squared() {
    let n = 100_000;
    let p = 0.2;
    let (l_marks, l_drops) = churn(&mut frozen(DualPi2Config::default(), p), Ecn::Ect1, 10, n);
    let (c_marks, c_drops) = churn(&mut frozen(DualPi2Config::default(), p), Ecn::Ect0, 10, n);
    let (nc_marks, nc_drops) = churn(&mut frozen(DualPi2Config::default(), p), Ecn::NotEct, 10, n);
    let share = |k: u32| f64::from(k) / f64::from(n);
    // p_CL = 2 × 0.2; p_C = 0.2²: marks for ECN-capable classic packets, drops for the rest.
    assert_eq!(l_drops, 0);
    assert!((share(l_marks) - 0.4).abs() < 0.01, "L marks {}", share(l_marks));
    assert_eq!(c_drops, 0);
    assert!((share(c_marks) - 0.04).abs() < 0.003, "C marks {}", share(c_marks));
    assert_eq!(nc_marks, 0);
    // Each drop is followed by the next packet in the same dequeue: drops / (sent + drops).
    let dropped = f64::from(nc_drops) / f64::from(n + nc_drops);
    assert!((dropped - 0.04).abs() < 0.003, "C drops {dropped}");
}

#[test]
fn the_coupling_factor_scales_only_the_l_queue() {
    let cfg = DualPi2Config { coupling: 4.0, ..DualPi2Config::default() };
    let (l, _) = churn(&mut frozen(cfg.clone(), 0.1), Ecn::Ect1, 10, 50_000);
    let (c, _) = churn(&mut frozen(cfg, 0.1), Ecn::Ect0, 10, 50_000);
    assert!((f64::from(l) / 50_000.0 - 0.4).abs() < 0.015);
    assert!((f64::from(c) / 50_000.0 - 0.01).abs() < 0.002);
}

#[test]
fn the_step_marks_every_l_packet_that_waited_over_one_millisecond_and_no_c_packet() {
    let mut d = frozen(DualPi2Config::default(), 0.0);
    let mut drops = Vec::new();
    let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
    for i in 0..4 {
        d.enqueue(item(i, Ecn::Ect1, SimTime::ZERO), &mut cx);
    }
    d.enqueue(item(9, Ecn::Ect0, SimTime::ZERO), &mut cx);
    // Sojourn exactly 1 ms: not above the step. Then 1 ms + 1 ns: marked.
    let mut out = Vec::new();
    for ns in [MS, MS + 1, 5 * MS, 5 * MS, 5 * MS] {
        let mut drops = Vec::new();
        let mut cx = QdiscCtx::new(SimTime(ns), &mut drops);
        out.push(d.dequeue(&mut cx).map(|i| (i.id, i.marked)));
    }
    // The C packet has its 10 % share after the L packets' credit ran out (it never does
    // for 4 packets: L first throughout), and the step never touches it.
    assert_eq!(
        out,
        vec![
            Some((0, None)),
            Some((1, Some(DropReason::Threshold))),
            Some((2, Some(DropReason::Threshold))),
            Some((3, Some(DropReason::Threshold))),
            Some((9, None)),
        ]
    );
    assert_eq!(d.stats().step_marks, 3);
}

#[test]
fn the_step_waits_for_min_qlen_step_packets_queued_ahead() {
    let mut d = frozen(DualPi2Config { min_qlen_step: 2, ..DualPi2Config::default() }, 0.0);
    let mut drops = Vec::new();
    let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
    for i in 0..3 {
        d.enqueue(item(i, Ecn::Ect1, SimTime::ZERO), &mut cx);
    }
    let mut cx = QdiscCtx::new(SimTime(10 * MS), &mut drops);
    let marks: Vec<bool> = std::iter::from_fn(|| d.dequeue(&mut cx)).map(|i| i.marked.is_some()).collect();
    // The first two found fewer than 2 L packets ahead of them.
    assert_eq!(marks, vec![false, false, true]);
}

#[test]
fn no_coupled_signal_while_under_two_mtus_stay_queued() {
    // p' = 1 marks or drops everything, except what leaves with under 3028 bytes behind it.
    let mut d = frozen(DualPi2Config { drop_overload: false, ..DualPi2Config::default() }, 0.5);
    let mut drops = Vec::new();
    let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
    for i in 0..4 {
        d.enqueue(item(i, Ecn::Ect1, SimTime::ZERO), &mut cx);
    }
    let mut cx = QdiscCtx::new(SimTime(MS / 2), &mut drops);
    let marks: Vec<bool> = std::iter::from_fn(|| d.dequeue(&mut cx)).map(|i| i.marked.is_some()).collect();
    // 4500 bytes behind the first, then 3000, 1500, 0: only the first is over the floor.
    assert_eq!(marks, vec![true, false, false, false]);
}

#[test]
fn on_overload_ecn_capable_classic_packets_are_dropped_and_l_packets_all_marked() {
    let p = 0.6; // k·p' = 1.2 > 1; p_C = 0.36
    let n = 50_000;
    let (c_marks, c_drops) = churn(&mut frozen(DualPi2Config::default(), p), Ecn::Ect0, 10, n);
    assert_eq!(c_marks, 0);
    let dropped = f64::from(c_drops) / f64::from(n + c_drops);
    assert!((dropped - 0.36).abs() < 0.01, "{dropped}");
    // A deep backlog, so a run of drops never leaves it under the two-MTU floor.
    let (l_marks, l_drops) = churn(&mut frozen(DualPi2Config::default(), p), Ecn::Ect1, 40, n);
    assert_eq!(l_marks, n, "p_L saturates: every L packet sent is marked");
    assert!((f64::from(l_drops) / f64::from(n + l_drops) - 0.36).abs() < 0.01);
    // Without drop on overload nothing is dropped, and p' stops at 1/k.
    let mut d = frozen(DualPi2Config { drop_overload: false, ..DualPi2Config::default() }, 0.5);
    let (_, none) = churn(&mut d, Ecn::Ect0, 10, n);
    assert_eq!(none, 0);
}

#[test]
fn one_update_moves_p_by_alpha_times_the_error_plus_beta_times_the_trend() {
    let mut d = disc(DualPi2Config::default());
    let mut drops = Vec::new();
    let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
    // A C packet that arrived at 0 is 16 ms old at the first update: 1 ms above target,
    // and 16 ms more than the 0 the (empty) last update saw.
    d.enqueue(item(0, Ecn::Ect0, SimTime::ZERO), &mut cx);
    d.catch_up(SimTime(16 * MS));
    let want = 0.16 * 0.001 + 3.2 * 0.016;
    assert!((d.probability() - want).abs() < 1e-12, "{} vs {want}", d.probability());
    // Next update: 32 ms old, 17 ms above target, 16 ms more than last time.
    d.catch_up(SimTime(32 * MS));
    let want = want + 0.16 * 0.017 + 3.2 * 0.016;
    assert!((d.probability() - want).abs() < 1e-12);
    assert_eq!(d.stats().updates, 2);
}

#[test]
fn the_probability_stays_in_range_and_decays_to_zero_when_idle() {
    let mut d = disc(DualPi2Config::default());
    let mut drops = Vec::new();
    let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
    d.enqueue(item(0, Ecn::NotEct, SimTime::ZERO), &mut cx);
    d.catch_up(SimTime(10_000 * MS)); // a packet ten seconds old: p' pinned at 1
    assert_eq!(d.probability(), 1.0);
    let mut cx = QdiscCtx::new(SimTime(10_000 * MS), &mut drops);
    d.dequeue(&mut cx);
    // Empty: −0.16 × 15 ms per update, and −3.2 × 10 s once, so p' is 0 at once.
    d.catch_up(SimTime(10_100 * MS));
    assert_eq!(d.probability(), 0.0);
    let mut capped = disc(DualPi2Config { drop_overload: false, ..DualPi2Config::default() });
    let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
    capped.enqueue(item(0, Ecn::NotEct, SimTime::ZERO), &mut cx);
    capped.catch_up(SimTime(10_000 * MS));
    assert_eq!(capped.probability(), 0.5, "1/k without drop on overload");
}

#[test]
fn while_both_queues_wait_the_classic_queue_gets_its_ten_percent() {
    let mut d = frozen(DualPi2Config::default(), 0.0);
    let mut drops = Vec::new();
    let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
    for i in 0..2000 {
        d.enqueue(item(i, if i % 2 == 0 { Ecn::Ect1 } else { Ecn::NotEct }, SimTime::ZERO), &mut cx);
    }
    // 1000 of each; the first 1000 sent while both still wait.
    let from_c = (0..1000).filter(|_| d.dequeue(&mut cx).is_some_and(|i| i.ecn == Ecn::NotEct)).count();
    assert_eq!(from_c, 100, "one packet in ten from C");
    // Strict priority would starve C: it still has 900 queued and is served once L empties.
    assert_eq!(d.lengths(), (100, 900));
}

#[test]
fn occupancy_is_the_sum_of_both_queues_and_the_limit_is_shared() {
    let mut d = disc(DualPi2Config { limit: QueueLimit::Packets(3), ..DualPi2Config::default() });
    let mut drops = Vec::new();
    let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
    let took: Vec<bool> = [Ecn::Ect1, Ecn::NotEct, Ecn::Ect1, Ecn::NotEct]
        .into_iter()
        .enumerate()
        .map(|(i, e)| d.enqueue(item(i as u32, e, SimTime::ZERO), &mut cx))
        .collect();
    assert_eq!(took, vec![true, true, true, false]);
    assert_eq!(d.occupancy().packets, 3);
    assert_eq!(drops[0].reason, DropReason::Overflow);
}
