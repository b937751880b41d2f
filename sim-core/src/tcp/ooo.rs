//! The receiver's out-of-order data: disjoint, non-touching blocks of segments above
//! RCV.NXT, indexed twice so that every operation is O(log blocks) however many holes a large
//! window has: by sequence (lookups, merging) and by when each block last changed (the SACK
//! option lists the most recently changed block first, RFC 2018 §4).

use crate::net::SackBlock;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default)]
pub struct OutOfOrder {
    /// start → (end, stamp of its last change).
    by_start: BTreeMap<u32, (u32, u64)>,
    /// stamp → start; the newest block has the largest stamp.
    by_recency: BTreeMap<u64, u32>,
    next_stamp: u64,
    /// Segments held in all blocks.
    segments: u64,
}

impl OutOfOrder {
    pub fn is_empty(&self) -> bool {
        self.by_start.is_empty()
    }

    /// Segments held out of order.
    pub fn segments(&self) -> u64 {
        self.segments
    }

    pub fn contains(&self, seq: u32) -> bool {
        self.by_start.range(..=seq).next_back().is_some_and(|(_, &(end, _))| end > seq)
    }

    fn remove(&mut self, start: u32) -> Option<SackBlock> {
        let (end, stamp) = self.by_start.remove(&start)?;
        self.by_recency.remove(&stamp);
        self.segments -= u64::from(end - start);
        Some(SackBlock { start, end })
    }

    /// Adds segment `seq` (not held yet), merged with the blocks it touches; the block that
    /// holds it becomes the most recent.
    pub fn insert(&mut self, seq: u32) {
        debug_assert!(!self.contains(seq));
        // The usual case: the next segment after the newest block, with nothing to merge on
        // its right. The block grows in place and stays the newest.
        let newest = self.next_stamp.wrapping_sub(1);
        if !self.by_start.contains_key(&(seq + 1)) {
            if let Some((_, (end, stamp))) = self.by_start.range_mut(..seq).next_back() {
                if *end == seq && *stamp == newest {
                    *end += 1;
                    self.segments += 1;
                    return;
                }
            }
        }
        let mut nb = SackBlock { start: seq, end: seq + 1 };
        if let Some((&start, &(end, _))) = self.by_start.range(..seq).next_back() {
            if end == seq {
                self.remove(start);
                nb.start = start;
            }
        }
        if let Some(right) = self.remove(seq + 1) {
            nb.end = right.end;
        }
        let stamp = self.next_stamp;
        self.next_stamp += 1;
        self.by_start.insert(nb.start, (nb.end, stamp));
        self.by_recency.insert(stamp, nb.start);
        self.segments += u64::from(nb.end - nb.start);
    }

    /// Removes and returns the block that starts at `start`, if any.
    pub fn take_starting_at(&mut self, start: u32) -> Option<SackBlock> {
        self.remove(start)
    }

    /// Drops every block that ends at or below `seq` (data now delivered in order).
    pub fn drop_below(&mut self, seq: u32) {
        while let Some((&start, &(end, _))) = self.by_start.first_key_value() {
            if end > seq {
                break;
            }
            self.remove(start);
        }
    }

    /// Blocks, most recently changed first.
    pub fn recent_first(&self) -> impl Iterator<Item = SackBlock> + '_ {
        self.by_recency.values().rev().map(|&start| SackBlock { start, end: self.by_start[&start].0 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Matches the list the receiver first kept: merge touching blocks, newest first.
        #[test]
        fn blocks_match_a_most_recent_first_list(ops in prop::collection::vec((any::<bool>(), 0u32..50), 1..100)) {
            let mut o = OutOfOrder::default();
            let mut list: Vec<SackBlock> = Vec::new();
            for (deliver, x) in ops {
                if deliver {
                    o.drop_below(x);
                    list.retain(|b| b.end > x);
                } else if !list.iter().any(|b| (b.start..b.end).contains(&x)) {
                    o.insert(x);
                    let mut nb = SackBlock { start: x, end: x + 1 };
                    list.retain(|b| {
                        if b.end == nb.start {
                            nb.start = b.start;
                            false
                        } else if b.start == nb.end {
                            nb.end = b.end;
                            false
                        } else {
                            true
                        }
                    });
                    list.insert(0, nb);
                }
                prop_assert_eq!(o.recent_first().collect::<Vec<_>>(), list.clone());
                prop_assert_eq!(o.segments(), list.iter().map(|b| u64::from(b.end - b.start)).sum::<u64>());
                for s in 0..55 {
                    prop_assert_eq!(o.contains(s), list.iter().any(|b| (b.start..b.end).contains(&s)));
                }
            }
        }
    }
}
