//! What a scenario will cost before it runs: simulated events and other work (time), memory,
//! and the trace files' bytes. The CLI refuses a run beyond the limits unless asked
//! (`--force`); the browser warns earlier; a run that goes past twice its estimate anyway
//! is stopped (`sim::guard`). `tests/cost.rs` holds the estimate to what runs take.

use super::Scenario;
use crate::aqm::QueueLimit;

/// Events a run may take by default: about 4 minutes at 10 M events/s.
pub const MAX_EVENTS: f64 = 2.5e9;
/// Memory a run may take by default, bytes.
pub const MAX_BYTES: f64 = 2e9;
/// Trace files a run may write by default (`aqmsim run --out`), bytes.
pub const MAX_DISK_BYTES: f64 = 10e9;
/// Events per second natively (the CLI's two threads), for the time an estimate announces:
/// 10-19 M/s measured on the presets, 10-11 M/s with 10 000 flows at 10 Gbit/s, and
/// `cargo run --release -p aqm-tests --example estimate_time` puts every preset and the
/// costly scenarios within 2× of the time this announces.
pub const EVENTS_PER_S: f64 = 1.6e7;

/// Events per data packet that crosses the bottleneck: its hops, its ACK's, the timers
/// (2.4-3.5 measured on the presets; a switch port's cells and sketches cost the most).
const EVENTS_PER_PACKET: f64 = 4.0;
/// A packet's arrival at each disc link after its first (its end of transmission there
/// is settled lazily, no event).
const EVENTS_PER_LATER_HOP: f64 = 1.0;
/// Events per segment of a first window the bottleneck cannot carry: its arrival there,
/// where it is dropped (the host link's share is computed, not an event).
const EVENTS_PER_FIRST_SEGMENT: f64 = 1.0;
/// Events per retransmission timeout: the wake-up and the resent segment's arrival
/// (1.05-1.95 measured with a 1 ms RTO).
const EVENTS_PER_TIMEOUT: f64 = 1.6;
/// Events per UDP datagram sent: the send timer, its arrival at the first disc link and at
/// its receiver (a datagram dropped on its way costs fewer).
const EVENTS_PER_DATAGRAM: f64 = 3.0;
/// Events per flow whatever it sends: handshake, start, stop, the last timers.
const EVENTS_PER_FLOW: f64 = 4.0;
/// A ping's answer: its arrival back at the sender (the request is a datagram).
const EVENTS_PER_ECHO_REPLY: f64 = 1.0;
/// A completed transfer's record and a ping's answer kept for the summary, bytes, and
/// their rows in `<alg>_fct.csv` and `<alg>_pings.csv`.
const BYTES_PER_TRANSFER: f64 = 40.0;
const BYTES_PER_PING: f64 = 24.0;
const DISK_PER_TRANSFER: f64 = 64.0;
const DISK_PER_PING: f64 = 32.0;
/// Engine state per flow (sender, receiver, host links, scoreboard, RTT and rate state).
const BYTES_PER_FLOW: f64 = 4_000.0;
/// What every run holds whatever its size (the calendar queue's wheel, the recorder), and a
/// switch port's own (cells, sketches, per-queue state), bytes.
const BYTES_FIXED: f64 = 1_500_000.0;
const BYTES_SWITCH: f64 = 3_000_000.0;
/// A queued event in the calendar queue, bytes.
const BYTES_PER_EVENT: f64 = 24.0;
/// A packet held anywhere (in flight, queued, on the scoreboard), bytes.
const BYTES_PER_SEGMENT: f64 = 64.0;
/// A flow's value in a kept sample, and a kept drop record, bytes.
/// (A flow's sample also feeds the backlog KDE's history: 80-90 B measured.)
const BYTES_PER_FLOW_SAMPLE: f64 = 85.0;
const BYTES_PER_DROP: f64 = 40.0;
/// A value of a kept log record (a 32-byte JSON value, with its vector's spare room).
const BYTES_PER_LOG_VALUE: f64 = 64.0;
/// Bytes per row of the trace files `aqmsim run --out` writes (measured on the presets:
/// flows 43, queue 22, series 16, drops 26), per log value in the log's CSV and JSON, and
/// the KDE files and the per-flow part of summary.json.
const DISK_PER_FLOW_ROW: f64 = 48.0;
const DISK_PER_SAMPLE_ROW: f64 = 48.0;
const DISK_PER_DROP: f64 = 28.0;
const DISK_PER_LOG_VALUE: f64 = 12.0;
const DISK_FIXED: f64 = 120_000.0;
const DISK_PER_FLOW: f64 = 500.0;
/// Writing traces: CSV formatted and written, bytes per second (about 130 MB/s measured).
pub const WRITE_BYTES_PER_S: f64 = 1e8;
/// A control-plane decision's work over its flows and queues (the clustering), in event
/// equivalents per flow and queue.
const DECISION_WORK_PER_FLOW_QUEUE: f64 = 0.15;
/// A sample's work per flow (its rates, backlog and KDE history), in event equivalents:
/// 12-19 ns per flow-sample measured with 10 000 flows sampled every ms.
const SAMPLE_WORK_PER_FLOW: f64 = 0.35;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cost {
    pub events: f64,
    /// Work besides events (a control plane's clustering), in event equivalents: it takes
    /// time but is not counted as events.
    pub work: f64,
    /// The engine's state plus the bounded traces, bytes.
    pub bytes: f64,
    /// The trace files of `aqmsim run --out`, bytes (they stream to disk, not memory).
    pub disk_bytes: f64,
}

impl Cost {
    /// Seconds at `events_per_s` (native: ~10 M/s; browser: ~6 M/s), traces not written.
    pub fn seconds_at(&self, events_per_s: f64) -> f64 {
        (self.events + self.work) / events_per_s
    }

    /// Seconds at `events_per_s` writing the trace files too.
    pub fn seconds_writing(&self, events_per_s: f64) -> f64 {
        self.seconds_at(events_per_s) + self.disk_bytes / WRITE_BYTES_PER_S
    }

    fn max(self, o: Cost) -> Cost {
        Cost {
            events: self.events.max(o.events),
            work: self.work.max(o.work),
            bytes: self.bytes.max(o.bytes),
            disk_bytes: self.disk_bytes.max(o.disk_bytes),
        }
    }
}

/// An upper estimate of every source of events, memory and disk:
/// - packets: the bottleneck busy the whole run with full-sized packets (or as busy as the
///   flows' windows can keep it), each causing [`EVENTS_PER_PACKET`] events, plus every
///   flow's first window (it leaves at once, whatever the bottleneck can carry, and what
///   does not fit is dropped on arrival);
/// - timers: every flow timing out back to back with its backoff (see [`timeouts_per_flow`]);
/// - a switch's control plane: a decision per period and its clustering work;
/// - samples: an event per interval, and work over every flow;
/// - memory: per-flow state, packets held, queued events, the bounded traces and log;
/// - disk: each trace file's rows.
///
/// With timed changes, the costliest of the scenario's states, as if it lasted the whole run.
pub fn estimate(sc: &Scenario) -> Cost {
    (super::changes::states(sc).iter().map(|(_, s)| estimate_one(s)))
        .reduce(Cost::max)
        .expect("a scenario has a first state")
}

fn estimate_one(sc: &Scenario) -> Cost {
    use crate::metrics::{TRACE_DROPS, TRACE_FLOW_SAMPLES, TRACE_LOG, TRACE_LOG_VALUES, TRACE_MARKS};
    let flows = f64::from(sc.total_flows());
    let d = sc.duration_s;
    let pkt_bits = 8.0 * f64::from(sc.full_packet_bytes().max(1));
    // Every transfer that arrives during the run opens a connection: a handshake and a
    // first window of its own.
    let transfers = arriving_transfers(sc);
    let first_windows = (flows + transfers) * f64::from(sc.tcp.initial_cwnd_segments);
    let (entering, later) = carried_bps(sc);
    let (packets, later_hops) = (d * entering / pkt_bits, d * later / pkt_bits);
    let (datagrams, datagram_hops, pings) = udp_datagrams(sc);
    let timeouts = handshaken_flows(sc) * timeouts_per_flow(sc);
    let samples = d / sc.sample_interval_s.max(1e-3);
    let (decisions, decision_values, queues) = control_plane(sc);
    let log_values = decisions * decision_values;
    // Drops: what the first windows and the timeouts send beyond what is carried, and a
    // few per cent of the rest (congestion control's probing).
    let drops = 0.02 * packets + timeouts + first_windows + datagram_losses(sc);
    // CE marks, where a flow uses ECN: DCTCP through a step threshold marks about a sixth
    // of its packets; a fifth bounds it.
    let uses_ecn = sc.flows.iter().any(|g| g.ecn || g.cca.is_scalable());
    let marks = if uses_ecn { 0.2 * packets } else { 0.0 };
    let held = outstanding_segments(sc);
    let pending_events = 4.0 * flows + held;
    let switch = matches!(sc.bottleneck().queue, crate::aqm::QueueDiscSpec::Switch(_));
    let bytes = BYTES_FIXED
        + if switch { BYTES_SWITCH } else { 0.0 }
        + flows * BYTES_PER_FLOW
        + transfers * BYTES_PER_TRANSFER
        + pings * BYTES_PER_PING
        + held * BYTES_PER_SEGMENT
        + pending_events * BYTES_PER_EVENT
        + TRACE_FLOW_SAMPLES.min(samples * flows.max(1.0)) * BYTES_PER_FLOW_SAMPLE
        + (TRACE_DROPS as f64).min(drops) * BYTES_PER_DROP
        + (TRACE_MARKS as f64).min(marks) * BYTES_PER_DROP
        + (TRACE_LOG_VALUES as f64).min(log_values).min(TRACE_LOG as f64 * decision_values)
            * BYTES_PER_LOG_VALUE;
    let kept_log_values = (TRACE_LOG_VALUES as f64).min(log_values);
    let disk_bytes = DISK_FIXED
        + flows * DISK_PER_FLOW
        + samples * (flows * DISK_PER_FLOW_ROW + DISK_PER_SAMPLE_ROW)
        + drops * DISK_PER_DROP
        + (TRACE_MARKS as f64).min(marks) * DISK_PER_DROP
        + transfers * DISK_PER_TRANSFER
        + pings * DISK_PER_PING
        // The log's CSV and summary.json's copy of it.
        + 2.0 * kept_log_values * DISK_PER_LOG_VALUE;
    Cost {
        events: packets * EVENTS_PER_PACKET
            + later_hops * EVENTS_PER_LATER_HOP
            + datagrams * EVENTS_PER_DATAGRAM
            + pings * EVENTS_PER_ECHO_REPLY
            + datagram_hops * EVENTS_PER_LATER_HOP
            + first_windows * EVENTS_PER_FIRST_SEGMENT
            + timeouts * EVENTS_PER_TIMEOUT
            + (flows + transfers) * EVENTS_PER_FLOW
            + decisions
            + samples,
        // A sample visits every flow; a decision clusters every flow.
        work: samples * flows * SAMPLE_WORK_PER_FLOW
            + decisions * flows * queues * DECISION_WORK_PER_FLOW_QUEUE,
        bytes,
        disk_bytes,
    }
}

/// What the disc links carry, bit/s, as (entering the network, on later hops): a packet
/// costs [`EVENTS_PER_PACKET`] on its first disc link and [`EVENTS_PER_LATER_HOP`] on each
/// after it. Each flow at its max-min fair rate over the links (every flow held back by a
/// full link, as long flows are), capped by its access link and by what its window can
/// keep going: a window (the smaller of the send and receive buffers) per base RTT.
fn carried_bps(sc: &Scenario) -> (f64, f64) {
    use crate::metrics::fair_shares::max_min;
    let buffer_bits = 8.0 * f64::from(sc.tcp.send_buffer_bytes.min(sc.tcp.recv_buffer_bytes));
    // UDP groups are charged apart (`udp_datagrams`), whatever the links carry of them.
    let (capacity, demands) = super::topology::demands(sc, 1.0, |g| match g.cca.sends_datagrams() {
        true => 0.0,
        false => (g.access_rate_bps as f64)
            .min(buffer_bits / (sc.base_rtt_ms(g) / 1e3).max(1e-6))
            .min(offered_bps(sc, g) / f64::from(g.count.max(1))),
    });

    let (mut entering, mut later) = (0.0, 0.0);
    for ((d, g), fair) in demands.iter().zip(&sc.flows).zip(max_min(&capacity, &demands)) {
        let group = f64::from(d.count) * fair;
        entering += group;
        // An ACK per packet at most, each arriving at every disc link of its ACK route.
        later += group * (d.links.len().saturating_sub(1) + g.ack_route.len()) as f64;
    }
    (entering, later)
}

/// The datagrams UDP sources and pings send over the run, whatever is lost, their
/// arrivals at the disc links after the first, and of them the pings' requests (each
/// answered): (datagrams, later hops, pings).
fn udp_datagrams(sc: &Scenario) -> (f64, f64, f64) {
    let (mut sent, mut later, mut pings) = (0.0, 0.0, 0.0);
    for g in &sc.flows {
        let Some((per_s, _)) = g.cca.datagrams_per_s() else { continue };
        let n = f64::from(g.count) * sc.duration_s * per_s;
        sent += n;
        later += n * sc.route_of(g).len().saturating_sub(1) as f64;
        if g.cca.is_probe() {
            pings += n;
        }
    }
    (sent, later, pings)
}

/// The share of an on/off cycle that is on.
fn on_share(on: crate::time::SimDuration, off: crate::time::SimDuration) -> f64 {
    let on = on.as_secs_f64().max(1e-9);
    on / (on + off.as_secs_f64())
}

/// What a group whose flows arrive during the run offers over the run, at most, bit/s of
/// payload: its transfers' bytes at their mean size, and a few at the largest the sizes can
/// be (a short run's one 30 MB web-search flow is the whole of it); unbounded for the others.
fn offered_bps(sc: &Scenario, g: &super::FlowGroup) -> f64 {
    if !g.recycles() {
        return f64::INFINITY;
    }
    let n = transfers_of(sc, g);
    let mean = g.mean_size_bytes().unwrap_or(0.0);
    let largest = g.size_cdf().and_then(|c| c.last()).map_or(mean, |p| p.0.max(mean));
    8.0 * (n * mean + n.min(3.0) * largest) / sc.duration_s.max(1e-9)
}

/// Datagrams lost over the run, about: of each source what it sends above its fair share of
/// its route (what flow queueing holds it to, and more than a FIFO takes from it), at least
/// a twentieth (a FIFO full of TCP's data drops datagrams as it drops segments).
fn datagram_losses(sc: &Scenario) -> f64 {
    let flows = f64::from(sc.total_flows().max(1));
    let mut lost = 0.0;
    for g in &sc.flows {
        let Some((per_s, bytes)) = g.cca.datagrams_per_s() else { continue };
        let rate_bps = per_s * 8.0 * bytes;
        let fair_bps = sc.route_capacity_bps(g) / flows;
        let share = (1.0 - fair_bps / rate_bps.max(1e-9)).max(0.05);
        lost += f64::from(g.count) * sc.duration_s * per_s * share;
    }
    lost
}

/// Transfers that arrive during the run ([`crate::traffic`]), at most: a Poisson source's
/// mean count over the run plus six standard deviations, a repeated one's rounds times its
/// flows (a round that waits for the one before has fewer).
pub fn arriving_transfers(sc: &Scenario) -> f64 {
    sc.flows.iter().map(|g| transfers_of(sc, g)).sum()
}

/// [`arriving_transfers`] of one group.
fn transfers_of(sc: &Scenario, g: &super::FlowGroup) -> f64 {
    use crate::traffic::Pattern;
    let span = (sc.duration_s - g.start_s).max(0.0);
    match g.arrivals.pattern() {
        Pattern::Poisson { load, on, off } => {
            let mean = load * sc.route_capacity_bps(g) * on_share(on, off) * span
                / (8.0 * g.mean_size_bytes().unwrap_or(1.0));
            mean + 6.0 * mean.sqrt() + 1.0
        }
        Pattern::Every { period, transfers, .. } => {
            f64::from(transfers.unwrap_or(g.count)) * ((span / period.as_secs_f64().max(1e-9)).floor() + 1.0)
        }
        Pattern::Once => 0.0,
    }
}

/// Retransmission timeouts a flow can take in the run, at most: back to back, each
/// doubling the next (RFC 6298 §5.5) from the smallest RTO the flow can have (its base
/// RTT, within the minimum and the maximum) up to the maximum. With a maximum below the
/// RTT (min_rto = max_rto = 1 ms) that is one every millisecond; with the defaults, six in
/// a minute. A flow that times out less often must have got ACKs between, which cost
/// packets already counted.
fn timeouts_per_flow(sc: &Scenario) -> f64 {
    let t = &sc.tcp;
    let cap = (t.max_rto_ms / 1e3).max(1e-6);
    let rtt = sc.flows.iter().map(|g| sc.base_rtt_ms(g)).fold(f64::INFINITY, f64::min) / 1e3;
    let mut rto = rtt.max(t.min_rto_ms / 1e3).min(cap).max(1e-6);
    let (mut at, mut n) = (rto, 0.0);
    while at <= sc.duration_s && rto < cap {
        n += 1.0;
        rto = (2.0 * rto).min(cap);
        at += rto;
    }
    if at <= sc.duration_s {
        n += ((sc.duration_s - at) / cap).floor() + 1.0;
    }
    n
}

/// Flows that can finish their handshake, and so time out, at most. SYNs that arrive
/// together find room in the bottleneck's queue and device queue (a SYN is a small packet)
/// plus what the link carries while they keep arriving; the rest are dropped and retry
/// after the SYN timeout (3 s, doubling). If the flows through already load the
/// bottleneck with a retransmission every maximum RTO, the retries find it full; else
/// each retry round is charged the same room again. (10 000 flows on the RED study's
/// 2 Mbit/s path with a 1 ms RTO: 202 get through, this says 201.)
fn handshaken_flows(sc: &Scenario) -> f64 {
    let flows = f64::from(sc.total_flows());
    let b = sc.bottleneck();
    let syn_bytes = f64::from(sc.tcp.headers.base(sc.tcp.timestamps) + 8);
    let queue = match b.queue.limit() {
        QueueLimit::Packets(n) => f64::from(n),
        QueueLimit::Bytes(n) => n as f64 / syn_bytes,
        QueueLimit::Cells { cells, cell_bytes } => {
            f64::from(cells) / (syn_bytes / f64::from(cell_bytes.max(1))).ceil()
        }
    };
    // When the first SYNs reach the bottleneck, from the earliest to the latest.
    let at = |g: &super::FlowGroup, jitter: f64| g.start_s + jitter + g.access_delay_ms / 1e3;
    let first = sc.flows.iter().map(|g| at(g, 0.0)).fold(f64::INFINITY, f64::min);
    let last = sc.flows.iter().map(|g| at(g, g.start_jitter_s)).fold(0.0, f64::max);
    let round = queue
        + f64::from(b.nic_queue_packets)
        + 1.0
        + (last - first).max(0.0) * b.rate_bps as f64 / (8.0 * syn_bytes);
    if flows <= round {
        return flows;
    }
    let pkt_bits = 8.0 * f64::from(sc.full_packet_bytes().max(1));
    let retransmitting_bps = round * pkt_bits / (sc.tcp.max_rto_ms / 1e3).max(1e-6);
    if retransmitting_bps >= b.rate_bps as f64 {
        return round;
    }
    let (mut t, mut rounds) = (sc.tcp.syn_timeout_ms / 1e3, 1.0);
    while t <= sc.duration_s && rounds * round < flows {
        rounds += 1.0;
        t += sc.tcp.syn_timeout_ms / 1e3 * 2f64.powf(rounds - 1.0);
    }
    flows.min(rounds * round)
}

/// A switch port's control plane: (decisions in the run, values each decision logs,
/// queues it clusters into). None elsewhere.
fn control_plane(sc: &Scenario) -> (f64, f64, f64) {
    let crate::aqm::QueueDiscSpec::Switch(p) = &sc.bottleneck().queue else { return (0.0, 0.0, 0.0) };
    if matches!(p.control, crate::switch::ControlPlaneSpec::Static(_)) {
        return (0.0, 0.0, 0.0);
    }
    let decisions = sc.duration_s / (p.control_period_ms / 1e3).max(1e-6);
    // Two per-flow arrays (backlogs and the mapping) and a few scalars per queue.
    let values = 2.0 * f64::from(sc.total_flows()) + 4.0 * f64::from(p.queues) + 8.0;
    (decisions, values, f64::from(p.queues))
}

/// Segments the senders can hold unacknowledged at once, at most: every window full (the
/// smaller of the send and receive buffers), but no more than twice what the network can
/// hold plus every first window. A window grows only with ACKs, so slow start overshoots
/// the network by at most one doubling before losses cut it back. The network holds the
/// bottleneck's bandwidth-delay product at the longest base RTT (the ACK clock keeps the
/// access links at the bottleneck's pace), its queue disc and device queue, and the host
/// queue of every access link slower than the bottleneck (a faster one never builds a
/// standing queue).
fn outstanding_segments(sc: &Scenario) -> f64 {
    let pkt_bits = 8.0 * f64::from(sc.full_packet_bytes().max(1));
    let mss = f64::from(sc.tcp.mss_bytes.max(1));
    let buffer = f64::from(sc.tcp.send_buffer_bytes.min(sc.tcp.recv_buffer_bytes));
    let windows = f64::from(sc.total_flows()) * (buffer / mss).ceil();
    let b = sc.bottleneck();
    let max_rtt_s = sc.flows.iter().map(|g| sc.base_rtt_ms(g)).fold(0.0, f64::max) / 1e3;
    // Each disc link: its bandwidth-delay product at the longest RTT, its disc and device queue.
    let bottleneck: f64 = (sc.links_in_id_order())
        .map(|l| {
            let queue = match l.queue.limit() {
                QueueLimit::Packets(n) => f64::from(n),
                QueueLimit::Bytes(n) => n as f64 * 8.0 / pkt_bits,
                QueueLimit::Cells { cells, cell_bytes } => {
                    f64::from(cells) * f64::from(cell_bytes) * 8.0 / pkt_bits
                }
            };
            l.rate_bps as f64 * max_rtt_s / pkt_bits + queue + f64::from(l.nic_queue_packets)
        })
        .sum();
    let hosts: f64 = sc
        .flows
        .iter()
        .filter(|g| g.access_rate_bps < b.rate_bps)
        .map(|g| f64::from(g.count) * f64::from(sc.host_queue_packets))
        .sum();
    let first_windows = f64::from(sc.total_flows()) * f64::from(sc.tcp.initial_cwnd_segments);
    windows.min(2.0 * (bottleneck + hosts) + first_windows)
}

/// Refuses a scenario beyond the default limits, saying what it would cost; `writing` if
/// its trace files go to disk (then their size counts too).
pub fn check(sc: &Scenario, writing: bool) -> Result<Cost, String> {
    let c = estimate(sc);
    if c.events > MAX_EVENTS || c.bytes > MAX_BYTES || (writing && c.disk_bytes > MAX_DISK_BYTES) {
        return Err(format!(
            "this scenario would take about {:.1e} events (~{:.0} s) and {:.0} MB of memory{}; the limits are {:.1e} events, {:.0} MB{}",
            c.events,
            if writing { c.seconds_writing(EVENTS_PER_S) } else { c.seconds_at(EVENTS_PER_S) },
            c.bytes / 1e6,
            if writing { format!(", and write {:.0} MB of traces", c.disk_bytes / 1e6) } else { String::new() },
            MAX_EVENTS,
            MAX_BYTES / 1e6,
            if writing { format!(" and {:.0} MB on disk", MAX_DISK_BYTES / 1e6) } else { String::new() },
        ));
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;

    #[test]
    fn the_presets_are_well_within_the_limits() {
        let c = check(&preset("red-study", None).unwrap(), false).unwrap();
        // 60 s at 2 Mbit/s: ~26 k packets.
        assert!((1e5..1e6).contains(&c.events), "{c:?}");
    }

    #[test]
    fn an_hour_at_400_gbits_is_refused_with_its_cost() {
        // The RTT-unfair pair's 6 MiB windows keep about 4.8 Gbit/s going.
        let mut sc = preset("rtt-unfair", Some("fifo")).unwrap();
        sc.duration_s = 3600.0;
        sc.bottleneck_mut().rate_bps = 400_000_000_000;
        sc.flows.iter_mut().for_each(|g| g.access_rate_bps = 400_000_000_000);
        let e = check(&sc, false).unwrap_err();
        assert!(e.contains("events") && e.contains("limits"), "{e}");
    }

    #[test]
    fn the_flows_windows_bound_what_a_fast_link_carries() {
        // Ten 128 kB windows over the RED study's 2.4 ms base RTT: about 440 Mbit/s,
        // however fast the bottleneck.
        let mut sc = preset("red-study", None).unwrap();
        sc.bottleneck_mut().rate_bps = 400_000_000_000;
        sc.flows.iter_mut().for_each(|g| g.access_rate_bps = 400_000_000_000);
        let (bps, later) = carried_bps(&sc);
        assert!((1e8..1e9).contains(&bps) && later == 0.0, "{bps} {later}");
        // With its own 1 Mbit/s access links, ten flows bring at most 10 Mbit/s.
        let sc = {
            let mut s = preset("red-study", None).unwrap();
            s.bottleneck_mut().rate_bps = 400_000_000_000;
            s
        };
        assert_eq!(carried_bps(&sc), (10e6, 0.0));
    }

    #[test]
    fn a_packet_costs_its_later_hops_and_a_link_carries_no_more_than_its_routes_bring() {
        // Max-min fairness gives every flow half a link: 20 Mbit/s enter, and the long
        // flow's 5 Mbit/s cross two more links.
        let sc = preset("parking-lot", Some("fifo")).unwrap();
        let (entering, later) = carried_bps(&sc);
        assert!((entering - 20e6).abs() < 1.0 && (later - 10e6).abs() < 1.0, "{entering} {later}");
        // The home router at its LAN rate passes only what the modem's rate lets through.
        let sc = preset("two-bottlenecks", Some("fq-codel-unshaped")).unwrap();
        let (entering, later) = carried_bps(&sc);
        assert!((entering - 10e6).abs() < 1.0 && (later - 10e6).abs() < 1.0, "{entering} {later}");
    }

    #[test]
    fn a_timeout_every_millisecond_is_counted_when_the_maximum_rto_is_below_the_rtt() {
        let mut sc = preset("rtt-unfair", Some("fifo")).unwrap();
        sc.duration_s = 15.0;
        assert!(timeouts_per_flow(&sc) < 10.0, "the defaults back off: {}", timeouts_per_flow(&sc));
        (sc.tcp.min_rto_ms, sc.tcp.max_rto_ms) = (1.0, 1.0);
        assert_eq!(timeouts_per_flow(&sc), 15_000.0);
    }

    #[test]
    fn a_log_writing_thousands_of_flows_every_millisecond_costs_its_memory() {
        let mut sc = preset("cubic-vegas-2q", Some("warbler")).unwrap();
        (sc.flows[0].count, sc.flows[1].count, sc.duration_s) = (5000, 5000, 10.0);
        if let crate::aqm::QueueDiscSpec::Switch(p) = &mut sc.bottleneck_mut().queue {
            p.initial_mapping.clear();
            p.control_period_ms = 1.0;
        }
        let c = estimate(&sc);
        // The log keeps at most TRACE_LOG_VALUES values (~100 MB), not 10 000 decisions.
        assert!((80e6..400e6).contains(&c.bytes), "{c:?}");
        // Ten thousand clusterings of 10 000 flows: about 3 s measured, 3e7 events' worth.
        assert!(c.work > 1e7, "{c:?}");
    }

    #[test]
    fn ten_thousand_flows_at_1_ms_samples_are_not_charged_for_every_window_full() {
        // 5000 + 5000 flows of the RTT-unfair pair (6 MiB buffers, 100 Mbit/s) for 5 s with
        // 1 ms samples peak at 270 MB measured; every window full would be 2.8 GB.
        let mut sc = preset("rtt-unfair", Some("fifo")).unwrap();
        sc.flows[0].count = 5000;
        sc.flows[1].count = 5000;
        sc.sample_interval_s = 0.001;
        sc.duration_s = 5.0;
        let c = check(&sc, false).unwrap();
        assert!((150e6..600e6).contains(&c.bytes), "{c:?}");
    }

    #[test]
    fn a_slow_access_link_is_charged_for_its_host_queue() {
        // The RED study's 1 Mbit/s access links feed a 2 Mbit/s bottleneck: a flow's window
        // can stand in its own host queue, up to the window.
        let sc = preset("red-study", None).unwrap();
        let windows = 10.0 * (131_072.0_f64 / 512.0).ceil();
        assert_eq!(outstanding_segments(&sc), windows);
    }

    #[test]
    fn first_windows_count_even_when_the_bottleneck_could_not_carry_them() {
        // 8 flows with 1000-segment first windows over an 80 kbit/s bottleneck for 0.5 s:
        // the link carries 3 packets, the senders emit 8000 (most dropped). Without the
        // first windows the estimate was 49 events; the run takes about 4000.
        let mut sc = preset("vegas-newreno-mix", Some("6v2n-8q")).unwrap();
        sc.duration_s = 0.5;
        sc.bottleneck_mut().rate_bps = 80_000;
        sc.tcp.initial_cwnd_segments = 1000;
        let c = estimate(&sc);
        assert!(c.events >= 8.0 * 1000.0 * EVENTS_PER_FIRST_SEGMENT, "{c:?}");
    }
}
