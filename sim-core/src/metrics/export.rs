//! The RED study's three CSV traces, written from a run's record. The CLI writes them to
//! files and the web app offers them as downloads.

use super::{DropRecord, Sample};
use std::fmt::Write as _;

/// `<alg>_queue.csv`: time_s,packets,avg_packets (avg empty for non-RED discs).
pub fn queue_csv(samples: &[Sample]) -> String {
    let mut s = String::from("time_s,packets,avg_packets\n");
    for x in samples {
        let avg = x.queue_avg.map(|a| format!("{a:.6}")).unwrap_or_default();
        let _ = writeln!(s, "{:.3},{},{}", x.t_s, x.queue_packets, avg);
    }
    s
}

/// `<alg>_drops.csv`: time_s,flow,reason for every drop at the bottleneck.
pub fn drops_csv(drops: &[DropRecord]) -> String {
    let mut s = String::from("time_s,flow,reason\n");
    for d in drops.iter().filter(|d| d.link == 0) {
        let _ = writeln!(s, "{:.9},{},{}", d.t_s, d.flow, d.reason.as_str());
    }
    s
}

/// `<alg>_throughput.csv`: time_s,bits_per_s (aggregate goodput over the interval).
pub fn throughput_csv(samples: &[Sample]) -> String {
    let mut s = String::from("time_s,bits_per_s\n");
    for x in samples {
        let _ = writeln!(s, "{:.3},{:.1}", x.t_s, x.goodput_bps);
    }
    s
}
