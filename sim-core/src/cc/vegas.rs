//! TCP Vegas (Brakmo & Peterson, IEEE JSAC 13(8), 1995) as ns-3's `TcpVegas` does it.
//!
//! Once per round trip (one window of data, marked by the sequence sent when the round
//! began) Vegas compares the expected rate cwnd/BaseRTT with the actual rate cwnd/RTT, where
//! BaseRTT is the smallest RTT ever seen and RTT the smallest sample of the round. Their
//! difference times BaseRTT is the number of segments the flow keeps queued (§3.2):
//!
//!   diff = cwnd − cwnd·BaseRTT/RTT = cwnd·(RTT − BaseRTT)/RTT   [segments]
//!
//! computed as ns-3 does, with integer truncation of the target window (so `diff` rounds up).
//! Congestion avoidance keeps `diff` in [α, β]: +1 segment below α, −1 above β, else hold.
//! Slow start ends when `diff` exceeds γ (§3.3). Fewer than three RTT samples in a round
//! (one may come from a delayed ACK) means NewReno growth that round.
//!
//! RTT samples. ns-3 hands `PktsAcked` the *smoothed* RTT (`m_srtt`), so its BaseRTT and
//! per-round minimum are minima of an EWMA. The paper measures each segment's RTT with a
//! fine-grained clock and Linux `tcp_vegas.c` uses each ACK's own sample; a smoothed value
//! lags the queue by several RTTs and never sees the true base RTT once a queue exists. We
//! therefore use the latest per-ACK sample by default and offer ns-3's choice as
//! [`VegasConfig::use_smoothed_rtt`].
//!
//! Growth outside Vegas' own rule is NewReno's: per ACK as ns-3 ≤ 3.44 by default,
//! by segments acknowledged with [`VegasConfig::count_segments`] (Linux, ns-3-dev).
//!
//! Stall with delayed ACKs. ns-3's Vegas alone at 100 Mbit/s, 10 ms stops at 21 segments
//! (22.9 Mbit/s, empty queue): once per round a delayed ACK pairs the round's last segment
//! with the next round's first and echoes the older timestamp, so one sample per round is
//! ~RTT too long; the *smoothed* RTT ns-3 feeds Vegas never comes back to BaseRTT (the
//! handshake's 10.0 ms), and with ns-3's truncation diff sits in [α, β] at 21 segments.
//! `use_smoothed_rtt` reproduces a stall (about 53 segments here); per-ACK samples (the
//! default, Linux and the paper) fill the link. We count it an ns-3 artefact.
//!
//! ns-3 (and Linux) slow-start on every ACK while `diff ≤ γ`; the paper grows exponentially
//! only every other RTT so that a valid comparison fits in between. That is
//! [`VegasConfig::slow_start_every_other_rtt`], off by default (ns-3).

use super::{AckSample, CcMetrics, CcaConfig, CongState, CongestionControl, CongestionKind, NewReno, Tcb};
use crate::params::{Algorithm, Checker, Described, Field, Kind, Range};
use crate::rng::SimRng;
use crate::time::{SimDuration, SimTime};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VegasConfig {
    /// Fewest segments to keep queued (§3.2 α); ns-3 default 2.
    pub alpha: u32,
    /// Most segments to keep queued (§3.2 β); ns-3 default 4.
    pub beta: u32,
    /// Slow start ends when more than this many segments are queued (§3.3 γ); ns-3 default 1.
    pub gamma: u32,
    /// Feed Vegas the smoothed RTT, as ns-3 does, instead of each ACK's own sample.
    pub use_smoothed_rtt: bool,
    /// Double the window only every other RTT in slow start (the paper), not on every ACK
    /// (ns-3, Linux).
    pub slow_start_every_other_rtt: bool,
    /// Slow start and the NewReno fallback grow by the segments each ACK covers (Linux,
    /// ns-3-dev); off = one MSS per ACK, as ns-3 ≤ 3.44's `TcpNewReno` that `TcpVegas` calls.
    pub count_segments: bool,
}

impl Default for VegasConfig {
    fn default() -> Self {
        VegasConfig {
            alpha: 2,
            beta: 4,
            gamma: 1,
            use_smoothed_rtt: false,
            slow_start_every_other_rtt: false,
            count_segments: false,
        }
    }
}

const SEGMENTS: Range = Range::closed(0.0, 1000.0);

impl Described for VegasConfig {
    const INFO: Algorithm = Algorithm {
        tag: "vegas",
        label: "Vegas",
        help: "Delay-based: keeps between α and β segments queued, from the gap between expected and actual rate (ns-3 TcpVegas).",
        fields: &[
            Field::new("alpha", "α", "segments", Kind::Int(SEGMENTS), "Grow the window when fewer than α segments are queued (2)."),
            Field::new("beta", "β", "segments", Kind::Int(SEGMENTS), "Shrink it when more than β are queued (4)."),
            Field::new("gamma", "γ", "segments", Kind::Int(SEGMENTS), "Leave slow start above γ (1)."),
            Field::new("use_smoothed_rtt", "Smoothed RTT", "", Kind::Bool, "Use the smoothed RTT as ns-3 does; off = each ACK's sample (Linux, the paper)."),
            Field::new("slow_start_every_other_rtt", "Slow start every other RTT", "", Kind::Bool, "Double the window every other RTT (the paper), not on every ACK (ns-3, Linux)."),
            Field::new("count_segments", "Count segments acknowledged", "", Kind::Bool, "Slow start by segments acknowledged (Linux, ns-3-dev); off = one MSS per ACK (ns-3 ≤ 3.44)."),
        ],
        flavours: &[],
    };

    fn check_more(&self, c: &mut Checker) {
        if self.beta < self.alpha {
            c.push("beta", self.beta, format!("{} to 1000 segments (at least alpha)", self.alpha));
        }
    }
}

impl CcaConfig for VegasConfig {
    fn build(&self, _rng: SimRng) -> Result<Box<dyn CongestionControl>, String> {
        Ok(Box::new(Vegas::new(self.clone())))
    }
}

#[derive(Clone, Debug)]
pub struct Vegas {
    cfg: VegasConfig,
    reno: NewReno,
    /// Smallest RTT ever seen (BaseRTT).
    base_rtt: Option<SimDuration>,
    /// Smallest RTT sample of the current round.
    round_min_rtt: Option<SimDuration>,
    /// RTT samples in the current round.
    cnt_rtt: u32,
    /// Vegas runs in the Open state only; elsewhere NewReno does (ns-3 `m_doingVegasNow`).
    doing_vegas_now: bool,
    /// The round ends when this segment is acknowledged (ns-3 `m_begSndNxt`).
    beg_snd_nxt: u32,
    /// Slow start may grow in this round (only every other round when so configured).
    ss_round: bool,
    last_diff: Option<u32>,
}

impl Vegas {
    pub fn new(cfg: VegasConfig) -> Vegas {
        Vegas {
            reno: NewReno::new(cfg.count_segments),
            cfg,
            base_rtt: None,
            round_min_rtt: None,
            cnt_rtt: 0,
            doing_vegas_now: true,
            beg_snd_nxt: 0,
            ss_round: true,
            last_diff: None,
        }
    }

    /// ns-3 `EnableVegas`: start a fresh round at the next segment to be sent.
    fn enable(&mut self, tcb: &Tcb) {
        self.doing_vegas_now = true;
        self.beg_snd_nxt = tcb.high_tx;
        self.cnt_rtt = 0;
        self.round_min_rtt = None;
    }

    /// diff = cwnd − ⌊cwnd·BaseRTT/RTT⌋ in segments (§3.2, with ns-3's truncation), and
    /// the target window ⌊cwnd·BaseRTT/RTT⌋.
    pub fn diff_segments(cwnd_segs: u32, base: SimDuration, rtt: SimDuration) -> (u32, u32) {
        let ratio = base.as_secs_f64() / rtt.as_secs_f64();
        let target = ((f64::from(cwnd_segs) * ratio) as u32).min(cwnd_segs);
        (cwnd_segs - target, target)
    }

    fn slow_start(&mut self, tcb: &mut Tcb, segments_acked: u32) {
        if self.ss_round || !self.cfg.slow_start_every_other_rtt {
            if self.cfg.count_segments {
                NewReno::slow_start(tcb, segments_acked);
            } else {
                NewReno::slow_start_per_ack(tcb, segments_acked);
            }
        }
    }

    /// ns-3 `GetSsThresh`: one segment below cwnd, never above the current ssthresh, never
    /// below two segments.
    fn reduced_ssthresh(tcb: &Tcb) -> u32 {
        tcb.ssthresh.min(tcb.cwnd.saturating_sub(tcb.mss)).max(2 * tcb.mss)
    }

    /// The once-per-round Vegas decision (§3.2, §3.3).
    fn adjust(&mut self, tcb: &mut Tcb, segments_acked: u32) {
        let (Some(base), Some(rtt)) = (self.base_rtt, self.round_min_rtt) else { return };
        let mss = tcb.mss;
        let seg_cwnd = tcb.cwnd_segments();
        let (diff, target) = Self::diff_segments(seg_cwnd, base, rtt);
        self.last_diff = Some(diff);
        if diff > self.cfg.gamma && tcb.cwnd < tcb.ssthresh {
            // §3.3: too fast for slow start; drop to the target window (+1 for the truncation)
            // and continue in congestion avoidance.
            tcb.cwnd = seg_cwnd.min(target + 1) * mss;
            tcb.ssthresh = Self::reduced_ssthresh(tcb);
        } else if tcb.cwnd < tcb.ssthresh {
            self.slow_start(tcb, segments_acked);
        } else if diff > self.cfg.beta {
            // §3.2: more than β segments queued: decrease linearly.
            tcb.cwnd = seg_cwnd.saturating_sub(1).max(1) * mss;
            tcb.ssthresh = Self::reduced_ssthresh(tcb);
        } else if diff < self.cfg.alpha {
            // §3.2: fewer than α queued: increase linearly.
            tcb.cwnd = (seg_cwnd + 1).saturating_mul(mss);
        }
        tcb.ssthresh = tcb.ssthresh.max(3 * (tcb.cwnd / 4));
    }
}

impl CongestionControl for Vegas {
    /// ns-3 `PktsAcked`: track BaseRTT and the round's minimum, count the samples.
    fn on_ack(&mut self, _tcb: &mut Tcb, ack: &AckSample) {
        let sample = if self.cfg.use_smoothed_rtt { ack.rtt } else { ack.latest_rtt };
        let Some(rtt) = sample.filter(|r| r.as_nanos() > 0) else { return };
        self.round_min_rtt = Some(self.round_min_rtt.map_or(rtt, |m| m.min(rtt)));
        self.base_rtt = Some(self.base_rtt.map_or(rtt, |m| m.min(rtt)));
        self.cnt_rtt += 1;
    }

    /// ns-3 `IncreaseWindow`.
    fn grow_window(&mut self, tcb: &mut Tcb, segments_acked: u32, now: SimTime) {
        if !self.doing_vegas_now {
            self.reno.grow_window(tcb, segments_acked, now);
            return;
        }
        if tcb.last_acked >= self.beg_snd_nxt {
            // A round has ended: decide once, then start the next round.
            self.beg_snd_nxt = tcb.high_tx;
            if self.cnt_rtt <= 2 {
                // Too few samples to be sure one is not from a delayed ACK: behave like NewReno.
                self.reno.grow_window(tcb, segments_acked, now);
            } else {
                self.adjust(tcb, segments_acked);
            }
            self.cnt_rtt = 0;
            self.round_min_rtt = None;
            self.ss_round = !self.ss_round;
        } else if tcb.cwnd < tcb.ssthresh {
            self.slow_start(tcb, segments_acked);
        }
    }

    /// ns-3 `TcpVegas::GetSsThresh`: max(min(ssthresh, cwnd − 1 segment), 2 segments).
    fn on_congestion(&mut self, tcb: &Tcb, _bytes_in_flight: u32, _kind: CongestionKind) -> u32 {
        Self::reduced_ssthresh(tcb)
    }

    /// ns-3 `CongestionStateSet`: Vegas restarts its round on entering Open, pauses otherwise.
    fn on_state(&mut self, tcb: &mut Tcb, state: CongState, _now: SimTime) {
        if state == CongState::Open {
            self.enable(tcb);
        } else {
            self.doing_vegas_now = false;
        }
    }

    fn metrics(&self) -> CcMetrics {
        CcMetrics::default()
            .with("base_rtt_ms", self.base_rtt.map(|r| r.as_secs_f64() * 1e3))
            .with("diff_segments", self.last_diff.map(f64::from))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::new_reno::tests::tcb;

    fn ms(v: u64) -> SimDuration {
        SimDuration::from_millis(v)
    }

    fn ack(rtt: SimDuration) -> AckSample {
        AckSample {
            now: SimTime::ZERO,
            segments_acked: 1,
            rtt: Some(ms(999)),
            latest_rtt: Some(rtt),
            ece: false,
        }
    }

    /// A Vegas that has learnt BaseRTT = `base` and sits at the start of a round.
    fn vegas_with_base(t: &mut Tcb, base: SimDuration) -> Vegas {
        vegas_with_base_cfg(t, base, VegasConfig::default())
    }

    /// Growth by segments acknowledged (Linux, ns-3-dev).
    fn counting() -> VegasConfig {
        VegasConfig { count_segments: true, ..VegasConfig::default() }
    }

    fn vegas_with_base_cfg(t: &mut Tcb, base: SimDuration, cfg: VegasConfig) -> Vegas {
        let mut v = Vegas::new(cfg);
        v.on_ack(t, &ack(base));
        t.high_tx = 100;
        t.last_acked = 0;
        v.on_state(t, CongState::Open, SimTime::ZERO); // round ends at segment 100
        v
    }

    /// One round whose RTT samples are `rtts`, closed by the ACK of segment 100.
    fn round(v: &mut Vegas, t: &mut Tcb, rtts: &[u64]) {
        for &r in rtts {
            v.on_ack(t, &ack(ms(r)));
        }
        t.last_acked = 100;
        t.high_tx = 200;
        v.grow_window(t, 1, SimTime::ZERO);
    }

    #[test]
    fn diff_is_the_number_of_segments_queued_rounded_up() {
        // cwnd 20, BaseRTT 10 ms, RTT 15 ms: target ⌊20·10/15⌋ = 13, diff 7.
        assert_eq!(Vegas::diff_segments(20, ms(10), ms(15)), (7, 13));
        assert_eq!(Vegas::diff_segments(20, ms(10), ms(10)), (0, 20));
    }

    #[test]
    fn vegas_cuts_window_when_diff_exceeds_beta() {
        let mut t = tcb(20, 10); // congestion avoidance
        let mut v = vegas_with_base(&mut t, ms(10));
        round(&mut v, &mut t, &[15, 16, 15]); // diff 7 > β = 4
        assert_eq!(t.cwnd, 19_000);
        assert_eq!(v.last_diff, Some(7));
    }

    #[test]
    fn vegas_grows_window_when_diff_below_alpha() {
        let mut t = tcb(20, 10);
        let mut v = vegas_with_base(&mut t, ms(10));
        round(&mut v, &mut t, &[10, 11, 10]); // diff 0 < α = 2
        assert_eq!(t.cwnd, 21_000);
    }

    #[test]
    fn vegas_holds_window_when_diff_is_between_alpha_and_beta() {
        let mut t = tcb(20, 10);
        let mut v = vegas_with_base(&mut t, ms(10));
        round(&mut v, &mut t, &[12, 12, 13]); // target ⌊20·10/12⌋ = 16, diff 4
        assert_eq!(t.cwnd, 20_000);
        assert_eq!(v.last_diff, Some(4));
    }

    #[test]
    fn vegas_uses_the_smallest_sample_of_the_round() {
        let mut t = tcb(20, 10);
        let mut v = vegas_with_base(&mut t, ms(10));
        round(&mut v, &mut t, &[30, 10, 30]); // min 10 ms: diff 0, grow
        assert_eq!(t.cwnd, 21_000);
    }

    #[test]
    fn vegas_leaves_slow_start_when_diff_exceeds_gamma() {
        let mut t = tcb(20, 1_000); // slow start
        let mut v = vegas_with_base(&mut t, ms(10));
        round(&mut v, &mut t, &[12, 12, 12]); // target 16, diff 4 > γ = 1
        assert_eq!(t.cwnd, 17_000, "cwnd = target + 1");
        assert!(t.cwnd >= t.ssthresh, "now in congestion avoidance");
        assert_eq!(t.ssthresh, 16_000);
    }

    #[test]
    fn vegas_slow_starts_while_diff_is_at_most_gamma() {
        let mut t = tcb(20, 1_000);
        let mut v = vegas_with_base_cfg(&mut t, ms(10), counting());
        round(&mut v, &mut t, &[10, 10, 10]);
        assert_eq!(t.cwnd, 21_000);
        // Within the round, every ACK grows the window.
        v.grow_window(&mut t, 2, SimTime::ZERO);
        assert_eq!(t.cwnd, 23_000);
    }

    #[test]
    fn vegas_slow_start_adds_one_segment_per_ack_as_ns3_344() {
        // ns-3 ≤ 3.44's TcpVegas calls TcpNewReno::SlowStart: one MSS per ACK.
        let mut t = tcb(20, 1_000);
        let mut v = vegas_with_base(&mut t, ms(10));
        round(&mut v, &mut t, &[10, 10, 10]);
        assert_eq!(t.cwnd, 21_000);
        v.grow_window(&mut t, 2, SimTime::ZERO);
        assert_eq!(t.cwnd, 22_000, "a delayed ACK of two segments adds one");
        // The NewReno fallback outside Open is per ACK too.
        v.on_state(&mut t, CongState::Loss, SimTime::ZERO);
        v.grow_window(&mut t, 3, SimTime::ZERO);
        assert_eq!(t.cwnd, 23_000);
    }

    #[test]
    fn vegas_behaves_like_newreno_with_fewer_than_three_rtt_samples() {
        let mut t = tcb(20, 10);
        let mut v = vegas_with_base_cfg(&mut t, ms(10), counting());
        round(&mut v, &mut t, &[15, 15]); // diff would be 7, but only two samples
        assert_eq!(t.cwnd, 20_000, "NewReno counts one ACK towards +1 per window");
        assert_eq!(v.last_diff, None);
    }

    #[test]
    fn vegas_waits_for_the_round_to_end_before_deciding() {
        let mut t = tcb(20, 10);
        let mut v = vegas_with_base(&mut t, ms(10));
        for r in [15, 15, 15] {
            v.on_ack(&mut t, &ack(ms(r)));
        }
        t.last_acked = 99;
        v.grow_window(&mut t, 1, SimTime::ZERO);
        assert_eq!(t.cwnd, 20_000);
    }

    #[test]
    fn vegas_ssthresh_on_loss_is_one_segment_below_cwnd_as_in_ns3() {
        let mut v = Vegas::new(VegasConfig::default());
        let t = tcb(20, 1_000);
        assert_eq!(v.on_congestion(&t, 20_000, CongestionKind::DupAck), 19_000);
        assert_eq!(v.on_congestion(&tcb(20, 8), 20_000, CongestionKind::DupAck), 8_000);
        assert_eq!(v.on_congestion(&tcb(2, 8), 2_000, CongestionKind::Rto), 2_000);
    }

    #[test]
    fn vegas_reads_the_smoothed_rtt_only_when_configured() {
        let mut t = tcb(20, 10);
        let cfg = VegasConfig { use_smoothed_rtt: true, ..VegasConfig::default() };
        let mut v = Vegas::new(cfg);
        v.on_ack(&mut t, &ack(ms(10)));
        assert_eq!(v.base_rtt, Some(ms(999)));
        let mut v = Vegas::new(VegasConfig::default());
        v.on_ack(&mut t, &ack(ms(10)));
        assert_eq!(v.base_rtt, Some(ms(10)));
    }

    #[test]
    fn slow_start_every_other_rtt_skips_growth_in_alternate_rounds() {
        let mut t = tcb(10, 1_000);
        let cfg = VegasConfig { slow_start_every_other_rtt: true, ..VegasConfig::default() };
        let mut v = Vegas::new(cfg);
        v.on_ack(&mut t, &ack(ms(10)));
        t.high_tx = 100;
        v.on_state(&mut t, CongState::Open, SimTime::ZERO);
        round(&mut v, &mut t, &[10, 10, 10]); // grows, and the next round is a pause
        assert_eq!(t.cwnd, 11_000);
        v.grow_window(&mut t, 3, SimTime::ZERO);
        assert_eq!(t.cwnd, 11_000, "no growth in the pause round");
    }

    #[test]
    fn outside_open_vegas_falls_back_to_newreno() {
        let mut t = tcb(20, 1_000);
        let mut v = vegas_with_base_cfg(&mut t, ms(10), counting());
        v.on_state(&mut t, CongState::Loss, SimTime::ZERO);
        v.grow_window(&mut t, 3, SimTime::ZERO);
        assert_eq!(t.cwnd, 23_000);
    }
}
