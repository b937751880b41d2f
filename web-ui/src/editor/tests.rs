use super::*;
use sim_core::scenario::fields::{FLOW_FIELDS, LINK_FIELDS, RUN_FIELDS};
use sim_core::scenario::preset;

fn red() -> Editor {
    let sc = preset("red-study", Some("red")).unwrap();
    Editor::new(&sc).with_preset(&sc)
}

fn of(fields: &[Field], key: &str) -> Input {
    Input::of(fields.iter().find(|f| f.path == key).unwrap()).unwrap()
}

fn rate() -> Input {
    of(LINK_FIELDS, "rate_bps")
}

fn red_field(key: &str) -> Input {
    of(QueueDiscSpec::FAMILY.member("red").unwrap().fields, key)
}

#[test]
fn a_preset_is_runnable() {
    assert!(red().is_runnable());
}

#[test]
fn unparsable_text_is_kept_and_blocks_the_run() {
    let mut e = red();
    e.edit("links.bottleneck.rate_bps", "2 Mbits", rate());
    assert_eq!(e.text("links.bottleneck.rate_bps"), "2 Mbits");
    let msg = e.error_for("links.bottleneck.rate_bps").unwrap();
    assert!(msg.starts_with("Rate takes a rate: bit/s") && msg.contains("'2 Mbits'"), "{msg}");
    assert!(!e.is_runnable());
    e.edit("links.bottleneck.rate_bps", "3 Mbit/s", rate());
    assert!(e.is_runnable());
    assert_eq!(e.scenario().unwrap().bottleneck().rate_bps, 3_000_000);
}

#[test]
fn typed_units_are_converted_into_the_fields_unit() {
    let mut e = red();
    e.edit("links.bottleneck.rate_bps", "2 MB/s", rate());
    e.edit("links.bottleneck.delay_ms", "0.02 s", of(LINK_FIELDS, "delay_ms"));
    e.edit("warmup_s", "500 ms", of(RUN_FIELDS, "warmup_s"));
    e.edit("flows[0].size_bytes", "1.5 kB", of(FLOW_FIELDS, "size_bytes"));
    e.edit("flows[0].access_delay_ms", "20 us", of(FLOW_FIELDS, "access_delay_ms"));
    let sc = e.scenario().unwrap();
    assert_eq!(sc.bottleneck().rate_bps, 16_000_000);
    // Exactly: decimal arithmetic, one rounding to f64.
    assert_eq!((sc.bottleneck().delay_ms, sc.warmup_s, sc.flows[0].access_delay_ms), (20.0, 0.5, 0.02));
    assert_eq!(sc.flows[0].size_bytes, Some(1500));
    e.edit("flows[0].size_bytes", "10 kbit", of(FLOW_FIELDS, "size_bytes"));
    assert_eq!(e.scenario().unwrap().flows[0].size_bytes, Some(1250));
    assert_eq!(e.text("links.bottleneck.rate_bps"), "2 MB/s", "what was typed stays as typed");
    assert!(e.is_runnable());
}

#[test]
fn a_unit_the_field_cannot_take_is_refused_with_the_units_it_takes() {
    let mut e = red();
    e.edit("links.bottleneck.delay_ms", "5 Mbit/s", of(LINK_FIELDS, "delay_ms"));
    let msg = e.error_for("links.bottleneck.delay_ms").unwrap();
    assert!(msg.starts_with("Delay takes a time: s, ms, µs"), "{msg}");
    e.edit("flows[0].size_bytes", "1 bit", of(FLOW_FIELDS, "size_bytes"));
    let msg = e.error_for("flows[0].size_bytes").unwrap();
    assert!(msg.contains("whole number of bytes") && msg.contains("0.125 bytes"), "{msg}");
    e.edit("links.bottleneck.rate_bps", "10 mbit/s", rate());
    assert!(e.error_for("links.bottleneck.rate_bps").unwrap().contains("M for mega"));
}

#[test]
fn the_seed_takes_every_u64_and_says_its_range() {
    let mut e = red();
    let seed = of(RUN_FIELDS, "seed");
    e.edit("seed", "18446744073709551615", seed);
    assert_eq!(e.scenario().unwrap().seed, u64::MAX);
    e.edit("seed", "12345678901234567891", seed);
    assert_eq!(e.scenario().unwrap().seed, 12_345_678_901_234_567_891, "every digit kept");
    e.edit("seed", "1.5", seed);
    let msg = e.error_for("seed").unwrap();
    assert!(msg.starts_with("Seed must be a whole number from 0 to 18446744073709551615;"), "{msg}");
    e.edit("seed", "18446744073709551616", seed);
    let msg = e.error_for("seed").unwrap();
    assert!(
        msg.starts_with("Seed is too large: it must be a whole number from 0 to 18446744073709551615"),
        "{msg}"
    );
    assert!(!msg.contains("not a whole number"), "{msg}");
    assert!(!e.is_runnable());
}

#[test]
fn out_of_range_values_get_the_validators_message_on_their_field() {
    let mut e = red();
    e.edit("links.bottleneck.delay_ms", "-4", of(LINK_FIELDS, "delay_ms"));
    let msg = e.error_for("links.bottleneck.delay_ms").unwrap();
    assert!(msg.contains("-4") && msg.contains("allowed"), "{msg}");
    assert!(!e.is_runnable());
    assert_eq!(e.text("links.bottleneck.delay_ms"), "-4");
}

#[test]
fn optional_fields_accept_empty_text_as_none() {
    let mut e = red();
    let stop = of(FLOW_FIELDS, "stop_s");
    e.edit("flows[0].stop_s", "30", stop);
    assert_eq!(e.scenario().unwrap().flows[0].stop_s, Some(30.0));
    e.edit("flows[0].stop_s", "", stop);
    assert_eq!(e.scenario().unwrap().flows[0].stop_s, None);
}

#[test]
fn integer_lists_parse_from_commas_and_spaces() {
    let mut e = Editor::new(&Scenario::default());
    e.set("links.bottleneck.queue", QueueDiscSpec::Switch(Default::default()).to_value());
    let weights = of(QueueDiscSpec::FAMILY.member("switch").unwrap().fields, "weights");
    e.edit("links.bottleneck.queue.weights", "1, 3", weights);
    assert_eq!(e.text("links.bottleneck.queue.weights"), "1, 3");
    assert!(e.is_runnable());
    e.edit("links.bottleneck.queue.weights", "1, x", weights);
    assert!(!e.is_runnable());
}

#[test]
fn flow_groups_can_be_added_duplicated_and_removed() {
    let mut e = red();
    e.add_flow_group();
    assert_eq!(e.flow_groups(), 2);
    e.duplicate_flow_group(0);
    assert_eq!(e.scenario().unwrap().flows[1].count, 10);
    e.remove_flow_group(0);
    e.remove_flow_group(0);
    assert_eq!(e.flow_groups(), 1);
    assert!(e.is_runnable());
}

#[test]
fn removing_a_group_moves_the_later_groups_text_up() {
    let mut e = red();
    e.add_flow_group();
    e.add_flow_group();
    let count = of(FLOW_FIELDS, "count");
    e.edit("flows[2].count", "many", count);
    e.edit("flows[0].count", "3", count);
    e.remove_flow_group(1);
    assert_eq!(e.text("flows[1].count"), "many");
    assert!(e.error_for("flows[1].count").is_some());
    assert_eq!(e.text("flows[0].count"), "3");
    assert!(!e.is_runnable(), "the refused text still blocks Run");
    e.remove_flow_group(0);
    assert_eq!(e.text("flows[0].count"), "many");
    e.remove_flow_group(0);
    assert_eq!(e.problems().iter().filter(|p| p.path.starts_with("flows[")).count(), 0);
}

#[test]
fn duplicating_a_group_copies_its_text_and_moves_the_later_ones_down() {
    let mut e = red();
    e.add_flow_group();
    let count = of(FLOW_FIELDS, "count");
    e.edit("flows[0].count", "lots", count);
    e.edit("flows[1].count", "7x", count);
    e.duplicate_flow_group(0);
    assert_eq!(
        (e.text("flows[0].count"), e.text("flows[1].count"), e.text("flows[2].count")),
        ("lots".into(), "lots".into(), "7x".into())
    );
    assert!(!e.is_runnable());
    for i in 0..3 {
        e.edit(&format!("flows[{i}].count"), "2", count);
    }
    assert!(e.is_runnable());
}

#[test]
fn switching_discs_and_back_keeps_what_was_typed() {
    let mut e = red();
    e.edit("links.bottleneck.queue.min_th", "7", red_field("min_th"));
    e.edit("links.bottleneck.queue.max_th", "21", red_field("max_th"));
    e.swap_disc("links.bottleneck.queue", "codel");
    assert_eq!(e.scenario().unwrap().bottleneck().queue.tag(), "codel");
    e.swap_disc("links.bottleneck.queue", "switch");
    e.swap_disc("links.bottleneck.queue", "red");
    let v = e.scenario().unwrap().bottleneck().queue.to_value();
    assert_eq!((v["min_th"].as_f64(), v["max_th"].as_f64()), (Some(7.0), Some(21.0)));
    assert_eq!(v["limit"], serde_json::json!({ "packets": 100 }));
}

#[test]
fn a_refused_text_of_a_disc_not_selected_is_kept_but_does_not_block_run() {
    let mut e = red();
    e.edit("links.bottleneck.queue.max_p", "a lot", red_field("max_p"));
    assert!(!e.is_runnable());
    e.swap_disc("links.bottleneck.queue", "codel");
    assert!(e.is_runnable(), "CoDel runs: RED's text is not used");
    assert!(e.problems().is_empty());
    e.swap_disc("links.bottleneck.queue", "ared");
    assert_eq!(e.text("links.bottleneck.queue.max_p"), "a lot");
    assert!(e.error_for("links.bottleneck.queue.max_p").is_some());
    assert!(!e.is_runnable());
    // Within one algorithm (ARED → Gentle RED) the text stays where it is.
    e.swap_disc("links.bottleneck.queue", "gentle");
    assert_eq!(e.text("links.bottleneck.queue.max_p"), "a lot");
    assert!(!e.is_runnable());
}

#[test]
fn another_cca_and_back_restores_what_was_typed_into_it() {
    let mut e = red();
    let cubic = of(sim_core::cc::CcaSpec::FAMILY.member("cubic").unwrap().fields, "beta");
    e.edit("flows[0].cca.beta", "half", cubic);
    let vegas = sim_core::cc::CcaSpec::FAMILY.default_value_of("vegas");
    e.choose("flows[0].cca", "vegas", vegas);
    assert!(e.is_runnable());
    e.choose("flows[0].cca", "cubic", serde_json::json!({ "type": "cubic" }));
    assert_eq!(e.text("flows[0].cca.beta"), "half");
    assert!(!e.is_runnable());
}

#[test]
fn a_buffer_in_other_units_keeps_a_refused_text_for_its_unit() {
    let mut e = red();
    let packets = Input { kind: Kind::Int, unit: "packets", label: "Buffer", range: None };
    e.edit("links.bottleneck.queue.limit.packets", "lots", packets);
    e.set("links.bottleneck.queue.limit", serde_json::json!({ "bytes": 150_000 }));
    assert!(e.is_runnable());
    e.set("links.bottleneck.queue.limit", serde_json::json!({ "packets": 100 }));
    assert_eq!(e.text("links.bottleneck.queue.limit.packets"), "lots");
    assert!(!e.is_runnable());
}

#[test]
fn a_count_too_large_for_its_field_is_named() {
    let mut e = red();
    e.edit("flows[0].count", "5000000000", of(FLOW_FIELDS, "count"));
    let msg = e.error_for("flows[0].count").expect("the count's own input is marked");
    assert!(msg.contains("5000000000") && msg.contains("too large"), "{msg}");
    assert!(!e.is_runnable());
}

#[test]
fn the_list_names_places_in_words_and_has_no_control_characters() {
    let mut e = red();
    e.edit("flows[0].count", "5000000000", of(FLOW_FIELDS, "count"));
    e.edit("links.bottleneck.rate_bps", "0", rate());
    let list = e.problems();
    let texts: Vec<&str> = list.iter().map(|p| p.text.as_str()).collect();
    assert_eq!(list.len(), 2, "{texts:?}");
    assert!(texts.iter().any(|t| t.starts_with("Bottleneck › Rate: 0 is out of range")), "{texts:?}");
    assert!(texts.iter().any(|t| t.starts_with("Flow group 1 › Flows is too large")), "{texts:?}");
    for t in &texts {
        assert!(!t.chars().any(char::is_control), "{t:?}");
        assert!(!t.contains("rate_bps") && !t.contains("flows[0]"), "{t}");
    }
    assert_eq!(
        list.iter().find(|p| p.place == "Bottleneck › Rate").unwrap().path,
        "links.bottleneck.rate_bps"
    );
}

#[test]
fn an_entry_goes_when_its_field_is_fixed_or_reverted() {
    let mut e = red();
    let delay = of(LINK_FIELDS, "delay_ms");
    e.edit("links.bottleneck.delay_ms", "-4", delay);
    e.edit("links.bottleneck.delay_ms", "-4x", delay);
    let list = e.problems();
    assert_eq!(list.len(), 1, "the -4 never finished is not listed beside -4x: {list:?}");
    assert!(list[0].text.contains("'-4x'"));
    e.edit("links.bottleneck.delay_ms", "10", delay);
    assert!(e.problems().is_empty());
    assert!(e.is_runnable());
}

#[test]
fn hints_read_the_presets_values_where_the_preset_has_them() {
    let sc = preset("red-study", Some("red")).unwrap();
    let mut edited = sc.clone();
    edited.bottleneck_mut().rate_bps = 5_000_000;
    let mut e = Editor::new(&edited).with_preset(&sc);
    assert_eq!(e.preset_value("links.bottleneck.rate_bps"), Some(&Value::from(2_000_000)));
    assert_eq!(e.preset_value("links.bottleneck.queue.min_th"), Some(&Value::from(5.0)));
    e.add_flow_group();
    assert_eq!(e.preset_value("flows[1].count"), None, "a new group is no preset's");
    e.remove_flow_group(0);
    assert_eq!(e.preset_value("flows[0].count"), None);
    e.duplicate_flow_group(0);
    e.swap_disc("links.bottleneck.queue", "codel");
    assert_eq!(e.preset_value("links.bottleneck.queue.target_ms"), None, "the preset has no CoDel");
    assert_eq!(Editor::new(&sc).preset_value("links.bottleneck.rate_bps"), None);
}

#[test]
fn a_rule_between_fields_also_marks_the_field_typed_into() {
    let mut e = red();
    e.edit("links.bottleneck.queue.min_th", "50", red_field("min_th"));
    assert!(e.error_for("links.bottleneck.queue.max_th").is_some());
    let msg = e.error_for("links.bottleneck.queue.min_th").expect("minTh is marked too");
    assert!(msg.contains("Queue disc › maxTh = 10") && msg.contains("minTh = 50"), "{msg}");
}

#[test]
fn a_link_can_be_added_to_every_presets_scenario() {
    for p in sim_core::scenario::preset_list() {
        let sc = sim_core::scenario::preset(p.name, None).unwrap();
        let mut e = Editor::new(&sc).with_preset(&sc);
        assert!(e.add_link().is_some(), "{}: {:?}", p.name, e.problems());
    }
}
