//! The datacentre lecture's figure: flow-completion-time slowdown against flow size for the
//! web-search workload (Alizadeh et al., DCTCP, SIGCOMM 2010; the figure as pFabric,
//! SIGCOMM 2013 §5, and HPCC, SIGCOMM 2019 §5.1, plot it). Flows arrive as a Poisson
//! process at 30, 60 or 90 % of a 1 Gbit/s link, sizes from the web-search CDF, each on a
//! new connection; the link's disc is a FIFO, PIE or FQ-CoDel. Base RTT 1 ms, so the discs'
//! targets are scaled to it as datacentre deployments set them (FQ-CoDel 0.5 ms target,
//! 10 ms interval; PIE 1 ms): with their Internet defaults (5 and 15 ms) neither would act
//! before the 6 ms FIFO overflows.

use crate::aqm::{FqCodelConfig, PieConfig, QueueDiscSpec, QueueLimit};
use crate::cc::{CcaSpec, CubicConfig};
use crate::scenario::{FlowGroup, Link, Scenario};
use crate::traffic::sizes::SizeSource;
use crate::traffic::{ArrivalSpec, PoissonConfig};

pub const VARIANTS: &[&str] = &[
    "fifo-30",
    "fifo-60",
    "fifo-90",
    "pie-30",
    "pie-60",
    "pie-90",
    "fq-codel-30",
    "fq-codel-60",
    "fq-codel-90",
];
pub const COMPARED: &[&str] = &["fifo-30", "fifo-60", "fifo-90", "pie-60", "fq-codel-60"];

/// The link's buffer, packets: 6 ms at 1 Gbit/s.
pub const BUFFER_PACKETS: u32 = 500;

pub fn build(variant: &str) -> Scenario {
    let (disc, load) = variant.rsplit_once('-').unwrap_or(("fifo", "60"));
    let load = load.parse::<f64>().unwrap_or(60.0) / 100.0;
    let limit = QueueLimit::Packets(BUFFER_PACKETS);
    let queue = match disc {
        "pie" => QueueDiscSpec::Pie(PieConfig { limit, target_ms: 1.0, ..PieConfig::default() }),
        "fq-codel" => QueueDiscSpec::FqCodel(FqCodelConfig {
            limit,
            target_ms: 0.5,
            interval_ms: 10.0,
            ..FqCodelConfig::default()
        }),
        _ => QueueDiscSpec::fifo(limit),
    };
    let flows = FlowGroup {
        // Connections open at once, at most: far more than even 90 % load keeps busy.
        count: 400,
        cca: CcaSpec::Cubic(CubicConfig::default()),
        access_rate_bps: 10_000_000_000,
        access_delay_ms: 0.25,
        arrivals: ArrivalSpec::Poisson(PoissonConfig { load, ..PoissonConfig::default() }),
        sizes: SizeSource::WebSearch,
        ..FlowGroup::default()
    };
    Scenario {
        name: format!("web-workload/{variant}"),
        seed: 1,
        duration_s: 40.0,
        warmup_s: 1.0,
        sample_interval_s: 0.1,
        links: Scenario::one_link(Link::new(1_000_000_000, 0.25, queue)),
        flows: vec![flows],
        tcp: super::warbler::linux_tcp(),
        ..Scenario::default()
    }
}
