//! The DQN paper's dumbbell (§3.2, §4): one sender, 10 Mbit/s access links, a 2 Mbit/s
//! bottleneck, 10 s, the frozen DQN agent against CUBIC and NewReno.

use crate::aqm::{QueueDiscSpec, QueueLimit};
use crate::cc::{CcaSpec, CubicConfig, DqnCcConfig, NewRenoConfig};
use crate::scenario::{FlowGroup, Link, Scenario};
use crate::tcp::TcpConfig;

pub const VARIANTS: &[&str] = &["dqn", "cubic", "newreno"];

/// Packets the bottleneck holds: enough for CUBIC to overflow it by hundreds of packets at
/// the end of slow start, as the paper's ≈ 500 CUBIC losses imply (README: "The DQN paper").
pub const QUEUE_PACKETS: u32 = 250;

pub fn build(variant: &str) -> Scenario {
    let cca = match variant {
        // HyStart off: with it CUBIC leaves slow start before the buffer overflows and loses
        // a few dozen packets, not the paper's ≈ 500.
        "cubic" => CcaSpec::Cubic(CubicConfig { hystart: false, ..CubicConfig::default() }),
        "newreno" => CcaSpec::NewReno(NewRenoConfig::default()),
        _ => CcaSpec::Dqn(DqnCcConfig::default()),
    };
    Scenario {
        name: format!("dqn-dumbbell/{variant}"),
        seed: 1,
        duration_s: 10.0,
        warmup_s: 0.0,
        sample_interval_s: 0.1,
        links: Scenario::one_link(Link::new(
            2_000_000,
            10.0,
            QueueDiscSpec::fifo(QueueLimit::Packets(QUEUE_PACKETS)),
        )),
        // Seeds differ only by when the flow starts (up to 0.5 s late), the one random
        // element of a single flow on an otherwise deterministic path.
        flows: vec![FlowGroup {
            count: 1,
            cca,
            access_rate_bps: 10_000_000,
            access_delay_ms: 2.0,
            start_jitter_s: 0.5,
            ..FlowGroup::default()
        }],
        // ns-3's default 536-byte segments; socket buffers large enough not to cap the window.
        tcp: TcpConfig { send_buffer_bytes: 1 << 20, recv_buffer_bytes: 1 << 20, ..TcpConfig::default() },
        ..Scenario::default()
    }
}
