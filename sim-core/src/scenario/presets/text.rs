//! Preset texts whose numbers come from where they are true, so a text cannot say one
//! thing while the app shows another. A text is a template:
//!
//! - `{p:PATH}` or `{p:VARIANT:PATH}`: a parameter of the preset's scenario (its default
//!   variant, or the one named), as `--set` names it; rates in Mbit/s; `rtt[g]` is group
//!   g's base RTT in ms;
//! - `{app:VARIANT:FIGURE}`: what this app shows ([`crate::scenario::figures`], pinned by
//!   tests/golden.rs);
//! - `{paper:KEY}`: what the paper publishes ([`crate::scenario::published::figure`]).
//!
//! Any other number is refused by [`loose_numbers`] (and so by a test), except those of
//! references: RFC 8290, §5.1, Fig. 4, Table 2, ns-3.44, a year.

use crate::params::fmt_num;
use crate::scenario::{figures, patch, preset, published, Scenario};

/// `template` with its placeholders filled for preset `name` (default variant `variant`).
pub fn render(name: &str, variant: &str, template: &str) -> Result<String, String> {
    let mut out = String::with_capacity(template.len());
    // Each variant's scenario is built once however many of its parameters are quoted.
    let mut built = Built::new();
    let mut rest = template;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let end = rest[i..].find('}').ok_or_else(|| format!("unclosed placeholder in: {rest}"))? + i;
        out.push_str(&fill(name, variant, &rest[i + 1..end], &mut built)?);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The variants' scenarios (and their JSON) a render has built so far.
type Built = Vec<(String, Option<(Scenario, serde_json::Value)>)>;

/// Variant `v` of preset `name`, built on first use.
fn variant<'a>(built: &'a mut Built, name: &str, v: &str) -> Option<&'a (Scenario, serde_json::Value)> {
    let i = match built.iter().position(|(b, _)| b == v) {
        Some(i) => i,
        None => {
            let sc = preset(name, Some(v)).ok();
            let json = sc.as_ref().and_then(|sc| serde_json::to_value(sc).ok());
            built.push((v.to_string(), sc.zip(json)));
            built.len() - 1
        }
    };
    built[i].1.as_ref()
}

fn fill(name: &str, default: &str, what: &str, built: &mut Built) -> Result<String, String> {
    let missing = || format!("{name}: no value for {{{what}}}");
    let parts: Vec<&str> = what.split(':').collect();
    match parts.as_slice() {
        ["p", path] => {
            variant(built, name, default).and_then(|(sc, v)| parameter(sc, v, path)).ok_or_else(missing)
        }
        ["p", var, path] => {
            variant(built, name, var).and_then(|(sc, v)| parameter(sc, v, path)).ok_or_else(missing)
        }
        ["app", v, fig] => figures::app_figure(name, v, fig).map(|x| figure_text(fig, x)).ok_or_else(missing),
        // As printed in the paper: no float noise from a unit conversion (0.0267 s → 26.7 ms).
        ["paper", key @ ..] => {
            published::figure(&key.join(":")).map(|v| fmt_num((v * 1e6).round() / 1e6)).ok_or_else(missing)
        }
        _ => Err(format!("{name}: unknown placeholder {{{what}}}")),
    }
}

/// A parameter of `sc` (whose JSON is `v`) as a text quotes it: rates in Mbit/s, a buffer
/// limit by its number.
fn parameter(sc: &Scenario, v: &serde_json::Value, path: &str) -> Option<String> {
    // `rtt[g]`: group g's base RTT, ms.
    if let Some(g) = path.strip_prefix("rtt[").and_then(|r| r.strip_suffix(']')) {
        return Some(fmt_num(sc.base_rtt_ms(sc.flows.get(g.parse::<usize>().ok()?)?)));
    }
    let path = crate::scenario::v1_path(&sc.bottleneck, path).unwrap_or_else(|| path.to_string());
    let mut x = patch::get(v, &path)?;
    // A limit by its number: {"packets": 100}, {"cells": {"cells": 3000, "cell_bytes": 160}}.
    if let Some(m) = x.as_object().filter(|m| m.len() == 1) {
        x = m.values().next()?;
    }
    if let Some(cells) = x.get("cells") {
        x = cells;
    }
    let n = x.as_f64()?;
    Some(fmt_num(if path.ends_with("_bps") { n / 1e6 } else { n }))
}

/// A measured figure rounded as people quote it.
fn figure_text(fig: &str, v: f64) -> String {
    let digits = match fig {
        f if f == "jfi" || f.ends_with("_jfi") => 2,
        "drops" | "losses" | "buffer_cells" => 0,
        _ if v.abs() >= 100.0 => 0,
        _ if v.abs() >= 10.0 => 1,
        _ => 2,
    };
    let s = format!("{v:.digits$}");
    if digits > 0 && !fig.ends_with("jfi") {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// The numbers written into `template` by hand (outside placeholders and references): each
/// would be a claim no test checks.
pub fn loose_numbers(template: &str) -> Vec<String> {
    let mut plain = String::new();
    let mut depth = 0;
    for ch in template.chars() {
        match ch {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                plain.push('#'); // a filled number stands here
            }
            c if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    const REFERENCES: [&str; 9] =
        ["RFC ", "§", "Fig. ", "Figs. ", "Table ", "Tables ", "ns-", "Tofino ", "IETF "];
    let chars: Vec<char> = plain.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut after_reference = false;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            // "Figs. 9-10": a range continues its reference.
            after_reference &= matches!(chars[i], '-' | '–');
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len()
            && (chars[i].is_ascii_digit()
                || (chars[i] == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit)))
        {
            i += 1;
        }
        let token: String = chars[start..i].iter().collect();
        let before: String = chars[..start].iter().collect();
        let is_year = token.len() == 4 && (token.starts_with("19") || token.starts_with("20"));
        // Part of a name (nic1, 7v1n, L4S, 2·maxTh), not a quantity.
        let named = |c: Option<&char>| c.is_some_and(|c| c.is_alphabetic() || *c == '·');
        let in_name = named(start.checked_sub(1).and_then(|k| chars.get(k))) || named(chars.get(i));
        // ECT(0), ECT(1): the ECN codepoints' names.
        let codepoint = before.ends_with("ECT(");
        let reference = is_year
            || in_name
            || codepoint
            || after_reference
            || REFERENCES.iter().any(|r| before.ends_with(r));
        if !reference {
            out.push(token);
        }
        after_reference = reference;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_fill_from_the_scenario_the_figures_and_the_paper() {
        let t = render("red-study", "red", "{p:bottleneck.rate_bps} Mbit/s, limit {p:bottleneck.queue.limit}, paper CV {paper:red-study/red:cv_pct} %").unwrap();
        assert_eq!(t, "2 Mbit/s, limit 100, paper CV 18.7 %");
        let t = render("bufferbloat", "fifo", "{app:codel:delay_ms} ms").unwrap();
        assert_eq!(t, "5.5 ms");
        assert!(render("red-study", "red", "{app:red:no_such}").is_err());
        assert!(render("red-study", "red", "{p:bottleneck.no_such}").is_err());
    }

    #[test]
    fn only_references_may_carry_numbers_by_hand() {
        assert_eq!(
            loose_numbers(
                "RFC 8290 §5.1, Figs. 9-10, Table 2, ns-3.44 (2012) v1 L4S ared-nic1 7v1n 2·maxTh ECT(1)"
            ),
            Vec::<String>::new()
        );
        assert_eq!(loose_numbers("CV 18.7 % and {app:red:cv_pct} %"), vec!["18.7".to_string()]);
        assert_eq!(loose_numbers("a 100-packet queue"), vec!["100".to_string()]);
    }
}
