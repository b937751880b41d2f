//! Drawing the prepared chart data onto canvases with plotters. Free functions, one per
//! kind of chart; sizes and fonts are chosen to stay readable on a projector.

use crate::chart_data::{Bars, DensityChart, Scatter, TimeChart};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;

const FONT: &str = "sans-serif";

/// Distinguishable colours: 0-3 for roles (main, average, bands), then one per flow.
const PALETTE: [RGBColor; 16] = [
    RGBColor(31, 78, 161),
    RGBColor(214, 96, 20),
    RGBColor(46, 160, 67),
    RGBColor(200, 40, 40),
    RGBColor(88, 86, 214),
    RGBColor(0, 150, 160),
    RGBColor(190, 120, 0),
    RGBColor(150, 60, 150),
    RGBColor(100, 100, 100),
    RGBColor(30, 120, 200),
    RGBColor(170, 170, 20),
    RGBColor(220, 80, 140),
    RGBColor(60, 60, 160),
    RGBColor(20, 110, 60),
    RGBColor(140, 80, 40),
    RGBColor(0, 0, 0),
];

pub fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// CSS form of a palette colour, for HTML legends.
pub fn css_color(i: usize) -> String {
    let c = color(i);
    format!("rgb({},{},{})", c.0, c.1, c.2)
}

/// Draws the series legend in the upper right and presents the canvas (every chart ends so).
macro_rules! legend_and_present {
    ($chart:ident, $root:ident) => {{
        $chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.3))
            .label_font((FONT, 13))
            .draw()
            .map_err(err)?;
        $root.present().map_err(err)
    }};
}

/// Axes for charts whose rows are named categories (flows, variants) rather than numbers.
macro_rules! category_mesh {
    ($chart:ident, $x_desc:expr, $names:ident) => {
        $chart
            .configure_mesh()
            .x_desc($x_desc)
            .y_labels($names.len().min(24))
            .y_label_formatter(&|y: &f64| {
                $names.get(y.round().max(0.0) as usize).cloned().unwrap_or_default()
            })
            .label_style((FONT, 14))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(err)?
    };
}

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

fn area(canvas: &HtmlCanvasElement) -> Result<DrawingArea<CanvasBackend, plotters::coord::Shift>, String> {
    let backend = CanvasBackend::with_canvas_object(canvas.clone()).ok_or("canvas has no 2D context")?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    Ok(root)
}

/// Lines over time, optional shaded bands, optional 0..1 secondary axis.
pub fn draw_time(canvas: &HtmlCanvasElement, c: &TimeChart) -> Result<(), String> {
    let root = area(canvas)?;
    let x_max = c.x_max.max(1e-3);
    let mut chart = ChartBuilder::on(&root)
        .caption(&c.title, (FONT, 20))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .right_y_label_area_size(if c.secondary_label.is_some() { 52 } else { 8 })
        .build_cartesian_2d(0.0..x_max, 0.0..c.y_max)
        .map_err(err)?
        .set_secondary_coord(0.0..x_max, 0.0..1.05);
    chart
        .configure_mesh()
        .x_desc("time (s)")
        .y_desc(&c.y_label)
        .label_style((FONT, 15))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(err)?;
    if let Some(label) = &c.secondary_label {
        chart.configure_secondary_axes().y_desc(label).label_style((FONT, 15)).draw().map_err(err)?;
    }
    for b in &c.bands {
        let col = color(b.color);
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(0.0, b.lo), (x_max, b.hi.min(c.y_max))],
                col.mix(0.12).filled(),
            )))
            .map_err(err)?
            .label(&b.label)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 18, y + 5)], col.mix(0.3).filled()));
    }
    for l in &c.lines {
        let col = color(l.color);
        let style = col.stroke_width(if l.color < 4 { 2 } else { 1 });
        let series = LineSeries::new(l.points.iter().copied(), style);
        let drawn = if l.secondary { chart.draw_secondary_series(series) } else { chart.draw_series(series) };
        drawn
            .map_err(err)?
            .label(&l.label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], col.stroke_width(2)));
    }
    legend_and_present!(chart, root)
}

/// One marker per event, rows by category, colour by kind.
pub fn draw_scatter(canvas: &HtmlCanvasElement, c: &Scatter) -> Result<(), String> {
    let root = area(canvas)?;
    let rows = c.rows.len().max(1) as f64;
    let names = c.rows.clone();
    let mut chart = ChartBuilder::on(&root)
        .caption(&c.title, (FONT, 20))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(0.0..c.x_max.max(1e-3), -0.5..rows - 0.5)
        .map_err(err)?;
    category_mesh!(chart, "time (s)", names);
    chart
        .draw_series(c.points.iter().map(|&(t, row, k)| Circle::new((t, row as f64), 2, color(k).filled())))
        .map_err(err)?;
    for (label, k) in &c.legend {
        let col = color(*k);
        chart
            .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
            .map_err(err)?
            .label(label)
            .legend(move |(x, y)| Circle::new((x + 8, y), 4, col.filled()));
    }
    legend_and_present!(chart, root)
}

/// Density curves with vertical marks (P50 thick, P95 thin).
pub fn draw_density(canvas: &HtmlCanvasElement, c: &DensityChart) -> Result<(), String> {
    let root = area(canvas)?;
    let y_max =
        c.curves.iter().flat_map(|l| l.points.iter().map(|p| p.1)).fold(0.0, f64::max).max(1e-9) * 1.1;
    let mut chart = ChartBuilder::on(&root)
        .caption(&c.title, (FONT, 20))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..c.x_max.max(1e-3), 0.0..y_max)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(&c.x_label)
        .y_desc("density")
        .label_style((FONT, 15))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(err)?;
    for l in &c.curves {
        let col = color(l.color);
        chart
            .draw_series(LineSeries::new(l.points.iter().copied(), col.stroke_width(2)))
            .map_err(err)?
            .label(&l.label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], col.stroke_width(2)));
    }
    for (i, (x, _, k)) in c.marks.iter().enumerate() {
        let width = if i % 2 == 0 { 2 } else { 1 };
        let tick = y_max * if i % 2 == 0 { 0.12 } else { 0.07 };
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(*x, y_max), (*x, y_max - tick)],
                color(*k).stroke_width(width),
            )))
            .map_err(err)?;
    }
    legend_and_present!(chart, root)
}

/// Horizontal bars (one per flow) with a line at the fair share.
pub fn draw_bars(canvas: &HtmlCanvasElement, c: &Bars) -> Result<(), String> {
    let root = area(canvas)?;
    let rows = c.bars.len().max(1) as f64;
    let x_max = c.bars.iter().map(|b| b.1).fold(c.fair, f64::max).max(1e-3) * 1.15;
    let names: Vec<String> = c.bars.iter().map(|b| b.0.clone()).collect();
    let mut chart = ChartBuilder::on(&root)
        .caption(&c.title, (FONT, 20))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(110)
        .build_cartesian_2d(0.0..x_max, -0.5..rows - 0.5)
        .map_err(err)?;
    category_mesh!(chart, "share of aggregate goodput", names);
    chart
        .draw_series(c.bars.iter().enumerate().map(|(i, (_, v, k))| {
            Rectangle::new([(0.0, i as f64 - 0.35), (*v, i as f64 + 0.35)], color(*k).mix(0.8).filled())
        }))
        .map_err(err)?;
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(c.fair, -0.5), (c.fair, rows - 0.5)],
            BLACK.stroke_width(2),
        )))
        .map_err(err)?
        .label("fair share")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], BLACK.stroke_width(2)));
    legend_and_present!(chart, root)
}
