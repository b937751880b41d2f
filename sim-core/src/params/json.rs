//! Reading JSON that people wrote or pasted, strictly, with the path of what is wrong.
//!
//! serde_json alone keeps the last of two equal keys (`"type":"cubic","type":"bbr"` gives
//! BBR), and for `Infinity` or `NaN` (Python's `json.dumps` writes them) or `1e400` it says
//! only "line 1 column 40". [`parse`] refuses equal keys at any depth and names every
//! problem by its path (`bottleneck.rate_bps`); the numbers are serde_json's own, so a
//! document it accepts reads exactly as before.
//!
//! [`deserialize`] reads a typed document from the value as serde_path_to_error does, but
//! takes an object only as an object: serde's derived structs would otherwise read a list
//! positionally (`[5, 4, [64]]` as `state_dim`, `actions`, `hidden`).

use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::cell::RefCell;
use std::fmt;

pub use super::echo::echo_value;

/// What is wrong at [`JsonError::path`].
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// `Infinity`, `-Infinity` or `NaN` (as written, shortened).
    NotFinite(String),
    /// A number beyond ±1.8·10³⁰⁸, e.g. `1e400` (as written, shortened).
    TooLarge(String),
    /// The key appears a second time in one object.
    DuplicateKey(String),
    /// serde_json's own message (with its line and column).
    Syntax(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct JsonError {
    /// Path of the value where reading stopped (`flows[0].cca.beta`); empty at the top.
    pub path: String,
    pub problem: Problem,
    /// For a number that is not finite or too large: the document with `null` in its place
    /// when the rest reads, so the caller can look up what the field allows.
    pub doc: Option<Box<Value>>,
}

impl JsonError {
    /// The message, with the allowed values when the caller knows them.
    pub fn message(&self, allowed: Option<&str>) -> String {
        let what = match &self.problem {
            Problem::NotFinite(t) => {
                format!("{t} is not a finite number (JSON has no Infinity or NaN)")
            }
            Problem::TooLarge(t) => format!("{t} is not a finite number (beyond ±1.8e308)"),
            Problem::DuplicateKey(k) => {
                let within = match self.path.rsplit_once('.') {
                    Some((parent, _)) => format!("in {parent}"),
                    None => "at the top level".to_string(),
                };
                format!("the key \"{k}\" appears twice {within}; each key may appear once")
            }
            Problem::Syntax(m) => format!("not valid JSON ({m})"),
        };
        let what = match allowed {
            Some(a) => format!("{what}; allowed: {a}"),
            None if matches!(self.problem, Problem::NotFinite(_) | Problem::TooLarge(_)) => {
                format!("{what}; allowed: a finite number")
            }
            None => what,
        };
        if self.path.is_empty() {
            what
        } else {
            format!("{}: {what}", self.path)
        }
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(None))
    }
}

/// Parses `text` into a value; refuses equal keys in an object, `Infinity`, `NaN` and
/// numbers beyond f64, each with its path.
pub fn parse(text: &str) -> Result<Value, JsonError> {
    let sentinel = sentinel_for(text);
    // Non-finite words become marked strings, so the reader meets them where they stand
    // and knows their path; serde_json would stop there with a position only.
    let marked = mark_non_finite(text, &sentinel);
    let st = State { sentinel, first: RefCell::new(None), failed_at: RefCell::new(None) };
    let mut de = serde_json::Deserializer::from_str(&marked);
    let read = Node { path: String::new(), st: &st }.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    if let Some((path, problem)) = st.first.into_inner() {
        let doc = read.ok().filter(|_| !matches!(problem, Problem::DuplicateKey(_))).map(Box::new);
        return Err(JsonError { path, problem, doc });
    }
    read.map_err(|e| JsonError {
        path: st.failed_at.into_inner().unwrap_or_default(),
        problem: Problem::Syntax(super::echo::echo_long(&e.to_string())),
        doc: None,
    })
}

/// Reads `T` from `v`, naming the path of a bad field; a list is read only where the type
/// asks for a list (see the module docs). Messages are serde's, made readable by
/// [`super::explain`].
pub fn deserialize<T: DeserializeOwned>(v: &Value) -> Result<T, String> {
    deserialize_at(v).map_err(|(path, msg)| if path.is_empty() { msg } else { super::at_path(&path, &msg) })
}

/// As [`deserialize`], the error as (path, message); the path is empty at the top.
pub fn deserialize_at<T: DeserializeOwned>(v: &Value) -> Result<T, (String, String)> {
    serde_path_to_error::deserialize(Strict(v)).map_err(|e| {
        let path = e.path().to_string();
        let msg = super::explain(&e.into_inner().to_string());
        (if path == "." { String::new() } else { path }, msg)
    })
}

/// A prefix no string of `text` can hold unless it spells it out.
fn sentinel_for(text: &str) -> String {
    (0u32..)
        .map(|n| format!("\u{1}aqm-json-{n}:"))
        .find(|s| !text.contains(&s[1..]))
        .expect("some number is unused")
}

/// Replaces every bare word outside strings that is a non-finite number (`Infinity`,
/// `-Infinity`, `NaN`, `inf`) or a number f64 cannot hold with the string
/// `"<sentinel>n:<word>"` or `"<sentinel>r:<word>"`.
fn mark_non_finite(text: &str, sentinel: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut i, mut copied) = (0, 0);
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            c if c.is_ascii_whitespace() || b"{}[],:".contains(&c) => i += 1,
            _ => {
                let start = i;
                while i < b.len() && !(b[i].is_ascii_whitespace() || b"{}[],:\"".contains(&b[i])) {
                    i += 1;
                }
                // Words end at ASCII bytes, so the slice is on character boundaries.
                let word = &text[start..i];
                let kind = non_finite_kind(word);
                if let Some(k) = kind {
                    out.push_str(&text[copied..start]);
                    // Such a word holds no quote or backslash.
                    let shown = echo_value(word);
                    out.push_str(&format!("\"\\u0001{}{k}:{shown}\"", &sentinel[1..]));
                    copied = i;
                }
            }
        }
    }
    out.push_str(&text[copied.min(text.len())..]);
    out
}

fn non_finite_kind(word: &str) -> Option<char> {
    let bare = word.trim_start_matches(['-', '+']).to_ascii_lowercase();
    if ["infinity", "inf", "nan"].contains(&bare.as_str()) {
        return Some('n');
    }
    let numeric = word.starts_with(|c: char| c == '-' || c.is_ascii_digit())
        && word.chars().all(|c| c.is_ascii_digit() || "+-.eE".contains(c));
    match word.parse::<f64>() {
        Ok(x) if numeric && x.is_infinite() => Some('r'),
        _ => None,
    }
}

struct State {
    sentinel: String,
    /// The first problem the reader found itself, with its path.
    first: RefCell<Option<(String, Problem)>>,
    /// Innermost path at which serde_json stopped.
    failed_at: RefCell<Option<String>>,
}

impl State {
    fn found(&self, path: &str, p: Problem) {
        self.first.borrow_mut().get_or_insert_with(|| (path.to_string(), p));
    }
    fn stopped(&self, path: &str) {
        self.failed_at.borrow_mut().get_or_insert_with(|| path.to_string());
    }
}

/// Longest key kept whole in a path (the scenario's longest is 27 characters).
const KEY_MAX: usize = 64;

fn join(path: &str, key: &str) -> String {
    let key = super::echo::cut(key, KEY_MAX);
    if path.is_empty() {
        key
    } else {
        format!("{path}.{key}")
    }
}

/// Builds a value while keeping the path of what it reads.
struct Node<'a> {
    path: String,
    st: &'a State,
}

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Node<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        match v.strip_prefix(self.st.sentinel.as_str()) {
            Some(rest) if rest.starts_with("n:") || rest.starts_with("r:") => {
                let word = rest[2..].to_string();
                let p =
                    if rest.starts_with('n') { Problem::NotFinite(word) } else { Problem::TooLarge(word) };
                self.st.found(&self.path, p);
                Ok(Value::Null)
            }
            _ => Ok(Value::String(v.to_string())),
        }
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        self.visit_str(&v)
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        loop {
            let path = format!("{}[{}]", self.path, out.len());
            match seq.next_element_seed(Node { path: path.clone(), st: self.st }) {
                Ok(Some(v)) => out.push(v),
                Ok(None) => return Ok(Value::Array(out)),
                Err(e) => {
                    self.st.stopped(&path);
                    return Err(e);
                }
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        loop {
            let key = match map.next_key::<String>() {
                Ok(Some(k)) => k,
                Ok(None) => return Ok(Value::Object(out)),
                Err(e) => {
                    self.st.stopped(&self.path);
                    return Err(e);
                }
            };
            let path = join(&self.path, &key);
            if key.starts_with(self.st.sentinel.as_str()) {
                self.st.found(&self.path, Problem::Syntax("a key must be a quoted string".into()));
                return Err(de::Error::custom("unquoted key"));
            }
            if out.contains_key(&key) {
                self.st.found(&path, Problem::DuplicateKey(echo_value(&key)));
                return Err(de::Error::custom("duplicate key"));
            }
            match map.next_value_seed(Node { path: path.clone(), st: self.st }) {
                Ok(v) => {
                    out.insert(key, v);
                }
                Err(e) => {
                    self.st.stopped(&path);
                    return Err(e);
                }
            }
        }
    }
}

/// A value as a serde deserializer that reads a struct or a map only from an object, and a
/// list only where the type asks for one (`deserialize_seq`): serde's derived structs, and
/// internally tagged enums through `deserialize_any`, would read a list positionally.
/// Typed documents only: a free-form `Value` field cannot hold a list through it.
struct Strict<'a>(&'a Value);

type E = serde_json::Error;

fn not_a_list(v: &Value, what: &str) -> E {
    let got = match v {
        Value::Array(_) => "a list [...]".to_string(),
        other => echo_value(&other.to_string()),
    };
    de::Error::custom(format!("expected {what} with named keys, got {got}"))
}

impl<'de, 'a> de::Deserializer<'de> for Strict<'a> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        match self.0 {
            Value::Null => v.visit_unit(),
            Value::Bool(b) => v.visit_bool(*b),
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    v.visit_u64(u)
                } else if let Some(i) = n.as_i64() {
                    v.visit_i64(i)
                } else {
                    v.visit_f64(n.as_f64().unwrap_or(f64::NAN))
                }
            }
            Value::String(s) => v.visit_str(s),
            Value::Array(_) => Err(not_a_list(self.0, "an object")),
            Value::Object(m) => v.visit_map(StrictMap { it: m.iter(), value: None }),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        match self.0 {
            Value::Null => v.visit_none(),
            _ => v.visit_some(self),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        match self.0 {
            Value::Array(a) => v.visit_seq(StrictSeq { it: a.iter() }),
            other => Err(de::Error::invalid_type(unexpected(other), &v)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value, E> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _n: &'static str,
        _len: usize,
        v: V,
    ) -> Result<V::Value, E> {
        self.deserialize_seq(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        match self.0 {
            Value::Object(m) => v.visit_map(StrictMap { it: m.iter(), value: None }),
            other => Err(not_a_list(other, "an object")),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, E> {
        self.deserialize_map(v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, v: V) -> Result<V::Value, E> {
        v.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, E> {
        match self.0 {
            // A unit variant by name; a variant with data as {"name": data}.
            Value::String(s) => v.visit_enum(s.as_str().into_deserializer()),
            Value::Object(m) if m.len() == 1 => {
                let (k, x) = m.iter().next().expect("one entry");
                v.visit_enum(StrictEnum { tag: k, value: x })
            }
            other => Err(not_a_list(other, "a name or an object")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        v.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct identifier
    }
}

fn unexpected(v: &Value) -> de::Unexpected<'_> {
    match v {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(n) => n.as_f64().map_or(de::Unexpected::Other("number"), de::Unexpected::Float),
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

struct StrictSeq<'a> {
    it: std::slice::Iter<'a, Value>,
}

impl<'de, 'a> SeqAccess<'de> for StrictSeq<'a> {
    type Error = E;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, E> {
        self.it.next().map(|x| seed.deserialize(Strict(x))).transpose()
    }
}

struct StrictMap<'a> {
    it: serde_json::map::Iter<'a>,
    value: Option<&'a Value>,
}

impl<'de, 'a> MapAccess<'de> for StrictMap<'a> {
    type Error = E;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, E> {
        match self.it.next() {
            Some((k, x)) => {
                self.value = Some(x);
                seed.deserialize(k.as_str().into_deserializer()).map(Some)
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, E> {
        let x = self.value.take().ok_or_else(|| de::Error::custom("a value without its key"))?;
        seed.deserialize(Strict(x))
    }
}

struct StrictEnum<'a> {
    tag: &'a str,
    value: &'a Value,
}

impl<'de, 'a> de::EnumAccess<'de> for StrictEnum<'a> {
    type Error = E;
    type Variant = Strict<'a>;
    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Strict<'a>), E> {
        let tag = seed.deserialize(self.tag.into_deserializer())?;
        Ok((tag, Strict(self.value)))
    }
}

impl<'de, 'a> de::VariantAccess<'de> for Strict<'a> {
    type Error = E;
    fn unit_variant(self) -> Result<(), E> {
        match self.0 {
            Value::Null => Ok(()),
            other => Err(de::Error::invalid_type(unexpected(other), &"no data")),
        }
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, E> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value, E> {
        de::Deserializer::deserialize_seq(self, v)
    }
    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], v: V) -> Result<V::Value, E> {
        de::Deserializer::deserialize_map(self, v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    fn err(text: &str) -> JsonError {
        parse(text).unwrap_err()
    }

    #[test]
    fn a_document_serde_json_reads_reads_the_same() {
        let text =
            r#"{"a": [1, -2, 0.1, 1e-300, 18446744073709551615, "x\"y"], "b": {"c": null, "d": true}}"#;
        assert_eq!(parse(text).unwrap(), serde_json::from_str::<Value>(text).unwrap());
    }

    #[test]
    fn infinity_and_nan_are_named_by_their_path_with_the_rest_of_the_document() {
        let e = err(r#"{"bottleneck": {"rate_bps": Infinity, "delay_ms": 5}}"#);
        assert_eq!(e.path, "bottleneck.rate_bps");
        assert_eq!(e.problem, Problem::NotFinite("Infinity".into()));
        assert_eq!(e.doc.unwrap()["bottleneck"]["delay_ms"], 5);
        assert_eq!(err(r#"{"a": [1, -Infinity]}"#).path, "a[1]");
        assert_eq!(err("{\"a\":\n  NaN}").problem, Problem::NotFinite("NaN".into()));
        let m = err(r#"{"x": {"y": NaN}}"#).message(Some("0 to 1"));
        assert_eq!(m, "x.y: NaN is not a finite number (JSON has no Infinity or NaN); allowed: 0 to 1");
    }

    #[test]
    fn the_words_inside_strings_are_left_alone() {
        let v = parse(r#"{"name": "Infinity and NaN \" Infinity", "n": 1}"#).unwrap();
        assert_eq!(v["name"], "Infinity and NaN \" Infinity");
    }

    #[test]
    fn a_number_beyond_f64_is_named_and_shortened() {
        let digits = "9".repeat(400);
        let e = err(&format!("{{\"seed\": {digits}}}"));
        assert_eq!(e.path, "seed");
        let m = e.to_string();
        assert!(m.contains(&format!("{}…", "9".repeat(24))) && m.len() < 200, "{m}");
        assert_eq!(err(r#"{"a": 1e400}"#).problem, Problem::TooLarge("1e400".into()));
        // A 300-digit number still fits in f64, as serde_json reads it.
        assert!(parse(&format!("{{\"a\": 1{}}}", "0".repeat(300))).is_ok());
    }

    #[test]
    fn equal_keys_are_refused_at_any_depth() {
        let e = err(r#"{"flows": [{"cca": {"type": "cubic", "type": "bbr"}}]}"#);
        assert_eq!(e.path, "flows[0].cca.type");
        assert_eq!(
            e.to_string(),
            "flows[0].cca.type: the key \"type\" appears twice in flows[0].cca; each key may appear once"
        );
        assert_eq!(err(r#"{"b": {}, "b": {}}"#).path, "b");
        assert!(err(r#"{"b": 1, "b": 1}"#).to_string().contains("at the top level"));
        // Escapes that spell the same key are the same key.
        assert_eq!(err(r#"{"ab": 1, "a\u0062": 2}"#).problem, Problem::DuplicateKey("ab".into()));
    }

    #[test]
    fn syntax_errors_name_where_reading_stopped() {
        let e = err(r#"{"a": {"b": tru}}"#);
        assert_eq!(e.path, "a.b");
        assert!(matches!(e.problem, Problem::Syntax(ref m) if m.contains("line 1")), "{e:?}");
        assert_eq!(err(r#"{Infinity: 1}"#).problem, Problem::Syntax("a key must be a quoted string".into()));
        assert!(matches!(err("[1, 2] x").problem, Problem::Syntax(_)));
        assert!(matches!(err("").problem, Problem::Syntax(_)));
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(err(&deep).to_string().contains("recursion limit"));
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Two {
        a: u32,
        b: Vec<u32>,
        #[serde(default)]
        c: Option<Inner>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(tag = "type", rename_all = "snake_case")]
    enum Inner {
        Huber { delta: f64 },
        Mse,
    }

    #[test]
    fn strict_reading_takes_objects_as_objects_only() {
        let ok: Two =
            deserialize(&serde_json::json!({"a": 1, "b": [2], "c": {"type": "huber", "delta": 1.5}}))
                .unwrap();
        assert_eq!(ok, Two { a: 1, b: vec![2], c: Some(Inner::Huber { delta: 1.5 }) });
        let e = deserialize::<Two>(&serde_json::json!([1, [2]])).unwrap_err();
        assert!(e.contains("expected an object with named keys, got a list"), "{e}");
        let e = deserialize::<Two>(&serde_json::json!({"a": 1, "b": [2], "c": ["huber", 1.5]})).unwrap_err();
        assert!(e.starts_with("c: expected an object"), "{e}");
        let e = deserialize::<Two>(&serde_json::json!({"a": 1, "b": 2})).unwrap_err();
        assert!(e.starts_with("b: invalid type"), "{e}");
        let e = deserialize::<Two>(&serde_json::json!({"a": 1, "b": [], "bb": 0})).unwrap_err();
        assert!(e.contains("unknown field 'bb'"), "{e}");
    }
}
