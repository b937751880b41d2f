//! Reading the learner's files (a [`DqnConfig`](super::DqnConfig), an
//! [`MlpWeights`](super::MlpWeights)) strictly: each key once, numbers finite, an object
//! only as an object with named keys, no unknown key. Every error names its field.

use super::error::FieldError;
use crate::params::json::{self, Problem};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Parses `text` as `T`. `shape` says what the document is (for errors on the whole of it);
/// `allowed_at` says what a field allows, for a number that is not finite there.
pub(super) fn read<T: DeserializeOwned>(
    text: &str,
    shape: &str,
    allowed_at: impl Fn(&Value, &str) -> Option<String>,
) -> Result<T, Vec<FieldError>> {
    let v = json::parse(text).map_err(|e| {
        let field = if e.path.is_empty() { "json".to_string() } else { e.path.clone() };
        let err = match &e.problem {
            Problem::NotFinite(w) | Problem::TooLarge(w) => {
                let allowed = e.doc.as_ref().and_then(|d| allowed_at(d, &e.path));
                FieldError::new(field, w, allowed.unwrap_or_else(|| "a finite number".into()))
            }
            Problem::DuplicateKey(k) => {
                FieldError::new(field, format!("\"{k}\" given twice"), "each key once")
            }
            Problem::Syntax(m) => FieldError::new(field, format!("not valid JSON ({m})"), shape),
        };
        vec![err]
    })?;
    if !v.is_object() {
        return Err(vec![FieldError::new("json", json::echo_value(&v.to_string()), shape)]);
    }
    json::deserialize_at(&v).map_err(|(path, msg)| {
        vec![FieldError::new(if path.is_empty() { "json".into() } else { path }, msg, shape)]
    })
}

/// `hidden[0]` → `/hidden/0`, `loss.delta` → `/loss/delta`.
pub(super) fn pointer(path: &str) -> String {
    path.split(['.', '[']).map(|s| format!("/{}", s.trim_end_matches(']'))).collect()
}
