//! Egress schedulers of a switch port: round robin, weighted round robin (packets),
//! deficit weighted round robin (bytes, Shreedhar & Varghese 1995) and strict priority.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SchedulerSpec {
    /// One packet per non-empty queue in turn.
    RoundRobin,
    /// Up to `weight` packets per queue per round.
    Wrr,
    /// DWRR: each round a queue earns weight × quantum bytes of credit.
    Dwrr { quantum_bytes: u32 },
    /// Lowest queue index first.
    StrictPriority,
}

impl Default for SchedulerSpec {
    fn default() -> Self {
        SchedulerSpec::Wrr
    }
}

/// Scheduler state. `pick` chooses the queue to serve given which queues are backlogged
/// and the size of each head packet.
#[derive(Clone, Debug)]
pub struct Scheduler {
    spec: SchedulerSpec,
    current: usize,
    /// WRR: packets left in the current queue's turn. DWRR: per-queue deficit in bytes.
    budget: Vec<i64>,
    fresh_turn: bool,
}

impl Scheduler {
    pub fn new(spec: SchedulerSpec, queues: usize) -> Scheduler {
        Scheduler { spec, current: 0, budget: vec![0; queues], fresh_turn: true }
    }

    /// The queue to dequeue from; `head(q)` is the head packet's size in bytes if `q` is
    /// backlogged. Returns None when every queue is empty.
    pub fn pick(&mut self, weights: &[u32], head: impl Fn(usize) -> Option<u32>) -> Option<usize> {
        let n = self.budget.len();
        if (0..n).all(|q| head(q).is_none()) {
            return None;
        }
        match self.spec {
            SchedulerSpec::StrictPriority => (0..n).find(|&q| head(q).is_some()),
            SchedulerSpec::RoundRobin => {
                let q = (0..n).map(|k| (self.current + k) % n).find(|&q| head(q).is_some())?;
                self.current = (q + 1) % n;
                Some(q)
            }
            SchedulerSpec::Wrr => {
                // Visit queues in turn; a queue keeps the turn for `weight` packets.
                for _ in 0..=2 * n {
                    let q = self.current;
                    if self.fresh_turn {
                        self.budget[q] = weights.get(q).copied().unwrap_or(1) as i64;
                        self.fresh_turn = false;
                    }
                    if head(q).is_some() && self.budget[q] > 0 {
                        self.budget[q] -= 1;
                        return Some(q);
                    }
                    self.current = (q + 1) % n;
                    self.fresh_turn = true;
                }
                None
            }
            SchedulerSpec::Dwrr { quantum_bytes } => {
                // Shreedhar & Varghese: add a quantum when a queue's turn starts; serve while
                // the head fits in the deficit; an emptied queue forfeits its deficit.
                for _ in 0..=4 * n {
                    let q = self.current;
                    match head(q) {
                        None => {
                            self.budget[q] = 0;
                        }
                        Some(bytes) => {
                            if self.fresh_turn {
                                let w = weights.get(q).copied().unwrap_or(1).max(1) as i64;
                                self.budget[q] += w * quantum_bytes.max(1) as i64;
                                self.fresh_turn = false;
                            }
                            if bytes as i64 <= self.budget[q] {
                                self.budget[q] -= bytes as i64;
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Serves `rounds` packets from always-backlogged queues with the given head sizes.
    fn served(spec: SchedulerSpec, weights: &[u32], sizes: &[u32], rounds: usize) -> Vec<u64> {
        let mut s = Scheduler::new(spec, weights.len());
        let mut bytes = vec![0u64; weights.len()];
        for _ in 0..rounds {
            let q = s.pick(weights, |q| Some(sizes[q])).unwrap();
            bytes[q] += sizes[q] as u64;
        }
        bytes
    }

    fn shares(bytes: &[u64]) -> Vec<f64> {
        let total: u64 = bytes.iter().sum();
        bytes.iter().map(|&b| b as f64 / total as f64).collect()
    }

    #[test]
    fn wrr_shares_follow_weights_for_equal_packets() {
        let s = shares(&served(SchedulerSpec::Wrr, &[1, 2, 5], &[1500, 1500, 1500], 8000));
        for (got, want) in s.iter().zip([1.0 / 8.0, 2.0 / 8.0, 5.0 / 8.0]) {
            assert!((got - want).abs() < 0.02 * want, "{s:?}");
        }
    }

    #[test]
    fn dwrr_shares_bytes_by_weight_whatever_the_packet_sizes() {
        let s = shares(&served(SchedulerSpec::Dwrr { quantum_bytes: 1500 }, &[1, 3], &[1500, 400], 50_000));
        assert!((s[0] - 0.25).abs() < 0.005, "{s:?}");
    }

    #[test]
    fn strict_priority_serves_the_lowest_backlogged_queue() {
        let mut s = Scheduler::new(SchedulerSpec::StrictPriority, 3);
        assert_eq!(s.pick(&[1, 1, 1], |q| (q > 0).then_some(100)), Some(1));
    }

    #[test]
    fn round_robin_skips_empty_queues() {
        let mut s = Scheduler::new(SchedulerSpec::RoundRobin, 3);
        let order: Vec<usize> =
            (0..4).map(|_| s.pick(&[1, 1, 1], |q| (q != 1).then_some(100)).unwrap()).collect();
        assert_eq!(order, vec![0, 2, 0, 2]);
    }
}
