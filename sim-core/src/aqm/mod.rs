//! Queue disciplines: what a link's egress does with packets waiting to be sent.
//!
//! Each discipline lives in its own file with its configuration, which describes itself
//! ([`Described`]: tag, label, help, parameters with ranges) and builds the discipline
//! ([`DiscConfig`]). The one [`registry!`](crate::registry) line below names every
//! discipline; the serde form, validation, the CLI's lists and the UI's pickers follow.
//! Adding a discipline: one new file, one line here.

pub mod cebinae;
pub mod codel;
pub mod dualpi2;
mod fattest;
pub mod fifo;
mod flow_lists;
pub mod fq;
pub mod fq_codel;
pub mod fq_pie;
pub mod pie;
pub mod red;
pub mod step;

pub use crate::queue::{cells_for, DropReason, Dropped, Occupancy, QItem, QdiscCtx, QueueDisc, QueueLimit};
pub use cebinae::{Cebinae, CebinaeConfig, CebinaeStats};
pub use codel::{Codel, CodelConfig, CodelParams, CodelQueue, CodelState, CodelStats};
pub use dualpi2::{DualPi2, DualPi2Config, DualPi2Stats, L4sId};
pub use fifo::{Fifo, FifoConfig};
pub use fq::{Fq, FqConfig};
pub use fq_codel::{FqCodel, FqCodelConfig, FqCodelStats};
pub use fq_pie::{FqOverflow, FqPie, FqPieConfig};
pub use pie::{Pie, PieConfig, PieStats};
pub use red::{Red, RedConfig, RedStats, RedView};
pub use step::{Step, StepConfig};

use crate::rng::SimRng;
use crate::switch::SwitchConfig;
use crate::time::Rate;
use std::any::Any;
use std::fmt::Debug;

/// What a discipline is built with.
pub struct BuildCx {
    /// Rate of the link the discipline feeds.
    pub link_rate: Rate,
    /// The discipline's own random stream.
    pub rng: SimRng,
    /// Bytes on the wire of a full-sized data packet (for unit conversions).
    pub packet_bytes: u32,
}

/// A configuration as `Any`, so a running discipline can take its own type back
/// ([`QueueDisc::retune`]).
pub trait AsAny {
    fn as_any(&self) -> &dyn Any;
}

impl<T: Any> AsAny for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// How a discipline's configuration builds it and exposes its buffer.
pub trait DiscConfig: Debug + AsAny {
    /// Called through [`QueueDiscSpec::build`]; not in the vtable (see [`crate::registry!`]).
    fn build(&self, cx: BuildCx) -> Box<dyn QueueDisc>
    where
        Self: Sized;
    /// The buffer limit (for a multi-queue port: the whole buffer in cells).
    fn limit(&self) -> QueueLimit;
    /// Takes over a buffer limit when the user switches disciplines; `packet_bytes` converts
    /// between units when the discipline counts in its own (a switch port counts cells).
    fn set_limit(&mut self, limit: QueueLimit, packet_bytes: u32);
    /// Moments worth marking on time charts (a control plane switching on), (time s, label).
    fn markers(&self) -> Vec<(f64, String)> {
        Vec::new()
    }
    /// The queueing delay the discipline steers towards, ms, where it has one (CoDel's
    /// target, PIE's QDELAY_REF): drawn on the delay-over-time chart.
    fn delay_target_ms(&self) -> Option<f64> {
        None
    }
    /// Whether a running discipline built from `self` can take `new` (its own
    /// configuration type, [`QueueDisc::retune`]), read from the two configurations alone:
    /// the validator asks without building a discipline.
    fn retune_check(&self, _new: &dyn Any) -> Result<(), String> {
        Err("this queue discipline keeps its settings until the next run".into())
    }
}

crate::registry! {
    /// Choice of queue discipline, as scenarios carry it (`{"type": "red", ...}`).
    pub enum QueueDiscSpec as "queue disc": dyn DiscConfig {
        Fifo(FifoConfig),
        Red(RedConfig),
        Codel(CodelConfig),
        FqCodel(FqCodelConfig),
        Pie(PieConfig),
        Fq(FqConfig),
        Cebinae(CebinaeConfig),
        Switch(SwitchConfig),
        Step(StepConfig),
        DualPi2(DualPi2Config),
        FqPie(FqPieConfig),
    }
    build as build(cx: BuildCx) -> Box<dyn QueueDisc>;
}

impl Default for QueueDiscSpec {
    fn default() -> Self {
        QueueDiscSpec::Fifo(FifoConfig::default())
    }
}

impl QueueDiscSpec {
    /// A tail-drop FIFO of `limit`.
    pub fn fifo(limit: QueueLimit) -> QueueDiscSpec {
        QueueDiscSpec::Fifo(FifoConfig { limit })
    }

    pub fn limit(&self) -> QueueLimit {
        self.get().limit()
    }

    /// Whether a disc running `self` can take `new` during a run.
    pub fn retune_check(&self, new: &QueueDiscSpec) -> Result<(), String> {
        self.get().retune_check(new.get().as_any())
    }

    /// Hands `disc` (built from a spec of the same type) this spec's parameters during a
    /// run ([`QueueDisc::retune`]).
    pub fn retune(
        &self,
        disc: &mut dyn QueueDisc,
        link_rate: Rate,
        now: crate::time::SimTime,
    ) -> Result<(), String> {
        disc.retune(self.get().as_any(), link_rate, now)
    }

    /// A short name for files and tables: the flavour (`ared`) or the tag (`fq_codel`).
    pub fn name(&self) -> &'static str {
        self.flavour()
    }
}

/// What the disciplines' unit tests build with: 10 Mbit/s, a fixed stream.
#[cfg(test)]
pub(crate) fn tests_cx() -> BuildCx {
    BuildCx {
        link_rate: Rate(10_000_000),
        rng: SimRng::new(1, crate::rng::StreamId::Queue(0)),
        packet_bytes: 1500,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Checker;
    use crate::rng::StreamId;

    fn cx() -> BuildCx {
        BuildCx { link_rate: Rate(10_000_000), rng: SimRng::new(1, StreamId::Queue(0)), packet_bytes: 1500 }
    }

    #[test]
    fn every_registered_disc_round_trips_validates_its_defaults_and_builds_empty() {
        for a in QueueDiscSpec::FAMILY.members {
            let spec = QueueDiscSpec::default_for(a.tag).unwrap();
            let json = serde_json::to_string(&spec).unwrap();
            assert!(json.starts_with(&format!("{{\"type\":\"{}\"", a.tag)), "{json}");
            assert_eq!(serde_json::from_str::<QueueDiscSpec>(&json).unwrap(), spec);
            let mut c = Checker::new();
            spec.check(&mut c);
            assert_eq!(c.errors(), &[], "{}", a.tag);
            let q = spec.build(cx());
            assert_eq!(q.limit(), spec.limit(), "{}", a.tag);
            assert_eq!(q.occupancy(), Occupancy::default());
        }
    }

    #[test]
    fn every_described_field_exists_in_the_configuration() {
        for a in QueueDiscSpec::FAMILY.members {
            let v = QueueDiscSpec::default_for(a.tag).unwrap().to_value();
            for f in a.fields {
                assert!(v.get(f.path).is_some(), "{}.{} is described but not in the config", a.tag, f.path);
            }
        }
    }

    #[test]
    fn missing_fields_take_their_defaults_and_unknown_ones_are_named() {
        let parsed: QueueDiscSpec = serde_json::from_str(r#"{"type":"codel"}"#).unwrap();
        assert_eq!(parsed, QueueDiscSpec::Codel(CodelConfig::default()));
        let e = serde_json::from_str::<QueueDiscSpec>(r#"{"type":"red","max_tj":3}"#).unwrap_err();
        assert!(e.to_string().contains("did you mean 'max_th'"), "{e}");
        let e = serde_json::from_str::<QueueDiscSpec>(r#"{"type":"fq-codel"}"#).unwrap_err();
        assert!(e.to_string().contains("did you mean 'fq_codel'"), "{e}");
        let e = serde_json::from_str::<QueueDiscSpec>(r#"{"type":0}"#).unwrap_err();
        assert!(e.to_string().contains("must be a string"), "{e}");
    }

    #[test]
    fn flavours_name_the_red_variants() {
        let v = QueueDiscSpec::FAMILY.entry_value("ared").unwrap();
        let spec = QueueDiscSpec::from_value(v).unwrap();
        assert_eq!(spec.name(), "ared");
        assert_eq!(QueueDiscSpec::default_for("fq_codel").unwrap().name(), "fq_codel");
    }
}
