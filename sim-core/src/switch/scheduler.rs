//! Egress schedulers of a switch port: round robin, weighted round robin (packets),
//! deficit weighted round robin (bytes, Shreedhar & Varghese 1995) and strict priority.

use crate::params::{Algorithm, Described, Field, Kind, Range};
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// The service rule a scheduler configuration stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// One packet per non-empty queue in turn.
    RoundRobin,
    /// Up to `weight` packets per queue per round.
    Wrr,
    /// Each round a queue earns weight × quantum bytes of credit.
    Dwrr { quantum_bytes: u32 },
    /// Lowest queue index first.
    StrictPriority,
}

pub trait SchedulerConfig: Debug {
    fn rule(&self) -> Rule;
}

crate::registry! {
    /// How a switch port picks the next queue (`{"type": "wrr"}`).
    pub enum SchedulerSpec as "scheduler": dyn SchedulerConfig {
        RoundRobin(RoundRobinConfig),
        Wrr(WrrConfig),
        Dwrr(DwrrConfig),
        StrictPriority(StrictPriorityConfig),
    }
}

impl Default for SchedulerSpec {
    fn default() -> Self {
        SchedulerSpec::Wrr(WrrConfig {})
    }
}

/// Declares a scheduler without parameters.
macro_rules! plain_scheduler {
    ($name:ident, $tag:literal, $label:literal, $help:literal, $rule:expr) => {
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {}

        impl Described for $name {
            const INFO: Algorithm =
                Algorithm { tag: $tag, label: $label, help: $help, fields: &[], flavours: &[] };
        }

        impl SchedulerConfig for $name {
            fn rule(&self) -> Rule {
                $rule
            }
        }
    };
}

plain_scheduler!(
    RoundRobinConfig,
    "round_robin",
    "RR",
    "One packet per non-empty queue in turn.",
    Rule::RoundRobin
);
plain_scheduler!(WrrConfig, "wrr", "WRR (packets)", "Up to weight packets per queue per round.", Rule::Wrr);
plain_scheduler!(
    StrictPriorityConfig,
    "strict_priority",
    "Strict priority",
    "The lowest-numbered backlogged queue first.",
    Rule::StrictPriority
);

/// Deficit weighted round robin (Shreedhar & Varghese 1995), as Tofino's DWRR.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DwrrConfig {
    pub quantum_bytes: u32,
}

impl Default for DwrrConfig {
    fn default() -> Self {
        DwrrConfig { quantum_bytes: 1514 }
    }
}

impl Described for DwrrConfig {
    const INFO: Algorithm = Algorithm {
        tag: "dwrr",
        label: "DWRR (bytes)",
        help: "Each round a queue earns weight × quantum bytes of credit and sends while its head fits.",
        fields: &[Field::new(
            "quantum_bytes",
            "Quantum",
            "bytes",
            Kind::Int(Range::closed(64.0, 1_048_576.0)),
            "Credit per round and unit of weight (one MTU, 1514).",
        )],
        flavours: &[],
    };
}

impl SchedulerConfig for DwrrConfig {
    fn rule(&self) -> Rule {
        Rule::Dwrr { quantum_bytes: self.quantum_bytes }
    }
}

/// Scheduler state. `pick` chooses the queue to serve given which queues are backlogged
/// and the size of each head packet.
#[derive(Clone, Debug)]
pub struct Scheduler {
    rule: Rule,
    current: usize,
    /// WRR: packets left in the current queue's turn. DWRR: per-queue deficit in bytes.
    budget: Vec<i64>,
    fresh_turn: bool,
}

impl Scheduler {
    pub fn new(spec: &SchedulerSpec, queues: usize) -> Scheduler {
        Scheduler { rule: spec.get().rule(), current: 0, budget: vec![0; queues], fresh_turn: true }
    }

    /// The queue to dequeue from; `head(q)` is the head packet's size in bytes if `q` is
    /// backlogged. Returns None only when every queue is empty.
    pub fn pick(&mut self, weights: &[u32], head: impl Fn(usize) -> Option<u32>) -> Option<usize> {
        let n = self.budget.len();
        if (0..n).all(|q| head(q).is_none()) {
            return None;
        }
        let weight = |q: usize| i64::from(weights.get(q).copied().unwrap_or(1).max(1));
        match self.rule {
            Rule::StrictPriority => (0..n).find(|&q| head(q).is_some()),
            Rule::RoundRobin => {
                let q = (0..n).map(|k| (self.current + k) % n).find(|&q| head(q).is_some())?;
                self.current = (q + 1) % n;
                Some(q)
            }
            Rule::Wrr => {
                // Visit queues in turn; a queue keeps the turn for `weight` packets. Weights
                // are ≥ 1, so a backlogged queue is served within one round.
                loop {
                    let q = self.current;
                    if self.fresh_turn {
                        self.budget[q] = weight(q);
                        self.fresh_turn = false;
                    }
                    if head(q).is_some() && self.budget[q] > 0 {
                        self.budget[q] -= 1;
                        return Some(q);
                    }
                    self.current = (q + 1) % n;
                    self.fresh_turn = true;
                }
            }
            Rule::Dwrr { quantum_bytes } => {
                let quantum = i64::from(quantum_bytes.max(1));
                loop {
                    if let Some(q) = self.dwrr_round(n, quantum, &weight, &head) {
                        return Some(q);
                    }
                    // A whole round served nothing: every backlogged head needs more credit
                    // than one quantum gives. Grant at once the rounds the first eligible
                    // queue still needs, as the idle rounds would have (bounded work for any
                    // quantum, where giving up would stall the link).
                    let rounds_needed = |q: usize, b: u32| {
                        let grant = weight(q) * quantum;
                        ((i64::from(b) - self.budget[q]).max(0) + grant - 1) / grant
                    };
                    let skip =
                        (0..n).filter_map(|q| head(q).map(|b| rounds_needed(q, b))).min().unwrap_or(1) - 1;
                    for q in 0..n {
                        if head(q).is_some() {
                            self.budget[q] += skip.max(0) * weight(q) * quantum;
                        }
                    }
                }
            }
        }
    }

    /// Shreedhar & Varghese: a queue's turn adds weight × quantum to its deficit; it is served
    /// while its head fits; an emptied queue forfeits its deficit. At most one full round of
    /// visits; None if nothing fit.
    fn dwrr_round(
        &mut self,
        n: usize,
        quantum: i64,
        weight: &impl Fn(usize) -> i64,
        head: &impl Fn(usize) -> Option<u32>,
    ) -> Option<usize> {
        for _ in 0..=n {
            let q = self.current;
            match head(q) {
                None => self.budget[q] = 0,
                Some(bytes) => {
                    if self.fresh_turn {
                        self.budget[q] += weight(q) * quantum;
                        self.fresh_turn = false;
                    }
                    if i64::from(bytes) <= self.budget[q] {
                        self.budget[q] -= i64::from(bytes);
                        return Some(q);
                    }
                }
            }
            self.current = (q + 1) % n;
            self.fresh_turn = true;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Serves `rounds` packets from always-backlogged queues with the given head sizes.
    fn served(spec: SchedulerSpec, weights: &[u32], sizes: &[u32], rounds: usize) -> Vec<u64> {
        let mut s = Scheduler::new(&spec, weights.len());
        let mut bytes = vec![0u64; weights.len()];
        for _ in 0..rounds {
            let q = s.pick(weights, |q| Some(sizes[q])).unwrap();
            bytes[q] += u64::from(sizes[q]);
        }
        bytes
    }

    fn shares(bytes: &[u64]) -> Vec<f64> {
        let total: u64 = bytes.iter().sum();
        bytes.iter().map(|&b| b as f64 / total as f64).collect()
    }

    #[test]
    fn wrr_shares_follow_weights_for_equal_packets() {
        let s = shares(&served(SchedulerSpec::Wrr(WrrConfig {}), &[1, 2, 5], &[1500, 1500, 1500], 8000));
        for (got, want) in s.iter().zip([1.0 / 8.0, 2.0 / 8.0, 5.0 / 8.0]) {
            assert!((got - want).abs() < 0.02 * want, "{s:?}");
        }
    }

    #[test]
    fn dwrr_shares_bytes_by_weight_whatever_the_packet_sizes() {
        let s = shares(&served(
            SchedulerSpec::Dwrr(DwrrConfig { quantum_bytes: 1500 }),
            &[1, 3],
            &[1500, 400],
            50_000,
        ));
        assert!((s[0] - 0.25).abs() < 0.005, "{s:?}");
    }

    #[test]
    fn strict_priority_serves_the_lowest_backlogged_queue() {
        let mut s = Scheduler::new(&SchedulerSpec::StrictPriority(StrictPriorityConfig {}), 3);
        assert_eq!(s.pick(&[1, 1, 1], |q| (q > 0).then_some(100)), Some(1));
    }

    #[test]
    fn round_robin_skips_empty_queues() {
        let mut s = Scheduler::new(&SchedulerSpec::RoundRobin(RoundRobinConfig {}), 3);
        let order: Vec<usize> =
            (0..4).map(|_| s.pick(&[1, 1, 1], |q| (q != 1).then_some(100)).unwrap()).collect();
        assert_eq!(order, vec![0, 2, 0, 2]);
    }

    #[test]
    fn dwrr_with_a_quantum_far_below_the_packet_size_still_serves_by_weight() {
        // 64-byte quanta against 1500-byte packets: 24 rounds of credit per packet.
        let s = shares(&served(
            SchedulerSpec::Dwrr(DwrrConfig { quantum_bytes: 64 }),
            &[1, 3],
            &[1500, 1500],
            4000,
        ));
        assert!((s[0] - 0.25).abs() < 0.01, "{s:?}");
    }

    #[test]
    fn dwrr_serves_a_lone_backlogged_queue_at_once() {
        let mut s = Scheduler::new(&SchedulerSpec::Dwrr(DwrrConfig { quantum_bytes: 64 }), 3);
        for _ in 0..10 {
            assert_eq!(s.pick(&[1, 1, 1], |q| (q == 2).then_some(9000)), Some(2));
        }
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        fn dwrr(quantum_bytes: u32) -> SchedulerSpec {
            SchedulerSpec::Dwrr(DwrrConfig { quantum_bytes })
        }

        /// Per queue: a weight and the sizes its packets cycle through (always backlogged).
        fn queues() -> impl Strategy<Value = Vec<(u32, Vec<u32>)>> {
            prop::collection::vec((1u32..=16, prop::collection::vec(40u32..=9000, 1..6)), 1..=8)
        }

        /// Serves `picks` packets from always-backlogged queues; bytes and packets per queue.
        fn serve(spec: &SchedulerSpec, qs: &[(u32, Vec<u32>)], picks: usize) -> (Vec<u64>, Vec<u64>) {
            let weights: Vec<u32> = qs.iter().map(|q| q.0).collect();
            let mut s = Scheduler::new(spec, qs.len());
            let mut next = vec![0usize; qs.len()];
            let (mut bytes, mut pkts) = (vec![0u64; qs.len()], vec![0u64; qs.len()]);
            for _ in 0..picks {
                let q = {
                    let next = &next;
                    s.pick(&weights, |q| Some(qs[q].1[next[q] % qs[q].1.len()])).expect("backlogged")
                };
                bytes[q] += u64::from(qs[q].1[next[q] % qs[q].1.len()]);
                pkts[q] += 1;
                next[q] += 1;
            }
            (bytes, pkts)
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            /// WRR serves exactly `weight` packets per queue per round, whatever the sizes.
            #[test]
            fn wrr_packet_counts_follow_the_weights_exactly_after_whole_rounds(
                qs in queues(), rounds in 1usize..20,
            ) {
                let total: usize = qs.iter().map(|q| q.0 as usize).sum();
                let (_, pkts) = serve(&SchedulerSpec::Wrr(WrrConfig {}), &qs, rounds * total);
                let want: Vec<u64> = qs.iter().map(|q| rounds as u64 * u64::from(q.0)).collect();
                prop_assert_eq!(pkts, want);
            }

            /// Round robin ignores weights: one packet per queue per round.
            #[test]
            fn round_robin_serves_every_queue_equally_after_whole_rounds(
                qs in queues(), rounds in 1usize..20,
            ) {
                let (_, pkts) = serve(&SchedulerSpec::RoundRobin(RoundRobinConfig {}), &qs, rounds * qs.len());
                prop_assert_eq!(pkts, vec![rounds as u64; qs.len()]);
            }

            /// DWRR (Shreedhar & Varghese, Lemma 2): after any number of picks, the bytes each
            /// backlogged queue received per unit of weight differ by at most one quantum plus
            /// the largest packet, whatever the packet sizes and however small the quantum.
            #[test]
            fn dwrr_byte_shares_follow_the_weights_within_one_quantum_and_one_packet(
                qs in queues(), quantum in prop_oneof![64u32..=256, 257u32..=20_000], picks in 1usize..3000,
            ) {
                let (bytes, _) = serve(&dwrr(quantum), &qs, picks);
                let max_pkt = f64::from(qs.iter().flat_map(|q| q.1.iter()).copied().max().unwrap());
                let per_weight: Vec<f64> = bytes.iter().zip(&qs).map(|(&b, q)| b as f64 / f64::from(q.0)).collect();
                let (lo, hi) = per_weight.iter().fold((f64::MAX, 0f64), |(l, h), &x| (l.min(x), h.max(x)));
                prop_assert!(hi - lo <= f64::from(quantum) + 2.0 * max_pkt, "bytes per weight {per_weight:?}");
            }

            /// Strict priority, RR, WRR and DWRR all return a backlogged queue whenever there is
            /// one, and nothing only when all are empty, as backlogs come and go at random.
            #[test]
            fn every_scheduler_serves_a_backlogged_queue_whenever_there_is_one(
                rule in 0usize..4,
                weights in prop::collection::vec(1u32..=1023, 1..=8),
                quantum in 64u32..=2000,
                pattern in prop::collection::vec(prop::collection::vec(prop::option::weighted(0.4, 40u32..=9000), 8), 1..300),
            ) {
                let spec = match rule {
                    0 => SchedulerSpec::StrictPriority(StrictPriorityConfig {}),
                    1 => SchedulerSpec::RoundRobin(RoundRobinConfig {}),
                    2 => SchedulerSpec::Wrr(WrrConfig {}),
                    _ => dwrr(quantum),
                };
                let n = weights.len();
                let mut s = Scheduler::new(&spec, n);
                for heads in &pattern {
                    let got = s.pick(&weights, |q| heads[q]);
                    match got {
                        None => prop_assert!(heads[..n].iter().all(Option::is_none), "idle with {heads:?}"),
                        Some(q) => {
                            prop_assert!(q < n && heads[q].is_some(), "picked {q} of {heads:?}");
                            if rule == 0 {
                                prop_assert_eq!(Some(q), heads[..n].iter().position(Option::is_some));
                            }
                        }
                    }
                }
            }

            /// A queue that stays backlogged is served within a bounded number of picks under
            /// DWRR: at most the others' credit for the rounds it needs to afford its head.
            #[test]
            fn dwrr_never_starves_a_backlogged_queue(qs in queues(), quantum in 64u32..=3000) {
                let weights: Vec<u32> = qs.iter().map(|q| q.0).collect();
                let min_pkt = u64::from(qs.iter().flat_map(|q| q.1.iter()).copied().min().unwrap());
                let max_pkt = u64::from(qs.iter().flat_map(|q| q.1.iter()).copied().max().unwrap());
                // Rounds any queue needs for its largest head, and what the others may send
                // meanwhile (each round: its credit plus a carried-over deficit below max_pkt).
                let rounds = max_pkt.div_ceil(u64::from(quantum)) + 1;
                let others: u64 = weights.iter().map(|&w| (rounds * u64::from(w) * u64::from(quantum) + max_pkt) / min_pkt + 1).sum();
                let mut s = Scheduler::new(&dwrr(quantum), qs.len());
                let mut next = vec![0usize; qs.len()];
                let mut since = vec![0u64; qs.len()];
                for _ in 0..2000 {
                    let q = {
                        let next = &next;
                        s.pick(&weights, |q| Some(qs[q].1[next[q] % qs[q].1.len()])).unwrap()
                    };
                    next[q] += 1;
                    for (i, w) in since.iter_mut().enumerate() {
                        *w = if i == q { 0 } else { *w + 1 };
                        prop_assert!(*w <= others, "queue {i} waited {w} picks (bound {others})");
                    }
                }
            }
        }
    }
}
