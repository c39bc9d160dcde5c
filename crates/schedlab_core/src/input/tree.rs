//! The document tree the reader builds: what `serde_json::Value` holds, made cheap.
//!
//! Reading a 17 MB list into `serde_json::Value` (every string copied, every map an `IndexMap`
//! with its own hash table) and converting each item from there cost most of the reading
//! time and more than 300 MB. A [`Tree`] borrows its strings from the text where it can (JSON
//! strings without escapes, most YAML scalars), keeps a map as a vector of entries in input
//! order, and is itself a [`serde::Deserializer`] that hands the typed objects exactly the
//! calls `serde_json::Value`'s owned deserializer makes: the same visitor methods in the same
//! order, the same `invalid type` / `invalid length` errors (as `serde_json::Error`s, so they
//! print the same), and for the rare requests (enums, numeric or boolean map keys, bytes)
//! the value is handed to `serde_json::Value` itself. Objects the reader keeps as JSON values
//! (configurations, timelines) are converted with [`Tree::into_value`], which gives exactly
//! the value the previous reader built.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Unexpected, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::{Map, Number, Value};
use std::borrow::Cow;

/// One value of a document. Numbers are kept as `serde_json::Number` keeps them: non-negative
/// integers as `U64`, negative ones as `I64`, the rest as finite `F64` (a non-finite float is
/// null, as in `Value`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tree<'t> {
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A non-negative integer.
    U64(u64),
    /// A negative integer.
    I64(i64),
    /// A finite float.
    F64(f64),
    /// A string.
    Str(Cow<'t, str>),
    /// A sequence.
    Seq(Vec<Tree<'t>>),
    /// A map: keys are unique, in input order, and no value is null.
    Map(Vec<(Cow<'t, str>, Tree<'t>)>),
}

impl<'t> Tree<'t> {
    /// The tree of a `serde_json::Number`.
    pub(crate) fn number(n: &Number) -> Tree<'t> {
        if let Some(u) = n.as_u64() {
            Tree::U64(u)
        } else if let Some(i) = n.as_i64() {
            Tree::I64(i)
        } else {
            n.as_f64().map_or(Tree::Null, Tree::F64)
        }
    }

    /// The tree of a signed integer (`serde_json::Number::from(i64)`).
    pub(crate) fn int(v: i64) -> Tree<'t> {
        if v < 0 {
            Tree::I64(v)
        } else {
            Tree::U64(v as u64)
        }
    }

    /// The tree of a float (`Number::from_f64`: a non-finite float is null).
    pub(crate) fn float(v: f64) -> Tree<'t> {
        if v.is_finite() {
            Tree::F64(v)
        } else {
            Tree::Null
        }
    }

    /// The same tree owning its strings.
    pub(crate) fn into_owned(self) -> Tree<'static> {
        match self {
            Tree::Null => Tree::Null,
            Tree::Bool(b) => Tree::Bool(b),
            Tree::U64(u) => Tree::U64(u),
            Tree::I64(i) => Tree::I64(i),
            Tree::F64(f) => Tree::F64(f),
            Tree::Str(s) => Tree::Str(Cow::Owned(s.into_owned())),
            Tree::Seq(items) => Tree::Seq(items.into_iter().map(Tree::into_owned).collect()),
            Tree::Map(entries) => Tree::Map(
                entries
                    .into_iter()
                    .map(|(k, v)| (Cow::Owned(k.into_owned()), v.into_owned()))
                    .collect(),
            ),
        }
    }

    /// Whether this is `null`.
    pub(crate) fn is_null(&self) -> bool {
        matches!(self, Tree::Null)
    }

    /// The value of `key`, if this is a map that has it.
    pub(crate) fn get(&self, key: &str) -> Option<&Tree<'t>> {
        match self {
            Tree::Map(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value of `key`, mutably.
    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut Tree<'t>> {
        match self {
            Tree::Map(m) => m.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Tree::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The value as `serde_json::Value` (what the previous reader built).
    pub(crate) fn into_value(self) -> Value {
        match self {
            Tree::Null => Value::Null,
            Tree::Bool(b) => Value::Bool(b),
            Tree::U64(u) => Value::Number(u.into()),
            Tree::I64(i) => Value::Number(i.into()),
            Tree::F64(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
            Tree::Str(s) => Value::String(s.into_owned()),
            Tree::Seq(items) => Value::Array(items.into_iter().map(Tree::into_value).collect()),
            Tree::Map(entries) => {
                let mut map = Map::with_capacity(entries.len());
                for (k, v) in entries {
                    map.insert(k.into_owned(), v.into_value());
                }
                Value::Object(map)
            }
        }
    }

    /// [`Tree::into_value`] of a copy.
    pub(crate) fn to_value(&self) -> Value {
        self.clone().into_value()
    }

    #[cold]
    fn unexpected(&self) -> Unexpected<'_> {
        match self {
            Tree::Null => Unexpected::Unit,
            Tree::Bool(b) => Unexpected::Bool(*b),
            Tree::U64(u) => Unexpected::Unsigned(*u),
            Tree::I64(i) => Unexpected::Signed(*i),
            Tree::F64(f) => Unexpected::Float(*f),
            Tree::Str(s) => Unexpected::Str(s),
            Tree::Seq(_) => Unexpected::Seq,
            Tree::Map(_) => Unexpected::Map,
        }
    }

    #[cold]
    fn invalid_type<E: de::Error>(&self, exp: &dyn de::Expected) -> E {
        E::invalid_type(self.unexpected(), exp)
    }
}

type Error = serde_json::Error;

fn visit_array<'a, 't, V: Visitor<'a>>(
    items: &'a [Tree<'t>],
    visitor: V,
) -> Result<V::Value, Error> {
    let len = items.len();
    let mut seq = SeqRef { iter: items.iter() };
    let value = visitor.visit_seq(&mut seq)?;
    if seq.iter.len() == 0 {
        Ok(value)
    } else {
        Err(de::Error::invalid_length(len, &"fewer elements in array"))
    }
}

fn visit_object<'a, 't, V: Visitor<'a>>(
    entries: &'a [(Cow<'t, str>, Tree<'t>)],
    visitor: V,
) -> Result<V::Value, Error> {
    let len = entries.len();
    let mut map = MapRef {
        iter: entries.iter(),
        value: None,
    };
    let value = visitor.visit_map(&mut map)?;
    if map.iter.len() == 0 {
        Ok(value)
    } else {
        Err(de::Error::invalid_length(len, &"fewer elements in map"))
    }
}

macro_rules! number {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
            match self {
                Tree::U64(u) => visitor.visit_u64(*u),
                Tree::I64(i) => visitor.visit_i64(*i),
                Tree::F64(f) => visitor.visit_f64(*f),
                _ => Err(self.invalid_type(&visitor)),
            }
        }
    )*};
}

/// As `serde_json::Value`'s owned deserializer, call for call.
impl<'a, 't: 'a> Deserializer<'a> for &'a Tree<'t> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Tree::Null => visitor.visit_unit(),
            Tree::Bool(b) => visitor.visit_bool(*b),
            Tree::U64(u) => visitor.visit_u64(*u),
            Tree::I64(i) => visitor.visit_i64(*i),
            Tree::F64(f) => visitor.visit_f64(*f),
            Tree::Str(s) => visitor.visit_borrowed_str(s),
            Tree::Seq(items) => visit_array(items, visitor),
            Tree::Map(entries) => visit_object(entries, visitor),
        }
    }

    number! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Tree::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_enum<V: Visitor<'a>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.to_value().deserialize_enum(name, variants, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_bool<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Tree::Bool(b) => visitor.visit_bool(*b),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_char<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_string(visitor)
    }

    fn deserialize_str<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_string(visitor)
    }

    fn deserialize_string<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Tree::Str(s) => visitor.visit_borrowed_str(s),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_bytes<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_byte_buf(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        self.to_value().deserialize_byte_buf(visitor)
    }

    fn deserialize_unit<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Tree::Null => visitor.visit_unit(),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_seq<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Tree::Seq(items) => visit_array(items, visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_tuple<V: Visitor<'a>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Tree::Map(entries) => visit_object(entries, visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Tree::Seq(items) => visit_array(items, visitor),
            Tree::Map(entries) => visit_object(entries, visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_identifier<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_string(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }
}

struct SeqRef<'a, 't> {
    iter: std::slice::Iter<'a, Tree<'t>>,
}

impl<'a, 't: 'a> SeqAccess<'a> for SeqRef<'a, 't> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'a>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        match self.iter.next() {
            Some(v) => seed.deserialize(v).map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

struct MapRef<'a, 't> {
    iter: std::slice::Iter<'a, (Cow<'t, str>, Tree<'t>)>,
    value: Option<&'a Tree<'t>>,
}

impl<'a, 't: 'a> MapAccess<'a> for MapRef<'a, 't> {
    type Error = Error;

    fn next_key_seed<T: DeserializeSeed<'a>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        match self.iter.next() {
            Some((k, v)) => {
                self.value = Some(v);
                seed.deserialize(Key(k)).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<T: DeserializeSeed<'a>>(&mut self, seed: T) -> Result<T::Value, Error> {
        match self.value.take() {
            Some(v) => seed.deserialize(v),
            None => Err(de::Error::custom("value is missing")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// A map key: a string to whatever reads it as one; anything else (numbers, booleans, enums)
/// is read by `serde_json`'s own map-key deserializer.
struct Key<'de>(&'de str);

/// Which method [`Key`] hands to `serde_json`.
#[derive(Clone, Copy)]
enum KeyCall {
    Bool,
    I8,
    I16,
    I32,
    I64,
    I128,
    U8,
    U16,
    U32,
    U64,
    U128,
    F32,
    F64,
    Option,
    NewtypeStruct(&'static str),
    Enum(&'static str, &'static [&'static str]),
}

impl<'de> Key<'de> {
    /// Reads the key as `serde_json` reads a key of a `Map` (through the one-entry map
    /// `{key: null}`, whose key deserializer is not public).
    fn through_json<V: Visitor<'de>>(self, call: KeyCall, visitor: V) -> Result<V::Value, Error> {
        struct Seed<V>(KeyCall, V);
        impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for Seed<V> {
            type Value = V::Value;
            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
                let v = self.1;
                match self.0 {
                    KeyCall::Bool => d.deserialize_bool(v),
                    KeyCall::I8 => d.deserialize_i8(v),
                    KeyCall::I16 => d.deserialize_i16(v),
                    KeyCall::I32 => d.deserialize_i32(v),
                    KeyCall::I64 => d.deserialize_i64(v),
                    KeyCall::I128 => d.deserialize_i128(v),
                    KeyCall::U8 => d.deserialize_u8(v),
                    KeyCall::U16 => d.deserialize_u16(v),
                    KeyCall::U32 => d.deserialize_u32(v),
                    KeyCall::U64 => d.deserialize_u64(v),
                    KeyCall::U128 => d.deserialize_u128(v),
                    KeyCall::F32 => d.deserialize_f32(v),
                    KeyCall::F64 => d.deserialize_f64(v),
                    KeyCall::Option => d.deserialize_option(v),
                    KeyCall::NewtypeStruct(name) => d.deserialize_newtype_struct(name, v),
                    KeyCall::Enum(name, variants) => d.deserialize_enum(name, variants, v),
                }
            }
        }
        struct OneKey<V>(KeyCall, V);
        impl<'de, V: Visitor<'de>> Visitor<'de> for OneKey<V> {
            type Value = V::Value;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                self.1.expecting(f)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<V::Value, A::Error> {
                match map.next_key_seed(Seed(self.0, self.1))? {
                    Some(v) => Ok(v),
                    None => Err(de::Error::custom("value is missing")),
                }
            }
        }
        let mut map = Map::new();
        map.insert(self.0.to_string(), Value::Null);
        map.deserialize_any(OneKey(call, visitor))
    }
}

macro_rules! key_through_json {
    ($($method:ident => $call:ident),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            self.through_json(KeyCall::$call, visitor)
        }
    )*};
}

impl<'de> Deserializer<'de> for Key<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_str(self.0)
    }

    key_through_json! {
        deserialize_bool => Bool, deserialize_i8 => I8, deserialize_i16 => I16,
        deserialize_i32 => I32, deserialize_i64 => I64, deserialize_i128 => I128,
        deserialize_u8 => U8, deserialize_u16 => U16, deserialize_u32 => U32,
        deserialize_u64 => U64, deserialize_u128 => U128, deserialize_f32 => F32,
        deserialize_f64 => F64, deserialize_option => Option
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.through_json(KeyCall::NewtypeStruct(name), visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.through_json(KeyCall::Enum(name, variants), visitor)
    }

    forward_to_deserialize_any! {
        char str string bytes byte_buf unit unit_struct seq tuple tuple_struct
        map struct identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use std::collections::BTreeMap;

    /// The tree of a JSON value, built as the reader builds it.
    fn tree(v: &Value) -> Tree<'static> {
        match v {
            Value::Null => Tree::Null,
            Value::Bool(b) => Tree::Bool(*b),
            Value::Number(n) => Tree::number(n),
            Value::String(s) => Tree::Str(Cow::Owned(s.clone())),
            Value::Array(a) => Tree::Seq(a.iter().map(tree).collect()),
            Value::Object(m) => Tree::Map(
                m.iter()
                    .map(|(k, v)| (Cow::Owned(k.clone()), tree(v)))
                    .collect(),
            ),
        }
    }

    /// Reads `T` from the tree and from the value; both answers, errors as text.
    fn both<T: serde::de::DeserializeOwned + std::fmt::Debug>(
        v: Value,
    ) -> (Result<T, String>, Result<T, String>) {
        let t = tree(&v);
        let text = |e: serde_path_to_error::Error<serde_json::Error>| {
            let path = e.path().to_string();
            format!("{path}: {}", e.into_inner())
        };
        let from_tree = serde_path_to_error::deserialize::<_, T>(&t).map_err(text);
        let from_value = serde_path_to_error::deserialize::<_, T>(v).map_err(text);
        (from_tree, from_value)
    }

    fn same<T: serde::de::DeserializeOwned + std::fmt::Debug + PartialEq>(v: Value) {
        let (a, b) = both::<T>(v.clone());
        assert_eq!(a, b, "{v}");
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Strict {
        #[serde(default)]
        a: Option<i32>,
        #[serde(default)]
        b: Vec<u8>,
        #[serde(default)]
        c: Option<E>,
        #[serde(default)]
        d: BTreeMap<i32, bool>,
        #[serde(default)]
        e: BTreeMap<bool, String>,
        #[serde(default)]
        f: Option<(i32, String)>,
        #[serde(default)]
        g: Option<f32>,
        #[serde(default)]
        h: Option<char>,
        #[serde(default)]
        i: Option<Value>,
        #[serde(default)]
        j: Option<crate::model::workload::IntOrString>,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    enum E {
        Unit,
        New(i32),
        Tuple(i32, i32),
        Struct { x: i32 },
    }

    #[test]
    fn reads_as_serde_json_value_reads() {
        use serde_json::json;
        let cases = [
            json!({}),
            json!([]),
            json!(null),
            json!("x"),
            json!({"a": 1, "b": [1, 2, 3]}),
            json!({"a": -1}),
            json!({"a": 1.5}),
            json!({"a": 4_294_967_296u64}),
            json!({"a": "1"}),
            json!({"a": true}),
            json!({"a": [1]}),
            json!({"a": {}}),
            json!({"b": [256]}),
            json!({"b": "bytes"}),
            json!({"b": {"x": 1}}),
            json!({"c": "Unit"}),
            json!({"c": {"New": 3}}),
            json!({"c": {"Tuple": [1, 2]}}),
            json!({"c": {"Tuple": [1, 2, 3]}}),
            json!({"c": {"Struct": {"x": 1}}}),
            json!({"c": {"Struct": {"x": 1}, "New": 2}}),
            json!({"c": {}}),
            json!({"c": "Nope"}),
            json!({"c": 3}),
            json!({"c": {"Unit": 1}}),
            json!({"d": {"1": true, "-2": false}}),
            json!({"d": {"x": true}}),
            json!({"d": {"1x": true}}),
            json!({"d": {"1": "true"}}),
            json!({"e": {"true": "a", "false": "b"}}),
            json!({"e": {"yes": "a"}}),
            json!({"f": [1, "x"]}),
            json!({"f": [1, "x", 3]}),
            json!({"f": [1]}),
            json!({"g": 1e300}),
            json!({"g": -0.5}),
            json!({"h": "ab"}),
            json!({"h": "a"}),
            json!({"i": {"z": [1, {"y": null}], "a": 1.0}}),
            json!({"j": 3}),
            json!({"j": "25%"}),
            json!({"j": 3_000_000_000u64}),
            json!({"j": -3_000_000_000i64}),
            json!({"j": 1.5}),
            json!({"j": [1]}),
            json!({"zz": 1}),
            json!([1, [], {}]),
        ];
        for c in cases {
            same::<Strict>(c.clone());
            same::<Value>(c.clone());
            same::<crate::model::Pod>(c.clone());
            same::<crate::model::Node>(c.clone());
            same::<Option<i64>>(c.clone());
            same::<String>(c.clone());
            same::<bool>(c.clone());
            same::<()>(c.clone());
            same::<Vec<u8>>(c.clone());
            same::<(i32,)>(c.clone());
            same::<E>(c);
        }
    }

    #[test]
    fn converts_back_to_the_same_value() {
        let v = serde_json::json!({"b": 1, "a": [-1, 2.5, "x", true, {"c": {}}], "0": []});
        assert_eq!(tree(&v).into_value(), v);
        assert_eq!(
            serde_json::to_string(&tree(&v).into_value()).unwrap(),
            serde_json::to_string(&v).unwrap()
        );
    }
}
