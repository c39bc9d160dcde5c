//! `v1.Node`: labels, taints, unschedulable, allocatable, images.

use super::meta::ObjectMeta;
use super::resources::ResourceList;
use super::taint::Taint;
use serde::{Deserialize, Serialize};

/// A node as read from input.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Node {
    /// `metadata`.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// `spec`.
    #[serde(default)]
    pub spec: NodeSpec,
    /// `status`.
    #[serde(default)]
    pub status: NodeStatus,
}

/// `v1.NodeSpec`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NodeSpec {
    /// Cordoned.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unschedulable: bool,
    /// Taints.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taints: Vec<Taint>,
}

/// `v1.NodeStatus`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NodeStatus {
    /// What pods may use; falls back to `capacity` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allocatable: Option<ResourceList>,
    /// Total capacity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<ResourceList>,
    /// Images present on the node.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<ContainerImage>,
}

/// `v1.ContainerImage`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ContainerImage {
    /// Every name of the image.
    #[serde(default)]
    pub names: Vec<String>,
    /// Size in bytes.
    #[serde(default)]
    pub size_bytes: i64,
}

impl Node {
    /// `status.allocatable`, else `status.capacity`, else nothing.
    pub fn allocatable(&self) -> ResourceList {
        self.status
            .allocatable
            .clone()
            .or_else(|| self.status.capacity.clone())
            .unwrap_or_default()
    }
}
