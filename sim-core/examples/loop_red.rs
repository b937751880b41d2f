use sim_core::scenario::preset;
use sim_core::sim::Simulation;
fn main() {
    let sc = preset("red-study", Some("red")).unwrap();
    let mut ev = 0;
    for _ in 0..50 {
        ev += Simulation::new(&sc).unwrap().finish().events;
    }
    println!("{ev}");
}
