//! The typed record of each scheduling cycle, and the explanation built on it.
//!
//! Only the cycle runner writes a [`CycleTrace`]. Renderers (CLI text, JSON report, UI) read it.
//! With details off (`--summary`, benchmarks) the filter and score tables are left empty; the
//! decision is the same either way.

pub mod explain;
mod explain_extenders;
pub(crate) mod preemption;
pub mod v135;

use crate::cluster::{NodeId, PodId};
pub use crate::sched::extender::answers::{Source as ExtenderSource, Texts as ExtenderTexts};
pub use crate::sched::extender::calls::{ExtenderCall, NamedNode, NodeFailure};
pub use crate::sched::extender::Verb as ExtenderVerb;
use crate::sched::Reason;

/// How a cycle ended (read from its report spelling too, as lessons state it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize)]
pub enum Outcome {
    /// A node was chosen.
    Scheduled,
    /// No node fits (`FitError`).
    Unschedulable,
    /// The cycle failed for another reason (an error, or something not modelled yet).
    Error,
}

impl Outcome {
    /// The report spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Scheduled => "Scheduled",
            Outcome::Unschedulable => "Unschedulable",
            Outcome::Error => "Error",
        }
    }
}

/// What the filters said about one node.
///
/// Filters run in profile order and stop at the first failure (unless
/// `alwaysCheckAllPredicates`), so the filters that ran are always the first `ran` of the
/// profile; only the failures are stored, which keeps a recorded cycle small.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeFilterRecord {
    /// The node.
    pub node: NodeId,
    /// How many filters ran (profile indices `0..ran`).
    pub ran: usize,
    /// (filter index, its reasons) for each filter that failed, in order.
    pub failures: Vec<(usize, Vec<Reason>)>,
}

impl NodeFilterRecord {
    /// True when every filter that ran passed.
    pub fn fits(&self) -> bool {
        self.failures.is_empty()
    }

    /// Filter `i`'s verdict: `None` if it did not run, else its reasons (empty = passed).
    pub fn result(&self, i: usize) -> Option<&[Reason]> {
        if i >= self.ran {
            return None;
        }
        Some(
            self.failures
                .iter()
                .find(|(f, _)| *f == i)
                .map_or(&[][..], |(_, r)| r.as_slice()),
        )
    }

    /// Every filter that ran, with its reasons (empty = passed), in order.
    pub fn results(&self) -> impl Iterator<Item = (usize, &[Reason])> {
        (0..self.ran).map(|i| (i, self.result(i).unwrap_or(&[])))
    }

    /// Every reason, in filter order.
    pub fn reasons(&self) -> impl Iterator<Item = &Reason> {
        self.failures.iter().flat_map(|(_, r)| r)
    }
}

/// One priority's contribution to one node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ScoreRecord {
    /// Before normalisation.
    pub raw: i64,
    /// After normalisation, before the weight.
    pub score: i64,
    /// The weight.
    pub weight: i64,
}

/// Every priority's contribution to one node (parallel to the profile's scores).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeScoreRecord {
    /// The node.
    pub node: NodeId,
    /// One entry per configured priority.
    pub entries: Vec<ScoreRecord>,
}

/// The record of one scheduling cycle (`scheduleOne`).
#[derive(Clone, Debug, PartialEq)]
pub struct CycleTrace {
    /// Virtual time in seconds when the cycle began.
    pub time: f64,
    /// The pod.
    pub pod: PodId,
    /// The outcome.
    pub outcome: Outcome,
    /// The chosen node.
    pub node: Option<NodeId>,
    /// `FitError` or error text.
    pub message: Option<String>,
    /// Nodes in the snapshot.
    pub num_all_nodes: usize,
    /// `numFeasibleNodesToFind`.
    pub num_to_find: usize,
    /// `nextStartNodeIndex` when the cycle began.
    pub start_index: usize,
    /// Nodes evaluated by the filters.
    pub evaluated: usize,
    /// Nodes that passed the filters.
    pub feasible: usize,
    /// `findNodesThatFit`, per evaluated node (empty without details).
    pub filter: Vec<NodeFilterRecord>,
    /// `prioritizeNodes`, per scored node (empty without details or with one feasible node).
    pub scores: Vec<NodeScoreRecord>,
    /// Weighted totals per scored node (empty without details).
    pub totals: Vec<(NodeId, i64)>,
    /// `selectHost`: the nodes that shared the best total, in list order (empty without details).
    pub tie_set: Vec<NodeId>,
    /// Claims bound when the pod bound (`AssumePodVolumes`): (`namespace/claim`, chosen volume,
    /// or `None` when the class provisions one on the node). Filled by the scenario run.
    pub volume_bindings: Vec<(String, Option<String>)>,
    /// What preemption did after this cycle's `FitError` (`None`: not attempted, e.g. the pod
    /// was scheduled, or preemption is disabled).
    pub preemption: Option<Box<PreemptionTrace>>,
    /// Node names by node id as they were in this cycle (node ids shift when a node is
    /// deleted); empty when the caller did not set them, then the cluster's names apply.
    pub node_names: std::sync::Arc<[String]>,
    /// What a v1.35 cycle adds: each plugin's status, skips, PreFilter narrowing, PostFilter.
    pub modern: Option<Box<v135::ModernTrace>>,
    /// The extender calls of this cycle (filter, prioritize, preempt), in order (empty without
    /// details).
    pub extenders: Vec<ExtenderCall>,
}

/// The record of a preemption attempt (`Scheduler.preempt` → `genericScheduler.Preempt`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreemptionTrace {
    /// Why the pod may not preempt (`podEligibleToPreemptOthers`), if so.
    pub not_eligible: Option<String>,
    /// Nodes where preemption might help (`nodesWherePreemptionMightHelp`).
    pub potential: usize,
    /// Nodes skipped because a failure reason is unresolvable.
    pub skipped_unresolvable: usize,
    /// Nodes where the pod fits once victims are removed, in node order.
    pub candidates: Vec<crate::sched::victims::Candidate>,
    /// The choice among them.
    pub pick: Option<crate::sched::victims::Pick>,
    /// Pods whose nomination was cleared (lower-priority pods nominated to the chosen node, or
    /// the preemptor's own when preemption cannot help anywhere).
    pub cleared_nominations: Vec<PodId>,
}

impl PreemptionTrace {
    /// The chosen candidate.
    pub fn chosen(&self) -> Option<&crate::sched::victims::Candidate> {
        self.pick.map(|p| &self.candidates[p.chosen])
    }
}

impl CycleTrace {
    /// A cycle not decided yet: outcome `Error` with no message, nothing recorded.
    pub fn new(pod: PodId, num_all_nodes: usize, start_index: usize) -> CycleTrace {
        CycleTrace {
            time: 0.0,
            pod,
            outcome: Outcome::Error,
            node: None,
            message: None,
            num_all_nodes,
            num_to_find: 0,
            start_index,
            evaluated: 0,
            feasible: 0,
            filter: Vec::new(),
            scores: Vec::new(),
            totals: Vec::new(),
            tie_set: Vec::new(),
            volume_bindings: Vec::new(),
            preemption: None,
            node_names: std::sync::Arc::from([]),
            modern: None,
            extenders: Vec::new(),
        }
    }

    /// The name of node `id` as this cycle knew it, falling back to `cluster`'s.
    pub fn node_name<'a>(&'a self, cluster: &'a crate::cluster::Cluster, id: NodeId) -> &'a str {
        match self.node_names.get(id) {
            Some(n) => n,
            None => cluster.nodes().get(id).map_or("?", |n| n.name()),
        }
    }
}
