//! `aqmsim cluster` (Warbler's clustering on your numbers) and `aqmsim bench-kmeans` (its
//! time over flows × queues, the paper's Fig. 12).

use crate::io::{self, Failure, Outcome};
use clap::{Args, ValueEnum};
use serde_json::{json, Value};
use sim_core::rng::{SimRng, StreamId};
use sim_core::switch::MAX_QUEUES;
use sim_core::warbler::{
    decide, decide_fixed, BacklogSet, Decision, Init, KmeansConfig, Objective, Partition, MAX_BACKLOG_CELLS,
};
use std::time::Instant;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ObjectiveArg {
    Ssre,
    Sse,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum InitArg {
    Conservative,
    Far,
    Random,
    /// The exact optimum (dynamic programming), a fourth candidate beside the paper's three.
    Optimal,
}

impl InitArg {
    fn init(self) -> Init {
        match self {
            InitArg::Conservative => Init::Conservative,
            InitArg::Far => Init::Far,
            InitArg::Random => Init::Random,
            InitArg::Optimal => Init::Optimal,
        }
    }
}

/// `--init` given or the paper's three.
fn inits(list: &Option<Vec<InitArg>>) -> Vec<Init> {
    match list {
        Some(list) => list.iter().map(|i| i.init()).collect(),
        None => vec![Init::Conservative, Init::Far, Init::Random],
    }
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq)]
pub enum Arith {
    Float,
    Fixed,
}

#[derive(Args)]
pub struct ClusterArgs {
    /// A JSON array of backlogs in cells, from a file or `-` for standard input.
    pub file: String,
    /// Clusters: the port's queues (1 to 32).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_QUEUES)))]
    pub k: u32,
    #[arg(long, value_enum, default_value = "ssre")]
    pub objective: ObjectiveArg,
    /// Initialisations to run, comma-separated (default: the paper's three; `optimal` adds
    /// the exact optimum as a candidate).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub init: Option<Vec<InitArg>>,
    #[arg(long, value_enum, default_value = "float")]
    pub arith: Arith,
    /// The current flow → queue mapping, a JSON array (gives J_pre and the conservative start).
    #[arg(long)]
    pub current: Option<String>,
    /// Seed of the random initialisation.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_iters: u32,
    /// One JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

fn config(a: &ClusterArgs) -> KmeansConfig {
    let inits = inits(&a.init);
    let objective = match a.objective {
        ObjectiveArg::Ssre => Objective::Ssre,
        ObjectiveArg::Sse => Objective::Sse,
    };
    KmeansConfig { k: a.k as usize, objective, inits, max_iters: a.max_iters }
}

/// A JSON array of numbers, naming the first entry that is not one.
fn numbers(text: &str, what: &str) -> Result<Vec<f64>, String> {
    // Straight into f64s first: a 16 MiB array costs 8 bytes an entry, not a JSON tree.
    if let Ok(v) = serde_json::from_str::<Vec<f64>>(text) {
        return Ok(v);
    }
    let v: Value = serde_json::from_str(text).map_err(|e| format!("{what}: not valid JSON ({e})"))?;
    let arr = v.as_array().ok_or_else(|| format!("{what}: expected a JSON array of numbers"))?;
    arr.iter()
        .enumerate()
        .map(|(i, x)| {
            x.as_f64().ok_or_else(|| {
                format!("{what}[{i}] = {}: not a number", sim_core::params::echo(&x.to_string()))
            })
        })
        .collect()
}

/// The current mapping: one queue index per flow, each a whole number from 0 to k − 1.
pub fn queue_labels(text: &str, k: u32) -> Result<Vec<u32>, Failure> {
    let v = numbers(text, "--current").map_err(io::usage)?;
    v.iter()
        .enumerate()
        .map(|(i, &q)| {
            if q.fract() == 0.0 && (0.0..f64::from(k)).contains(&q) {
                Ok(q as u32)
            } else {
                Err(io::usage(format!(
                    "--current[{i}] = {}: queues are whole numbers from 0 to {} (--k {k})",
                    sim_core::params::fmt_num(q),
                    k - 1
                )))
            }
        })
        .collect()
}

/// The backlogs: finite cells from 0 to [`MAX_BACKLOG_CELLS`].
pub fn backlogs(text: &str) -> Result<Vec<f64>, String> {
    let x = numbers(text, "backlogs")?;
    if let Some((i, v)) = x.iter().enumerate().find(|(_, v)| !(0.0..=MAX_BACKLOG_CELLS).contains(*v)) {
        return Err(format!(
            "backlogs[{i}] = {}: backlogs are cells from 0 to {}",
            sim_core::params::fmt_num(*v),
            sim_core::params::fmt_num(MAX_BACKLOG_CELLS)
        ));
    }
    Ok(x)
}

fn run_decision(a: &ClusterArgs, x: &[f64], current: Option<&[u32]>) -> Result<Decision, String> {
    let cfg = config(a);
    let mut rng = SimRng::new(a.seed, StreamId::Other(0));
    match a.arith {
        Arith::Float => decide(x, current, &cfg, &mut rng).map_err(|e| e.to_string()),
        Arith::Fixed => {
            if let Some((i, v)) = x
                .iter()
                .enumerate()
                .find(|(_, v)| !(v.fract() == 0.0 && **v >= 0.0 && **v <= f64::from(u32::MAX)))
            {
                return Err(format!(
                    "backlogs[{i}] = {}: integer arithmetic needs whole cells 0 to {}",
                    sim_core::params::fmt_num(*v),
                    u32::MAX
                ));
            }
            let cells: Vec<u32> = x.iter().map(|v| *v as u32).collect();
            decide_fixed(&cells, current, &cfg, &mut rng).map_err(|e| e.to_string())
        }
    }
}

fn partition_json(init: &str, p: &Partition) -> Value {
    json!({ "init": init, "labels": p.labels, "centroids": p.centroids, "objective": p.objective })
}

fn init_name(i: Init) -> &'static str {
    match i {
        Init::Conservative => "conservative",
        Init::Far => "far",
        Init::Random => "random",
        Init::Optimal => "optimal",
    }
}

/// "Q0 {40} · Q1 {152, 200}" for people.
fn groups(x: &[f64], p: &Partition) -> String {
    p.members(x)
        .iter()
        .enumerate()
        .map(|(q, m)| {
            let members: Vec<String> = m.iter().map(|v| format!("{v}")).collect();
            format!("Q{q} {{{}}}", members.join(", "))
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The clustering's report (the table, or one JSON object with `--json`), every input
/// checked first.
pub fn report(a: &ClusterArgs) -> Result<String, Failure> {
    if a.current.is_none()
        && a.init.as_ref().is_some_and(|l| l.iter().all(|i| matches!(i, InitArg::Conservative)))
    {
        return Err(io::usage(
            "--init conservative starts from the current mapping: give --current, or add far, random or optimal",
        ));
    }
    let x = backlogs(&io::read_text(&a.file)?)?;
    let current: Option<Vec<u32>> = match &a.current {
        Some(c) => {
            let text = if c.trim_start().starts_with('[') { c.clone() } else { io::read_text(c)? };
            Some(queue_labels(&text, a.k)?)
        }
        None => None,
    };
    let d = run_decision(a, &x, current.as_deref())?;
    let objective = match a.objective {
        ObjectiveArg::Ssre => "ssre",
        ObjectiveArg::Sse => "sse",
    };
    let winner = d.winner.map_or("current", init_name);
    if a.json {
        let v = json!({
            "objective": objective,
            "k": a.k,
            "j_pre": d.j_pre,
            "candidates": d.candidates.iter().map(|c| partition_json(init_name(c.init), &c.partition)).collect::<Vec<_>>(),
            "winner": partition_json(winner, &d.chosen),
        });
        return Ok(v.to_string());
    }
    let mut o = format!("{} flows into {} queues, {objective}\n", x.len(), a.k);
    for c in &d.candidates {
        o.push_str(&format!(
            "  {:<12} J = {:<12.6} {} ({} iterations)\n",
            init_name(c.init),
            c.partition.objective,
            groups(&x, &c.partition),
            c.partition.iterations
        ));
    }
    if let Some(j) = d.j_pre {
        o.push_str(&format!("  J_pre (current mapping) = {j:.6}\n"));
    }
    o.push_str(&format!("  winner: {winner}, J = {:.6}: {}", d.chosen.objective, groups(&x, &d.chosen)));
    Ok(o)
}

pub fn cluster(a: &ClusterArgs) -> Outcome {
    io::say(&report(a)?)
}

#[derive(Args)]
pub struct BenchArgs {
    /// One JSON array of {"n", "k", "ms"} instead of the table.
    #[arg(long)]
    pub json: bool,
    #[arg(long, value_enum, default_value = "float")]
    pub arith: Arith,
    /// Candidates to time, comma-separated (default: the paper's three).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub init: Option<Vec<InitArg>>,
}

/// Median wall time of `reps` clusterings of `n` flows into `k` queues with `inits`, ms.
fn time_one(n: usize, k: usize, arith: Arith, inits: &[Init], reps: usize) -> f64 {
    let mut rng = SimRng::new(7, StreamId::Other(1));
    let set = BacklogSet::Classes { classes: k as u32, max_cells: 6000, jitter: 0.2 };
    let cells = set.sample(n, &mut rng);
    let x: Vec<f64> = cells.iter().map(|&c| f64::from(c)).collect();
    let current: Vec<u32> = (0..n as u32).map(|i| i % k as u32).collect();
    let cfg = KmeansConfig { k, inits: inits.to_vec(), ..KmeansConfig::default() };
    let mut times: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            let _ = match arith {
                Arith::Float => decide(&x, Some(&current), &cfg, &mut rng),
                Arith::Fixed => decide_fixed(&cells, Some(&current), &cfg, &mut rng),
            };
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

pub fn bench(a: &BenchArgs) -> Outcome {
    let ns = [1_000, 5_000, 10_000, 50_000, 100_000];
    let ks = [2, 4, 8, 16, 32];
    let list = inits(&a.init);
    let mut rows = Vec::new();
    for &n in &ns {
        for &k in &ks {
            let reps = if n >= 50_000 { 3 } else { 9 };
            rows.push((n, k, time_one(n, k, a.arith, &list, reps)));
        }
    }
    if a.json {
        let v: Vec<Value> = rows.iter().map(|&(n, k, ms)| json!({ "n": n, "k": k, "ms": ms })).collect();
        return io::say(&Value::Array(v).to_string());
    }
    let names: Vec<&str> = list.iter().map(|&i| init_name(i)).collect();
    let mut o = format!(
        "K-means time (ms, median; {}; paper Fig. 12: 300-700 ms at n = 10k, K >= 16 on the switch CPU, M = 3)\n",
        names.join(", ")
    );
    o.push_str(&format!("{:>8}", "n \\ K"));
    for k in ks {
        o.push_str(&format!(" {k:>9}"));
    }
    o.push('\n');
    for &n in &ns {
        o.push_str(&format!("{n:>8}"));
        for &(_, _, ms) in rows.iter().filter(|r| r.0 == n) {
            o.push_str(&format!(" {ms:>9.2}"));
        }
        o.push('\n');
    }
    io::print(&o)
}
