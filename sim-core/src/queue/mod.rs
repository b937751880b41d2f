//! The queue vocabulary shared by every queue discipline and the switch port: queued items,
//! drop reasons, buffer limits and occupancy in packets, bytes or cells, and the
//! [`QueueDisc`] interface a link's egress drives. Below both `aqm` and `switch`; `net`
//! depends on this module only, never on a particular discipline.

pub mod limit;

pub use limit::{cells_for, Occupancy, QueueLimit};

use crate::net::Ecn;
use crate::time::{Rate, SimTime};
use crate::trace::{LogRecord, SeriesInfo};
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::fmt;

/// A queued packet as a discipline sees it: the packet's id plus what decisions need.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QItem {
    pub id: u32,
    pub bytes: u32,
    pub flow: u32,
    pub enqueued_at: SimTime,
    /// Which of its flow's connections it belongs to ([`crate::net::Packet::conn`]): a
    /// switch port tells a recycled flow's next connection from its last by it, as a new
    /// 5-tuple.
    pub conn: u8,
    /// The packet's ECN field as it arrived.
    pub ecn: Ecn,
    /// Why a discipline marked it CE instead of dropping it, if it did: the link writes
    /// the mark into the packet as it leaves and records it.
    pub marked: Option<DropReason>,
    /// An ACK crossing a disc link on its group's ACK route, not data (the packet view
    /// draws it apart).
    pub ack: bool,
}

impl QItem {
    /// Marks it Congestion Experienced for `reason` if its transport is ECN-capable
    /// (RFC 3168 §5: ECT becomes CE; a CE packet stays CE) and says whether it did: a
    /// discipline drops what it cannot mark.
    #[inline]
    pub fn mark(&mut self, reason: DropReason) -> bool {
        if !self.ecn.is_ect() {
            return false;
        }
        if self.marked.is_none() {
            self.marked = Some(reason);
        }
        true
    }

    /// Drops it, or marks it when `ecn` is on and it can be marked: what an AQM's
    /// congestion signal does to a packet it keeps (`true` = marked, keep it).
    #[inline]
    pub fn signal(&mut self, ecn: bool, reason: DropReason) -> bool {
        ecn && self.mark(reason)
    }
}

/// Connections a classifier called long or not, against the truth (more packets than its
/// threshold, counted exactly): what its precision and recall come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LongFlowCalls {
    /// Long, and called long.
    pub hits: u64,
    /// Mice called long (a sketch's counters overestimate: other flows share them).
    pub false_alarms: u64,
    /// Long, not called long.
    pub misses: u64,
    /// Mice left as mice.
    pub mice: u64,
}

impl LongFlowCalls {
    /// Of the connections called long, the share that were (`None`: none was called).
    pub fn precision(&self) -> Option<f64> {
        let called = self.hits + self.false_alarms;
        (called > 0).then(|| self.hits as f64 / called as f64)
    }

    /// Of the long connections, the share called long (`None`: none was long).
    pub fn recall(&self) -> Option<f64> {
        let long = self.hits + self.misses;
        (long > 0).then(|| self.hits as f64 / long as f64)
    }
}

/// Why a packet was dropped, or marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DropReason {
    /// A probabilistic or control-law drop below the hard limit (RED "unforced").
    Early,
    /// The AQM's hard zone (RED: average above max_th, or 2·max_th when gentle).
    Forced,
    /// The buffer was full.
    Overflow,
    /// A step threshold on the instantaneous queue (the step disc, CoDel's `ce_threshold`,
    /// DualPI2's L4S step): a reason to mark, never to drop.
    Threshold,
}

impl DropReason {
    pub fn as_str(self) -> &'static str {
        match self {
            DropReason::Early => "early",
            DropReason::Forced => "forced",
            DropReason::Overflow => "overflow",
            DropReason::Threshold => "threshold",
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

/// A link's egress discipline. Only the first four methods are required; the rest let a
/// discipline ask for time, classify flows into sub-queues and report its own traces.
pub trait QueueDisc: Send {
    /// Offers a packet; returns false if it was dropped (the drop is in `cx`).
    fn enqueue(&mut self, item: QItem, cx: &mut QdiscCtx) -> bool;
    /// Takes the next packet to send, if any (head drops go to `cx`).
    fn dequeue(&mut self, cx: &mut QdiscCtx) -> Option<QItem>;
    fn occupancy(&self) -> Occupancy;
    fn limit(&self) -> QueueLimit;

    /// Cell size to count backlog in, when the buffer is counted in cells.
    fn cell_bytes(&self) -> Option<u32> {
        self.limit().cell_bytes()
    }
    /// The next time the discipline wants [`QueueDisc::on_wakeup`] without a packet event
    /// (smoltcp's `poll_at`): a control period, a table write taking effect. Asked after
    /// every call; `None` = no wake-up needed.
    fn poll_at(&self) -> Option<SimTime> {
        None
    }
    /// Called at (or after) the time `poll_at` asked for; the link then tries to send.
    fn on_wakeup(&mut self, _cx: &mut QdiscCtx) {}
    /// The sub-queue `flow`'s packets enter now (multi-queue disciplines).
    fn flow_queue(&self, _flow: u32) -> Option<u32> {
        None
    }
    /// The sub-queue `item` went into, asked right after it was accepted (for the packet
    /// view; a flow-hashing discipline's bucket, DualPI2's L or C queue).
    fn item_queue(&self, item: &QItem) -> Option<u32> {
        self.flow_queue(item.flow)
    }
    /// A sub-queue's name for people.
    fn queue_name(&self, q: u32) -> String {
        format!("Q{q}")
    }
    /// The series this discipline reports at every sample, declared once.
    fn series(&self) -> Vec<SeriesInfo> {
        Vec::new()
    }
    /// One value per declared series, in order.
    fn sample_series(&self, _out: &mut Vec<f64>) {}
    /// Moves structured records written since the last call into `out`.
    fn drain_log(&mut self, _out: &mut Vec<LogRecord>) {}
    /// How a discipline that tells long flows from mice (a switch port's count-min sketch)
    /// has classified the connections it has seen so far, against their exact packet counts.
    fn long_flow_calls(&self) -> Option<LongFlowCalls> {
        None
    }
    /// A packet of `flow` will be enqueued soon: start loading the per-flow state it will
    /// touch (a hint; results must not change). `tail` = also what that state points to,
    /// asked for once the state itself had time to arrive.
    fn prefetch_flow(&self, _flow: u32, _tail: bool) {}
    /// Takes new parameters during a run, as Linux's `tc qdisc change` does: `cfg` is the
    /// discipline's own configuration type, `link_rate` the link's rate from `now` on. What
    /// it holds and has learnt (queued packets, averages, control-law state) carries over;
    /// a lowered limit is then enforced by [`shed_to_limit`]. Err says what cannot change.
    fn retune(&mut self, _cfg: &dyn Any, _link_rate: Rate, _now: SimTime) -> Result<(), String> {
        Err("this queue discipline keeps its settings until the next run".into())
    }
}

/// The configuration `retune` was handed, as the discipline's own type.
pub fn config_of<T: 'static>(cfg: &dyn Any) -> Result<&T, String> {
    cfg.downcast_ref::<T>().ok_or_else(|| "the queue discipline's type cannot change during a run".into())
}

/// After a limit was lowered: drops packets from the head until what is queued fits, as
/// Linux's `codel_change`, `pie_change` and `fq_codel_change` do (net/sched/sch_codel.c),
/// through the discipline's own dequeue (which picks the head: FQ-CoDel's next flow).
pub fn shed_to_limit(disc: &mut dyn QueueDisc, cx: &mut QdiscCtx) {
    while disc.limit().exceeded_by(&disc.occupancy()) {
        let Some(it) = disc.dequeue(cx) else { break };
        cx.drop(it, DropReason::Overflow, true);
    }
}

/// What `{:?}` shows of a boxed discipline: a summary. Debug is not a supertrait, so the vtable
/// of every algorithm does not link its derived Debug (the worker's module was 9 kB gzipped
/// larger); the algorithms still derive it, for a look at their state.
impl fmt::Debug for dyn QueueDisc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("QueueDisc")
            .field("limit", &self.limit())
            .field("occupancy", &self.occupancy())
            .finish()
    }
}
