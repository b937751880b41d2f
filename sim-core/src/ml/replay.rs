//! Experience replay (Mnih et al. 2015): a fixed-capacity ring of transitions
//! (s, a, r, s′, done); once full, each new transition overwrites the oldest.
//!
//! States are stored in two flat arrays, so pushing never allocates. Sampling is uniform
//! *with* replacement: each index is an independent draw from the caller's [`SimRng`], which
//! costs one draw per sample whatever the fill level and does not depend on the ring's
//! internal order.

use crate::rng::SimRng;

#[derive(Clone, Debug, PartialEq)]
pub struct ReplayBuffer {
    dim: usize,
    capacity: usize,
    /// Slot the next push writes.
    head: usize,
    len: usize,
    states: Vec<f64>,
    next_states: Vec<f64>,
    actions: Vec<u32>,
    rewards: Vec<f64>,
    dones: Vec<bool>,
}

/// One stored transition, borrowed from the buffer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transition<'a> {
    pub state: &'a [f64],
    pub action: usize,
    pub reward: f64,
    pub next_state: &'a [f64],
    /// s′ is terminal: the TD target has no future term.
    pub done: bool,
}

impl ReplayBuffer {
    /// Room for `capacity` transitions of `dim`-long states; both must be positive.
    pub fn new(dim: usize, capacity: usize) -> ReplayBuffer {
        assert!(dim > 0 && capacity > 0, "replay buffer needs a positive state length and capacity");
        ReplayBuffer {
            dim,
            capacity,
            head: 0,
            len: 0,
            states: vec![0.0; dim * capacity],
            next_states: vec![0.0; dim * capacity],
            actions: vec![0; capacity],
            rewards: vec![0.0; capacity],
            dones: vec![false; capacity],
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Stores a transition, overwriting the oldest when full. Panics on a wrong state length.
    pub fn push(&mut self, state: &[f64], action: usize, reward: f64, next_state: &[f64], done: bool) {
        assert!(state.len() == self.dim && next_state.len() == self.dim, "state length");
        let i = self.head;
        self.states[i * self.dim..][..self.dim].copy_from_slice(state);
        self.next_states[i * self.dim..][..self.dim].copy_from_slice(next_state);
        self.actions[i] = action as u32;
        self.rewards[i] = reward;
        self.dones[i] = done;
        self.head = (i + 1) % self.capacity;
        self.len = (self.len + 1).min(self.capacity);
    }

    /// Slot of the most recent push. Panics when empty.
    pub fn latest(&self) -> usize {
        assert!(self.len > 0, "empty replay buffer");
        (self.head + self.capacity - 1) % self.capacity
    }

    /// The transition in slot `i` (slots are `0..len()`, in no particular age order).
    pub fn get(&self, i: usize) -> Transition<'_> {
        assert!(i < self.len, "slot {i} of {}", self.len);
        Transition {
            state: &self.states[i * self.dim..][..self.dim],
            action: self.actions[i] as usize,
            reward: self.rewards[i],
            next_state: &self.next_states[i * self.dim..][..self.dim],
            done: self.dones[i],
        }
    }

    /// Replaces `out` with `n` slots drawn uniformly with replacement. Panics when empty.
    pub fn sample_into(&self, n: usize, rng: &mut SimRng, out: &mut Vec<usize>) {
        assert!(self.len > 0, "sampling an empty replay buffer");
        out.clear();
        out.extend((0..n).map(|_| rng.below(self.len as u64) as usize));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::StreamId;

    fn push_n(buf: &mut ReplayBuffer, from: usize, to: usize) {
        for k in from..to {
            let x = k as f64;
            buf.push(&[x, -x], k % 4, x * 0.5, &[x + 1.0, -x - 1.0], k % 3 == 0);
        }
    }

    #[test]
    fn a_full_ring_keeps_the_newest_capacity_transitions() {
        let mut buf = ReplayBuffer::new(2, 5);
        push_n(&mut buf, 0, 12);
        assert_eq!(buf.len(), 5);
        let mut rewards: Vec<f64> = (0..5).map(|i| buf.get(i).reward).collect();
        rewards.sort_by(f64::total_cmp);
        assert_eq!(rewards, [3.5, 4.0, 4.5, 5.0, 5.5]);
        assert_eq!(buf.get(buf.latest()).reward, 5.5);
    }

    #[test]
    fn a_stored_transition_reads_back_intact() {
        let mut buf = ReplayBuffer::new(2, 8);
        push_n(&mut buf, 0, 4);
        let t = buf.get(3);
        assert_eq!(
            t,
            Transition { state: &[3.0, -3.0], action: 3, reward: 1.5, next_state: &[4.0, -4.0], done: true }
        );
    }

    #[test]
    fn samples_stay_within_the_filled_part() {
        let mut buf = ReplayBuffer::new(2, 100);
        push_n(&mut buf, 0, 7);
        let mut rng = SimRng::new(1, StreamId::Other(0));
        let mut idx = Vec::new();
        let mut seen = [false; 7];
        for _ in 0..50 {
            buf.sample_into(32, &mut rng, &mut idx);
            assert_eq!(idx.len(), 32);
            for &i in &idx {
                assert!(i < 7);
                seen[i] = true;
            }
        }
        assert!(seen.iter().all(|&s| s), "every filled slot gets sampled");
    }

    #[test]
    fn same_seed_same_samples() {
        let mut buf = ReplayBuffer::new(2, 50);
        push_n(&mut buf, 0, 50);
        let draw = |seed| {
            let mut idx = Vec::new();
            buf.sample_into(32, &mut SimRng::new(seed, StreamId::Other(0)), &mut idx);
            idx
        };
        assert_eq!(draw(3), draw(3));
        assert_ne!(draw(3), draw(4));
    }
}
