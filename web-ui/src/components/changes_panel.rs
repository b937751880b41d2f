//! The scenario's timed changes in the editor: each with its time and what it sets, to
//! remove, and a form to add one ("at 20 s, Buffer = 50 packets"). Edits made during a run
//! land here too, at the time they applied.

use super::editor_panel::EditMsg;
use crate::editor::{read, Editor, Input, Kind};
use crate::live;
use crate::state::Shared;
use sim_core::scenario::TimedChange;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ChangesProps {
    pub editor: Shared<Editor>,
    pub on: Callback<EditMsg>,
}

const TIME: Input = Input { kind: Kind::Float, unit: "s", label: "Time", range: None };

#[function_component(ChangesPanel)]
pub fn changes_panel(p: &ChangesProps) -> Html {
    let ed = p.editor.borrow();
    let changes = ed.changes();
    let inputs = live::inputs(&ed);
    let field = use_state(|| 0usize);
    let at = use_state(String::new);
    let value = use_state(String::new);
    let error = use_state(|| None::<String>);
    let chosen = inputs.get(*field).or(inputs.first()).cloned();
    let on_field = {
        let field = field.clone();
        Callback::from(move |e: Event| {
            field.set(e.target_unchecked_into::<HtmlSelectElement>().value().parse().unwrap_or(0))
        })
    };
    let typed = |s: &UseStateHandle<String>| {
        let s = s.clone();
        Callback::from(move |e: InputEvent| s.set(e.target_unchecked_into::<HtmlInputElement>().value()))
    };
    let add = {
        let (at, value, error, on) = (at.clone(), value.clone(), error.clone(), p.on.clone());
        let chosen = chosen.clone();
        Callback::from(move |_: MouseEvent| {
            let Some((path, input)) = chosen.clone() else { return };
            let at_s = match read(at.trim(), TIME) {
                Ok(v) => v.as_f64().unwrap_or(0.0),
                Err(e) => return error.set(Some(format!("Time {e}"))),
            };
            let v = match read(value.trim(), input) {
                Ok(v) => v,
                Err(e) => return error.set(Some(format!("{} {e}", input.label))),
            };
            let (set, to) = live::change_to(&path, v);
            error.set(None);
            on.emit(EditMsg::AddChange(TimedChange { at_s, set, to }));
        })
    };
    let problems = ed.problems();
    html! {
        <details open={!changes.is_empty()} class="changes" data-testid="changes">
            <summary>{ format!("Timed changes ({})", changes.len()) }</summary>
            <p class="help">{ "At a time of the run, set a field: the link's rate or delay, the buffer, a queue-disc parameter, a group's access link, start or stop. Editing one of these during a run adds a change at that moment; they are marked on every time chart, and a replay of the scenario repeats them exactly." }</p>
            <ul class="change-list">
                { for changes.iter().enumerate().map(|(i, c)| {
                    let err = problems.iter().find(|x| x.path.starts_with(&format!("changes[{i}]"))).map(|x| x.text.clone());
                    html! {
                        <li class={classes!(err.is_some().then_some("invalid"))}>
                            <span>{ format!("at {:.3} s: {} → {}", c.at_s, ed.place(&c.set), c.label().split(" → ").nth(1).unwrap_or("")) }</span>
                            <button onclick={p.on.reform(move |_| EditMsg::RemoveChange(i))} aria-label={format!("Remove change {i}")} data-testid={format!("remove-change-{i}")}>{ "Remove" }</button>
                            if let Some(e) = err { <div class="field-error">{ e }</div> }
                        </li>
                    }
                }) }
            </ul>
            if !inputs.is_empty() {
                <div class="change-form">
                    <label>{ "At " }<input name="change.at" value={(*at).clone()} oninput={typed(&at)} placeholder="20 s" aria-label="Time of the change" /></label>
                    <label>{ " set " }
                        <select onchange={on_field} aria-label="Field to change" name="change.field">
                            { for inputs.iter().enumerate().map(|(i, (path, _))| html! {
                                <option value={i.to_string()} selected={i == *field}>{ ed.place(path) }</option>
                            }) }
                        </select>
                    </label>
                    <label>{ " to " }<input name="change.value" value={(*value).clone()} oninput={typed(&value)}
                        placeholder={chosen.as_ref().map(|(_, i)| i.unit).unwrap_or_default()} aria-label="New value" /></label>
                    <button onclick={add} data-testid="add-change">{ "Add change" }</button>
                    if let Some(e) = &*error { <div class="field-error">{ e }</div> }
                </div>
            }
        </details>
    }
}
