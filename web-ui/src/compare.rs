//! Compare mode: the current scenario run with different queue discs side by side.

use sim_core::aqm::QueueDiscSpec;
use sim_core::scenario::Scenario;

/// Picker entries of every registered discipline: (key, label). RED's flavours (ARED,
/// Gentle) are entries of their own.
pub fn discs() -> Vec<(&'static str, &'static str)> {
    QueueDiscSpec::FAMILY.entries().into_iter().map(|(key, label, _)| (key, label)).collect()
}

/// `sc` with its bottleneck disc replaced by picker entry `key`, keeping the buffer (in the
/// new disc's unit, with the scenario's packet size) and, within one algorithm (RED → ARED),
/// every parameter already set.
pub fn with_disc(sc: &Scenario, key: &str) -> Scenario {
    with_disc_remembered(sc, key, None)
}

/// As [`with_disc`], but a different algorithm starts from `remembered` (what the user had
/// typed into it before switching away) instead of its defaults.
pub fn with_disc_remembered(sc: &Scenario, key: &str, remembered: Option<&serde_json::Value>) -> Scenario {
    let mut out = sc.clone();
    let family = &QueueDiscSpec::FAMILY;
    let Some((_, _, tag)) = family.entries().into_iter().find(|e| e.0 == key) else { return out };
    let current = &sc.bottleneck().queue;
    let same = current.tag() == tag;
    let mut v = match (same, remembered) {
        (true, _) => current.to_value(),
        (false, Some(r)) => r.clone(),
        (false, None) => family.default_value_of(tag),
    };
    if let Some(flags) = family.member(tag).and_then(|a| a.flavours.iter().find(|f| f.key == key)) {
        for (k, b) in flags.flags {
            v[*k] = serde_json::Value::Bool(*b);
        }
    }
    let Ok(mut spec) = QueueDiscSpec::from_value(v) else { return out };
    if !same && remembered.is_none() {
        spec.get_mut().set_limit(current.limit(), sc.full_packet_bytes());
    }
    out.bottleneck_mut().queue = spec;
    out.name = format!("{} [{key}]", sc.name);
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
    fn every_listed_disc_builds_a_valid_scenario_of_its_own_kind() {
        let red = preset("red-study", Some("red")).unwrap();
        for (key, _) in discs() {
            let sc = with_disc(&red, key);
            assert_eq!(sc.validate(), Ok(()), "{key}");
            assert_eq!(sc.bottleneck().queue.name(), key);
        }
    }

    #[test]
    fn cebinae_picked_for_rtt_unfair_is_the_presets_cebinae() {
        // The library default is what the presets justify (20 ms rounds, recomputed every
        // 10), so picking Cebinae in Compare runs the paper's Cebinae, not a starving one.
        let fifo = preset("rtt-unfair", Some("fifo")).unwrap();
        let picked = with_disc(&fifo, "cebinae");
        let paper = preset("rtt-unfair", Some("cebinae")).unwrap();
        assert_eq!(picked.bottleneck().queue.to_value(), paper.bottleneck().queue.to_value());
    }

    #[test]
    fn fifo_keeps_the_buffer_limit() {
        let red = preset("red-study", Some("gentle")).unwrap();
        let f = with_disc(&red, "fifo");
        assert_eq!(f.bottleneck().queue.limit(), red.bottleneck().queue.limit());
        assert_eq!(f.validate(), Ok(()));
    }
}
