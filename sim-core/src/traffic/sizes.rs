//! Flow sizes drawn from an empirical CDF, as datacentre studies generate their workloads.
//!
//! Shipped distributions (sizes in payload bytes, cumulative fractions):
//! - **web search**, measured in a search cluster by Alizadeh et al. (DCTCP, SIGCOMM 2010,
//!   Fig. 4) and used by pFabric (SIGCOMM 2013, §5) and HPCC (SIGCOMM 2019, §5.1); the
//!   points are HPCC's `traffic_gen/WebSearch_distribution.txt`. Mean 1.71 MB: most flows
//!   are mice, most bytes are in flows over 1 MB.
//! - **data mining**, measured in a data-mining cluster by Greenberg et al. (VL2, SIGCOMM
//!   2009, Fig. 2) and used by pFabric; the points are `VL2_CDF.txt` of Alizadeh's
//!   empirical-traffic-gen. Mean 12.6 MB, and 80 % of flows under 10 kB.
//!
//! A draw picks a uniform fraction and interpolates linearly between the two points around
//! it, as HPCC's generator (`custom_rand.py`) does; a user's CDF is read the same way.

use crate::rng::SimRng;
use serde::{Deserialize, Serialize};

/// (payload bytes, cumulative fraction) of the web-search workload.
pub const WEB_SEARCH: &[(f64, f64)] = &[
    (0.0, 0.0),
    (10e3, 0.15),
    (20e3, 0.20),
    (30e3, 0.30),
    (50e3, 0.40),
    (80e3, 0.53),
    (200e3, 0.60),
    (1e6, 0.70),
    (2e6, 0.80),
    (5e6, 0.90),
    (10e6, 0.97),
    (30e6, 1.0),
];

/// (payload bytes, cumulative fraction) of the data-mining workload.
pub const DATA_MINING: &[(f64, f64)] = &[
    (0.0, 0.0),
    (180.0, 0.1),
    (216.0, 0.2),
    (560.0, 0.3),
    (900.0, 0.4),
    (1100.0, 0.5),
    (1870.0, 0.6),
    (3160.0, 0.7),
    (10e3, 0.8),
    (400e3, 0.9),
    (3.16e6, 0.95),
    (100e6, 0.98),
    (1e9, 1.0),
];

/// Where a group's flow sizes come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SizeSource {
    /// The group's `size_bytes`, every flow the same.
    #[default]
    Fixed,
    WebSearch,
    DataMining,
    /// The points of `cdf`.
    Custom,
}

/// The options of a size picker: (value, label).
pub const SIZE_CHOICES: &[(&str, &str)] = &[
    ("fixed", "the group's size"),
    ("web_search", "web search (DCTCP)"),
    ("data_mining", "data mining (VL2)"),
    ("custom", "custom CDF (cdf)"),
];

/// A CDF's points: sizes ascending, fractions ascending from 0 to 1.
pub fn check_cdf(points: &[(f64, f64)]) -> Result<(), String> {
    let bad = |i: usize, why: &str| Err(format!("point {i}: {why}"));
    if points.len() < 2 {
        return Err("at least two [bytes, fraction] points, the first at fraction 0, the last at 1".into());
    }
    for (i, &(b, p)) in points.iter().enumerate() {
        if !(0.0..=1e12).contains(&b) {
            return bad(i, "bytes from 0 to 1e12");
        }
        if !(0.0..=1.0).contains(&p) {
            return bad(i, "fraction from 0 to 1");
        }
        if i > 0 && (b < points[i - 1].0 || p < points[i - 1].1) {
            return bad(i, "bytes and fractions never decrease");
        }
    }
    // Exactly 0 and 1: they are written, not computed.
    #[allow(clippy::float_cmp)]
    if points[0].1 != 0.0 || points[points.len() - 1].1 != 1.0 {
        return Err("the first point at fraction 0, the last at 1".into());
    }
    if points[points.len() - 1].0 < 1.0 {
        return Err("some flow of 1 byte or more".into());
    }
    Ok(())
}

/// The size at fraction `u` of the CDF, interpolated linearly, at least 1 byte.
pub fn at_fraction(points: &[(f64, f64)], u: f64) -> u64 {
    let i = points.partition_point(|&(_, p)| p < u).clamp(1, points.len() - 1);
    let ((b0, p0), (b1, p1)) = (points[i - 1], points[i]);
    let x = if p1 > p0 { b0 + (b1 - b0) * (u - p0) / (p1 - p0) } else { b1 };
    (x.round() as u64).max(1)
}

/// A size drawn from the CDF.
pub fn draw(points: &[(f64, f64)], rng: &mut SimRng) -> u64 {
    at_fraction(points, rng.uniform())
}

/// The CDF's mean size, bytes: each segment's midpoint weighted by its fraction (what
/// linear interpolation draws on average).
pub fn mean(points: &[(f64, f64)]) -> f64 {
    points.windows(2).map(|w| (w[1].1 - w[0].1) * (w[0].0 + w[1].0) / 2.0).sum::<f64>().max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::StreamId;

    #[test]
    fn the_shipped_cdfs_are_valid_and_have_their_published_means() {
        check_cdf(WEB_SEARCH).unwrap();
        check_cdf(DATA_MINING).unwrap();
        assert!((mean(WEB_SEARCH) / 1.7e6 - 1.0).abs() < 0.02, "{}", mean(WEB_SEARCH));
        assert!((mean(DATA_MINING) / 12.6e6 - 1.0).abs() < 0.02, "{}", mean(DATA_MINING));
    }

    #[test]
    fn draws_follow_the_cdf() {
        let mut rng = SimRng::new(3, StreamId::Other(0));
        let n = 200_000u32;
        let sizes: Vec<u64> = (0..n).map(|_| draw(WEB_SEARCH, &mut rng)).collect();
        let n = f64::from(n);
        for &(b, p) in &WEB_SEARCH[1..WEB_SEARCH.len() - 1] {
            let below = sizes.iter().filter(|&&s| (s as f64) <= b).count() as f64 / n;
            assert!((below - p).abs() < 0.01, "P(size <= {b}) = {below}, CDF says {p}");
        }
        let avg = sizes.iter().sum::<u64>() as f64 / n;
        assert!((avg / mean(WEB_SEARCH) - 1.0).abs() < 0.03, "{avg}");
    }

    #[test]
    fn interpolation_is_linear_between_points_and_never_zero() {
        let cdf = [(0.0, 0.0), (1000.0, 0.5), (3000.0, 1.0)];
        assert_eq!(at_fraction(&cdf, 0.25), 500);
        assert_eq!(at_fraction(&cdf, 0.75), 2000);
        assert_eq!(at_fraction(&cdf, 0.0), 1);
        assert_eq!(at_fraction(&cdf, 1.0), 3000);
        // A step (two points at one fraction) draws its upper size.
        assert_eq!(at_fraction(&[(0.0, 0.0), (100.0, 1.0), (200.0, 1.0)], 1.0), 100);
    }

    #[test]
    fn bad_cdfs_are_refused_with_the_point() {
        assert!(check_cdf(&[(0.0, 0.0)]).is_err());
        assert!(check_cdf(&[(0.0, 0.0), (10.0, 0.5)]).unwrap_err().contains("last at 1"));
        assert!(check_cdf(&[(0.0, 0.0), (10.0, 0.6), (5.0, 1.0)]).unwrap_err().starts_with("point 2"));
        assert!(check_cdf(&[(0.0, 0.0), (10.0, 1.5)]).unwrap_err().starts_with("point 1"));
    }
}
