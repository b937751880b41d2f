//! The editor's edits of the network: links added and removed, and each flow group's route
//! and ACK route ticked through them.

use super::{is_under, Editor};
use serde_json::Value;

impl Editor {
    /// A new link like the bottleneck (its rate, delay and disc), named `link2`, `link3`…,
    /// on no route yet; returns its name.
    pub fn add_link(&mut self) -> Option<String> {
        let sc = self.scenario()?;
        let name = (2..).map(|i| format!("link{i}")).find(|n| sc.link_named(n).is_none())?;
        let like = serde_json::to_value(sc.bottleneck()).ok()?;
        if !self.value.get("links").is_some_and(Value::is_object) {
            self.value["links"] = Value::Object(Default::default());
        }
        self.value["links"][&name] = like;
        self.rebuild();
        Some(name)
    }

    /// Removes link `name` and takes it out of every route (a route left empty is the
    /// bottleneck's alone again); what was typed into its inputs goes with it.
    pub fn remove_link(&mut self, name: &str) {
        let bottleneck = self.scenario().map(|s| s.bottleneck_name().to_string());
        if bottleneck.as_deref() == Some(name) {
            return;
        }
        let Some(links) = self.value.get_mut("links").and_then(Value::as_object_mut) else { return };
        if links.remove(name).is_none() {
            return;
        }
        for g in self.flows_mut() {
            if let Some(route) = g.get_mut("route").and_then(Value::as_array_mut) {
                route.retain(|n| n.as_str() != Some(name));
                if route.len() == 1 && route[0].as_str() == bottleneck.as_deref() {
                    route.clear();
                }
            }
            if let Some(acks) = g.get_mut("ack_route").and_then(Value::as_array_mut) {
                acks.retain(|n| n.as_str() != Some(name));
            }
        }
        let prefix = format!("links.{name}");
        self.typed.retain(|k, _| !is_under(k, &prefix));
        self.left.retain(|(p, _), _| !is_under(p, &prefix));
        self.rebuild();
    }

    /// Group `i`'s ACKs cross link `name` or not, in the order the diagram draws the links;
    /// none ticked is the uncongested reverse path.
    pub fn toggle_ack_route(&mut self, i: usize, name: &str, on: bool) {
        let Some(sc) = self.scenario() else { return };
        let Some(g) = sc.flows.get(i) else { return };
        let route: Vec<String> = sim_core::scenario::topology::chain_order(sc)
            .into_iter()
            .filter(|n| if n == name { on } else { g.ack_route.contains(n) })
            .collect();
        if let Some(g) = self.flows_mut().get_mut(i).filter(|g| g.is_object()) {
            g["ack_route"] = serde_json::json!(route);
        }
        self.rebuild();
    }

    /// Group `i`'s route crosses link `name` or not: the links it crosses stay in the order
    /// the diagram draws them. A route of the bottleneck alone is written as none.
    pub fn toggle_route(&mut self, i: usize, name: &str, on: bool) {
        let Some(sc) = self.scenario() else { return };
        let Some(g) = sc.flows.get(i) else { return };
        let now: Vec<String> = sc.route_of(g).iter().map(|(n, _)| n.to_string()).collect();
        let route: Vec<String> = sim_core::scenario::topology::chain_order(sc)
            .into_iter()
            .filter(|n| if n == name { on } else { now.contains(n) })
            .collect();
        if route.is_empty() {
            return;
        }
        let v = if route == [sc.bottleneck_name()] { Vec::new() } else { route };
        if let Some(g) = self.flows_mut().get_mut(i).filter(|g| g.is_object()) {
            g["route"] = serde_json::json!(v);
        }
        self.rebuild();
    }
}
