//! `aqmsim train`: the DQN congestion control learns on a preset, episode after episode;
//! its weights and learning curve are written at the end.

use crate::io::{self, Failure, Outcome};
use crate::{load, ScenarioArgs};
use clap::Args;
use sim_core::ml::DqnConfig;
use sim_core::train::{curve_csv, Trainer};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct TrainArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[arg(long)]
    pub variant: Option<String>,
    /// Training episodes (the paper: 100).
    #[arg(long, default_value_t = 100)]
    pub episodes: u32,
    /// The learner's settings, a JSON file (DqnConfig; missing fields take defaults).
    #[arg(long)]
    pub dqn: Option<String>,
    /// Where to write the trained weights (JSON).
    #[arg(long)]
    pub out: String,
    /// Where to write the learning curve (CSV; default: beside the weights).
    #[arg(long)]
    pub curve: Option<String>,
    #[arg(long, short)]
    pub quiet: bool,
}

/// A training checked and ready: the scenario, the learner's settings and the two output
/// files, prepared.
pub struct Plan {
    pub scenario: sim_core::scenario::Scenario,
    pub dqn: DqnConfig,
    pub curve: PathBuf,
}

/// Everything `train` checks before the first episode.
pub fn plan(a: &TrainArgs) -> Result<Plan, Failure> {
    let scenario = load::load(&a.scenario, a.variant.as_deref())?;
    let dqn: DqnConfig = match &a.dqn {
        Some(f) => DqnConfig::from_json(&io::read_text(f)?).map_err(|errs| {
            let list: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
            format!("{f}: {}", list.join("; "))
        })?,
        None => DqnConfig::default(),
    };
    if let Err(errs) = dqn.validate() {
        let list: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        return Err(format!("the learner's settings: {}", list.join("; ")).into());
    }
    let out = Path::new(&a.out);
    let curve = a.curve.as_ref().map_or_else(|| out.with_extension("curve.csv"), PathBuf::from);
    if curve == out {
        return Err(io::usage(format!(
            "--curve {}: the same file as --out; the curve would replace the weights",
            curve.display()
        )));
    }
    for p in [out, &curve] {
        io::prepare_file(p)?;
    }
    Ok(Plan { scenario, dqn, curve })
}

pub fn train(a: &TrainArgs) -> Outcome {
    let Plan { scenario: sc, dqn, curve: curve_path } = plan(a)?;
    let out = Path::new(&a.out);
    let mut t = Trainer::new(&sc, dqn, sc.seed)?;
    let show = !a.quiet && std::io::stderr().is_terminal();
    let mut curve = Vec::new();
    for _ in 0..a.episodes {
        let r = t.run_episode()?;
        if show {
            let done = r.episode as usize * 25 / a.episodes as usize;
            io::note(&format!(
                "\rtraining [{:<25}] {}/{}  return {:8.2}  ε {:.3}  {:.2} Mbit/s  RTT {:.0} ms",
                "#".repeat(done),
                r.episode,
                a.episodes,
                r.episode_return,
                r.epsilon,
                r.throughput_mbps,
                r.mean_rtt_ms.unwrap_or(0.0)
            ));
        }
        curve.push(r);
    }
    if show {
        io::note("\n");
    }
    io::write_atomic(out, t.weights().to_json().as_bytes())?;
    io::write_atomic(&curve_path, curve_csv(&curve).as_bytes())?;
    io::say(&format!(
        "trained {} episodes; weights (digest {:016x}) in {}, learning curve in {}",
        curve.len(),
        t.weights_digest(),
        out.display(),
        curve_path.display()
    ))
}
