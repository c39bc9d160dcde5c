//! `nominatedPodMap` (reference A.7): which pods are nominated to which node.

use std::collections::{BTreeMap, VecDeque};

use crate::cluster::PodId;

/// How many recent changes [`NominatedPods::changed_since`] remembers.
const RECENT_CHANGES: usize = 16;

/// Nominations, per node name in nomination order, and per pod.
#[derive(Clone, Debug, Default)]
pub struct NominatedPods {
    by_node: BTreeMap<String, Vec<PodId>>,
    by_pod: BTreeMap<PodId, String>,
    /// Bumped by every change, so callers can cache views of the map.
    generation: u64,
    /// The last changes: (generation, the node whose nominations changed).
    recent: VecDeque<(u64, String)>,
    /// The newest generation among the changes no longer in `recent`.
    forgotten: u64,
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
        self.remember(name);
    }

    /// Records that `node`'s nominations changed in the current generation.
    fn remember(&mut self, node: &str) {
        if self.recent.len() == RECENT_CHANGES {
            if let Some((generation, _)) = self.recent.pop_front() {
                self.forgotten = generation;
            }
        }
        self.recent.push_back((self.generation, node.to_string()));
    }

    /// The nodes whose nominations changed after `generation` (repeats possible), or `None`
    /// when that is too long ago to tell (or `generation` is not one of this map's).
    pub fn changed_since(&self, generation: u64) -> Option<impl Iterator<Item = &str>> {
        (self.forgotten <= generation && generation <= self.generation).then(|| {
            self.recent
                .iter()
                .filter(move |(g, _)| *g > generation)
                .map(|(_, node)| node.as_str())
        })
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
        self.remember(&name);
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
