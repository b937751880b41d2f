//! Every editable parameter: where it lives in the scenario, its unit, its default and a
//! one-line explanation. The editor panels are generated from these lists.

use crate::editor::Kind;

#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// Path relative to the section's root (e.g. `min_th` under `bottleneck.queue`).
    pub path: &'static str,
    pub label: &'static str,
    pub unit: &'static str,
    pub kind: FieldKind,
    pub help: &'static str,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    Text(Kind),
    Check,
}

const fn num(
    path: &'static str,
    label: &'static str,
    unit: &'static str,
    kind: Kind,
    help: &'static str,
) -> Field {
    Field { path, label, unit, kind: FieldKind::Text(kind), help }
}

const fn check(path: &'static str, label: &'static str, help: &'static str) -> Field {
    Field { path, label, unit: "", kind: FieldKind::Check, help }
}

pub const RUN: &[Field] = &[
    num("duration_s", "Duration", "s", Kind::Float, "Simulated time of the run."),
    num(
        "warmup_s",
        "Warm-up",
        "s",
        Kind::Float,
        "Statistics ignore this first stretch (the RED study drops 1 s).",
    ),
    num(
        "sample_interval_s",
        "Sample interval",
        "s",
        Kind::Float,
        "Queue, throughput and window traces are sampled this often.",
    ),
    num("seed", "Seed", "", Kind::Int, "Every random draw derives from it: same seed, same run."),
];

pub const BOTTLENECK: &[Field] = &[
    num("rate_bps", "Rate", "bit/s", Kind::Int, "Capacity of the shared link."),
    num("delay_ms", "Delay", "ms", Kind::Float, "One-way propagation delay of the shared link."),
    num(
        "nic_queue_packets",
        "NIC queue",
        "packets",
        Kind::Int,
        "Device queue under the disc (0 = none). ns-3 puts 100 packets there: the disc only fills once it is full.",
    ),
];

pub const RED: &[Field] = &[
    num("min_th", "minTh", "", Kind::Float, "Average queue where early drops start."),
    num("max_th", "maxTh", "", Kind::Float, "Average queue where the drop probability reaches max_p."),
    num("max_p", "max_p", "", Kind::Float, "Drop probability at maxTh (ns-3: 1/LInterm = 0.02)."),
    num(
        "queue_weight",
        "w_q",
        "",
        Kind::OptFloat,
        "EWMA weight of the average; empty = 1 − exp(−1/C), C the link's packets/s.",
    ),
    check(
        "gentle",
        "Gentle",
        "Probability rises from max_p to 1 over [maxTh, 2·maxTh) instead of jumping to 1.",
    ),
    check("wait", "Wait", "Space drops out: no drop until count·p_b ≥ 1 (ns-3 default)."),
    check(
        "adaptive",
        "Adaptive (ARED)",
        "Adapt max_p every interval to keep the average in the target band.",
    ),
    check(
        "adaptive_auto_params",
        "ARED resets thresholds",
        "ns-3 behaviour: with ARED on, minTh, maxTh and w_q are set automatically whatever is typed here.",
    ),
    num("interval_s", "ARED interval", "s", Kind::Float, "How often max_p may change."),
    num("alpha", "ARED α", "", Kind::Float, "Additive increase of max_p (capped at max_p/4)."),
    num("beta", "ARED β", "", Kind::Float, "Multiplicative decrease of max_p."),
    num("top", "ARED top", "", Kind::Float, "Upper bound of max_p."),
    num(
        "bottom",
        "ARED bottom",
        "",
        Kind::OptFloat,
        "Lower bound of max_p; empty = min(0.01, 1/BDP in packets).",
    ),
    num(
        "target_delay_s",
        "Target delay",
        "s",
        Kind::Float,
        "Sets ARED's automatic minTh = max(5, delay·C/2).",
    ),
    num(
        "mean_pkt_size_bytes",
        "Mean packet size",
        "bytes",
        Kind::Int,
        "Used for idle-time decay and byte mode (ns-3 MeanPktSize).",
    ),
    num(
        "link_bandwidth_bps",
        "Link bandwidth",
        "bit/s",
        Kind::OptInt,
        "Rate RED assumes; empty = the link's own rate.",
    ),
    check(
        "gentle_slope_from_initial_max_p",
        "Gentle slope fixed at start",
        "ns-3 behaviour: the gentle ramp keeps the initial max_p even while ARED adapts it.",
    ),
];

pub const TCP: &[Field] = &[
    num("mss_bytes", "MSS", "bytes", Kind::Int, "Segment payload (ns-3 536; the RED study uses 512)."),
    num("initial_cwnd_segments", "Initial window", "segments", Kind::Int, "Congestion window at the start."),
    num("min_rto_ms", "Minimum RTO", "ms", Kind::Float, "RFC 6298 and ns-3: 1000 ms; Linux: 200 ms."),
    num(
        "delayed_ack_count",
        "Delayed ACK count",
        "segments",
        Kind::Int,
        "ACK every this many in-order segments...",
    ),
    num("delayed_ack_timeout_ms", "Delayed ACK timeout", "ms", Kind::Float, "...or after this long."),
    check("sack", "SACK", "Selective ACKs with RFC 6675 recovery; off = NewReno partial ACKs."),
    check("timestamps", "Timestamps", "RFC 7323: an RTT sample on every ACK, 12 header bytes per packet."),
    num("send_buffer_bytes", "Send buffer", "bytes", Kind::Int, "Caps data in flight (ns-3: 128 KiB)."),
    num(
        "recv_buffer_bytes",
        "Receive buffer",
        "bytes",
        Kind::Int,
        "Out-of-order data held; the advertised window.",
    ),
    num(
        "dupack_threshold",
        "Dup-ACK threshold",
        "ACKs",
        Kind::Int,
        "Duplicate ACKs that trigger fast retransmit.",
    ),
];

/// Columns of the flows table (paths under `flows[i]`).
pub const FLOW: &[Field] = &[
    num("count", "Flows", "", Kind::Int, "Identical flows in this group, each with its own sender."),
    num("access_rate_bps", "Access rate", "bit/s", Kind::Int, "Sender's own link."),
    num("access_delay_ms", "Access delay", "ms", Kind::Float, "Sets the RTT: 2·(access + bottleneck delay)."),
    num("start_s", "Start", "s", Kind::Float, "When the flow opens its connection."),
    num("stop_s", "Stop", "s", Kind::OptFloat, "When the application stops sending; empty = never."),
    num("size_bytes", "Size", "bytes", Kind::OptInt, "Bytes to send; empty = unlimited (bulk)."),
];

/// A multi-queue switch port (paths under `bottleneck.queue`).
pub const SWITCH: &[Field] = &[
    num("queues", "Queues", "", Kind::Int, "Physical queues on the port (1-32)."),
    num(
        "cell_bytes",
        "Cell size",
        "bytes",
        Kind::Int,
        "Buffer cell: 80 Tofino 1, 160 as the Warbler paper counts Tofino 2, 176 Intel's driver.",
    ),
    num(
        "queue_limit_cells",
        "Queue limit",
        "cells",
        Kind::Int,
        "Per-queue buffer; 1 BDP of 125 kB ≈ 780 cells of 160 B.",
    ),
    num(
        "shared_buffer_cells",
        "Shared buffer",
        "cells",
        Kind::OptInt,
        "Whole-port buffer; empty = the sum of the queue limits.",
    ),
    num("weights", "Weights", "", Kind::IntList, "Scheduler weight per queue, e.g. 1, 1, 2 (missing = 1)."),
    num(
        "initial_mapping",
        "Initial mapping",
        "",
        Kind::IntList,
        "Queue of flow 0, 1, 2…; flows not listed go round robin as they turn long.",
    ),
    num(
        "long_flow_threshold_packets",
        "Long-flow threshold",
        "packets",
        Kind::Int,
        "Count-min sketch count after which a flow leaves the default queue (0 = at once).",
    ),
    num("default_queue", "Default queue", "", Kind::Int, "Where mice (not yet long flows) go."),
    num(
        "control_period_ms",
        "Control period",
        "ms",
        Kind::Float,
        "How often the control plane reads the registers.",
    ),
    num(
        "compute_latency_ms",
        "Compute latency",
        "ms",
        Kind::Float,
        "Delay before the control plane's table writes take effect.",
    ),
];

/// CoDel (RFC 8289), also the per-queue law of FQ-CoDel.
pub const CODEL: &[Field] = &[
    num("target_ms", "Target", "ms", Kind::Float, "Acceptable standing queue delay (RFC 8289: 5 ms)."),
    num(
        "interval_ms",
        "Interval",
        "ms",
        Kind::Float,
        "Sojourn must stay above target this long before dropping starts (100 ms).",
    ),
    num("mtu_bytes", "MTU", "bytes", Kind::Int, "No drop while at most this many bytes are queued."),
];

/// FQ-CoDel's own parameters (RFC 8290).
pub const FQ_CODEL: &[Field] = &[
    num("flows", "Flow queues", "", Kind::Int, "Hash buckets (RFC 8290: 1024)."),
    num("quantum_bytes", "Quantum", "bytes", Kind::Int, "DRR credit per round (one MTU, 1514)."),
    num(
        "drop_batch",
        "Drop batch",
        "packets",
        Kind::Int,
        "On overflow, drop up to this many from the fattest queue (64).",
    ),
];

/// Ideal fair queueing.
pub const FQ: &[Field] =
    &[num("quantum_bytes", "Quantum", "bytes", Kind::Int, "DRR credit per round (one MTU, 1514).")];

/// PIE (RFC 8033).
pub const PIE: &[Field] = &[
    num("target_ms", "Target", "ms", Kind::Float, "Queueing delay PIE steers towards (15 ms)."),
    num(
        "tupdate_ms",
        "Update period",
        "ms",
        Kind::Float,
        "How often the drop probability is recomputed (15 ms).",
    ),
    num("alpha", "α", "Hz", Kind::Float, "Gain on the distance from target (0.125)."),
    num("beta", "β", "Hz", Kind::Float, "Gain on the delay trend (1.25)."),
    num("max_burst_ms", "Max burst", "ms", Kind::Float, "Bursts this long pass without drops (150 ms)."),
    num(
        "dq_threshold_bytes",
        "Rate threshold",
        "bytes",
        Kind::Int,
        "Departure-rate measurement needs this much queued (16 KiB).",
    ),
    check(
        "use_dequeue_rate_estimator",
        "Departure-rate estimate",
        "RFC 8033 §5.2 delay from queue/rate; off = sojourn time (Linux).",
    ),
    check("derandomize", "Derandomize", "RFC 8033 §5.4: accumulate probability to space drops."),
    num("mean_pkt_size_bytes", "Mean packet size", "bytes", Kind::Int, "Used by the small-queue safeguard."),
];

/// Cebinae (SIGCOMM 2022).
pub const CEBINAE: &[Field] = &[
    num("round_ms", "Round dT", "ms", Kind::Float, "Measurement round; the authors' configs use 134-268 ms."),
    num(
        "recompute_rounds",
        "Recompute every",
        "rounds",
        Kind::Int,
        "Rates and top flows are recomputed every P rounds.",
    ),
    num("tau", "τ", "", Kind::Float, "Tax on the top flows' rate (0.05)."),
    num("delta_port", "δ port", "", Kind::Float, "Port counts as saturated above (1 − δ) of capacity."),
    num("delta_flow", "δ flow", "", Kind::Float, "Flows within δ of the largest are 'top'."),
];

/// CUBIC (RFC 9438) parameters, under `flows[i].cca`.
pub const CUBIC: &[Field] = &[
    num("c", "C", "", Kind::Float, "Cubic scaling constant (0.4)."),
    num("beta", "β", "", Kind::Float, "Multiplicative decrease (0.7)."),
    check("fast_convergence", "Fast convergence", "Release bandwidth faster when W_max shrinks (§4.7)."),
    check("tcp_friendliness", "Reno-friendly region", "Never slower than Reno would be (§4.3)."),
    check("hystart", "HyStart", "Leave slow start on an ACK train or a delay rise (ns-3)."),
];

/// Vegas parameters (segments queued).
pub const VEGAS: &[Field] = &[
    num("alpha", "α", "segments", Kind::Int, "Grow the window when fewer than α segments are queued (2)."),
    num("beta", "β", "segments", Kind::Int, "Shrink it when more than β are queued (4)."),
    num("gamma", "γ", "segments", Kind::Int, "Leave slow start above γ (1)."),
    check(
        "use_smoothed_rtt",
        "Smoothed RTT",
        "Use the smoothed RTT as ns-3 does; off = each ACK's sample (Linux, the paper).",
    ),
];

/// BBR v1 parameters.
pub const BBR: &[Field] = &[
    num("high_gain", "Startup gain", "", Kind::Float, "Pacing and cwnd gain in Startup (2.89)."),
    num("cwnd_gain", "cwnd gain", "", Kind::Float, "cwnd = gain × BDP in ProbeBW (2)."),
    num(
        "bw_window_rounds",
        "BtlBw window",
        "rounds",
        Kind::Int,
        "Max filter over this many round trips (10).",
    ),
    num(
        "min_rtt_window_s",
        "RTprop window",
        "s",
        Kind::Float,
        "ProbeRTT when no new minimum for this long (10 s).",
    ),
    num(
        "probe_rtt_duration_ms",
        "ProbeRTT time",
        "ms",
        Kind::Float,
        "Time spent at the minimum window (200 ms).",
    ),
    num("min_pipe_cwnd_segments", "ProbeRTT cwnd", "segments", Kind::Int, "Window during ProbeRTT (4)."),
    num(
        "pacing_margin_percent",
        "Pacing margin",
        "%",
        Kind::Float,
        "Pace this much below the estimate (1 %).",
    ),
];
