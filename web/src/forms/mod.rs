//! The document model behind the form views: pure Rust, no signals.
//!
//! [`Document::parse`] reads a file's text into its objects and remembers how they were laid
//! out (one object, a `List` with `items`, several YAML documents) and the format (JSON or
//! YAML), so [`Document::to_text`] writes them back the same way. Edits change only the fields
//! they name; every other object and field is kept as it was. YAML comments are not: the text
//! is rewritten from the parsed values ([`has_comments`] tells the views when to say so).

pub mod config;
pub mod config_v1;
pub mod dra;
pub mod extenders;
pub mod node;
pub mod pod;
pub mod policy;
pub mod syntax;
#[cfg(test)]
mod tests;

use schedlab_core::input::looks_like_json;
use serde_json::{Map, Value};
use std::collections::HashSet;

/// The format a file is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// JSON, written back pretty-printed with two spaces.
    Json,
    /// YAML, written back as block YAML.
    Yaml,
}

/// One top-level document of a file.
#[derive(Clone, Debug, PartialEq)]
enum Doc {
    /// A single object.
    Object(Value),
    /// A list object (`kind: List` or `...List`) whose `items` hold the objects.
    List(Value),
}

/// Where an object sits in a [`Document`]: its top-level document and, in a list, its item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ObjRef {
    doc: usize,
    item: Option<usize>,
}

/// A parsed input file.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    format: Format,
    docs: Vec<Doc>,
}

fn is_list(v: &Value) -> bool {
    let kind = v.get("kind").and_then(Value::as_str).unwrap_or_default();
    let items = v.get("items").is_some_and(Value::is_array);
    (kind == "List" || kind.ends_with("List")) && items
}

fn to_doc(v: Value, index: usize) -> Result<Doc, String> {
    if !v.is_object() {
        return Err(format!("document {} is not an object", index + 1));
    }
    Ok(if is_list(&v) {
        Doc::List(v)
    } else {
        Doc::Object(v)
    })
}

fn parse_yaml(text: &str) -> Result<Vec<Doc>, String> {
    let mut docs = Vec::new();
    for (i, de) in serde_yaml_ng::Deserializer::from_str(text).enumerate() {
        match <Value as serde::Deserialize>::deserialize(de) {
            Ok(Value::Null) => {}
            Ok(v) => docs.push(to_doc(v, i)?),
            Err(e) => return Err(format!("invalid YAML: {e}")),
        }
    }
    Ok(docs)
}

impl Document {
    /// Parses a file's text. An error means the form must not touch the text.
    pub fn parse(text: &str) -> Result<Document, String> {
        let text = text.trim_start_matches('\u{feff}');
        if looks_like_json(text) {
            match serde_json::from_str::<Value>(text) {
                Ok(v) => {
                    return Ok(Document {
                        format: Format::Json,
                        docs: vec![to_doc(v, 0)?],
                    })
                }
                // Flow-style YAML (`{kind: Pod}`) also starts with a brace.
                Err(e) if text.trim_start()[1..].trim_start().starts_with('"') => {
                    return Err(format!("invalid JSON: {e}"))
                }
                Err(_) => {}
            }
        }
        Ok(Document {
            format: Format::Yaml,
            docs: parse_yaml(text)?,
        })
    }

    /// The text of the document, in its own format and layout.
    pub fn to_text(&self) -> String {
        let value = |d: &Doc| match d {
            Doc::Object(v) | Doc::List(v) => v.clone(),
        };
        match self.format {
            Format::Json => {
                let v = match self.docs.as_slice() {
                    [] => return String::new(),
                    [one] => value(one),
                    _ => list_of(self.objects().map(|(_, v)| v.clone()).collect()),
                };
                let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
                s.push('\n');
                s
            }
            Format::Yaml => self
                .docs
                .iter()
                .map(|d| serde_yaml_ng::to_string(&value(d)).unwrap_or_default())
                .collect::<Vec<_>>()
                .join("---\n"),
        }
    }

    /// The format the text was written in.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Every object in file order.
    pub fn objects(&self) -> impl Iterator<Item = (ObjRef, &Value)> + '_ {
        self.docs.iter().enumerate().flat_map(|(d, doc)| {
            let items: Vec<(ObjRef, &Value)> = match doc {
                Doc::Object(v) => vec![(ObjRef { doc: d, item: None }, v)],
                Doc::List(v) => v["items"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .enumerate()
                            .map(|(i, v)| {
                                (
                                    ObjRef {
                                        doc: d,
                                        item: Some(i),
                                    },
                                    v,
                                )
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
            };
            items
        })
    }

    /// The objects of one kind (an item without `kind` takes its list's: `NodeList` → `Node`).
    pub fn of_kind<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = (ObjRef, &'a Value)> + 'a {
        self.objects()
            .filter(move |(r, _)| self.kind_at(*r) == kind)
    }

    /// The kind of the object at `r`.
    pub fn kind_at(&self, r: ObjRef) -> &str {
        let own = self
            .get(r)
            .and_then(|v| v.get("kind"))
            .and_then(Value::as_str);
        match (own, &self.docs.get(r.doc)) {
            (Some(k), _) => k,
            (None, Some(Doc::List(l))) => l["kind"]
                .as_str()
                .and_then(|k| k.strip_suffix("List"))
                .unwrap_or_default(),
            _ => "",
        }
    }

    /// The object at `r`.
    pub fn get(&self, r: ObjRef) -> Option<&Value> {
        match (self.docs.get(r.doc)?, r.item) {
            (Doc::Object(v), None) => Some(v),
            (Doc::List(l), Some(i)) => l["items"].get(i),
            _ => None,
        }
    }

    /// The object at `r`, to edit.
    pub fn get_mut(&mut self, r: ObjRef) -> Option<&mut Value> {
        match (self.docs.get_mut(r.doc)?, r.item) {
            (Doc::Object(v), None) => Some(v),
            (Doc::List(l), Some(i)) => l["items"].get_mut(i),
            _ => None,
        }
    }

    /// The first object of a kind with this `metadata.name`.
    pub fn find(&self, kind: &str, name: &str) -> Option<ObjRef> {
        self.of_kind(kind)
            .find(|(_, v)| name_of(v) == name)
            .map(|(r, _)| r)
    }

    /// Inserts an object right after `after`, or after the last object of its kind, or at the
    /// end. Returns where it went.
    pub fn insert(&mut self, after: Option<ObjRef>, obj: Value) -> ObjRef {
        let kind = obj["kind"].as_str().unwrap_or_default().to_string();
        let after = after.or_else(|| self.of_kind(&kind).last().map(|(r, _)| r));
        let after = after.or_else(|| self.objects().last().map(|(r, _)| r));
        if self.format == Format::Json {
            self.wrap_json_in_list();
        }
        let after = after.map(|r| self.remap_wrapped(r));
        match after {
            Some(ObjRef { doc, item: Some(i) }) => {
                if let Some(Doc::List(l)) = self.docs.get_mut(doc) {
                    if let Some(items) = l["items"].as_array_mut() {
                        items.insert(i + 1, obj);
                    }
                }
                ObjRef {
                    doc,
                    item: Some(i + 1),
                }
            }
            Some(ObjRef { doc, item: None }) => {
                self.docs.insert(doc + 1, Doc::Object(obj));
                ObjRef {
                    doc: doc + 1,
                    item: None,
                }
            }
            None => {
                self.docs.push(Doc::Object(obj));
                ObjRef {
                    doc: self.docs.len() - 1,
                    item: None,
                }
            }
        }
    }

    /// A JSON file holds one value: a single object becomes a `List` before a second is added.
    fn wrap_json_in_list(&mut self) {
        if let [Doc::Object(v)] = self.docs.as_mut_slice() {
            let obj = std::mem::take(v);
            self.docs = vec![Doc::List(list_of(vec![obj]))];
        }
    }

    fn remap_wrapped(&self, r: ObjRef) -> ObjRef {
        match (&self.docs.get(r.doc), r.item) {
            (Some(Doc::List(_)), None) => ObjRef {
                doc: r.doc,
                item: Some(0),
            },
            _ => r,
        }
    }

    /// Removes the object at `r` (a single-object document goes with it).
    pub fn remove(&mut self, r: ObjRef) {
        match (self.docs.get_mut(r.doc), r.item) {
            (Some(Doc::Object(_)), None) => {
                self.docs.remove(r.doc);
            }
            (Some(Doc::List(l)), Some(i)) => {
                if let Some(items) = l["items"].as_array_mut() {
                    if i < items.len() {
                        items.remove(i);
                    }
                }
            }
            _ => {}
        }
    }

    /// Copies the object at `r` under a fresh name, right after it. Returns the new name.
    pub fn duplicate(&mut self, r: ObjRef) -> Option<String> {
        let kind = self.kind_at(r).to_string();
        let mut copy = self.get(r)?.clone();
        let name = self.unique_name(&kind, name_of(&copy));
        let old = name_of(&copy).to_string();
        set_name(&mut copy, &old, &name);
        if let Some(meta) = copy.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.remove("uid");
            meta.remove("resourceVersion");
        }
        self.insert(Some(r), copy);
        Some(name)
    }

    /// A name no object of `kind` has: `base` with its trailing number counted up, or
    /// `base-2`, `base-3`, ...
    pub fn unique_name(&self, kind: &str, base: &str) -> String {
        let taken: HashSet<&str> = self.of_kind(kind).map(|(_, v)| name_of(v)).collect();
        let digits = base.len() - base.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (stem, start) = match base[base.len() - digits..].parse::<u64>() {
            Ok(n) if digits > 0 => (&base[..base.len() - digits], n + 1),
            _ => (base, 2),
        };
        let sep = if digits == 0 && !base.is_empty() && !base.ends_with('-') {
            "-"
        } else {
            ""
        };
        (start..)
            .map(|n| format!("{stem}{sep}{n}"))
            .find(|n| !taken.contains(n.as_str()))
            .unwrap_or_default()
    }
}

/// A `kind: List` holding `items`.
fn list_of(items: Vec<Value>) -> Value {
    let mut m = Map::new();
    m.insert("apiVersion".into(), "v1".into());
    m.insert("kind".into(), "List".into());
    m.insert("items".into(), Value::Array(items));
    Value::Object(m)
}

/// `metadata.name` (empty when absent).
pub fn name_of(v: &Value) -> &str {
    v.pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// Renames an object; a node's `kubernetes.io/hostname` label follows when it equalled the
/// old name.
pub fn set_name(v: &mut Value, old: &str, new: &str) {
    let meta = object_at(v, &["metadata"]);
    meta.insert("name".into(), new.into());
    if let Some(Value::Object(labels)) = meta.get_mut("labels") {
        if let Some(h) = labels.get_mut("kubernetes.io/hostname") {
            if h.as_str() == Some(old) {
                *h = new.into();
            }
        }
    }
}

/// Whether a YAML text has comments, which a form edit would drop.
pub fn has_comments(text: &str) -> bool {
    !looks_like_json(text)
        && text.lines().any(|l| {
            let t = l.trim_start();
            t.starts_with('#') || (l.contains(" #") && !l.contains('"') && !l.contains('\''))
        })
}

/// The value at a path of keys.
pub fn at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |v, k| v.get(k))
}

/// The string at a path: a string as is, a number written out, else empty.
pub fn str_at(v: &Value, path: &[&str]) -> String {
    match at(v, path) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::Bool(b)) => b.to_string(),
        _ => String::new(),
    }
}

/// The object at a path, created (or replacing a non-object) as needed.
pub fn object_at<'a>(v: &'a mut Value, path: &[&str]) -> &'a mut Map<String, Value> {
    if !v.is_object() {
        *v = Value::Object(Map::new());
    }
    let mut cur = v;
    for k in path {
        let map = cur.as_object_mut().expect("made an object above");
        let next = map
            .entry(k.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
        if !next.is_object() {
            *next = Value::Object(Map::new());
        }
        cur = next;
    }
    cur.as_object_mut().expect("made an object above")
}

/// Sets the key at the end of `path` (creating parents), or removes it when `value` is `None`
/// and then drops parents left empty.
pub fn set_at(v: &mut Value, path: &[&str], value: Option<Value>) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    match value {
        Some(x) => {
            object_at(v, parents).insert(last.to_string(), x);
        }
        None => {
            remove_pruning(v, path);
        }
    }
}

fn remove_pruning(v: &mut Value, path: &[&str]) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    let Some(map) = v.as_object_mut() else {
        return;
    };
    if rest.is_empty() {
        map.remove(*first);
        return;
    }
    if let Some(child) = map.get_mut(*first) {
        remove_pruning(child, rest);
        if child.as_object().is_some_and(Map::is_empty) {
            map.remove(*first);
        }
    }
}

/// A list field as lines, one per entry (`line` writes an entry).
pub fn list_lines(list: Option<&Value>, line: impl Fn(&Value) -> String) -> String {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(line)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A list field from lines: a line unchanged from `old` keeps its entry as it was (fields the
/// line does not show included); any other is read by `parse`, which sees the entries read so
/// far.
pub fn parse_list_lines(
    text: &str,
    old: Option<&Value>,
    line: impl Fn(&Value) -> String,
    mut parse: impl FnMut(&str, &[Value]) -> Result<Value, String>,
) -> Result<Vec<Value>, String> {
    let old_list: Vec<&Value> = old
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    let mut out: Vec<Value> = Vec::new();
    for text_line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let entry = match old_list.iter().find(|o| line(o) == text_line) {
            Some(o) => (*o).clone(),
            None => parse(text_line, &out)?,
        };
        out.push(entry);
    }
    Ok(out)
}

/// An integer field from a form input: empty is `None`.
pub fn parse_int(text: &str, what: &str) -> Result<Option<i64>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    t.parse::<i64>()
        .map(Some)
        .map_err(|_| format!("{what} must be a whole number"))
}

/// A quantity from a form input (`500m`, `2Gi`, `4`): empty is `None`; checked with the core's
/// parser; written back as a string as `kubectl` does.
pub fn parse_quantity(text: &str, what: &str) -> Result<Option<Value>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    schedlab_core::model::quantity::Quantity::parse(t)
        .map(|_| Some(Value::String(t.to_string())))
        .map_err(|e| format!("{what}: {e}"))
}
