//! Nominated pods, as both versions' filters see them (`addNominatedPods`): every nomination
//! indexed by node ([`Nominations`]), the ones a pod's filters add ([`nominated_to_add`]), and
//! each node's copy with them added, kept from cycle to cycle while it stays true
//! ([`NominatedCopies`]).

use crate::cluster::{Cluster, NodeId, NodeInfo, PodId, PodInfo};
use smallvec::SmallVec;
use std::sync::Arc;

/// A pod nominated to a node (by an earlier preemption).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Nomination {
    /// The nominated pod.
    pub pod: PodId,
    /// Its nominated node.
    pub node: NodeId,
    /// The pod's priority (kept here: the filter passes compare it for every node).
    pub priority: i32,
}

/// Every nomination, grouped by node id (nomination order within a node), with an O(1)
/// lookup per node: the filter passes ask it for every node of every cycle. One node's group
/// can be replaced on its own, so a change of nominations costs only the nodes it touched.
#[derive(Clone, Debug, Default)]
pub(crate) struct Nominations {
    /// Node id → its nominations (one kept inline: most nodes have at most one, and the
    /// filter reads this for every node).
    by_node: Vec<SmallVec<[Nomination; 1]>>,
    /// How many nominations `by_node` holds in all (so [`Nominations::is_empty`] is O(1)).
    count: usize,
}

impl Nominations {
    /// No nominations.
    pub(crate) fn new() -> Nominations {
        Nominations::default()
    }

    /// Rebuilds the index (reusing its buffers) from each node's nominated pods, in
    /// nomination order, for a cluster of `nodes` nodes. Each node appears at most once.
    pub(crate) fn rebuild<'a>(
        &mut self,
        nodes: usize,
        groups: impl Iterator<Item = (NodeId, &'a [PodId])>,
        priority: impl Fn(PodId) -> i32,
    ) {
        self.by_node.truncate(nodes);
        for group in &mut self.by_node {
            group.clear();
        }
        self.count = 0;
        self.by_node.resize_with(nodes, SmallVec::new);
        for (node, pods) in groups {
            self.set(node, pods, &priority);
        }
    }

    /// Replaces `node`'s nominations with `pods`, in nomination order (a node id past the
    /// cluster's end changes nothing).
    pub(crate) fn set(&mut self, node: NodeId, pods: &[PodId], priority: impl Fn(PodId) -> i32) {
        let Some(group) = self.by_node.get_mut(node) else {
            return;
        };
        self.count -= group.len();
        group.clear();
        group.extend(pods.iter().map(|&pod| Nomination {
            pod,
            node,
            priority: priority(pod),
        }));
        self.count += group.len();
    }

    /// The nominations to `node`, in nomination order.
    #[inline]
    pub(crate) fn to(&self, node: NodeId) -> &[Nomination] {
        if self.count == 0 {
            // Most cycles: no nominations, and no reading of a group per node.
            return &[];
        }
        self.by_node.get(node).map_or(&[], |group| group.as_slice())
    }

    /// Whether nothing is nominated.
    pub(crate) fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Every nomination, by node id.
    #[cfg(test)]
    pub fn all(&self) -> impl Iterator<Item = &Nomination> {
        self.by_node.iter().flatten()
    }
}

/// The nominations `addNominatedPods` adds for `pod` of `priority`: other pods, of higher or
/// equal priority, in nomination order.
pub(crate) fn nominated_to_add(
    nominated: &[Nomination],
    pod: PodId,
    priority: i32,
) -> impl Iterator<Item = &Nomination> + Clone {
    nominated
        .iter()
        .filter(move |n| n.pod != pod && n.priority >= priority)
}

/// The nodes' copies with the pods `addNominatedPods` adds (the filter's first pass), kept from
/// cycle to cycle: a copy is used again while its node and the pods added are exactly as when it
/// was made (the same node facts and change count, the same pod objects added), which is most
/// cycles once many pods wait on nominations. A cache only: a clone of it (a checkpoint of the
/// scheduler's state, from which any restore starts) is empty, so change counts are only ever
/// compared along one history.
#[derive(Default)]
pub(crate) struct NominatedCopies {
    by_node: Vec<Option<NominatedCopy>>,
}

/// One node's copy and what it was made from.
struct NominatedCopy {
    /// The node's change count when the copy was made (its facts are `info`'s).
    changes: u64,
    /// The pods added, in order (held, so their identity cannot be reused).
    added: SmallVec<[Arc<PodInfo>; 1]>,
    /// The node with `added` added (holding the node's facts, so their address cannot be
    /// reused).
    info: NodeInfo,
}

impl Clone for NominatedCopies {
    fn clone(&self) -> Self {
        NominatedCopies::default()
    }
}

impl std::fmt::Debug for NominatedCopies {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept = self.by_node.iter().flatten().count();
        write!(f, "NominatedCopies({kept} nodes)")
    }
}

impl NominatedCopies {
    /// `node` with the pods of `nominated` that `addNominatedPods` adds for `pod` (another pod,
    /// of higher or equal priority), or `None` when it adds none.
    pub(crate) fn get(
        &mut self,
        cluster: &Cluster,
        (pod, priority): (PodId, i32),
        node: &NodeInfo,
        nominated: &[Nomination],
    ) -> Option<&NodeInfo> {
        let adding = nominated_to_add(nominated, pod, priority);
        adding.clone().next()?;
        if self.by_node.len() <= node.id() {
            self.by_node.resize_with(node.id() + 1, || None);
        }
        let pods = &cluster.pods();
        let slot = &mut self.by_node[node.id()];
        let still_true = slot.as_ref().is_some_and(|c| {
            c.info.shares_facts_with(node)
                && c.changes == node.changes()
                && c.info.id() == node.id()
                && c.added.len() == adding.clone().count()
                && c.added
                    .iter()
                    .zip(adding.clone())
                    .all(|(a, n)| Arc::ptr_eq(a, &pods[n.pod]))
        });
        if !still_true {
            let c = slot.get_or_insert_with(|| NominatedCopy {
                changes: 0,
                added: SmallVec::new(),
                info: node.clone(),
            });
            c.changes = node.changes();
            c.info.clone_from(node);
            c.added.clear();
            for n in adding {
                cluster.add_to(&mut c.info, n.pod);
                c.added.push(Arc::clone(&pods[n.pod]));
            }
        }
        slot.as_ref().map(|c| &c.info)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nominations_are_found_by_node_in_nomination_order() {
        let pods = |n: &[Nomination]| n.iter().map(|n| n.pod).collect::<Vec<_>>();
        let mut index = Nominations::new();
        // Groups out of node order (node names sort differently from node ids).
        let (on_2, on_0): ([PodId; 2], [PodId; 1]) = ([7, 3], [5]);
        index.rebuild(4, [(2, &on_2[..]), (0, &on_0[..])].into_iter(), |p| {
            p as i32
        });
        assert_eq!(pods(index.to(0)), [5]);
        assert_eq!(pods(index.to(2)), [7, 3]);
        assert_eq!(index.to(2)[1].priority, 3);
        assert!(index.to(1).is_empty() && index.to(3).is_empty() && index.to(9).is_empty());
        let all: Vec<Nomination> = index.all().copied().collect();
        assert_eq!(pods(&all), [5, 7, 3]);
        // One node's group replaced on its own.
        index.set(2, &[4], |p| p as i32);
        assert_eq!(pods(index.to(2)), [4]);
        assert_eq!(pods(index.to(0)), [5]);
        index.set(0, &[], |p| p as i32);
        assert!(index.to(0).is_empty() && !index.is_empty());
        index.rebuild(4, std::iter::empty(), |_| 0);
        assert!(index.is_empty() && index.to(2).is_empty());
    }
}
