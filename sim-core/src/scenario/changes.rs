//! Timed changes: at a moment of the run, set one field of the network, as a lecturer does
//! by hand ("drag the buffer from 1000 to 50 and watch the RTT fall"). A scenario carries
//! them as data (`changes`), so a run with changes made live in the browser is replayed
//! bit for bit by the CLI.
//!
//! What can change during a run: a link's rate, delay and device queue, any
//! parameter of its queue disc (which keeps what it holds and has learnt, as Linux's
//! `tc qdisc change`; a lowered limit drops from the head, [`crate::queue::shed_to_limit`]),
//! and a flow group's access links and start and stop times. Everything else (flow counts,
//! congestion controls, TCP, the disc's type) shapes what is built and applies to the next
//! run; the validator says so, naming the field.

use super::patch;
use super::Scenario;
use crate::params::{fmt_num, Checker};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Most changes a scenario may carry (each is validated against a whole scenario).
pub const MAX_CHANGES: usize = 200;

/// At `at_s`, set the field at `set` to `to`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimedChange {
    /// When it applies, seconds from the start: before any other event of that instant.
    pub at_s: f64,
    /// The field, named as `--set` names it: `links.bottleneck.queue.limit`,
    /// `flows[1].stop_s` (version 1's `bottleneck.queue.limit` too).
    pub set: String,
    /// Its new value, as JSON: `{"packets": 50}`, `5000000`, `null`.
    pub to: Value,
}

impl TimedChange {
    /// A short label for time charts: `max_th → 30`, `rate → 5 Mbit/s`, `limit → 50 packets`.
    pub fn label(&self) -> String {
        let pointer = patch::to_pointer(&self.set);
        let key = pointer.rsplit('/').next().unwrap_or_default();
        let number = |v: &Value| v.as_f64().map(fmt_num);
        let (name, value) = if let Some(name) = key.strip_suffix("_bps") {
            (name, self.to.as_f64().map(|v| format!("{} Mbit/s", fmt_num(v / 1e6))))
        } else if let Some(name) = key.strip_suffix("_ms") {
            (name, number(&self.to).map(|v| format!("{v} ms")))
        } else if let Some(name) = key.strip_suffix("_s") {
            (name, number(&self.to).map(|v| format!("{v} s")))
        } else {
            (key, None)
        };
        let value = value.unwrap_or_else(|| match &self.to {
            Value::Null => "none".into(),
            Value::Object(m) if m.len() == 1 => {
                let (unit, v) = m.iter().next().expect("one member");
                format!("{} {unit}", number(v).unwrap_or_else(|| v.to_string()))
            }
            v => number(v).unwrap_or_else(|| v.to_string()),
        });
        format!("{name} → {value}")
    }
}

/// The part of the running network a field is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiveField {
    LinkRate,
    LinkDelay,
    DeviceQueue,
    /// Anything under a link's `queue`.
    Disc,
    AccessRate(usize),
    AccessDelay(usize),
    Start(usize),
    Stop(usize),
}

/// In words, for messages.
pub const LIVE_FIELDS: &str = "a link's rate_bps, delay_ms or nic_queue_packets (links.NAME.rate_bps), a \
parameter of its queue (not its type), and a flow group's access_rate_bps, access_delay_ms, start_s or stop_s";

/// The link a live field at `path` belongs to, by name (the bottleneck's own for its
/// fields); `None` for a flow group's.
pub fn changed_link<'a>(sc: &'a Scenario, path: &'a str) -> Option<&'a str> {
    if path.starts_with("bottleneck.") {
        return Some(sc.bottleneck_name());
    }
    let rest = path.strip_prefix("links.")?;
    let name = rest.split('.').next()?;
    sc.links.contains_key(name).then_some(name)
}

/// Which part of the network the field at `path` is, if it can change during a run.
pub fn live_field(path: &str) -> Option<LiveField> {
    let pointer = patch::to_pointer(path);
    let parts: Vec<&str> = pointer.split('/').skip(1).collect();
    // The bottleneck's fields and those of a link of `links` alike.
    let link = match parts.as_slice() {
        ["bottleneck", rest @ ..] | ["links", _, rest @ ..] => Some(rest),
        _ => None,
    };
    match link {
        Some(["rate_bps"]) => return Some(LiveField::LinkRate),
        Some(["delay_ms"]) => return Some(LiveField::LinkDelay),
        Some(["nic_queue_packets"]) => return Some(LiveField::DeviceQueue),
        Some(["queue", rest @ ..]) if rest.first() != Some(&"type") => return Some(LiveField::Disc),
        Some(_) => return None,
        None => {}
    }
    match parts.as_slice() {
        ["flows", g, field] => {
            let g = g.parse().ok()?;
            match *field {
                "access_rate_bps" => Some(LiveField::AccessRate(g)),
                "access_delay_ms" => Some(LiveField::AccessDelay(g)),
                "start_s" => Some(LiveField::Start(g)),
                "stop_s" => Some(LiveField::Stop(g)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The changes in the order they apply: by time, ties in list order.
pub fn ordered(changes: &[TimedChange]) -> Vec<&TimedChange> {
    let mut v: Vec<&TimedChange> = changes.iter().collect();
    v.sort_by(|a, b| a.at_s.total_cmp(&b.at_s));
    v
}

/// The scenario as it stands over the run: (0, as it starts), then (at_s, once the change
/// at at_s has applied) for each change in time order, without their changes lists; stops
/// at a change that does not apply (the validator names it).
pub fn states(sc: &Scenario) -> Vec<(f64, Scenario)> {
    let mut out = vec![(0.0, Scenario { changes: Vec::new(), ..sc.clone() })];
    for c in ordered(&sc.changes) {
        let Ok(next) = apply(&out[out.len() - 1].1, c) else { break };
        out.push((c.at_s, next));
    }
    out
}

/// `sc` (without its changes) once `c` has applied.
pub fn apply(sc: &Scenario, c: &TimedChange) -> Result<Scenario, String> {
    let mut v =
        serde_json::to_value(Scenario { changes: Vec::new(), ..sc.clone() }).map_err(|e| e.to_string())?;
    let path = super::v1_path(&sc.bottleneck, &c.set).unwrap_or_else(|| c.set.clone());
    patch::set(&mut v, &path, c.to.clone())?;
    Scenario::from_value(v)
}

/// Every change: in time, on a field that can change, to a value the scenario accepts
/// then, which the running disc can take.
pub(super) fn check(sc: &Scenario, c: &mut Checker) {
    if sc.changes.len() > MAX_CHANGES {
        c.push("changes", format!("{} changes", sc.changes.len()), format!("at most {MAX_CHANGES}"));
        return;
    }
    let mut state = Scenario { changes: Vec::new(), ..sc.clone() };
    let index = |ch: &TimedChange| sc.changes.iter().position(|x| std::ptr::eq(x, ch)).unwrap_or(0);
    for ch in ordered(&sc.changes) {
        c.at(&format!("changes[{}]", index(ch)), |c| {
            if !(ch.at_s.is_finite() && ch.at_s >= 0.0 && ch.at_s <= sc.duration_s) {
                c.push("at_s", fmt_num(ch.at_s), format!("0 to duration_s = {} s", fmt_num(sc.duration_s)));
                return;
            }
            let Some(field) = live_field(&ch.set) else {
                c.push(
                    "set",
                    crate::params::echo(&ch.set),
                    format!("a field that can change during a run: {LIVE_FIELDS}; other fields apply to the next run"),
                );
                return;
            };
            let next = match apply(&state, ch) {
                Ok(next) => next,
                Err(e) => return c.push("to", crate::params::echo(&ch.to.to_string()), e),
            };
            if let Err(errors) = next.validate() {
                for e in errors {
                    c.push("to", e.value, format!("{}: {}", e.field, e.allowed));
                }
                return;
            }
            if let Err(e) = check_effect(&state, &next, field, &ch.set) {
                c.push("set", crate::params::echo(&ch.set), e);
                return;
            }
            state = next;
        });
    }
}

/// Whether the running network can take the step from `old` to `new`: a disc must accept
/// its new parameters (built from the old ones, as the run will hold it).
fn check_effect(old: &Scenario, new: &Scenario, field: LiveField, path: &str) -> Result<(), String> {
    match field {
        // A disc reads its link's rate (RED's idle decay, Cebinae's rounds): it must follow.
        LiveField::Disc | LiveField::LinkRate => {
            let link = |sc: &'_ Scenario| changed_link(sc, path).and_then(|n| sc.link_named(n)).cloned();
            let (Some(o), Some(n)) = (link(old), link(new)) else { return Err("no such link".into()) };
            let q = &o.queue;
            q.retune_check(&n.queue).map_err(|e| {
                let label = q.info().label;
                match field {
                    LiveField::LinkRate => {
                        format!("the link's rate cannot change under {label} during a run ({e})")
                    }
                    _ => format!("{label}: {e}"),
                }
            })
        }
        LiveField::Start(g) | LiveField::Stop(g) if g >= old.flows.len() => {
            Err(format!("there is no flow group {g}"))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;
    use serde_json::json;

    fn change(at_s: f64, set: &str, to: Value) -> TimedChange {
        TimedChange { at_s, set: set.into(), to }
    }

    #[test]
    fn labels_say_the_field_and_its_new_value_in_units() {
        assert_eq!(change(1.0, "links.bottleneck.queue.max_th", json!(30.0)).label(), "max_th → 30");
        assert_eq!(change(1.0, "links.bottleneck.rate_bps", json!(5e6)).label(), "rate → 5 Mbit/s");
        assert_eq!(
            change(1.0, "links.bottleneck.queue.limit", json!({"packets": 50})).label(),
            "limit → 50 packets"
        );
        assert_eq!(change(1.0, "flows[1].stop_s", json!(null)).label(), "stop → none");
        assert_eq!(change(1.0, "flows[1].access_delay_ms", json!(20)).label(), "access_delay → 20 ms");
    }

    #[test]
    fn the_fields_that_can_change_are_named_by_their_paths() {
        assert_eq!(live_field("links.bottleneck.rate_bps"), Some(LiveField::LinkRate));
        assert_eq!(live_field("/links/bottleneck/queue/limit"), Some(LiveField::Disc));
        assert_eq!(live_field("links.bottleneck.queue.max_th"), Some(LiveField::Disc));
        assert_eq!(live_field("flows[2].stop_s"), Some(LiveField::Stop(2)));
        assert_eq!(live_field("links.bottleneck.queue.type"), None);
        assert_eq!(live_field("links.modem.rate_bps"), Some(LiveField::LinkRate));
        assert_eq!(live_field("links.modem.queue.limit"), Some(LiveField::Disc));
        assert_eq!(live_field("links.modem.queue.type"), None);
        assert_eq!(live_field("links.modem.name"), None);
        let sc = preset("two-bottlenecks", Some("fq-codel-shaped")).unwrap();
        assert_eq!(changed_link(&sc, "links.modem.queue.limit"), Some("modem"));
        assert_eq!(changed_link(&sc, "links.home.rate_bps"), Some("home"));
        // Version 1's path to the studied link.
        assert_eq!(changed_link(&sc, "bottleneck.rate_bps"), Some("home"));
        assert_eq!(live_field("bottleneck.queue.max_th"), Some(LiveField::Disc));
        assert_eq!(changed_link(&sc, "links.nowhere.rate_bps"), None);
        assert_eq!(live_field("flows[0].count"), None);
        assert_eq!(live_field("tcp.mss_bytes"), None);
    }

    #[test]
    fn a_valid_change_passes_and_each_bad_one_names_its_field() {
        let mut sc = preset("red-study", Some("red")).unwrap();
        sc.changes = vec![change(12.0, "links.bottleneck.queue.max_th", json!(30.0))];
        assert_eq!(sc.validate(), Ok(()));
        sc.changes = vec![
            change(70.0, "links.bottleneck.rate_bps", json!(1e6)),
            change(5.0, "flows[0].count", json!(3)),
            change(6.0, "links.bottleneck.queue.max_th", json!(-1)),
            change(7.0, "links.bottleneck.queue.limit", json!({"bytes": 60000})),
            change(8.0, "links.bottleneck.queue.type", json!("codel")),
        ];
        let errors = sc.validate().unwrap_err();
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "changes[1].set",
                "changes[2].to",
                "changes[2].to",
                "changes[3].set",
                "changes[4].set",
                "changes[0].at_s"
            ],
            "{errors:#?}"
        );
        assert!(errors[0].allowed.contains("next run"), "{}", errors[0].allowed);
        assert!(errors[1].allowed.contains("max_th"), "{}", errors[1].allowed);
        assert!(errors[3].allowed.contains("unit"), "{}", errors[3].allowed);
    }

    #[test]
    fn changes_apply_in_time_order_each_on_the_state_before() {
        let mut sc = preset("red-study", Some("red")).unwrap();
        // Listed out of order: they apply by time.
        sc.changes = vec![
            change(9.0, "links.bottleneck.queue.max_th", json!(30.0)),
            change(5.0, "links.bottleneck.queue.limit", json!({"packets": 40})),
        ];
        assert_eq!(sc.validate(), Ok(()));
        let at: Vec<f64> = ordered(&sc.changes).iter().map(|c| c.at_s).collect();
        assert_eq!(at, [5.0, 9.0]);
    }
}
