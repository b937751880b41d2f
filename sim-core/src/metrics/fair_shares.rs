//! The two reference allocations a lecture on multi-link fairness draws beside TCP's:
//! max-min fairness (progressive filling, Bertsekas & Gallager, *Data Networks*, §6.5.2)
//! and proportional fairness (Kelly, "Charging and rate control for elastic traffic",
//! 1997: the rates maximising Σ log x subject to every link's capacity). Flows of a group
//! share a route and an access link, so both are computed per group, each group counting
//! its flows.

/// A group of `count` flows crossing `links` (indices into the capacities), each flow also
/// capped by its own access link at `cap`.
#[derive(Clone, Debug, PartialEq)]
pub struct Demand {
    pub count: u32,
    pub links: Vec<usize>,
    pub cap: f64,
}

/// Max-min fair rate of one flow of each group: raise every unfrozen flow's rate together
/// until a link (or a flow's own cap) fills, freeze the flows it carries, repeat.
pub fn max_min(capacity: &[f64], groups: &[Demand]) -> Vec<f64> {
    let mut rate = vec![0.0; groups.len()];
    let mut frozen: Vec<bool> = groups.iter().map(|g| g.count == 0).collect();
    let mut left = capacity.to_vec();
    while frozen.iter().any(|f| !f) {
        // How much every unfrozen flow can still rise: the tightest link, or a flow's cap.
        let mut step = f64::INFINITY;
        for (l, &c) in left.iter().enumerate() {
            let n: f64 = (groups.iter().zip(&frozen))
                .filter(|(g, &f)| !f && g.links.contains(&l))
                .map(|(g, _)| f64::from(g.count))
                .sum();
            if n > 0.0 {
                step = step.min(c / n);
            }
        }
        for (i, g) in groups.iter().enumerate() {
            if !frozen[i] {
                step = step.min(g.cap - rate[i]);
            }
        }
        let step = step.max(0.0);
        for (i, g) in groups.iter().enumerate() {
            if frozen[i] {
                continue;
            }
            rate[i] += step;
            for &l in &g.links {
                left[l] -= step * f64::from(g.count);
            }
        }
        // Freeze the flows of every link now full, and those at their cap.
        let full: Vec<bool> = left.iter().zip(capacity).map(|(&l, &c)| l <= 1e-9 * c.max(1.0)).collect();
        let mut changed = false;
        for (i, g) in groups.iter().enumerate() {
            if !frozen[i] && (rate[i] >= g.cap * (1.0 - 1e-12) || g.links.iter().any(|&l| full[l])) {
                frozen[i] = true;
                changed = true;
            }
        }
        if !changed {
            break; // nothing constrains the rest (no link and no cap): leave them
        }
    }
    rate
}

/// Proportionally fair rate of one flow of each group, by the dual (Kelly): each link has
/// a price, a flow's rate is 1 / (the sum of its route's prices) within its cap, and the
/// prices follow each link's excess demand until every link carries at most its capacity
/// (to 1e-6 of it) and the links with a positive price are full.
pub fn proportional(capacity: &[f64], groups: &[Demand]) -> Vec<f64> {
    let n_links = capacity.len();
    let scale = capacity.iter().cloned().fold(0.0, f64::max).max(1.0);
    let cap: Vec<f64> = capacity.iter().map(|c| c / scale).collect();
    let mut price = vec![1.0; n_links];
    let rates = |price: &[f64]| -> Vec<f64> {
        groups
            .iter()
            .map(|g| {
                let p: f64 = g.links.iter().map(|&l| price[l]).sum();
                let limit = g.cap / scale;
                if p > 0.0 {
                    (1.0 / p).min(limit)
                } else {
                    limit
                }
            })
            .collect()
    };
    for _ in 0..20_000 {
        let x = rates(&price);
        let mut load = vec![0.0; n_links];
        for (g, &xi) in groups.iter().zip(&x) {
            for &l in &g.links {
                load[l] += f64::from(g.count) * xi;
            }
        }
        let mut worst: f64 = 0.0;
        for l in 0..n_links {
            // Multiplicative steps: a price rises on an overloaded link, falls on an idle one.
            let excess = load[l] / cap[l].max(1e-12);
            let next = price[l] * excess.powf(0.5);
            price[l] = if next.is_finite() { next.max(1e-12) } else { price[l] };
            let slack = if price[l] > 1e-9 { (excess - 1.0).abs() } else { (excess - 1.0).max(0.0) };
            worst = worst.max(slack);
        }
        if worst < 1e-6 {
            break;
        }
    }
    rates(&price).into_iter().map(|x| x * scale).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parking_lot() -> (Vec<f64>, Vec<Demand>) {
        let d = |links: Vec<usize>| Demand { count: 1, links, cap: f64::INFINITY };
        (vec![10.0; 3], vec![d(vec![0, 1, 2]), d(vec![0]), d(vec![1]), d(vec![2])])
    }

    #[test]
    fn the_parking_lot_max_min_shares_each_link_equally() {
        let (c, g) = parking_lot();
        for r in max_min(&c, &g) {
            assert!((r - 5.0).abs() < 1e-9, "{r}");
        }
    }

    #[test]
    fn the_parking_lot_proportional_share_charges_the_long_flow_for_each_link() {
        // max log x0 + 3 log(10 − x0): x0 = 2.5, the others 7.5.
        let (c, g) = parking_lot();
        let r = proportional(&c, &g);
        assert!((r[0] - 2.5).abs() < 1e-3 && r[1..].iter().all(|x| (x - 7.5).abs() < 1e-3), "{r:?}");
    }

    #[test]
    fn a_dumbbell_splits_evenly_unless_a_flow_is_capped() {
        let g = vec![
            Demand { count: 3, links: vec![0], cap: f64::INFINITY },
            Demand { count: 1, links: vec![0], cap: 1.0 },
        ];
        let mm = max_min(&[10.0], &g);
        let pf = proportional(&[10.0], &g);
        assert!((mm[0] - 3.0).abs() < 1e-9 && (mm[1] - 1.0).abs() < 1e-9, "{mm:?}");
        assert!((pf[0] - 3.0).abs() < 1e-3 && (pf[1] - 1.0).abs() < 1e-6, "{pf:?}");
    }
}
