use super::*;
use crate::scenario::preset;

#[test]
fn a_short_red_study_run_conserves_packets() {
    let mut sc = preset("red-study", Some("red")).unwrap();
    sc.duration_s = 5.0;
    let mut sim = Simulation::new(&sc).unwrap();
    let s = sim.finish();
    let c = s.packets;
    assert_eq!(c.sent, c.delivered + c.dropped + c.in_flight);
    assert!(c.delivered > 1000);
}
