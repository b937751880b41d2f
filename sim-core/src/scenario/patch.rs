//! Editing one field of a scenario by its path (`bottleneck.queue.min_th`, `flows[0].count`),
//! through the scenario's JSON form. The CLI's `--set` and the web editor both use it, and
//! the paths are the ones [`super::ScenarioError`] names.

use super::Scenario;
use serde_json::Value;

/// Applies `(path, raw)` edits in order; `raw` is JSON, and a bare word counts as a string.
pub fn apply(sc: &Scenario, sets: &[(String, String)]) -> Result<Scenario, String> {
    if sets.is_empty() {
        return Ok(sc.clone());
    }
    let mut v = serde_json::to_value(sc).map_err(|e| e.to_string())?;
    for (path, raw) in sets {
        let new: Value = serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.clone()));
        set(&mut v, path, new)?;
    }
    serde_json::from_value(v).map_err(|e| e.to_string())
}

/// Replaces the value at `path`; the error names the path when it does not exist.
pub fn set(v: &mut Value, path: &str, new: Value) -> Result<(), String> {
    let slot = locate(v, path).ok_or_else(|| format!("{path}: no such field in the scenario"))?;
    *slot = new;
    Ok(())
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

fn locate<'a>(mut v: &'a mut Value, path: &str) -> Option<&'a mut Value> {
    for part in path.split('.') {
        let (key, index) = split_index(part)?;
        if !key.is_empty() {
            v = v.as_object_mut()?.get_mut(key)?;
        }
        if let Some(i) = index {
            v = v.as_array_mut()?.get_mut(i)?;
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
            &[("bottleneck.nic_queue_packets".into(), "100".into()), ("flows[0].count".into(), "7".into())],
        )
        .unwrap();
        assert_eq!(s.bottleneck.nic_queue_packets, 100);
        assert_eq!(s.flows[0].count, 7);
    }

    #[test]
    fn unknown_paths_are_reported() {
        assert!(apply(&Scenario::default(), &[("nope.x".into(), "1".into())])
            .unwrap_err()
            .contains("nope.x"));
    }

    #[test]
    fn get_reads_what_set_wrote() {
        let mut v = serde_json::to_value(Scenario::default()).unwrap();
        set(&mut v, "flows[0].access_delay_ms", Value::from(7.5)).unwrap();
        assert_eq!(get(&v, "flows[0].access_delay_ms"), Some(&Value::from(7.5)));
        assert_eq!(get(&v, "flows[3].access_delay_ms"), None);
    }
}
