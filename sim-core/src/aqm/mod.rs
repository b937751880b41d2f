//! Queue disciplines: what a link's egress does with packets waiting to be sent.
//!
//! Every discipline implements the same small interface (enqueue, dequeue, occupancy) and
//! reports each drop with a [`DropReason`]. [`QueueDiscSpec`] is the serde configuration
//! that builds one; [`Qdisc`] dispatches statically over the implementations.

pub mod cebinae;
pub mod codel;
mod fifo;
pub mod fq;
pub mod fq_codel;
pub mod limit;
pub mod pie;
pub mod red;

pub use cebinae::{Cebinae, CebinaeConfig, CebinaeStats};
pub use codel::{Codel, CodelConfig, CodelParams, CodelQueue, CodelState, CodelStats};
pub use fifo::Fifo;
pub use fq::{Fq, FqConfig};
pub use fq_codel::{FqCodel, FqCodelConfig, FqCodelStats};
pub use limit::{cells_for, Occupancy, QueueLimit};
pub use pie::{Pie, PieConfig, PieStats};
pub use red::{Red, RedConfig, RedStats, RedView};

use crate::rng::SimRng;
use crate::switch::{MultiQueuePort, SwitchConfig};
use crate::time::{Rate, SimTime};
use serde::{Deserialize, Serialize};

/// A queued packet as a discipline sees it: the packet's id plus what decisions need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QItem {
    pub id: u32,
    pub bytes: u32,
    pub flow: u32,
    pub enqueued_at: SimTime,
}

/// Why a packet was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DropReason {
    /// A probabilistic or control-law drop below the hard limit (RED "unforced").
    Early,
    /// The AQM's hard zone (RED: average above max_th, or 2·max_th when gentle).
    Forced,
    /// The buffer was full.
    Overflow,
}

impl DropReason {
    pub fn as_str(self) -> &'static str {
        match self {
            DropReason::Early => "early",
            DropReason::Forced => "forced",
            DropReason::Overflow => "overflow",
        }
    }
}

/// A drop reported by a discipline. `was_queued` tells a drop of an already queued packet
/// (head drop, CoDel) from the rejection of the arriving one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dropped {
    pub item: QItem,
    pub reason: DropReason,
    pub was_queued: bool,
}

/// What a discipline may use while deciding: the time and a place to report drops.
pub struct QdiscCtx<'a> {
    pub now: SimTime,
    drops: &'a mut Vec<Dropped>,
}

impl<'a> QdiscCtx<'a> {
    pub fn new(now: SimTime, drops: &'a mut Vec<Dropped>) -> Self {
        QdiscCtx { now, drops }
    }
    pub fn drop(&mut self, item: QItem, reason: DropReason, was_queued: bool) {
        self.drops.push(Dropped { item, reason, was_queued });
    }
}

/// Configuration of a queue discipline, as scenarios and the UI carry it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum QueueDiscSpec {
    /// Tail-drop FIFO.
    Fifo { limit: QueueLimit },
    /// RED / Gentle RED / Adaptive RED (ns-3 `RedQueueDisc`).
    Red(RedConfig),
    /// A Tofino-like multi-queue switch port (cells, classifier, scheduler, control plane).
    Switch(SwitchConfig),
    /// CoDel (RFC 8289).
    Codel(CodelConfig),
    /// FQ-CoDel (RFC 8290).
    FqCodel(FqCodelConfig),
    /// Ideal per-flow fair queueing (DRR, one queue per flow).
    Fq(FqConfig),
    /// PIE (RFC 8033).
    Pie(PieConfig),
    /// Cebinae (SIGCOMM 2022): taxes the top flows of a saturated port.
    Cebinae(CebinaeConfig),
}

impl Default for QueueDiscSpec {
    fn default() -> Self {
        QueueDiscSpec::Fifo { limit: QueueLimit::Packets(100) }
    }
}

impl QueueDiscSpec {
    pub fn build(&self, link_rate: Rate, rng: SimRng) -> Qdisc {
        match self {
            QueueDiscSpec::Fifo { limit } => Qdisc::Fifo(Fifo::new(*limit)),
            QueueDiscSpec::Red(cfg) => Qdisc::Red(Box::new(Red::new(cfg, link_rate, rng))),
            QueueDiscSpec::Switch(cfg) => Qdisc::Switch(Box::new(MultiQueuePort::new(cfg, rng))),
            QueueDiscSpec::Codel(cfg) => Qdisc::Codel(Box::new(Codel::new(cfg))),
            QueueDiscSpec::FqCodel(cfg) => Qdisc::FqCodel(Box::new(FqCodel::new(cfg, rng))),
            QueueDiscSpec::Fq(cfg) => Qdisc::Fq(Box::new(Fq::new(cfg))),
            QueueDiscSpec::Pie(cfg) => Qdisc::Pie(Box::new(Pie::new(cfg, rng))),
            QueueDiscSpec::Cebinae(cfg) => Qdisc::Cebinae(Box::new(Cebinae::new(cfg, link_rate))),
        }
    }

    pub fn limit(&self) -> QueueLimit {
        match self {
            QueueDiscSpec::Fifo { limit } => *limit,
            QueueDiscSpec::Red(cfg) => cfg.limit,
            QueueDiscSpec::Switch(cfg) => QueueLimit::Cells {
                cells: cfg.total_cells().min(u32::MAX as u64) as u32,
                cell_bytes: cfg.cell_bytes,
            },
            QueueDiscSpec::Codel(cfg) => cfg.limit,
            QueueDiscSpec::FqCodel(cfg) => cfg.limit,
            QueueDiscSpec::Fq(cfg) => cfg.limit,
            QueueDiscSpec::Pie(cfg) => cfg.limit,
            QueueDiscSpec::Cebinae(cfg) => cfg.limit,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            QueueDiscSpec::Fifo { .. } => "fifo",
            QueueDiscSpec::Red(c) if c.adaptive => "ared",
            QueueDiscSpec::Red(c) if c.gentle => "gentle",
            QueueDiscSpec::Red(_) => "red",
            QueueDiscSpec::Switch(_) => "switch",
            QueueDiscSpec::Codel(_) => "codel",
            QueueDiscSpec::FqCodel(_) => "fq-codel",
            QueueDiscSpec::Fq(_) => "fq",
            QueueDiscSpec::Pie(_) => "pie",
            QueueDiscSpec::Cebinae(_) => "cebinae",
        }
    }
}

/// A built queue discipline (static dispatch over the implementations).
#[derive(Clone, Debug)]
pub enum Qdisc {
    Fifo(Fifo),
    Red(Box<Red>),
    Switch(Box<MultiQueuePort>),
    Codel(Box<Codel>),
    FqCodel(Box<FqCodel>),
    Fq(Box<Fq>),
    Pie(Box<Pie>),
    Cebinae(Box<Cebinae>),
}

impl Qdisc {
    /// Offers a packet; returns false if it was dropped (the drop is in `cx`).
    pub fn enqueue(&mut self, item: QItem, cx: &mut QdiscCtx) -> bool {
        match self {
            Qdisc::Fifo(q) => q.enqueue(item, cx),
            Qdisc::Red(q) => q.enqueue(item, cx),
            Qdisc::Switch(q) => q.enqueue(item, cx),
            Qdisc::Codel(q) => q.enqueue(item, cx),
            Qdisc::FqCodel(q) => q.enqueue(item, cx),
            Qdisc::Fq(q) => q.enqueue(item, cx),
            Qdisc::Pie(q) => q.enqueue(item, cx),
            Qdisc::Cebinae(q) => q.enqueue(item, cx),
        }
    }

    /// Takes the next packet to send, if any.
    pub fn dequeue(&mut self, cx: &mut QdiscCtx) -> Option<QItem> {
        match self {
            Qdisc::Fifo(q) => q.dequeue(),
            Qdisc::Red(q) => q.dequeue(cx.now),
            Qdisc::Switch(q) => q.dequeue(),
            Qdisc::Codel(q) => q.dequeue(cx),
            Qdisc::FqCodel(q) => q.dequeue(cx),
            Qdisc::Fq(q) => q.dequeue(),
            Qdisc::Pie(q) => q.dequeue(cx.now),
            Qdisc::Cebinae(q) => q.dequeue(cx.now),
        }
    }

    pub fn occupancy(&self) -> Occupancy {
        match self {
            Qdisc::Fifo(q) => q.occupancy(),
            Qdisc::Red(q) => q.occupancy(),
            Qdisc::Switch(q) => q.occupancy(),
            Qdisc::Codel(q) => q.occupancy(),
            Qdisc::FqCodel(q) => q.occupancy(),
            Qdisc::Fq(q) => q.occupancy(),
            Qdisc::Pie(q) => q.occupancy(),
            Qdisc::Cebinae(q) => q.occupancy(),
        }
    }

    pub fn limit(&self) -> QueueLimit {
        match self {
            Qdisc::Fifo(q) => q.limit(),
            Qdisc::Red(q) => q.limit(),
            Qdisc::Pie(q) => q.limit(),
            Qdisc::Cebinae(q) => q.limit(),
            Qdisc::Codel(q) => q.limit(),
            Qdisc::FqCodel(q) => q.limit(),
            Qdisc::Fq(q) => q.limit(),
            Qdisc::Switch(q) => q.limit(),
        }
    }

    /// The multi-queue switch port, when this is one.
    pub fn as_switch(&self) -> Option<&MultiQueuePort> {
        match self {
            Qdisc::Switch(p) => Some(p),
            _ => None,
        }
    }

    pub fn as_switch_mut(&mut self) -> Option<&mut MultiQueuePort> {
        match self {
            Qdisc::Switch(p) => Some(p),
            _ => None,
        }
    }

    /// Cell size used to count backlog in cells: the switch's or the limit's own.
    pub fn cell_bytes(&self) -> Option<u32> {
        match self {
            Qdisc::Switch(p) => Some(p.cell_bytes()),
            other => other.limit().cell_bytes(),
        }
    }

    /// RED's average and thresholds, for RED-family disciplines.
    pub fn red_view(&self) -> Option<RedView> {
        match self {
            Qdisc::Red(q) => Some(q.view()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::StreamId;

    #[test]
    fn new_disc_specs_use_their_tags_and_fill_defaults() {
        for (json, spec, name) in [
            (r#"{"type":"codel"}"#, QueueDiscSpec::Codel(CodelConfig::default()), "codel"),
            (r#"{"type":"fq_codel"}"#, QueueDiscSpec::FqCodel(FqCodelConfig::default()), "fq-codel"),
            (r#"{"type":"fq"}"#, QueueDiscSpec::Fq(FqConfig::default()), "fq"),
        ] {
            let parsed: QueueDiscSpec = serde_json::from_str(json).unwrap();
            assert_eq!(parsed, spec);
            assert_eq!(
                serde_json::from_str::<QueueDiscSpec>(&serde_json::to_string(&spec).unwrap()).unwrap(),
                spec
            );
            assert_eq!(spec.name(), name);
            let q = spec.build(Rate(10_000_000), SimRng::new(1, StreamId::Queue(0)));
            assert_eq!(q.limit(), spec.limit());
            assert_eq!(q.occupancy(), Occupancy::default());
            assert!(q.red_view().is_none());
        }
        assert_eq!(QueueDiscSpec::Codel(CodelConfig::default()).limit(), QueueLimit::Packets(1000));
        assert_eq!(QueueDiscSpec::FqCodel(FqCodelConfig::default()).limit(), QueueLimit::Packets(10_240));
    }
}
