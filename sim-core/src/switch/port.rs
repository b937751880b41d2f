//! The multi-queue port's data plane: classification, admission in cells, scheduling,
//! per-flow registers; and the control plane's cadence, driven by the engine's wake-ups.

use super::cms::CountMinSketch;
use super::scheduler::Scheduler;
use super::SwitchConfig;
use crate::control::{ControlPlaneApp, FlowRegisters, RegisterView, TableWrite};
use crate::queue::{cells_for, DropReason, LongFlowCalls, Occupancy, QItem, QdiscCtx, QueueDisc, QueueLimit};
use crate::rng::SimRng;
use crate::time::{SimDuration, SimTime};
use crate::trace::{LogRecord, SeriesInfo};
use std::collections::{BTreeMap, VecDeque};

#[derive(Clone, Debug, Default)]
struct FlowState {
    /// Queue in the Flow Distribution Table (used once the flow is long).
    table_queue: Option<u32>,
    long: bool,
    backlog_cells: u64,
    backlog_wma: f64,
    packets_in_period: u64,
    bytes_in_period: u64,
    /// The connection it carries now, and its packets counted exactly (the truth the
    /// sketch's calls are held to).
    conn: u8,
    packets_of_conn: u64,
}

impl FlowState {
    /// Its connection's call against the truth, added to `calls`.
    fn tally(&self, threshold: u32, calls: &mut LongFlowCalls) {
        if self.packets_of_conn == 0 {
            return;
        }
        let long = self.packets_of_conn > u64::from(threshold);
        *match (long, self.long) {
            (true, true) => &mut calls.hits,
            (false, true) => &mut calls.false_alarms,
            (true, false) => &mut calls.misses,
            (false, false) => &mut calls.mice,
        } += 1;
    }
}

#[derive(Debug)]
pub struct MultiQueuePort {
    cfg: SwitchConfig,
    queues: Vec<VecDeque<QItem>>,
    queue_cells: Vec<u64>,
    occ: Occupancy,
    weights: Vec<u32>,
    scheduler: Scheduler,
    flows: BTreeMap<u32, FlowState>,
    cms: CountMinSketch,
    /// Next queue for round-robin mapping of newly detected long flows.
    next_rr: u32,
    /// The calls on connections that have ended (a flow's next connection began).
    calls: LongFlowCalls,
    app: Box<dyn ControlPlaneApp>,
    /// Table writes waiting for the compute latency to pass, in the order they were made.
    pending: VecDeque<(SimTime, TableWrite)>,
    period: SimDuration,
    next_tick: SimTime,
}

impl MultiQueuePort {
    pub fn new(cfg: &SwitchConfig, mut rng: SimRng) -> MultiQueuePort {
        let k = cfg.queues.max(1) as usize;
        let weights = (0..k).map(|q| cfg.weights.get(q).copied().unwrap_or(1).max(1)).collect();
        let period = SimDuration::from_secs_f64(cfg.control_period_ms / 1e3).max(SimDuration::from_millis(1));
        let cms_seed = rng.next_u64();
        MultiQueuePort {
            queues: vec![VecDeque::new(); k],
            queue_cells: vec![0; k],
            occ: Occupancy::default(),
            weights,
            scheduler: Scheduler::new(&cfg.scheduler, k),
            flows: BTreeMap::new(),
            cms: CountMinSketch::new(cfg.cms_width as usize, cfg.cms_depth as usize, cms_seed),
            next_rr: 0,
            calls: LongFlowCalls::default(),
            app: cfg.control.build(rng.next_u64(), k as u32),
            pending: VecDeque::new(),
            period,
            next_tick: SimTime::ZERO + period,
            cfg: cfg.clone(),
        }
    }

    fn k(&self) -> u32 {
        self.queues.len() as u32
    }

    fn cells(&self, bytes: u32) -> u64 {
        cells_for(bytes, self.cfg.cell_bytes)
    }

    pub fn queue_cells(&self) -> &[u64] {
        &self.queue_cells
    }

    pub fn weights(&self) -> &[u32] {
        &self.weights
    }

    /// End of a control period: update the registers' averages, run the app on a snapshot
    /// and queue its writes for `now + compute latency`.
    fn control_tick(&mut self, now: SimTime) {
        let w = self.cfg.backlog_wma_weight.clamp(0.0, 1.0);
        let mut regs = Vec::new();
        for (&flow, st) in self.flows.iter_mut() {
            st.backlog_wma = w * st.backlog_cells as f64 + (1.0 - w) * st.backlog_wma;
            // §6.2 "double check": a flow has ended only when it sent nothing this period
            // and holds nothing in the buffer.
            let active = st.packets_in_period > 0 || st.backlog_cells > 0;
            if st.long && active {
                regs.push(FlowRegisters {
                    flow,
                    queue: st.table_queue.unwrap_or(self.cfg.default_queue),
                    backlog_cells: st.backlog_cells,
                    backlog_wma_cells: st.backlog_wma,
                    packets_in_period: st.packets_in_period,
                    bytes_in_period: st.bytes_in_period,
                });
            }
            st.packets_in_period = 0;
            st.bytes_in_period = 0;
        }
        let view = RegisterView {
            now,
            queues: self.k(),
            flows: &regs,
            queue_depth_cells: &self.queue_cells,
            weights: &self.weights,
            period: self.period,
        };
        let out = self.app.on_period(&view);
        let latency =
            out.compute.unwrap_or_else(|| SimDuration::from_secs_f64(self.cfg.compute_latency_ms / 1e3));
        let at = now + latency;
        self.pending.extend(out.writes.into_iter().map(|w| (at, w)));
    }

    /// Applies every pending table write due by `now`.
    fn apply_writes(&mut self, now: SimTime) {
        let k = self.k();
        while self.pending.front().is_some_and(|(at, _)| *at <= now) {
            let (_, w) = self.pending.pop_front().expect("checked");
            match w {
                TableWrite::MapFlow { flow, queue } => {
                    self.flows.entry(flow).or_default().table_queue = Some(queue.min(k - 1));
                }
                TableWrite::SetWeight { queue, weight } => {
                    if let Some(x) = self.weights.get_mut(queue as usize) {
                        *x = weight.clamp(1, 1023);
                    }
                }
            }
        }
    }
}

impl QueueDisc for MultiQueuePort {
    fn enqueue(&mut self, mut item: QItem, cx: &mut QdiscCtx) -> bool {
        // The sketch counts connections (a 5-tuple each): a flow's next connection is a
        // new key, and a new flow to classify.
        let est = self.cms.add(item.flow | (u32::from(item.conn) << 24));
        let cells = cells_for(item.bytes, self.cfg.cell_bytes);
        let threshold = self.cfg.long_flow_threshold_packets;
        let k = self.k();
        let st = self.flows.entry(item.flow).or_default();
        if st.conn != item.conn {
            st.tally(threshold, &mut self.calls);
            (st.conn, st.packets_of_conn, st.long, st.table_queue) = (item.conn, 0, false, None);
        }
        st.packets_of_conn += 1;
        if st.table_queue.is_none() {
            st.table_queue = self.cfg.initial_mapping.get(item.flow as usize).map(|&q| q.min(k - 1));
        }
        if !st.long && est > threshold {
            st.long = true;
            if st.table_queue.is_none() {
                // Load balancing: long flows round robin in order of detection.
                st.table_queue = Some(self.next_rr % k);
                self.next_rr += 1;
            }
        }
        let q =
            if st.long { st.table_queue.unwrap_or(0) } else { self.cfg.default_queue.min(k - 1) } as usize;
        let fits_queue = self.queue_cells[q] + cells <= u64::from(self.cfg.queue_limit_cells);
        let fits_buffer = self.occ.cells + cells <= self.cfg.total_cells();
        if !(fits_queue && fits_buffer) {
            cx.drop(item, DropReason::Overflow, false);
            return false;
        }
        // The queue's depth as the packet joins it, against the threshold; what is not
        // ECN-capable passes unmarked (the step is a mark, not a drop, on a switch).
        if self.cfg.ecn_threshold_cells.is_some_and(|t| self.queue_cells[q] > u64::from(t)) {
            item.mark(DropReason::Threshold);
        }
        st.backlog_cells += cells;
        st.packets_in_period += 1;
        st.bytes_in_period += u64::from(item.bytes);
        self.queue_cells[q] += cells;
        self.occ.add(item.bytes, cells);
        self.queues[q].push_back(item);
        true
    }

    fn dequeue(&mut self, _cx: &mut QdiscCtx) -> Option<QItem> {
        let queues = &self.queues;
        let q = self.scheduler.pick(&self.weights, |q| queues[q].front().map(|i| i.bytes))?;
        let item = self.queues[q].pop_front()?;
        let cells = self.cells(item.bytes);
        self.queue_cells[q] -= cells;
        self.occ.remove(item.bytes, cells);
        if let Some(st) = self.flows.get_mut(&item.flow) {
            st.backlog_cells -= cells;
        }
        Some(item)
    }

    fn occupancy(&self) -> Occupancy {
        self.occ
    }

    fn limit(&self) -> QueueLimit {
        QueueLimit::Cells {
            cells: self.cfg.total_cells().min(u64::from(u32::MAX)) as u32,
            cell_bytes: self.cfg.cell_bytes,
        }
    }

    fn cell_bytes(&self) -> Option<u32> {
        Some(self.cfg.cell_bytes)
    }

    /// The end of the current control period, or an earlier table write coming due.
    fn poll_at(&self) -> Option<SimTime> {
        Some(self.pending.front().map_or(self.next_tick, |(at, _)| (*at).min(self.next_tick)))
    }

    fn on_wakeup(&mut self, cx: &mut QdiscCtx) {
        if cx.now >= self.next_tick {
            self.control_tick(self.next_tick);
            self.next_tick += self.period;
        }
        self.apply_writes(cx.now);
    }

    /// The queue in the Flow Distribution Table once the flow is long, else the default.
    fn flow_queue(&self, flow: u32) -> Option<u32> {
        let st = self.flows.get(&flow)?;
        Some(if st.long { st.table_queue.unwrap_or(self.cfg.default_queue) } else { self.cfg.default_queue })
    }

    fn series(&self) -> Vec<SeriesInfo> {
        let k = self.k();
        let mut s: Vec<SeriesInfo> = (0..k)
            .map(|q| SeriesInfo::new(format!("queue[{q}].cells"), format!("Q{q}"), "cells", "queue"))
            .collect();
        s.extend(
            (0..k)
                .map(|q| SeriesInfo::new(format!("queue[{q}].weight"), format!("Q{q}"), "weight", "weights")),
        );
        s.extend(self.app.series());
        s
    }

    fn sample_series(&self, out: &mut Vec<f64>) {
        out.extend(self.queue_cells.iter().map(|&c| c as f64));
        out.extend(self.weights.iter().map(|&w| f64::from(w)));
        self.app.sample_series(out);
    }

    fn drain_log(&mut self, out: &mut Vec<LogRecord>) {
        self.app.drain_log(out);
    }

    /// The ended connections' calls and the open ones' so far.
    fn long_flow_calls(&self) -> Option<LongFlowCalls> {
        let mut calls = self.calls;
        for st in self.flows.values() {
            st.tally(self.cfg.long_flow_threshold_packets, &mut calls);
        }
        Some(calls)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aqm::Dropped;
    use crate::rng::StreamId;
    use crate::switch::SchedulerSpec;

    fn port(cfg: SwitchConfig) -> MultiQueuePort {
        MultiQueuePort::new(&cfg, SimRng::new(1, StreamId::Queue(0)))
    }

    fn item(id: u32, flow: u32, bytes: u32) -> QItem {
        QItem { id, bytes, flow, enqueued_at: SimTime::ZERO, conn: 0, ..QItem::default() }
    }

    fn offer(p: &mut MultiQueuePort, it: QItem) -> (bool, Vec<Dropped>) {
        let mut drops = Vec::new();
        let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
        let ok = p.enqueue(it, &mut cx);
        (ok, drops)
    }

    #[test]
    fn an_ecn_threshold_marks_arrivals_to_a_queue_deeper_than_it_and_drops_none() {
        use crate::net::Ecn;
        // Two queues, flows 0 and 1 in queue 0, flow 2 in queue 1; 10 cells a packet.
        let cfg = SwitchConfig {
            long_flow_threshold_packets: 0,
            initial_mapping: vec![0, 0, 1],
            ecn_threshold_cells: Some(20),
            ..SwitchConfig::default()
        };
        let mut p = port(cfg);
        let ect = |id, flow| QItem { ecn: Ecn::Ect0, ..item(id, flow, 1500) };
        let mut taken = Vec::new();
        for id in 0..4 {
            taken.push(offer(&mut p, ect(id, 0)).0);
        }
        // Queue 0 holds 30 cells: flow 1's Not-ECT packet passes unmarked, and queue 1,
        // still empty, marks nothing.
        taken.push(offer(&mut p, item(4, 1, 1500)).0);
        taken.push(offer(&mut p, ect(5, 2)).0);
        assert!(taken.iter().all(|&t| t));
        let mut marks: Vec<(u32, bool)> = Vec::new();
        let mut drops = Vec::new();
        let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
        while let Some(it) = p.dequeue(&mut cx) {
            marks.push((it.id, it.marked.is_some()));
        }
        marks.sort();
        // Packets 0-2 found 0, 10 and 20 cells (not above 20); packet 3 found 30.
        assert_eq!(marks, vec![(0, false), (1, false), (2, false), (3, true), (4, false), (5, false)]);
    }

    #[test]
    fn a_packet_takes_ceil_bytes_over_cell_cells() {
        let mut p = port(SwitchConfig { long_flow_threshold_packets: 0, ..SwitchConfig::default() });
        offer(&mut p, item(0, 0, 1502));
        assert_eq!(p.occupancy().cells, 10);
        offer(&mut p, item(1, 0, 161));
        assert_eq!(p.occupancy().cells, 12);
    }

    #[test]
    fn long_flows_are_mapped_round_robin_in_order_of_detection() {
        let mut p =
            port(SwitchConfig { queues: 3, long_flow_threshold_packets: 0, ..SwitchConfig::default() });
        for f in [5, 2, 9, 4] {
            offer(&mut p, item(f, f, 100));
        }
        let map: Vec<u32> = [5, 2, 9, 4].iter().map(|&f| p.flow_queue(f).unwrap()).collect();
        assert_eq!(map, vec![0, 1, 2, 0]);
    }

    #[test]
    fn mice_stay_in_the_default_queue_until_the_sketch_counts_them_long() {
        let mut p = port(SwitchConfig {
            queues: 2,
            default_queue: 1,
            long_flow_threshold_packets: 3,
            ..SwitchConfig::default()
        });
        for i in 0..3 {
            offer(&mut p, item(i, 7, 100));
            assert_eq!(p.flow_queue(7), Some(1));
        }
        offer(&mut p, item(3, 7, 100));
        assert_eq!(p.flow_queue(7), Some(0));
    }

    #[test]
    fn a_full_queue_drops_while_another_queue_still_accepts() {
        let cfg = SwitchConfig {
            queues: 2,
            queue_limit_cells: 20,
            long_flow_threshold_packets: 0,
            ..SwitchConfig::default()
        };
        let mut p = port(cfg);
        assert!(offer(&mut p, item(0, 0, 1500)).0); // flow 0 → q0, 10 cells
        assert!(offer(&mut p, item(1, 1, 1500)).0); // flow 1 → q1
        assert!(offer(&mut p, item(2, 0, 1500)).0); // q0 at 20 cells
        let (ok, drops) = offer(&mut p, item(3, 0, 100));
        assert!(!ok && drops[0].reason == DropReason::Overflow);
        assert!(offer(&mut p, item(4, 1, 1500)).0);
    }

    #[test]
    fn table_writes_take_effect_only_after_the_compute_latency() {
        let mut p =
            port(SwitchConfig { queues: 2, long_flow_threshold_packets: 0, ..SwitchConfig::default() });
        offer(&mut p, item(0, 0, 100));
        p.pending.push_back((SimTime::from_secs_f64(1.05), TableWrite::MapFlow { flow: 0, queue: 1 }));
        p.apply_writes(SimTime::from_secs_f64(1.0));
        assert_eq!(p.flow_queue(0), Some(0));
        p.apply_writes(SimTime::from_secs_f64(1.05));
        assert_eq!(p.flow_queue(0), Some(1));
    }

    #[test]
    fn wrr_with_weights_shares_the_port_between_backlogged_queues() {
        let cfg = SwitchConfig {
            queues: 2,
            weights: vec![1, 3],
            scheduler: SchedulerSpec::Wrr(Default::default()),
            queue_limit_cells: 1_000_000,
            long_flow_threshold_packets: 0,
            ..SwitchConfig::default()
        };
        let mut p = port(cfg);
        for i in 0..4000 {
            offer(&mut p, item(i, i % 2, 1500));
        }
        let mut sent = [0u32; 2];
        let mut drops = Vec::new();
        let mut cx = QdiscCtx::new(SimTime::ZERO, &mut drops);
        for _ in 0..2000 {
            let it = p.dequeue(&mut cx).unwrap();
            sent[it.flow as usize] += 1;
        }
        assert!((f64::from(sent[1]) / 2000.0 - 0.75).abs() < 0.02 * 0.75, "{sent:?}");
    }
}
