use super::*;
use crate::scenario::preset;

#[test]
fn a_short_red_study_run_conserves_packets() {
    let mut sc = preset("red-study", Some("red")).unwrap();
    sc.duration_s = 5.0;
    let mut sim = Simulation::new(&sc).unwrap();
    let s = sim.finish();
    let c = s.packets;
    assert_eq!(c.sent, c.delivered + c.dropped + c.in_flight);
    assert!(c.delivered > 1000);
}

/// The delay a packet spends at the bottleneck splits into the disc's part and the device
/// queue's: over ns-3's 100-packet device queue RED holds a few packets and the device
/// queue the rest; without one the disc holds it all.
#[test]
fn the_queueing_delay_splits_into_the_disc_and_the_device_queue() {
    let run = |v: &str| {
        let mut sc = preset("red-study", Some(v)).unwrap();
        sc.duration_s = 10.0;
        Simulation::new(&sc).unwrap().finish()
    };
    let s = run("red");
    let (total, disc, device) =
        (s.delay_mean_s.unwrap(), s.delay_disc_mean_s.unwrap(), s.delay_device_mean_s.unwrap());
    assert!((disc + device - total).abs() < 1e-12, "{disc} + {device} != {total}");
    assert!(device > 5.0 * disc, "device queue {device} s, disc {disc} s");
    let s = run("red-nonic");
    assert_eq!(s.delay_device_mean_s, None);
    assert_eq!(s.delay_disc_mean_s, s.delay_mean_s);
    assert!(s.access_wait_mean_s > 0.0, "1 Mbit/s access links queue a window's bursts");
}

/// Each sample's per-flow delay is the mean over the packets the flow sent in its
/// interval: weighted by those packets, the samples give the run's mean delay.
#[test]
fn per_sample_flow_delays_average_to_the_runs_mean_delay() {
    let mut sc = preset("red-study", Some("red-nonic")).unwrap();
    (sc.duration_s, sc.warmup_s) = (10.0, 0.0);
    let mut sim = Simulation::new(&sc).unwrap();
    let s = sim.finish();
    let samples = &sim.recorder().samples.kept;
    let delays: Vec<f64> =
        samples.iter().flat_map(|x| x.flow_delay_ms.iter().flatten().map(|&d| f64::from(d))).collect();
    assert!(delays.len() > 10 * samples.len() / 2, "most flows send in most intervals");
    let mean = delays.iter().sum::<f64>() / delays.len() as f64;
    let want = s.delay_mean_s.unwrap() * 1e3;
    assert!((mean - want).abs() < 0.25 * want, "sample mean {mean} ms, run mean {want} ms");
}

/// A flow's start is when its sender opened the connection: the group's start plus the
/// flow's own jitter. With its completion, a finite flow's rate while active follows; the
/// window average dilutes it over the whole run.
#[test]
fn a_flow_records_when_it_started_beside_when_it_completed() {
    use crate::scenario::FlowGroup;
    let mut sc = preset("red-study", Some("red-nonic")).unwrap();
    (sc.duration_s, sc.warmup_s) = (6.0, 0.0);
    let bulk = FlowGroup { count: 1, start_s: 0.0, start_jitter_s: 0.0, ..sc.flows[0].clone() };
    let finite = FlowGroup { start_s: 2.0, start_jitter_s: 0.5, size_bytes: Some(20_000), ..bulk.clone() };
    sc.flows = vec![bulk, finite];
    let s = Simulation::new(&sc).unwrap().finish();
    assert_eq!(s.flows[0].start_time_s, Some(0.0));
    let f = &s.flows[1];
    let start = f.start_time_s.expect("the finite flow started");
    assert!((2.0..2.5).contains(&start), "start {start} s");
    let done = f.completion_time_s.expect("20 kB completes in 4 s");
    assert!(done > start, "completed at {done} s, started at {start} s");
    let active_bps = f.delivered_bytes as f64 * 8.0 / (done - start);
    assert!(active_bps > 2.0 * f.throughput_bps, "active {active_bps} bit/s, window {}", f.throughput_bps);
}

mod aqm_runs {
    use super::*;
    use crate::aqm::{CodelConfig, FqCodelConfig, FqConfig, QueueDiscSpec, QueueLimit};
    use crate::cc::CcaSpec;
    use crate::scenario::{FlowGroup, Link, Scenario};

    /// 10 bulk NewReno flows over a 10 Mbit/s, 10 ms bottleneck with `queue`.
    fn bulk_newreno(queue: QueueDiscSpec) -> Scenario {
        Scenario {
            duration_s: 15.0,
            warmup_s: 5.0,
            links: Scenario::one_link(Link::new(10_000_000, 10.0, queue)),
            flows: vec![FlowGroup {
                count: 10,
                cca: CcaSpec::NewReno(Default::default()),
                ..FlowGroup::default()
            }],
            ..Scenario::default()
        }
    }

    /// Runs the scenario; returns the median bottleneck queueing delay after 5 s, in ms.
    fn median_delay_ms(sc: &Scenario) -> f64 {
        let mut sim = Simulation::new(sc).unwrap();
        let s = sim.finish();
        let c = s.packets;
        assert_eq!(c.sent, c.delivered + c.dropped + c.in_flight);
        let d = sim.recorder().window.all_delays();
        assert!(d.count() > 10_000, "{} delay samples", d.count());
        d.quantile(0.5).unwrap() * 1e3
    }

    #[test]
    fn codel_holds_the_median_queueing_delay_near_target_where_fifo_bloats() {
        let codel = median_delay_ms(&bulk_newreno(QueueDiscSpec::Codel(CodelConfig::default())));
        let fifo = median_delay_ms(&bulk_newreno(QueueDiscSpec::fifo(QueueLimit::Packets(1000))));
        eprintln!("median queueing delay: codel {codel:.2} ms, fifo {fifo:.2} ms");
        assert!((2.0..=15.0).contains(&codel), "codel median {codel} ms");
        assert!(fifo > 10.0 * codel, "fifo median {fifo} ms vs codel {codel} ms");
    }

    #[test]
    fn fq_codel_and_fq_runs_conserve_packets_and_share_fairly() {
        for q in [QueueDiscSpec::FqCodel(FqCodelConfig::default()), QueueDiscSpec::Fq(FqConfig::default())] {
            let name = q.name();
            let mut sim = Simulation::new(&bulk_newreno(q)).unwrap();
            let s = sim.finish();
            let c = s.packets;
            assert_eq!(c.sent, c.delivered + c.dropped + c.in_flight, "{name}");
            eprintln!("{name}: jfi {:.4}, utilisation {:.3}", s.jfi, s.throughput.utilisation);
            assert!(s.jfi > 0.98, "{name}: Jain's index {}", s.jfi);
            assert!(s.throughput.utilisation > 0.85, "{name}: utilisation {}", s.throughput.utilisation);
        }
    }
}

/// Issue 7's contract for the registries: every queue disc, congestion control and
/// control-plane app, with its default configuration, validates and runs a 1 s scenario
/// that delivers data and conserves packets. A new algorithm is covered by its registry line.
mod every_registered_algorithm {
    use super::*;
    use crate::aqm::QueueDiscSpec;
    use crate::cc::CcaSpec;
    use crate::switch::{ControlPlaneSpec, SwitchConfig};

    fn one_second(sc: &mut Scenario) -> Summary {
        sc.duration_s = 1.0;
        sc.warmup_s = 0.0;
        assert_eq!(sc.validate(), Ok(()), "{}", sc.name);
        let mut sim = Simulation::new(sc).unwrap();
        let s = sim.finish();
        let p = s.packets;
        assert_eq!(p.sent, p.delivered + p.dropped + p.in_flight, "{}: conservation", sc.name);
        // A ping delivers no data: its answers are what it brings back.
        let delivered =
            |f: &crate::metrics::FlowSummary| f.delivered_bytes > 0 || (f.probe && !s.pings.is_empty());
        assert!(s.flows.iter().all(delivered), "{}: a flow delivered nothing", sc.name);
        s
    }

    #[test]
    fn every_disc_runs_a_second() {
        for a in QueueDiscSpec::FAMILY.members {
            let mut sc = Scenario { name: a.tag.into(), ..Scenario::default() };
            sc.bottleneck_mut().queue = QueueDiscSpec::default_for(a.tag).unwrap();
            one_second(&mut sc);
        }
    }

    #[test]
    fn every_congestion_control_runs_a_second() {
        for a in CcaSpec::FAMILY.members {
            let mut sc = Scenario { name: a.tag.into(), ..Scenario::default() };
            for g in &mut sc.flows {
                g.cca = CcaSpec::default_for(a.tag).unwrap();
            }
            one_second(&mut sc);
        }
    }

    #[test]
    fn every_control_plane_app_runs_a_second() {
        for a in ControlPlaneSpec::FAMILY.members {
            let mut sc = Scenario { name: a.tag.into(), ..Scenario::default() };
            let switch = SwitchConfig {
                control: ControlPlaneSpec::default_for(a.tag).unwrap(),
                control_period_ms: 100.0,
                ..SwitchConfig::default()
            };
            sc.bottleneck_mut().queue = QueueDiscSpec::Switch(switch);
            one_second(&mut sc);
        }
    }
}

/// The bottleneck's ends of transmission are settled lazily (`forward.rs`): runs with an
/// event for each, as before, record the same samples, drops, delays and summary, polled
/// mid-run too; only the event count differs. FIFO, RED, FQ-CoDel and PIE, one queue and
/// split. (The closed-form FIFO this replaced at the bottleneck gave these same outputs.)
#[test]
fn lazy_ends_of_transmission_run_like_an_event_for_each() {
    let mut runs = Vec::new();
    for variant in ["red", "ared"] {
        runs.push(preset("red-study", Some(variant)).unwrap());
    }
    for variant in ["fifo", "fq-codel"] {
        let mut rtt = preset("rtt-unfair", Some(variant)).unwrap();
        rtt.duration_s = 6.0;
        runs.push(rtt);
    }
    let mut pie = preset("rtt-unfair", Some("fq-codel")).unwrap();
    pie.bottleneck_mut().queue = crate::aqm::QueueDiscSpec::default_for("pie").unwrap();
    pie.duration_s = 6.0;
    runs.push(pie);
    let mut big = split::big(crate::aqm::QueueDiscSpec::default_for("fq_codel").unwrap());
    big.bottleneck_mut().nic_queue_packets = 3;
    runs.push(big);
    for sc in runs {
        let mut lazy = Simulation::new(&sc).unwrap();
        let mut eager = Simulation::new(&sc).unwrap();
        eager.tx_events = true;
        let end = sc.duration_s;
        for t in [end * 0.31, end * 0.77, end] {
            let at = SimTime::from_secs_f64(t);
            lazy.step_until(at);
            eager.step_until(at);
            assert_eq!(
                lazy.bottleneck_occupancy(),
                eager.bottleneck_occupancy(),
                "{}: queue at {t} s",
                sc.name
            );
            assert_eq!(lazy.link_tx_bytes(BOTTLENECK), eager.link_tx_bytes(BOTTLENECK), "{}: bytes", sc.name);
            let (a, b) = (lazy.poll(), eager.poll());
            assert!(!a.samples.is_empty() && a.samples == b.samples, "{}: samples by {t} s", sc.name);
            assert_eq!(a.drops, b.drops, "{}: drops by {t} s", sc.name);
        }
        let (mut a, b) = (lazy.summary(), eager.summary());
        assert!(a.events < b.events * 4 / 5, "{}: {} events against {}", sc.name, a.events, b.events);
        assert!(a.drops.total_all > 0, "{}: the run drops", sc.name);
        a.events = b.events;
        assert_eq!(a, b, "{}", sc.name);
    }
}

/// The sender side run apart (`lane.rs`): scenarios with thousands of flows.
mod split {
    use super::*;
    use crate::aqm::{FqCodelConfig, QueueDiscSpec, QueueLimit};
    use crate::cc::CcaSpec;
    use crate::metrics::DropRecord;
    use crate::scenario::{FlowGroup, Link};

    /// 2000 CUBIC flows in two groups (1 and 3 ms access delays) through a 1 Gbit/s, 2 ms
    /// bottleneck for 0.4 s: enough to fill and overflow the queue.
    pub(super) fn big(queue: QueueDiscSpec) -> Scenario {
        let group = |access_delay_ms| FlowGroup {
            count: lane::SPLIT_MIN_FLOWS as u32 / 2,
            cca: CcaSpec::default_for("cubic").unwrap(),
            access_rate_bps: 10_000_000_000,
            access_delay_ms,
            ..FlowGroup::default()
        };
        Scenario {
            duration_s: 0.4,
            warmup_s: 0.1,
            sample_interval_s: 0.05,
            links: Scenario::one_link(Link::new(1_000_000_000, 2.0, queue)),
            flows: vec![group(1.0), group(3.0)],
            ..Scenario::default()
        }
    }

    fn queues() -> [QueueDiscSpec; 2] {
        [QueueDiscSpec::fifo(QueueLimit::Packets(500)), QueueDiscSpec::FqCodel(FqCodelConfig::default())]
    }

    /// Everything a run records: samples, drops, summary.
    fn outputs(sim: &mut Simulation) -> (Vec<Sample>, Vec<DropRecord>, Summary) {
        let s = sim.summary();
        let r = sim.recorder();
        (r.samples.kept.clone(), r.drops.kept.clone(), s)
    }

    #[test]
    fn a_split_run_is_the_same_on_two_threads_on_one_and_in_ui_slices() {
        for queue in queues() {
            let sc = big(queue);
            let mut two = Simulation::new(&sc).unwrap();
            assert!(two.is_split(), "{} flows with a 1 ms lookahead run split", sc.total_flows());
            two.finish();
            let expect = outputs(&mut two);
            let c = expect.2.packets;
            assert_eq!(c.sent, c.delivered + c.dropped + c.in_flight, "packets are conserved");
            assert!(c.dropped > 0 && expect.0.len() == 8, "{c:?}, {} samples", expect.0.len());

            let mut one = Simulation::new(&sc).unwrap();
            one.set_parallel(false);
            one.finish();
            assert!(outputs(&mut one) == expect, "one thread");

            // A UI frame: a budget of events, polled in between.
            let mut sliced = Simulation::new(&sc).unwrap();
            sliced.set_parallel(false);
            while !sliced.is_finished() {
                sliced.run_events(777);
                sliced.poll();
            }
            assert!(outputs(&mut sliced) == expect, "in slices of 777 events");

            // Stops at times inside windows, with budgets.
            let mut stepped = Simulation::new(&sc).unwrap();
            let mut t = 0;
            while !stepped.is_finished() {
                t += 3_217_000;
                stepped.advance(SimTime(t), 20_000);
            }
            assert!(outputs(&mut stepped) == expect, "stepped by 3.217 ms");
        }
    }

    /// The windows change only the order of events at the same nanosecond and when samples
    /// are taken among them: the figures stay those of the run in one queue.
    #[test]
    fn a_split_run_records_what_the_one_queue_run_does() {
        for queue in queues() {
            let sc = big(queue);
            let mut split = Simulation::new(&sc).unwrap();
            let mut single = build::build(&sc, &SpecFactory, false).unwrap();
            assert!(split.is_split() && !single.is_split());
            split.finish();
            single.finish();
            let (a, b) = (outputs(&mut split), outputs(&mut single));
            assert_eq!(a.0, b.0, "samples");
            assert_eq!(a.1, b.1, "drops");
            // Fewer events: the split run samples and opens the measured window between windows.
            assert_eq!(a.2.events + a.0.len() as u64 + 1, b.2.events);
            let mut s = a.2;
            s.events = b.2.events;
            assert_eq!(s, b.2);
        }
    }
}

mod timed_changes {
    use super::*;
    use crate::aqm::{QueueDiscSpec, QueueLimit};
    use crate::scenario::{FlowGroup, Link, Scenario, TimedChange};
    use serde_json::{json, Value};

    /// Four CUBIC flows through a 1000-packet FIFO at 10 Mbit/s: bufferbloat.
    fn bloated() -> Scenario {
        Scenario {
            duration_s: 20.0,
            warmup_s: 0.0,
            links: Scenario::one_link(Link::new(
                10_000_000,
                5.0,
                QueueDiscSpec::fifo(QueueLimit::Packets(1000)),
            )),
            flows: vec![
                FlowGroup { count: 2, ..FlowGroup::default() },
                FlowGroup { count: 2, access_delay_ms: 10.0, ..FlowGroup::default() },
            ],
            ..Scenario::default()
        }
    }

    /// Runs `sc` to `at_s`, sets `set` to `to` there, runs to the end; then replays the
    /// scenario the run recorded. Both must record the same.
    fn live_equals_replay(sc: &Scenario, at_s: f64, set: &str, to: Value) -> Simulation {
        let mut live = Simulation::new(sc).unwrap();
        // A slice that ends mid-instant, as the page's budgeted slices do.
        live.step_until(SimTime::from_secs_f64(at_s));
        live.run_events(7);
        let c = live.change_now(set, to).unwrap_or_else(|e| panic!("{set}: {e}"));
        assert!(c.at_s > at_s && c.at_s < at_s + 0.1, "{c:?}");
        let a = live.finish();
        let mut replay = Simulation::new(live.scenario()).unwrap();
        let b = replay.finish();
        assert_eq!(a, b, "{set}: the replay's summary differs");
        assert_eq!(live.recorder().samples.kept, replay.recorder().samples.kept, "{set}");
        assert_eq!(live.recorder().drops.kept, replay.recorder().drops.kept, "{set}");
        assert_eq!(live.recorder().log.kept, replay.recorder().log.kept, "{set}");
        live
    }

    #[test]
    fn a_change_made_during_a_run_replays_exactly_from_the_scenario() {
        let sc = bloated();
        live_equals_replay(&sc, 6.0, "bottleneck.queue.limit", json!({"packets": 50}));
        live_equals_replay(&sc, 6.0, "bottleneck.rate_bps", json!(2_000_000));
        live_equals_replay(&sc, 6.0, "bottleneck.delay_ms", json!(40.0));
        live_equals_replay(&sc, 6.0, "bottleneck.nic_queue_packets", json!(100));
        live_equals_replay(&sc, 6.0, "flows[1].access_rate_bps", json!(3_000_000));
        live_equals_replay(&sc, 6.0, "flows[1].stop_s", json!(8.0));
        let mut red = preset("red-study", Some("red")).unwrap();
        red.duration_s = 20.0;
        live_equals_replay(&red, 12.0, "bottleneck.queue.max_th", json!(30.0));
        live_equals_replay(&red, 12.0, "bottleneck.queue.limit", json!({"packets": 20}));
        for disc in ["codel", "fq_codel", "pie"] {
            let mut sc = bloated();
            sc.bottleneck_mut().queue = QueueDiscSpec::default_for(disc).unwrap();
            live_equals_replay(&sc, 6.0, "bottleneck.queue.target_ms", json!(20.0));
            live_equals_replay(&sc, 6.0, "bottleneck.queue.limit", json!({"packets": 30}));
        }
    }

    /// The lecture's demonstration: a bloated FIFO cut from 1000 to 50 packets at 10 s
    /// sheds its backlog, and the delay falls by more than ten times.
    #[test]
    fn cutting_a_bloated_buffer_makes_the_delay_fall() {
        let mut sc = bloated();
        sc.changes = vec![TimedChange {
            at_s: 10.0,
            set: "bottleneck.queue.limit".into(),
            to: json!({"packets": 50}),
        }];
        let mut sim = Simulation::new(&sc).unwrap();
        sim.finish();
        let mean_delay = |from: f64, to: f64| {
            let d: Vec<f64> = (sim.recorder().samples.kept.iter())
                .filter(|s| s.t_s > from && s.t_s <= to)
                .flat_map(|s| s.flow_delay_ms.iter().flatten().map(|&d| f64::from(d)))
                .collect();
            d.iter().sum::<f64>() / d.len() as f64
        };
        let (before, after) = (mean_delay(5.0, 10.0), mean_delay(12.0, 20.0));
        assert!(before > 10.0 * after, "delay {before:.1} ms before the cut, {after:.1} ms after");
        let overflow_at_cut =
            sim.recorder().drops.kept.iter().filter(|d| (d.t_s - 10.0).abs() < 1e-6).count();
        assert!(overflow_at_cut > 500, "the cut sheds the backlog from the head: {overflow_at_cut} drops");
        assert!(sim.recorder().log.kept.iter().any(|r| r.source == "change"), "the change is logged");
    }

    /// A group stopped by a change sends nothing after its stop, and a later change that
    /// moves the stop away lets it send again.
    #[test]
    fn a_group_stops_and_resumes_when_its_stop_moves() {
        let mut sc = bloated();
        let stop = |at_s: f64, to: Value| TimedChange { at_s, set: "flows[1].stop_s".into(), to };
        sc.changes = vec![stop(5.0, json!(5.0)), stop(12.0, json!(null))];
        let mut sim = Simulation::new(&sc).unwrap();
        sim.finish();
        let rate = |from: f64, to: f64| -> f64 {
            (sim.recorder().samples.kept.iter())
                .filter(|s| s.t_s > from && s.t_s <= to)
                .map(|s| s.flow_goodput_bps[2] + s.flow_goodput_bps[3])
                .sum()
        };
        assert!(rate(2.0, 5.0) > 0.0);
        assert_eq!(rate(7.0, 12.0), 0.0, "stopped from 5 s (after what was in flight)");
        assert!(rate(14.0, 20.0) > 1e6, "resumed at 12 s");
    }

    #[test]
    fn a_run_with_changes_refuses_what_cannot_change_and_keeps_running() {
        let mut sim = Simulation::new(&bloated()).unwrap();
        sim.step_until(SimTime::from_secs_f64(3.0));
        let e = sim.change_now("flows[0].count", json!(5)).unwrap_err();
        assert!(e.contains("next run"), "{e}");
        let e = sim.change_now("bottleneck.queue.limit", json!({"packets": 0})).unwrap_err();
        assert!(e.contains("limit"), "{e}");
        assert!(sim.scenario().changes.is_empty(), "nothing was recorded");
        let s = sim.finish();
        assert!(s.throughput.mean_bps > 9e6);
    }
}
