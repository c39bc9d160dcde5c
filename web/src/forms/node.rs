//! Nodes: the summary a form row shows and the edits the node form makes.

use super::syntax::{format_labels, format_taints, parse_labels, parse_taints};
use super::{at, name_of, parse_quantity, set_at, set_name, str_at, Document, ObjRef};
use serde_json::{json, Value};

/// `kind` of a node.
pub const KIND: &str = "Node";

/// What a collapsed node row shows.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeSummary {
    /// `metadata.name`.
    pub name: String,
    /// Allocatable (else capacity) CPU.
    pub cpu: String,
    /// Allocatable (else capacity) memory.
    pub memory: String,
    /// Allocatable (else capacity) pods.
    pub pods: String,
    /// `spec.unschedulable`.
    pub unschedulable: bool,
    /// Number of taints.
    pub taints: usize,
}

/// A node resource (`cpu`, `memory`, `pods`) as the node offers it: allocatable, else capacity.
pub fn resource(v: &Value, name: &str) -> String {
    let a = str_at(v, &["status", "allocatable", name]);
    if a.is_empty() {
        str_at(v, &["status", "capacity", name])
    } else {
        a
    }
}

/// The row of one node.
pub fn summary(v: &Value) -> NodeSummary {
    NodeSummary {
        name: name_of(v).to_string(),
        cpu: resource(v, "cpu"),
        memory: resource(v, "memory"),
        pods: resource(v, "pods"),
        unschedulable: at(v, &["spec", "unschedulable"]).and_then(Value::as_bool) == Some(true),
        taints: at(v, &["spec", "taints"])
            .and_then(Value::as_array)
            .map_or(0, Vec::len),
    }
}

/// Labels as form text, one `k=v` per line.
pub fn labels_text(v: &Value) -> String {
    format_labels(at(v, &["metadata", "labels"]), "\n")
}

/// Taints as form text.
pub fn taints_text(v: &Value) -> String {
    format_taints(at(v, &["spec", "taints"]))
}

/// One change the node form makes.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeEdit {
    /// Rename (the hostname label follows).
    Name(String),
    /// Set `cpu`, `memory` or `pods` (empty removes it).
    Resource(&'static str, String),
    /// Replace the labels (form text).
    Labels(String),
    /// Replace the taints (form text).
    Taints(String),
    /// Cordon or uncordon.
    Unschedulable(bool),
}

/// Applies an edit to the node at `r`.
pub fn apply(doc: &mut Document, r: ObjRef, edit: NodeEdit) -> Result<(), String> {
    if let NodeEdit::Name(name) = &edit {
        let name = name.trim();
        if name.is_empty() {
            return Err("a node needs a name".into());
        }
        if doc.find(KIND, name).is_some_and(|other| other != r) {
            return Err(format!("another node is named {name}"));
        }
    }
    let v = doc.get_mut(r).ok_or("the node is gone")?;
    match edit {
        NodeEdit::Name(name) => {
            let old = name_of(v).to_string();
            set_name(v, &old, name.trim());
        }
        NodeEdit::Resource(res, text) => set_resource(v, res, parse_quantity(&text, res)?),
        NodeEdit::Labels(text) => {
            let labels = parse_labels(&text)?;
            set_at(
                v,
                &["metadata", "labels"],
                (!labels.is_empty()).then_some(Value::Object(labels)),
            );
        }
        NodeEdit::Taints(text) => {
            let old = at(v, &["spec", "taints"]).cloned();
            let taints = keep_extras(parse_taints(&text)?, old.as_ref(), &["timeAdded"]);
            set_at(
                v,
                &["spec", "taints"],
                (!taints.is_empty()).then_some(Value::Array(taints)),
            );
        }
        NodeEdit::Unschedulable(on) => set_at(
            v,
            &["spec", "unschedulable"],
            on.then_some(Value::Bool(true)),
        ),
    }
    Ok(())
}

/// Sets a resource in `capacity` and `allocatable` alike (in whichever are present; in
/// `allocatable` when neither is).
fn set_resource(v: &mut Value, res: &str, q: Option<Value>) {
    let has = |k: &str| at(v, &["status", k]).is_some_and(Value::is_object);
    let mut places: Vec<&str> = ["capacity", "allocatable"]
        .into_iter()
        .filter(|k| has(k))
        .collect();
    if places.is_empty() {
        places.push("allocatable");
    }
    for p in places {
        set_at(v, &["status", p, res], q.clone());
    }
}

/// New entries that equal an old one once the old one's `extras` fields are ignored are
/// replaced by the old one, so fields the form does not show survive.
pub fn keep_extras(new: Vec<Value>, old: Option<&Value>, extras: &[&str]) -> Vec<Value> {
    let old: Vec<&Value> = old
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    new.into_iter()
        .map(|n| {
            old.iter()
                .find(|o| {
                    let mut stripped = (**o).clone();
                    if let Some(m) = stripped.as_object_mut() {
                        for e in extras {
                            m.remove(*e);
                        }
                    }
                    same_entry(&stripped, &n)
                })
                .map(|o| (*o).clone())
                .unwrap_or(n)
        })
        .collect()
}

/// Equal ignoring key order and the `operator: Equal` default.
fn same_entry(a: &Value, b: &Value) -> bool {
    let norm = |v: &Value| {
        let mut v = v.clone();
        if let Some(m) = v.as_object_mut() {
            if m.get("operator").and_then(Value::as_str) == Some("Equal") {
                m.remove("operator");
            }
            if m.get("value").and_then(Value::as_str) == Some("") {
                m.remove("value");
            }
        }
        let mut pairs: Vec<(String, String)> = v
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, v)| (k.clone(), v.to_string()))
            .collect();
        pairs.sort();
        pairs
    };
    norm(a) == norm(b)
}

/// Adds a node (4 CPUs, 8Gi, 110 pods) after the last one. Returns its name.
pub fn add(doc: &mut Document) -> String {
    let name = doc.unique_name(KIND, "node-1");
    let res = json!({"cpu": "4", "memory": "8Gi", "pods": "110"});
    doc.insert(
        None,
        json!({
            "apiVersion": "v1",
            "kind": KIND,
            "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
            "status": {"capacity": res, "allocatable": res},
        }),
    );
    name
}
