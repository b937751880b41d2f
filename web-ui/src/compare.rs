//! Compare mode: the current scenario run with different queue discs side by side.

use sim_core::aqm::{QueueDiscSpec, RedConfig};
use sim_core::scenario::Scenario;

/// Disciplines the compare view can swap in.
pub const DISCS: &[(&str, &str)] =
    &[("fifo", "FIFO"), ("red", "RED"), ("ared", "Adaptive RED"), ("gentle", "Gentle RED")];

/// `sc` with its bottleneck disc replaced by `disc`, keeping the buffer limit and, for the
/// RED family, the thresholds and every other RED parameter already set.
pub fn with_disc(sc: &Scenario, disc: &str) -> Scenario {
    let mut out = sc.clone();
    let limit = sc.bottleneck.queue.limit();
    let base = match &sc.bottleneck.queue {
        QueueDiscSpec::Red(r) => r.clone(),
        _ => RedConfig { limit, ..RedConfig::default() },
    };
    out.bottleneck.queue = match disc {
        "fifo" => QueueDiscSpec::Fifo { limit },
        "ared" => QueueDiscSpec::Red(RedConfig { adaptive: true, gentle: false, ..base }),
        "gentle" => QueueDiscSpec::Red(RedConfig { adaptive: false, gentle: true, ..base }),
        _ => QueueDiscSpec::Red(RedConfig { adaptive: false, gentle: false, ..base }),
    };
    out.name = format!("{} [{disc}]", sc.name);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::scenario::preset;

    #[test]
    fn swapping_discs_on_the_red_study_gives_the_presets_variants() {
        let red = preset("red-study", Some("red")).unwrap();
        for v in ["ared", "gentle", "red"] {
            assert_eq!(
                with_disc(&red, v).bottleneck,
                preset("red-study", Some(v)).unwrap().bottleneck,
                "{v}"
            );
        }
    }

    #[test]
    fn fifo_keeps_the_buffer_limit() {
        let red = preset("red-study", Some("gentle")).unwrap();
        let f = with_disc(&red, "fifo");
        assert_eq!(f.bottleneck.queue.limit(), red.bottleneck.queue.limit());
        assert_eq!(f.validate(), Ok(()));
    }
}
