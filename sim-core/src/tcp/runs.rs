//! A set of segment numbers kept as maximal runs: disjoint, non-touching half-open ranges
//! `[start, end)`. Adding a range, trimming below a point and counting members in a range
//! cost O(log runs) plus the runs merged or visited, so the scoreboard's scans skip whole
//! SACKed runs instead of walking every segment.
//!
//! Most flows have 0-2 runs: up to [`INLINE`] are kept sorted in place (no B-tree node to
//! miss in the cache, for each of 10 000 flows' scoreboards); beyond that a `BTreeMap` keyed
//! by start holds them, until the set shrinks back.

use std::collections::BTreeMap;

/// Runs kept in place before the set moves to a B-tree.
const INLINE: usize = 4;

#[derive(Clone, Debug)]
enum Repr {
    /// `runs[..len]`, ascending; no two overlap or touch.
    Inline { len: u8, runs: [(u32, u32); INLINE] },
    /// start → end; no two runs overlap or touch.
    Tree(BTreeMap<u32, u32>),
}

#[derive(Clone, Debug)]
pub struct Runs {
    repr: Repr,
}

impl Default for Runs {
    fn default() -> Self {
        Runs { repr: Repr::Inline { len: 0, runs: [(0, 0); INLINE] } }
    }
}

/// Runs highest first (see [`Runs::below_rev`]).
pub enum BelowRev<'a> {
    Inline(std::iter::Rev<std::slice::Iter<'a, (u32, u32)>>, u32),
    Tree(std::iter::Rev<std::collections::btree_map::Range<'a, u32, u32>>, u32),
}

impl Iterator for BelowRev<'_> {
    type Item = (u32, u32);
    #[inline]
    fn next(&mut self) -> Option<(u32, u32)> {
        match self {
            BelowRev::Inline(it, top) => it.next().map(|&(a, b)| (a, b.min(*top))),
            BelowRev::Tree(it, top) => it.next().map(|(&a, &b)| (a, b.min(*top))),
        }
    }
}

impl Runs {
    pub fn clear(&mut self) {
        *self = Runs::default();
    }

    #[cfg(test)]
    pub fn contains(&self, x: u32) -> bool {
        match &self.repr {
            Repr::Inline { len, runs } => runs[..*len as usize].iter().any(|&(a, b)| a <= x && x < b),
            Repr::Tree(map) => map.range(..=x).next_back().is_some_and(|(_, &end)| end > x),
        }
    }

    /// Adds `[start, end)`, calling `new` for every member not already in the set, in
    /// ascending order. Amortised O(log runs) plus one call per new member.
    pub fn insert(&mut self, start: u32, end: u32, mut new: impl FnMut(u32)) {
        if start >= end {
            return;
        }
        let Repr::Inline { len, runs } = &mut self.repr else {
            return self.insert_tree(start, end, new);
        };
        let n = *len as usize;
        // The runs that overlap or touch [start, end] are merged: `runs[i..j]`.
        let i = runs[..n].partition_point(|&(_, b)| b < start);
        let j = i + runs[i..n].partition_point(|&(a, _)| a <= end);
        if i == j {
            if n == INLINE {
                self.spill();
                return self.insert_tree(start, end, new);
            }
            (start..end).for_each(&mut new);
            runs.copy_within(i..n, i + 1);
            runs[i] = (start, end);
            *len += 1;
            return;
        }
        let mut cur = start;
        for &(a, b) in &runs[i..j] {
            (cur..a).for_each(&mut new);
            cur = cur.max(b);
        }
        (cur..end).for_each(&mut new);
        let merged = (runs[i].0.min(start), runs[j - 1].1.max(end));
        runs[i] = merged;
        runs.copy_within(j..n, i + 1);
        *len -= (j - i - 1) as u8;
    }

    /// Moves the runs held in place to a B-tree.
    fn spill(&mut self) {
        if let Repr::Inline { len, runs } = &self.repr {
            self.repr = Repr::Tree(runs[..*len as usize].iter().copied().collect());
        }
    }

    fn insert_tree(&mut self, start: u32, end: u32, mut new: impl FnMut(u32)) {
        let Repr::Tree(map) = &mut self.repr else { unreachable!("called on a tree") };
        let (mut lo, mut hi, mut cur) = (start, end, start);
        // A run that starts at or before `start` and reaches it is merged in.
        if let Some((&a, &b)) = map.range(..=start).next_back() {
            if b >= start {
                if b >= end {
                    return; // already known: the usual case, every ACK repeats its blocks
                }
                if map.range(b + 1..=end).next().is_none() {
                    // Only the run's end moves (a block growing as data arrives).
                    (b..end).for_each(&mut new);
                    map.insert(a, end);
                    return;
                }
                map.remove(&a);
                (lo, hi, cur) = (a, hi.max(b), cur.max(b));
            }
        }
        // Runs starting in (start, end] are merged in; the gaps before them are new.
        while let Some((&a, &b)) = map.range(start..=end).next() {
            (cur..a).for_each(&mut new);
            map.remove(&a);
            (hi, cur) = (hi.max(b), cur.max(b));
        }
        (cur..end).for_each(&mut new);
        map.insert(lo, hi);
    }

    /// Removes every member below `x`.
    pub fn remove_below(&mut self, x: u32) {
        match &mut self.repr {
            Repr::Inline { len, runs } => {
                let n = *len as usize;
                // Runs wholly below `x` go; one straddling it is trimmed.
                let k = runs[..n].partition_point(|&(_, b)| b <= x);
                if k > 0 {
                    runs.copy_within(k..n, 0);
                    *len -= k as u8;
                }
                if *len > 0 && runs[0].0 < x {
                    runs[0].0 = x;
                }
            }
            Repr::Tree(map) => {
                while let Some((&a, &b)) = map.first_key_value() {
                    if a >= x {
                        break;
                    }
                    map.remove(&a);
                    if b > x {
                        map.insert(x, b);
                        break;
                    }
                }
                // Back in place once few runs are left (not at INLINE, so a set hovering
                // there does not move back and forth).
                if map.len() <= INLINE / 2 {
                    let mut runs = [(0, 0); INLINE];
                    for (slot, (&a, &b)) in runs.iter_mut().zip(map.iter()) {
                        *slot = (a, b);
                    }
                    self.repr = Repr::Inline { len: map.len() as u8, runs };
                }
            }
        }
    }

    /// Members in `[from, to)`, counted only up to `cap` (the runs visited are at most `cap`).
    pub fn count_in(&self, from: u32, to: u32, cap: u32) -> u32 {
        if from >= to {
            return 0;
        }
        let mut n = 0u32;
        match &self.repr {
            Repr::Inline { len, runs } => {
                // The runs reaching past `from` that start before `to`.
                for &(a, b) in runs[..*len as usize].iter().filter(|&&(a, b)| b > from && a < to) {
                    if n >= cap {
                        break;
                    }
                    n = n.saturating_add(b.min(to) - a.max(from));
                }
            }
            Repr::Tree(map) => {
                let first = match map.range(..=from).next_back() {
                    Some((&a, &b)) if b > from => a,
                    _ => from,
                };
                for (&a, &b) in map.range(first..to) {
                    if n >= cap {
                        break;
                    }
                    n = n.saturating_add(b.min(to) - a.max(from));
                }
            }
        }
        n
    }

    /// The runs below `top`, highest first, each clipped to end at `top` at most.
    pub fn below_rev(&self, top: u32) -> BelowRev<'_> {
        match &self.repr {
            Repr::Inline { len, runs } => {
                let n = runs[..*len as usize].partition_point(|&(a, _)| a < top);
                BelowRev::Inline(runs[..n].iter().rev(), top)
            }
            Repr::Tree(map) => BelowRev::Tree(map.range(..top).rev(), top),
        }
    }

    /// All runs in ascending order.
    #[cfg(test)]
    pub fn iter(&self) -> Box<dyn Iterator<Item = (u32, u32)> + '_> {
        match &self.repr {
            Repr::Inline { len, runs } => Box::new(runs[..*len as usize].iter().copied()),
            Repr::Tree(map) => Box::new(map.iter().map(|(&a, &b)| (a, b))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn members(r: &Runs) -> Vec<u32> {
        r.iter().flat_map(|(a, b)| a..b).collect()
    }

    #[test]
    fn inserting_a_range_reports_only_new_members_and_merges_touching_runs() {
        let mut r = Runs::default();
        r.insert(2, 4, |_| {});
        r.insert(6, 8, |_| {});
        let mut new = Vec::new();
        r.insert(1, 7, |x| new.push(x));
        assert_eq!(new, [1, 4, 5]);
        assert_eq!(r.iter().collect::<Vec<_>>(), [(1, 8)]);
        r.insert(8, 9, |_| {});
        assert_eq!(r.iter().collect::<Vec<_>>(), [(1, 9)], "a run touching the end merges");
    }

    proptest! {
        #[test]
        fn runs_behave_as_a_set_of_numbers(ops in prop::collection::vec((0u8..3, 0u32..60, 0u32..12), 1..80)) {
            let mut r = Runs::default();
            let mut set = std::collections::BTreeSet::new();
            for (op, x, len) in ops {
                match op {
                    0 => {
                        let mut new = Vec::new();
                        r.insert(x, x + len, |s| new.push(s));
                        let want: Vec<u32> = (x..x + len).filter(|s| set.insert(*s)).collect();
                        prop_assert_eq!(new, want);
                    }
                    1 => {
                        r.remove_below(x);
                        set.retain(|&s| s >= x);
                    }
                    _ => {
                        let want = set.range(x..x + len).count() as u32;
                        prop_assert_eq!(r.count_in(x, x + len, u32::MAX), want);
                        prop_assert_eq!(r.count_in(x, x + len, 3) >= 3, want >= 3);
                        prop_assert_eq!(r.contains(x), set.contains(&x));
                    }
                }
                prop_assert_eq!(members(&r), set.iter().copied().collect::<Vec<_>>());
                // Maximal: no two runs touch.
                let v: Vec<_> = r.iter().collect();
                prop_assert!(v.windows(2).all(|w| w[0].1 < w[1].0));
                let top = x + len;
                let below: Vec<u32> = r.below_rev(top).flat_map(|(a, b)| (a..b).rev()).collect();
                prop_assert_eq!(below, set.range(..top).rev().copied().collect::<Vec<_>>());
            }
        }
    }
}
