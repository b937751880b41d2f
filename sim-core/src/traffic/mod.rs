//! How a flow group's flows arrive, and how big they are: the traffic sources beyond one
//! long transfer per flow.
//!
//! - **once** (the default): each of the group's `count` flows opens its connection once,
//!   at the group's start plus its jitter, and sends `size_bytes` (or forever).
//! - **poisson**: new flows arrive as a Poisson process at a target load of the route's
//!   slowest link, λ = load · C / (8 · mean size) flows per second (as HPCC's and pFabric's
//!   workload generators set it), each on a new connection; `count` is how many
//!   connections may be open at once; with `off_s`, only in the on stretches of an on/off
//!   cycle (bursts of arrivals).
//! - **every**: each of the `count` flows starts a new transfer every `period_s` (a page
//!   fetch every 2 s: one flow; incast: N senders answering one query at the same instant),
//!   optionally only once every transfer of the round has completed (synchronised reads,
//!   Vasudevan et al., SIGCOMM 2009 §3).
//!
//! Arrivals beyond the connections open wait, in arrival order, for one to finish; their
//! completion time counts from the arrival, so a queue of waiting requests shows. A
//! connection's state is recycled for its next transfer: memory follows the connections
//! open at once, not the flows of the run. Sizes come from [`sizes`].

pub mod sizes;

use crate::params::{Algorithm, Described, Field, Kind, Range};
use crate::time::SimDuration;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// The arrival process a configuration stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pattern {
    Once,
    /// Offered load as a fraction of the route's slowest link.
    /// ... while on: arrivals only in the `on` stretch of each `on` + `off` cycle from the
    /// group's start (`off` zero: always on).
    Poisson {
        load: f64,
        on: SimDuration,
        off: SimDuration,
    },
    /// `transfers` new transfers (one per flow: `None`) every `period`; `after_all`: a
    /// round starts only once the previous round's transfers have all completed.
    Every {
        period: SimDuration,
        transfers: Option<u32>,
        after_all: bool,
    },
}

pub trait ArrivalConfig: Debug {
    fn pattern(&self) -> Pattern;
    /// Whether a connection carries its next transfer without a new handshake, its window
    /// carried over (a persistent connection).
    fn keep_alive(&self) -> bool {
        false
    }
}

crate::registry! {
    /// How a group's flows arrive (`{"type": "poisson", "load": 0.6}`).
    pub enum ArrivalSpec as "arrivals": dyn ArrivalConfig {
        Once(OnceConfig),
        Poisson(PoissonConfig),
        Every(EveryConfig),
    }
}

impl Default for ArrivalSpec {
    fn default() -> Self {
        ArrivalSpec::Once(OnceConfig {})
    }
}

impl ArrivalSpec {
    /// Each flow once: what every scenario before arrivals did (left out of its JSON).
    pub fn is_once(&self) -> bool {
        self.pattern() == Pattern::Once
    }

    pub fn pattern(&self) -> Pattern {
        self.get().pattern()
    }

    pub fn keep_alive(&self) -> bool {
        self.get().keep_alive()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OnceConfig {}

impl Described for OnceConfig {
    const INFO: Algorithm = Algorithm {
        tag: "once",
        label: "Once each",
        help: "Each flow opens one connection, at the group's start plus its jitter.",
        fields: &[],
        flavours: &[],
    };
}

impl ArrivalConfig for OnceConfig {
    fn pattern(&self) -> Pattern {
        Pattern::Once
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PoissonConfig {
    pub load: f64,
    /// On/off arrivals: `on_s` of arrivals at `load`, then `off_s` of none, repeated from
    /// the group's start; `off_s` 0: always on.
    pub on_s: f64,
    pub off_s: f64,
}

impl Default for PoissonConfig {
    fn default() -> Self {
        PoissonConfig { load: 0.6, on_s: 1.0, off_s: 0.0 }
    }
}

impl Described for PoissonConfig {
    const INFO: Algorithm = Algorithm {
        tag: "poisson",
        label: "Poisson arrivals",
        help: "New flows arrive at random (exponential gaps) at a target load of the route's slowest link, λ = load·C/E[size]; Flows is how many connections may be open at once.",
        fields: &[
            Field::new(
            "load",
            "Load",
            "",
            Kind::Float(Range::closed(0.001, 2.0)),
            "Offered payload over the capacity of the route's slowest link (0.6 = 60 %), while on.",
        ),
            Field::new("on_s", "On", "s", Kind::Float(Range::closed(0.001, 3600.0)), "On/off arrivals: seconds of arrivals at the load, from the group's start."),
            Field::new("off_s", "Off", "s", Kind::Float(Range::closed(0.0, 3600.0)), "Seconds without arrivals after each on stretch; 0 = always on."),
        ],
        flavours: &[],
    };
}

impl ArrivalConfig for PoissonConfig {
    fn pattern(&self) -> Pattern {
        Pattern::Poisson {
            load: self.load,
            on: SimDuration::from_secs_f64(self.on_s),
            off: SimDuration::from_secs_f64(self.off_s.max(0.0)),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EveryConfig {
    pub period_s: f64,
    /// Transfers per round; `None`: one per flow.
    pub transfers: Option<u32>,
    pub after_all: bool,
    /// Persistent connections: after its first, a connection's transfers need no handshake.
    pub keep_alive: bool,
}

impl Default for EveryConfig {
    fn default() -> Self {
        EveryConfig { period_s: 2.0, transfers: None, after_all: false, keep_alive: false }
    }
}

impl Described for EveryConfig {
    const INFO: Algorithm = Algorithm {
        tag: "every",
        label: "Repeated",
        help: "A round of transfers every period, all at the same instant: one per flow (incast), or a set number on the group's connections (a page fetch).",
        fields: &[
            Field::new("period_s", "Period", "s", Kind::Float(Range::closed(0.001, 3600.0)), "Between two rounds of transfers."),
            Field::new("transfers", "Per round", "", Kind::OptInt(Range::closed(1.0, 10_000.0)), "Transfers each round, each on a free connection (a page fetch: 1, with a few connections so a slow fetch does not hold up the next); empty = one per flow (incast)."),
            Field::new("after_all", "After all", "", Kind::Bool, "A round starts only once every transfer of the last one has completed (synchronised reads: one slow reply stalls the next query)."),
            Field::new("keep_alive", "Keep alive", "", Kind::Bool, "Persistent connections: after the first, each transfer goes on its connection without a handshake, its window carried over (servers answering an aggregator); off: a new connection each (a browser's page fetch)."),
        ],
        flavours: &[],
    };
}

impl ArrivalConfig for EveryConfig {
    fn keep_alive(&self) -> bool {
        self.keep_alive
    }

    fn pattern(&self) -> Pattern {
        Pattern::Every {
            period: SimDuration::from_secs_f64(self.period_s),
            transfers: self.transfers,
            after_all: self.after_all,
        }
    }
}
