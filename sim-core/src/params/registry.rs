//! One registry per algorithm family. Each algorithm's own file declares its
//! [`Algorithm`] (serde tag, label, help, parameters) by implementing [`Described`] on its
//! configuration; the family's spec enum, its serde form, validation, the CLI's lists and the
//! UI's pickers all come from the one [`registry!`](crate::registry) line that names it.

use super::check::Checker;
use super::field::{check_fields, Field};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt::Debug;

/// A named preset of an algorithm's boolean switches (RED → Adaptive RED, Gentle RED),
/// offered as its own entry in pickers.
#[derive(Clone, Copy, Debug)]
pub struct Flavour {
    pub key: &'static str,
    pub label: &'static str,
    pub flags: &'static [(&'static str, bool)],
}

/// What an algorithm says about itself.
#[derive(Clone, Copy, Debug)]
pub struct Algorithm {
    /// The serde tag (`"type"` in JSON), e.g. `fq_codel`.
    pub tag: &'static str,
    pub label: &'static str,
    /// One line on what it does and where it comes from.
    pub help: &'static str,
    pub fields: &'static [Field],
    /// Picker entries that set flags; empty = the algorithm is one entry.
    pub flavours: &'static [Flavour],
}

impl Algorithm {
    /// The flavour whose flags `v` (the algorithm's JSON) has, else the tag itself.
    pub fn flavour_of(&self, v: &Value) -> &'static str {
        self.flavours
            .iter()
            .find(|f| f.flags.iter().all(|(k, b)| v.get(*k).and_then(Value::as_bool) == Some(*b)))
            .map_or(self.tag, |f| f.key)
    }

    pub fn field(&self, path: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.path == path)
    }
}

/// A configuration type that describes itself; implemented in each algorithm's own file.
pub trait Described: Serialize + DeserializeOwned + Default + Clone + PartialEq + Debug {
    const INFO: Algorithm;

    /// Rules between fields, beyond each field's own range (RED: max_th > min_th).
    fn check_more(&self, _c: &mut Checker) {}

    /// Every field against its range, then the rules between fields.
    fn check(&self, c: &mut Checker) {
        let v = serde_json::to_value(self).expect("configurations serialise");
        check_fields(&v, Self::INFO.fields, c);
        self.check_more(c);
    }
}

/// A family of algorithms (queue discs, congestion controls, control-plane apps,
/// schedulers), as the registry macro describes it.
#[derive(Debug)]
pub struct Family {
    /// "queue disc", "congestion control", ...
    pub name: &'static str,
    pub members: &'static [&'static Algorithm],
    /// A member's default configuration as JSON (with its `"type"`).
    pub default_value: fn(&str) -> Option<Value>,
}

impl Family {
    pub fn tags(&self) -> Vec<&'static str> {
        self.members.iter().map(|a| a.tag).collect()
    }

    /// A member's default JSON; `tag` must be registered.
    pub fn default_value_of(&self, tag: &str) -> Value {
        (self.default_value)(tag).unwrap_or(Value::Null)
    }

    pub fn member(&self, tag: &str) -> Option<&'static Algorithm> {
        self.members.iter().copied().find(|a| a.tag == tag)
    }

    /// Every picker entry: `(key, label, tag)`, flavours expanded.
    pub fn entries(&self) -> Vec<(&'static str, &'static str, &'static str)> {
        self.members
            .iter()
            .flat_map(|a| {
                if a.flavours.is_empty() {
                    vec![(a.tag, a.label, a.tag)]
                } else {
                    a.flavours.iter().map(|f| (f.key, f.label, a.tag)).collect()
                }
            })
            .collect()
    }

    /// The JSON of picker entry `key` (a tag or a flavour key) with its defaults.
    pub fn entry_value(&self, key: &str) -> Option<Value> {
        for a in self.members {
            if a.tag == key {
                return (self.default_value)(a.tag);
            }
            if let Some(f) = a.flavours.iter().find(|f| f.key == key) {
                let mut v = (self.default_value)(a.tag)?;
                for (k, b) in f.flags {
                    v[*k] = Value::Bool(*b);
                }
                return Some(v);
            }
        }
        None
    }
}

pub use super::echo::{cut, echo};
use super::echo::{echo_long, echo_value};

/// Shortens each value serde quotes in a message (`string "xxx…"`, `` floating point `1e300` ``
/// prints 300 digits) to its first characters.
fn shorten_quoted(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len().min(400));
    let mut rest = msg;
    while let Some(i) = rest.find(['"', '`']) {
        let q = rest[i..].chars().next().expect("found");
        out.push_str(&rest[..=i]);
        let after = &rest[i + 1..];
        let Some(j) = after.find(q) else {
            rest = after;
            continue;
        };
        out.push_str(&echo_value(&after[..j]));
        out.push(q);
        rest = &after[j + 1..];
    }
    out.push_str(rest);
    out
}

/// Levenshtein distance, for "did you mean" suggestions.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The candidate closest to `word`, if it is close enough to be a plausible typo.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let w = word.to_lowercase().replace('-', "_");
    candidates
        .into_iter()
        .map(|c| (distance(&w, c), c))
        .filter(|(d, c)| *d <= (c.len() / 3).max(2))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Splits a member's JSON into its tag and the remaining fields.
pub fn split_tag(v: Value, family: &Family) -> Result<(String, Map<String, Value>), String> {
    let tags = family.tags();
    let Value::Object(mut map) = v else {
        return Err(format!(
            "expected a {} object with a \"type\" (one of: {})",
            family.name,
            tags.join(", ")
        ));
    };
    // Each message starts with `type: `, so the caller's path names the key itself
    // (`flows[0].cca.type: …`, see `at_path`).
    let tag = match map.remove("type") {
        Some(Value::String(t)) => t,
        Some(other) => {
            return Err(format!(
                "type: must be a string naming the {}, not {}; one of: {}",
                family.name,
                echo(&other.to_string()),
                tags.join(", ")
            ))
        }
        None => return Err(format!("type: missing; which {}? one of: {}", family.name, tags.join(", "))),
    };
    if family.member(&tag).is_none() {
        let hint =
            closest(&tag, tags.iter().copied()).map(|c| format!("did you mean '{c}'? ")).unwrap_or_default();
        return Err(format!(
            "type: unknown {} '{}'; {hint}known: {}",
            family.name,
            echo(&tag),
            tags.join(", ")
        ));
    }
    Ok((tag, map))
}

/// Parses a member's fields; errors name the field path and suggest the closest key.
pub fn parse_member<T: DeserializeOwned>(fields: Map<String, Value>) -> Result<T, String> {
    serde_path_to_error::deserialize(Value::Object(fields)).map_err(|e| {
        let path = e.path().to_string();
        let msg = explain(&e.into_inner().to_string());
        if path == "." || path.is_empty() {
            msg
        } else {
            at_path(&path, &msg)
        }
    })
}

/// `path: msg`, where a nested configuration's message that starts with its own relative
/// path (`alpha: invalid value`) is joined into one path (`flows[0].cca.alpha: invalid value`).
pub fn at_path(path: &str, msg: &str) -> String {
    let is_path = |p: &str| {
        p.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && p.chars().all(|c| c.is_ascii_alphanumeric() || "_.[]".contains(c))
    };
    match msg.split_once(": ") {
        Some((inner, rest)) if is_path(inner) => format!("{path}.{inner}: {rest}"),
        _ => format!("{path}: {msg}"),
    }
}

/// Makes serde's messages readable: the closest valid key of an unknown one, types in
/// words, long values shortened.
pub fn explain(msg: &str) -> String {
    let Some(rest) = msg.strip_prefix("unknown field `") else {
        let words = msg
            .replace("expected f64", "expected a number")
            .replace("expected u64", "expected a whole number ≥ 0")
            .replace("expected u32", "expected a whole number ≥ 0")
            .replace("expected usize", "expected a whole number ≥ 0")
            .replace("expected a boolean", "expected true or false")
            // An externally tagged choice ({"packets": 100}) given two keys.
            .replace(
                "invalid value: map, expected map with a single key",
                "expected exactly one key, the unit (e.g. {\"packets\": 100})",
            );
        return echo_long(&shorten_quoted(&words));
    };
    let Some((key, tail)) = rest.split_once('`') else { return msg.to_string() };
    let expected: Vec<&str> = tail.split('`').skip(1).step_by(2).collect();
    let shown = echo(key);
    match closest(key, expected.iter().copied()) {
        Some(c) => format!("unknown field '{shown}'; did you mean '{c}'?"),
        None if expected.is_empty() => format!("unknown field '{shown}'"),
        None => format!("unknown field '{shown}'; known: {}", expected.join(", ")),
    }
}

/// Serialises `cfg` with `"type": tag` in front.
pub fn tagged_value<T: Serialize>(tag: &str, cfg: &T) -> Value {
    let mut out = Map::new();
    out.insert("type".into(), Value::String(tag.into()));
    if let Value::Object(m) = serde_json::to_value(cfg).expect("configurations serialise") {
        out.extend(m);
    }
    Value::Object(out)
}

/// Declares a family's spec enum from its members: `registry! { pub enum QueueDiscSpec as
/// "queue disc": dyn DiscConfig { Fifo(FifoConfig), Red(RedConfig) } }`. Each member type
/// implements [`Described`] and the family's object-safe trait (`dyn DiscConfig`).
///
/// A family whose trait builds the algorithm says so after the members, `build as
/// build(cx: BuildCx) -> Box<dyn QueueDisc>;`: the spec gets that method, dispatching by
/// `match`, and the trait's `build` is `where Self: Sized`, out of the vtable. Reading a
/// member's settings through `get()` then links no algorithm: the web page validates and
/// edits scenarios without carrying the queue discs, congestion controls and control-plane
/// apps (they made its module 37 kB gzipped larger).
#[macro_export]
macro_rules! registry {
    (
        $(#[$meta:meta])*
        pub enum $Spec:ident as $family:literal : dyn $Dyn:path { $( $Var:ident($Cfg:ty) ),+ $(,)? }
        $( $rest:tt )*
    ) => {
        $crate::registry!(@build $Spec; $Dyn; [ $( $Var $Cfg ),+ ]; $( $rest )*);

        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        pub enum $Spec { $( $Var($Cfg) ),+ }

        impl $Spec {
            /// The family: members, defaults, validation.
            pub const FAMILY: $crate::params::Family = $crate::params::Family {
                name: $family,
                members: &[ $( &<$Cfg as $crate::params::Described>::INFO ),+ ],
                default_value: |tag| $Spec::default_for(tag).map(|s| s.to_value()),
            };

            pub fn info(&self) -> &'static $crate::params::Algorithm {
                match self { $( $Spec::$Var(_) => &<$Cfg as $crate::params::Described>::INFO ),+ }
            }

            /// The serde tag, e.g. `fq_codel`.
            pub fn tag(&self) -> &'static str {
                self.info().tag
            }

            /// The picker entry this configuration is (a flavour key such as `ared`, else the tag).
            pub fn flavour(&self) -> &'static str {
                self.info().flavour_of(&self.to_value())
            }

            /// A member's default configuration.
            pub fn default_for(tag: &str) -> Option<$Spec> {
                $( if tag == <$Cfg as $crate::params::Described>::INFO.tag {
                    return Some($Spec::$Var(<$Cfg as Default>::default()));
                } )+
                None
            }

            /// The member's behaviour, whatever it is.
            pub fn get(&self) -> &dyn $Dyn {
                match self { $( $Spec::$Var(c) => c ),+ }
            }

            pub fn get_mut(&mut self) -> &mut dyn $Dyn {
                match self { $( $Spec::$Var(c) => c ),+ }
            }

            /// Every field against its range and the member's own rules.
            pub fn check(&self, c: &mut $crate::params::Checker) {
                match self { $( $Spec::$Var(x) => $crate::params::Described::check(x, c) ),+ }
            }

            pub fn to_value(&self) -> serde_json::Value {
                match self { $( $Spec::$Var(x) => $crate::params::tagged_value(self.tag(), x) ),+ }
            }

            pub fn from_value(v: serde_json::Value) -> Result<$Spec, String> {
                let (tag, rest) = $crate::params::split_tag(v, &Self::FAMILY)?;
                $( if tag == <$Cfg as $crate::params::Described>::INFO.tag {
                    return $crate::params::parse_member::<$Cfg>(rest).map($Spec::$Var);
                } )+
                unreachable!("split_tag only returns registered tags")
            }
        }

        impl serde::Serialize for $Spec {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self {
                    $( $Spec::$Var(x) => {
                        use serde::ser::SerializeMap;
                        let v = serde_json::to_value(x).map_err(serde::ser::Error::custom)?;
                        let fields = v.as_object().cloned().unwrap_or_default();
                        let mut m = s.serialize_map(Some(fields.len() + 1))?;
                        m.serialize_entry("type", self.tag())?;
                        for (k, v) in &fields {
                            m.serialize_entry(k, v)?;
                        }
                        m.end()
                    } ),+
                }
            }
        }

        impl<'de> serde::Deserialize<'de> for $Spec {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$Spec, D::Error> {
                let v = serde_json::Value::deserialize(d)?;
                $Spec::from_value(v).map_err(serde::de::Error::custom)
            }
        }
    };
    (@build $Spec:ident; $Dyn:path; [ $( $Var:ident $Cfg:ty ),+ ]; ) => {};
    (@build $Spec:ident; $Dyn:path; [ $( $Var:ident $Cfg:ty ),+ ];
        build as $build:ident ( $( $arg:ident : $argty:ty ),* ) -> $built:ty ;) => {
        $crate::registry!(@fn $Spec; $Dyn; [ $( $Var $Cfg ),+ ]; $build; ( $( $arg: $argty ),* ); ( $( $arg ),* ); $built);
    };
    (@fn $Spec:ident; $Dyn:path; [ $( $Var:ident $Cfg:ty ),+ ]; $build:ident;
        ( $( $arg:ident : $argty:ty ),* ); $args:tt; $built:ty) => {
        impl $Spec {
            /// Builds the member's algorithm (statically dispatched, see [`registry!`]).
            pub fn $build(&self, $( $arg: $argty ),*) -> $built {
                match self { $( $Spec::$Var(c) => $crate::registry!(@call c; $Cfg; $Dyn; $args) ),+ }
            }
        }
    };
    (@call $c:ident; $Cfg:ty; $Dyn:path; ( $( $arg:ident ),* )) => {
        <$Cfg as $Dyn>::build($c, $( $arg ),*)
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_get_the_closest_known_word() {
        assert_eq!(closest("fq-codel", ["fifo", "fq_codel", "codel"]), Some("fq_codel"));
        assert_eq!(closest("min_thr", ["min_th", "max_th"]), Some("min_th"));
        assert_eq!(closest("zzzzzz", ["fifo", "red"]), None);
    }

    #[test]
    fn serde_unknown_field_messages_gain_a_suggestion() {
        let m = explain("unknown field `max_tj`, expected one of `min_th`, `max_th`, `max_p`");
        assert_eq!(m, "unknown field 'max_tj'; did you mean 'max_th'?");
    }

    #[test]
    fn a_nested_configurations_error_joins_the_outer_path() {
        assert_eq!(at_path("flows[0].cca", "alpha: invalid value"), "flows[0].cca.alpha: invalid value");
        assert_eq!(at_path("queue", "scheduler.quantum_bytes: x"), "queue.scheduler.quantum_bytes: x");
        assert_eq!(at_path("queue", "invalid type: string \"a\""), "queue: invalid type: string \"a\"");
        assert_eq!(at_path("queue", "\"type\" must be a string"), "queue: \"type\" must be a string");
    }

    #[test]
    fn long_names_are_not_echoed_whole() {
        assert!(echo(&"x".repeat(100_000)).chars().count() <= 41);
    }
}
