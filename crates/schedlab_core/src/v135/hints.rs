//! QueueingHints (reference §5): whether a cluster event may make a pod schedulable, asked of
//! the plugins that rejected it. A pod leaves the unschedulable pool only when one of them says
//! `Queue`.
//!
//! Simplified, stated: each plugin's hint is a conservative reading of upstream's
//! `EventsToRegister` hint function (it answers `Queue` whenever the event could help the pod,
//! and `QueueSkip` only when it plainly cannot). A wrong `Queue` costs one more cycle; the
//! leftover flush (5 minutes) retries every pod anyway.

use crate::cluster::{Cluster, NodeId, PodId, PodInfo};
use crate::model::taint::{tolerated, NO_EXECUTE, NO_SCHEDULE, TAINT_NODE_UNSCHEDULABLE};
use crate::model::Node;
use crate::queue::NodeChange;

/// What happened in the cluster.
#[derive(Clone, Copy, Debug)]
pub enum Change<'a> {
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

/// Whether `plugin`, which rejected `pod`, says `change` may help it (`Queue`).
pub fn worth(plugin: &str, change: &Change, pod: &PodInfo, cluster: &Cluster) -> bool {
    let node_of = |id: NodeId| cluster.nodes.get(id).map(|n| n.object());
    match (plugin, *change) {
        // Resources: a freed pod, a new node or more allocatable.
        ("NodeResourcesFit", Change::PodDelete(_)) => true,
        ("NodeResourcesFit", Change::NodeAdd(n)) => node_of(n).is_some_and(|n| fits_empty(pod, n)),
        ("NodeResourcesFit", Change::NodeUpdate { node, change, .. }) => {
            change.allocatable && node_of(node).is_some_and(|n| fits_empty(pod, n))
        }
        // Taints: a new node or a taint change the pod now tolerates.
        ("TaintToleration", Change::NodeAdd(n)) => node_of(n).is_some_and(|n| tolerates(pod, n)),
        ("TaintToleration", Change::NodeUpdate { node, change, .. }) => {
            change.taints && node_of(node).is_some_and(|n| tolerates(pod, n))
        }
        ("NodeUnschedulable", Change::NodeAdd(n)) => {
            node_of(n).is_some_and(|n| !n.spec.unschedulable || tolerates_unschedulable(pod))
        }
        ("NodeUnschedulable", Change::NodeUpdate { change, .. }) => change.became_schedulable,
        ("NodeName", Change::NodeAdd(n)) => {
            node_of(n).is_some_and(|n| n.metadata.name == pod.pod.spec.node_name)
        }
        // Node affinity: a node that now matches.
        ("NodeAffinity", Change::NodeAdd(n)) => matches_affinity(pod, cluster, n),
        ("NodeAffinity", Change::NodeUpdate { node, change, old }) => {
            // Upstream: Queue when the node now matches and did not before.
            change.labels
                && matches_affinity(pod, cluster, node)
                && !crate::v135::plugins::node_affinity::required_node_affinity_matches_labels(
                    &pod.pod, old,
                )
        }
        // Host ports: a deleted pod that held host ports.
        ("NodePorts", Change::PodDelete(p)) => !cluster.pods[p].host_ports.is_empty(),
        ("NodePorts", Change::NodeAdd(_)) => true,
        // Pods matter to affinity and spreading; so do node labels.
        ("InterPodAffinity" | "PodTopologySpread", Change::PodAdd(p) | Change::PodDelete(p)) => {
            cluster.pods[p].namespace == pod.namespace || plugin == "InterPodAffinity"
        }
        ("InterPodAffinity" | "PodTopologySpread", Change::NodeAdd(_)) => true,
        ("InterPodAffinity" | "PodTopologySpread", Change::NodeUpdate { change, .. }) => {
            change.labels || (plugin == "PodTopologySpread" && change.taints)
        }
        // Volumes: a new node or relabelled node, or a freed pod (its volumes).
        (
            "VolumeBinding" | "VolumeZone" | "VolumeRestrictions" | "NodeVolumeLimits",
            Change::NodeAdd(_) | Change::PodDelete(_),
        ) => true,
        (
            "VolumeBinding" | "VolumeZone" | "VolumeRestrictions" | "NodeVolumeLimits",
            Change::NodeUpdate { change, .. },
        ) => change.labels || change.allocatable,
        _ => false,
    }
}

/// The pod's requests fit the node's allocatable when it is empty (NodeResourcesFit's node
/// hint: an added node, or more allocatable, that could hold the pod).
fn fits_empty(pod: &PodInfo, node: &Node) -> bool {
    let alloc = node.allocatable().0;
    let r = &pod.request;
    r.milli_cpu <= alloc.milli_cpu
        && r.memory <= alloc.memory
        && r.ephemeral_storage <= alloc.ephemeral_storage
        && r.scalars.iter().all(|(name, v)| *v <= alloc.scalar(name))
}

fn tolerates(pod: &PodInfo, node: &Node) -> bool {
    node.spec
        .taints
        .iter()
        .filter(|t| t.effect == NO_SCHEDULE || t.effect == NO_EXECUTE)
        .all(|t| tolerated(&pod.pod.spec.tolerations, t))
}

fn tolerates_unschedulable(pod: &PodInfo) -> bool {
    let taint = crate::model::taint::Taint {
        key: TAINT_NODE_UNSCHEDULABLE.into(),
        value: String::new(),
        effect: NO_SCHEDULE.into(),
    };
    tolerated(&pod.pod.spec.tolerations, &taint)
}

fn matches_affinity(pod: &PodInfo, cluster: &Cluster, node: NodeId) -> bool {
    cluster.nodes.get(node).is_some_and(|n| {
        crate::v135::plugins::node_affinity::required_node_affinity_matches(&pod.pod, n)
    })
}
