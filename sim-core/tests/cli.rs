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
    assert!(queue.starts_with("time_s,packets,red.avg\n"));
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
