//! Every change of one flow's sender state, event by event: time, cwnd, ssthresh, state,
//! SND.UNA, SND.NXT, SACKed, lost, retransmitted, pipe (segments), RTO and its deadline, the
//! flow's counters (sent, retransmissions, timeouts, fast recoveries):
//! `aqmsim scenario ... > sc.json; cargo run --release --example tcp_trace -- sc.json FLOW [from_s] [to_s]`
//! (CSV on stdout).

use sim_core::scenario::Scenario;
use sim_core::sim::Simulation;
use sim_core::time::SimTime;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: tcp_trace FILE FLOW [from_s] [to_s]");
    let flow: u32 = args.next().map_or(0, |a| a.parse().expect("flow"));
    let from: f64 = args.next().map_or(0.0, |a| a.parse().expect("from_s"));
    let to: f64 = args.next().map_or(f64::MAX, |a| a.parse().expect("to_s"));
    let text = std::fs::read_to_string(&path).expect("read scenario");
    let sc = Scenario::from_json(&text).expect("parse scenario");
    let mut sim = Simulation::new(&sc).expect("valid scenario");
    println!("time_s,cwnd,ssthresh,state,una,nxt,sacked,lost,retx,pipe,rto_ms,deadline_s,sent,rexmits,timeouts,frs,srtt_ms");
    let mut last = String::new();
    sim.step_until(SimTime::from_secs_f64(from));
    while !sim.is_finished() && sim.now().as_secs_f64() <= to {
        if sim.run_events(1) == 0 {
            break;
        }
        let s = sim.sender(flow);
        let sb = s.scoreboard();
        let st = s.stats();
        let row = format!(
            "{},{},{:?},{},{},{},{},{},{},{:.1},{},{},{},{},{},{}",
            s.cwnd() / 1448,
            if s.ssthresh() == u32::MAX { -1 } else { i64::from(s.ssthresh() / 1448) },
            s.cong_state(),
            sb.una(),
            sb.nxt(),
            sb.sacked(),
            sb.lost(),
            sb.retransmitted(),
            sb.pipe(),
            s.rto().as_secs_f64() * 1e3,
            s.rto_timer.deadline().map_or(String::new(), |d| format!("{:.4}", d.as_secs_f64())),
            st.segments_sent,
            st.retransmissions,
            st.timeouts,
            st.fast_recoveries,
            s.srtt().map_or(String::new(), |d| format!("{:.1}", d.as_secs_f64() * 1e3)),
        );
        if row != last {
            println!("{:.6},{}", sim.now().as_secs_f64(), row);
            last = row;
        }
    }
}
