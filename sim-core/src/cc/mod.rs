//! Congestion control: a small trait with default hooks, and static dispatch over the
//! algorithms through [`Cca`]. [`CcaSpec`] is the serde configuration that builds one.
//!
//! The TCP sender owns the window ([`Tcb`]); algorithms adjust it from the hooks it calls,
//! mirroring ns-3's `TcpCongestionOps`: `on_ack` for every ACK that acknowledges data
//! (ns-3 `PktsAcked`), `grow_window` where the window may grow (`IncreaseWindow`) and
//! `on_congestion` for the new ssthresh (`GetSsThresh`). Model-based algorithms (BBR) set
//! the window and pacing rate from every delivery-rate sample (`on_rate_sample`, ns-3
//! `CongControl`) and say so with `has_cong_control`.

pub mod bbr;
pub mod cubic;
pub mod dctcp;
pub mod dqn;
pub mod new_reno;
pub mod ping;
pub mod prague;
pub mod udp;
pub mod vegas;

pub use bbr::{Bbr, BbrConfig, BbrMode};
pub use cubic::{Cubic, CubicConfig};
pub use dctcp::{Dctcp, DctcpConfig};
pub use dqn::{Dqn, DqnCcConfig};
pub use new_reno::{NewReno, NewRenoConfig};
pub use ping::PingConfig;
pub use prague::{Prague, PragueConfig};
pub use udp::{Datagrams, UdpConfig};
pub use vegas::{Vegas, VegasConfig};

use crate::rng::{SimRng, StreamId};
pub use crate::tcb::{AckSample, CongState, CongestionKind, RateSample, Tcb};
use crate::time::{Rate, SimTime};
use serde::Serialize;
use std::fmt::Debug;

/// A snapshot of an algorithm's internals for traces and the UI: a mode, if it has a state
/// machine, and named values (CUBIC's `w_max_segments`, Vegas' `base_rtt_ms`, BBR's
/// `btl_bw_bps`...). A new algorithm adds names, not fields.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CcMetrics {
    pub mode: Option<&'static str>,
    pub values: Vec<(&'static str, f64)>,
}

impl CcMetrics {
    pub fn get(&self, name: &str) -> Option<f64> {
        self.values.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }

    /// Adds `name` when the value exists.
    pub fn with(mut self, name: &'static str, v: Option<f64>) -> CcMetrics {
        if let Some(v) = v {
            self.values.push((name, v));
        }
        self
    }
}

/// The hooks an algorithm may implement. Every hook has a default that does nothing.
pub trait CongestionControl: Send {
    /// The scenario's TCP rules, given once as the sender is made, for an algorithm whose
    /// ns-3.44 and Linux versions differ beyond them (DCTCP: `tcp.dctcp_rules`).
    fn tcp_rules(&mut self, _tcp: &crate::tcp::TcpConfig) {}
    fn init(&mut self, _tcb: &mut Tcb, _now: SimTime) {}
    /// Every ACK that acknowledges data, in any state (ns-3 `PktsAcked`).
    fn on_ack(&mut self, _tcb: &mut Tcb, _ack: &AckSample) {}
    /// Window growth, called in Open and Loss states (ns-3 `IncreaseWindow`).
    fn grow_window(&mut self, tcb: &mut Tcb, segments_acked: u32, now: SimTime);
    /// New ssthresh on congestion; the sender then sets cwnd (PRR or one segment).
    fn on_congestion(&mut self, tcb: &Tcb, bytes_in_flight: u32, kind: CongestionKind) -> u32;
    fn on_state(&mut self, _tcb: &mut Tcb, _state: CongState, _now: SimTime) {}
    fn on_sent(&mut self, _tcb: &Tcb, _bytes: u32, _now: SimTime) {}
    /// Every delivery-rate sample, after the ACK's other hooks (ns-3 `CongControl`). A
    /// model-based algorithm sets `tcb.cwnd` here and reports its pacing rate.
    fn on_rate_sample(&mut self, _tcb: &mut Tcb, _rs: &RateSample, _now: SimTime) {}
    /// A pacing rate the sender must honour, if the algorithm paces.
    fn pacing_rate(&self) -> Option<Rate> {
        None
    }
    /// The algorithm sets the window itself from rate samples (ns-3 `HasCongControl`, Linux
    /// `cong_control`): the sender then applies no PRR in recovery and does not set
    /// cwnd = ssthresh when recovery ends.
    fn has_cong_control(&self) -> bool {
        false
    }
    /// Checked after each `on_rate_sample`: while true the sender marks the connection
    /// application-limited (Linux `tp->app_limited`), so the samples that follow do not lower
    /// a bandwidth estimate (BBR ProbeRTT).
    fn marks_app_limited(&self) -> bool {
        false
    }
    fn metrics(&self) -> CcMetrics {
        CcMetrics::default()
    }
    /// The ECN codepoint a scalable congestion control sends with and asks for at the
    /// handshake (DCTCP ECT(0), Prague ECT(1)); `None` for a classic one, which uses ECN
    /// only when its flow group asks (RFC 3168).
    fn ecn_codepoint(&self) -> Option<crate::net::Ecn> {
        None
    }
    /// Not a congestion control but an unresponsive source ([`udp`]): the sender sends
    /// these datagrams in place of TCP.
    fn datagrams(&self) -> Option<Datagrams> {
        None
    }
}

/// What `{:?}` shows of a boxed congestion control: a summary. Debug is not a supertrait, so the vtable
/// of every algorithm does not link its derived Debug (the worker's module was 9 kB gzipped
/// larger); the algorithms still derive it, for a look at their state.
impl Debug for dyn CongestionControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CongestionControl").field("metrics", &self.metrics()).finish()
    }
}

/// How an algorithm's configuration builds it.
pub trait CcaConfig: Debug {
    /// `rng` is the flow's own stream, derived from (scenario seed, flow id). Called through
    /// [`CcaSpec::build_with`]; not in the vtable (see [`crate::registry!`]).
    fn build(&self, rng: SimRng) -> Result<Box<dyn CongestionControl>, String>
    where
        Self: Sized;
    /// The ECN codepoint a scalable algorithm's flows send (DCTCP ECT(0), Prague ECT(1)),
    /// read without building one: its flows ask for ECN whatever their group says and their
    /// receivers echo every segment's mark. The running algorithm says the same through
    /// [`CongestionControl::ecn_codepoint`].
    fn ecn_codepoint(&self) -> Option<crate::net::Ecn> {
        None
    }
}

crate::registry! {
    /// Choice of congestion control, as scenarios carry it (`{"type": "cubic", ...}`).
    pub enum CcaSpec as "congestion control": dyn CcaConfig {
        NewReno(NewRenoConfig),
        Cubic(CubicConfig),
        Vegas(VegasConfig),
        Bbr(BbrConfig),
        Dqn(DqnCcConfig),
        Udp(UdpConfig),
        Ping(PingConfig),
        Dctcp(DctcpConfig),
        Prague(PragueConfig),
    }
    build as build_with(rng: SimRng) -> Result<Box<dyn CongestionControl>, String>;
}

impl Default for CcaSpec {
    fn default() -> Self {
        CcaSpec::Cubic(CubicConfig::default())
    }
}

impl CcaSpec {
    /// Whether its flows send datagrams (UDP, ping) in place of TCP segments: no
    /// handshake, no completion.
    pub fn sends_datagrams(&self) -> bool {
        self.datagrams_per_s().is_some()
    }

    /// Whether its flows use ECN whatever their group says (a scalable congestion control:
    /// DCTCP, Prague), read from the spec without building one.
    pub fn is_scalable(&self) -> bool {
        self.get().ecn_codepoint().is_some()
    }

    /// Whether its flows are probes (ping): measured, but left out of goodput, shares and
    /// Jain's index.
    pub fn is_probe(&self) -> bool {
        matches!(self, CcaSpec::Ping(_))
    }

    /// A datagram source's datagrams per second on average, and its payload per datagram.
    pub fn datagrams_per_s(&self) -> Option<(f64, f64)> {
        match self {
            CcaSpec::Udp(u) => {
                let on = u.on_s / (u.on_s + u.off_s.max(0.0)).max(1e-9);
                let bytes = f64::from(u.packet_bytes.max(1));
                Some((on * u.rate_bps as f64 / (8.0 * bytes), bytes))
            }
            CcaSpec::Ping(p) => Some((1e3 / p.interval_ms.max(1e-3), f64::from(p.packet_bytes.max(1)))),
            _ => None,
        }
    }

    /// Builds the algorithm with a fixed random stream (seed 0, flow 0), for tests and
    /// tools; a simulation gives each flow its own stream through its [`CcFactory`].
    pub fn build(&self) -> Box<dyn CongestionControl> {
        self.build_with(SimRng::new(0, StreamId::Flow(0))).expect("a registered algorithm builds")
    }
}

/// Builds each flow's congestion control (quinn's `ControllerFactory`): the default builds
/// from the scenario's spec; a trainer passes one that hands every flow a shared policy.
pub trait CcFactory {
    fn build(&self, flow: u32, spec: &CcaSpec, rng: SimRng) -> Result<Box<dyn CongestionControl>, String>;
}

/// Builds every flow's controller from its spec alone.
#[derive(Clone, Copy, Debug, Default)]
pub struct SpecFactory;

impl CcFactory for SpecFactory {
    fn build(&self, _flow: u32, spec: &CcaSpec, rng: SimRng) -> Result<Box<dyn CongestionControl>, String> {
        spec.build_with(rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Checker;

    #[test]
    fn every_registered_cca_round_trips_validates_its_defaults_and_builds() {
        for a in CcaSpec::FAMILY.members {
            let spec = CcaSpec::default_for(a.tag).unwrap();
            let json = serde_json::to_string(&spec).unwrap();
            assert_eq!(serde_json::from_str::<CcaSpec>(&json).unwrap(), spec, "{json}");
            let mut c = Checker::new();
            spec.check(&mut c);
            assert_eq!(c.errors(), &[], "{}", a.tag);
            let v = spec.to_value();
            for f in a.fields {
                assert!(v.get(f.path).is_some(), "{}.{} is described but not in the config", a.tag, f.path);
            }
            spec.build();
        }
    }

    /// A flow limited by rwnd for long keeps acknowledging data with cwnd far above what it
    /// uses: cwnd must stop at `u32::MAX`, never wrap to a small window (nor panic in debug).
    #[test]
    fn no_algorithm_wraps_cwnd_past_u32_max() {
        let mss = 1448;
        for a in CcaSpec::FAMILY.members {
            for ssthresh in [u32::MAX, 2 * mss] {
                let mut cc = CcaSpec::default_for(a.tag).unwrap().build();
                let mut tcb = Tcb {
                    cwnd: u32::MAX - 5 * mss,
                    ssthresh,
                    mss,
                    state: CongState::Open,
                    bytes_in_flight: u32::MAX - 6 * mss,
                    high_tx: 0,
                    last_acked: 0,
                    cwnd_limited: true,
                    srtt: Some(crate::time::SimDuration::from_millis(1)),
                    min_rtt: Some(crate::time::SimDuration::from_millis(1)),
                };
                cc.init(&mut tcb, SimTime::ZERO);
                let start = tcb.cwnd;
                let mut prev = start;
                for i in 1..2_000u32 {
                    let now = SimTime(u64::from(i) * 1_000_000_000);
                    let rtt = Some(crate::time::SimDuration::from_millis(1));
                    tcb.high_tx += 100_000;
                    tcb.last_acked += 100_000;
                    let ack = AckSample { now, segments_acked: 100_000, rtt, latest_rtt: rtt, ece: false };
                    cc.on_ack(&mut tcb, &ack);
                    cc.grow_window(&mut tcb, 100_000, now);
                    assert!(
                        tcb.cwnd >= prev,
                        "{}: cwnd fell from {prev} to {} after {i} ACKs",
                        a.tag,
                        tcb.cwnd
                    );
                    prev = tcb.cwnd;
                }
                // A window that grows climbs to the top without wrapping (per-ACK growth of
                // MSS²/cwnd rounds to 0 just below u32::MAX, so "at the top" is a band).
                if tcb.cwnd != start {
                    assert!(
                        tcb.cwnd > u32::MAX - 16 * tcb.mss,
                        "{}: a growing window stopped at {}",
                        a.tag,
                        tcb.cwnd
                    );
                }
            }
        }
    }

    #[test]
    fn the_newreno_tag_is_new_reno() {
        assert_eq!(
            serde_json::to_string(&CcaSpec::NewReno(NewRenoConfig::default())).unwrap(),
            r#"{"type":"new_reno","count_segments":false}"#
        );
    }
}
