//! Compare mode: the current scenario run with different queue discs side by side.

use sim_core::aqm::{
    CebinaeConfig, CodelConfig, FqCodelConfig, FqConfig, PieConfig, QueueDiscSpec, QueueLimit, RedConfig,
};
use sim_core::scenario::Scenario;
use sim_core::switch::SwitchConfig;

/// Disciplines the compare view can swap in.
pub const DISCS: &[(&str, &str)] = &[
    ("fifo", "FIFO"),
    ("red", "RED"),
    ("ared", "Adaptive RED"),
    ("gentle", "Gentle RED"),
    ("codel", "CoDel"),
    ("fq_codel", "FQ-CoDel"),
    ("pie", "PIE"),
    ("fq", "Ideal FQ"),
    ("cebinae", "Cebinae"),
    ("switch", "Switch port (multi-queue)"),
];

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
        "codel" => QueueDiscSpec::Codel(CodelConfig { limit, ..CodelConfig::default() }),
        "fq_codel" => QueueDiscSpec::FqCodel(FqCodelConfig { limit, ..FqCodelConfig::default() }),
        "fq" => QueueDiscSpec::Fq(FqConfig { limit, ..FqConfig::default() }),
        "pie" => QueueDiscSpec::Pie(PieConfig { limit, ..PieConfig::default() }),
        "cebinae" => QueueDiscSpec::Cebinae(CebinaeConfig { limit, ..CebinaeConfig::default() }),
        "switch" => match &sc.bottleneck.queue {
            QueueDiscSpec::Switch(s) => QueueDiscSpec::Switch(s.clone()),
            _ => QueueDiscSpec::Switch(switch_for(limit)),
        },
        "ared" => QueueDiscSpec::Red(RedConfig { adaptive: true, gentle: false, ..base }),
        "gentle" => QueueDiscSpec::Red(RedConfig { adaptive: false, gentle: true, ..base }),
        _ => QueueDiscSpec::Red(RedConfig { adaptive: false, gentle: false, ..base }),
    };
    out.name = format!("{} [{disc}]", sc.name);
    out
}

/// Two queues splitting the current buffer, in 160-byte cells.
fn switch_for(limit: QueueLimit) -> SwitchConfig {
    let cell = 160u64;
    let total_cells = match limit {
        QueueLimit::Packets(p) => p as u64 * 1500 / cell,
        QueueLimit::Bytes(b) => b / cell,
        QueueLimit::Cells { cells, cell_bytes } => cells as u64 * cell_bytes as u64 / cell,
    };
    SwitchConfig { queue_limit_cells: (total_cells / 2).max(1) as u32, ..SwitchConfig::default() }
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
        for (key, _) in DISCS {
            let sc = with_disc(&red, key);
            assert_eq!(sc.validate(), Ok(()), "{key}");
            let tag =
                serde_json::to_value(&sc.bottleneck.queue).unwrap()["type"].as_str().unwrap().to_string();
            let expected = if ["ared", "gentle"].contains(key) { "red" } else { key };
            assert_eq!(tag, expected);
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
