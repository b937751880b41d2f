use sim_core::scenario::preset;
use sim_core::sim::Simulation;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut sc = preset("red-study", Some(&args[1])).unwrap();
    sc.duration_s = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(60.0);
    let mut sim = Simulation::new(&sc).unwrap();
    sim.finish();
    let r = sim.recorder();
    let mut maxc = vec![0u32; 10];
    for s in &r.samples {
        for (i, c) in s.flow_cwnd_bytes.iter().enumerate() {
            maxc[i] = maxc[i].max(*c / 512);
        }
    }
    println!("max cwnd segs {:?}", maxc);
    for s in r.samples.iter().step_by(5).take(60) {
        println!(
            "{:5.1} nic={:3} q={:3} avg={:5.2} gp={:5.2} cwnd={:?} srtt={:?}",
            s.t_s,
            s.nic_packets,
            s.queue_packets,
            s.queue_avg.unwrap_or(0.0),
            s.goodput_bps / 1e6,
            s.flow_cwnd_bytes.iter().map(|c| c / 512).collect::<Vec<_>>(),
            s.flow_srtt_ms.iter().map(|x| *x as u32).collect::<Vec<_>>()
        );
    }
}
