//! `nominatedPodMap` (reference A.7): which pods are nominated to which node.

use std::collections::BTreeMap;

use crate::cluster::PodId;

/// Nominations, per node name in nomination order, and per pod.
#[derive(Clone, Debug, Default)]
pub struct NominatedPods {
    by_node: BTreeMap<String, Vec<PodId>>,
    by_pod: BTreeMap<PodId, String>,
    /// Bumped by every change, so callers can cache views of the map.
    generation: u64,
}

impl NominatedPods {
    /// `add(p, nodeName)`: deletes any existing entry first; then uses `node`, else the pod's
    /// `status.nominatedNodeName` (`status`); with neither, nothing is stored.
    pub fn add(&mut self, pod: PodId, node: Option<&str>, status: Option<&str>) {
        self.delete(pod);
        self.generation += 1;
        let Some(name) = node.or(status).filter(|n| !n.is_empty()) else {
            return;
        };
        self.by_pod.insert(pod, name.to_string());
        self.by_node.entry(name.to_string()).or_default().push(pod);
    }

    /// `delete(p)`.
    pub fn delete(&mut self, pod: PodId) {
        let Some(name) = self.by_pod.remove(&pod) else {
            return;
        };
        self.generation += 1;
        if let Some(list) = self.by_node.get_mut(&name) {
            list.retain(|&p| p != pod);
            if list.is_empty() {
                self.by_node.remove(&name);
            }
        }
    }

    /// `update(old, new)`: when both the old and the new `status.nominatedNodeName` are empty,
    /// the in-memory nomination is kept (the race after `UpdateNominatedPodForNode`); otherwise
    /// the new status decides.
    pub fn update(&mut self, pod: PodId, old_status: Option<&str>, new_status: Option<&str>) {
        let empty = |s: Option<&str>| s.is_none_or(str::is_empty);
        let keep = if empty(old_status) && empty(new_status) {
            self.by_pod.get(&pod).cloned()
        } else {
            None
        };
        self.delete(pod);
        self.add(pod, keep.as_deref(), new_status);
    }

    /// A number that changes whenever the nominations change.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The pods nominated to `node`, in nomination order.
    pub fn for_node(&self, node: &str) -> &[PodId] {
        self.by_node.get(node).map_or(&[], Vec::as_slice)
    }

    /// The node the pod is nominated to.
    pub fn node_of(&self, pod: PodId) -> Option<&str> {
        self.by_pod.get(&pod).map(String::as_str)
    }

    /// Each node name with its nominated pods, in nomination order.
    pub fn by_node(&self) -> impl Iterator<Item = (&str, &[PodId])> {
        self.by_node.iter().map(|(n, p)| (n.as_str(), p.as_slice()))
    }

    /// Every nomination, by node name then nomination order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, PodId)> {
        self.by_node
            .iter()
            .flat_map(|(n, pods)| pods.iter().map(move |&p| (n.as_str(), p)))
    }
}
