//! The scenario's own parameters (run, bottleneck, flow group), with their ranges. The
//! algorithms describe theirs in their own files; TCP's are in `tcp/config.rs`.

use crate::aqm::QueueDiscSpec;
use crate::cc::CcaSpec;
use crate::params::{Field, Kind, Range};

const RATE: Range = Range::closed(1_000.0, 4e11);
const DELAY_MS: Range = Range::closed(0.0, 10_000.0);

/// Paths at the scenario's root.
pub const RUN_FIELDS: &[Field] = &[
    Field::new(
        "duration_s",
        "Duration",
        "s",
        Kind::Float(Range::closed(0.001, 3600.0)),
        "Simulated time of the run.",
    ),
    Field::new(
        "warmup_s",
        "Warm-up",
        "s",
        Kind::Float(Range::closed(0.0, 3600.0)),
        "Statistics ignore this first stretch (the RED study drops 1 s).",
    ),
    Field::new(
        "sample_interval_s",
        "Sample interval",
        "s",
        Kind::Float(Range::closed(0.001, 60.0)),
        "Queue, throughput and window traces are sampled this often.",
    ),
    Field::new(
        "seed",
        "Seed",
        "",
        Kind::Int(Range::closed(0.0, 18_446_744_073_709_551_615.0)),
        "Every random draw derives from it: same seed, same run.",
    ),
    Field::new(
        "host_queue_packets",
        "Host queues",
        "packets",
        Kind::Int(Range::closed(1.0, 1e6)),
        "Buffer of host NICs and of the ACK path.",
    ),
];

/// Paths under `links.NAME`.
pub const LINK_FIELDS: &[Field] = &[
    Field::new("rate_bps", "Rate", "bit/s", Kind::Int(RATE), "Capacity of the shared link."),
    Field::new("delay_ms", "Delay", "ms", Kind::Float(DELAY_MS), "One-way propagation delay of the shared link."),
    Field::new("nic_queue_packets", "Device queue", "packets", Kind::Int(Range::closed(0.0, 1e6)), "The driver's DropTail queue under the disc (0 = none); packets wait there after the disc. ns-3 puts 100 packets there, and the disc only fills once it is full."),
    Field::new("queue", "Queue disc", "", Kind::Tagged(&QueueDiscSpec::FAMILY), "What the router does with packets waiting for the shared link."),
    Field::new("monitored", "Monitored", "", Kind::Bool, "Whether the link's queue, delay, utilisation and drops are charted and tabled (where there are several links)."),
];

/// Paths under `flows[i]`.
pub const FLOW_FIELDS: &[Field] = &[
    Field::new(
        "count",
        "Flows",
        "",
        Kind::Int(Range::closed(1.0, 10_000.0)),
        "Identical flows in this group, each with its own sender (flows that arrive during the run: the connections open at once, at most).",
    ),
    Field::new(
        "cca",
        "Congestion control",
        "",
        Kind::Tagged(&CcaSpec::FAMILY),
        "How each sender sets its window.",
    ),
    Field::new("access_rate_bps", "Access rate", "bit/s", Kind::Int(RATE), "Sender's own link."),
    Field::new(
        "access_delay_ms",
        "Access delay",
        "ms",
        Kind::Float(DELAY_MS),
        "Sets the RTT: 2·(access + bottleneck delay).",
    ),
    Field::new(
        "start_s",
        "Start",
        "s",
        Kind::Float(Range::closed(0.0, 3600.0)),
        "When the flow opens its connection.",
    ),
    Field::new(
        "start_jitter_s",
        "Start jitter",
        "s",
        Kind::Float(Range::closed(0.0, 3600.0)),
        "Each flow starts up to this much later, drawn from the seeded random stream.",
    ),
    Field::new(
        "stop_s",
        "Stop",
        "s",
        Kind::OptFloat(Range::closed(0.0, 3600.0)),
        "When the application stops sending; empty = never.",
    ),
    Field::new(
        "size_bytes",
        "Size",
        "bytes",
        Kind::OptInt(Range::closed(1.0, 1e12)),
        "Bytes to send; empty = unlimited (bulk).",
    ),
    Field::new(
        "arrivals",
        "Arrivals",
        "",
        Kind::Tagged(&crate::traffic::ArrivalSpec::FAMILY),
        "How the group's flows arrive: once each, at random at a load, or repeated.",
    ),
    Field::new(
        "sizes",
        "Sizes",
        "",
        Kind::Choice(crate::traffic::sizes::SIZE_CHOICES),
        "Each flow's size: the Size above, or drawn from a measured workload (or the cdf points in the scenario's JSON).",
    ),
    Field::new(
        "ecn",
        "ECN",
        "",
        Kind::Bool,
        "Classic ECN (RFC 3168): ask for it at the handshake and take a mark as a loss, once per round trip, with nothing to resend. DCTCP and Prague use ECN anyway.",
    ),
];

/// What the field at `path` (`flows[0].cca.beta`, `links.bottleneck.queue.limit.packets`) allows,
/// in words; `v` is the scenario's JSON, whose `"type"`s pick the algorithms' fields.
pub fn allowed_at(v: &serde_json::Value, path: &str) -> Option<String> {
    let segs: Vec<&str> = path.split('.').collect();
    let (first, rest) = segs.split_first()?;
    let (key, index) = split_index(first);
    match key {
        "links" => allowed_in(LINK_FIELDS, v.get("links")?.get(rest.first()?)?, rest.get(1..)?),
        "flows" => allowed_in(FLOW_FIELDS, v.get("flows")?.get(index?)?, rest),
        "tcp" => allowed_in(crate::tcp::TcpConfig::FIELDS, v.get("tcp")?, rest),
        _ => allowed_in(RUN_FIELDS, v, &segs),
    }
}

/// `flows[2]` → (`flows`, Some(2)); a list field's element (`weights[1]`) keeps its field.
fn split_index(seg: &str) -> (&str, Option<usize>) {
    match seg.split_once('[') {
        Some((k, i)) => (k, i.trim_end_matches(']').parse().ok()),
        None => (seg, None),
    }
}

fn allowed_in(fields: &[Field], v: &serde_json::Value, segs: &[&str]) -> Option<String> {
    use crate::params::field::{CELL_BYTES, LIMIT_BYTES, LIMIT_CELLS, LIMIT_PACKETS};
    let keys: Vec<&str> = segs.iter().map(|s| split_index(s).0).collect();
    for f in fields {
        let own: Vec<&str> = f.path.split('.').collect();
        if !keys.starts_with(&own) {
            continue;
        }
        let rest = &keys[own.len()..];
        if rest.is_empty() {
            return Some(f.allowed());
        }
        let x = own.iter().try_fold(v, |v, k| v.get(k))?;
        return match (f.kind, rest) {
            (Kind::Tagged(family), _) => {
                let member = family.member(x.get("type")?.as_str()?)?;
                allowed_in(member.fields, x, &segs[own.len()..])
            }
            (Kind::Limit | Kind::OptLimit, ["packets"]) => Some(LIMIT_PACKETS.words("packets")),
            (Kind::Limit | Kind::OptLimit, ["bytes"]) => Some(LIMIT_BYTES.words("bytes")),
            (Kind::Limit | Kind::OptLimit, ["cells", "cells"]) => Some(LIMIT_CELLS.words("cells")),
            (Kind::Limit | Kind::OptLimit, ["cells", "cell_bytes"]) => Some(CELL_BYTES.words("bytes")),
            _ => None,
        };
    }
    None
}
