//! Drawing the prepared chart data onto canvases with plotters: free functions, one per
//! kind of chart. Sharp on HiDPI screens and projectors (the canvas is sized to its CSS box
//! × devicePixelRatio, and every size scales with it); legends sit outside the plot (to
//! the right when there is room, below on a phone); ticks print without trailing ".0".

mod layout;
mod palette;
pub use layout::fmt_tick;
pub use palette::{color, css_color};

use crate::chart_data::{
    coincidences, Bars, ChartData, Coincidence, DensityChart, Heatmap, Line, Scatter, TimeChart, DENSITY_TOP,
};
use layout::{Layout, LineLook};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;

const FONT: &str = "sans-serif";

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

type Area = DrawingArea<CanvasBackend, Shift>;

thread_local! {
    /// The CSS size of the next drawing when the canvas has no box of its own (a PNG export
    /// drawn off-screen).
    static SIZE: std::cell::Cell<Option<(f64, f64)>> = const { std::cell::Cell::new(None) };
}

/// Sizes the canvas to its box × `scale` (devicePixelRatio, or 2 for a PNG export) and
/// returns the whole area and the layout.
fn prepare(canvas: &HtmlCanvasElement, scale: f64) -> Result<(Area, Layout), String> {
    let (css_w, css_h) = SIZE
        .with(|s| s.get())
        .unwrap_or((f64::from(canvas.client_width()), f64::from(canvas.client_height())));
    let css_w = css_w.max(280.0);
    let css_h = css_h.max(200.0);
    let (w, h) = ((css_w * scale).round() as u32, (css_h * scale).round() as u32);
    if canvas.width() != w || canvas.height() != h {
        canvas.set_width(w);
        canvas.set_height(h);
    }
    let backend = CanvasBackend::with_canvas_object(canvas.clone()).ok_or("canvas has no 2D context")?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    Ok((root, Layout::new(css_w, css_h, scale)))
}

/// Draws any chart; `scale` is the device-pixel ratio.
pub fn draw(canvas: &HtmlCanvasElement, c: &ChartData, scale: f64) -> Result<(), String> {
    match c {
        ChartData::Time(c) => draw_time(canvas, c, scale),
        ChartData::Scatter(c) => draw_scatter(canvas, c, scale),
        ChartData::Density(c) => draw_density(canvas, c, scale),
        ChartData::Bars(c) => draw_bars(canvas, c, scale),
        ChartData::Heat(c) => draw_heat(canvas, c, scale),
    }
}

/// The title (and a note under it) across the top; returns the area below.
/// Draws a chart at `width` × `height` CSS pixels and `scale`, whatever the canvas's box
/// (an off-screen canvas for a PNG at twice the resolution).
pub fn draw_at(
    canvas: &HtmlCanvasElement,
    c: &ChartData,
    width: f64,
    height: f64,
    scale: f64,
) -> Result<(), String> {
    SIZE.with(|s| s.set(Some((width, height))));
    let r = draw(canvas, c, scale);
    SIZE.with(|s| s.set(None));
    r
}

fn titled(root: &Area, l: &Layout, title: &str, note: Option<&str>) -> Result<Area, String> {
    // Clear of the PNG and Enlarge buttons over the top right corner (on a phone they sit
    // above the canvas instead): a long title wraps.
    let tools = if l.width >= TOOLS_OVER_FROM { TOOLS_W } else { 0.0 };
    let chars = ((l.width - 20.0 - tools) / 10.5) as usize;
    let mut top = l.px(6.0);
    for line in layout::wrap(title, chars, 2) {
        root.draw(&Text::new(
            line,
            (l.px(10.0) as i32, top as i32),
            (FONT, l.px(18.0)).into_font().style(FontStyle::Bold),
        ))
        .map_err(err)?;
        top += l.px(22.0);
    }
    top += l.px(2.0);
    if let Some(n) = note {
        // A narrow canvas gives a note more lines: it says what the chart leaves out.
        for line in layout::wrap(n, (l.width / 6.8) as usize, if l.width < 500.0 { 4 } else { 3 }) {
            root.draw(&Text::new(
                line,
                (l.px(10.0) as i32, top as i32),
                (FONT, l.px(12.0)).into_font().color(&RGBColor(90, 100, 115)),
            ))
            .map_err(err)?;
            top += l.px(16.0);
        }
    }
    Ok(root.split_vertically(top as u32).1)
}

/// Room the chart's buttons take over the top right corner, CSS px, on canvases at least
/// [`TOOLS_OVER_FROM`] wide (a phone's, narrower, has them above).
const TOOLS_W: f64 = 130.0;
const TOOLS_OVER_FROM: f64 = 440.0;

/// A legend entry: a swatch (line as drawn, box or dot) and its label, or a note alone
/// (which lines coincide).
pub enum Swatch {
    Line(usize, LineLook),
    /// A pale thin line (raw values under their average).
    Faint(usize),
    Box(usize),
    Dot(usize),
    /// A hollow marker: an event of another kind beside the dots (a CE mark beside drops).
    Ring(usize),
    Note,
}

/// Splits off the legend area (right, or below on narrow canvases) and draws the entries,
/// each label whole (wrapped where it is long; see [`Layout::legend_plan`]).
fn legend(area: &Area, l: &Layout, entries: &[(String, Swatch)]) -> Result<Area, String> {
    if entries.is_empty() {
        return Ok(area.clone());
    }
    let (aw, ah) = area.dim_in_pixel();
    let labels: Vec<&str> = entries.iter().map(|e| e.0.as_str()).collect();
    let plan = l.legend_plan(&labels, f64::from(ah) / l.scale);
    let (plot, leg) = if plan.right {
        area.split_horizontally((f64::from(aw) - l.px(plan.col_w)).max(0.0) as u32)
    } else {
        area.split_vertically((f64::from(ah) - l.px(plan.height)).max(0.0) as u32)
    };
    let font = TextStyle::from((FONT, l.px(13.0)).into_font());
    let note = (FONT, l.px(13.0)).into_font().style(FontStyle::Italic).color(&RGBColor(70, 78, 92));
    for ((_, sw), (lines, &(col, top))) in entries.iter().zip(plan.lines.iter().zip(&plan.at)) {
        let x = l.px(col as f64 * plan.col_w + 6.0) as i32;
        // The swatch sits at the middle of the first line.
        let y = l.px(top + layout::LEGEND_LINE / 2.0) as i32;
        let w = l.px(18.0) as i32;
        match *sw {
            Swatch::Line(k, look) => {
                let style = color(k).stroke_width(l.px(look.width) as u32);
                let path = vec![(x, y), (x + w, y)];
                match look.dash {
                    Some((on, off)) => leg
                        .draw(&plotters::element::DashedPathElement::new(
                            path,
                            l.px(on) as u32,
                            l.px(off) as u32,
                            style,
                        ))
                        .map_err(err)?,
                    None => leg.draw(&PathElement::new(path, style)).map_err(err)?,
                }
            }
            Swatch::Note => {}
            Swatch::Faint(k) => {
                let style = color(k).mix(0.35).stroke_width(l.px(1.0) as u32);
                leg.draw(&PathElement::new(vec![(x, y), (x + w, y)], style)).map_err(err)?;
            }
            Swatch::Box(k) => {
                leg.draw(&Rectangle::new([(x, y - w / 3), (x + w, y + w / 3)], color(k).mix(0.35).filled()))
                    .map_err(err)?;
            }
            Swatch::Dot(k) => {
                leg.draw(&Circle::new((x + w / 2, y), (l.px(4.0)) as i32, color(k).filled())).map_err(err)?;
            }
            Swatch::Ring(k) => {
                let style = color(k).stroke_width(l.px(1.5) as u32);
                leg.draw(&Circle::new((x + w / 2, y), (l.px(4.5)) as i32, style)).map_err(err)?;
            }
        }
        let style = if matches!(sw, Swatch::Note) { &note } else { &font };
        for (i, text) in lines.iter().enumerate() {
            let ty = l.px(top + 1.0 + i as f64 * layout::LEGEND_LINE) as i32;
            leg.draw(&Text::new(text.clone(), (x + w + l.px(6.0) as i32, ty), style.clone())).map_err(err)?;
        }
    }
    Ok(plot)
}

/// A line's legend entry as it is drawn; after the lines, a note for each group that
/// coincides ("flows 0-6 coincide").
fn line_entries(lines: &[Line], looks: &[LineLook], groups: &[Coincidence]) -> Vec<(String, Swatch)> {
    let mut out: Vec<(String, Swatch)> = lines
        .iter()
        .zip(looks)
        .map(|(l, look)| {
            (l.label.clone(), if l.faint { Swatch::Faint(l.color) } else { Swatch::Line(l.color, *look) })
        })
        .collect();
    out.extend(groups.iter().map(|g| (g.note.clone(), Swatch::Note)));
    out
}

/// The looks of `lines` at their own `width`s, coinciding groups drawn apart.
fn looks_of(lines: &[Line], width: impl Fn(&Line) -> f64, groups: &[Coincidence]) -> Vec<LineLook> {
    let members: Vec<Vec<usize>> = groups.iter().map(|g| g.members.clone()).collect();
    layout::line_looks(&lines.iter().map(width).collect::<Vec<_>>(), &members)
}

/// One line as it looks; a NaN (no value in that interval) breaks it, and a value alone
/// between two gaps is a dot rather than nothing.
fn draw_line(chart: &mut Cart<'_>, l: &Layout, ln: &Line, look: LineLook) -> Result<(), String> {
    let style = if ln.faint {
        color(ln.color).mix(0.35).stroke_width(l.px(1.0).max(1.0) as u32)
    } else {
        color(ln.color).stroke_width(l.px(look.width).max(1.0) as u32)
    };
    let points = if ln.dashed { steps(&ln.points) } else { ln.points.clone() };
    for run in points.split(|p| !p.1.is_finite()).filter(|r| !r.is_empty()) {
        if let [p] = run {
            let r = l.px((look.width * 0.6).clamp(1.2, 3.0)) as i32;
            chart.draw_series(std::iter::once(Circle::new(*p, r, style.filled()))).map_err(err)?;
            continue;
        }
        match look.dash {
            Some((on, off)) => chart
                .draw_series(DashedLineSeries::new(
                    run.iter().copied(),
                    l.px(on) as u32,
                    l.px(off) as u32,
                    style,
                ))
                .map_err(err)?,
            None => chart.draw_series(LineSeries::new(run.iter().copied(), style)).map_err(err)?,
        };
    }
    Ok(())
}

/// Lines over time, shaded bands, markers, reference levels and the scrub cursor.
pub fn draw_time(canvas: &HtmlCanvasElement, c: &TimeChart, scale: f64) -> Result<(), String> {
    let (root, l) = prepare(canvas, scale)?;
    let body = titled(&root, &l, &c.title, c.note.as_deref())?;
    // One legend entry per band, however many stretches of time it spans.
    let mut entries: Vec<(String, Swatch)> = Vec::new();
    for b in &c.bands {
        if !entries.iter().any(|(l, _)| *l == b.label) {
            entries.push((b.label.clone(), Swatch::Box(b.color)));
        }
    }
    let y_max = if c.y_max > c.y_min { c.y_max } else { c.y_min + 1.0 };
    let groups = coincidences(&c.lines, c.y_min, y_max);
    let looks = looks_of(&c.lines, |ln| if ln.bold { 2.5 } else { 1.5 }, &groups);
    entries.extend(line_entries(&c.lines, &looks, &groups));
    let plot = legend(&body, &l, &entries)?;
    let x_max = c.x_max.max(1e-3);
    let mut chart = ChartBuilder::on(&plot)
        .margin_right(l.px(16.0) as u32)
        .margin_top(l.px(6.0) as u32)
        .x_label_area_size(l.px(42.0) as u32)
        .y_label_area_size(l.y_label_area(c.y_min, y_max))
        .build_cartesian_2d(0.0..x_max, c.y_min..y_max)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(c.x_label.as_str())
        .y_desc(&c.y_label)
        .x_labels(l.x_ticks())
        .y_labels(6)
        .x_label_formatter(&|v| fmt_tick(*v))
        .y_label_formatter(&|v| fmt_tick(*v))
        .label_style((FONT, l.px(13.0)))
        .axis_desc_style((FONT, l.px(14.0)))
        .light_line_style(RGBColor(238, 240, 244))
        .bold_line_style(RGBColor(225, 228, 234))
        .draw()
        .map_err(err)?;
    for b in &c.bands {
        let col = color(b.color);
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(b.from.max(0.0), b.lo.max(c.y_min)), (b.to.min(x_max), b.hi.min(y_max))],
                col.mix(0.12).filled(),
            )))
            .map_err(err)?;
    }
    for lv in &c.levels {
        let st = RGBColor(60, 60, 60).stroke_width(l.px(1.5) as u32);
        chart.draw_series(dashed_h(lv.y, x_max, st)).map_err(err)?;
        // Right-aligned under the line, clear of the marker labels along the top.
        let style = TextStyle::from((FONT, l.px(12.0)).into_font()).pos(Pos::new(HPos::Right, VPos::Top));
        chart
            .draw_series(std::iter::once(Text::new(
                lv.label.clone(),
                (x_max * 0.99, lv.y - (y_max - c.y_min) * 0.02),
                style,
            )))
            .map_err(err)?;
    }
    for (ln, look) in c.lines.iter().zip(&looks) {
        draw_line(&mut chart, &l, ln, *look)?;
    }
    draw_markers(&mut chart, &l, &c.markers, c.cursor, (c.y_min, y_max))?;
    root.present().map_err(err)
}

/// A value held until the next sample, as one path of horizontal steps.
fn steps(p: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::with_capacity(2 * p.len());
    for w in p.windows(2) {
        out.extend([(w[0].0, w[0].1), (w[1].0, w[0].1)]);
    }
    out.extend(p.last().copied());
    out
}

fn dashed_h(y: f64, x_max: f64, st: ShapeStyle) -> impl Iterator<Item = PathElement<(f64, f64)>> {
    let n = 40;
    (0..n).step_by(2).map(move |i| {
        let a = x_max * f64::from(i) / f64::from(n);
        PathElement::new(vec![(a, y), (a + x_max / f64::from(n), y)], st)
    })
}

type Cart<'a> = ChartContext<
    'a,
    CanvasBackend,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// Vertical markers with their labels, and the scrub cursor.
fn draw_markers(
    chart: &mut Cart<'_>,
    l: &Layout,
    markers: &[crate::chart_data::Marker],
    cursor: Option<f64>,
    y: (f64, f64),
) -> Result<(), String> {
    let grey = RGBColor(80, 80, 80);
    for (i, m) in markers.iter().enumerate() {
        // Staggered, so labels of nearby markers (warm-up end, Warbler on) do not overlap.
        let label_y = y.1 - (y.1 - y.0) * (0.02 + 0.08 * (i % 3) as f64);
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(m.t, y.0), (m.t, y.1)],
                grey.stroke_width(l.px(1.5) as u32),
            )))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(Text::new(
                format!(" {}", m.label),
                (m.t, label_y),
                (FONT, l.px(12.0)),
            )))
            .map_err(err)?;
    }
    if let Some(t) = cursor {
        let red = RGBColor(180, 35, 24);
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(t, y.0), (t, y.1)],
                red.stroke_width(l.px(2.0) as u32),
            )))
            .map_err(err)?;
    }
    Ok(())
}

fn category_names(rows: &[String]) -> impl Fn(&f64) -> String + '_ {
    move |y: &f64| rows.get(y.round().max(0.0) as usize).cloned().unwrap_or_default()
}

/// Time across, one row per category (flows, queues) down, with the axes drawn: the frame
/// of the drop scatter and the flow → queue map.
fn time_by_category<'a>(
    plot: &'a Area,
    l: &Layout,
    rows: &[String],
    x_max: f64,
) -> Result<
    ChartContext<
        'a,
        CanvasBackend,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    String,
> {
    let n = rows.len().max(1) as f64;
    let mut chart = ChartBuilder::on(plot)
        .margin_right(l.px(16.0) as u32)
        .x_label_area_size(l.px(42.0) as u32)
        .y_label_area_size(l.px(70.0) as u32)
        .build_cartesian_2d(0.0..x_max.max(1e-3), -0.5..n - 0.5)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("time (s)")
        .x_labels(l.x_ticks())
        .x_label_formatter(&|v| fmt_tick(*v))
        .y_labels(rows.len().min(20))
        .y_label_formatter(&category_names(rows))
        .label_style((FONT, l.px(13.0)))
        .axis_desc_style((FONT, l.px(14.0)))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(err)?;
    Ok(chart)
}

/// One marker per event, rows by category, colour by kind.
pub fn draw_scatter(canvas: &HtmlCanvasElement, c: &Scatter, scale: f64) -> Result<(), String> {
    let (root, l) = prepare(canvas, scale)?;
    let body = titled(&root, &l, &c.title, c.note.as_deref())?;
    let entries: Vec<(String, Swatch)> = (c.legend.iter().map(|(s, k)| (s.clone(), Swatch::Dot(*k))))
        .chain(c.ring_legend.iter().map(|(s, k)| (s.clone(), Swatch::Ring(*k))))
        .collect();
    let plot = legend(&body, &l, &entries)?;
    let mut chart = time_by_category(&plot, &l, &c.rows, c.x_max)?;
    let r = l.px(if c.points.len() > 1000 { 1.5 } else { 2.5 }) as i32;
    chart
        .draw_series(
            c.points
                .iter()
                .map(|&(t, row, k)| Circle::new((t, row as f64), r.max(1), color(k).mix(0.7).filled())),
        )
        .map_err(err)?;
    // Marks as rings a little larger than the dots, so a drop and a mark at one spot both show.
    let ring = l.px(if c.rings.len() > 1000 { 2.5 } else { 3.5 }) as i32;
    let stroke = l.px(1.0).max(1.0) as u32;
    chart
        .draw_series(c.rings.iter().map(|&(t, row, k)| {
            Circle::new((t, row as f64), ring.max(2), color(k).mix(0.8).stroke_width(stroke))
        }))
        .map_err(err)?;
    draw_markers(&mut chart, &l, &c.markers, c.cursor, (-0.5, c.rows.len().max(1) as f64 - 0.5))?;
    root.present().map_err(err)
}

/// Density curves (each scaled to its peak) with labelled P50/P95 marks.
pub fn draw_density(canvas: &HtmlCanvasElement, c: &DensityChart, scale: f64) -> Result<(), String> {
    let (root, l) = prepare(canvas, scale)?;
    let body = titled(
        &root,
        &l,
        &c.title,
        Some("each curve scaled to its own peak; ticks mark P50 (long) and P95 (short)"),
    )?;
    let groups = coincidences(&c.curves, 0.0, DENSITY_TOP);
    let looks = looks_of(&c.curves, |_| 2.0, &groups);
    let plot = legend(&body, &l, &line_entries(&c.curves, &looks, &groups))?;
    let mut chart = ChartBuilder::on(&plot)
        .margin_right(l.px(16.0) as u32)
        .margin_top(l.px(6.0) as u32)
        .x_label_area_size(l.px(42.0) as u32)
        .y_label_area_size(l.px(58.0) as u32)
        .build_cartesian_2d(0.0..c.x_max.max(1e-3), 0.0..DENSITY_TOP)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(&c.x_label)
        .y_desc("relative density")
        .x_labels(l.x_ticks())
        .x_label_formatter(&|v| fmt_tick(*v))
        .y_labels(5)
        .y_label_formatter(&|v| if *v > 1.01 { String::new() } else { fmt_tick(*v) })
        .label_style((FONT, l.px(13.0)))
        .axis_desc_style((FONT, l.px(14.0)))
        .light_line_style(RGBColor(238, 240, 244))
        .draw()
        .map_err(err)?;
    for (ln, look) in c.curves.iter().zip(&looks) {
        draw_line(&mut chart, &l, ln, *look)?;
    }
    // Ticks down from the top (P50 long, P95 short); beside each its label, in the first
    // of three rows where it clears the others (P50s first), once for marks that coincide.
    let mut labels: Vec<(usize, f64, f64)> = Vec::new();
    for (i, (x, label, k)) in c.marks.iter().enumerate() {
        let p50 = label.starts_with("P50");
        let len = if p50 { 0.14 } else { 0.08 };
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(*x, DENSITY_TOP), (*x, DENSITY_TOP - len)],
                color(*k).stroke_width(l.px(if p50 { 2.5 } else { 1.5 }) as u32),
            )))
            .map_err(err)?;
        let px = f64::from(chart.backend_coord(&(*x, DENSITY_TOP)).0);
        let twin = labels.iter().any(|&(j, at, _)| c.marks[j].1 == *label && (at - px).abs() < l.px(3.0));
        if !twin {
            labels.push((i, px, l.px(6.5) * label.chars().count() as f64));
        }
    }
    labels.sort_by_key(|&(i, ..)| !c.marks[i].1.starts_with("P50"));
    let spans: Vec<(f64, f64)> = labels.iter().map(|&(_, x, w)| (x + l.px(3.0), w)).collect();
    let rows = layout::label_rows(&spans, 3, l.px(4.0));
    let top = f64::from(chart.backend_coord(&(0.0, DENSITY_TOP)).1);
    for ((i, ..), (span, row)) in labels.iter().zip(spans.iter().zip(rows)) {
        let Some(row) = row else { continue };
        let (text, k) = (&c.marks[*i].1, c.marks[*i].2);
        let c = color(k);
        let dark = RGBColor(
            (f64::from(c.0) * 0.6) as u8,
            (f64::from(c.1) * 0.6) as u8,
            (f64::from(c.2) * 0.6) as u8,
        );
        root.draw(&Text::new(
            text.clone(),
            (span.0 as i32, (top + l.px(1.0 + 13.0 * row as f64)) as i32),
            (FONT, l.px(11.0)).into_font().color(&dark),
        ))
        .map_err(err)?;
    }
    root.present().map_err(err)
}

/// Horizontal bars (one per flow) with a line at the fair share.
pub fn draw_bars(canvas: &HtmlCanvasElement, c: &Bars, scale: f64) -> Result<(), String> {
    let (root, l) = prepare(canvas, scale)?;
    let body = titled(&root, &l, &c.title, None)?;
    let dash = |dashed: bool| dashed.then_some((4.0, 3.0));
    let entries: Vec<(String, Swatch)> =
        (c.fair.iter())
            .map(|_| ("fair share".to_string(), Swatch::Line(0, LineLook { width: 2.0, dash: None })))
            .chain(c.refs.iter().map(|r| {
                (r.label.clone(), Swatch::Line(r.color, LineLook { width: 2.5, dash: dash(r.dashed) }))
            }))
            .collect();
    let plot = legend(&body, &l, &entries)?;
    let rows = c.bars.len().max(1) as f64;
    let refs_max = c.refs.iter().flat_map(|r| r.values.iter().copied()).fold(0.0, f64::max);
    let x_max =
        c.bars.iter().map(|b| b.1).fold(c.fair.unwrap_or(0.0).max(refs_max), f64::max).max(1e-3) * 1.15;
    let names: Vec<String> = c.bars.iter().map(|b| b.0.clone()).collect();
    let fmt = category_names(&names);
    let mut chart = ChartBuilder::on(&plot)
        .margin_right(l.px(16.0) as u32)
        .x_label_area_size(l.px(42.0) as u32)
        // As wide as the longest name ("flow 2 (Q1) · Vegas").
        .y_label_area_size(
            l.px(16.0 + 7.3 * names.iter().map(|n| n.chars().count()).max().unwrap_or(6) as f64) as u32,
        )
        .build_cartesian_2d(0.0..x_max, -0.5..rows - 0.5)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(&c.x_label)
        .x_label_formatter(&|v| format!("{:.0} %", 100.0 * v))
        .y_labels(names.len().min(24))
        .y_label_formatter(&fmt)
        .label_style((FONT, l.px(13.0)))
        .axis_desc_style((FONT, l.px(14.0)))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(err)?;
    chart
        .draw_series(c.bars.iter().enumerate().map(|(i, (_, v, k))| {
            Rectangle::new([(0.0, i as f64 - 0.35), (*v, i as f64 + 0.35)], color(*k).mix(0.8).filled())
        }))
        .map_err(err)?;
    if let Some(fair) = c.fair {
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(fair, -0.5), (fair, rows - 0.5)],
                color(0).stroke_width(l.px(2.0) as u32),
            )))
            .map_err(err)?;
    }
    // Each reference a tick across its flow's bar.
    for r in &c.refs {
        let style = color(r.color).stroke_width(l.px(2.5) as u32);
        for (i, &x) in r.values.iter().enumerate() {
            let (y0, y1) = (i as f64 - 0.45, i as f64 + 0.45);
            let tick = [(x, y0), (x, y1)];
            match dash(r.dashed) {
                Some((on, off)) => chart
                    .draw_series(DashedLineSeries::new(tick, l.px(on) as u32, l.px(off) as u32, style))
                    .map_err(err)?,
                None => chart.draw_series(LineSeries::new(tick, style)).map_err(err)?,
            };
        }
    }
    root.present().map_err(err)
}

/// Rows × time, each cell coloured (which queue a flow is in).
pub fn draw_heat(canvas: &HtmlCanvasElement, c: &Heatmap, scale: f64) -> Result<(), String> {
    let (root, l) = prepare(canvas, scale)?;
    let body = titled(&root, &l, &c.title, None)?;
    let entries: Vec<(String, Swatch)> = c.legend.iter().map(|(s, k)| (s.clone(), Swatch::Box(*k))).collect();
    let plot = legend(&body, &l, &entries)?;
    let mut chart = time_by_category(&plot, &l, &c.rows, c.x_max)?;
    chart
        .draw_series(c.cells.iter().map(|&(t0, t1, row, k)| {
            Rectangle::new([(t0, row as f64 - 0.4), (t1, row as f64 + 0.4)], color(k).mix(0.75).filled())
        }))
        .map_err(err)?;
    draw_markers(&mut chart, &l, &c.markers, c.cursor, (-0.5, c.rows.len().max(1) as f64 - 0.5))?;
    root.present().map_err(err)
}
