//! What this app shows for each preset, measured: the headline figures of every variant a
//! preset compares, full length, seed 1. Preset texts quote them (`{app:VARIANT:FIGURE}`,
//! see [`super::presets`]), and `tests/golden.rs` pins each within ±10 % of a fresh run,
//! so a text cannot drift from what the app shows: a change that moves a figure fails
//! there, and the commit that moves it updates the row and says why.
//!
//! Figures: `queue_mean` (packets in the disc), `drops` (in the window; `losses` all),
//! `cv_pct` (goodput CV over 100 ms), `zone0_pct`..`zone3_pct` (RED's EWMA zones), `jfi`,
//! `delay_ms` (mean queueing delay), `device_ms` (of it, in the device queue), `jitter_ms`
//! (P95 − P50), `buffer_cells`, `mbps`, `fetch_s` (the last group's median completion time:
//! the bufferbloat page's fetch), `ping_ms` (the first ping group's median RTT)
//! (goodput), `rtt_ms` (flow 0's mean SRTT), `flow0_mbps` / `flow1_mbps` (flow 0's and 1's goodput), `flow0_p50_ms` /
//! `flow1_p50_ms` (their median queueing delay), `marks` (CE marks in the window); the parking lot's `long_mbps` (flow 0, the long
//! flow), `local_mbps` (the others' mean) and `mm_long_mbps` / `pf_long_mbps` (the long
//! flow's max-min and proportionally fair shares); `LINK_delay_ms` and `LINK_jfi` (the mean
//! queueing delay at the link named LINK and Jain's index of the flows crossing it, from
//! the summary's per-link window).
//!
//! Produced with `aqmsim run --preset P --variant V --out DIR -q` (figures from
//! DIR/summary.json); history of the re-measurements in tests/golden.rs.

/// (preset, variant, [(figure, value)]).
pub type Golden = (&'static str, &'static str, &'static [(&'static str, f64)]);

#[rustfmt::skip]
pub const APP_FIGURES: &[Golden] = &[
    ("bufferbloat", "fifo", &[("delay_ms", 964.949), ("mbps", 9.63172), ("fetch_s", 4.35609), ("ping_ms", 1088.4), ("drops", 315.0)]),
    ("bufferbloat", "fifo-small", &[("delay_ms", 31.878), ("mbps", 9.62727), ("fetch_s", 0.739731), ("ping_ms", 60.4758), ("drops", 346.0)]),
    ("bufferbloat", "fifo-cut", &[("delay_ms", 375.208), ("mbps", 9.3766), ("fetch_s", 1.55305), ("ping_ms", 76.0851), ("drops", 1501.0)]),
    ("bufferbloat", "codel", &[("delay_ms", 5.5007), ("mbps", 9.34633), ("fetch_s", 0.232382), ("ping_ms", 33.4019), ("drops", 58.0)]),
    ("bufferbloat", "fq-codel", &[("delay_ms", 4.70292), ("mbps", 9.01165), ("fetch_s", 0.243695), ("ping_ms", 30.7411), ("drops", 70.0)]),
    ("bufferbloat", "pie", &[("delay_ms", 18.5029), ("mbps", 9.57175), ("fetch_s", 0.279057), ("ping_ms", 47.6861), ("drops", 51.0)]),
    ("bufferbloat", "red", &[("delay_ms", 9.18943), ("mbps", 9.43377), ("fetch_s", 0.24788), ("ping_ms", 36.6557), ("drops", 50.0)]),
    ("parking-lot", "fifo", &[("long_mbps", 0.993905), ("local_mbps", 8.63638), ("mm_long_mbps", 4.82024), ("pf_long_mbps", 2.41012), ("jfi", 0.805091), ("delay_ms", 103.484)]),
    ("parking-lot", "red", &[("long_mbps", 1.61851), ("local_mbps", 8.00758), ("mm_long_mbps", 4.82024), ("pf_long_mbps", 2.41012), ("jfi", 0.842986), ("delay_ms", 10.3005)]),
    ("parking-lot", "fq-codel", &[("long_mbps", 4.67484), ("local_mbps", 4.94619), ("mm_long_mbps", 4.82024), ("pf_long_mbps", 2.41012), ("jfi", 0.99942), ("delay_ms", 5.84625)]),
    ("web-workload", "fifo-30", &[("small_p95", 5.35176), ("all_p50", 1.74206), ("mbps", 339.214), ("delay_ms", 1.80749)]),
    ("web-workload", "fifo-60", &[("small_p95", 6.8458), ("all_p50", 2.54673), ("mbps", 644.944), ("delay_ms", 2.58701)]),
    ("web-workload", "fifo-90", &[("small_p95", 108.691), ("all_p50", 8.818), ("mbps", 927.253), ("delay_ms", 4.60969)]),
    ("web-workload", "pie-60", &[("small_p95", 6.95729), ("all_p50", 2.50627), ("mbps", 644.944), ("delay_ms", 2.47084)]),
    ("web-workload", "fq-codel-60", &[("small_p95", 1.09538), ("all_p50", 1.85752), ("mbps", 644.628), ("delay_ms", 0.404845)]),
    ("incast", "n1", &[("mbps", 947.59), ("drops", 0.0)]),
    ("incast", "n4", &[("mbps", 135.996), ("drops", 786.0)]),
    ("incast", "n16", &[("mbps", 37.1313), ("drops", 1081.0)]),
    ("incast", "n64", &[("mbps", 7.50772), ("drops", 1195.0)]),
    ("incast", "n64-rto1", &[("mbps", 671.419), ("drops", 50712.0)]),
    ("udp-vs-tcp", "fifo", &[("udp_mbps", 23.1302), ("tcp_mbps", 18.3581), ("jfi", 0.976108)]),
    ("udp-vs-tcp", "red", &[("udp_mbps", 23.0861), ("tcp_mbps", 16.9438), ("jfi", 0.978092)]),
    ("udp-vs-tcp", "fq-codel", &[("udp_mbps", 19.4944), ("tcp_mbps", 19.2609), ("jfi", 0.999975)]),
    ("udp-vs-tcp", "switch", &[("udp_mbps", 23.136), ("tcp_mbps", 18.3569), ("jfi", 0.816471)]),
    ("udp-vs-tcp", "warbler", &[("udp_mbps", 17.0258), ("tcp_mbps", 19.8536), ("jfi", 0.995107)]),
    ("dctcp-vs-cubic", "dctcp", &[("mbps", 964.045), ("queue_mean", 18.7287), ("drops", 0.0), ("jfi", 0.999999)]),
    ("dctcp-vs-cubic", "cubic-step", &[("mbps", 964.045), ("queue_mean", 16.4953), ("drops", 6828.0), ("jfi", 0.990261)]),
    ("dctcp-vs-cubic", "cubic-fifo", &[("mbps", 964.045), ("queue_mean", 221.085), ("drops", 185.0), ("jfi", 0.972794)]),
    ("dctcp-vs-cubic", "mixed", &[("mbps", 964.038), ("flow0_mbps", 963.597), ("queue_mean", 19.162), ("jfi", 0.500458)]),
    ("red-ecn", "red", &[("mbps", 9.63778), ("queue_mean", 14.092), ("delay_ms", 17.062), ("drops", 230.0), ("losses", 490.0), ("marks", 0.0)]),
    ("red-ecn", "red-ecn", &[("mbps", 9.63811), ("queue_mean", 13.532), ("delay_ms", 16.0813), ("drops", 0.0), ("losses", 203.0), ("marks", 206.0)]),
    ("red-ecn", "red-ecn-nohard", &[("mbps", 9.63823), ("queue_mean", 13.084), ("delay_ms", 15.8136), ("drops", 0.0), ("losses", 0.0), ("marks", 205.0)]),
    ("red-ecn", "codel", &[("mbps", 9.62356), ("queue_mean", 7.62), ("delay_ms", 9.02287), ("drops", 404.0), ("losses", 496.0), ("marks", 0.0)]),
    ("red-ecn", "codel-ecn", &[("mbps", 9.63385), ("queue_mean", 7.684), ("delay_ms", 9.30263), ("drops", 0.0), ("losses", 0.0), ("marks", 298.0)]),
    ("l4s-coexistence", "dualpi2", &[("flow0_mbps", 60.5877), ("flow1_mbps", 35.7886), ("flow0_p50_ms", 0.0740798), ("flow1_p50_ms", 14.5496), ("marks", 3321.0), ("drops", 16.0)]),
    ("l4s-coexistence", "fifo", &[("flow0_mbps", 9.50583), ("flow1_mbps", 86.8738), ("flow0_p50_ms", 95.3569), ("flow1_p50_ms", 93.4687), ("marks", 0.0), ("drops", 24.0)]),
    ("l4s-coexistence", "pie", &[("flow0_mbps", 39.0993), ("flow1_mbps", 57.2607), ("flow0_p50_ms", 14.2615), ("flow1_p50_ms", 13.9791), ("marks", 0.0), ("drops", 22.0)]),
    ("l4s-coexistence", "pie-ecn", &[("flow0_mbps", 82.7362), ("flow1_mbps", 13.643), ("flow0_p50_ms", 14.8435), ("flow1_p50_ms", 15.4493), ("marks", 666.0), ("drops", 55.0)]),
    ("red-study", "red", &[("mbps", 1.80857), ("delay_ms", 225.38), ("device_ms", 211.74), ("queue_mean", 5.99831), ("drops", 979.0), ("cv_pct", 50.3746), ("zone0_pct", 37.7966), ("zone1_pct", 57.9661), ("zone2_pct", 4.23729), ("zone3_pct", 0.0)]),
    ("red-study", "ared", &[("delay_ms", 225.366), ("device_ms", 205.845), ("queue_mean", 8.61356), ("drops", 604.0), ("cv_pct", 46.1144), ("zone0_pct", 28.6441), ("zone1_pct", 53.3898), ("zone2_pct", 17.9661), ("zone3_pct", 0.0)]),
    ("red-study", "gentle", &[("delay_ms", 210.709), ("device_ms", 197.558), ("queue_mean", 5.75085), ("drops", 714.0), ("cv_pct", 46.5001), ("zone0_pct", 45.7627), ("zone1_pct", 32.7119), ("zone2_pct", 21.5254), ("zone3_pct", 0.0)]),
    ("rtt-unfair", "fifo", &[("mbps", 96.4048), ("jfi", 0.807287), ("delay_ms", 25.8745), ("jitter_ms", 7.20631), ("buffer_cells", 2154.02)]),
    ("rtt-unfair", "fq-codel", &[("jfi", 0.970678), ("delay_ms", 1.75334), ("jitter_ms", 4.91686), ("buffer_cells", 136.291)]),
    ("rtt-unfair", "cebinae", &[("mbps", 77.5393), ("jfi", 0.991998), ("delay_ms", 0.166605), ("jitter_ms", 0.319769), ("buffer_cells", 10.8364)]),
    ("rtt-unfair", "fq", &[("jfi", 1.0), ("delay_ms", 27.2507), ("jitter_ms", 16.224), ("buffer_cells", 2268.89)]),
    ("rtt-unfair", "warbler", &[("jfi", 0.997429), ("delay_ms", 18.6954), ("jitter_ms", 15.6505), ("buffer_cells", 1556.71)]),
    ("cubic-vegas-2q", "baseline", &[("jfi", 0.517528), ("delay_ms", 60.9684), ("jitter_ms", 10.4451), ("buffer_cells", 5076.38)]),
    ("cubic-vegas-2q", "warbler", &[("jfi", 0.83472), ("delay_ms", 45.9129), ("jitter_ms", 4.65711), ("buffer_cells", 3820.16)]),
    ("cubic-bbr-vegas-3q", "baseline", &[("jfi", 0.641746), ("delay_ms", 107.378), ("jitter_ms", 26.8929), ("buffer_cells", 8933.22)]),
    ("cubic-bbr-vegas-3q", "warbler", &[("jfi", 0.981002), ("delay_ms", 60.5218), ("jitter_ms", 12.9589), ("buffer_cells", 5039.22)]),
    ("warbler-upstream", "baseline", &[("port_jfi", 0.665581), ("port_delay_ms", 103.438), ("upstream_delay_ms", 0.112079)]),
    ("warbler-upstream", "warbler", &[("port_jfi", 0.991206), ("port_delay_ms", 60.2836), ("upstream_delay_ms", 0.0992082)]),
    ("warbler-upstream", "cross-baseline", &[("port_jfi", 0.645915), ("port_delay_ms", 6.12213), ("upstream_delay_ms", 34.055)]),
    ("warbler-upstream", "cross-warbler", &[("port_jfi", 0.668646), ("port_delay_ms", 10.2669), ("upstream_delay_ms", 33.6663)]),
    ("warbler-mice", "baseline", &[("small_p50", 15.5164), ("precision", 1.0), ("recall", 1.0), ("jfi", 0.701129), ("delay_ms", 108.135)]),
    ("warbler-mice", "warbler", &[("small_p50", 1.28805), ("precision", 1.0), ("recall", 1.0), ("jfi", 0.98274), ("delay_ms", 64.5717)]),
    ("vegas-newreno-mix", "7v1n-fifo", &[("jfi", 0.143442), ("delay_ms", 56.1797), ("jitter_ms", 16.3601), ("buffer_cells", 4677.36)]),
    ("vegas-newreno-mix", "7v1n-fq-codel", &[("jfi", 0.999908), ("delay_ms", 2.18892), ("jitter_ms", 1.27893), ("buffer_cells", 181.6)]),
    ("vegas-newreno-mix", "7v1n-cebinae", &[("jfi", 0.987944), ("delay_ms", 2.34818), ("jitter_ms", 2.96751), ("buffer_cells", 185.436)]),
    ("vegas-newreno-mix", "7v1n-fq", &[("jfi", 0.999999), ("delay_ms", 31.9569), ("jitter_ms", 5.93516), ("buffer_cells", 2664.38)]),
    ("vegas-newreno-mix", "7v1n-2q", &[("jfi", 0.437197), ("delay_ms", 29.9067), ("jitter_ms", 8.19565), ("buffer_cells", 2489.56)]),
    ("vegas-newreno-mix", "7v1n-4q", &[("jfi", 0.80512), ("delay_ms", 15.7239), ("jitter_ms", 5.01237), ("buffer_cells", 1308.11)]),
    ("vegas-newreno-mix", "7v1n-8q", &[("jfi", 1.0), ("delay_ms", 8.67978), ("jitter_ms", 2.51859), ("buffer_cells", 722.727)]),
    ("vegas-newreno-mix", "7v1n-warbler-2q", &[("jfi", 0.971438), ("delay_ms", 30.6831), ("jitter_ms", 14.4225), ("buffer_cells", 2552.82)]),
    ("vegas-newreno-mix", "7v1n-warbler-4q", &[("jfi", 0.999114), ("delay_ms", 16.2195), ("jitter_ms", 4.32751), ("buffer_cells", 1349.33)]),
    ("vegas-newreno-mix", "7v1n-warbler-8q", &[("jfi", 1.0), ("delay_ms", 8.67978), ("jitter_ms", 2.51859), ("buffer_cells", 722.727)]),
    ("vegas-newreno-mix", "6v2n-fifo", &[("jfi", 0.280315), ("delay_ms", 57.3873), ("jitter_ms", 14.5015), ("buffer_cells", 4777.62)]),
    ("vegas-newreno-mix", "6v2n-fq-codel", &[("jfi", 0.999728), ("delay_ms", 2.50038), ("jitter_ms", 1.77714), ("buffer_cells", 209.273)]),
    ("vegas-newreno-mix", "6v2n-cebinae", &[("jfi", 0.981695), ("delay_ms", 2.72237), ("jitter_ms", 4.11057), ("buffer_cells", 213.691)]),
    ("vegas-newreno-mix", "6v2n-fq", &[("jfi", 0.999998), ("delay_ms", 46.1013), ("jitter_ms", 12.9148), ("buffer_cells", 3848.93)]),
    ("vegas-newreno-mix", "6v2n-2q", &[("jfi", 0.280234), ("delay_ms", 57.5398), ("jitter_ms", 15.5604), ("buffer_cells", 4790.05)]),
    ("vegas-newreno-mix", "6v2n-4q", &[("jfi", 0.688059), ("delay_ms", 29.1035), ("jitter_ms", 9.67936), ("buffer_cells", 2420.71)]),
    ("vegas-newreno-mix", "6v2n-8q", &[("jfi", 1.0), ("delay_ms", 15.3664), ("jitter_ms", 4.56368), ("buffer_cells", 1279.53)]),
    ("vegas-newreno-mix", "6v2n-warbler-2q", &[("jfi", 0.982566), ("delay_ms", 32.2035), ("jitter_ms", 8.78544), ("buffer_cells", 2682.09)]),
    ("vegas-newreno-mix", "6v2n-warbler-4q", &[("jfi", 0.998367), ("delay_ms", 15.7353), ("jitter_ms", 9.03318), ("buffer_cells", 1307.18)]),
    ("vegas-newreno-mix", "6v2n-warbler-8q", &[("jfi", 1.0), ("delay_ms", 15.3664), ("jitter_ms", 4.56368), ("buffer_cells", 1279.53)]),
    ("vegas-newreno-mix", "1v7n-fifo", &[("jfi", 0.811527), ("delay_ms", 65.2228), ("jitter_ms", 8.73809), ("buffer_cells", 5432.11)]),
    ("vegas-newreno-mix", "1v7n-fq-codel", &[("jfi", 0.998985), ("delay_ms", 3.56894), ("jitter_ms", 4.42936), ("buffer_cells", 296.291)]),
    ("vegas-newreno-mix", "1v7n-cebinae", &[("jfi", 0.994986), ("delay_ms", 4.39817), ("jitter_ms", 6.16436), ("buffer_cells", 335.509)]),
    ("vegas-newreno-mix", "1v7n-fq", &[("jfi", 1.0), ("delay_ms", 69.5806), ("jitter_ms", 20.2292), ("buffer_cells", 5793.05)]),
    ("vegas-newreno-mix", "1v7n-2q", &[("jfi", 0.853066), ("delay_ms", 64.4257), ("jitter_ms", 8.18704), ("buffer_cells", 5360.56)]),
    ("vegas-newreno-mix", "1v7n-4q", &[("jfi", 0.803158), ("delay_ms", 59.8805), ("jitter_ms", 12.4774), ("buffer_cells", 4983.71)]),
    ("vegas-newreno-mix", "1v7n-8q", &[("jfi", 1.0), ("delay_ms", 48.7994), ("jitter_ms", 14.8482), ("buffer_cells", 4061.36)]),
    ("vegas-newreno-mix", "1v7n-warbler-2q", &[("jfi", 0.936276), ("delay_ms", 36.2629), ("jitter_ms", 36.2228), ("buffer_cells", 3016.89)]),
    ("vegas-newreno-mix", "1v7n-warbler-4q", &[("jfi", 0.997507), ("delay_ms", 28.5983), ("jitter_ms", 28.633), ("buffer_cells", 2380.07)]),
    ("vegas-newreno-mix", "1v7n-warbler-8q", &[("jfi", 1.0), ("delay_ms", 48.7994), ("jitter_ms", 14.8482), ("buffer_cells", 4061.36)]),
    ("ack-congestion", "download", &[("flow0_mbps", 9.63645), ("rtt_ms", 128.629), ("up_delay_ms", 0.0)]),
    ("ack-congestion", "with-upload", &[("flow0_mbps", 1.38081), ("rtt_ms", 579.592), ("up_delay_ms", 441.229)]),
    ("ack-congestion", "with-upload-fq-codel", &[("flow0_mbps", 9.62004), ("rtt_ms", 124.284), ("up_delay_ms", 8.16631)]),
    ("two-bottlenecks", "fq-codel-shaped", &[("home_delay_ms", 7.62246), ("modem_delay_ms", 0.0), ("mbps", 8.66134), ("jfi", 0.999244)]),
    ("two-bottlenecks", "fq-codel-unshaped", &[("home_delay_ms", 2.73219e-05), ("modem_delay_ms", 308.185), ("mbps", 9.45114), ("jfi", 0.95943)]),
    ("two-bottlenecks", "isp-fq-codel", &[("home_delay_ms", 0.000200452), ("modem_delay_ms", 7.44927), ("mbps", 9.56652), ("jfi", 0.999012)]),
    ("two-bottlenecks", "isp-fq-codel-shaped", &[("home_delay_ms", 344.491), ("modem_delay_ms", 0.0), ("mbps", 8.64285), ("jfi", 0.955236)]),
    ("dqn-dumbbell", "dqn", &[("mbps", 1.76108), ("rtt_ms", 41.9722), ("losses", 0.0)]),
    ("dqn-dumbbell", "cubic", &[("mbps", 1.75165), ("rtt_ms", 442.934), ("losses", 394.0)]),
    ("dqn-dumbbell", "newreno", &[("mbps", 1.76494), ("rtt_ms", 450.444), ("losses", 131.0)]),
];

/// The figure `name` this app shows for `preset`/`variant`, if the table has it.
pub fn app_figure(preset: &str, variant: &str, name: &str) -> Option<f64> {
    let (_, _, figures) = APP_FIGURES.iter().find(|(p, v, _)| *p == preset && *v == variant)?;
    figures.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}
