//! The inspection of one scheduling cycle: what the cycle inspector shows, derived from the
//! cycle's trace.
//!
//! Plain data built by pure functions: no signals, no DOM. The components render these structs
//! and compute nothing themselves, so every number on the page comes from the core's trace.

use crate::devices::ClaimDevices;
use crate::session::{requests_summary, SessionInfo};
use schedlab_core::model::Millis;
use schedlab_core::simulation::Cluster;
use schedlab_core::trace::explain::{explain, Explanation};
use schedlab_core::trace::v135::PluginStatus;
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
    /// Every phase, in `scheduleOne`'s order.
    pub const ALL: [Phase; 7] = [
        Phase::QueuePop,
        Phase::Filter,
        Phase::Score,
        Phase::SelectHost,
        Phase::Preempt,
        Phase::Assume,
        Phase::Bind,
    ];

    /// The phase with this upstream function name (exactly).
    pub fn named(name: &str) -> Option<Phase> {
        Phase::ALL.into_iter().find(|p| p.function() == name)
    }

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
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
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
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CycleView {
    /// 1-based cycle number.
    pub number: usize,
    /// Cycles in the run.
    pub of: usize,
    /// Virtual time of the cycle.
    pub time: Millis,
    /// `Scheduled`, `Unschedulable` or `Error`.
    #[serde(deserialize_with = "crate::interned::static_str")]
    pub outcome: crate::interned::StaticStr,
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
    /// The pod's ResourceClaims just after the cycle, with the devices their allocations hold
    /// (allocated at `assume` when the cycle scheduled the pod).
    pub claims: Vec<ClaimDevices>,
    /// What a v1.35 cycle adds: the profile and each extension point's plugin statuses
    /// (`None` for a v1.17 cycle).
    pub modern: Option<ModernView>,
    /// The scheduler extenders' calls, in order ([`crate::extender_view`]).
    #[serde(default)]
    pub extenders: Vec<crate::extender_data::CallView>,
    /// v1.35's kubernetes#141781: the Score plugins saw the nodes an extender returned without
    /// their pods.
    #[serde(default)]
    pub fresh_nodes: bool,
}

/// The extension points of a v1.35 cycle, plugin by plugin.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ModernView {
    /// The profile (`schedulerName`).
    pub profile: String,
    /// Every PreFilter plugin that ran, with its status.
    pub pre_filter: Vec<StatusRow>,
    /// Whether a PreFilter rejection ended the cycle before any Filter ran.
    pub pre_filter_rejected: bool,
    /// The nodes a PreFilter result narrowed the search to (`None`: every node).
    pub pre_filter_nodes: Option<usize>,
    /// Filter plugins whose PreFilter returned Skip: they did not run this cycle.
    pub skipped_filters: Vec<String>,
    /// The nominated node tried first, and whether it passed.
    pub nominated: Option<(String, bool)>,
    /// Every PreScore plugin, with its status (empty when scoring did not run).
    pub pre_score: Vec<StatusRow>,
    /// Score plugins whose PreScore returned Skip (not scored this cycle).
    pub skipped_scores: Vec<String>,
    /// Every PostFilter plugin that ran, with its status.
    pub post_filter: Vec<StatusRow>,
    /// For a scheduled pod: Reserve and Permit (at `assume`).
    pub reserve: Vec<StatusRow>,
    pub permit: Vec<StatusRow>,
    /// For a scheduled pod: PreBind and Bind (at `bind`).
    pub pre_bind: Vec<StatusRow>,
    pub bind: Vec<StatusRow>,
    /// DynamicResources' Filter: the allocator's answer for each of the pod's claims on each
    /// node it ran on, in evaluation order (empty for a pod without claims).
    #[serde(default)]
    pub claims_per_node: Vec<NodeClaimsRow>,
}

/// The allocator's answers on one node, claim by claim.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NodeClaimsRow {
    /// The node.
    pub node: String,
    /// Each claim's answer, in `spec.resourceClaims` order.
    pub answers: Vec<ClaimAnswerCell>,
}

/// One claim's answer on one node.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClaimAnswerCell {
    /// `namespace/name`.
    pub claim: String,
    /// `devices`, `failed`, `allocated`, `unusable` (allocated, excluding this node) or
    /// `not-tried`: the cell's style.
    pub kind: String,
    /// The answer in plain words (the devices chosen as `request=driver/pool/device`).
    pub text: String,
}

fn claims_per_node(
    m: &schedlab_core::trace::v135::ModernTrace,
    t: &CycleTrace,
    cluster: &Cluster,
) -> Vec<NodeClaimsRow> {
    use schedlab_core::trace::v135::ClaimAnswer;
    m.claims
        .iter()
        .map(|n| NodeClaimsRow {
            node: t.node_name(cluster, n.node).to_string(),
            answers: n
                .claims
                .iter()
                .map(|c| {
                    let (kind, text) = match &c.answer {
                        ClaimAnswer::Devices(d) => (
                            "devices",
                            d.iter()
                                .map(|(r, id)| format!("{r}={id}"))
                                .collect::<Vec<_>>()
                                .join(", "),
                        ),
                        ClaimAnswer::Failed(why) => ("failed", why.clone()),
                        ClaimAnswer::Allocated { usable: true } => ("allocated", c.answer_text()),
                        ClaimAnswer::Allocated { usable: false } => ("unusable", c.answer_text()),
                        ClaimAnswer::NotReached => ("not-tried", c.answer_text()),
                    };
                    ClaimAnswerCell {
                        claim: c.claim.clone(),
                        kind: kind.to_string(),
                        text,
                    }
                })
                .collect(),
        })
        .collect()
}

/// One plugin's status at an extension point.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StatusRow {
    /// The plugin.
    pub plugin: String,
    /// Upstream's code (`Success`, `Skip`, `Unschedulable`, ...).
    #[serde(deserialize_with = "crate::interned::static_str")]
    pub code: crate::interned::StaticStr,
    /// `Status.Message()` (empty for a plain success or skip).
    pub message: String,
}

fn status_rows(list: &[PluginStatus]) -> Vec<StatusRow> {
    list.iter()
        .map(|s| StatusRow {
            plugin: s.plugin.to_string(),
            code: s.code.as_str(),
            message: s.message.clone(),
        })
        .collect()
}

/// What `preempt` did after a FitError.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
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
    #[serde(deserialize_with = "crate::interned::static_str_option")]
    pub decided_by: Option<crate::interned::StaticStr>,
    /// The explanation in words.
    pub explanation: Option<String>,
    /// Lower-priority pods that lost their nomination.
    pub cleared: Vec<String>,
}

/// One candidate node of `selectNodesForPreemption`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CandidateRow {
    /// The node.
    pub node: String,
    /// Victims with their priorities.
    pub victims: Vec<(String, i32)>,
    /// Victims that would violate a PodDisruptionBudget.
    pub pdb_violations: usize,
    /// The budgets that cover some of the victims, and which of them the victims violate.
    pub pdbs: Vec<PdbHit>,
    /// Chosen.
    pub chosen: bool,
    /// The best candidate the deciding criterion ruled out.
    pub runner_up: bool,
}

/// A PodDisruptionBudget that covers victims of a preemption candidate.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PdbHit {
    /// The budget's name (`namespace/name` outside `default`).
    pub name: String,
    /// Its `status.disruptionsAllowed`.
    pub disruptions_allowed: i64,
    /// The candidate's victims it covers.
    pub victims: Vec<String>,
    /// Whether evicting them violates it (see [`pdb_hits`]).
    pub violated: bool,
}

/// The budgets covering `victims`, and which of them the victims violate.
///
/// v1.17 (`filterPodsWithPDBViolation`, no budget accounting): a victim violates every
/// covering budget that allows no disruption. v1.35 counts each budget down over the node's
/// lower-priority pods in importance order (pods in its `disruptedPods` not counted): a budget
/// certainly makes a victim violate when it covers more victims than it allows. When the core
/// counted violations that this leaves unexplained (the budget was used up by pods the reprieve
/// kept), every budget that covers a victim is named. The count itself is always the core's.
pub fn pdb_hits(
    cluster: &Cluster,
    victims: &[usize],
    v135: bool,
    violations: usize,
) -> Vec<PdbHit> {
    let mut hits: Vec<PdbHit> = Vec::new();
    for b in cluster.pdbs() {
        let covered: Vec<usize> = victims
            .iter()
            .copied()
            .filter(|&v| {
                let info = &cluster.pods()[v];
                b.covers(&info.namespace, info.labels())
            })
            .collect();
        if covered.is_empty() {
            continue;
        }
        let allowed = b.status.disruptions_allowed;
        let violated = if v135 {
            let counted = covered
                .iter()
                .filter(|&&v| {
                    !b.status
                        .disrupted_pods
                        .contains_key(&cluster.pods()[v].pod.metadata.name)
                })
                .count();
            i64::try_from(counted).unwrap_or(i64::MAX) > allowed
        } else {
            allowed <= 0
        };
        let namespace = b.metadata.namespace_or_default();
        hits.push(PdbHit {
            name: if namespace == "default" {
                b.metadata.name.clone()
            } else {
                format!("{namespace}/{}", b.metadata.name)
            },
            disruptions_allowed: allowed,
            victims: covered
                .iter()
                .map(|&v| crate::session::short_name(&cluster.pods()[v].full_name).to_string())
                .collect(),
            violated,
        });
    }
    if violations > 0 && !hits.iter().any(|h| h.violated) {
        for h in &mut hits {
            h.violated = true;
        }
    }
    hits
}

/// The inspection of cycle `cycle` from its detailed trace and the cluster it saw.
pub fn inspect_cycle(
    t: &CycleTrace,
    cluster: &Cluster,
    claims: &[ClaimDevices],
    info: &SessionInfo,
    cycle: usize,
) -> Inspection {
    let pod = &cluster.pods()[t.pod];
    let node_name = |n: usize| t.node_name(cluster, n).to_string();
    let explanation = explain(cluster, t);
    let preemption = preemption_view(t, cluster, info, explanation.preemption.clone());
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
            filter: filter_table(t, cluster, info),
            scores: score_table(t, cluster, info),
            tie_set: t.tie_set.iter().map(|&n| node_name(n)).collect(),
            best_total: t.node.and_then(|n| total_of(t, n)),
            explanation,
            preemption,
            volume_bindings: t.volume_bindings.clone(),
            claims: claims.to_vec(),
            modern: modern_view(t, cluster),
            extenders: Vec::new(),
            fresh_nodes: false,
        }),
    }
}

/// A node's total score in the cycle.
fn total_of(t: &CycleTrace, node: usize) -> Option<i64> {
    t.totals.iter().find(|(id, _)| *id == node).map(|(_, s)| *s)
}

/// `findNodesThatFit`'s table: a v1.35 cycle names its own profile's Filter plugins, a v1.17
/// cycle the session's predicates.
fn filter_table(t: &CycleTrace, cluster: &Cluster, info: &SessionInfo) -> FilterTable {
    let modern = t.modern.as_deref();
    let columns: Vec<String> = match modern {
        Some(m) => m.filter_names.iter().map(|n| n.to_string()).collect(),
        None => info.filter_names.clone(),
    };
    let skipped = |i: usize| modern.is_some_and(|m| m.skipped_filters.contains(&i));
    let rows = t
        .filter
        .iter()
        .enumerate()
        .map(|(k, rec)| {
            let mut cells: Vec<FilterCell> = Vec::new();
            for i in 0..columns.len() {
                let failed = cells.iter().any(|c| matches!(c, FilterCell::Fail { .. }));
                match rec.result(i) {
                    // PreFilter returned Skip: the plugin's Filter did not run this cycle
                    // (not a pass), wherever it sits before the node's rejection.
                    _ if skipped(i) && !failed => cells.push(FilterCell::Skipped),
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
                node: t.node_name(cluster, rec.node).to_string(),
                fits: rec.fits(),
                cells,
                code: modern
                    .and_then(|m| m.node_codes.get(k))
                    .filter(|_| !rec.fits())
                    .map(|c| c.as_str()),
            }
        })
        .collect();
    FilterTable {
        columns,
        rows,
        num_all_nodes: t.num_all_nodes,
        num_to_find: t.num_to_find,
        evaluated: t.evaluated,
        feasible: t.feasible,
        start_index: t.start_index,
    }
}

/// `prioritizeNodes`' table: under v1.35, the score entries are those of the plugins that
/// scored (PreScore did not skip).
fn score_table(t: &CycleTrace, cluster: &Cluster, info: &SessionInfo) -> ScoreTable {
    let rows = t
        .scores
        .iter()
        .map(|rec| ScoreRow {
            node: t.node_name(cluster, rec.node).to_string(),
            cells: rec.entries.clone(),
            total: total_of(t, rec.node).unwrap_or_default(),
            winner: t.node == Some(rec.node),
            tied: t.tie_set.len() > 1 && t.tie_set.contains(&rec.node),
        })
        .collect();
    let weights = t
        .scores
        .first()
        .map(|rec| rec.entries.iter().map(|e| e.weight).collect())
        .unwrap_or_default();
    let columns: Vec<String> = match t.modern.as_deref() {
        Some(m) => m
            .scored
            .iter()
            .map(|&s| m.score_names[s].to_string())
            .collect(),
        None => info.score_names.clone(),
    };
    let scoring = if t.feasible == 0 {
        Scoring::NoFeasibleNodes
    } else if t.feasible == 1 {
        Scoring::OneFeasibleNode
    } else {
        Scoring::Scored
    };
    ScoreTable {
        columns,
        weights,
        rows,
        scoring,
    }
}

/// `preempt`: the candidates with their victims and budgets, and the one picked (with
/// `explanation`, the core's words for why).
fn preemption_view(
    t: &CycleTrace,
    cluster: &Cluster,
    info: &SessionInfo,
    explanation: Option<String>,
) -> Option<PreemptionView> {
    let p = t.preemption.as_ref()?;
    let short = |p: usize| {
        info.pods
            .get(p)
            .map_or_else(|| cluster.pods()[p].full_name.clone(), |s| s.short.clone())
    };
    let chosen = p.pick.as_ref().map(|k| k.chosen);
    let runner_up = p.pick.as_ref().and_then(|k| k.runner_up);
    let modern = t.modern.is_some();
    Some(PreemptionView {
        not_eligible: p.not_eligible.clone(),
        potential: p.potential,
        skipped_unresolvable: p.skipped_unresolvable,
        candidates: p
            .candidates
            .iter()
            .enumerate()
            .map(|(i, c)| CandidateRow {
                node: t.node_name(cluster, c.node).to_string(),
                victims: c
                    .victims
                    .iter()
                    .map(|&v| (short(v), cluster.pods()[v].priority))
                    .collect(),
                pdb_violations: c.pdb_violations,
                pdbs: pdb_hits(cluster, &c.victims, modern, c.pdb_violations),
                chosen: chosen == Some(i),
                runner_up: runner_up == Some(i),
            })
            .collect(),
        decided_by: p.pick.as_ref().map(|k| k.decided_by.as_str()),
        explanation,
        cleared: p.cleared_nominations.iter().map(|&c| short(c)).collect(),
    })
}

/// A v1.35 cycle's extension points: each one's plugin statuses, and what PreFilter and
/// PreScore skipped (`None` for a v1.17 cycle).
fn modern_view(t: &CycleTrace, cluster: &Cluster) -> Option<ModernView> {
    let m = t.modern.as_deref()?;
    let scored = !m.scored.is_empty();
    Some(ModernView {
        profile: m.profile.clone(),
        pre_filter: status_rows(&m.pre_filter),
        pre_filter_rejected: m.pre_filter.iter().any(|s| s.code.is_rejected()),
        pre_filter_nodes: m.pre_filter_nodes,
        skipped_filters: m
            .skipped_filters
            .iter()
            .map(|&i| m.filter_names[i].to_string())
            .collect(),
        nominated: m
            .nominated_node
            .map(|(n, ok)| (t.node_name(cluster, n).to_string(), ok)),
        pre_score: status_rows(&m.pre_score),
        skipped_scores: if scored {
            (0..m.score_names.len())
                .filter(|s| !m.scored.contains(s))
                .map(|s| m.score_names[s].to_string())
                .collect()
        } else {
            Vec::new()
        },
        post_filter: status_rows(&m.post_filter),
        reserve: status_rows(&m.reserve),
        permit: status_rows(&m.permit),
        pre_bind: status_rows(&m.pre_bind),
        bind: status_rows(&m.bind),
        claims_per_node: claims_per_node(m, t, cluster),
    })
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
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
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
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FilterRow {
    /// The node.
    pub node: String,
    /// Whether every predicate passed.
    pub fits: bool,
    /// One cell per column (a failure spans the columns that did not run after it).
    pub cells: Vec<FilterCell>,
    /// v1.35: the code of a rejected node's status (`Unschedulable`, ...).
    #[serde(deserialize_with = "crate::interned::static_str_option")]
    pub code: Option<crate::interned::StaticStr>,
}

/// One predicate's verdict on one node.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
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
    /// v1.35: skipped this cycle (its PreFilter returned Skip).
    Skipped,
}

/// Nodes × priorities.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Scoring {
    /// It ran.
    Scored,
    /// Skipped: a single feasible node is chosen directly.
    OneFeasibleNode,
    /// Not reached: no node passed the filters.
    NoFeasibleNodes,
}

/// One node's scores.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::EditorFile;
    use crate::engine::host::load;
    use crate::gallery::example_named;
    use crate::session::Session;
    use schedlab_core::scenario::SchedulerVersion;

    use crate::session::run_example as session;

    fn cycle(s: &Session, c: usize) -> CycleView {
        let detail = s.cycle_detail(c).expect("detail");
        let (trace, cluster, claims) = &*detail;
        inspect_cycle(trace, cluster, claims, &s.info, c)
            .cycle
            .expect("a cycle")
    }

    fn row<'a>(c: &'a CycleView, node: &str) -> &'a FilterRow {
        c.filter
            .rows
            .iter()
            .find(|r| r.node == node)
            .unwrap_or_else(|| panic!("{node} missing"))
    }

    #[test]
    fn dynamic_resources_answers_per_node_and_claim() {
        // gpu-cluster's first cycle, infer-1 (h100-else-a100, worked out in its pods.yaml):
        // all four nodes evaluated; the allocator takes the first subrequest (h100) where an
        // H100 is free, the second (a100) on a100-node, and finds nothing on cpu-node.
        let s = session("gpu-cluster");
        let c = cycle(&s, 0);
        let m = c.modern.clone().expect("a v1.35 cycle");
        let by_node: Vec<(&str, &str, &str)> = m
            .claims_per_node
            .iter()
            .map(|r| {
                assert_eq!(r.answers.len(), 1, "{}", r.node);
                let a = &r.answers[0];
                assert!(a.claim.starts_with("default/infer-1-gpu-"), "{}", a.claim);
                (r.node.as_str(), a.kind.as_str(), a.text.as_str())
            })
            .collect();
        assert_eq!(
            by_node[..3],
            [
                (
                    "a100-node",
                    "devices",
                    "gpu/a100=gpu.example.com/a100-node/gpu-0"
                ),
                (
                    "mixed-node",
                    "devices",
                    "gpu/h100=gpu.example.com/mixed-node/gpu-1"
                ),
                (
                    "h100-node",
                    "devices",
                    "gpu/h100=gpu.example.com/h100-node/gpu-0"
                ),
            ]
        );
        assert_eq!((by_node[3].0, by_node[3].1), ("cpu-node", "failed"));
        // A pod without claims has no such table.
        let s = session("taints-first-v135");
        let m = cycle(&s, 1).modern.expect("a v1.35 cycle");
        assert!(m.claims_per_node.is_empty());
    }

    #[test]
    fn v117_cycles_have_no_extension_points() {
        let s = session("classic");
        assert_eq!(s.info.scheduler, SchedulerVersion::V1_17);
        let c = cycle(&s, 1);
        assert!(c.modern.is_none());
        assert_eq!(c.filter.columns, s.info.filter_names);
        assert_eq!(c.scores.columns, s.info.score_names);
        assert!(c.filter.rows.iter().all(|r| r.code.is_none()));
        assert!(c
            .filter
            .rows
            .iter()
            .all(|r| !r.cells.contains(&FilterCell::Skipped)));
    }

    #[test]
    fn v135_filters_name_the_profile_plugins_and_their_skips() {
        let s = session("taints-first-v135");
        assert_eq!(s.info.scheduler, SchedulerVersion::V1_35);
        // batch-huge, the last cycle: node-b2 is tainted and too small; the taint is checked
        // first, and TaintToleration's rejection is unresolvable.
        let c = cycle(&s, 7);
        let m = c.modern.clone().expect("a v1.35 cycle");
        assert_eq!(m.profile, "default-scheduler");
        assert_eq!(c.filter.columns[0], "NodeUnschedulable");
        let b2 = row(&c, "node-b2");
        let taint = c
            .filter
            .columns
            .iter()
            .position(|n| n == "TaintToleration")
            .expect("TaintToleration");
        assert!(
            matches!(&b2.cells[taint], FilterCell::Fail { reason, .. } if reason == "node(s) had untolerated taint(s)")
        );
        assert_eq!(b2.code, Some("UnschedulableAndUnresolvable"));
        assert_eq!(
            row(&c, "node-b1").code,
            Some("UnschedulableAndUnresolvable")
        );
        // A pod without host ports: NodePorts' PreFilter returns Skip, its Filter does not run.
        assert!(m.skipped_filters.contains(&"NodePorts".to_string()));
        let ports = c
            .filter
            .columns
            .iter()
            .position(|n| n == "NodePorts")
            .expect("NodePorts");
        assert_eq!(row(&c, "node-b2").cells.len(), taint + 1);
        assert!(matches!(
            row(&c, "node-a1").cells[ports],
            FilterCell::Skipped
        ));
        assert!(m
            .pre_filter
            .iter()
            .any(|p| p.plugin == "NodePorts" && p.code == "Skip"));
        assert_eq!(
            m.post_filter
                .iter()
                .map(|p| (p.plugin.as_str(), p.code))
                .collect::<Vec<_>>(),
            [
                ("DynamicResources", "Unschedulable"),
                ("DefaultPreemption", "Unschedulable")
            ]
        );
        assert_eq!(m.post_filter[0].message, "no new claims to deallocate");
        assert!(m.post_filter[1].message.starts_with("preemption: "));
        // No node chosen: nothing is reserved or bound.
        assert!(m.reserve.is_empty() && m.pre_bind.is_empty() && m.bind.is_empty());
        // web-1 is scored by the plugins that ran only; their weights head the columns.
        let c = cycle(&s, 1);
        let m = c.modern.clone().expect("a v1.35 cycle");
        // The default profile's Reserve and PreBind plugins are VolumeBinding, then
        // DynamicResources; no Permit plugin; DefaultBinder binds (reference §1.3).
        let rows = |r: &[StatusRow]| {
            r.iter()
                .map(|p| (p.plugin.clone(), p.code))
                .collect::<Vec<_>>()
        };
        let both = vec![
            ("VolumeBinding".to_string(), "Success"),
            ("DynamicResources".to_string(), "Success"),
        ];
        assert_eq!(rows(&m.reserve), both);
        assert!(m.permit.is_empty());
        assert_eq!(rows(&m.pre_bind), both);
        assert_eq!(rows(&m.bind), [("DefaultBinder".to_string(), "Success")]);
        assert_eq!(c.scores.columns.len(), c.scores.weights.len());
        assert!(c.scores.columns.contains(&"TaintToleration".to_string()));
        assert!(!c.scores.columns.contains(&"PodTopologySpread".to_string()));
        assert!(m.skipped_scores.contains(&"PodTopologySpread".to_string()));
        let taint = c
            .scores
            .columns
            .iter()
            .position(|n| n == "TaintToleration")
            .expect("scored");
        assert_eq!(c.scores.weights[taint], 3);
        let totals: Vec<(String, i64)> = c
            .scores
            .rows
            .iter()
            .map(|r| (r.node.clone(), r.total))
            .collect();
        assert_eq!(
            totals,
            [
                ("node-a1".to_string(), 436),
                ("node-b1".to_string(), 492),
                ("node-b3".to_string(), 474)
            ]
        );
    }

    #[test]
    fn v135_preemption_shows_post_filter_and_the_nominated_node() {
        let s = session("preemption-v135");
        let c = cycle(&s, 0);
        let m = c.modern.clone().expect("a v1.35 cycle");
        assert_eq!(
            m.post_filter
                .iter()
                .map(|p| (p.plugin.as_str(), p.code))
                .collect::<Vec<_>>(),
            [
                ("DynamicResources", "Unschedulable"),
                ("DefaultPreemption", "Success")
            ]
        );
        let p = c.preemption.expect("preemption ran");
        assert_eq!(p.decided_by, Some("fewestPDBViolations"));
        // At t = 30 checkout tries its nominated node first, and it passes.
        let c = cycle(&s, 2);
        assert_eq!(c.chosen.as_deref(), Some("node-b"));
        let m = c.modern.expect("a v1.35 cycle");
        assert_eq!(m.nominated, Some(("node-b".to_string(), true)));
        assert_eq!(c.filter.rows.len(), 1);
        assert_eq!(c.scores.scoring, Scoring::OneFeasibleNode);
    }

    #[test]
    fn preemption_names_the_budget_its_victims_would_violate() {
        // pdb-steers (v1.17): evicting postgres-0 on node-a violates the postgres budget, which
        // allows no disruption; reports-0 on node-b is covered by none.
        let s = session("pdb-steers");
        let c = cycle(&s, 0);
        let p = c.preemption.expect("preemption ran");
        let a = p
            .candidates
            .iter()
            .find(|c| c.node == "node-a")
            .expect("node-a");
        assert_eq!(a.pdb_violations, 1);
        assert_eq!(
            a.pdbs,
            [PdbHit {
                name: "postgres".into(),
                disruptions_allowed: 0,
                victims: vec!["postgres-0".into()],
                violated: true,
            }]
        );
        let b = p
            .candidates
            .iter()
            .find(|c| c.node == "node-b")
            .expect("node-b");
        assert!(b.chosen && b.pdbs.is_empty());
        // The same under v1.35: one covered victim, none allowed.
        let s = session("preemption-v135");
        let c = cycle(&s, 0);
        let p = c.preemption.expect("preemption ran");
        let a = p
            .candidates
            .iter()
            .find(|c| c.node == "node-a")
            .expect("node-a");
        assert_eq!(a.pdbs.len(), 1);
        assert!(a.pdbs[0].violated && a.pdbs[0].name == "postgres");
    }

    #[test]
    fn a_v1_configuration_leaves_the_policy_editor_out() {
        // The classic Policy with v1.35's configuration: the Policy is not read (no mixing
        // error), and v1.35 runs.
        let classic = example_named("classic")
            .texts()
            .expect("natively every example is compiled in");
        let mut texts: Vec<String> = EditorFile::ALL
            .iter()
            .map(|f| classic.text(*f).to_string())
            .collect();
        texts[EditorFile::Config.index()] = crate::gallery::DEFAULT_CONFIG_V1.to_string();
        let scenario = load(&texts).expect("loads without the Policy");
        assert_eq!(scenario.version(), SchedulerVersion::V1_35);
        // The Policy editor is not read at all: not even its syntax errors count.
        let policy =
            std::mem::replace(&mut texts[EditorFile::Policy.index()], "{\"kind\": ".into());
        assert!(load(&texts).is_ok());
        texts[EditorFile::Policy.index()] = policy;
        // A Policy typed into the Pods editor is refused, and told where a Policy goes.
        texts[EditorFile::Pods.index()]
            .push_str("\n---\n{\"kind\": \"Policy\", \"apiVersion\": \"v1\"}\n");
        let errors = load(&texts).err().expect("refused");
        assert!(
            errors[0]
                .message
                .starts_with("this is a Policy: it belongs in the Policy editor"),
            "{errors:?}"
        );
    }
}
