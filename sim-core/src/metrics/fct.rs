//! Flow completion times of finite flows and their slowdowns, by flow size: the figure
//! datacentre courses plot ("FCT slowdown against flow size", pFabric, Alizadeh et al.,
//! SIGCOMM 2013, §5; HPCC, Li et al., SIGCOMM 2019, §5.1).
//!
//! A flow's completion time runs from its SYN to the ACK of its last byte (its FIN). Its
//! slowdown is that over the ideal: the same flow alone on an empty path with a window that
//! never limits it, two base RTTs (the handshake, then the last byte's ACK) plus its bytes
//! on the wire at the slowest link of its route. The ideal leaves out each hop's store and
//! forward of one packet, so a slowdown is never below 1 (a property test checks it); a
//! one-segment flow alone comes within a fraction of a percent of 1.

use serde::{Deserialize, Serialize};

/// Upper edges of the size bins, bytes: under 10 kB, 10-100 kB, 100 kB-1 MB, 1-10 MB and
/// 10 MB or more (decades, as the web-search and data-mining workloads span them).
pub const BIN_EDGES: [u64; 4] = [10_000, 100_000, 1_000_000, 10_000_000];

/// A finite flow or transfer that completed, as the run records it (the page computes its
/// ideal from the scenario, [`Completion::of`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Transfer {
    pub flow: u32,
    pub group: u32,
    pub bytes: u64,
    /// When it arrived (asked for its connection; a flow sent once: its SYN), s.
    pub arrived_s: f64,
    /// Arrival to the ACK of its last byte, s.
    pub fct_s: f64,
}

/// One finite flow that completed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Completion {
    pub flow: u32,
    pub group: u32,
    pub bytes: u64,
    /// When it sent its SYN, s.
    pub start_s: f64,
    /// SYN to the ACK of its last byte, s.
    pub fct_s: f64,
    /// The same flow alone on an empty path, s.
    pub ideal_s: f64,
    /// From its start to the moment its receiver had every byte, s (an ACK's way back
    /// sooner than `fct_s`); `None` if that was not seen.
    pub received_s: Option<f64>,
}

/// Percentiles of the completion times and slowdowns of a set of flows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FctRow {
    /// Sizes in [min_bytes, max_bytes); `None` = no upper bound.
    pub min_bytes: u64,
    pub max_bytes: Option<u64>,
    pub flows: u32,
    pub fct_p50_s: f64,
    pub fct_p95_s: f64,
    pub fct_p99_s: f64,
    pub slowdown_p50: f64,
    pub slowdown_p95: f64,
    pub slowdown_p99: f64,
}

impl FctRow {
    /// Its sizes in words: `under 10 kB`, `10 kB-100 kB`, `10 MB or more`.
    pub fn sizes(&self) -> String {
        let words = |b: u64| match b {
            b if b >= 1_000_000 => format!("{} MB", b / 1_000_000),
            b => format!("{} kB", b / 1000),
        };
        match self.max_bytes {
            Some(hi) if self.min_bytes == 0 => format!("under {}", words(hi)),
            Some(hi) => format!("{}-{}", words(self.min_bytes), words(hi)),
            None => format!("{} or more", words(self.min_bytes)),
        }
    }
}

/// The run's finite flows: every completed one, by size bin and by flow group.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FctStats {
    /// Finite flows that completed by the end of the run.
    pub completed: u32,
    /// Finite flows that started and had not completed.
    pub unfinished: u32,
    /// Every completed flow.
    pub all: Option<FctRow>,
    /// By size ([`BIN_EDGES`]), the bins that hold a flow.
    pub by_size: Vec<FctRow>,
    /// By flow group (`group`), the groups with a completed flow.
    pub by_group: Vec<(u32, FctRow)>,
}

/// Nearest-rank percentile `p` (0-100) of sorted `v`.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn row(flows: &[&Completion], min_bytes: u64, max_bytes: Option<u64>) -> Option<FctRow> {
    if flows.is_empty() {
        return None;
    }
    let sorted = |f: &dyn Fn(&Completion) -> f64| {
        super::stats::sorted(&flows.iter().map(|c| f(c)).collect::<Vec<_>>())
    };
    let fct = sorted(&|c| c.fct_s);
    let slow = sorted(&|c| c.fct_s / c.ideal_s);
    Some(FctRow {
        min_bytes,
        max_bytes,
        flows: flows.len() as u32,
        fct_p50_s: percentile(&fct, 50.0),
        fct_p95_s: percentile(&fct, 95.0),
        fct_p99_s: percentile(&fct, 99.0),
        slowdown_p50: percentile(&slow, 50.0),
        slowdown_p95: percentile(&slow, 95.0),
        slowdown_p99: percentile(&slow, 99.0),
    })
}

impl Completion {
    /// Flow `flow` of group `group` sent `bytes` from `start_s` to `end_s` (s).
    pub fn of(
        sc: &crate::scenario::Scenario,
        flow: u32,
        group: u32,
        bytes: u64,
        start_s: f64,
        end_s: f64,
    ) -> Completion {
        let g = &sc.flows[group as usize];
        Completion {
            flow,
            group,
            bytes,
            start_s,
            fct_s: end_s - start_s,
            ideal_s: sc.ideal_fct_s(g, bytes),
            received_s: None,
        }
    }
}

/// The statistics of `done`, with `unfinished` flows left; `None` when the run has no
/// finite flow.
pub fn stats(done: &[Completion], unfinished: u32) -> Option<FctStats> {
    if done.is_empty() && unfinished == 0 {
        return None;
    }
    let all: Vec<&Completion> = done.iter().collect();
    let mut lower = 0;
    let mut by_size = Vec::new();
    for upper in BIN_EDGES.iter().map(|&e| Some(e)).chain([None]) {
        let inside: Vec<&Completion> =
            all.iter().copied().filter(|c| c.bytes >= lower && upper.is_none_or(|u| c.bytes < u)).collect();
        by_size.extend(row(&inside, lower, upper));
        lower = upper.unwrap_or(u64::MAX);
    }
    // The groups with a completion, in group order (marked, not sorted).
    let top = done.iter().map(|c| c.group as usize).max().map_or(0, |g| g + 1);
    let mut seen = vec![false; top];
    for c in done {
        seen[c.group as usize] = true;
    }
    let groups: Vec<u32> = (0..top as u32).filter(|&g| seen[g as usize]).collect();
    let by_group = (groups.into_iter())
        .filter_map(|g| {
            let of: Vec<&Completion> = all.iter().copied().filter(|c| c.group == g).collect();
            let (lo, hi) = (of.iter().map(|c| c.bytes).min()?, of.iter().map(|c| c.bytes).max()?);
            row(&of, lo, Some(hi + 1)).map(|r| (g, r))
        })
        .collect();
    Some(FctStats { completed: done.len() as u32, unfinished, all: row(&all, 0, None), by_size, by_group })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(group: u32, bytes: u64, fct_s: f64) -> Completion {
        Completion { flow: 0, group, bytes, start_s: 0.0, fct_s, ideal_s: 0.1, received_s: None }
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!((percentile(&v, 50.0), percentile(&v, 95.0), percentile(&v, 99.0)), (50.0, 95.0, 99.0));
        assert_eq!(percentile(&[3.0], 99.0), 3.0);
        assert_eq!(percentile(&[1.0, 2.0], 50.0), 1.0);
    }

    #[test]
    fn flows_fall_into_their_size_bins_and_groups() {
        let done = [c(0, 5_000, 0.2), c(0, 9_999, 0.4), c(1, 10_000, 0.3), c(1, 20_000_000, 2.0)];
        let s = stats(&done, 3).unwrap();
        assert_eq!((s.completed, s.unfinished), (4, 3));
        let bins: Vec<(u64, Option<u64>, u32)> =
            s.by_size.iter().map(|r| (r.min_bytes, r.max_bytes, r.flows)).collect();
        assert_eq!(bins, [(0, Some(10_000), 2), (10_000, Some(100_000), 1), (10_000_000, None, 1)]);
        assert_eq!(s.by_size[0].fct_p50_s, 0.2);
        assert_eq!(s.by_size[0].slowdown_p99, 4.0);
        assert_eq!(s.by_group.iter().map(|(g, r)| (*g, r.flows)).collect::<Vec<_>>(), [(0, 2), (1, 2)]);
        assert_eq!(s.all.unwrap().flows, 4);
    }

    #[test]
    fn no_finite_flow_no_statistics_and_none_completed_says_so() {
        assert_eq!(stats(&[], 0), None);
        let s = stats(&[], 2).unwrap();
        assert_eq!((s.completed, s.unfinished, s.all), (0, 2, None));
        assert!(s.by_size.is_empty());
    }
}
