//! The legacy `Policy`: which predicates run, priority weights, the argument entries and the
//! two flags. Without a `predicates` (or `priorities`) key the DefaultProvider set applies; the
//! first edit of that list writes the set out so it can be changed.

use super::{at, parse_int, set_at, str_at, Document, ObjRef};
use schedlab_core::scheduler::v1_17::{
    default_provider_predicates, default_provider_priorities, predicate_names, priority_names,
};
use serde_json::{json, Map, Value};

/// `kind` of a policy.
pub const KIND: &str = "Policy";

/// The policy object of a file, if it has one.
pub fn find(doc: &Document) -> Option<ObjRef> {
    doc.of_kind(KIND).next().map(|(r, _)| r)
}

/// An empty policy (every set from the DefaultProvider).
pub fn empty() -> Value {
    json!({"kind": KIND, "apiVersion": "v1"})
}

fn entries<'a>(v: &'a Value, key: &str) -> Option<&'a Vec<Value>> {
    v.get(key).and_then(Value::as_array)
}

fn plain(e: &Value) -> Option<&str> {
    e.get("argument")
        .is_none_or(Value::is_null)
        .then(|| e.get("name").and_then(Value::as_str))
        .flatten()
}

/// Whether the `predicates` key is absent (the DefaultProvider set runs).
pub fn default_predicates(v: &Value) -> bool {
    entries(v, "predicates").is_none()
}

/// Whether the `priorities` key is absent (the DefaultProvider set runs).
pub fn default_priorities(v: &Value) -> bool {
    entries(v, "priorities").is_none()
}

/// The argument-less predicates that run (the DefaultProvider's when the key is absent).
pub fn enabled_predicates(v: &Value) -> Vec<String> {
    match entries(v, "predicates") {
        Some(list) => list.iter().filter_map(plain).map(String::from).collect(),
        None => default_provider_predicates()
            .into_iter()
            .map(String::from)
            .collect(),
    }
}

/// The argument-less priorities and weights (the DefaultProvider's when the key is absent).
pub fn priority_weights(v: &Value) -> Vec<(String, i64)> {
    match entries(v, "priorities") {
        Some(list) => list
            .iter()
            .filter_map(|e| {
                let w = e.get("weight").and_then(Value::as_i64).unwrap_or(0);
                plain(e).map(|n| (n.to_string(), w))
            })
            .collect(),
        None => default_provider_priorities()
            .into_iter()
            .map(|(n, w)| (n.to_string(), w))
            .collect(),
    }
}

/// Predicate names the form lists: v1.17's, then any others the policy names.
pub fn predicate_choices(v: &Value) -> Vec<String> {
    let mut names: Vec<String> = predicate_names().into_iter().map(String::from).collect();
    for n in enabled_predicates(v) {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    names
}

/// Priority names the form lists, with default weights: v1.17's, then any others.
pub fn priority_choices(v: &Value) -> Vec<(String, i64)> {
    let mut names: Vec<(String, i64)> = priority_names()
        .into_iter()
        .map(|(n, w)| (n.to_string(), w))
        .collect();
    for (n, _) in priority_weights(v) {
        if !names.iter().any(|(m, _)| *m == n) {
            names.push((n, 1));
        }
    }
    names
}

/// The argument types the form edits.
pub const ARGUMENTS: [(&str, &str); 4] = [
    ("predicates", "labelsPresence"),
    ("predicates", "serviceAffinity"),
    ("priorities", "labelPreference"),
    ("priorities", "serviceAntiAffinity"),
];

/// A `predicates` or `priorities` entry with an argument.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgEntry {
    /// `predicates` or `priorities`.
    pub list: &'static str,
    /// Index in that list.
    pub index: usize,
    /// The entry's name.
    pub name: String,
    /// The argument's type (`labelsPresence`, ...), or another key the form only shows.
    pub kind: String,
    /// `labels` (comma-separated) or `label`.
    pub labels: String,
    /// `presence`, for the types that have it.
    pub presence: Option<bool>,
    /// `weight` (priorities).
    pub weight: String,
}

/// Every entry with an argument, predicates first.
pub fn argument_entries(v: &Value) -> Vec<ArgEntry> {
    let mut out = Vec::new();
    for list in ["predicates", "priorities"] {
        for (index, e) in entries(v, list).into_iter().flatten().enumerate() {
            let Some(arg) = e.get("argument").and_then(Value::as_object) else {
                continue;
            };
            let (kind, inner) = arg
                .iter()
                .next()
                .map(|(k, v)| (k.clone(), v.clone()))
                .unwrap_or_default();
            let labels = match inner.get("labels").and_then(Value::as_array) {
                Some(l) => l
                    .iter()
                    .map(|x| str_at(x, &[]))
                    .collect::<Vec<_>>()
                    .join(", "),
                None => str_at(&inner, &["label"]),
            };
            out.push(ArgEntry {
                list,
                index,
                name: str_at(e, &["name"]),
                presence: inner.get("presence").map(|p| p.as_bool() == Some(true)),
                kind,
                labels,
                weight: str_at(e, &["weight"]),
            });
        }
    }
    out
}

/// A field of an argument entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgField {
    /// The entry's name.
    Name,
    /// `labels` or `label`.
    Labels,
    /// `presence` (`true`/`false`).
    Presence,
    /// `weight`.
    Weight,
}

/// One change the policy form makes.
#[derive(Clone, Debug, PartialEq)]
pub enum PolicyEdit {
    /// Runs (or stops) an argument-less predicate.
    Predicate(String, bool),
    /// Sets a priority's weight; `None` removes it.
    PriorityWeight(String, Option<i64>),
    /// Removes the `predicates` key: the DefaultProvider set runs.
    DefaultPredicates,
    /// Removes the `priorities` key.
    DefaultPriorities,
    /// `hardPodAffinitySymmetricWeight` (`None` removes it).
    HardWeight(Option<i64>),
    /// `alwaysCheckAllPredicates`.
    AlwaysCheckAll(bool),
    /// Adds an entry with an argument of this type (one of [`ARGUMENTS`]).
    AddArgument(&'static str),
    /// Sets a field of the argument entry at (`list`, index) from its form text.
    Argument(&'static str, usize, ArgField, String),
    /// Removes the entry at (`list`, index).
    Remove(&'static str, usize),
}

/// The list under `key`, written out from the DefaultProvider first when absent.
fn list_mut<'a>(v: &'a mut Value, key: &str) -> &'a mut Vec<Value> {
    if !v.get(key).is_some_and(Value::is_array) {
        let list: Vec<Value> = if key == "predicates" {
            default_provider_predicates()
                .iter()
                .map(|n| json!({"name": n}))
                .collect()
        } else {
            default_provider_priorities()
                .iter()
                .map(|(n, w)| json!({"name": n, "weight": w}))
                .collect()
        };
        set_at(v, &[key], Some(Value::Array(list)));
    }
    v[key].as_array_mut().expect("set to an array above")
}

/// Applies an edit to the file's policy (one is made if the file has none).
pub fn apply(doc: &mut Document, edit: PolicyEdit) -> Result<(), String> {
    let r = match find(doc) {
        Some(r) => r,
        None => doc.insert(None, empty()),
    };
    let v = doc.get_mut(r).ok_or("the policy is gone")?;
    match edit {
        PolicyEdit::Predicate(name, on) => {
            let list = list_mut(v, "predicates");
            list.retain(|e| plain(e) != Some(name.as_str()));
            if on {
                list.push(json!({"name": name}));
            }
        }
        PolicyEdit::PriorityWeight(name, weight) => {
            let list = list_mut(v, "priorities");
            let pos = list.iter().position(|e| plain(e) == Some(name.as_str()));
            match (pos, weight) {
                (Some(i), Some(w)) => list[i]["weight"] = w.into(),
                (None, Some(w)) => list.push(json!({"name": name, "weight": w})),
                (_, None) => list.retain(|e| plain(e) != Some(name.as_str())),
            }
        }
        PolicyEdit::DefaultPredicates => set_at(v, &["predicates"], None),
        PolicyEdit::DefaultPriorities => set_at(v, &["priorities"], None),
        PolicyEdit::HardWeight(w) => {
            set_at(v, &["hardPodAffinitySymmetricWeight"], w.map(Value::from))
        }
        PolicyEdit::AlwaysCheckAll(on) => set_at(
            v,
            &["alwaysCheckAllPredicates"],
            on.then_some(Value::Bool(true)),
        ),
        PolicyEdit::AddArgument(kind) => {
            let (list, arg, name) = match kind {
                "labelsPresence" => (
                    "predicates",
                    json!({"labels": ["disktype"], "presence": true}),
                    "RequireDiskType",
                ),
                "serviceAffinity" => (
                    "predicates",
                    json!({"labels": ["topology.kubernetes.io/zone"]}),
                    "ZoneAffinity",
                ),
                "labelPreference" => (
                    "priorities",
                    json!({"label": "disktype", "presence": true}),
                    "PreferDiskType",
                ),
                "serviceAntiAffinity" => (
                    "priorities",
                    json!({"label": "topology.kubernetes.io/zone"}),
                    "ZoneSpread",
                ),
                other => return Err(format!("unknown argument type {other}")),
            };
            let mut e = Map::new();
            e.insert("name".into(), name.into());
            if list == "priorities" {
                e.insert("weight".into(), 1.into());
            }
            e.insert("argument".into(), json!({ kind: arg }));
            list_mut(v, list).push(Value::Object(e));
        }
        PolicyEdit::Argument(list, index, field, text) => {
            let e = list_mut(v, list)
                .get_mut(index)
                .ok_or("the entry is gone")?;
            set_argument(e, field, text.trim())?;
        }
        PolicyEdit::Remove(list, index) => {
            let list = list_mut(v, list);
            if index < list.len() {
                list.remove(index);
            }
        }
    }
    Ok(())
}

fn set_argument(e: &mut Value, field: ArgField, t: &str) -> Result<(), String> {
    let kind = e
        .get("argument")
        .and_then(Value::as_object)
        .and_then(|a| a.keys().next().cloned())
        .unwrap_or_default();
    match field {
        ArgField::Name => {
            if t.is_empty() {
                return Err("an entry needs a name".into());
            }
            e["name"] = t.into();
        }
        ArgField::Weight => {
            let w = parse_int(t, "weight")?.ok_or("a priority needs a weight")?;
            e["weight"] = w.into();
        }
        ArgField::Presence => set_at(
            e,
            &["argument", &kind, "presence"],
            Some((t == "true").into()),
        ),
        ArgField::Labels => {
            let inner = at(e, &["argument", &kind]).cloned().unwrap_or_default();
            if inner.get("label").is_some()
                || kind == "labelPreference"
                || kind == "serviceAntiAffinity"
            {
                set_at(e, &["argument", &kind, "label"], Some(t.into()));
            } else {
                let labels: Vec<Value> = t
                    .split(',')
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .map(Value::from)
                    .collect();
                set_at(e, &["argument", &kind, "labels"], Some(labels.into()));
            }
        }
    }
    Ok(())
}

/// `hardPodAffinitySymmetricWeight` as form text.
pub fn hard_weight(v: &Value) -> String {
    str_at(v, &["hardPodAffinitySymmetricWeight"])
}

/// `alwaysCheckAllPredicates`.
pub fn always_check_all(v: &Value) -> bool {
    v.get("alwaysCheckAllPredicates").and_then(Value::as_bool) == Some(true)
}
