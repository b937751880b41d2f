//! Warbler's control plane (paper §4): every period it reads the long flows' registers
//! (queue, backlog in cells smoothed by a weighted moving average, step 2), clusters the
//! backlogs into the port's K queues with SSRE K-means (step 3, §3.2), and writes the Flow
//! Distribution Table and the Bandwidth Allocation Table: WRR weights proportional to the
//! flows in each queue (step 4). It never reads the wall clock: its compute time is a
//! parameter or a model fitted to Fig. 12, so native and browser runs stay bit-identical.

use super::{decide, decide_fixed, ClusterError, Decision, Init, KmeansConfig, Objective};
use crate::control::{AppOutput, ControlPlaneApp, FlowRegisters, RegisterView, TableWrite};
use crate::params::{Algorithm, Described, Field, Kind, Range};
use crate::rng::{SimRng, StreamId};
use crate::switch::AppConfig;
use crate::time::{SimDuration, SimTime};
use crate::trace::{LogRecord, SeriesInfo};
use serde::{Deserialize, Serialize};

/// Integer or floating-point clustering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arithmetic {
    /// `f64`, as the paper's switch CPU runs it.
    Float,
    /// Integers only, no division in the assignment loop: a data-plane version (§6.3).
    Fixed,
}

/// Where the compute time between a period's end and its table writes comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Latency {
    /// The port's `compute_latency_ms`.
    Port,
    /// Fig. 12: grows linearly with flows × queues, 0.3 s at n = 10 000, K = 16.
    Fig12,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WarblerConfig {
    /// Warbler starts deciding at this time (§5.1 switches it on at 30 s).
    pub activation_s: f64,
    pub objective: Objective,
    pub arithmetic: Arithmetic,
    /// The three initialisations of §3.2.2 (M = 3 when all are on).
    pub init_conservative: bool,
    pub init_far: bool,
    pub init_random: bool,
    /// A fourth candidate, not in the paper: the exact SSRE optimum (`optimal.rs`). Off by
    /// default so presets run the paper's three.
    pub init_optimal: bool,
    /// Cap on K-means assignment steps per initialisation.
    pub max_iters: u32,
    /// §6.2 re-mapping: a flow that sent more than this many times the mean of its
    /// queue-mates in the period moves to the next more aggressive queue (0 = off).
    pub remap_factor: f64,
    pub latency: Latency,
    /// Fig. 12 model: CPU time per flow and queue, µs (0.3 s / (10 000 × 16) = 1.875).
    pub latency_us_per_flow_queue: f64,
}

impl Default for WarblerConfig {
    fn default() -> Self {
        WarblerConfig {
            activation_s: 0.0,
            objective: Objective::Ssre,
            arithmetic: Arithmetic::Float,
            init_conservative: true,
            init_far: true,
            init_random: true,
            init_optimal: false,
            max_iters: 50,
            remap_factor: 4.0,
            latency: Latency::Fig12,
            latency_us_per_flow_queue: 1.875,
        }
    }
}

impl Described for WarblerConfig {
    const INFO: Algorithm = Algorithm {
        tag: "warbler",
        label: "Warbler (SSRE K-means)",
        help: "Clusters long flows by buffer backlog into the port's queues every period and weighs queues by their flows (Warbler §3-§4).",
        fields: &[
            Field::new("activation_s", "Activation", "s", Kind::Float(Range::closed(0.0, 3600.0)), "Warbler starts deciding at this time (§5.1: 30 s)."),
            Field::new("objective", "Objective", "", Kind::Choice(&[("ssre", "SSRE (Warbler)"), ("sse", "SSE (plain K-means)")]), "Squared relative error with weighted centroids (eqs. 1-3), or textbook K-means."),
            Field::new("arithmetic", "Arithmetic", "", Kind::Choice(&[("float", "floating point"), ("fixed", "integers only (§6.3)")]), "Integers only: what a P4 data plane without floating point could run (SSRE only)."),
            Field::new("init_conservative", "Conservative start", "", Kind::Bool, "Start one K-means from the current mapping (§3.2.2)."),
            Field::new("init_far", "Far start", "", Kind::Bool, "Start one from farthest-first centroids."),
            Field::new("init_random", "Random start", "", Kind::Bool, "Start one from random backlogs (seeded)."),
            Field::new("init_optimal", "Exact optimum", "", Kind::Bool, "Also offer the exact SSRE optimum (dynamic programming, not in the paper) as a candidate."),
            Field::new("max_iters", "Iterations", "", Kind::Int(Range::closed(1.0, 10_000.0)), "Cap on assignment steps per start (50)."),
            Field::new("remap_factor", "Re-map factor", "", Kind::Float(Range::closed(0.0, 1000.0)), "§6.2: a flow sending this many times its queue-mates' mean moves up a queue (0 = off)."),
            Field::new("latency", "Compute time", "", Kind::Choice(&[("fig12", "Fig. 12 model"), ("port", "the port's compute latency")]), "Time from a period's end to its table writes."),
            Field::new("latency_us_per_flow_queue", "Fig. 12 slope", "µs", Kind::Float(Range::closed(0.0, 1e6)), "CPU time per flow and queue (0.3 s at 10 000 flows × 16 queues)."),
        ],
        flavours: &[],
    };

    fn check_more(&self, c: &mut crate::params::Checker) {
        if !(self.init_conservative || self.init_far || self.init_random || self.init_optimal) {
            c.push("init_far", false, "at least one initialisation on");
        }
        if self.arithmetic == Arithmetic::Fixed && self.objective == Objective::Sse {
            c.push("objective", "sse", "ssre with integer arithmetic");
        }
    }
}

impl AppConfig for WarblerConfig {
    fn build(&self, seed: u64, queues: u32) -> Box<dyn ControlPlaneApp> {
        Box::new(Warbler::new(self.clone(), seed, queues))
    }

    fn markers(&self) -> Vec<(f64, String)> {
        if self.activation_s > 0.0 {
            vec![(self.activation_s, "Warbler on".into())]
        } else {
            Vec::new()
        }
    }
}

impl WarblerConfig {
    fn kmeans(&self, k: usize) -> KmeansConfig {
        let inits = [
            (self.init_conservative, Init::Conservative),
            (self.init_far, Init::Far),
            (self.init_random, Init::Random),
            (self.init_optimal, Init::Optimal),
        ]
        .into_iter()
        .filter_map(|(on, i)| on.then_some(i))
        .collect();
        KmeansConfig { k, objective: self.objective, inits, max_iters: self.max_iters }
    }

    /// CPU time for one decision over `n` flows and `k` queues (Fig. 12 model: 1 ms of
    /// fixed cost plus the slope per flow and queue).
    pub fn fig12_latency(&self, n: usize, k: u32) -> SimDuration {
        SimDuration::from_secs_f64(1e-3 + self.latency_us_per_flow_queue * 1e-6 * n as f64 * f64::from(k))
    }
}

/// What the last decision left for the traces.
#[derive(Clone, Debug, Default)]
struct Last {
    j_pre: f64,
    j: f64,
    centroids: Vec<f64>,
    moved: u32,
}

#[derive(Debug)]
pub struct Warbler {
    cfg: WarblerConfig,
    rng: SimRng,
    activation: SimTime,
    /// K: the port's queue count, read once from the data plane (§5).
    queues: u32,
    last: Last,
    log: Vec<LogRecord>,
}

impl Warbler {
    pub fn new(cfg: WarblerConfig, seed: u64, queues: u32) -> Warbler {
        let queues = queues.max(1);
        Warbler {
            activation: SimTime::from_secs_f64(cfg.activation_s),
            rng: SimRng::new(seed, StreamId::Other(0x57A2)),
            cfg,
            queues,
            last: Last { centroids: vec![0.0; queues as usize], ..Last::default() },
            log: Vec::new(),
        }
    }

    fn cluster(&mut self, flows: &[FlowRegisters], k: u32) -> Result<Decision, ClusterError> {
        let current: Vec<u32> = flows.iter().map(|f| f.queue.min(k - 1)).collect();
        let km = self.cfg.kmeans(k as usize);
        match self.cfg.arithmetic {
            Arithmetic::Float => {
                let x: Vec<f64> = flows.iter().map(|f| f.backlog_wma_cells).collect();
                decide(&x, Some(&current), &km, &mut self.rng)
            }
            Arithmetic::Fixed => {
                let x: Vec<u32> = flows.iter().map(|f| f.backlog_wma_cells.round() as u32).collect();
                decide_fixed(&x, Some(&current), &km, &mut self.rng)
            }
        }
    }
}

/// §6.2: a flow sending far more than its queue-mates moves to the next queue up (queues
/// are numbered by ascending centroid, so "up" is the more aggressive cluster).
fn remap_outliers(labels: &mut [u32], flows: &[FlowRegisters], k: u32, factor: f64) -> u32 {
    if factor <= 0.0 {
        return 0;
    }
    let mut moved = 0;
    for q in 0..k.saturating_sub(1) {
        let members: Vec<usize> = (0..flows.len()).filter(|&i| labels[i] == q).collect();
        if members.len() < 2 {
            continue;
        }
        let total: u64 = members.iter().map(|&i| flows[i].bytes_in_period).sum();
        for &i in &members {
            let mine = flows[i].bytes_in_period;
            let mates = (total - mine) as f64 / (members.len() - 1) as f64;
            if mine as f64 > factor * mates.max(1.0) {
                labels[i] = q + 1;
                moved += 1;
            }
        }
    }
    moved
}

/// Bandwidth Allocation Table (§4 step 4): each queue weighs as many flows as it holds
/// (an empty queue keeps weight 1: WRR weights are at least 1).
fn weights_by_flow_count(labels: &[u32], k: u32) -> Vec<u32> {
    let mut w = vec![0u32; k as usize];
    for &q in labels {
        w[q as usize] += 1;
    }
    w.iter().map(|&c| c.clamp(1, 1023)).collect()
}

impl ControlPlaneApp for Warbler {
    fn on_period(&mut self, view: &RegisterView) -> AppOutput {
        let k = self.queues;
        if view.now < self.activation || view.flows.is_empty() {
            return AppOutput::default();
        }
        let flows = view.flows;
        let decision = match self.cluster(flows, k) {
            Ok(d) => d,
            Err(e) => {
                self.log.push(LogRecord::new(view.now.as_secs_f64(), "warbler").with("error", e.to_string()));
                return AppOutput::default();
            }
        };
        let mut labels = decision.chosen.labels.clone();
        let remapped = remap_outliers(&mut labels, flows, k, self.cfg.remap_factor);
        let weights = weights_by_flow_count(&labels, k);
        let mut writes = Vec::new();
        let mut moved = 0u32;
        for (f, &q) in flows.iter().zip(&labels) {
            if f.queue != q {
                writes.push(TableWrite::MapFlow { flow: f.flow, queue: q });
                moved += 1;
            }
        }
        for (q, &w) in weights.iter().enumerate() {
            if view.weights.get(q) != Some(&w) {
                writes.push(TableWrite::SetWeight { queue: q as u32, weight: w });
            }
        }
        let compute = match self.cfg.latency {
            Latency::Port => None,
            Latency::Fig12 => Some(self.cfg.fig12_latency(flows.len(), k)),
        };
        // An empty queue has no centroid; the traces show 0 for it.
        let centroids: Vec<f64> = decision.chosen.centroids.iter().map(|c| c.unwrap_or(0.0)).collect();
        let j_pre = decision.j_pre.unwrap_or(decision.chosen.objective);
        let mut rec = LogRecord::new(view.now.as_secs_f64(), "warbler")
            .with("flows", flows.len())
            .with("k", k)
            .with("j_pre", j_pre)
            .with("winner", decision.winner.map_or("kept", init_name))
            .with("j", decision.chosen.objective);
        for c in &decision.candidates {
            rec = rec.with(&format!("j_{}", init_name(c.init)), c.partition.objective);
        }
        self.log.push(
            rec.with("centroids", centroids.clone())
                .with("weights", weights.clone())
                .with("moved", moved)
                .with("remapped", remapped)
                .with("compute_ms", compute.map_or(0.0, |d| d.as_secs_f64() * 1e3))
                .with("flow_ids", flows.iter().map(|f| f.flow).collect::<Vec<_>>())
                .with("queues", labels.clone()),
        );
        self.last = Last { j_pre, j: decision.chosen.objective, centroids, moved };
        AppOutput { writes, compute }
    }

    fn series(&self) -> Vec<SeriesInfo> {
        let queues = self.queues;
        let mut s = vec![
            SeriesInfo::new("warbler.j_pre", "J of the current mapping", "SSRE", "clustering"),
            SeriesInfo::new("warbler.j", "J of the chosen partition", "SSRE", "clustering"),
            SeriesInfo::new("warbler.moved", "flows moved", "flows", "moves"),
        ];
        s.extend((0..queues).map(|q| {
            SeriesInfo::new(format!("warbler.centroid[{q}]"), format!("Q{q} centroid"), "cells", "centroids")
        }));
        s
    }

    fn sample_series(&self, out: &mut Vec<f64>) {
        let l = &self.last;
        out.extend([l.j_pre, l.j, f64::from(l.moved)]);
        out.extend(l.centroids.iter().copied());
    }

    fn drain_log(&mut self, out: &mut Vec<LogRecord>) {
        out.append(&mut self.log);
    }
}

fn init_name(i: Init) -> &'static str {
    match i {
        Init::Conservative => "conservative",
        Init::Far => "far",
        Init::Random => "random",
        Init::Optimal => "optimal",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn regs(backlogs: &[f64], queues: &[u32], bytes: &[u64]) -> Vec<FlowRegisters> {
        backlogs
            .iter()
            .zip(queues)
            .zip(bytes)
            .enumerate()
            .map(|(i, ((&b, &q), &by))| FlowRegisters {
                flow: i as u32,
                queue: q,
                backlog_cells: b as u64,
                backlog_wma_cells: b,
                packets_in_period: by / 1500,
                bytes_in_period: by,
            })
            .collect()
    }

    fn view<'a>(t: f64, flows: &'a [FlowRegisters], weights: &'a [u32]) -> RegisterView<'a> {
        RegisterView {
            now: SimTime::from_secs_f64(t),
            queues: weights.len() as u32,
            flows,
            queue_depth_cells: &[],
            weights,
            period: SimDuration::from_secs(1),
        }
    }

    fn maps(out: &AppOutput) -> Vec<(u32, u32)> {
        out.writes
            .iter()
            .filter_map(|w| match *w {
                TableWrite::MapFlow { flow, queue } => Some((flow, queue)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn mixed_queues_are_split_by_backlog_and_weighted_by_flow_count() {
        // §5.1: CUBIC flows hold ~2400 cells, Vegas ~50; each queue starts with one of each.
        let f = regs(&[2400.0, 2300.0, 50.0, 60.0], &[0, 1, 0, 1], &[6e6 as u64; 4]);
        let mut w = Warbler::new(WarblerConfig::default(), 1, 2);
        let out = w.on_period(&view(1.0, &f, &[1, 1]));
        // Lowest centroid → Q0: Vegas to Q0, CUBIC to Q1.
        assert_eq!(maps(&out), vec![(0, 1), (3, 0)]);
        let weights: Vec<TableWrite> =
            out.writes.iter().copied().filter(|w| matches!(w, TableWrite::SetWeight { .. })).collect();
        assert_eq!(
            weights,
            vec![
                TableWrite::SetWeight { queue: 0, weight: 2 },
                TableWrite::SetWeight { queue: 1, weight: 2 }
            ]
        );
        let mut log = Vec::new();
        w.drain_log(&mut log);
        assert_eq!(log[0].fields["winner"], "conservative");
        assert!(log[0].fields["j"].as_f64().unwrap() < log[0].fields["j_pre"].as_f64().unwrap());
    }

    #[test]
    fn the_optimum_is_a_logged_candidate_only_when_switched_on() {
        let f = regs(&[40.0, 152.0, 200.0, 1952.0, 2384.0, 2414.0], &[0; 6], &[6_000_000; 6]);
        let on = WarblerConfig { init_optimal: true, ..WarblerConfig::default() };
        for (cfg, logged) in [(WarblerConfig::default(), false), (on, true)] {
            let mut w = Warbler::new(cfg, 1, 3);
            w.on_period(&view(1.0, &f, &[1, 1, 1]));
            let mut log = Vec::new();
            w.drain_log(&mut log);
            let j = |name: &str| log[0].fields.get(name).and_then(|v| v.as_f64());
            assert_eq!(j("j_optimal").is_some(), logged);
            if let Some(opt) = j("j_optimal") {
                for other in ["j_conservative", "j_far", "j_random"] {
                    assert!(opt <= j(other).unwrap() + 1e-12, "{other}: {:?} < {opt}", j(other));
                }
            }
        }
    }

    #[test]
    fn the_optimum_alone_is_a_valid_choice_and_none_at_all_is_not() {
        let only = WarblerConfig {
            init_conservative: false,
            init_far: false,
            init_random: false,
            init_optimal: true,
            ..WarblerConfig::default()
        };
        let mut c = crate::params::Checker::new();
        only.check_more(&mut c);
        assert!(c.errors().is_empty(), "{:?}", c.errors());
        let none = WarblerConfig { init_optimal: false, ..only };
        let mut c = crate::params::Checker::new();
        none.check_more(&mut c);
        assert_eq!(c.errors().len(), 1);
        assert_eq!(
            (c.errors()[0].field.as_str(), c.errors()[0].allowed.as_str()),
            ("init_far", "at least one initialisation on")
        );
    }

    #[test]
    fn a_partition_found_again_moves_no_flow() {
        let f = regs(&[50.0, 2300.0, 60.0, 2400.0], &[0, 1, 0, 1], &[6_000_000; 4]);
        let mut w = Warbler::new(WarblerConfig::default(), 1, 2);
        assert!(maps(&w.on_period(&view(1.0, &f, &[2, 2]))).is_empty());
    }

    #[test]
    fn nothing_is_decided_before_activation() {
        let f = regs(&[2400.0, 50.0], &[0, 0], &[1_000_000; 2]);
        let cfg = WarblerConfig { activation_s: 30.0, ..WarblerConfig::default() };
        let mut w = Warbler::new(cfg, 1, 2);
        assert_eq!(w.on_period(&view(29.0, &f, &[1, 1])), AppOutput::default());
        assert!(!w.on_period(&view(30.0, &f, &[1, 1])).writes.is_empty());
    }

    #[test]
    fn weights_follow_the_flow_counts() {
        assert_eq!(weights_by_flow_count(&[0, 1, 1, 1, 2, 2], 4), vec![1, 3, 2, 1]);
    }

    #[test]
    fn a_flow_far_above_its_queue_mates_moves_up_a_queue() {
        let f = regs(&[100.0, 100.0, 100.0], &[0, 0, 0], &[1_000_000, 1_000_000, 9_000_000]);
        let mut labels = vec![0, 0, 0];
        assert_eq!(remap_outliers(&mut labels, &f, 2, 4.0), 1);
        assert_eq!(labels, vec![0, 0, 1]);
        let mut top = vec![1, 1, 1];
        assert_eq!(remap_outliers(&mut top, &f, 2, 4.0), 0, "the top queue has nowhere to go");
        assert_eq!(remap_outliers(&mut labels, &f, 2, 0.0), 0, "0 switches it off");
    }

    #[test]
    fn the_fig12_model_gives_the_papers_figure_at_ten_thousand_flows() {
        let c = WarblerConfig::default();
        let s = c.fig12_latency(10_000, 16).as_secs_f64();
        assert!((0.3..=0.31).contains(&s), "{s}");
        assert!(c.fig12_latency(6, 3).as_secs_f64() < 0.002);
    }

    #[test]
    fn integer_arithmetic_decides_like_floating_point_on_the_paper_setup() {
        let f = regs(&[2400.0, 2300.0, 50.0, 60.0, 900.0, 1000.0], &[0, 1, 2, 0, 1, 2], &[6_000_000; 6]);
        let fixed = WarblerConfig { arithmetic: Arithmetic::Fixed, ..WarblerConfig::default() };
        let a = Warbler::new(WarblerConfig::default(), 3, 3).on_period(&view(1.0, &f, &[1, 1, 1]));
        let b = Warbler::new(fixed, 3, 3).on_period(&view(1.0, &f, &[1, 1, 1]));
        assert_eq!(maps(&a), maps(&b));
    }

    #[test]
    fn the_series_have_one_value_each() {
        let w = Warbler::new(WarblerConfig::default(), 1, 3);
        let mut out = Vec::new();
        w.sample_series(&mut out);
        assert_eq!(out.len(), w.series().len());
    }
}
