//! `metadata` of every object: name, namespace, labels, annotations, owners.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Labels or annotations, sorted by key.
pub type Labels = BTreeMap<String, String>;

/// The parts of `metadata` the scheduler reads.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    /// `metadata.name`.
    #[serde(default)]
    pub name: String,
    /// `metadata.namespace`; empty means `default` for namespaced kinds.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// `metadata.uid`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub uid: String,
    /// `metadata.labels`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: Labels,
    /// `metadata.annotations`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: Labels,
    /// `metadata.ownerReferences`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub owner_references: Vec<OwnerReference>,
    /// `metadata.finalizers` (a DRA claim's delete protection).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub finalizers: Vec<String>,
    /// `metadata.deletionTimestamp`, kept only to know that the object is terminating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_timestamp: Option<String>,
}

/// One `ownerReferences` entry.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct OwnerReference {
    /// Owner kind, e.g. `ReplicaSet`.
    #[serde(default)]
    pub kind: String,
    /// Owner name.
    #[serde(default)]
    pub name: String,
    /// Owner UID.
    #[serde(default)]
    pub uid: String,
    /// Whether this owner is the managing controller.
    #[serde(default)]
    pub controller: Option<bool>,
}

impl ObjectMeta {
    /// The namespace, with the `default` fallback.
    pub fn namespace_or_default(&self) -> &str {
        if self.namespace.is_empty() {
            "default"
        } else {
            &self.namespace
        }
    }

    /// The controller owner reference (`metav1.GetControllerOf`).
    pub fn controller(&self) -> Option<&OwnerReference> {
        self.owner_references
            .iter()
            .find(|o| o.controller == Some(true))
    }
}
