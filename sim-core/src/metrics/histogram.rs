//! A log-bucket histogram: a distribution in bounded memory with quantiles within a set
//! relative error, for per-flow queueing delays and backlogs over runs of millions of packets.
//!
//! The layout is DDSketch's (Masson, Rim & Lee, "DDSketch: a fast and fully-mergeable
//! quantile sketch with relative-error guarantees", VLDB 2019, §2.1): with α the relative
//! error and γ = (1 + α)/(1 − α), positive value v falls in bucket i = ⌊ln v / ln γ⌋, which
//! covers [γ^i, γ^(i+1)). Its representative 2·γ^(i+1)/(γ + 1) is within α relative of every
//! value in the bucket: at the lower end the error is 2γ/(γ+1) − 1 = (γ−1)/(γ+1) = α, at the
//! upper end 1 − 2/(γ+1) = α. (The paper indexes with ⌈·⌉ and buckets (γ^(i−1), γ^i], hence
//! its representative 2γ^i/(γ+1); the bound is the same.) Exact zeros have their own count.
//!
//! Storage is a dense `Vec<u64>` from the lowest to the highest bucket index seen, grown at
//! either end. Bucket count over a range [lo, hi] is about ln(hi/lo)/ln γ: with α = 0.01,
//! ln γ ≈ 0.0200, so 1e-6..1e6 needs ≈ 1382 buckets and 1e-9..1e9 ≈ 2073 (16.6 KiB). The
//! number of buckets is capped (`DEFAULT_MAX_BUCKETS` = 4096, 32 KiB, ≈ 35 decades at α =
//! 0.01); past the cap the lowest buckets are folded into one (DDSketch's collapsing-lowest
//! store, §2.2), so the upper quantiles (P95, P99, the ones a delay study reads) keep the
//! guarantee and only quantiles that land in the folded bucket lose it (they stay within
//! [min, max]).
//!
//! Transcendentals go through `libm`, so a value lands in the same bucket on native and wasm.
//! Only non-negative finite values are recorded: NaN, negatives and ±∞ are counted in
//! `rejected()` and otherwise ignored (a delay or a backlog is never negative, so one is a
//! bug upstream worth counting, not a value to clamp to zero and hide).

use super::counts::Counts;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;

/// The default relative error of quantiles: 1 %.
pub const DEFAULT_REL_ERR: f64 = 0.01;

/// The default cap on the number of buckets (32 KiB of counts).
pub const DEFAULT_MAX_BUCKETS: usize = 4096;

/// A distribution of non-negative values in geometric buckets. See the module docs.
#[derive(Clone, Debug, PartialEq)]
pub struct LogHistogram {
    /// α: the relative error of a bucket's representative.
    rel_err: f64,
    /// γ = (1 + α)/(1 − α).
    gamma: f64,
    /// ln γ, the width of a bucket in log space.
    ln_gamma: f64,
    max_buckets: usize,
    zero_count: u64,
    /// The bucket index of `counts[0]`.
    offset: i64,
    /// Counts of buckets `offset..offset + counts.len()`; both ends are non-zero.
    counts: Counts,
    /// Whether the lowest bucket holds everything below it (the cap was reached).
    collapsed: bool,
    /// Recorded values, zeros included.
    count: u64,
    /// Exact sum (saturating at `f64::MAX`, so it stays finite and serialisable).
    sum: f64,
    /// Exact extremes; meaningful only when `count > 0`.
    min: f64,
    max: f64,
    /// NaN, negative and infinite values offered and not recorded.
    rejected: u64,
}

/// `merge` needs both histograms to share α, or buckets would not line up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RelErrMismatch {
    pub ours: f64,
    pub theirs: f64,
}

impl std::fmt::Display for RelErrMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot merge histograms with relative errors {} and {}", self.ours, self.theirs)
    }
}

impl std::error::Error for RelErrMismatch {}

impl Default for LogHistogram {
    fn default() -> Self {
        LogHistogram::new(DEFAULT_REL_ERR)
    }
}

impl LogHistogram {
    /// An empty histogram whose quantiles are within `rel_err` (α) relative error.
    ///
    /// # Panics
    /// If `rel_err` is not in (0, 1).
    pub fn new(rel_err: f64) -> Self {
        LogHistogram::with_max_buckets(rel_err, DEFAULT_MAX_BUCKETS)
    }

    /// As `new`, with at most `max_buckets` buckets (see the module docs on collapsing).
    ///
    /// # Panics
    /// If `rel_err` is not in (0, 1) or `max_buckets` is 0.
    pub fn with_max_buckets(rel_err: f64, max_buckets: usize) -> Self {
        assert!(rel_err > 0.0 && rel_err < 1.0, "relative error must be in (0, 1), got {rel_err}");
        assert!(max_buckets > 0, "a histogram needs at least one bucket");
        let gamma = (1.0 + rel_err) / (1.0 - rel_err);
        LogHistogram {
            rel_err,
            gamma,
            // ln γ = ln(1 + 2α/(1 − α)); log1p keeps the digits when α is small.
            ln_gamma: libm::log1p(2.0 * rel_err / (1.0 - rel_err)),
            max_buckets,
            zero_count: 0,
            offset: 0,
            counts: Counts::default(),
            collapsed: false,
            count: 0,
            sum: 0.0,
            min: 0.0,
            max: 0.0,
            rejected: 0,
        }
    }

    pub fn record(&mut self, v: f64) {
        self.record_n(v, 1);
    }

    /// The bucket `record(v)` would count `v` in (None for zero and for rejected values),
    /// with a prefetch of that bucket's count: with thousands of histograms, the count is a
    /// cache miss worth starting early. Pass the result to [`LogHistogram::record_hinted`].
    #[inline]
    pub fn bucket_hint(&self, v: f64) -> Option<i64> {
        if !(v > 0.0 && v.is_finite()) {
            return None;
        }
        let i = self.index(v);
        if let Ok(j) = usize::try_from(i - self.offset) {
            self.counts.prefetch(j);
        }
        Some(i)
    }

    /// As `record(v)`, with `hint` from `bucket_hint(v)` on this histogram (the same index
    /// `record` computes, so the result is identical).
    #[inline]
    pub fn record_hinted(&mut self, v: f64, hint: Option<i64>) {
        match hint {
            Some(i) => {
                debug_assert_eq!(i, self.index(v));
                self.add_to_bucket(i, 1);
                self.note(v, 1);
            }
            None => self.record(v),
        }
    }

    /// Records `n` copies of `v`.
    pub fn record_n(&mut self, v: f64, n: u64) {
        if n == 0 {
            return;
        }
        if !(v >= 0.0 && v.is_finite()) {
            self.rejected += n;
            return;
        }
        let v = if v == 0.0 { 0.0 } else { v }; // −0 is stored as +0
        if v == 0.0 {
            self.zero_count += n;
        } else {
            self.add_to_bucket(self.index(v), n);
        }
        self.note(v, n);
    }

    /// Extremes, count and sum after `n` copies of `v` went into a bucket (v · 1 is exactly
    /// v, so one copy adds the same sum as before).
    #[inline]
    fn note(&mut self, v: f64, n: u64) {
        if self.count == 0 {
            self.min = v;
            self.max = v;
        } else {
            self.min = self.min.min(v);
            self.max = self.max.max(v);
        }
        self.count += n;
        self.sum = (self.sum + v * n as f64).min(f64::MAX);
    }

    /// Adds `other`'s values to this histogram. Counts, extremes and quantiles come out as
    /// if every value had been recorded here; the sum may differ in the last bits (float
    /// addition in another order).
    pub fn merge(&mut self, other: &LogHistogram) -> Result<(), RelErrMismatch> {
        // Bucket layouts match only for the very same parameter: exact on purpose.
        #[allow(clippy::float_cmp)]
        if self.rel_err != other.rel_err {
            return Err(RelErrMismatch { ours: self.rel_err, theirs: other.rel_err });
        }
        // Ascending, so the front grows at most once and the back grows by appending.
        for (j, c) in other.counts.iter().enumerate() {
            if c > 0 {
                self.add_to_bucket(other.offset + j as i64, c);
            }
        }
        self.collapsed |= other.collapsed;
        self.zero_count += other.zero_count;
        if other.count > 0 {
            if self.count == 0 {
                self.min = other.min;
                self.max = other.max;
            } else {
                self.min = self.min.min(other.min);
                self.max = self.max.max(other.max);
            }
        }
        self.count += other.count;
        self.sum = (self.sum + other.sum).min(f64::MAX);
        self.rejected += other.rejected;
        Ok(())
    }

    /// Values recorded (zeros included, rejected values not).
    pub fn count(&self) -> u64 {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Exact sum of the recorded values (0 when empty; saturates at `f64::MAX`).
    pub fn sum(&self) -> f64 {
        self.sum
    }

    /// Exact mean, `None` when empty.
    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum / self.count as f64)
    }

    /// Exact smallest value recorded.
    pub fn min(&self) -> Option<f64> {
        (self.count > 0).then_some(self.min)
    }

    /// Exact largest value recorded.
    pub fn max(&self) -> Option<f64> {
        (self.count > 0).then_some(self.max)
    }

    /// Exact zeros recorded.
    pub fn zero_count(&self) -> u64 {
        self.zero_count
    }

    /// NaN, negative and infinite values offered and not recorded.
    pub fn rejected(&self) -> u64 {
        self.rejected
    }

    /// α, the relative error this histogram was built with.
    pub fn rel_err(&self) -> f64 {
        self.rel_err
    }

    /// Buckets held in memory (the span from the lowest to the highest index seen).
    pub fn bucket_count(&self) -> usize {
        self.counts.len()
    }

    /// Quantile `q` in [0, 1] (clamped), `None` when empty or `q` is NaN.
    ///
    /// Rank convention: numpy's default (Hyndman & Fan type 7). With n values sorted
    /// x₀ ≤ … ≤ xₙ₋₁ and h = q·(n − 1), numpy returns x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋₊₁ − x⌊h⌋).
    /// Here each order statistic xₖ is replaced by the representative of the bucket that
    /// holds rank k (0 for the zero count; the exact min for k = 0 and the exact max for
    /// k = n − 1; any representative is clamped into [min, max]) and the same interpolation
    /// follows. Each stand-in is within α relative of its xₖ and the interpolation is a
    /// convex combination of non-negative numbers, so the result is within α relative of
    /// numpy's quantile of the same data (outside a collapsed lowest bucket).
    pub fn quantile(&self, q: f64) -> Option<f64> {
        if self.count == 0 || q.is_nan() {
            return None;
        }
        let h = q.clamp(0.0, 1.0) * (self.count - 1) as f64;
        let lo = (h.floor() as u64).min(self.count - 1);
        let frac = h - lo as f64;
        let x_lo = self.value_at_rank(lo);
        if frac <= 0.0 || lo + 1 >= self.count {
            return Some(x_lo);
        }
        let x_hi = self.value_at_rank(lo + 1);
        Some(x_lo + frac * (x_hi - x_lo))
    }

    /// (representative, count) of every non-empty bucket in ascending order, the zero count
    /// first as (0.0, n). Buckets have equal width in log space, so on a log x axis the
    /// counts are proportional to the density; on a linear axis divide a count by its
    /// bucket's width γ^(i+1) − γ^i = representative · (γ − 1)(γ + 1)/(2γ).
    pub fn density_points(&self) -> impl Iterator<Item = (f64, u64)> + '_ {
        let zero = (self.zero_count > 0).then_some((0.0, self.zero_count));
        let buckets = self
            .counts
            .iter()
            .enumerate()
            .filter(|&(_, c)| c > 0)
            .map(|(j, c)| (self.representative(self.offset + j as i64), c));
        zero.into_iter().chain(buckets)
    }

    /// The bucket of positive `v`: ⌊ln v / ln γ⌋.
    fn index(&self, v: f64) -> i64 {
        libm::floor(libm::log(v) / self.ln_gamma) as i64
    }

    /// 2·γ^(i+1)/(γ + 1): within α relative of every value in [γ^i, γ^(i+1)).
    fn representative(&self, i: i64) -> f64 {
        2.0 * libm::exp((i + 1) as f64 * self.ln_gamma) / (self.gamma + 1.0)
    }

    /// The stand-in for the k-th smallest recorded value (0-based); `k < count`.
    fn value_at_rank(&self, k: u64) -> f64 {
        if k == 0 {
            return self.min;
        }
        if k + 1 >= self.count {
            return self.max;
        }
        if k < self.zero_count {
            return 0.0;
        }
        match self.counts.bucket_of_rank(k - self.zero_count) {
            Some(j) => self.representative(self.offset + j as i64).clamp(self.min, self.max),
            None => self.max,
        }
    }

    /// Adds `n` to bucket `i`, growing the dense range, or folding the lowest buckets
    /// when the range would pass `max_buckets`.
    fn add_to_bucket(&mut self, i: i64, n: u64) {
        if self.counts.is_empty() {
            self.offset = i;
            self.counts.push(n);
            return;
        }
        let len = self.counts.len() as i64;
        let cap = self.max_buckets as i64;
        if i < self.offset {
            if !self.collapsed {
                // Grow the front as far as the cap allows; what is still below folds in.
                let grow = (self.offset - i).min(cap - len);
                if grow > 0 {
                    self.counts.grow_front(grow as usize);
                    self.offset -= grow;
                }
                self.collapsed = self.offset > i;
            }
            self.counts.add(0, n);
        } else if i >= self.offset + len {
            if i - self.offset + 1 > cap {
                self.collapse_below(i - cap + 1);
            }
            self.counts.resize((i - self.offset + 1) as usize);
            self.counts.add((i - self.offset) as usize, n);
        } else {
            self.counts.add((i - self.offset) as usize, n);
        }
    }

    /// Folds every bucket below `new_offset` into bucket `new_offset`.
    fn collapse_below(&mut self, new_offset: i64) {
        let k = (new_offset - self.offset) as usize;
        if k >= self.counts.len() {
            let total = self.counts.sum();
            self.counts.clear();
            self.counts.push(total);
        } else {
            self.counts.fold_front(k);
        }
        self.offset = new_offset;
        self.collapsed = true;
    }
}

/// The serialised form: α, the cap, the zero count, the offset and the dense counts, plus
/// the exact statistics. `min`/`max` are `null` when empty, so there is never a NaN or ∞.
#[derive(Serialize, Deserialize)]
struct Repr<'a> {
    rel_err: f64,
    max_buckets: usize,
    zero_count: u64,
    offset: i64,
    counts: Cow<'a, [u64]>,
    collapsed: bool,
    sum: f64,
    min: Option<f64>,
    max: Option<f64>,
    rejected: u64,
}

impl Serialize for LogHistogram {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Repr {
            rel_err: self.rel_err,
            max_buckets: self.max_buckets,
            zero_count: self.zero_count,
            offset: self.offset,
            counts: Cow::Owned(self.counts.to_vec()),
            collapsed: self.collapsed,
            sum: self.sum,
            min: self.min(),
            max: self.max(),
            rejected: self.rejected,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for LogHistogram {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = Repr::deserialize(d)?;
        if !(r.rel_err > 0.0 && r.rel_err < 1.0) || r.max_buckets == 0 {
            return Err(D::Error::custom("histogram: rel_err must be in (0, 1) and max_buckets > 0"));
        }
        if r.counts.len() > r.max_buckets {
            return Err(D::Error::custom("histogram: more counts than max_buckets"));
        }
        let count = r
            .counts
            .iter()
            .try_fold(r.zero_count, |acc, &c| acc.checked_add(c))
            .ok_or_else(|| D::Error::custom("histogram: count overflows u64"))?;
        let (min, max) = match (r.min, r.max) {
            (Some(lo), Some(hi)) if count > 0 && 0.0 <= lo && lo <= hi && hi.is_finite() => (lo, hi),
            (None, None) if count == 0 => (0.0, 0.0),
            _ => return Err(D::Error::custom("histogram: min/max must be set exactly when not empty")),
        };
        if !(r.sum >= 0.0 && r.sum.is_finite()) {
            return Err(D::Error::custom("histogram: sum must be finite and non-negative"));
        }
        let mut h = LogHistogram::with_max_buckets(r.rel_err, r.max_buckets);
        h.zero_count = r.zero_count;
        h.offset = r.offset;
        h.counts = Counts::from_vec(r.counts.into_owned());
        h.collapsed = r.collapsed;
        h.count = count;
        h.sum = r.sum;
        h.min = min;
        h.max = max;
        h.rejected = r.rejected;
        Ok(h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::stats::{quantile_sorted, sorted};
    use crate::rng::{SimRng, StreamId};

    const QS: [f64; 15] =
        [0.0, 0.001, 0.01, 0.05, 0.1, 0.25, 0.333, 0.5, 0.667, 0.75, 0.9, 0.95, 0.99, 0.999, 1.0];

    fn uniform(seed: u64, n: usize) -> Vec<f64> {
        let mut rng = SimRng::new(seed, StreamId::Other(0));
        (0..n).map(|_| rng.uniform()).collect()
    }

    /// Asserts every quantile in `QS` is within α relative (plus rounding) of numpy's.
    fn assert_quantiles_within_rel_err(data: &[f64], alpha: f64) {
        let mut h = LogHistogram::new(alpha);
        data.iter().for_each(|&v| h.record(v));
        let s = sorted(data);
        for q in QS {
            let exact = quantile_sorted(&s, q);
            let est = h.quantile(q).unwrap();
            let err = (est - exact).abs();
            assert!(
                err <= alpha * exact * (1.0 + 1e-9),
                "q = {q}: exact {exact}, estimate {est}, rel {}",
                err / exact
            );
        }
    }

    #[test]
    fn quantiles_of_uniform_data_are_within_rel_err() {
        let data: Vec<f64> = uniform(1, 100_000).iter().map(|u| 0.5 + 50.0 * u).collect();
        assert_quantiles_within_rel_err(&data, 0.01);
        assert_quantiles_within_rel_err(&data, 0.001);
    }

    #[test]
    fn quantiles_of_log_normal_data_are_within_rel_err() {
        // Box–Muller: z = √(−2 ln u₁)·cos(2π u₂); x = exp(μ + σz) with μ = ln 5 ms, σ = 1.5.
        let u = uniform(2, 200_000);
        let data: Vec<f64> = u
            .chunks(2)
            .map(|p| {
                let z =
                    libm::sqrt(-2.0 * libm::log(1.0 - p[0])) * libm::cos(2.0 * std::f64::consts::PI * p[1]);
                libm::exp(libm::log(5e-3) + 1.5 * z)
            })
            .collect();
        assert_eq!(data.len(), 100_000);
        assert_quantiles_within_rel_err(&data, 0.01);
    }

    #[test]
    fn quantiles_of_heavy_tailed_data_are_within_rel_err() {
        // Pareto with shape 1.1 (infinite variance): x = x_m · (1 − u)^(−1/1.1).
        let data: Vec<f64> =
            uniform(3, 100_000).iter().map(|u| 1e-4 * libm::pow(1.0 - u, -1.0 / 1.1)).collect();
        assert_quantiles_within_rel_err(&data, 0.01);
        assert_quantiles_within_rel_err(&data, 0.05);
    }

    #[test]
    fn quantiles_with_a_block_of_zeros_are_within_rel_err() {
        let mut data = uniform(4, 50_000);
        data.extend(std::iter::repeat_n(0.0, 20_000));
        assert_quantiles_within_rel_err(&data, 0.01);
    }

    #[test]
    fn every_value_is_within_rel_err_of_its_representative() {
        let h0 = LogHistogram::new(0.01);
        let mut v = 1e-12;
        while v < 1e12 {
            let rep = h0.representative(h0.index(v));
            assert!((rep - v).abs() <= 0.01 * v * (1.0 + 1e-9), "v = {v}, representative {rep}");
            v *= 1.003_7;
        }
    }

    #[test]
    fn extremes_mean_and_sum_are_exact() {
        let data = uniform(5, 10_000);
        let mut h = LogHistogram::default();
        data.iter().for_each(|&v| h.record(v));
        let s = sorted(&data);
        assert_eq!(h.min(), Some(s[0]));
        assert_eq!(h.max(), Some(s[s.len() - 1]));
        assert_eq!(h.quantile(0.0), Some(s[0]));
        assert_eq!(h.quantile(1.0), Some(s[s.len() - 1]));
        assert_eq!(h.sum(), data.iter().sum::<f64>());
        assert_eq!(h.mean(), Some(data.iter().sum::<f64>() / 10_000.0));
        assert_eq!(h.count(), 10_000);
    }

    #[test]
    fn a_single_value_is_every_quantile_exactly() {
        let mut h = LogHistogram::default();
        h.record(0.123_456);
        for q in QS {
            assert_eq!(h.quantile(q), Some(0.123_456));
        }
    }

    #[test]
    fn empty_histogram_has_no_quantile_mean_or_extremes() {
        let h = LogHistogram::default();
        assert_eq!(h.count(), 0);
        assert!(h.is_empty());
        assert_eq!(h.quantile(0.5), None);
        assert_eq!(h.mean(), None);
        assert_eq!(h.min(), None);
        assert_eq!(h.max(), None);
        assert_eq!(h.sum(), 0.0);
        assert_eq!(h.density_points().count(), 0);
    }

    #[test]
    fn zeros_are_counted_exactly_and_returned_as_zero() {
        let mut h = LogHistogram::default();
        h.record_n(0.0, 3);
        h.record(-0.0);
        h.record(2.0);
        assert_eq!(h.count(), 5);
        assert_eq!(h.zero_count(), 4);
        assert_eq!(h.quantile(0.5), Some(0.0));
        assert_eq!(h.quantile(0.75), Some(0.0)); // rank 3 is still a zero
        assert_eq!(h.quantile(1.0), Some(2.0));
        // Rank 3.2 interpolates between 0 and the max exactly as numpy does.
        assert_eq!(h.quantile(0.8), Some(quantile_sorted(&[0.0, 0.0, 0.0, 0.0, 2.0], 0.8)));
        assert_eq!(h.min().map(f64::is_sign_positive), Some(true));
        assert_eq!(h.density_points().next(), Some((0.0, 4)));
    }

    #[test]
    fn nan_negative_and_infinite_values_are_rejected_not_recorded() {
        let mut h = LogHistogram::default();
        h.record(1.0);
        h.record(f64::NAN);
        h.record(-1.0);
        h.record_n(f64::INFINITY, 2);
        h.record(f64::NEG_INFINITY);
        assert_eq!(h.count(), 1);
        assert_eq!(h.rejected(), 5);
        assert_eq!(h.max(), Some(1.0));
        assert_eq!(h.quantile(f64::NAN), None);
    }

    #[test]
    fn record_n_equals_n_records() {
        let (mut a, mut b) = (LogHistogram::default(), LogHistogram::default());
        for (i, v) in uniform(6, 100).iter().enumerate() {
            let n = (i % 5) as u64;
            a.record_n(*v, n);
            (0..n).for_each(|_| b.record(*v));
        }
        assert_eq!(a.count(), b.count());
        assert_eq!(a.density_points().collect::<Vec<_>>(), b.density_points().collect::<Vec<_>>());
        assert!((a.sum() - b.sum()).abs() <= 1e-12 * b.sum());
    }

    #[test]
    fn merge_equals_recording_everything_in_one() {
        // Disjoint ranges, so the merge grows the front and the back.
        let lo: Vec<f64> = uniform(7, 30_000).iter().map(|u| 1e-3 * (1.0 + u)).collect();
        let hi: Vec<f64> = uniform(8, 30_000).iter().map(|u| 1e3 * (1.0 + u)).collect();
        let mid: Vec<f64> = uniform(9, 30_000);
        let (mut all, mut a, mut b) =
            (LogHistogram::default(), LogHistogram::default(), LogHistogram::default());
        for &v in mid.iter().chain(&lo).chain(&hi) {
            all.record(v);
        }
        mid.iter().for_each(|&v| a.record(v));
        a.record_n(0.0, 7);
        all.record_n(0.0, 7);
        lo.iter().chain(&hi).for_each(|&v| b.record(v));
        b.record(-1.0);
        all.record(-1.0);
        a.merge(&b).unwrap();
        assert_eq!(a.count(), all.count());
        assert_eq!(a.rejected(), all.rejected());
        assert_eq!((a.min(), a.max()), (all.min(), all.max()));
        assert_eq!(a.bucket_count(), all.bucket_count());
        assert_eq!(a.density_points().collect::<Vec<_>>(), all.density_points().collect::<Vec<_>>());
        for q in QS {
            assert_eq!(a.quantile(q), all.quantile(q));
        }
        assert!((a.sum() - all.sum()).abs() <= 1e-12 * all.sum());
        // Merging into an empty histogram copies.
        let mut empty = LogHistogram::default();
        empty.merge(&all).unwrap();
        assert_eq!(empty, all);
    }

    #[test]
    fn merge_rejects_a_different_rel_err() {
        let mut a = LogHistogram::new(0.01);
        let mut b = LogHistogram::new(0.02);
        b.record(1.0);
        assert_eq!(a.merge(&b), Err(RelErrMismatch { ours: 0.01, theirs: 0.02 }));
        assert!(a.is_empty());
    }

    #[test]
    fn buckets_for_twelve_decades_stay_under_1400() {
        // ln(1e12)/ln γ = 27.63/0.0200 ≈ 1381.6 at α = 0.01; 36 decades ≈ 4145 > the cap.
        let mut h = LogHistogram::default();
        h.record(1e-6);
        h.record(1e6);
        assert!(h.bucket_count() <= 1383, "{} buckets", h.bucket_count());
        let mut wide = LogHistogram::default();
        wide.record(1e-9);
        wide.record(1e9);
        assert!(wide.bucket_count() <= 2075, "{} buckets", wide.bucket_count());
        let mut huge = LogHistogram::default();
        huge.record(1e-300);
        huge.record(1e300);
        assert_eq!(huge.bucket_count(), DEFAULT_MAX_BUCKETS);
    }

    #[test]
    fn the_cap_folds_the_lowest_buckets_and_keeps_the_upper_quantiles() {
        // 100 buckets at α = 0.01 span a factor γ^100 ≈ 7.4; the data spans 1000.
        let data: Vec<f64> = uniform(10, 100_000).iter().map(|u| libm::pow(10.0, 3.0 * u)).collect();
        let s = sorted(&data);
        // Growing at the back (ascending order) and at the front (descending order).
        for order in [s.clone(), s.iter().rev().copied().collect()] {
            let mut h = LogHistogram::with_max_buckets(0.01, 100);
            order.iter().for_each(|&v| h.record(v));
            assert_eq!(h.bucket_count(), 100);
            assert_eq!(h.count(), 100_000);
            for q in [0.9, 0.95, 0.99, 0.999] {
                let exact = quantile_sorted(&s, q);
                let est = h.quantile(q).unwrap();
                assert!((est - exact).abs() <= 0.01 * exact * (1.0 + 1e-9), "q = {q}: {exact} vs {est}");
            }
            let low = h.quantile(0.1).unwrap();
            assert!(low >= s[0] && low <= s[s.len() - 1]);
        }
    }

    #[test]
    fn json_round_trip_is_exact_and_has_no_nan() {
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        struct FlowDelays {
            id: u32,
            delay_s: LogHistogram,
            backlog: Option<LogHistogram>,
        }
        let mut h = LogHistogram::default();
        uniform(11, 10_000).iter().for_each(|&v| h.record(v * 1e-3));
        h.record_n(0.0, 5);
        h.record(f64::NAN);
        let mut capped = LogHistogram::with_max_buckets(0.02, 10);
        [1e-9, 1.0, 1e9].iter().for_each(|&v| capped.record(v));
        for (delay_s, backlog) in
            [(h, Some(capped)), (LogHistogram::default(), Some(LogHistogram::default()))]
        {
            let x = FlowDelays { id: 3, delay_s, backlog };
            let json = serde_json::to_string(&x).unwrap();
            assert!(!json.contains("NaN") && !json.contains("inf"), "{json}");
            let back: FlowDelays = serde_json::from_str(&json).unwrap();
            assert_eq!(back, x);
            assert_eq!(serde_json::to_string(&back).unwrap(), json);
        }
    }

    #[test]
    fn deserialising_rejects_inconsistent_histograms() {
        let bad = [
            r#"{"rel_err":0.0,"max_buckets":4,"zero_count":0,"offset":0,"counts":[],"collapsed":false,"sum":0.0,"min":null,"max":null,"rejected":0}"#,
            r#"{"rel_err":0.01,"max_buckets":1,"zero_count":0,"offset":0,"counts":[1,1],"collapsed":false,"sum":2.0,"min":1.0,"max":1.1,"rejected":0}"#,
            r#"{"rel_err":0.01,"max_buckets":4,"zero_count":0,"offset":0,"counts":[1],"collapsed":false,"sum":1.0,"min":null,"max":null,"rejected":0}"#,
        ];
        for json in bad {
            assert!(serde_json::from_str::<LogHistogram>(json).is_err(), "{json}");
        }
    }
}
