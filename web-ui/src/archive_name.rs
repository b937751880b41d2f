//! The name of a results zip, after what it holds: the scenario, the lanes when several ran
//! side by side, and how far the run had gone (an export during a run is a partial one, and
//! says so). Plain Rust, tested natively.

/// `aqmlab-<scenario>[-<lane>|-compare-<lanes>][-partial-t<time>s].zip`; `exported_at_s` is
/// the simulated time the files reach (see [`exported_at`]), `end_s` the run's length.
pub fn zip_name(scenario: &str, lanes: &[&str], exported_at_s: Option<f64>, end_s: f64) -> String {
    let mut name = format!("aqmlab-{}", slug(scenario));
    match lanes {
        [] => {}
        [one] => {
            let one = slug(one);
            if !one.is_empty() && !name.ends_with(&one) {
                name = format!("{name}-{one}");
            }
        }
        many => {
            let parts: Vec<String> = many.iter().map(|l| slug(l)).collect();
            name = format!("{name}-compare-{}", parts.join("-"));
        }
    }
    if let Some(t) = exported_at_s.filter(|t| *t < end_s - 1e-6) {
        name = format!("{name}-partial-t{t:.1}s");
    }
    format!("{name}.zip")
}

/// The simulated time an export reaches: the least `duration_s` of its lanes' summaries
/// (`*_summary.json`, written when the export was made); `None` without one.
pub fn exported_at(files: &[(String, String)]) -> Option<f64> {
    files
        .iter()
        .filter(|(name, _)| name.ends_with("_summary.json"))
        .filter_map(|(_, body)| {
            serde_json::from_str::<serde_json::Value>(body).ok()?.get("duration_s")?.as_f64()
        })
        .reduce(f64::min)
}

/// Lower-case letters, digits, `.` and `_`; anything else one `-` ("bufferbloat/fifo
/// [codel]" is "bufferbloat-fifo-codel").
fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() || c == '.' || c == '_' {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finished_run_is_named_after_its_scenario_and_lane() {
        assert_eq!(zip_name("bufferbloat/fifo", &["fifo"], Some(40.0), 40.0), "aqmlab-bufferbloat-fifo.zip");
        assert_eq!(zip_name("my run", &["codel"], Some(40.0), 40.0), "aqmlab-my-run-codel.zip");
    }

    #[test]
    fn compare_and_ab_runs_name_their_lanes() {
        assert_eq!(
            zip_name("bufferbloat/fifo", &["fifo", "codel"], Some(40.0), 40.0),
            "aqmlab-bufferbloat-fifo-compare-fifo-codel.zip"
        );
        assert_eq!(
            zip_name("cubic-vegas-2q/warbler", &["without Warbler", "with Warbler"], None, 60.0),
            "aqmlab-cubic-vegas-2q-warbler-compare-without-warbler-with-warbler.zip"
        );
    }

    #[test]
    fn an_export_during_a_run_says_it_is_partial_and_how_far_it_got() {
        assert_eq!(
            zip_name("bufferbloat/fifo", &["fifo", "codel"], Some(12.34), 40.0),
            "aqmlab-bufferbloat-fifo-compare-fifo-codel-partial-t12.3s.zip"
        );
        let files = vec![
            ("fifo_summary.json".to_string(), r#"{"scenario": "x", "duration_s": 12.5}"#.to_string()),
            ("codel_summary.json".to_string(), r#"{"duration_s": 12.3}"#.to_string()),
            ("fifo_queue.csv".to_string(), "t,duration_s\n".to_string()),
        ];
        assert_eq!(exported_at(&files), Some(12.3));
        assert_eq!(exported_at(&files[2..]), None);
    }
}
