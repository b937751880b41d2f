//! The Warbler paper's baselines (without Warbler itself): heterogeneous congestion control
//! at a 100 Mbit/s switch port (§5.1-§5.3). Hosts are Linux in the paper's testbed, so TCP
//! uses Linux-like settings: MSS 1448, a 200 ms minimum RTO and large socket buffers.

use crate::aqm::{CebinaeConfig, FqCodelConfig, FqConfig, QueueDiscSpec, QueueLimit};
use crate::cc::CcaSpec;
use crate::scenario::{Bottleneck, FlowGroup, Scenario};
use crate::switch::{SchedulerSpec, SwitchConfig, TOFINO2_CELL_BYTES};
use crate::tcp::TcpConfig;

/// 1 BDP at 100 Mbit/s × 10 ms in 160-byte cells, as the paper rounds it (§5.3).
pub const BDP_CELLS: u32 = 780;
const RATE_BPS: u64 = 100_000_000;
const BOTTLENECK_DELAY_MS: f64 = 1.0;

pub const RTT_UNFAIR_VARIANTS: &[&str] = &["fifo", "fq-codel", "cebinae", "fq"];

fn cells(n: u32) -> QueueLimit {
    QueueLimit::Cells { cells: n, cell_bytes: TOFINO2_CELL_BYTES }
}

/// `count` bulk flows of `cca` whose base RTT is `rtt_ms`.
pub fn group(count: u32, cca: CcaSpec, rtt_ms: f64) -> FlowGroup {
    FlowGroup {
        count,
        cca,
        access_rate_bps: 1_000_000_000,
        access_delay_ms: rtt_ms / 2.0 - BOTTLENECK_DELAY_MS,
        ..FlowGroup::default()
    }
}

fn linux_tcp() -> TcpConfig {
    TcpConfig {
        mss_bytes: 1448,
        min_rto_ms: 200.0,
        send_buffer_bytes: 6 << 20,
        recv_buffer_bytes: 6 << 20,
        ..TcpConfig::default()
    }
}

pub fn scenario(name: String, queue: QueueDiscSpec, flows: Vec<FlowGroup>) -> Scenario {
    Scenario {
        name,
        seed: 1,
        duration_s: 60.0,
        warmup_s: 5.0,
        sample_interval_s: 0.1,
        bottleneck: Bottleneck {
            rate_bps: RATE_BPS,
            delay_ms: BOTTLENECK_DELAY_MS,
            queue,
            nic_queue_packets: 0,
        },
        flows,
        tcp: linux_tcp(),
        ..Scenario::default()
    }
}

/// A switch port with `queues` queues of `per_queue` cells, WRR with equal weights, and
/// `mapping` as the initial flow → queue table (the paper's load-balanced baseline).
pub fn port(queues: u32, per_queue: u32, mapping: Vec<u32>) -> QueueDiscSpec {
    QueueDiscSpec::Switch(SwitchConfig {
        queues,
        queue_limit_cells: per_queue,
        scheduler: SchedulerSpec::Wrr,
        initial_mapping: mapping,
        ..SwitchConfig::default()
    })
}

/// §5.3 Figs. 9-10: two NewReno flows with RTTs of 20 and 42 ms. FIFO and FQ-CoDel get one
/// 3000-cell queue, Cebinae two queues of 1500 cells; ideal FQ shares 3000 cells.
pub fn rtt_unfair(variant: &str) -> Scenario {
    let queue = match variant {
        "fq-codel" => {
            QueueDiscSpec::FqCodel(FqCodelConfig { limit: cells(3000), ..FqCodelConfig::default() })
        }
        // Rounds of 20 ms recomputed every 10 rounds: with 1 ms rounds a NewReno window,
        // sent as a line-rate train, overflows the per-round bucket and the pair gets only
        // ~18 Mbit/s; 20 ms × 10 gives ~82 Mbit/s at JFI 0.99 (the paper: ~88 Mbit/s).
        "cebinae" => QueueDiscSpec::Cebinae(CebinaeConfig {
            limit: cells(3000),
            round_ms: 20.0,
            recompute_rounds: 10,
            ..CebinaeConfig::default()
        }),
        "fq" => QueueDiscSpec::Fq(FqConfig { limit: cells(3000), ..FqConfig::default() }),
        _ => QueueDiscSpec::Fifo { limit: cells(3000) },
    };
    let flows = vec![group(1, CcaSpec::NewReno, 20.0), group(1, CcaSpec::NewReno, 42.0)];
    scenario(format!("rtt-unfair/{variant}"), queue, flows)
}
