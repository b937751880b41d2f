//! An unresponsive flow among TCP flows (RFC 7928 §5): a UDP source at 1.2 times its fair
//! share beside four CUBIC flows on a 100 Mbit/s link. A FIFO or RED gives it what it sends
//! and the TCP flows the rest; FQ-CoDel holds it to its share. The switch port with Warbler
//! (the Warbler paper's §6.2 names unresponsive UDP as future work) clusters the UDP flow's
//! backlog like any other: this preset shows what it then does.

use crate::aqm::{FqCodelConfig, QueueDiscSpec, QueueLimit, RedConfig};
use crate::cc::{CcaSpec, CubicConfig, UdpConfig};
use crate::scenario::{FlowGroup, Scenario};
use crate::switch::TOFINO2_CELL_BYTES;

pub const VARIANTS: &[&str] = &["fifo", "red", "fq-codel", "switch", "warbler"];
pub const COMPARED: &[&str] = &["fifo", "red", "fq-codel", "switch", "warbler"];

/// TCP flows beside the UDP source, and the UDP source's rate over its fair share.
pub const TCP_FLOWS: u32 = 4;
pub const UDP_OVER_SHARE: f64 = 1.2;

pub fn build(variant: &str) -> Scenario {
    let cells = QueueLimit::Cells { cells: 3000, cell_bytes: TOFINO2_CELL_BYTES };
    let queue = match variant {
        "red" => QueueDiscSpec::Red(RedConfig { limit: cells, gentle: true, ..RedConfig::default() }),
        "fq-codel" => QueueDiscSpec::FqCodel(FqCodelConfig { limit: cells, ..FqCodelConfig::default() }),
        "switch" => super::warbler::port(2, 1500, Vec::new()),
        "warbler" => super::warbler::with_warbler(super::warbler::port(2, 1500, Vec::new()), 0.0),
        _ => QueueDiscSpec::fifo(cells),
    };
    let udp = super::warbler::group(1, CcaSpec::Udp(UdpConfig::default()), 20.0);
    let tcp = FlowGroup {
        start_jitter_s: 0.5,
        ..super::warbler::group(TCP_FLOWS, CcaSpec::Cubic(CubicConfig::default()), 20.0)
    };
    let mut sc = super::warbler::scenario(format!("udp-vs-tcp/{variant}"), queue, vec![tcp, udp]);
    sc.duration_s = 30.0;
    // Its fair share: the link's payload rate over the flows.
    let payload = f64::from(sc.tcp.mss_bytes) / f64::from(sc.full_packet_bytes());
    let share = super::warbler::RATE_BPS as f64 * payload / f64::from(TCP_FLOWS + 1);
    sc.flows[1].cca = CcaSpec::Udp(UdpConfig {
        rate_bps: (UDP_OVER_SHARE * share).round() as u64,
        packet_bytes: 1000,
        ..UdpConfig::default()
    });
    sc
}
