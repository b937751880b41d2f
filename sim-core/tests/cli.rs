//! The `aqmsim` binary end to end: bad input is refused with field-level errors, a run
//! writes the study's three CSV files and summary.json.
#![cfg(feature = "cli")]

use std::process::Command;

fn aqmsim(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_aqmsim")).args(args).output().expect("aqmsim runs")
}

#[test]
fn a_bad_scenario_exits_non_zero_naming_each_field_and_range() {
    let out =
        aqmsim(&["run", "--preset", "red-study", "--set", "bottleneck.rate_bps=0", "--set", "duration_s=-1"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bottleneck.rate_bps = 0"), "{err}");
    assert!(err.contains("duration_s = -1"), "{err}");
    assert!(err.contains("allowed"), "{err}");
}

#[test]
fn a_run_writes_the_three_traces_and_the_summary() {
    let dir = std::env::temp_dir().join(format!("aqmsim-cli-test-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let out = aqmsim(&[
        "run",
        "--preset",
        "red-study",
        "--variant",
        "gentle",
        "--set",
        "duration_s=5",
        "--out",
        d,
        "-q",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let queue = std::fs::read_to_string(dir.join("gentle_queue.csv")).unwrap();
    assert!(queue.starts_with("time_s,packets,red.avg,device_packets\n"));
    assert_eq!(queue.lines().count(), 1 + 50);
    let drops = std::fs::read_to_string(dir.join("gentle_drops.csv")).unwrap();
    assert!(drops.starts_with("time_s,flow,reason\n"));
    let tput = std::fs::read_to_string(dir.join("gentle_throughput.csv")).unwrap();
    assert!(tput.starts_with("time_s,bits_per_s,arrival_bits_per_s\n"));
    let summary = std::fs::read_to_string(dir.join("summary.json")).unwrap();
    for key in ["\"flows\"", "\"throughput_bps\"", "\"cca\"", "\"queue\"", "\"drops\""] {
        assert!(summary.contains(key), "summary.json lacks {key}");
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Table 9"));
    std::fs::remove_dir_all(dir).ok();
}

/// A 2000-flow run splits its senders off (`sim/lane.rs`): one thread or two, every file it
/// writes is the same.
#[test]
fn a_big_run_writes_the_same_files_on_one_thread_as_on_two() {
    let base = std::env::temp_dir().join(format!("aqmsim-cli-threads-{}", std::process::id()));
    let files = |threads: &str| {
        let dir = base.join(threads);
        let d = dir.to_str().unwrap();
        let sets = ["flows[0].count=1000", "flows[1].count=1000", "duration_s=0.3", "warmup_s=0.1"];
        let mut args = vec!["run", "--preset", "rtt-unfair", "--variant", "fq-codel", "--out", d, "-q"];
        for s in &sets {
            args.extend(["--set", s]);
        }
        args.extend(["--threads", threads]);
        let out = aqmsim(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        names.sort();
        names
            .into_iter()
            .map(|p| (p.file_name().unwrap().to_owned(), std::fs::read(&p).unwrap()))
            .collect::<Vec<_>>()
    };
    let (one, two) = (files("1"), files("2"));
    assert!(one.len() >= 5, "{} files", one.len());
    for ((n1, a), (n2, b)) in one.iter().zip(&two) {
        assert_eq!(n1, n2);
        assert!(a == b, "{n1:?} differs");
    }
    std::fs::remove_dir_all(base).ok();
}

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_misspelt_key_is_refused_with_the_closest_valid_one() {
    let out = aqmsim(&["run", "--preset", "red-study", "--set", "bottleneck.rate_bp=1"]);
    assert!(!out.status.success());
    let err = stderr_of(&out);
    assert!(err.contains("'rate_bp'") && err.contains("did you mean 'rate_bps'"), "{err}");
}

#[test]
fn misuse_of_files_and_arguments_gives_an_error_not_a_panic() {
    let file = std::env::temp_dir().join(format!("aqmsim-cli-file-{}", std::process::id()));
    std::fs::write(&file, "not a directory").unwrap();
    let cases: Vec<(Vec<std::ffi::OsString>, &str)> = vec![
        // An output "directory" that is a file.
        (
            ["run", "--preset", "red-study", "--set", "duration_s=3", "-q", "--out"]
                .iter()
                .map(Into::into)
                .chain([file.clone().into_os_string()])
                .collect(),
            "cannot create the output directory",
        ),
        // An endless file is not read whole.
        (vec!["run".into(), "/dev/zero".into()], "larger than"),
        // Text that is not JSON.
        (vec!["validate".into(), file.clone().into_os_string()], "not valid JSON"),
        (
            vec!["run".into(), "--preset".into(), "nope".into()],
            "known: bufferbloat, parking-lot, two-bottlenecks, ack-congestion, web-workload, incast, udp-vs-tcp, red-study",
        ),
    ];
    for (args, expect) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_aqmsim")).args(&args).output().unwrap();
        let err = stderr_of(&out);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(err.contains(expect), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    std::fs::remove_file(file).ok();
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        let bad = std::ffi::OsString::from_vec(vec![0xff, 0xfe]);
        let out = Command::new(env!("CARGO_BIN_EXE_aqmsim")).arg("run").arg(bad).output().unwrap();
        assert!(!out.status.success());
        assert!(stderr_of(&out).contains("UTF-8"), "{}", stderr_of(&out));
    }
}

#[test]
fn a_reader_that_closes_early_does_not_make_it_panic() {
    use std::io::Read;
    use std::process::Stdio;
    // 200 000 labels print as ~1.2 MB of JSON: far more than a pipe holds, so the writer meets
    // the closed pipe.
    let input = std::env::temp_dir().join(format!("aqmsim-cli-backlogs-{}.json", std::process::id()));
    let backlogs: Vec<String> = (0..200_000).map(|i| (i % 5000).to_string()).collect();
    std::fs::write(&input, format!("[{}]", backlogs.join(","))).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_aqmsim"))
        .args(["cluster", "--k", "4", "--json"])
        .arg(&input)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap(); // then dropped: the pipe closes
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    child.wait().unwrap();
    std::fs::remove_file(input).ok();
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn compare_prints_the_warbler_table_2_set_without_and_with() {
    let out = aqmsim(&["compare", "--preset", "cubic-bbr-vegas-3q", "--set", "duration_s=8", "-q"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let table = String::from_utf8_lossy(&out.stdout);
    for row in ["Jain's index", "mean queueing delay (ms)", "jitter P95 - P50 (ms)", "buffer (cells)"] {
        assert!(table.contains(row), "{table}");
    }
    // The paper's Table 2 beside each: 0.69 without, 0.99 with, 1614 and 922 cells.
    assert!(table.contains("0.69") && table.contains("0.99"), "{table}");
    assert!(table.contains("1614") && table.contains("922"), "{table}");
}

/// `--at T:PATH=VALUE` sets a field during the run: the change is logged in
/// `<alg>_change.csv`, and a field that cannot change during a run is refused by name.
#[test]
fn a_timed_change_from_the_command_line_runs_and_is_logged() {
    let dir = std::env::temp_dir().join(format!("aqmsim-cli-at-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let out = aqmsim(&[
        "run",
        "--preset",
        "red-study",
        "--variant",
        "red-nonic",
        "--set",
        "duration_s=10",
        "--at",
        "5:bottleneck.queue.limit={\"packets\": 20}",
        "--out",
        d,
        "-q",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let log = std::fs::read_to_string(dir.join("red-nonic_change.csv")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(log.contains("bottleneck.queue.limit"), "{log}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("published figures are not shown"), "{stdout}");
    let bad = aqmsim(&["validate", "--preset", "red-study", "--at", "5:tcp.mss_bytes=1000"]);
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("changes[0].set") && err.contains("next run"), "{err}");
}

/// Issue 21: files people paste are read strictly, and every refusal names its field.
#[test]
fn pasted_files_are_refused_naming_the_field_without_rust_debug_output() {
    let dir = std::env::temp_dir().join(format!("aqmsim-cli-strict-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().into_owned()
    };
    let scenario = String::from_utf8(aqmsim(&["scenario", "--preset", "red-study"]).stdout).unwrap();
    let rate = scenario.lines().find(|l| l.contains("\"rate_bps\"")).unwrap().to_string();
    let infinite = write("inf.json", &scenario.replacen(&rate, "\"rate_bps\": Infinity,", 1));
    let twice = write("twice.json", &scenario.replacen(&rate, &format!("{rate}\n{rate}"), 1));
    let positional = write("dqn-list.json", "[5, 4, [64]]");
    let misspelt = write("dqn-gama.json", r#"{"gama": 0.9}"#);
    let wide = write("dqn-wide.json", r#"{"state_dim": 6, "actions": 5}"#);
    let out_w = dir.join("w.json").to_string_lossy().into_owned();
    let train = |dqn: &str| {
        aqmsim(&["train", "--preset", "dqn-dumbbell", "--episodes", "1", "-q", "--dqn", dqn, "--out", &out_w])
    };
    let cases: Vec<(std::process::Output, &[&str])> = vec![
        (
            aqmsim(&["validate", &infinite]),
            &["bottleneck.rate_bps: Infinity is not a finite number", "allowed: 1000 to"],
        ),
        (aqmsim(&["validate", &twice]), &["bottleneck.rate_bps: the key \"rate_bps\" appears twice"]),
        (
            aqmsim(&["run", "--preset", "dqn-dumbbell", "--set", "flows[0].cca.model=nope", "-q"]),
            &["flows[0].cca.model = nope", "dqn-dumbbell"],
        ),
        (train(&positional), &["json: expected an object of named settings"]),
        (train(&misspelt), &["gama", "did you mean 'gamma'"]),
        (train(&wide), &["state_dim: expected 5", "got 6", "actions: expected 4", "got 5"]),
    ];
    for (out, expect) in cases {
        let err = stderr_of(&out);
        assert!(!out.status.success(), "{err}");
        for e in expect {
            assert!(err.contains(e), "{e:?} missing: {err}");
        }
        // No Rust Debug output: `Struct { field: … }` or a quoted list of them.
        assert!(!err.contains(" { ") && !err.contains("panicked"), "{err}");
    }
    assert!(!std::path::Path::new(&out_w).exists(), "refused training wrote weights");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn validate_prints_the_estimate_in_units_a_person_reads() {
    let out = aqmsim(&["validate", "--preset", "red-study"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    // Small figures keep a digit ("2.3 MB", "under 0.1 s"), not "0 MB" and "0 s".
    assert!(
        text.contains("MB of memory") && text.contains("under 0.1 s") && !text.contains(" 0 MB"),
        "{text}"
    );
    let slow = aqmsim(&["validate", "--preset", "rtt-unfair", "--set", "duration_s=600"]);
    let text = String::from_utf8_lossy(&slow.stdout);
    assert!(text.contains(" s here") && !text.contains("under 0.1 s here"), "{text}");
}
