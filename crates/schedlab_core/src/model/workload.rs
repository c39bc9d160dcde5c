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
