//! A small self-describing binary serde format for what the simulation sends the page.
//!
//! Why hand-written: the progress of a run is tens of thousands of numbers a second.
//! Building them as JS objects (serde-wasm-bindgen, before) cost the worker and the page
//! 6-8 ms each per message, a third of the warm RED study's time from Run to finished;
//! bytes built and read in wasm cost well under a millisecond and cross threads without a
//! copy. JSON cannot carry NaN (the statistics of an empty window), bincode and postcard
//! cannot read the log's JSON values (`deserialize_any`), and CBOR's crate made both
//! modules 26-32 kB gzipped larger; this one is smaller than the code it replaces.
//!
//! Every value starts with a tag byte. Integers are LEB128 varints (signed ones zigzagged),
//! floats their 8 bytes (every bit, NaN too), strings and byte strings a varint length and
//! the bytes, sequences and maps a varint count and their items. Structs are maps keyed by
//! field name, tuples sequences; an enum variant is its name, or a one-entry map from its
//! name to its content, as in JSON.

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::ser::{self, Serialize};
use std::fmt;

const UNIT: u8 = 0;
const FALSE: u8 = 1;
const TRUE: u8 = 2;
const UINT: u8 = 3;
const INT: u8 = 4;
const FLOAT: u8 = 5;
const STR: u8 = 6;
const BYTES: u8 = 7;
const SOME: u8 = 8;
const SEQ: u8 = 9;
const MAP: u8 = 10;

#[derive(Debug)]
pub struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

type Result<T> = std::result::Result<T, Error>;

/// `v` as bytes.
pub fn to_bytes<T: Serialize + ?Sized>(v: &T) -> Result<Vec<u8>> {
    let mut s = Serializer { out: Vec::with_capacity(4096) };
    v.serialize(&mut s)?;
    Ok(s.out)
}

/// The value [`to_bytes`] wrote; every byte must be used.
pub fn from_bytes<'a, T: de::Deserialize<'a>>(bytes: &'a [u8]) -> Result<T> {
    let mut d = Deserializer { input: bytes };
    let v = T::deserialize(&mut d)?;
    if d.input.is_empty() {
        Ok(v)
    } else {
        Err(Error(format!("{} bytes left over", d.input.len())))
    }
}

pub struct Serializer {
    out: Vec<u8>,
}

impl Serializer {
    fn varint(&mut self, mut n: u64) {
        while n >= 0x80 {
            self.out.push((n as u8) | 0x80);
            n >>= 7;
        }
        self.out.push(n as u8);
    }

    fn tagged(&mut self, tag: u8, n: u64) {
        self.out.push(tag);
        self.varint(n);
    }

    fn text(&mut self, s: &str) {
        self.tagged(STR, s.len() as u64);
        self.out.extend_from_slice(s.as_bytes());
    }

    fn count(len: Option<usize>) -> Result<u64> {
        len.map(|n| n as u64).ok_or_else(|| Error("a sequence or map of unknown length".into()))
    }
}

impl ser::Serializer for &mut Serializer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.out.push(if v { TRUE } else { FALSE });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.tagged(INT, ((v << 1) ^ (v >> 63)) as u64);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.tagged(UINT, v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.out.push(FLOAT);
        self.out.extend_from_slice(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.text(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        self.text(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.tagged(BYTES, v.len() as u64);
        self.out.extend_from_slice(v);
        Ok(())
    }
    fn serialize_none(self) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<()> {
        self.out.push(SOME);
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.out.push(UNIT);
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<()> {
        self.text(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, v: &T) -> Result<()> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<()> {
        self.tagged(MAP, 1);
        self.text(variant);
        v.serialize(self)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self> {
        self.tagged(SEQ, Serializer::count(len)?);
        Ok(self)
    }
    fn serialize_tuple(self, len: usize) -> Result<Self> {
        self.tagged(SEQ, len as u64);
        Ok(self)
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Self> {
        self.serialize_tuple(len)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self> {
        self.tagged(MAP, 1);
        self.text(variant);
        self.serialize_tuple(len)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self> {
        self.tagged(MAP, Serializer::count(len)?);
        Ok(self)
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Self> {
        self.tagged(MAP, len as u64);
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self> {
        self.tagged(MAP, 1);
        self.text(variant);
        self.serialize_struct("", len)
    }
}

macro_rules! items {
    ($($trait:ident :: $method:ident),+) => {$(
        impl ser::$trait for &mut Serializer {
            type Ok = ();
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
                v.serialize(&mut **self)
            }
            fn end(self) -> Result<()> {
                Ok(())
            }
        }
    )+};
}

items!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for &mut Serializer {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<()> {
        k.serialize(&mut **self)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
        v.serialize(&mut **self)
    }
    fn end(self) -> Result<()> {
        Ok(())
    }
}

impl ser::SerializeStruct for &mut Serializer {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<()> {
        self.text(key);
        v.serialize(&mut **self)
    }
    fn end(self) -> Result<()> {
        Ok(())
    }
}

impl ser::SerializeStructVariant for &mut Serializer {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<()> {
        ser::SerializeStruct::serialize_field(self, key, v)
    }
    fn end(self) -> Result<()> {
        Ok(())
    }
}

pub struct Deserializer<'de> {
    input: &'de [u8],
}

impl<'de> Deserializer<'de> {
    fn byte(&mut self) -> Result<u8> {
        let (&b, rest) = self.input.split_first().ok_or_else(|| Error("the message ends early".into()))?;
        self.input = rest;
        Ok(b)
    }

    fn peek(&self) -> Result<u8> {
        self.input.first().copied().ok_or_else(|| Error("the message ends early".into()))
    }

    fn varint(&mut self) -> Result<u64> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(n);
            }
        }
        Err(Error("a varint over 64 bits".into()))
    }

    fn take(&mut self, n: u64) -> Result<&'de [u8]> {
        let n = usize::try_from(n).ok().filter(|&n| n <= self.input.len());
        let n = n.ok_or_else(|| Error("a length past the message's end".into()))?;
        let (head, rest) = self.input.split_at(n);
        self.input = rest;
        Ok(head)
    }

    fn text(&mut self) -> Result<&'de str> {
        let n = self.varint()?;
        std::str::from_utf8(self.take(n)?).map_err(|e| Error(e.to_string()))
    }

    fn float(&mut self) -> Result<f64> {
        let b = self.take(8)?;
        Ok(f64::from_le_bytes(b.try_into().expect("8 bytes")))
    }

    fn expect(&mut self, tag: u8, wanted: &str) -> Result<()> {
        match self.byte()? {
            t if t == tag => Ok(()),
            t => Err(unexpected(t, wanted)),
        }
    }

    /// Steps over one value.
    fn skip(&mut self) -> Result<()> {
        match self.byte()? {
            UNIT | FALSE | TRUE => {}
            UINT | INT => {
                self.varint()?;
            }
            FLOAT => {
                self.take(8)?;
            }
            STR | BYTES => {
                let n = self.varint()?;
                self.take(n)?;
            }
            SOME => self.skip()?,
            SEQ => {
                for _ in 0..self.varint()? {
                    self.skip()?;
                }
            }
            MAP => {
                for _ in 0..self.varint()? {
                    self.skip()?;
                    self.skip()?;
                }
            }
            t => return Err(unexpected(t, "a value")),
        }
        Ok(())
    }
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.byte()? {
            UNIT => v.visit_unit(),
            FALSE => v.visit_bool(false),
            TRUE => v.visit_bool(true),
            UINT => v.visit_u64(self.varint()?),
            INT => {
                let z = self.varint()?;
                v.visit_i64((z >> 1) as i64 ^ -((z & 1) as i64))
            }
            FLOAT => v.visit_f64(self.float()?),
            STR => v.visit_borrowed_str(self.text()?),
            BYTES => {
                let n = self.varint()?;
                v.visit_borrowed_bytes(self.take(n)?)
            }
            SOME => v.visit_some(self),
            SEQ => {
                let left = self.varint()?;
                v.visit_seq(Items { d: self, left })
            }
            MAP => {
                let left = self.varint()?;
                v.visit_map(Items { d: self, left })
            }
            t => Err(Error(format!("unknown tag {t}"))),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.byte()? {
            FALSE => v.visit_bool(false),
            TRUE => v.visit_bool(true),
            t => Err(unexpected(t, "a bool")),
        }
    }

    fn deserialize_u64<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.expect(UINT, "an unsigned integer")?;
        v.visit_u64(self.varint()?)
    }

    fn deserialize_i64<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.expect(INT, "an integer")?;
        let z = self.varint()?;
        v.visit_i64((z >> 1) as i64 ^ -((z & 1) as i64))
    }

    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.expect(FLOAT, "a float")?;
        v.visit_f64(self.float()?)
    }

    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.expect(STR, "a string")?;
        v.visit_borrowed_str(self.text()?)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.expect(BYTES, "bytes")?;
        let n = self.varint()?;
        v.visit_borrowed_bytes(self.take(n)?)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.expect(UNIT, "a unit")?;
        v.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, v: V) -> Result<V::Value> {
        self.deserialize_unit(v)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.peek()? {
            UNIT => {
                self.byte()?;
                v.visit_none()
            }
            SOME => {
                self.byte()?;
                v.visit_some(self)
            }
            _ => v.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, v: V) -> Result<V::Value> {
        v.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.expect(SEQ, "a sequence")?;
        let left = self.varint()?;
        v.visit_seq(Items { d: self, left })
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        v: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.expect(MAP, "a map")?;
        let left = self.varint()?;
        v.visit_map(Items { d: self, left })
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        self.deserialize_map(v)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        match self.byte()? {
            STR => v.visit_enum(self.text()?.into_deserializer()),
            MAP if self.varint()? == 1 => v.visit_enum(Variant { d: self }),
            t => Err(unexpected(t, "an enum")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.skip()?;
        v.visit_unit()
    }

    // Each typed read calls one method of its visitor: going through deserialize_any for
    // every type made the page's module 29 kB gzipped larger. Narrower numbers read as the
    // 64-bit ones (serde's visitors check the range).
    fn deserialize_u8<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_u64(v)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_u64(v)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_u64(v)
    }
    fn deserialize_i8<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_i64(v)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_i64(v)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_i64(v)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_f64(v)
    }
    fn deserialize_char<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_str(v)
    }
    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_str(v)
    }
    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_str(v)
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_bytes(v)
    }

    serde::forward_to_deserialize_any! { i128 u128 }
}

fn unexpected(tag: u8, wanted: &str) -> Error {
    Error(format!("{wanted} was expected, not tag {tag}"))
}

/// The items of a sequence or the entries of a map.
struct Items<'a, 'de> {
    d: &'a mut Deserializer<'de>,
    left: u64,
}

impl<'de> de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.d).map(Some)
    }
    fn size_hint(&self) -> Option<usize> {
        usize::try_from(self.left).ok().map(|n| n.min(4096))
    }
}

impl<'de> de::MapAccess<'de> for Items<'_, 'de> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.d).map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.d)
    }
    fn size_hint(&self) -> Option<usize> {
        usize::try_from(self.left).ok().map(|n| n.min(4096))
    }
}

/// A variant with content: its name, then the content.
struct Variant<'a, 'de> {
    d: &'a mut Deserializer<'de>,
}

impl<'de> de::EnumAccess<'de> for Variant<'_, 'de> {
    type Error = Error;
    type Variant = Self;
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let name = seed.deserialize(&mut *self.d)?;
        Ok((name, self))
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_, 'de> {
    type Error = Error;
    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(&mut *self.d)
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(&mut *self.d)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value> {
        de::Deserializer::deserialize_any(&mut *self.d, v)
    }
    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], v: V) -> Result<V::Value> {
        de::Deserializer::deserialize_any(&mut *self.d, v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};
    use std::collections::BTreeMap;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    enum E {
        Unit,
        New(i32),
        Tuple(u8, String),
        Struct { a: Option<f64>, b: Vec<u64> },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "type")]
    enum Tagged {
        A { x: u32 },
        B { y: String },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct S {
        es: Vec<E>,
        t: (i64, bool, char),
        m: BTreeMap<String, Tagged>,
        json: serde_json::Map<String, serde_json::Value>,
        unit: (),
        none: Option<String>,
        nested: Option<Option<u8>>,
    }

    #[test]
    fn every_serde_shape_reads_back_equal() {
        let mut json = serde_json::Map::new();
        json.insert("n".into(), serde_json::json!([1, -2, 2.5, "x", null, {"k": true}]));
        let s = S {
            es: vec![
                E::Unit,
                E::New(-7),
                E::Tuple(3, "é".into()),
                E::Struct { a: Some(0.1), b: vec![u64::MAX, 0] },
            ],
            t: (i64::MIN, true, '∑'),
            m: [("a".to_string(), Tagged::A { x: 5 }), ("b".to_string(), Tagged::B { y: "z".into() })].into(),
            json,
            unit: (),
            none: None,
            nested: Some(None),
        };
        assert_eq!(from_bytes::<S>(&to_bytes(&s).unwrap()).unwrap(), s);
    }

    #[test]
    fn floats_cross_bit_for_bit_and_integers_exactly() {
        let xs = vec![f64::NAN, -0.0, f64::MIN_POSITIVE / 3.0, 1e308, f64::NEG_INFINITY, 0.1];
        let back: Vec<f64> = from_bytes(&to_bytes(&xs).unwrap()).unwrap();
        assert_eq!(
            back.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
        let ns = vec![(u64::MAX, i64::MIN), (1 << 53 | 1, -1), (0, i64::MAX)];
        assert_eq!(from_bytes::<Vec<(u64, i64)>>(&to_bytes(&ns).unwrap()).unwrap(), ns);
    }

    #[test]
    fn truncated_or_padded_messages_are_refused() {
        let bytes = to_bytes(&("abc", vec![1.5f64; 3])).unwrap();
        for n in 0..bytes.len() {
            assert!(from_bytes::<(String, Vec<f64>)>(&bytes[..n]).is_err(), "{n} bytes");
        }
        let mut padded = bytes.clone();
        padded.push(0);
        assert!(from_bytes::<(String, Vec<f64>)>(&padded).is_err());
    }
}
