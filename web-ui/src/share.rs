//! Sharing a scenario: through the URL fragment and through JSON files. An unmodified preset
//! travels as its name (`#p=red-study/gentle`), an edited one as base64url JSON with the preset
//! it came from (`#s=…&from=red-study/gentle`). Imports are size-limited and validated
//! before anything is replaced.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use sim_core::scenario::{preset, Scenario};

/// Largest scenario text accepted from a link or a file.
pub const MAX_SCENARIO_BYTES: usize = 64 * 1024;

/// A preset and variant, e.g. ("red-study", "gentle").
pub type Origin = (String, String);

/// What a link carries.
#[derive(Clone, Debug, PartialEq)]
pub struct Shared {
    pub scenario: Scenario,
    /// The preset it is, or was edited from.
    pub origin: Option<Origin>,
    /// Whether it differs from that preset.
    pub modified: bool,
}

fn split_origin(key: &str) -> Option<Origin> {
    key.split_once('/').map(|(p, v)| (p.to_string(), v.to_string()))
}

/// The fragment (without '#') for `sc`, edited or not from `origin`.
pub fn to_fragment(sc: &Scenario, origin: Option<&Origin>, modified: bool) -> String {
    match origin {
        Some((p, v)) if !modified => format!("p={p}/{v}"),
        _ => {
            let v = serde_json::to_value(sc).expect("scenario serialises");
            let json = serde_json::to_string(&v).expect("values serialise");
            let mut f = format!("s={}", URL_SAFE_NO_PAD.encode(json.as_bytes()));
            if let Some((p, v)) = origin {
                f.push_str(&format!("&from={p}/{v}"));
            }
            f
        }
    }
}

/// Reads a fragment written by [`to_fragment`]; `Ok(None)` when it carries no scenario.
pub fn from_fragment(fragment: &str) -> Result<Option<Shared>, String> {
    let fragment = fragment.trim_start_matches('#');
    let mut payload = None;
    let mut from = None;
    let mut named = None;
    for part in fragment.split('&') {
        if let Some(p) = part.strip_prefix("s=") {
            payload = Some(p);
        } else if let Some(f) = part.strip_prefix("from=") {
            from = split_origin(f);
        } else if let Some(p) = part.strip_prefix("p=") {
            named = Some(p);
        }
    }
    if let Some(key) = named {
        let (p, v) =
            split_origin(key).ok_or_else(|| format!("the link names no preset variant ('{key}')"))?;
        let scenario = preset(&p, Some(&v))?;
        return Ok(Some(Shared { scenario, origin: Some((p, v)), modified: false }));
    }
    let Some(payload) = payload else { return Ok(None) };
    if payload.len() > MAX_SCENARIO_BYTES * 4 / 3 + 4 {
        return Err(format!("the link's scenario is larger than {} KiB", MAX_SCENARIO_BYTES / 1024));
    }
    let bytes = URL_SAFE_NO_PAD.decode(payload).map_err(|e| format!("the link is damaged ({e})"))?;
    let text = String::from_utf8(bytes).map_err(|_| "the link's scenario is not text".to_string())?;
    let scenario = parse_checked(&text)?;
    let modified = from.as_ref().is_none_or(|(p, v)| preset(p, Some(v)).map_or(true, |s| s != scenario));
    Ok(Some(Shared { scenario, origin: from, modified }))
}

/// Parses and validates scenario JSON from an untrusted source.
pub fn parse_checked(text: &str) -> Result<Scenario, String> {
    if text.len() > MAX_SCENARIO_BYTES {
        return Err(format!(
            "the scenario is {} KiB; the limit is {} KiB",
            text.len() / 1024,
            MAX_SCENARIO_BYTES / 1024
        ));
    }
    let sc = Scenario::from_json(text)?;
    sc.validate().map_err(|errs| {
        let list: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        format!("the scenario has invalid fields: {}", list.join("; "))
    })?;
    Ok(sc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unmodified_preset_travels_by_name() {
        let sc = preset("red-study", Some("gentle")).unwrap();
        let origin = ("red-study".to_string(), "gentle".to_string());
        let f = to_fragment(&sc, Some(&origin), false);
        assert_eq!(f, "p=red-study/gentle");
        let back = from_fragment(&format!("#{f}")).unwrap().unwrap();
        assert_eq!(back, Shared { scenario: sc, origin: Some(origin), modified: false });
    }

    #[test]
    fn an_edited_scenario_round_trips_with_its_origin() {
        let mut sc = preset("red-study", Some("ared-nic1")).unwrap();
        sc.seed = 42;
        sc.flows[0].stop_s = Some(30.5);
        let origin = ("red-study".to_string(), "ared-nic1".to_string());
        let back = from_fragment(&to_fragment(&sc, Some(&origin), true)).unwrap().unwrap();
        assert_eq!(back.scenario, sc);
        assert_eq!(back.origin, Some(origin));
        assert!(back.modified);
    }

    #[test]
    fn invalid_or_oversized_imports_are_refused() {
        let mut sc = preset("red-study", None).unwrap();
        sc.duration_s = -3.0;
        assert!(from_fragment(&to_fragment(&sc, None, true)).unwrap_err().contains("duration_s"));
        assert!(parse_checked(&" ".repeat(MAX_SCENARIO_BYTES + 1)).is_err());
        assert!(from_fragment("s=%%%").is_err());
        assert!(from_fragment("p=nope/x").is_err());
        assert_eq!(from_fragment("other=1").unwrap(), None);
        assert!(parse_checked("[]").unwrap_err().contains("expected a JSON object"));
    }

    #[test]
    fn a_share_link_written_in_version_1_still_loads() {
        let v1 = r#"{"version": 1, "bottleneck": {"rate_bps": 3000000}, "bottleneck_name": "home",
            "changes": [{"at_s": 2.0, "set": "bottleneck.rate_bps", "to": 1000000}]}"#;
        let sc = from_fragment(&format!("s={}", URL_SAFE_NO_PAD.encode(v1))).unwrap().unwrap().scenario;
        assert_eq!((sc.bottleneck.as_str(), sc.bottleneck().rate_bps), ("home", 3_000_000));
        assert_eq!(sc.changes[0].set, "links.home.rate_bps");
    }

    #[test]
    fn pasted_infinity_and_keys_given_twice_are_refused_by_path() {
        let json = preset("red-study", None).unwrap().to_json();
        let rate = json.lines().find(|l| l.contains("\"rate_bps\"")).unwrap();
        let e = parse_checked(&json.replacen(rate, "\"rate_bps\": Infinity,", 1)).unwrap_err();
        assert!(
            e.starts_with("links.bottleneck.rate_bps: Infinity is not a finite number")
                && e.contains("allowed"),
            "{e}"
        );
        let e = parse_checked(&json.replacen(rate, &format!("{rate}\n{rate}"), 1)).unwrap_err();
        assert!(e.starts_with("links.bottleneck.rate_bps: the key \"rate_bps\" appears twice"), "{e}");
        // A share link carries the same text, so it is refused the same way.
        let f = format!("s={}", URL_SAFE_NO_PAD.encode(json.replacen(rate, "\"rate_bps\": NaN,", 1)));
        assert!(from_fragment(&f).unwrap_err().starts_with("links.bottleneck.rate_bps: NaN"));
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::*;
    use aqm_tests::random::valid_scenario;
    use proptest::prelude::*;
    use sim_core::scenario::preset_list;

    fn origins() -> Vec<Origin> {
        preset_list()
            .iter()
            .flat_map(|p| p.variants.iter().map(move |v| (p.name.to_string(), v.to_string())))
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(
            std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(128)
        ))]

        /// An edited scenario travels as base64url JSON in the fragment: URL-safe characters
        /// only, and it comes back equal, with its origin, flagged modified unless it equals
        /// that preset.
        #[test]
        fn an_edited_scenario_survives_its_share_link(
            sc in valid_scenario(),
            origin in prop::option::of(prop::sample::select(origins())),
        ) {
            let f = to_fragment(&sc, origin.as_ref(), true);
            prop_assert!(
                f.chars().all(|c| c.is_ascii_alphanumeric() || "-_=&/.".contains(c)),
                "not URL-safe: {f}"
            );
            let back = from_fragment(&format!("#{f}")).map_err(TestCaseError::fail)?.unwrap();
            let is_preset = origin.as_ref().is_some_and(|(p, v)| preset(p, Some(v)).ok() == Some(sc.clone()));
            prop_assert_eq!(back, Shared { scenario: sc, origin, modified: !is_preset });
        }

        /// An unmodified preset travels by name and comes back as that preset.
        #[test]
        fn an_unmodified_preset_survives_its_share_link(origin in prop::sample::select(origins())) {
            let sc = preset(&origin.0, Some(&origin.1)).unwrap();
            let back = from_fragment(&to_fragment(&sc, Some(&origin), false)).map_err(TestCaseError::fail)?;
            prop_assert_eq!(back, Some(Shared { scenario: sc, origin: Some(origin), modified: false }));
        }
    }
}
