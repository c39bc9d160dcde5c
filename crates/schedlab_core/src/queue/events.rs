//! Cluster events that move pods out of the unschedulable queue (reference A.6).
//!
//! v1.17's `MoveAllToActiveOrBackoffQueue()` takes no argument; the event names are v1.18's
//! (`internal/queue/events.go`), kept here so that a trace can say why pods moved. The triggers
//! are v1.17's (`eventhandlers.go`), which the reference reports as the same as v1.18's.
//! [`ClusterChange`] carries what v1.35's QueueingHints read about an event.

use crate::cluster::{NodeId, PodId};
use crate::model::Node;

/// Why pods moved (upstream `internal/queue/events.go`, v1.18 names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClusterEvent {
    Unknown,
    NodeAdd,
    UnschedulableTimeout,
    AssignedPodAdd,
    AssignedPodUpdate,
    AssignedPodDelete,
    PvAdd,
    PvUpdate,
    PvcAdd,
    PvcUpdate,
    StorageClassAdd,
    ServiceAdd,
    ServiceUpdate,
    ServiceDelete,
    CsiNodeAdd,
    CsiNodeUpdate,
    NodeSpecUnschedulableChange,
    NodeAllocatableChange,
    NodeLabelChange,
    NodeTaintChange,
    NodeConditionChange,
    ResourceClaimUpdate,
    ResourceClaimAdd,
    ResourceSliceAdd,
    ResourceSliceUpdate,
    DeviceClassAdd,
    DeviceClassUpdate,
}

impl ClusterEvent {
    /// The upstream event name.
    pub fn name(self) -> &'static str {
        match self {
            ClusterEvent::Unknown => "Unknown",
            ClusterEvent::NodeAdd => "NodeAdd",
            ClusterEvent::UnschedulableTimeout => "UnschedulableTimeout",
            ClusterEvent::AssignedPodAdd => "AssignedPodAdd",
            ClusterEvent::AssignedPodUpdate => "AssignedPodUpdate",
            ClusterEvent::AssignedPodDelete => "AssignedPodDelete",
            ClusterEvent::PvAdd => "PvAdd",
            ClusterEvent::PvUpdate => "PvUpdate",
            ClusterEvent::PvcAdd => "PvcAdd",
            ClusterEvent::PvcUpdate => "PvcUpdate",
            ClusterEvent::StorageClassAdd => "StorageClassAdd",
            ClusterEvent::ServiceAdd => "ServiceAdd",
            ClusterEvent::ServiceUpdate => "ServiceUpdate",
            ClusterEvent::ServiceDelete => "ServiceDelete",
            ClusterEvent::CsiNodeAdd => "CSINodeAdd",
            ClusterEvent::CsiNodeUpdate => "CSINodeUpdate",
            ClusterEvent::NodeSpecUnschedulableChange => "NodeSpecUnschedulableChange",
            ClusterEvent::NodeAllocatableChange => "NodeAllocatableChange",
            ClusterEvent::NodeLabelChange => "NodeLabelChange",
            ClusterEvent::NodeTaintChange => "NodeTaintChange",
            ClusterEvent::NodeConditionChange => "NodeConditionChange",
            ClusterEvent::ResourceClaimUpdate => "ResourceClaimUpdate",
            ClusterEvent::ResourceClaimAdd => "ResourceClaimAdd",
            ClusterEvent::ResourceSliceAdd => "ResourceSliceAdd",
            ClusterEvent::ResourceSliceUpdate => "ResourceSliceUpdate",
            ClusterEvent::DeviceClassAdd => "DeviceClassAdd",
            ClusterEvent::DeviceClassUpdate => "DeviceClassUpdate",
        }
    }

    /// v1.35: a wildcard event (`UnschedulableTimeout`), which requeues every pod it is given
    /// without asking the QueueingHints.
    pub fn is_wildcard(self) -> bool {
        matches!(self, ClusterEvent::UnschedulableTimeout)
    }
}

/// What happened in the cluster, with the objects v1.35's QueueingHints read to decide
/// whether it may help a waiting pod.
#[derive(Clone, Copy, Debug)]
pub enum ClusterChange<'a> {
    /// A node was added.
    NodeAdd(NodeId),
    /// A node changed (`old` is its previous object).
    NodeUpdate {
        /// The node, as it is now.
        node: NodeId,
        /// What changed.
        change: NodeChange,
        /// The node before.
        old: &'a Node,
    },
    /// A pod was bound (an assigned pod was added).
    PodAdd(PodId),
    /// An assigned pod was deleted.
    PodDelete(PodId),
}

/// What changed in a node update; the caller compares old and new node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeChange {
    /// `spec.unschedulable` went from true to false (a node being cordoned does not count).
    pub became_schedulable: bool,
    /// `status.allocatable` differs.
    pub allocatable: bool,
    /// Labels differ.
    pub labels: bool,
    /// `spec.taints` differ.
    pub taints: bool,
    /// The map condition type → status differs (heartbeat-only changes do not count).
    pub conditions: bool,
}

impl NodeChange {
    /// `nodeSchedulingPropertiesChange`: the first matching check, in upstream order.
    pub fn event(&self) -> Option<ClusterEvent> {
        if self.became_schedulable {
            Some(ClusterEvent::NodeSpecUnschedulableChange)
        } else if self.allocatable {
            Some(ClusterEvent::NodeAllocatableChange)
        } else if self.labels {
            Some(ClusterEvent::NodeLabelChange)
        } else if self.taints {
            Some(ClusterEvent::NodeTaintChange)
        } else if self.conditions {
            Some(ClusterEvent::NodeConditionChange)
        } else {
            None
        }
    }
}

/// An informer event that may move queued pods (table A.6). Unassigned pods of this scheduler
/// are not here: they go through [`super::SchedulingQueue::add`], `update` and `delete`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InformerEvent {
    NodeAdd,
    NodeUpdate(NodeChange),
    /// Cache only: no queue move.
    NodeDelete,
    /// Moves only the unschedulable pods whose required pod-affinity terms match the pod.
    AssignedPodAdd,
    /// Moves only the unschedulable pods whose required pod-affinity terms match the new pod.
    AssignedPodUpdate,
    AssignedPodDelete,
    PvAdd,
    PvUpdate,
    PvcAdd,
    PvcUpdate,
    /// Moves pods only when `volumeBindingMode` is `WaitForFirstConsumer`.
    StorageClassAdd {
        wait_for_first_consumer: bool,
    },
    ServiceAdd,
    ServiceUpdate,
    ServiceDelete,
    CsiNodeAdd,
    CsiNodeUpdate,
}
