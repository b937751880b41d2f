//! Descriptions of an algorithm's parameters: path, label, unit, kind with its allowed
//! range, and a one-line help. The UI builds its inputs from them, validation checks each
//! value against its range, and the CLI lists them; no other list of parameters exists.

use super::check::{fmt_num, Checker};
use super::registry::Family;
use serde_json::Value;

/// Allowed values of a number: [min, max], or (min, max] when `min_open`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    pub min: f64,
    pub max: f64,
    pub min_open: bool,
}

impl Range {
    /// [min, max].
    pub const fn closed(min: f64, max: f64) -> Range {
        Range { min, max, min_open: false }
    }
    /// (min, max].
    pub const fn above(min: f64, max: f64) -> Range {
        Range { min, max, min_open: true }
    }

    pub fn contains(&self, v: f64) -> bool {
        v.is_finite() && v <= self.max && if self.min_open { v > self.min } else { v >= self.min }
    }

    /// The range in words, e.g. "0.001 to 60000 ms" or "more than 0, at most 1".
    pub fn words(&self, unit: &str) -> String {
        let w = if self.min_open {
            format!("more than {}, at most {}", fmt_num(self.min), fmt_num(self.max))
        } else {
            format!("{} to {}", fmt_num(self.min), fmt_num(self.max))
        };
        if unit.is_empty() {
            w
        } else {
            format!("{w} {unit}")
        }
    }
}

/// What kind of value a parameter holds.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Float(Range),
    /// A number or `null` (automatic / none).
    OptFloat(Range),
    /// A whole number.
    Int(Range),
    OptInt(Range),
    Bool,
    /// Whole numbers, each in the range.
    IntList(Range),
    /// A buffer limit in packets, bytes or cells.
    Limit,
    /// A limit or `null`.
    OptLimit,
    /// A nested configuration chosen from a family (a scheduler, a control-plane app).
    Tagged(&'static Family),
    /// One of a few named options, stored as the option's string: (value, label).
    Choice(&'static [(&'static str, &'static str)]),
}

/// One parameter of an algorithm.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// Key in the algorithm's JSON object.
    pub path: &'static str,
    pub label: &'static str,
    pub unit: &'static str,
    pub kind: Kind,
    pub help: &'static str,
}

impl Field {
    pub const fn new(
        path: &'static str,
        label: &'static str,
        unit: &'static str,
        kind: Kind,
        help: &'static str,
    ) -> Field {
        Field { path, label, unit, kind, help }
    }

    /// The allowed values in words, for help texts and errors.
    pub fn allowed(&self) -> String {
        match self.kind {
            Kind::Float(r) | Kind::Int(r) | Kind::IntList(r) => r.words(self.unit),
            Kind::OptFloat(r) | Kind::OptInt(r) => format!("{}, or empty", r.words(self.unit)),
            Kind::Bool => "true or false".into(),
            Kind::Limit | Kind::OptLimit => "a buffer in packets, bytes or cells".into(),
            Kind::Tagged(f) => format!("one of: {}", f.tags().join(", ")),
            Kind::Choice(o) => {
                format!("one of: {}", o.iter().map(|(v, _)| *v).collect::<Vec<_>>().join(", "))
            }
        }
    }
}

/// Buffer limits the simulator accepts in each unit.
pub const LIMIT_PACKETS: Range = Range::closed(1.0, 10_000_000.0);
pub const LIMIT_BYTES: Range = Range::closed(64.0, 10_000_000_000.0);
pub const LIMIT_CELLS: Range = Range::closed(1.0, 100_000_000.0);
pub const CELL_BYTES: Range = Range::closed(16.0, 4096.0);

/// Checks every described field of `v` (an algorithm's JSON object) against its range;
/// nested tagged configurations are left to their owner, which checks them typed.
pub fn check_fields(v: &Value, fields: &[Field], c: &mut Checker) {
    for f in fields {
        let Some(x) = f.path.split('.').try_fold(v, |v, k| v.get(k)) else { continue };
        check_value(x, f, c);
    }
}

fn number(c: &mut Checker, path: &str, x: &Value, r: Range, unit: &str) {
    match x.as_f64() {
        Some(n) if r.contains(n) => {}
        Some(n) => c.push(path, fmt_num(n), r.words(unit)),
        // NaN and ±∞ serialise as null.
        None if x.is_null() => c.push(path, "NaN", r.words(unit)),
        None => c.push(path, x, r.words(unit)),
    }
}

fn check_value(x: &Value, f: &Field, c: &mut Checker) {
    match f.kind {
        Kind::Float(r) | Kind::Int(r) => number(c, f.path, x, r, f.unit),
        Kind::OptFloat(r) | Kind::OptInt(r) => {
            if !x.is_null() {
                number(c, f.path, x, r, f.unit)
            }
        }
        Kind::Bool => {}
        Kind::IntList(r) => {
            for (i, e) in x.as_array().into_iter().flatten().enumerate() {
                number(c, &format!("{}[{i}]", f.path), e, r, f.unit);
            }
        }
        Kind::Limit => c.at(f.path, |c| check_limit(x, c)),
        Kind::OptLimit => {
            if !x.is_null() {
                c.at(f.path, |c| check_limit(x, c))
            }
        }
        // Nested configurations are checked typed, by their owner (`Described::check_more`);
        // serde has already refused an unknown choice.
        Kind::Tagged(_) | Kind::Choice(_) => {}
    }
}

/// A buffer limit's JSON: `{"packets": n}`, `{"bytes": n}` or `{"cells": {"cells", "cell_bytes"}}`.
pub fn check_limit(x: &Value, c: &mut Checker) {
    if let Some(p) = x.get("packets") {
        number(c, "packets", p, LIMIT_PACKETS, "packets");
    } else if let Some(b) = x.get("bytes") {
        number(c, "bytes", b, LIMIT_BYTES, "bytes");
    } else if let Some(cells) = x.get("cells") {
        c.at("cells", |c| {
            number(c, "cells", &cells["cells"], LIMIT_CELLS, "cells");
            number(c, "cell_bytes", &cells["cell_bytes"], CELL_BYTES, "bytes");
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_range_excludes_its_minimum_and_says_so() {
        let r = Range::above(0.0, 1.0);
        assert!(!r.contains(0.0) && r.contains(1.0) && !r.contains(f64::NAN));
        assert_eq!(r.words(""), "more than 0, at most 1");
        assert_eq!(Range::closed(0.001, 60_000.0).words("ms"), "0.001 to 60000 ms");
    }

    #[test]
    fn each_field_is_checked_against_its_own_range() {
        const FIELDS: &[Field] = &[
            Field::new("a", "A", "ms", Kind::Float(Range::closed(1.0, 2.0)), ""),
            Field::new("b", "B", "", Kind::OptInt(Range::closed(0.0, 5.0)), ""),
            Field::new("w", "W", "", Kind::IntList(Range::closed(1.0, 9.0)), ""),
            Field::new("limit", "L", "", Kind::Limit, ""),
        ];
        let v = serde_json::json!({"a": 3.0, "b": null, "w": [1, 0], "limit": {"packets": 0}});
        let mut c = Checker::new();
        check_fields(&v, FIELDS, &mut c);
        let paths: Vec<&str> = c.errors().iter().map(|e| e.field.as_str()).collect();
        assert_eq!(paths, ["a", "w[1]", "limit.packets"]);
        assert_eq!(c.errors()[0].allowed, "1 to 2 ms");
    }
}
