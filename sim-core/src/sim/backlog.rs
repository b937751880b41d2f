//! What each flow has waiting at the bottleneck, in packets and in cells: the per-flow
//! backlog Warbler clusters on and the samples report.

use crate::queue::cells_for;

#[derive(Debug)]
pub(super) struct Backlog {
    pub packets: Vec<u32>,
    pub cells: Vec<u64>,
    /// Cell size (the switch's or the limit's; else Tofino 2's).
    cell_bytes: u32,
}

impl Backlog {
    pub fn new(flows: usize, cell_bytes: u32) -> Backlog {
        Backlog { packets: vec![0; flows], cells: vec![0; flows], cell_bytes }
    }

    /// A packet of `flow` and `bytes` joined the bottleneck's queue.
    pub fn add(&mut self, flow: u32, bytes: u32) {
        self.packets[flow as usize] += 1;
        self.cells[flow as usize] += cells_for(bytes, self.cell_bytes);
    }

    /// A packet left it (sent or dropped from the queue).
    pub fn remove(&mut self, flow: u32, bytes: u32) {
        self.packets[flow as usize] -= 1;
        self.cells[flow as usize] -= cells_for(bytes, self.cell_bytes);
    }
}
