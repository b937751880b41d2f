//! The Warbler paper's experiments: heterogeneous congestion control at a 100 Mbit/s switch
//! port (§5.1-§5.3), each baseline next to the same port running Warbler. Hosts are Linux in the paper's testbed, so TCP
//! uses Linux-like settings: MSS 1448, a 200 ms minimum RTO and large socket buffers.

use crate::aqm::{CebinaeConfig, FifoConfig, FqCodelConfig, FqConfig, QueueDiscSpec, QueueLimit};
use crate::cc::{BbrConfig, CcaSpec, CubicConfig, NewRenoConfig, VegasConfig};
use crate::scenario::{FlowGroup, Link, Scenario};
use crate::switch::scheduler::WrrConfig;
use crate::switch::{ControlPlaneSpec, SchedulerSpec, SwitchConfig, TOFINO2_CELL_BYTES};
use crate::tcp::{TcpConfig, TcpProfile};
use crate::warbler::WarblerConfig;

/// 1 BDP at 100 Mbit/s × 10 ms in 160-byte cells, as the paper rounds it (§5.3).
pub const BDP_CELLS: u32 = 780;
pub(super) const RATE_BPS: u64 = 100_000_000;
const BOTTLENECK_DELAY_MS: f64 = 1.0;

pub const RTT_UNFAIR_VARIANTS: &[&str] = &["fifo", "fq-codel", "cebinae", "fq", "warbler"];
pub const WITH_AND_WITHOUT: &[&str] = &["baseline", "warbler"];
pub const MIX_VARIANTS: &[&str] = &[
    "7v1n-fifo",
    "7v1n-fq-codel",
    "7v1n-cebinae",
    "7v1n-fq",
    "7v1n-2q",
    "7v1n-4q",
    "7v1n-8q",
    "7v1n-warbler-2q",
    "7v1n-warbler-4q",
    "7v1n-warbler-8q",
    "6v2n-fifo",
    "6v2n-fq-codel",
    "6v2n-cebinae",
    "6v2n-fq",
    "6v2n-2q",
    "6v2n-4q",
    "6v2n-8q",
    "6v2n-warbler-2q",
    "6v2n-warbler-4q",
    "6v2n-warbler-8q",
    "1v7n-fifo",
    "1v7n-fq-codel",
    "1v7n-cebinae",
    "1v7n-fq",
    "1v7n-2q",
    "1v7n-4q",
    "1v7n-8q",
    "1v7n-warbler-2q",
    "1v7n-warbler-4q",
    "1v7n-warbler-8q",
];

pub(super) fn cubic() -> CcaSpec {
    CcaSpec::Cubic(CubicConfig::default())
}
fn vegas() -> CcaSpec {
    CcaSpec::Vegas(VegasConfig::default())
}
fn bbr() -> CcaSpec {
    CcaSpec::Bbr(BbrConfig::default())
}
fn newreno() -> CcaSpec {
    CcaSpec::NewReno(NewRenoConfig::default())
}

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

/// Linux hosts: MSS 1448, 200 ms minimum RTO, large buffers, RFC 7323 RTT sampling and
/// Linux's delivery-rate snapshots (not ns-3's, whose Karn rule can trap a flow in
/// back-to-back timeouts when the minimum RTO equals the delayed-ACK timeout), pacing from
/// the first segment, and RFC 9937's PRR (Linux sizes RecoverFS from the prior window and
/// counts SACKed bytes once), the retransmission timer restarted by every ACK of new data:
/// the Linux TCP profile.
pub(super) fn linux_tcp() -> TcpConfig {
    let mut t = TcpConfig {
        mss_bytes: 1448,
        send_buffer_bytes: 6 << 20,
        recv_buffer_bytes: 6 << 20,
        ..TcpConfig::default()
    };
    TcpProfile::Linux.apply(&mut t);
    t
}

pub fn scenario(name: String, queue: QueueDiscSpec, flows: Vec<FlowGroup>) -> Scenario {
    Scenario {
        name,
        seed: 1,
        duration_s: 60.0,
        warmup_s: 5.0,
        sample_interval_s: 0.1,
        links: Scenario::one_link(Link::new(RATE_BPS, BOTTLENECK_DELAY_MS, queue)),
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
        scheduler: SchedulerSpec::Wrr(WrrConfig {}),
        initial_mapping: mapping,
        ..SwitchConfig::default()
    })
}

/// The same port with Warbler on its switch CPU from `activation_s`.
pub(super) fn with_warbler(mut queue: QueueDiscSpec, activation_s: f64) -> QueueDiscSpec {
    if let QueueDiscSpec::Switch(cfg) = &mut queue {
        cfg.control = ControlPlaneSpec::Warbler(WarblerConfig { activation_s, ..WarblerConfig::default() });
    }
    queue
}

/// Cebinae over `total` cells. Rounds of 20 ms recomputed every 10 rounds: with 1 ms
/// rounds a NewReno window, sent as a line-rate train, overflows the per-round bucket and
/// two flows get only ~18 Mbit/s; 20 ms × 10 gives ~82 Mbit/s at JFI 0.99 on the §5.3 pair
/// (the paper: ~88 Mbit/s). The authors' own ns-3 configurations use 134-268 ms rounds.
fn cebinae(total: u32) -> QueueDiscSpec {
    QueueDiscSpec::Cebinae(CebinaeConfig {
        limit: cells(total),
        round_ms: 20.0,
        recompute_rounds: 10,
        ..CebinaeConfig::default()
    })
}

/// §5.1 Fig. 4: two queues of 3000 cells, each holding one CUBIC and one Vegas flow (RTT
/// 10 ms), served round robin; variant `warbler` switches Warbler on at t = 30 s.
pub fn cubic_vegas_2q(variant: &str) -> Scenario {
    // Flows 0-1 CUBIC, 2-3 Vegas: Q0 = {CUBIC 0, Vegas 2}, Q1 = {CUBIC 1, Vegas 3}.
    let flows = vec![group(2, cubic(), 10.0), group(2, vegas(), 10.0)];
    let mut queue = port(2, 3000, vec![0, 1, 0, 1]);
    if variant == "warbler" {
        queue = with_warbler(queue, 30.0);
    }
    scenario(format!("cubic-vegas-2q/{variant}"), queue, flows)
}

/// §5.2 Table 2: three queues of 5680 cells, 2 CUBIC + 2 BBR + 2 Vegas (RTT 10 ms) spread so
/// that every queue mixes two algorithms; variant `warbler` runs Warbler from the start.
pub fn cubic_bbr_vegas_3q(variant: &str) -> Scenario {
    // Flows: CUBIC 0-1, BBR 2-3, Vegas 4-5 → Q0 {CUBIC, Vegas}, Q1 {CUBIC, BBR}, Q2 {BBR, Vegas}.
    let flows = vec![group(2, cubic(), 10.0), group(2, bbr(), 10.0), group(2, vegas(), 10.0)];
    let mut queue = port(3, 5680, vec![0, 1, 1, 2, 0, 2]);
    if variant == "warbler" {
        queue = with_warbler(queue, 0.0);
    }
    scenario(format!("cubic-bbr-vegas-3q/{variant}"), queue, flows)
}

/// `warbler-upstream`'s variants: the port behind a FIFO hop that only reshapes bursts, and
/// behind one that two more CUBIC flows (leaving after it) keep full.
pub const UPSTREAM_VARIANTS: &[&str] = &["baseline", "warbler", "cross-baseline", "cross-warbler"];
/// The upstream hop: an aggregation link faster than the port, a FIFO of this many packets;
/// with cross traffic, faster still, its two CUBIC flows' share on top of the port's.
pub const UPSTREAM_BPS: u64 = 120_000_000;
pub const UPSTREAM_CROSS_BPS: u64 = 150_000_000;
pub const UPSTREAM_PACKETS: u32 = 500;

/// §5.2's six flows and three queues with the port as the second hop of their path: an
/// upstream FIFO link (1 ms) ahead of it, the RTT still §5.2's. Alone on it, the six only
/// queue there in the bursts their 1 Gbit/s access links send, and the port stays their
/// one queue. With two CUBIC flows that leave after the upstream link (`cross-`), that FIFO
/// stays full, and every port flow waits there too, in one queue Warbler cannot reach.
pub fn warbler_upstream(variant: &str) -> Scenario {
    let (cross, port) = match variant.strip_prefix("cross-") {
        Some(v) => (true, v),
        None => (false, variant),
    };
    let mut sc = cubic_bbr_vegas_3q(port);
    sc.name = format!("warbler-upstream/{variant}");
    let rate = if cross { UPSTREAM_CROSS_BPS } else { UPSTREAM_BPS };
    let upstream = Link::new(rate, 1.0, QueueDiscSpec::fifo(QueueLimit::Packets(UPSTREAM_PACKETS)));
    sc.rename_link(Scenario::BOTTLENECK_NAME, "port");
    for g in &mut sc.flows {
        g.access_delay_ms -= upstream.delay_ms;
        g.route = vec!["upstream".into(), "port".into()];
    }
    if cross {
        let rtt = sc.base_rtt_ms(&sc.flows[0]);
        let mut g = group(2, cubic(), rtt);
        // Its RTT as the port flows': access, then the upstream link alone.
        g.access_delay_ms = rtt / 2.0 - upstream.delay_ms;
        g.route = vec!["upstream".into()];
        sc.flows.push(g);
    }
    sc.links.insert("upstream".into(), upstream);
    sc
}

/// §5.3 Fig. 11: Vegas/NewReno mixes (7/1, 6/2, 1/7, RTT 10 ms) with a total of 8 BDP of
/// buffer: one FIFO queue, FQ-CoDel, Cebinae, ideal FQ, or K = 2, 4, 8 queues of 8/K BDP
/// each, load-balanced (`2q`) or run by Warbler (`warbler-2q`).
pub fn vegas_newreno_mix(variant: &str) -> Scenario {
    let (mix, disc) = variant.split_once('-').unwrap_or(("7v1n", "fifo"));
    let (v, n) = match mix {
        "6v2n" => (6, 2),
        "1v7n" => (1, 7),
        _ => (7, 1),
    };
    let total = 8 * BDP_CELLS;
    let queue = match disc {
        "fq-codel" => {
            QueueDiscSpec::FqCodel(FqCodelConfig { limit: cells(total), ..FqCodelConfig::default() })
        }
        "cebinae" => cebinae(total),
        "fq" => QueueDiscSpec::Fq(FqConfig { limit: cells(total), ..FqConfig::default() }),
        "2q" | "4q" | "8q" => {
            let k: u32 = disc[..1].parse().unwrap_or(2);
            port(k, total / k, (0..v + n).map(|i| i % k).collect())
        }
        "warbler-2q" | "warbler-4q" | "warbler-8q" => {
            let k: u32 = disc["warbler-".len()..][..1].parse().unwrap_or(2);
            with_warbler(port(k, total / k, (0..v + n).map(|i| i % k).collect()), 0.0)
        }
        _ => QueueDiscSpec::Fifo(FifoConfig { limit: cells(total) }),
    };
    let flows = vec![group(v, vegas(), 10.0), group(n, newreno(), 10.0)];
    scenario(format!("vegas-newreno-mix/{variant}"), queue, flows)
}

/// §5.3 Figs. 9-10: two NewReno flows with RTTs of 20 and 42 ms. FIFO and FQ-CoDel get one
/// 3000-cell queue, Cebinae and Warbler two queues of 1500 cells; ideal FQ shares 3000 cells.
pub fn rtt_unfair(variant: &str) -> Scenario {
    let queue = match variant {
        "fq-codel" => {
            QueueDiscSpec::FqCodel(FqCodelConfig { limit: cells(3000), ..FqCodelConfig::default() })
        }
        // Rounds of 20 ms recomputed every 10 rounds: with 1 ms rounds a NewReno window,
        // sent as a line-rate train, overflows the per-round bucket and the pair gets only
        // ~18 Mbit/s; 20 ms × 10 gives ~82 Mbit/s at JFI 0.99 (the paper: ~88 Mbit/s).
        "cebinae" => cebinae(3000),
        "fq" => QueueDiscSpec::Fq(FqConfig { limit: cells(3000), ..FqConfig::default() }),
        // Both flows start in Q0: Warbler has to find that they differ.
        "warbler" => with_warbler(port(2, 1500, vec![0, 0]), 0.0),
        _ => QueueDiscSpec::Fifo(FifoConfig { limit: cells(3000) }),
    };
    let flows = vec![group(1, newreno(), 20.0), group(1, newreno(), 42.0)];
    scenario(format!("rtt-unfair/{variant}"), queue, flows)
}
