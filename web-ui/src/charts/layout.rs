//! Sizes that follow the canvas: device pixels per CSS pixel, where the legend goes, how
//! many ticks fit, and tick labels without noise. Plain Rust, tested natively.

/// A canvas of `width` × `height` CSS pixels drawn at `scale` device pixels per CSS pixel.
/// A canvas wider than [`ZOOM_FROM`] is laid out as a smaller one magnified (a full-screen
/// chart on a projector gets larger type and thicker lines, not just more room).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    pub scale: f64,
}

/// CSS width beyond which charts magnify.
pub const ZOOM_FROM: f64 = 1100.0;

impl Layout {
    pub fn new(width: f64, height: f64, scale: f64) -> Layout {
        let zoom = (width / ZOOM_FROM).clamp(1.0, 2.0);
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

    /// Legend columns when the legend sits below the plot.
    pub fn legend_columns(&self) -> usize {
        ((self.width / 150.0) as usize).clamp(1, 4)
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
    fn a_full_screen_chart_magnifies_its_type() {
        let big = Layout::new(2200.0, 1000.0, 1.0);
        assert_eq!(big.px(12.0), 24.0);
        assert_eq!(big.width, 1100.0);
        assert_eq!(Layout::new(800.0, 300.0, 2.0).px(12.0), 24.0);
    }

    #[test]
    fn the_y_label_area_grows_with_the_labels() {
        let l = Layout::new(800.0, 400.0, 1.0);
        assert!(l.y_label_area(0.0, 10_000.0) > l.y_label_area(0.0, 1.0));
    }
}
