//! `aqmsim compare`: a preset's variants side by side. One seed: the RED study's Table 10
//! with every variant's traces. Several seeds: mean ± std per variant, and each variant
//! against the first with its difference and Welch's two-tailed t-test.

use crate::io::{self, Failure, Outcome};
use crate::run::{simulate, write_results};
use crate::sweep::{check_run_count, jobs, run_all, Job, MAX_SEEDS, MAX_THREADS};
use crate::{load, tables, ScenarioArgs};
use clap::Args;
use sim_core::metrics::ttest::welch;
use sim_core::metrics::Summary;
use sim_core::scenario::Scenario;
use sim_core::scenario::{preset_list, published};
use std::fmt::Write as _;

#[derive(Args)]
pub struct CompareArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Variants to compare, comma-separated; the first is the reference (default: the
    /// preset's, without the -nic ones).
    #[arg(long, value_delimiter = ',')]
    pub variants: Option<Vec<String>>,
    /// How many seeds per variant, from --seed on (default: the preset's, 20 for
    /// dqn-dumbbell, else 1).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_SEEDS)))]
    pub seeds: Option<u32>,
    /// Threads for several seeds (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_THREADS)))]
    pub jobs: Option<u16>,
    /// With one seed, write every variant's traces and summary.json here.
    #[arg(long)]
    pub out: Option<String>,
    #[arg(long, short)]
    pub quiet: bool,
}

/// A comparison checked and ready: every scenario loaded and the output prepared.
pub enum Plan {
    /// One seed: each variant's scenario, run in turn with its traces.
    OneSeed { scenarios: Vec<Scenario>, dir: Option<std::path::PathBuf> },
    /// Several seeds: every (variant, seed) run, on all cores.
    Seeds { seeds: u32, first: u64, jobs: Vec<Job> },
}

/// Everything `compare` checks before it starts; returns the preset, the variants and
/// the plan.
pub fn plan(a: &CompareArgs) -> Result<(String, Vec<String>, Plan), Failure> {
    let name = a.scenario.preset.as_deref().ok_or_else(|| io::usage("compare needs --preset NAME"))?;
    let info = preset_list()
        .into_iter()
        .find(|p| p.name == name)
        .ok_or(format!("unknown preset '{}'", sim_core::params::echo(name)))?;
    let variants = match &a.variants {
        Some(v) => v.clone(),
        None => info.compared.iter().map(|v| v.to_string()).collect(),
    };
    if variants.is_empty() {
        return Err(io::usage("--variants: name at least one variant"));
    }
    let seeds = a.seeds.unwrap_or(info.seeds).max(1);
    check_run_count(&[variants.len(), seeds as usize], "variants × seeds")?;
    let plan = if seeds > 1 {
        let first = a.scenario.seed.unwrap_or(1);
        let last = first.checked_add(u64::from(seeds) - 1).ok_or_else(|| {
            io::usage(format!("--seed {first} with --seeds {seeds}: the last seed would pass {}", u64::MAX))
        })?;
        let seed_list: Vec<u64> = (first..=last).collect();
        Plan::Seeds { seeds, first, jobs: jobs(&a.scenario, &variants, &seed_list, &[])? }
    } else {
        // Every variant's scenario is checked before the first runs.
        let scenarios =
            variants.iter().map(|v| load::load(&a.scenario, Some(v))).collect::<Result<Vec<_>, _>>()?;
        let dir = match a.out.as_deref() {
            Some(d) => Some(crate::run::prepare_out(d, &variants)?),
            None => None,
        };
        Plan::OneSeed { scenarios, dir }
    };
    Ok((name.to_string(), variants, plan))
}

pub fn compare(a: &CompareArgs) -> Outcome {
    let (name, variants, plan) = plan(a)?;
    let name = name.as_str();
    let (scenarios, dir) = match plan {
        Plan::Seeds { seeds, first, jobs } => return multi_seed(a, name, &variants, seeds, first, &jobs),
        Plan::OneSeed { scenarios, dir } => (scenarios, dir),
    };
    let mut runs = Vec::new();
    let mut all = serde_json::Map::new();
    for (v, sc) in variants.iter().zip(scenarios) {
        let (sim, _) = simulate(&sc, v, a.quiet, dir.as_deref(), true, a.scenario.force, None)?;
        let summary = sim.summary();
        if let Some(dir) = &dir {
            write_results(dir, v, &sim, &summary)?;
        }
        all.insert(v.clone(), serde_json::to_value(&summary).map_err(|e| e.to_string())?);
        let jfi_before_after = activation(&sc).map(|on| {
            (
                sim.recorder().jfi_between(sc.warmup_s, on),
                sim.recorder().jfi_between(on + 10.0, sc.duration_s),
            )
        });
        runs.push(tables::FairnessRun { variant: v.clone(), summary, jfi_before_after });
    }
    if name == "red-study" {
        let runs: Vec<(String, Summary)> = runs.into_iter().map(|r| (r.variant, r.summary)).collect();
        io::print(&tables::compare_table(&runs))?;
    } else {
        io::print(&tables::fairness_compare_table(name, &runs))?;
    }
    if let Some(dir) = &dir {
        let body = serde_json::to_string_pretty(&all).map_err(|e| e.to_string())?;
        io::write_atomic(&dir.join("summary.json"), body.as_bytes())?;
        io::say(&format!("wrote the traces of each variant and summary.json to {}", dir.display()))?;
    }
    Ok(())
}

/// When a control plane switches on after the warm-up with at least 10 s of run left (the
/// disc's own markers: a timed change is not a switch-on).
fn activation(sc: &Scenario) -> Option<f64> {
    let disc = sc.bottleneck().queue.get().markers();
    disc.into_iter().map(|(t, _)| t).find(|&t| t > sc.warmup_s && t + 10.0 < sc.duration_s)
}

/// One run as the comparison needs it: the summary, and each 100 ms sample of the first
/// flow's goodput (Mbit/s) and smoothed RTT (ms) after the warm-up.
struct Run {
    summary: Summary,
    goodput: Vec<f64>,
    rtt: Vec<f64>,
}

fn mean_rtt(s: &Summary) -> f64 {
    let r: Vec<f64> = s.flows.iter().filter_map(|f| f.srtt_ms_mean).collect();
    r.iter().sum::<f64>() / r.len().max(1) as f64
}

fn multi_seed(
    a: &CompareArgs,
    name: &str,
    variants: &[String],
    seeds: u32,
    first: u64,
    jobs: &[Job],
) -> Outcome {
    if !a.quiet {
        io::note(&format!("running {} variants × {seeds} seeds on all cores...\n", variants.len()));
    }
    let runs = run_all(jobs, a.jobs.map(usize::from), a.scenario.force, |sim| {
        let warm = sim.scenario().warmup_s;
        let samples: Vec<_> = sim.recorder().samples.kept.iter().filter(|s| s.t_s > warm).collect();
        Run {
            summary: sim.summary(),
            goodput: samples
                .iter()
                .map(|s| s.flow_goodput_bps.first().copied().unwrap_or(0.0) / 1e6)
                .collect(),
            rtt: samples
                .iter()
                .filter_map(|s| s.flow_srtt_ms.first().copied())
                .filter(|&r| r > 0.0)
                .collect(),
        }
    })?;
    let per_variant: Vec<(&String, Vec<&Run>)> = variants
        .iter()
        .map(|v| (v, jobs.iter().zip(&runs).filter(|(j, _)| &j.variant == v).map(|(_, r)| r).collect()))
        .collect();
    let stat =
        |rs: &[&Run], f: &dyn Fn(&Summary) -> f64| -> Vec<f64> { rs.iter().map(|r| f(&r.summary)).collect() };
    let thr = |s: &Summary| s.throughput.mean_bps / 1e6;
    let drops = |s: &Summary| s.drops.total_all as f64;
    let ms = |xs: &[f64]| {
        let n = xs.len() as f64;
        let m = xs.iter().sum::<f64>() / n;
        let sd = (xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
        format!("{m:.4} ± {sd:.4}")
    };
    let mut o = String::new();
    let _ = writeln!(o, "{name}: {} seeds from {first}, mean ± std over seeds", seeds);
    let _ = writeln!(
        o,
        "{:<12} {:>22} {:>22} {:>20} {:>10}",
        "variant", "throughput (Mbit/s)", "mean RTT (ms)", "losses", "paper"
    );
    for (v, rs) in &per_variant {
        let paper = published::dqn_losses(v)
            .filter(|_| name == "dqn-dumbbell")
            .map_or("-".into(), |x| format!("≈{x:.0}"));
        let _ = writeln!(
            o,
            "{v:<12} {:>22} {:>22} {:>20} {:>10}",
            ms(&stat(rs, &thr)),
            ms(&stat(rs, &mean_rtt)),
            ms(&stat(rs, &drops)),
            paper
        );
    }
    let (refv, refr) = &per_variant[0];
    let _ = writeln!(
        o,
        "\n{refv} against each: difference and two-tailed Welch p, over per-seed means (n = {seeds} each) and, as the paper appears to test, over every 100 ms sample pooled across seeds"
    );
    let _ = writeln!(
        o,
        "{:<12} {:>12} {:>10} {:>12} {:>10} {:>10} {:>12} {:>10} {:>12} {:>10}",
        "vs",
        "thr diff %",
        "p seeds",
        "p samples",
        "paper %",
        "paper p",
        "RTT diff %",
        "p seeds",
        "p samples",
        "paper %"
    );
    let pooled = |rs: &[&Run], f: fn(&Run) -> &Vec<f64>| -> Vec<f64> {
        rs.iter().flat_map(|r| f(r).iter().copied()).collect()
    };
    let fmt_p = |p: Option<f64>| {
        p.map_or("-".into(), |p| if p < 1e-3 { format!("{p:.1e}") } else { format!("{p:.3}") })
    };
    for (v, rs) in &per_variant[1..] {
        let t = welch(&stat(refr, &thr), &stat(rs, &thr));
        let tp = welch(&pooled(refr, |r| &r.goodput), &pooled(rs, |r| &r.goodput));
        let r = welch(&stat(refr, &mean_rtt), &stat(rs, &mean_rtt));
        let rp = welch(&pooled(refr, |r| &r.rtt), &pooled(rs, |r| &r.rtt));
        let paper = published::DQN_VERSUS.iter().find(|p| name == "dqn-dumbbell" && p.baseline == v.as_str());
        let _ = writeln!(
            o,
            "{v:<12} {:>12} {:>10} {:>12} {:>10} {:>10} {:>12} {:>10} {:>12} {:>10}",
            t.and_then(|x| x.diff_pct).map_or("-".into(), |d| format!("{d:+.2}")),
            fmt_p(t.map(|x| x.p_two_tailed)),
            fmt_p(tp.map(|x| x.p_two_tailed)),
            paper.map_or("-".into(), |p| format!("{:+.2}", p.throughput_pct)),
            paper.map_or("-".into(), |p| format!("{:.3}", p.throughput_p)),
            r.and_then(|x| x.diff_pct).map_or("-".into(), |d| format!("{d:+.2}")),
            fmt_p(r.map(|x| x.p_two_tailed)),
            fmt_p(rp.map(|x| x.p_two_tailed)),
            paper.map_or("-".into(), |p| format!("{:+.2}", p.rtt_pct)),
        );
    }
    let _ = writeln!(
        o,
        "(seeds differ where the scenario draws: start-time jitter, BBR's phases, Warbler's random start)"
    );
    io::print(&o)
}
