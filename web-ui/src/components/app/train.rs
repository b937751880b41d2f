//! The Train tab's requests: training the DQN, testing the frozen agent against CUBIC and
//! NewReno, and its weights downloaded or uploaded.

use super::*;

impl App {
    pub(super) fn on_train(&mut self, ctx: &Context<Self>, m: TrainMsg) {
        match m {
            TrainMsg::Start { dqn, episodes, seed, alpha, beta } => {
                let mut sc = self
                    .scenario()
                    .filter(|s| s.flows.iter().any(|g| matches!(g.cca, CcaSpec::Dqn(_))))
                    .unwrap_or_else(|| preset("dqn-dumbbell", Some("dqn")).expect("preset"));
                for g in &mut sc.flows {
                    if let CcaSpec::Dqn(c) = &mut g.cca {
                        c.alpha = alpha;
                        c.beta = beta;
                    }
                }
                self.train.update(|t| {
                    *t = TrainView { running: true, started_ms: dom::now_ms(), ..TrainView::default() };
                });
                self.link.send(ToSim::Train { scenario: sc, dqn, episodes, seed });
            }
            TrainMsg::Stop => self.link.send(ToSim::StopTraining),
            TrainMsg::Test { model, seeds } => {
                let mut runs = Vec::new();
                for seed in 1..=u64::from(seeds) {
                    for v in ["dqn", "cubic", "newreno"] {
                        let mut sc = preset("dqn-dumbbell", Some(v)).expect("preset");
                        sc.seed = seed;
                        if let CcaSpec::Dqn(c) = &mut sc.flows[0].cca {
                            c.model = model.clone();
                        }
                        runs.push((v.to_string(), seed, sc));
                    }
                }
                self.train.update(|t| {
                    t.evaluating = true;
                    t.evaluation = None;
                    t.error = None;
                });
                self.link.send(ToSim::Evaluate { runs });
            }
            TrainMsg::Download(model) => {
                let w = if model == "trained" {
                    self.train.borrow().weights.as_ref().map(|w| w.0.clone())
                } else {
                    model_weights(SHIPPED_MODEL)
                };
                match w {
                    Some(w) => {
                        if let Err(e) = dom::download_text(
                            &format!("{model}-weights.json"),
                            "application/json",
                            &w.to_json(),
                        ) {
                            self.notice = Some(e);
                        }
                    }
                    None => self.notice = Some("no weights to download yet".into()),
                }
            }
            TrainMsg::Upload(file) => {
                if file.size() > MAX_WEIGHTS_BYTES {
                    self.notice = Some(format!("{} is larger than 1 MiB: not a weights file", file.name()));
                    return;
                }
                let link = ctx.link().clone();
                self.reader =
                    Some(gloo::file::callbacks::read_as_text(&gloo::file::File::from(file), move |r| {
                        link.send_message(Msg::WeightsUploaded(r.map_err(|e| e.to_string())))
                    }));
            }
        }
    }
}
