//! The sender's record of every segment between SND.UNA and SND.NXT (RFC 6675 §3-§4).
//!
//! Counters follow ns-3's `TcpTxBuffer`: pipe = sent − sacked − lost + retransmitted, where
//! a retransmitted lost segment keeps its lost mark and so counts once.

use super::rate::TxSnapshot;
use crate::net::SackBlock;
use crate::time::SimTime;
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, Default)]
struct Seg {
    sacked: bool,
    lost: bool,
    /// Retransmitted and not yet acknowledged or SACKed.
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
    /// Retransmitted segments not yet acknowledged or SACKed.
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
    }

    pub fn is_retransmitted(&self, seq: u32) -> bool {
        self.seg(seq).is_some_and(|s| s.retrans)
    }

    /// Applies SACK blocks (RFC 6675 `Update()`); returns segments newly SACKed and calls
    /// `delivered` for each of them.
    pub fn apply_sack(&mut self, blocks: &[SackBlock], mut delivered: impl FnMut(u32, &TxSnapshot)) -> u32 {
        let mut newly = 0;
        let nxt = self.nxt();
        for b in blocks {
            let (start, end) = (b.start.max(self.una), b.end.min(nxt));
            for seq in start..end {
                let i = (seq - self.una) as usize;
                let s = &mut self.segs[i];
                if s.sacked {
                    continue;
                }
                s.sacked = true;
                delivered(seq, &s.tx);
                newly += 1;
                self.sacked += 1;
                if s.lost {
                    s.lost = false;
                    self.lost -= 1;
                }
                if s.retrans {
                    s.retrans = false;
                    self.retrans -= 1;
                }
            }
            if end > start {
                self.high_sacked = self.high_sacked.max(end);
            }
        }
        newly
    }

    /// Marks as lost every un-SACKed segment with at least `dupthresh` SACKed segments above
    /// it (RFC 6675 `IsLost()` with full-sized segments). Returns segments newly marked.
    pub fn mark_lost_by_sack(&mut self, dupthresh: u32) -> u32 {
        let mut above = 0;
        let mut newly = 0;
        let top = self.high_sacked.saturating_sub(self.una) as usize;
        for i in (0..top.min(self.segs.len())).rev() {
            let s = &mut self.segs[i];
            if s.sacked {
                above += 1;
            } else if above >= dupthresh {
                if s.lost {
                    break; // everything below was marked when this one was
                }
                s.lost = true;
                self.lost += 1;
                newly += 1;
            }
        }
        newly
    }

    /// RFC 6675 `IsLost(seq)`.
    pub fn is_lost(&self, seq: u32, dupthresh: u32) -> bool {
        match self.seg(seq) {
            None => false,
            Some(s) if s.lost => true,
            Some(s) if s.sacked => false,
            Some(_) => {
                let from = (seq - self.una) as usize + 1;
                let top = self.high_sacked.saturating_sub(self.una) as usize;
                (from..top.min(self.segs.len())).filter(|&i| self.segs[i].sacked).count() as u32 >= dupthresh
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
        }
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
        self.high_sacked = self.high_sacked.max(self.una);
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
    pub fn next_seg(&self, can_send_new: bool, rule3: bool) -> Option<NextSeg> {
        if self.lost > 0 {
            // (1.b) While SACK information is outstanding, only holes below the highest SACK
            // qualify (ns-3 `NextSeg`); after a timeout the rest waits for new SACKs.
            let limit =
                if self.high_sacked > self.una { (self.high_sacked - self.una) as usize } else { usize::MAX };
            if let Some(i) = self.segs.iter().take(limit).position(|s| s.lost && !s.retrans) {
                return Some(NextSeg::Retransmit(self.una + i as u32));
            }
        }
        if can_send_new {
            return Some(NextSeg::New);
        }
        if rule3 && self.high_sacked > self.una {
            let top = (self.high_sacked - self.una) as usize;
            if let Some(i) = self.segs.iter().take(top).position(|s| !s.sacked && !s.retrans) {
                return Some(NextSeg::Retransmit(self.una + i as u32));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn rule_three_resends_unsacked_holes_when_nothing_is_known_lost() {
        let mut b = board(5);
        b.apply_sack(&[sack(2, 3)], |_, _| {});
        assert_eq!(b.next_seg(false, true), Some(NextSeg::Retransmit(0)));
        assert_eq!(b.next_seg(false, false), None);
    }
}
