//! The v1alpha1 `KubeSchedulerConfiguration` (kube-scheduler v1.17): the six fields the
//! playground reads. A v1 configuration (v1.35) has its own model, [`super::config_v1`].

use super::{parse_int, set_at, str_at, Document, ObjRef};
use schedlab_core::scenario::SchedulerVersion;
use schedlab_core::scheduler::v1_17::V1ALPHA1;
use serde_json::{json, Value};

/// `kind` of a scheduler configuration.
pub const KIND: &str = "KubeSchedulerConfiguration";

/// The configuration object of a file, if it has one.
pub fn find(doc: &Document) -> Option<ObjRef> {
    doc.of_kind(KIND).next().map(|(r, _)| r)
}

/// The scheduler a configuration text is for: v1.35 when it holds a
/// `kubescheduler.config.k8s.io/v1` configuration, else v1.17 (a v1alpha1 configuration, or
/// none: v1.17's defaults). A text that does not parse is judged by its `apiVersion` line.
pub fn scheduler_of(text: &str) -> SchedulerVersion {
    let v1 = match Document::parse(text) {
        Ok(doc) => doc.of_kind(KIND).any(|(_, v)| super::config_v1::is_v1(v)),
        Err(_) => text.lines().any(|l| {
            let l = l.trim().trim_end_matches(',');
            let value = l
                .strip_prefix("apiVersion:")
                .or_else(|| l.strip_prefix("\"apiVersion\":"))
                .map(|v| v.trim().trim_matches(|c| c == '"' || c == '\''));
            value == Some(schedlab_core::scheduler::v1_35::V1)
        }),
    };
    if v1 {
        SchedulerVersion::V1_35
    } else {
        SchedulerVersion::V1_17
    }
}

/// The type of a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldType {
    /// A string.
    Text,
    /// A whole number.
    Int,
    /// `true`/`false`.
    Bool,
}

/// A field the form edits: key, type, label, test id and v1.17's default.
pub struct ConfigField {
    /// The key.
    pub key: &'static str,
    /// Its type.
    pub ty: FieldType,
    /// What the form calls it.
    pub label: &'static str,
    /// `data-testid` of its input.
    pub test_id: &'static str,
    /// v1.17's default, shown as the placeholder.
    pub default: &'static str,
}

/// The fields, in the form's order.
pub const FIELDS: [ConfigField; 6] = [
    ConfigField {
        key: "schedulerName",
        ty: FieldType::Text,
        label: "Scheduler name",
        test_id: "config-scheduler-name",
        default: "default-scheduler",
    },
    ConfigField {
        key: "percentageOfNodesToScore",
        ty: FieldType::Int,
        label: "Nodes to score (%, 0 = adaptive)",
        test_id: "config-percentage",
        default: "0",
    },
    ConfigField {
        key: "disablePreemption",
        ty: FieldType::Bool,
        label: "Disable preemption",
        test_id: "config-disable-preemption",
        default: "false",
    },
    ConfigField {
        key: "hardPodAffinitySymmetricWeight",
        ty: FieldType::Int,
        label: "Hard pod affinity symmetric weight",
        test_id: "config-hard-weight",
        default: "1",
    },
    ConfigField {
        key: "podInitialBackoffSeconds",
        ty: FieldType::Int,
        label: "Initial backoff (s)",
        test_id: "config-initial-backoff",
        default: "1",
    },
    ConfigField {
        key: "podMaxBackoffSeconds",
        ty: FieldType::Int,
        label: "Max backoff (s)",
        test_id: "config-max-backoff",
        default: "10",
    },
];

/// A field's value as form text (empty when absent).
pub fn value(v: &Value, key: &str) -> String {
    str_at(v, &[key])
}

/// Sets a field from its form text (empty removes it: the default applies). A file without a
/// configuration gets one.
pub fn apply(doc: &mut Document, key: &str, text: &str) -> Result<(), String> {
    let field = FIELDS
        .iter()
        .find(|f| f.key == key)
        .ok_or_else(|| format!("unknown field {key}"))?;
    let t = text.trim();
    let value = match field.ty {
        FieldType::Text => (!t.is_empty()).then(|| Value::String(t.to_string())),
        FieldType::Int => parse_int(t, field.label)?.map(Value::from),
        FieldType::Bool => Some(Value::Bool(t == "true")),
    };
    let r = match find(doc) {
        Some(r) => r,
        None => doc.insert(None, json!({"apiVersion": V1ALPHA1, "kind": KIND})),
    };
    let v = doc.get_mut(r).ok_or("the configuration is gone")?;
    set_at(v, &[key], value);
    Ok(())
}
