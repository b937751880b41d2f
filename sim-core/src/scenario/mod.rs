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
mod v1;
mod validate;

pub use crate::params::ScenarioError;
pub use changes::{LiveField, TimedChange};
pub use presets::red_study::algorithm as red_study_algorithm;
pub use presets::text as preset_text;
pub use presets::{preset, preset_list, PresetInfo, PresetTexts};
pub use v1::alias as v1_path;
pub use validate::{MAX_DURATION_S, MAX_FLOWS};

use crate::aqm::QueueDiscSpec;
use crate::cc::CcaSpec;
use crate::tcp::TcpConfig;
use crate::traffic::sizes::SizeSource;
use crate::traffic::ArrivalSpec;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Version of the scenario format this build writes. Version 1 (a `bottleneck` object
/// beside the other `links`) still loads: [`Scenario::from_value`] moves it in.
pub const SCENARIO_VERSION: u32 = 2;

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
    /// Every link with a queue disc, by name: one in a dumbbell, several in a parking lot
    /// or two bottlenecks in series. Flow groups' routes name them. The senders' access
    /// links are not here: each group generates its own (10 000 flows, 10 000 links).
    pub links: BTreeMap<String, Link>,
    /// The name of the studied link, one of `links`: the headline figures, the queue,
    /// delay and drop charts and a route left empty are its. Link ids: it is 0, the others
    /// follow in name order.
    pub bottleneck: String,
    pub flows: Vec<FlowGroup>,
    pub tcp: TcpConfig,
    /// Buffer of host NICs and of the reverse (ACK) path, in packets. ns-3 puts an
    /// FqCoDel root disc over a 100-packet device queue there; none of the presets fill it.
    pub host_queue_packets: u32,
    /// Fields set during the run, at given times ([`changes`]); none by default.
    pub changes: Vec<TimedChange>,
}

/// A link with a queue disc at its entry: router → next hop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Link {
    pub rate_bps: u64,
    pub delay_ms: f64,
    pub queue: QueueDiscSpec,
    /// Device transmit queue under the queue disc, in packets (0 = none). ns-3 has a
    /// 100-packet DropTail device queue under every queue disc by default.
    pub nic_queue_packets: u32,
    /// Whether the link's queue, delay, utilisation and drops are charted and tabled where
    /// a scenario has several links (the studied link's always are).
    pub monitored: bool,
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
    /// The links the group's data cross, in order, by name (keys of `links`); empty =
    /// the bottleneck alone. ACKs come back over one reverse link with
    /// the route's delays added up, at its slowest rate.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub route: Vec<String>,
    /// The links its ACKs cross on the way back, by name, in order; none (the default):
    /// they come back over one uncongested reverse link with the route's delays. Through
    /// disc links ACKs queue, and can be dropped, beside other traffic (ACK congestion on
    /// a slow uplink, traffic both ways).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ack_route: Vec<String>,
    /// How the group's flows arrive ([`crate::traffic`]): once each (the default), as a
    /// Poisson process at a load, or repeated every period.
    pub arrivals: ArrivalSpec,
    /// Where each flow's size comes from: `size_bytes` (the default), a shipped workload
    /// or `cdf` ([`crate::traffic::sizes`]).
    pub sizes: SizeSource,
    /// The custom size CDF: [payload bytes, cumulative fraction] points, sizes and
    /// fractions ascending from fraction 0 to 1, read when `sizes` is `custom`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cdf: Vec<(f64, f64)>,
    /// Classic ECN (RFC 3168): its TCP flows ask for ECN at the handshake, send new data
    /// ECT(0) and halve their window once per round trip on an echo instead of waiting for
    /// a loss. DCTCP and Prague flows use ECN whatever this says.
    pub ecn: bool,
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
            links: BTreeMap::from([(Scenario::BOTTLENECK_NAME.to_string(), Link::default())]),
            bottleneck: Scenario::BOTTLENECK_NAME.into(),
            flows: vec![FlowGroup::default()],
            tcp: TcpConfig::default(),
            host_queue_packets: 10_000,
            changes: Vec::new(),
        }
    }
}

impl Link {
    /// A monitored link without a device queue: what most scenarios declare.
    pub fn new(rate_bps: u64, delay_ms: f64, queue: QueueDiscSpec) -> Link {
        Link { rate_bps, delay_ms, queue, ..Link::default() }
    }
}

impl Default for Link {
    fn default() -> Self {
        Link {
            rate_bps: 10_000_000,
            delay_ms: 10.0,
            queue: QueueDiscSpec::default(),
            nic_queue_packets: 0,
            monitored: true,
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
            arrivals: ArrivalSpec::default(),
            sizes: SizeSource::Fixed,
            cdf: Vec::new(),
            ecn: false,
        }
    }
}

impl FlowGroup {
    /// The CDF its sizes are drawn from; `None` when every flow sends `size_bytes`.
    pub fn size_cdf(&self) -> Option<&[(f64, f64)]> {
        match self.sizes {
            SizeSource::Fixed => None,
            SizeSource::WebSearch => Some(crate::traffic::sizes::WEB_SEARCH),
            SizeSource::DataMining => Some(crate::traffic::sizes::DATA_MINING),
            SizeSource::Custom => Some(&self.cdf),
        }
    }

    /// Whether its flows are finite transfers (a size, or sizes drawn from a CDF).
    pub fn is_finite(&self) -> bool {
        self.size_bytes.is_some() || self.size_cdf().is_some()
    }

    /// Mean bytes of its flows; `None` for bulk transfers.
    pub fn mean_size_bytes(&self) -> Option<f64> {
        match self.size_cdf() {
            Some(cdf) => Some(crate::traffic::sizes::mean(cdf)),
            None => self.size_bytes.map(|b| b as f64),
        }
    }

    /// Whether its connections are recycled: flows arrive during the run (Poisson or
    /// repeated), each on a connection freed by an earlier one.
    pub fn recycles(&self) -> bool {
        !self.arrivals.is_once()
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
        let v = v1::upgrade(v)?;
        serde_path_to_error::deserialize(v).map_err(path_error)
    }

    /// Pretty JSON, through the JSON value (keys keep their order): the page's module then
    /// serialises scenarios two ways (to values and compact text), not three (3 kB gzipped).
    pub fn to_json(&self) -> String {
        let v = serde_json::to_value(self).expect("scenario serialises");
        serde_json::to_string_pretty(&v).expect("values serialise")
    }

    /// Moments worth marking on time charts: the end of the warm-up and what the
    /// algorithms announce (Warbler switching on), (time s, label).
    pub fn markers(&self) -> Vec<(f64, String)> {
        let mut m = self.bottleneck().queue.get().markers();
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

    /// How long a flow of `group` sending `bytes` takes alone on an empty path with a window
    /// that never limits it, SYN to the ACK of its last byte, s: two base RTTs (the
    /// handshake, then the last byte's ACK; one on a persistent connection) and its bytes on the wire at the slowest link
    /// of its route, its access link included ([`crate::metrics::fct`]).
    pub fn ideal_fct_s(&self, group: &FlowGroup, bytes: u64) -> f64 {
        let mss = u64::from(self.tcp.mss_bytes.max(1));
        let headers = u64::from(self.full_packet_bytes() - self.tcp.mss_bytes);
        let wire = bytes + bytes.div_ceil(mss) * headers;
        let route = self.route_of(group).into_iter().map(|(_, l)| l.rate_bps);
        let slowest = route.chain([group.access_rate_bps]).min().unwrap_or(1).max(1);
        // A persistent connection's transfer needs no handshake: one RTT fewer.
        let rtts = if group.arrivals.keep_alive() { 1.0 } else { 2.0 };
        rtts * self.base_rtt_ms(group) / 1e3 + wire as f64 * 8.0 / slowest as f64
    }

    /// The capacity a group's arrivals load ([`crate::traffic`]): the slowest link of its
    /// route, its own access link included, bit/s.
    pub fn route_capacity_bps(&self, group: &FlowGroup) -> f64 {
        let route = self.route_of(group).into_iter().map(|(_, l)| l.rate_bps);
        route.chain([group.access_rate_bps]).min().unwrap_or(1).max(1) as f64
    }

    /// The disc links a group's ACKs cross, by name (none: the uncongested reverse path).
    pub fn ack_route_of<'a>(&'a self, group: &'a FlowGroup) -> Vec<(&'a str, &'a Link)> {
        (group.ack_route.iter()).filter_map(|n| self.link_named(n).map(|l| (n.as_str(), l))).collect()
    }

    /// `links` of a dumbbell: the one studied link, named `bottleneck`.
    pub fn one_link(link: Link) -> BTreeMap<String, Link> {
        BTreeMap::from([(Scenario::BOTTLENECK_NAME.to_string(), link)])
    }

    /// Gives the link `from` the name `to`, in `links`, the studied link's name and every
    /// route; nothing if there is no such link or `to` is taken.
    pub fn rename_link(&mut self, from: &str, to: &str) {
        if self.links.contains_key(to) {
            return;
        }
        let Some(link) = self.links.remove(from) else { return };
        self.links.insert(to.to_string(), link);
        if self.bottleneck == from {
            self.bottleneck = to.to_string();
        }
        let routes = self.flows.iter_mut().flat_map(|g| g.route.iter_mut().chain(g.ack_route.iter_mut()));
        for name in routes.filter(|n| *n == from) {
            *name = to.to_string();
        }
    }

    /// The studied link's name in a scenario that gives it none other.
    pub const BOTTLENECK_NAME: &'static str = "bottleneck";

    /// The name of the scenario's studied link in routes, tables and charts.
    pub fn bottleneck_name(&self) -> &str {
        &self.bottleneck
    }

    /// The studied link; a scenario whose `bottleneck` names no link (the validator
    /// refuses it) reads as the default link, so nothing before validation panics.
    pub fn bottleneck(&self) -> &Link {
        static NONE: std::sync::OnceLock<Link> = std::sync::OnceLock::new();
        self.links.get(&self.bottleneck).unwrap_or_else(|| NONE.get_or_init(Link::default))
    }

    /// The studied link, to change it; put in (as the default link) if it is missing.
    pub fn bottleneck_mut(&mut self) -> &mut Link {
        self.links.entry(self.bottleneck.clone()).or_default()
    }

    /// Whether the scenario has more than its studied link (a parking lot, links in
    /// series): then every link is measured on its own.
    pub fn has_links(&self) -> bool {
        self.links.keys().any(|k| *k != self.bottleneck)
    }

    /// The links other than the studied one, in name order (ids 1, 2, …).
    pub fn other_links(&self) -> impl Iterator<Item = (&str, &Link)> {
        (self.links.iter()).filter(|(k, _)| **k != self.bottleneck).map(|(k, l)| (k.as_str(), l))
    }

    /// Every disc link's name in id order: the studied link's, then the others' in name
    /// order.
    pub fn link_names(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.bottleneck_name()).chain(self.other_links().map(|(k, _)| k))
    }

    /// Every disc link in id order.
    pub fn links_in_id_order(&self) -> impl Iterator<Item = &Link> {
        std::iter::once(self.bottleneck()).chain(self.other_links().map(|(_, l)| l))
    }

    /// The links a group's data cross, by name (the bottleneck alone by default); a name
    /// that is not a link is left out (the validator refuses it).
    pub fn route_of<'a>(&'a self, group: &'a FlowGroup) -> Vec<(&'a str, &'a Link)> {
        if group.route.is_empty() {
            return vec![(self.bottleneck_name(), self.bottleneck())];
        }
        (group.route.iter()).filter_map(|n| self.link_named(n).map(|l| (n.as_str(), l))).collect()
    }

    /// A link by name.
    pub fn link_named(&self, name: &str) -> Option<&Link> {
        self.links.get(name)
    }

    /// Link id of a disc link by name: the studied link 0, then the others in name order.
    pub fn link_id(&self, name: &str) -> Option<u32> {
        if name == self.bottleneck_name() {
            return Some(0);
        }
        self.other_links().position(|(k, _)| k == name).map(|i| i as u32 + 1)
    }
}
