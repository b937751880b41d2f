//! Scenarios from a file or a preset, with `--set` and `--seed` applied, validated.

use crate::io::{self, Outcome};
use crate::ScenarioArgs;
use sim_core::cc::dqn::register_model;
use sim_core::ml::MlpWeights;
use sim_core::scenario::{patch, preset, preset_list, Scenario};

/// The scenario from a file or a preset, edited and validated.
pub fn load(a: &ScenarioArgs, variant: Option<&str>) -> Result<Scenario, String> {
    for (id, file) in &a.models {
        let w = MlpWeights::from_json(&io::read_text(file)?).map_err(|e| {
            format!("{file}: {}", e.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("; "))
        })?;
        register_model(id, &w).map_err(|e| format!("{file}: {e}"))?;
    }
    let mut base = match (&a.file, &a.preset) {
        (Some(f), None) => Scenario::from_json(&io::read_text(f)?).map_err(|e| format!("{f}: {e}"))?,
        (None, Some(p)) => preset(p, variant)?,
        _ => return Err("give either a scenario file or --preset NAME".into()),
    };
    if let Some(p) = a.tcp_profile {
        p.apply(&mut base.tcp);
    }
    let mut sc = patch::apply(&base, &a.sets).map_err(|e| format!("--set {e}"))?;
    sc.changes.extend(a.changes.iter().cloned());
    if let Some(seed) = a.seed {
        sc.seed = seed;
    }
    sc.validate().map_err(|errs| {
        let lines: Vec<String> = errs.iter().map(|e| format!("  {e}")).collect();
        format!("the scenario has {} invalid field(s):\n{}", errs.len(), lines.join("\n"))
    })?;
    if !a.force {
        sim_core::scenario::cost::check(&sc, false).map_err(|e| format!("{e} (run anyway with --force)"))?;
    }
    Ok(sc)
}

/// The variant to run: the one asked for, else the preset's default.
pub fn variant_of(preset_name: Option<&str>, asked: Option<&str>) -> Option<String> {
    let p = preset_name?;
    Some(asked.map(str::to_string).unwrap_or_else(|| {
        preset_list()
            .into_iter()
            .find(|i| i.name == p)
            .map(|i| i.default_variant.to_string())
            .unwrap_or_default()
    }))
}

pub fn list_presets(json: bool) -> Outcome {
    for p in preset_list() {
        let t = p.texts();
        if json {
            let mut v = serde_json::to_value(&p).map_err(|e| e.to_string())?;
            v["texts"] = serde_json::to_value(&t).map_err(|e| e.to_string())?;
            // The title as shown, not its template (`{p:bottleneck.rate_bps}`).
            v["title"] = serde_json::Value::String(t.title.clone());
            io::say(&serde_json::to_string(&v).map_err(|e| e.to_string())?)?;
        } else {
            io::say(&format!("{}  {}\n  variants: {}\n", p.name, t.title, p.variants.join(", ")))?;
        }
    }
    Ok(())
}
