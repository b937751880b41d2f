//! The study's three CSV traces and summary.json.

use sim_core::metrics::{Recorder, Summary};
use std::fmt::Write as _;
use std::path::Path;

/// `<alg>_queue.csv`: time_s,packets,avg_packets (avg empty for non-RED discs).
pub fn queue_csv(rec: &Recorder) -> String {
    let mut s = String::from("time_s,packets,avg_packets\n");
    for x in &rec.samples {
        let avg = x.queue_avg.map(|a| format!("{a:.6}")).unwrap_or_default();
        let _ = writeln!(s, "{:.3},{},{}", x.t_s, x.queue_packets, avg);
    }
    s
}

/// `<alg>_drops.csv`: time_s,flow,reason for every drop at the bottleneck.
pub fn drops_csv(rec: &Recorder) -> String {
    let mut s = String::from("time_s,flow,reason\n");
    for d in rec.drops.iter().filter(|d| d.link == 0) {
        let _ = writeln!(s, "{:.9},{},{}", d.t_s, d.flow, d.reason.as_str());
    }
    s
}

/// `<alg>_throughput.csv`: time_s,bits_per_s (aggregate goodput over the interval).
pub fn throughput_csv(rec: &Recorder) -> String {
    let mut s = String::from("time_s,bits_per_s\n");
    for x in &rec.samples {
        let _ = writeln!(s, "{:.3},{:.1}", x.t_s, x.goodput_bps);
    }
    s
}

pub fn write_all(dir: &Path, alg: &str, rec: &Recorder, summary: &Summary) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let files = [
        (format!("{alg}_queue.csv"), queue_csv(rec)),
        (format!("{alg}_drops.csv"), drops_csv(rec)),
        (format!("{alg}_throughput.csv"), throughput_csv(rec)),
        (format!("{alg}_summary.json"), serde_json::to_string_pretty(summary).map_err(|e| e.to_string())?),
    ];
    for (name, body) in files {
        let p = dir.join(name);
        std::fs::write(&p, body).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(())
}
