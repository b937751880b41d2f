//! Gaussian kernel density estimates, with Silverman's rule-of-thumb bandwidth unless set.

use super::histogram::LogHistogram;
use super::stats::{quantile_sorted, sorted, std_dev};

/// A density evaluated on an even grid.
#[derive(Clone, Debug, PartialEq)]
pub struct Density {
    pub xs: Vec<f64>,
    pub ys: Vec<f64>,
    pub bandwidth: f64,
}

/// Silverman (1986, eq. 3.31): h = 0.9 · min(σ, IQR / 1.34) · n^(−1/5).
pub fn silverman_bandwidth(data: &[f64]) -> f64 {
    let n = data.len();
    if n < 2 {
        return 1.0;
    }
    let s = sorted(data);
    let iqr = quantile_sorted(&s, 0.75) - quantile_sorted(&s, 0.25);
    let sigma = std_dev(data);
    let spread = if iqr > 0.0 { sigma.min(iqr / 1.34) } else { sigma };
    let h = 0.9 * spread * libm::pow(n as f64, -0.2);
    if h > 0.0 {
        h
    } else {
        // All samples equal: any small positive width shows a spike at that value.
        (s[0].abs() * 0.05).max(1e-3)
    }
}

/// `points` evenly spaced points over [lo, hi], and the Gaussian normalisation 1/(n·h·√2π).
fn grid(lo: f64, hi: f64, points: usize, n: usize, h: f64) -> (Vec<f64>, f64) {
    let points = points.max(2);
    let step = (hi - lo) / (points - 1) as f64;
    let xs = (0..points).map(|i| lo + step * i as f64).collect();
    (xs, 1.0 / (n.max(1) as f64 * h * (2.0 * std::f64::consts::PI).sqrt()))
}

/// The density of `data` at `points` evenly spaced points over [lo, hi].
pub fn kde(data: &[f64], lo: f64, hi: f64, points: usize, bandwidth: Option<f64>) -> Density {
    let h = bandwidth.unwrap_or_else(|| silverman_bandwidth(data));
    let (xs, norm) = grid(lo, hi, points, data.len(), h);
    let ys = xs
        .iter()
        .map(|&x| {
            data.iter()
                .map(|&d| {
                    let z = (x - d) / h;
                    libm::exp(-0.5 * z * z)
                })
                .sum::<f64>()
                * norm
        })
        .collect();
    Density { xs, ys, bandwidth: h }
}

/// The same density computed from a linear binning of the data into `bins` bins over
/// [lo, hi] (Wand 1994): O(n + bins·points) instead of O(n·points), for large samples
/// drawn live. Data outside [lo, hi] is clamped to the edge bins.
pub fn kde_binned(
    data: &[f64],
    lo: f64,
    hi: f64,
    points: usize,
    bins: usize,
    bandwidth: Option<f64>,
) -> Density {
    let h = bandwidth.unwrap_or_else(|| silverman_bandwidth(data));
    let bins = bins.max(2);
    let width = (hi - lo) / (bins - 1) as f64;
    let mut weight = vec![0.0; bins];
    for &d in data {
        let pos = if width > 0.0 { ((d - lo) / width).clamp(0.0, (bins - 1) as f64) } else { 0.0 };
        let i = (pos.floor() as usize).min(bins - 2);
        let frac = pos - i as f64;
        weight[i] += 1.0 - frac;
        weight[i + 1] += frac;
    }
    let centres: Vec<f64> = (0..bins).map(|i| lo + width * i as f64).collect();
    let (xs, norm) = grid(lo, hi, points, data.len(), h);
    let ys = xs
        .iter()
        .map(|&x| {
            centres
                .iter()
                .zip(&weight)
                .filter(|(_, &w)| w > 0.0)
                .map(|(&c, &w)| {
                    let z = (x - c) / h;
                    w * libm::exp(-0.5 * z * z)
                })
                .sum::<f64>()
                * norm
        })
        .collect();
    Density { xs, ys, bandwidth: h }
}

/// The density of a distribution held in a [`LogHistogram`], each bucket a weighted point
/// at its representative; Silverman's bandwidth from the histogram's deviation and IQR.
/// None when it holds fewer than two values.
pub fn kde_histogram(h: &LogHistogram, lo: f64, hi: f64, points: usize) -> Option<Density> {
    let n = h.count();
    if n < 2 {
        return None;
    }
    let pts: Vec<(f64, f64)> = h.density_points().map(|(x, c)| (x, c as f64)).collect();
    let mean = h.mean()?;
    let var = pts.iter().map(|(x, w)| w * (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
    let iqr = h.quantile(0.75)? - h.quantile(0.25)?;
    let sigma = var.sqrt();
    let spread = if iqr > 0.0 { sigma.min(iqr / 1.34) } else { sigma };
    let mut bw = 0.9 * spread * libm::pow(n as f64, -0.2);
    if bw <= 0.0 || !bw.is_finite() {
        bw = (mean.abs() * 0.05).max(1e-3);
    }
    let (xs, norm) = grid(lo, hi, points, n as usize, bw);
    let ys = xs
        .iter()
        .map(|&x| {
            pts.iter()
                .map(|&(c, w)| {
                    let z = (x - c) / bw;
                    w * libm::exp(-0.5 * z * z)
                })
                .sum::<f64>()
                * norm
        })
        .collect();
    Some(Density { xs, ys, bandwidth: bw })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn density_integrates_to_about_one() {
        let data: Vec<f64> = (0..200).map(|i| f64::from(i % 17)).collect();
        let d = kde(&data, -20.0, 40.0, 601, None);
        let step = d.xs[1] - d.xs[0];
        let area: f64 = d.ys.iter().sum::<f64>() * step;
        assert!((area - 1.0).abs() < 0.01, "area {area}");
    }

    #[test]
    fn silverman_bandwidth_of_a_unit_normal_sample_is_near_theory() {
        // Evenly spread quantiles of N(0,1): σ ≈ 1, IQR ≈ 1.349.
        let n = 1000;
        let data: Vec<f64> = (1..=n).map(|i| probit(f64::from(i) / f64::from(n + 1))).collect();
        let h = silverman_bandwidth(&data);
        let theory = 0.9 * libm::pow(f64::from(n), -0.2);
        assert!((h / theory - 1.0).abs() < 0.05, "h {h} vs {theory}");
    }

    /// Inverse normal CDF by bisection (test helper).
    fn probit(p: f64) -> f64 {
        let (mut lo, mut hi) = (-10.0, 10.0);
        for _ in 0..100 {
            let mid: f64 = (lo + hi) / 2.0;
            let cdf = 0.5 * (1.0 + libm::erf(mid / std::f64::consts::SQRT_2));
            if cdf < p {
                lo = mid
            } else {
                hi = mid
            }
        }
        (lo + hi) / 2.0
    }

    #[test]
    fn binned_density_is_close_to_the_exact_one() {
        let data: Vec<f64> = (0..5000).map(|i| f64::from((i * 7919) % 1000) / 37.0).collect();
        let exact = kde(&data, 0.0, 30.0, 61, None);
        let binned = kde_binned(&data, 0.0, 30.0, 61, 512, None);
        let peak = exact.ys.iter().copied().fold(0.0, f64::max);
        for (a, b) in exact.ys.iter().zip(&binned.ys) {
            assert!((a - b).abs() < 0.01 * peak, "{a} vs {b}");
        }
    }

    #[test]
    fn the_peak_sits_at_the_mode() {
        let mut data = vec![5.0; 50];
        data.extend([1.0, 9.0]);
        let d = kde(&data, 0.0, 10.0, 101, None);
        let (i, _) = d.ys.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).unwrap();
        assert!((d.xs[i] - 5.0).abs() < 0.2);
    }

    #[test]
    fn a_histograms_density_is_close_to_the_exact_one() {
        let data: Vec<f64> = (0..5000).map(|i| 5.0 + f64::from((i * 7919) % 1000) / 37.0).collect();
        let mut h = LogHistogram::default();
        data.iter().for_each(|&v| h.record(v));
        let exact = kde(&data, 0.0, 40.0, 81, None);
        let approx = kde_histogram(&h, 0.0, 40.0, 81).unwrap();
        let peak = exact.ys.iter().copied().fold(0.0, f64::max);
        for (a, b) in exact.ys.iter().zip(&approx.ys) {
            assert!((a - b).abs() < 0.05 * peak, "{a} vs {b}");
        }
    }
}
