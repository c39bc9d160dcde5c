//! v1.17's extension points: an algorithm is a list of [`FilterPlugin`]s (predicates) and weighted
//! [`ScorePlugin`]s (priorities), with the typed per-cycle [`State`] that `pre_filter` /
//! `pre_score` hand back for every node, so a per-node check is a lookup, not a scan. Plugins
//! return results and never write the trace: only the cycle ([`super::cycle`]) records what
//! happened.

use crate::cluster::{Cluster, NodeInfo, PodInfo};
pub(crate) use crate::sched::{FailureReason, Reason};
use std::any::Any;

/// Settings of one algorithm that plugins may read.
#[derive(Clone, Debug)]
pub struct AlgorithmSettings {
    /// `hardPodAffinitySymmetricWeight` (default 1).
    pub hard_pod_affinity_weight: i64,
    /// `alwaysCheckAllPredicates`.
    pub always_check_all_predicates: bool,
    /// `percentageOfNodesToScore` (0 = adaptive).
    pub percentage_of_nodes_to_score: i32,
    /// Extended resources an extender manages with `ignoredByScheduler: true`.
    pub ignored_resources: Vec<String>,
    /// The Policy's extenders, ignorable ones last.
    pub extenders: Vec<crate::sched::extender::Extender>,
}

impl Default for AlgorithmSettings {
    fn default() -> Self {
        AlgorithmSettings {
            hard_pod_affinity_weight: 1,
            always_check_all_predicates: false,
            percentage_of_nodes_to_score: 0,
            ignored_resources: Vec::new(),
            extenders: Vec::new(),
        }
    }
}

/// What every plugin sees in a cycle: the cluster, the pod, the algorithm settings.
pub struct CycleContext<'a> {
    /// The snapshot.
    pub cluster: &'a Cluster,
    /// The pod being scheduled.
    pub pod: &'a PodInfo,
    /// Algorithm settings.
    pub settings: &'a AlgorithmSettings,
}

/// An error that aborts the cycle (outcome `Error`), with its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CycleError(pub String);

/// Typed per-cycle state of one plugin, returned by `pre_filter` / `pre_score`.
///
/// Besides carrying pre-computed data, a state can tell the runner that the answer is the same
/// on every node this cycle ([`State::skip`] for filters, [`State::uniform`] for scores), so the
/// runner records that answer without calling the plugin once per node. Decisions and the trace
/// are identical either way; only the work differs.
#[derive(Default)]
pub enum State {
    /// Nothing pre-computed.
    #[default]
    Empty,
    /// Pre-computed data for the per-node calls.
    Value(Box<dyn Any + Send + Sync>),
    /// Filter: every node passes this cycle (upstream's PreFilter `Skip`).
    Skip,
    /// Score: every node gets this raw score this cycle (normalisation still runs).
    Uniform(i64),
}

impl State {
    /// No state.
    pub fn none() -> State {
        State::Empty
    }
    /// Wraps a value.
    pub fn new<T: Any + Send + Sync>(v: T) -> State {
        State::Value(Box::new(v))
    }
    /// Every node passes this filter this cycle.
    pub fn skip() -> State {
        State::Skip
    }
    /// Every node gets this raw score this cycle.
    pub fn uniform(raw: i64) -> State {
        State::Uniform(raw)
    }
    /// The value, if it has this type.
    pub fn get<T: Any>(&self) -> Option<&T> {
        match self {
            State::Value(v) => v.downcast_ref(),
            _ => None,
        }
    }
}

/// The result of a filter on one node: no reasons means the node fits.
pub(crate) type FilterResult = Result<Vec<Reason>, CycleError>;

/// A Filter extension point (a legacy predicate).
pub trait FilterPlugin: Send + Sync {
    /// Once per cycle, before any node.
    fn pre_filter(&self, _cx: &CycleContext) -> Result<State, CycleError> {
        Ok(State::none())
    }
    /// Whether the pod fits on the node; reasons when it does not.
    fn filter(&self, cx: &CycleContext, state: &State, node: &NodeInfo) -> FilterResult;
    /// [`Self::filter`], appending the reasons to `out` (the runner keeps one buffer for a
    /// whole cycle). Must append exactly what `filter` returns.
    fn filter_into(
        &self,
        cx: &CycleContext,
        state: &State,
        node: &NodeInfo,
        out: &mut Vec<Reason>,
    ) -> Result<(), CycleError> {
        out.extend(self.filter(cx, state, node)?);
        Ok(())
    }
    /// Whether the pod fits, without the reasons (preemption asks this many times per node).
    /// Must equal `filter(..)` returning no reasons.
    fn passes(
        &self,
        cx: &CycleContext,
        state: &State,
        node: &NodeInfo,
    ) -> Result<bool, CycleError> {
        Ok(self.filter(cx, state, node)?.is_empty())
    }
    /// Whether `pre_filter` reads pods bound to other nodes (affinity, spreading, service
    /// affinity). Preemption then recomputes it after taking victims off a node, where upstream
    /// calls the plugin's `PreFilterExtensions` (`RemovePod`/`AddPod`).
    fn reads_other_pods(&self) -> bool {
        false
    }
}

/// A Score extension point with its optional normalisation (a legacy priority: map + reduce).
pub trait ScorePlugin: Send + Sync {
    /// Once per cycle, with the feasible nodes.
    fn pre_score(&self, _cx: &CycleContext, _nodes: &[&NodeInfo]) -> Result<State, CycleError> {
        Ok(State::none())
    }
    /// The raw score of one node (the "map" step).
    fn score(&self, cx: &CycleContext, state: &State, node: &NodeInfo) -> Result<i64, CycleError>;
    /// [`Self::score`] of every node into `out` (as long as `nodes`). Plugins whose score is a
    /// little arithmetic override it with a plain loop: one call per cycle, not per node.
    fn score_nodes(
        &self,
        cx: &CycleContext,
        state: &State,
        nodes: &[&NodeInfo],
        out: &mut [i64],
    ) -> Result<(), CycleError> {
        for (slot, node) in out.iter_mut().zip(nodes) {
            *slot = self.score(cx, state, node)?;
        }
        Ok(())
    }
    /// Normalises all scores in place (the "reduce" step); the default keeps them.
    fn normalize(
        &self,
        _cx: &CycleContext,
        _state: &State,
        _nodes: &[&NodeInfo],
        _scores: &mut [i64],
    ) {
    }
    /// Whether [`Self::normalize`] may change the scores. `false` (for a priority without a
    /// reduce step) lets a split scan add the weighted scores in its two parts, on their own
    /// threads. The default is the safe answer.
    fn normalizes(&self) -> bool {
        true
    }
    /// What [`Self::normalize`] makes of scores that are all `raw` ([`State::uniform`]), when
    /// that is one value whatever the nodes: the runner then adds it once per cycle instead of
    /// node by node. `None` (the default) when it depends on the nodes, or is not worked out.
    fn normalize_uniform(&self, _raw: i64) -> Option<i64> {
        None
    }
}

/// A filter under its configured name.
pub struct ConfiguredFilter {
    /// The name in the Policy (`PodFitsResources`, or a custom name like `Region`).
    pub name: String,
    /// The implementation.
    pub plugin: Box<dyn FilterPlugin>,
}

/// A score under its configured name and weight.
pub struct ConfiguredScore {
    /// The name in the Policy.
    pub name: String,
    /// The weight.
    pub weight: i64,
    /// The implementation.
    pub plugin: Box<dyn ScorePlugin>,
}

/// What v1.17's `genericScheduler` runs (a legacy Policy or a provider, built): the filters
/// (predicates) in evaluation order, the weighted scores (priorities), the settings. v1.17 has
/// no profiles; a v1.35 profile is `v135::profile::Profile`.
pub struct Algorithm {
    /// Filters, in the order they run.
    pub filters: Vec<ConfiguredFilter>,
    /// Scores.
    pub scores: Vec<ConfiguredScore>,
    /// Settings.
    pub settings: AlgorithmSettings,
}

impl Algorithm {
    /// The filters' configured names, in order.
    pub fn filter_names(&self) -> Vec<String> {
        self.filters.iter().map(|f| f.name.clone()).collect()
    }

    /// The scores' configured names, in order.
    pub fn score_names(&self) -> Vec<String> {
        self.scores.iter().map(|s| s.name.clone()).collect()
    }
}
