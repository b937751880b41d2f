//! The scoreboard as first written: every operation scans the segments it concerns, one by
//! one. Too slow for large windows, kept as the executable specification the fast
//! [`super::scoreboard::Scoreboard`] is checked against (same results for any sequence of
//! operations).

use super::rate::TxSnapshot;
use super::scoreboard::{Advance, NextSeg};
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

#[derive(Clone, Debug, Default)]
pub struct ModelScoreboard {
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

impl ModelScoreboard {
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
