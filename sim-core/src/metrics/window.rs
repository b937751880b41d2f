//! Window statistics accumulated as the run goes, so a summary costs O(flows + buckets)
//! whenever it is asked for and memory does not grow with the run.
//!
//! **The measured window** is [warm-up, now]. One convention for every record: an instant
//! (a drop, a packet leaving the queue) counts when it happens at or after the warm-up; an
//! interval sample (goodput over the last 100 ms) counts when its whole interval lies in the
//! window, i.e. when it is taken at or after warm-up + interval.

use super::histogram::LogHistogram;
use crate::queue::DropReason;
use crate::time::{SimDuration, SimTime};
use crate::trace::SeriesInfo;
use std::collections::BTreeMap;

/// Count, mean, variance (Welford), min and max of a stream of numbers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Moments {
    pub n: u64,
    mean: f64,
    m2: f64,
    min: f64,
    max: f64,
}

impl Moments {
    pub fn push(&mut self, x: f64) {
        self.n += 1;
        if self.n == 1 {
            (self.min, self.max) = (x, x);
        } else {
            self.min = self.min.min(x);
            self.max = self.max.max(x);
        }
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }
    pub fn mean(&self) -> Option<f64> {
        (self.n > 0).then_some(self.mean)
    }
    /// Sample standard deviation (n − 1), pandas' default.
    pub fn std(&self) -> Option<f64> {
        (self.n > 1).then(|| (self.m2 / (self.n - 1) as f64).max(0.0).sqrt())
    }
    pub fn min(&self) -> Option<f64> {
        (self.n > 0).then_some(self.min)
    }
    pub fn max(&self) -> Option<f64> {
        (self.n > 0).then_some(self.max)
    }
}

/// Time packets waited in one kind of queue, from the opening of the measured window on
/// (a sum and a count: cheap enough to add per packet on every host link).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WaitTally {
    /// Instants before this do not count (the warm-up).
    pub from: SimTime,
    pub packets: u64,
    pub waited_ns: u64,
}

impl WaitTally {
    pub fn from(t: SimTime) -> WaitTally {
        WaitTally { from: t, ..WaitTally::default() }
    }
    /// A packet that started on the wire at `t` after waiting `waited`.
    #[inline]
    pub fn add(&mut self, t: SimTime, waited: SimDuration) {
        if t >= self.from {
            self.packets += 1;
            self.waited_ns += waited.as_nanos();
        }
    }
    pub fn merge(&mut self, o: &WaitTally) {
        self.packets += o.packets;
        self.waited_ns += o.waited_ns;
    }
    /// Mean wait, seconds (0 with no packet).
    pub fn mean_s(&self) -> f64 {
        if self.packets == 0 {
            0.0
        } else {
            self.waited_ns as f64 / self.packets as f64 / 1e9
        }
    }
}

/// Exact counts of whole numbers (queue lengths): exact mean, deviation and numpy type-7
/// quantiles in memory bounded by the number of distinct values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IntCounts {
    counts: BTreeMap<u64, u64>,
    moments: Moments,
}

impl IntCounts {
    pub fn push(&mut self, v: u64) {
        *self.counts.entry(v).or_default() += 1;
        self.moments.push(v as f64);
    }
    pub fn moments(&self) -> &Moments {
        &self.moments
    }
    pub fn count_of(&self, v: u64) -> u64 {
        self.counts.get(&v).copied().unwrap_or(0)
    }
    /// The k-th smallest value (0-based).
    fn at_rank(&self, k: u64) -> f64 {
        let mut seen = 0;
        for (&v, &c) in &self.counts {
            seen += c;
            if k < seen {
                return v as f64;
            }
        }
        self.moments.max().unwrap_or(0.0)
    }
    /// numpy's default quantile (Hyndman & Fan type 7), exact.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        let n = self.moments.n;
        if n == 0 {
            return None;
        }
        let h = q.clamp(0.0, 1.0) * (n - 1) as f64;
        let lo = h.floor() as u64;
        let (a, b) = (self.at_rank(lo), self.at_rank((lo + 1).min(n - 1)));
        Some(a + (h - lo as f64) * (b - a))
    }
}

/// How many delays `on_delay_deferred` gathers before recording them.
const DELAY_BATCH: usize = 4096;

/// What the window keeps per flow.
#[derive(Clone, Debug, Default)]
pub struct FlowWindow {
    /// Queueing delay at the bottleneck, seconds, of each packet leaving it in the window.
    pub delay: LogHistogram,
    /// Cells the flow holds at the bottleneck, one value per window sample.
    pub backlog_cells: LogHistogram,
    pub backlog_sum: f64,
    /// New bytes the receiver had got when the window opened.
    pub received_at_start: u64,
    /// Smoothed RTT per window sample, ms (samples with an estimate).
    pub srtt_ms: Moments,
}

/// A named series: its moments and the share of samples in each zone its thresholds make.
#[derive(Clone, Debug, Default)]
pub struct SeriesWindow {
    pub moments: Moments,
    pub zone_counts: Vec<u64>,
}

/// Drops at the bottleneck.
#[derive(Clone, Debug, Default)]
pub struct DropWindow {
    /// Every drop, warm-up included.
    pub total_all: u64,
    pub total: u64,
    pub by_reason: [u64; 4],
    pub last_t_s: Option<f64>,
    /// Gaps between consecutive drops in the window, ms.
    pub gaps_ms: LogHistogram,
    /// Drops per whole second from ceil(warm-up); seconds beyond the end are not counted.
    pub per_second: Vec<u32>,
}

/// CE marks at the bottleneck, counted as the marked packets leave it.
#[derive(Clone, Debug, Default)]
pub struct MarkWindow {
    /// Every mark, warm-up included.
    pub total_all: u64,
    pub total: u64,
    pub by_reason: [u64; 4],
    /// Marks of each flow in the window.
    pub per_flow: Vec<u64>,
    /// Data packets that left the bottleneck in the window, marked or not: what the marked
    /// share is of.
    pub departed: u64,
}

#[derive(Clone, Debug)]
pub struct WindowStats {
    pub warmup: SimTime,
    pub interval: SimDuration,
    /// When the window opened (None until the warm-up has passed).
    pub opened: bool,
    pub samples: u64,
    pub queue_packets: IntCounts,
    /// Aggregate in-order goodput of each window sample, bit/s (the study's series).
    pub goodput: Moments,
    /// Means of whole 1 s bins of the goodput series.
    pub goodput_1s: Moments,
    bin: (f64, u64),
    per_bin: u64,
    /// Cells held at the bottleneck, per window sample.
    pub buffer_cells: Moments,
    /// Per flow; lent out during a split run's window ([`WindowStats::lend_flows`]).
    flows: Vec<FlowWindow>,
    /// Seconds each packet leaving the bottleneck in the window spent in the device queue
    /// under the disc (no records when the link has none).
    pub device_wait: WaitTally,
    pub series: Vec<SeriesWindow>,
    thresholds: Vec<Vec<f64>>,
    pub drops: DropWindow,
    pub marks: MarkWindow,
    first_second: u64,
    /// Delays offered by `on_delay_deferred` and not yet recorded, oldest first.
    pending_delays: Vec<(u32, f64)>,
    /// How many flows there are. `flows` may be lent out meanwhile (a split run records a
    /// window's delays during the next, on either thread): pending delays are then only
    /// gathered.
    n_flows: usize,
}

impl WindowStats {
    pub fn new(warmup: SimTime, interval: SimDuration, end: SimTime, flows: usize) -> WindowStats {
        let first_second = warmup.as_nanos().div_ceil(1_000_000_000);
        let last_second = end.as_nanos() / 1_000_000_000;
        WindowStats {
            warmup,
            interval,
            opened: false,
            samples: 0,
            queue_packets: IntCounts::default(),
            goodput: Moments::default(),
            goodput_1s: Moments::default(),
            bin: (0.0, 0),
            per_bin: (1.0 / interval.as_secs_f64().max(1e-9)).round().max(1.0) as u64,
            buffer_cells: Moments::default(),
            flows: vec![FlowWindow::default(); flows],
            device_wait: WaitTally::from(warmup),
            series: Vec::new(),
            thresholds: Vec::new(),
            drops: DropWindow {
                per_second: vec![0; last_second.saturating_sub(first_second) as usize],
                ..DropWindow::default()
            },
            marks: MarkWindow { per_flow: vec![0; flows], ..MarkWindow::default() },
            first_second,
            pending_delays: Vec::with_capacity(DELAY_BATCH),
            n_flows: flows,
        }
    }

    /// Every flow's delays in one distribution.
    pub fn all_delays(&self) -> LogHistogram {
        let mut all = LogHistogram::default();
        for f in &self.flows {
            all.merge(&f.delay).expect("same relative error");
        }
        all
    }

    /// Declares the named series (their thresholds make the zones).
    pub fn set_series(&mut self, info: &[SeriesInfo]) {
        self.thresholds = info.iter().map(|s| s.thresholds.iter().map(|t| t.value).collect()).collect();
        self.series = self
            .thresholds
            .iter()
            .map(|t| SeriesWindow { moments: Moments::default(), zone_counts: vec![0; t.len() + 1] })
            .collect();
    }

    /// The same series with thresholds that moved: later samples count in the zones of
    /// the new ones (a series whose number of thresholds changed starts its zones anew).
    pub fn retarget_series(&mut self, info: &[SeriesInfo]) {
        let thresholds: Vec<Vec<f64>> =
            info.iter().map(|s| s.thresholds.iter().map(|t| t.value).collect()).collect();
        for (s, t) in self.series.iter_mut().zip(&thresholds) {
            if s.zone_counts.len() != t.len() + 1 {
                s.zone_counts = vec![0; t.len() + 1];
            }
        }
        self.thresholds = thresholds;
    }

    /// Does an instant at `t` belong to the window?
    pub fn holds_instant(&self, t: SimTime) -> bool {
        t >= self.warmup
    }

    /// Does the interval sample taken at `t` belong to the window?
    pub fn holds_sample(&self, t: SimTime) -> bool {
        t >= self.warmup + self.interval
    }

    /// Opens the window with each flow's (received, sent by the bottleneck) payload bytes:
    /// neither what it had received by then, nor what was on its way past the bottleneck
    /// (sent before the window, received in it) is counted. A flow's window goodput is then
    /// at most what the bottleneck sent of it in the window: the flows' sum never exceeds
    /// the link's rate, even with packets longer than the warm-up's last seconds.
    pub fn open(&mut self, received_and_sent: impl Iterator<Item = (u64, u64)>) {
        for (f, (r, sent)) in self.flows.iter_mut().zip(received_and_sent) {
            f.received_at_start = r.max(sent);
        }
        self.opened = true;
    }

    pub fn on_delay(&mut self, t: SimTime, flow: u32, delay_s: f64) {
        if self.holds_instant(t) {
            if let Some(f) = self.flows.get_mut(flow as usize) {
                f.delay.record(delay_s);
            }
        }
    }

    /// As `on_delay`, but recorded in a batch (every `DELAY_BATCH` delays, or at
    /// `flush_delays`), in the same order. With 10 000 flows served in turn each flow's
    /// histogram is cold: a batch asks for the histograms and buckets of the delays ahead
    /// while it records the current one, so the misses overlap (one at a time, two cold
    /// lines per packet were 15 % of the bottleneck's work). Readers of `flows` must call
    /// `flush_delays` first (the simulator does before handing control back).
    #[inline]
    pub fn on_delay_deferred(&mut self, t: SimTime, flow: u32, delay_s: f64) {
        if !self.holds_instant(t) || flow as usize >= self.n_flows {
            return;
        }
        self.pending_delays.push((flow, delay_s));
        if self.pending_delays.len() >= DELAY_BATCH && self.flows.len() == self.n_flows {
            self.flush_delays();
        }
    }

    /// The part of a packet's queueing delay spent in the device queue (recorded beside
    /// its whole delay, `on_delay_deferred`, for the same packets).
    #[inline]
    pub fn on_device_wait(&mut self, t: SimTime, wait: SimDuration) {
        self.device_wait.add(t, wait);
    }

    /// Records every delay `on_delay_deferred` still holds, in order.
    pub fn flush_delays(&mut self) {
        record_delays(&mut self.flows, &mut self.pending_delays);
    }

    /// Hands over the delays gathered so far (to be recorded, in order, with
    /// [`record_delays`]), leaving `spare`'s buffer in their place.
    pub fn take_delays(&mut self, spare: Vec<(u32, f64)>) -> Vec<(u32, f64)> {
        debug_assert!(spare.is_empty());
        std::mem::replace(&mut self.pending_delays, spare)
    }

    /// A data packet left the bottleneck at `t`, CE-marked there for `marked` if it was.
    #[inline]
    pub fn on_departure(&mut self, t: SimTime, flow: u32, marked: Option<DropReason>) {
        let m = &mut self.marks;
        if let Some(reason) = marked {
            m.total_all += 1;
            if t >= self.warmup {
                m.total += 1;
                m.by_reason[reason as usize] += 1;
                if let Some(f) = m.per_flow.get_mut(flow as usize) {
                    *f += 1;
                }
            }
        }
        if t >= self.warmup {
            m.departed += 1;
        }
    }

    pub fn on_drop(&mut self, t: SimTime, reason: DropReason) {
        let d = &mut self.drops;
        d.total_all += 1;
        if t < self.warmup {
            return;
        }
        let t_s = t.as_secs_f64();
        d.total += 1;
        d.by_reason[reason as usize] += 1;
        if let Some(last) = d.last_t_s {
            d.gaps_ms.record((t_s - last) * 1e3);
        }
        d.last_t_s = Some(t_s);
        let k = (t.as_nanos() / 1_000_000_000).checked_sub(self.first_second);
        if let Some(slot) = k.and_then(|k| d.per_second.get_mut(k as usize)) {
            *slot += 1;
        }
    }

    /// One sample's worth: aggregate queue and goodput, per-flow backlog and RTT, series.
    #[allow(clippy::too_many_arguments)]
    pub fn on_sample(
        &mut self,
        t: SimTime,
        queue_packets: u32,
        goodput_bps: f64,
        backlog_cells: &[u64],
        srtt_ms: &[Option<f64>],
        series: &[f64],
    ) {
        if !self.holds_sample(t) {
            return;
        }
        self.samples += 1;
        self.queue_packets.push(u64::from(queue_packets));
        self.goodput.push(goodput_bps);
        self.bin.0 += goodput_bps;
        self.bin.1 += 1;
        if self.bin.1 == self.per_bin {
            self.goodput_1s.push(self.bin.0 / self.per_bin as f64);
            self.bin = (0.0, 0);
        }
        let mut total = 0u64;
        for (f, (&c, r)) in self.flows.iter_mut().zip(backlog_cells.iter().zip(srtt_ms)) {
            f.backlog_cells.record(c as f64);
            f.backlog_sum += c as f64;
            if let Some(r) = r {
                f.srtt_ms.push(*r);
            }
            total += c;
        }
        self.buffer_cells.push(total as f64);
        for ((s, th), &v) in self.series.iter_mut().zip(&self.thresholds).zip(series) {
            s.moments.push(v);
            let zone = th.iter().take_while(|&&x| v >= x).count();
            s.zone_counts[zone] += 1;
        }
    }
}

/// The per-flow windows while another thread records a window's delays into them (a split
/// run): taken with [`WindowStats::lend_flows`], handed back with [`WindowStats::take_back`].
pub struct LentFlows(Vec<FlowWindow>);

impl LentFlows {
    /// Records `pending` delays into the flows, in order, and empties it.
    pub fn record(&mut self, pending: &mut Vec<(u32, f64)>) {
        record_delays(&mut self.0, pending);
    }
}

impl WindowStats {
    /// Every flow's window.
    pub fn flows(&self) -> &[FlowWindow] {
        &self.flows
    }

    /// Lends the per-flow windows out; until they come back, delays are only gathered.
    pub fn lend_flows(&mut self) -> LentFlows {
        LentFlows(std::mem::take(&mut self.flows))
    }

    pub fn take_back(&mut self, lent: LentFlows) {
        debug_assert_eq!(lent.0.len(), self.n_flows, "the flows lent");
        self.flows = lent.0;
    }
}

/// Records `pending` delays (flow, seconds) into the flows' histograms, in order, and
/// empties it; as a pipeline: 16 ahead, the flow's histogram is asked for; 8 ahead, the
/// bucket the delay goes into (its index depends on the value only, so later records cannot
/// change it).
fn record_delays(flows: &mut [FlowWindow], pending: &mut Vec<(u32, f64)>) {
    const HIST: usize = 16;
    const BUCKET: usize = 8;
    let mut hints = [None; BUCKET];
    for i in 0..pending.len() {
        if let Some(&(f, _)) = pending.get(i + HIST) {
            crate::hint::prefetch_lines(&flows[f as usize].delay, 2);
        }
        // The slot of delay i (hinted 8 records ago, or not yet for the first 8) is then
        // free for delay i + 8.
        let (f, v) = pending[i];
        let h = &mut flows[f as usize].delay;
        match hints[i % BUCKET].take() {
            Some(hint) => h.record_hinted(v, hint),
            None => h.record(v),
        }
        if let Some(&(f, v)) = pending.get(i + BUCKET) {
            hints[i % BUCKET] = Some(flows[f as usize].delay.bucket_hint(v));
        }
    }
    pending.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Batched delays (prefetching the buckets of later ones) land where recording each at
    /// once puts them: over several batches, with zeros and spread-out values, per flow.
    #[test]
    fn batched_delays_record_what_direct_ones_do() {
        let (t, d) = (SimTime::from_secs_f64(1.0), SimDuration::from_secs_f64(0.1));
        let mut batched = WindowStats::new(SimTime::ZERO, d, t, 7);
        let mut direct = WindowStats::new(SimTime::ZERO, d, t, 7);
        let mut rng = crate::rng::SimRng::new(3, crate::rng::StreamId::Queue(0));
        for i in 0..(2 * DELAY_BATCH + 123) {
            let flow = (i * 5 % 7) as u32;
            let v = if i % 97 == 0 { 0.0 } else { 1e-6 * (1e5f64).powf(rng.uniform()) };
            batched.on_delay_deferred(t, flow, v);
            direct.on_delay(t, flow, v);
        }
        batched.flush_delays();
        for (a, b) in batched.flows.iter().zip(&direct.flows) {
            assert_eq!(a.delay, b.delay);
        }
        assert!(direct.flows[3].delay.count() > 1000);
    }

    #[test]
    fn welford_matches_the_two_pass_sample_deviation() {
        let xs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        let mut m = Moments::default();
        xs.iter().for_each(|&x| m.push(x));
        assert!((m.std().unwrap() - 2.138089935299395).abs() < 1e-12);
        assert_eq!((m.min(), m.max(), m.mean()), (Some(2.0), Some(9.0), Some(5.0)));
        assert_eq!(Moments::default().std(), None);
    }

    #[test]
    fn exact_counts_give_numpy_quantiles() {
        let mut c = IntCounts::default();
        [1, 2, 3, 4].iter().for_each(|&v| c.push(v));
        assert_eq!(c.quantile(0.5), Some(2.5));
        assert!((c.quantile(0.9).unwrap() - 3.7).abs() < 1e-12);
        assert_eq!(IntCounts::default().quantile(0.5), None);
    }

    #[test]
    fn a_sample_counts_only_when_its_whole_interval_is_after_the_warm_up() {
        let ms = |v: u64| SimTime(v * 1_000_000);
        let w = WindowStats::new(ms(1000), SimDuration::from_millis(100), ms(5000), 1);
        assert!(!w.holds_sample(ms(1000)));
        assert!(w.holds_sample(ms(1100)));
        assert!(w.holds_instant(ms(1000)) && !w.holds_instant(ms(999)));
    }

    #[test]
    fn zones_split_the_axis_at_the_thresholds() {
        let mut w = WindowStats::new(SimTime::ZERO, SimDuration::from_millis(100), SimTime(1_000_000_000), 0);
        w.set_series(&[SeriesInfo::new("a", "a", "", "q").with_thresholds(&[(5.0, "lo"), (10.0, "hi")])]);
        for (i, v) in [1.0, 5.0, 7.0, 12.0].into_iter().enumerate() {
            w.on_sample(SimTime((i as u64 + 1) * 100_000_000), 0, 0.0, &[], &[], &[v]);
        }
        assert_eq!(w.series[0].zone_counts, vec![1, 2, 1]);
    }
}
