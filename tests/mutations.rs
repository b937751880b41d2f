//! The hostile-user campaign of issue 8, re-measured: field-by-field mutations of the preset
//! families (with every test run) and random valid scenarios (ignored: 26 minutes on two
//! busy cores), each parsed, validated and (when accepted) run with an event budget:
//!
//!   cargo test --release -p aqm-tests --test mutations -- --include-ignored --nocapture
//!
//! Mutations, at every leaf of each base scenario's JSON: −1, 0, 1, 1e-300, 1e18, "NaN" (a
//! string), Infinity (as `--set PATH=Infinity` gives it: a bare word is a string), a wrong
//! type (`[]`), a 100 KB string, and in the JSON text (as a pasted file has them) the bare
//! words `Infinity`, `-Infinity`, `NaN`, `1e400` and a 300-digit number; at every list, 6000
//! copies of its first entry; at every object: an unknown key, each key misspelt, each key
//! written twice, and `"type": 0` where there is a type. Each mutant is read as the CLI and
//! the page read a file (`Scenario::from_json`) and is
//! - refused with the field named: an error names its path (for a key, the object's path and
//!   the key) and echoes no huge value whole, or
//! - refused without the field named, or
//! - refused by the cost estimate (as the CLI would without `--force`), or
//! - accepted, then run: it panics, exceeds its event budget (a hang), or finishes.
//!
//! "Accepted that should not be" counts accepted mutants that no physical reading allows: a
//! negative number, a string or list where a number belongs, an unknown, misspelt or
//! repeated key, a word JSON does not have, `"type": 0`, a one-cell switch queue, a flow →
//! queue table longer than the flows. The test fails on any of them, on any refusal that
//! does not name its field, on a panic and on a hang. CLI misuse (non-UTF-8 arguments, closed pipes, full disks, /dev/zero, an
//! output directory that is a file) is exercised by sim-core/tests/cli.rs.

use aqm_tests::random::valid_scenario;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngSeed, TestRunner};
use serde_json::Value;
use sim_core::scenario::{cost, patch, preset, Scenario};
use sim_core::sim::Simulation;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

/// One variant per distinct scenario shape: RED, FIFO, FQ-CoDel, Cebinae, FQ, the switch port
/// with Warbler and three congestion controls, the DQN agent.
const BASES: &[(&str, &str)] = &[
    ("red-study", "red"),
    ("rtt-unfair", "fifo"),
    ("rtt-unfair", "fq-codel"),
    ("rtt-unfair", "cebinae"),
    ("rtt-unfair", "fq"),
    ("cubic-bbr-vegas-3q", "warbler"),
    ("vegas-newreno-mix", "6v2n-warbler-4q"),
    ("dqn-dumbbell", "dqn"),
];

/// Simulated seconds of each base (the presets run 60 s; 5 s keeps the campaign to minutes).
const SECONDS: f64 = 5.0;

#[derive(Clone, Debug)]
enum Edit {
    /// Replace the value at a dotted path (raw text: parsed as `--set` parses it).
    Set { path: String, raw: String },
    /// Add a key to the object at `path`.
    AddKey { path: String, key: String },
    /// Rename key `key` of the object at `path` to `to`.
    Rename { path: String, key: String, to: String },
    /// Write a bare word (`Infinity`, `1e400`) at a dotted path in the JSON text: the file
    /// readers see it, not `--set`.
    Word { path: String, word: String },
    /// Write key `key` of the object at `path` a second time in the JSON text.
    Duplicate { path: String, key: String },
}

#[derive(Clone, Debug)]
struct Mutant {
    base: String,
    kind: &'static str,
    edit: Edit,
    /// No physical reading of the value exists: it must be refused.
    impossible: bool,
}

#[derive(Debug, Default)]
struct Tally {
    tried: u64,
    refused_named: u64,
    refused_unnamed: u64,
    refused_cost: u64,
    accepted: u64,
    accepted_should_not: u64,
    ran: u64,
    panics: u64,
    hangs: u64,
    examples: Vec<String>,
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// Every mutant of one base scenario.
fn mutants(base: &str, v: &Value) -> Vec<Mutant> {
    let mut out = Vec::new();
    walk(base, v, "", &mut out);
    out
}

fn walk(base: &str, v: &Value, path: &str, out: &mut Vec<Mutant>) {
    let leaf = |kind: &'static str, raw: String, impossible: bool| Mutant {
        base: base.to_string(),
        kind,
        edit: Edit::Set { path: path.to_string(), raw },
        impossible,
    };
    match v {
        Value::Object(m) => {
            out.push(Mutant {
                base: base.into(),
                kind: "unknown key",
                edit: Edit::AddKey { path: path.into(), key: "zz_unknown".into() },
                impossible: true,
            });
            for (k, x) in m {
                if k == "type" {
                    out.push(Mutant {
                        base: base.into(),
                        kind: "\"type\": 0",
                        edit: Edit::Set { path: join(path, k), raw: "0".into() },
                        impossible: true,
                    });
                } else {
                    out.push(Mutant {
                        base: base.into(),
                        kind: "duplicate key",
                        edit: Edit::Duplicate { path: path.into(), key: k.clone() },
                        impossible: true,
                    });
                    // Drop the last letter: `rate_bps` → `rate_bp`.
                    let to = k[..k.len() - 1].to_string();
                    out.push(Mutant {
                        base: base.into(),
                        kind: "misspelt key",
                        edit: Edit::Rename { path: path.into(), key: k.clone(), to },
                        impossible: true,
                    });
                    walk(base, x, &join(path, k), out);
                }
            }
        }
        Value::Array(a) => {
            if let Some(first) = a.first() {
                // 6 000 entries for a handful of flows (or queues): a flow → queue table
                // cannot list more flows than there are.
                let long = Value::Array(vec![first.clone(); 6000]).to_string();
                out.push(leaf("6000 entries", long, path.ends_with("initial_mapping")));
            }
            for (i, x) in a.iter().enumerate() {
                walk(base, x, &format!("{path}[{i}]"), out);
            }
        }
        _ => {
            let number = v.is_number() || v.is_null();
            out.push(leaf("negative", "-1".into(), number));
            out.push(leaf("zero", "0".into(), false));
            // One: a buffer of one cell holds no packet.
            out.push(leaf("one", "1".into(), path.ends_with("queue_limit_cells")));
            out.push(leaf("1e-300", "1e-300".into(), false));
            out.push(leaf("1e18", "1e18".into(), false));
            out.push(leaf("NaN as a string", "\"NaN\"".into(), number || v.is_boolean()));
            out.push(leaf("Infinity", "Infinity".into(), number || v.is_boolean()));
            out.push(leaf("wrong type", "[]".into(), true));
            out.push(leaf("huge string", format!("\"{}\"", "x".repeat(100_000)), !v.is_string()));
            // Not JSON, as Python's json.dumps writes them; and beyond f64.
            for word in ["Infinity", "-Infinity", "NaN", "1e400"] {
                out.push(Mutant {
                    base: base.into(),
                    kind: "bare word",
                    edit: Edit::Word { path: path.into(), word: word.into() },
                    impossible: true,
                });
            }
            out.push(Mutant {
                base: base.into(),
                kind: "300 digits",
                edit: Edit::Word { path: path.into(), word: format!("1{}", "0".repeat(300)) },
                impossible: false,
            });
        }
    }
}

/// Stands for a word or a key in the JSON text until the text is written.
const PLACEHOLDER: &str = "\u{1}placeholder";

/// The mutated scenario as JSON text, and the path (plus key) an error must name.
fn apply(v: &Value, e: &Edit) -> (String, String, Option<String>) {
    let marked = format!("\"{}\"", PLACEHOLDER.replace('\u{1}', "\\u0001"));
    match e {
        Edit::Word { path, word } => {
            let mut v = v.clone();
            patch::set(&mut v, path, Value::String(PLACEHOLDER.into())).unwrap();
            let text = serde_json::to_string(&v).unwrap();
            assert!(text.contains(&marked));
            (text.replace(&marked, word), path.clone(), None)
        }
        Edit::Duplicate { path, key } => {
            let mut v = v.clone();
            let obj = if path.is_empty() { Some(&mut v) } else { v.pointer_mut(&patch::to_pointer(path)) };
            let m = obj.unwrap().as_object_mut().unwrap();
            let x = m[key].clone();
            m.insert(PLACEHOLDER.into(), x);
            let text = serde_json::to_string(&v).unwrap();
            assert!(text.contains(&marked));
            (text.replace(&marked, &format!("\"{key}\"")), path.clone(), Some(key.clone()))
        }
        _ => {
            let (v, path, key) = apply_value(v, e);
            (serde_json::to_string(&v).unwrap(), path, key)
        }
    }
}

/// A mutation of the value (as `--set` makes them), and the path (plus key) to name.
fn apply_value(v: &Value, e: &Edit) -> (Value, String, Option<String>) {
    let mut v = v.clone();
    match e {
        Edit::Set { path, raw } => {
            let new: Value = serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.clone()));
            patch::set(&mut v, path, new).unwrap();
            (v, path.clone(), None)
        }
        Edit::AddKey { path, key } => {
            let obj = if path.is_empty() { Some(&mut v) } else { v.pointer_mut(&patch::to_pointer(path)) };
            obj.unwrap().as_object_mut().unwrap().insert(key.clone(), Value::from(1));
            (v, path.clone(), Some(key.clone()))
        }
        Edit::Rename { path, key, to } => {
            let obj = if path.is_empty() { Some(&mut v) } else { v.pointer_mut(&patch::to_pointer(path)) };
            let m = obj.unwrap().as_object_mut().unwrap();
            let x = m.remove(key).unwrap();
            m.insert(to.clone(), x);
            (v, path.clone(), Some(to.clone()))
        }
        Edit::Word { .. } | Edit::Duplicate { .. } => unreachable!("text edits are applied by apply"),
    }
}

/// Does `msg` name `path` (and `key`)? A parent's path with the key also counts, as does a
/// nested path under it (`flows[0].cca = dqn … model`).
fn names(msg: &str, path: &str, key: Option<&str>) -> bool {
    let full = match key {
        Some(k) => join(path, k),
        None => path.to_string(),
    };
    if msg.contains(&full) {
        return true;
    }
    let (parent, last) = match full.rsplit_once('.') {
        Some((p, l)) => (p.to_string(), l.to_string()),
        None => (String::new(), full.clone()),
    };
    let last = last.split('[').next().unwrap_or(&last).to_string();
    (parent.is_empty() || msg.contains(&parent)) && msg.contains(&last)
}

enum Outcome {
    RefusedNamed,
    RefusedUnnamed(String),
    RefusedCost,
    Ran,
    Hang(u64, f64),
}

/// Does `msg` echo a huge value whole? Values are shortened to about 20 characters.
fn echoes_huge(msg: &str) -> bool {
    let mut run = (' ', 0);
    for ch in msg.chars() {
        run = if ch == run.0 { (ch, run.1 + 1) } else { (ch, 1) };
        if run.1 > 40 {
            return true;
        }
    }
    false
}

/// Parses, validates, builds and runs `text` with a budget of twice the estimated events.
fn judge(text: &str, path: &str, key: Option<&str>) -> Outcome {
    let refused = |msg: String| {
        if names(&msg, path, key) && !echoes_huge(&msg) {
            Outcome::RefusedNamed
        } else {
            Outcome::RefusedUnnamed(msg)
        }
    };
    let sc = match Scenario::from_json(text) {
        Ok(sc) => sc,
        Err(e) => return refused(e),
    };
    if let Err(errs) = sc.validate() {
        return refused(errs.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "));
    }
    let Ok(est) = cost::check(&sc, false) else { return Outcome::RefusedCost };
    let mut sim = match Simulation::new(&sc) {
        Ok(s) => s,
        Err(errs) => return refused(errs.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; ")),
    };
    run_bounded(&mut sim, est.events)
}

fn run_bounded(sim: &mut Simulation, estimate: f64) -> Outcome {
    let budget = (2.0 * estimate) as u64 + 10_000;
    let mut used = 0;
    while !sim.is_finished() {
        used += sim.run_events(100_000);
        if used > budget {
            return Outcome::Hang(used, estimate);
        }
    }
    let _ = sim.summary();
    Outcome::Ran
}

fn short_base(name: &str, variant: &str) -> Scenario {
    let mut sc = preset(name, Some(variant)).unwrap();
    sc.duration_s = sc.duration_s.min(SECONDS);
    sc.warmup_s = sc.warmup_s.min(1.0);
    for g in &mut sc.flows {
        g.start_s = g.start_s.min(SECONDS / 2.0);
        g.stop_s = g.stop_s.map(|s| s.min(SECONDS));
    }
    assert_eq!(sc.validate(), Ok(()));
    sc
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

fn record(t: &Mutex<Tally>, label: &str, impossible: bool, outcome: Result<Outcome, String>) {
    let mut t = t.lock().unwrap();
    t.tried += 1;
    let note = |t: &mut Tally, what: String| {
        if t.examples.len() < 60 {
            t.examples.push(format!("{what}: {label}"));
        }
    };
    match outcome {
        Err(p) => {
            t.panics += 1;
            note(&mut t, format!("PANIC {p}"));
        }
        Ok(Outcome::RefusedNamed) => t.refused_named += 1,
        Ok(Outcome::RefusedUnnamed(msg)) => {
            t.refused_unnamed += 1;
            let msg: String = msg.chars().take(200).collect();
            note(&mut t, format!("UNNAMED ({msg})"));
        }
        Ok(Outcome::RefusedCost) => t.refused_cost += 1,
        Ok(o) => {
            t.accepted += 1;
            if impossible {
                t.accepted_should_not += 1;
                note(&mut t, "ACCEPTED".into());
            }
            match o {
                Outcome::Hang(used, est) => {
                    t.hangs += 1;
                    note(&mut t, format!("HANG {used} events, estimate {est:.0}"));
                }
                _ => t.ran += 1,
            }
        }
    }
}

/// Runs `work` over `items` on THREADS threads (default 2), tallying each outcome.
fn tally<T: Sync>(items: &[T], work: impl Fn(&T) -> (String, bool, Result<Outcome, String>) + Sync) -> Tally {
    let tally = Mutex::new(Tally::default());
    let next = Mutex::new(0usize);
    let threads: usize = std::env::var("THREADS").ok().and_then(|v| v.parse().ok()).unwrap_or(2);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some(item) = items.get(i) else { break };
                let (label, impossible, outcome) = work(item);
                record(&tally, &label, impossible, outcome);
            });
        }
    });
    tally.into_inner().unwrap()
}

fn report(what: &str, t: &Tally, started: std::time::Instant) {
    let peak_kb = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM")).map(|l| l.to_string()))
        .unwrap_or_default();
    println!(
        "{what}: tried {} | refused with the field named {} | refused without it {} | refused by the cost estimate {} | accepted {} (of which should not be {}) | ran {} | panics {} | hangs {}",
        t.tried, t.refused_named, t.refused_unnamed, t.refused_cost, t.accepted, t.accepted_should_not, t.ran, t.panics, t.hangs
    );
    for e in &t.examples {
        println!("  {}", e.chars().take(400).collect::<String>());
    }
    println!("{:.0} s; peak memory {peak_kb}", started.elapsed().as_secs_f64());
    assert_eq!((t.panics, t.hangs, t.accepted_should_not), (0, 0, 0));
}

/// About 4 700 mutants, 5 s each at most: seconds in release, so it runs with every test.
#[test]
fn every_mutant_of_the_preset_families_is_refused_by_name_or_runs_in_bounds() {
    let started = std::time::Instant::now();
    let mut all = Vec::new();
    for (p, v) in BASES {
        let base = serde_json::to_value(short_base(p, v)).unwrap();
        for m in mutants(&format!("{p}/{v}"), &base) {
            all.push((base.clone(), m));
        }
    }
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let t = tally(&all, |(base, m)| {
        let (text, path, key) = apply(base, &m.edit);
        let label = format!("{} {} {:?}", m.base, m.kind, m.edit).chars().take(300).collect::<String>();
        let outcome = catch_unwind(AssertUnwindSafe(|| judge(&text, &path, key.as_deref())))
            .map_err(|p| panic_text(&*p));
        (label, m.impossible, outcome)
    });
    std::panic::set_hook(hook);
    report("mutants", &t, started);
    assert_eq!(t.refused_unnamed, 0, "refused without naming the field");
}

/// Random valid scenarios (the property tests' generator), full length, fixed seed.
#[test]
#[ignore = "minutes: cargo test --release -p aqm-tests --test mutations -- --include-ignored --nocapture"]
fn random_valid_scenarios_all_finish_in_bounds() {
    let started = std::time::Instant::now();
    let n: usize = std::env::var("RANDOM_SCENARIOS").ok().and_then(|v| v.parse().ok()).unwrap_or(680);
    let mut runner = TestRunner::new(Config { rng_seed: RngSeed::Fixed(8), ..Config::default() });
    let strategy = valid_scenario();
    let scenarios: Vec<Scenario> =
        (0..n).map(|_| strategy.new_tree(&mut runner).unwrap().current()).collect();
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let t = tally(&scenarios, |sc| {
        let label = format!("random {}", serde_json::to_string(sc).unwrap());
        let outcome = catch_unwind(AssertUnwindSafe(|| judge(&serde_json::to_string(sc).unwrap(), "", None)))
            .map_err(|p| panic_text(&*p));
        (label, false, outcome)
    });
    std::panic::set_hook(hook);
    report("random valid scenarios", &t, started);
}
