//! The traces a run writes: the RED study's three CSV files, the per-flow trace, the named
//! series, the algorithms' logs and the per-flow KDEs. The CLI writes them to files and the
//! web app offers them as downloads.

use super::histogram::LogHistogram;
use super::kde::kde_histogram;
use super::{DropRecord, Recorder, Sample};
use crate::trace::{LogRecord, SeriesInfo};
use serde_json::Value;
use std::fmt::Write as _;

/// Series of the `queue` group: they go next to the queue length.
fn queue_series(info: &[SeriesInfo]) -> Vec<usize> {
    info.iter().enumerate().filter(|(_, s)| s.group == "queue").map(|(i, _)| i).collect()
}

/// A CSV trace that can be written in pieces as a run goes: its header, then rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trace {
    /// `<alg>_queue.csv`: time_s,packets and every series of the `queue` group (RED's EWMA
    /// average `red.avg`, a switch port's `queue[k].cells`), then device_packets (what
    /// waits in the device queue under the disc: packets there wait too).
    Queue,
    /// `<alg>_throughput.csv`: time_s,bits_per_s (aggregate in-order goodput over the
    /// interval, as the study's PacketSink sampling) and arrival_bits_per_s (new bytes
    /// reaching the receivers: never above the link rate).
    Throughput,
    /// `<alg>_flows.csv`: per sample and flow, the queue it uses, its backlog in cells and
    /// packets, goodput, cwnd and smoothed RTT (Warbler Figs. 4-7, DQN Figs. 2-3), and the
    /// mean queueing delay of its packets sent in the interval (empty when none was).
    Flows,
    /// `<alg>_series.csv`: time_s and one column per named series.
    Series,
}

impl Trace {
    pub const ALL: [Trace; 4] = [Trace::Queue, Trace::Throughput, Trace::Flows, Trace::Series];

    pub fn file_suffix(self) -> &'static str {
        match self {
            Trace::Queue => "queue",
            Trace::Throughput => "throughput",
            Trace::Flows => "flows",
            Trace::Series => "series",
        }
    }

    /// Whether the run has anything for this trace (a series file needs series).
    pub fn applies(self, info: &[SeriesInfo]) -> bool {
        self != Trace::Series || !info.is_empty()
    }

    pub fn header(self, info: &[SeriesInfo]) -> String {
        let mut s = match self {
            Trace::Queue => String::from("time_s,packets"),
            Trace::Throughput => String::from("time_s,bits_per_s,arrival_bits_per_s"),
            Trace::Flows => String::from(
                "time_s,flow,queue,backlog_cells,backlog_packets,goodput_bps,cwnd_bytes,srtt_ms,delay_ms",
            ),
            Trace::Series => String::from("time_s"),
        };
        let cols: Vec<usize> = match self {
            Trace::Queue => queue_series(info),
            Trace::Series => (0..info.len()).collect(),
            _ => Vec::new(),
        };
        for i in cols {
            let _ = write!(s, ",{}", info[i].name);
        }
        if self == Trace::Queue {
            s.push_str(",device_packets");
        }
        s.push('\n');
        s
    }

    pub fn rows(self, samples: &[Sample], info: &[SeriesInfo]) -> String {
        let mut s = String::new();
        let queue_cols = queue_series(info);
        for x in samples {
            match self {
                Trace::Queue => {
                    let _ = write!(s, "{:.3},{}", x.t_s, x.queue_packets);
                    for &i in &queue_cols {
                        let _ = write!(s, ",{:.6}", x.series.get(i).copied().unwrap_or(0.0));
                    }
                    let _ = writeln!(s, ",{}", x.nic_packets);
                }
                Trace::Throughput => {
                    let _ = writeln!(s, "{:.3},{:.1},{:.1}", x.t_s, x.goodput_bps, x.arrival_bps);
                }
                Trace::Flows => {
                    for f in 0..x.flow_goodput_bps.len() {
                        let _ = write!(
                            s,
                            "{:.3},{},{},{},{},{:.1},{},{:.3},",
                            x.t_s,
                            f,
                            x.flow_queue.get(f).copied().unwrap_or(0),
                            x.flow_backlog_cells.get(f).copied().unwrap_or(0),
                            x.flow_backlog_packets.get(f).copied().unwrap_or(0),
                            x.flow_goodput_bps[f],
                            x.flow_cwnd_bytes.get(f).copied().unwrap_or(0),
                            x.flow_srtt_ms.get(f).copied().unwrap_or(0.0)
                        );
                        if let Some(d) = x.flow_delay_ms.get(f).copied().flatten() {
                            let _ = write!(s, "{d:.3}");
                        }
                        s.push('\n');
                    }
                }
                Trace::Series => {
                    let _ = write!(s, "{:.3}", x.t_s);
                    for v in &x.series {
                        let _ = write!(s, ",{v:.6}");
                    }
                    s.push('\n');
                }
            }
        }
        s
    }

    /// Header and every row at once.
    pub fn csv(self, samples: &[Sample], info: &[SeriesInfo]) -> String {
        self.header(info) + &self.rows(samples, info)
    }
}

/// `<alg>_queue.csv` at once.
pub fn queue_csv(samples: &[Sample], info: &[SeriesInfo]) -> String {
    Trace::Queue.csv(samples, info)
}

/// `<alg>_throughput.csv` at once.
pub fn throughput_csv(samples: &[Sample]) -> String {
    Trace::Throughput.csv(samples, &[])
}

/// `<alg>_flows.csv` at once.
pub fn flows_csv(samples: &[Sample]) -> String {
    Trace::Flows.csv(samples, &[])
}

/// `<alg>_series.csv` at once; None when there are no series.
pub fn series_csv(samples: &[Sample], info: &[SeriesInfo]) -> Option<String> {
    Trace::Series.applies(info).then(|| Trace::Series.csv(samples, info))
}

pub const DROPS_HEADER: &str = "time_s,flow,reason\n";

/// Rows of `<alg>_drops.csv`: time_s,flow,reason for every drop at the bottleneck.
pub fn drops_rows(drops: &[DropRecord]) -> String {
    let mut s = String::new();
    for d in drops.iter().filter(|d| d.at_bottleneck()) {
        let _ = writeln!(s, "{:.9},{},{}", d.t_s, d.flow, d.reason.as_str());
    }
    s
}

/// `<alg>_fct.csv`: each finite flow or transfer that completed ([`crate::sim::Simulation::completions`]),
/// its size, start, completion time, the ideal ([`crate::scenario::Scenario::ideal_fct_s`]),
/// the slowdown and the time to its receiver's last byte; `None` when the run has no finite
/// flow.
pub fn fct_csv(s: &super::Summary, done: &[super::fct::Completion]) -> Option<String> {
    s.fct.as_ref()?;
    let mut out = String::from("flow,group,bytes,start_s,fct_s,ideal_s,slowdown,received_s\n");
    for c in done {
        let received = c.received_s.map_or(String::new(), |r| format!("{r:.9}"));
        let _ = writeln!(
            out,
            "{},{},{},{:.9},{:.9},{:.9},{:.6},{received}",
            c.flow,
            c.group,
            c.bytes,
            c.start_s,
            c.fct_s,
            c.ideal_s,
            c.fct_s / c.ideal_s
        );
    }
    Some(out)
}

/// `<alg>_pings.csv`: every ping answered, its flow, send time and RTT; `None` without pings.
pub fn pings_csv(pings: &[super::pings::PingSample]) -> Option<String> {
    if pings.is_empty() {
        return None;
    }
    let mut out = String::from("flow,sent_s,rtt_ms\n");
    for p in pings {
        let _ = writeln!(out, "{},{:.9},{:.6}", p.flow, p.sent_s, p.rtt_ms);
    }
    Some(out)
}

/// `<alg>_marks.csv`: every CE mark at the bottleneck as the marked packet left it
/// (time_s,flow,reason), thinned as the drops are once there are very many; `None` when
/// nothing was marked.
pub fn marks_csv(marks: &super::Thinned<DropRecord>) -> Option<String> {
    (marks.seen() > 0).then(|| String::from(DROPS_HEADER) + &drops_rows(&marks.kept))
}

/// `<alg>_drops.csv` at once.
pub fn drops_csv(drops: &[DropRecord]) -> String {
    String::from(DROPS_HEADER) + &drops_rows(drops)
}

fn csv_cell(v: &Value) -> String {
    match v {
        Value::Array(a) => a.iter().map(csv_cell).collect::<Vec<_>>().join(";"),
        Value::String(t) => t.replace([',', '\n'], " "),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// `<alg>_<source>.csv` for each source of log records: t_s and one column per field (in
/// first-seen order); arrays are joined with `;`.
pub fn log_csvs(log: &[LogRecord]) -> Vec<(String, String)> {
    let mut sources: Vec<&str> = Vec::new();
    for r in log {
        if !sources.contains(&r.source.as_str()) {
            sources.push(&r.source);
        }
    }
    sources
        .into_iter()
        .map(|src| {
            let rows: Vec<&LogRecord> = log.iter().filter(|r| r.source == src).collect();
            let mut keys: Vec<&str> = Vec::new();
            for r in &rows {
                for k in r.fields.keys() {
                    if !keys.contains(&k.as_str()) {
                        keys.push(k);
                    }
                }
            }
            let mut s = format!("t_s,{}\n", keys.join(","));
            for r in rows {
                let cells: Vec<String> =
                    keys.iter().map(|k| r.fields.get(*k).map(csv_cell).unwrap_or_default()).collect();
                let _ = writeln!(s, "{:.6},{}", r.t_s, cells.join(","));
            }
            (src.to_string(), s)
        })
        .collect()
}

/// Rows `flow,x,density` of each flow's density over [0, the largest value seen].
fn kde_rows(header: &str, per_flow: &[&LogHistogram], points: usize) -> String {
    let mut s = String::from(header);
    let hi = per_flow.iter().filter_map(|h| h.max()).fold(0.0, f64::max).max(1e-9);
    for (f, h) in per_flow.iter().enumerate() {
        if let Some(d) = kde_histogram(h, 0.0, hi, points) {
            for (x, y) in d.xs.iter().zip(&d.ys) {
                let _ = writeln!(s, "{f},{x:.6},{y:.9}");
            }
        }
    }
    s
}

/// `<alg>_backlog_kde.csv`: each flow's backlog density in cells over the window (Fig. 5).
pub fn backlog_kde_csv(rec: &Recorder) -> String {
    let hs: Vec<&LogHistogram> = rec.window.flows().iter().map(|f| &f.backlog_cells).collect();
    kde_rows("flow,backlog_cells,density\n", &hs, 200)
}

/// `<alg>_delay_kde.csv`: each flow's queueing-delay density in ms over the window (Fig. 8).
pub fn delay_kde_csv(rec: &Recorder) -> String {
    let ms: Vec<LogHistogram> = rec
        .window
        .flows()
        .iter()
        .map(|f| {
            let mut h = LogHistogram::default();
            for (x, c) in f.delay.density_points() {
                h.record_n(x * 1e3, c);
            }
            h
        })
        .collect();
    kde_rows("flow,delay_ms,density\n", &ms.iter().collect::<Vec<_>>(), 200)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;
    use crate::sim::Simulation;

    #[test]
    fn every_export_has_its_header_and_one_row_per_record() {
        let mut sc = preset("red-study", Some("gentle")).unwrap();
        sc.duration_s = 3.0;
        let mut sim = Simulation::new(&sc).unwrap();
        sim.finish();
        let r = sim.recorder();
        let q = queue_csv(&r.samples.kept, &r.series_info);
        assert!(q.starts_with("time_s,packets,red.avg,device_packets\n"), "{}", &q[..40]);
        assert_eq!(q.lines().count(), 1 + r.samples.kept.len());
        assert_eq!(throughput_csv(&r.samples.kept).lines().count(), 1 + r.samples.kept.len());
        assert_eq!(
            drops_csv(&r.drops.kept).lines().count(),
            1 + r.drops.kept.iter().filter(|d| d.at_bottleneck()).count()
        );
        assert_eq!(flows_csv(&r.samples.kept).lines().count(), 1 + 10 * r.samples.kept.len());
        let kde = delay_kde_csv(r);
        assert!(kde.starts_with("flow,delay_ms,density\n"));
        // 200 points per flow that has at least two delay samples.
        let rows = kde.lines().count() - 1;
        assert!(rows % 200 == 0 && rows >= 5 * 200, "{rows} rows");
        assert!(backlog_kde_csv(r).lines().count() > 1);
    }

    #[test]
    fn log_records_become_one_csv_per_source_with_arrays_joined() {
        let log = vec![
            LogRecord::new(1.0, "app").with("j", 2.5).with("labels", vec![0, 1, 1]),
            LogRecord::new(2.0, "app").with("j", 1.5).with("note", "a,b"),
        ];
        let files = log_csvs(&log);
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].1, "t_s,j,labels,note\n1.000000,2.5,0;1;1,\n2.000000,1.5,,a b\n");
    }
}
