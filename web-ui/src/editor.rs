//! The scenario being edited. Plain Rust, no DOM.
//!
//! The scenario lives as JSON; each input edits one path. Text that does not parse stays
//! as a draft with its own message, so nothing the user typed is lost; text that parses is
//! written into the JSON, and the scenario's own `validate()` names any out-of-range field.

use serde_json::Value;
use sim_core::aqm::QueueDiscSpec;
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
    /// The input typed into last: a rule between fields is shown there too.
    last_edited: Option<String>,
    /// Each queue disc as the user left it, by tag, so switching back restores it.
    left_discs: BTreeMap<String, Value>,
    /// Bumped on every change, so views compare editors cheaply.
    pub version: u64,
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
            last_edited: None,
            left_discs: BTreeMap::new(),
            version: 0,
        };
        e.rebuild();
        e
    }

    /// How many fields are wrong now.
    pub fn problems(&self) -> usize {
        self.parse_errors.len() + usize::from(self.structure_error.is_some()) + self.errors.len()
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

    /// The message for one input, if it has one. A rule between two fields (maxTh above
    /// minTh) also shows on the field typed into last when the rule names it.
    pub fn error_for(&self, path: &str) -> Option<String> {
        if let Some(e) = self.parse_errors.get(path) {
            return Some(e.clone());
        }
        let own = self.errors.iter().find(|e| e.field == path || e.field.starts_with(&format!("{path}.")));
        let key = path.rsplit('.').next().unwrap_or(path);
        let related = || {
            (self.last_edited.as_deref() == Some(path))
                .then(|| self.errors.iter().find(|e| e.allowed.contains(&format!("{key} ="))))
                .flatten()
        };
        own.or_else(related).map(|e| {
            if e.field == path {
                format!("{} is out of range; allowed: {}", e.value, e.allowed)
            } else {
                format!("{} = {} is out of range; allowed: {}", e.field, e.value, e.allowed)
            }
        })
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

    /// The user typed `raw` into the input for `path` (a field of `kind` in `unit`).
    pub fn edit(&mut self, path: &str, raw: &str, kind: Kind, unit: &str, label: &str) {
        self.drafts.insert(path.to_string(), raw.to_string());
        self.last_edited = Some(path.to_string());
        match parse(raw.trim(), kind, unit, label) {
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

    /// Switches the bottleneck to picker entry `key`; coming back to an algorithm restores
    /// what was typed into it (RED 7/21 → CoDel → RED is 7/21 again, a FIFO's 100 packets
    /// stay 100 packets after a detour through the switch port).
    pub fn swap_disc(&mut self, key: &str) {
        let Some(sc) = self.scenario().cloned() else { return };
        let current = &sc.bottleneck.queue;
        self.left_discs.insert(current.tag().to_string(), current.to_value());
        let tag = QueueDiscSpec::FAMILY.entries().into_iter().find(|e| e.0 == key).map(|e| e.2);
        let remembered = tag.filter(|t| *t != current.tag()).and_then(|t| self.left_discs.get(t));
        let swapped = crate::compare::with_disc_remembered(&sc, key, remembered).bottleneck.queue;
        self.set("bottleneck.queue", swapped.to_value());
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
        self.version += 1;
        self.parse_errors.retain(|_, e| !e.starts_with("\u{0}"));
        match Scenario::from_value(self.value.clone()) {
            Ok(sc) => {
                self.structure_error = None;
                self.errors = sc.validate().err().unwrap_or_default();
                self.scenario = Some(sc);
            }
            Err(e) => {
                self.errors.clear();
                // "flows[0].count: invalid value ..." belongs to that input.
                match e.split_once(": ") {
                    Some((path, msg)) if patch::get(&self.value, path).is_some() => {
                        self.structure_error = None;
                        self.parse_errors.insert(path.to_string(), format!("\u{0}{}", readable(msg)));
                    }
                    _ => self.structure_error = Some(e),
                }
            }
        }
    }
}

/// Serde's wording in a student's: "5000000000 is too large for this field".
fn readable(msg: &str) -> String {
    if msg.contains("expected u32") || msg.contains("expected u64") || msg.contains("invalid value: integer")
    {
        let v = msg.split('`').nth(1).unwrap_or("the value");
        return format!("{v} is too large (or not a whole number ≥ 0) for this field");
    }
    msg.to_string()
}

/// Multipliers of the prefixes people type after a rate or a size: SI ("2M", "2 Mbit/s")
/// and binary ("128 KiB").
fn prefix(s: &str) -> Option<(f64, &str)> {
    let s = s.trim_start();
    for (p, si, binary) in
        [("G", 1e9, 1_073_741_824.0), ("M", 1e6, 1_048_576.0), ("k", 1e3, 1024.0), ("K", 1e3, 1024.0)]
    {
        if let Some(rest) = s.strip_prefix(p) {
            return Some(match rest.strip_prefix('i') {
                Some(r) => (binary, r),
                None => (si, rest),
            });
        }
    }
    None
}

/// A number, possibly with an SI prefix and the field's unit ("2e6", "2 Mbit/s", "5 ms").
fn number_with_unit(raw: &str, unit: &str) -> Option<f64> {
    let end = raw
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+')))
        .unwrap_or(raw.len());
    let (num, rest) = raw.split_at(end);
    // "1e" followed by letters: the e was not an exponent.
    let v: f64 = num.parse().ok()?;
    let rest = rest.trim();
    if rest.is_empty() {
        return Some(v);
    }
    let (m, rest) = prefix(rest).unwrap_or((1.0, rest));
    let rest = rest.trim();
    let unit_ok = rest.is_empty()
        || rest.eq_ignore_ascii_case(unit)
        || (unit == "bit/s"
            && ["bps", "bit/s", "b/s", "bits/s"].iter().any(|u| rest.eq_ignore_ascii_case(u)))
        || (unit == "bytes" && ["b", "byte", "bytes"].iter().any(|u| rest.eq_ignore_ascii_case(u)));
    unit_ok.then_some(v * m)
}

fn example(unit: &str) -> &'static str {
    match unit {
        "bit/s" => ", e.g. 2e6 or 2 Mbit/s",
        "bytes" => ", e.g. 1500 or 128 KiB",
        "ms" => ", e.g. 10 or 2.5 ms",
        "s" => ", e.g. 60 or 0.5",
        _ => "",
    }
}

fn parse(raw: &str, kind: Kind, unit: &str, label: &str) -> Result<Value, String> {
    let of = if unit.is_empty() { String::new() } else { format!(" of {unit}") };
    let number = |raw: &str| -> Result<f64, String> {
        number_with_unit(raw, unit).filter(|v| v.is_finite()).ok_or_else(|| {
            format!("{label} must be a number{of}{}; '{}' is not", example(unit), sim_core::params::echo(raw))
        })
    };
    let whole = |raw: &str| -> Result<u64, String> {
        let v = number_with_unit(raw, unit).filter(|v| v.is_finite());
        match v {
            Some(v) if v >= 0.0 && v.fract() == 0.0 && v <= u64::MAX as f64 => Ok(v as u64),
            _ => Err(format!(
                "{label} must be a whole number{of} (0 or more){}; '{}' is not",
                example(unit),
                sim_core::params::echo(raw)
            )),
        }
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
        e.edit("bottleneck.rate_bps", "2 Mbits", Kind::Int, "bit/s", "Rate");
        assert_eq!(e.text("bottleneck.rate_bps"), "2 Mbits");
        let msg = e.error_for("bottleneck.rate_bps").unwrap();
        assert!(msg.contains("Rate must be a whole number of bit/s") && msg.contains("2 Mbit/s"), "{msg}");
        assert!(!e.is_runnable());
        e.edit("bottleneck.rate_bps", "3 Mbit/s", Kind::Int, "bit/s", "Rate");
        assert!(e.is_runnable());
        assert_eq!(e.scenario().unwrap().bottleneck.rate_bps, 3_000_000);
    }

    #[test]
    fn out_of_range_values_get_the_validators_message_on_their_field() {
        let mut e = red();
        e.edit("bottleneck.delay_ms", "-4", Kind::Float, "ms", "Delay");
        let msg = e.error_for("bottleneck.delay_ms").unwrap();
        assert!(msg.contains("-4") && msg.contains("allowed"), "{msg}");
        assert!(!e.is_runnable());
        assert_eq!(e.text("bottleneck.delay_ms"), "-4");
    }

    #[test]
    fn optional_fields_accept_empty_text_as_none() {
        let mut e = red();
        e.edit("flows[0].stop_s", "30", Kind::OptFloat, "s", "Stop");
        assert_eq!(e.scenario().unwrap().flows[0].stop_s, Some(30.0));
        e.edit("flows[0].stop_s", "", Kind::OptFloat, "s", "Stop");
        assert_eq!(e.scenario().unwrap().flows[0].stop_s, None);
    }

    #[test]
    fn integer_lists_parse_from_commas_and_spaces() {
        let mut e = Editor::new(&Scenario::default());
        e.set(
            "bottleneck.queue",
            serde_json::to_value(sim_core::aqm::QueueDiscSpec::Switch(Default::default())).unwrap(),
        );
        e.edit("bottleneck.queue.weights", "1, 3", Kind::IntList, "", "Weights");
        assert_eq!(e.text("bottleneck.queue.weights"), "1, 3");
        assert!(e.is_runnable());
        e.edit("bottleneck.queue.weights", "1, x", Kind::IntList, "", "Weights");
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

    #[test]
    fn rates_and_sizes_take_prefixes_and_units() {
        assert_eq!(number_with_unit("2e6", "bit/s"), Some(2e6));
        assert_eq!(number_with_unit("2 Mbit/s", "bit/s"), Some(2e6));
        assert_eq!(number_with_unit("500k", "bit/s"), Some(5e5));
        assert_eq!(number_with_unit("128 KiB", "bytes"), Some(131_072.0));
        assert_eq!(number_with_unit("5 ms", "ms"), Some(5.0));
        assert_eq!(number_with_unit("fast", "bit/s"), None);
        assert_eq!(number_with_unit("5 kg", "ms"), None);
    }

    #[test]
    fn switching_discs_and_back_keeps_what_was_typed() {
        let mut e = red();
        e.edit("bottleneck.queue.min_th", "7", Kind::Float, "", "minTh");
        e.edit("bottleneck.queue.max_th", "21", Kind::Float, "", "maxTh");
        e.swap_disc("codel");
        assert_eq!(e.scenario().unwrap().bottleneck.queue.tag(), "codel");
        e.swap_disc("switch");
        e.swap_disc("red");
        let v = e.scenario().unwrap().bottleneck.queue.to_value();
        assert_eq!((v["min_th"].as_f64(), v["max_th"].as_f64()), (Some(7.0), Some(21.0)));
        assert_eq!(v["limit"], serde_json::json!({ "packets": 100 }));
    }

    #[test]
    fn a_count_too_large_for_its_field_is_named() {
        let mut e = red();
        e.edit("flows[0].count", "5000000000", Kind::Int, "", "Flows");
        let msg = e.error_for("flows[0].count").expect("the count's own input is marked");
        assert!(msg.contains("5000000000") && msg.contains("too large"), "{msg}");
        assert!(!e.is_runnable());
    }

    #[test]
    fn a_rule_between_fields_also_marks_the_field_typed_into() {
        let mut e = red();
        e.edit("bottleneck.queue.min_th", "50", Kind::Float, "", "minTh");
        assert!(e.error_for("bottleneck.queue.max_th").is_some());
        let msg = e.error_for("bottleneck.queue.min_th").expect("minTh is marked too");
        assert!(msg.contains("max_th"), "{msg}");
    }
}
