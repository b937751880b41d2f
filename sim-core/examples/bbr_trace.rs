//! Samples one flow's congestion-control state beside the bottleneck's queue every `period_s`,
//! with the same columns as ns-3's `dumbbell --bbrTrace` (tests/ns3/dumbbell.cc), so the two
//! simulators' BBR can be read side by side:
//! `aqmsim scenario ... > sc.json; cargo run --release --example bbr_trace -- sc.json [flow] [period_s]`
//! (CSV on stdout). Columns the model does not have are left empty.

use sim_core::scenario::Scenario;
use sim_core::sim::Simulation;
use sim_core::time::SimTime;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: bbr_trace FILE [flow] [period_s]");
    let flow: u32 = args.next().map_or(0, |a| a.parse().expect("flow"));
    let period: f64 = args.next().map_or(0.01, |a| a.parse().expect("period_s"));
    let text = std::fs::read_to_string(&path).expect("read scenario");
    let sc = Scenario::from_json(&text).expect("parse scenario");
    let mut sim = Simulation::new(&sc).expect("valid scenario");
    println!(
        "time_s,state,cycle_index,pacing_gain,cwnd_gain,btlbw_bps,min_rtt_ms,target_cwnd,extra_acked,cwnd,inflight,pacing_bps,queue_pkts"
    );
    let mut k = 1u64;
    loop {
        let t = k as f64 * period;
        if t > sc.duration_s + 1e-9 {
            break;
        }
        sim.step_until(SimTime::from_secs_f64(t));
        let m = sim.cc_metrics(flow).expect("flow");
        let g = |n: &str| m.get(n).map_or(String::new(), |v| format!("{v}"));
        let s = sim.sender(flow);
        println!(
            "{t:.2},{},,{},{},{},{},,,{},{},{},{}",
            m.mode.unwrap_or(""),
            g("pacing_gain"),
            g("cwnd_gain"),
            g("btl_bw_bps"),
            g("rt_prop_ms"),
            s.cwnd(),
            s.bytes_in_flight(),
            g("pacing_rate_bps"),
            sim.bottleneck_occupancy().packets
        );
        k += 1;
    }
}
