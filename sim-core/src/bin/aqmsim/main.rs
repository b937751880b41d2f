//! `aqmsim`: run a scenario or a paper's preset from the command line.
//!
//! Exit codes: 0 success, 1 a runtime error (bad scenario, unwritable output), 2 a usage
//! error (unknown flag, missing argument, a flag's value out of range), as clap reports
//! them. Nothing here panics on what a user types: a property test drives the parser and
//! each command's checks with random arguments.

mod cluster;
mod compare;
mod io;
mod load;
mod run;
mod sweep;
mod tables;
mod train;

use clap::error::{ContextKind, ContextValue};
use clap::{Args, Parser, Subcommand};
use sim_core::params::echo;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "aqmsim",
    version,
    about = "AQM Lab's command-line runner: the papers' experiments and your own scenarios"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Where a scenario comes from and how it is edited.
#[derive(Args, Clone, Debug, Default)]
pub struct ScenarioArgs {
    /// A scenario JSON file (`-` reads standard input).
    #[arg(conflicts_with = "preset")]
    pub file: Option<String>,
    /// A preset (see `aqmsim presets`).
    #[arg(long)]
    pub preset: Option<String>,
    /// Edit one field before the run: PATH=VALUE, PATH dotted (flows[0].count) or a JSON
    /// Pointer (/flows/0/count); VALUE is JSON, a bare word is a string. Repeatable.
    #[arg(long = "set", value_name = "PATH=VALUE", value_parser = parse_set)]
    pub sets: Vec<(String, String)>,
    /// Set a field during the run: T:PATH=VALUE sets PATH to VALUE at T seconds (a timed
    /// change: the bottleneck's rate, delay or device queue, a queue-disc parameter, a flow
    /// group's access link, start or stop), e.g. --at '10:bottleneck.queue.limit={"packets":50}'.
    /// Repeatable.
    #[arg(long = "at", value_name = "T:PATH=VALUE", value_parser = parse_change)]
    pub changes: Vec<sim_core::scenario::TimedChange>,
    /// The scenario's seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Run even if the cost estimate is above the limits.
    #[arg(long)]
    pub force: bool,
    /// Make learned weights available to scenarios as a model id: ID=WEIGHTS.json (a DQN
    /// flow names it with `"model": "ID"`). Repeatable.
    #[arg(long = "model", value_name = "ID=FILE", value_parser = parse_set)]
    pub models: Vec<(String, String)>,
}

fn parse_change(s: &str) -> Result<sim_core::scenario::TimedChange, String> {
    let (t, set) = s.split_once(':').ok_or_else(|| format!("'{}': expected T:PATH=VALUE", echo(s)))?;
    let at_s = t
        .trim()
        .parse::<f64>()
        .map_err(|_| format!("'{}': the time T must be a number of seconds", echo(t)))?;
    let (set, raw) = parse_set(set)?;
    let to = serde_json::from_str(&raw).unwrap_or(serde_json::Value::String(raw));
    Ok(sim_core::scenario::TimedChange { at_s, set, to })
}

fn parse_set(s: &str) -> Result<(String, String), String> {
    let (k, v) = s.split_once('=').ok_or_else(|| format!("'{}': expected PATH=VALUE", echo(s)))?;
    Ok((k.to_string(), v.to_string()))
}

#[derive(Subcommand)]
enum Command {
    /// Simulate one scenario; print the study's tables; write traces and summary.json.
    Run(run::RunArgs),
    /// Run every variant of a preset (over seeds) and print them side by side.
    Compare(compare::CompareArgs),
    /// List every preset with its variants.
    Presets {
        /// One JSON object per preset.
        #[arg(long)]
        json: bool,
    },
    /// Print a preset's scenario as JSON, ready to edit and pass to `run`.
    Scenario {
        #[command(flatten)]
        scenario: ScenarioArgs,
        #[arg(long)]
        variant: Option<String>,
    },
    /// Check a scenario and list every bad field.
    Validate {
        #[command(flatten)]
        scenario: ScenarioArgs,
    },
    /// Warbler's clustering on a JSON array of backlogs (cells).
    Cluster(cluster::ClusterArgs),
    /// Warbler's clustering time over flows × queues (the paper's Fig. 12).
    BenchKmeans(cluster::BenchArgs),
    /// Train the DQN congestion control on a preset; write its weights and learning curve.
    Train(train::TrainArgs),
    /// Run (variant, seed, setting) combinations on all cores; one CSV row per run.
    Sweep(sweep::SweepArgs),
}

/// Runs one parsed command.
fn dispatch(cli: Cli) -> io::Outcome {
    match cli.command {
        Command::Run(a) => run::run(&a),
        Command::Compare(a) => compare::compare(&a),
        Command::Presets { json } => load::list_presets(json),
        Command::Scenario { scenario, variant } => match load::load(&scenario, variant.as_deref()) {
            Ok(s) => io::say(&s.to_json()),
            Err(e) => Err(e.into()),
        },
        Command::Validate { scenario } => match load::load(&scenario, None) {
            Ok(s) => {
                let c = sim_core::scenario::cost::estimate(&s);
                io::say(&format!(
                    "scenario is valid; estimated cost about {:.1e} events and {:.0} MB",
                    c.events,
                    c.bytes / 1e6
                ))
            }
            Err(e) => Err(e.into()),
        },
        Command::Cluster(a) => cluster::cluster(&a),
        Command::BenchKmeans(a) => cluster::bench(&a),
        Command::Train(a) => train::train(&a),
        Command::Sweep(a) => sweep::sweep(&a),
    }
}

/// clap's own error with any echoed argument shortened: a 300-digit `--k` is named, not
/// repeated.
fn shortened(mut e: clap::Error) -> clap::Error {
    for kind in [ContextKind::InvalidValue, ContextKind::InvalidArg, ContextKind::InvalidSubcommand] {
        if let Some(ContextValue::String(v)) = e.get(kind) {
            let short = echo(v);
            if short != *v {
                e.insert(kind, ContextValue::String(short));
            }
        }
    }
    e
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Prints help, the version or the error (ignoring an unwritable stream) and exits
        // with clap's code: 0, or 2 for a usage error.
        Err(e) => shortened(e).exit(),
    };
    match dispatch(cli) {
        Ok(()) | Err(io::Failure::Quiet) => ExitCode::SUCCESS,
        Err(io::Failure::Msg(e)) => {
            io::note(&format!("error: {e}\n"));
            ExitCode::FAILURE
        }
        Err(io::Failure::Usage(e)) => {
            io::note(&format!("error: {e}\n"));
            ExitCode::from(2)
        }
    }
}

