//! The registry of control-plane apps a switch port can run. Adding an app: its own file
//! implementing [`AppConfig`] and [`Described`], and one line below.

use crate::control::{AppOutput, ControlPlaneApp, RegisterView};
use crate::params::{Algorithm, Described};
use crate::warbler::WarblerConfig;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// How an app's configuration builds the app.
pub trait AppConfig: Debug {
    /// `seed` is the port's stream for apps that draw random numbers; `queues` is K. Called
    /// through [`ControlPlaneSpec::build`]; not in the vtable (see [`crate::registry!`]).
    fn build(&self, seed: u64, queues: u32) -> Box<dyn ControlPlaneApp>
    where
        Self: Sized;
    /// Moments worth marking on time charts, (time s, label).
    fn markers(&self) -> Vec<(f64, String)> {
        Vec::new()
    }
}

crate::registry! {
    /// Which app runs on the switch CPU (`{"type": "static"}`).
    pub enum ControlPlaneSpec as "control-plane app": dyn AppConfig {
        Static(StaticConfig),
        Warbler(WarblerConfig),
    }
    build as build(seed: u64, queues: u32) -> Box<dyn ControlPlaneApp>;
}

impl Default for ControlPlaneSpec {
    fn default() -> Self {
        ControlPlaneSpec::Static(StaticConfig {})
    }
}

/// Keep the initial mapping and weights: the paper's "without Warbler" baseline.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StaticConfig {}

impl Described for StaticConfig {
    const INFO: Algorithm = Algorithm {
        tag: "static",
        label: "Static (load balancing)",
        help: "Keeps the initial flow → queue table and weights: Warbler's \"without\" baseline.",
        fields: &[],
        flavours: &[],
    };
}

impl AppConfig for StaticConfig {
    fn build(&self, _seed: u64, _queues: u32) -> Box<dyn ControlPlaneApp> {
        Box::new(StaticMapping)
    }
}

/// The app that writes nothing.
#[derive(Clone, Debug, Default)]
pub struct StaticMapping;

impl ControlPlaneApp for StaticMapping {
    fn on_period(&mut self, _view: &RegisterView) -> AppOutput {
        AppOutput::default()
    }
}
