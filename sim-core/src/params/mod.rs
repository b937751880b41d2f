//! Describing, validating and registering algorithm parameters: the one place the engine,
//! the CLI and the UI learn which algorithms exist and what each can be told.

pub mod check;
pub mod echo;
pub mod field;
pub mod json;
pub mod registry;

pub use check::{fmt_num, Checker, ScenarioError};
pub use field::{check_fields, check_limit, Field, Kind, Range};
pub use registry::{
    at_path, closest, echo, explain, parse_member, split_tag, tagged_value, Algorithm, Described, Family,
    Flavour,
};
