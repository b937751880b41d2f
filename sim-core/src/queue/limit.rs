//! Buffer limits in packets, bytes or switch cells, and the occupancy they are checked against.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::params::{closest, echo, parse_member};

/// A queue's capacity. A packet occupies ceil(bytes / cell_bytes) cells (Tofino's buffer unit).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum QueueLimit {
    Packets(u32),
    Bytes(u64),
    Cells { cells: u32, cell_bytes: u32 },
}

/// The JSON form, one key naming the unit: `{"packets": 100}`.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum LimitJson {
    Packets(u32),
    Bytes(u64),
    Cells { cells: u32, cell_bytes: u32 },
}

const UNITS: [&str; 3] = ["packets", "bytes", "cells"];

/// Read by hand so that an error names the key at fault: serde's own message for a second
/// key ("expected map with a single key") names neither key.
impl<'de> Deserialize<'de> for QueueLimit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = Map::<String, Value>::deserialize(d)?;
        if let Some(k) = map.keys().find(|k| !UNITS.contains(&k.as_str())) {
            let hint = closest(k, UNITS).map(|c| format!("did you mean '{c}'? ")).unwrap_or_default();
            return Err(D::Error::custom(format!(
                "{}: not a unit of a buffer limit; {hint}a limit has one key: packets, bytes or cells",
                echo(k)
            )));
        }
        if map.len() != 1 {
            let keys: Vec<&str> = map.keys().map(String::as_str).collect();
            return Err(D::Error::custom(format!(
                "a buffer limit has exactly one key, its unit (e.g. {{\"packets\": 100}}), not {}",
                if keys.is_empty() { "none".to_string() } else { keys.join(" and ") }
            )));
        }
        Ok(match parse_member::<LimitJson>(map).map_err(D::Error::custom)? {
            LimitJson::Packets(p) => QueueLimit::Packets(p),
            LimitJson::Bytes(b) => QueueLimit::Bytes(b),
            LimitJson::Cells { cells, cell_bytes } => QueueLimit::Cells { cells, cell_bytes },
        })
    }
}

impl Default for QueueLimit {
    fn default() -> Self {
        QueueLimit::Packets(100)
    }
}

/// What a queue currently holds, in all three units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Occupancy {
    pub packets: u32,
    pub bytes: u64,
    pub cells: u64,
}

impl QueueLimit {
    pub fn cell_bytes(&self) -> Option<u32> {
        match *self {
            QueueLimit::Cells { cell_bytes, .. } => Some(cell_bytes),
            _ => None,
        }
    }

    /// Cells a packet of `bytes` takes (1 cell = 1 byte when the limit is not in cells).
    pub fn cells_of(&self, bytes: u32) -> u64 {
        match *self {
            QueueLimit::Cells { cell_bytes, .. } => cells_for(bytes, cell_bytes),
            _ => u64::from(bytes),
        }
    }

    /// Would a packet of `bytes` still fit on top of `occ`?
    pub fn admits(&self, occ: &Occupancy, bytes: u32) -> bool {
        match *self {
            QueueLimit::Packets(p) => occ.packets < p,
            QueueLimit::Bytes(b) => occ.bytes + u64::from(bytes) <= b,
            QueueLimit::Cells { cells, .. } => occ.cells + self.cells_of(bytes) <= u64::from(cells),
        }
    }

    /// Does `occ` hold more than the limit allows? (For discs that accept an arrival first and
    /// then drop queued packets until they fit again, as FQ-CoDel does.)
    pub fn exceeded_by(&self, occ: &Occupancy) -> bool {
        match *self {
            QueueLimit::Packets(p) => occ.packets > p,
            QueueLimit::Bytes(b) => occ.bytes > b,
            QueueLimit::Cells { cells, .. } => occ.cells > u64::from(cells),
        }
    }

    /// The queue length in this limit's own unit (what RED averages).
    pub fn length(&self, occ: &Occupancy) -> f64 {
        match self {
            QueueLimit::Packets(_) => f64::from(occ.packets),
            QueueLimit::Bytes(_) => occ.bytes as f64,
            QueueLimit::Cells { .. } => occ.cells as f64,
        }
    }

    /// Whether `other` counts in the same unit (cells of the same size): a queue's own
    /// accounting of what it holds stays right when its limit changes to `other` mid-run.
    pub fn same_unit(&self, other: &QueueLimit) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
            && self.cell_bytes() == other.cell_bytes()
    }

    /// Err unless a queue limited by `self` can take `new` during a run.
    pub fn check_change(&self, new: &QueueLimit) -> Result<(), String> {
        if self.same_unit(new) {
            Ok(())
        } else {
            Err(format!(
                "limit: the buffer's unit cannot change during a run (it counts {}); give the new limit in {}",
                self.unit_name(),
                self.unit_name()
            ))
        }
    }

    pub fn unit_name(&self) -> &'static str {
        match self {
            QueueLimit::Packets(_) => "packets",
            QueueLimit::Bytes(_) => "bytes",
            QueueLimit::Cells { .. } => "cells",
        }
    }
}

/// ceil(bytes / cell_bytes): a partly filled cell is still a whole cell.
pub fn cells_for(bytes: u32, cell_bytes: u32) -> u64 {
    u64::from(bytes).div_ceil(u64::from(cell_bytes.max(1)))
}

impl Occupancy {
    pub fn add(&mut self, bytes: u32, cells: u64) {
        self.packets += 1;
        self.bytes += u64::from(bytes);
        self.cells += cells;
    }
    pub fn remove(&mut self, bytes: u32, cells: u64) {
        self.packets -= 1;
        self.bytes -= u64::from(bytes);
        self.cells -= cells;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(json: &str) -> String {
        serde_json::from_str::<QueueLimit>(json).unwrap_err().to_string()
    }

    #[test]
    fn a_limit_reads_back_what_it_writes_and_refusals_name_the_key() {
        for l in
            [QueueLimit::Packets(7), QueueLimit::Bytes(9000), QueueLimit::Cells { cells: 5, cell_bytes: 80 }]
        {
            assert_eq!(serde_json::from_value::<QueueLimit>(serde_json::to_value(l).unwrap()).unwrap(), l);
        }
        assert!(
            refusal(r#"{"packets": 100, "pakets": 3}"#).starts_with("pakets: not a unit"),
            "{}",
            refusal(r#"{"packets": 100, "pakets": 3}"#)
        );
        assert!(refusal(r#"{"pakets": 3}"#).contains("did you mean 'packets'"));
        let two = refusal(r#"{"packets": 1, "bytes": 2}"#);
        assert!(two.contains("exactly one key") && two.contains("packets and bytes"), "{two}");
        assert!(refusal(r#"{}"#).contains("not none"));
        assert!(refusal(r#"{"packets": -1}"#).starts_with("packets: invalid value"));
        assert!(refusal(r#"{"cells": {"cells": 1, "cel_bytes": 2}}"#)
            .starts_with("cells.cel_bytes: unknown field"));
    }

    #[test]
    fn a_partly_filled_cell_counts_as_a_whole_cell() {
        assert_eq!(cells_for(1, 160), 1);
        assert_eq!(cells_for(160, 160), 1);
        assert_eq!(cells_for(161, 160), 2);
        assert_eq!(cells_for(1514, 80), 19);
    }

    #[test]
    fn packet_limit_admits_until_full() {
        let l = QueueLimit::Packets(2);
        let mut o = Occupancy::default();
        assert!(l.admits(&o, 1500));
        o.add(1500, 1500);
        o.add(1500, 1500);
        assert!(!l.admits(&o, 40));
    }

    #[test]
    fn a_full_queue_is_not_exceeded_until_one_more_arrives() {
        let l = QueueLimit::Bytes(3000);
        let mut o = Occupancy::default();
        o.add(1500, 1500);
        o.add(1500, 1500);
        assert!(!l.exceeded_by(&o));
        o.add(1, 1);
        assert!(l.exceeded_by(&o));
    }

    #[test]
    fn cell_limit_counts_rounded_cells() {
        let l = QueueLimit::Cells { cells: 10, cell_bytes: 160 };
        let mut o = Occupancy::default();
        o.add(1514, l.cells_of(1514)); // 10 cells
        assert_eq!(o.cells, 10);
        assert!(!l.admits(&o, 1));
    }
}
