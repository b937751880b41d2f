//! Count-min sketch (Cormode & Muthukrishnan 2005): per-flow packet counts in fixed memory,
//! never under-estimated. The data plane uses it to tell long flows from mice.

use crate::rng::splitmix64;

#[derive(Clone, Debug)]
pub struct CountMinSketch {
    width: usize,
    rows: Vec<Vec<u32>>,
    seeds: Vec<u64>,
}

impl CountMinSketch {
    /// `depth` rows of `width` counters; `seed` picks the row hash functions.
    pub fn new(width: usize, depth: usize, seed: u64) -> Self {
        let width = width.max(1);
        let seeds =
            (0..depth.max(1) as u64).map(|i| splitmix64(seed ^ (i + 1).wrapping_mul(0x9E37_79B9))).collect();
        CountMinSketch { width, rows: vec![vec![0; width]; depth.max(1)], seeds }
    }

    fn index(&self, row: usize, key: u32) -> usize {
        (splitmix64(self.seeds[row] ^ u64::from(key)) % self.width as u64) as usize
    }

    /// Counts one more packet of `key`; returns the new estimate (the minimum over rows).
    pub fn add(&mut self, key: u32) -> u32 {
        let mut est = u32::MAX;
        for r in 0..self.rows.len() {
            let i = self.index(r, key);
            let c = &mut self.rows[r][i];
            *c = c.saturating_add(1);
            est = est.min(*c);
        }
        est
    }

    pub fn estimate(&self, key: u32) -> u32 {
        (0..self.rows.len()).map(|r| self.rows[r][self.index(r, key)]).min().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_never_fall_below_the_true_count() {
        let mut s = CountMinSketch::new(64, 3, 7);
        for k in 0..200u32 {
            for _ in 0..(k % 13) {
                s.add(k);
            }
        }
        for k in 0..200u32 {
            assert!(s.estimate(k) >= k % 13);
        }
    }

    #[test]
    fn a_wide_sketch_is_exact_for_few_keys() {
        let mut s = CountMinSketch::new(4096, 4, 1);
        for _ in 0..11 {
            s.add(5);
        }
        s.add(6);
        assert_eq!(s.estimate(5), 11);
        assert_eq!(s.estimate(6), 1);
    }
}
