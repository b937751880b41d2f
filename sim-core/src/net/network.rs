//! The links with a queue disc that data cross between the senders' access links and the
//! receivers, and each flow group's route through them. A packet's `hop` counts the links
//! it has reached: 0 on its access link, then `route[hop - 1]`, then its receiver.

use super::DiscLink;
use crate::time::SimTime;

/// Link id of the scenario's bottleneck, the measured link: the network's disc links come
/// first (this one is link 0), then the reverse bottleneck, per flow the ACK return link
/// and per flow the uplink.
pub const BOTTLENECK: u32 = 0;

/// The disc links a flow group's data cross, in order (indices into the network's links).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route(Box<[u32]>);

impl Route {
    pub fn new(links: Vec<u32>) -> Route {
        Route(links.into_boxed_slice())
    }

    /// The link a packet enters at `hop` (1 = the first after its access link), if any.
    #[inline]
    pub fn link_at(&self, hop: u8) -> Option<u32> {
        (hop as usize).checked_sub(1).and_then(|i| self.0.get(i)).copied()
    }

    pub fn links(&self) -> &[u32] {
        &self.0
    }
}

#[derive(Debug)]
pub struct Network {
    links: Vec<DiscLink>,
    /// Per flow group.
    routes: Vec<Route>,
    /// Per flow group, the disc links its ACKs cross (empty: none, they come back on an
    /// uncongested reverse link); an ACK's `hop` indexes this one.
    ack_routes: Vec<Route>,
    any_ack_route: bool,
    /// The one link every route is, if so (the dumbbell): a packet's next link without
    /// reading its group (3 % of the Warbler §5.2 run's time otherwise).
    every_route: Option<u32>,
}

impl Network {
    /// Every route must name links of `links` (the builder checks what it makes).
    pub fn new(links: Vec<DiscLink>, routes: Vec<Route>) -> Network {
        let n = links.len() as u32;
        assert!(
            routes.iter().all(|r| r.0.iter().all(|&l| l < n)),
            "a route through a link not in the network"
        );
        let every_route = match routes.first().map(|r| r.links()) {
            Some(&[only]) if routes.iter().all(|r| r.links() == [only]) => Some(only),
            _ => None,
        };
        let ack_routes = vec![Route::new(Vec::new()); routes.len()];
        Network { links, routes, ack_routes, any_ack_route: false, every_route }
    }

    /// The same network with each group's ACK route (as many as groups, each through
    /// links of the network).
    pub fn with_ack_routes(mut self, ack_routes: Vec<Route>) -> Network {
        let n = self.links.len() as u32;
        assert!(ack_routes.len() == self.routes.len(), "an ACK route per group");
        assert!(
            ack_routes.iter().all(|r| r.0.iter().all(|&l| l < n)),
            "an ACK route through a link not in the network"
        );
        self.any_ack_route = ack_routes.iter().any(|r| !r.0.is_empty());
        self.ack_routes = ack_routes;
        self
    }

    /// Whether some group's ACKs cross disc links (then the bottleneck's per-flow figures
    /// must tell data from ACKs).
    #[inline]
    pub fn any_ack_route(&self) -> bool {
        self.any_ack_route
    }

    /// Whether `group`'s ACKs cross disc links.
    #[inline]
    pub fn has_ack_route(&self, group: u32) -> bool {
        self.any_ack_route && !self.ack_routes[group as usize].0.is_empty()
    }

    /// The disc link an ACK of `group` enters at `hop` (1 = the first after its receiver),
    /// if it has not crossed them all.
    #[inline]
    pub fn ack_link_at(&self, hop: u8, group: u32) -> Option<u32> {
        self.ack_routes[group as usize].link_at(hop)
    }

    /// Whether `group`'s ACKs cross `link`.
    pub fn acks_cross(&self, group: u32, link: u32) -> bool {
        self.ack_routes[group as usize].links().contains(&link)
    }

    #[inline]
    pub fn link(&self, id: u32) -> &DiscLink {
        &self.links[id as usize]
    }

    #[inline]
    pub fn link_mut(&mut self, id: u32) -> &mut DiscLink {
        &mut self.links[id as usize]
    }

    pub fn len(&self) -> u32 {
        self.links.len() as u32
    }

    pub fn is_empty(&self) -> bool {
        self.links.is_empty()
    }

    pub fn links(&self) -> &[DiscLink] {
        &self.links
    }

    /// The link a packet enters at `hop`, if it has not reached its end; `group` gives
    /// its flow group (read only when the routes differ).
    #[inline]
    pub fn link_at(&self, hop: u8, group: impl FnOnce() -> u32) -> Option<u32> {
        match self.every_route {
            Some(only) => (hop == 1).then_some(only),
            None => self.routes[group() as usize].link_at(hop),
        }
    }

    /// The disc links flow group `group`'s data cross, in order.
    pub fn route(&self, group: u32) -> &Route {
        &self.routes[group as usize]
    }

    /// Whether `group`'s route crosses `link`.
    pub fn crosses(&self, group: u32, link: u32) -> bool {
        self.routes[group as usize].links().contains(&link)
    }

    /// The link whose transmission ends first before `before`, if any (ties: the lower
    /// id, so the order is the same in every run).
    #[inline]
    pub fn next_tx_end(&self, before: SimTime) -> Option<u32> {
        if let [only] = self.links.as_slice() {
            return (only.done_at() < before).then_some(0);
        }
        let mut best: Option<(SimTime, u32)> = None;
        for (i, l) in self.links.iter().enumerate() {
            let t = l.done_at();
            if t < before && best.is_none_or(|(b, _)| t < b) {
                best = Some((t, i as u32));
            }
        }
        best.map(|(_, i)| i)
    }
}
