//! A fuzz target over the validator's own ranges. Each case takes a preset variant (or the
//! default scenario), makes it short and small, may swap in any registered disc and
//! congestion controls, then draws one to four described fields (`Field` / `Kind` / `Range`)
//! inside their range, at its edges or just outside. Then:
//!
//! - a value outside its declared range is refused, and the refusal names its path;
//! - every refusal names a path that exists in the scenario;
//! - a scenario that validates and that the cost estimate calls small runs to its end
//!   without panicking, within twice the events the estimate promised (so a hang fails the
//!   case instead of hanging the suite, and the estimate stays an upper bound), conserving packets and keeping the bottleneck
//!   queue within its buffer at every sample; its summary survives a JSON round trip.
//!
//! A second target scales random valid scenarios up to the split engine's size (2000 flows
//! or more, access delays of 0.5 ms or more, 30-200 ms simulated) and checks that two
//! threads record what one thread does, and that packets are conserved.
//!
//! The default case count keeps the test to well under a minute in the test profile;
//! `PROPTEST_CASES=20000 cargo test -p aqm-tests --test fuzz -- --nocapture` runs a longer
//! campaign. Failures shrink to a minimal scenario, printed as JSON.

use aqm_tests::random::{self, Applied, Mode, Mutation, Swap};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{RngSeed, TestCaseResult, TestRunner};
use serde_json::Value;
use sim_core::metrics::Summary;
use sim_core::queue::Occupancy;
use sim_core::scenario::{cost, patch, Scenario};
use sim_core::sim::Simulation;
use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};

const DEFAULT_CASES: u32 = 3000;
/// Cases whose estimate is above this are validated but not run (one case stays < 100 ms).
const EVENT_CAP: f64 = 300_000.0;
const BYTE_CAP: f64 = 64e6;

#[derive(Clone, Debug)]
struct Case {
    base: Index,
    seconds: f64,
    swap: Swap,
    mutations: Vec<Mutation>,
}

/// Every mode, in-range draws twice as likely as edges and values just outside.
const MODES: &[Mode] =
    &[Mode::Inside, Mode::Log, Mode::Log, Mode::Empty, Mode::Min, Mode::Max, Mode::BelowMin, Mode::AboveMax];

fn case() -> impl Strategy<Value = Case> {
    (any::<Index>(), 0.01..1.0f64, random::swap(), prop::collection::vec(random::mutation(MODES), 1..5))
        .prop_map(|(base, seconds, swap, mutations)| Case { base, seconds, swap, mutations })
}

#[derive(Debug, Default)]
struct Tally {
    cases: u64,
    refused_by_parser: u64,
    refused_by_validator: u64,
    refused_at_build: u64,
    too_costly: u64,
    ran: u64,
    events: u64,
    /// Largest events run / events estimated.
    worst_ratio: f64,
}

/// Does `path` (as an error names it) exist in the scenario JSON?
fn exists(v: &Value, path: &str) -> bool {
    path.is_empty() || patch::get(v, path).is_some()
}

/// Mutations whose value is still in place: not overwritten by a later one at the same path
/// or under a parent a later one replaced.
fn effective(applied: &[Applied]) -> Vec<&Applied> {
    applied
        .iter()
        .enumerate()
        .filter(|(i, a)| {
            !applied[i + 1..].iter().any(|b| {
                a.path == b.path
                    || a.path.starts_with(&format!("{}.", b.path))
                    || b.path.starts_with(&format!("{}.", a.path))
            })
        })
        .map(|(_, a)| a)
        .collect()
}

/// The case's scenario JSON: the shortened base, the swap, the mutations.
fn build(c: &Case) -> (String, Value, Vec<Applied>) {
    let bases = random::bases();
    let (label, base) = &bases[c.base.index(bases.len())];
    let short = random::shorten(base.clone(), c.seconds);
    let mut v = serde_json::to_value(&short).unwrap();
    random::apply_swap(&mut v, &c.swap, short.full_packet_bytes());
    let applied: Vec<Applied> = c.mutations.iter().map(|m| random::apply(&mut v, m)).collect();
    (label.clone(), v, applied)
}

fn check(label: &str, v: &Value, applied: &[Applied], t: &mut Tally) -> TestCaseResult {
    t.cases += 1;
    let live = effective(applied);
    let must: Vec<&str> = live.iter().filter_map(|a| a.must_name.as_deref()).collect();
    let show = || format!("base {label}; mutations {applied:?}\n{}", serde_json::to_string(v).unwrap());

    let sc = match Scenario::from_value(v.clone()) {
        Ok(sc) => sc,
        Err(e) => {
            // serde refuses what the type cannot hold (a negative count, a u32 overflow): only
            // values outside their range, and the message starts with the path.
            t.refused_by_parser += 1;
            let named = must.iter().any(|p| e.starts_with(&format!("{p}:")));
            prop_assert!(named, "parse error names none of {:?}: {}\n{}", must, e, show());
            return Ok(());
        }
    };
    if let Err(errs) = sc.validate() {
        t.refused_by_validator += 1;
        for p in &must {
            prop_assert!(
                errs.iter().any(|e| e.field == *p),
                "{} is out of range but not named: {:?}\n{}",
                p,
                errs,
                show()
            );
        }
        for e in &errs {
            prop_assert!(exists(v, &e.field), "error names no field of the scenario: {}\n{}", e, show());
            prop_assert!(!e.allowed.is_empty() && !e.value.is_empty(), "{e:?}");
        }
        return Ok(());
    }
    prop_assert!(must.is_empty(), "accepted out-of-range {:?}\n{}", must, show());

    let est = cost::estimate(&sc);
    if est.events > EVENT_CAP || est.bytes > BYTE_CAP {
        t.too_costly += 1;
        return Ok(());
    }
    let mut sim = match Simulation::new(&sc) {
        Ok(sim) => sim,
        Err(errs) => {
            // Building may still refuse (a DQN flow naming a model nobody registered).
            t.refused_at_build += 1;
            for e in &errs {
                prop_assert!(exists(v, &e.field), "build error names no field: {}\n{}", e, show());
            }
            return Ok(());
        }
    };
    // The estimate is the CLI's promise (it refuses beyond its limits): a run may exceed it
    // by a little, not by a factor. A hang ends here too.
    let budget = (2.0 * est.events) as u64 + 10_000;
    let limit = sim.bottleneck_limit();
    let mut used = 0u64;
    while !sim.is_finished() {
        used += sim.run_events(5_000);
        prop_assert!(used <= budget, "no end after {} events (estimate {:.0})\n{}", used, est.events, show());
        let c = sim.packet_counts();
        prop_assert_eq!(c.sent, c.delivered + c.dropped + c.in_flight, "{}", show());
        for s in sim.poll().samples {
            let occ = Occupancy { packets: s.queue_packets, bytes: s.queue_bytes, cells: s.queue_cells };
            prop_assert!(
                !limit.exceeded_by(&occ),
                "queue {:?} over {:?} at {} s\n{}",
                occ,
                limit,
                s.t_s,
                show()
            );
        }
    }
    let summary = sim.summary();
    let json = serde_json::to_string(&summary).unwrap();
    let back: Summary =
        serde_json::from_str(&json).map_err(|e| TestCaseError::fail(format!("{e}: {json}")))?;
    prop_assert_eq!(back, summary);
    t.ran += 1;
    t.events += used;
    t.worst_ratio = t.worst_ratio.max(used as f64 / est.events.max(1.0));
    Ok(())
}

#[test]
fn scenarios_drawn_from_the_validators_ranges_are_refused_by_name_or_run_to_their_end() {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(DEFAULT_CASES);
    // A fixed seed by default, so CI sees the same cases every run; PROPTEST_RNG_SEED picks
    // another set for a campaign.
    let rng_seed = match std::env::var("PROPTEST_RNG_SEED").ok().and_then(|v| v.parse().ok()) {
        Some(seed) => RngSeed::Fixed(seed),
        None => RngSeed::Fixed(0x5eed),
    };
    let config = ProptestConfig { cases, rng_seed, failure_persistence: None, ..ProptestConfig::default() };
    let tally = RefCell::new(Tally::default());
    let started = std::time::Instant::now();
    let result = TestRunner::new(config).run(&case(), |c| {
        let (label, v, applied) = build(&c);
        // A panic fails the case with the scenario that caused it, ready to replay.
        catch_unwind(AssertUnwindSafe(|| check(&label, &v, &applied, &mut tally.borrow_mut())))
            .unwrap_or_else(|p| {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
                Err(TestCaseError::fail(format!(
                    "panicked: {}\nbase {label}; mutations {applied:?}\n{}",
                    msg.unwrap_or_default(),
                    serde_json::to_string(&v).unwrap()
                )))
            })
    });
    println!("fuzz: {:?} in {:.1} s", tally.borrow(), started.elapsed().as_secs_f64());
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// `sc` made big enough to run split, and short: at least 2000 flows (the groups' counts
/// scaled), access delays of at least 0.5 ms, `seconds` simulated.
fn split_sized(mut sc: Scenario, seconds: f64) -> Scenario {
    let total: u32 = sc.flows.iter().map(|g| g.count).sum();
    let scale = 2000u32.div_ceil(total.max(1));
    sc.duration_s = seconds;
    sc.warmup_s = sc.warmup_s.min(seconds / 2.0);
    sc.sample_interval_s = sc.sample_interval_s.min(seconds / 3.0);
    for g in &mut sc.flows {
        g.count *= scale;
        g.access_delay_ms = g.access_delay_ms.max(0.5);
        g.start_s = g.start_s.min(seconds / 2.0);
        g.start_jitter_s = g.start_jitter_s.min(seconds / 4.0);
        g.stop_s = g.stop_s.map(|s| s.min(seconds).max(g.start_s));
    }
    sc
}

#[test]
fn random_split_runs_record_the_same_on_two_threads_as_on_one() {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(32u32).min(500);
    let config = ProptestConfig {
        cases,
        rng_seed: RngSeed::Fixed(0x5_9117),
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let ran = RefCell::new(0u32);
    let result = TestRunner::new(config).run(&(random::valid_scenario(), 0.03..0.2f64), |(sc, seconds)| {
        let sc = split_sized(sc, seconds);
        prop_assume!(sc.validate().is_ok());
        prop_assume!(cost::check(&sc, false).is_ok_and(|e| e.events < 3e6));
        let json = serde_json::to_string(&sc).unwrap();
        let mut two = Simulation::new(&sc).map_err(|e| TestCaseError::fail(format!("{e:?}: {json}")))?;
        prop_assert!(two.is_split(), "{} flows run split: {json}", sc.total_flows());
        let mut one = Simulation::new(&sc).unwrap();
        one.set_parallel(false);
        let (a, b) = (two.finish(), one.finish());
        let c = a.packets;
        prop_assert_eq!(c.sent, c.delivered + c.dropped + c.in_flight, "conservation: {}", json);
        prop_assert!(two.recorder().samples.kept == one.recorder().samples.kept, "samples: {}", json);
        prop_assert!(two.recorder().drops.kept == one.recorder().drops.kept, "drops: {}", json);
        prop_assert!(a == b, "summary: {}", json);
        *ran.borrow_mut() += 1;
        Ok(())
    });
    println!("split fuzz: {} of {cases} cases ran", ran.borrow());
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(*ran.borrow() >= cases / 2, "most cases are runnable: {}", ran.borrow());
}

/// Live changes: a random valid scenario, made short, takes random values of its described
/// fields during the run, at random moments, as the page's edits do. A change the run
/// accepts is recorded in its scenario, and replaying that scenario records exactly what
/// the live run did; a refused one changes nothing and says why; packets are conserved and
/// the bottleneck holds no more than its limit of the moment.
#[test]
fn random_changes_during_a_run_replay_exactly_or_are_refused_by_name() {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(96u32).min(2000);
    let config = ProptestConfig {
        cases,
        rng_seed: RngSeed::Fixed(0x00c4_a96e),
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let (applied, refused) = (RefCell::new(0u32), RefCell::new(0u32));
    let strategy = (
        random::valid_scenario(),
        0.2..1.5f64,
        prop::collection::vec((0.05..0.95f64, random::mutation(&Mode::VALID)), 1..4),
    );
    let result = TestRunner::new(config).run(&strategy, |(sc, seconds, edits)| {
        let sc = random::shorten(sc, seconds);
        prop_assume!(sc.validate().is_ok());
        prop_assume!(cost::check(&sc, false).is_ok_and(|e| e.events < EVENT_CAP));
        let json = serde_json::to_string(&sc).unwrap();
        let mut live = Simulation::new(&sc).map_err(|e| TestCaseError::fail(format!("{e:?}: {json}")))?;
        let mut edits = edits;
        edits.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (at, m) in &edits {
            live.step_until(sim_core::time::SimTime::from_secs_f64(at * sc.duration_s));
            let mut v = serde_json::to_value(live.scenario()).unwrap();
            let a = random::apply(&mut v, m);
            let before = live.scenario().changes.len();
            match live.change_now(&a.path, a.value.clone()) {
                Ok(c) => {
                    prop_assert_eq!(&c.set, &a.path);
                    *applied.borrow_mut() += 1;
                }
                Err(e) => {
                    prop_assert!(!e.is_empty());
                    prop_assert_eq!(live.scenario().changes.len(), before, "a refusal records nothing");
                    *refused.borrow_mut() += 1;
                }
            }
            let c = live.packet_counts();
            prop_assert_eq!(c.sent, c.delivered + c.dropped + c.in_flight, "conservation: {}", json);
            let occ = live.bottleneck_occupancy();
            prop_assert!(!live.bottleneck_limit().exceeded_by(&occ), "{:?} over the limit: {}", occ, json);
        }
        let a = live.finish();
        let mut replay =
            Simulation::new(live.scenario()).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        let b = replay.finish();
        let changed = serde_json::to_string(live.scenario()).unwrap();
        prop_assert!(a == b, "summary differs on replay: {}", changed);
        prop_assert!(live.recorder().samples.kept == replay.recorder().samples.kept, "samples: {}", changed);
        prop_assert!(live.recorder().drops.kept == replay.recorder().drops.kept, "drops: {}", changed);
        Ok(())
    });
    println!("change fuzz: {} changes applied, {} refused", applied.borrow(), refused.borrow());
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(*applied.borrow() >= cases / 4, "enough changes apply: {}", applied.borrow());
}
