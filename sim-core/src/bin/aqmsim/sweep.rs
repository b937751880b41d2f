//! `aqmsim sweep`: every (variant, seed, setting) of a preset, in parallel on all cores, one
//! tidy CSV row per run and mean ± std per variant. `--emit-jobs` prints one self-contained
//! command per run instead, for GNU parallel or a Slurm job array.

use crate::io::{self, Failure, Outcome};
use crate::{load, ScenarioArgs};
use clap::Args;
use rayon::prelude::*;
use sim_core::metrics::Summary;
use sim_core::scenario::{cost, preset_list, Scenario};
use sim_core::sim::guard::Guard;
use sim_core::sim::Simulation;

#[derive(Args)]
pub struct SweepArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Variants to run, comma-separated (default: all of the preset's).
    #[arg(long, value_delimiter = ',')]
    pub variants: Option<Vec<String>>,
    /// Seeds: A..B (inclusive) or a comma-separated list.
    #[arg(long, default_value = "1..5")]
    pub seeds: String,
    /// A setting to sweep: PATH=V1,V2,... (repeatable; every combination runs).
    #[arg(long = "vary", value_name = "PATH=V1,V2")]
    pub vary: Vec<String>,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_THREADS)))]
    pub jobs: Option<u16>,
    /// Write the tidy CSV here (default: standard output after the table).
    #[arg(long)]
    pub out: Option<String>,
    /// Print one `aqmsim run` command per run instead of running them.
    #[arg(long)]
    pub emit_jobs: bool,
}

/// Most seeds per variant and setting.
pub const MAX_SEEDS: u32 = 100_000;
/// Most runs in one sweep or comparison (variants × settings × seeds): each is a scenario
/// held in memory until it runs, so the product is checked before any is built.
pub const MAX_RUNS: usize = 100_000;
/// Most worker threads (`--jobs`).
pub const MAX_THREADS: u16 = 1024;

/// Parses `1..20` or `1,4,9`.
pub fn parse_seeds(s: &str) -> Result<Vec<u64>, Failure> {
    let shown = sim_core::params::echo(s);
    let bad = || {
        io::usage(format!("--seeds {shown}: expected A..B or a list like 1,2,3 (seeds 0 to {})", u64::MAX))
    };
    let range = || io::usage(format!("--seeds {shown}: from 1 to {MAX_SEEDS} seeds, ascending"));
    if let Some((a, b)) = s.split_once("..") {
        let (a, b): (u64, u64) = (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?);
        if b < a || b - a >= u64::from(MAX_SEEDS) {
            return Err(range());
        }
        return Ok((a..=b).collect());
    }
    if s.split(',').count() > MAX_SEEDS as usize {
        return Err(range());
    }
    s.split(',').map(|x| x.trim().parse::<u64>().map_err(|_| bad())).collect()
}

/// Refuses more than [`MAX_RUNS`] runs, the product of `counts`, before anything is built.
pub fn check_run_count(counts: &[usize], what: &str) -> Result<usize, Failure> {
    let total = counts.iter().try_fold(1usize, |acc, &c| acc.checked_mul(c));
    match total {
        Some(n) if n <= MAX_RUNS => Ok(n),
        _ => {
            let factors: Vec<String> = counts.iter().map(usize::to_string).collect();
            let shown = total.map_or_else(|| "more than 2^64".to_string(), |n| n.to_string());
            Err(io::usage(format!(
                "{} = {shown} runs ({what}); at most {MAX_RUNS} in one command",
                factors.join(" × ")
            )))
        }
    }
}

/// Each `--vary PATH=V1,V2` as (PATH, values).
pub fn parse_vary(vary: &[String]) -> Result<Vec<(String, Vec<String>)>, Failure> {
    vary.iter()
        .map(|v| {
            let (path, values) = v.split_once('=').ok_or_else(|| {
                io::usage(format!("--vary {}: expected PATH=V1,V2", sim_core::params::echo(v)))
            })?;
            Ok((path.to_string(), values.split(',').map(str::to_string).collect()))
        })
        .collect()
}

/// One run's headline figures, by name (None where undefined).
pub fn figures(s: &Summary) -> Vec<(&'static str, Option<f64>)> {
    let flows = s.flows.len().max(1) as f64;
    let rtts: Vec<f64> = s.flows.iter().filter_map(|f| f.srtt_ms_mean).collect();
    vec![
        ("throughput_mbps", Some(s.throughput.mean_bps / 1e6)),
        ("utilisation", Some(s.throughput.utilisation)),
        ("jfi", Some(s.jfi)),
        ("delay_mean_ms", s.delay_mean_s.map(|d| d * 1e3)),
        ("jitter_ms", s.jitter_s.map(|d| d * 1e3)),
        ("srtt_mean_ms", (!rtts.is_empty()).then(|| rtts.iter().sum::<f64>() / rtts.len() as f64)),
        ("buffer_cells", s.buffer_cells_mean),
        ("queue_mean_packets", s.queue.mean_packets),
        ("queue_std_packets", s.queue.std_packets),
        ("queue_p99_packets", s.queue.p99_packets),
        ("queue_empty_pct", s.queue.empty_pct),
        ("cv_pct", s.throughput.cv_pct),
        ("cv_1s_pct", s.throughput.cv_1s_pct),
        ("drops", Some(s.drops.total as f64)),
        ("drops_all", Some(s.drops.total_all as f64)),
        ("median_interdrop_ms", s.drops.median_interval_ms),
        (
            "retransmissions_per_flow",
            Some(s.flows.iter().map(|f| f.retransmissions as f64).sum::<f64>() / flows),
        ),
        ("timeouts", Some(s.flows.iter().map(|f| f.timeouts as f64).sum())),
        ("fast_recoveries", Some(s.flows.iter().map(|f| f.fast_recoveries as f64).sum())),
    ]
}

/// One run of a sweep.
pub struct Job {
    pub variant: String,
    pub seed: u64,
    pub settings: Vec<(String, String)>,
    pub scenario: Scenario,
}

/// Every (variant, setting combination, seed), validated before anything runs; their
/// number is checked against [`MAX_RUNS`] before any is built.
pub fn jobs(
    base: &ScenarioArgs,
    variants: &[String],
    seeds: &[u64],
    vary: &[String],
) -> Result<Vec<Job>, Failure> {
    let vary = parse_vary(vary)?;
    let mut counts = vec![variants.len()];
    counts.extend(vary.iter().map(|(_, values)| values.len()));
    counts.push(seeds.len());
    check_run_count(&counts, "variants × each --vary's values × seeds")?;
    let mut combos: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for (path, values) in &vary {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                values.iter().map(move |x| {
                    let mut c = c.clone();
                    c.push((path.clone(), x.clone()));
                    c
                })
            })
            .collect();
    }
    let mut out = Vec::new();
    for variant in variants {
        for settings in &combos {
            for &seed in seeds {
                let mut args = base.clone();
                args.sets.extend(settings.iter().cloned());
                args.seed = Some(seed);
                let scenario = load::load(&args, Some(variant))
                    .map_err(|e| format!("{}, seed {seed}: {e}", sim_core::params::echo(variant)))?;
                out.push(Job { variant: variant.clone(), seed, settings: settings.clone(), scenario });
            }
        }
    }
    Ok(out)
}

/// Runs `jobs` on `threads` threads (all cores by default); results in job order. Unless
/// `force`, a run past twice its estimate stops the sweep (`sim::guard`).
pub fn run_all<T: Send>(
    jobs: &[Job],
    threads: Option<usize>,
    force: bool,
    f: impl Fn(&Simulation) -> T + Sync,
) -> Result<Vec<T>, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| format!("thread pool: {e}"))?;
    pool.install(|| {
        jobs.par_iter()
            .map(|j| {
                let mut sim = Simulation::new(&j.scenario)
                    .map_err(|e| e.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("; "))?;
                // The pool already keeps the cores busy: a big run's two sides take turns.
                sim.set_parallel(jobs.len() < 2);
                // Many runs share the process: only their events can be told apart.
                let end = sim.end();
                if force {
                    sim.step_until(end);
                } else {
                    Guard::new(cost::estimate(&j.scenario))
                        .step_until(&mut sim, end, &|| None, 0.0)
                        .map_err(|e| {
                            format!("{}, seed {}: {e}; run anyway with --force", j.variant, j.seed)
                        })?;
                }
                Ok(f(&sim))
            })
            .collect()
    })
}

pub fn variants_of(preset: &str, asked: &Option<Vec<String>>) -> Result<Vec<String>, String> {
    let info = preset_list()
        .into_iter()
        .find(|p| p.name == preset)
        .ok_or_else(|| format!("unknown preset '{}'", sim_core::params::echo(preset)))?;
    Ok(match asked {
        Some(v) => v.clone(),
        None => info.variants.iter().map(|v| v.to_string()).collect(),
    })
}

fn mean_std(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n.max(1.0);
    let v = if xs.len() > 1 { xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0) } else { 0.0 };
    (m, v.sqrt())
}

/// Everything `sweep` checks before it starts: the preset, the runs and the output file.
pub fn plan(a: &SweepArgs) -> Result<(String, Vec<Job>), Failure> {
    let preset = a.scenario.preset.as_deref().ok_or_else(|| io::usage("sweep needs --preset NAME"))?;
    let variants = variants_of(preset, &a.variants)?;
    let seeds = parse_seeds(&a.seeds)?;
    let jobs = jobs(&a.scenario, &variants, &seeds, &a.vary)?;
    if let (Some(path), false) = (&a.out, a.emit_jobs) {
        io::prepare_file(std::path::Path::new(path))?;
    }
    Ok((preset.to_string(), jobs))
}

pub fn sweep(a: &SweepArgs) -> Outcome {
    let (preset, jobs) = plan(a)?;
    if a.emit_jobs {
        for j in &jobs {
            let mut cmd =
                format!("aqmsim run --preset {preset} --variant {} --seed {} -q", j.variant, j.seed);
            for (k, v) in a.scenario.sets.iter().chain(&j.settings) {
                // Quoted for a POSIX shell: a ' in a value ends the quote, is escaped, resumes it.
                cmd.push_str(&format!(" --set '{}'", format!("{k}={v}").replace('\'', "'\\''")));
            }
            cmd.push_str(&format!(" --out runs/{}-{}-{}", j.variant, j.seed, j.settings.len()));
            io::say(&cmd)?;
        }
        return Ok(());
    }
    let figs = run_all(&jobs, a.jobs.map(usize::from), a.scenario.force, |sim| figures(&sim.summary()))?;
    let names: Vec<&str> = figs.first().map(|f| f.iter().map(|(n, _)| *n).collect()).unwrap_or_default();
    let mut csv = format!("preset,variant,seed,settings,{}\n", names.join(","));
    for (j, f) in jobs.iter().zip(&figs) {
        let settings: Vec<String> = j.settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let vals: Vec<String> =
            f.iter().map(|(_, v)| v.map(|x| format!("{x:.6}")).unwrap_or_default()).collect();
        csv.push_str(&format!(
            "{preset},{},{},{},{}\n",
            j.variant,
            j.seed,
            settings.join(";"),
            vals.join(",")
        ));
    }
    // Mean ± std per variant and setting combination.
    let mut table = format!(
        "{:<28} {:>6} {:>18} {:>14} {:>16} {:>16}\n",
        "variant", "runs", "throughput Mb/s", "JFI", "drops", "mean srtt ms"
    );
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, j) in jobs.iter().enumerate() {
        let key = format!(
            "{}{}",
            j.variant,
            j.settings.iter().map(|(k, v)| format!(" {k}={v}")).collect::<String>()
        );
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    let col = |idx: &[usize], name: &str| -> String {
        let xs: Vec<f64> = idx
            .iter()
            .filter_map(|&i| figs[i].iter().find(|(n, _)| *n == name).and_then(|(_, v)| *v))
            .collect();
        if xs.is_empty() {
            return "-".into();
        }
        let (m, s) = mean_std(&xs);
        format!("{m:.3} ± {s:.3}")
    };
    for (key, idx) in &groups {
        table.push_str(&format!(
            "{key:<28} {:>6} {:>18} {:>14} {:>16} {:>16}\n",
            idx.len(),
            col(idx, "throughput_mbps"),
            col(idx, "jfi"),
            col(idx, "drops"),
            col(idx, "srtt_mean_ms")
        ));
    }
    io::print(&table)?;
    match &a.out {
        Some(path) => {
            io::write_atomic(std::path::Path::new(path), csv.as_bytes())?;
            io::say(&format!("wrote {} rows to {path}", jobs.len()))
        }
        None => io::print(&csv),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_parse_as_ranges_or_lists() {
        assert_eq!(parse_seeds("1..3").unwrap(), vec![1, 2, 3]);
        assert_eq!(parse_seeds("4,9").unwrap(), vec![4, 9]);
        assert!(parse_seeds("3..1").is_err());
        assert!(parse_seeds("x").is_err());
        assert!(parse_seeds("1..100000").is_ok());
        assert!(parse_seeds("1..100001").is_err());
        assert!(parse_seeds("-1..3").is_err());
        assert!(parse_seeds(&"7,".repeat(100_001)).is_err());
    }
}
