//! The sender's record of every segment between SND.UNA and SND.NXT (RFC 6675 §3-§4).
//!
//! Counters follow ns-3's `TcpTxBuffer`: pipe = sent − sacked − lost + retransmitted, where
//! a retransmitted lost segment keeps its lost mark and so counts once. A retransmission
//! that is then SACKed leaves `retransmitted` (RFC 6675 `SetPipe()` counts only un-SACKed
//! octets; Linux's `tcp_sacktag_one` lowers `retrans_out`), unless
//! [`Scoreboard::set_sacked_retrans_in_pipe`] asks for ns-3.44's count, where
//! `TcpTxBuffer::Update` sets `m_sacked` but leaves `m_retrans` and its byte count until the
//! cumulative ACK (`RemoveFromCounts`), so such a segment stays in `BytesInFlight()`.
//!
//! Cost per ACK does not grow with the window (a 16 MB window of 100-byte segments is
//! 160 000 segments): SACKed segments are also kept as runs ([`Runs`]), so SACK processing
//! and the loss scan visit holes and runs rather than every segment, and `NextSeg()` reads a
//! cursor, the first segment neither SACKed nor retransmitted, that only moves forward
//! between timeouts. Two facts make the cursor enough:
//! - "covered" (SACKed or retransmitted) is only ever cleared by a timeout
//!   ([`Scoreboard::mark_all_lost`]), which resets the cursor;
//! - lost marks form a prefix of the un-SACKed segments: every un-SACKed segment below a
//!   lost one is lost (each way of marking, RFC 6675 `IsLost()` from the top down, the head,
//!   or everything after a timeout, keeps it), so if the first uncovered segment is not
//!   lost, no lost segment waits for retransmission.

use super::rate::TxSnapshot;
use super::runs::Runs;
use crate::net::SackBlock;
use crate::time::SimTime;
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, Default)]
struct Seg {
    sacked: bool,
    lost: bool,
    /// Retransmitted and not yet acknowledged (nor SACKed, unless ns-3's count).
    retrans: bool,
    ever_retransmitted: bool,
    sent_at: SimTime,
    /// Delivery-rate snapshot of the latest transmission.
    tx: TxSnapshot,
}

/// The next segment to send, per RFC 6675 `NextSeg()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextSeg {
    Retransmit(u32),
    New,
}

/// What a cumulative ACK removed from the scoreboard.
#[derive(Clone, Copy, Debug, Default)]
pub struct Advance {
    pub segments: u32,
    /// Of those, segments that had already been SACKed (delivered earlier).
    pub previously_sacked: u32,
    /// Whether any removed segment had been retransmitted.
    pub retransmitted: bool,
    /// Send time of the newest removed segment, if it was never retransmitted (Karn).
    pub unambiguous_sent_at: Option<SimTime>,
}

#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    una: u32,
    segs: VecDeque<Seg>,
    sacked: u32,
    lost: u32,
    retrans: u32,
    /// One past the highest SACKed segment (≤ nxt), or una when nothing is SACKed.
    high_sacked: u32,
    /// Without SACK: duplicate ACKs standing in for segments that left the network.
    reno_sacked: u32,
    /// The SACKed segments, as runs (mirrors `Seg::sacked`).
    sacked_runs: Runs,
    /// First segment ≥ una that is neither SACKed nor retransmitted (nxt if none).
    uncovered: u32,
    /// ns-3.44: a SACKed retransmission stays counted in `retrans` (and so in the pipe).
    sacked_retrans_in_pipe: bool,
}

impl Scoreboard {
    pub fn una(&self) -> u32 {
        self.una
    }
    pub fn nxt(&self) -> u32 {
        self.una + self.segs.len() as u32
    }
    pub fn outstanding(&self) -> u32 {
        self.segs.len() as u32
    }
    pub fn sacked(&self) -> u32 {
        self.sacked
    }
    /// ns-3.44's pipe: a retransmission keeps counting once it is SACKed, until the
    /// cumulative ACK covers it (`TcpTxBuffer::Update` leaves `m_retrans` as it is;
    /// `TcpConfig::sacked_retransmissions_in_pipe`). Off: RFC 6675 and Linux.
    pub fn set_sacked_retrans_in_pipe(&mut self, on: bool) {
        self.sacked_retrans_in_pipe = on;
    }

    /// Retransmitted segments not yet acknowledged (nor SACKed, unless ns-3's count).
    pub fn retransmitted(&self) -> u32 {
        self.retrans
    }
    pub fn lost(&self) -> u32 {
        self.lost
    }
    /// Without SACK: duplicate ACKs currently standing in for delivered segments.
    pub fn reno_sacked(&self) -> u32 {
        self.reno_sacked
    }

    /// RFC 6675 `SetPipe()`, in segments.
    pub fn pipe(&self) -> u32 {
        (self.outstanding() + self.retrans).saturating_sub(self.sacked + self.lost + self.reno_sacked)
    }

    fn seg(&self, seq: u32) -> Option<&Seg> {
        seq.checked_sub(self.una).and_then(|i| self.segs.get(i as usize))
    }

    fn seg_mut(&mut self, seq: u32) -> Option<&mut Seg> {
        seq.checked_sub(self.una).and_then(|i| self.segs.get_mut(i as usize))
    }

    /// Records a first transmission; returns its segment index.
    pub fn push_new(&mut self, now: SimTime, tx: TxSnapshot) -> u32 {
        let seq = self.nxt();
        self.segs.push_back(Seg { sent_at: now, tx, ..Seg::default() });
        seq
    }

    pub fn on_retransmit(&mut self, seq: u32, now: SimTime, tx: TxSnapshot) {
        let mut add = false;
        if let Some(s) = self.seg_mut(seq) {
            s.sent_at = now;
            s.tx = tx;
            s.ever_retransmitted = true;
            if !s.retrans {
                s.retrans = true;
                add = true;
            }
        }
        if add {
            self.retrans += 1;
        }
        self.settle_cursor();
    }

    /// Moves the uncovered cursor past SACKed or retransmitted segments. Amortised O(1):
    /// between timeouts the cursor only moves forward.
    fn settle_cursor(&mut self) {
        let nxt = self.nxt();
        let mut c = self.uncovered.max(self.una);
        while c < nxt {
            let s = &self.segs[(c - self.una) as usize];
            if !(s.sacked || s.retrans) {
                break;
            }
            c += 1;
        }
        self.uncovered = c;
    }

    /// Starts loading the records an ACK for `ack` with newest SACKed segment `sacked` will
    /// touch, and where the next new segment goes (hints for the simulator, which sees the
    /// ACK coming; with thousands of flows the record buffer is cold).
    #[inline]
    pub fn prefetch_for_ack(&self, sacked: Option<u32>) {
        if let Some(s) = self.segs.front() {
            crate::hint::prefetch_lines(s, 2);
        }
        if let Some(s) = sacked.and_then(|seq| self.seg(seq)) {
            crate::hint::prefetch(s);
        }
        if let Some(s) = self.segs.back() {
            crate::hint::prefetch_lines(s, 2);
        }
    }

    pub fn is_retransmitted(&self, seq: u32) -> bool {
        self.seg(seq).is_some_and(|s| s.retrans)
    }

    /// Applies SACK blocks (RFC 6675 `Update()`); returns segments newly SACKed and calls
    /// `delivered` for each of them.
    /// Visits only segments not yet SACKed: O(log runs) per block plus O(1) per new segment.
    pub fn apply_sack(&mut self, blocks: &[SackBlock], mut delivered: impl FnMut(u32, &TxSnapshot)) -> u32 {
        let mut newly = 0;
        let (una, nxt) = (self.una, self.nxt());
        for b in blocks {
            let (start, end) = (b.start.max(una), b.end.min(nxt));
            let keep_retrans = self.sacked_retrans_in_pipe;
            let (segs, sacked, lost, retrans) =
                (&mut self.segs, &mut self.sacked, &mut self.lost, &mut self.retrans);
            self.sacked_runs.insert(start, end, |seq| {
                let s = &mut segs[(seq - una) as usize];
                debug_assert!(!s.sacked, "the runs mirror the SACK marks");
                s.sacked = true;
                delivered(seq, &s.tx);
                newly += 1;
                *sacked += 1;
                if s.lost {
                    s.lost = false;
                    *lost -= 1;
                }
                if s.retrans && !keep_retrans {
                    s.retrans = false;
                    *retrans -= 1;
                }
            });
            if end > start {
                self.high_sacked = self.high_sacked.max(end);
            }
        }
        self.settle_cursor();
        newly
    }

    /// Marks as lost every un-SACKed segment with at least `dupthresh` SACKed segments above
    /// it (RFC 6675 `IsLost()` with full-sized segments). Returns segments newly marked.
    ///
    /// Walks the holes between SACKed runs from the top down: the first `dupthresh` runs, then
    /// only holes whose segments it marks, so the cost is O((dupthresh + newly marked) · log).
    pub fn mark_lost_by_sack(&mut self, dupthresh: u32) -> u32 {
        let mut above = 0u32;
        let mut newly = 0;
        let una = self.una;
        let top = self.high_sacked.max(una).min(self.nxt());
        let mut pos = top;
        let mut runs = self.sacked_runs.below_rev(top);
        loop {
            let run = runs.next();
            // The hole [lo, pos) lies between this run and the one above (or `top`).
            let lo = run.map_or(una, |(_, end)| end);
            if above >= dupthresh {
                for seq in (lo..pos).rev() {
                    let s = &mut self.segs[(seq - una) as usize];
                    if s.lost {
                        return newly; // everything below was marked when this one was
                    }
                    s.lost = true;
                    self.lost += 1;
                    newly += 1;
                }
            }
            match run {
                Some((start, end)) => {
                    above += end - start;
                    pos = start;
                }
                None => return newly,
            }
        }
    }

    /// RFC 6675 `IsLost(seq)`.
    pub fn is_lost(&self, seq: u32, dupthresh: u32) -> bool {
        match self.seg(seq) {
            None => false,
            Some(s) if s.lost => true,
            Some(s) if s.sacked => false,
            Some(_) => {
                let top = self.high_sacked.min(self.nxt());
                self.sacked_runs.count_in(seq + 1, top, dupthresh) >= dupthresh
            }
        }
    }

    pub fn mark_head_lost(&mut self) {
        if let Some(s) = self.segs.front_mut() {
            if !s.lost && !s.sacked {
                s.lost = true;
                self.lost += 1;
            }
        }
    }

    /// After a timeout every un-SACKed segment is presumed lost and due for retransmission.
    /// SACK marks are kept (RFC 6675 §5.1 with the reneging check the errata allows)
    /// unless `forget_sack`.
    pub fn mark_all_lost(&mut self, forget_sack: bool) {
        for s in self.segs.iter_mut() {
            if forget_sack && s.sacked {
                s.sacked = false;
            }
            if !s.sacked {
                s.lost = true;
            }
            s.retrans = false;
        }
        self.retrans = 0;
        self.reno_sacked = 0;
        self.sacked = self.segs.iter().filter(|s| s.sacked).count() as u32;
        self.lost = self.outstanding() - self.sacked;
        if forget_sack {
            self.high_sacked = self.una;
            self.sacked_runs.clear();
        }
        // Retransmission marks are gone: the cursor starts again from the head.
        self.uncovered = self.una;
        self.settle_cursor();
    }

    /// Removes segments below the cumulative ACK, calling `delivered` for each one not
    /// already SACKed.
    pub fn advance(&mut self, ack: u32, mut delivered: impl FnMut(u32, &TxSnapshot)) -> Advance {
        let mut a = Advance::default();
        let ack = ack.min(self.nxt());
        while self.una < ack {
            let s = self.segs.pop_front().expect("segment below nxt");
            let seq = self.una;
            self.una += 1;
            a.segments += 1;
            if s.sacked {
                a.previously_sacked += 1;
                self.sacked -= 1;
            } else {
                delivered(seq, &s.tx);
            }
            if s.lost {
                self.lost -= 1;
            }
            if s.retrans {
                self.retrans -= 1;
            }
            a.retransmitted |= s.ever_retransmitted;
            a.unambiguous_sent_at = (!s.ever_retransmitted).then_some(s.sent_at);
        }
        // A window that shrank far below its peak gives the memory back (10 000 flows that
        // once slow-started to a large window would otherwise each keep it).
        let cap = self.segs.capacity();
        if cap > 64 && self.segs.len() < cap / 8 {
            self.segs.shrink_to(self.segs.len() * 2);
        }
        self.high_sacked = self.high_sacked.max(self.una);
        self.sacked_runs.remove_below(self.una);
        self.settle_cursor();
        // Duplicate ACKs counted for segments now cumulatively acknowledged are spent.
        self.reno_sacked = self.reno_sacked.saturating_sub(a.segments.saturating_sub(1));
        a
    }

    /// RFC 6582/ns-3 `AddRenoSack`: without SACK a duplicate ACK means one more segment left.
    pub fn add_reno_sack(&mut self) {
        if self.reno_sacked + self.sacked + self.lost < self.outstanding() {
            self.reno_sacked += 1;
        }
    }

    /// RFC 6675 `NextSeg()`: (1) the first lost segment not yet retransmitted; (2) new
    /// data; (3) in recovery, an un-SACKed segment below the highest SACK not yet resent.
    /// O(1): both candidates are the uncovered cursor (see the module docs).
    pub fn next_seg(&self, can_send_new: bool, rule3: bool) -> Option<NextSeg> {
        let c = self.uncovered;
        let first_uncovered = self.seg(c);
        if self.lost > 0 {
            // (1.b) While SACK information is outstanding, only holes below the highest SACK
            // qualify (ns-3 `NextSeg`); after a timeout the rest waits for new SACKs.
            let below_limit = self.high_sacked <= self.una || c < self.high_sacked;
            if below_limit && first_uncovered.is_some_and(|s| s.lost) {
                return Some(NextSeg::Retransmit(c));
            }
        }
        if can_send_new {
            return Some(NextSeg::New);
        }
        if rule3 && self.high_sacked > self.una && c < self.high_sacked && first_uncovered.is_some() {
            return Some(NextSeg::Retransmit(c));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::scoreboard_model::ModelScoreboard;
    use super::*;
    use proptest::prelude::*;

    fn board(n: u32) -> Scoreboard {
        let mut b = Scoreboard::default();
        for _ in 0..n {
            b.push_new(SimTime::ZERO, TxSnapshot::default());
        }
        b
    }

    fn sack(start: u32, end: u32) -> SackBlock {
        SackBlock { start, end }
    }

    #[test]
    fn a_segment_is_lost_once_three_segments_above_it_are_sacked() {
        let mut b = board(10);
        b.apply_sack(&[sack(1, 3)], |_, _| {});
        assert_eq!(b.mark_lost_by_sack(3), 0);
        b.apply_sack(&[sack(1, 4)], |_, _| {});
        assert_eq!(b.mark_lost_by_sack(3), 1);
        assert!(b.is_lost(0, 3));
        assert_eq!(b.next_seg(true, false), Some(NextSeg::Retransmit(0)));
    }

    #[test]
    fn pipe_counts_a_retransmitted_lost_segment_once() {
        let mut b = board(10);
        b.apply_sack(&[sack(1, 4)], |_, _| {});
        b.mark_lost_by_sack(3);
        assert_eq!(b.pipe(), 10 - 3 - 1);
        b.on_retransmit(0, SimTime(5), TxSnapshot::default());
        assert_eq!(b.pipe(), 10 - 3);
    }

    #[test]
    fn ns3_keeps_a_sacked_retransmission_in_the_pipe_until_the_cumulative_ack() {
        // Holes 0 and 1 retransmitted; the retransmission of 1 is SACKed while 0 is still
        // missing. RFC 6675 / Linux: it leaves the pipe; ns-3.44 (`TcpTxBuffer::Update`
        // leaves m_retrans): it stays until the cumulative ACK.
        let pipe_after = |ns3: bool| {
            let mut b = board(10);
            b.set_sacked_retrans_in_pipe(ns3);
            b.apply_sack(&[sack(2, 6)], |_, _| {});
            b.mark_lost_by_sack(3);
            b.on_retransmit(0, SimTime(5), TxSnapshot::default());
            b.on_retransmit(1, SimTime(5), TxSnapshot::default());
            b.apply_sack(&[sack(1, 6)], |_, _| {});
            let before_ack = b.pipe();
            b.advance(6, |_, _| {});
            (before_ack, b.pipe(), b.retransmitted())
        };
        // 10 sent, 5 SACKed, 1 lost (segment 0, retransmitted): RFC 5, ns-3 6.
        assert_eq!(pipe_after(false), (5, 4, 0));
        assert_eq!(pipe_after(true), (6, 4, 0));
    }

    #[test]
    fn cumulative_ack_removes_segments_and_their_marks() {
        let mut b = board(6);
        b.apply_sack(&[sack(2, 5)], |_, _| {});
        b.mark_lost_by_sack(3);
        b.on_retransmit(0, SimTime(1), TxSnapshot::default());
        b.on_retransmit(1, SimTime(1), TxSnapshot::default());
        let a = b.advance(5, |_, _| {});
        assert_eq!((a.segments, a.previously_sacked), (5, 3));
        assert!(a.retransmitted);
        assert_eq!((b.sacked(), b.lost(), b.pipe()), (0, 0, 1));
    }

    #[test]
    fn karn_newest_acked_segment_must_not_be_a_retransmission() {
        let mut b = board(2);
        b.on_retransmit(1, SimTime(3), TxSnapshot::default());
        assert_eq!(b.advance(2, |_, _| {}).unambiguous_sent_at, None);
        let mut b = board(2);
        assert_eq!(b.advance(2, |_, _| {}).unambiguous_sent_at, Some(SimTime::ZERO));
    }

    #[test]
    fn timeout_marks_everything_unsacked_lost_and_resends_from_the_head() {
        let mut b = board(5);
        b.apply_sack(&[sack(3, 4)], |_, _| {});
        b.mark_all_lost(false);
        assert_eq!((b.lost(), b.sacked(), b.pipe()), (4, 1, 0));
        assert_eq!(b.next_seg(false, false), Some(NextSeg::Retransmit(0)));
    }

    /// One operation of the differential test, with raw numbers mapped into the window.
    #[derive(Clone, Debug)]
    enum Op {
        Push(u32),
        Sack(Vec<(u32, u32)>),
        MarkLost(u32),
        MarkHead,
        AllLost(bool),
        Advance(u32),
        Retransmit(u32),
        RetransmitNext(bool, bool),
        RenoSack,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            3 => (1u32..6).prop_map(Op::Push),
            4 => prop::collection::vec((0u32..40, 0u32..8), 1..4).prop_map(Op::Sack),
            2 => (1u32..5).prop_map(Op::MarkLost),
            1 => Just(Op::MarkHead),
            1 => any::<bool>().prop_map(Op::AllLost),
            2 => (0u32..40).prop_map(Op::Advance),
            1 => (0u32..40).prop_map(Op::Retransmit),
            3 => (any::<bool>(), any::<bool>()).prop_map(|(a, b)| Op::RetransmitNext(a, b)),
            1 => Just(Op::RenoSack),
        ]
    }

    fn snap(t: u64) -> TxSnapshot {
        TxSnapshot { sent_time: SimTime(t), ..TxSnapshot::default() }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        /// The run-based scoreboard gives the linear-scan model's answers, callbacks and
        /// counters after any sequence of operations.
        #[test]
        fn fast_scoreboard_matches_the_linear_scan_model(ops in prop::collection::vec(op(), 1..120)) {
            let (mut f, mut m) = (Scoreboard::default(), ModelScoreboard::default());
            for (t, op) in ops.into_iter().enumerate() {
                let now = SimTime(t as u64);
                let (una, nxt) = (m.una(), m.nxt());
                let in_window = |x: u32| una.saturating_sub(2) + x % (nxt - una + 4);
                match op {
                    Op::Push(k) => {
                        for _ in 0..k {
                            prop_assert_eq!(f.push_new(now, snap(t as u64)), m.push_new(now, snap(t as u64)));
                        }
                    }
                    Op::Sack(raw) => {
                        let blocks: Vec<SackBlock> =
                            raw.iter().map(|&(a, l)| SackBlock { start: in_window(a), end: in_window(a) + l }).collect();
                        let (mut df, mut dm) = (Vec::new(), Vec::new());
                        let nf = f.apply_sack(&blocks, |q, tx| df.push((q, tx.sent_time)));
                        let nm = m.apply_sack(&blocks, |q, tx| dm.push((q, tx.sent_time)));
                        prop_assert_eq!((nf, df), (nm, dm));
                    }
                    Op::MarkLost(d) => prop_assert_eq!(f.mark_lost_by_sack(d), m.mark_lost_by_sack(d)),
                    Op::MarkHead => {
                        f.mark_head_lost();
                        m.mark_head_lost();
                    }
                    Op::AllLost(forget) => {
                        f.mark_all_lost(forget);
                        m.mark_all_lost(forget);
                    }
                    Op::Advance(x) => {
                        let ack = una + x % (nxt - una + 2);
                        let (mut df, mut dm) = (Vec::new(), Vec::new());
                        let af = f.advance(ack, |q, tx| df.push((q, tx.sent_time)));
                        let am = m.advance(ack, |q, tx| dm.push((q, tx.sent_time)));
                        prop_assert_eq!(
                            (af.segments, af.previously_sacked, af.retransmitted, af.unambiguous_sent_at, df),
                            (am.segments, am.previously_sacked, am.retransmitted, am.unambiguous_sent_at, dm)
                        );
                    }
                    Op::Retransmit(x) => {
                        let seq = in_window(x);
                        f.on_retransmit(seq, now, snap(t as u64));
                        m.on_retransmit(seq, now, snap(t as u64));
                    }
                    Op::RetransmitNext(new, rule3) => {
                        if let Some(NextSeg::Retransmit(seq)) = m.next_seg(new, rule3) {
                            f.on_retransmit(seq, now, snap(t as u64));
                            m.on_retransmit(seq, now, snap(t as u64));
                        }
                    }
                    Op::RenoSack => {
                        f.add_reno_sack();
                        m.add_reno_sack();
                    }
                }
                prop_assert_eq!((f.una(), f.nxt(), f.sacked(), f.lost()), (m.una(), m.nxt(), m.sacked(), m.lost()));
                prop_assert_eq!((f.retransmitted(), f.reno_sacked(), f.pipe()), (m.retransmitted(), m.reno_sacked(), m.pipe()));
                for (new, rule3) in [(false, false), (false, true), (true, false), (true, true)] {
                    prop_assert_eq!(f.next_seg(new, rule3), m.next_seg(new, rule3));
                }
                for seq in m.una().saturating_sub(1)..m.nxt() + 1 {
                    prop_assert_eq!(f.is_retransmitted(seq), m.is_retransmitted(seq));
                    for d in 1..4 {
                        prop_assert_eq!(f.is_lost(seq, d), m.is_lost(seq, d), "is_lost({}, {})", seq, d);
                    }
                }
            }
        }
    }

    #[test]
    fn loss_scan_and_next_seg_do_not_walk_a_large_sacked_window() {
        // One hole under 200 000 SACKed segments, one ACK at a time: linear scans would
        // take ~10^10 steps; the runs make it instant (a hang, not a timing, is the failure).
        let mut b = board(200_001);
        for top in 2..200_001 {
            b.apply_sack(&[sack(1, top)], |_, _| {});
            b.mark_lost_by_sack(3);
            assert!(b.is_lost(0, 3) == (top >= 4));
            let _ = b.next_seg(false, true);
        }
        assert_eq!(b.next_seg(false, true), Some(NextSeg::Retransmit(0)));
    }

    #[test]
    fn rule_three_resends_unsacked_holes_when_nothing_is_known_lost() {
        let mut b = board(5);
        b.apply_sack(&[sack(2, 3)], |_, _| {});
        assert_eq!(b.next_seg(false, true), Some(NextSeg::Retransmit(0)));
        assert_eq!(b.next_seg(false, false), None);
    }
}
