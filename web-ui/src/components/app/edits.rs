//! The editor's messages: an edit applied to the editor's scenario, and, during a run, the
//! run told of it (`live_edits.rs`).

use super::*;

impl App {
    pub(super) fn on_edit(&mut self, m: EditMsg) {
        let during_run = self.run_active();
        let committed = match &m {
            EditMsg::Commit(path) | EditMsg::Set(path, _) => Some(path.clone()),
            EditMsg::QueueType(path, _) => Some(format!("{path}.type")),
            EditMsg::LimitUnit(..) | EditMsg::Choose(..) => {
                Some(format!("{}.queue.type", self.editor.borrow().studied()))
            }
            EditMsg::AddFlow
            | EditMsg::DuplicateFlow(_)
            | EditMsg::RemoveFlow(_)
            | EditMsg::Route(..)
            | EditMsg::AckRoute(..) => Some(String::from("flows")),
            EditMsg::AddLink | EditMsg::RemoveLink(_) => Some(String::from("links")),
            EditMsg::TcpProfile(_) => Some(String::from("tcp.min_rto_ms")),
            _ => None,
        };
        if let EditMsg::Commit(_) = m {
            // The text is in the editor already (typed); only the run may need to hear of it.
        } else {
            self.apply_edit(m);
        }
        if let Some(path) = committed.filter(|_| during_run) {
            self.edit_during_run(&path);
        }
    }

    fn apply_edit(&mut self, m: EditMsg) {
        let mut ed = self.editor.clone();
        ed.update(|e| match m {
            EditMsg::Commit(_) => {}
            EditMsg::AddChange(c) => e.add_change(&c),
            EditMsg::RemoveChange(i) => e.remove_change(i),
            EditMsg::Edit(path, raw, input) => e.edit(&path, &raw, input),
            EditMsg::Set(path, v) => e.set(&path, v),
            EditMsg::TcpProfile(p) => {
                let mut t = sim_core::tcp::TcpConfig::default();
                p.apply(&mut t);
                let v = serde_json::to_value(&t).unwrap_or_default();
                for f in sim_core::tcp::TcpProfile::FIELDS {
                    e.set(&format!("tcp.{f}"), v[f].clone());
                }
            }
            EditMsg::Choose(path, tag, default) => e.choose(&path, &tag, default),
            EditMsg::AddFlow => e.add_flow_group(),
            EditMsg::DuplicateFlow(i) => e.duplicate_flow_group(i),
            EditMsg::RemoveFlow(i) => e.remove_flow_group(i),
            EditMsg::QueueType(path, key) => e.swap_disc(&path, &key),
            EditMsg::AddLink => {
                e.add_link();
            }
            EditMsg::RemoveLink(name) => e.remove_link(&name),
            EditMsg::Route(i, name, on) => e.toggle_route(i, &name, on),
            EditMsg::AckRoute(i, name, on) => e.toggle_ack_route(i, &name, on),
            EditMsg::LimitUnit(path, unit) => {
                let pkt = u64::from(e.scenario().map_or(1500, |s| s.full_packet_bytes()));
                let bytes = match e.value(&path) {
                    Some(v) if v.get("packets").is_some() => v["packets"].as_u64().unwrap_or(100) * pkt,
                    Some(v) if v.get("bytes").is_some() => v["bytes"].as_u64().unwrap_or(150_000),
                    Some(v) if v.get("cells").is_some() => {
                        let c = &v["cells"];
                        c["cells"].as_u64().unwrap_or(1000) * c["cell_bytes"].as_u64().unwrap_or(160)
                    }
                    _ => 100 * pkt,
                };
                let v = match unit.as_str() {
                    "none" => Value::Null,
                    "bytes" => serde_json::json!({ "bytes": bytes }),
                    "cells" => {
                        serde_json::json!({ "cells": { "cells": bytes.div_ceil(160), "cell_bytes": 160 } })
                    }
                    _ => serde_json::json!({ "packets": bytes.div_ceil(pkt).max(1) }),
                };
                e.set(&path, v);
            }
        });
        self.editor = ed;
        self.sync_url();
    }
}
