//! Deficit round robin over flow queues with new flows first (RFC 8290 §4.1-§4.2), the
//! scheduling of the flow-queueing discs: a queue that gets a packet while on neither list
//! joins the new list with a quantum of credit; the new list is served before the old; a
//! queue that spent its credit tops it up and goes to the end of the old list; an empty new
//! queue moves to the old list (so it cannot come back as new at once), an empty old one
//! leaves.

use crate::rng::splitmix64;
use std::collections::VecDeque;

/// The queue of `queues` a flow hashes to (RFC 8290 §4.1.1): SplitMix64 of the flow id
/// perturbed by `seed`, scaled by multiply-shift as Linux's `reciprocal_scale`.
pub(crate) fn queue_index(flow: u32, seed: u64, queues: usize) -> usize {
    let h = splitmix64(u64::from(flow) ^ seed) >> 32;
    ((h * queues as u64) >> 32) as usize
}

/// A flow-queueing disc's hash table cannot change size under running flows.
pub(crate) fn check_flows_unchanged(old: u32, new: u32) -> Result<(), String> {
    if new != old {
        return Err(format!("flows: the number of flow queues ({old}) cannot change during a run"));
    }
    Ok(())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum List {
    New,
    Old,
}

#[derive(Clone, Debug)]
pub(crate) struct FlowLists {
    new: VecDeque<u32>,
    old: VecDeque<u32>,
    /// DRR deficit per queue, bytes; may go negative (Linux `int deficit`).
    deficit: Vec<i64>,
    /// The list each queue is on, if any (Linux: `flowchain` non-empty).
    on: Vec<Option<List>>,
    /// Times a queue joined the new list (Linux `new_flow_count`).
    pub new_flow_count: u64,
}

impl FlowLists {
    pub fn new(queues: usize) -> FlowLists {
        FlowLists {
            new: VecDeque::new(),
            old: VecDeque::new(),
            deficit: vec![0; queues],
            on: vec![None; queues],
            new_flow_count: 0,
        }
    }

    /// Queue `i` took a packet: on neither list, it joins the new list with a full quantum.
    /// One still on the old list (even if empty) stays there: no new-flow priority (§4.2).
    pub fn activate(&mut self, i: usize, quantum: u32) {
        if self.on[i].is_none() {
            self.on[i] = Some(List::New);
            self.deficit[i] = i64::from(quantum);
            self.new.push_back(i as u32);
            self.new_flow_count += 1;
        }
    }

    /// The next packet by DRR: `take(i)` dequeues from queue `i` (`None` when it is empty),
    /// `bytes` is what a packet costs.
    pub fn next<T>(
        &mut self,
        quantum: u32,
        mut take: impl FnMut(usize) -> Option<T>,
        bytes: impl Fn(&T) -> u32,
    ) -> Option<T> {
        loop {
            let (i, from_new) = match (self.new.front(), self.old.front()) {
                (Some(&i), _) => (i as usize, true),
                (None, Some(&i)) => (i as usize, false),
                (None, None) => return None,
            };
            if self.deficit[i] <= 0 {
                self.deficit[i] += i64::from(quantum);
                self.pop(from_new);
                self.old.push_back(i as u32);
                self.on[i] = Some(List::Old);
                continue;
            }
            match take(i) {
                Some(p) => {
                    self.deficit[i] -= i64::from(bytes(&p));
                    return Some(p);
                }
                None => {
                    self.on[i] = None;
                    self.pop(from_new);
                    if from_new && !self.old.is_empty() {
                        self.old.push_back(i as u32);
                        self.on[i] = Some(List::Old);
                    }
                }
            }
        }
    }

    /// The queues in the order they will be served: the new list, then the old.
    pub fn order(&self) -> impl Iterator<Item = usize> + '_ {
        self.new.iter().chain(self.old.iter()).map(|&i| i as usize)
    }

    #[cfg(test)]
    pub fn is_old(&self, i: usize) -> bool {
        self.on[i] == Some(List::Old)
    }

    fn pop(&mut self, from_new: bool) {
        if from_new {
            self.new.pop_front();
        } else {
            self.old.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Queues of packet sizes; `take` pops the head.
    fn serve(l: &mut FlowLists, q: &mut [VecDeque<u32>], quantum: u32, n: usize) -> Vec<(usize, u32)> {
        (0..n).filter_map(|_| l.next(quantum, |i| q[i].pop_front().map(|b| (i, b)), |&(_, b)| b)).collect()
    }

    #[test]
    fn backlogged_queues_share_bytes_by_quantum_whatever_their_packet_sizes() {
        let mut l = FlowLists::new(2);
        let mut q = vec![VecDeque::from(vec![1500; 100]), VecDeque::from(vec![500; 300])];
        l.activate(0, 1500);
        l.activate(1, 1500);
        let out = serve(&mut l, &mut q, 1500, 200);
        let bytes = |k| out.iter().filter(|(i, _)| *i == k).map(|(_, b)| u64::from(*b)).sum::<u64>();
        assert!((bytes(0) as i64 - bytes(1) as i64).abs() <= 1500, "{} vs {}", bytes(0), bytes(1));
    }

    #[test]
    fn a_new_queue_is_served_before_the_old_ones() {
        let mut l = FlowLists::new(3);
        let mut q = vec![VecDeque::from(vec![1500; 10]), VecDeque::new(), VecDeque::new()];
        l.activate(0, 1500);
        serve(&mut l, &mut q, 1500, 2); // queue 0 spends its quantum and turns old
        q[2].push_back(100);
        l.activate(2, 1500);
        assert_eq!(serve(&mut l, &mut q, 1500, 1), vec![(2, 100)]);
        // Still on the new list: another packet does not make it new again.
        q[2].push_back(100);
        l.activate(2, 1500);
        assert_eq!(l.new_flow_count, 2);
        assert_eq!(serve(&mut l, &mut q, 1500, 2), vec![(2, 100), (0, 1500)]);
    }
}
