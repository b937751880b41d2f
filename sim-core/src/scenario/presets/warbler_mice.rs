//! Warbler with mice: §5.2's six long flows (2 CUBIC, 2 BBR, 2 Vegas) on the three-queue
//! port, plus short flows from the web-search workload arriving at random on new
//! connections. The port's count-min sketch (§4 step 1) now decides who is clustered: a
//! connection is long once it has sent more than ten packets (§6.1), and until then it
//! waits in the default queue. The summary reports the sketch's precision and recall
//! against each connection's exact count, and the mice's completion times with the static
//! load-balanced mapping and with Warbler.

use crate::scenario::{FlowGroup, Scenario};
use crate::traffic::sizes::SizeSource;
use crate::traffic::{ArrivalSpec, PoissonConfig};

pub const VARIANTS: &[&str] = &["baseline", "warbler"];
pub const COMPARED: &[&str] = &["baseline", "warbler"];

/// The mice's offered load, of the port's rate.
pub const MICE_LOAD: f64 = 0.2;

pub fn build(variant: &str) -> Scenario {
    let mut sc = super::warbler::cubic_bbr_vegas_3q(variant);
    sc.name = format!("warbler-mice/{variant}");
    let mice = FlowGroup {
        count: 64,
        arrivals: ArrivalSpec::Poisson(PoissonConfig { load: MICE_LOAD, ..PoissonConfig::default() }),
        sizes: SizeSource::WebSearch,
        start_s: 1.0,
        ..super::warbler::group(1, super::warbler::cubic(), 10.0)
    };
    sc.flows.push(mice);
    sc
}
