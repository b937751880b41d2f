//! The network diagram's geometry, from the scenario alone: each disc link a box in the
//! order the routes cross them (left to right), each flow group a bar under the links its
//! route crosses; and, during a run, each link's queue and utilisation from its series.
//! Plain data, tested natively; `components/network_view.rs` draws it.

use crate::series::Series;
use sim_core::queue::QueueLimit;
use sim_core::scenario::topology::chain_order;
use sim_core::scenario::Scenario;

/// Width of one link's column, and the margins, in the diagram's own units.
pub const COLUMN: f64 = 190.0;
pub const MARGIN: f64 = 36.0;
/// Room a group's label takes, in the diagram's units (12 px text): a diagram of one link
/// is made this much wider than its margins, so that no label runs off its left edge.
pub const LABEL_WIDTH: f64 = 300.0;
/// Top of the link boxes, their height, and each group's row (its label over its bar).
pub const LINK_TOP: f64 = 22.0;
pub const LINK_HEIGHT: f64 = 64.0;
pub const BAR_HEIGHT: f64 = 26.0;
/// Room under a group's bar for its ACK route's.
pub const ACK_BAR: f64 = 10.0;
/// At most this many group bars; the rest are summed up in one line.
pub const MAX_BARS: usize = 8;

#[derive(Clone, Debug, PartialEq)]
pub struct LinkBox {
    pub name: String,
    /// Left edge of its box.
    pub x: f64,
    pub rate: String,
    pub disc: String,
    /// Its buffer in packets of the scenario's full size (the fill's denominator).
    pub limit_packets: f64,
    /// The scenario's bottleneck: the queue, delay and drop charts are its.
    pub charted: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GroupBar {
    pub label: String,
    /// The group's index, for its colour.
    pub group: usize,
    pub y: f64,
    /// The stretches of the diagram its route crosses (one per run of adjacent links).
    pub spans: Vec<(f64, f64)>,
    /// The same for its ACK route (none: its ACKs return on an uncongested path).
    pub ack_spans: Vec<(f64, f64)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Diagram {
    pub width: f64,
    pub height: f64,
    pub links: Vec<LinkBox>,
    pub groups: Vec<GroupBar>,
    /// Whether some group's ACKs cross links of the diagram.
    pub acks_drawn: bool,
    /// "… and 12 more groups" when there are more than [`MAX_BARS`].
    pub more: Option<String>,
}

/// What a link does at the time shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkLive {
    pub queue_packets: f64,
    /// Of its buffer, 0-1.
    pub fill: f64,
    pub utilisation_pct: Option<f64>,
}

fn rate_text(bps: u64) -> String {
    let m = bps as f64 / 1e6;
    if m >= 1000.0 {
        format!("{} Gbit/s", trim(m / 1000.0))
    } else {
        format!("{} Mbit/s", trim(m))
    }
}

fn trim(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A buffer in packets of `packet_bytes`.
fn limit_packets(limit: QueueLimit, packet_bytes: u32) -> f64 {
    match limit {
        QueueLimit::Packets(n) => f64::from(n),
        QueueLimit::Bytes(b) => b as f64 / f64::from(packet_bytes.max(1)),
        QueueLimit::Cells { cells, cell_bytes } => {
            f64::from(cells) / sim_core::queue::cells_for(packet_bytes, cell_bytes).max(1) as f64
        }
    }
}

pub fn diagram(sc: &Scenario) -> Diagram {
    let order = chain_order(sc);
    let x_of = |name: &str| order.iter().position(|n| n == name).map(|i| MARGIN + i as f64 * COLUMN);
    let packet = sc.full_packet_bytes();
    let links: Vec<LinkBox> = (order.iter())
        .filter_map(|name| sc.link_named(name).map(|l| (name, l)))
        .map(|(name, l)| LinkBox {
            name: name.clone(),
            x: x_of(name).unwrap_or(MARGIN),
            rate: rate_text(l.rate_bps),
            disc: crate::labels::disc(&l.queue),
            limit_packets: limit_packets(l.queue.limit(), packet),
            charted: name == sc.bottleneck_name(),
        })
        .collect();
    let bar_top = LINK_TOP + LINK_HEIGHT + 26.0;
    // The stretches a list of links covers, adjacent columns joined.
    let spans_of = |names: Vec<&str>| -> Vec<(f64, f64)> {
        let mut spans: Vec<(f64, f64)> = Vec::new();
        // Left to right: the columns of the links named.
        for c in (0..order.len()).filter(|&c| names.contains(&order[c].as_str())) {
            let (x0, x1) = (MARGIN + c as f64 * COLUMN, MARGIN + (c + 1) as f64 * COLUMN);
            match spans.last_mut() {
                Some(last) if (last.1 - x0).abs() < 1e-9 => last.1 = x1,
                _ => spans.push((x0, x1)),
            }
        }
        spans
    };
    // A row is taller where some group's ACKs have a route of their own to draw.
    let row = BAR_HEIGHT + 6.0 + if sc.flows.iter().any(|g| !g.ack_route.is_empty()) { ACK_BAR } else { 0.0 };
    let groups: Vec<GroupBar> = (sc.flows.iter().enumerate().take(MAX_BARS))
        .map(|(i, g)| {
            let cca = crate::labels::cca(g.cca.tag());
            GroupBar {
                label: format!(
                    "group {}: {} × {cca}, base RTT {} ms",
                    i + 1,
                    g.count,
                    trim(sc.base_rtt_ms(g))
                ),
                group: i,
                y: bar_top + i as f64 * row,
                spans: spans_of(sc.route_of(g).iter().map(|(n, _)| *n).collect()),
                ack_spans: spans_of(sc.ack_route_of(g).iter().map(|(n, _)| *n).collect()),
            }
        })
        .collect();
    let shown = groups.len();
    let more = (sc.flows.len() > shown).then(|| format!("… and {} more groups", sc.flows.len() - shown));
    let bars_end = bar_top + shown as f64 * row + if more.is_some() { 20.0 } else { 0.0 };
    let acks_drawn = groups.iter().any(|g| !g.ack_spans.is_empty());
    Diagram {
        width: 2.0 * MARGIN + (links.len() as f64 * COLUMN).max(LABEL_WIDTH + 12.0),
        height: bars_end + 8.0,
        links,
        groups,
        acks_drawn,
        more,
    }
}

/// Each link's queue and utilisation at sample `at` (the last when `None`), from the
/// run's series: per-link series where the scenario has links, else the bottleneck's queue.
pub fn live(d: &Diagram, s: &Series, at: Option<usize>) -> Vec<Option<LinkLive>> {
    let pick = |v: &[f64]| at.map_or(v.last(), |i| v.get(i)).copied();
    let queues = s.group("link-queue");
    let utils = s.group("link-utilisation");
    (d.links.iter())
        .map(|l| {
            let own = |group: &[(&sim_core::trace::SeriesInfo, &[f64])]| {
                group.iter().find(|(i, _)| i.label == l.name).and_then(|(_, v)| pick(v))
            };
            let queue = own(&queues).or_else(|| {
                (l.charted && queues.is_empty())
                    .then(|| pick(&s.queue).map(|q| q + pick(&s.nic).unwrap_or(0.0)))?
            })?;
            Some(LinkLive {
                queue_packets: queue,
                fill: if l.limit_packets > 0.0 { (queue / l.limit_packets).clamp(0.0, 1.0) } else { 0.0 },
                utilisation_pct: own(&utils),
            })
        })
        .collect()
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // the values compared are exact by construction
mod tests {
    use super::*;
    use sim_core::scenario::preset;

    #[test]
    fn the_parking_lot_draws_three_links_in_a_row_and_the_long_flow_under_all_of_them() {
        let d = diagram(&preset("parking-lot", Some("fifo")).unwrap());
        let names: Vec<&str> = d.links.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["bottleneck", "hop2", "hop3"]);
        assert!(d.links.windows(2).all(|w| w[1].x > w[0].x));
        assert_eq!(d.links.iter().filter(|l| l.charted).count(), 1);
        assert_eq!(d.groups[0].spans, vec![(MARGIN, MARGIN + 3.0 * COLUMN)], "the long flow spans all three");
        for (i, g) in d.groups[1..].iter().enumerate() {
            let x0 = MARGIN + i as f64 * COLUMN;
            assert_eq!(g.spans, vec![(x0, x0 + COLUMN)], "group {} crosses link {i} alone", i + 2);
        }
        assert_eq!(d.links[0].limit_packets, 100.0);
        assert!(d.groups[0].label.contains("base RTT"), "{}", d.groups[0].label);
    }

    #[test]
    fn the_home_router_comes_before_the_modem_and_a_dumbbell_is_one_link() {
        let d = diagram(&preset("two-bottlenecks", Some("fq-codel-unshaped")).unwrap());
        let names: Vec<&str> = d.links.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["home", "modem"]);
        assert_eq!((d.links[0].rate.as_str(), d.links[1].rate.as_str()), ("100 Mbit/s", "10 Mbit/s"));
        let d = diagram(&preset("red-study", Some("red")).unwrap());
        assert_eq!(d.links.len(), 1);
        assert!(d.links[0].charted && d.more.is_none());
        assert_eq!(d.width, 2.0 * MARGIN + LABEL_WIDTH + 12.0, "wide enough for a group's label");
    }

    #[test]
    fn acks_on_a_route_of_their_own_are_drawn_under_their_groups_bar() {
        let d = diagram(&preset("ack-congestion", Some("with-upload")).unwrap());
        let names: Vec<&str> = d.links.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["down", "up"]);
        assert!(d.acks_drawn);
        // The download's data cross the downlink, its ACKs the uplink; the upload the other way.
        assert_eq!(d.groups[0].spans, vec![(MARGIN, MARGIN + COLUMN)]);
        assert_eq!(d.groups[0].ack_spans, vec![(MARGIN + COLUMN, MARGIN + 2.0 * COLUMN)]);
        assert_eq!(d.groups[1].ack_spans, vec![(MARGIN, MARGIN + COLUMN)]);
        assert!(d.groups[1].y - d.groups[0].y >= BAR_HEIGHT + ACK_BAR);
        assert!(!diagram(&preset("parking-lot", Some("fifo")).unwrap()).acks_drawn);
    }

    #[test]
    fn many_groups_are_summed_up_below_the_bars_shown() {
        let mut sc = Scenario::default();
        sc.flows = vec![sc.flows[0].clone(); MAX_BARS + 3];
        let d = diagram(&sc);
        assert_eq!(d.groups.len(), MAX_BARS);
        assert_eq!(d.more.as_deref(), Some("… and 3 more groups"));
        assert!(d.height > d.groups.last().unwrap().y + BAR_HEIGHT);
    }
}
