//! The chart colours: four roles (aggregates, averages, bands) and twenty flow colours that
//! stay clear of them, so a flow is never read as the aggregate or the queue beside it.
//! Plain data, tested natively.

use crate::chart_data::{FLOW_COLORS, FLOW_PALETTE};
use plotters::style::RGBColor;

/// 0-3 are roles: 0 the aggregate or the queue (near-black), 1 an average, arrivals or a
/// target (grey), 2 and 3 the device queue, totals and RED's bands (green, red; never drawn
/// beside flows). Then flows: Okabe-Ito's colour-blind-safe set first, then Tableau's, with
/// no black or grey among them.
pub const PALETTE: [RGBColor; FLOW_COLORS + FLOW_PALETTE] = [
    RGBColor(34, 34, 34),
    RGBColor(125, 125, 125),
    RGBColor(46, 160, 67),
    RGBColor(200, 40, 40),
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(120, 94, 240),
    RGBColor(170, 20, 90),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(0, 128, 128),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(174, 199, 232),
    RGBColor(255, 152, 150),
    RGBColor(152, 223, 138),
    RGBColor(197, 176, 213),
    RGBColor(196, 156, 148),
    RGBColor(219, 219, 141),
];

pub fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// CSS form of a palette colour, for HTML legends.
pub fn css_color(i: usize) -> String {
    let c = color(i);
    format!("rgb({},{},{})", c.0, c.1, c.2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart_data::flow_color;

    /// How far apart two colours look: Euclidean RGB weighted by the mean red ("redmean", a
    /// cheap approximation of perceived difference); about 0-765.
    pub fn distance(a: RGBColor, b: RGBColor) -> f64 {
        let r = (f64::from(a.0) + f64::from(b.0)) / 2.0;
        let (dr, dg, db) = (
            f64::from(a.0) - f64::from(b.0),
            f64::from(a.1) - f64::from(b.1),
            f64::from(a.2) - f64::from(b.2),
        );
        ((2.0 + r / 256.0) * dr * dr + 4.0 * dg * dg + (2.0 + (255.0 - r) / 256.0) * db * db).sqrt()
    }

    /// Beside flows only the aggregate's and the average's roles are drawn.
    const BESIDE_FLOWS: [usize; 2] = [0, 1];
    /// Apart enough to tell on a projector (the old orange average and vermilion flow 5
    /// were 20 apart, the old blue aggregate and flow 0 about 90).
    const APART: f64 = 100.0;

    #[test]
    fn no_flow_colour_looks_like_the_aggregate_or_the_average_whatever_the_flow() {
        for f in 0..200 {
            let k = flow_color(f);
            assert!(k >= FLOW_COLORS, "flow {f} got role colour {k}");
            for r in BESIDE_FLOWS {
                let d = distance(color(k), color(r));
                assert!(d > APART, "flow {f} ({:?}) is {d:.0} from role {r} ({:?})", color(k), color(r));
            }
        }
    }

    #[test]
    fn the_roles_differ_from_each_other_and_flows_cycle_within_their_own_colours() {
        for a in 0..FLOW_COLORS {
            for b in a + 1..FLOW_COLORS {
                assert!(distance(color(a), color(b)) > APART, "roles {a} and {b}");
            }
        }
        assert_eq!(flow_color(FLOW_PALETTE), flow_color(0));
        assert_ne!(flow_color(FLOW_PALETTE - 1), flow_color(0));
    }
}
