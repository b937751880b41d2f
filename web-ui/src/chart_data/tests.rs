//! The chart data of real runs and of made-up lines.

use super::coincide::{flow_number, spans};
use super::*;
use sim_core::scenario::preset;
use sim_core::sim::Simulation;

fn run(name: &str, variant: &str, duration: f64) -> Series {
    let mut sc = preset(name, Some(variant)).unwrap();
    sc.duration_s = duration;
    run_scenario(&sc)
}

fn run_scenario(sc: &sim_core::scenario::Scenario) -> Series {
    let mut sc = sc.clone();
    sc.warmup_s = sc.warmup_s.min(sc.duration_s / 2.0);
    let mut sim = Simulation::new(&sc).unwrap();
    sim.finish();
    let mut s = Series::new(
        sc.total_flows() as usize,
        sc.sample_interval_s,
        sc.tcp.mss_bytes,
        matches!(sc.bottleneck().queue.limit(), sim_core::queue::QueueLimit::Cells { .. }),
        &sim.recorder().series_info,
    );
    s.flow_cca = crate::labels::flow_ccas(&sc);
    s.link_mbps = crate::state::peak_rate_bps(&sc) / 1e6;
    s.fair_shares = crate::state::flow_fair_shares(&sc);
    s.charted_link = sc.has_links().then(|| sc.bottleneck_name().to_string());
    s.push(&sim.poll(), &[]);
    s.set_delays(sim.recorder().window.flows().iter().map(|f| f.delay.clone()).collect());
    s
}

fn frame() -> Frame {
    Frame { x_max: 60.0, ..Frame::default() }
}

#[test]
fn queue_chart_shades_both_red_zones_and_fits_them() {
    let c = queue_chart(&run("red-study", "gentle", 4.0), &frame());
    assert_eq!(c.bands.len(), 2);
    assert_eq!((c.bands[1].lo, c.bands[1].hi), (10.0, 20.0));
    assert!(c.y_max >= 22.0);
    assert_eq!(c.lines.len(), 2);
}

/// Over ns-3's device queue the queue chart draws the disc, the device queue and
/// their total; the delay chart draws each flow, broken where a flow sent nothing.
#[test]
fn every_queue_a_packet_waits_in_is_drawn_and_the_delay_over_time_too() {
    let mut s = run("red-study", "red", 6.0);
    s.device_queue = true;
    let c = queue_chart(&s, &frame());
    let labels: Vec<&str> = c.lines.iter().map(|l| l.label.as_str()).collect();
    assert!(
        labels.contains(&"in the device queue") && labels.contains(&"waiting in all (disc + device)"),
        "{labels:?}"
    );
    let total = &c.lines.iter().find(|l| l.label.starts_with("waiting in all")).unwrap().points;
    assert!(total.iter().any(|p| p.1 > 90.0), "the device queue's 100 packets are in the total");
    let d = delay_time_chart(&s, &frame(), None);
    assert_eq!(d.lines.len(), 10);
    assert!(d.y_max >= 200.0, "RED's wait is mostly the device queue's: {}", d.y_max);
}

/// CoDel's target is drawn as a step line that follows a timed change of it.
#[test]
fn the_delay_chart_draws_the_discs_target_through_its_changes() {
    let s = run("bufferbloat", "codel", 4.0);
    let steps = [(0.0, 5.0), (2.0, 20.0)];
    let d = delay_time_chart(&s, &frame(), Some(("CoDel target", &steps)));
    let t = d.lines.iter().find(|l| l.label == "CoDel target").unwrap();
    assert_eq!(t.points, vec![(0.0, 5.0), (2.0, 20.0), (60.0, 20.0)]);
    assert!(t.dashed && d.y_max >= 30.0);
    let c = compare_chart(&[("codel", &s)], &frame(), CompareWhat::Delay);
    assert!(c.lines[0].points.iter().filter(|p| p.1.is_finite()).count() > 30);
}

#[test]
fn a_switch_port_draws_its_queues_and_warbler_its_groups_and_queue_map() {
    let s = run("cubic-bbr-vegas-3q", "warbler", 8.0);
    assert_eq!(queue_chart(&s, &frame()).lines.len(), 3);
    let groups = s.extra_groups();
    for g in ["weights", "clustering", "centroids"] {
        assert!(groups.iter().any(|x| x == g), "{g} missing from {groups:?}");
    }
    let map = queue_map_chart(&s, &frame()).unwrap();
    assert_eq!(map.rows.len(), 6);
    assert!(!map.cells.is_empty());
}

#[test]
fn a_flows_label_names_its_cca_only_where_the_groups_differ() {
    let mixed = run("cubic-bbr-vegas-3q", "warbler", 2.0);
    let labels: Vec<String> = cwnd_chart(&mixed, &frame()).lines.iter().map(|l| l.label.clone()).collect();
    assert!(labels[0].starts_with("flow 0 (Q") && labels[0].ends_with(" · CUBIC"), "{labels:?}");
    assert!(labels[5].ends_with(" · Vegas"), "{labels:?}");
    let same = cwnd_chart(&run("red-study", "red", 2.0), &frame());
    assert_eq!(same.lines[3].label, "flow 3");
}

#[test]
fn goodput_has_a_line_per_flow_the_aggregate_and_the_arrivals() {
    let c = throughput_chart(&run("red-study", "gentle", 4.0), &frame());
    assert_eq!(c.lines.len(), 12);
    assert!(c.note.is_some());
}

#[test]
fn goodput_axes_stop_near_the_link_and_say_what_they_clip() {
    let mut s = run("bufferbloat", "fifo", 40.0);
    assert!(max_of(s.goodput_mbps.iter()) > 3.0 * s.link_mbps, "FIFO's in-order release spikes");
    let c = throughput_chart(&s, &frame());
    assert_eq!(c.y_max, GOODPUT_CAP * 10.0);
    let note = c.note.unwrap();
    assert!(note.contains("10 Mbit/s bottleneck") && note.contains("clipped"), "{note}");
    let cmp = compare_chart(&[("fifo", &s)], &frame(), CompareWhat::Goodput);
    assert_eq!(cmp.y_max, 12.0);
    assert!(cmp.note.is_some_and(|n| n.contains("clipped")));
    // Under a faster link nothing is clipped: the axis is the data's, the note the usual.
    s.link_mbps = 1000.0;
    let c = throughput_chart(&s, &frame());
    assert!(c.y_max > 12.0 && !c.note.unwrap().contains("clipped"));
}

#[test]
fn the_peak_rate_is_the_highest_through_the_timed_changes() {
    let mut sc = preset("bufferbloat", Some("fifo")).unwrap();
    assert_eq!(crate::state::peak_rate_bps(&sc), 10e6);
    sc.changes.push(sim_core::scenario::TimedChange {
        at_s: 5.0,
        set: "bottleneck.rate_bps".into(),
        to: serde_json::json!(25_000_000),
    });
    assert_eq!(crate::state::peak_rate_bps(&sc), 25e6);
}

#[test]
fn drops_are_plotted_on_their_flows_row() {
    let s = run("red-study", "gentle", 4.0);
    let c = drops_chart(&s, &frame());
    assert_eq!(c.points.len(), s.drops.len());
    assert!(c.points.iter().all(|&(_, row, _)| row < 10));
}

#[test]
fn marks_are_rings_beside_the_drops_and_dualpi2_shows_both_queues() {
    let s = run("l4s-coexistence", "dualpi2", 6.0);
    let c = drops_chart(&s, &frame());
    assert_eq!(c.title, "Drops and ECN marks");
    assert!(!c.rings.is_empty() && !c.points.is_empty());
    // Prague (flow 0) is marked; CUBIC (flow 1) asked for no ECN and is only dropped.
    assert!(c.rings.iter().all(|&(_, row, _)| row == 0));
    assert!(c.points.iter().all(|&(_, row, _)| row == 1));
    assert_eq!(c.ring_legend, vec![("marked CE: early".to_string(), mark_color(DropReason::Early))]);
    // No ring shares a colour with a drop.
    assert!(c.rings.iter().all(|r| c.points.iter().all(|p| p.2 != r.2)));
    let q = queue_chart(&s, &frame());
    let labels: Vec<&str> = q.lines.iter().map(|l| l.label.as_str()).collect();
    assert!(labels.contains(&"L queue") && labels.contains(&"C queue"), "{labels:?}");
    assert!(s.extra_groups().iter().any(|g| g == "dualpi2-delay"));
    let w = s.window(1.0, 6.0);
    assert!(w.marks > 0 && w.drops < w.marks);
}

#[test]
fn every_density_is_scaled_to_its_own_peak() {
    let s = run("red-study", "gentle", 4.0);
    for c in [delay_chart(&s), backlog_chart(&s)] {
        assert!(!c.curves.is_empty());
        for curve in &c.curves {
            let peak = curve.points.iter().map(|p| p.1).fold(0.0, f64::max);
            assert!((peak - 1.0).abs() < 1e-9, "{} peaks at {peak}", curve.label);
        }
    }
    // Each flow's two marks are its own P50 and P95, in its colour.
    let d = delay_chart(&s);
    assert_eq!(d.marks.len(), 2 * d.curves.len());
    for (f, pair) in d.marks.chunks(2).enumerate() {
        let own = s.delay_density(f, d.x_max).unwrap();
        assert_eq!(pair[0], (own.p50, "P50".to_string(), flow_color(f)));
        assert_eq!(pair[1], (own.p95, "P95".to_string(), flow_color(f)));
    }
}

#[test]
fn each_share_is_the_flows_goodput_over_the_total_and_the_fair_share_a_tenth() {
    let s = run("red-study", "gentle", 4.0);
    let c = share_chart(&s);
    // Each flow's bar is its own mean goodput over the flows' total, from the series.
    let mean = |v: &Vec<f64>| v.iter().sum::<f64>() / v.len() as f64;
    let total: f64 = s.flow_mbps.iter().map(mean).sum();
    assert_eq!(c.bars.len(), 10);
    for (b, v) in c.bars.iter().zip(&s.flow_mbps) {
        assert!((b.1 - mean(v) / total).abs() < 1e-9, "{} against {}", b.1, mean(v) / total);
    }
    assert!(c.bars.iter().any(|b| (b.1 - 0.1).abs() > 1e-3), "ten CUBIC flows do not split exactly");
    assert!((c.fair.unwrap() - 0.1).abs() < 1e-12);
}

#[test]
fn with_links_each_bar_is_ticked_at_its_flows_fair_shares_and_no_equal_share_is_drawn() {
    let c = share_chart(&run("parking-lot", "fifo", 3.0));
    assert!(c.fair.is_none(), "an equal share is no reference when flows cross different links");
    let labels: Vec<&str> = c.refs.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(labels, ["max-min fair share", "proportionally fair share"]);
    // Max-min: a quarter each; proportional: the long flow a tenth, the others 30 %.
    for (r, want) in c.refs.iter().zip([[0.25, 0.25, 0.25, 0.25], [0.1, 0.3, 0.3, 0.3]]) {
        assert_eq!(r.values.len(), c.bars.len());
        for (v, w) in r.values.iter().zip(want) {
            assert!((v - w).abs() < 1e-3, "{}: {:?}", r.label, r.values);
        }
    }
    assert!(ChartData::Bars(c).describe_with(&[]).contains("max-min fair share 25 %"));
}

#[test]
fn compare_draws_each_shared_link_with_a_line_per_lane() {
    let (a, b) = (run("parking-lot", "fifo", 2.0), run("parking-lot", "fq-codel", 2.0));
    let lanes = [("FIFO", &a), ("FQ-CoDel", &b)];
    assert_eq!(shared_links(&lanes), ["bottleneck", "hop2", "hop3"]);
    let c = compare_link_chart(&lanes, &frame(), "hop2", "link-queue");
    let labels: Vec<&str> = c.lines.iter().map(|l| l.label.as_str()).collect();
    assert_eq!(labels, ["FIFO", "FQ-CoDel"]);
    assert!(c.title.contains("hop2"));
    // FIFO fills its buffer, FQ-CoDel keeps a few packets.
    let peak = |l: &Line| l.points.iter().map(|p| p.1).fold(0.0, f64::max);
    assert!(peak(&c.lines[0]) > 2.0 * peak(&c.lines[1]), "{} {}", peak(&c.lines[0]), peak(&c.lines[1]));
    let dumbbell = run("red-study", "red", 1.0);
    assert!(shared_links(&[("a", &a), ("b", &dumbbell)]).is_empty(), "a dumbbell has no per-link series");
}

#[test]
fn the_fairness_panel_carries_the_papers_figure() {
    let f = Frame { expected_jfi: Some(Level { y: 0.99, label: "paper".into() }), ..frame() };
    let c = jfi_chart(&run("red-study", "red", 3.0), &f);
    assert_eq!(c.levels.len(), 1);
    assert_eq!(c.y_max, 1.0);
}

#[test]
fn compare_drops_are_cumulative_counts_per_lane() {
    let a = run("red-study", "red", 3.0);
    let b = run("red-study", "gentle", 3.0);
    let c = compare_chart(&[("red", &a), ("gentle", &b)], &frame(), CompareWhat::Drops);
    assert_eq!(c.lines.len(), 2);
    assert_eq!(c.lines[0].points.last().unwrap().1, a.drops.len() as f64);
}

fn flat(label: &str, ys: impl Fn(usize) -> f64) -> Line {
    let xs: Vec<f64> = (0..400).map(|i| f64::from(i) * 0.1).collect();
    let ys: Vec<f64> = (0..400).map(ys).collect();
    line(label, 4, &xs, &ys)
}

#[test]
fn lines_within_a_hundredth_of_the_axis_coincide_and_two_hundredths_part() {
    let base = |i: usize| 5.0 + (i as f64 * 0.05).sin() * 4.0;
    let lines = vec![flat("a", base), flat("b", |i| base(i) + 0.5), flat("c", |i| base(i) + 2.0)];
    let c = coincidences(&lines, 0.0, 100.0);
    assert_eq!(c, vec![Coincidence { members: vec![0, 1], note: "a = b here".into() }]);
    // The same half unit on an axis ten times as tall is closer still; on one ten
    // times shorter it parts them too.
    assert_eq!(coincidences(&lines, 0.0, 1000.0)[0].members, vec![0, 1, 2]);
    assert!(coincidences(&lines, 0.0, 10.0).is_empty());
}

#[test]
fn a_brief_excursion_keeps_lines_together_a_long_one_parts_them() {
    let base = |_: usize| 10.0;
    let brief = flat("brief", |i| if (100..110).contains(&i) { 30.0 } else { 10.0 });
    let longer = flat("longer", |i| if (100..130).contains(&i) { 30.0 } else { 10.0 });
    let long = flat("long", |i| if (100..160).contains(&i) { 30.0 } else { 10.0 });
    let c = coincidences(&[flat("base", base), brief, longer, long], 0.0, 40.0);
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].members, vec![0, 1, 2]);
    // The least agreement in the group: "longer" parts from "base" for 30 of 400 samples.
    assert_eq!(c[0].note, "base = brief = longer over 92 % of the chart");
}

#[test]
fn a_line_is_compared_only_where_it_is_drawn() {
    let base = |_: usize| 10.0;
    // A gap (no value in an interval) says nothing, nor does the end of a line that
    // stops: while drawn, both lie under the base line.
    let gappy = flat("gappy", |i| if i % 3 == 0 { f64::NAN } else { 10.0 });
    let stops = flat("stops", |i| if i < 200 { 10.0 } else { f64::NAN });
    let c = coincidences(&[flat("base", base), gappy, stops], 0.0, 40.0);
    assert_eq!(c[0].note, "base = gappy = stops here");
    // Values beyond the axis are drawn at its edge: two spikes off the top coincide.
    let spikes = [flat("x", |i| 500.0 + i as f64), flat("y", |i| 900.0 - i as f64)];
    assert_eq!(coincidences(&spikes, 0.0, 100.0).len(), 1);
    // Lines with nothing drawn in common do not.
    let early = flat("early", |i| if i < 100 { 10.0 } else { f64::NAN });
    let late = flat("late", |i| if i >= 100 { 10.0 } else { f64::NAN });
    assert!(coincidences(&[early, late], 0.0, 40.0).is_empty());
}

#[test]
fn the_legend_names_coinciding_flows_by_span() {
    let same: Vec<Line> = (0..7).map(|f| flat(&format!("flow {f} · NewReno"), |i| i as f64)).collect();
    let c = coincidences(&same, 0.0, 400.0);
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].note, "flows 0-6 coincide");
    assert_eq!(spans(&[0, 1]), "0 and 1");
    assert_eq!(spans(&[0, 1, 2, 5]), "0-2 and 5");
    assert_eq!(spans(&[1, 3, 5]), "1, 3 and 5");
    assert_eq!(flow_number("flow 12 (Q1) · Vegas"), Some(12));
    assert_eq!(flow_number("aggregate goodput"), None);
}

#[test]
fn in_a_fifo_every_flows_delay_coincides_and_the_text_alternative_says_so() {
    let s = run("rtt-unfair", "fifo", 20.0);
    let c = ChartData::Time(delay_time_chart(&s, &frame(), None));
    let groups = c.coincidences();
    assert_eq!(groups.len(), 1, "{groups:?}");
    assert_eq!(groups[0].note, "flows 0 and 1 coincide");
    assert!(c.describe().ends_with("; flows 0 and 1 coincide"), "{}", c.describe());
    // Their goodputs do not (the aggregate may equal what arrives).
    let g = ChartData::Time(throughput_chart(&s, &frame())).coincidences();
    assert!(g.iter().all(|c| c.members.iter().all(|&m| m >= 2)), "{g:?}");
}

#[test]
fn codel_and_fq_codel_coincide_in_compares_delay_fifo_stands_apart() {
    let lanes: Vec<(String, Series)> = ["fifo", "codel", "fq_codel"]
        .iter()
        .map(|d| {
            (
                d.to_string(),
                run_scenario(&crate::compare::with_disc(&preset("bufferbloat", None).unwrap(), d)),
            )
        })
        .collect();
    let refs: Vec<(&str, &Series)> = lanes.iter().map(|(l, s)| (l.as_str(), s)).collect();
    let c = compare_chart(&refs, &frame(), CompareWhat::Delay);
    let g = coincidences(&c.lines, c.y_min, c.y_max);
    assert_eq!(g.len(), 1, "{g:?}");
    assert_eq!(g[0].members, vec![1, 2]);
    // They part only in the first second or two, while the flows start.
    assert_eq!(g[0].note, "codel = fq_codel here");
}

#[test]
fn nice_max_rounds_up_to_one_two_five() {
    assert_eq!(nice_max(7.3), 10.0);
    assert_eq!(nice_max(1.2), 2.0);
    assert_eq!(nice_max(0.031), 0.05);
    assert_eq!(nice_max(0.0), 1.0);
}

#[test]
fn the_traffic_charts_show_what_the_run_recorded() {
    let mut sc = preset("bufferbloat", Some("fifo")).unwrap();
    sc.duration_s = 12.0;
    let s = run_scenario(&sc);
    let ping = traffic::ping_chart(&s, &frame()).expect("a ping chart");
    let answered: usize = ping.lines.iter().map(|l| l.points.len()).sum();
    assert_eq!(answered, s.pings.len(), "one point per answer");
    // A FIFO of 1000 packets: most answers take longer than the path's 30 ms.
    let cdf = traffic::ping_cdf_chart(&s).expect("a ping CDF");
    let line = &cdf.lines[0].points;
    assert_eq!(line.last().map(|p| p.1), Some(1.0));
    assert!(line.windows(2).all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1), "a CDF never falls");
    let under_50 = line.iter().filter(|p| p.0 < 50.0).map(|p| p.1).fold(0.0, f64::max);
    assert!(under_50 < 0.2, "{under_50} of pings under 50 ms in a bloated FIFO");
    let fetches = traffic::transfer_chart(&s, &sc, &frame()).expect("the page fetches");
    assert_eq!(fetches.lines.len(), 1);
    assert!(fetches.lines[0].points.windows(2).all(|w| w[0].0 <= w[1].0), "by when they were asked for");
    // No finite flow, no slowdown: a bulk-only run has none of these.
    let bulk = run("rtt-unfair", "fifo", 5.0);
    assert!(traffic::ping_chart(&bulk, &frame()).is_none() && traffic::slowdown_chart(&bulk, &sc).is_none());
}

#[test]
fn the_slowdown_chart_puts_each_size_decade_at_its_middle_and_its_percentiles_in_order() {
    let mut sc = preset("web-workload", Some("fifo-60")).unwrap();
    sc.duration_s = 10.0;
    let s = run_scenario(&sc);
    let c = traffic::slowdown_chart(&s, &sc).expect("a slowdown chart");
    assert_eq!(c.lines.len(), 3);
    assert_eq!(c.lines[0].points.first().map(|p| p.0), Some(3.5), "under 10 kB at 10^3.5 bytes");
    for i in 0..c.lines[0].points.len() {
        let (p50, p95, p99) = (c.lines[0].points[i].1, c.lines[1].points[i].1, c.lines[2].points[i].1);
        assert!(p50 >= 0.0 && p50 <= p95 && p95 <= p99, "decade {i}: {p50} {p95} {p99}");
    }
}

/// An earlier run's aggregate lines go pale under a later run's, on the same charts, and
/// the queue and delay axes grow to hold them.
#[test]
fn an_earlier_run_is_drawn_pale_under_the_later_one() {
    let fifo = run("bufferbloat", "fifo", 12.0);
    let codel = run("bufferbloat", "codel", 12.0);
    let earlier = vec![("FIFO".to_string(), aggregate_lines(&fifo, &frame()))];
    let mut ids: Vec<&str> = earlier[0].1.iter().map(|(k, _)| k.as_str()).collect();
    ids.sort_unstable();
    assert_eq!(ids, ["delay", "fairness", "goodput", "queue"], "a line for each overlaid chart");
    let mut q = queue_chart(&codel, &frame());
    let (before, y_before) = (q.lines.len(), q.y_max);
    overlay_earlier("queue", &mut q, &earlier);
    let added = &q.lines[before..];
    assert_eq!(added.len(), 1);
    assert!(added[0].faint && added[0].label == "earlier: FIFO" && added[0].color == 1);
    assert!(q.y_max > y_before * 5.0, "the FIFO's queue is many times CoDel's: {} vs {y_before}", q.y_max);
    let mut d = delay_time_chart(&codel, &frame(), None);
    overlay_earlier("delay", &mut d, &earlier);
    assert!(d.lines.iter().any(|l| l.label == "earlier: FIFO (mean over flows)"));
}

/// The DQN agent's five features and its reward, as the run goes: a line each.
#[test]
fn the_agents_state_and_reward_are_drawn_as_the_run_goes() {
    let mut sc = preset("dqn-dumbbell", Some("dqn")).unwrap();
    sc.duration_s = 3.0;
    sc.warmup_s = 1.0;
    let mut sim = Simulation::new(&sc).unwrap();
    let mut s = Series::new(1, sc.sample_interval_s, sc.tcp.mss_bytes, false, &sim.recorder().series_info);
    for step in 1..=30 {
        sim.step_until(sim_core::time::SimTime::from_secs_f64(f64::from(step) * 0.1));
        let cc: Vec<(String, f64)> =
            sim.cc_metrics(0).unwrap().values.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        s.push(&sim.poll(), &cc);
    }
    let c = agent_state_chart(&s, &frame()).expect("a DQN run has the chart");
    let labels: Vec<&str> = c.lines.iter().map(|l| l.label.as_str()).collect();
    assert_eq!(labels, ["bytes in flight", "cWnd", "RTT", "acknowledged", "ssThresh", "reward"]);
    assert!(c.lines.iter().all(|l| l.points.len() > 10), "a point per look at the agent");
    let plain = run("red-study", "red", 2.0);
    assert!(agent_state_chart(&plain, &frame()).is_none(), "no agent, no chart");
}
