//! Where a scenario path is in the editor, in the editor's own words:
//! `links.bottleneck.rate_bps` is "Bottleneck › Rate" (in a dumbbell), `flows[1].cca.beta` "Flow group 2 › CUBIC › β". Read from the
//! same descriptors the editor draws its inputs from, so no list of names is kept here.

use serde_json::Value;
use sim_core::aqm::QueueDiscSpec;
use sim_core::params::{Family, Field, Kind};
use sim_core::scenario::fields::{FLOW_FIELDS, LINK_FIELDS, RUN_FIELDS};
use sim_core::scenario::patch;
use sim_core::tcp::TcpConfig;

/// "Bottleneck › Rate" for `links.bottleneck.rate_bps`; `value` is the scenario's JSON (it says
/// which algorithm's fields a path under a queue disc or a CCA names).
pub fn place(value: &Value, path: &str) -> String {
    resolve(value, path).0.join(" › ")
}

/// The label of the input at `path`, when a descriptor names it.
pub fn label(value: &Value, path: &str) -> Option<&'static str> {
    resolve(value, path).1
}

/// `text` with each `key =` that names a field next to `path` (or at the scenario's root)
/// replaced by that field's label: "after start_s = 0 s" → "after Start = 0 s".
pub fn humanize(value: &Value, path: &str, text: &str) -> String {
    let parent = path.rfind('.').map_or("", |i| &path[..i]);
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(" = ") {
        let before = &rest[..at];
        let start = before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + before[i..].chars().next().map_or(1, char::len_utf8));
        let key = &before[start..];
        let sibling = if parent.is_empty() { key.to_string() } else { format!("{parent}.{key}") };
        let named =
            [sibling.as_str(), key].into_iter().find_map(|p| label(value, p).filter(|_| !key.is_empty()));
        out.push_str(&before[..start]);
        out.push_str(named.unwrap_or(key));
        out.push_str(" = ");
        rest = &rest[at + 3..];
    }
    out.push_str(rest);
    out
}

/// The words of `path` and the label of the field it ends at.
fn resolve(value: &Value, path: &str) -> (Vec<String>, Option<&'static str>) {
    let mut out = Vec::new();
    let label = if let Some((name, rest)) =
        path.strip_prefix("links.").map(|r| r.split_once('.').unwrap_or((r, "")))
    {
        // A dumbbell's one link is "Bottleneck" and its disc "Queue disc", as the editor
        // titles them; a link among several goes by its name.
        let alone = value["links"].as_object().is_some_and(|m| m.len() == 1)
            && value["bottleneck"].as_str() == Some(name);
        let base = format!("links.{name}");
        match rest.strip_prefix("queue") {
            Some(q) => {
                if !alone {
                    out.push(format!("Link {name}"));
                }
                out.push("Queue disc".to_string());
                match q.strip_prefix('.') {
                    Some(q) => {
                        member(&QueueDiscSpec::FAMILY, value, &format!("{base}.queue"), q, &mut out, false)
                    }
                    None => None,
                }
            }
            None => {
                out.push(if alone { "Bottleneck".to_string() } else { format!("Link {name}") });
                match rest.is_empty() {
                    true => None,
                    false => walk(LINK_FIELDS, value, &base, rest, &mut out),
                }
            }
        }
    } else if let Some((i, rest)) = group(path) {
        out.push(format!("Flow group {}", i + 1));
        match rest.strip_prefix('.') {
            Some(rest) => walk(FLOW_FIELDS, value, &format!("flows[{i}]"), rest, &mut out),
            None => None,
        }
    } else if let Some(rest) = path.strip_prefix("tcp.") {
        out.push("TCP".into());
        walk(TcpConfig::FIELDS, value, "tcp", rest, &mut out)
    } else {
        let l = walk(RUN_FIELDS, value, "", path, &mut out);
        if l.is_some() {
            out.insert(0, "Run".into());
        }
        l
    };
    (out, label)
}

/// `flows[3].count` → (3, ".count").
pub(crate) fn group(path: &str) -> Option<(usize, &str)> {
    let rest = path.strip_prefix("flows[")?;
    let (i, rest) = rest.split_once(']')?;
    Some((i.parse().ok()?, rest))
}

/// Words for `rest` among `fields` (of the object at `base`); an unknown key in plain words.
fn walk(
    fields: &'static [Field],
    value: &Value,
    base: &str,
    rest: &str,
    out: &mut Vec<String>,
) -> Option<&'static str> {
    let at_boundary = |f: &&Field| {
        rest.strip_prefix(f.path).is_some_and(|r| r.is_empty() || r.starts_with('.') || r.starts_with('['))
    };
    let Some(f) = fields.iter().filter(at_boundary).max_by_key(|f| f.path.len()) else {
        // Not an input's path (a rule about all flows, say): the key in words.
        let key = rest.split(['.', '[']).next().unwrap_or(rest).replace('_', " ");
        let mut chars = key.chars();
        out.push(chars.next().map_or(String::new(), |c| c.to_uppercase().chain(chars).collect()));
        return None;
    };
    let here = if base.is_empty() { f.path.to_string() } else { format!("{base}.{}", f.path) };
    let after = rest[f.path.len()..].trim_start_matches('.');
    match f.kind {
        Kind::Tagged(family) if !after.is_empty() && after != "type" => {
            member(family, value, &here, after, out, true).or(Some(f.label))
        }
        Kind::Limit | Kind::OptLimit if after.ends_with("cell_bytes") => {
            out.push(f.label.into());
            out.push("Cell size".into());
            Some("Cell size")
        }
        _ => {
            out.push(f.label.into());
            Some(f.label)
        }
    }
}

/// Words for `rest` inside the configuration at `base`, whose member its `type` names.
fn member(
    family: &'static Family,
    value: &Value,
    base: &str,
    rest: &str,
    out: &mut Vec<String>,
    name_it: bool,
) -> Option<&'static str> {
    let tag = patch::get(value, &format!("{base}.type")).and_then(Value::as_str).unwrap_or("");
    let m = family.member(tag)?;
    if name_it {
        out.push(m.label.into());
    }
    walk(m.fields, value, base, rest, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::scenario::preset;

    fn red() -> Value {
        serde_json::to_value(preset("red-study", Some("red")).unwrap()).unwrap()
    }

    #[test]
    fn paths_are_named_by_section_and_label() {
        let v = red();
        assert_eq!(place(&v, "links.bottleneck.rate_bps"), "Bottleneck › Rate");
        assert_eq!(place(&v, "seed"), "Run › Seed");
        assert_eq!(place(&v, "links.bottleneck.queue.min_th"), "Queue disc › minTh");
        assert_eq!(place(&v, "links.bottleneck.queue.limit.packets"), "Queue disc › Buffer");
        assert_eq!(place(&v, "flows[0].access_rate_bps"), "Flow group 1 › Access rate");
        assert_eq!(place(&v, "tcp.mss_bytes"), "TCP › MSS");
        assert_eq!(place(&v, "links.bottleneck.queue"), "Queue disc");
        assert_eq!(place(&v, "flows"), "Flows");
    }

    #[test]
    fn another_link_is_named_by_its_name_and_its_disc_as_the_bottleneck_s() {
        let v = serde_json::to_value(preset("parking-lot", Some("red")).unwrap()).unwrap();
        assert_eq!(place(&v, "links.hop2.rate_bps"), "Link hop2 › Rate");
        assert_eq!(place(&v, "links.hop2.queue.min_th"), "Link hop2 › Queue disc › minTh");
        assert_eq!(place(&v, "links.hop3.queue"), "Link hop3 › Queue disc");
        assert_eq!(place(&v, "links.hop3"), "Link hop3");
    }

    #[test]
    fn a_nested_algorithm_is_named_by_its_label() {
        let v = red();
        assert_eq!(place(&v, "flows[0].cca.beta"), "Flow group 1 › CUBIC › β");
        let mut sw = serde_json::to_value(preset("cubic-vegas-2q", Some("warbler")).unwrap()).unwrap();
        assert_eq!(place(&sw, "links.bottleneck.queue.weights[1]"), "Queue disc › Weights");
        assert_eq!(place(&sw, "links.bottleneck.queue.control_period_ms"), "Queue disc › Control period");
        let warbler = place(&sw, "links.bottleneck.queue.control.activation_s");
        assert!(
            warbler.starts_with("Queue disc › Warbler") && warbler.ends_with(" › Activation"),
            "{warbler}"
        );
        sw["flows"] = Value::Null;
        assert_eq!(place(&sw, "flows[7].count"), "Flow group 8 › Flows");
    }

    #[test]
    fn keys_in_a_message_become_labels() {
        let v = red();
        assert_eq!(
            humanize(&v, "flows[0].stop_s", "after start_s = 0 s, at most duration_s = 60 s"),
            "after Start = 0 s, at most Duration = 60 s"
        );
        assert_eq!(
            humanize(&v, "links.bottleneck.queue.max_th", "more than min_th = 5 (or both 0)"),
            "more than minTh = 5 (or both 0)"
        );
        assert_eq!(humanize(&v, "seed", "x = 1"), "x = 1");
    }
}
