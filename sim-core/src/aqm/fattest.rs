//! The fattest of many queues: most bytes, the lowest index among equals, the queue Linux's
//! `fq_codel_drop` finds by scanning every queue on each overflow.
//!
//! A tournament tree over the queues' byte counts, updated lazily: a queue whose bytes
//! changed is only marked (O(1) per packet); a question first replays the marked queues up
//! their paths, O(log queues) each, or rebuilds the whole tree in O(queues) when that is
//! cheaper, then reads the root. Runs with no overflow pay one flag test per packet.

#[derive(Clone, Debug)]
pub struct Fattest {
    /// Leaves: a power of two at least the number of queues (padding leaves hold 0 bytes
    /// and, having the highest indices, never win a tie against a real queue).
    leaves: usize,
    /// Bytes of each queue as of the last question.
    bytes: Vec<u64>,
    /// Winner (queue index) of each internal node; node 1 is the root, node k's children
    /// are 2k and 2k + 1, leaf i is node `leaves + i`.
    winner: Vec<u32>,
    changed: Vec<u32>,
    is_changed: Vec<bool>,
}

impl Fattest {
    pub fn new(queues: usize) -> Fattest {
        let leaves = queues.max(1).next_power_of_two();
        let mut f = Fattest {
            leaves,
            bytes: vec![0; leaves],
            winner: vec![0; leaves],
            changed: Vec::new(),
            is_changed: vec![false; queues.max(1)],
        };
        f.rebuild();
        f
    }

    /// Queue `i`'s bytes changed (or may have).
    pub fn touch(&mut self, i: usize) {
        if !self.is_changed[i] {
            self.is_changed[i] = true;
            self.changed.push(i as u32);
        }
    }

    /// The queue with the most bytes, the lowest index among equals; `bytes_of` gives a
    /// queue's current bytes (read for the queues touched since the last call).
    pub fn get(&mut self, bytes_of: impl Fn(usize) -> u64) -> usize {
        let depth = self.leaves.trailing_zeros() as usize;
        let full = self.changed.len() * depth >= self.leaves;
        let changed = std::mem::take(&mut self.changed);
        for &i in &changed {
            let i = i as usize;
            self.is_changed[i] = false;
            self.bytes[i] = bytes_of(i);
            if !full {
                let mut node = (self.leaves + i) / 2;
                while node >= 1 {
                    self.play(node);
                    node /= 2;
                }
            }
        }
        self.changed = changed;
        self.changed.clear();
        if full {
            self.rebuild();
        }
        self.winner.get(1).map_or(0, |&w| w as usize)
    }

    /// The winner of a node's two children: the left one on a tie (lower indices).
    fn play(&mut self, node: usize) {
        let side = |c: usize| if c >= self.leaves { (c - self.leaves) as u32 } else { self.winner[c] };
        let (l, r) = (side(2 * node), side(2 * node + 1));
        self.winner[node] = if self.bytes[l as usize] >= self.bytes[r as usize] { l } else { r };
    }

    fn rebuild(&mut self) {
        for node in (1..self.leaves).rev() {
            self.play(node);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The scan Linux does: first index holding the most bytes.
    fn scan(bytes: &[u64]) -> usize {
        let mut fat = 0;
        for (i, &b) in bytes.iter().enumerate() {
            if b > bytes[fat] {
                fat = i;
            }
        }
        fat
    }

    proptest! {
        #[test]
        fn fattest_is_the_first_queue_holding_the_most_bytes(
            queues in 1usize..40,
            ops in prop::collection::vec((0usize..40, 0u64..6, 0u8..4), 1..200),
        ) {
            let mut bytes = vec![0u64; queues];
            let mut f = Fattest::new(queues);
            for (i, b, ask) in ops {
                let i = i % queues;
                bytes[i] = b;
                f.touch(i);
                if ask == 0 {
                    prop_assert_eq!(f.get(|q| bytes[q]), scan(&bytes));
                }
            }
            prop_assert_eq!(f.get(|q| bytes[q]), scan(&bytes));
        }
    }

    #[test]
    fn a_single_queue_is_always_the_fattest() {
        let mut f = Fattest::new(1);
        f.touch(0);
        assert_eq!(f.get(|_| 7), 0);
    }
}
