//! The packet view's picture at one instant, as plain shapes: each sub-queue of the disc as
//! a row of packets (head on the right, coloured by flow, width by size), the device queue,
//! the wire with what is being serialised and what is in flight, CE marks as rings and
//! recent drops falling out of the queue they left. Plain data, tested natively; the
//! component only paints it and looks up what is under the pointer.

use crate::chart_data::{flow_color, mark_color, reason_color};
use crate::charts::css_color as css;
use sim_core::net::packet_trace::{Resident, Stage, TraceKind, TraceWindow};
use sim_core::queue::DropReason;
use std::fmt::Write;

/// Sub-queue rows drawn at most; the rest are summed up in one line.
pub const MAX_ROWS: usize = 8;

#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A filled box, with an outline colour (a CE mark) if any.
    Rect {
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        fill: String,
        ring: Option<String>,
    },
    /// A CE mark: a dot above its packet.
    Dot {
        x: f64,
        y: f64,
        r: f64,
        color: String,
    },
    /// A drop: a cross.
    Cross {
        x: f64,
        y: f64,
        r: f64,
        color: String,
    },
    Line {
        x1: f64,
        y1: f64,
        x2: f64,
        y2: f64,
        color: String,
    },
    Text {
        x: f64,
        y: f64,
        text: String,
        right: bool,
    },
}

/// What is under a region of the picture, for the pointer.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    pub text: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    pub shapes: Vec<Shape>,
    pub hits: Vec<Hit>,
    /// Packets in the disc, the device queue and on the wire.
    pub counts: (usize, usize, usize),
    /// The height the picture needs (CSS px): one row per sub-queue shown.
    pub height: f64,
}

fn ms(ns: u64) -> f64 {
    ns as f64 / 1e6
}

/// What a packet is, for its tooltip.
pub fn describe(p: &Resident, t_ns: u64, queue_name: &str) -> String {
    let mut s = format!("{} of flow {} · {} B", if p.ack { "ACK" } else { "packet" }, p.flow, p.bytes);
    let waited = |to: u64| ms(to.saturating_sub(p.queued_ns));
    match p.stage {
        Stage::Disc => {
            let _ = write!(s, " · in {queue_name} for {:.3} ms", waited(t_ns));
        }
        Stage::Device => {
            let _ = write!(s, " · in the device queue, {:.3} ms since it arrived", waited(t_ns));
        }
        Stage::Wire if t_ns < p.done_ns => {
            let _ = write!(s, " · being sent (waited {:.3} ms)", waited(p.sent_ns));
        }
        Stage::Wire => {
            let _ = write!(
                s,
                " · in flight, arrives at {:.6} s (waited {:.3} ms)",
                p.far_ns as f64 / 1e9,
                waited(p.sent_ns)
            );
        }
    }
    if let Some(m) = p.mark {
        let _ = write!(s, " · CE-marked ({})", m.as_str());
    }
    s
}

/// Why a drop happened, in words.
pub fn drop_words(kind: TraceKind, reason: Option<DropReason>) -> String {
    let why = reason.map_or("dropped", |r| match r {
        DropReason::Early => "an early (AQM) drop",
        DropReason::Forced => "a forced drop (above the AQM's hard threshold)",
        DropReason::Overflow => "the buffer was full",
        DropReason::Threshold => "a threshold",
    });
    match kind {
        TraceKind::Refused => format!("refused on arrival: {why}"),
        _ => format!("dropped after waiting: {why}"),
    }
}

/// Height of one sub-queue's row, and the room above and below the rows (CSS px).
const ROW_H: f64 = 30.0;
const TOP: f64 = 22.0;
const BOTTOM: f64 = 40.0;

/// The picture at `t_ns` of `packets` (the replay at `t_ns`), `width` CSS px wide.
/// `scale_bytes` is what a full row holds; `fall_ns` how long a drop is shown falling.
pub fn scene(
    w: &TraceWindow,
    packets: &[Resident],
    t_ns: u64,
    width: f64,
    scale_bytes: f64,
    fall_ns: u64,
) -> Scene {
    let mut sc = Scene::default();
    let name = |q: u32| {
        w.queue_names.iter().find(|(n, _)| *n == q).map_or_else(|| format!("Q{q}"), |(_, s)| s.clone())
    };
    // Columns: the disc's rows, the device queue, the wire.
    let label_w = 124.0_f64.min(width * 0.24);
    let disc_x = label_w;
    let disc_w = (width * 0.55 - label_w).max(40.0);
    let dev_x = disc_x + disc_w + 14.0;
    let dev_w = (width * 0.1).max(24.0);
    let wire_x = dev_x + dev_w + 14.0;
    let wire_w = (width - wire_x - 8.0).max(20.0);

    // The disc's sub-queues that hold packets, the fullest first beyond MAX_ROWS.
    let mut rows: Vec<(u32, u64, usize)> = Vec::new();
    for p in packets.iter().filter(|p| p.stage == Stage::Disc) {
        match rows.iter_mut().find(|r| r.0 == p.queue) {
            Some(r) => {
                r.1 += u64::from(p.bytes);
                r.2 += 1;
            }
            None => rows.push((p.queue, u64::from(p.bytes), 1)),
        }
    }
    // Named sub-queues (a switch's, DualPI2's) keep their rows even when empty.
    if w.queue_names.len() <= MAX_ROWS {
        for (q, _) in &w.queue_names {
            if !rows.iter().any(|r| r.0 == *q) {
                rows.push((*q, 0, 0));
            }
        }
    }
    if rows.is_empty() {
        rows.push((0, 0, 0));
    }
    rows.sort_by_key(|r| r.0);
    let hidden: (usize, usize) = if rows.len() > MAX_ROWS {
        let mut by_size = rows.clone();
        by_size.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)));
        let keep: Vec<u32> = by_size.iter().take(MAX_ROWS - 1).map(|r| r.0).collect();
        let gone = by_size.iter().skip(MAX_ROWS - 1).fold((0, 0), |a, r| (a.0 + 1, a.1 + r.2));
        rows.retain(|r| keep.contains(&r.0));
        gone
    } else {
        (0, 0)
    };
    let n_rows = rows.len() + usize::from(hidden.0 > 0);
    let (top, row_h) = (TOP, ROW_H);
    sc.height = TOP + n_rows as f64 * ROW_H + BOTTOM;
    let box_h = row_h * 0.7;
    let per_byte = disc_w / scale_bytes.max(1.0);
    let heading = |sc: &mut Scene, x: f64, text: &str| {
        sc.shapes.push(Shape::Text { x, y: 14.0, text: text.into(), right: false })
    };
    heading(&mut sc, disc_x, if disc_w < 170.0 { "disc (head →)" } else { "queue disc (head →)" });
    heading(&mut sc, dev_x, "device");
    heading(&mut sc, wire_x, "wire");

    let row_y = |i: usize| top + i as f64 * row_h;
    let mut row_of_queue = Vec::new();
    for (i, (q, _, n)) in rows.iter().enumerate() {
        let y = row_y(i);
        row_of_queue.push((*q, y));
        sc.shapes.push(Shape::Text {
            x: label_w - 6.0,
            y: y + box_h * 0.8,
            text: format!("{} ({n})", name(*q)),
            right: true,
        });
        sc.shapes.push(floor(disc_x, disc_w, y + box_h + 1.5, 1));
        let row_name = name(*q);
        // Head at the right: packets from the newest (left) to the oldest (right edge).
        let in_row: Vec<&Resident> =
            packets.iter().filter(|p| p.stage == Stage::Disc && p.queue == *q).collect();
        let mut x = disc_x + disc_w;
        let mut last_drawn = f64::INFINITY;
        let mut overflowed = 0;
        for p in in_row.iter() {
            let pw = f64::from(p.bytes) * per_byte;
            let x0 = x - pw;
            x = x0;
            if x0 < disc_x {
                overflowed += 1;
                continue;
            }
            // At most one box per pixel column: a long queue costs the row's width.
            if last_drawn - x0 < 1.0 && last_drawn.is_finite() {
                continue;
            }
            last_drawn = x0;
            push_packet(&mut sc, p, x0, y, pw.max(1.0), box_h, t_ns, &row_name);
        }
        if overflowed > 0 {
            sc.shapes.push(Shape::Text {
                x: disc_x + 2.0,
                y: y + box_h * 0.8,
                text: format!("+{overflowed} ←"),
                right: false,
            });
        }
    }
    if hidden.0 > 0 {
        let y = row_y(rows.len());
        sc.shapes.push(Shape::Text {
            x: disc_x,
            y: y + box_h * 0.8,
            text: format!("and {} more sub-queues, holding {} packets", hidden.0, hidden.1),
            right: false,
        });
    }

    // The device queue: head on the right.
    let dev: Vec<&Resident> = packets.iter().filter(|p| p.stage == Stage::Device).collect();
    let dev_y = row_y(0);
    sc.shapes.push(floor(dev_x, dev_w, dev_y + box_h + 1.5, 2));
    let dev_box = (dev_w / dev.len().max(4) as f64).min(box_h * 2.0);
    for (i, p) in dev.iter().rev().enumerate() {
        let x0 = dev_x + dev_w - (i + 1) as f64 * dev_box;
        push_packet(&mut sc, p, x0, dev_y, (dev_box - 1.0).max(1.0), box_h, t_ns, "the device queue");
    }

    // The wire: serialising at its left end, then in flight towards the far end.
    let wy = dev_y + box_h / 2.0;
    sc.shapes.push(Shape::Line { x1: wire_x, y1: wy, x2: wire_x + wire_w, y2: wy, color: css(0) });
    sc.shapes.push(Shape::Text {
        x: wire_x + wire_w,
        y: wy + box_h + 10.0,
        text: "far end".into(),
        right: true,
    });
    let wire: Vec<&Resident> = packets.iter().filter(|p| p.stage == Stage::Wire && p.far_ns > t_ns).collect();
    for p in &wire {
        let pw = (box_h * 0.9).max(4.0);
        let (x0, width) = if t_ns < p.done_ns {
            // Serialising: the share sent so far leaves the device.
            let share = (t_ns - p.sent_ns.min(t_ns)) as f64 / (p.done_ns - p.sent_ns).max(1) as f64;
            (wire_x, (pw * share).max(1.0))
        } else {
            let share = (t_ns - p.done_ns) as f64 / (p.far_ns - p.done_ns).max(1) as f64;
            (wire_x + share * (wire_w - pw), pw)
        };
        push_packet(&mut sc, p, x0, wy - box_h / 2.0, width, box_h, t_ns, "the wire");
    }

    // Drops of the last `fall_ns`: a cross under the row it left, falling as it ages.
    let from = t_ns.saturating_sub(fall_ns);
    let start = w.events.partition_point(|e| e.t_ns < from);
    for e in w.events[start..].iter().take_while(|e| e.t_ns <= t_ns) {
        if !matches!(e.kind, TraceKind::Refused | TraceKind::Dropped) {
            continue;
        }
        let age = (t_ns - e.t_ns) as f64 / fall_ns.max(1) as f64;
        let y = row_of_queue.iter().find(|r| r.0 == e.queue).map_or(row_y(0), |r| r.1);
        let x = match e.kind {
            TraceKind::Refused => disc_x - 10.0,
            _ => disc_x + disc_w - 6.0,
        };
        let cy = y + box_h / 2.0 + age * row_h * 1.5;
        let colour = css(reason_color(e.reason.unwrap_or(DropReason::Overflow)));
        sc.shapes.push(Shape::Cross { x, y: cy, r: box_h * 0.45, color: colour });
        sc.hits.push(Hit {
            x: x - box_h / 2.0,
            y: cy - box_h / 2.0,
            w: box_h,
            h: box_h,
            text: format!(
                "{} of flow {} · {} B · {} at {:.6} s",
                if e.ack { "ACK" } else { "packet" },
                e.flow,
                e.bytes,
                drop_words(e.kind, e.reason),
                e.t_ns as f64 / 1e9
            ),
        });
    }
    sc.counts = (packets.iter().filter(|p| p.stage == Stage::Disc).count(), dev.len(), wire.len());
    sc
}

/// The line a queue's packets stand on, in palette colour `color`.
fn floor(x: f64, w: f64, y: f64, color: usize) -> Shape {
    Shape::Line { x1: x, y1: y, x2: x + w, y2: y, color: css(color) }
}

#[allow(clippy::too_many_arguments)]
fn push_packet(sc: &mut Scene, p: &Resident, x: f64, y: f64, w: f64, h: f64, t_ns: u64, queue: &str) {
    let fill = if p.ack { css(1) } else { css(flow_color(p.flow as usize)) };
    let ring = p.mark.map(|m| css(mark_color(m)));
    if let Some(c) = &ring {
        sc.shapes.push(Shape::Dot { x: x + w / 2.0, y: y - 3.5, r: 3.0, color: c.clone() });
    }
    sc.shapes.push(Shape::Rect { x, y, w, h, fill, ring });
    sc.hits.push(Hit { x, y, w: w.max(2.0), h, text: describe(p, t_ns, queue) });
}

/// The row scale: what the fullest sub-queue holds over the window's replayed states,
/// rounded up to a power of two of full packets (at least 16), so the rows do not rescale
/// at every step.
pub fn row_scale(max_row_bytes: u64, packet_bytes: u32) -> f64 {
    let pkts = (max_row_bytes as f64 / f64::from(packet_bytes.max(1))).ceil().max(16.0);
    pkts.log2().ceil().exp2() * f64::from(packet_bytes.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::net::packet_trace::TraceReplay;
    use sim_core::scenario::preset;
    use sim_core::sim::Simulation;
    use sim_core::time::SimTime;

    fn window(p: &str, v: &str, at_s: f64) -> TraceWindow {
        let sc = preset(p, Some(v)).unwrap();
        let mut sim = Simulation::new(&sc).unwrap();
        sim.watch_all_links();
        sim.step_until(SimTime::from_secs_f64(at_s));
        sim.packet_window(0, usize::MAX).unwrap()
    }

    fn rects(s: &Scene) -> usize {
        s.shapes.iter().filter(|x| matches!(x, Shape::Rect { .. })).count()
    }

    #[test]
    fn every_waiting_packet_of_a_short_queue_is_drawn_with_its_tooltip() {
        let w = window("red-study", "red", 20.0);
        let mut r = TraceReplay::new(&w);
        // The last instant with packets in both the disc and the device queue.
        let t = (w.events.iter().rev().map(|e| e.t_ns))
            .find(|&t| {
                r.seek_time(&w, t);
                let pk = r.at(t);
                pk.iter().any(|p| p.stage == Stage::Disc) && pk.iter().any(|p| p.stage == Stage::Device)
            })
            .expect("RED's disc and device queue hold packets in the last events");
        let pk = r.at(t);
        let s = scene(&w, &pk, t, 900.0, row_scale(200_000, 1500), 10_000_000);
        assert!(s.counts.0 > 0, "RED's queue holds packets at 5 s");
        assert_eq!(rects(&s), s.counts.0 + s.counts.1 + s.counts.2, "one box per packet");
        assert!(s.hits.iter().any(|h| h.text.contains("in Q0 for")), "{:?}", s.hits.first());
    }

    #[test]
    fn a_thousand_flows_draw_at_most_a_box_per_pixel_and_name_the_hidden_queues() {
        let mut sc = preset("rtt-unfair", Some("fq-codel")).unwrap();
        sc.flows[0].count = 500;
        sc.flows[1].count = 500;
        (sc.duration_s, sc.warmup_s) = (3.0, 1.0);
        let mut sim = Simulation::new(&sc).unwrap();
        sim.watch_link(0);
        sim.step_until(SimTime::from_secs_f64(2.5));
        let w = sim.packet_window(0, usize::MAX).unwrap();
        let mut r = TraceReplay::new(&w);
        r.seek_time(&w, w.to_ns);
        let pk = r.at(w.to_ns);
        let s = scene(&w, &pk, w.to_ns, 600.0, row_scale(1_000_000, 1500), 1_000_000);
        assert!(rects(&s) <= MAX_ROWS * 600 + 100, "{} boxes", rects(&s));
        let more = s
            .shapes
            .iter()
            .any(|x| matches!(x, Shape::Text { text, .. } if text.contains("more sub-queues")));
        assert!(more, "FQ-CoDel's hundreds of flow queues are summed up");
    }

    #[test]
    fn drops_fall_for_the_time_given_and_say_why() {
        let w = window("red-study", "red", 20.0);
        let d = w
            .events
            .iter()
            .rev()
            .find(|e| e.kind == TraceKind::Refused || e.kind == TraceKind::Dropped)
            .unwrap();
        let mut r = TraceReplay::new(&w);
        r.seek_time(&w, d.t_ns);
        let s = scene(&w, &r.at(d.t_ns), d.t_ns, 900.0, 150_000.0, 5_000_000);
        assert!(s
            .hits
            .iter()
            .any(|h| h.text.contains("at ") && (h.text.contains("drop") || h.text.contains("refused"))));
        r.seek_time(&w, d.t_ns + 6_000_000);
        let later = scene(&w, &r.at(d.t_ns + 6_000_000), d.t_ns + 6_000_000, 900.0, 150_000.0, 5_000_000);
        let crosses = |s: &Scene| s.shapes.iter().filter(|x| matches!(x, Shape::Cross { .. })).count();
        assert!(crosses(&s) >= 1 && crosses(&later) < crosses(&s) + w.events.len());
    }

    #[test]
    #[allow(clippy::float_cmp)] // whole numbers of packets, exact
    fn the_row_scale_holds_the_fullest_queue_in_powers_of_two() {
        assert_eq!(row_scale(0, 1500), 16.0 * 1500.0);
        assert_eq!(row_scale(17 * 1500, 1500), 32.0 * 1500.0);
        assert_eq!(row_scale(64 * 1500, 1500), 64.0 * 1500.0);
    }
}
