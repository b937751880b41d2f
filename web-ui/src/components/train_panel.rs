//! Training the DQN congestion control in the browser (off the main thread), watching it
//! learn, then testing the frozen agent against CUBIC and NewReno with the paper's t-tests
//! and Figs. 2-4. The shipped agent is there without training; weights download and upload
//! as JSON.

use super::chart_card::ChartCard;
use super::overlay::Overlay;
use crate::chart_data::{ChartData, FLOW_COLORS};
use crate::learning::{curve_charts, line, time_chart};
use crate::protocol::EvalRun;
use crate::state::{Shared, TrainView};
use sim_core::cc::dqn::SHIPPED_MODEL;
use sim_core::metrics::ttest::welch;
use sim_core::ml::DqnConfig;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Largest weights file accepted.
pub const MAX_WEIGHTS_BYTES: f64 = 1_048_576.0;

#[derive(Clone, Debug, PartialEq)]
pub enum TrainMsg {
    Start {
        dqn: DqnConfig,
        episodes: u32,
        seed: u64,
        alpha: f64,
        beta: f64,
    },
    Stop,
    /// Evaluate `model` against CUBIC and NewReno over `seeds` seeds.
    Test {
        model: String,
        seeds: u32,
    },
    Download(String),
    Upload(web_sys::File),
}

#[derive(Properties, PartialEq)]
pub struct TrainProps {
    pub train: Shared<TrainView>,
    pub on: Callback<TrainMsg>,
}

/// The settings as typed, kept even when they do not parse.
#[derive(Clone, PartialEq)]
struct Settings {
    fields: Vec<(&'static str, &'static str, String)>,
}

impl Default for Settings {
    fn default() -> Self {
        let d = DqnConfig::default();
        Settings {
            fields: vec![
                ("episodes", "Episodes", "100".into()),
                ("seed", "Seed", "3".into()),
                ("eps_decay", "ε decay per step", d.eps_decay.to_string()),
                ("eps_floor", "ε floor", d.eps_floor.to_string()),
                ("gamma", "γ (discount)", d.gamma.to_string()),
                ("lr", "Learning rate (Adam)", d.lr.to_string()),
                ("batch", "Batch", d.batch.to_string()),
                ("replay_capacity", "Replay size", d.replay_capacity.to_string()),
                ("alpha", "α (per Mbit/s)", "1".into()),
                ("beta", "β (per s of RTT)", "0.5".into()),
            ],
        }
    }
}

impl Settings {
    fn get(&self, key: &str) -> &str {
        self.fields.iter().find(|f| f.0 == key).map_or("", |f| f.2.as_str())
    }

    /// The learner's settings, or every field that is wrong.
    fn parse(&self) -> Result<TrainMsg, Vec<String>> {
        let mut errs = Vec::new();
        let mut num = |key: &str| -> f64 {
            let v = self.get(key).trim().parse::<f64>().ok().filter(|v| v.is_finite());
            if v.is_none() {
                errs.push(format!("{key}: '{}' is not a number", self.get(key)));
            }
            v.unwrap_or(0.0)
        };
        let dqn = DqnConfig {
            eps_decay: num("eps_decay"),
            eps_floor: num("eps_floor"),
            gamma: num("gamma"),
            lr: num("lr"),
            batch: num("batch") as usize,
            replay_capacity: num("replay_capacity") as usize,
            ..DqnConfig::default()
        };
        let (episodes, seed, alpha, beta) = (num("episodes"), num("seed"), num("alpha"), num("beta"));
        if !(1.0..=10_000.0).contains(&episodes) || episodes.fract() != 0.0 {
            errs.push(format!("episodes: {episodes}; allowed 1 to 10000"));
        }
        if !(0.0..=1000.0).contains(&alpha) || !(0.0..=1000.0).contains(&beta) {
            errs.push("α and β: 0 to 1000".into());
        }
        if let Err(e) = dqn.validate() {
            errs.extend(e.iter().map(|x| x.to_string()));
        }
        if errs.is_empty() {
            Ok(TrainMsg::Start { dqn, episodes: episodes as u32, seed: seed.max(0.0) as u64, alpha, beta })
        } else {
            Err(errs)
        }
    }
}

/// Figs. 2-4 of the paper from seed 1 of each variant, keyed by id.
fn eval_figs(runs: &[EvalRun]) -> Vec<(String, Rc<ChartData>)> {
    let variants = ["dqn", "cubic", "newreno"];
    let first: Vec<&EvalRun> = variants.iter().filter_map(|v| runs.iter().find(|r| r.label == *v)).collect();
    let x_max = first.iter().flat_map(|r| r.trace.last().map(|p| p.0)).fold(1.0, f64::max);
    let fig = |title: &str, unit: &str, pick: fn(&(f64, f64, f64, u64)) -> f64| {
        let lines = first
            .iter()
            .enumerate()
            .map(|(i, r)| line(&r.label, FLOW_COLORS + i, r.trace.iter().map(|p| (p.0, pick(p))).collect()))
            .collect();
        Rc::new(time_chart(title, "time (s)", unit, x_max, lines))
    };
    vec![
        ("eval-throughput".into(), fig("Fig. 2: throughput over time (seed 1)", "Mbit/s", |p| p.1)),
        ("eval-rtt".into(), fig("Fig. 3: RTT over time (seed 1)", "ms", |p| p.2)),
        ("eval-loss".into(), fig("Fig. 4: cumulative packet loss (seed 1)", "packets", |p| p.3 as f64)),
    ]
}

/// The t-test tables over seeds, and the figures (`figs`, drawn by the caller) under them.
fn evaluation(runs: &[EvalRun], figs: Html) -> Html {
    let variants = ["dqn", "cubic", "newreno"];
    fn of<'a>(runs: &'a [EvalRun], v: &'a str) -> impl Iterator<Item = &'a EvalRun> + 'a {
        runs.iter().filter(move |r| r.label == v)
    }
    let of = |v: &'static str| of(runs, v);
    let stat = |v: &str, f: &dyn Fn(&EvalRun) -> f64| -> Vec<f64> {
        runs.iter().filter(|r| r.label == v).map(f).collect()
    };
    let thr = |r: &EvalRun| r.summary.throughput.mean_bps / 1e6;
    let rtt = |r: &EvalRun| r.summary.flows.first().and_then(|f| f.srtt_ms_mean).unwrap_or(0.0);
    let loss = |r: &EvalRun| r.summary.drops.total_all as f64;
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len().max(1) as f64;
    let seeds = of("dqn").count();
    let row = |v: &str| {
        let (t, r, l) = (stat(v, &thr), stat(v, &rtt), stat(v, &loss));
        html! { <tr><td>{ v }</td><td class="num">{ format!("{:.4}", mean(&t)) }</td><td class="num">{ format!("{:.1}", mean(&r)) }</td><td class="num">{ format!("{:.0}", mean(&l)) }</td></tr> }
    };
    let versus = |v: &str, paper: &sim_core::scenario::published::DqnVersus| {
        let t = welch(&stat("dqn", &thr), &stat(v, &thr));
        let r = welch(&stat("dqn", &rtt), &stat(v, &rtt));
        let pct = |w: Option<sim_core::metrics::ttest::WelchResult>| {
            w.and_then(|w| w.diff_pct).map_or("–".into(), |d| format!("{d:+.2} %"))
        };
        let p = |w: Option<sim_core::metrics::ttest::WelchResult>| {
            w.map_or("–".into(), |w| {
                if w.p_two_tailed < 1e-3 {
                    format!("{:.1e}", w.p_two_tailed)
                } else {
                    format!("{:.3}", w.p_two_tailed)
                }
            })
        };
        html! { <tr><td>{ format!("DQN vs {v}") }</td><td class="num">{ pct(t) }</td><td class="num">{ p(t) }</td>
        <td class="num paper">{ format!("{:+.2} % (p {:.3})", paper.throughput_pct, paper.throughput_p) }</td>
        <td class="num">{ pct(r) }</td><td class="num">{ p(r) }</td><td class="num paper">{ format!("{:+.2} %", paper.rtt_pct) }</td></tr> }
    };
    html! {
        <div class="evaluation" data-testid="dqn-evaluation">
            <div class="table-wrap"><table>
                <caption>{ format!("The frozen agent against CUBIC and NewReno, {seeds} seeds (mean over seeds)") }</caption>
                <tr><th></th><th>{ "throughput (Mbit/s)" }</th><th>{ "mean RTT (ms)" }</th><th>{ "losses" }</th></tr>
                { for variants.iter().map(|v| row(v)) }
            </table></div>
            <div class="table-wrap"><table data-testid="dqn-ttest">
                <caption>{ "Differences and two-tailed Welch t-tests over per-seed means, next to the paper's" }</caption>
                <tr><th></th><th>{ "throughput" }</th><th>{ "p" }</th><th class="paper">{ "paper" }</th><th>{ "RTT" }</th><th>{ "p" }</th><th class="paper">{ "paper" }</th></tr>
                { for sim_core::scenario::published::DQN_VERSUS.iter().map(|p| versus(p.baseline, p)) }
            </table></div>
            { figs }
        </div>
    }
}

#[function_component(TrainPanel)]
pub fn train_panel(p: &TrainProps) -> Html {
    let settings = use_state(Settings::default);
    let errors = use_state(Vec::<String>::new);
    let seeds = use_state(|| "20".to_string());
    // The chart shown full screen (Enlarge), by id.
    let present = use_state(|| None::<String>);
    let t = p.train.borrow();
    let model = if t.weights.is_some() { "trained" } else { SHIPPED_MODEL };
    let curve: Vec<(String, Rc<ChartData>)> =
        curve_charts(&t.curve).into_iter().map(|(k, c)| (k, Rc::new(c))).collect();
    let figs = t.evaluation.as_deref().map(eval_figs).unwrap_or_default();
    let on_present = {
        let present = present.clone();
        Callback::from(move |id: AttrValue| present.set(Some(id.to_string())))
    };
    let grid = |charts: &[(String, Rc<ChartData>)]| {
        html! {
            <div class="grid">
                { for charts.iter().map(|(k, c)| html! { <ChartCard key={k.clone()} id={AttrValue::from(k.clone())} data={c.clone()} on_present={on_present.clone()} /> }) }
            </div>
        }
    };
    let presented = (*present).as_ref().and_then(|id| curve.iter().chain(&figs).find(|(k, _)| k == id));
    let start = {
        let (settings, errors, on) = (settings.clone(), errors.clone(), p.on.clone());
        Callback::from(move |_: MouseEvent| match settings.parse() {
            Ok(m) => {
                errors.set(Vec::new());
                on.emit(m);
            }
            Err(e) => errors.set(e),
        })
    };
    let test = {
        let (seeds, on) = (seeds.clone(), p.on.clone());
        let model = model.to_string();
        Callback::from(move |_: MouseEvent| {
            let n = seeds.parse::<u32>().unwrap_or(20).clamp(2, 100);
            on.emit(TrainMsg::Test { model: model.clone(), seeds: n });
        })
    };
    let on_upload = {
        let on = p.on.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Some(f) = input.files().and_then(|f| f.get(0)) {
                on.emit(TrainMsg::Upload(f));
            }
            input.set_value("");
        })
    };
    let speed = t.ended_ms.map(|e| (e - t.started_ms) / 1e3);
    html! {
        <section class="train" aria-label="Train the DQN agent">
            <h3>{ "The DQN congestion control: train, watch, test" }</h3>
            <p class="hint">{ "Trains on the DQN paper's dumbbell (one sender, 2 Mbit/s): every 100 ms the agent sees bytes in flight, cWnd, RTT, segments acknowledged and ssThresh, and adds 0, +1500, −150 or +4000 bytes to cWnd; reward α·throughput − β·RTT. Training runs in the background worker, one episode (10 simulated seconds) at a time." }</p>
            <div class="train-settings">
                { for settings.fields.iter().enumerate().map(|(i, (key, label, text))| {
                    let s = settings.clone();
                    let oninput = Callback::from(move |e: InputEvent| {
                        let mut v = (*s).clone();
                        v.fields[i].2 = e.target_unchecked_into::<HtmlInputElement>().value();
                        s.set(v);
                    });
                    html! { <label class="field"><span class="label">{ *label }</span><input name={*key} value={text.clone()} {oninput} aria-label={*label} /></label> }
                }) }
            </div>
            <div class="buttons">
                if t.running {
                    <button onclick={p.on.reform(|_| TrainMsg::Stop)} data-testid="train-stop">{ "Stop training" }</button>
                } else {
                    <button class="primary" onclick={start} data-testid="train-start">{ "Train" }</button>
                }
                <label>{ "Seeds " }<input class="short" value={(*seeds).clone()} oninput={let s = seeds.clone(); Callback::from(move |e: InputEvent| s.set(e.target_unchecked_into::<HtmlInputElement>().value()))} aria-label="Seeds for the test" /></label>
                <button onclick={test} disabled={t.running || t.evaluating} data-testid="train-test">{ format!("Test the {} agent against CUBIC and NewReno", if model == "trained" { "trained" } else { "shipped" }) }</button>
                <button onclick={p.on.reform(move |_| TrainMsg::Download(model.to_string()))}>{ "Download weights" }</button>
                <label class="file-button" title="A weights JSON (5 inputs, 4 outputs, at most 1 MiB)">{ "Upload weights" }
                    <input type="file" accept=".json,application/json" onchange={on_upload} aria-label="Upload weights" />
                </label>
            </div>
            if !errors.is_empty() { <ul class="errors" role="alert">{ for errors.iter().map(|e| html! { <li>{ e }</li> }) }</ul> }
            if let Some(e) = &t.error { <p class="errors" role="alert">{ e }</p> }
            <p class="status" data-testid="train-status">{
                if t.running { format!("training… episode {}", t.curve.len()) }
                else if let (Some((_, d)), Some(s)) = (&t.weights, speed) { format!("trained {} episodes in {s:.1} s (weights digest {d:016x}); the tests use it", t.curve.len()) }
                else { format!("the shipped agent ({SHIPPED_MODEL}) is ready without training") }
            }</p>
            if !t.curve.is_empty() { { grid(&curve) } }
            if t.evaluating { <p class="status">{ "testing…" }</p> }
            if let Some(runs) = &t.evaluation { { evaluation(runs, grid(&figs)) } }
            if let Some((k, c)) = presented {
                <Overlay label="Chart, full screen" on_close={let present = present.clone(); Callback::from(move |()| present.set(None))}>
                    <ChartCard id={AttrValue::from(k.clone())} data={c.clone()} on_present={on_present.clone()} large=true />
                </Overlay>
            }
        </section>
    }
}
