//! Text → document tree ([`Tree`], what `serde_json::Value` would hold) in one pass: members
//! that are `null` are dropped (Kubernetes treats them as absent) and a key given twice in one
//! map is refused, as kube-apiserver's strict decoding refuses it (`duplicate field "kind"`),
//! with the path of the second one.
//!
//! serde_json and serde_yaml_ng both keep the last value of a repeated key without a word, so
//! the tree is built here by a `DeserializeSeed` that behaves as `serde_json::Value`'s own
//! `Deserialize` except for those two points. The repeated key is caught while its key is read,
//! so the parser's error carries the line of the second occurrence; the path is put together
//! only on the way out of an error (nothing is tracked while parsing succeeds).

use super::tree::Tree;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;
use std::hash::{Hash, Hasher};

/// What stopped a parse: a key given twice (the key, and the path of the map that holds it),
/// or a value JSON cannot hold (`.nan`, `.inf`: `key` is empty, `refused` says why).
#[derive(Debug, Default)]
pub(crate) struct Duplicate {
    /// The repeated key.
    pub key: String,
    /// Segments from the map holding the key up to the document root (innermost first).
    segments: Vec<Segment>,
    /// The message of a refused value.
    refused: Option<String>,
}

#[derive(Debug)]
enum Segment {
    Key(String),
    Index(usize),
}

impl Duplicate {
    /// The path of the repeated key in the document (`items[3].metadata.labels["app name"]`).
    pub(super) fn path(&self) -> String {
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
        if !self.key.is_empty() || self.refused.is_none() {
            push_key(&mut path, &self.key);
        }
        path
    }

    /// `duplicate field "kind"`, as sigs.k8s.io/json's strict decoding words it.
    pub(super) fn message(&self) -> String {
        if let Some(m) = &self.refused {
            return m.clone();
        }
        format!(
            "duplicate field {}",
            crate::model::words::go_quote(&self.key)
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
    /// YAML: merge keys (`<<: *base`) are applied.
    yaml: std::cell::Cell<bool>,
}

impl Context {
    /// A context for YAML text: merge keys are applied.
    pub(crate) fn yaml() -> Context {
        let ctx = Context::default();
        ctx.yaml.set(true);
        ctx
    }

    /// The duplicate that stopped the parse, if that is what stopped it.
    pub(super) fn take_duplicate(&self) -> Option<Duplicate> {
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

/// Deserializes one value into a [`Tree`] (see the module documentation): what
/// `serde_json::Value`'s own `Deserialize` builds, borrowing strings from the text where the
/// parser lends them.
#[derive(Clone, Copy)]
pub(crate) struct TreeSeed<'c> {
    pub ctx: &'c Context,
}

impl<'de> DeserializeSeed<'de> for TreeSeed<'_> {
    type Value = Tree<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Tree<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TreeSeed<'_> {
    type Value = Tree<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Tree<'de>, E> {
        Ok(Tree::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Tree<'de>, E> {
        Ok(Tree::int(v))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Tree<'de>, E> {
        let de = de::value::I128Deserializer::new(v);
        <Number as serde::Deserialize>::deserialize(de).map(|n| Tree::number(&n))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Tree<'de>, E> {
        Ok(Tree::U64(v))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Tree<'de>, E> {
        let de = de::value::U128Deserializer::new(v);
        <Number as serde::Deserialize>::deserialize(de).map(|n| Tree::number(&n))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Tree<'de>, E> {
        if v.is_finite() {
            return Ok(Tree::float(v));
        }
        // sigs.k8s.io/yaml converts YAML to JSON, which has no NaN or infinity.
        let shown = if v.is_nan() {
            "NaN"
        } else if v > 0.0 {
            "+Inf"
        } else {
            "-Inf"
        };
        let message =
            format!("json: unsupported value: {shown} (YAML's .nan and .inf have no JSON form)");
        *self.ctx.duplicate.borrow_mut() = Some(Duplicate {
            refused: Some(message.clone()),
            ..Duplicate::default()
        });
        Err(E::custom(message))
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Tree<'de>, E> {
        Ok(Tree::Str(Cow::Borrowed(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Tree<'de>, E> {
        Ok(Tree::Str(Cow::Owned(v.to_string())))
    }

    fn visit_string<E>(self, v: String) -> Result<Tree<'de>, E> {
        Ok(Tree::Str(Cow::Owned(v)))
    }

    fn visit_none<E>(self) -> Result<Tree<'de>, E> {
        Ok(Tree::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Tree<'de>, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_unit<E>(self) -> Result<Tree<'de>, E> {
        Ok(Tree::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tree<'de>, A::Error> {
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
        Ok(Tree::Seq(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Tree<'de>, A::Error> {
        let mut keys = Keys::merging(self.ctx.yaml.get());
        while let Some(key) = access.next_key_seed(KeySeed {
            ctx: self.ctx,
            keys: &mut keys,
        })? {
            match access.next_value_seed(self) {
                Ok(v) => keys.push(key, v),
                Err(e) => {
                    if self.ctx.unwinding() {
                        self.ctx.push(Segment::Key(key.into_owned()));
                    }
                    return Err(e);
                }
            }
        }
        Ok(keys.into_map())
    }
}

/// Where the items of a document's top-level `items` sequence go, one by one, as they are
/// read (so a 50 000-pod list never stands in memory as a tree).
pub(crate) trait ItemSink<'de> {
    /// Item `index` of the top-level `items`.
    fn item(&mut self, index: usize, item: Tree<'de>);
    /// The top-level `items` is a sequence: its items go to [`ItemSink::item`], and the
    /// document's tree holds an empty sequence in its place.
    fn streaming(&mut self);
}

/// Deserializes a whole document as [`TreeSeed`] does, except that the items of a top-level
/// `items` sequence are handed to a sink as they are read.
pub(crate) struct DocSeed<'c, 's, S> {
    pub ctx: &'c Context,
    pub sink: &'s mut S,
}

/// The visitor methods of [`TreeSeed`] other than those named, forwarded to it.
macro_rules! like_tree_seed {
    ($($skip:ident)*) => {
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("any valid JSON value")
        }
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Tree<'de>, E> {
            self.tree().visit_bool(v)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Tree<'de>, E> {
            self.tree().visit_i64(v)
        }
        fn visit_i128<E: de::Error>(self, v: i128) -> Result<Tree<'de>, E> {
            self.tree().visit_i128(v)
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Tree<'de>, E> {
            self.tree().visit_u64(v)
        }
        fn visit_u128<E: de::Error>(self, v: u128) -> Result<Tree<'de>, E> {
            self.tree().visit_u128(v)
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Tree<'de>, E> {
            self.tree().visit_f64(v)
        }
        fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Tree<'de>, E> {
            self.tree().visit_borrowed_str(v)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Tree<'de>, E> {
            self.tree().visit_str(v)
        }
        fn visit_string<E: de::Error>(self, v: String) -> Result<Tree<'de>, E> {
            self.tree().visit_string(v)
        }
        fn visit_none<E: de::Error>(self) -> Result<Tree<'de>, E> {
            self.tree().visit_none()
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Tree<'de>, D::Error> {
            self.tree().visit_some(d)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Tree<'de>, E> {
            self.tree().visit_unit()
        }
    };
}

impl<'de, S: ItemSink<'de>> DeserializeSeed<'de> for DocSeed<'_, '_, S> {
    type Value = Tree<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Tree<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'c, S> DocSeed<'c, '_, S> {
    fn tree(&self) -> TreeSeed<'c> {
        TreeSeed { ctx: self.ctx }
    }
}

impl<'de, S: ItemSink<'de>> Visitor<'de> for DocSeed<'_, '_, S> {
    type Value = Tree<'de>;

    like_tree_seed!();

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Tree<'de>, A::Error> {
        self.tree().visit_seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Tree<'de>, A::Error> {
        // TreeSeed::visit_map, with the value of `items` read by `ItemsSeed`.
        let DocSeed { ctx, sink } = self;
        let tree = TreeSeed { ctx };
        let mut keys = Keys::merging(ctx.yaml.get());
        while let Some(key) = access.next_key_seed(KeySeed {
            ctx,
            keys: &mut keys,
        })? {
            let value = if key == "items" {
                access.next_value_seed(ItemsSeed {
                    ctx,
                    sink: &mut *sink,
                })
            } else {
                access.next_value_seed(tree)
            };
            match value {
                Ok(v) => keys.push(key, v),
                Err(e) => {
                    if ctx.unwinding() {
                        ctx.push(Segment::Key(key.into_owned()));
                    }
                    return Err(e);
                }
            }
        }
        Ok(keys.into_map())
    }
}

/// The value of a document's top-level `items`: a sequence goes to the sink item by item.
struct ItemsSeed<'c, 's, S> {
    ctx: &'c Context,
    sink: &'s mut S,
}

impl<'de, S: ItemSink<'de>> DeserializeSeed<'de> for ItemsSeed<'_, '_, S> {
    type Value = Tree<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Tree<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'c, S> ItemsSeed<'c, '_, S> {
    fn tree(&self) -> TreeSeed<'c> {
        TreeSeed { ctx: self.ctx }
    }
}

impl<'de, S: ItemSink<'de>> Visitor<'de> for ItemsSeed<'_, '_, S> {
    type Value = Tree<'de>;

    like_tree_seed!();

    fn visit_map<A: MapAccess<'de>>(self, access: A) -> Result<Tree<'de>, A::Error> {
        self.tree().visit_map(access)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tree<'de>, A::Error> {
        // TreeSeed::visit_seq, each item handed over instead of kept.
        let tree = self.tree();
        self.sink.streaming();
        let mut index = 0;
        loop {
            match seq.next_element_seed(tree) {
                Ok(Some(v)) => {
                    self.sink.item(index, v);
                    index += 1;
                }
                Ok(None) => break,
                Err(e) => {
                    if self.ctx.unwinding() {
                        self.ctx.push(Segment::Index(index));
                    }
                    return Err(e);
                }
            }
        }
        Ok(Tree::Seq(Vec::new()))
    }
}

/// The one JSON value that `text` is, as [`TreeSeed`] builds it (nothing may follow it).
pub(crate) fn json_tree<'t>(text: &'t str, ctx: &Context) -> Result<Tree<'t>, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    TreeSeed { ctx }
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v))
}

/// The tree of the one YAML document that `text` is, as [`TreeSeed`] builds it from
/// serde_yaml_ng's events; `None` for an error, or for no document or several.
pub(crate) fn yaml_tree<'t>(text: &'t str, ctx: &Context) -> Option<Tree<'t>> {
    ctx.yaml.set(true);
    let mut documents = serde_yaml_ng::Deserializer::from_str(text);
    let tree = TreeSeed { ctx }.deserialize(documents.next()?).ok()?;
    documents.next().is_none().then_some(tree)
}

/// The one JSON document that `text` is, as [`DocSeed`] builds it: the items of its top-level
/// `items` sequence go to `sink` (nothing may follow the document).
pub(crate) fn json_document<'t, S: ItemSink<'t>>(
    text: &'t str,
    ctx: &Context,
    sink: &mut S,
) -> Result<Tree<'t>, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    DocSeed { ctx, sink }
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v))
}

/// A map's entries so far, and the hashes of its keys once it is large enough that looking
/// through the entries for a repeated key would cost more than hashing.
#[derive(Default)]
pub(super) struct Keys<'de> {
    entries: Vec<(Cow<'de, str>, Tree<'de>)>,
    hashes: Option<HashSet<u64>>,
    /// Whether a value is null.
    nulls: bool,
    /// Whether a `<<` key merges its maps in (YAML).
    merge: bool,
}

/// Up to this many keys, a repeated key is looked for among the entries.
const SCAN_KEYS: usize = 12;

/// YAML merge keys: a `<<` entry naming a map, or a list of maps, is replaced by their entries
/// that the map does not give itself (an earlier map of the list wins over a later one). A `<<`
/// naming anything else stays an ordinary key.
fn merge_keys<'de>(entries: &mut Vec<(Cow<'de, str>, Tree<'de>)>) {
    let Some(at) = entries.iter().position(|(k, _)| k == "<<") else {
        return;
    };
    let mergeable = match &entries[at].1 {
        Tree::Map(_) => true,
        Tree::Seq(items) => items.iter().all(|t| matches!(t, Tree::Map(_))),
        _ => false,
    };
    if !mergeable {
        return;
    }
    let (_, merged) = entries.remove(at);
    let maps = match merged {
        Tree::Map(m) => vec![m],
        Tree::Seq(items) => items
            .into_iter()
            .filter_map(|t| match t {
                Tree::Map(m) => Some(m),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let mut present: HashSet<String> = entries.iter().map(|(k, _)| k.to_string()).collect();
    for map in maps {
        for (k, v) in map {
            if present.insert(k.to_string()) {
                entries.push((k, v));
            }
        }
    }
}

fn key_hash(key: &str) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    key.hash(&mut h);
    h.finish()
}

impl<'de> Keys<'de> {
    /// No entries yet; `merge`: a `<<` key merges its maps in (YAML).
    pub(super) fn merging(merge: bool) -> Keys<'de> {
        Keys {
            merge,
            ..Keys::default()
        }
    }

    /// Adds an entry (its key checked with [`Keys::seen`]).
    pub(super) fn push(&mut self, key: Cow<'de, str>, value: Tree<'de>) {
        self.nulls |= value.is_null();
        self.entries.push((key, value));
    }

    /// The map: its entries in input order, without the null ones (dropped only now, so that
    /// a key given once as null and once more is still seen).
    pub(super) fn into_map(self) -> Tree<'de> {
        let mut entries = self.entries;
        if self.merge {
            merge_keys(&mut entries);
        }
        if self.nulls {
            entries.retain(|(_, v)| !v.is_null());
        }
        Tree::Map(entries)
    }

    /// Whether the map already holds `key`; remembers its hash when the map is large.
    pub(super) fn seen(&mut self, key: &str) -> bool {
        if self.entries.len() < SCAN_KEYS {
            return self.entries.iter().any(|(k, _)| k == key);
        }
        let hashes = self
            .hashes
            .get_or_insert_with(|| self.entries.iter().map(|(k, _)| key_hash(k)).collect());
        if hashes.insert(key_hash(key)) {
            return false;
        }
        // The same hash: the same key, unless two keys collide.
        self.entries.iter().any(|(k, _)| k == key)
    }
}

/// Reads a map key and refuses one the map already holds.
struct KeySeed<'c, 'm, 'de> {
    ctx: &'c Context,
    keys: &'m mut Keys<'de>,
}

impl<'de> DeserializeSeed<'de> for KeySeed<'_, '_, 'de> {
    type Value = Cow<'de, str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_, '_, 'de> {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        self.check(v)?;
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Cow<'de, str>, E> {
        self.check(v)?;
        Ok(Cow::Owned(v.to_string()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Cow<'de, str>, E> {
        self.check(&v)?;
        Ok(Cow::Owned(v))
    }
}

impl KeySeed<'_, '_, '_> {
    fn check<E: de::Error>(self, key: &str) -> Result<(), E> {
        if !self.keys.seen(key) {
            return Ok(());
        }
        *self.ctx.duplicate.borrow_mut() = Some(Duplicate {
            key: key.to_string(),
            ..Duplicate::default()
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
        match (TreeSeed { ctx: &ctx }).deserialize(&mut de) {
            Ok(v) => Ok(v.into_value()),
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
        // In a large map too (keys hashed past the first few), and not a false alarm there.
        let keys: Vec<String> = (0..40).map(|i| format!("\"k{i}\": {i}")).collect();
        let ok = format!("{{{}}}", keys.join(", "));
        assert_eq!(json(&ok).unwrap().as_object().unwrap().len(), 40);
        let twice = format!("{{{}, \"k17\": 0, \"k40\": 1}}", keys.join(", "));
        assert_eq!(json(&twice).unwrap_err().0, "k17");
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
