//! `--set path=value`: edits one field of a scenario through its JSON form.

use serde_json::Value;
use sim_core::scenario::Scenario;

pub fn apply(sc: &Scenario, sets: &[(String, String)]) -> Result<Scenario, String> {
    if sets.is_empty() {
        return Ok(sc.clone());
    }
    let mut v = serde_json::to_value(sc).map_err(|e| e.to_string())?;
    for (path, raw) in sets {
        let new: Value = serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.clone()));
        let slot =
            locate(&mut v, path).ok_or_else(|| format!("--set {path}: no such field in the scenario"))?;
        *slot = new;
    }
    serde_json::from_value(v).map_err(|e| format!("--set: {e}"))
}

/// Follows `a.b[2].c` through objects and arrays.
fn locate<'a>(mut v: &'a mut Value, path: &str) -> Option<&'a mut Value> {
    for part in path.split('.') {
        let (key, index) = match part.split_once('[') {
            Some((k, rest)) => (k, Some(rest.strip_suffix(']')?.parse::<usize>().ok()?)),
            None => (part, None),
        };
        if !key.is_empty() {
            v = v.as_object_mut()?.get_mut(key)?;
        }
        if let Some(i) = index {
            v = v.as_array_mut()?.get_mut(i)?;
        }
    }
    Some(v)
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
}
