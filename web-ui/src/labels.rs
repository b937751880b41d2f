//! What users read instead of internal tags: a CCA's label for `new_reno`, a disc's for
//! `fq_codel`, and a preset variant described by what it runs ("Adaptive RED, 1-packet
//! device queue" for `ared-nic1`). Read from the registries and the presets themselves.

use sim_core::aqm::QueueDiscSpec;
use sim_core::cc::CcaSpec;
use sim_core::scenario::{preset, PresetInfo, Scenario};

/// The label of a congestion control's tag ("NewReno" for `new_reno`); an unknown tag as is.
pub fn cca(tag: &str) -> &str {
    CcaSpec::FAMILY.member(tag).map_or(tag, |m| m.label)
}

/// Each flow's CCA label, flow by flow through the groups.
pub fn flow_ccas(sc: &Scenario) -> Vec<String> {
    sc.flows
        .iter()
        .flat_map(|g| std::iter::repeat_n(cca(g.cca.tag()).to_string(), g.count as usize))
        .collect()
}

/// The picker label of a disc as configured ("Adaptive RED", "FQ-CoDel"); a switch port
/// with its queue count and, unless static, its control-plane app.
pub fn disc(spec: &QueueDiscSpec) -> String {
    let key = spec.flavour();
    let label = QueueDiscSpec::FAMILY.entries().into_iter().find(|e| e.0 == key).map_or(key, |e| e.1);
    match spec {
        QueueDiscSpec::Switch(port) => {
            let control = port.control.info();
            let default_app = sim_core::switch::ControlPlaneSpec::default().tag();
            let app = if control.tag == default_app {
                String::new()
            } else {
                format!(", {}", short(control.label))
            };
            format!("{}, {} queues{app}", short(label), port.queues)
        }
        _ => label.to_string(),
    }
}

/// A label without its parenthesis ("Switch port (multi-queue)" → "Switch port"), where a
/// menu entry has little room.
fn short(label: &str) -> &str {
    label.split(" (").next().unwrap_or(label)
}

/// The disc, or where links differ in disc or rate, each link in the order the routes cross
/// them: "home FQ-CoDel at 9 Mbit/s → modem FIFO at 10 Mbit/s".
fn discs(sc: &Scenario) -> String {
    let alike = (sc.links.values())
        .all(|l| l.queue.name() == sc.bottleneck().queue.name() && l.rate_bps == sc.bottleneck().rate_bps);
    if alike {
        return disc(&sc.bottleneck().queue);
    }
    let hops: Vec<String> = (sim_core::scenario::topology::chain_order(sc).iter())
        .filter_map(|n| sc.link_named(n).map(|l| (n, l)))
        .map(|(n, l)| format!("{n} {} at {} Mbit/s", disc(&l.queue), l.rate_bps as f64 / 1e6))
        .collect();
    hops.join(" → ")
}

/// "2 CUBIC + 2 Vegas": each algorithm's flow count, in the order the groups give them.
fn flows(sc: &Scenario) -> String {
    let mut counts: Vec<(&str, u64)> = Vec::new();
    for g in &sc.flows {
        let l = cca(g.cca.tag());
        match counts.iter_mut().find(|(x, _)| *x == l) {
            Some((_, n)) => *n += u64::from(g.count),
            None => counts.push((l, u64::from(g.count))),
        }
    }
    counts.iter().map(|(l, n)| format!("{n} {l}")).collect::<Vec<_>>().join(" + ")
}

/// "limit → 50 packets at 20 s": the variant's timed changes.
fn changes(sc: &Scenario) -> String {
    let c: Vec<String> = sc.changes.iter().map(|c| format!("{} at {} s", c.label(), c.at_s)).collect();
    c.join(", ")
}

fn device_queue(sc: &Scenario) -> String {
    match sc.bottleneck().nic_queue_packets {
        0 => "no device queue".into(),
        n => format!("{n}-packet device queue"),
    }
}

/// "1000-packet buffer": the studied link's buffer.
fn buffer(sc: &Scenario) -> String {
    match sc.bottleneck().queue.limit() {
        sim_core::queue::QueueLimit::Packets(n) => format!("{n}-packet buffer"),
        sim_core::queue::QueueLimit::Bytes(n) => format!("{n}-byte buffer"),
        sim_core::queue::QueueLimit::Cells { cells, .. } => format!("{cells}-cell buffer"),
    }
}

/// "60 % load": each group's arrivals at a load, where some arrive at random.
fn loads(sc: &Scenario) -> String {
    let each: Vec<String> = (sc.flows.iter())
        .filter_map(|g| match g.arrivals.pattern() {
            sim_core::traffic::Pattern::Poisson { load, .. } => {
                Some(format!("{} % load", (load * 100.0).round()))
            }
            _ => None,
        })
        .collect();
    each.join(", ")
}

/// "marking": the disc marks instead of dropping and some flow can be marked (it asked
/// for ECN, or its congestion control is scalable); ", no hard drop" for RED marking in its
/// hard zone too.
fn marking(sc: &Scenario) -> String {
    let disc = sc.bottleneck().queue.to_value();
    let on = |k: &str| disc.get(k).and_then(|v| v.as_bool()) == Some(true);
    let ecn_flows = sc.flows.iter().any(|g| g.ecn || g.cca.is_scalable());
    if !(ecn_flows && (on("ecn") || on("use_ecn"))) {
        return String::new();
    }
    let soft = disc.get("use_hard_drop").and_then(|v| v.as_bool()) == Some(false);
    format!("marking{}", if soft { ", no hard drop" } else { "" })
}

fn min_rto(sc: &Scenario) -> String {
    format!("{} ms minimum RTO", sc.tcp.min_rto_ms)
}

/// Each variant of `p` with a label saying what sets it apart from the others: its disc,
/// its flows, its device queue, its timed changes, its buffer, its load, its minimum RTO,
/// whether it marks, whichever differ within the preset.
pub fn variants(p: &PresetInfo) -> Vec<(&'static str, String)> {
    const PARTS: usize = 8;
    let parts: Vec<(&'static str, [String; PARTS])> = p
        .variants
        .iter()
        .map(|v| {
            let parts = preset(p.name, Some(v))
                .map(|sc| {
                    [
                        discs(&sc),
                        flows(&sc),
                        device_queue(&sc),
                        changes(&sc),
                        buffer(&sc),
                        loads(&sc),
                        min_rto(&sc),
                        marking(&sc),
                    ]
                })
                .unwrap_or_else(|_| {
                    std::array::from_fn(|i| if i == 0 { v.to_string() } else { String::new() })
                });
            (*v, parts)
        })
        .collect();
    let differs = |i: usize| parts.iter().any(|(_, x)| x[i] != parts[0].1[i]);
    let shown: Vec<usize> = (0..PARTS).filter(|i| differs(*i)).collect();
    let shown = if shown.is_empty() { vec![0] } else { shown };
    let mut out: Vec<(&'static str, String)> = parts
        .iter()
        .map(|(v, x)| {
            let mut words: Vec<&str> =
                shown.iter().map(|i| x[*i].as_str()).filter(|w| !w.is_empty()).collect();
            // The flows first: "7 Vegas + 1 NewReno · FIFO".
            words.sort_by_key(|w| !parts.iter().any(|(_, y)| y[1] == *w));
            (*v, words.join(" · "))
        })
        .collect();
    // Two variants that read the same (a setting these words do not show) keep their names.
    let labels: Vec<String> = out.iter().map(|(_, l)| l.clone()).collect();
    for (v, l) in &mut out {
        if labels.iter().filter(|x| *x == l).count() > 1 {
            *l = format!("{l} ({v})");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::scenario::preset_list;

    #[test]
    fn tags_read_as_labels() {
        assert_eq!(cca("new_reno"), "NewReno");
        assert_eq!(cca("cubic"), "CUBIC");
        assert_eq!(cca("no_such"), "no_such");
        let sc = preset("rtt-unfair", Some("fq-codel")).unwrap();
        assert_eq!(disc(&sc.bottleneck().queue), "FQ-CoDel");
    }

    #[test]
    fn red_study_variants_say_their_disc_and_device_queue() {
        let red = preset_list().into_iter().find(|p| p.name == "red-study").unwrap();
        let labels = variants(&red);
        let of = |v: &str| labels.iter().find(|(k, _)| *k == v).unwrap().1.clone();
        assert_eq!(of("ared-nic1"), "Adaptive RED · 1-packet device queue");
        assert_eq!(of("red-nonic"), "RED · no device queue");
        assert_eq!(of("gentle"), "Gentle RED · 100-packet device queue");
        let mix = preset_list().into_iter().find(|p| p.name == "vegas-newreno-mix").unwrap();
        let mix = variants(&mix);
        let warbler = &mix.iter().find(|(k, _)| *k == "7v1n-warbler-2q").unwrap().1;
        assert_eq!(warbler, "7 Vegas + 1 NewReno · Switch port, 2 queues, Warbler");
    }

    #[test]
    fn links_that_differ_are_each_named_in_route_order() {
        let p = preset_list().into_iter().find(|p| p.name == "two-bottlenecks").unwrap();
        let labels = variants(&p);
        let of = |v: &str| labels.iter().find(|(k, _)| *k == v).unwrap().1.clone();
        assert_eq!(of("fq-codel-shaped"), "home FQ-CoDel at 9 Mbit/s → modem FIFO at 10 Mbit/s");
        assert_eq!(of("isp-fq-codel"), "home FIFO at 100 Mbit/s → modem FQ-CoDel at 10 Mbit/s");
        let lot = preset_list().into_iter().find(|p| p.name == "parking-lot").unwrap();
        assert!(variants(&lot).iter().any(|(_, l)| l == "FQ-CoDel"), "alike links: the disc alone");
    }

    #[test]
    fn a_disc_that_marks_flows_that_asked_for_ecn_says_so() {
        let p = preset_list().into_iter().find(|p| p.name == "red-ecn").unwrap();
        let labels = variants(&p);
        let of = |v: &str| labels.iter().find(|(k, _)| *k == v).unwrap().1.clone();
        assert_eq!(of("red"), "Gentle RED");
        assert_eq!(of("red-ecn"), "Gentle RED · marking");
        assert_eq!(of("red-ecn-nohard"), "Gentle RED · marking, no hard drop");
        assert_eq!(of("codel-ecn"), "CoDel · marking");
        // FQ-CoDel marks by default, but no flow of the bufferbloat lecture asks for ECN.
        let bb = preset_list().into_iter().find(|p| p.name == "bufferbloat").unwrap();
        assert!(variants(&bb).iter().all(|(_, l)| !l.contains("marking")));
    }

    #[test]
    fn every_variant_reads_differently_and_shows_no_tag() {
        for p in preset_list() {
            let labels = variants(&p);
            for (v, l) in &labels {
                assert!(!l.contains(&format!("({v})")), "{} {v}: {l} needed its name", p.name);
                assert!(!l.contains('_'), "{} {v}: {l}", p.name);
            }
        }
    }
}
