//! Text → JSON value in one pass: members that are `null` are dropped (Kubernetes treats them
//! as absent) and a key given twice in one map is refused, as kube-apiserver's strict decoding
//! refuses it (`duplicate field "kind"`), with the path of the second one.
//!
//! serde_json and serde_yaml_ng both keep the last value of a repeated key without a word, so
//! the value is built here by a `DeserializeSeed` that behaves as `serde_json::Value`'s own
//! `Deserialize` except for those two points. The repeated key is caught while its key is read,
//! so the parser's error carries the line of the second occurrence; the path is put together
//! only on the way out of an error (nothing is tracked while parsing succeeds).

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::cell::RefCell;
use std::fmt;

/// A key given twice: the key and the path of the map that holds it.
#[derive(Debug, Default)]
pub(crate) struct Duplicate {
    /// The repeated key.
    pub key: String,
    /// Segments from the map holding the key up to the document root (innermost first).
    segments: Vec<Segment>,
}

#[derive(Debug)]
enum Segment {
    Key(String),
    Index(usize),
}

impl Duplicate {
    /// The path of the repeated key in the document (`items[3].metadata.labels["app name"]`).
    pub fn path(&self) -> String {
        let mut path = String::new();
        for s in self.segments.iter().rev() {
            match s {
                Segment::Key(k) => push_key(&mut path, k),
                Segment::Index(i) => {
                    path.push('[');
                    path.push_str(&i.to_string());
                    path.push(']');
                }
            }
        }
        push_key(&mut path, &self.key);
        path
    }

    /// `duplicate field "kind"`, as sigs.k8s.io/json's strict decoding words it.
    pub fn message(&self) -> String {
        format!(
            "duplicate field {}",
            crate::input::validate::go_quote(&self.key)
        )
    }
}

/// Appends a map key to a path: `.name` for plain keys, `["app.kubernetes.io/name"]` for keys
/// that hold anything but letters, digits, `-` and `_` (the line finder reads both).
pub(crate) fn push_key(path: &mut String, key: &str) {
    let plain = !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if plain {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
    } else {
        path.push('[');
        // A JSON string literal: quotes and backslashes escaped.
        path.push_str(&Value::String(key.to_string()).to_string());
        path.push(']');
    }
}

/// Shared by every level of one document's parse.
#[derive(Default)]
pub(crate) struct Context {
    duplicate: RefCell<Option<Duplicate>>,
}

impl Context {
    /// The duplicate that stopped the parse, if that is what stopped it.
    pub fn take_duplicate(&self) -> Option<Duplicate> {
        self.duplicate.borrow_mut().take()
    }

    fn unwinding(&self) -> bool {
        self.duplicate.borrow().is_some()
    }

    fn push(&self, s: Segment) {
        if let Some(d) = self.duplicate.borrow_mut().as_mut() {
            d.segments.push(s);
        }
    }
}

/// Deserializes one JSON value (see the module documentation).
#[derive(Clone, Copy)]
pub(crate) struct ValueSeed<'c> {
    pub ctx: &'c Context,
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Value, E> {
        let de = de::value::I128Deserializer::new(v);
        <Number as serde::Deserialize>::deserialize(de).map(Value::Number)
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Value, E> {
        let de = de::value::U128Deserializer::new(v);
        <Number as serde::Deserialize>::deserialize(de).map(Value::Number)
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        loop {
            match seq.next_element_seed(self) {
                Ok(Some(v)) => items.push(v),
                Ok(None) => break,
                Err(e) => {
                    if self.ctx.unwinding() {
                        self.ctx.push(Segment::Index(items.len()));
                    }
                    return Err(e);
                }
            }
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        let mut nulls = false;
        while let Some(key) = access.next_key_seed(KeySeed {
            ctx: self.ctx,
            map: &map,
        })? {
            match access.next_value_seed(self) {
                Ok(v) => {
                    nulls |= v.is_null();
                    map.insert(key, v);
                }
                Err(e) => {
                    if self.ctx.unwinding() {
                        self.ctx.push(Segment::Key(key));
                    }
                    return Err(e);
                }
            }
        }
        if nulls {
            // Dropped only now, so that a key given once as null and once more is still seen.
            map.retain(|_, v| !v.is_null());
        }
        Ok(Value::Object(map))
    }
}

/// Reads a map key and refuses one the map already holds.
struct KeySeed<'c, 'm> {
    ctx: &'c Context,
    map: &'m Map<String, Value>,
}

impl<'de> DeserializeSeed<'de> for KeySeed<'_, '_> {
    type Value = String;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_, '_> {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        self.check(v)?;
        Ok(v.to_string())
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<String, E> {
        self.check(&v)?;
        Ok(v)
    }
}

impl KeySeed<'_, '_> {
    fn check<E: de::Error>(&self, key: &str) -> Result<(), E> {
        if !self.map.contains_key(key) {
            return Ok(());
        }
        *self.ctx.duplicate.borrow_mut() = Some(Duplicate {
            key: key.to_string(),
            segments: Vec::new(),
        });
        Err(E::custom(format!("duplicate field {key:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> Result<Value, (String, String)> {
        let ctx = Context::default();
        let mut de = serde_json::Deserializer::from_str(text);
        match (ValueSeed { ctx: &ctx }).deserialize(&mut de) {
            Ok(v) => Ok(v),
            Err(e) => {
                let d = ctx.take_duplicate().expect("a duplicate");
                Err((d.path(), format!("{} (line {})", d.message(), e.line())))
            }
        }
    }

    #[test]
    fn nulls_are_dropped_from_maps_only() {
        let v = json(r#"{"a": null, "b": [null, {"c": null, "d": 1}]}"#).unwrap();
        assert_eq!(v, serde_json::json!({"b": [null, {"d": 1}]}));
    }

    #[test]
    fn a_repeated_key_names_its_path_and_line() {
        let text = "{\"items\": [{}, {\"metadata\": {\"labels\": {\n\"app name\": \"a\",\n\"app name\": \"b\"}}}]}";
        assert_eq!(
            json(text),
            Err((
                "items[1].metadata.labels[\"app name\"]".to_string(),
                "duplicate field \"app name\" (line 3)".to_string()
            ))
        );
        assert_eq!(
            json(r#"{"kind": "Node", "kind": "Pod"}"#).unwrap_err().0,
            "kind"
        );
        // Given once as null, then again: still a duplicate.
        assert_eq!(json(r#"{"a": null, "a": 1}"#).unwrap_err().0, "a");
    }

    #[test]
    fn keys_are_quoted_when_they_are_not_plain() {
        let mut p = String::from("metadata.labels");
        push_key(&mut p, "app.kubernetes.io/name");
        assert_eq!(p, "metadata.labels[\"app.kubernetes.io/name\"]");
        let mut q = String::new();
        push_key(&mut q, "kind");
        push_key(&mut q, "a\"b");
        assert_eq!(q, "kind[\"a\\\"b\"]");
    }
}
