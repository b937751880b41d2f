//! Command-line parsing (hand-rolled: four subcommands do not need a parser crate).

pub const USAGE: &str = "\
aqmsim: AQM Lab's command-line runner

USAGE:
  aqmsim run (SCENARIO.json | --preset NAME [--variant V]) [--set PATH=VALUE]... [--seed N] [--out DIR] [--quiet]
  aqmsim compare --preset NAME [--variants A,B,..] [--set PATH=VALUE]... [--seed N] [--out DIR] [--quiet]
  aqmsim presets
  aqmsim scenario --preset NAME [--variant V] [--set PATH=VALUE]...
  aqmsim validate SCENARIO.json

run       simulates one scenario, prints the RED study's tables (Tables 6-9) and the
          fairness/delay/buffer table, and writes <alg>_queue.csv, <alg>_drops.csv,
          <alg>_throughput.csv, <alg>_flows.csv (per-flow queue, backlog in cells,
          goodput, cwnd, RTT), <alg>_backlog_kde.csv, <alg>_delay_kde.csv and summary.json
compare   runs every variant of a preset and prints Table 10 side by side with the paper
presets   lists every preset and its variants
scenario  prints a preset's scenario as JSON, ready to edit and pass to `run`
validate  checks a scenario file and lists every bad field

--set PATH=VALUE edits one field before the run, e.g. --set bottleneck.nic_queue_packets=100
or --set flows[0].count=20 (VALUE is JSON; bare words are strings).";

#[derive(Debug, Default)]
pub struct Args {
    pub command: String,
    pub file: Option<String>,
    pub preset: Option<String>,
    pub variant: Option<String>,
    pub variants: Option<Vec<String>>,
    pub sets: Vec<(String, String)>,
    pub seed: Option<u64>,
    pub out: Option<String>,
    pub quiet: bool,
}

pub fn parse(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut a = Args { command: it.next().ok_or("missing command")?, ..Args::default() };
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--preset" => a.preset = Some(value("--preset")?),
            "--variant" => a.variant = Some(value("--variant")?),
            "--variants" => a.variants = Some(value("--variants")?.split(',').map(str::to_string).collect()),
            "--set" => {
                let kv = value("--set")?;
                let (k, v) = kv.split_once('=').ok_or(format!("--set {kv}: expected PATH=VALUE"))?;
                a.sets.push((k.to_string(), v.to_string()));
            }
            "--seed" => {
                let v = value("--seed")?;
                a.seed = Some(v.parse().map_err(|_| format!("--seed {v}: expected a whole number"))?);
            }
            "--out" => a.out = Some(value("--out")?),
            "--quiet" | "-q" => a.quiet = true,
            "-h" | "--help" => return Err(String::new()),
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            s => {
                if a.file.replace(s.to_string()).is_some() {
                    return Err(format!("unexpected argument {s}"));
                }
            }
        }
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Args, String> {
        parse(s.split_whitespace().map(str::to_string))
    }

    #[test]
    fn run_with_preset_variant_and_sets() {
        let a = p("run --preset red-study --variant ared --set a.b=3 --out x").unwrap();
        assert_eq!(a.preset.as_deref(), Some("red-study"));
        assert_eq!(a.variant.as_deref(), Some("ared"));
        assert_eq!(a.sets, vec![("a.b".to_string(), "3".to_string())]);
        assert_eq!(a.out.as_deref(), Some("x"));
    }

    #[test]
    fn bad_options_are_errors() {
        assert!(p("run --bogus").is_err());
        assert!(p("run --seed x").is_err());
        assert!(p("run --set nokey").is_err());
    }
}
