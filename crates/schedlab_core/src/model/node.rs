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

/// Whether `normalizedImageName` appends `:latest`: the last `:` is not after the last `/`.
fn needs_latest(name: &str) -> bool {
    match (name.rfind(':'), name.rfind('/')) {
        (None, _) => true,
        (Some(c), Some(s)) => c <= s,
        (Some(_), None) => false,
    }
}

/// `normalizedImageName`.
pub fn normalized_image_name(name: &str) -> String {
    if needs_latest(name) {
        format!("{name}:latest")
    } else {
        name.to_string()
    }
}

/// Calls `f` with the normalized image name, built on the stack when it is short (Score runs
/// for every node and must not allocate).
pub fn with_normalized<R>(name: &str, f: impl FnOnce(&str) -> R) -> R {
    const LATEST: &[u8] = b":latest";
    if !needs_latest(name) {
        return f(name);
    }
    let mut buf = [0u8; 256];
    let n = name.len() + LATEST.len();
    if n > buf.len() {
        return f(&normalized_image_name(name));
    }
    buf[..name.len()].copy_from_slice(name.as_bytes());
    buf[name.len()..n].copy_from_slice(LATEST);
    // A str followed by ASCII is a str.
    f(std::str::from_utf8(&buf[..n]).unwrap_or(""))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_names_are_normalised() {
        assert_eq!(normalized_image_name("root"), "root:latest");
        assert_eq!(
            normalized_image_name("gcr.io:5000/root"),
            "gcr.io:5000/root:latest"
        );
        assert_eq!(normalized_image_name("root:tag"), "root:tag");
        assert_eq!(normalized_image_name("root@sha256:abc"), "root@sha256:abc");
    }

    #[test]
    fn names_are_normalized() {
        assert_eq!(normalized_image_name("nginx"), "nginx:latest");
        assert_eq!(normalized_image_name("nginx:1.2"), "nginx:1.2");
        assert_eq!(
            normalized_image_name("registry:5000/app"),
            "registry:5000/app:latest"
        );
        assert_eq!(
            normalized_image_name("registry:5000/app:v1"),
            "registry:5000/app:v1"
        );
        assert_eq!(normalized_image_name("app@sha256:abc"), "app@sha256:abc");
        let long = "r/".repeat(200);
        with_normalized(&long, |n| assert_eq!(n, format!("{long}:latest")));
        with_normalized("a/b", |n| assert_eq!(n, "a/b:latest"));
    }
}
