//! Property tests (proptest, with shrinking): every registered queue disc conserves packets
//! and keeps within its buffer under random load; the closed-form FIFO of host links gives
//! the departures an event-driven FIFO gives; scenarios survive JSON and `--set` round trips.
//! (The event queue's order and the schedulers' shares are tested next to their code in
//! sim-core.) `PROPTEST_CASES` raises the case counts for a longer local campaign.

use aqm_tests::random::{self, Mode, Mutation};
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::Value;
use sim_core::aqm::{BuildCx, Fifo, QueueDiscSpec};
use sim_core::net::{HostLink, LinkSpec};
use sim_core::params::Checker;
use sim_core::queue::{Dropped, QItem, QdiscCtx, QueueDisc, QueueLimit};
use sim_core::rng::{SimRng, StreamId};
use sim_core::scenario::{patch, Scenario};
use sim_core::time::{Rate, SimTime};
use std::collections::BTreeMap;

/// `PROPTEST_CASES` if set, else `default`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// A fixed seed: CI sees the same cases each time; `PROPTEST_CASES` widens the search.
fn config(default_cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: cases(default_cases),
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x9e0_9e17),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---- every registered disc under random load -----------------------------------------------

#[derive(Clone, Debug)]
enum Op {
    Enqueue {
        flow: u32,
        bytes: u32,
    },
    Dequeue,
    /// Time passes (CoDel's sojourn times, PIE's and Cebinae's periods, a switch's control plane).
    Wait {
        ns: u64,
    },
}

fn op() -> impl Strategy<Value = Op> {
    let bytes = prop_oneof![Just(40u32), Just(1500u32), 40u32..=9000];
    prop_oneof![
        6 => (0u32..6, bytes).prop_map(|(flow, bytes)| Op::Enqueue { flow, bytes }),
        4 => Just(Op::Dequeue),
        1 => (0u64..60_000_000).prop_map(|ns| Op::Wait { ns }),
    ]
}

/// A small buffer in packets, bytes or cells, so that load overflows it.
fn small_limit() -> impl Strategy<Value = QueueLimit> {
    prop_oneof![
        (1u32..60).prop_map(QueueLimit::Packets),
        (9000u64..90_000).prop_map(QueueLimit::Bytes),
        (60u32..800, prop::sample::select(vec![64u32, 80, 160, 176, 256]))
            .prop_map(|(cells, cell_bytes)| QueueLimit::Cells { cells, cell_bytes }),
    ]
}

/// A registered disc (flavours included): its defaults, some described fields drawn inside
/// their ranges (dropped from the end until the configuration validates), and a small buffer.
fn disc() -> impl Strategy<Value = QueueDiscSpec> {
    (any::<Index>(), prop::collection::vec(random::mutation(&Mode::VALID), 0..4), small_limit()).prop_map(
        |(pick, muts, limit)| {
            let entries = QueueDiscSpec::FAMILY.entries();
            let (key, _, _) = entries[pick.index(entries.len())];
            for keep in (0..=muts.len()).rev() {
                let mut spec = draw_disc(key, &muts[..keep]);
                spec.get_mut().set_limit(limit, 1500);
                let mut c = Checker::new();
                spec.check(&mut c);
                if c.errors().is_empty() {
                    return spec;
                }
            }
            QueueDiscSpec::from_value(QueueDiscSpec::FAMILY.entry_value(key).unwrap()).unwrap()
        },
    )
}

/// A disc's default JSON with `muts` applied to its own described fields.
fn draw_disc(key: &str, muts: &[Mutation]) -> QueueDiscSpec {
    let mut v = QueueDiscSpec::FAMILY.entry_value(key).unwrap();
    let tag = v["type"].as_str().unwrap().to_string();
    let fields = QueueDiscSpec::FAMILY.member(&tag).unwrap().fields;
    for m in muts {
        let f = &fields[m.pick.index(fields.len())];
        let d = random::draw(f, m.mode, m.x, m.y);
        patch::set(&mut v, f.path, d.value).unwrap();
    }
    QueueDiscSpec::from_value(v.clone()).unwrap_or_else(|e| panic!("{e}: {v}"))
}

/// Drives a disc with `ops` and checks, after every step: sent = dequeued + dropped + queued;
/// occupancy (packets, bytes, cells) equals what is held; the buffer is never exceeded; a
/// drop names a packet that was offered and not yet gone; a dequeue with packets held
/// returns one unless drops emptied the queue.
fn drive(spec: &QueueDiscSpec, rate_bps: u64, seed: u64, ops: &[Op]) -> Result<(), TestCaseError> {
    let cx =
        BuildCx { link_rate: Rate(rate_bps), rng: SimRng::new(seed, StreamId::Queue(0)), packet_bytes: 1500 };
    let mut q: Box<dyn QueueDisc> = spec.build(cx);
    let limit = q.limit();
    let mut held: BTreeMap<u32, QItem> = BTreeMap::new();
    let (mut sent, mut dequeued, mut dropped) = (0u64, 0u64, 0u64);
    let mut now = SimTime::ZERO;
    let mut drops: Vec<Dropped> = Vec::new();
    for (step, op) in ops.iter().enumerate() {
        // The engine wakes a disc when its poll_at comes due, before anything else happens.
        let mut guard = 0;
        while q.poll_at().is_some_and(|t| t <= now) && guard < 10_000 {
            q.on_wakeup(&mut QdiscCtx::new(now, &mut drops));
            guard += 1;
        }
        let mut arrival = None;
        let mut enq_result = None;
        let before = q.occupancy();
        let mut got = None;
        match *op {
            Op::Enqueue { flow, bytes } => {
                let item =
                    QItem { id: sent as u32, bytes, flow, enqueued_at: now, conn: 0, ..QItem::default() };
                sent += 1;
                held.insert(item.id, item);
                arrival = Some(item.id);
                enq_result = Some(q.enqueue(item, &mut QdiscCtx::new(now, &mut drops)));
            }
            Op::Dequeue => {
                got = q.dequeue(&mut QdiscCtx::new(now, &mut drops));
                if let Some(it) = got {
                    let mine = held.remove(&it.id);
                    prop_assert_eq!(mine, Some(it), "step {}: dequeued a packet not held", step);
                    dequeued += 1;
                }
            }
            Op::Wait { ns } => now = SimTime(now.as_nanos() + ns),
        }
        for d in drops.drain(..) {
            let mine = held.remove(&d.item.id);
            prop_assert_eq!(mine, Some(d.item), "step {}: dropped a packet not held: {:?}", step, d);
            prop_assert!(d.was_queued || Some(d.item.id) == arrival, "step {}: {:?} was queued", step, d);
            dropped += 1;
        }
        if let (Some(id), Some(accepted)) = (arrival, enq_result) {
            prop_assert_eq!(accepted, held.contains_key(&id), "step {}: enqueue's answer", step);
        }
        let occ = q.occupancy();
        prop_assert_eq!(sent, dequeued + dropped + u64::from(occ.packets), "step {}: conservation", step);
        prop_assert_eq!(occ.packets as usize, held.len(), "step {}", step);
        prop_assert_eq!(occ.bytes, held.values().map(|i| u64::from(i.bytes)).sum::<u64>(), "step {}", step);
        let cells: u64 = held.values().map(|i| limit.cells_of(i.bytes)).sum();
        prop_assert_eq!(occ.cells, cells, "step {}: cells", step);
        prop_assert!(!limit.exceeded_by(&occ), "step {}: {:?} over {:?}", step, occ, limit);
        if matches!(op, Op::Dequeue) && before.packets > 0 {
            prop_assert!(got.is_some() || occ.packets == 0, "step {}: idle with {:?} held", step, occ);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn every_registered_disc_conserves_packets_and_stays_within_its_buffer(
        spec in disc(),
        rate in prop_oneof![Just(2_000_000u64), 1_000_000u64..10_000_000_000],
        seed in any::<u64>(),
        ops in prop::collection::vec(op(), 1..600),
    ) {
        drive(&spec, rate, seed, &ops)?;
    }

    /// Host and reverse-path links solve their FIFO in closed form (departure = max(arrival,
    /// previous departure) + transmission time). The same arrivals through the event-driven
    /// FIFO disc and a link that dequeues when idle (a departure at time t frees its place
    /// before an arrival at t) give the same packets dropped and the same departure times.
    /// Buffers hold at least one packet of the largest size (9000 B): with less, the closed
    /// form still sends a packet that finds the link idle where the disc refuses it; the
    /// validator refuses such buffers, and host links count packets.
    #[test]
    fn closed_form_fifo_departs_and_drops_like_the_event_driven_one(
        limit in prop_oneof![
            (1u32..40).prop_map(QueueLimit::Packets),
            (9000u64..60_000).prop_map(QueueLimit::Bytes),
            (120u32..400, prop::sample::select(vec![80u32, 160])).prop_map(|(cells, cell_bytes)| QueueLimit::Cells { cells, cell_bytes }),
        ],
        rate in 1_000_000u64..10_000_000_000,
        arrivals in prop::collection::vec((prop_oneof![Just(0u64), 0u64..2_000_000], 40u32..=9000), 1..400),
    ) {
        let rate = Rate(rate);
        let spec = LinkSpec { rate, delay: sim_core::time::SimDuration::ZERO, nic_queue_packets: 0 };
        let mut cf = HostLink::new(spec, limit);
        let mut t = 0u64;
        let closed: Vec<Option<SimTime>> = arrivals
            .iter()
            .map(|&(gap, bytes)| {
                t += gap;
                cf.cross(SimTime(t), bytes).map(|c| c.arrives)
            })
            .collect();

        let mut fifo = Fifo::new(limit);
        let mut drops = Vec::new();
        let mut events: Vec<Option<SimTime>> = vec![None; arrivals.len()];
        let mut wire: Option<(u32, SimTime)> = None;
        // Ends transmissions due by `until`, starting the next waiting packet each time.
        let mut finish = |fifo: &mut Fifo, wire: &mut Option<(u32, SimTime)>, until: SimTime, events: &mut Vec<Option<SimTime>>| {
            while let Some((id, done)) = *wire {
                if done > until {
                    break;
                }
                events[id as usize] = Some(done);
                *wire = fifo.dequeue(&mut QdiscCtx::new(done, &mut drops)).map(|it| (it.id, done + rate.tx_time(it.bytes)));
            }
        };
        let mut t = 0u64;
        for (i, &(gap, bytes)) in arrivals.iter().enumerate() {
            t += gap;
            let now = SimTime(t);
            finish(&mut fifo, &mut wire, now, &mut events);
            let item = QItem { id: i as u32, bytes, flow: 0, enqueued_at: now, conn: 0, ..QItem::default() };
            let mut d = Vec::new();
            if fifo.enqueue(item, &mut QdiscCtx::new(now, &mut d)) && wire.is_none() {
                let it = fifo.dequeue(&mut QdiscCtx::new(now, &mut d)).unwrap();
                wire = Some((it.id, now + rate.tx_time(it.bytes)));
            }
        }
        finish(&mut fifo, &mut wire, SimTime(u64::MAX), &mut events);
        prop_assert_eq!(closed, events);
    }
}

// ---- round trips --------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(128))]

    /// Serialise → parse gives the same scenario, as pretty JSON (files) and as a value.
    #[test]
    fn a_valid_scenario_survives_a_json_round_trip(sc in random::valid_scenario()) {
        prop_assert_eq!(sc.validate(), Ok(()));
        let back = Scenario::from_json(&sc.to_json()).map_err(TestCaseError::fail)?;
        prop_assert_eq!(&back, &sc);
        let compact = serde_json::to_string(&sc).unwrap();
        prop_assert_eq!(Scenario::from_json(&compact).map_err(TestCaseError::fail)?, sc);
    }

    /// `--set` of every top-level key of a scenario, as JSON text, turns the default scenario
    /// into that scenario; JSON Pointers and dotted paths agree.
    #[test]
    fn setting_every_key_of_a_scenario_rebuilds_it(sc in random::valid_scenario()) {
        let v = serde_json::to_value(&sc).unwrap();
        let sets: Vec<(String, String)> = v
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, x)| (k.clone(), serde_json::to_string(x).unwrap()))
            .collect();
        prop_assert_eq!(patch::apply(&Scenario::default(), &sets).map_err(TestCaseError::fail)?, sc.clone());
        let pointers: Vec<(String, String)> = sets.iter().map(|(k, x)| (format!("/{k}"), x.clone())).collect();
        prop_assert_eq!(patch::apply(&Scenario::default(), &pointers).map_err(TestCaseError::fail)?, sc);
    }

    /// `--set PATH=VALUE` of a described field writes exactly that value (`get` reads it back
    /// at the dotted path and at its pointer); setting the old value back restores the scenario.
    #[test]
    fn a_set_field_reads_back_and_setting_it_back_restores_the_scenario(
        sc in random::valid_scenario(),
        m in random::mutation(&Mode::VALID),
    ) {
        let before = serde_json::to_value(&sc).unwrap();
        let mut edited = before.clone();
        let a = random::apply(&mut edited, &m);
        let old = patch::get(&before, &a.path).cloned().unwrap_or(Value::Null);
        let raw = serde_json::to_string(&a.value).unwrap();
        match patch::apply(&sc, &[(a.path.clone(), raw)]) {
            Ok(s) => {
                let v = serde_json::to_value(&s).unwrap();
                prop_assert_eq!(patch::get(&v, &a.path), Some(&a.value), "{}", a.path);
                prop_assert_eq!(v.pointer(&patch::to_pointer(&a.path)), Some(&a.value));
                let back = patch::apply(&s, &[(a.path.clone(), serde_json::to_string(&old).unwrap())]);
                prop_assert_eq!(back.map_err(TestCaseError::fail)?, sc);
            }
            // Only a value serde cannot hold may be refused, and then by its path.
            Err(e) => prop_assert!(e.starts_with(&a.path), "{e}"),
        }
    }
}

// ---- goodput in the window never exceeds the link ------------------------------------------

proptest! {
    #![proptest_config(config(256))]

    /// Whatever the scenario, its window reports no more goodput than the bottleneck could
    /// carry in it: slow links and jumbo segments (one segment taking seconds, straddling
    /// the window's start) included.
    #[test]
    fn the_window_never_reports_more_goodput_than_the_link_carries(
        sc in random::valid_scenario(),
        seconds in 0.5..4.0f64,
        warmup in 0.0..0.9f64,
        log_rate in 3.5..8.5f64,
        mss in 500u32..9000,
    ) {
        let mut sc = random::shorten(sc, seconds);
        sc.warmup_s = warmup * sc.duration_s;
        sc.bottleneck_mut().rate_bps = 10f64.powf(log_rate) as u64;
        sc.tcp.mss_bytes = mss;
        prop_assume!(sc.validate().is_ok() && sc.changes.is_empty());
        prop_assume!(sim_core::scenario::cost::check(&sc, false).is_ok_and(|c| c.events < 2e6));
        let (sim, s) = aqm_tests::run(&sc);
        prop_assert!(s.throughput.utilisation <= 1.0 + 1e-9, "utilisation {} of {}", s.throughput.utilisation, sc.to_json());
        // Conservation per link: every packet that reached a link started on its wire, was
        // dropped there, or waits there still.
        for (id, name) in sc.link_names().enumerate().filter(|_| sc.has_links()) {
            let (c, queued) = sim.link_counts(id as u32).expect("a scenario with links counts each");
            prop_assert_eq!(c.arrived, c.started + c.dropped + queued, "{}: {:?}: {}", name, c, sc.to_json());
        }
        // Every disc link: the flows whose route crosses it carry no more than its rate.
        let names = sc.link_names();
        for name in names {
            let rate = sc.link_named(name).unwrap().rate_bps as f64;
            let flows: f64 = (s.flows.iter())
                .filter(|f| sc.route_of(&sc.flows[f.group as usize]).iter().any(|(n, _)| *n == name))
                .map(|f| f.throughput_bps)
                .sum();
            prop_assert!(flows <= rate * (1.0 + 1e-9), "{name}: flows {flows} > link {rate}: {}", sc.to_json());
        }
        for l in &s.links {
            prop_assert!(l.utilisation <= 1.0 + 1e-9, "{l:?}");
        }
    }
}
