//! `aqmsim`: run a scenario or a paper's preset from the command line.

mod args;
mod tables;

use sim_core::metrics::{export, Recorder, Summary};
use sim_core::scenario::{patch, preset, preset_list, Scenario};
use sim_core::sim::Simulation;
use sim_core::time::SimTime;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = match args::parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("error: {e}\n");
            }
            eprintln!("{}", args::USAGE);
            return if e.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(2) };
        }
    };
    let result = match args.command.as_str() {
        "run" => run(&args),
        "compare" => compare(&args),
        "presets" => {
            list_presets();
            Ok(())
        }
        "scenario" => load(&args, args.variant.as_deref()).map(|s| println!("{}", s.to_json())),
        "validate" => load(&args, None).map(|_| println!("scenario is valid")),
        other => Err(format!("unknown command '{other}'\n\n{}", args::USAGE)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn list_presets() {
    for p in preset_list() {
        println!("{}  {}\n  variants: {}\n", p.name, p.title, p.variants.join(", "));
    }
}

/// The scenario from a file or a preset, with --seed and --set applied, validated.
fn load(a: &args::Args, variant: Option<&str>) -> Result<Scenario, String> {
    let base = match (&a.file, &a.preset) {
        (Some(f), None) => {
            let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
            Scenario::from_json(&text)?
        }
        (None, Some(p)) => preset(p, variant)?,
        _ => return Err("give either a scenario file or --preset NAME".into()),
    };
    let mut sc = patch::apply(&base, &a.sets).map_err(|e| format!("--set: {e}"))?;
    if let Some(seed) = a.seed {
        sc.seed = seed;
    }
    sc.validate().map_err(|errs| {
        let lines: Vec<String> = errs.iter().map(|e| format!("  {e}")).collect();
        format!("the scenario has {} invalid field(s):\n{}", errs.len(), lines.join("\n"))
    })?;
    Ok(sc)
}

/// Runs to the end, drawing a progress bar on stderr when it is a terminal.
fn simulate(sc: &Scenario, label: &str, quiet: bool) -> Simulation {
    let mut sim = Simulation::new(sc).expect("validated scenario");
    let show = !quiet && std::io::stderr().is_terminal();
    let end = sim.end().as_nanos();
    for pct in 1..=100u64 {
        sim.step_until(SimTime(end * pct / 100));
        if show {
            let bar = "#".repeat((pct / 4) as usize);
            eprint!("\r{label:<14} [{bar:<25}] {pct:>3}%  t = {:.1} s", sim.now().as_secs_f64());
            let _ = std::io::stderr().flush();
        }
    }
    if show {
        eprintln!();
    }
    sim
}

/// Writes the study's three traces and this run's summary into `dir`.
fn write_all(dir: &Path, alg: &str, rec: &Recorder, summary: &Summary) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files = vec![
        (format!("{alg}_queue.csv"), export::queue_csv(&rec.samples, &rec.series_info)),
        (format!("{alg}_drops.csv"), export::drops_csv(&rec.drops)),
        (format!("{alg}_throughput.csv"), export::throughput_csv(&rec.samples)),
        (format!("{alg}_flows.csv"), export::flows_csv(&rec.samples)),
        (format!("{alg}_backlog_kde.csv"), export::backlog_kde_csv(rec)),
        (format!("{alg}_delay_kde.csv"), export::delay_kde_csv(rec)),
        (format!("{alg}_summary.json"), serde_json::to_string_pretty(summary).map_err(|e| e.to_string())?),
    ];
    if let Some(series) = export::series_csv(&rec.samples, &rec.series_info) {
        files.push((format!("{alg}_series.csv"), series));
    }
    for (source, body) in export::log_csvs(&rec.log) {
        files.push((format!("{alg}_{source}.csv"), body));
    }
    for (name, body) in files {
        let p = dir.join(name);
        std::fs::write(&p, body).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(())
}

/// File prefix: the preset variant, else the queue disc's name.
fn alg_name(sc: &Scenario, variant: Option<&str>) -> String {
    variant.map(str::to_string).unwrap_or_else(|| sc.bottleneck.queue.name().to_string())
}

fn run(a: &args::Args) -> Result<(), String> {
    let variant = a.preset.as_ref().map(|p| {
        a.variant.clone().unwrap_or_else(|| {
            preset_list()
                .into_iter()
                .find(|i| i.name == p)
                .map(|i| i.default_variant.to_string())
                .unwrap_or_default()
        })
    });
    let sc = load(a, variant.as_deref())?;
    let alg = alg_name(&sc, variant.as_deref());
    let sim = simulate(&sc, &alg, a.quiet);
    let summary = sim.summary();
    let paper = (a.preset.as_deref() == Some("cubic-bbr-vegas-3q"))
        .then_some(sim_core::scenario::published::WARBLER_WITHOUT);
    print!("{}", tables::all_tables(&summary, sim_core::scenario::red_study_algorithm(&alg), paper));
    if let Some(note) = a.preset.as_deref().and_then(sim_core::scenario::published::warbler_baseline_note) {
        println!("Paper: {note}");
    }
    if let Some(dir) = &a.out {
        let dir = PathBuf::from(dir);
        write_all(&dir, &alg, sim.recorder(), &summary)?;
        std::fs::write(dir.join("summary.json"), serde_json::to_string_pretty(&summary).unwrap())
            .map_err(|e| e.to_string())?;
        println!(
            "wrote {alg}_queue.csv, _drops.csv, _throughput.csv, _flows.csv, _backlog_kde.csv, _delay_kde.csv and summary.json to {}",
            dir.display()
        );
    }
    Ok(())
}

fn compare(a: &args::Args) -> Result<(), String> {
    let name = a.preset.as_deref().ok_or("compare needs --preset NAME")?;
    let info =
        preset_list().into_iter().find(|p| p.name == name).ok_or(format!("unknown preset '{name}'"))?;
    let variants: Vec<String> = match &a.variants {
        Some(v) => v.clone(),
        None => info.variants.iter().filter(|v| !v.contains('-')).map(|v| v.to_string()).collect(),
    };
    let mut runs = Vec::new();
    let mut all = serde_json::Map::new();
    for v in &variants {
        let sc = load(a, Some(v))?;
        let sim = simulate(&sc, v, a.quiet);
        let summary = sim.summary();
        if let Some(dir) = &a.out {
            write_all(&PathBuf::from(dir), v, sim.recorder(), &summary)?;
        }
        all.insert(v.clone(), serde_json::to_value(&summary).unwrap());
        runs.push((v.clone(), summary));
    }
    print!("{}", tables::compare_table(&runs));
    if let Some(dir) = &a.out {
        let p = PathBuf::from(dir).join("summary.json");
        std::fs::write(&p, serde_json::to_string_pretty(&all).unwrap()).map_err(|e| e.to_string())?;
        println!("wrote the traces of each variant and summary.json to {dir}");
    }
    Ok(())
}
