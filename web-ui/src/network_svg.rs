//! The network diagram as SVG markup, from its geometry ([`crate::network`]): written as
//! text rather than as components (a tenth of the code in the module the page downloads),
//! tested natively. Each link is a `<g data-link>`; the page finds the one clicked by it.

use crate::chart_data::flow_color;
use crate::charts::css_color;
use crate::network::{Diagram, GroupBar, LinkBox, LinkLive, COLUMN, LABEL_WIDTH, LINK_HEIGHT, LINK_TOP};
use std::fmt::Write as _;

/// Text for SVG: `&`, `<`, `>` and `"` escaped.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Where a link's queue stands: calm, building, nearly full.
pub fn fill_class(fill: f64) -> &'static str {
    match fill {
        f if f < 0.3 => "calm",
        f if f < 0.7 => "building",
        _ => "full",
    }
}

fn link_box(o: &mut String, l: &LinkBox, live: Option<LinkLive>) {
    let mid = LINK_TOP + LINK_HEIGHT / 2.0;
    let (qx, qw, qh) = (l.x + 22.0, COLUMN - 44.0, 18.0);
    let (cx, fill) = (l.x + COLUMN / 2.0, live.map_or(0.0, |v| v.fill));
    let title = format!(
        "{}: {}, {}, a buffer of {:.0} packets.{} Click to edit it.",
        l.name,
        l.rate,
        l.disc,
        l.limit_packets,
        if l.charted { " The queue, delay and drop charts are this link's." } else { "" }
    );
    let charted = if l.charted { " charted" } else { "" };
    let _ = write!(
        o,
        r#"<g class="net-link{charted}" data-link="{name}" role="button" tabindex="0" aria-label="{t}"><title>{t}</title><rect class="hit" x="{x}" y="{LINK_TOP}" width="{COLUMN}" height="{LINK_HEIGHT}"/><line class="wire" x1="{x}" y1="{mid}" x2="{x2}" y2="{mid}"/><rect class="queue" x="{qx}" y="{qy}" width="{qw}" height="{qh}"/><rect class="queue-fill {fc}" x="{fx}" y="{qy}" width="{fw}" height="{qh}" data-fill="{fill:.3}"/><text class="link-name" x="{cx}" y="{ny}">{name} · {rate}</text><text class="link-disc" x="{cx}" y="{dy}">{disc}</text>"#,
        name = esc(&l.name),
        t = esc(&title),
        x = l.x,
        x2 = l.x + COLUMN,
        qy = mid - qh / 2.0,
        fc = fill_class(fill),
        fx = qx + qw * (1.0 - fill),
        fw = qw * fill,
        ny = LINK_TOP + 10.0,
        rate = esc(&l.rate),
        dy = mid + qh / 2.0 + 14.0,
        disc = esc(&l.disc),
    );
    if let Some(v) = live {
        let util = v.utilisation_pct.map_or(String::new(), |u| format!(" · {u:.0} % busy"));
        let _ = write!(
            o,
            r#"<text class="link-live" x="{cx}" y="{}">{:.0} pkt queued{util}</text>"#,
            mid + qh / 2.0 + 28.0,
            v.queue_packets
        );
    }
    o.push_str("</g>");
}

fn group_bar(o: &mut String, g: &GroupBar, width: f64) {
    let color = css_color(flow_color(g.group));
    let (x0, x1) = (g.spans.first().map_or(0.0, |s| s.0), g.spans.last().map_or(0.0, |s| s.1));
    // A label that would run off the right edge ends where its bar does.
    let (label_x, anchor) = if x0 + LABEL_WIDTH > width { (x1 - 6.0, "end") } else { (x0 + 6.0, "start") };
    let _ = write!(o, r#"<g class="net-group" data-group="{}">"#, g.group);
    for (a, b) in &g.spans {
        let _ = write!(
            o,
            r#"<rect x="{}" y="{}" width="{}" height="8" rx="4" style="fill: {color}"/>"#,
            a + 4.0,
            g.y + 15.0,
            (b - a - 8.0).max(1.0)
        );
    }
    // Its ACK route, dashed, under its data's.
    for (a, b) in &g.ack_spans {
        let _ = write!(
            o,
            r#"<rect class="ack-bar" x="{}" y="{}" width="{}" height="5" rx="2" style="stroke: {color}"/>"#,
            a + 4.0,
            g.y + 27.0,
            (b - a - 8.0).max(1.0)
        );
    }
    let _ = write!(
        o,
        r#"<text x="{label_x}" y="{}" text-anchor="{anchor}">{}</text></g>"#,
        g.y + 11.0,
        esc(&g.label)
    );
}

/// The whole diagram, each link with what it does at the time shown (`live`, by link).
pub fn svg(d: &Diagram, live: &[Option<LinkLive>]) -> String {
    let mut o = String::new();
    let _ = write!(
        o,
        r#"<svg viewBox="0 0 {w} {h}" style="max-width: {max}px; min-width: {min}px" role="group" aria-label="The network's links, left to right, and the flow groups under the links they cross">"#,
        w = d.width,
        h = d.height,
        max = d.width * 1.4,
        // Never drawn below 0.85 px per unit (text of 10 px): a phone scrolls it instead.
        min = d.width * 0.85,
    );
    for (i, l) in d.links.iter().enumerate() {
        link_box(&mut o, l, live.get(i).copied().flatten());
    }
    let mid = LINK_TOP + LINK_HEIGHT / 2.0;
    for x in d.links.iter().map(|l| l.x).chain(d.links.last().map(|l| l.x + COLUMN)) {
        let _ = write!(o, r#"<circle class="net-node" cx="{x}" cy="{mid}" r="6"/>"#);
    }
    for g in &d.groups {
        group_bar(&mut o, g, d.width);
    }
    if let Some(m) = &d.more {
        let _ = write!(o, r#"<text class="net-more" x="10" y="{}">{}</text>"#, d.height - 10.0, esc(m));
    }
    o.push_str("</svg>");
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::diagram;
    use sim_core::scenario::preset;

    #[test]
    fn every_link_is_a_group_with_its_fill_and_every_label_is_escaped() {
        let d = diagram(&preset("two-bottlenecks", Some("fq-codel-unshaped")).unwrap());
        let live = [None, Some(LinkLive { queue_packets: 150.0, fill: 0.5, utilisation_pct: Some(99.6) })];
        let s = svg(&d, &live);
        assert!(s.starts_with("<svg ") && s.ends_with("</svg>"));
        assert_eq!(s.matches(r#"class="net-link"#).count(), 2);
        assert!(s.contains(r#"data-link="home""#) && s.contains(r#"data-link="modem""#));
        assert!(s.contains(r#"class="queue-fill building""#) && s.contains(r#"data-fill="0.500""#));
        assert!(s.contains("150 pkt queued · 100 % busy"), "{s}");
        assert!(s.contains(r#"class="net-link charted" data-link="home""#), "the charted link is marked");
        assert_eq!(esc(r#"a<b>&"c""#), "a&lt;b&gt;&amp;&quot;c&quot;");
        // Parses as XML: every element closed.
        assert_eq!(s.matches("<g ").count(), s.matches("</g>").count());
    }
}
