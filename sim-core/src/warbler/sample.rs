//! Synthetic per-flow backlog sets (in cells) for the fixed-vs-float agreement measure and
//! the K-means benchmarks. Seeded: the same stream gives the same sets on every target.

use crate::rng::SimRng;
use serde::{Deserialize, Serialize};

/// Smallest class scale of [`BacklogSet::Classes`], in cells.
const MIN_CLASS_CELLS: f64 = 8.0;

/// How a synthetic set of backlogs is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BacklogSet {
    /// `classes` groups of flows, as CCAs of different aggressiveness give (§5.1-5.2): each
    /// class has a scale log-uniform in [8, `max_cells`], each flow picks a class uniformly
    /// and backlogs its scale × a uniform factor in [1 − `jitter`, 1 + `jitter`], rounded.
    Classes { classes: u32, max_cells: u32, jitter: f64 },
    /// Every backlog uniform in 0..=`max_cells`: no structure, many near-ties.
    Uniform { max_cells: u32 },
}

impl BacklogSet {
    pub fn sample(&self, n: usize, rng: &mut SimRng) -> Vec<u32> {
        match *self {
            BacklogSet::Classes { classes, max_cells, jitter } => {
                let (lo, hi) =
                    (libm::log(MIN_CLASS_CELLS), libm::log(f64::from(max_cells).max(MIN_CLASS_CELLS)));
                let scales: Vec<f64> =
                    (0..classes.max(1)).map(|_| libm::exp(lo + rng.uniform() * (hi - lo))).collect();
                (0..n)
                    .map(|_| {
                        let s = scales[rng.below(scales.len() as u64) as usize];
                        let f = 1.0 + jitter * (2.0 * rng.uniform() - 1.0);
                        libm::round(s * f).clamp(0.0, f64::from(u32::MAX)) as u32
                    })
                    .collect()
            }
            BacklogSet::Uniform { max_cells } => {
                (0..n).map(|_| rng.below(u64::from(max_cells) + 1) as u32).collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::StreamId;

    #[test]
    fn class_backlogs_stay_within_the_jittered_scale_range() {
        let set = BacklogSet::Classes { classes: 3, max_cells: 6000, jitter: 0.2 };
        let xs = set.sample(1000, &mut SimRng::new(1, StreamId::Other(0)));
        assert_eq!(xs.len(), 1000);
        assert!(xs.iter().all(|&x| (6..=7200).contains(&x)), "{:?}", xs.iter().max());
        let mut distinct_classes: Vec<u32> = xs.iter().map(|&x| x / 100).collect();
        distinct_classes.dedup();
        assert!(distinct_classes.len() > 3);
    }

    #[test]
    fn the_same_stream_gives_the_same_set() {
        let set = BacklogSet::Uniform { max_cells: 100 };
        let a = set.sample(50, &mut SimRng::new(3, StreamId::Other(0)));
        let b = set.sample(50, &mut SimRng::new(3, StreamId::Other(0)));
        assert_eq!(a, b);
        assert!(a.iter().all(|&x| x <= 100));
    }
}
