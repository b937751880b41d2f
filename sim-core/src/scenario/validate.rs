//! Field-level validation of a whole scenario: each field against the range its descriptor
//! gives (the algorithms' own in their files, TCP's in `tcp/config.rs`, the scenario's in
//! [`super::fields`]), then the rules between fields. Every impossible value is reported with
//! its path, its value and the allowed range, so the UI can mark the field and the CLI can
//! print a list.

use super::fields::{FLOW_FIELDS, LINK_FIELDS, RUN_FIELDS};
use super::{FlowGroup, Scenario, SCENARIO_VERSION};
use crate::aqm::QueueDiscSpec;
use crate::params::{check_fields, fmt_num, Checker, ScenarioError};
use crate::queue::{cells_for, QueueLimit};
use crate::switch::SwitchConfig;
use crate::tcp::TcpConfig;

/// Largest values accepted: beyond them a run would not fit in memory or in a lifetime.
pub const MAX_FLOWS: u32 = 10_000;
pub const MAX_DURATION_S: f64 = 3600.0;

impl Scenario {
    /// Checks every field; returns all problems at once.
    pub fn validate(&self) -> Result<(), Vec<ScenarioError>> {
        let mut c = Checker::new();
        let v = serde_json::to_value(self).expect("scenarios serialise");
        if self.version != SCENARIO_VERSION {
            c.push("version", self.version, format!("{SCENARIO_VERSION}"));
        }
        check_fields(&v, RUN_FIELDS, &mut c);
        let d = if self.duration_s.is_finite() && self.duration_s > 0.0 {
            self.duration_s
        } else {
            MAX_DURATION_S
        };
        if self.warmup_s.is_finite() && self.warmup_s >= d {
            c.push(
                "warmup_s",
                fmt_num(self.warmup_s),
                format!("0 s up to (not including) duration_s = {} s", fmt_num(d)),
            );
        }
        if self.sample_interval_s.is_finite() && self.sample_interval_s > d {
            c.push(
                "sample_interval_s",
                fmt_num(self.sample_interval_s),
                format!("0.001 to duration_s = {} s", fmt_num(d)),
            );
        }

        if !self.links.contains_key(&self.bottleneck) {
            let known: Vec<&str> = self.links.keys().map(String::as_str).collect();
            let allowed = match known.is_empty() {
                true => "the name of a link of links (links is empty)".to_string(),
                false => format!("the name of a link of links: {}", known.join(", ")),
            };
            c.push("bottleneck", crate::params::json::echo_value(&self.bottleneck), allowed);
        }
        for (name, l) in &self.links {
            c.at(&format!("links.{name}"), |c| {
                check_fields(&v["links"][name], LINK_FIELDS, c);
                c.at("queue", |c| l.queue.check(c));
                match &l.queue {
                    QueueDiscSpec::Switch(sw) if *name == self.bottleneck => {
                        c.at("queue", |c| check_switch(c, sw, &self.flows, self.full_packet_bytes()))
                    }
                    QueueDiscSpec::Switch(_) => c.push(
                        "queue.type",
                        "switch",
                        "a queue disc other than a switch port (a switch port is the link `bottleneck` names)",
                    ),
                    q => check_holds_a_packet(c, q.limit(), self.full_packet_bytes()),
                }
            });
            check_link_name(&mut c, "links", name);
        }

        if self.flows.is_empty() {
            c.push("flows", "[]", "at least one flow group");
        }
        let total: u64 = self.flows.iter().map(|g| u64::from(g.count)).sum();
        if total > u64::from(MAX_FLOWS) {
            c.push("flows", format!("{total} flows in all"), format!("at most {MAX_FLOWS} flows"));
        }
        for (i, g) in self.flows.iter().enumerate() {
            c.at(&format!("flows[{i}]"), |c| {
                check_fields(&v["flows"][i], FLOW_FIELDS, c);
                c.at("cca", |c| g.cca.check(c));
                c.at("arrivals", |c| g.arrivals.check(c));
                check_traffic(c, g);
                check_flow_times(c, g, d);
                check_route(c, self, g);
            });
        }
        c.at("tcp", |c| {
            check_fields(&v["tcp"], TcpConfig::FIELDS, c);
            self.tcp.check_more(c);
        });
        if c.errors().is_empty() && !self.changes.is_empty() {
            // Each change is checked against the scenario as it stands then.
            super::changes::check(self, &mut c);
        }
        c.into_result()
    }
}

/// Flows that arrive during the run are finite TCP transfers; a custom CDF is one.
fn check_traffic(c: &mut Checker, g: &FlowGroup) {
    if g.recycles() && g.cca.sends_datagrams() {
        c.push("arrivals.type", g.arrivals.tag(), "once (a UDP source or a ping sends for the whole run)");
    }
    if g.recycles() && !g.is_finite() {
        c.push("size_bytes", "empty", "a size, or sizes from a CDF, for flows that arrive during the run");
    }
    if g.sizes == crate::traffic::sizes::SizeSource::Custom {
        match crate::traffic::sizes::check_cdf(&g.cdf) {
            Err(_) if g.cdf.is_empty() => c.push(
                "sizes",
                "custom",
                "custom only with a cdf: [bytes, cumulative fraction] points from 0 to 1",
            ),
            Err(e) => c.push("cdf", format!("{} points", g.cdf.len()), e),
            Ok(()) => {}
        }
    }
}

/// Longest route, in links.
pub const MAX_ROUTE_LINKS: usize = 32;

/// A link's name is a key in field paths (`links.NAME.rate_bps`): letters, digits, `-`
/// and `_`.
fn check_link_name(c: &mut Checker, field: &str, name: &str) {
    let ok = (1..=40).contains(&name.len())
        && name.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_');
    if !ok {
        c.push(
            field,
            format!("a link named '{}'", crate::params::json::echo_value(name)),
            "names of 1-40 letters, digits, '-' or '_'",
        );
    }
}

/// A route is a path: links that exist, each at most once. So is an ACK route, which
/// cannot cross a switch port (its per-flow backlog is the data's).
fn check_route(c: &mut Checker, sc: &Scenario, g: &FlowGroup) {
    check_path(c, sc, "route", &g.route);
    check_path(c, sc, "ack_route", &g.ack_route);
    for (i, name) in g.ack_route.iter().enumerate() {
        if sc.link_named(name).is_some_and(|l| matches!(l.queue, QueueDiscSpec::Switch(_))) {
            c.push(
                &format!("ack_route[{i}]"),
                crate::params::json::echo_value(name),
                "a link that is not a switch port (a port's backlog per flow counts data)",
            );
        }
    }
}

fn check_path(c: &mut Checker, sc: &Scenario, field: &str, path: &[String]) {
    if path.len() > MAX_ROUTE_LINKS {
        c.push(field, format!("{} links", path.len()), format!("at most {MAX_ROUTE_LINKS} links"));
        return;
    }
    for (i, name) in path.iter().enumerate() {
        if sc.link_named(name).is_none() {
            let known: Vec<&str> = sc.link_names().collect();
            c.push(
                &format!("{field}[{i}]"),
                crate::params::json::echo_value(name),
                format!("a link of the scenario: {}", known.join(", ")),
            );
        } else if path[..i].contains(name) {
            c.push(
                &format!("{field}[{i}]"),
                crate::params::json::echo_value(name),
                "each link at most once (a route is a path)",
            );
        }
    }
}

/// A buffer smaller than one full-sized packet would accept nothing and deliver nothing.
fn check_holds_a_packet(c: &mut Checker, limit: QueueLimit, packet_bytes: u32) {
    match limit {
        QueueLimit::Bytes(b) if b < u64::from(packet_bytes) => {
            c.push("queue.limit.bytes", b, format!("at least one full packet ({packet_bytes} bytes on the wire)"))
        }
        QueueLimit::Cells { cells, cell_bytes } if u64::from(cells) < cells_for(packet_bytes, cell_bytes) => c.push(
            "queue.limit.cells.cells",
            cells,
            format!(
                "at least one full packet: {} cells of {cell_bytes} bytes for {packet_bytes} bytes on the wire",
                cells_for(packet_bytes, cell_bytes)
            ),
        ),
        _ => {}
    }
}

/// A switch port's rules that depend on the scenario: each queue holds a full packet (a
/// smaller one accepts nothing and the flows mapped to it deliver nothing), and the initial
/// mapping lists at most one queue per flow (flow id = index; the rest go round robin).
fn check_switch(c: &mut Checker, sw: &SwitchConfig, groups: &[FlowGroup], packet_bytes: u32) {
    let need = cells_for(packet_bytes, sw.cell_bytes.max(1));
    let one_packet = format!(
        "at least one full packet: {need} cells of {} bytes for {packet_bytes} bytes on the wire",
        sw.cell_bytes
    );
    if u64::from(sw.queue_limit_cells) < need {
        c.push("queue_limit_cells", sw.queue_limit_cells, one_packet.clone());
    }
    if let Some(shared) = sw.shared_buffer_cells.filter(|&s| u64::from(s) < need) {
        c.push("shared_buffer_cells", shared, one_packet);
    }
    let flows: u64 = groups.iter().map(|g| u64::from(g.count)).sum();
    if sw.initial_mapping.len() as u64 > flows {
        // The bound comes from the groups' counts, so the message names them.
        let counts = if groups.len() <= 4 {
            let each: Vec<String> =
                groups.iter().enumerate().map(|(i, g)| format!("flows[{i}].count = {}", g.count)).collect();
            each.join(" + ")
        } else {
            "the sum of flows[i].count".into()
        };
        c.push(
            "initial_mapping",
            format!("{} entries", sw.initial_mapping.len()),
            format!("at most {flows} entries, one queue per flow ({counts})"),
        );
    }
}

fn check_flow_times(c: &mut Checker, g: &FlowGroup, duration: f64) {
    if g.start_s.is_finite() && g.start_s >= duration {
        c.push(
            "start_s",
            fmt_num(g.start_s),
            format!("0 s up to (not including) duration_s = {} s", fmt_num(duration)),
        );
    }
    if g.start_jitter_s.is_finite() && g.start_s + g.start_jitter_s > duration {
        c.push(
            "start_jitter_s",
            fmt_num(g.start_jitter_s),
            format!("0 to duration_s − start_s = {} s", fmt_num(duration - g.start_s)),
        );
    }
    if let Some(stop) = g.stop_s {
        if !(stop.is_finite() && stop > g.start_s && stop <= duration) {
            c.push(
                "stop_s",
                fmt_num(stop),
                format!(
                    "after start_s = {} s, at most duration_s = {} s",
                    fmt_num(g.start_s),
                    fmt_num(duration)
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aqm::{
        CebinaeConfig, CodelConfig, FifoConfig, FqCodelConfig, FqConfig, PieConfig, QueueDiscSpec, RedConfig,
    };
    use crate::cc::CcaSpec;

    #[test]
    fn the_default_scenario_is_valid() {
        assert_eq!(Scenario::default().validate(), Ok(()));
    }

    #[test]
    fn every_bad_field_is_reported_with_its_value_and_range() {
        let mut s = Scenario::default();
        s.duration_s = -1.0;
        s.bottleneck_mut().rate_bps = 0;
        s.flows[0].access_delay_ms = f64::NAN;
        s.tcp.mss_bytes = 0;
        let errs = s.validate().unwrap_err();
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        for f in ["duration_s", "links.bottleneck.rate_bps", "flows[0].access_delay_ms", "tcp.mss_bytes"] {
            assert!(fields.contains(&f), "{f} missing: {fields:?}");
        }
        let rate = errs.iter().find(|e| e.field == "links.bottleneck.rate_bps").unwrap();
        assert_eq!(rate.value, "0");
        assert!(rate.allowed.contains("1000"));
    }

    #[test]
    fn red_thresholds_must_be_ordered() {
        let mut s = Scenario::default();
        s.bottleneck_mut().queue =
            QueueDiscSpec::Red(RedConfig { min_th: 10.0, max_th: 5.0, ..RedConfig::default() });
        let errs = s.validate().unwrap_err();
        assert_eq!(errs[0].field, "links.bottleneck.queue.max_th");
    }

    #[test]
    fn default_discs_are_valid() {
        for q in [
            QueueDiscSpec::Codel(CodelConfig::default()),
            QueueDiscSpec::FqCodel(FqCodelConfig::default()),
            QueueDiscSpec::Fq(FqConfig::default()),
            QueueDiscSpec::Pie(PieConfig::default()),
            QueueDiscSpec::Cebinae(CebinaeConfig::default()),
        ] {
            let s = Scenario {
                links: crate::scenario::Scenario::one_link(crate::scenario::Link {
                    queue: q,
                    ..Default::default()
                }),
                ..Default::default()
            };
            assert_eq!(s.validate(), Ok(()));
        }
    }

    #[test]
    fn bad_codel_family_fields_are_named_with_their_range() {
        let mut s = Scenario::default();
        s.bottleneck_mut().queue = QueueDiscSpec::Codel(CodelConfig {
            target_ms: 200.0,
            interval_ms: 100.0,
            mtu_bytes: 0,
            ..CodelConfig::default()
        });
        let errs = s.validate().unwrap_err();
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["links.bottleneck.queue.mtu_bytes", "links.bottleneck.queue.target_ms"]);
        assert!(errs[1].allowed.contains("less than interval_ms = 100 ms"));

        s.bottleneck_mut().queue = QueueDiscSpec::FqCodel(FqCodelConfig {
            flows: 0,
            quantum_bytes: 100,
            drop_batch: 0,
            interval_ms: f64::NAN,
            limit: QueueLimit::Packets(0),
            ..FqCodelConfig::default()
        });
        let errs = s.validate().unwrap_err();
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        for f in ["limit.packets", "flows", "quantum_bytes", "interval_ms", "drop_batch"] {
            assert!(
                fields.contains(&format!("links.bottleneck.queue.{f}").as_str()),
                "{f} missing: {fields:?}"
            );
        }
        let q = errs.iter().find(|e| e.field == "links.bottleneck.queue.quantum_bytes").unwrap();
        assert_eq!((q.value.as_str(), q.allowed.as_str()), ("100", "256 to 1000000 bytes"));
    }

    #[test]
    fn bad_pie_and_cebinae_fields_are_named_with_value_and_range() {
        let mut s = Scenario::default();
        s.bottleneck_mut().queue =
            QueueDiscSpec::Pie(PieConfig { tupdate_ms: 0.0, alpha: -1.0, ..PieConfig::default() });
        let errs = s.validate().unwrap_err();
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["links.bottleneck.queue.tupdate_ms", "links.bottleneck.queue.alpha"]);
        assert_eq!(errs[0].value, "0");
        assert!(errs[0].allowed.contains("0.001"));

        s.bottleneck_mut().queue = QueueDiscSpec::Cebinae(CebinaeConfig {
            tau: 1.5,
            round_ms: f64::NAN,
            queue_limit: Some(QueueLimit::Packets(0)),
            ..CebinaeConfig::default()
        });
        let errs = s.validate().unwrap_err();
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "links.bottleneck.queue.queue_limit.packets",
                "links.bottleneck.queue.round_ms",
                "links.bottleneck.queue.tau"
            ]
        );
        assert_eq!(errs[2].value, "1.5");
        assert_eq!(errs[2].allowed, "0 to 1");
    }

    #[test]
    fn a_flow_stopping_before_it_starts_is_rejected() {
        let mut s = Scenario::default();
        s.flows[0].start_s = 5.0;
        s.flows[0].stop_s = Some(2.0);
        assert_eq!(s.validate().unwrap_err()[0].field, "flows[0].stop_s");
    }

    #[test]
    fn vegas_beta_below_alpha_is_rejected_with_the_range() {
        let mut s = Scenario::default();
        s.flows[0].cca = CcaSpec::Vegas(crate::cc::VegasConfig { alpha: 5, beta: 3, ..Default::default() });
        let errs = s.validate().unwrap_err();
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "flows[0].cca.beta");
        assert_eq!(errs[0].value, "3");
        assert!(errs[0].allowed.starts_with("5 to 1000"), "{}", errs[0].allowed);
    }

    #[test]
    fn bbr_parameters_out_of_range_are_each_reported() {
        let mut s = Scenario::default();
        s.flows[0].cca = CcaSpec::Bbr(crate::cc::BbrConfig {
            high_gain: 0.5,
            bw_window_rounds: 0,
            pacing_margin_percent: f64::NAN,
            random_phases: 8,
            ..Default::default()
        });
        let fields: Vec<String> = s.validate().unwrap_err().into_iter().map(|e| e.field).collect();
        assert_eq!(
            fields,
            [
                "flows[0].cca.high_gain",
                "flows[0].cca.bw_window_rounds",
                "flows[0].cca.pacing_margin_percent",
                "flows[0].cca.random_phases"
            ]
        );
        s.flows[0].cca = CcaSpec::Bbr(crate::cc::BbrConfig::default());
        assert_eq!(s.validate(), Ok(()));
    }

    #[test]
    fn times_that_round_to_nothing_are_refused_with_their_floor() {
        let mut s = Scenario::default();
        s.tcp.syn_timeout_ms = 1e-300;
        s.tcp.min_rto_ms = 1e-6;
        let errs = s.validate().unwrap_err();
        assert_eq!(errs[0].field, "tcp.min_rto_ms");
        assert_eq!(errs[1].field, "tcp.syn_timeout_ms");
        assert_eq!(errs[1].value, "1e-300");
        assert_eq!(errs[1].allowed, "1 to 600000 ms");
    }

    #[test]
    fn a_buffer_smaller_than_one_packet_is_refused() {
        let mut s = Scenario::default();
        s.bottleneck_mut().queue = QueueDiscSpec::Fifo(FifoConfig { limit: QueueLimit::Bytes(100) });
        let errs = s.validate().unwrap_err();
        assert_eq!(errs[0].field, "links.bottleneck.queue.limit.bytes");
        assert!(errs[0].allowed.contains("590 bytes"), "{}", errs[0].allowed);
    }

    /// Found by the mutation campaign (tests/mutations.rs): a negative start jitter ran, and
    /// an unknown key inside a cell limit was ignored.
    #[test]
    fn a_negative_start_jitter_and_a_stray_key_in_a_limit_are_refused_by_name() {
        let mut s = Scenario::default();
        s.flows[0].start_jitter_s = -1.0;
        let errs = s.validate().unwrap_err();
        assert_eq!(errs[0].field, "flows[0].start_jitter_s");

        let mut v = serde_json::to_value(Scenario::default()).unwrap();
        v["links"]["bottleneck"]["queue"]["limit"] =
            serde_json::json!({"cells": {"cells": 900, "cell_bytes": 160, "celss": 1}});
        let e = Scenario::from_value(v).unwrap_err();
        assert!(e.contains("links.bottleneck.queue.limit") && e.contains("celss"), "{e}");
    }

    fn warbler_port() -> Scenario {
        let s = crate::scenario::preset("vegas-newreno-mix", Some("6v2n-warbler-4q")).unwrap();
        assert_eq!(s.validate(), Ok(()));
        assert!(matches!(s.bottleneck().queue, QueueDiscSpec::Switch(_)));
        s
    }

    fn switch(s: &mut Scenario) -> &mut SwitchConfig {
        match &mut s.bottleneck_mut().queue {
            QueueDiscSpec::Switch(sw) => sw,
            _ => unreachable!("a switch port"),
        }
    }

    #[test]
    fn an_initial_mapping_longer_than_the_flows_or_past_the_queues_is_refused() {
        let mut s = warbler_port();
        let flows = s.total_flows();
        switch(&mut s).initial_mapping = vec![0; 6000];
        let errs = s.validate().unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].field, "links.bottleneck.queue.initial_mapping");
        assert_eq!(errs[0].value, "6000 entries");
        assert!(errs[0].allowed.starts_with(&format!("at most {flows} entries")), "{}", errs[0]);

        let mut s = warbler_port();
        let sw = switch(&mut s);
        sw.initial_mapping = vec![0, 1, sw.queues];
        let errs = s.validate().unwrap_err();
        assert_eq!(errs[0].field, "links.bottleneck.queue.initial_mapping[2]");

        let mut s = warbler_port();
        switch(&mut s).initial_mapping = vec![1; flows as usize];
        assert_eq!(s.validate(), Ok(()));
    }

    #[test]
    fn a_switch_queue_smaller_than_one_packet_is_refused_with_the_minimum() {
        let mut s = warbler_port();
        let packet = s.full_packet_bytes();
        let sw = switch(&mut s);
        let need = cells_for(packet, sw.cell_bytes);
        sw.queue_limit_cells = (need - 1) as u32;
        let errs = s.validate().unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].field, "links.bottleneck.queue.queue_limit_cells");
        assert_eq!(errs[0].value, (need - 1).to_string());
        assert!(errs[0].allowed.contains(&format!("{need} cells of")), "{}", errs[0]);

        switch(&mut s).queue_limit_cells = need as u32;
        assert_eq!(s.validate(), Ok(()));
        switch(&mut s).shared_buffer_cells = Some(1);
        assert_eq!(s.validate().unwrap_err()[0].field, "links.bottleneck.queue.shared_buffer_cells");
    }

    /// Text with `Infinity` written where `field` is, in the default scenario's JSON.
    fn with_word(path: &str, word: &str) -> String {
        let mut v = serde_json::to_value(Scenario::default()).unwrap();
        crate::scenario::patch::set(&mut v, path, serde_json::json!("@@")).unwrap();
        serde_json::to_string_pretty(&v).unwrap().replace("\"@@\"", word)
    }

    #[test]
    fn infinity_and_nan_in_a_file_are_named_with_the_fields_range() {
        let e = Scenario::from_json(&with_word("links.bottleneck.rate_bps", "Infinity")).unwrap_err();
        assert_eq!(
            e,
            "links.bottleneck.rate_bps: Infinity is not a finite number (JSON has no Infinity or NaN); \
             allowed: 1000 to 400000000000 bit/s"
        );
        let e = Scenario::from_json(&with_word("flows[0].cca.beta", "NaN")).unwrap_err();
        assert!(
            e.starts_with("flows[0].cca.beta: NaN is not a finite number") && e.ends_with("at most 0.999"),
            "{e}"
        );
        let e =
            Scenario::from_json(&with_word("links.bottleneck.queue.limit.packets", "-Infinity")).unwrap_err();
        assert!(e.ends_with("allowed: 1 to 10000000 packets"), "{e}");
        let e = Scenario::from_json(&with_word("tcp.headers.ip_bytes", "1e999")).unwrap_err();
        assert!(
            e.starts_with("tcp.headers.ip_bytes: 1e999 is not a finite number") && e.contains("bytes"),
            "{e}"
        );
    }

    #[test]
    fn a_key_given_twice_is_refused_with_its_path() {
        let text = r#"{"flows": [{"cca": {"type": "cubic", "type": "bbr"}}]}"#;
        assert_eq!(
            Scenario::from_json(text).unwrap_err(),
            "flows[0].cca.type: the key \"type\" appears twice in flows[0].cca; each key may appear once"
        );
        let text = r#"{"bottleneck": {"rate_bps": 5000000}, "bottleneck": {}}"#;
        assert!(Scenario::from_json(text).unwrap_err().starts_with("bottleneck: the key"));
    }

    /// Found by tests/readers.rs: a bad `"type"` named its object, not the key.
    #[test]
    fn a_bad_type_names_the_type_key() {
        let e = |cca: &str| Scenario::from_json(&format!(r#"{{"flows": [{{"cca": {cca}}}]}}"#)).unwrap_err();
        assert!(
            e(r#"{"type": 7}"#).starts_with("flows[0].cca.type: must be a string"),
            "{}",
            e(r#"{"type": 7}"#)
        );
        assert!(e(r#"{"type": "cubc"}"#)
            .starts_with("flows[0].cca.type: unknown congestion control 'cubc'; did you mean 'cubic'?"));
        assert!(e("{}").starts_with("flows[0].cca.type: missing"), "{}", e("{}"));
    }

    #[test]
    fn huge_values_are_not_echoed_whole() {
        let e = Scenario::from_json(&with_word("links.bottleneck.rate_bps", &"9".repeat(300))).unwrap_err();
        assert!(e.starts_with("links.bottleneck.rate_bps:") && e.len() < 200, "{e}");
        let e = Scenario::from_json(&with_word("name", &format!("\"{}\"", "x".repeat(5000)))).unwrap();
        assert_eq!(e.name.len(), 5000);
        let e =
            Scenario::from_json(&with_word("duration_s", &format!("\"{}\"", "x".repeat(5000)))).unwrap_err();
        assert!(e.starts_with("duration_s:") && e.len() < 200, "{e}");
        let mut s = Scenario::default();
        s.duration_s = 1e-300;
        let all: Vec<String> = s.validate().unwrap_err().iter().map(|e| e.to_string()).collect();
        assert!(all.iter().all(|e| e.len() < 200), "{all:?}");
    }
}
