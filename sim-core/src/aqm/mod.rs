//! Queue disciplines: what a link's egress does with packets waiting to be sent.
//!
//! Every discipline implements the same small interface (enqueue, dequeue, occupancy) and
//! reports each drop with a [`DropReason`]. [`QueueDiscSpec`] is the serde configuration
//! that builds one; [`Qdisc`] dispatches statically over the implementations.

pub mod cebinae;
mod fifo;
pub mod limit;
pub mod pie;
pub mod red;

pub use cebinae::{Cebinae, CebinaeConfig, CebinaeStats};
pub use fifo::Fifo;
pub use limit::{cells_for, Occupancy, QueueLimit};
pub use pie::{Pie, PieConfig, PieStats};
pub use red::{Red, RedConfig, RedStats, RedView};

use crate::rng::SimRng;
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
            QueueDiscSpec::Pie(cfg) => Qdisc::Pie(Box::new(Pie::new(cfg, rng))),
            QueueDiscSpec::Cebinae(cfg) => Qdisc::Cebinae(Box::new(Cebinae::new(cfg, link_rate))),
        }
    }

    pub fn limit(&self) -> QueueLimit {
        match self {
            QueueDiscSpec::Fifo { limit } => *limit,
            QueueDiscSpec::Red(cfg) => cfg.limit,
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
    Pie(Box<Pie>),
    Cebinae(Box<Cebinae>),
}

impl Qdisc {
    /// Offers a packet; returns false if it was dropped (the drop is in `cx`).
    pub fn enqueue(&mut self, item: QItem, cx: &mut QdiscCtx) -> bool {
        match self {
            Qdisc::Fifo(q) => q.enqueue(item, cx),
            Qdisc::Red(q) => q.enqueue(item, cx),
            Qdisc::Pie(q) => q.enqueue(item, cx),
            Qdisc::Cebinae(q) => q.enqueue(item, cx),
        }
    }

    /// Takes the next packet to send, if any.
    pub fn dequeue(&mut self, cx: &mut QdiscCtx) -> Option<QItem> {
        match self {
            Qdisc::Fifo(q) => q.dequeue(),
            Qdisc::Red(q) => q.dequeue(cx.now),
            Qdisc::Pie(q) => q.dequeue(cx.now),
            Qdisc::Cebinae(q) => q.dequeue(cx.now),
        }
    }

    pub fn occupancy(&self) -> Occupancy {
        match self {
            Qdisc::Fifo(q) => q.occupancy(),
            Qdisc::Red(q) => q.occupancy(),
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
