//! The clustering playground of the Warbler paper's Fig. 2: a student edits or drags
//! backlogs and K, and sees the SSE (textbook K-means) and SSRE (Warbler) partitions side by
//! side with their objectives, and beneath them the exact SSRE optimum (not in the paper),
//! which the K-means starts do not always reach.

use crate::charts::color;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use sim_core::rng::{SimRng, StreamId};
use sim_core::warbler::{decide, Init, KmeansConfig, Objective, Partition};
use web_sys::{HtmlCanvasElement, HtmlInputElement};
use yew::prelude::*;

const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;

pub enum Msg {
    Text(String),
    K(String),
    Down(f64),
    Move(f64),
    Up,
}

pub struct Playground {
    text: String,
    k: usize,
    values: Vec<f64>,
    error: Option<String>,
    dragging: Option<usize>,
    canvas: NodeRef,
}

/// The paper's example (Fig. 2).
const FIG2: &str = "40, 152, 200, 1952, 2384, 2414";

fn parse(text: &str) -> Result<Vec<f64>, String> {
    let v: Result<Vec<f64>, String> = text
        .split([',', ' ', '\n'])
        .filter(|t| !t.trim().is_empty())
        .map(|t| {
            t.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or(format!("'{t}' is not a backlog (cells ≥ 0)"))
        })
        .collect();
    let v = v?;
    if v.is_empty() {
        return Err("type some backlogs, e.g. 40, 152, 200".into());
    }
    if v.len() > 200 {
        return Err("at most 200 points here".into());
    }
    Ok(v)
}

/// One row of the playground: an objective, and the K-means starts or the exact optimum.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Row {
    Sse,
    Ssre,
    SsreOptimum,
}

impl Row {
    const ALL: [Row; 3] = [Row::Sse, Row::Ssre, Row::SsreOptimum];

    fn name(self) -> &'static str {
        match self {
            Row::Sse => "SSE",
            Row::Ssre => "SSRE",
            Row::SsreOptimum => "SSRE optimum",
        }
    }
}

fn partition(values: &[f64], k: usize, row: Row) -> Result<Partition, String> {
    let (objective, inits) = match row {
        Row::Sse => (Objective::Sse, KmeansConfig::default().inits),
        Row::Ssre => (Objective::Ssre, KmeansConfig::default().inits),
        Row::SsreOptimum => (Objective::Ssre, vec![Init::Optimal]),
    };
    let cfg = KmeansConfig { k, objective, inits, ..KmeansConfig::default() };
    decide(values, None, &cfg, &mut SimRng::new(1, StreamId::Other(0)))
        .map(|d| d.chosen)
        .map_err(|e| e.to_string())
}

/// "SSRE: {1, 2} {100, 110, 5000} · objective 1.1667": the groups `row` makes.
pub fn groups_line(values: &[f64], k: usize, row: Row) -> String {
    let name = row.name();
    match partition(values, k, row) {
        Ok(p) => {
            let groups: Vec<String> = p
                .members(values)
                .iter()
                .filter(|m| !m.is_empty())
                .map(|m| {
                    let m: Vec<String> = m.iter().map(|v| format!("{v:.0}")).collect();
                    format!("{{{}}}", m.join(", "))
                })
                .collect();
            format!("{name}: {} · objective {:.4}", groups.join(" "), p.objective)
        }
        Err(e) => format!("{name}: {e}"),
    }
}

impl Playground {
    fn x_max(&self) -> f64 {
        self.values.iter().copied().fold(1.0, f64::max) * 1.1
    }

    /// The data value under canvas x (CSS pixels).
    fn value_at(&self, x: f64) -> f64 {
        let Some(c) = self.canvas.cast::<HtmlCanvasElement>() else { return 0.0 };
        let w = f64::from(c.client_width());
        ((x - LEFT) / (w - LEFT - RIGHT) * self.x_max()).max(0.0)
    }

    fn sync_text(&mut self) {
        self.text = self.values.iter().map(|v| format!("{:.0}", v)).collect::<Vec<_>>().join(", ");
    }

    fn draw(&self) -> Result<(), String> {
        let c = self.canvas.cast::<HtmlCanvasElement>().ok_or("no canvas")?;
        let s = crate::dom::pixel_ratio();
        let (w, h) = (f64::from(c.client_width().max(300)), f64::from(c.client_height().max(200)));
        c.set_width((w * s) as u32);
        c.set_height((h * s) as u32);
        let root = CanvasBackend::with_canvas_object(c).ok_or("no 2D context")?.into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let x_max = self.x_max();
        let mut chart = ChartBuilder::on(&root)
            .margin_left(((LEFT - 60.0) * s) as u32)
            .margin_right((RIGHT * s) as u32)
            .y_label_area_size((60.0 * s) as u32)
            .x_label_area_size((36.0 * s) as u32)
            .build_cartesian_2d(0.0..x_max, -0.5..2.5)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("backlog (cells)")
            .y_labels(3)
            .y_label_formatter(&|y: &f64| {
                Row::ALL[(y.round().clamp(0.0, 2.0)) as usize].name().replace(" optimum", " opt.")
            })
            .label_style(("sans-serif", 14.0 * s))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, kind) in Row::ALL.into_iter().enumerate() {
            let row = i as f64;
            let Ok(p) = partition(&self.values, self.k, kind) else { continue };
            chart
                .draw_series(
                    self.values.iter().zip(&p.labels).map(|(&x, &q)| {
                        Circle::new((x, row), (7.0 * s) as i32, color(4 + q as usize).filled())
                    }),
                )
                .map_err(|e| e.to_string())?;
            for c in p.centroids.iter().flatten() {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(*c, row - 0.25), (*c, row + 0.25)],
                        BLACK.stroke_width((2.0 * s) as u32),
                    )))
                    .map_err(|e| e.to_string())?;
            }
        }
        root.present().map_err(|e| e.to_string())
    }
}

impl Component for Playground {
    type Message = Msg;
    type Properties = ();

    fn create(_ctx: &Context<Self>) -> Self {
        Playground {
            text: FIG2.into(),
            k: 3,
            values: parse(FIG2).unwrap_or_default(),
            error: None,
            dragging: None,
            canvas: NodeRef::default(),
        }
    }

    fn update(&mut self, _ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Text(t) => {
                match parse(&t) {
                    Ok(v) => {
                        self.values = v;
                        self.error = None;
                    }
                    Err(e) => self.error = Some(e),
                }
                self.text = t;
            }
            Msg::K(k) => match k.trim().parse::<usize>() {
                Ok(k) if (1..=8).contains(&k) => {
                    self.k = k;
                    self.error = None;
                }
                _ => self.error = Some(format!("K must be 1 to 8, not '{k}'")),
            },
            Msg::Down(x) => {
                let v = self.value_at(x);
                let tolerance = self.x_max() * 0.02;
                self.dragging = self
                    .values
                    .iter()
                    .enumerate()
                    .filter(|(_, &p)| (p - v).abs() <= tolerance)
                    .min_by(|a, b| (a.1 - v).abs().total_cmp(&(b.1 - v).abs()))
                    .map(|(i, _)| i);
                return false;
            }
            Msg::Move(x) => {
                let Some(i) = self.dragging else { return false };
                self.values[i] = self.value_at(x).round();
                self.sync_text();
            }
            Msg::Up => {
                self.dragging = None;
                return false;
            }
        }
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let line = |row: Row| groups_line(&self.values, self.k, row);
        let offset = |e: &MouseEvent| f64::from(e.offset_x());
        html! {
            <section class="playground" aria-label="Clustering playground">
                <h3>{ "Why relative error (the Warbler paper's Fig. 2)" }</h3>
                <p class="hint">{ "Type backlogs or drag the dots. Textbook K-means (SSE) splits the large backlogs because their absolute differences are large; Warbler's SSRE keeps flows of similar scale together and separates the small outlier." }</p>
                <div class="buttons">
                    <label class="field"><span class="label">{ "Backlogs (cells)" }</span>
                        <input class="wide" value={self.text.clone()} oninput={link.callback(|e: InputEvent| Msg::Text(e.target_unchecked_into::<HtmlInputElement>().value()))} aria-label="Backlogs" data-testid="playground-values" /></label>
                    <label class="field"><span class="label">{ "K (queues)" }</span>
                        <input class="short" value={self.k.to_string()} oninput={link.callback(|e: InputEvent| Msg::K(e.target_unchecked_into::<HtmlInputElement>().value()))} aria-label="K" /></label>
                </div>
                if let Some(e) = &self.error { <p class="errors" role="alert">{ e }</p> }
                <canvas ref={self.canvas.clone()} class="playground-canvas" role="img" aria-label="SSE, SSRE and optimal SSRE partitions of the backlogs"
                    onmousedown={link.callback(move |e: MouseEvent| Msg::Down(offset(&e)))}
                    onmousemove={link.callback(move |e: MouseEvent| Msg::Move(offset(&e)))}
                    onmouseup={link.callback(|_| Msg::Up)} onmouseleave={link.callback(|_| Msg::Up)}></canvas>
                <p data-testid="playground-sse">{ line(Row::Sse) }</p>
                <p data-testid="playground-ssre">{ line(Row::Ssre) }</p>
                <p data-testid="playground-optimum" title="The exact minimum of SSRE by dynamic programming (not in the paper); the line above is Warbler's best of its K-means starts.">{ line(Row::SsreOptimum) }</p>
            </section>
        }
    }

    fn rendered(&mut self, _ctx: &Context<Self>, _first: bool) {
        if let Err(e) = self.draw() {
            web_sys::console::warn_1(&format!("playground: {e}").into());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sse_splits_the_large_backlogs_and_ssre_the_small_outlier() {
        let v = [1.0, 2.0, 100.0, 110.0, 5000.0];
        assert!(groups_line(&v, 2, Row::Sse).starts_with("SSE: {1, 2, 100, 110} {5000}"));
        assert!(groups_line(&v, 2, Row::Ssre).starts_with("SSRE: {1, 2} {100, 110, 5000}"));
    }

    #[test]
    fn the_optimum_line_is_never_above_the_starts() {
        // Fig. 2 with K = 2: the three starts find the optimum here (Random does)...
        let fig2 = parse(FIG2).unwrap();
        let j = |row: Row| partition(&fig2, 2, row).unwrap().objective;
        assert!(
            (j(Row::Ssre) - j(Row::SsreOptimum)).abs() <= 1e-12 * j(Row::Ssre).abs(),
            "the same partition"
        );
        assert!(groups_line(&fig2, 2, Row::SsreOptimum)
            .starts_with("SSRE optimum: {40, 152, 200} {1952, 2384, 2414}"));
        // ...and the optimum is never above them.
        let v = [1.0, 2.0, 3.0, 9.0, 10.0, 30.0, 31.0, 100.0, 300.0, 1000.0];
        for k in 1..=8 {
            assert!(
                partition(&v, k, Row::SsreOptimum).unwrap().objective
                    <= partition(&v, k, Row::Ssre).unwrap().objective + 1e-12
            );
        }
    }

    #[test]
    fn typed_backlogs_are_checked() {
        assert!(parse("1, -2").unwrap_err().contains("-2"));
        assert!(parse("").is_err());
        assert_eq!(parse("3 4,5").unwrap(), vec![3.0, 4.0, 5.0]);
    }
}
