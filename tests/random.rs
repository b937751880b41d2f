//! Random scenarios drawn from the parameter descriptors (`Field` / `Kind` / `Range` in
//! `sim_core::params`): the property tests, the fuzz target and the mutation campaign use
//! them, and so does the web UI's share-link test. Nothing here knows an algorithm by name:
//! the fields come from the registries, so a new disc or congestion control is covered
//! as soon as it is registered.

use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::Value;
use sim_core::aqm::QueueDiscSpec;
use sim_core::cc::CcaSpec;
use sim_core::params::field::{CELL_BYTES, LIMIT_BYTES, LIMIT_CELLS, LIMIT_PACKETS};
use sim_core::params::{Field, Kind, Range};
use sim_core::scenario::fields::{FLOW_FIELDS, LINK_FIELDS, RUN_FIELDS};
use sim_core::scenario::{patch, preset, preset_list, Scenario};
use sim_core::tcp::TcpConfig;

/// A described field at a concrete path of a scenario's JSON (`flows[1].cca.beta`).
#[derive(Clone, Debug)]
pub struct Slot {
    pub path: String,
    pub field: &'static Field,
}

/// Every described field of the scenario `v` (its JSON), nested configurations included:
/// each link's disc's fields under `links.NAME.queue`, each group's congestion control's under
/// `flows[i].cca`, a switch's scheduler and control-plane app under theirs.
pub fn slots(v: &Value) -> Vec<Slot> {
    let mut out = Vec::new();
    add(&mut out, "", RUN_FIELDS, v);
    for name in v["links"].as_object().into_iter().flat_map(|m| m.keys()) {
        add(&mut out, &format!("links.{name}."), LINK_FIELDS, v);
    }
    let groups = v["flows"].as_array().map_or(0, Vec::len);
    for i in 0..groups {
        add(&mut out, &format!("flows[{i}]."), FLOW_FIELDS, v);
    }
    add(&mut out, "tcp.", TcpConfig::FIELDS, v);
    out
}

fn add(out: &mut Vec<Slot>, prefix: &str, fields: &'static [Field], root: &Value) {
    for f in fields {
        let path = format!("{prefix}{}", f.path);
        if let Kind::Tagged(family) = f.kind {
            let member = patch::get(root, &path)
                .and_then(|x| x.get("type"))
                .and_then(Value::as_str)
                .and_then(|t| family.member(t));
            if let Some(a) = member {
                add(out, &format!("{path}."), a.fields, root);
            }
        }
        out.push(Slot { path, field: f });
    }
}

/// How a value is drawn from a field's range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Uniform in [min, max].
    Inside,
    /// Log-uniform: small values as likely as large ones.
    Log,
    /// The smallest allowed value (for "more than min": the next number above it).
    Min,
    Max,
    /// Just below the range: min − 1 for whole numbers, the float below min, or min itself
    /// when min is excluded.
    BelowMin,
    /// Just above: max + 1, or the float above max.
    AboveMax,
    /// `null` where the field is optional, else a uniform draw.
    Empty,
}

impl Mode {
    pub const ALL: [Mode; 7] =
        [Mode::Inside, Mode::Log, Mode::Min, Mode::Max, Mode::BelowMin, Mode::AboveMax, Mode::Empty];
    /// The modes that stay within the declared range.
    pub const VALID: [Mode; 5] = [Mode::Inside, Mode::Log, Mode::Min, Mode::Max, Mode::Empty];
}

/// A value for a field, and the path (relative to the field) a validator must name when it
/// is out of range (`""` for the field itself, `packets` or `cells.cell_bytes` in a limit).
#[derive(Clone, Debug, PartialEq)]
pub struct Drawn {
    pub value: Value,
    pub bad: Option<String>,
}

fn next_up(x: f64) -> f64 {
    if x == 0.0 {
        f64::from_bits(1)
    } else if x > 0.0 {
        f64::from_bits(x.to_bits() + 1)
    } else {
        f64::from_bits(x.to_bits() - 1)
    }
}

fn next_down(x: f64) -> f64 {
    -next_up(-x)
}

/// A number of `r` by `mode`, `x` in [0, 1) choosing where.
fn number(r: Range, int: bool, mode: Mode, x: f64) -> f64 {
    let v = match mode {
        Mode::Inside | Mode::Empty => r.min + x * (r.max - r.min),
        Mode::Log => {
            // Log-uniform over [min, max] (from 1 when min ≤ 0, with min itself as the floor).
            let lo = if r.min > 0.0 { r.min } else { 1.0 };
            if r.max <= lo {
                r.min + x * (r.max - r.min)
            } else {
                (lo.ln() + x * (r.max.ln() - lo.ln())).exp().max(r.min)
            }
        }
        Mode::Min if r.min_open => {
            if int {
                r.min.floor() + 1.0
            } else {
                next_up(r.min)
            }
        }
        Mode::Min => r.min,
        Mode::Max => r.max,
        Mode::BelowMin if r.min_open => r.min,
        Mode::BelowMin => {
            if int {
                r.min - 1.0
            } else {
                next_down(r.min)
            }
        }
        Mode::AboveMax => {
            if int {
                r.max + 1.0
            } else {
                next_up(r.max)
            }
        }
    };
    if int && matches!(mode, Mode::Inside | Mode::Log | Mode::Empty) {
        // Round inward so a whole-number draw stays inside.
        let v = v.round();
        if r.contains(v) {
            v
        } else {
            v.ceil().max(r.min.ceil()).min(r.max.floor())
        }
    } else {
        v
    }
}

/// JSON for a drawn number: a whole number when the field is one (so that serde reads it).
fn json_number(v: f64, int: bool) -> Value {
    if int && v.fract() == 0.0 {
        if v >= 0.0 {
            // Saturates at u64::MAX (2^64 as f64 is the seed range's top).
            Value::from(v as u64)
        } else if v >= i64::MIN as f64 {
            Value::from(v as i64)
        } else {
            Value::from(v)
        }
    } else {
        Value::from(v)
    }
}

/// A number drawn from `r`, and whether the validator must refuse it (judged on the value
/// as JSON will carry it, exactly as the validator reads it).
fn drawn_number(r: Range, int: bool, mode: Mode, x: f64) -> (Value, bool) {
    let v = json_number(number(r, int, mode, x), int);
    let inside = v.as_f64().is_some_and(|n| r.contains(n));
    (v, !inside)
}

/// A value for field `f` by `mode`; `x` and `y` in [0, 1) choose where and which unit.
pub fn draw(f: &Field, mode: Mode, x: f64, y: f64) -> Drawn {
    let field_itself = |(value, bad): (Value, bool)| Drawn { value, bad: bad.then(String::new) };
    match f.kind {
        Kind::Float(r) => field_itself(drawn_number(r, false, mode, x)),
        Kind::Int(r) => field_itself(drawn_number(r, true, mode, x)),
        Kind::OptFloat(_) | Kind::OptInt(_) if mode == Mode::Empty => Drawn { value: Value::Null, bad: None },
        Kind::OptFloat(r) => field_itself(drawn_number(r, false, mode, x)),
        Kind::OptInt(r) => field_itself(drawn_number(r, true, mode, x)),
        Kind::Bool => Drawn { value: Value::Bool(x < 0.5), bad: None },
        Kind::IntList(r) => {
            // 1-4 entries; the last one takes the mode, the others stay inside.
            let n = 1 + (y * 4.0) as usize;
            let mut bad = None;
            let mut items = Vec::new();
            for i in 0..n {
                let m = if i + 1 == n { mode } else { Mode::Inside };
                let (v, out) = drawn_number(r, true, m, (x + i as f64 * 0.37).fract());
                if out {
                    bad = Some(format!("[{i}]"));
                }
                items.push(v);
            }
            Drawn { value: Value::Array(items), bad }
        }
        Kind::OptLimit if mode == Mode::Empty => Drawn { value: Value::Null, bad: None },
        Kind::Limit | Kind::OptLimit => limit(mode, x, y),
        Kind::Tagged(family) => {
            let entries = family.entries();
            let (key, _, _) = entries[((x * entries.len() as f64) as usize).min(entries.len() - 1)];
            Drawn { value: family.entry_value(key).expect("registered entry"), bad: None }
        }
        Kind::Choice(options) => {
            let (v, _) = options[((x * options.len() as f64) as usize).min(options.len() - 1)];
            Drawn { value: Value::String(v.into()), bad: None }
        }
    }
}

/// A buffer limit in packets, bytes or cells; `y` picks the unit (and, for cells, which of
/// the two numbers takes the mode).
fn limit(mode: Mode, x: f64, y: f64) -> Drawn {
    let wrap = |key: &str, (v, out): (Value, bool)| {
        let mut m = serde_json::Map::new();
        m.insert(key.into(), v);
        (Value::Object(m), out.then(|| format!(".{key}")))
    };
    let (value, bad) = if y < 0.3 {
        wrap("packets", drawn_number(LIMIT_PACKETS, true, mode, x))
    } else if y < 0.6 {
        wrap("bytes", drawn_number(LIMIT_BYTES, true, mode, x))
    } else {
        let (cells_mode, bytes_mode) = if y < 0.8 { (mode, Mode::Inside) } else { (Mode::Inside, mode) };
        let (cells, c_out) = drawn_number(LIMIT_CELLS, true, cells_mode, x);
        let (cell_bytes, b_out) = drawn_number(CELL_BYTES, true, bytes_mode, (x * 7.0).fract());
        let bad = if c_out {
            Some(".cells.cells".to_string())
        } else {
            b_out.then(|| ".cells.cell_bytes".to_string())
        };
        (serde_json::json!({ "cells": { "cells": cells, "cell_bytes": cell_bytes } }), bad)
    };
    Drawn { value, bad }
}

/// One field-level mutation: which described field (among those the scenario has), how
/// the value is drawn, and where.
#[derive(Clone, Debug)]
pub struct Mutation {
    pub pick: Index,
    pub mode: Mode,
    pub x: f64,
    pub y: f64,
}

/// What a mutation did: the path it wrote, the value, and the path an error must name when
/// the value is out of range.
#[derive(Clone, Debug)]
pub struct Applied {
    pub path: String,
    pub value: Value,
    pub must_name: Option<String>,
}

pub fn mutation(modes: &'static [Mode]) -> impl Strategy<Value = Mutation> {
    (any::<Index>(), prop::sample::select(modes), 0.0..1.0f64, 0.0..1.0f64)
        .prop_map(|(pick, mode, x, y)| Mutation { pick, mode, x, y })
}

/// Applies `m` to the scenario JSON `v`: draws a value for one of its described fields.
pub fn apply(v: &mut Value, m: &Mutation) -> Applied {
    let slots = slots(v);
    let slot = &slots[m.pick.index(slots.len())];
    let d = draw(slot.field, m.mode, m.x, m.y);
    patch::set(v, &slot.path, d.value.clone()).expect("described fields exist in the scenario");
    Applied { path: slot.path.clone(), value: d.value, must_name: d.bad.map(|b| format!("{}{b}", slot.path)) }
}

/// Every (preset, variant) pair, then the default scenario.
pub fn bases() -> Vec<(String, Scenario)> {
    let mut out: Vec<(String, Scenario)> = preset_list()
        .iter()
        .flat_map(|p| {
            p.variants.iter().map(move |v| (format!("{}/{v}", p.name), preset(p.name, Some(v)).unwrap()))
        })
        .collect();
    out.push(("default".into(), Scenario::default()));
    out
}

/// A scenario made short and small: at most `seconds` of simulated time, no warm-up, at most
/// three groups of at most two flows, every flow starting at once and never stopping.
pub fn shorten(mut sc: Scenario, seconds: f64) -> Scenario {
    sc.duration_s = sc.duration_s.min(seconds);
    sc.warmup_s = 0.0;
    sc.sample_interval_s = sc.sample_interval_s.min(sc.duration_s / 4.0).max(0.001);
    sc.flows.truncate(3);
    for g in &mut sc.flows {
        g.count = g.count.min(2);
        g.start_s = 0.0;
        g.start_jitter_s = g.start_jitter_s.min(sc.duration_s / 4.0);
        g.stop_s = None;
    }
    sc
}

/// A random registered queue disc (flavours included) and congestion control per group, or
/// the base's own (`None`).
#[derive(Clone, Debug)]
pub struct Swap {
    pub disc: Option<Index>,
    pub cca: Vec<Option<Index>>,
}

pub fn swap() -> impl Strategy<Value = Swap> {
    (
        prop::option::weighted(0.5, any::<Index>()),
        prop::collection::vec(prop::option::weighted(0.4, any::<Index>()), 3),
    )
        .prop_map(|(disc, cca)| Swap { disc, cca })
}

/// Applies a swap to the scenario JSON. The disc keeps the base's buffer where it can.
pub fn apply_swap(v: &mut Value, s: &Swap, packet_bytes: u32) {
    if let Some(i) = &s.disc {
        let entries = QueueDiscSpec::FAMILY.entries();
        let (key, _, _) = entries[i.index(entries.len())];
        let mut spec = QueueDiscSpec::from_value(QueueDiscSpec::FAMILY.entry_value(key).unwrap()).unwrap();
        // The studied link's disc (a switch port is allowed there alone).
        let name = v["bottleneck"].as_str().unwrap_or("bottleneck").to_string();
        if let Ok(old) = QueueDiscSpec::from_value(v["links"][&name]["queue"].clone()) {
            spec.get_mut().set_limit(old.limit(), packet_bytes);
        }
        v["links"][&name]["queue"] = spec.to_value();
    }
    let groups = v["flows"].as_array().map_or(0, Vec::len);
    for (g, pick) in s.cca.iter().enumerate().take(groups) {
        if let Some(i) = pick {
            let entries = CcaSpec::FAMILY.entries();
            let (key, _, _) = entries[i.index(entries.len())];
            v["flows"][g]["cca"] = CcaSpec::FAMILY.entry_value(key).unwrap();
        }
    }
}

/// Raw material of a random valid scenario.
#[derive(Clone, Debug)]
pub struct ValidDraw {
    pub base: Index,
    pub swap: Swap,
    pub mutations: Vec<Mutation>,
    pub name: String,
    pub seed: u64,
}

/// Random valid scenarios: a preset variant (or the default), possibly another disc and
/// other congestion controls, then up to eight fields drawn inside their ranges, a random
/// name (any Unicode) and seed. Mutations that break a rule between fields are dropped
/// from the end until the scenario validates, so every draw is valid.
pub fn valid_scenario() -> impl Strategy<Value = Scenario> {
    (any::<Index>(), swap(), prop::collection::vec(mutation(&Mode::VALID), 0..8), "\\PC{0,24}", any::<u64>())
        .prop_map(|(base, swap, mutations, name, seed)| {
            build_valid(&ValidDraw { base, swap, mutations, name, seed })
        })
}

pub fn build_valid(d: &ValidDraw) -> Scenario {
    let bases = bases();
    let (_, base) = &bases[d.base.index(bases.len())];
    for keep in (0..=d.mutations.len()).rev() {
        let mut v = serde_json::to_value(base).unwrap();
        v["name"] = Value::String(d.name.clone());
        v["seed"] = Value::from(d.seed);
        apply_swap(&mut v, &d.swap, base.full_packet_bytes());
        for m in &d.mutations[..keep] {
            apply(&mut v, m);
        }
        if let Ok(sc) = Scenario::from_value(v) {
            if sc.validate().is_ok() {
                return sc;
            }
        }
    }
    // The swap alone broke a rule (a disc whose buffer cannot hold a packet): the base.
    Scenario { name: d.name.clone(), seed: d.seed, ..base.clone() }
}
