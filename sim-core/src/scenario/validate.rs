//! Field-level validation: every impossible value is reported with its path, its value
//! and the allowed range, so the UI can mark the field and the CLI can print a list.

use super::{FlowGroup, Scenario, SCENARIO_VERSION};
use crate::aqm::{
    CebinaeConfig, CodelConfig, FqCodelConfig, FqConfig, PieConfig, QueueDiscSpec, QueueLimit, RedConfig,
};
use crate::cc::CcaSpec;
use crate::switch::{SchedulerSpec, SwitchConfig};
use crate::tcp::TcpConfig;
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScenarioError {
    /// Path of the field, e.g. `flows[0].access_rate_bps`.
    pub field: String,
    pub value: String,
    /// The allowed range or set, in words.
    pub allowed: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {} is out of range; allowed: {}", self.field, self.value, self.allowed)
    }
}

/// Largest values accepted: beyond them a run would not fit in memory or in a lifetime.
pub const MAX_FLOWS: u32 = 10_000;
pub const MAX_DURATION_S: f64 = 3600.0;

struct Checker {
    errors: Vec<ScenarioError>,
}

impl Checker {
    fn push(&mut self, field: impl Into<String>, value: impl fmt::Display, allowed: impl Into<String>) {
        self.errors.push(ScenarioError {
            field: field.into(),
            value: value.to_string(),
            allowed: allowed.into(),
        });
    }

    fn f64_in(&mut self, field: impl Into<String>, v: f64, lo: f64, hi: f64, unit: &str) {
        if !(v.is_finite() && v >= lo && v <= hi) {
            self.push(field, v, format!("{lo} to {hi} {unit}").trim_end().to_string());
        }
    }

    fn f64_above(&mut self, field: impl Into<String>, v: f64, lo: f64, hi: f64, unit: &str) {
        if !(v.is_finite() && v > lo && v <= hi) {
            self.push(field, v, format!("more than {lo}, at most {hi} {unit}").trim_end().to_string());
        }
    }

    fn u64_in(&mut self, field: impl Into<String>, v: u64, lo: u64, hi: u64, unit: &str) {
        if v < lo || v > hi {
            self.push(field, v, format!("{lo} to {hi} {unit}").trim_end().to_string());
        }
    }
}

impl Scenario {
    /// Checks every field; returns all problems at once.
    pub fn validate(&self) -> Result<(), Vec<ScenarioError>> {
        let mut c = Checker { errors: Vec::new() };
        if self.version != SCENARIO_VERSION {
            c.push("version", self.version, format!("{SCENARIO_VERSION}"));
        }
        c.f64_above("duration_s", self.duration_s, 0.0, MAX_DURATION_S, "s");
        let d = if self.duration_s.is_finite() && self.duration_s > 0.0 {
            self.duration_s
        } else {
            MAX_DURATION_S
        };
        if !(self.warmup_s.is_finite() && self.warmup_s >= 0.0 && self.warmup_s < d) {
            c.push("warmup_s", self.warmup_s, format!("0 s up to (not including) duration_s = {d} s"));
        }
        c.f64_in("sample_interval_s", self.sample_interval_s, 0.001, d.min(60.0), "s");
        c.u64_in("host_queue_packets", self.host_queue_packets as u64, 1, 1_000_000, "packets");

        let b = &self.bottleneck;
        c.u64_in("bottleneck.rate_bps", b.rate_bps, 1_000, 400_000_000_000, "bit/s");
        c.f64_in("bottleneck.delay_ms", b.delay_ms, 0.0, 10_000.0, "ms");
        c.u64_in("bottleneck.nic_queue_packets", b.nic_queue_packets as u64, 0, 1_000_000, "packets");
        check_queue(&mut c, "bottleneck.queue", &b.queue);

        if self.flows.is_empty() {
            c.push("flows", "[]", "at least one flow group");
        }
        let total: u64 = self.flows.iter().map(|g| g.count as u64).sum();
        if total > MAX_FLOWS as u64 {
            c.push("flows", format!("{total} flows in all"), format!("at most {MAX_FLOWS} flows"));
        }
        for (i, g) in self.flows.iter().enumerate() {
            check_flow(&mut c, &format!("flows[{i}]"), g, d);
        }
        check_tcp(&mut c, &self.tcp);
        if c.errors.is_empty() {
            Ok(())
        } else {
            Err(c.errors)
        }
    }
}

fn check_limit(c: &mut Checker, field: &str, l: &QueueLimit) {
    match *l {
        QueueLimit::Packets(p) => c.u64_in(format!("{field}.packets"), p as u64, 1, 10_000_000, "packets"),
        QueueLimit::Bytes(b) => c.u64_in(format!("{field}.bytes"), b, 64, 10_000_000_000, "bytes"),
        QueueLimit::Cells { cells, cell_bytes } => {
            c.u64_in(format!("{field}.cells.cells"), cells as u64, 1, 100_000_000, "cells");
            c.u64_in(format!("{field}.cells.cell_bytes"), cell_bytes as u64, 16, 4096, "bytes");
        }
    }
}

fn check_queue(c: &mut Checker, field: &str, q: &QueueDiscSpec) {
    match q {
        QueueDiscSpec::Fifo { limit } => check_limit(c, &format!("{field}.limit"), limit),
        QueueDiscSpec::Red(r) => check_red(c, field, r),
        QueueDiscSpec::Switch(s) => check_switch(c, field, s),
        QueueDiscSpec::Codel(k) => check_codel(c, field, k),
        QueueDiscSpec::FqCodel(k) => check_fq_codel(c, field, k),
        QueueDiscSpec::Fq(k) => check_fq(c, field, k),
        QueueDiscSpec::Pie(p) => check_pie(c, field, p),
        QueueDiscSpec::Cebinae(k) => check_cebinae(c, field, k),
    }
}

/// CoDel's target and interval, shared by CoDel and FQ-CoDel.
fn check_codel_times(c: &mut Checker, field: &str, target_ms: f64, interval_ms: f64, mtu_bytes: u32) {
    c.f64_above(format!("{field}.interval_ms"), interval_ms, 0.0, 60_000.0, "ms");
    let hi = if interval_ms.is_finite() && interval_ms > 0.0 { interval_ms.min(60_000.0) } else { 60_000.0 };
    if !(target_ms.is_finite() && target_ms > 0.0 && target_ms < hi) {
        c.push(
            format!("{field}.target_ms"),
            target_ms,
            format!("more than 0, less than interval_ms = {hi} ms"),
        );
    }
    c.u64_in(format!("{field}.mtu_bytes"), mtu_bytes as u64, 64, 65_535, "bytes");
}

fn check_codel(c: &mut Checker, field: &str, k: &CodelConfig) {
    check_limit(c, &format!("{field}.limit"), &k.limit);
    check_codel_times(c, field, k.target_ms, k.interval_ms, k.mtu_bytes);
}

fn check_fq_codel(c: &mut Checker, field: &str, k: &FqCodelConfig) {
    check_limit(c, &format!("{field}.limit"), &k.limit);
    // Linux accepts 1 to 65536 flow queues and a quantum of at least 256 bytes.
    c.u64_in(format!("{field}.flows"), k.flows as u64, 1, 65_536, "queues");
    c.u64_in(format!("{field}.quantum_bytes"), k.quantum_bytes as u64, 256, 1_000_000, "bytes");
    check_codel_times(c, field, k.target_ms, k.interval_ms, k.mtu_bytes);
    c.u64_in(format!("{field}.drop_batch"), k.drop_batch as u64, 1, 65_536, "packets");
}

fn check_fq(c: &mut Checker, field: &str, k: &FqConfig) {
    check_limit(c, &format!("{field}.limit"), &k.limit);
    c.u64_in(format!("{field}.quantum_bytes"), k.quantum_bytes as u64, 64, 1_000_000, "bytes");
}

fn check_pie(c: &mut Checker, field: &str, p: &PieConfig) {
    check_limit(c, &format!("{field}.limit"), &p.limit);
    c.f64_above(format!("{field}.target_ms"), p.target_ms, 0.0, 60_000.0, "ms");
    // Below 1 µs the lazy update loop would run a billion periods per simulated second.
    c.f64_in(format!("{field}.tupdate_ms"), p.tupdate_ms, 0.001, 60_000.0, "ms");
    c.f64_above(format!("{field}.alpha"), p.alpha, 0.0, 1_000.0, "Hz");
    c.f64_in(format!("{field}.beta"), p.beta, 0.0, 1_000.0, "Hz");
    c.f64_in(format!("{field}.max_burst_ms"), p.max_burst_ms, 0.0, 60_000.0, "ms");
    c.u64_in(format!("{field}.dq_threshold_bytes"), p.dq_threshold_bytes as u64, 64, 1 << 30, "bytes");
    c.u64_in(format!("{field}.mean_pkt_size_bytes"), p.mean_pkt_size_bytes as u64, 1, 65_535, "bytes");
}

fn check_cebinae(c: &mut Checker, field: &str, k: &CebinaeConfig) {
    check_limit(c, &format!("{field}.limit"), &k.limit);
    if let Some(q) = &k.queue_limit {
        check_limit(c, &format!("{field}.queue_limit"), q);
    }
    c.f64_in(format!("{field}.round_ms"), k.round_ms, 0.001, 10_000.0, "ms");
    c.u64_in(format!("{field}.recompute_rounds"), k.recompute_rounds as u64, 1, 1_000_000, "rounds");
    c.f64_in(format!("{field}.tau"), k.tau, 0.0, 1.0, "");
    c.f64_in(format!("{field}.delta_port"), k.delta_port, 0.0, 1.0, "");
    c.f64_in(format!("{field}.delta_flow"), k.delta_flow, 0.0, 1.0, "");
}

fn check_red(c: &mut Checker, field: &str, r: &RedConfig) {
    check_limit(c, &format!("{field}.limit"), &r.limit);
    let auto = r.adaptive && r.adaptive_auto_params;
    let both_zero = r.min_th == 0.0 && r.max_th == 0.0;
    if !auto && !both_zero {
        c.f64_in(format!("{field}.min_th"), r.min_th, 0.0, 1e12, "");
        if !(r.max_th.is_finite() && r.max_th > r.min_th) {
            c.push(
                format!("{field}.max_th"),
                r.max_th,
                format!("more than min_th = {} (or both 0 for automatic)", r.min_th),
            );
        }
    }
    if let Some(w) = r.queue_weight {
        c.f64_above(format!("{field}.queue_weight"), w, 0.0, 1.0, "");
    }
    c.f64_above(format!("{field}.max_p"), r.max_p, 0.0, 1.0, "");
    c.f64_above(format!("{field}.interval_s"), r.interval_s, 0.0, 3600.0, "s");
    c.f64_above(format!("{field}.alpha"), r.alpha, 0.0, 1.0, "");
    c.f64_above(format!("{field}.beta"), r.beta, 0.0, 1.0, "");
    c.f64_above(format!("{field}.top"), r.top, 0.0, 1.0, "");
    if let Some(b) = r.bottom {
        c.f64_in(format!("{field}.bottom"), b, 0.0, r.top.clamp(0.0, 1.0), "");
    }
    c.f64_above(format!("{field}.target_delay_s"), r.target_delay_s, 0.0, 60.0, "s");
    c.f64_above(format!("{field}.rtt_s"), r.rtt_s, 0.0, 60.0, "s");
    c.u64_in(format!("{field}.mean_pkt_size_bytes"), r.mean_pkt_size_bytes as u64, 1, 65_535, "bytes");
    if let Some(bw) = r.link_bandwidth_bps {
        c.u64_in(format!("{field}.link_bandwidth_bps"), bw, 1_000, 400_000_000_000, "bit/s");
    }
}

fn check_switch(c: &mut Checker, field: &str, s: &SwitchConfig) {
    c.u64_in(format!("{field}.queues"), s.queues as u64, 1, 32, "queues");
    c.u64_in(format!("{field}.cell_bytes"), s.cell_bytes as u64, 16, 4096, "bytes");
    c.u64_in(format!("{field}.queue_limit_cells"), s.queue_limit_cells as u64, 1, 100_000_000, "cells");
    if let Some(b) = s.shared_buffer_cells {
        c.u64_in(format!("{field}.shared_buffer_cells"), b as u64, 1, 1_000_000_000, "cells");
    }
    for (i, w) in s.weights.iter().enumerate() {
        c.u64_in(format!("{field}.weights[{i}]"), *w as u64, 1, 1023, "(Tofino DWRR weights)");
    }
    let last = s.queues.max(1) as u64 - 1;
    for (i, q) in s.initial_mapping.iter().enumerate() {
        c.u64_in(format!("{field}.initial_mapping[{i}]"), *q as u64, 0, last, "(a queue index)");
    }
    c.u64_in(format!("{field}.default_queue"), s.default_queue as u64, 0, last, "(a queue index)");
    c.u64_in(format!("{field}.cms_width"), s.cms_width as u64, 1, 1 << 24, "counters");
    c.u64_in(format!("{field}.cms_depth"), s.cms_depth as u64, 1, 16, "rows");
    if let SchedulerSpec::Dwrr { quantum_bytes } = s.scheduler {
        c.u64_in(format!("{field}.scheduler.quantum_bytes"), quantum_bytes as u64, 64, 1 << 20, "bytes");
    }
    c.f64_above(format!("{field}.control_period_ms"), s.control_period_ms, 0.0, 3_600_000.0, "ms");
    c.f64_in(format!("{field}.compute_latency_ms"), s.compute_latency_ms, 0.0, 3_600_000.0, "ms");
    c.f64_in(format!("{field}.backlog_wma_weight"), s.backlog_wma_weight, 0.0, 1.0, "");
}

fn check_flow(c: &mut Checker, f: &str, g: &FlowGroup, duration: f64) {
    c.u64_in(format!("{f}.count"), g.count as u64, 1, MAX_FLOWS as u64, "flows");
    c.u64_in(format!("{f}.access_rate_bps"), g.access_rate_bps, 1_000, 400_000_000_000, "bit/s");
    c.f64_in(format!("{f}.access_delay_ms"), g.access_delay_ms, 0.0, 10_000.0, "ms");
    if !(g.start_s.is_finite() && g.start_s >= 0.0 && g.start_s < duration) {
        c.push(
            format!("{f}.start_s"),
            g.start_s,
            format!("0 s up to (not including) duration_s = {duration} s"),
        );
    }
    if let Some(stop) = g.stop_s {
        if !(stop.is_finite() && stop > g.start_s && stop <= duration) {
            c.push(
                format!("{f}.stop_s"),
                stop,
                format!("after start_s = {} s, at most duration_s = {duration} s", g.start_s),
            );
        }
    }
    if let Some(size) = g.size_bytes {
        c.u64_in(format!("{f}.size_bytes"), size, 1, 1_000_000_000_000, "bytes");
    }
    match &g.cca {
        CcaSpec::NewReno => {}
        CcaSpec::Cubic(k) => {
            c.f64_above(format!("{f}.cca.c"), k.c, 0.0, 100.0, "");
            c.f64_above(format!("{f}.cca.beta"), k.beta, 0.0, 0.999, "");
        }
        CcaSpec::Vegas(v) => {
            c.u64_in(format!("{f}.cca.alpha"), v.alpha as u64, 0, 1_000, "segments");
            c.u64_in(
                format!("{f}.cca.beta"),
                v.beta as u64,
                v.alpha as u64,
                1_000,
                "segments (at least alpha)",
            );
            c.u64_in(format!("{f}.cca.gamma"), v.gamma as u64, 0, 1_000, "segments");
        }
        CcaSpec::Bbr(b) => {
            c.f64_in(format!("{f}.cca.high_gain"), b.high_gain, 1.0, 10.0, "");
            c.f64_in(format!("{f}.cca.cwnd_gain"), b.cwnd_gain, 1.0, 10.0, "");
            c.u64_in(format!("{f}.cca.bw_window_rounds"), b.bw_window_rounds as u64, 1, 1_000, "rounds");
            c.f64_above(format!("{f}.cca.min_rtt_window_s"), b.min_rtt_window_s, 0.0, 3600.0, "s");
            c.f64_above(
                format!("{f}.cca.probe_rtt_duration_ms"),
                b.probe_rtt_duration_ms,
                0.0,
                60_000.0,
                "ms",
            );
            let segs = b.min_pipe_cwnd_segments as u64;
            c.u64_in(format!("{f}.cca.min_pipe_cwnd_segments"), segs, 1, 1_000, "segments");
            c.f64_above(format!("{f}.cca.full_bw_threshold"), b.full_bw_threshold, 1.0, 10.0, "");
            c.u64_in(format!("{f}.cca.full_bw_rounds"), b.full_bw_rounds as u64, 1, 100, "rounds");
            c.f64_in(format!("{f}.cca.pacing_margin_percent"), b.pacing_margin_percent, 0.0, 50.0, "%");
            let q = b.quantization_segments as u64;
            c.u64_in(format!("{f}.cca.quantization_segments"), q, 0, 100, "segments");
            c.u64_in(format!("{f}.cca.random_phases"), b.random_phases as u64, 1, 7, "phases");
        }
    }
}

fn check_tcp(c: &mut Checker, t: &TcpConfig) {
    c.u64_in("tcp.mss_bytes", t.mss_bytes as u64, 16, 65_000, "bytes");
    c.u64_in("tcp.initial_cwnd_segments", t.initial_cwnd_segments as u64, 1, 1_000, "segments");
    c.f64_above("tcp.min_rto_ms", t.min_rto_ms, 0.0, 60_000.0, "ms");
    c.f64_above("tcp.initial_rto_ms", t.initial_rto_ms, 0.0, 60_000.0, "ms");
    if !(t.max_rto_ms.is_finite() && t.max_rto_ms >= t.min_rto_ms && t.max_rto_ms <= 600_000.0) {
        c.push("tcp.max_rto_ms", t.max_rto_ms, format!("min_rto_ms = {} to 600000 ms", t.min_rto_ms));
    }
    c.f64_in("tcp.clock_granularity_ms", t.clock_granularity_ms, 0.0, 1_000.0, "ms");
    c.f64_above("tcp.syn_timeout_ms", t.syn_timeout_ms, 0.0, 600_000.0, "ms");
    c.u64_in("tcp.delayed_ack_count", t.delayed_ack_count as u64, 1, 64, "segments");
    c.f64_in("tcp.delayed_ack_timeout_ms", t.delayed_ack_timeout_ms, 0.0, 10_000.0, "ms");
    c.u64_in("tcp.dupack_threshold", t.dupack_threshold as u64, 1, 100, "ACKs");
    let mss = t.mss_bytes.max(1) as u64;
    c.u64_in(
        "tcp.send_buffer_bytes",
        t.send_buffer_bytes as u64,
        mss,
        u32::MAX as u64,
        "bytes (at least one MSS)",
    );
    c.u64_in(
        "tcp.recv_buffer_bytes",
        t.recv_buffer_bytes as u64,
        mss,
        u32::MAX as u64,
        "bytes (at least one MSS)",
    );
    let h = &t.headers;
    for (name, v) in [
        ("ip_bytes", h.ip_bytes),
        ("tcp_bytes", h.tcp_bytes),
        ("timestamp_option_bytes", h.timestamp_option_bytes),
        ("link_bytes", h.link_bytes),
    ] {
        c.u64_in(format!("tcp.headers.{name}"), v as u64, 0, 1_000, "bytes");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_scenario_is_valid() {
        assert_eq!(Scenario::default().validate(), Ok(()));
    }

    #[test]
    fn every_bad_field_is_reported_with_its_value_and_range() {
        let mut s = Scenario::default();
        s.duration_s = -1.0;
        s.bottleneck.rate_bps = 0;
        s.flows[0].access_delay_ms = f64::NAN;
        s.tcp.mss_bytes = 0;
        let errs = s.validate().unwrap_err();
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert!(fields.contains(&"duration_s"));
        assert!(fields.contains(&"bottleneck.rate_bps"));
        assert!(fields.contains(&"flows[0].access_delay_ms"));
        assert!(fields.contains(&"tcp.mss_bytes"));
        let rate = errs.iter().find(|e| e.field == "bottleneck.rate_bps").unwrap();
        assert_eq!(rate.value, "0");
        assert!(rate.allowed.contains("1000"));
    }

    #[test]
    fn red_thresholds_must_be_ordered() {
        let mut s = Scenario::default();
        s.bottleneck.queue =
            QueueDiscSpec::Red(RedConfig { min_th: 10.0, max_th: 5.0, ..RedConfig::default() });
        let errs = s.validate().unwrap_err();
        assert_eq!(errs[0].field, "bottleneck.queue.max_th");
    }

    #[test]
    fn default_codel_fq_codel_and_fq_discs_are_valid() {
        for q in [
            QueueDiscSpec::Codel(CodelConfig::default()),
            QueueDiscSpec::FqCodel(FqCodelConfig::default()),
            QueueDiscSpec::Fq(FqConfig::default()),
        ] {
            let s = Scenario {
                bottleneck: crate::scenario::Bottleneck { queue: q, ..Default::default() },
                ..Default::default()
            };
            assert_eq!(s.validate(), Ok(()));
        }
    }

    #[test]
    fn bad_codel_family_fields_are_named_with_their_range() {
        let mut s = Scenario::default();
        s.bottleneck.queue = QueueDiscSpec::Codel(CodelConfig {
            target_ms: 200.0,
            interval_ms: 100.0,
            mtu_bytes: 0,
            ..CodelConfig::default()
        });
        let errs = s.validate().unwrap_err();
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["bottleneck.queue.target_ms", "bottleneck.queue.mtu_bytes"]);
        assert!(errs[0].allowed.contains("less than interval_ms = 100 ms"));

        s.bottleneck.queue = QueueDiscSpec::FqCodel(FqCodelConfig {
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
            assert!(fields.contains(&format!("bottleneck.queue.{f}").as_str()), "{f} missing: {fields:?}");
        }
        let q = errs.iter().find(|e| e.field == "bottleneck.queue.quantum_bytes").unwrap();
        assert_eq!((q.value.as_str(), q.allowed.as_str()), ("100", "256 to 1000000 bytes"));

        s.bottleneck.queue = QueueDiscSpec::Fq(FqConfig { quantum_bytes: 0, ..FqConfig::default() });
        assert_eq!(s.validate().unwrap_err()[0].field, "bottleneck.queue.quantum_bytes");
    }

    #[test]
    fn bad_pie_and_cebinae_fields_are_named_with_value_and_range() {
        let mut s = Scenario::default();
        s.bottleneck.queue =
            QueueDiscSpec::Pie(PieConfig { tupdate_ms: 0.0, alpha: -1.0, ..PieConfig::default() });
        let errs = s.validate().unwrap_err();
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["bottleneck.queue.tupdate_ms", "bottleneck.queue.alpha"]);
        assert_eq!(errs[0].value, "0");
        assert!(errs[0].allowed.contains("0.001"));

        s.bottleneck.queue = QueueDiscSpec::Cebinae(CebinaeConfig {
            tau: 1.5,
            round_ms: f64::NAN,
            queue_limit: Some(QueueLimit::Packets(0)),
            ..CebinaeConfig::default()
        });
        let errs = s.validate().unwrap_err();
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            ["bottleneck.queue.queue_limit.packets", "bottleneck.queue.round_ms", "bottleneck.queue.tau"]
        );
        assert_eq!(errs[2].value, "1.5");
        assert_eq!(errs[2].allowed, "0 to 1");
    }

    #[test]
    fn default_pie_and_cebinae_are_valid() {
        let mut s = Scenario::default();
        s.bottleneck.queue = QueueDiscSpec::Pie(PieConfig::default());
        assert_eq!(s.validate(), Ok(()));
        s.bottleneck.queue = QueueDiscSpec::Cebinae(CebinaeConfig::default());
        assert_eq!(s.validate(), Ok(()));
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
}
