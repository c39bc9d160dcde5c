//! A scenario's timeline: changes to the cluster at virtual times, and the binding knobs.
//!
//! It is read from a schedlab object (`apiVersion: schedlab.dev/v1alpha1`, `kind: Timeline`);
//! `docs/scenario-format.md` documents it and `input::timeline` parses it.

use crate::model::dra::{DeviceClass, ResourceClaim, ResourceSlice};
use crate::model::Millis;
use crate::model::{Labels, Node, Pod, Taint};

/// A Dynamic Resource Allocation object a change creates or replaces (v1.35).
#[derive(Clone, Debug, PartialEq)]
pub enum DraObject {
    /// `applyDeviceClass`.
    DeviceClass(DeviceClass),
    /// `applyResourceSlice`.
    ResourceSlice(ResourceSlice),
    /// `applyResourceClaim`.
    ResourceClaim(ResourceClaim),
}

/// The kind of a DRA object a change deletes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DraKind {
    /// `deleteDeviceClass`.
    DeviceClass,
    /// `deleteResourceSlice`.
    ResourceSlice,
    /// `deleteResourceClaim`.
    ResourceClaim,
}

/// One change to the cluster.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// `addNode`: a new node.
    AddNode(Node),
    /// `updateNode`: replaces the node of that name (labels, taints, allocatable, ...).
    UpdateNode(Node),
    /// `deleteNode`: removes a node; the pods on it are deleted with it (as the pod garbage
    /// collector would).
    DeleteNode(String),
    /// `cordonNode`: `spec.unschedulable = true`.
    CordonNode(String),
    /// `uncordonNode`: `spec.unschedulable = false`.
    UncordonNode(String),
    /// `setNodeLabels`: sets (or, with `remove`, deletes) labels of a node.
    SetNodeLabels {
        /// The node.
        node: String,
        /// Labels to set.
        labels: Labels,
        /// Label keys to delete.
        remove: Vec<String>,
    },
    /// `setNodeTaints`: replaces a node's taints.
    SetNodeTaints {
        /// The node.
        node: String,
        /// The new taints.
        taints: Vec<Taint>,
    },
    /// `createPod`: a new pod (pending, or bound when it names a node).
    CreatePod(Box<Pod>),
    /// `createPods`: `replicas` pods from a template, named `<name>-<k>`, `k` counting on from
    /// earlier batches of the same name.
    CreatePods {
        /// How many.
        replicas: u32,
        /// The template (its `metadata.name` is the name prefix).
        template: Box<Pod>,
    },
    /// `deletePod`: deletes a pod (`namespace/name`), wherever it is.
    DeletePod(String),
    /// `failBinding`: the next binding of this pod (`namespace/name`) fails.
    FailBinding(String),
    /// `applyDeviceClass`, `applyResourceSlice`, `applyResourceClaim`: creates the object, or
    /// replaces the one of that name.
    ApplyDra(Box<DraObject>),
    /// `deleteDeviceClass`, `deleteResourceSlice` (by name), `deleteResourceClaim`
    /// (`namespace/name`).
    DeleteDra {
        /// Its kind.
        kind: DraKind,
        /// Its name (a claim's with its namespace).
        name: String,
    },
}

impl Change {
    /// The key it is written under (`addNode`, ...).
    pub fn verb(&self) -> &'static str {
        match self {
            Change::AddNode(_) => "addNode",
            Change::UpdateNode(_) => "updateNode",
            Change::DeleteNode(_) => "deleteNode",
            Change::CordonNode(_) => "cordonNode",
            Change::UncordonNode(_) => "uncordonNode",
            Change::SetNodeLabels { .. } => "setNodeLabels",
            Change::SetNodeTaints { .. } => "setNodeTaints",
            Change::CreatePod(_) => "createPod",
            Change::CreatePods { .. } => "createPods",
            Change::DeletePod(_) => "deletePod",
            Change::FailBinding(_) => "failBinding",
            Change::ApplyDra(o) => match o.as_ref() {
                DraObject::DeviceClass(_) => "applyDeviceClass",
                DraObject::ResourceSlice(_) => "applyResourceSlice",
                DraObject::ResourceClaim(_) => "applyResourceClaim",
            },
            Change::DeleteDra { kind, .. } => match kind {
                DraKind::DeviceClass => "deleteDeviceClass",
                DraKind::ResourceSlice => "deleteResourceSlice",
                DraKind::ResourceClaim => "deleteResourceClaim",
            },
        }
    }

    /// What it acts on, `kubectl` style: `node/a`, `pod/default/web`, `pod/default/web-*`.
    pub fn object(&self) -> String {
        match self {
            Change::AddNode(n) | Change::UpdateNode(n) => format!("node/{}", n.metadata.name),
            Change::DeleteNode(n)
            | Change::CordonNode(n)
            | Change::UncordonNode(n)
            | Change::SetNodeLabels { node: n, .. }
            | Change::SetNodeTaints { node: n, .. } => format!("node/{n}"),
            Change::CreatePod(p) => format!("pod/{}", p.full_name()),
            Change::CreatePods { template, .. } => format!("pod/{}-*", template.full_name()),
            Change::DeletePod(p) | Change::FailBinding(p) => format!("pod/{p}"),
            Change::ApplyDra(o) => match o.as_ref() {
                DraObject::DeviceClass(c) => format!("deviceclass/{}", c.metadata.name),
                DraObject::ResourceSlice(s) => format!("resourceslice/{}", s.metadata.name),
                DraObject::ResourceClaim(c) => format!(
                    "resourceclaim/{}/{}",
                    c.metadata.namespace_or_default(),
                    c.metadata.name
                ),
            },
            Change::DeleteDra { kind, name } => match kind {
                DraKind::DeviceClass => format!("deviceclass/{name}"),
                DraKind::ResourceSlice => format!("resourceslice/{name}"),
                DraKind::ResourceClaim => format!("resourceclaim/{name}"),
            },
        }
    }
}

/// A change at a virtual time.
#[derive(Clone, Debug, PartialEq)]
pub struct TimedChange {
    /// When.
    pub at: Millis,
    /// What.
    pub change: Change,
    /// The file it was written in.
    pub file: String,
    /// Its path there (`spec.changes[2]`).
    pub path: String,
}

/// The timeline and the binding knobs of a scenario.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timeline {
    /// Virtual time from assume to the end of the binding (`bindLatency`, default 0).
    pub bind_latency: Millis,
    /// Percentage of bindings that fail (`bindFailurePercent`, 0–100, default 0); which ones is
    /// drawn from the seed.
    pub bind_failure_percent: f64,
    /// Changes, sorted by time (stable: equal times keep file order).
    pub changes: Vec<TimedChange>,
}
