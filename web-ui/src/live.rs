//! Which inputs of the editor can change during a run, and the timed change an edit of one
//! becomes. Plain Rust, tested natively.

use crate::editor::{Editor, Input};
use serde_json::Value;
use sim_core::aqm::QueueDiscSpec;
use sim_core::params::Kind;
use sim_core::scenario::changes::live_field;
use sim_core::scenario::fields::{FLOW_FIELDS, LINK_FIELDS};

/// The path a change sets for an edit at `path`: a buffer's number (`…limit.packets`,
/// `…limit.cells.cells`) sets the whole limit, so the change reads "limit → 50 packets".
pub fn change_path(path: &str) -> &str {
    for unit in [".cells.cells", ".cells.cell_bytes", ".packets", ".bytes"] {
        if let Some(base) = path.strip_suffix(unit) {
            if base.ends_with("limit") {
                return base;
            }
        }
    }
    path
}

/// The change that sets the input at `path` to `v`: a buffer's number sets the whole limit
/// in its unit (`{"packets": 50}`); the form offers packets and bytes only (`inputs`).
pub fn change_to(path: &str, v: Value) -> (String, Value) {
    let set = change_path(path);
    if set == path {
        return (path.to_string(), v);
    }
    let unit = path.rsplit('.').next().unwrap_or("packets");
    (set.to_string(), serde_json::json!({ unit: v }))
}

/// Whether an edit at `path` can become a change during a run.
pub fn is_live(path: &str) -> bool {
    live_field(change_path(path)).is_some()
}

/// What an edit at `path` sets during a run: (path, value) as the editor now holds it.
pub fn change_of(ed: &Editor, path: &str) -> Option<(String, Value)> {
    let set = change_path(path);
    Some((set.to_string(), ed.value(set)?.clone()))
}

/// Every numeric input that can change during a run, (path, input), for the form that adds
/// a timed change: each link's and its disc's (a buffer by its number), each group's.
pub fn inputs(ed: &Editor) -> Vec<(String, Input)> {
    let mut out = Vec::new();
    let numeric = |prefix: &str,
                   fields: &'static [sim_core::params::Field],
                   out: &mut Vec<(String, Input)>| {
        for f in fields {
            let path = if prefix.is_empty() { f.path.to_string() } else { format!("{prefix}.{}", f.path) };
            if let Some(i) = Input::of(f).filter(|_| is_live(&path)) {
                out.push((path, i));
            }
        }
    };
    // Every link's fields and disc, the studied link's first.
    let links = ed.scenario().map_or(Vec::new(), |s| s.link_names().map(|k| format!("links.{k}")).collect());
    for link in links {
        numeric(&link, LINK_FIELDS, &mut out);
        let tag = ed.value(&format!("{link}.queue.type")).and_then(Value::as_str).unwrap_or_default();
        if let Some(m) = QueueDiscSpec::FAMILY.member(tag) {
            for f in m.fields.iter().filter(|f| matches!(f.kind, Kind::Limit)) {
                let base = format!("{link}.queue.{}", f.path);
                if let Some(unit) =
                    ["packets", "bytes"].into_iter().find(|u| ed.value(&format!("{base}.{u}")).is_some())
                {
                    let kind = crate::editor::Kind::Int;
                    out.push((format!("{base}.{unit}"), Input { kind, unit, label: f.label, range: None }));
                }
            }
            numeric(&format!("{link}.queue"), m.fields, &mut out);
        }
    }
    for g in 0..ed.flow_groups() {
        numeric(&format!("flows[{g}]"), FLOW_FIELDS, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::scenario::preset;

    #[test]
    fn a_buffers_number_changes_the_whole_limit() {
        assert_eq!(change_path("links.bottleneck.queue.limit.packets"), "links.bottleneck.queue.limit");
        assert_eq!(change_path("links.bottleneck.queue.limit.cells.cells"), "links.bottleneck.queue.limit");
        assert_eq!(change_path("links.bottleneck.rate_bps"), "links.bottleneck.rate_bps");
        let ed = Editor::new(&preset("bufferbloat", Some("fifo")).unwrap());
        let (set, to) = change_of(&ed, "links.bottleneck.queue.limit.packets").unwrap();
        assert_eq!(
            (set.as_str(), to),
            ("links.bottleneck.queue.limit", serde_json::json!({"packets": 1000}))
        );
    }

    #[test]
    fn the_form_offers_the_live_inputs_only() {
        let ed = Editor::new(&preset("red-study", Some("red")).unwrap());
        let paths: Vec<String> = inputs(&ed).into_iter().map(|(p, _)| p).collect();
        for want in [
            "links.bottleneck.rate_bps",
            "links.bottleneck.queue.limit.packets",
            "links.bottleneck.queue.max_th",
            "flows[0].stop_s",
        ] {
            assert!(paths.iter().any(|p| p == want), "{want} missing from {paths:?}");
        }
        assert!(!paths.iter().any(|p| p.ends_with(".count") || p.starts_with("tcp")), "{paths:?}");
        assert!(paths.iter().all(|p| is_live(p)));
        // Every link's, with links.
        let ed = Editor::new(&preset("two-bottlenecks", Some("fq-codel-unshaped")).unwrap());
        let paths: Vec<String> = inputs(&ed).into_iter().map(|(p, _)| p).collect();
        for want in ["links.modem.rate_bps", "links.modem.queue.limit.packets", "links.home.queue.target_ms"]
        {
            assert!(paths.iter().any(|p| p == want), "{want} missing from {paths:?}");
        }
    }
}
