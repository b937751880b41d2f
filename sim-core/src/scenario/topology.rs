//! The network a scenario describes, read from its links and routes: the order in which
//! the routes cross the links (what a diagram draws left to right, and the order a route
//! editor lists them in), and each group's fair shares of them.

use super::{FlowGroup, Scenario};
use crate::metrics::fair_shares::{max_min, proportional, Demand};

/// One flow of each group's max-min fair and proportionally fair goodput, payload bit/s.
#[derive(Clone, Debug, PartialEq)]
pub struct FairShares {
    pub max_min_bps: Vec<f64>,
    pub proportional_bps: Vec<f64>,
}

/// Every disc link's rate times `scale` (in id order), and each group as a demand over the
/// links of its route, each flow capped at `cap`: what the fair allocations divide.
pub fn demands(sc: &Scenario, scale: f64, cap: impl Fn(&FlowGroup) -> f64) -> (Vec<f64>, Vec<Demand>) {
    let names: Vec<&str> = sc.link_names().collect();
    let capacity = names.iter().filter_map(|n| sc.link_named(n)).map(|l| l.rate_bps as f64 * scale).collect();
    let demands = (sc.flows.iter())
        .map(|g| Demand {
            count: g.count,
            links: sc.route_of(g).iter().filter_map(|(n, _)| names.iter().position(|x| x == n)).collect(),
            cap: cap(g),
        })
        .collect();
    (capacity, demands)
}

/// The fair shares of a scenario with links, from the links' payload rates, the routes
/// and each flow's access link; `None` for a dumbbell (every flow's share is the same).
pub fn fair_shares(sc: &Scenario) -> Option<FairShares> {
    if !sc.has_links() {
        return None;
    }
    let payload = f64::from(sc.tcp.mss_bytes) / f64::from(sc.full_packet_bytes().max(1));
    let (capacity, demands) = demands(sc, payload, |g| g.access_rate_bps as f64 * payload);
    Some(FairShares {
        max_min_bps: max_min(&capacity, &demands),
        proportional_bps: proportional(&capacity, &demands),
    })
}

/// Every disc link's name, in an order every route follows where the routes agree: a link
/// comes after each link some route crosses just before it (Kahn's topological sort over
/// consecutive pairs, the lowest link id first among the links free to come next). Links
/// the routes order both ways (a loop in the order) follow in id order.
pub fn chain_order(sc: &Scenario) -> Vec<String> {
    let names: Vec<&str> = sc.link_names().collect();
    let n = names.len();
    let id = |name: &str| names.iter().position(|x| *x == name);
    // before[b] holds every a some route crosses just before b.
    let mut before: Vec<Vec<usize>> = vec![Vec::new(); n];
    for g in &sc.flows {
        let route: Vec<usize> = sc.route_of(g).iter().filter_map(|(name, _)| id(name)).collect();
        for w in route.windows(2) {
            if !before[w[1]].contains(&w[0]) {
                before[w[1]].push(w[0]);
            }
        }
    }
    let mut placed = vec![false; n];
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let free = (0..n).find(|&l| !placed[l] && before[l].iter().all(|&a| placed[a]));
        // A loop in the order: the lowest id left goes next.
        let next = free.unwrap_or_else(|| (0..n).find(|&l| !placed[l]).expect("a link is left"));
        placed[next] = true;
        out.push(names[next].to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{FlowGroup, Link};

    fn with_routes(links: &[&str], routes: &[&[&str]]) -> Scenario {
        let mut sc = Scenario::default();
        for l in links {
            sc.links.insert(l.to_string(), Link::default());
        }
        sc.flows = (routes.iter())
            .map(|r| FlowGroup { route: r.iter().map(|s| s.to_string()).collect(), ..FlowGroup::default() })
            .collect();
        sc
    }

    #[test]
    fn a_dumbbell_is_its_one_link() {
        assert_eq!(chain_order(&Scenario::default()), ["bottleneck"]);
    }

    #[test]
    fn links_follow_the_routes_not_their_names() {
        // The modem ("a-modem") comes after the home router whatever the names' order.
        let mut sc = with_routes(&["a-modem"], &[&["bottleneck", "a-modem"]]);
        sc.rename_link("bottleneck", "home");
        assert_eq!(chain_order(&sc), ["home", "a-modem"]);
        let sc = with_routes(&["x", "y"], &[&["y", "bottleneck"], &["bottleneck", "x"], &["y"]]);
        assert_eq!(chain_order(&sc), ["y", "bottleneck", "x"]);
    }

    #[test]
    fn links_no_route_orders_and_loops_keep_their_ids_order() {
        let sc = with_routes(&["x", "y"], &[&["bottleneck"], &["y", "x"], &["x", "y"]]);
        assert_eq!(chain_order(&sc), ["bottleneck", "x", "y"]);
    }
}
