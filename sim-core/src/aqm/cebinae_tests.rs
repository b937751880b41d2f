use super::*;
use crate::aqm::Dropped;
use crate::rng::{SimRng, StreamId};

const LINK: Rate = Rate(100_000_000);

fn cebinae() -> Cebinae {
    Cebinae::new(&ns3_defaults(), LINK)
}

fn us(v: u64) -> SimTime {
    SimTime(v * 1_000)
}

/// Offers `n` packets of 1500 bytes from `flow` at `now`; returns the drops.
fn offer(c: &mut Cebinae, flow: u32, n: u32, now: SimTime) -> Vec<Dropped> {
    let mut drops = Vec::new();
    for i in 0..n {
        let mut cx = QdiscCtx::new(now, &mut drops);
        c.enqueue(
            QItem { id: flow * 1000 + i, bytes: 1500, flow, enqueued_at: now, conn: 0, ..QItem::default() },
            &mut cx,
        );
    }
    drops
}

fn drain(c: &mut Cebinae, now: SimTime) -> Vec<QItem> {
    std::iter::from_fn(|| c.dequeue(now)).collect()
}

#[test]
fn cebinae_taxes_only_the_top_flow_when_the_port_is_bottlenecked() {
    let mut c = cebinae();
    // Round 0: 9 × 1500 B leave (13.5 kB > 0.95 · 12.5 kB): the port is saturated.
    // Flow 1 sent 6 packets, flow 2 sent 3: flow 1 alone is within 5 % of the maximum.
    assert!(offer(&mut c, 1, 6, us(0)).is_empty());
    assert!(offer(&mut c, 2, 3, us(0)).is_empty());
    assert_eq!(drain(&mut c, us(500)).len(), 9);
    // Round 1: flow 1 pushes hard, flow 2 keeps its pace.
    let d1 = offer(&mut c, 1, 20, us(1000));
    let d2 = offer(&mut c, 2, 3, us(1000));
    assert_eq!(c.top_flows().collect::<Vec<_>>(), vec![1]);
    let (top, bot) = c.computed_rates_bps();
    assert_eq!(top, 68_400_000, "0.95 · 9000 B per ms");
    assert_eq!(bot, 100_000_000 - 68_400_000);
    // The taxed aggregate gets its first packet plus one round at 68.4 Mbit/s (8550 B).
    assert_eq!(d1.len(), 14);
    assert!(d1.iter().all(|d| d.item.flow == 1 && d.reason == DropReason::Early && !d.was_queued));
    assert!(d2.is_empty(), "the bottom flow must not be taxed: {d2:?}");
    assert_eq!((c.stats().top_lbf_drops, c.stats().bottom_lbf_drops), (14, 0));
    assert_eq!(c.stats().saturated_windows, 1);
}

#[test]
fn cebinae_does_not_tax_when_the_port_is_not_bottlenecked() {
    let mut c = cebinae();
    // Round 0: 6 × 1500 B = 9 kB < 11.875 kB: not saturated, although flow 1 dominates.
    assert!(offer(&mut c, 1, 5, us(0)).is_empty());
    assert!(offer(&mut c, 2, 1, us(0)).is_empty());
    assert_eq!(drain(&mut c, us(500)).len(), 6);
    // Round 1: 18 kB from flow 1 fits in two rounds at the link rate (25 kB). Taxed at
    // 0.95 · 7.5 kB per ms it would lose most of them.
    let d = offer(&mut c, 1, 12, us(1000));
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(c.top_flows().count(), 0);
    assert_eq!(c.computed_rates_bps(), (0, 100_000_000));
    assert_eq!(c.stats().saturated_windows, 0);
}

#[test]
fn cebinae_lbf_admits_at_most_two_rounds_of_the_aggregate_rate() {
    let mut c = cebinae();
    // 2 rounds at 100 Mbit/s = 25 kB: packets that start within it are admitted (17).
    let d = offer(&mut c, 7, 20, us(0));
    assert_eq!(d.len(), 3);
    assert!(d.iter().all(|d| d.reason == DropReason::Early));
    // The first round's budget (12.5 kB) went to the current queue, the rest to the next.
    assert_eq!(c.queues[c.headq].len(), 9);
    assert_eq!(c.queues[1 - c.headq].len(), 8);
}

#[test]
fn cebinae_serves_the_current_round_before_the_next() {
    let mut c = cebinae();
    offer(&mut c, 1, 12, us(0));
    let out = drain(&mut c, us(10));
    let ids: Vec<u32> = out.iter().map(|i| i.id).collect();
    assert_eq!(ids, (1000..1012).collect::<Vec<_>>());
    // Once the rates have settled, fill both queues and cross a round boundary: the old
    // "next" queue is now the current one.
    offer(&mut c, 2, 12, us(10_000));
    let head = c.headq;
    assert_eq!(c.queues[1 - head].len(), 3);
    let first = c.dequeue(us(11_100)).unwrap();
    assert_eq!(c.headq, 1 - head);
    assert_eq!(first.id, 2009, "after the rotation the next round's queue is served first");
}

#[test]
fn cebinae_buffer_full_drops_are_overflow() {
    let cfg = CebinaeConfig { limit: QueueLimit::Packets(10), ..ns3_defaults() };
    let mut c = Cebinae::new(&cfg, LINK);
    let d = offer(&mut c, 1, 8, us(0));
    // Each queue holds 5: the 6th packet of the current round overflows.
    assert_eq!(d.len(), 3);
    assert!(d.iter().all(|d| d.reason == DropReason::Overflow));
    assert_eq!(c.stats().overflow, 3);
}

#[test]
fn cebinae_skipping_idle_rounds_matches_stepping_through_them() {
    let mut a = cebinae();
    let mut b = cebinae();
    for c in [&mut a, &mut b] {
        offer(c, 1, 6, us(0));
        offer(c, 2, 3, us(0));
        drain(c, us(500));
    }
    // `a` sees every round boundary, `b` only the end of the idle period.
    for k in 1..=1000 {
        assert!(a.dequeue(us(1000 * k + 1)).is_none());
    }
    assert!(b.dequeue(us(1_000_001)).is_none());
    assert_eq!((a.headq, a.base, a.stats.rounds), (b.headq, b.base, b.stats.rounds));
    for c in [&mut a, &mut b] {
        offer(c, 3, 20, us(1_000_500));
    }
    assert_eq!(drain(&mut a, us(1_000_600)), drain(&mut b, us(1_000_600)));
    assert_eq!(a.stats(), b.stats());
}

#[test]
fn cebinae_occupancy_matches_the_packets_it_holds() {
    for limit in [QueueLimit::Packets(30), QueueLimit::Cells { cells: 300, cell_bytes: 160 }] {
        let cfg = CebinaeConfig { limit, ..ns3_defaults() };
        let mut c = Cebinae::new(&cfg, LINK);
        let mut rng = SimRng::new(4, StreamId::Other(2));
        let mut held: BTreeMap<u32, u32> = BTreeMap::new();
        let mut t = SimTime::ZERO;
        let (mut accepted, mut dropped) = (0, 0);
        for id in 0..50_000 {
            t += SimDuration(rng.below(150_000));
            if rng.uniform() < 0.6 {
                let bytes = 40 + rng.below(1460) as u32;
                let flow = rng.below(4) as u32;
                let mut drops = Vec::new();
                let mut cx = QdiscCtx::new(t, &mut drops);
                if c.enqueue(QItem { id, bytes, flow, enqueued_at: t, conn: 0, ..QItem::default() }, &mut cx)
                {
                    held.insert(id, bytes);
                    accepted += 1;
                } else {
                    assert_eq!(drops.len(), 1);
                    dropped += 1;
                }
            } else if let Some(it) = c.dequeue(t) {
                assert_eq!(held.remove(&it.id), Some(it.bytes));
            }
            let occ = c.occupancy();
            assert_eq!(occ.packets as usize, held.len());
            assert_eq!(occ.bytes, held.values().map(|&b| u64::from(b)).sum::<u64>());
            assert_eq!(occ.cells, held.values().map(|&b| limit.cells_of(b)).sum::<u64>());
            assert_eq!(c.queue_occ[0].packets + c.queue_occ[1].packets, occ.packets);
        }
        assert!(accepted > 1000 && dropped > 100, "{accepted} accepted, {dropped} dropped");
    }
}

#[test]
fn cebinae_spec_is_tagged_cebinae_and_fills_missing_fields_with_defaults() {
    use crate::aqm::QueueDiscSpec;
    let spec: QueueDiscSpec = serde_json::from_str(r#"{"type":"cebinae","tau":0.01}"#).unwrap();
    assert_eq!(spec, QueueDiscSpec::Cebinae(CebinaeConfig { tau: 0.01, ..CebinaeConfig::default() }));
    assert_eq!(spec.name(), "cebinae");
    assert_eq!(spec.limit(), QueueLimit::Cells { cells: 3000, cell_bytes: 160 });
    let q = ns3_defaults().effective_queue_limit();
    assert_eq!(q, QueueLimit::Cells { cells: 1500, cell_bytes: 160 });
    assert_eq!(serde_json::from_str::<QueueDiscSpec>(&serde_json::to_string(&spec).unwrap()).unwrap(), spec);
}

/// The ns-3 attribute defaults (1 ms rounds recomputed every round) the unit tests reason in.
fn ns3_defaults() -> CebinaeConfig {
    CebinaeConfig { round_ms: 1.0, recompute_rounds: 1, ..CebinaeConfig::default() }
}
