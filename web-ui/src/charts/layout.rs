//! Sizes that follow the canvas: device pixels per CSS pixel, where the legend goes, how
//! many ticks fit, and tick labels without noise. Plain Rust, tested natively.

/// A canvas of `width` × `height` CSS pixels drawn at `scale` device pixels per CSS pixel.
/// A canvas wider than [`ZOOM_FROM`] (and taller than [`ZOOM_TALL`]) is laid out as a
/// smaller one magnified (a full-screen chart on a projector gets larger type and thicker
/// lines, not just more room; a wide, short one in the projector view is not magnified so
/// far that its plot is squeezed flat).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    pub scale: f64,
}

/// CSS width beyond which charts magnify.
pub const ZOOM_FROM: f64 = 1100.0;
/// Height a magnified chart keeps at the least, in its own (unmagnified) pixels.
pub const ZOOM_TALL: f64 = 230.0;

impl Layout {
    pub fn new(width: f64, height: f64, scale: f64) -> Layout {
        let zoom = (width / ZOOM_FROM).min(height / ZOOM_TALL).clamp(1.0, 2.0);
        Layout { width: width / zoom, height: height / zoom, scale: scale.max(0.5) * zoom }
    }

    /// `css` CSS pixels in device pixels.
    pub fn px(&self, css: f64) -> f64 {
        css * self.scale
    }

    /// The legend goes to the right of the plot when the canvas is wide enough, else below.
    pub fn legend_right(&self) -> bool {
        self.width >= 620.0
    }

    /// Where the legend goes, how wide it is and how each label breaks into lines, so that
    /// every label is read whole: to the right as wide as the longest label needs (up to a
    /// third of the canvas), below in as many columns as the longest label allows; a label
    /// longer than its column wraps at spaces (three lines at most, fewer if the legend
    /// would be taller than `room` CSS pixels to the right).
    pub fn legend_plan(&self, labels: &[&str], room: f64) -> LegendPlan {
        let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as f64;
        let need = LEGEND_SWATCH + LEGEND_CHAR * longest + LEGEND_PAD;
        let right = self.legend_right();
        let (cols, col_w) = if right {
            (1, need.clamp(150.0, (self.width / 3.0).max(150.0)))
        } else {
            let per = need.min(LEGEND_SWATCH + LEGEND_CHAR * 26.0 + LEGEND_PAD);
            let cols = ((self.width - 12.0) / per).floor().clamp(1.0, 4.0) as usize;
            (cols, (self.width - 12.0) / cols as f64)
        };
        let chars = ((col_w - LEGEND_SWATCH - LEGEND_PAD) / LEGEND_CHAR + 1e-9).floor().max(8.0) as usize;
        let mut plan = LegendPlan::new(labels, right, cols, col_w, chars, 3);
        for lines in [2, 1] {
            if !right || plan.height <= room {
                break;
            }
            plan = LegendPlan::new(labels, right, cols, col_w, chars, lines);
        }
        plan
    }

    /// Ticks on the time axis: one per ~90 CSS pixels of plot.
    pub fn x_ticks(&self) -> usize {
        ((self.width - if self.legend_right() { 250.0 } else { 80.0 }) / 90.0).clamp(3.0, 12.0) as usize
    }

    /// Room for the y tick labels and the axis title, from the widest label.
    pub fn y_label_area(&self, lo: f64, hi: f64) -> u32 {
        let widest = [lo, hi, (lo + hi) / 2.0, hi * 0.9]
            .iter()
            .map(|v| fmt_tick(*v).chars().count())
            .max()
            .unwrap_or(3);
        self.px(30.0 + 8.0 * widest as f64) as u32
    }
}

/// Average width of a legend character at 13 px (digits and capitals included), CSS px.
const LEGEND_CHAR: f64 = 7.3;
/// The swatch and the gap before the label, and the margin after it.
const LEGEND_SWATCH: f64 = 30.0;
const LEGEND_PAD: f64 = 10.0;
/// A label line's height, and the gap between entries.
pub const LEGEND_LINE: f64 = 16.0;
const LEGEND_GAP: f64 = 3.0;

/// The legend laid out: its place, its columns, and each entry's lines and position.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendPlan {
    pub right: bool,
    pub cols: usize,
    /// Width of the legend (right) or of one column (below), CSS px.
    pub col_w: f64,
    /// Each entry's label, broken into lines.
    pub lines: Vec<Vec<String>>,
    /// Each entry's column and top, CSS px from the legend's top.
    pub at: Vec<(usize, f64)>,
    /// The legend's height, CSS px.
    pub height: f64,
}

impl LegendPlan {
    fn new(labels: &[&str], right: bool, cols: usize, col_w: f64, chars: usize, max_lines: usize) -> Self {
        let lines: Vec<Vec<String>> = labels.iter().map(|l| wrap(l, chars, max_lines)).collect();
        let mut at = Vec::with_capacity(lines.len());
        let mut top = 4.0;
        // Row by row, each row as tall as its tallest entry.
        for row in lines.chunks(cols) {
            for c in 0..row.len() {
                at.push((c, top));
            }
            let tallest = row.iter().map(|l| l.len().max(1)).max().unwrap_or(1);
            top += tallest as f64 * LEGEND_LINE + LEGEND_GAP;
        }
        LegendPlan { right, cols, col_w, lines, at, height: top + 4.0 }
    }
}

/// How a line is drawn: its width in CSS pixels and, over a line it coincides with, a dash
/// (on, off) in CSS pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineLook {
    pub width: f64,
    pub dash: Option<(f64, f64)>,
}

/// Dashes of the lines drawn over a coinciding one, in turn: each its own rhythm, so the
/// colours underneath show through different gaps.
const DASHES: [(f64, f64); 5] = [(9.0, 5.0), (4.0, 4.0), (14.0, 5.0), (2.0, 4.0), (7.0, 7.0)];

/// Each line's look: its own width (`widths`), except in a group of coinciding lines
/// (indices in drawing order): the first, drawn underneath, is widest, and each drawn over
/// it is thinner and dashed, so every colour shows (a wide band under a thin dash reads on
/// a projector and on a phone alike, where a pixel's offset would not).
pub fn line_looks(widths: &[f64], groups: &[Vec<usize>]) -> Vec<LineLook> {
    let mut looks: Vec<LineLook> = widths.iter().map(|&width| LineLook { width, dash: None }).collect();
    for g in groups.iter().filter(|g| g.len() > 1) {
        let n = g.len();
        // A pair gets 2 px more under, seven lines 1 px a step (6 px in all).
        let step = (4.0 / (n - 1) as f64).clamp(1.0, 2.0);
        for (k, &m) in g.iter().enumerate() {
            if let Some(look) = looks.get_mut(m) {
                look.width += step * (n - 1 - k) as f64;
                look.dash = (k > 0).then(|| DASHES[(k - 1) % DASHES.len()]);
            }
        }
    }
    looks
}

/// Rows for labels along an axis so that none overprints another: each label (left edge
/// and width, px), in the order given, takes the first of `rows` rows where it clears every
/// label already there by `gap`; `None` where all are taken (its tick still shows).
pub fn label_rows(items: &[(f64, f64)], rows: usize, gap: f64) -> Vec<Option<usize>> {
    let mut taken: Vec<Vec<(f64, f64)>> = vec![Vec::new(); rows];
    items
        .iter()
        .map(|&(x, w)| {
            let clear = |row: &Vec<(f64, f64)>| row.iter().all(|&(a, b)| x + w + gap <= a || b + gap <= x);
            let r = taken.iter().position(clear)?;
            taken[r].push((x, x + w));
            Some(r)
        })
        .collect()
}

/// A tick label: no trailing ".0", at most three significant decimals, thousands plain.
pub fn fmt_tick(v: f64) -> String {
    if !v.is_finite() {
        return String::new();
    }
    let a = v.abs();
    let s = if a >= 100.0 || a == 0.0 || (v - v.round()).abs() < 1e-9 {
        format!("{:.0}", v)
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    };
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else if s == "-0" {
        "0".into()
    } else {
        s
    }
}

/// `text` broken at spaces into at most `lines` lines of `width` characters; what does not
/// fit ends in "…".
pub fn wrap(text: &str, width: usize, lines: usize) -> Vec<String> {
    let width = width.max(10);
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in text.split_whitespace() {
        if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > width {
            out.push(std::mem::take(&mut cur));
            if out.len() == lines {
                let last = out.last_mut().expect("a line");
                let keep: String = last.chars().take(width - 1).collect();
                *last = format!("{keep}…");
                return out;
            }
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // the values compared are exact by construction
mod tests {
    use super::*;

    #[test]
    fn notes_wrap_at_spaces_and_end_in_an_ellipsis_when_cut() {
        assert_eq!(wrap("one two three", 20, 2), vec!["one two three"]);
        assert_eq!(wrap("aaaa bbbb cccc dddd", 10, 2), vec!["aaaa bbbb", "cccc dddd"]);
        let cut = wrap("aaaa bbbb cccc dddd eeee", 10, 2);
        assert_eq!(cut.len(), 2);
        assert!(cut[1].ends_with('…'), "{cut:?}");
    }

    #[test]
    fn ticks_have_no_trailing_zeros() {
        assert_eq!(fmt_tick(10.0), "10");
        assert_eq!(fmt_tick(2.5), "2.5");
        assert_eq!(fmt_tick(0.125), "0.125");
        assert_eq!(fmt_tick(0.1), "0.1");
        assert_eq!(fmt_tick(1500.0), "1500");
        assert_eq!(fmt_tick(-0.0), "0");
        assert_eq!(fmt_tick(12.26), "12.3");
    }

    #[test]
    fn a_phone_puts_the_legend_below_a_projector_to_the_right() {
        assert!(!Layout::new(360.0, 300.0, 3.0).legend_right());
        assert!(Layout::new(1200.0, 500.0, 1.0).legend_right());
        assert_eq!(Layout::new(360.0, 300.0, 3.0).px(10.0), 30.0);
    }

    #[test]
    fn a_legend_label_is_never_cut_it_widens_the_legend_or_wraps() {
        let wide = Layout::new(1000.0, 400.0, 1.0);
        let labels = ["flow 0", "arriving at receivers", "codel = fq_codel here"];
        let p = wide.legend_plan(&labels, 400.0);
        assert!(p.right && p.cols == 1);
        assert!(p.lines.iter().all(|l| l.len() == 1), "room for each on one line: {p:?}");
        assert!(p.col_w >= 30.0 + 7.3 * 21.0, "as wide as the longest label");
        // A label longer than a third of the canvas wraps at spaces, whole.
        let long = "waiting in all (disc + device) at the bottleneck's router, both queues";
        let p = wide.legend_plan(&[long], 400.0);
        assert!(p.lines[0].len() > 1, "{p:?}");
        assert_eq!(p.lines[0].join(" "), long);
        assert!(p.col_w <= 1000.0 / 3.0 + 1e-9);
        // Below on a phone: fewer columns for longer labels, each row as tall as its entries.
        let phone = Layout::new(360.0, 300.0, 3.0);
        let short = phone.legend_plan(&["flow 0", "flow 1", "flow 2", "flow 3"], 300.0);
        let longer =
            phone.legend_plan(&["flow 0 · Vegas", "flow 1 · CUBIC", "aggregate goodput", "x"], 300.0);
        let longest = phone.legend_plan(&["flow 0", "arriving at receivers"], 300.0);
        assert!(!short.right, "below on a phone");
        assert_eq!((short.cols, longer.cols, longest.cols), (4, 2, 1));
        assert!(longer.lines.iter().chain(&longest.lines).flatten().all(|l| !l.ends_with('…')));
        assert_eq!(longer.at[0].1, longer.at[1].1, "one row");
        assert!(longer.at[2].1 > longer.at[1].1, "the next");
        assert!(longer.height > 2.0 * LEGEND_LINE);
    }

    #[test]
    fn a_tall_legend_to_the_right_gives_up_wrapping_before_it_overflows() {
        let l = Layout::new(700.0, 300.0, 1.0);
        let long = "a label far too long to fit on one line of a legend beside the plot of a chart";
        let labels = vec![long; 6];
        assert!(l.legend_plan(&labels, 1000.0).lines[0].len() > 1);
        let tight = l.legend_plan(&labels, 120.0);
        assert_eq!(tight.lines[0].len(), 1, "{tight:?}");
    }

    #[test]
    fn a_full_screen_chart_magnifies_its_type() {
        let big = Layout::new(2200.0, 1000.0, 1.0);
        assert_eq!(big.px(12.0), 24.0);
        assert_eq!(big.width, 1100.0);
        assert_eq!(Layout::new(800.0, 300.0, 2.0).px(12.0), 24.0);
        // Three charts stacked on a 1080p projector: wide and short, magnified less.
        let short = Layout::new(1880.0, 330.0, 1.0);
        assert!(short.px(12.0) > 12.0 && short.height >= ZOOM_TALL - 1e-9, "{short:?}");
    }

    #[test]
    fn of_coinciding_lines_the_one_underneath_is_widest_and_those_over_it_dashed_apart() {
        let looks = line_looks(&[2.5, 1.5, 1.5, 1.5], &[vec![1, 3]]);
        assert_eq!(looks[0], LineLook { width: 2.5, dash: None }, "not in a group");
        assert_eq!(looks[2], LineLook { width: 1.5, dash: None });
        assert_eq!(looks[1], LineLook { width: 3.5, dash: None }, "underneath: wide, solid");
        assert_eq!(looks[3].width, 1.5);
        assert!(looks[3].dash.is_some(), "over it: thin, dashed");
        let seven = line_looks(&[1.5; 7], &[(0..7).collect()]);
        for w in seven.windows(2) {
            assert!(w[0].width > w[1].width, "{seven:?}");
            assert_ne!(w[0].dash, w[1].dash, "each in its own rhythm: {seven:?}");
        }
        assert!(seven[0].width <= 1.5 + 6.0);
    }

    #[test]
    fn labels_that_would_overprint_take_the_next_row_or_none() {
        // P50 and P95 20 px apart with 22 px labels: the second goes below; a third far
        // off shares the first row; a fourth on top of the first two takes the third row;
        // a fifth there finds every row taken.
        let items = [(100.0, 22.0), (120.0, 22.0), (300.0, 22.0), (110.0, 22.0), (105.0, 22.0)];
        assert_eq!(label_rows(&items, 3, 4.0), vec![Some(0), Some(1), Some(0), Some(2), None]);
        assert_eq!(label_rows(&[(0.0, 10.0), (14.0, 10.0)], 3, 4.0), vec![Some(0), Some(0)]);
    }

    #[test]
    fn the_y_label_area_grows_with_the_labels() {
        let l = Layout::new(800.0, 400.0, 1.0);
        assert!(l.y_label_area(0.0, 10_000.0) > l.y_label_area(0.0, 1.0));
    }
}
