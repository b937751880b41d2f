//! A set of segment numbers kept as maximal runs: disjoint, non-touching half-open ranges
//! `[start, end)` in a `BTreeMap` keyed by start. Adding a range, trimming below a point and
//! counting members in a range cost O(log runs) plus the runs merged or visited, so the
//! scoreboard's scans skip whole SACKed runs instead of walking every segment.

use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Runs {
    /// start → end; no two runs overlap or touch.
    map: BTreeMap<u32, u32>,
}

impl Runs {
    pub fn clear(&mut self) {
        self.map.clear();
    }

    #[cfg(test)]
    pub fn contains(&self, x: u32) -> bool {
        self.map.range(..=x).next_back().is_some_and(|(_, &end)| end > x)
    }

    /// Adds `[start, end)`, calling `new` for every member not already in the set, in
    /// ascending order. Amortised O(log runs) plus one call per new member.
    pub fn insert(&mut self, start: u32, end: u32, mut new: impl FnMut(u32)) {
        if start >= end {
            return;
        }
        let (mut lo, mut hi, mut cur) = (start, end, start);
        // A run that starts at or before `start` and reaches it is merged in.
        if let Some((&a, &b)) = self.map.range(..=start).next_back() {
            if b >= start {
                if b >= end {
                    return; // already known: the usual case, every ACK repeats its blocks
                }
                if self.map.range(b + 1..=end).next().is_none() {
                    // Only the run's end moves (a block growing as data arrives).
                    (b..end).for_each(&mut new);
                    self.map.insert(a, end);
                    return;
                }
                self.map.remove(&a);
                (lo, hi, cur) = (a, hi.max(b), cur.max(b));
            }
        }
        // Runs starting in (start, end] are merged in; the gaps before them are new.
        while let Some((&a, &b)) = self.map.range(start..=end).next() {
            (cur..a).for_each(&mut new);
            self.map.remove(&a);
            (hi, cur) = (hi.max(b), cur.max(b));
        }
        (cur..end).for_each(&mut new);
        self.map.insert(lo, hi);
    }

    /// Removes every member below `x`.
    pub fn remove_below(&mut self, x: u32) {
        while let Some((&a, &b)) = self.map.first_key_value() {
            if a >= x {
                break;
            }
            self.map.remove(&a);
            if b > x {
                self.map.insert(x, b);
                break;
            }
        }
    }

    /// Members in `[from, to)`, counted only up to `cap` (the runs visited are at most `cap`).
    pub fn count_in(&self, from: u32, to: u32, cap: u32) -> u32 {
        if from >= to {
            return 0;
        }
        let first = match self.map.range(..=from).next_back() {
            Some((&a, &b)) if b > from => a,
            _ => from,
        };
        let mut n = 0u32;
        for (&a, &b) in self.map.range(first..to) {
            if n >= cap {
                break;
            }
            n = n.saturating_add(b.min(to) - a.max(from));
        }
        n
    }

    /// The runs below `top`, highest first, each clipped to end at `top` at most.
    pub fn below_rev(&self, top: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.map.range(..top).rev().map(move |(&a, &b)| (a, b.min(top)))
    }

    /// All runs in ascending order.
    #[cfg(test)]
    pub fn iter(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.map.iter().map(|(&a, &b)| (a, b))
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
