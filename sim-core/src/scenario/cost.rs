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

/// An upper estimate: the bottleneck busy the whole run with full-sized packets, each
/// causing [`EVENTS_PER_PACKET`] events, plus the samples.
pub fn estimate(sc: &Scenario) -> Cost {
    let flows = sc.total_flows() as f64;
    let pkt_bits = 8.0 * sc.full_packet_bytes().max(1) as f64;
    let packets = sc.duration_s * sc.bottleneck.rate_bps as f64 / pkt_bits;
    let samples = sc.duration_s / sc.sample_interval_s.max(1e-3);
    let window = flows * (sc.tcp.send_buffer_bytes as f64 / sc.tcp.mss_bytes.max(1) as f64);
    let state = flows * 2_000.0 + window * 64.0;
    let traces = crate::metrics::TRACE_FLOW_SAMPLES.min(samples * flows.max(1.0)) * 48.0
        + crate::metrics::TRACE_DROPS as f64 * 24.0;
    Cost { events: packets * EVENTS_PER_PACKET + samples * (flows + 1.0), bytes: state + traces }
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
}
