//! AQM Lab's web front end. This first cut runs a preset to the end and shows the study's
//! summary; the live editor and charts grow from here.

use sim_core::metrics::Summary;
use sim_core::scenario::{preset, preset_list};
use sim_core::sim::Simulation;
use yew::prelude::*;

fn run_variant(variant: &str) -> Summary {
    let sc = preset("red-study", Some(variant)).expect("preset exists");
    Simulation::new(&sc).expect("preset is valid").finish()
}

#[function_component(App)]
fn app() -> Html {
    let results = use_state(Vec::<(String, Summary)>::new);
    let info = preset_list().into_iter().next().expect("one preset");
    let onclick = {
        let results = results.clone();
        Callback::from(move |_| {
            let runs = ["red", "ared", "gentle"].iter().map(|v| (v.to_string(), run_variant(v))).collect();
            results.set(runs);
        })
    };
    html! {
        <main>
            <h1>{ "AQM Lab" }</h1>
            <h2>{ info.title }</h2>
            <p>{ info.description }</p>
            <button {onclick}>{ "Run RED / ARED / Gentle (60 s each)" }</button>
            if !results.is_empty() {
                <table>
                    <tr><th>{ "variant" }</th><th>{ "goodput (Mbit/s)" }</th><th>{ "CV (%)" }</th>
                        <th>{ "mean queue (pkt)" }</th><th>{ "drops" }</th><th>{ "JFI" }</th></tr>
                    { for results.iter().map(|(v, s)| html! {
                        <tr>
                            <td>{ v }</td>
                            <td>{ format!("{:.4}", s.throughput.mean_bps / 1e6) }</td>
                            <td>{ format!("{:.1}", s.throughput.cv_pct) }</td>
                            <td>{ format!("{:.2}", s.queue.mean_packets) }</td>
                            <td>{ s.drops.total }</td>
                            <td>{ format!("{:.3}", s.jfi) }</td>
                        </tr>
                    }) }
                </table>
            }
        </main>
    }
}

fn main() {
    yew::Renderer::<App>::new().render();
}
