//! The scenario being edited. Plain Rust, no DOM.
//!
//! The scenario lives as JSON; each input edits one path. Text that does not parse stays
//! as a draft with its own message, so nothing the user typed is lost; text that parses is
//! written into the JSON, and the scenario's own `validate()` names any out-of-range field.

use serde_json::Value;
use sim_core::scenario::{patch, Scenario, ScenarioError};
use std::collections::BTreeMap;

/// How an input's text becomes a JSON value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number ≥ 0.
    Int,
    /// Any finite number.
    Float,
    /// A number, or empty for "none" (`null`).
    OptFloat,
    OptInt,
    /// Whole numbers separated by commas or spaces (an empty text is an empty list).
    IntList,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Editor {
    value: Value,
    drafts: BTreeMap<String, String>,
    parse_errors: BTreeMap<String, String>,
    scenario: Option<Scenario>,
    /// Problems with the whole scenario (its JSON does not form a scenario).
    structure_error: Option<String>,
    errors: Vec<ScenarioError>,
}

impl Editor {
    pub fn new(sc: &Scenario) -> Editor {
        let mut e = Editor {
            value: serde_json::to_value(sc).expect("scenario serialises"),
            drafts: BTreeMap::new(),
            parse_errors: BTreeMap::new(),
            scenario: None,
            structure_error: None,
            errors: Vec::new(),
        };
        e.rebuild();
        e
    }

    /// The scenario as last successfully built (valid or not).
    pub fn scenario(&self) -> Option<&Scenario> {
        self.scenario.as_ref()
    }

    /// True when every input parses and the scenario validates: a run may start.
    pub fn is_runnable(&self) -> bool {
        self.parse_errors.is_empty() && self.structure_error.is_none() && self.errors.is_empty()
    }

    /// Every message, for the list above the Run button.
    pub fn messages(&self) -> Vec<String> {
        let mut m: Vec<String> = self.parse_errors.iter().map(|(p, e)| format!("{p}: {e}")).collect();
        m.extend(self.structure_error.clone());
        m.extend(self.errors.iter().map(|e| e.to_string()));
        m
    }

    /// The message for one input, if it has one.
    pub fn error_for(&self, path: &str) -> Option<String> {
        if let Some(e) = self.parse_errors.get(path) {
            return Some(e.clone());
        }
        self.errors
            .iter()
            .find(|e| e.field == path || e.field.starts_with(&format!("{path}.")))
            .map(|e| format!("{} is out of range; allowed: {}", e.value, e.allowed))
    }

    /// What an input shows: the user's draft, else the current value.
    pub fn text(&self, path: &str) -> String {
        if let Some(d) = self.drafts.get(path) {
            return d.clone();
        }
        match patch::get(&self.value, path) {
            Some(Value::Null) | None => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(Value::Array(a)) => a.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", "),
            Some(v) => v.to_string(),
        }
    }

    pub fn value(&self, path: &str) -> Option<&Value> {
        patch::get(&self.value, path)
    }

    pub fn bool(&self, path: &str) -> bool {
        self.value(path).and_then(Value::as_bool).unwrap_or(false)
    }

    /// The user typed `raw` into the input for `path`.
    pub fn edit(&mut self, path: &str, raw: &str, kind: Kind) {
        self.drafts.insert(path.to_string(), raw.to_string());
        match parse(raw.trim(), kind) {
            Ok(v) => {
                self.parse_errors.remove(path);
                if let Err(e) = patch::set(&mut self.value, path, v) {
                    self.parse_errors.insert(path.to_string(), e);
                }
            }
            Err(e) => {
                self.parse_errors.insert(path.to_string(), e);
            }
        }
        self.rebuild();
    }

    /// Sets a structured value (checkboxes, selects, whole sub-objects).
    pub fn set(&mut self, path: &str, v: Value) {
        self.clear_drafts_under(path);
        if let Err(e) = patch::set(&mut self.value, path, v) {
            self.parse_errors.insert(path.to_string(), e);
        }
        self.rebuild();
    }

    pub fn add_flow_group(&mut self) {
        let g = serde_json::to_value(sim_core::scenario::FlowGroup::default()).unwrap();
        self.flows_mut().push(g);
        self.rebuild();
    }

    pub fn duplicate_flow_group(&mut self, i: usize) {
        let flows = self.flows_mut();
        if let Some(g) = flows.get(i).cloned() {
            flows.insert(i + 1, g);
        }
        // Drafts of later groups now belong one index further down: drop them.
        self.clear_drafts_under("flows");
        self.rebuild();
    }

    pub fn remove_flow_group(&mut self, i: usize) {
        let flows = self.flows_mut();
        if i < flows.len() {
            flows.remove(i);
        }
        self.clear_drafts_under("flows");
        self.rebuild();
    }

    pub fn flow_groups(&self) -> usize {
        self.value.get("flows").and_then(Value::as_array).map_or(0, Vec::len)
    }

    fn flows_mut(&mut self) -> &mut Vec<Value> {
        if !self.value.get("flows").is_some_and(Value::is_array) {
            self.value["flows"] = Value::Array(Vec::new());
        }
        self.value["flows"].as_array_mut().expect("flows is an array")
    }

    fn clear_drafts_under(&mut self, prefix: &str) {
        let under = |k: &String| {
            k == prefix || k.starts_with(&format!("{prefix}.")) || k.starts_with(&format!("{prefix}["))
        };
        self.drafts.retain(|k, _| !under(k));
        self.parse_errors.retain(|k, _| !under(k));
    }

    fn rebuild(&mut self) {
        match serde_json::from_value::<Scenario>(self.value.clone()) {
            Ok(sc) => {
                self.structure_error = None;
                self.errors = sc.validate().err().unwrap_or_default();
                self.scenario = Some(sc);
            }
            Err(e) => {
                self.structure_error = Some(format!("scenario: {e}"));
                self.errors.clear();
            }
        }
    }
}

fn parse(raw: &str, kind: Kind) -> Result<Value, String> {
    let number = |raw: &str| -> Result<f64, String> {
        raw.parse::<f64>().ok().filter(|v| v.is_finite()).ok_or_else(|| format!("'{raw}' is not a number"))
    };
    let whole = |raw: &str| -> Result<u64, String> {
        raw.parse::<u64>().map_err(|_| format!("'{raw}' is not a whole number ≥ 0"))
    };
    match kind {
        Kind::Float => number(raw).map(Value::from),
        Kind::Int => whole(raw).map(Value::from),
        Kind::OptFloat if raw.is_empty() => Ok(Value::Null),
        Kind::OptFloat => number(raw).map(Value::from),
        Kind::OptInt if raw.is_empty() => Ok(Value::Null),
        Kind::OptInt => whole(raw).map(Value::from),
        Kind::IntList => raw
            .split([',', ' '])
            .filter(|t| !t.is_empty())
            .map(|t| whole(t).map(Value::from))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::scenario::preset;

    fn red() -> Editor {
        Editor::new(&preset("red-study", Some("red")).unwrap())
    }

    #[test]
    fn a_preset_is_runnable() {
        assert!(red().is_runnable());
    }

    #[test]
    fn unparsable_text_is_kept_and_blocks_the_run() {
        let mut e = red();
        e.edit("bottleneck.rate_bps", "2 Mbps", Kind::Int);
        assert_eq!(e.text("bottleneck.rate_bps"), "2 Mbps");
        assert!(e.error_for("bottleneck.rate_bps").unwrap().contains("not a whole number"));
        assert!(!e.is_runnable());
        e.edit("bottleneck.rate_bps", "3000000", Kind::Int);
        assert!(e.is_runnable());
        assert_eq!(e.scenario().unwrap().bottleneck.rate_bps, 3_000_000);
    }

    #[test]
    fn out_of_range_values_get_the_validators_message_on_their_field() {
        let mut e = red();
        e.edit("bottleneck.delay_ms", "-4", Kind::Float);
        let msg = e.error_for("bottleneck.delay_ms").unwrap();
        assert!(msg.contains("-4") && msg.contains("allowed"), "{msg}");
        assert!(!e.is_runnable());
        assert_eq!(e.text("bottleneck.delay_ms"), "-4");
    }

    #[test]
    fn optional_fields_accept_empty_text_as_none() {
        let mut e = red();
        e.edit("flows[0].stop_s", "30", Kind::OptFloat);
        assert_eq!(e.scenario().unwrap().flows[0].stop_s, Some(30.0));
        e.edit("flows[0].stop_s", "", Kind::OptFloat);
        assert_eq!(e.scenario().unwrap().flows[0].stop_s, None);
    }

    #[test]
    fn integer_lists_parse_from_commas_and_spaces() {
        let mut e = Editor::new(&Scenario::default());
        e.set(
            "bottleneck.queue",
            serde_json::to_value(sim_core::aqm::QueueDiscSpec::Switch(Default::default())).unwrap(),
        );
        e.edit("bottleneck.queue.weights", "1, 3", Kind::IntList);
        assert_eq!(e.text("bottleneck.queue.weights"), "1, 3");
        assert!(e.is_runnable());
        e.edit("bottleneck.queue.weights", "1, x", Kind::IntList);
        assert!(!e.is_runnable());
    }

    #[test]
    fn flow_groups_can_be_added_duplicated_and_removed() {
        let mut e = red();
        e.add_flow_group();
        assert_eq!(e.flow_groups(), 2);
        e.duplicate_flow_group(0);
        assert_eq!(e.scenario().unwrap().flows[1].count, 10);
        e.remove_flow_group(0);
        e.remove_flow_group(0);
        assert_eq!(e.flow_groups(), 1);
        assert!(e.is_runnable());
    }
}
