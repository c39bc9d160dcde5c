//! The inspection of one scheduling cycle: what the cycle inspector shows, derived from the
//! cycle's trace.
//!
//! Plain data built by pure functions: no signals, no DOM. The components render these structs
//! and compute nothing themselves, so every number on the page comes from the core's trace.

use crate::session::{requests_summary, SessionInfo};
use schedlab_core::cluster::Cluster;
use schedlab_core::queue::Millis;
use schedlab_core::trace::explain::{explain, Explanation};
use schedlab_core::trace::{CycleTrace, ScoreRecord};

/// The phases of one `scheduleOne`, in the order the inspector reveals them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// `scheduleOne`: the pod leaves activeQ.
    QueuePop,
    /// `findNodesThatFit`.
    Filter,
    /// `prioritizeNodes`.
    Score,
    /// `selectHost`.
    SelectHost,
    /// `preempt` (after a FitError).
    Preempt,
    /// `assume`.
    Assume,
    /// `bind`.
    Bind,
}

impl Phase {
    /// The upstream function name.
    pub fn function(self) -> &'static str {
        match self {
            Phase::QueuePop => "scheduleOne",
            Phase::Filter => "findNodesThatFit",
            Phase::Score => "prioritizeNodes",
            Phase::SelectHost => "selectHost",
            Phase::Preempt => "preempt",
            Phase::Assume => "assume",
            Phase::Bind => "bind",
        }
    }

    /// The phases a cycle with this outcome goes through.
    pub fn of(scheduled: bool) -> &'static [Phase] {
        if scheduled {
            &[
                Phase::QueuePop,
                Phase::Filter,
                Phase::Score,
                Phase::SelectHost,
                Phase::Assume,
                Phase::Bind,
            ]
        } else {
            &[Phase::QueuePop, Phase::Filter, Phase::Preempt]
        }
    }
}

/// Everything the inspector shows about one cycle.
#[derive(Clone, Debug, PartialEq)]
pub struct Inspection {
    /// `namespace/name`.
    pub pod: String,
    /// Resolved priority.
    pub priority: i32,
    /// What the pod requests, in short.
    pub requests: String,
    /// The node the cycle chose or, for a pod without a cycle, where it is now.
    pub node: Option<String>,
    /// The cycle; `None` when the pod was bound in the input, names another scheduler or has
    /// not been tried yet.
    pub cycle: Option<CycleView>,
}

/// One `scheduleOne`, ready to render.
#[derive(Clone, Debug, PartialEq)]
pub struct CycleView {
    /// 1-based cycle number.
    pub number: usize,
    /// Cycles in the run.
    pub of: usize,
    /// Virtual time of the cycle.
    pub time: Millis,
    /// `Scheduled`, `Unschedulable` or `Error`.
    pub outcome: &'static str,
    /// The chosen node.
    pub chosen: Option<String>,
    /// The `FailedScheduling` message.
    pub message: Option<String>,
    /// The "why" in plain words.
    pub explanation: Explanation,
    /// `findNodesThatFit`.
    pub filter: FilterTable,
    /// `prioritizeNodes`.
    pub scores: ScoreTable,
    /// `selectHost`: nodes sharing the best total.
    pub tie_set: Vec<String>,
    /// The best total, when scoring ran.
    pub best_total: Option<i64>,
    /// `preempt`, when it ran.
    pub preemption: Option<PreemptionView>,
    /// Volumes bound at `assume` (claim, volume).
    pub volume_bindings: Vec<(String, Option<String>)>,
}

/// What `preempt` did after a FitError.
#[derive(Clone, Debug, PartialEq)]
pub struct PreemptionView {
    /// Why the pod may not preempt, when it may not.
    pub not_eligible: Option<String>,
    /// Nodes where preemption might help.
    pub potential: usize,
    /// Nodes skipped for an unresolvable reason.
    pub skipped_unresolvable: usize,
    /// Candidate nodes with their minimal victim sets, in evaluation order.
    pub candidates: Vec<CandidateRow>,
    /// The criterion of `pickOneNodeForPreemption` that decided.
    pub decided_by: Option<&'static str>,
    /// The explanation in words.
    pub explanation: Option<String>,
    /// Lower-priority pods that lost their nomination.
    pub cleared: Vec<String>,
}

/// One candidate node of `selectNodesForPreemption`.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateRow {
    /// The node.
    pub node: String,
    /// Victims with their priorities.
    pub victims: Vec<(String, i32)>,
    /// Victims that would violate a PodDisruptionBudget.
    pub pdb_violations: usize,
    /// Chosen.
    pub chosen: bool,
    /// The best candidate the deciding criterion ruled out.
    pub runner_up: bool,
}

/// The inspection of cycle `cycle` from its detailed trace and the cluster it saw.
pub fn inspect_cycle(
    t: &CycleTrace,
    cluster: &Cluster,
    info: &SessionInfo,
    cycle: usize,
) -> Inspection {
    let pod = &cluster.pods[t.pod];
    // Node ids in a trace are the cycle's own (nodes may have been deleted since).
    let node_name = |n: usize| t.node_name(cluster, n).to_string();
    let short = |p: usize| {
        info.pods
            .get(p)
            .map_or_else(|| cluster.pods[p].full_name.clone(), |s| s.short.clone())
    };

    let filter_rows = t
        .filter
        .iter()
        .map(|rec| {
            let mut cells: Vec<FilterCell> = Vec::new();
            for i in 0..info.filter_names.len() {
                match rec.result(i) {
                    Some([]) => cells.push(FilterCell::Pass),
                    Some(reasons) => cells.push(FilterCell::Fail {
                        reason: join(reasons.iter().map(ToString::to_string)),
                        detail: join(reasons.iter().map(|r| r.explain())),
                        span: 1,
                    }),
                    None => match cells.last_mut() {
                        // Filters after the first failure do not run: the failure's cell
                        // takes their columns.
                        Some(FilterCell::Fail { span, .. }) => *span += 1,
                        _ => cells.push(FilterCell::NotRun),
                    },
                }
            }
            FilterRow {
                node: node_name(rec.node),
                fits: rec.fits(),
                cells,
            }
        })
        .collect();

    let total_of = |n: usize| t.totals.iter().find(|(id, _)| *id == n).map(|(_, s)| *s);
    let score_rows = t
        .scores
        .iter()
        .map(|rec| ScoreRow {
            node: node_name(rec.node),
            cells: rec.entries.clone(),
            total: total_of(rec.node).unwrap_or_default(),
            winner: t.node == Some(rec.node),
            tied: t.tie_set.len() > 1 && t.tie_set.contains(&rec.node),
        })
        .collect();
    let weights = t
        .scores
        .first()
        .map(|rec| rec.entries.iter().map(|e| e.weight).collect())
        .unwrap_or_default();
    let scoring = if t.feasible == 0 {
        Scoring::NoFeasibleNodes
    } else if t.feasible == 1 {
        Scoring::OneFeasibleNode
    } else {
        Scoring::Scored
    };
    let explanation = explain(cluster, t);
    let preemption = t.preemption.as_ref().map(|p| {
        let chosen = p.pick.as_ref().map(|k| k.chosen);
        let runner_up = p.pick.as_ref().and_then(|k| k.runner_up);
        PreemptionView {
            not_eligible: p.not_eligible.clone(),
            potential: p.potential,
            skipped_unresolvable: p.skipped_unresolvable,
            candidates: p
                .candidates
                .iter()
                .enumerate()
                .map(|(i, c)| CandidateRow {
                    node: node_name(c.node),
                    victims: c
                        .victims
                        .iter()
                        .map(|&v| (short(v), cluster.pods[v].priority))
                        .collect(),
                    pdb_violations: c.pdb_violations,
                    chosen: chosen == Some(i),
                    runner_up: runner_up == Some(i),
                })
                .collect(),
            decided_by: p.pick.as_ref().map(|k| k.decided_by.as_str()),
            explanation: explanation.preemption.clone(),
            cleared: p.cleared_nominations.iter().map(|&c| short(c)).collect(),
        }
    });

    Inspection {
        pod: pod.full_name.clone(),
        priority: pod.priority,
        requests: requests_summary(&pod.request),
        node: t.node.map(node_name),
        cycle: Some(CycleView {
            number: cycle + 1,
            of: info.cycle_steps.len(),
            time: Millis((t.time * 1000.0).round() as u64),
            outcome: t.outcome.as_str(),
            chosen: t.node.map(node_name),
            message: t.message.clone(),
            filter: FilterTable {
                columns: info.filter_names.clone(),
                rows: filter_rows,
                num_all_nodes: t.num_all_nodes,
                num_to_find: t.num_to_find,
                evaluated: t.evaluated,
                feasible: t.feasible,
                start_index: t.start_index,
            },
            scores: ScoreTable {
                columns: info.score_names.clone(),
                weights,
                rows: score_rows,
                scoring,
            },
            tie_set: t.tie_set.iter().map(|&n| node_name(n)).collect(),
            best_total: t.node.and_then(total_of),
            explanation,
            preemption,
            volume_bindings: t.volume_bindings.clone(),
        }),
    }
}

/// The inspection of a pod that has no cycle (bound in the input, another scheduler's, or
/// not tried yet).
pub fn inspect_pod_without_cycle(
    info: &SessionInfo,
    pod: usize,
    node_now: Option<String>,
) -> Option<Inspection> {
    let p = info.pods.get(pod)?;
    Some(Inspection {
        pod: p.name.clone(),
        priority: p.priority,
        requests: p.requests.clone(),
        node: node_now,
        cycle: None,
    })
}

fn join(parts: impl Iterator<Item = String>) -> String {
    parts.collect::<Vec<_>>().join("; ")
}

/// Nodes × predicates.
#[derive(Clone, Debug, PartialEq)]
pub struct FilterTable {
    /// Predicate names, in evaluation order.
    pub columns: Vec<String>,
    /// One row per evaluated node, in evaluation order.
    pub rows: Vec<FilterRow>,
    /// Nodes in the snapshot.
    pub num_all_nodes: usize,
    /// `numFeasibleNodesToFind`.
    pub num_to_find: usize,
    /// Nodes evaluated.
    pub evaluated: usize,
    /// Nodes that passed.
    pub feasible: usize,
    /// `nextStartNodeIndex` when the cycle began.
    pub start_index: usize,
}

/// One node's filter results.
#[derive(Clone, Debug, PartialEq)]
pub struct FilterRow {
    /// The node.
    pub node: String,
    /// Whether every predicate passed.
    pub fits: bool,
    /// One cell per column (a failure spans the columns that did not run after it).
    pub cells: Vec<FilterCell>,
}

/// One predicate's verdict on one node.
#[derive(Clone, Debug, PartialEq)]
pub enum FilterCell {
    /// Passed.
    Pass,
    /// Failed with upstream's reason text; `detail` has the numbers.
    Fail {
        /// Upstream reason string(s).
        reason: String,
        /// Plain-words explanation.
        detail: String,
        /// Columns the cell covers.
        span: usize,
    },
    /// Did not run.
    NotRun,
}

/// Nodes × priorities.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreTable {
    /// Priority names, in profile order.
    pub columns: Vec<String>,
    /// Weight per column.
    pub weights: Vec<i64>,
    /// One row per scored node.
    pub rows: Vec<ScoreRow>,
    /// Whether scoring ran.
    pub scoring: Scoring,
}

/// Whether `prioritizeNodes` ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// It ran.
    Scored,
    /// Skipped: a single feasible node is chosen directly.
    OneFeasibleNode,
    /// Not reached: no node passed the filters.
    NoFeasibleNodes,
}

/// One node's scores.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreRow {
    /// The node.
    pub node: String,
    /// One entry per priority.
    pub cells: Vec<ScoreRecord>,
    /// Weighted total.
    pub total: i64,
    /// The chosen node.
    pub winner: bool,
    /// In a tie set of more than one node.
    pub tied: bool,
}
