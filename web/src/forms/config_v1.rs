//! A `kubescheduler.config.k8s.io/v1` `KubeSchedulerConfiguration` (kube-scheduler v1.35):
//! the global fields, each profile's name and percentage, and the plugins at `multiPoint`.
//!
//! The editing model is `multiPoint`-level, the simplest one that stays faithful to the merge
//! with the defaults (`mergePlugins`, reference §2.1): every default plugin is listed with its
//! default weight; switching one off adds it to `plugins.multiPoint.disabled`, a weight writes
//! `plugins.multiPoint.enabled: [{name, weight}]`, which replaces the default entry in place.
//! What a row shows (on or off, the weight in effect) comes from the core's own layout of the
//! profile ([`schedlab_core::scheduler::v1_35::plan`]) whenever the document validates, so
//! per-point lists written in the text are honoured too.

use super::{object_at, parse_int, str_at, Document, ObjRef};
use schedlab_core::scheduler::v1_35::{self as registry, Point};
use schedlab_core::scheduler::v1_35::{self as modern, DEFAULT_SCHEDULER_NAME, V1};
use serde_json::{json, Map, Value};

/// Whether a configuration object is a v1 one (v1.35).
pub fn is_v1(v: &Value) -> bool {
    v.get("apiVersion").and_then(Value::as_str) == Some(V1)
}

/// A global field the form edits: key, label, test id, v1.35's default.
pub struct GlobalField {
    /// The key.
    pub key: &'static str,
    /// What the form calls it.
    pub label: &'static str,
    /// `data-testid` of its input.
    pub test_id: &'static str,
    /// v1.35's default, shown as the placeholder.
    pub default: &'static str,
}

/// The global fields, in the form's order (all whole numbers).
pub const GLOBAL_FIELDS: [GlobalField; 3] = [
    GlobalField {
        key: "percentageOfNodesToScore",
        label: "Nodes to score (%, 0 = adaptive)",
        test_id: "v1-percentage",
        default: "0",
    },
    GlobalField {
        key: "podInitialBackoffSeconds",
        label: "Initial backoff (s)",
        test_id: "v1-initial-backoff",
        default: "1",
    },
    GlobalField {
        key: "podMaxBackoffSeconds",
        label: "Max backoff (s)",
        test_id: "v1-max-backoff",
        default: "10",
    },
];

/// A global field's value as form text (empty when absent).
pub fn global(v: &Value, key: &str) -> String {
    str_at(v, &[key])
}

/// One profile as the form shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileRow {
    /// Its index in `profiles` (0 for the implicit profile of a document without any).
    pub index: usize,
    /// `schedulerName` as written (empty when absent).
    pub scheduler_name: String,
    /// `percentageOfNodesToScore` as written (empty when absent).
    pub percentage: String,
}

impl ProfileRow {
    /// The name the profile runs under (the default when there is one profile without a name).
    pub fn shown_name(&self, count: usize) -> String {
        if self.scheduler_name.is_empty() && count == 1 {
            DEFAULT_SCHEDULER_NAME.to_string()
        } else {
            self.scheduler_name.clone()
        }
    }
}

/// The profiles; a document without `profiles` has the one defaulting gives it.
pub fn profiles(v: &Value) -> Vec<ProfileRow> {
    match v.get("profiles").and_then(Value::as_array) {
        Some(list) if !list.is_empty() => list
            .iter()
            .enumerate()
            .map(|(index, p)| ProfileRow {
                index,
                scheduler_name: str_at(p, &["schedulerName"]),
                percentage: str_at(p, &["percentageOfNodesToScore"]),
            })
            .collect(),
        _ => vec![ProfileRow {
            index: 0,
            scheduler_name: String::new(),
            percentage: String::new(),
        }],
    }
}

/// One plugin of a profile as the form shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PluginRow {
    /// The registered name.
    pub name: String,
    /// The extension points it implements, as the trace names them (`PreFilter`).
    pub points: Vec<&'static str>,
    /// Whether it is a Score plugin (it has a weight).
    pub scores: bool,
    /// Its weight in v1.35's default list (1 for a Score plugin without one).
    pub default_weight: i64,
    /// Whether it runs at some point in this profile.
    pub enabled: bool,
    /// The weight written in `plugins.multiPoint.enabled`, as text (empty: none written).
    pub weight: String,
    /// The Score weight in effect, when it scores.
    pub effective_weight: Option<i64>,
    /// Whether v1.35 enables it by default.
    pub default_enabled: bool,
}

/// The plugins of profile `profile`: every default plugin in v1.35's order, then any other
/// plugin the profile's `multiPoint.enabled` names (unknown names included, so that a typo
/// stays visible). On/off and the weights in effect come from the core's plan of the
/// document; when the document does not validate, from `multiPoint` alone.
pub fn plugin_rows(v: &Value, profile: usize) -> Vec<PluginRow> {
    let planned = modern::plan(v.clone())
        .ok()
        .and_then(|(plans, _)| plans.into_iter().nth(profile));
    let p = profile_value(v, profile);
    let multi = p
        .and_then(|p| p.pointer("/plugins/multiPoint"))
        .cloned()
        .unwrap_or(Value::Null);
    let entries = |key: &str| -> Vec<Value> {
        multi
            .get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let enabled_list = entries("enabled");
    let disabled_list = entries("disabled");
    let name_of = |e: &Value| e.get("name").and_then(Value::as_str).map(str::to_string);
    let all_off = disabled_list
        .iter()
        .any(|e| name_of(e).as_deref() == Some("*"));
    let mut names: Vec<String> = registry::default_plugins()
        .map(|(n, _)| n.to_string())
        .collect();
    for e in &enabled_list {
        if let Some(n) = name_of(e) {
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    names
        .into_iter()
        .map(|name| {
            let spec = registry::lookup(&name);
            let points: Vec<&'static str> = spec
                .map(|s| s.points.iter().map(Point::title).collect())
                .unwrap_or_default();
            let scores = spec.is_some_and(|s| s.points.has(Point::Score));
            let default_enabled = spec.is_some_and(|s| s.default_enabled);
            let listed = enabled_list
                .iter()
                .find(|e| name_of(e).as_deref() == Some(name.as_str()));
            let weight = listed.map(|e| str_at(e, &["weight"])).unwrap_or_default();
            let (enabled, effective_weight) = match &planned {
                Some(plan) => {
                    let on = plan.points.iter().flatten().any(|(n, _)| *n == name);
                    let w = plan
                        .at(Point::Score)
                        .iter()
                        .find(|(n, _)| *n == name)
                        .map(|(_, w)| *w);
                    (on, w)
                }
                None => {
                    let disabled = disabled_list
                        .iter()
                        .any(|e| name_of(e).as_deref() == Some(name.as_str()));
                    let on = listed.is_some() || (default_enabled && !disabled && !all_off);
                    (on, None)
                }
            };
            PluginRow {
                default_weight: spec.and_then(|s| s.default_weight).unwrap_or(1),
                name,
                points,
                scores,
                enabled,
                weight,
                effective_weight,
                default_enabled,
            }
        })
        .collect()
}

/// Whether a profile also has per-point plugin lists (they apply on top of `multiPoint`).
pub fn has_point_lists(v: &Value, profile: usize) -> bool {
    profile_value(v, profile)
        .and_then(|p| p.pointer("/plugins"))
        .and_then(Value::as_object)
        .is_some_and(|m| m.keys().any(|k| k != "multiPoint"))
}

fn profile_value(v: &Value, profile: usize) -> Option<&Value> {
    v.get("profiles").and_then(|p| p.get(profile))
}

/// One change made in the form.
#[derive(Clone, Debug, PartialEq)]
pub enum V1Edit {
    /// A global field, from its form text (empty removes it).
    Global(&'static str, String),
    /// A profile's `schedulerName` (empty removes it).
    ProfileName(usize, String),
    /// A profile's `percentageOfNodesToScore` (empty removes it).
    ProfilePercentage(usize, String),
    /// Switches a plugin on or off in a profile's `multiPoint`.
    Enabled(usize, String, bool),
    /// A plugin's Score weight in a profile's `multiPoint.enabled` (`None`: its default).
    Weight(usize, String, Option<i64>),
}

/// Applies an edit to the file's v1 configuration.
pub fn apply(doc: &mut Document, r: ObjRef, edit: V1Edit) -> Result<(), String> {
    let v = doc.get_mut(r).ok_or("the configuration is gone")?;
    match edit {
        V1Edit::Global(key, text) => {
            let field = GLOBAL_FIELDS
                .iter()
                .find(|f| f.key == key)
                .ok_or_else(|| format!("unknown field {key}"))?;
            let value = parse_int(&text, field.label)?;
            super::set_at(v, &[key], value.map(Value::from));
        }
        V1Edit::ProfileName(i, text) => {
            let t = text.trim();
            let p = profile_mut(v, i)?;
            if t.is_empty() {
                p.remove("schedulerName");
            } else {
                p.insert("schedulerName".into(), t.into());
            }
        }
        V1Edit::ProfilePercentage(i, text) => {
            let value = parse_int(&text, "The profile's percentage")?;
            let p = profile_mut(v, i)?;
            match value {
                Some(n) => {
                    p.insert("percentageOfNodesToScore".into(), n.into());
                }
                None => {
                    p.remove("percentageOfNodesToScore");
                }
            }
        }
        V1Edit::Enabled(i, name, on) => {
            let default_enabled = registry::lookup(&name).is_some_and(|s| s.default_enabled);
            let p = profile_mut(v, i)?;
            let multi = multi_point(p);
            let all_off = list(multi, "disabled").iter().any(|e| e["name"] == "*");
            if on {
                list_mut(multi, "disabled").retain(|e| e["name"] != name.as_str());
                let listed = list(multi, "enabled")
                    .iter()
                    .any(|e| e["name"] == name.as_str());
                if !listed && (all_off || !default_enabled) {
                    list_mut(multi, "enabled").push(json!({ "name": name }));
                }
            } else {
                // An entry left in `enabled` would bring it back at the end of the list.
                list_mut(multi, "enabled").retain(|e| e["name"] != name.as_str());
                // Only a default plugin needs `disabled`; another one is off once unlisted.
                let disabled = list_mut(multi, "disabled");
                if default_enabled
                    && !all_off
                    && !disabled.iter().any(|e| e["name"] == name.as_str())
                {
                    disabled.push(json!({ "name": name }));
                }
            }
            prune(p);
        }
        V1Edit::Weight(i, name, weight) => {
            let default_enabled = registry::lookup(&name).is_some_and(|s| s.default_enabled);
            let p = profile_mut(v, i)?;
            let multi = multi_point(p);
            let enabled = list_mut(multi, "enabled");
            let at = enabled.iter().position(|e| e["name"] == name.as_str());
            match (weight, at) {
                (Some(w), Some(k)) => {
                    let e = &mut enabled[k];
                    if !e.is_object() {
                        *e = json!({ "name": name });
                    }
                    object_at(e, &[]).insert("weight".into(), w.into());
                }
                (Some(w), None) => enabled.push(json!({ "name": name, "weight": w })),
                // Back to the default: a default plugin needs no entry at all.
                (None, Some(k)) if default_enabled => {
                    enabled.remove(k);
                }
                (None, Some(k)) => {
                    if let Some(m) = enabled[k].as_object_mut() {
                        m.remove("weight");
                    }
                }
                (None, None) => {}
            }
            prune(p);
        }
    }
    Ok(())
}

/// Profile `i`, created (as `profiles: [{schedulerName: default-scheduler}]`) when the document
/// has none.
fn profile_mut(v: &mut Value, i: usize) -> Result<&mut Map<String, Value>, String> {
    let root = object_at(v, &[]);
    let missing = root
        .get("profiles")
        .and_then(Value::as_array)
        .is_none_or(Vec::is_empty);
    if missing {
        root.insert(
            "profiles".into(),
            json!([{ "schedulerName": DEFAULT_SCHEDULER_NAME }]),
        );
    }
    let p = root
        .get_mut("profiles")
        .and_then(Value::as_array_mut)
        .and_then(|l| l.get_mut(i))
        .ok_or_else(|| format!("there is no profile {i}"))?;
    if !p.is_object() {
        *p = Value::Object(Map::new());
    }
    Ok(p.as_object_mut().expect("made an object above"))
}

/// `plugins.multiPoint` of a profile, created as needed.
fn multi_point(p: &mut Map<String, Value>) -> &mut Map<String, Value> {
    let plugins = p
        .entry("plugins")
        .or_insert_with(|| Value::Object(Map::new()));
    object_at(plugins, &["multiPoint"])
}

fn list<'a>(set: &'a Map<String, Value>, key: &str) -> &'a [Value] {
    set.get(key)
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
}

fn list_mut<'a>(set: &'a mut Map<String, Value>, key: &str) -> &'a mut Vec<Value> {
    let entry = set
        .entry(key.to_string())
        .or_insert_with(|| Value::Array(Vec::new()));
    if !entry.is_array() {
        *entry = Value::Array(Vec::new());
    }
    entry.as_array_mut().expect("made an array above")
}

/// Drops the empty lists and objects an edit left under `plugins`.
fn prune(p: &mut Map<String, Value>) {
    let Some(plugins) = p.get_mut("plugins").and_then(Value::as_object_mut) else {
        return;
    };
    if let Some(multi) = plugins.get_mut("multiPoint").and_then(Value::as_object_mut) {
        multi.retain(|_, l| !l.as_array().is_some_and(Vec::is_empty));
        if multi.is_empty() {
            plugins.remove("multiPoint");
        }
    }
    if plugins.is_empty() {
        p.remove("plugins");
    }
}
