//! What the loaded preset reproduces, what to watch, and whether the scenario still is it.

use crate::share::Origin;
use sim_core::scenario::preset_list;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct PresetInfoProps {
    pub origin: Option<Origin>,
    pub modified: bool,
    /// The discs Compare runs side by side, when it is on.
    #[prop_or_default]
    pub comparing: Option<AttrValue>,
}

#[function_component(PresetInfo)]
pub fn preset_info(p: &PresetInfoProps) -> Html {
    let Some((name, variant)) = &p.origin else {
        return html! { <section class="preset-info"><h2>{ "Custom scenario" }</h2></section> };
    };
    let Some(info) = preset_list().into_iter().find(|i| i.name == name) else { return html! {} };
    html! {
        <section class="preset-info" data-testid="preset-info">
            <h2>{ info.title }</h2>
            if p.modified {
                <p class="modified" data-testid="modified">{ format!("Modified from {name} — {variant}: the paper's figures no longer apply and are not shown.") }</p>
            }
            <p>{ info.description }</p>
            if let Some(c) = &p.comparing {
                <p class="comparing" data-testid="comparing">{ format!("Compare is on: Run shows {c} side by side on this scenario (same link, same buffer). Untick Compare discs to run the variant alone.") }</p>
            }
            if !info.watch.is_empty() {
                <details class="watch" open=true>
                    <summary>{ "What to watch" }</summary>
                    <ul>{ for info.watch.iter().map(|w| html! { <li>{ *w }</li> }) }</ul>
                </details>
            }
        </section>
    }
}
