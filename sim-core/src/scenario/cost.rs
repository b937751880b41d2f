//! What a scenario will cost before it runs: simulated events (time) and memory. The CLI
//! refuses a run beyond the limits unless asked (`--force`); the browser warns earlier.

use super::Scenario;

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
/// access link), plus the samples.
pub fn estimate(sc: &Scenario) -> Cost {
    let flows = f64::from(sc.total_flows());
    let pkt_bits = 8.0 * f64::from(sc.full_packet_bytes().max(1));
    let first_windows = flows * f64::from(sc.tcp.initial_cwnd_segments);
    let packets = sc.duration_s * sc.bottleneck.rate_bps as f64 / pkt_bits + first_windows;
    let samples = sc.duration_s / sc.sample_interval_s.max(1e-3);
    let window = flows * (f64::from(sc.tcp.send_buffer_bytes) / f64::from(sc.tcp.mss_bytes.max(1)));
    let state = flows * 2_000.0 + window * 64.0;
    let traces = crate::metrics::TRACE_FLOW_SAMPLES.min(samples * flows.max(1.0)) * 48.0
        + crate::metrics::TRACE_DROPS as f64 * 24.0;
    Cost {
        events: packets * EVENTS_PER_PACKET + flows * EVENTS_PER_FLOW + samples * (flows + 1.0),
        bytes: state + traces,
    }
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
