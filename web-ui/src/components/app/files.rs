//! The header's requests: presets, share links, scenario import and export, the results zip.

use super::*;

impl App {
    pub(super) fn on_header(&mut self, ctx: &Context<Self>, m: HeaderMsg) {
        match m {
            HeaderMsg::LoadPreset(key) => {
                let (name, variant) = key.split_once('/').unwrap_or((&key, ""));
                if !self.may_replace() {
                    self.refused_picks += 1;
                    return;
                }
                match preset(name, (!variant.is_empty()).then_some(variant)) {
                    Ok(sc) => {
                        self.set_editor(&sc, Some((name.to_string(), variant.to_string())));
                        // A preset is one experiment; Compare offers the discs it compares.
                        self.compare_on = false;
                        self.compare_discs = Rc::new(preset_discs(name));
                        if let Some(f) = self.fragment() {
                            dom::push_hash(&f);
                        }
                    }
                    Err(e) => self.notice = Some(e),
                }
            }
            HeaderMsg::CopyLink => {
                let problems = self.editor.borrow().problem_count();
                if problems > 0 {
                    self.notice = Some(format!("{problems} field(s) are invalid: fix them first; the address bar still carries the last valid scenario."));
                } else {
                    self.sync_url();
                    dom::copy_to_clipboard(&dom::full_url());
                    self.notice = Some("Link copied: it opens this scenario.".into());
                }
            }
            HeaderMsg::ExportScenario => {
                let problems = self.editor.borrow().problem_count();
                match self.scenario().filter(|_| problems == 0) {
                    Some(sc) => {
                        let name = format!("{}.json", sc.name.replace(['/', ' '], "-"));
                        if let Err(e) = dom::download_text(&name, "application/json", &sc.to_json()) {
                            self.notice = Some(e);
                        }
                    }
                    None => {
                        self.notice = Some(format!(
                        "{problems} field(s) are invalid: fix them before exporting (nothing was written)."
                    ))
                    }
                }
            }
            HeaderMsg::Import(file) => {
                if file.size() > share::MAX_SCENARIO_BYTES as f64 {
                    self.notice = Some(format!(
                        "{} is larger than {} KiB: not a scenario",
                        file.name(),
                        share::MAX_SCENARIO_BYTES / 1024
                    ));
                    return;
                }
                let link = ctx.link().clone();
                self.reader =
                    Some(gloo::file::callbacks::read_as_text(&gloo::file::File::from(file), move |r| {
                        link.send_message(Msg::Imported(r.map_err(|e| e.to_string())))
                    }));
            }
            HeaderMsg::ExportResults => {
                let n = self.run.borrow().lanes.len();
                if n == 0 {
                    self.notice = Some("Run the scenario first: there is nothing to export yet.".into());
                    return;
                }
                self.exports = vec![None; n];
                for lane in 0..n {
                    self.link.send(ToSim::Export { lane });
                }
            }
        }
    }
}
