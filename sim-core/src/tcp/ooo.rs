//! The receiver's out-of-order data: disjoint, non-touching blocks of segments above
//! RCV.NXT, with the order in which each last changed (the SACK option lists the most
//! recently changed block first, RFC 2018 §4).
//!
//! Most flows hold 0-2 blocks: up to [`INLINE`] are kept in place as a list, newest first (no
//! B-tree node to miss in the cache on every segment of 10 000 flows). Beyond that they are
//! indexed twice so that every operation is O(log blocks) however many holes a large window
//! has: by sequence (lookups, merging) and by when each block last changed.

use crate::net::SackBlock;
use std::collections::BTreeMap;

/// Blocks kept in place before the receiver moves them to B-trees.
const INLINE: usize = 4;

#[derive(Clone, Debug)]
enum Repr {
    /// `blocks[..len]`, most recently changed first.
    Inline {
        len: u8,
        blocks: [SackBlock; INLINE],
    },
    Tree(Tree),
}

#[derive(Clone, Debug, Default)]
struct Tree {
    /// start → (end, stamp of its last change).
    by_start: BTreeMap<u32, (u32, u64)>,
    /// stamp → start; the newest block has the largest stamp.
    by_recency: BTreeMap<u64, u32>,
    next_stamp: u64,
}

#[derive(Clone, Debug)]
pub struct OutOfOrder {
    repr: Repr,
    /// Segments held in all blocks.
    segments: u64,
}

impl Default for OutOfOrder {
    fn default() -> Self {
        OutOfOrder { repr: Repr::Inline { len: 0, blocks: [SackBlock::default(); INLINE] }, segments: 0 }
    }
}

/// Blocks newest first (see [`OutOfOrder::recent_first`]).
pub enum RecentFirst<'a> {
    Inline(std::slice::Iter<'a, SackBlock>),
    Tree(std::iter::Rev<std::collections::btree_map::Values<'a, u64, u32>>, &'a BTreeMap<u32, (u32, u64)>),
}

impl Iterator for RecentFirst<'_> {
    type Item = SackBlock;
    #[inline]
    fn next(&mut self) -> Option<SackBlock> {
        match self {
            RecentFirst::Inline(it) => it.next().copied(),
            RecentFirst::Tree(it, by_start) => {
                it.next().map(|&start| SackBlock { start, end: by_start[&start].0 })
            }
        }
    }
}

impl Tree {
    fn remove(&mut self, start: u32) -> Option<SackBlock> {
        let (end, stamp) = self.by_start.remove(&start)?;
        self.by_recency.remove(&stamp);
        Some(SackBlock { start, end })
    }

    fn push_newest(&mut self, b: SackBlock) {
        let stamp = self.next_stamp;
        self.next_stamp += 1;
        self.by_start.insert(b.start, (b.end, stamp));
        self.by_recency.insert(stamp, b.start);
    }
}

impl OutOfOrder {
    pub fn is_empty(&self) -> bool {
        match &self.repr {
            Repr::Inline { len, .. } => *len == 0,
            Repr::Tree(t) => t.by_start.is_empty(),
        }
    }

    /// Segments held out of order.
    pub fn segments(&self) -> u64 {
        self.segments
    }

    pub fn contains(&self, seq: u32) -> bool {
        match &self.repr {
            Repr::Inline { len, blocks } => {
                blocks[..*len as usize].iter().any(|b| b.start <= seq && seq < b.end)
            }
            Repr::Tree(t) => t.by_start.range(..=seq).next_back().is_some_and(|(_, &(end, _))| end > seq),
        }
    }

    fn remove(&mut self, start: u32) -> Option<SackBlock> {
        let b = match &mut self.repr {
            Repr::Inline { len, blocks } => {
                let n = *len as usize;
                let i = blocks[..n].iter().position(|b| b.start == start)?;
                let b = blocks[i];
                blocks.copy_within(i + 1..n, i);
                *len -= 1;
                b
            }
            Repr::Tree(t) => t.remove(start)?,
        };
        self.segments -= u64::from(b.end - b.start);
        Some(b)
    }

    /// Adds segment `seq` (not held yet), merged with the blocks it touches; the block that
    /// holds it becomes the most recent.
    pub fn insert(&mut self, seq: u32) {
        debug_assert!(!self.contains(seq));
        match &mut self.repr {
            Repr::Inline { len, blocks } => {
                // The usual case: the next segment after the newest block, with nothing to
                // merge on its right. The block grows in place and stays the newest.
                let n = *len as usize;
                if n > 0 && blocks[0].end == seq && !blocks[1..n].iter().any(|b| b.start == seq + 1) {
                    blocks[0].end += 1;
                    self.segments += 1;
                    return;
                }
            }
            Repr::Tree(t) => {
                let newest = t.next_stamp.wrapping_sub(1);
                if !t.by_start.contains_key(&(seq + 1)) {
                    if let Some((_, (end, stamp))) = t.by_start.range_mut(..seq).next_back() {
                        if *end == seq && *stamp == newest {
                            *end += 1;
                            self.segments += 1;
                            return;
                        }
                    }
                }
            }
        }
        let mut nb = SackBlock { start: seq, end: seq + 1 };
        if let Some(left) = self.block_ending_at(seq) {
            self.remove(left);
            nb.start = left;
        }
        if let Some(right) = self.remove(seq + 1) {
            nb.end = right.end;
        }
        self.segments += u64::from(nb.end - nb.start);
        if let Repr::Inline { len, .. } = &self.repr {
            if *len as usize == INLINE {
                self.spill();
            }
        }
        match &mut self.repr {
            Repr::Inline { len, blocks } => {
                blocks.copy_within(0..*len as usize, 1);
                blocks[0] = nb;
                *len += 1;
            }
            Repr::Tree(t) => t.push_newest(nb),
        }
    }

    /// Start of the block whose end is `seq`, if any.
    fn block_ending_at(&self, seq: u32) -> Option<u32> {
        match &self.repr {
            Repr::Inline { len, blocks } => {
                blocks[..*len as usize].iter().find(|b| b.end == seq).map(|b| b.start)
            }
            Repr::Tree(t) => t
                .by_start
                .range(..seq)
                .next_back()
                .filter(|(_, &(end, _))| end == seq)
                .map(|(&start, _)| start),
        }
    }

    /// Moves the blocks held in place to the B-trees, stamped oldest first.
    fn spill(&mut self) {
        if let Repr::Inline { len, blocks } = &self.repr {
            let mut t = Tree::default();
            for &b in blocks[..*len as usize].iter().rev() {
                t.push_newest(b);
            }
            self.repr = Repr::Tree(t);
        }
    }

    /// Back in place once few blocks are left (not at INLINE, so a receiver hovering there
    /// does not move back and forth).
    fn unspill_if_small(&mut self) {
        if let Repr::Tree(t) = &self.repr {
            if t.by_start.len() <= INLINE / 2 {
                let mut blocks = [SackBlock::default(); INLINE];
                for (slot, b) in blocks.iter_mut().zip(self.recent_first()) {
                    *slot = b;
                }
                self.repr = Repr::Inline { len: t.by_start.len() as u8, blocks };
            }
        }
    }

    /// Removes and returns the block that starts at `start`, if any.
    pub fn take_starting_at(&mut self, start: u32) -> Option<SackBlock> {
        let b = self.remove(start);
        self.unspill_if_small();
        b
    }

    /// Drops every block that ends at or below `seq` (data now delivered in order).
    pub fn drop_below(&mut self, seq: u32) {
        match &mut self.repr {
            Repr::Inline { len, blocks } => {
                let n = *len as usize;
                let mut kept = 0;
                for i in 0..n {
                    let b = blocks[i];
                    if b.end > seq {
                        blocks[kept] = b;
                        kept += 1;
                    } else {
                        self.segments -= u64::from(b.end - b.start);
                    }
                }
                *len = kept as u8;
            }
            Repr::Tree(_) => {
                while let Repr::Tree(t) = &self.repr {
                    let Some((&start, &(end, _))) = t.by_start.first_key_value() else { break };
                    if end > seq {
                        break;
                    }
                    self.remove(start);
                }
                self.unspill_if_small();
            }
        }
    }

    /// Blocks, most recently changed first.
    pub fn recent_first(&self) -> RecentFirst<'_> {
        match &self.repr {
            Repr::Inline { len, blocks } => RecentFirst::Inline(blocks[..*len as usize].iter()),
            Repr::Tree(t) => RecentFirst::Tree(t.by_recency.values().rev(), &t.by_start),
        }
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
