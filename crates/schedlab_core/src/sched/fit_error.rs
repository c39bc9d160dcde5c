//! What a `FitError` is made of in both versions: the nodes that failed with their reasons
//! ([`FailedNodes`]) and the histogram of reasons its text lists ([`histogram`]), counted and
//! sorted in byte order as upstream's `sortReasonsHistogram` does. Each version words the
//! whole text itself (`v117::cycle`, `v135::cycle`).

use super::reason::Reason;
use crate::cluster::NodeId;

/// `ErrNoNodesAvailable`: the cycle's error when the cluster has no node.
pub(crate) const NO_NODES_AVAILABLE: &str = "no nodes available to schedule pods";

/// `sortReasonsHistogram`: `"<count> <reason>"` for each distinct reason text, sorted in byte
/// order (so `10 …` before `2 …`). `reasons` may repeat a reason, with its count each time.
pub(crate) fn histogram<'a>(reasons: impl Iterator<Item = (&'a Reason, usize)>) -> Vec<String> {
    // Equal reasons are counted before they are spelt (many nodes, few distinct reasons).
    let mut distinct: Vec<(&Reason, usize)> = Vec::new();
    for (r, n) in reasons {
        match distinct.iter_mut().find(|(seen, _)| seen.same_text(r)) {
            Some((_, count)) => *count += n,
            None => distinct.push((r, n)),
        }
    }
    // Different reasons may still print alike (a `Message` spelling a fixed reason).
    let mut counts: Vec<(String, usize)> = Vec::new();
    for (r, n) in distinct {
        let text = r.to_string();
        match counts.iter_mut().find(|(t, _)| *t == text) {
            Some((_, count)) => *count += n,
            None => counts.push((text, n)),
        }
    }
    let mut entries: Vec<String> = counts
        .into_iter()
        .map(|(text, n)| format!("{n} {text}"))
        .collect();
    entries.sort();
    entries
}

/// The nodes that failed the filters in a cycle, with their reasons (`FitError`'s
/// `FailedPredicates`; preemption reads them whatever `detail` is). One flat buffer of reasons,
/// reused from cycle to cycle.
#[derive(Clone, Debug, Default)]
pub(crate) struct FailedNodes {
    /// Each failed node with the end of its reasons in `reasons`.
    nodes: Vec<(NodeId, usize)>,
    /// Every reason, node after node.
    reasons: Vec<Reason>,
    /// Reasons an extender gave for names that are no node of the cluster: counted in the
    /// FitError's histogram (upstream's map takes any name), never a node's.
    unknown: Vec<Reason>,
}

impl FailedNodes {
    /// No failed node.
    pub(crate) fn new() -> FailedNodes {
        FailedNodes::default()
    }

    /// Forgets every node, keeping the buffers.
    pub(crate) fn clear(&mut self) {
        self.nodes.clear();
        self.reasons.clear();
        self.unknown.clear();
    }

    /// Every reason the FitError's histogram counts: the failed nodes', then those an
    /// extender gave for names that are no node.
    pub(crate) fn histogram_reasons(&self) -> impl Iterator<Item = &Reason> {
        self.reasons.iter().chain(&self.unknown)
    }

    /// Records a node that failed with one reason (an extender's message).
    pub(crate) fn push_node(&mut self, node: NodeId, reason: Reason) {
        self.reasons.push(reason);
        self.close_node(node);
    }

    /// Records an extender's reason for a name that is no node of the cluster.
    pub(crate) fn push_unknown(&mut self, reason: Reason) {
        self.unknown.push(reason);
    }

    /// Each failed node with its reasons, in the order they failed.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (NodeId, &[Reason])> {
        let mut start = 0;
        self.nodes.iter().map(move |&(node, end)| {
            let reasons = &self.reasons[start..end];
            start = end;
            (node, reasons)
        })
    }

    /// The buffer a node's filters append their reasons to, before [`Self::close_node`] (or
    /// [`Self::discard_open`]).
    pub(crate) fn open_reasons(&mut self) -> &mut Vec<Reason> {
        &mut self.reasons
    }

    /// Records `node` as failed with the reasons pushed since the previous node.
    pub(crate) fn close_node(&mut self, node: NodeId) {
        self.nodes.push((node, self.reasons.len()));
    }

    /// Adds `other`'s failed nodes after this one's (the second part of a split scan).
    pub(crate) fn append(&mut self, other: &FailedNodes) {
        let offset = self.reasons.len();
        self.reasons.extend_from_slice(&other.reasons);
        self.nodes
            .extend(other.nodes.iter().map(|&(node, end)| (node, offset + end)));
    }

    /// Drops the reasons pushed since the previous node.
    pub(crate) fn discard_open(&mut self) {
        let end = self.nodes.last().map_or(0, |&(_, end)| end);
        self.reasons.truncate(end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sched::reason::FailureReason::*;

    #[test]
    fn fit_error_histogram_is_counted_and_byte_sorted() {
        let reasons = [
            Reason::Fixed(NodeSelectorNotMatch),
            Reason::Fixed(NodeSelectorNotMatch),
            Reason::Insufficient {
                resource: "cpu".into(),
                requested: 1,
                used: 0,
                capacity: 0,
            },
        ];
        assert_eq!(
            histogram(reasons.iter().map(|r| (r, 1))).join(", "),
            "1 Insufficient cpu, 2 node(s) didn't match node selector"
        );
        // "10 ..." sorts before "2 ...": plain byte order.
        let many: Vec<Reason> = std::iter::repeat_n(Reason::Fixed(NodeUnschedulable), 10)
            .chain(std::iter::repeat_n(Reason::Fixed(DiskConflict), 2))
            .collect();
        assert_eq!(
            histogram(many.iter().map(|r| (r, 1))).join(", "),
            "10 node(s) were unschedulable, 2 node(s) had no available disk"
        );
    }
}
