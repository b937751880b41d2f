//! What each flow has waiting at the bottleneck, in packets and in cells (the per-flow
//! backlog Warbler clusters on and the samples report), and how long its packets that
//! started on the wire since the last sample waited there (the delay-over-time chart).

use crate::queue::cells_for;
use crate::time::SimDuration;

/// One flow at the bottleneck: one record, so a packet's arrival or departure touches one
/// cache line of it at 10 000 flows.
#[derive(Clone, Copy, Debug, Default)]
struct AtBottleneck {
    packets: u32,
    /// Packets that started transmission since the last sample, and their summed wait.
    sent: u32,
    cells: u64,
    waited_ns: u64,
    /// Payload bytes the bottleneck has begun to send, all run long (the window's start).
    departed: u64,
}

#[derive(Debug)]
pub(super) struct Backlog {
    flows: Vec<AtBottleneck>,
    /// Cell size (the switch's or the limit's; else Tofino 2's).
    cell_bytes: u32,
}

impl Backlog {
    pub fn new(flows: usize, cell_bytes: u32) -> Backlog {
        Backlog { flows: vec![AtBottleneck::default(); flows], cell_bytes }
    }

    /// A packet of `flow` and `bytes` joined the bottleneck's queue.
    pub fn add(&mut self, flow: u32, bytes: u32) {
        let f = &mut self.flows[flow as usize];
        f.packets += 1;
        f.cells += cells_for(bytes, self.cell_bytes);
    }

    /// A packet was dropped from the queue.
    pub fn remove(&mut self, flow: u32, bytes: u32) {
        let f = &mut self.flows[flow as usize];
        f.packets -= 1;
        f.cells -= cells_for(bytes, self.cell_bytes);
    }

    /// A packet started on the wire after waiting `waited` (disc and device queue).
    pub fn sent(&mut self, flow: u32, bytes: u32, payload: u32, waited: SimDuration) {
        self.remove(flow, bytes);
        let f = &mut self.flows[flow as usize];
        f.sent += 1;
        f.waited_ns += waited.as_nanos();
        f.departed += u64::from(payload);
    }

    /// Per flow, the payload bytes the bottleneck has begun to send.
    pub fn departed(&self) -> Vec<u64> {
        self.flows.iter().map(|f| f.departed).collect()
    }

    pub fn packets(&self) -> Vec<u32> {
        self.flows.iter().map(|f| f.packets).collect()
    }

    pub fn cells(&self) -> Vec<u64> {
        self.flows.iter().map(|f| f.cells).collect()
    }

    /// Per flow, the mean wait (ms) of its packets sent since the last call (`None`: none
    /// was sent), and starts the next interval.
    pub fn take_waits_ms(&mut self) -> Vec<Option<f32>> {
        self.flows
            .iter_mut()
            .map(|f| {
                let mean = (f.sent > 0).then(|| (f.waited_ns as f64 / f64::from(f.sent) / 1e6) as f32);
                (f.sent, f.waited_ns) = (0, 0);
                mean
            })
            .collect()
    }
}
