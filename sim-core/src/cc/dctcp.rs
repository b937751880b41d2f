//! DCTCP (RFC 8257): the share of bytes the receiver echoes as CE-marked, averaged once per
//! window into α, cuts the window by α/2 instead of halving it, so a step-marking queue
//! (`aqm/step.rs`) is held near its threshold at full throughput. The receiver's per-segment
//! echo (§3.2) is in `tcp/receiver.rs`, the once-per-round-trip reduction (CWR) in the
//! sender; growth is Reno's, as in Linux (`tcp_dctcp.c` uses `tcp_reno_cong_avoid`) and
//! ns-3.44 (`TcpDctcp` derives from `TcpLinuxReno`).

use super::new_reno::NewReno;
use super::{AckSample, CcMetrics, CcaConfig, CongestionControl, CongestionKind, Tcb};
use crate::net::Ecn;
use crate::params::{Algorithm, Described, Field, Kind, Range};
use crate::rng::SimRng;
use crate::tcp::DctcpRules;
use crate::time::SimTime;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DctcpConfig {
    /// g, the weight of the newest window's marked share in α (§4.2: 1/16).
    pub g: f64,
    /// α before the first window is measured (Linux `dctcp_alpha_on_init` and ns-3.44
    /// `DctcpAlphaOnInit`: 1, so the first mark halves the window as Reno would).
    pub alpha_on_init: f64,
}

impl Default for DctcpConfig {
    fn default() -> Self {
        DctcpConfig { g: 1.0 / 16.0, alpha_on_init: 1.0 }
    }
}

impl Described for DctcpConfig {
    const INFO: Algorithm = Algorithm {
        tag: "dctcp",
        label: "DCTCP",
        help: "Data Center TCP (RFC 8257): ECN marks, averaged per window into α, cut the window by α/2; Reno growth. Needs a queue that marks (a step threshold).",
        fields: &[
            Field::new("g", "g", "", Kind::Float(Range::above(0.0, 1.0)), "Weight of each window's marked share in α (1/16)."),
            Field::new("alpha_on_init", "Initial α", "", Kind::Float(Range::closed(0.0, 1.0)), "α before the first window is measured (Linux and ns-3: 1)."),
        ],
        flavours: &[],
    };
}

impl CcaConfig for DctcpConfig {
    fn build(&self, _rng: SimRng) -> Result<Box<dyn CongestionControl>, String> {
        Ok(Box::new(Dctcp::new(self)))
    }
    fn ecn_codepoint(&self) -> Option<Ecn> {
        Some(Ecn::Ect0)
    }
}

#[derive(Clone, Debug)]
pub struct Dctcp {
    g: f64,
    pub(crate) alpha: f64,
    /// Segments acknowledged, and of them echoed as marked, in the current window.
    acked: u64,
    marked: u64,
    /// The window ends when this segment is acknowledged (SND.NXT when it began); `None`
    /// until the first ACK under ns-3.44's rules ([`DctcpRules`]), 0 (the connection's
    /// start) under Linux's.
    window_end: Option<u32>,
    reno: NewReno,
}

impl Dctcp {
    pub fn new(cfg: &DctcpConfig) -> Dctcp {
        Dctcp {
            g: cfg.g,
            alpha: cfg.alpha_on_init,
            acked: 0,
            marked: 0,
            window_end: Some(0),
            reno: NewReno::new(true),
        }
    }
}

impl CongestionControl for Dctcp {
    /// Where the first window of α ends: Linux's `dctcp_init` takes SND.NXT at the
    /// connection's start (the first ACK of data ends it), ns-3.44's `PktsAcked` SND.NXT as
    /// of the first ACK (a window later).
    fn tcp_rules(&mut self, tcp: &crate::tcp::TcpConfig) {
        self.window_end = match tcp.dctcp_rules {
            DctcpRules::Linux => Some(0),
            DctcpRules::Ns3 => None,
        };
    }

    /// §3.3: count acknowledged and marked bytes; once a window is acknowledged,
    /// α ← (1 − g)·α + g·F with F the marked share.
    fn on_ack(&mut self, tcb: &mut Tcb, ack: &AckSample) {
        let n = u64::from(ack.segments_acked);
        self.acked += n;
        if ack.ece {
            self.marked += n;
        }
        if self.window_end.is_none() {
            // ns-3.44 `PktsAcked`: `m_nextSeq` from SND.NXT on its first call.
            self.window_end = Some(tcb.high_tx);
        }
        if self.window_end.is_some_and(|end| tcb.last_acked >= end) && self.acked > 0 {
            let f = self.marked as f64 / self.acked as f64;
            self.alpha = (1.0 - self.g) * self.alpha + self.g * f;
            (self.acked, self.marked) = (0, 0);
            self.window_end = Some(tcb.high_tx);
        }
    }

    fn grow_window(&mut self, tcb: &mut Tcb, segments_acked: u32, now: SimTime) {
        self.reno.grow_window(tcb, segments_acked, now);
    }

    /// §3.3: on an echo cwnd × (1 − α/2); §3.4: on a loss, halve as Reno does (Linux
    /// `dctcp_react_to_loss`).
    fn on_congestion(&mut self, tcb: &Tcb, bytes_in_flight: u32, kind: CongestionKind) -> u32 {
        match kind {
            CongestionKind::Ecn => ((f64::from(tcb.cwnd) * (1.0 - self.alpha / 2.0)) as u32).max(2 * tcb.mss),
            _ => (bytes_in_flight / 2).max(2 * tcb.mss),
        }
    }

    fn ecn_codepoint(&self) -> Option<Ecn> {
        Some(Ecn::Ect0)
    }

    fn metrics(&self) -> CcMetrics {
        CcMetrics { mode: None, values: vec![("alpha", self.alpha)] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tcb(cwnd_segs: u32) -> Tcb {
        crate::cc::new_reno::tests::tcb(cwnd_segs, u32::MAX / 1000)
    }

    fn ack(segs: u32, ece: bool) -> AckSample {
        AckSample { now: SimTime::ZERO, segments_acked: segs, rtt: None, latest_rtt: None, ece }
    }

    #[test]
    fn alpha_moves_by_g_towards_each_windows_marked_share() {
        let mut d = Dctcp::new(&DctcpConfig { g: 1.0 / 16.0, alpha_on_init: 0.0 });
        let mut t = tcb(10);
        // A window: segments 0..10 sent; 4 of the 10 acknowledged are echoed marked.
        (t.high_tx, d.window_end) = (10, Some(10));
        for (i, ece) in [(2, false), (4, true), (6, false), (8, false)] {
            // ACKs up to segment 8: the window is not over.
            t.last_acked = i;
            d.on_ack(&mut t, &ack(2, ece));
        }
        assert_eq!(d.alpha, 0.0, "the window is not over before segment 10 is acknowledged");
        t.last_acked = 10;
        d.on_ack(&mut t, &ack(2, true));
        // F = 4 / 10 marked.
        assert!((d.alpha - 0.4 / 16.0).abs() < 1e-12, "α = {}", d.alpha);
    }

    #[test]
    fn ns3s_first_alpha_window_ends_at_snd_nxt_of_the_first_ack_linuxs_at_the_start() {
        // The initial window (segments 0..10) is out; the first ACK covers 0 and 1, unmarked.
        let first = |rules| {
            let mut d = Dctcp::new(&DctcpConfig::default());
            d.tcp_rules(&crate::tcp::TcpConfig { dctcp_rules: rules, ..Default::default() });
            let mut t = tcb(10);
            (t.high_tx, t.last_acked) = (10, 2);
            d.on_ack(&mut t, &ack(2, false));
            (d, t)
        };
        // Linux (`dctcp_init`: next_seq = SND.NXT at the start): that ACK ends a window.
        let (linux, _) = first(DctcpRules::Linux);
        assert_eq!(linux.alpha, 15.0 / 16.0);
        // ns-3.44 (`PktsAcked` sets m_nextSeq on its first call): the window ends when
        // segment 10 is acknowledged.
        let (mut ns3, mut t) = first(DctcpRules::Ns3);
        assert_eq!((ns3.alpha, ns3.window_end), (1.0, Some(10)));
        (t.high_tx, t.last_acked) = (14, 10);
        ns3.on_ack(&mut t, &ack(8, false));
        assert_eq!((ns3.alpha, ns3.window_end), (15.0 / 16.0, Some(14)));
    }

    #[test]
    fn an_echo_cuts_by_half_alpha_and_a_loss_halves() {
        let mut d = Dctcp::new(&DctcpConfig::default());
        d.alpha = 0.5;
        let t = tcb(100);
        assert_eq!(d.on_congestion(&t, 100_000, CongestionKind::Ecn), 75_000);
        assert_eq!(d.on_congestion(&t, 100_000, CongestionKind::DupAck), 50_000);
        d.alpha = 0.0;
        assert_eq!(d.on_congestion(&t, 100_000, CongestionKind::Ecn), 100_000);
    }
}
