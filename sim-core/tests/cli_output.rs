//! `aqmsim` leaves alone what is at its output paths (a FIFO, a link, a directory), checks
//! them before it runs, leaves no temporary files, and turns each input that once crashed
//! it into an error with the usage exit code.
#![cfg(all(feature = "cli", unix))]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn aqmsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_aqmsim")).args(args).output().expect("aqmsim runs")
}

fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A fresh directory with a FIFO, a link to a regular file and a directory named `sub`.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("aqmsim-out-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("sub")).unwrap();
    let made = Command::new("mkfifo").arg(d.join("fifo")).status().expect("mkfifo runs");
    assert!(made.success());
    std::fs::write(d.join("target.txt"), "keep").unwrap();
    std::os::unix::fs::symlink(d.join("target.txt"), d.join("link")).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// What was there is still there, untouched.
fn intact(d: &Path) {
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(d.join("fifo")).unwrap().file_type().is_fifo());
    assert!(std::fs::symlink_metadata(d.join("link")).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_to_string(d.join("target.txt")).unwrap(), "keep");
    assert!(d.join("sub").is_dir());
}

/// Refused with exit code 1 and a message naming the path and what is there; nothing
/// printed on stdout, which every command fills only after its runs.
fn refused(out: &Output, path: &Path, what: &str) {
    let err = stderr_of(out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(s(path)) && err.contains(what), "{err}");
    assert!(out.stdout.is_empty(), "ran before refusing: {}", String::from_utf8_lossy(&out.stdout));
}

const SHORT: [&str; 4] = ["--set", "duration_s=1", "--set", "warmup_s=0"];

#[test]
fn sweep_and_train_refuse_a_fifo_a_link_or_a_directory_before_running() {
    let d = scratch("files");
    for (name, what) in [("fifo", "a FIFO"), ("link", "is a symbolic link"), ("sub", "a directory is there")]
    {
        let p = d.join(name);
        let mut args =
            vec!["sweep", "--preset", "rtt-unfair", "--variants", "fifo", "--seeds", "1", "--out", s(&p)];
        args.extend(SHORT);
        refused(&aqmsim(&args), &p, what);
        let w = d.join("w.json");
        let mut args =
            vec!["train", "--preset", "dqn-dumbbell", "--episodes", "1", "--out", s(&w), "--curve", s(&p)];
        args.extend(SHORT);
        refused(&aqmsim(&args), &p, what);
        assert!(!w.exists(), "weights written before the curve's path was refused");
        intact(&d);
    }
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn run_and_compare_refuse_what_is_not_a_regular_file_in_the_output_directory() {
    let d = scratch("dir");
    let out = d.join("out");
    std::fs::create_dir(&out).unwrap();
    // A FIFO where a trace goes, a directory where summary.json goes.
    let fifo = out.join("gentle_queue.csv");
    Command::new("mkfifo").arg(&fifo).status().unwrap();
    let mut args = vec!["run", "--preset", "red-study", "--variant", "gentle", "-q", "--out", s(&out)];
    args.extend(SHORT);
    refused(&aqmsim(&args), &fifo, "a FIFO");
    std::fs::remove_file(&fifo).unwrap();
    let summary = out.join("summary.json");
    std::fs::create_dir(&summary).unwrap();
    refused(&aqmsim(&args), &summary, "a directory is there");
    let mut args =
        vec!["compare", "--preset", "red-study", "--variants", "gentle,red", "-q", "--out", s(&out)];
    args.extend(SHORT);
    refused(&aqmsim(&args), &summary, "a directory is there");
    std::fs::remove_dir(&summary).unwrap();
    let names: Vec<_> = std::fs::read_dir(&out).unwrap().collect();
    assert!(names.is_empty(), "files written before the refusal: {names:?}");
    // The output directory itself a link, or a FIFO.
    for (name, what) in [("link", "is a symbolic link"), ("fifo", "a FIFO")] {
        let p = d.join(name);
        let mut args = vec!["run", "--preset", "red-study", "--variant", "gentle", "-q", "--out", s(&p)];
        args.extend(SHORT);
        refused(&aqmsim(&args), &p, what);
    }
    intact(&d);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn stale_temporary_files_of_a_dead_run_are_removed_and_nothing_else() {
    let d = scratch("stale");
    let out = d.join("out");
    std::fs::create_dir(&out).unwrap();
    let mut child = Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let alive = std::process::id();
    let stale = format!("gentle_queue.csv.{dead}.tmp");
    let keep = [
        format!("gentle_queue.csv.{alive}.tmp"), // a run still going
        format!("notes.csv.{dead}.tmp"),         // not a name this run writes
        format!("gentle_queue.csv.{dead}x.tmp"), // not the pattern
    ];
    for n in keep.iter().chain([&stale]) {
        std::fs::write(out.join(n), "partial").unwrap();
    }
    let mut args = vec!["run", "--preset", "red-study", "--variant", "gentle", "-q", "--out", s(&out)];
    args.extend(SHORT);
    let r = aqmsim(&args);
    assert!(r.status.success(), "{}", stderr_of(&r));
    for n in &keep {
        assert!(out.join(n).exists(), "{n} removed");
    }
    if Path::new("/proc/self").exists() {
        assert!(!out.join(&stale).exists(), "{stale} left");
    }
    let tmps: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp") && !keep.contains(n) && *n != stale)
        .collect();
    assert!(tmps.is_empty(), "the run left {tmps:?}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn inputs_that_crashed_the_cluster_command_are_usage_errors() {
    let d = scratch("cluster");
    let fig2 = d.join("fig2.json");
    std::fs::write(&fig2, "[40, 152, 200, 1952, 2384, 2414]").unwrap();
    let huge = d.join("huge.json");
    std::fs::write(&huge, "[1e308, 1e308, 5, 1e308]").unwrap();
    let digits = "9".repeat(300);
    let cases: [(Vec<&str>, i32, &str); 5] = [
        (vec!["--init", "conservative", "--k", "3"], 2, "--init conservative"),
        (vec!["--k", "4294967295"], 2, "4294967295 is not in 1..=32"),
        (vec!["--k", &digits], 2, "for '--k <K>'"),
        (
            vec!["--k", "3", "--current", "[0,-1,1,0,0,0]"],
            2,
            "--current[1] = -1: queues are whole numbers from 0 to 2",
        ),
        (vec!["--k", "3", "--current", "[0,3,1,0,0,0]"], 2, "--current[1] = 3"),
    ];
    for (flags, code, expect) in cases {
        let mut args = vec!["cluster"];
        args.extend(&flags);
        args.push(s(&fig2));
        let out = aqmsim(&args);
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(code), "{flags:?}: {err}");
        assert!(err.contains(expect), "{flags:?}: {err}");
        assert!(!err.contains(&"9".repeat(100)), "{flags:?} echoed 300 digits");
    }
    let out = aqmsim(&["cluster", "--k", "3", s(&huge)]);
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("backlogs[0] = 1e308: backlogs are cells from 0 to 1e15"), "{err}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("NaN"));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn sweeps_and_comparisons_too_big_to_hold_are_refused_by_count() {
    let mut args = vec!["sweep", "--preset", "rtt-unfair"];
    let vary: Vec<String> = (0..8)
        .map(|i| {
            format!("flows[0].count={}", (1..=10).map(|v| (v + i).to_string()).collect::<Vec<_>>().join(","))
        })
        .collect();
    for v in &vary {
        args.extend(["--vary", v]);
    }
    let out = aqmsim(&args);
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("= 2500000000 runs") && err.contains("at most 100000"), "{err}");
    let out = aqmsim(&["compare", "--preset", "dqn-dumbbell", "--seeds", "4294967295"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr_of(&out));
    assert!(stderr_of(&out).contains("4294967295 is not in 1..=100000"), "{}", stderr_of(&out));
}

/// An error written to a stderr nobody reads (a closed pipe) once panicked in `eprintln!`
/// and exited 101; the intended code comes out.
#[test]
fn an_unwritable_stderr_keeps_the_exit_code() {
    let d = scratch("stderr");
    let missing = d.join("missing.json");
    for (args, code) in [
        (vec!["cluster", "--init", "conservative", "--k", "3", s(&missing)], 2),
        (vec!["cluster", "--k", "3", s(&missing)], 1),
        (vec!["cluster", "--k", "0", s(&missing)], 2),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_aqmsim"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stderr.take()); // the reading end closes before the child starts writing
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code), "{args:?}");
    }
    std::fs::remove_dir_all(&d).ok();
}
