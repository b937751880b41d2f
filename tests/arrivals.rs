//! Flows that arrive during the run (issue 24): Poisson arrivals at a load with sizes from
//! a measured CDF, repeated transfers (a page fetch, incast), pings; connections recycled,
//! so what a run holds follows the connections open at once.

use aqm_tests::run;
use sim_core::aqm::{QueueDiscSpec, QueueLimit};
use sim_core::cc::{CcaSpec, PingConfig};
use sim_core::scenario::{FlowGroup, Link, Scenario};
use sim_core::sim::Simulation;
use sim_core::traffic::sizes::SizeSource;
use sim_core::traffic::{ArrivalSpec, EveryConfig, PoissonConfig};

fn path(flows: Vec<FlowGroup>, duration_s: f64) -> Scenario {
    Scenario {
        duration_s,
        warmup_s: 0.0,
        links: Scenario::one_link(Link::new(100_000_000, 5.0, QueueDiscSpec::fifo(QueueLimit::Packets(200)))),
        flows,
        ..Scenario::default()
    }
}

fn poisson(count: u32, load: f64, sizes: SizeSource) -> FlowGroup {
    FlowGroup {
        count,
        access_rate_bps: 1_000_000_000,
        arrivals: ArrivalSpec::Poisson(PoissonConfig { load, ..PoissonConfig::default() }),
        sizes,
        size_bytes: Some(20_000),
        ..FlowGroup::default()
    }
}

fn every(count: u32, period_s: f64, after_all: bool, bytes: u64) -> FlowGroup {
    FlowGroup {
        count,
        access_rate_bps: 1_000_000_000,
        arrivals: ArrivalSpec::Every(EveryConfig { period_s, transfers: None, after_all, keep_alive: false }),
        size_bytes: Some(bytes),
        ..FlowGroup::default()
    }
}

fn ping(interval_ms: f64) -> FlowGroup {
    FlowGroup { cca: CcaSpec::Ping(PingConfig { interval_ms, packet_bytes: 56 }), ..FlowGroup::default() }
}

#[test]
fn poisson_arrivals_come_at_the_rate_the_load_sets_and_all_complete_on_few_connections() {
    // 20 kB flows at 30 % of 100 Mbit/s: λ = 0.3·1e8 / (8·20 000) = 187.5 flows/s.
    let sc = path(vec![poisson(16, 0.3, SizeSource::Fixed)], 20.0);
    let (sim, s) = run(&sc);
    let (done, unfinished) = sim.completions();
    let expected = 187.5 * 20.0;
    let arrived = done.len() as f64 + f64::from(unfinished);
    // A Poisson count's standard deviation is √3750 ≈ 61: five of them.
    assert!((arrived - expected).abs() < 5.0 * expected.sqrt(), "{arrived} arrivals, {expected} expected");
    assert!(unfinished < 16, "{unfinished} unfinished at 30 % load");
    // 16 connections carried them all, each flow at least its ideal.
    assert!(done.iter().all(|c| c.flow < 16 && c.fct_s >= c.ideal_s), "every transfer takes its ideal");
    // Its receiver had the last byte an ACK's way back earlier: 6 ms over the uncongested
    // reverse path, its delayed-ACK wait aside (the FIN is acknowledged at once).
    for c in &done {
        let Some(r) = c.received_s else {
            panic!("flow {} start {} fct {}: the receiver saw no end", c.flow, c.start_s, c.fct_s)
        };
        let back = c.fct_s - r;
        assert!(
            (0.006..0.0061).contains(&back),
            "flow {} acknowledged {back} s after its receiver had it",
            c.flow
        );
    }
    let carried = s.throughput.mean_bps;
    assert!((carried / 30e6 - 1.0).abs() < 0.06, "goodput {carried} bit/s against 30 Mbit/s offered");
    assert_eq!(s.flows.len(), 16);
}

#[test]
fn arrivals_beyond_the_open_connections_wait_and_their_wait_counts() {
    // One connection, 40 % load: arrivals that find it busy wait, so some completion
    // times are well above their ideal even with the link mostly idle.
    let (sim, _) = run(&path(vec![poisson(1, 0.4, SizeSource::Fixed)], 20.0));
    let (done, _) = sim.completions();
    let waited = done.iter().filter(|c| c.fct_s > 2.0 * c.ideal_s).count();
    assert!(waited > done.len() / 20, "{waited} of {} waited", done.len());
    // One at a time: each starts after the one before it completed.
    for w in done.windows(2) {
        assert!(w[1].start_s + w[1].fct_s > w[0].start_s + w[0].fct_s);
    }
}

#[test]
fn web_search_sizes_span_mice_to_elephants_and_mice_finish_near_their_ideal_at_low_load() {
    let (sim, s) = run(&path(vec![poisson(64, 0.2, SizeSource::WebSearch)], 30.0));
    let (done, _) = sim.completions();
    let f = s.fct.expect("finite flows");
    assert!(f.by_size.len() >= 4, "bins {:?}", f.by_size.iter().map(|r| r.sizes()).collect::<Vec<_>>());
    let mice = &f.by_size[0];
    assert!(mice.slowdown_p50 < 1.6, "mice P50 slowdown {}", mice.slowdown_p50);
    assert!(done.iter().any(|c| c.bytes >= 5_000_000), "some elephants");
}

#[test]
fn a_page_fetch_every_two_seconds_beside_a_bulk_flow_takes_longer_in_a_deep_fifo() {
    let bulk = FlowGroup { access_rate_bps: 1_000_000_000, ..FlowGroup::default() };
    let fetch = |limit| {
        let mut sc = path(vec![bulk.clone(), every(1, 2.0, false, 100_000)], 30.0);
        sc.links.get_mut("bottleneck").unwrap().rate_bps = 10_000_000;
        sc.bottleneck_mut().queue = QueueDiscSpec::fifo(QueueLimit::Packets(limit));
        // Windows as Linux grows them (ns-3's 128 kB buffers would cap the queue near 90).
        (sc.tcp.send_buffer_bytes, sc.tcp.recv_buffer_bytes) = (4 << 20, 4 << 20);
        let (sim, _) = run(&sc);
        let done = sim.completions().0;
        // A fetch every 2 s for 30 s; in a bloated buffer one takes longer than that, and
        // the next waits for it.
        assert!((10..=15).contains(&done.len()), "{} fetches", done.len());
        let mut t: Vec<f64> = done.iter().skip(2).map(|c| c.fct_s).collect();
        t.sort_by(f64::total_cmp);
        t[t.len() / 2]
    };
    let (deep, shallow) = (fetch(1000), fetch(50));
    println!("median fetch {deep:.3} s in FIFO 1000, {shallow:.3} s in FIFO 50");
    assert!(deep > 2.0 * shallow, "median fetch {deep:.3} s in FIFO 1000 against {shallow:.3} s in FIFO 50");
}

#[test]
fn incast_rounds_wait_for_every_reply_and_each_round_starts_all_at_once() {
    let sc = path(vec![every(8, 0.05, true, 64_000)], 2.0);
    let (sim, _) = run(&sc);
    let done = sim.completions().0;
    assert!(done.len() >= 8 * 10, "{} replies", done.len());
    // Replies of a round are asked for together (the same instant, in nanoseconds); the
    // next round only after the slowest.
    let ns = |t: f64| (t * 1e9).round() as u64;
    let mut rounds: Vec<u64> = done.iter().map(|c| ns(c.start_s)).collect();
    rounds.sort_unstable();
    rounds.dedup();
    for w in rounds.windows(2) {
        let of: Vec<_> = done.iter().filter(|c| ns(c.start_s) == w[0]).collect();
        let last = of.iter().map(|c| ns(c.start_s + c.fct_s)).max().unwrap_or(0);
        assert!(w[1] + 1 >= last && w[1] + 1 >= w[0] + 50_000_000, "round at {} ns after {last}", w[1]);
        assert_eq!(of.len(), 8);
    }
}

/// The incast preset's shape, not only its golden points: with Linux's 200 ms minimum RTO
/// goodput falls at every step from one server to sixty-four, and the fine timers keep
/// most of it at every size.
#[test]
fn incast_goodput_collapses_as_servers_grow_and_fine_timers_bring_it_back() {
    use sim_core::scenario::preset;
    let mbps = |v: &str| run(&preset("incast", Some(v)).unwrap()).1.throughput.mean_bps / 1e6;
    let coarse: Vec<f64> = ["n1", "n4", "n8", "n16", "n32", "n64"].iter().map(|v| mbps(v)).collect();
    println!("200 ms minimum RTO: {coarse:.1?} Mbit/s");
    assert!(coarse[0] > 900.0, "one server {:.1} Mbit/s", coarse[0]);
    assert!(coarse.windows(2).all(|w| w[1] < w[0]), "not a collapse: {coarse:.1?}");
    assert!(coarse[5] < coarse[0] / 50.0, "sixty-four servers {:.1} Mbit/s", coarse[5]);
    for (v, n) in [("n16-rto1", 3), ("n32-rto1", 4), ("n64-rto1", 5)] {
        let fine = mbps(v);
        assert!(
            fine > 0.6 * coarse[0] && fine > 10.0 * coarse[n],
            "{v}: {fine:.1} Mbit/s against {:.1}",
            coarse[n]
        );
    }
}

#[test]
fn a_ping_on_an_idle_path_reads_the_base_rtt_and_does_not_move_the_flows_beside_it() {
    let (_, alone) = run(&path(vec![ping(10.0)], 5.0));
    let p = &alone.pings[0];
    // 2·(1 + 5) ms plus 86 bytes at 100 Mbit/s on each of the four links, about 0.03 ms.
    let rtt = p.rtt_p50_ms.unwrap();
    assert!((12.0..12.1).contains(&rtt), "RTT {rtt} ms");
    // The last request or two are on their way at the end.
    assert!(p.answered + 2 >= p.sent && p.answered <= p.sent, "{} of {}", p.answered, p.sent);
    let bulk = FlowGroup { access_rate_bps: 1_000_000_000, ..FlowGroup::default() };
    let (_, without) = run(&path(vec![bulk.clone(), bulk.clone()], 10.0));
    let (_, with) = run(&path(vec![bulk.clone(), bulk, ping(100.0)], 10.0));
    let rel = with.throughput.mean_bps / without.throughput.mean_bps - 1.0;
    assert!(rel.abs() < 0.01, "goodput moved {:.2} % with a ping", 100.0 * rel);
    assert!(with.flows[2].probe && with.flows[2].throughput_share == 0.0);
    assert!((with.jfi - without.jfi).abs() < 0.05, "JFI {} against {}", with.jfi, without.jfi);
    // The ping reads the queue the bulk flows build.
    assert!(with.pings[0].rtt_p50_ms.unwrap() > 14.0);
}

#[test]
fn recycled_runs_are_deterministic_and_the_same_split_across_threads() {
    let sc =
        Scenario { flows: vec![poisson(2000, 0.5, SizeSource::Fixed), ping(50.0)], ..path(Vec::new(), 3.0) };
    let mut one = Simulation::new(&sc).unwrap();
    assert!(one.is_split(), "2000 connections run split");
    let a = one.finish();
    let mut two = Simulation::new(&sc).unwrap();
    two.set_parallel(false);
    let b = two.finish();
    assert_eq!(a, b);
    assert_eq!(one.completions(), two.completions());
    assert_eq!(one.pings(), two.pings());
    assert!(one.completions().0.len() > 500, "{} transfers", one.completions().0.len());
}

#[test]
fn flows_that_arrive_must_be_finite_tcp_and_a_custom_cdf_must_be_one() {
    let errors = |g: FlowGroup| match Simulation::new(&path(vec![g], 1.0)) {
        Err(e) => e.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "),
        Ok(_) => String::new(),
    };
    let udp = FlowGroup { cca: CcaSpec::Udp(Default::default()), ..poisson(2, 0.5, SizeSource::Fixed) };
    assert!(errors(udp).contains("flows[0].arrivals.type"));
    let bulk = FlowGroup { size_bytes: None, ..poisson(2, 0.5, SizeSource::Fixed) };
    assert!(errors(bulk).contains("flows[0].size_bytes"));
    let bad = FlowGroup { cdf: vec![(0.0, 0.0), (100.0, 0.5)], ..poisson(2, 0.5, SizeSource::Custom) };
    let e = errors(bad);
    assert!(e.contains("flows[0].cdf"), "{e}");
    let load = FlowGroup {
        arrivals: ArrivalSpec::Poisson(PoissonConfig { load: 5.0, ..PoissonConfig::default() }),
        ..poisson(2, 0.5, SizeSource::Fixed)
    };
    assert!(errors(load).contains("flows[0].arrivals.load"));
}

#[test]
fn on_off_arrivals_come_only_while_on_at_the_load() {
    // 20 kB flows at 30 % while on, 0.5 s on and 1.5 s off: a quarter of the steady rate.
    let on_off = ArrivalSpec::Poisson(PoissonConfig { load: 0.3, on_s: 0.5, off_s: 1.5 });
    let g = FlowGroup { arrivals: on_off, ..poisson(16, 0.3, SizeSource::Fixed) };
    let (sim, _) = run(&path(vec![g], 40.0));
    let (done, unfinished) = sim.completions();
    assert!(done.iter().all(|c| c.start_s % 2.0 < 0.5), "an arrival in an off stretch");
    let expected = 187.5 * 40.0 / 4.0;
    let arrived = done.len() as f64 + f64::from(unfinished);
    assert!((arrived - expected).abs() < 5.0 * expected.sqrt(), "{arrived} arrivals, {expected} expected");
}
