//! Everything a user can set, as one serde value: topology, flows, TCP, queue disc, run
//! length, sampling and seed. [`Scenario::validate`] names every bad field with its value
//! and allowed range; [`presets`] builds the papers' experiments.

pub mod changes;
pub mod cost;
pub mod fields;
pub mod figures;
pub mod patch;
mod presets;
pub mod published;
pub mod topology;
mod validate;

pub use crate::params::ScenarioError;
pub use changes::{LiveField, TimedChange};
pub use presets::red_study::algorithm as red_study_algorithm;
pub use presets::text as preset_text;
pub use presets::{preset, preset_list, PresetInfo, PresetTexts};
pub use validate::{MAX_DURATION_S, MAX_FLOWS};

use crate::aqm::QueueDiscSpec;
use crate::cc::CcaSpec;
use crate::tcp::TcpConfig;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Version of the scenario format this build reads and writes.
pub const SCENARIO_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Scenario {
    pub version: u32,
    pub name: String,
    /// Every random stream derives from this seed.
    pub seed: u64,
    pub duration_s: f64,
    /// Statistics ignore this initial period (the RED study drops its first second).
    pub warmup_s: f64,
    /// Queue, throughput and window traces are sampled at this interval.
    pub sample_interval_s: f64,
    pub bottleneck: Bottleneck,
    /// What the bottleneck is called in routes, tables and charts (`home`, `access`):
    /// where several links are in series, the scenario's studied link need not be the
    /// slowest. Written only when not `bottleneck`.
    #[serde(skip_serializing_if = "is_default_bottleneck_name")]
    pub bottleneck_name: String,
    /// More links with a queue disc, by name, that flow groups' data can cross after (or
    /// instead of) the bottleneck: a parking lot, two bottlenecks in series. None in a
    /// dumbbell. Link ids follow the bottleneck's (0) in name order.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub links: BTreeMap<String, Bottleneck>,
    pub flows: Vec<FlowGroup>,
    pub tcp: TcpConfig,
    /// Buffer of host NICs and of the reverse (ACK) path, in packets. ns-3 puts an
    /// FqCoDel root disc over a 100-packet device queue there; none of the presets fill it.
    pub host_queue_packets: u32,
    /// Fields set during the run, at given times ([`changes`]); none by default.
    pub changes: Vec<TimedChange>,
}

/// The shared link: senders → router → receiver, with the studied queue disc at the router.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Bottleneck {
    pub rate_bps: u64,
    pub delay_ms: f64,
    pub queue: QueueDiscSpec,
    /// Device transmit queue under the queue disc, in packets (0 = none). ns-3 has a
    /// 100-packet DropTail device queue under every queue disc by default.
    pub nic_queue_packets: u32,
}

/// `count` identical flows, each from its own sender over its own access link.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FlowGroup {
    pub count: u32,
    pub cca: CcaSpec,
    pub access_rate_bps: u64,
    /// One-way delay of the access link; base RTT = 2·(access + bottleneck delay).
    pub access_delay_ms: f64,
    pub start_s: f64,
    /// Each flow starts at start_s plus a uniform random delay in [0, start_jitter_s), drawn
    /// from its own stream: flows desynchronise, and seeds differ even for one flow.
    pub start_jitter_s: f64,
    /// When the application stops offering data; `None` = runs to the end.
    pub stop_s: Option<f64>,
    /// Bytes to transfer; `None` = unlimited (bulk send).
    pub size_bytes: Option<u64>,
    /// The links the group's data cross, in order, by name (`bottleneck` or a key of
    /// `links`); empty = the bottleneck alone. ACKs come back over one reverse link with
    /// the route's delays added up, at its slowest rate.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub route: Vec<String>,
    /// The links its ACKs cross on the way back, by name, in order; none (the default):
    /// they come back over one uncongested reverse link with the route's delays. Through
    /// disc links ACKs queue, and can be dropped, beside other traffic (ACK congestion on
    /// a slow uplink, traffic both ways).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ack_route: Vec<String>,
}

fn is_default_bottleneck_name(name: &String) -> bool {
    name == Scenario::BOTTLENECK_NAME
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            version: SCENARIO_VERSION,
            name: "custom".into(),
            seed: 1,
            duration_s: 20.0,
            warmup_s: 1.0,
            sample_interval_s: 0.1,
            bottleneck: Bottleneck::default(),
            bottleneck_name: Scenario::BOTTLENECK_NAME.into(),
            links: BTreeMap::new(),
            flows: vec![FlowGroup::default()],
            tcp: TcpConfig::default(),
            host_queue_packets: 10_000,
            changes: Vec::new(),
        }
    }
}

impl Default for Bottleneck {
    fn default() -> Self {
        Bottleneck {
            rate_bps: 10_000_000,
            delay_ms: 10.0,
            queue: QueueDiscSpec::default(),
            nic_queue_packets: 0,
        }
    }
}

impl Default for FlowGroup {
    fn default() -> Self {
        FlowGroup {
            count: 1,
            cca: CcaSpec::default(),
            access_rate_bps: 100_000_000,
            access_delay_ms: 1.0,
            start_s: 0.0,
            start_jitter_s: 0.0,
            stop_s: None,
            size_bytes: None,
            route: Vec::new(),
            ack_route: Vec::new(),
        }
    }
}

fn path_error<E: std::fmt::Display>(e: serde_path_to_error::Error<E>) -> String {
    let path = e.path().to_string();
    let msg = crate::params::explain(&e.into_inner().to_string());
    if path == "." {
        format!("scenario: {msg}")
    } else {
        crate::params::at_path(&path, &msg)
    }
}

impl Scenario {
    pub fn total_flows(&self) -> u32 {
        self.flows.iter().map(|g| g.count).sum()
    }

    /// Parses JSON strictly ([`crate::params::json`]): a key given twice, `Infinity`, `NaN`
    /// and numbers beyond f64 are refused. An error names the field path
    /// (`flows[0].cca.beta`), what a number there may be and, for a misspelt key, the
    /// closest valid one.
    pub fn from_json(text: &str) -> Result<Scenario, String> {
        let v = crate::params::json::parse(text).map_err(|e| {
            let allowed = e.doc.as_ref().and_then(|d| fields::allowed_at(d, &e.path));
            e.message(allowed.as_deref())
        })?;
        Scenario::from_value(v)
    }

    /// As [`Scenario::from_json`], from a JSON value.
    pub fn from_value(v: serde_json::Value) -> Result<Scenario, String> {
        if !v.is_object() {
            let got = crate::params::echo(&v.to_string());
            return Err(format!("scenario: expected a JSON object {{...}}, got {got}"));
        }
        serde_path_to_error::deserialize(v).map_err(path_error)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("scenario serialises")
    }

    /// Moments worth marking on time charts: the end of the warm-up and what the
    /// algorithms announce (Warbler switching on), (time s, label).
    pub fn markers(&self) -> Vec<(f64, String)> {
        let mut m = self.bottleneck.queue.get().markers();
        if self.warmup_s > 0.0 {
            m.push((self.warmup_s, "warm-up ends".into()));
        }
        m.extend(self.changes.iter().map(|c| (c.at_s, c.label())));
        m
    }

    /// Bytes on the wire of a full-sized data segment.
    pub fn full_packet_bytes(&self) -> u32 {
        self.tcp.mss_bytes + self.tcp.headers.base(self.tcp.timestamps)
    }

    /// Base RTT of a flow group: both directions of its access link and its route.
    pub fn base_rtt_ms(&self, group: &FlowGroup) -> f64 {
        let route: f64 = self.route_of(group).iter().map(|(_, l)| l.delay_ms).sum();
        let back: f64 = match group.ack_route.is_empty() {
            true => route,
            false => self.ack_route_of(group).iter().map(|(_, l)| l.delay_ms).sum(),
        };
        2.0 * group.access_delay_ms + route + back
    }

    /// The disc links a group's ACKs cross, by name (none: the uncongested reverse path).
    pub fn ack_route_of<'a>(&'a self, group: &'a FlowGroup) -> Vec<(&'a str, &'a Bottleneck)> {
        (group.ack_route.iter()).filter_map(|n| self.link_named(n).map(|l| (n.as_str(), l))).collect()
    }

    /// The bottleneck's name unless the scenario gives it another.
    pub const BOTTLENECK_NAME: &'static str = "bottleneck";

    /// The name of the scenario's bottleneck in routes, tables and charts.
    pub fn bottleneck_name(&self) -> &str {
        &self.bottleneck_name
    }

    /// Every disc link's name in id order: the bottleneck's, then `links`' in name order.
    pub fn link_names(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.bottleneck_name()).chain(self.links.keys().map(|k| k.as_str()))
    }

    /// The links a group's data cross, by name (the bottleneck alone by default); a name
    /// that is not a link is left out (the validator refuses it).
    pub fn route_of<'a>(&'a self, group: &'a FlowGroup) -> Vec<(&'a str, &'a Bottleneck)> {
        if group.route.is_empty() {
            return vec![(self.bottleneck_name(), &self.bottleneck)];
        }
        (group.route.iter()).filter_map(|n| self.link_named(n).map(|l| (n.as_str(), l))).collect()
    }

    /// The bottleneck or one of `links`, by name.
    pub fn link_named(&self, name: &str) -> Option<&Bottleneck> {
        if name == self.bottleneck_name() {
            Some(&self.bottleneck)
        } else {
            self.links.get(name)
        }
    }

    /// Link id of a disc link by name: the bottleneck 0, then `links` in name order.
    pub fn link_id(&self, name: &str) -> Option<u32> {
        if name == self.bottleneck_name() {
            return Some(0);
        }
        self.links.keys().position(|k| k == name).map(|i| i as u32 + 1)
    }
}
