//! Field-level validation: every impossible value is reported with its path, its value and
//! the allowed range, so the UI can mark the field and the CLI can print a list.

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScenarioError {
    /// Path of the field, e.g. `flows[0].access_rate_bps`.
    pub field: String,
    pub value: String,
    /// The allowed range or set, in words.
    pub allowed: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {} is out of range; allowed: {}", self.field, self.value, self.allowed)
    }
}

/// A number as people read it: no 300-digit decimals, no trailing `.0` noise.
pub fn fmt_num(v: f64) -> String {
    if !v.is_finite() {
        return format!("{v}");
    }
    let a = v.abs();
    #[allow(clippy::float_cmp)] // exactly the f64 that u64::MAX rounds to
    if v == u64::MAX as f64 {
        // The largest seed: as f64 it is 2^64, which would print one too high.
        "2^64 − 1".into()
    } else if a != 0.0 && !(1e-4..1e15).contains(&a) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// Collects errors; paths are relative to the current scope (see [`Checker::at`]).
#[derive(Debug, Default)]
pub struct Checker {
    errors: Vec<ScenarioError>,
    prefix: String,
}

impl Checker {
    pub fn new() -> Checker {
        Checker::default()
    }

    /// Runs `f` with `segment` appended to the path (`flows[2]`, `cca`, `queue`).
    pub fn at<R>(&mut self, segment: &str, f: impl FnOnce(&mut Checker) -> R) -> R {
        let saved = self.prefix.len();
        if !self.prefix.is_empty() && !segment.starts_with('[') {
            self.prefix.push('.');
        }
        self.prefix.push_str(segment);
        let r = f(self);
        self.prefix.truncate(saved);
        r
    }

    fn path(&self, field: &str) -> String {
        match (self.prefix.is_empty(), field.is_empty()) {
            (true, _) => field.to_string(),
            (false, true) => self.prefix.clone(),
            (false, false) if field.starts_with('[') => format!("{}{field}", self.prefix),
            _ => format!("{}.{field}", self.prefix),
        }
    }

    pub fn push(&mut self, field: &str, value: impl fmt::Display, allowed: impl Into<String>) {
        let field = self.path(field);
        // A 100 KB string given for a number is not repeated whole.
        let value = super::echo::echo_value(&value.to_string());
        self.errors.push(ScenarioError { field, value, allowed: allowed.into() });
    }

    /// A number in [lo, hi].
    pub fn f64_in(&mut self, field: &str, v: f64, lo: f64, hi: f64, unit: &str) {
        if !(v.is_finite() && v >= lo && v <= hi) {
            self.push(field, fmt_num(v), with_unit(format!("{} to {}", fmt_num(lo), fmt_num(hi)), unit));
        }
    }

    /// A number in (lo, hi].
    pub fn f64_above(&mut self, field: &str, v: f64, lo: f64, hi: f64, unit: &str) {
        if !(v.is_finite() && v > lo && v <= hi) {
            let words = format!("more than {}, at most {}", fmt_num(lo), fmt_num(hi));
            self.push(field, fmt_num(v), with_unit(words, unit));
        }
    }

    pub fn u64_in(&mut self, field: &str, v: u64, lo: u64, hi: u64, unit: &str) {
        if v < lo || v > hi {
            self.push(field, v, with_unit(format!("{lo} to {hi}"), unit));
        }
    }

    pub fn errors(&self) -> &[ScenarioError] {
        &self.errors
    }

    pub fn into_result(self) -> Result<(), Vec<ScenarioError>> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(self.errors)
        }
    }
}

fn with_unit(words: String, unit: &str) -> String {
    if unit.is_empty() {
        words
    } else {
        format!("{words} {unit}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_build_dotted_and_indexed_paths() {
        let mut c = Checker::new();
        c.at("flows", |c| c.at("[2]", |c| c.at("cca", |c| c.f64_in("beta", 2.0, 0.0, 1.0, ""))));
        assert_eq!(c.errors()[0].field, "flows[2].cca.beta");
    }

    #[test]
    fn tiny_and_huge_numbers_are_printed_compactly() {
        assert_eq!(fmt_num(1e-300), "1e-300");
        assert_eq!(fmt_num(2.5), "2.5");
        assert_eq!(fmt_num(100.0), "100");
        assert_eq!(fmt_num(4e18), "4e18");
    }
}
