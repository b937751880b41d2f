//! Editing one field of a scenario by its path (`links.bottleneck().queue.min_th`,
//! `flows[0].count`), through the scenario's JSON form. The CLI's `--set` and the web
//! editor both use it, and the paths are the ones [`super::ScenarioError`] names. Version
//! 1's paths to the studied link (`bottleneck.rate_bps`) still work ([`super::v1_path`]).

use super::Scenario;
use serde_json::Value;

/// Applies `(path, raw)` edits in order; `raw` is JSON, and a bare word counts as a string.
/// A path is dotted (`flows[0].cca.beta`) or a JSON Pointer (`/flows/0/cca/beta`).
pub fn apply(sc: &Scenario, sets: &[(String, String)]) -> Result<Scenario, String> {
    if sets.is_empty() {
        return Ok(sc.clone());
    }
    let mut v = serde_json::to_value(sc).map_err(|e| e.to_string())?;
    with_optional_fields(&mut v);
    for (path, raw) in sets {
        let path = &super::v1_path(&sc.bottleneck, path).unwrap_or_else(|| path.clone());
        let new = parse_raw(&v, path, raw)?;
        set(&mut v, path, new)?;
    }
    Scenario::from_value(v)
}

/// The fields a scenario writes only when used (each group's `route` and `ack_route`),
/// empty, so that a path into them can be set.
fn with_optional_fields(v: &mut Value) {
    if let Value::Object(m) = v {
        if let Some(Value::Array(flows)) = m.get_mut("flows") {
            for f in flows.iter_mut().filter_map(Value::as_object_mut) {
                f.entry("route").or_insert_with(|| Value::Array(Vec::new()));
                f.entry("ack_route").or_insert_with(|| Value::Array(Vec::new()));
            }
        }
    }
}

/// `raw` as JSON, read strictly; a word that is not JSON is a string, unless it is
/// `Infinity`, `NaN` or a number beyond f64 where a number stands now.
fn parse_raw(v: &Value, path: &str, raw: &str) -> Result<Value, String> {
    use crate::params::json::{self, Problem};
    let e = match json::parse(raw) {
        Ok(x) => return Ok(x),
        Err(e) => e,
    };
    let full = match (path, e.path.as_str()) {
        (p, "") => p.to_string(),
        (p, inner) if inner.starts_with('[') => format!("{p}{inner}"),
        (p, inner) => format!("{p}.{inner}"),
    };
    let number_here = get(v, path).is_some_and(|x| x.is_number() || x.is_null());
    match e.problem {
        Problem::DuplicateKey(_) => Err(json::JsonError { path: full, ..e }.to_string()),
        Problem::NotFinite(_) | Problem::TooLarge(_) if number_here || !e.path.is_empty() => {
            let allowed = super::fields::allowed_at(v, &full);
            Err(json::JsonError { path: full, ..e }.message(allowed.as_deref()))
        }
        _ => Ok(Value::String(raw.to_string())),
    }
}

/// `flows[2].cca.beta` → `/flows/2/cca/beta`; a path that already is a pointer stays.
pub fn to_pointer(path: &str) -> String {
    if path.starts_with('/') || path.is_empty() {
        return path.to_string();
    }
    let mut p = String::new();
    for part in path.split('.') {
        let (key, rest) = part.split_once('[').map_or((part, ""), |(k, r)| (k, r));
        if !key.is_empty() {
            p.push('/');
            p.push_str(&key.replace('~', "~0").replace('/', "~1"));
        }
        for idx in rest.split('[').filter(|s| !s.is_empty()) {
            p.push('/');
            p.push_str(idx.trim_end_matches(']'));
        }
    }
    p
}

/// Replaces the value at `path`; an error names the path and the closest existing key.
pub fn set(v: &mut Value, path: &str, new: Value) -> Result<(), String> {
    let pointer = to_pointer(path);
    if let Some(slot) = v.pointer_mut(&pointer) {
        *slot = new;
        return Ok(());
    }
    Err(missing(v, path, &pointer))
}

/// Explains which part of `path` does not exist.
fn missing(v: &Value, path: &str, pointer: &str) -> String {
    let mut at = v;
    let mut walked = String::new();
    for key in pointer.split('/').skip(1) {
        let next = match at {
            Value::Object(m) => m.get(key),
            Value::Array(a) => key.parse::<usize>().ok().and_then(|i| a.get(i)),
            _ => None,
        };
        match next {
            Some(n) => {
                walked.push('/');
                walked.push_str(key);
                at = n;
            }
            None => {
                let hint = match at {
                    Value::Object(m) => crate::params::closest(key, m.keys().map(String::as_str))
                        .map(|c| format!("; did you mean '{c}'?"))
                        .unwrap_or_else(|| {
                            format!("; there: {}", m.keys().cloned().collect::<Vec<_>>().join(", "))
                        }),
                    Value::Array(a) => format!("; the list has {} entries", a.len()),
                    _ => String::new(),
                };
                let key = crate::params::echo(key);
                return format!(
                    "{path}: no field '{key}' at '{}'{hint}",
                    if walked.is_empty() { "/" } else { &walked }
                );
            }
        }
    }
    format!("{path}: no such field in the scenario")
}

/// The value at `path`, if any.
pub fn get<'a>(mut v: &'a Value, path: &str) -> Option<&'a Value> {
    for part in path.split('.') {
        let (key, index) = split_index(part)?;
        if !key.is_empty() {
            v = v.as_object()?.get(key)?;
        }
        if let Some(i) = index {
            v = v.as_array()?.get(i)?;
        }
    }
    Some(v)
}

/// `flows[2]` → ("flows", Some(2)); `count` → ("count", None).
fn split_index(part: &str) -> Option<(&str, Option<usize>)> {
    match part.split_once('[') {
        Some((k, rest)) => Some((k, Some(rest.strip_suffix(']')?.parse::<usize>().ok()?))),
        None => Some((part, None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_nested_fields_and_array_elements() {
        let sc = Scenario::default();
        let s = apply(
            &sc,
            &[
                ("links.bottleneck.nic_queue_packets".into(), "100".into()),
                ("flows[0].count".into(), "7".into()),
            ],
        )
        .unwrap();
        assert_eq!(s.bottleneck().nic_queue_packets, 100);
        assert_eq!(s.flows[0].count, 7);
    }

    #[test]
    fn unknown_paths_are_reported_with_the_closest_key() {
        let e = apply(&Scenario::default(), &[("links.bottleneck.rate_bp".into(), "1".into())]).unwrap_err();
        assert!(e.contains("links.bottleneck.rate_bp") && e.contains("did you mean 'rate_bps'"), "{e}");
        let e = apply(&Scenario::default(), &[("flows[3].count".into(), "1".into())]).unwrap_err();
        assert!(e.contains("the list has 1 entries"), "{e}");
    }

    #[test]
    fn infinity_where_a_number_stands_is_refused_with_the_range_and_elsewhere_is_a_word() {
        let set = |path: &str, raw: &str| apply(&Scenario::default(), &[(path.into(), raw.into())]);
        let e = set("links.bottleneck.delay_ms", "Infinity").unwrap_err();
        assert_eq!(
            e,
            "links.bottleneck.delay_ms: Infinity is not a finite number (JSON has no Infinity or NaN); \
             allowed: 0 to 10000 ms"
        );
        assert!(set("flows[0].stop_s", "NaN").unwrap_err().starts_with("flows[0].stop_s: NaN"));
        assert_eq!(set("name", "Infinity").unwrap().name, "Infinity");
        let e = set("links.bottleneck.queue", r#"{"type": "fifo", "type": "red"}"#).unwrap_err();
        assert!(e.starts_with("links.bottleneck.queue.type: the key \"type\" appears twice"), "{e}");
    }

    #[test]
    fn json_pointers_work_as_well_as_dotted_paths() {
        assert_eq!(to_pointer("flows[0].cca.beta"), "/flows/0/cca/beta");
        let s = apply(&Scenario::default(), &[("/flows/0/count".into(), "4".into())]).unwrap();
        assert_eq!(s.flows[0].count, 4);
    }

    #[test]
    fn a_type_error_names_the_field_and_the_expected_type() {
        let e = apply(&Scenario::default(), &[("duration_s".into(), "long".into())]).unwrap_err();
        assert!(e.starts_with("duration_s:") && e.contains("a number"), "{e}");
    }

    #[test]
    fn get_reads_what_set_wrote() {
        let mut v = serde_json::to_value(Scenario::default()).unwrap();
        set(&mut v, "flows[0].access_delay_ms", Value::from(7.5)).unwrap();
        assert_eq!(get(&v, "flows[0].access_delay_ms"), Some(&Value::from(7.5)));
        assert_eq!(get(&v, "flows[3].access_delay_ms"), None);
    }
}
