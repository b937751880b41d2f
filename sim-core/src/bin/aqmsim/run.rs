//! `aqmsim run`: one scenario, its tables, and its traces streamed to files as it goes.

use crate::io::{self, Failure, Outcome};
use crate::{load, tables, ScenarioArgs};
use clap::Args;
use sim_core::metrics::export::{self, Trace, DROPS_HEADER};
use sim_core::metrics::{Recorder, Summary, Update};
use sim_core::net::packet_trace::TraceWindow;
use sim_core::scenario::{published, Scenario};
use sim_core::sim::guard::Guard;
use sim_core::sim::Simulation;
use sim_core::time::SimTime;
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// The preset's variant (default: the preset's own).
    #[arg(long)]
    pub variant: Option<String>,
    /// Write <alg>_queue.csv, _drops.csv, _throughput.csv, _flows.csv, _series.csv, the
    /// KDEs, the algorithms' logs (_warbler.csv) and summary.json into this directory.
    #[arg(long)]
    pub out: Option<String>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Threads for a big run (2000+ flows, whose senders run apart from the rest): 1 or 2.
    /// The results are the same either way.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub threads: u8,
    /// Also write <alg>_packets_<LINK>.csv: the link's last 16384 packet events (queued,
    /// refused, dropped, to the device queue, sent, with reasons and CE marks) and the
    /// packets in it before them, as the page's packet view shows them. Needs --out.
    #[arg(long, value_name = "LINK")]
    pub packet_trace: Option<String>,
    /// When to take the packet trace, in seconds (default: the end of the run).
    #[arg(long, value_name = "SECONDS", requires = "packet_trace")]
    pub packet_trace_at: Option<f64>,
}

/// A link whose packets are traced, and when the trace is taken.
pub struct Watch {
    pub link: u32,
    pub name: String,
    pub at: SimTime,
}

/// CSV files written while the run goes, under temporary names until complete; a temporary
/// file never outlives the `Streams` (dropping them on any error or panic removes them).
pub struct Streams {
    dir: PathBuf,
    alg: String,
    files: Vec<Stream>,
    /// Bytes written so far (the guard stops a run whose traces outgrow their estimate).
    written: u64,
}

struct Stream {
    path: PathBuf,
    tmp: PathBuf,
    w: BufWriter<File>,
    trace: Option<Trace>,
}

impl Streams {
    pub fn open(dir: &Path, alg: &str, rec: &Recorder) -> Result<Streams, String> {
        let mut s = Streams { dir: dir.to_path_buf(), alg: alg.to_string(), files: Vec::new(), written: 0 };
        for t in Trace::ALL.into_iter().filter(|t| t.applies(&rec.series_info)) {
            s.add(t.file_suffix(), &t.header(&rec.series_info), Some(t))?;
        }
        s.add("drops", DROPS_HEADER, None)?;
        Ok(s)
    }

    fn add(&mut self, suffix: &str, header: &str, trace: Option<Trace>) -> Result<(), String> {
        let path = self.dir.join(format!("{}_{suffix}.csv", self.alg));
        io::check_file_target(&path)?;
        let tmp = io::tmp_path(&path);
        let f = io::create_new(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
        let mut w = BufWriter::new(f);
        let wrote = w.write_all(header.as_bytes()).map_err(|e| format!("{}: {e}", tmp.display()));
        // Kept even on error, so that dropping the streams removes this file too.
        self.files.push(Stream { path, tmp, w, trace });
        wrote
    }

    pub fn write(&mut self, u: &Update, rec: &Recorder) -> Result<(), String> {
        for s in &mut self.files {
            let body = match s.trace {
                Some(t) => t.rows(&u.samples, &rec.series_info),
                None => export::drops_rows(&u.drops),
            };
            s.w.write_all(body.as_bytes()).map_err(|e| format!("{}: {e}", s.tmp.display()))?;
            self.written += body.len() as u64;
        }
        Ok(())
    }

    /// Flushes every stream and moves it to its final name.
    pub fn finish(mut self) -> Result<(), String> {
        while let Some(s) = self.files.first_mut() {
            s.w.flush().map_err(|e| format!("{}: {e}", s.tmp.display()))?;
            s.w.get_ref().sync_all().map_err(|e| format!("{}: {e}", s.tmp.display()))?;
            io::commit(&s.tmp, &s.path)?;
            self.files.remove(0);
        }
        Ok(())
    }
}

impl Drop for Streams {
    /// Removes the partial files of a run that did not finish.
    fn drop(&mut self) {
        for s in &self.files {
            let _ = std::fs::remove_file(&s.tmp);
        }
    }
}

/// Runs to the end (a big run on two threads if `parallel`), streaming traces into `out`
/// and drawing a progress bar on stderr when it is a terminal. Unless `force`, a run past
/// twice its estimate is stopped (`sim::guard`).
pub fn simulate(
    sc: &Scenario,
    label: &str,
    quiet: bool,
    out: Option<&Path>,
    parallel: bool,
    force: bool,
    watch: Option<&Watch>,
) -> Result<(Simulation, Option<TraceWindow>), String> {
    let guard = (!force).then(|| Guard::new(sim_core::scenario::cost::estimate(sc)));
    let mut sim =
        Simulation::new(sc).map_err(|e| e.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("; "))?;
    sim.set_parallel(parallel);
    if let Some(w) = watch {
        sim.watch_link(w.link);
    }
    let mut window = None;
    let mut streams = match out {
        Some(dir) => Some(Streams::open(dir, label, sim.recorder())?),
        None => None,
    };
    let show = !quiet && std::io::stderr().is_terminal();
    let end = sim.end().as_nanos();
    for pct in 1..=100u64 {
        let to = SimTime(end * pct / 100);
        let written = streams.as_ref().map_or(0, |s| s.written) as f64;
        if let Some(w) = watch.filter(|w| window.is_none() && w.at <= to) {
            advance(&mut sim, guard.as_ref(), w.at, written)?;
            window = sim.packet_window(w.link, usize::MAX);
        }
        advance(&mut sim, guard.as_ref(), to, written)?;
        if let Some(s) = &mut streams {
            let u = sim.poll();
            s.write(&u, sim.recorder())?;
        }
        if show {
            let bar = "#".repeat((pct / 4) as usize);
            io::note(&format!("\r{label:<14} [{bar:<25}] {pct:>3}%  t = {:.1} s", sim.now().as_secs_f64()));
        }
    }
    if show {
        io::note("\n");
    }
    if let Some(s) = streams {
        s.finish()?;
    }
    Ok((sim, window))
}

/// Runs to `to`, stopped by the guard (if any) past twice the estimate.
fn advance(sim: &mut Simulation, guard: Option<&Guard>, to: SimTime, written: f64) -> Result<(), String> {
    match guard {
        // Returning drops the streams, which remove their temporary files.
        Some(g) => g
            .step_until(sim, to, &resident_bytes, written)
            .map_err(|why| format!("{why}; run it anyway with --force")),
        None => {
            sim.step_until(to);
            Ok(())
        }
    }
}

/// The `--packet-trace` link by name and its time, checked before the run.
fn watch_of(a: &RunArgs, sc: &Scenario) -> Result<Option<Watch>, String> {
    let Some(name) = a.packet_trace.as_deref() else { return Ok(None) };
    if a.out.is_none() {
        return Err("--packet-trace writes a file: give --out DIR".into());
    }
    let names = || sc.link_names().collect::<Vec<_>>().join(", ");
    let link = sc.link_id(name).ok_or_else(|| {
        format!("--packet-trace {}: no such link (links: {})", sim_core::params::echo(name), names())
    })?;
    let at = match a.packet_trace_at {
        None => sc.duration_s,
        Some(t) if (0.0..=sc.duration_s).contains(&t) => t,
        Some(t) => return Err(format!("--packet-trace-at {t}: from 0 to duration_s = {} s", sc.duration_s)),
    };
    Ok(Some(Watch { link, name: name.to_string(), at: SimTime::from_secs_f64(at) }))
}

/// The memory this process holds (resident, from /proc on Linux; None elsewhere).
fn resident_bytes() -> Option<f64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: f64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096.0)
}

/// The KDEs, the algorithms' logs and `<alg>_summary.json`, written atomically.
pub fn write_results(dir: &Path, alg: &str, sim: &Simulation, summary: &Summary) -> Result<(), String> {
    let rec = sim.recorder();
    let mut files = vec![
        (format!("{alg}_backlog_kde.csv"), export::backlog_kde_csv(rec)),
        (format!("{alg}_delay_kde.csv"), export::delay_kde_csv(rec)),
        (format!("{alg}_summary.json"), summary_json(summary, rec)?),
    ];
    if let Some(csv) = export::fct_csv(summary, &sim.completions().0) {
        files.push((format!("{alg}_fct.csv"), csv));
    }
    if let Some(csv) = export::pings_csv(sim.pings()) {
        files.push((format!("{alg}_pings.csv"), csv));
    }
    if let Some(csv) = export::marks_csv(&rec.marks) {
        files.push((format!("{alg}_marks.csv"), csv));
    }
    for (source, body) in export::log_csvs(&rec.log.kept) {
        files.push((format!("{alg}_{source}.csv"), body));
    }
    for (name, body) in files {
        io::write_atomic(&dir.join(name), body.as_bytes())?;
    }
    Ok(())
}

/// The summary, with the algorithms' decision log (Warbler's) under "log" when there is one.
pub fn summary_json(summary: &Summary, rec: &Recorder) -> Result<String, String> {
    let mut v = serde_json::to_value(summary).map_err(|e| e.to_string())?;
    if !rec.log.kept.is_empty() {
        v["log"] = serde_json::to_value(&rec.log.kept).map_err(|e| e.to_string())?;
    }
    serde_json::to_string_pretty(&v).map_err(|e| e.to_string())
}

/// Whether `name` is a file that a run of these algorithms may write into its `--out`
/// directory (`<alg>_*.csv`, `<alg>_*.json`, `summary.json`).
pub fn writes(algs: &[String], name: &str) -> bool {
    name == "summary.json"
        || ((name.ends_with(".csv") || name.ends_with(".json"))
            && algs.iter().any(|a| name.strip_prefix(a.as_str()).is_some_and(|r| r.starts_with('_'))))
}

/// Prepares `--out DIR` for runs of `algs`: the directory is made, and every file the runs
/// may write is checked before any of them starts.
pub fn prepare_out(dir: &str, algs: &[String]) -> Result<PathBuf, String> {
    let dir = io::prepare_dir(dir)?;
    io::check_dir_outputs(&dir, |name| writes(algs, name))?;
    Ok(dir)
}

/// A run checked and ready: the scenario, its label and the prepared output directory.
pub struct Plan {
    pub scenario: Scenario,
    pub variant: Option<String>,
    pub alg: String,
    pub dir: Option<PathBuf>,
    pub watch: Option<Watch>,
}

/// Everything `run` checks before it starts.
pub fn plan(a: &RunArgs) -> Result<Plan, Failure> {
    let preset = a.scenario.preset.as_deref();
    let variant = load::variant_of(preset, a.variant.as_deref());
    let scenario = load::load(&a.scenario, variant.as_deref())?;
    let alg = variant.clone().unwrap_or_else(|| scenario.bottleneck().queue.name().to_string());
    let watch = watch_of(a, &scenario)?;
    let dir = match a.out.as_deref() {
        Some(d) => Some(prepare_out(d, std::slice::from_ref(&alg))?),
        None => None,
    };
    Ok(Plan { scenario, variant, alg, dir, watch })
}

pub fn run(a: &RunArgs) -> Outcome {
    let Plan { scenario: sc, variant, alg, dir, watch } = plan(a)?;
    let preset = a.scenario.preset.as_deref();
    if dir.is_some() && !a.scenario.force {
        sim_core::scenario::cost::check(&sc, true).map_err(|e| format!("{e} (run anyway with --force)"))?;
    }
    let (sim, window) =
        simulate(&sc, &alg, a.quiet, dir.as_deref(), a.threads == 2, a.scenario.force, watch.as_ref())?;
    let summary = sim.summary();
    // Published figures belong next to the paper's own setting only (any seed).
    let as_published = preset.is_some_and(|p| {
        sim_core::scenario::preset(p, variant.as_deref())
            .is_ok_and(|o| Scenario { seed: o.seed, ..sc.clone() } == o)
    });
    let paper = (as_published && preset == Some("cubic-bbr-vegas-3q")).then_some(match variant.as_deref() {
        Some("warbler") => published::WARBLER_WITH,
        _ => published::WARBLER_WITHOUT,
    });
    // The RED study's columns beside the RED study's runs only (not another preset's RED).
    let red_study = match as_published && preset == Some("red-study") {
        true => sim_core::scenario::red_study_algorithm(&alg),
        false => "",
    };
    io::print(&tables::all_tables(&summary, red_study, paper))?;
    if preset.is_some() && !as_published {
        io::say("(edited from the preset, so the published figures are not shown)")?;
    }
    for c in &sc.changes {
        io::say(&format!("timed change at {} s: {} = {} ({})", c.at_s, c.set, c.to, c.label()))?;
    }
    if let Some(note) = preset.and_then(published::warbler_baseline_note) {
        io::say(&format!("Paper: {note}"))?;
    }
    if let Some(dir) = dir {
        write_results(&dir, &alg, &sim, &summary)?;
        if let (Some(w), Some(window)) = (&watch, &window) {
            io::write_atomic(&dir.join(format!("{alg}_packets_{}.csv", w.name)), window.to_csv().as_bytes())?;
        }
        io::write_atomic(&dir.join("summary.json"), summary_json(&summary, sim.recorder())?.as_bytes())?;
        io::say(&format!("wrote {alg}_*.csv and summary.json to {}", dir.display()))?;
    }
    Ok(())
}
