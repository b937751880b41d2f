//! Version 1 of the scenario format, read into version 2.
//!
//! Version 1 kept the studied link apart (`"bottleneck": {rate_bps, …}`, optionally renamed
//! by `bottleneck_name`) from the other links (`links`); version 2 has every link in
//! `links` and `"bottleneck": NAME` naming the studied one. Files, presets' share links and
//! `--set` paths written for version 1 keep working: a file is moved over here, and a path
//! `bottleneck.X` is read as `links.NAME.X` ([`alias`]).
//!
//! Done on the JSON value, before the one typed read: a second typed form of the scenario
//! would be a second deserializer in the page's download.

use serde_json::{Map, Value};

/// `v` in version 2: a version 1 scenario moved over, anything else as it is. A version 1
/// file that has a link named as its bottleneck cannot be moved (the validator of version
/// 1 refused it too): an error names it.
pub(super) fn upgrade(mut v: Value) -> Result<Value, String> {
    let Value::Object(m) = &mut v else { return Ok(v) };
    if !is_v1(m) {
        return Ok(v);
    }
    let name = match m.remove("bottleneck_name") {
        Some(Value::String(s)) => s,
        Some(other) => {
            let got = crate::params::echo(&other.to_string());
            return Err(format!("bottleneck_name: expected a link's name, got {got}"));
        }
        None => super::Scenario::BOTTLENECK_NAME.to_string(),
    };
    let link = m.remove("bottleneck").unwrap_or_else(|| Value::Object(Map::new()));
    let mut links = match m.remove("links") {
        Some(Value::Object(l)) => l,
        Some(other) => {
            return Err(format!(
                "links: expected links by name, got {}",
                crate::params::echo(&other.to_string())
            ))
        }
        None => Map::new(),
    };
    if links.contains_key(&name) {
        return Err(format!(
            "links.{name}: a link with the bottleneck's name ('{name}'); allowed: a name other than the bottleneck's"
        ));
    }
    links.insert(name.clone(), link);
    m.insert("links".into(), Value::Object(links));
    m.insert("bottleneck".into(), Value::String(name.clone()));
    m.insert("version".into(), Value::from(super::SCENARIO_VERSION));
    if let Some(Value::Array(changes)) = m.get_mut("changes") {
        for c in changes.iter_mut().filter_map(|c| c.get_mut("set")) {
            if let Some(path) = c.as_str().and_then(|p| alias(&name, p)) {
                *c = Value::String(path);
            }
        }
    }
    Ok(v)
}

/// Version 1 says so (or says no version: a hand-written file) and does not name its
/// studied link as version 2 does. A version 2 file that says 1 is left to the validator,
/// which names the version.
fn is_v1(m: &Map<String, Value>) -> bool {
    let v1 = m.get("version").is_none_or(|v| v.as_u64() == Some(1));
    v1 && !m.get("bottleneck").is_some_and(Value::is_string)
}

/// Version 1's path to a field of the studied link (`bottleneck.queue.limit`,
/// `/bottleneck/rate_bps`) as version 2's (`links.NAME.queue.limit`); `None` for any other
/// path.
pub fn alias(bottleneck: &str, path: &str) -> Option<String> {
    if let Some(rest) = path.strip_prefix("bottleneck.") {
        return Some(format!("links.{bottleneck}.{rest}"));
    }
    let rest = path.strip_prefix("/bottleneck/")?;
    Some(format!("/links/{}/{rest}", bottleneck.replace('~', "~0").replace('/', "~1")))
}

#[cfg(test)]
mod tests {
    use super::super::Scenario;
    use serde_json::json;

    #[test]
    fn a_version_1_file_loads_with_its_bottleneck_among_the_links() {
        let v1 = json!({
            "version": 1,
            "bottleneck": {"rate_bps": 5_000_000, "queue": {"type": "fifo", "limit": {"packets": 50}}},
            "bottleneck_name": "home",
            "links": {"modem": {"rate_bps": 8_000_000}},
            "flows": [{"count": 2, "route": ["home", "modem"]}],
            "changes": [{"at_s": 5.0, "set": "bottleneck.rate_bps", "to": 2_000_000}],
        });
        let s = Scenario::from_value(v1).unwrap();
        assert_eq!(s.version, 2);
        assert_eq!(s.bottleneck, "home");
        assert_eq!(s.bottleneck().rate_bps, 5_000_000);
        assert_eq!(s.link_names().collect::<Vec<_>>(), ["home", "modem"]);
        assert_eq!(s.changes[0].set, "links.home.rate_bps");
        s.validate().unwrap();
        // Written as version 2, it reads back the same.
        assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
        assert!(!s.to_json().contains("bottleneck_name"));
    }

    #[test]
    fn a_file_without_a_version_is_read_by_its_shape() {
        let old = json!({"bottleneck": {"delay_ms": 7.0}});
        assert_eq!(Scenario::from_value(old).unwrap().bottleneck().delay_ms, 7.0);
        let new = json!({"links": {"a": {"delay_ms": 3.0}}, "bottleneck": "a"});
        assert_eq!(Scenario::from_value(new).unwrap().bottleneck().delay_ms, 3.0);
    }

    #[test]
    fn a_version_1_link_named_as_its_bottleneck_is_refused_by_name() {
        let v1 = json!({"version": 1, "links": {"bottleneck": {}}});
        let e = Scenario::from_value(v1).unwrap_err();
        assert!(e.starts_with("links.bottleneck: a link with the bottleneck's name"), "{e}");
    }

    #[test]
    fn version_1_paths_read_as_the_studied_link() {
        assert_eq!(super::alias("home", "bottleneck.queue.limit").unwrap(), "links.home.queue.limit");
        assert_eq!(super::alias("home", "/bottleneck/rate_bps").unwrap(), "/links/home/rate_bps");
        assert_eq!(super::alias("home", "bottleneck"), None);
        assert_eq!(super::alias("home", "flows[0].count"), None);
    }
}
