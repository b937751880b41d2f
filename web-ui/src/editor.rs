//! The scenario being edited. Plain Rust, no DOM.
//!
//! The scenario lives as JSON; each input edits one path. What was typed into an input is
//! kept under its path with the reason it was refused, if it was, so nothing typed is lost
//! and every message belongs to an input's current text. Text that reads as a value is
//! written into the JSON, and the scenario's own `validate()` names any out-of-range field.
//! Replacing a part (another disc, another CCA, a buffer in other units) puts what was
//! typed into it aside, and choosing that part again brings it back.

use crate::place::{self, group, humanize};
use crate::units::{self, NotWhole, Refused};
use serde_json::Value;
use sim_core::aqm::QueueDiscSpec;
use sim_core::params::{echo, fmt_num, Field, Range};
use sim_core::scenario::{patch, Scenario, ScenarioError, TimedChange};
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

/// What a text input holds: its kind, the unit stored, its label and allowed range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Input {
    pub kind: Kind,
    pub unit: &'static str,
    pub label: &'static str,
    pub range: Option<Range>,
}

impl Input {
    /// The input of a numeric field; `None` for checkboxes, menus and nested parts.
    pub fn of(f: &Field) -> Option<Input> {
        use sim_core::params::Kind as K;
        let (kind, range) = match f.kind {
            K::Float(r) => (Kind::Float, r),
            K::OptFloat(r) => (Kind::OptFloat, r),
            K::Int(r) => (Kind::Int, r),
            K::OptInt(r) => (Kind::OptInt, r),
            K::IntList(r) => (Kind::IntList, r),
            _ => return None,
        };
        Some(Input { kind, unit: f.unit, label: f.label, range: Some(range) })
    }
}

/// Text typed into one input, and why it could not be read (the sentence after the label).
#[derive(Clone, Debug, PartialEq)]
struct Typed {
    text: String,
    label: &'static str,
    error: Option<String>,
}

/// A part replaced by another (RED when CoDel was picked): its JSON and what was typed.
#[derive(Clone, Debug, PartialEq)]
struct Left {
    value: Value,
    typed: BTreeMap<String, Typed>,
}

/// One entry of the list beside Run: the input at fault and what to say.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// The scenario path of the input (its `name`); empty when no input is at fault.
    pub path: String,
    /// "Link › Rate".
    pub place: String,
    /// The whole sentence, starting with the place.
    pub text: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Editor {
    value: Value,
    /// The preset the scenario came from, for the hints' "preset:" values.
    preset: Option<Value>,
    /// The preset's group each flow group started as (`None`: added here).
    group_origin: Vec<Option<usize>>,
    typed: BTreeMap<String, Typed>,
    scenario: Option<Scenario>,
    /// The JSON does not form a scenario, and no input is to blame.
    structure_error: Option<String>,
    /// The JSON does not form a scenario because of the value at this path.
    shape_error: Option<(String, String)>,
    errors: Vec<ScenarioError>,
    /// The input typed into last: a rule between fields is shown there too.
    last_edited: Option<String>,
    /// Parts replaced by others, by (path, tag or unit), so choosing one again restores it.
    /// Their refused texts do not block Run: a disc not selected is not run.
    left: BTreeMap<(String, String), Left>,
    /// Bumped on every change, so views compare editors cheaply.
    pub version: u64,
}

/// Which member a part is: its `type`, a buffer's unit key, or "none" for null.
fn variant(v: Option<&Value>) -> String {
    match v {
        Some(Value::Object(m)) => match m.get("type").and_then(Value::as_str) {
            Some(t) => t.to_string(),
            None if m.len() == 1 => m.keys().next().cloned().unwrap_or_default(),
            None => String::new(),
        },
        _ => "none".into(),
    }
}

fn is_under(key: &str, prefix: &str) -> bool {
    key.strip_prefix(prefix).is_some_and(|r| r.is_empty() || r.starts_with('.') || r.starts_with('['))
}

/// `path` once the flow groups were renumbered by `map` (`None`: its group is gone).
fn moved(path: &str, map: &dyn Fn(usize) -> Option<usize>) -> Option<String> {
    match group(path) {
        Some((i, rest)) => map(i).map(|j| format!("flows[{j}]{rest}")),
        None => Some(path.to_string()),
    }
}

/// `path` of group `from` as the same path in group `to`.
fn in_group(path: &str, from: usize, to: usize) -> Option<String> {
    group(path).filter(|(i, _)| *i == from).map(|(_, rest)| format!("flows[{to}]{rest}"))
}

impl Editor {
    pub fn new(sc: &Scenario) -> Editor {
        let mut e = Editor {
            value: serde_json::to_value(sc).expect("scenario serialises"),
            preset: None,
            group_origin: (0..sc.flows.len()).map(|_| None).collect(),
            typed: BTreeMap::new(),
            scenario: None,
            structure_error: None,
            shape_error: None,
            errors: Vec::new(),
            last_edited: None,
            left: BTreeMap::new(),
            version: 0,
        };
        e.rebuild();
        e
    }

    /// The editor of `sc`, which came from (or is) `preset`: hints show the preset's values.
    pub fn with_preset(mut self, preset: &Scenario) -> Editor {
        self.preset = serde_json::to_value(preset).ok();
        self.group_origin = (0..self.flow_groups()).map(Some).collect();
        self
    }

    /// How many entries the list beside Run has.
    pub fn problem_count(&self) -> usize {
        self.problems().len()
    }

    /// The scenario as last successfully built (valid or not).
    pub fn scenario(&self) -> Option<&Scenario> {
        self.scenario.as_ref()
    }

    /// True when every input's text reads and the scenario validates: a run may start.
    pub fn is_runnable(&self) -> bool {
        self.typed.values().all(|t| t.error.is_none())
            && self.structure_error.is_none()
            && self.shape_error.is_none()
            && self.errors.is_empty()
    }

    fn refused(&self, path: &str) -> bool {
        self.typed.get(path).is_some_and(|t| t.error.is_some())
    }

    /// Every problem, for the list beside Run. A value the validator refuses is left out
    /// while its input holds text that was refused before it: that value is not what the
    /// input shows any more.
    pub fn problems(&self) -> Vec<Problem> {
        let at = |path: &str, text: String| Problem { path: path.to_string(), place: self.place(path), text };
        let mut out: Vec<Problem> = self
            .typed
            .iter()
            .filter_map(|(path, t)| t.error.as_ref().map(|e| at(path, format!("{} {e}", self.place(path)))))
            .collect();
        if let Some((path, msg)) = self.shape_error.as_ref().filter(|(p, _)| !self.refused(p)) {
            out.push(at(path, format!("{}: {msg}", self.place(path))));
        }
        if let Some(e) = &self.structure_error {
            out.push(Problem { path: String::new(), place: "Scenario".into(), text: e.clone() });
        }
        for e in self.errors.iter().filter(|e| !self.refused(&e.field)) {
            let allowed = humanize(&self.value, &e.field, &e.allowed);
            out.push(at(
                &e.field,
                format!("{}: {} is out of range; allowed: {allowed}", self.place(&e.field), e.value),
            ));
        }
        out
    }

    /// "Link bottleneck › Rate" for `links.bottleneck.rate_bps`.
    pub fn place(&self, path: &str) -> String {
        place::place(&self.value, path)
    }

    /// The message for one input, if it has one. A rule between two fields (maxTh above
    /// minTh) also shows on the field typed into last when the rule names it.
    pub fn error_for(&self, path: &str) -> Option<String> {
        if let Some(t) = self.typed.get(path) {
            if let Some(e) = &t.error {
                return Some(format!("{} {e}", t.label));
            }
        }
        if let Some((_, msg)) = self.shape_error.as_ref().filter(|(p, _)| p == path) {
            return Some(msg.clone());
        }
        let own = self.errors.iter().find(|e| is_under(&e.field, path));
        let key = path.rsplit('.').next().unwrap_or(path);
        let related = || {
            (self.last_edited.as_deref() == Some(path))
                .then(|| self.errors.iter().find(|e| e.allowed.contains(&format!("{key} ="))))
                .flatten()
        };
        own.or_else(related).map(|e| {
            let allowed = humanize(&self.value, &e.field, &e.allowed);
            match e.field.strip_prefix(path) {
                Some("") => format!("{} is out of range; allowed: {allowed}", e.value),
                Some(index) if index.starts_with('[') => {
                    format!("entry {index} = {} is out of range; allowed: {allowed}", e.value)
                }
                _ => format!("{} = {} is out of range; allowed: {allowed}", self.place(&e.field), e.value),
            }
        })
    }

    /// What an input shows: what was typed into it, else the current value.
    pub fn text(&self, path: &str) -> String {
        if let Some(t) = self.typed.get(path) {
            return t.text.clone();
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

    /// The path of the studied link (`links.bottleneck`, `links.home`): the one whose disc
    /// the charts, the compare and the Warbler panel are about.
    pub fn studied(&self) -> String {
        let name = self.value.get("bottleneck").and_then(Value::as_str);
        format!("links.{}", name.unwrap_or(sim_core::scenario::Scenario::BOTTLENECK_NAME))
    }

    pub fn bool(&self, path: &str) -> bool {
        self.value(path).and_then(Value::as_bool).unwrap_or(false)
    }

    /// What the preset had at `path`: the same group (wherever it moved) and the same
    /// algorithms along the way, else nothing (CoDel's target has no preset value in a RED
    /// preset).
    pub fn preset_value(&self, path: &str) -> Option<&Value> {
        let preset = self.preset.as_ref()?;
        let mapped = match group(path) {
            Some((i, rest)) => format!("flows[{}]{rest}", self.group_origin.get(i).copied().flatten()?),
            None => path.to_string(),
        };
        let (ours, theirs): (Vec<&str>, Vec<&str>) = (path.split('.').collect(), mapped.split('.').collect());
        for k in 1..ours.len() {
            let tag = |v: &Value, parts: &[&str]| {
                patch::get(v, &parts[..k].join(".")).and_then(|o| o.get("type")).cloned()
            };
            if tag(&self.value, &ours) != tag(preset, &theirs) {
                return None;
            }
        }
        patch::get(preset, &mapped)
    }

    /// The user typed `raw` into the input for `path`.
    pub fn edit(&mut self, path: &str, raw: &str, input: Input) {
        self.last_edited = Some(path.to_string());
        let error = match read(raw.trim(), input) {
            Ok(v) => patch::set(&mut self.value, path, v).err(),
            Err(e) => Some(e),
        };
        self.typed.insert(path.to_string(), Typed { text: raw.to_string(), label: input.label, error });
        self.rebuild();
    }

    /// Sets a structured value (checkboxes, menus, whole parts such as a buffer in other
    /// units). A part replaced keeps what was typed into it aside; a refused text of the
    /// part coming back returns with it (the values it had are converted, not restored).
    pub fn set(&mut self, path: &str, v: Value) {
        self.replace(path, v, false);
        self.rebuild();
    }

    /// A menu of a nested part (a CCA, a scheduler, a control-plane app) chose `tag`:
    /// the part as it was left, else `default`.
    pub fn choose(&mut self, path: &str, tag: &str, default: Value) {
        let remembered = self.left.get(&(path.to_string(), tag.to_string())).map(|l| l.value.clone());
        let known = remembered.is_some();
        self.replace(path, remembered.unwrap_or(default), known);
        self.rebuild();
    }

    /// Puts `new` at `path`; the part there goes aside with what was typed into it, and
    /// what was typed into `new`'s member when it was last left comes back: all of it if
    /// `restored` (`new` is the part as left), else the refused texts only.
    fn replace(&mut self, path: &str, new: Value, restored: bool) {
        let old = patch::get(&self.value, path).cloned();
        let typed: BTreeMap<String, Typed> = {
            let (under, rest) =
                std::mem::take(&mut self.typed).into_iter().partition(|(k, _)| is_under(k, path));
            self.typed = rest;
            under
        };
        if old.as_ref().is_some_and(|v| v.is_object() || v.is_null()) || new.is_object() {
            let key = (path.to_string(), variant(old.as_ref()));
            self.left.insert(key, Left { value: old.unwrap_or(Value::Null), typed });
        }
        let back = (path.to_string(), variant(Some(&new)));
        if let Err(e) = patch::set(&mut self.value, path, new) {
            self.structure_error = Some(e);
            return;
        }
        if let Some(left) = self.left.get(&back) {
            let back = left.typed.iter().filter(|(_, t)| restored || t.error.is_some());
            self.typed.extend(back.map(|(k, t)| (k.clone(), t.clone())));
        }
    }

    /// The disc at `path` (`links.NAME.queue`) becomes the entry
    /// `key` of the disc menu (a tag or a flavour such as `ared`); coming back to an
    /// algorithm restores what was typed into it (RED 7/21 → CoDel → RED is 7/21 again, a
    /// FIFO's 100 packets stay 100 packets after a detour through the switch port), refused
    /// texts included.
    pub fn swap_disc(&mut self, path: &str, key: &str) {
        let Some(mut sc) = self.scenario().cloned() else { return };
        // The link whose disc this is is studied here, where the compare helper swaps
        // discs with the link's rate and packet size at hand.
        let link = path.strip_prefix("links.").and_then(|p| p.strip_suffix(".queue"));
        match link {
            Some(name) if sc.links.contains_key(name) => sc.bottleneck = name.to_string(),
            _ => return,
        }
        // The disc as the JSON has it now, should another part not build.
        if let Some(q) = self.value(path).cloned().and_then(|v| QueueDiscSpec::from_value(v).ok()) {
            sc.bottleneck_mut().queue = q;
        }
        let current = sc.bottleneck().queue.tag();
        let tag = QueueDiscSpec::FAMILY.entries().into_iter().find(|e| e.0 == key).map(|e| e.2);
        let remembered = tag
            .filter(|t| *t != current)
            .and_then(|t| self.left.get(&(path.to_string(), t.to_string())))
            .map(|l| l.value.clone());
        let swapped =
            crate::compare::with_disc_remembered(&sc, key, remembered.as_ref()).bottleneck().queue.clone();
        let restored = tag == Some(current) || remembered.is_some();
        self.replace(path, swapped.to_value(), restored);
        self.rebuild();
    }

    pub fn add_flow_group(&mut self) {
        let g = serde_json::to_value(sim_core::scenario::FlowGroup::default()).unwrap();
        self.flows_mut().push(g);
        self.group_origin.push(None);
        self.rebuild();
    }

    /// A copy of group `i` after it, showing what group `i` shows (typed text included);
    /// later groups' texts move one group down with their groups.
    pub fn duplicate_flow_group(&mut self, i: usize) {
        let flows = self.flows_mut();
        let Some(g) = flows.get(i).cloned() else { return };
        flows.insert(i + 1, g);
        self.regroup(&|j| Some(if j > i { j + 1 } else { j }));
        let copies: Vec<(String, Typed)> =
            self.typed.iter().filter_map(|(k, t)| in_group(k, i, i + 1).map(|k| (k, t.clone()))).collect();
        self.typed.extend(copies);
        let copies: Vec<((String, String), Left)> = self
            .left
            .iter()
            .filter_map(|((p, v), l)| {
                let p = in_group(p, i, i + 1)?;
                let typed = l.typed.iter().filter_map(|(k, t)| Some((in_group(k, i, i + 1)?, t.clone())));
                Some(((p, v.clone()), Left { value: l.value.clone(), typed: typed.collect() }))
            })
            .collect();
        self.left.extend(copies);
        let origin = self.group_origin.get(i).copied().flatten();
        self.group_origin.insert((i + 1).min(self.group_origin.len()), origin);
        self.rebuild();
    }

    /// Removes group `i`; what was typed into it goes, later groups' texts move up with them.
    pub fn remove_flow_group(&mut self, i: usize) {
        let flows = self.flows_mut();
        if i >= flows.len() {
            return;
        }
        flows.remove(i);
        self.regroup(&|j| match j.cmp(&i) {
            std::cmp::Ordering::Less => Some(j),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(j - 1),
        });
        if i < self.group_origin.len() {
            self.group_origin.remove(i);
        }
        self.rebuild();
    }

    /// Renumbers every path kept by group (typed texts, parts left aside, the last input).
    fn regroup(&mut self, map: &dyn Fn(usize) -> Option<usize>) {
        let typed = |m: BTreeMap<String, Typed>| -> BTreeMap<String, Typed> {
            m.into_iter().filter_map(|(k, t)| Some((moved(&k, map)?, t))).collect()
        };
        self.typed = typed(std::mem::take(&mut self.typed));
        self.left = std::mem::take(&mut self.left)
            .into_iter()
            .filter_map(|((p, v), l)| {
                Some(((moved(&p, map)?, v), Left { value: l.value, typed: typed(l.typed) }))
            })
            .collect();
        self.last_edited = self.last_edited.take().and_then(|p| moved(&p, map));
        // A change of a group follows it; a change of a removed group goes with it.
        if let Some(Value::Array(changes)) = self.value.get_mut("changes") {
            changes.retain_mut(|c| match c.get("set").and_then(Value::as_str).map(|p| moved(p, map)) {
                Some(Some(p)) => {
                    c["set"] = Value::String(p);
                    true
                }
                Some(None) => false,
                None => true,
            });
        }
    }

    /// The scenario's timed changes, in the order listed.
    pub fn changes(&self) -> Vec<TimedChange> {
        self.value
            .get("changes")
            .and_then(|v| serde_json::from_value::<Vec<TimedChange>>(v.clone()).ok())
            .unwrap_or_default()
    }

    /// Adds a timed change (one made during a run, or from the editor's form).
    pub fn add_change(&mut self, c: &TimedChange) {
        let mut all = self.changes();
        all.push(c.clone());
        self.set_changes(all);
    }

    pub fn remove_change(&mut self, i: usize) {
        let mut all = self.changes();
        if i < all.len() {
            all.remove(i);
            self.set_changes(all);
        }
    }

    fn set_changes(&mut self, all: Vec<TimedChange>) {
        match self.value.as_object_mut() {
            Some(m) => {
                m.insert("changes".into(), serde_json::to_value(all).expect("changes serialise"));
            }
            None => return,
        }
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

    fn rebuild(&mut self) {
        self.version += 1;
        match Scenario::from_value(self.value.clone()) {
            Ok(sc) => {
                self.structure_error = None;
                self.shape_error = None;
                self.errors = sc.validate().err().unwrap_or_default();
                self.scenario = Some(sc);
            }
            Err(e) => {
                self.errors.clear();
                // "flows[0].count: invalid value ..." belongs to that input.
                match e.split_once(": ") {
                    Some((path, msg)) if patch::get(&self.value, path).is_some() => {
                        self.structure_error = None;
                        self.shape_error = Some((path.to_string(), readable(msg)));
                    }
                    _ => {
                        self.shape_error = None;
                        self.structure_error = Some(e);
                    }
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

/// A bound of a whole-number range as digits (the seed's top is 2^64 − 1 exactly).
fn bound(x: f64) -> String {
    if x >= u64::MAX as f64 {
        u64::MAX.to_string()
    } else {
        fmt_num(x)
    }
}

/// "a whole number of bit/s from 1000 to 400000000000".
fn whole_words(input: Input) -> String {
    let of = if input.unit.is_empty() { String::new() } else { format!(" of {}", input.unit) };
    match input.range {
        Some(r) => format!("a whole number{of} from {} to {}", bound(r.min.max(0.0)), bound(r.max)),
        None => format!("a whole number{of} (0 or more)"),
    }
}

/// Why `raw` is not a quantity of the input's unit, as the words after its label.
fn refusal(raw: &str, input: Input, what: &str, why: Refused) -> String {
    let eg = match units::example(input.unit) {
        "" => String::new(),
        e => format!(" (e.g. {e})"),
    };
    match why {
        Refused::NotANumber => format!("must be {what}{eg}; '{}' is not", echo(raw)),
        Refused::Unit => format!("takes {}; '{}' is not one of them", units::accepted(input.unit), echo(raw)),
        Refused::MilliForMega => {
            format!("takes M for mega (m is milli): '{}' is not {}", echo(raw), units::accepted(input.unit))
        }
    }
}

fn number(raw: &str, input: Input) -> Result<f64, String> {
    let of = if input.unit.is_empty() { String::new() } else { format!(" of {}", input.unit) };
    let what = format!("a number{of}");
    let v = units::parse(raw, input.unit).map_err(|why| refusal(raw, input, &what, why))?.to_f64();
    if v.is_finite() {
        Ok(v)
    } else {
        Err(format!("must be a finite number{of}; '{}' is not", echo(raw)))
    }
}

fn whole(raw: &str, input: Input) -> Result<u64, String> {
    let what = whole_words(input);
    let d = units::parse(raw, input.unit).map_err(|why| refusal(raw, input, &what, why))?;
    let too_large = || format!("is too large: it must be {what}, and '{}' is more", echo(raw));
    match d.whole() {
        // u64::MAX as f64 rounds up, so the seed's top is not "more" than its range.
        Ok(n) if input.range.is_some_and(|r| n as f64 > r.max) => Err(too_large()),
        Ok(n) => Ok(n),
        Err(NotWhole::TooLarge) => Err(too_large()),
        Err(NotWhole::Negative | NotWhole::Fraction) => {
            let converted = match raw.parse::<f64>() {
                Ok(_) => String::new(),
                Err(_) => format!(" (it is {} {})", fmt_num(d.to_f64()), input.unit),
            };
            Err(format!("must be {what}; '{}' is not{converted}", echo(raw)))
        }
    }
}

/// `raw` (trimmed) as the input's JSON value (units converted), or why not.
pub fn read(raw: &str, input: Input) -> Result<Value, String> {
    match input.kind {
        Kind::OptFloat | Kind::OptInt if raw.is_empty() => Ok(Value::Null),
        Kind::Float | Kind::OptFloat => number(raw, input).map(Value::from),
        Kind::Int | Kind::OptInt => whole(raw, input).map(Value::from),
        Kind::IntList => raw
            .split([',', ' '])
            .filter(|t| !t.is_empty())
            .map(|t| whole(t, input).map(Value::from))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
    }
}

mod network;

#[cfg(test)]
mod tests;
