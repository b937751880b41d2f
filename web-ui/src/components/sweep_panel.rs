//! The Sweep tab: vary one field of the editor's scenario over a few values, each run to
//! its end in the worker, and plot chosen figures against the value (buffer size against
//! delay and goodput). Earlier sweeps stay on the same axes, so a change of disc or of
//! load reads as one curve beside another.

use super::chart_card::ChartCard;
use crate::chart_data::{flow_color, ChartData, Line, TimeChart};
use crate::state::{Shared, SweepRun, SweepView};
use crate::sweep::{SweepSpec, MAX_POINTS};
use serde_json::Value;
use sim_core::metrics::figures::FIGURES;
use sim_core::scenario::Scenario;
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

pub enum SweepMsg {
    Run(SweepSpec),
    Stop,
    Clear,
}

#[derive(Properties, PartialEq)]
pub struct SweepProps {
    pub sweep: Shared<SweepView>,
    /// The editor's scenario (what the sweep varies), if it reads.
    pub scenario: Option<Scenario>,
    pub on: Callback<SweepMsg>,
}

/// Every numeric field of `v`, as the editor and `--set` write its path.
fn numeric_paths(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Number(_) => out.push(at),
        Value::Object(m) => {
            for (k, x) in m {
                numeric_paths(x, if at.is_empty() { k.clone() } else { format!("{at}.{k}") }, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                numeric_paths(x, format!("{at}[{i}]"), out);
            }
        }
        _ => {}
    }
}

/// The values as typed: comma- or space-separated.
pub fn split_values(text: &str) -> Vec<String> {
    text.split([',', ' ', ';']).map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect()
}

/// One chart per figure: each sweep a line of its points (x: the value, or its position
/// when the value is not a number).
fn chart(fig: usize, name: &str, runs: &[&SweepRun]) -> TimeChart {
    let about = FIGURES.iter().find(|(n, _)| *n == name).map_or(name, |(_, a)| a);
    let mut lines = Vec::new();
    let (mut x_max, mut y_max) = (0.0_f64, 0.0_f64);
    for (i, r) in runs.iter().enumerate() {
        let k = r.spec.figures.iter().position(|f| f == name);
        let points: Vec<(f64, f64)> = (r.points.iter())
            .filter_map(|p| {
                let y = (*p.figures.get(k?)?)?;
                let x = p.value.parse::<f64>().unwrap_or(p.index as f64);
                (x.is_finite() && y.is_finite()).then_some((x, y))
            })
            .collect();
        for &(x, y) in &points {
            x_max = x_max.max(x);
            y_max = y_max.max(y);
        }
        let last = i + 1 == runs.len();
        // The field in the legend only where it is not the one on the x axis.
        let field = runs.last().filter(|l| l.spec.set != r.spec.set).map(|_| format!(" · {}", r.spec.set));
        lines.push(Line {
            label: format!("{}{}", r.label, field.unwrap_or_default()),
            color: flow_color(i),
            points,
            bold: last,
            dashed: false,
            faint: false,
        });
    }
    let x_label = runs.last().map_or(String::new(), |r| r.spec.set.clone());
    TimeChart {
        title: format!("{name}: {about}"),
        x_label,
        y_label: name.to_string(),
        x_max: if x_max > 0.0 { x_max * 1.05 } else { 1.0 },
        y_min: 0.0,
        y_max: if y_max > 0.0 { y_max * 1.1 } else { 1.0 },
        lines,
        bands: Vec::new(),
        markers: Vec::new(),
        levels: Vec::new(),
        cursor: None,
        note: Some(format!(
            "Figure {}: each line one sweep, the boldest the latest; earlier sweeps stay for comparison.",
            fig + 1
        )),
    }
}

#[function_component(SweepPanel)]
pub fn sweep_panel(p: &SweepProps) -> Html {
    let set = use_state(|| "links.bottleneck.queue.limit.packets".to_string());
    let values = use_state(|| "20, 50, 100, 200, 500, 1000".to_string());
    let fig_a = use_state(|| "delay_ms".to_string());
    let fig_b = use_state(|| "mbps".to_string());
    let view = p.sweep.borrow();
    let mut paths = Vec::new();
    if let Some(v) = p.scenario.as_ref().and_then(|s| serde_json::to_value(s).ok()) {
        numeric_paths(&v, String::new(), &mut paths);
    }
    let input = |s: &UseStateHandle<String>| {
        let s = s.clone();
        Callback::from(move |e: InputEvent| s.set(e.target_unchecked_into::<HtmlInputElement>().value()))
    };
    let select = |s: &UseStateHandle<String>| {
        let s = s.clone();
        Callback::from(move |e: Event| s.set(e.target_unchecked_into::<HtmlSelectElement>().value()))
    };
    let figure_picker = |s: &UseStateHandle<String>, label: &str| {
        html! {
            <label>{ format!("{label} ") }
                <select onchange={select(s)} aria-label={label.to_string()}>
                    { for FIGURES.iter().map(|(n, a)| html! { <option value={*n} selected={*n == s.as_str()} title={*a}>{ *n }</option> }) }
                </select>
            </label>
        }
    };
    let run = {
        let (set, values, a, b, on) =
            (set.clone(), values.clone(), fig_a.clone(), fig_b.clone(), p.on.clone());
        Callback::from(move |_| {
            let mut figures = vec![(*a).clone()];
            if *b != *a {
                figures.push((*b).clone());
            }
            on.emit(SweepMsg::Run(SweepSpec {
                set: set.trim().to_string(),
                values: split_values(&values),
                figures,
            }));
        })
    };
    let going = view.running.is_some();
    let runs: Vec<&SweepRun> = view.history.iter().chain(view.running.as_ref()).collect();
    let figs: Vec<String> = runs.last().map_or_else(Vec::new, |r| r.spec.figures.clone());
    let on_present = Callback::from(|_: AttrValue| {});
    let status = match (&view.running, view.history.last()) {
        (Some(r), _) => format!(
            "Running point {} of {}: {} = {}",
            (r.points.len() + 1).min(r.spec.values.len()),
            r.spec.values.len(),
            r.spec.set,
            r.spec.values.get(r.points.len()).map_or("", String::as_str)
        ),
        (None, Some(r)) => match &r.error {
            Some(e) => format!("The last sweep ended early: {e}"),
            None => format!("The last sweep ran {} points.", r.points.len()),
        },
        (None, None) => String::new(),
    };
    html! {
        <section class="sweep" aria-label="Parameter sweep" data-testid="sweep">
            <p class="hint">{ format!("Vary one field of the scenario in the editor over up to {MAX_POINTS} values: each runs to its end in the worker, and the charts plot the figures you pick against the value. \
                Earlier sweeps stay on the same axes (the last {}), so change the disc or the load in the editor and sweep again to compare. \
                The command line does the same with aqmsim sweep --vary.", SweepView::KEPT) }</p>
            <div class="sweep-form">
                <label>{ "Field " }
                    <input list="sweep-fields" value={(*set).clone()} oninput={input(&set)} size="36" data-testid="sweep-field" aria-label="Field to vary" />
                    <datalist id="sweep-fields">{ for paths.iter().map(|x| html! { <option value={x.clone()} /> }) }</datalist>
                </label>
                <label>{ "Values " }
                    <input value={(*values).clone()} oninput={input(&values)} size="30" data-testid="sweep-values" aria-label="Values, separated by commas" />
                </label>
                { figure_picker(&fig_a, "Figure") }
                { figure_picker(&fig_b, "and") }
                if going {
                    <button onclick={p.on.reform(|_| SweepMsg::Stop)} data-testid="sweep-stop">{ "Stop" }</button>
                } else {
                    <button class="primary" onclick={run} disabled={p.scenario.is_none()} data-testid="sweep-run">{ "Run the sweep" }</button>
                }
                <button onclick={p.on.reform(|_| SweepMsg::Clear)} disabled={going || view.history.is_empty()}>{ "Clear the history" }</button>
            </div>
            <p class="sweep-status" data-testid="sweep-status" data-points={runs.last().map_or(0, |r| r.points.len()).to_string()}>{ status }</p>
            <div class="grid">
                { for figs.iter().enumerate().map(|(i, f)| {
                    let data = Rc::new(ChartData::Time(chart(i, f, &runs)));
                    html! { <ChartCard key={format!("sweep-{f}")} id={AttrValue::from(format!("sweep_{f}"))} data={data} on_present={on_present.clone()} /> }
                }) }
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::SweepPoint;

    #[test]
    fn values_split_on_commas_and_spaces() {
        assert_eq!(split_values("20, 50 100;;200 "), ["20", "50", "100", "200"]);
    }

    #[test]
    fn each_sweep_is_a_line_of_its_points_and_the_latest_is_bold() {
        let run = |label: &str, ys: &[f64]| SweepRun {
            label: label.into(),
            spec: SweepSpec { set: "x".into(), values: vec![], figures: vec!["mbps".into()] },
            points: (ys.iter().enumerate())
                .map(|(i, y)| SweepPoint {
                    index: i,
                    value: format!("{}", 10 * (i + 1)),
                    figures: vec![Some(*y)],
                })
                .collect(),
            error: None,
        };
        let (a, b) = (run("fifo", &[1.0, 2.0]), run("codel", &[3.0]));
        let c = chart(0, "mbps", &[&a, &b]);
        assert_eq!(c.lines.len(), 2);
        assert_eq!(c.lines[0].points, vec![(10.0, 1.0), (20.0, 2.0)]);
        assert!(!c.lines[0].bold && c.lines[1].bold);
        assert!(c.y_max >= 3.0 && c.x_max >= 20.0);
    }
}
