//! `aqmsim train`: the DQN congestion control learns on a preset, episode after episode;
//! its weights and learning curve are written at the end.

use crate::io::{self, Outcome};
use crate::{load, ScenarioArgs};
use clap::Args;
use sim_core::ml::DqnConfig;
use sim_core::train::{curve_csv, Trainer};
use std::io::{IsTerminal, Write};
use std::path::Path;

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

pub fn train(a: &TrainArgs) -> Outcome {
    let sc = load::load(&a.scenario, a.variant.as_deref())?;
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
    let curve_path =
        a.curve.clone().unwrap_or_else(|| out.with_extension("curve.csv").to_string_lossy().into());
    for p in [out, Path::new(&curve_path)] {
        if let Some(parent) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
            io::prepare_dir(&parent.to_string_lossy())?;
        }
    }
    let mut t = Trainer::new(&sc, dqn, sc.seed)?;
    let show = !a.quiet && std::io::stderr().is_terminal();
    let mut curve = Vec::new();
    for _ in 0..a.episodes {
        let r = t.run_episode()?;
        if show {
            let done = r.episode as usize * 25 / a.episodes as usize;
            eprint!(
                "\rtraining [{:<25}] {}/{}  return {:8.2}  ε {:.3}  {:.2} Mbit/s  RTT {:.0} ms",
                "#".repeat(done),
                r.episode,
                a.episodes,
                r.episode_return,
                r.epsilon,
                r.throughput_mbps,
                r.mean_rtt_ms.unwrap_or(0.0)
            );
            let _ = std::io::stderr().flush();
        }
        curve.push(r);
    }
    if show {
        eprintln!();
    }
    io::write_atomic(out, t.weights().to_json().as_bytes())?;
    io::write_atomic(Path::new(&curve_path), curve_csv(&curve).as_bytes())?;
    io::say(&format!(
        "trained {} episodes; weights (digest {:016x}) in {}, learning curve in {curve_path}",
        curve.len(),
        t.weights_digest(),
        out.display()
    ))
}
