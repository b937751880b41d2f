//! What a scenario will cost before it runs: simulated events (time) and memory. The CLI
//! refuses a run beyond the limits unless asked (`--force`); the browser warns earlier.

use super::Scenario;
use crate::aqm::QueueLimit;

/// Events a run may take by default: about 4 minutes at 10 M events/s.
pub const MAX_EVENTS: f64 = 2.5e9;
/// Memory a run may take by default, bytes.
pub const MAX_BYTES: f64 = 2e9;

/// Events per data packet that crosses the bottleneck: its hops, its ACK's, the timers.
const EVENTS_PER_PACKET: f64 = 6.0;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cost {
    pub events: f64,
    /// The engine's state plus the bounded traces, bytes.
    pub bytes: f64,
}

impl Cost {
    /// Seconds at `events_per_s` (native: ~10 M/s; browser: ~6 M/s).
    pub fn seconds_at(&self, events_per_s: f64) -> f64 {
        self.events / events_per_s
    }
}

/// Events per flow whatever it sends: handshake, start, stop, the last timers.
const EVENTS_PER_FLOW: f64 = 20.0;

/// An upper estimate: the bottleneck busy the whole run with full-sized packets, each
/// causing [`EVENTS_PER_PACKET`] events, plus every flow's first window (it leaves at once,
/// whatever the bottleneck can carry, and what does not fit is dropped after crossing the
/// access link), plus the samples. With timed changes, the costliest of the scenario's
/// states, as if it lasted the whole run.
pub fn estimate(sc: &Scenario) -> Cost {
    (super::changes::states(sc).iter().map(|(_, s)| estimate_one(s)))
        .reduce(|a, b| Cost { events: a.events.max(b.events), bytes: a.bytes.max(b.bytes) })
        .expect("a scenario has a first state")
}

fn estimate_one(sc: &Scenario) -> Cost {
    let flows = f64::from(sc.total_flows());
    let pkt_bits = 8.0 * f64::from(sc.full_packet_bytes().max(1));
    let first_windows = flows * f64::from(sc.tcp.initial_cwnd_segments);
    let packets = sc.duration_s * sc.bottleneck.rate_bps as f64 / pkt_bits + first_windows;
    let samples = sc.duration_s / sc.sample_interval_s.max(1e-3);
    let state = flows * 2_000.0 + outstanding_segments(sc) * 64.0;
    let traces = crate::metrics::TRACE_FLOW_SAMPLES.min(samples * flows.max(1.0)) * 48.0
        + crate::metrics::TRACE_DROPS as f64 * 24.0;
    Cost {
        events: packets * EVENTS_PER_PACKET + flows * EVENTS_PER_FLOW + samples * (flows + 1.0),
        bytes: state + traces,
    }
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
    let b = &sc.bottleneck;
    let max_rtt_s = sc.flows.iter().map(|g| sc.base_rtt_ms(g)).fold(0.0, f64::max) / 1e3;
    let queue = match b.queue.limit() {
        QueueLimit::Packets(n) => f64::from(n),
        QueueLimit::Bytes(n) => n as f64 * 8.0 / pkt_bits,
        QueueLimit::Cells { cells, cell_bytes } => f64::from(cells) * f64::from(cell_bytes) * 8.0 / pkt_bits,
    };
    let bottleneck = b.rate_bps as f64 * max_rtt_s / pkt_bits + queue + f64::from(b.nic_queue_packets);
    let hosts: f64 = sc
        .flows
        .iter()
        .filter(|g| g.access_rate_bps < b.rate_bps)
        .map(|g| f64::from(g.count) * f64::from(sc.host_queue_packets))
        .sum();
    let first_windows = f64::from(sc.total_flows()) * f64::from(sc.tcp.initial_cwnd_segments);
    windows.min(2.0 * (bottleneck + hosts) + first_windows)
}

/// Refuses a scenario beyond the default limits, saying what it would cost.
pub fn check(sc: &Scenario) -> Result<Cost, String> {
    let c = estimate(sc);
    if c.events > MAX_EVENTS || c.bytes > MAX_BYTES {
        return Err(format!(
            "this scenario would take about {:.1e} events (~{:.0} s) and {:.0} MB; the limits are {:.1e} events and {:.0} MB",
            c.events,
            c.seconds_at(1e7),
            c.bytes / 1e6,
            MAX_EVENTS,
            MAX_BYTES / 1e6
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
        let c = check(&preset("red-study", None).unwrap()).unwrap();
        // 60 s at 2 Mbit/s: ~26 k packets.
        assert!((1e5..1e6).contains(&c.events), "{c:?}");
    }

    #[test]
    fn an_hour_at_400_gbits_is_refused_with_its_cost() {
        let mut sc = preset("red-study", None).unwrap();
        sc.duration_s = 3600.0;
        sc.bottleneck.rate_bps = 400_000_000_000;
        let e = check(&sc).unwrap_err();
        assert!(e.contains("events") && e.contains("limits"), "{e}");
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
        let c = check(&sc).unwrap();
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
        sc.bottleneck.rate_bps = 80_000;
        sc.tcp.initial_cwnd_segments = 1000;
        let c = estimate(&sc);
        assert!(c.events >= 8.0 * 1000.0 * EVENTS_PER_PACKET, "{c:?}");
    }
}
