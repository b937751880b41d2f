//! Buffer limits in packets, bytes or switch cells, and the occupancy they are checked against.

use serde::{Deserialize, Serialize};

/// A queue's capacity. A packet occupies ceil(bytes / cell_bytes) cells (Tofino's buffer unit).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum QueueLimit {
    Packets(u32),
    Bytes(u64),
    Cells { cells: u32, cell_bytes: u32 },
}

impl Default for QueueLimit {
    fn default() -> Self {
        QueueLimit::Packets(100)
    }
}

/// What a queue currently holds, in all three units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Occupancy {
    pub packets: u32,
    pub bytes: u64,
    pub cells: u64,
}

impl QueueLimit {
    pub fn cell_bytes(&self) -> Option<u32> {
        match *self {
            QueueLimit::Cells { cell_bytes, .. } => Some(cell_bytes),
            _ => None,
        }
    }

    /// Cells a packet of `bytes` takes (1 cell = 1 byte when the limit is not in cells).
    pub fn cells_of(&self, bytes: u32) -> u64 {
        match *self {
            QueueLimit::Cells { cell_bytes, .. } => cells_for(bytes, cell_bytes),
            _ => u64::from(bytes),
        }
    }

    /// Would a packet of `bytes` still fit on top of `occ`?
    pub fn admits(&self, occ: &Occupancy, bytes: u32) -> bool {
        match *self {
            QueueLimit::Packets(p) => occ.packets < p,
            QueueLimit::Bytes(b) => occ.bytes + u64::from(bytes) <= b,
            QueueLimit::Cells { cells, .. } => occ.cells + self.cells_of(bytes) <= u64::from(cells),
        }
    }

    /// Does `occ` hold more than the limit allows? (For discs that accept an arrival first and
    /// then drop queued packets until they fit again, as FQ-CoDel does.)
    pub fn exceeded_by(&self, occ: &Occupancy) -> bool {
        match *self {
            QueueLimit::Packets(p) => occ.packets > p,
            QueueLimit::Bytes(b) => occ.bytes > b,
            QueueLimit::Cells { cells, .. } => occ.cells > u64::from(cells),
        }
    }

    /// The queue length in this limit's own unit (what RED averages).
    pub fn length(&self, occ: &Occupancy) -> f64 {
        match self {
            QueueLimit::Packets(_) => f64::from(occ.packets),
            QueueLimit::Bytes(_) => occ.bytes as f64,
            QueueLimit::Cells { .. } => occ.cells as f64,
        }
    }

    pub fn unit_name(&self) -> &'static str {
        match self {
            QueueLimit::Packets(_) => "packets",
            QueueLimit::Bytes(_) => "bytes",
            QueueLimit::Cells { .. } => "cells",
        }
    }
}

/// ceil(bytes / cell_bytes): a partly filled cell is still a whole cell.
pub fn cells_for(bytes: u32, cell_bytes: u32) -> u64 {
    u64::from(bytes).div_ceil(u64::from(cell_bytes.max(1)))
}

impl Occupancy {
    pub fn add(&mut self, bytes: u32, cells: u64) {
        self.packets += 1;
        self.bytes += u64::from(bytes);
        self.cells += cells;
    }
    pub fn remove(&mut self, bytes: u32, cells: u64) {
        self.packets -= 1;
        self.bytes -= u64::from(bytes);
        self.cells -= cells;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_partly_filled_cell_counts_as_a_whole_cell() {
        assert_eq!(cells_for(1, 160), 1);
        assert_eq!(cells_for(160, 160), 1);
        assert_eq!(cells_for(161, 160), 2);
        assert_eq!(cells_for(1514, 80), 19);
    }

    #[test]
    fn packet_limit_admits_until_full() {
        let l = QueueLimit::Packets(2);
        let mut o = Occupancy::default();
        assert!(l.admits(&o, 1500));
        o.add(1500, 1500);
        o.add(1500, 1500);
        assert!(!l.admits(&o, 40));
    }

    #[test]
    fn a_full_queue_is_not_exceeded_until_one_more_arrives() {
        let l = QueueLimit::Bytes(3000);
        let mut o = Occupancy::default();
        o.add(1500, 1500);
        o.add(1500, 1500);
        assert!(!l.exceeded_by(&o));
        o.add(1, 1);
        assert!(l.exceeded_by(&o));
    }

    #[test]
    fn cell_limit_counts_rounded_cells() {
        let l = QueueLimit::Cells { cells: 10, cell_bytes: 160 };
        let mut o = Occupancy::default();
        o.add(1514, l.cells_of(1514)); // 10 cells
        assert_eq!(o.cells, 10);
        assert!(!l.admits(&o, 1));
    }
}
