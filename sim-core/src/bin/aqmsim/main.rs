//! `aqmsim`: run a scenario or a paper's preset from the command line.
//!
//! Exit codes: 0 success, 1 a runtime error (bad scenario, unwritable output), 2 a usage
//! error (unknown flag, missing argument, a flag's value out of range), as clap reports
//! them. Nothing here panics on what a user types: a property test drives the parser and
//! each command's checks with random arguments.

mod cluster;
mod compare;
mod io;
mod lesson;
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
    /// group's access link, start or stop), e.g. --at '10:links.bottleneck.queue.limit={"packets":50}'.
    /// Repeatable.
    #[arg(long = "at", value_name = "T:PATH=VALUE", value_parser = parse_change)]
    pub changes: Vec<sim_core::scenario::TimedChange>,
    /// Set the TCP rules where ns-3.44 and Linux differ (minimum RTO, PRR, Karn with
    /// timestamps, rate snapshots, a paced first window, the recovery timer, the pipe, the
    /// answer to an ECN echo and DCTCP) as one or the other does, before
    /// any --set: ns3-3.44 or linux.
    #[arg(long = "tcp-profile", value_name = "PROFILE", value_parser = parse_profile)]
    pub tcp_profile: Option<sim_core::tcp::TcpProfile>,
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

/// An estimated size for a person: "0.4 MB", "12 MB".
fn megabytes(bytes: f64) -> String {
    let mb = bytes / 1e6;
    if mb < 10.0 {
        format!("{mb:.1} MB")
    } else {
        format!("{mb:.0} MB")
    }
}

/// An estimated time for a person: "under 0.1 s", "2.5 s", "40 s".
fn seconds(s: f64) -> String {
    if s < 0.1 {
        "under 0.1 s".into()
    } else if s < 10.0 {
        format!("{s:.1} s")
    } else {
        format!("{s:.0} s")
    }
}

fn parse_profile(s: &str) -> Result<sim_core::tcp::TcpProfile, String> {
    sim_core::tcp::TcpProfile::from_tag(s)
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
    /// Lessons that check themselves: list them, show one, check one's reference answers.
    Lesson {
        #[command(subcommand)]
        cmd: lesson::LessonCmd,
    },
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
                let rate = sim_core::scenario::cost::EVENTS_PER_S;
                io::say(&format!(
                    "scenario is valid; estimated cost about {:.1e} events and {} of memory, {} here; with --out {} on disk and {}",
                    c.events,
                    megabytes(c.bytes),
                    seconds(c.seconds_at(rate)),
                    megabytes(c.disk_bytes),
                    seconds(c.seconds_writing(rate)),
                ))
            }
            Err(e) => Err(e.into()),
        },
        Command::Cluster(a) => cluster::cluster(&a),
        Command::BenchKmeans(a) => cluster::bench(&a),
        Command::Train(a) => train::train(&a),
        Command::Sweep(a) => sweep::sweep(&a),
        Command::Lesson { cmd } => lesson::lesson_cmd(&cmd),
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

#[cfg(test)]
mod tests {
    //! The parser and every command's checks before it runs, driven with random argument
    //! vectors: each returns Ok or an error, never panics, and no error repeats a huge value.
    use super::*;
    use clap::CommandFactory;
    use proptest::prelude::*;
    use std::path::{Path, PathBuf};

    #[test]
    fn the_command_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    /// A scratch directory holding a FIFO, a link, a directory and a JSON input to point at.
    fn scratch() -> PathBuf {
        static MADE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
        MADE.get_or_init(make_scratch).clone()
    }

    fn make_scratch() -> PathBuf {
        let d = std::env::temp_dir().join(format!("aqmsim-args-{}", std::process::id()));
        {
            std::fs::create_dir_all(d.join("dir")).unwrap();
            let made = std::process::Command::new("mkfifo").arg(d.join("fifo")).status();
            assert!(made.is_ok_and(|s| s.success()), "mkfifo");
            std::fs::write(d.join("target.txt"), "keep").unwrap();
            std::fs::write(d.join("f2.json"), "[40, 152, 200, 1952, 2384, 2414]").unwrap();
            #[cfg(unix)]
            std::os::unix::fs::symlink(d.join("target.txt"), d.join("link")).unwrap();
        }
        d
    }

    const HUGE: &str = "1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000";

    fn value() -> impl Strategy<Value = String> {
        prop_oneof![
            prop::sample::select(vec![
                HUGE,
                "-1",
                "-0",
                "0",
                "1",
                "3",
                "32",
                "33",
                "NaN",
                "nan",
                "inf",
                "-inf",
                "1e308",
                "",
                " ",
                "4294967295",
                "18446744073709551616",
                "1.5",
                "ü€😀",
                "[1e308, 1e308, 5, 1e308]",
                "[0,-1,1]",
                "[40, 152, 200]",
                "[]",
                "[\"a\"]",
                "{}",
                "1..3",
                "3..1",
                "1..",
                "..",
                "1,2",
                "a=b",
                "duration_s=0.5",
                "duration_s=NaN",
                "flows[0].count=1",
                "flows[99999999999].count=1",
                "/flows/0/count=2",
                "1:duration_s=2",
                "NaN:x=1",
                "x=1,2,3",
                "red-study",
                "rtt-unfair",
                "gentle",
                "fifo",
                "ssre",
                "sse",
                "float",
                "fixed",
                "conservative",
                "far,random",
                "conservative,conservative",
                "m=nofile.json",
            ])
            .prop_map(str::to_string),
            "[a-z0-9=.,:\\[\\]_-]{0,12}".prop_filter("not stdin", |s| s != "-"),
            any::<i64>().prop_map(|v| v.to_string()),
            any::<f64>().prop_map(|v| v.to_string()),
        ]
    }

    /// Plausible values of each flag; a wild value or a flag of another command is mixed
    /// in too, so that most vectors get past the parser into the command's own checks.
    fn flags_of(sub: &str) -> Vec<(&'static str, Vec<&'static str>)> {
        let scenario = vec![
            ("--preset", vec!["red-study", "rtt-unfair", "cubic-bbr-vegas-3q", "dqn-dumbbell", "nope", ""]),
            (
                "--set",
                vec![
                    "duration_s=0.5",
                    "duration_s=NaN",
                    "seed=-1",
                    "flows[0].count=0",
                    "flows[99999999999].count=1",
                    "/flows/0/count=2",
                    "x",
                    "bottleneck.rate_bps=1e400",
                ],
            ),
            (
                "--at",
                vec![
                    "1:duration_s=2",
                    "NaN:bottleneck.rate_bps=1",
                    "-1:x=1",
                    "0.5:bottleneck.delay_ns=1",
                    "x",
                ],
            ),
            ("--seed", vec!["0", "18446744073709551615", "-1", "18446744073709551616"]),
            ("--model", vec!["m=nofile.json", "=", "m"]),
            ("--force", vec![]),
        ];
        let out = ("--out", vec![]);
        let quiet = ("-q", vec![]);
        let mut f = match sub {
            "run" => vec![
                ("--variant", vec!["gentle", "fifo", "warbler", "nope"]),
                out,
                quiet,
                ("--threads", vec!["0", "1", "2", "3"]),
                ("--packet-trace", vec!["bottleneck", "hop2", "nope", "", "../x"]),
                ("--packet-trace-at", vec!["0", "1.5", "-1", "NaN", "1e300"]),
            ],
            "compare" => vec![
                ("--variants", vec!["gentle,red", "", ",", "fifo"]),
                ("--seeds", vec!["0", "1", "2", "100001", "4294967295"]),
                ("--jobs", vec!["0", "1", "70000"]),
                out,
                quiet,
            ],
            "sweep" => vec![
                ("--variants", vec!["fifo", "fifo,fq-codel", "", "nope"]),
                ("--seeds", vec!["1", "1..2", "2..1", "1..100001", "0..18446744073709551615", "1,,2"]),
                ("--vary", vec!["duration_s=0.5,1", "seed=1,2,3", "x", "=", "duration_s="]),
                ("--jobs", vec!["1", "0", "65536"]),
                out,
                ("--emit-jobs", vec![]),
            ],
            "train" => vec![
                ("--variant", vec!["dqn", "nope"]),
                ("--episodes", vec!["0", "1", "4294967296"]),
                ("--dqn", vec!["nofile.json"]),
                out,
                ("--curve", vec![]),
                quiet,
            ],
            "cluster" => vec![
                ("--k", vec!["0", "1", "3", "32", "33", "4294967295", "-1"]),
                ("--objective", vec!["ssre", "sse", "x"]),
                (
                    "--init",
                    vec!["conservative", "far,random", "far,optimal", "conservative,conservative", ""],
                ),
                ("--arith", vec!["float", "fixed"]),
                ("--current", vec!["[0,-1,1]", "[0,1,2]", "[0.5]", "[1e308]", "[]", "[", "nofile"]),
                ("--seed", vec!["1", "-1"]),
                ("--max-iters", vec!["0", "1", "4294967295"]),
                ("--json", vec![]),
            ],
            "scenario" => vec![("--variant", vec!["gentle", "nope"])],
            "presets" => vec![("--json", vec![])],
            "bench-kmeans" => vec![("--json", vec![]), ("--arith", vec!["fixed"])],
            _ => vec![("--bogus", vec!["1"])],
        };
        if !matches!(sub, "cluster" | "presets" | "bench-kmeans") {
            f.extend(scenario);
        }
        f
    }

    /// One argument vector: a subcommand, flags with values, positional inputs.
    fn argv() -> impl Strategy<Value = Vec<String>> {
        let sub = prop::sample::select(vec![
            "run",
            "compare",
            "sweep",
            "train",
            "cluster",
            "scenario",
            "validate",
            "presets",
            "bench-kmeans",
            "nope",
        ]);
        let outs = prop::sample::select(vec!["o", "fifo", "link", "dir", "new/w.json", "dir/", "link/x"]);
        let item = (any::<prop::sample::Index>(), any::<prop::sample::Index>(), value(), 0u8..10, outs);
        (sub, prop::collection::vec(item, 0..6), prop::option::of(value()), 0u8..3).prop_map(
            |(sub, items, positional, input)| {
                let d = scratch();
                let flags = flags_of(sub);
                let mut v = vec!["aqmsim".to_string(), sub.to_string()];
                if matches!(sub, "run" | "compare" | "sweep" | "train" | "scenario" | "validate") {
                    v.extend([
                        "--preset".into(),
                        ["red-study", "rtt-unfair", "dqn-dumbbell"][items.len() % 3].into(),
                    ]);
                }
                if sub == "cluster" {
                    v.extend(["--k".into(), "3".into()]);
                }
                for (which, pick, wild, roll, out) in items {
                    let (f, values) = &flags[which.index(flags.len())];
                    let repeatable = matches!(*f, "--set" | "--at" | "--model" | "--vary");
                    if !repeatable && v.iter().any(|a| a == f) {
                        continue;
                    }
                    v.push(f.to_string());
                    if *f == "--out" || *f == "--curve" {
                        // Output paths stay in the scratch directory, whatever is generated.
                        v.push(d.join(out).to_string_lossy().into_owned());
                    } else if !values.is_empty() {
                        v.push(if roll < 7 { values[pick.index(values.len())].to_string() } else { wild });
                    } else if roll == 0 {
                        v.push(wild);
                    }
                }
                if sub == "train" && !v.iter().any(|a| a == "--out") {
                    v.extend(["--out".into(), d.join("w.json").to_string_lossy().into_owned()]);
                }
                match (input, positional) {
                    (0, _) if sub == "cluster" => v.push(d.join("input.json").to_string_lossy().into_owned()),
                    (1, Some(p)) => v.push(p),
                    _ if sub == "cluster" => v.push(d.join("f2.json").to_string_lossy().into_owned()),
                    _ => {}
                }
                v
            },
        )
    }

    /// What each command checks before it runs anything long; the checks production calls.
    fn preflight(cli: &Cli) -> io::Outcome {
        match &cli.command {
            Command::Run(a) => run::plan(a).map(drop),
            Command::Compare(a) => compare::plan(a).map(drop),
            Command::Sweep(a) => sweep::plan(a).map(drop),
            Command::Train(a) => train::plan(a).map(drop),
            Command::Cluster(a) => cluster::report(a).map(drop),
            Command::Scenario { scenario, variant } => {
                load::load(scenario, variant.as_deref()).map(drop).map_err(Into::into)
            }
            Command::Validate { scenario } => load::load(scenario, None).map(drop).map_err(Into::into),
            Command::Presets { .. } | Command::BenchKmeans(_) => Ok(()),
            Command::Lesson { cmd } => match cmd {
                lesson::LessonCmd::Show { name } | lesson::LessonCmd::Check { name } => {
                    sim_core::lesson::lesson(name).map(drop).map_err(Into::into)
                }
                lesson::LessonCmd::List => Ok(()),
            },
        }
    }

    fn message(f: &io::Failure) -> String {
        match f {
            io::Failure::Msg(m) | io::Failure::Usage(m) => m.clone(),
            io::Failure::Quiet => String::new(),
        }
    }

    proptest! {
        // A fixed seed: CI sees the same cases each time (PROPTEST_CASES widens the search).
        #![proptest_config(ProptestConfig {
            cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(512),
            rng_seed: proptest::test_runner::RngSeed::Fixed(0xa125_0517),
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        #[test]
        fn random_arguments_give_ok_or_an_error_never_a_panic(args in argv(), input in ".{0,40}") {
            std::fs::write(scratch().join("input.json"), input).unwrap();
            let msg = match Cli::try_parse_from(&args) {
                Err(e) => shortened(e).to_string(),
                Ok(cli) => preflight(&cli).err().map(|f| message(&f)).unwrap_or_default(),
            };
            prop_assert!(!msg.contains(&HUGE[..100]), "{args:?} echoed a huge value: {msg}");
        }

        /// The cluster reader on random JSON arrays, values huge, negative, fractional.
        #[test]
        fn the_cluster_reader_refuses_or_clusters_to_finite_results(
            xs in prop::collection::vec(prop_oneof![
                Just(1e308), Just(-1.0), Just(1e15), Just(0.0), Just(-0.0), 0.0..1e6f64, any::<f64>()
            ], 0..12),
            labels in prop::collection::vec(-3i64..40, 0..12),
            k in 1u32..=32,
            fixed in any::<bool>(),
        ) {
            let d = scratch();
            let file = d.join(format!("backlogs-{k}.json"));
            std::fs::write(&file, serde_json::to_string(&xs).unwrap()).unwrap();
            let mut args: Vec<String> = ["aqmsim", "cluster", "--json", "--k"].map(String::from).to_vec();
            args.push(k.to_string());
            if fixed { args.extend(["--arith".into(), "fixed".into()]); }
            if !labels.is_empty() { args.extend(["--current".into(), serde_json::to_string(&labels).unwrap()]); }
            args.push(file.to_string_lossy().into_owned());
            let Ok(Command::Cluster(a)) = Cli::try_parse_from(&args).map(|c| c.command) else {
                return Err(TestCaseError::fail(format!("{args:?} did not parse")));
            };
            match cluster::report(&a) {
                Ok(out) => {
                    prop_assert!(xs.iter().all(|x| (0.0..=1e15).contains(x)), "{xs:?} accepted");
                    prop_assert!(!out.contains("NaN") && !out.contains("inf"), "{out}");
                    prop_assert!(labels.iter().all(|&q| (0..i64::from(k)).contains(&q)), "{labels:?} accepted");
                }
                Err(f) => prop_assert!(!message(&f).is_empty()),
            }
        }
    }

    #[test]
    fn a_huge_flag_value_is_named_not_repeated() {
        let Err(e) = Cli::try_parse_from(["aqmsim", "cluster", "--k", HUGE, "x"]) else { panic!("parsed") };
        let msg = shortened(e).to_string();
        assert!(msg.contains("--k") && msg.contains('…') && !msg.contains(&HUGE[..100]), "{msg}");
        let Err(e) = Cli::try_parse_from(["aqmsim", HUGE]) else { panic!("parsed") };
        assert!(!shortened(e).to_string().contains(&HUGE[..100]));
    }

    #[test]
    fn eight_varied_settings_are_refused_by_count_before_any_run_is_built() {
        let mut args: Vec<String> = ["aqmsim", "sweep", "--preset", "rtt-unfair"].map(String::from).to_vec();
        for i in 0..8 {
            args.extend(["--vary".into(), format!("seed{i}=1,2,3,4,5,6,7,8,9,10")]);
        }
        let Command::Sweep(a) = Cli::try_parse_from(&args).unwrap().command else { panic!("sweep") };
        let Err(io::Failure::Usage(m)) = sweep::plan(&a) else { panic!("accepted") };
        assert!(m.contains("= 2500000000 runs") && m.contains("at most 100000"), "{m}");
    }

    #[test]
    fn unfinished_streams_leave_no_temporary_files() {
        let d = scratch().join(format!("streams-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let sc = sim_core::scenario::preset("red-study", Some("gentle")).unwrap();
        let sim = sim_core::sim::Simulation::new(&sc).unwrap();
        let tmp_files = |d: &Path| {
            std::fs::read_dir(d)
                .unwrap()
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
                .count()
        };
        let s = run::Streams::open(&d, "gentle", sim.recorder()).unwrap();
        assert!(tmp_files(&d) >= 4);
        drop(s); // a run that failed or panicked
        assert_eq!(tmp_files(&d), 0);
        // A directory appears where a file goes during the run: refused at the end, no leftovers.
        let s = run::Streams::open(&d, "gentle", sim.recorder()).unwrap();
        std::fs::create_dir(d.join("gentle_drops.csv")).unwrap();
        let err = s.finish().unwrap_err();
        assert!(err.contains("gentle_drops.csv") && err.contains("a directory is there"), "{err}");
        assert_eq!(tmp_files(&d), 0);
        assert!(d.join("gentle_drops.csv").is_dir());
        std::fs::remove_dir_all(&d).ok();
    }
}
