//! Objects that only provide selectors or priorities: Service, ReplicationController,
//! ReplicaSet, StatefulSet and PriorityClass.

use super::meta::{Labels, ObjectMeta};
use super::selector::LabelSelector;
use serde::{Deserialize, Serialize};

/// `v1.Service`: its selector (a plain map; empty selects nothing for the scheduler).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Service {
    /// `metadata`.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// `spec`.
    #[serde(default)]
    pub spec: ServiceSpec,
}

/// `v1.ServiceSpec`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ServiceSpec {
    /// The selector.
    #[serde(default)]
    pub selector: Labels,
}

/// `v1.ReplicationController`: a plain-map selector.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ReplicationController {
    /// `metadata`.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// `spec`.
    #[serde(default)]
    pub spec: RcSpec,
}

/// `v1.ReplicationControllerSpec`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RcSpec {
    /// The selector.
    #[serde(default)]
    pub selector: Labels,
}

/// A ReplicaSet or StatefulSet: a `LabelSelector`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SelectorWorkload {
    /// `metadata`.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// `spec`.
    #[serde(default)]
    pub spec: SelectorWorkloadSpec,
}

/// The spec part shared by ReplicaSet and StatefulSet.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SelectorWorkloadSpec {
    /// The selector; absent selects nothing.
    #[serde(default)]
    pub selector: Option<LabelSelector>,
}

/// `scheduling.k8s.io/v1` PriorityClass.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PriorityClass {
    /// `metadata`.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The priority value.
    #[serde(default)]
    pub value: i32,
    /// Whether pods without a class get this one.
    #[serde(default)]
    pub global_default: bool,
    /// `PreemptLowerPriority` or `Never`.
    #[serde(default)]
    pub preemption_policy: Option<String>,
}

/// The PriorityClass named `name` (`priorityClassName`), if any.
pub fn priority_class<'a>(classes: &'a [PriorityClass], name: &str) -> Option<&'a PriorityClass> {
    classes
        .iter()
        .find(|c| !name.is_empty() && c.metadata.name == name)
}

/// `policy/v1` (and `v1beta1`) `PodDisruptionBudget`: the part preemption reads.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PodDisruptionBudget {
    /// `metadata`.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// `spec`.
    #[serde(default)]
    pub spec: PdbSpec,
    /// `status`.
    #[serde(default)]
    pub status: PdbStatus,
}

/// `PodDisruptionBudgetSpec`: the selector, and `minAvailable`/`maxUnavailable`, which are the
/// disruption controller's (the scheduler reads only the status it computes; they are read to
/// be validated).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PdbSpec {
    /// Pods the budget covers; nil or empty covers none (for the scheduler).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    /// `minAvailable`: a number of pods or a percentage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_available: Option<IntOrString>,
    /// `maxUnavailable`: a number of pods or a percentage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrString>,
}

/// `intstr.IntOrString`: a 32-bit integer (`2`) or a string (`"25%"`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum IntOrString {
    /// A number.
    Int(i32),
    /// A string (a percentage, where one is expected).
    Str(String),
}

impl<'de> Deserialize<'de> for IntOrString {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{Error, Unexpected, Visitor};
        struct V;
        impl Visitor<'_> for V {
            type Value = IntOrString;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a 32-bit integer or a string such as \"25%\"")
            }
            fn visit_i64<E: Error>(self, v: i64) -> Result<IntOrString, E> {
                i32::try_from(v)
                    .map(IntOrString::Int)
                    .map_err(|_| E::invalid_value(Unexpected::Signed(v), &self))
            }
            fn visit_u64<E: Error>(self, v: u64) -> Result<IntOrString, E> {
                i32::try_from(v)
                    .map(IntOrString::Int)
                    .map_err(|_| E::invalid_value(Unexpected::Unsigned(v), &self))
            }
            fn visit_str<E: Error>(self, v: &str) -> Result<IntOrString, E> {
                Ok(IntOrString::Str(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// `PodDisruptionBudgetStatus`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PdbStatus {
    /// `disruptionsAllowed` (`PodDisruptionsAllowed` in v1.17's Go types, same JSON name).
    #[serde(default)]
    pub disruptions_allowed: i64,
    /// `disruptedPods`: pods already being disrupted (name → time); v1.35's preemption does
    /// not count them against the budget again.
    #[serde(default)]
    pub disrupted_pods: std::collections::BTreeMap<String, serde_json::Value>,
}

impl PodDisruptionBudget {
    /// Whether the budget covers `labels` in `namespace` (v1.17 `filterPodsWithPDBViolation`:
    /// same namespace, a non-empty selector that matches; a pod without labels is never
    /// covered).
    pub fn covers(&self, namespace: &str, labels: &Labels) -> bool {
        if labels.is_empty() || self.metadata.namespace_or_default() != namespace {
            return false;
        }
        match &self.spec.selector {
            Some(s) if !s.is_empty() => s.matches(labels),
            _ => false,
        }
    }
}
