//! One scheduling cycle, as v1.17's `genericScheduler.Schedule`: `findNodesThatFit` (sampling,
//! rotating start index, predicate order, two passes with nominated pods) → `prioritizeNodes`
//! (map, reduce, weights) → `selectHost` (seeded reservoir sampling among ties).
//!
//! Deviation, stated: upstream filters 16 nodes in parallel and may look at a few nodes past
//! the stopping point; this runner is sequential and stops exactly at `numFeasibleNodesToFind`.

use super::{Algorithm, CycleContext, CycleError, FilterPlugin, Reason, State};
use crate::cluster::{Cluster, NodeId, NodeInfo, PodId};
use crate::model::words::go_quote;
use crate::sched::extender::calls::{Caller, NamedNode};
use crate::sched::fit_error::{histogram, FailedNodes, NO_NODES_AVAILABLE};
use crate::sched::nominations::{nominated_to_add, NominatedCopies, Nominations};
use crate::sched::sampling::num_feasible_nodes_to_find;
use crate::sched::select_host::{select_host, ties_of_best};
use crate::sched::split_scan::{
    cut, join_cut, rotated_parts, rows_in_parts, split_scan, RotatedPart, Scan,
};
use crate::sched::state::SchedulerState;
use crate::trace::{CycleTrace, NodeFilterRecord, NodeScoreRecord, Outcome, ScoreRecord};

/// `FitError.Error()` of v1.17: `0/N nodes are available: <sorted histogram>.`
pub(crate) fn fit_error_message<'a>(
    num_all_nodes: usize,
    reasons: impl Iterator<Item = &'a Reason>,
) -> String {
    let entries = histogram(reasons.map(|r| (r, 1)));
    format!(
        "0/{num_all_nodes} nodes are available: {}.",
        entries.join(", ")
    )
}

/// `podPassesBasicChecks` (filters.md A.2): every PersistentVolumeClaim of the pod is looked up
/// in the pod's namespace; a missing claim, or one being deleted, aborts the cycle with
/// upstream's error.
fn pod_passes_basic_checks(cx: &CycleContext) -> Result<(), CycleError> {
    let namespace = cx.pod.pod.metadata.namespace_or_default();
    for v in &cx.pod.pod.spec.volumes {
        let Some(src) = &v.persistent_volume_claim else {
            continue;
        };
        let name = &src.claim_name;
        match cx.cluster.volumes().pvc(namespace, name) {
            None => {
                return Err(CycleError(format!(
                    "persistentvolumeclaim {} not found",
                    go_quote(name)
                )))
            }
            Some(pvc) if pvc.metadata.deletion_timestamp.is_some() => {
                return Err(CycleError(format!(
                    "persistentvolumeclaim {} is being deleted",
                    go_quote(name)
                )))
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// Runs one cycle for `pod` against `cluster`, visiting nodes in `node_order`.
/// `detail` records the filter and score tables; `failed` receives the nodes that failed.
/// The scheduler's parts, separately, for callers that keep the algorithm apart from the state
/// they checkpoint.
#[allow(clippy::too_many_arguments)]
pub(crate) fn schedule_one(
    algorithm: &Algorithm,
    state: &mut SchedulerState,
    cluster: &Cluster,
    node_order: &[NodeId],
    pod: PodId,
    nominations: &Nominations,
    detail: bool,
    failed: &mut FailedNodes,
    extenders: Option<&Caller>,
) -> CycleTrace {
    failed.clear();
    let all = node_order.len();
    let mut trace = CycleTrace::new(pod, all, state.next_start_node_index);
    if all == 0 {
        trace.message = Some(NO_NODES_AVAILABLE.to_string());
        return trace;
    }
    let cx = CycleContext {
        cluster,
        pod: &cluster.pods()[pod],
        settings: &algorithm.settings,
    };
    match cycle(
        algorithm,
        state,
        &cx,
        node_order,
        pod,
        nominations,
        detail,
        &mut trace,
        failed,
        extenders,
    ) {
        Ok(()) => {}
        Err(CycleError(msg)) => {
            failed.discard_open();
            trace.outcome = Outcome::Error;
            trace.node = None;
            trace.message = Some(msg);
        }
    }
    trace
}

#[allow(clippy::too_many_arguments)]
fn cycle(
    algorithm: &Algorithm,
    st: &mut SchedulerState,
    cx: &CycleContext,
    node_order: &[NodeId],
    pod: PodId,
    nominations: &Nominations,
    detail: bool,
    trace: &mut CycleTrace,
    failed: &mut FailedNodes,
    extenders: Option<&Caller>,
) -> Result<(), CycleError> {
    let cluster = cx.cluster;
    let all = node_order.len();
    pod_passes_basic_checks(cx)?;
    // findNodesThatFit
    let states = algorithm
        .filters
        .iter()
        .map(|f| f.plugin.pre_filter(cx))
        .collect::<Result<Vec<State>, CycleError>>()?;
    // Filters that answer "pass" for every node are only visited when the trace records them.
    let active: Vec<ActiveFilter> = algorithm
        .filters
        .iter()
        .zip(&states)
        .enumerate()
        .filter(|(_, (_, state))| detail || !matches!(state, State::Skip))
        .map(|(i, (f, state))| (i, f.plugin.as_ref(), state))
        .collect();
    let check_all = algorithm.settings.always_check_all_predicates;
    let to_find = if algorithm.filters.is_empty() {
        all
    } else {
        num_feasible_nodes_to_find(all, algorithm.settings.percentage_of_nodes_to_score)
    };
    trace.num_to_find = to_find;
    let mut feasible: Vec<&NodeInfo> = Vec::with_capacity(to_find.min(all));
    let mut processed = 0;
    let start = st.next_start_node_index % all;
    // Without the trace one record serves every node (nothing is written to it).
    let mut record = NodeFilterRecord::default();
    // The nodes from `start` on, wrapping around (no division per node).
    let rotated = node_order[start..].iter().chain(&node_order[..start]);
    if !detail && to_find >= all && split_scan(all) {
        let (copies_b, failed_b) = &mut *st.second_part;
        feasible = filter_in_parts(
            (&active, check_all, cx, pod, nominations),
            (node_order, start),
            (&mut st.nominated_copies, failed),
            (copies_b, failed_b),
        )?;
        processed = all;
    }
    for &id in rotated.skip(processed) {
        if feasible.len() >= to_find {
            break;
        }
        let node = &cluster.nodes()[id];
        processed += 1;
        if detail {
            record = NodeFilterRecord {
                node: node.id(),
                ..NodeFilterRecord::default()
            };
        }
        let fits = filter_node(
            &active,
            check_all,
            cx,
            pod,
            node,
            nominations,
            detail,
            &mut record,
            &mut st.nominated_copies,
            failed.open_reasons(),
        )?;
        if detail {
            trace.filter.push(std::mem::take(&mut record));
        }
        if fits {
            feasible.push(node);
        } else {
            failed.close_node(node.id());
        }
    }
    st.next_start_node_index = (start + processed) % all;
    trace.evaluated = processed;
    // The extenders' filters, after the predicates (findNodesThatFit's end).
    let extenders = extenders.filter(|c| c.any());
    if let Some(c) = extenders.filter(|_| !feasible.is_empty()) {
        feasible = filter_by_extenders(c, cx, &feasible, trace, failed)?;
    }
    trace.feasible = feasible.len();

    if feasible.is_empty() {
        trace.outcome = Outcome::Unschedulable;
        trace.message = Some(fit_error_message(all, failed.histogram_reasons()));
        return Ok(());
    }
    if feasible.len() == 1 {
        trace.outcome = Outcome::Scheduled;
        trace.node = Some(feasible[0].id());
        trace.tie_set = vec![feasible[0].id()];
        return Ok(());
    }

    // prioritizeNodes: the priorities (EqualPriority when there are none and no extender),
    // then the extenders' scores.
    let totals = match extenders {
        None => prioritize(algorithm, cx, &feasible, detail, trace, &mut st.scratch)?,
        Some(c) => prioritize_with_extenders(algorithm, st, c, cx, &feasible, detail, trace)?,
    };

    // selectHost
    let selected = feasible[select_host(&totals, &mut st.rng)].id();
    if detail {
        trace.tie_set = ties_of_best(&totals).map(|i| feasible[i].id()).collect();
    }
    trace.outcome = Outcome::Scheduled;
    trace.node = Some(selected);
    Ok(())
}

/// The extenders' filter calls on the nodes the predicates kept: the nodes they fail join
/// `failed` (an unknown name as a node of its own), and the nodes every extender kept remain.
fn filter_by_extenders<'c>(
    c: &Caller,
    cx: &CycleContext<'c>,
    feasible: &[&'c NodeInfo],
    trace: &mut CycleTrace,
    failed: &mut FailedNodes,
) -> Result<Vec<&'c NodeInfo>, CycleError> {
    let cluster = cx.cluster;
    let ids = feasible.iter().map(|n| n.id()).collect();
    let passed = c
        .filter(cluster, cx.pod, ids, &mut trace.extenders)
        .map_err(CycleError)?;
    for f in passed.failed {
        let reason = Reason::Message(f.message.into());
        match f.node {
            NamedNode::Known(id) => failed.push_node(id, reason),
            NamedNode::Unknown(_) => failed.push_unknown(reason),
        }
    }
    Ok(passed
        .feasible
        .iter()
        .map(|&n| &cluster.nodes()[n])
        .collect())
}

/// prioritizeNodes with extenders: the priorities (none, not EqualPriority, when the policy
/// names none), then each extender's score × weight × 10 added to the totals.
fn prioritize_with_extenders(
    algorithm: &Algorithm,
    st: &mut SchedulerState,
    c: &Caller,
    cx: &CycleContext,
    feasible: &[&NodeInfo],
    detail: bool,
    trace: &mut CycleTrace,
) -> Result<Vec<i64>, CycleError> {
    let mut totals = if algorithm.scores.is_empty() {
        vec![0; feasible.len()]
    } else {
        prioritize(algorithm, cx, feasible, detail, trace, &mut st.scratch)?
    };
    c.prioritize(
        cx.cluster,
        cx.pod,
        feasible,
        &mut totals,
        &mut trace.extenders,
    );
    if detail {
        trace.record_totals(feasible, &totals);
    }
    Ok(totals)
}

/// What every node's filters read in one cycle: the active filters, `alwaysCheckAllPredicates`,
/// the cycle, the pod, the nominations.
type FilterInputs<'a, 'c> = (
    &'a [ActiveFilter<'a>],
    bool,
    &'a CycleContext<'c>,
    PodId,
    &'a Nominations,
);

/// `findNodesThatFit` over every node of `order`, starting at `start` and wrapping around (no
/// trace), in two parts side by side ([`cut`]): the same feasible nodes,
/// failed nodes (with their reasons) and first error, in the same order, as the loop over all
/// of them. Each part keeps its own nominated copies (a cache: the answers are the same).
fn filter_in_parts<'c>(
    (active, check_all, cx, pod, nominations): FilterInputs<'_, 'c>,
    (order, start): (&[NodeId], usize),
    (copies_a, failed_a): (&mut NominatedCopies, &mut FailedNodes),
    (copies_b, failed_b): (&mut NominatedCopies, &mut FailedNodes),
) -> Result<Vec<&'c NodeInfo>, CycleError> {
    let cluster = cx.cluster;
    let n = order.len();
    let scan = |ids: RotatedPart<NodeId>,
                copies: &mut NominatedCopies,
                failed: &mut FailedNodes|
     -> Result<Vec<&'c NodeInfo>, CycleError> {
        let mut feasible = Vec::with_capacity(ids.size_hint().0);
        let mut record = NodeFilterRecord::default();
        for &id in ids {
            let node = &cluster.nodes()[id];
            let fits = filter_node(
                active,
                check_all,
                cx,
                pod,
                node,
                nominations,
                false,
                &mut record,
                copies,
                failed.open_reasons(),
            )?;
            if fits {
                feasible.push(node);
            } else {
                failed.close_node(node.id());
            }
        }
        Ok(feasible)
    };
    failed_b.clear();
    let [first, second] = rotated_parts(order, start, cut(Scan::Filters, n));
    let (a, b) = join_cut(
        Scan::Filters,
        || scan(first, copies_a, &mut *failed_a),
        || scan(second, copies_b, &mut *failed_b),
    );
    let mut feasible = a?;
    feasible.extend(b?);
    failed_a.append(failed_b);
    Ok(feasible)
}

/// An algorithm's filters prepared for one pod (`pre_filter` run): answers whether the pod fits
/// on single nodes, as `podPassesFiltersOnNode` does for preemption (with the nominated-pod
/// passes).
pub(crate) struct NodeChecker<'p> {
    algorithm: &'p Algorithm,
    pod: PodId,
    states: Vec<State>,
    /// Filters to visit: not `State::Skip`.
    active: Vec<usize>,
}

impl<'p> NodeChecker<'p> {
    /// Runs every filter's `pre_filter` for `pod` against `cluster`.
    pub(crate) fn new(
        algorithm: &'p Algorithm,
        cluster: &Cluster,
        pod: PodId,
    ) -> Result<Self, CycleError> {
        let mut c = NodeChecker {
            algorithm,
            pod,
            states: Vec::new(),
            active: Vec::new(),
        };
        c.refresh(cluster)?;
        Ok(c)
    }

    /// Runs `pre_filter` again (after pods were taken off or put back on nodes).
    pub(crate) fn refresh(&mut self, cluster: &Cluster) -> Result<(), CycleError> {
        let cx = CycleContext {
            cluster,
            pod: &cluster.pods()[self.pod],
            settings: &self.algorithm.settings,
        };
        self.states = self
            .algorithm
            .filters
            .iter()
            .map(|f| f.plugin.pre_filter(&cx))
            .collect::<Result<_, _>>()?;
        self.active = (0..self.states.len())
            .filter(|&i| !matches!(self.states[i], State::Skip))
            .collect();
        Ok(())
    }

    /// Whether some filter's `pre_filter` depends on pods of other nodes, so that taking pods
    /// off a node needs [`Self::refresh`] against the changed cluster.
    pub(crate) fn reads_other_pods(&self) -> bool {
        self.active
            .iter()
            .any(|&i| self.algorithm.filters[i].plugin.reads_other_pods())
    }

    /// Whether the pod passes every filter on `node` (given as the caller changed it), in two
    /// passes when pods of higher or equal priority are nominated to it. `scratch` holds the
    /// copy of the node with its nominated pods (reused from call to call).
    pub(crate) fn fits(
        &self,
        cluster: &Cluster,
        node: &NodeInfo,
        nominations: &Nominations,
        scratch: &mut Option<NodeInfo>,
    ) -> Result<bool, CycleError> {
        let cx = CycleContext {
            cluster,
            pod: &cluster.pods()[self.pod],
            settings: &self.algorithm.settings,
        };
        if let Some(info) = with_nominated(scratch, &cx, self.pod, node, nominations) {
            if !self.pass(&cx, info)? {
                return Ok(false);
            }
        }
        self.pass(&cx, node)
    }

    /// [`Self::fits`] on a node the caller owns: the nominated pods are added to `node` itself
    /// for the first pass and taken off again (no copy).
    pub(crate) fn fits_in_place(
        &self,
        cluster: &Cluster,
        node: &mut NodeInfo,
        nominations: &Nominations,
    ) -> Result<bool, CycleError> {
        let cx = CycleContext {
            cluster,
            pod: &cluster.pods()[self.pod],
            settings: &self.algorithm.settings,
        };
        let mut mark = None;
        for n in nominated_to_add(nominations.to(node.id()), self.pod, cx.pod.priority) {
            if mark.is_none() {
                mark = Some(node.mark());
            }
            cluster.add_to(node, n.pod);
        }
        if let Some(mark) = mark {
            let first = self.pass(&cx, node);
            node.undo_add(mark);
            if !first? {
                return Ok(false);
            }
        }
        self.pass(&cx, node)
    }

    fn pass(&self, cx: &CycleContext, node: &NodeInfo) -> Result<bool, CycleError> {
        for &i in &self.active {
            let plugin = &self.algorithm.filters[i].plugin;
            if !plugin.passes(cx, &self.states[i], node)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// `addNominatedPods`: a copy of `node` (in `scratch`, reusing its buffers) with the pods of
/// higher or equal priority nominated to it, or `None` when there are none.
fn with_nominated<'s>(
    scratch: &'s mut Option<NodeInfo>,
    cx: &CycleContext,
    pod: PodId,
    node: &NodeInfo,
    nominations: &Nominations,
) -> Option<&'s NodeInfo> {
    let mut adding = nominated_to_add(nominations.to(node.id()), pod, cx.pod.priority).peekable();
    adding.peek()?;
    let info = scratch.get_or_insert_with(|| node.clone());
    info.clone_from(node);
    for n in adding {
        cx.cluster.add_to(info, n.pod);
    }
    Some(info)
}

/// `podFitsOnNode`: one pass, or two when higher-or-equal priority pods are nominated here.
/// Whether the node fits; the reasons it does not are appended to `reasons`.
#[allow(clippy::too_many_arguments)]
fn filter_node(
    active: &[ActiveFilter],
    check_all: bool,
    cx: &CycleContext,
    pod: PodId,
    node: &NodeInfo,
    nominations: &Nominations,
    detail: bool,
    record: &mut NodeFilterRecord,
    copies: &mut NominatedCopies,
    reasons: &mut Vec<Reason>,
) -> Result<bool, CycleError> {
    // Most nodes have no nominated pod: one look, no call.
    let nominated = nominations.to(node.id());
    if !nominated.is_empty() {
        if let Some(info) = copies.get(cx.cluster, (pod, cx.pod.priority), node, nominated) {
            if !run_filters(active, check_all, cx, info, detail, record, reasons)? {
                return Ok(false);
            }
            record.ran = 0;
            record.failures.clear();
        }
    }
    run_filters(active, check_all, cx, node, detail, record, reasons)
}

/// A filter that runs this cycle: its algorithm index, implementation and state.
type ActiveFilter<'p> = (usize, &'p dyn FilterPlugin, &'p State);

/// The filters on one node: whether it fits; the reasons it does not are appended to
/// `reasons`.
fn run_filters(
    active: &[ActiveFilter],
    check_all: bool,
    cx: &CycleContext,
    node: &NodeInfo,
    detail: bool,
    record: &mut NodeFilterRecord,
    reasons: &mut Vec<Reason>,
) -> Result<bool, CycleError> {
    let start = reasons.len();
    for &(i, plugin, state) in active {
        let before = reasons.len();
        if !matches!(state, State::Skip) {
            plugin.filter_into(cx, state, node, reasons)?;
        }
        let fit = reasons.len() == before;
        if detail {
            record.ran = i + 1;
            if !fit {
                record.failures.push((i, reasons[before..].to_vec()));
            }
        }
        if !fit && !check_all {
            break;
        }
    }
    Ok(reasons.len() == start)
}

/// `PrioritizeNodes`: per priority map, reduce, weight; summed per node.
fn prioritize(
    algorithm: &Algorithm,
    cx: &CycleContext,
    nodes: &[&NodeInfo],
    detail: bool,
    trace: &mut CycleTrace,
    scratch: &mut (Vec<i64>, Vec<i64>),
) -> Result<Vec<i64>, CycleError> {
    let n = nodes.len();
    if algorithm.scores.is_empty() {
        // EqualPriorityMap for every node.
        let totals = vec![1; n];
        if detail {
            trace.totals = nodes.iter().map(|node| (node.id(), 1)).collect();
        }
        return Ok(totals);
    }
    if !detail && split_scan(n) {
        return prioritize_in_parts(algorithm, cx, nodes, &mut scratch.0);
    }
    let mut totals = vec![0i64; n];
    if detail {
        trace.scores = nodes
            .iter()
            .map(|node| NodeScoreRecord {
                node: node.id(),
                entries: Vec::with_capacity(algorithm.scores.len()),
            })
            .collect();
    }
    let (raw, scores) = scratch;
    raw.resize(n, 0);
    scores.resize(n, 0);
    let (raw, scores) = (&mut raw[..n], &mut scores[..n]);
    // What every node gets from the priorities whose normalised scores are one value
    // (`normalize_uniform`), added once at the end: in wrapping arithmetic the sums are the
    // same whatever the order.
    let mut everyone = 0i64;
    for s in &algorithm.scores {
        let state = s.plugin.pre_score(cx, nodes)?;
        if let (State::Uniform(v), false) = (&state, detail) {
            if let Some(score) = s.plugin.normalize_uniform(*v) {
                everyone = everyone.wrapping_add(score.wrapping_mul(s.weight));
                continue;
            }
        }
        match state {
            State::Uniform(v) => raw.fill(v),
            _ => s.plugin.score_nodes(cx, &state, nodes, raw)?,
        }
        if !detail {
            // Nothing keeps the raw scores: normalised in place.
            #[cfg(debug_assertions)]
            let before = (!s.plugin.normalizes()).then(|| raw.to_vec());
            s.plugin.normalize(cx, &state, nodes, raw);
            // A split scan skips `normalize` where `normalizes()` says it changes nothing.
            #[cfg(debug_assertions)]
            debug_assert!(
                before.is_none_or(|before| before == raw),
                "{}: normalizes() is false, but normalize changed the scores",
                s.name
            );
            add_weighted(&mut totals, raw, s.weight);
        } else {
            scores.copy_from_slice(raw);
            s.plugin.normalize(cx, &state, nodes, scores);
            // A split scan skips `normalize` where `normalizes()` says it changes nothing.
            debug_assert!(
                s.plugin.normalizes() || scores == raw,
                "{}: normalizes() is false, but normalize changed the scores",
                s.name
            );
            add_weighted(&mut totals, scores, s.weight);
            for i in 0..n {
                trace.scores[i].entries.push(ScoreRecord {
                    raw: raw[i],
                    score: scores[i],
                    weight: s.weight,
                });
            }
        }
    }
    if everyone != 0 {
        totals
            .iter_mut()
            .for_each(|t| *t = t.wrapping_add(everyone));
    }
    if detail {
        trace.record_totals(nodes, &totals);
    }
    Ok(totals)
}

/// [`prioritize`] without the trace, each priority's map over the two parts of the nodes side
/// by side: the same totals, and the same first error, as the loop over the priorities.
/// Each `pre_score` runs first, in order (they read the cycle, never each other); where
/// one fails, what comes after it is computed but never used.
fn prioritize_in_parts(
    algorithm: &Algorithm,
    cx: &CycleContext,
    nodes: &[&NodeInfo],
    matrix: &mut Vec<i64>,
) -> Result<Vec<i64>, CycleError> {
    let n = nodes.len();
    let states: Vec<Result<State, CycleError>> = algorithm
        .scores
        .iter()
        .map(|s| s.plugin.pre_score(cx, nodes))
        .collect();
    // The priorities whose map runs on every node: one row of the matrix each; with their
    // weight when they have no reduce step, so that each part adds them to its totals.
    let mapped: Vec<(&dyn super::ScorePlugin, &State, Option<i64>)> = algorithm
        .scores
        .iter()
        .zip(&states)
        .filter_map(|(s, state)| match state {
            Ok(State::Uniform(_)) | Err(_) => None,
            Ok(state) => Some((
                s.plugin.as_ref(),
                state,
                (!s.plugin.normalizes()).then_some(s.weight),
            )),
        })
        .collect();
    matrix.resize(mapped.len() * n, 0);
    let mut totals = vec![0i64; n];
    let done = rows_in_parts(
        &mapped,
        nodes,
        matrix,
        &mut totals,
        |&(plugin, state, added), nodes, row, totals| {
            plugin.score_nodes(cx, state, nodes, row)?;
            if let Some(weight) = added {
                add_weighted(totals, row, weight);
            }
            Ok(())
        },
    );
    let mut everyone = 0i64;
    let mut done = done.into_iter();
    let mut rows = matrix.chunks_mut(n);
    let mut filled = Vec::new();
    for (s, state) in algorithm.scores.iter().zip(states) {
        let state = state?;
        let raw = match state {
            State::Uniform(v) => {
                if let Some(score) = s.plugin.normalize_uniform(v) {
                    everyone = everyone.wrapping_add(score.wrapping_mul(s.weight));
                    continue;
                }
                filled.clear();
                filled.resize(n, v);
                &mut filled[..]
            }
            _ => {
                let (a, b) = done.next().expect("a row per mapped priority");
                a?;
                b?;
                let row = rows.next().expect("a row per mapped priority");
                if !s.plugin.normalizes() {
                    // Added in the parts.
                    continue;
                }
                row
            }
        };
        s.plugin.normalize(cx, &state, nodes, raw);
        add_weighted(&mut totals, raw, s.weight);
    }
    if everyone != 0 {
        totals
            .iter_mut()
            .for_each(|t| *t = t.wrapping_add(everyone));
    }
    Ok(totals)
}

/// Adds `scores` times `weight` to `totals`, in Go's int64 arithmetic: wrapping like upstream
/// (see validateSelectedConfigs in policy).
/// Weight 1 (the default of every priority) is a plain sum: no 64-bit multiplies, which SSE2
/// lacks.
fn add_weighted(totals: &mut [i64], scores: &[i64], weight: i64) {
    if weight == 1 {
        for (total, score) in totals.iter_mut().zip(scores) {
            *total = total.wrapping_add(*score);
        }
    } else {
        for (total, score) in totals.iter_mut().zip(scores) {
            *total = total.wrapping_add(score.wrapping_mul(weight));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_nominated_copy_is_not_used_once_its_node_changed() {
        // n0 has 4 cpu; N (priority 10, 3 cpu) is nominated to it. P (priority 5, 1 cpu) fits
        // the first pass (3 + 1 <= 4). Once Q (1 cpu) is bound there, the first pass sees
        // 1 + 3 + 1 > 4: P fits nowhere, though the copy made before Q came would still fit.
        use crate::cluster::PodInfo;
        use crate::testing::{cluster, node, pod};
        use crate::v117::policy::{self, config::SchedulerConfiguration};
        use serde_json::json;
        let cpu = |name: &str, cpu: &str| {
            pod(json!({"metadata": {"name": name}, "spec": {"containers": [
                {"name": "c", "resources": {"requests": {"cpu": cpu}}}]}}))
        };
        let mut c = cluster(
            vec![node(
                json!({"metadata": {"name": "n0"}, "status": {"allocatable": {"cpu": "4", "pods": 10}}}),
            )],
            vec![],
        );
        let nominated = c.add_pod(PodInfo::new(cpu("n", "3"), 10, 0));
        let incoming = c.add_pod(PodInfo::new(cpu("p", "1"), 5, 1));
        let q = c.add_pod(PodInfo::new(cpu("q", "1"), 0, 2));
        let mut nominations = Nominations::new();
        nominations.rebuild(1, [(0, &[nominated][..])].into_iter(), |p| c.priority(p));
        let algorithm = policy::build(None, &SchedulerConfiguration::default())
            .expect("default algorithm")
            .algorithm;
        let mut state = SchedulerState::new(0);
        let mut failed = FailedNodes::new();
        let order = c.node_tree_order();
        let mut cycle = |c: &Cluster| {
            schedule_one(
                &algorithm,
                &mut state,
                c,
                &order,
                incoming,
                &nominations,
                false,
                &mut failed,
                None,
            )
        };
        let first = cycle(&c);
        assert_eq!((first.outcome, first.node), (Outcome::Scheduled, Some(0)));
        c.bind(q, 0);
        let second = cycle(&c);
        assert_eq!(second.outcome, Outcome::Unschedulable);
        assert_eq!(
            second.message.as_deref(),
            Some("0/1 nodes are available: 1 Insufficient cpu.")
        );
    }
}
