//! The generic channel through which algorithms report what is special about them, so the
//! engine and the recorder never name an algorithm:
//!
//! - **named series**: a component declares its series once ([`SeriesInfo`]: name, unit,
//!   chart group, optional thresholds) and hands one value per series at every sample
//!   (RED's EWMA average, a switch port's per-queue cells and weights, Warbler's SSRE);
//! - **log records**: structured events with named fields (a Warbler decision), kept for
//!   `summary.json` and written as `<alg>_<source>.csv`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A threshold drawn on a series' chart; consecutive thresholds split the axis into zones
/// whose time shares the summary reports (RED's Table 7).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Threshold {
    pub value: f64,
    pub label: String,
}

/// A series an algorithm reports at every sample.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeriesInfo {
    /// Unique within the run, e.g. `red.avg`, `queue[1].cells`, `warbler.j_pre`.
    pub name: String,
    /// Legend label for people.
    pub label: String,
    pub unit: String,
    /// Series with the same group share a chart (`queue`, `weights`, `clustering`...).
    pub group: String,
    /// Ascending thresholds; empty for none.
    pub thresholds: Vec<Threshold>,
}

impl SeriesInfo {
    pub fn new(name: impl Into<String>, label: impl Into<String>, unit: &str, group: &str) -> SeriesInfo {
        SeriesInfo {
            name: name.into(),
            label: label.into(),
            unit: unit.into(),
            group: group.into(),
            thresholds: Vec::new(),
        }
    }

    pub fn with_thresholds(mut self, t: &[(f64, &str)]) -> SeriesInfo {
        self.thresholds = t.iter().map(|&(value, label)| Threshold { value, label: label.into() }).collect();
        self
    }
}

/// One structured event from a component (e.g. a control-plane decision).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogRecord {
    pub t_s: f64,
    /// Who wrote it (`warbler`); the CLI writes `<alg>_<source>.csv`.
    pub source: String,
    /// Flat named fields: numbers, strings, or arrays of numbers.
    pub fields: Map<String, Value>,
}

impl LogRecord {
    pub fn new(t_s: f64, source: &str) -> LogRecord {
        LogRecord { t_s, source: source.into(), fields: Map::new() }
    }

    pub fn with(mut self, key: &str, v: impl Into<Value>) -> LogRecord {
        self.fields.insert(key.into(), v.into());
        self
    }

    /// Values it holds, an array's elements each (what its memory grows with: a Warbler
    /// decision holds two per-flow arrays).
    pub fn values(&self) -> usize {
        self.fields.values().map(|v| v.as_array().map_or(1, Vec::len)).sum::<usize>().max(1)
    }
}
