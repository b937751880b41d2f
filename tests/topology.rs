//! Networks beyond the dumbbell: extra disc links by name and a route per flow group
//! (issue 23's first steps). A parking lot conserves packets, keeps every link busy and
//! makes the long flow pay on every hop; a route is checked to be a path of links that
//! exist; the dumbbell written with an explicit route runs exactly as without one.

use aqm_tests::run;
use sim_core::aqm::{QueueDiscSpec, QueueLimit};
use sim_core::metrics::summary_digest;
use sim_core::scenario::{preset, FlowGroup, Link, Scenario};

const MBPS: u64 = 1_000_000;

fn hop(delay_ms: f64) -> Link {
    Link::new(10 * MBPS, delay_ms, QueueDiscSpec::fifo(QueueLimit::Packets(100)))
}

/// Three 10 Mbit/s links in series (5 ms each); one flow over all three, one per link.
fn parking_lot() -> Scenario {
    let mut sc = Scenario {
        duration_s: 20.0,
        warmup_s: 5.0,
        links: Scenario::one_link(hop(5.0)),
        ..Scenario::default()
    };
    sc.links.insert("hop2".into(), hop(5.0));
    sc.links.insert("hop3".into(), hop(5.0));
    let group = |route: &[&str]| FlowGroup {
        access_delay_ms: 2.0,
        route: route.iter().map(|s| s.to_string()).collect(),
        ..FlowGroup::default()
    };
    sc.flows = vec![
        group(&["bottleneck", "hop2", "hop3"]),
        group(&["bottleneck"]),
        group(&["hop2"]),
        group(&["hop3"]),
    ];
    sc
}

#[test]
fn a_parking_lot_keeps_every_link_busy_and_the_long_flow_pays_on_every_hop() {
    let sc = parking_lot();
    assert!((sc.base_rtt_ms(&sc.flows[0]) - 34.0).abs() < 1e-9, "2 · (2 + 3 · 5) ms");
    let (sim, s) = run(&sc);
    for link in 0..3 {
        let bps = sim.link_tx_bytes(link) as f64 * 8.0 / sc.duration_s;
        assert!(bps > 0.9 * 10e6, "link {link} carried {bps} bit/s");
    }
    let goodput: Vec<f64> = s.flows.iter().map(|f| f.throughput_bps).collect();
    // The bottleneck's utilisation counts the flows that cross it (the long one and its own).
    let through = (goodput[0] + goodput[1]) / 10e6;
    assert!(
        (s.throughput.utilisation - through).abs() < 1e-9 && s.throughput.utilisation <= 1.0,
        "{}",
        s.throughput.utilisation
    );
    for one_hop in &goodput[1..] {
        assert!(goodput[0] < 0.8 * one_hop, "the long flow gets less than each one-hop flow: {goodput:?}");
    }
    // Each link's own window: busy, queued, dropping; the bottleneck's as the summary says.
    let names: Vec<&str> = s.links.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["bottleneck", "hop2", "hop3"]);
    for l in &s.links {
        assert!(l.utilisation > 0.95 && l.utilisation <= 1.0 + 1e-9, "{l:?}");
        assert!(l.queue_mean_packets.is_some_and(|q| q > 10.0) && l.drops > 0, "{l:?}");
    }
    assert_eq!(s.links[0].drops, s.drops.total, "the bottleneck's window drops");
    // The references: max-min gives every flow half a link; proportional fairness charges
    // the long flow for each of its three links (x0 = c/4, the others 3c/4), and TCP lands
    // nearer that than max-min.
    let c = 10e6 * f64::from(sc.tcp.mss_bytes) / f64::from(sc.full_packet_bytes());
    let (mm, pf): (Vec<f64>, Vec<f64>) =
        s.flows.iter().map(|f| (f.max_min_bps.unwrap(), f.proportional_bps.unwrap())).unzip();
    assert!(mm.iter().all(|m| (m - c / 2.0).abs() < 1.0), "{mm:?}");
    assert!((pf[0] - c / 4.0).abs() < 1e3 && pf[1..].iter().all(|p| (p - 0.75 * c).abs() < 1e3), "{pf:?}");
    assert!((goodput[0] - pf[0]).abs() < (goodput[0] - mm[0]).abs(), "{goodput:?}");
    // Its smoothed RTT includes all three links both ways.
    let srtt = sim.sender(0).srtt().expect("an RTT sample").as_secs_f64() * 1e3;
    assert!(srtt >= 34.0, "srtt {srtt} ms");
    // Each FIFO overflows, and its drops carry its link id (0, 1, 2).
    let links: std::collections::BTreeSet<u32> = sim.recorder().drops.kept.iter().map(|d| d.link).collect();
    assert!([0, 1, 2].iter().all(|l| links.contains(l)), "drops by link {links:?}");
}

#[test]
fn every_link_is_measured_per_sample_and_each_flow_s_delay_is_split_by_hop() {
    let sc = parking_lot();
    let (sim, s) = run(&sc);
    let rec = sim.recorder();
    let col = |name: &str| rec.series_info.iter().position(|i| i.name == name).expect(name);
    let kept = &rec.samples.kept;
    let dt = sc.sample_interval_s;
    for (link, l) in s.links.iter().enumerate() {
        // The window's drops by reason add up, and are the drop records of this link.
        assert_eq!(l.early + l.forced + l.overflow, l.drops, "{l:?}");
        let records = (rec.drops.kept.iter())
            .filter(|d| d.link == link as u32 && d.t_s > sc.warmup_s && d.t_s <= sc.duration_s)
            .count() as u64;
        assert_eq!(records, l.drops, "{}", l.name);
        // Per sample: the queue and utilisation series agree with the window's figures.
        let (q, u, d) = (
            col(&format!("link.{}.queue", l.name)),
            col(&format!("link.{}.utilisation", l.name)),
            col(&format!("link.{}.drops", l.name)),
        );
        // The window's queue counts the sample at its opening; its intervals start there.
        let sampled: Vec<_> = kept.iter().filter(|x| x.t_s > sc.warmup_s - 1e-9).collect();
        let mean_q = sampled.iter().map(|x| x.series[q]).sum::<f64>() / sampled.len() as f64;
        let in_window: Vec<_> = kept.iter().filter(|x| x.t_s > sc.warmup_s + 1e-9).collect();
        assert!((mean_q - l.queue_mean_packets.unwrap()).abs() < 1e-9, "{} {mean_q}", l.name);
        assert!(kept.iter().all(|x| (0.0..=100.0).contains(&x.series[u])), "utilisation in 0-100 %");
        let mean_u = in_window.iter().map(|x| x.series[u]).sum::<f64>() / in_window.len() as f64 / 100.0;
        assert!((mean_u - l.utilisation).abs() < 0.01, "{} {mean_u} against {}", l.name, l.utilisation);
        let drops: f64 = in_window.iter().map(|x| x.series[d] * dt).sum();
        assert!((drops - l.drops as f64).abs() < 0.5, "{} {drops} against {}", l.name, l.drops);
        // A full FIFO's wait is about its queue over its rate.
        let wait_ms =
            l.queue_mean_packets.unwrap() * f64::from(sc.full_packet_bytes()) * 8.0 / l.rate_bps * 1e3;
        let delay = l.delay_mean_ms.unwrap();
        assert!((delay - wait_ms).abs() < 0.15 * wait_ms, "{}: {delay} ms against {wait_ms}", l.name);
    }
    // The long flow waits at each of its three links, in route order; a one-hop flow at its own.
    let hops = |f: usize| s.flows[f].hop_delays.iter().map(|h| h.link.as_str()).collect::<Vec<_>>();
    assert_eq!(hops(0), ["bottleneck", "hop2", "hop3"]);
    assert_eq!((hops(1), hops(2), hops(3)), (vec!["bottleneck"], vec!["hop2"], vec!["hop3"]));
    for (h, l) in s.flows[0].hop_delays.iter().zip(&s.links) {
        let (mine, all) = (h.mean_ms.unwrap(), l.delay_mean_ms.unwrap());
        assert!((mine - all).abs() < 0.2 * all, "{}: {mine} against the link's {all}", l.name);
    }
}

#[test]
fn a_fast_second_hop_only_adds_its_delay() {
    let one = preset("red-study", Some("red-nonic")).unwrap();
    let mut two = one.clone();
    two.links.insert("core".into(), Link { rate_bps: 1000 * MBPS, delay_ms: 5.0, ..hop(5.0) });
    for g in &mut two.flows {
        g.route = vec!["bottleneck".into(), "core".into()];
    }
    assert!((two.base_rtt_ms(&two.flows[0]) - one.base_rtt_ms(&one.flows[0]) - 10.0).abs() < 1e-9);
    let (_, a) = run(&one);
    let (sim, b) = run(&two);
    let rel = (b.throughput.mean_bps - a.throughput.mean_bps).abs() / a.throughput.mean_bps;
    assert!(rel < 0.02, "goodput {} against {}", b.throughput.mean_bps, a.throughput.mean_bps);
    assert!(sim.recorder().drops.kept.iter().all(|d| d.link != 1), "the fast hop never drops");
}

#[test]
fn the_dumbbell_with_its_route_spelled_out_runs_exactly_as_without() {
    let plain = preset("rtt-unfair", Some("fq-codel")).unwrap();
    let mut spelled = plain.clone();
    for g in &mut spelled.flows {
        g.route = vec!["bottleneck".into()];
    }
    let (a, b) = (run(&plain).1, run(&spelled).1);
    assert!(a.links.is_empty(), "a dumbbell's summary has no per-link part");
    assert_eq!(summary_digest(&a), summary_digest(&b));
}

#[test]
fn a_route_must_be_a_path_of_links_that_exist() {
    let mut sc = parking_lot();
    sc.flows[0].route = vec!["bottleneck".into(), "hop9".into(), "bottleneck".into()];
    sc.links.insert("bad name".into(), hop(1.0));
    let errs = sc.validate().unwrap_err();
    let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
    assert!(fields.contains(&"flows[0].route[1]"), "{errs:?}");
    assert!(fields.contains(&"flows[0].route[2]"), "{errs:?}");
    let unknown = errs.iter().find(|e| e.field == "flows[0].route[1]").unwrap();
    assert!(unknown.value.contains("hop9") && unknown.allowed.contains("hop2"), "{unknown:?}");
    assert_eq!(errs.iter().filter(|e| e.field == "links").count(), 1, "{errs:?}");
}

#[test]
fn a_scenario_with_links_round_trips_and_a_dumbbell_writes_its_one_link() {
    let sc = parking_lot();
    let back = Scenario::from_json(&sc.to_json()).unwrap();
    assert_eq!(back, sc);
    let dumbbell: serde_json::Value =
        serde_json::from_str(&preset("red-study", None).unwrap().to_json()).unwrap();
    assert_eq!(dumbbell["version"], 2);
    assert_eq!(dumbbell["bottleneck"], "bottleneck");
    assert_eq!(dumbbell["links"].as_object().unwrap().len(), 1);
    assert!(dumbbell["flows"][0].get("route").is_none(), "an empty route is not written");
}

#[test]
fn two_bottlenecks_queue_at_the_slower_link_whose_disc_alone_decides_the_delay() {
    let delays = |v: &str| {
        let (_, s) = run(&preset("two-bottlenecks", Some(v)).unwrap());
        let d = |name: &str| s.links.iter().find(|l| l.name == name).and_then(|l| l.delay_mean_ms).unwrap();
        (d("home"), d("modem"))
    };
    // The router shaped below the modem holds the queue; at its LAN rate, the modem does.
    let (home, modem) = delays("fq-codel-shaped");
    assert!(home > 2.0 && home < 20.0 && modem < 0.5, "FQ-CoDel at home: {home} / {modem} ms");
    let (home, modem) = delays("fq-codel-unshaped");
    assert!(home < 0.5 && modem > 150.0, "the modem's FIFO: {home} / {modem} ms");
    let (home, modem) = delays("isp-fq-codel");
    assert!(home < 0.5 && modem > 2.0 && modem < 20.0, "FQ-CoDel at the ISP: {home} / {modem} ms");
    let (home, modem) = delays("isp-fq-codel-shaped");
    assert!(home > 150.0 && modem < 0.5, "the slower FIFO router: {home} / {modem} ms");
}

#[test]
fn any_link_can_be_the_studied_one_under_any_name_but_not_one_no_link_has() {
    let mut sc = parking_lot();
    sc.rename_link("bottleneck", "first");
    assert_eq!(sc.flows[0].route[0], "first", "renamed in the routes too");
    assert_eq!(sc.validate(), Ok(()));
    let (_, s) = run(&sc);
    assert_eq!(s.links[0].name, "first");
    let json = serde_json::to_string(&sc).unwrap();
    assert!(json.contains("\"bottleneck\":\"first\"") && json.contains("\"first\":{"), "{json}");
    // Another link studied: it is link 0, the headline figures' link.
    sc.bottleneck = "hop2".into();
    assert_eq!(sc.validate(), Ok(()));
    assert_eq!(sc.link_names().collect::<Vec<_>>(), ["hop2", "first", "hop3"]);
    let (_, s) = run(&sc);
    assert_eq!(s.links[0].name, "hop2");
    sc.bottleneck = "nowhere".into();
    let e = sc.validate().unwrap_err();
    assert!(e.iter().any(|e| e.field == "bottleneck" && e.allowed.contains("first, hop2, hop3")), "{e:?}");
}

#[test]
fn a_big_parking_lot_runs_split_and_records_the_same_on_two_threads_as_on_one() {
    // 2000 flows, 500 per route: big enough for the senders to run on a thread of their own.
    let mut sc = preset("parking-lot", Some("red")).unwrap();
    (sc.duration_s, sc.warmup_s) = (0.6, 0.2);
    for g in &mut sc.flows {
        g.count = 500;
    }
    let mut two = sim_core::sim::Simulation::new(&sc).unwrap();
    assert!(two.is_split(), "2000 flows with 2 ms access links run split");
    let mut one = sim_core::sim::Simulation::new(&sc).unwrap();
    one.set_parallel(false);
    let (a, b) = (two.finish(), one.finish());
    assert!(a == b, "the same summary on two threads as on one");
    assert!(two.recorder().samples.kept == one.recorder().samples.kept);
    assert!(two.recorder().drops.kept == one.recorder().drops.kept);
    for link in 0..3 {
        let (c, queued) = two.link_counts(link).unwrap();
        assert_eq!(c.arrived, c.started + c.dropped + queued, "link {link}: {c:?}");
        assert!(c.started > 0, "link {link} carried packets");
    }
}

#[test]
fn acks_on_a_slow_uplink_behind_an_upload_slow_the_download_and_fq_codel_there_restores_it() {
    let run_of = |v: &str| {
        let sc = preset("ack-congestion", Some(v)).unwrap();
        let (sim, s) = run(&sc);
        // Every packet that reached the uplink left it, was dropped or waits: ACKs included.
        for link in 0..2 {
            let (c, queued) = sim.link_counts(link).unwrap();
            assert_eq!(c.arrived, c.started + c.dropped + queued, "{v} link {link}: {c:?}");
        }
        let (up, _) = sim.link_counts(1).unwrap();
        (s.flows[0].throughput_bps / 1e6, up.started, s)
    };
    let (alone, up_packets, s) = run_of("download");
    assert!(up_packets > 1000, "the download's ACKs cross the uplink's disc: {up_packets}");
    let base = preset("ack-congestion", Some("download")).unwrap();
    assert!(
        (base.base_rtt_ms(&base.flows[0]) - 24.0).abs() < 1e-9,
        "2 · 2 ms access + 10 ms down + 10 ms up"
    );
    assert!(s.flows[0].srtt_ms_mean.unwrap() >= 24.0);
    let (behind_upload, _, _) = run_of("with-upload");
    let (fq, _, _) = run_of("with-upload-fq-codel");
    assert!(behind_upload < 0.3 * alone, "ACK congestion: {behind_upload} against {alone} Mbit/s alone");
    assert!(fq > 0.9 * alone, "its own queue for the ACKs: {fq} against {alone}");
}

#[test]
fn an_ack_route_is_a_path_of_links_that_exist_and_no_switch_port() {
    let mut sc = preset("ack-congestion", Some("download")).unwrap();
    sc.flows[0].ack_route = vec!["up".into(), "nowhere".into(), "up".into()];
    let e = sc.validate().unwrap_err();
    let fields: Vec<&str> = e.iter().map(|e| e.field.as_str()).collect();
    assert!(fields.contains(&"flows[0].ack_route[1]") && fields.contains(&"flows[0].ack_route[2]"), "{e:?}");
    let mut sw = preset("warbler-upstream", Some("warbler")).unwrap();
    sw.flows[0].ack_route = vec!["port".into()];
    let e = sw.validate().unwrap_err();
    assert!(
        e.iter().any(|e| e.field == "flows[0].ack_route[0]" && e.allowed.contains("switch port")),
        "{e:?}"
    );
    // Written only when used, and read back.
    let json = serde_json::to_string(&preset("parking-lot", Some("fifo")).unwrap()).unwrap();
    assert!(!json.contains("ack_route"));
    let sc = preset("ack-congestion", Some("with-upload")).unwrap();
    let back: Scenario = serde_json::from_str(&serde_json::to_string(&sc).unwrap()).unwrap();
    assert_eq!(back, sc);
}

#[test]
fn a_timed_change_reaches_the_link_it_names() {
    // The unshaped home router's modem bloats; cutting the modem's buffer at 15 s cuts its
    // delay, and shaping the router below the modem at 15 s moves the queue home.
    let base = preset("two-bottlenecks", Some("fq-codel-unshaped")).unwrap();
    let with = |set: &str, to: serde_json::Value| {
        let mut sc = base.clone();
        sc.changes = vec![sim_core::scenario::TimedChange { at_s: 15.0, set: set.into(), to }];
        assert_eq!(sc.validate(), Ok(()), "{set}");
        let (sim, s) = run(&sc);
        let rec = sim.recorder();
        let col = |n: &str| rec.series_info.iter().position(|i| i.name == n).unwrap();
        let mean = |n: &str, from: f64, to: f64| {
            let v: Vec<f64> = (rec.samples.kept.iter())
                .filter(|x| x.t_s > from && x.t_s <= to)
                .map(|x| x.series[col(n)])
                .collect();
            v.iter().sum::<f64>() / v.len() as f64
        };
        (
            s,
            [
                mean("link.modem.delay", 10.0, 15.0),
                mean("link.modem.delay", 20.0, 30.0),
                mean("link.home.delay", 20.0, 30.0),
            ],
        )
    };
    let (_, [before, after, home]) = with("links.modem.queue.limit", serde_json::json!({ "packets": 30 }));
    assert!(before > 150.0 && after < 0.3 * before && home < 1.0, "modem {before} → {after} ms, home {home}");
    let (_, [before, after, home]) = with("bottleneck.rate_bps", serde_json::json!(9_000_000));
    assert!(
        before > 150.0 && after < 20.0 && home > 2.0 && home < 20.0,
        "modem {before} → {after} ms, home {home}"
    );
    // A change a link's disc cannot take is refused by field, as the bottleneck's.
    let mut sc = base.clone();
    sc.changes = vec![sim_core::scenario::TimedChange {
        at_s: 1.0,
        set: "links.modem.queue.type".into(),
        to: "codel".into(),
    }];
    let e = sc.validate().unwrap_err();
    assert!(e.iter().any(|e| e.field == "changes[0].set"), "{e:?}");
    sc.changes[0].set = "links.nowhere.rate_bps".into();
    assert!(sc.validate().is_err());
}

#[test]
fn a_link_not_monitored_keeps_its_window_figures_but_records_no_series() {
    let mut sc = parking_lot();
    sc.duration_s = 8.0;
    sc.links.get_mut("hop3").unwrap().monitored = false;
    let (sim, s) = run(&sc);
    let names: Vec<&str> = sim.recorder().series_info.iter().map(|i| i.name.as_str()).collect();
    assert!(names.contains(&"link.hop2.queue") && names.contains(&"link.bottleneck.queue"), "{names:?}");
    assert!(!names.iter().any(|n| n.starts_with("link.hop3.")), "{names:?}");
    let sample = sim.recorder().samples.kept.last().unwrap();
    assert_eq!(sample.series.len(), names.len(), "one value per declared series");
    assert!(s.links.iter().any(|l| l.name == "hop3" && l.delay_mean_ms.is_some()), "still in the summary");
    // The studied link is charted whatever it says.
    sc.bottleneck_mut().monitored = false;
    let (sim, _) = run(&sc);
    assert!(sim.recorder().series_info.iter().any(|i| i.name == "link.bottleneck.queue"));
}
