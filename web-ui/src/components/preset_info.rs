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
    let t = info.texts();
    let variant_label = crate::labels::variants(&info)
        .into_iter()
        .find(|(v, _)| v == variant)
        .map_or(variant.clone(), |(_, l)| l);
    let part = |label: &str, text: &str, id: &str| {
        (!text.is_empty()).then(|| html! {
            <p data-testid={id.to_string()}><strong>{ format!("{label} ") }</strong>{ text.to_string() }</p>
        })
    };
    html! {
        <section class="preset-info" data-testid="preset-info">
            <h2>{ &t.title }</h2>
            if p.modified {
                <p class="modified" data-testid="modified">{ format!("Modified from {} ({}): the figures quoted here and the paper's are not this scenario's, and the paper's are not shown beside its runs.", t.title, variant_label) }</p>
            }
            { for part("Setting:", &t.setting, "preset-setting") }
            { for part("The paper:", &t.paper, "preset-paper") }
            { for part("This app shows:", &t.here, "preset-here") }
            { for part("Why they differ:", &t.differs, "preset-differs") }
            if let Some(c) = &p.comparing {
                <p class="comparing" data-testid="comparing">{ format!("Compare is on: Run shows {c} side by side on this scenario (same link, same buffer). Untick Compare discs to run the variant alone.") }</p>
            }
            if !t.watch.is_empty() {
                <details class="watch" open=true>
                    <summary>{ "What to watch" }</summary>
                    <ul>{ for t.watch_at.iter().copied().zip(t.watch.iter().cloned()).map(|w| html! { <li>{ super::lecture_view::point_text(&w) }</li> }) }</ul>
                </details>
            }
        </section>
    }
}
