//! PostFilter of v1.35 (reference §3.6 and §4.16): DynamicResources' answer for a pod without
//! claims, then DefaultPreemption's evaluator (`pkg/scheduler/framework/preemption`):
//! eligibility, the nodes where preemption might help, the candidate search from a seeded
//! offset with its stopping rule, `SelectVictimsOnNode` with PodDisruptionBudget accounting and
//! reprieve, and `pickOneNodeForPreemption`.
//!
//! The simulation acts on the decision (nomination, graceful deletion of the victims, cleared
//! lower-priority nominations), as in v1.17 mode.
//!
//! Deviations, stated:
//! - Candidates are examined one after another from the seeded offset; upstream examines them in
//!   parallel, and builds the list `pickOneNodeForPreemption` reads from a map, so its final
//!   "first remaining node" is random there and the first in search order here.
//! - A pod's "terminating with `DisruptionTarget`" state is schedlab's terminating victim.

use super::cycle::{filter_with_nominated, CycleResult, CycleStates, Diagnosis, PluginStatus};
use super::plugin::Cx;
use super::plugin::Point;
use super::plugins::default_preemption::DefaultPreemption;
use super::profile::Profile;
use super::status::{Code, Status};
use crate::cluster::{NodeId, NodeInfo, PodId};
use crate::rng::Rng;
use crate::sched::extender::calls::Caller;
use crate::sched::nominations::Nominations;
use crate::sched::victims::{pick_one_node_for_preemption, Candidate, StartTime, Victims};
use crate::sched::Reason;
use crate::trace::{ExtenderCall, NodeFilterRecord, PreemptionTrace};

/// `No preemption victims found for incoming pod`.
pub(crate) const NO_VICTIMS: &str = "No preemption victims found for incoming pod";
/// The absent status of preemption's FitError.
pub(crate) const NOT_HELPFUL: &str = "Preemption is not helpful for scheduling";

/// What the simulation knows about pods that preemption reads.
pub(crate) struct PodFacts<'a> {
    /// When a pod started (a missing start time counts as now).
    pub start: &'a dyn Fn(PodId) -> StartTime,
    /// Whether a pod is terminating after a preemption.
    pub terminating: &'a dyn Fn(PodId) -> bool,
    /// `preemptionPolicy` of the pod (its own, else its PriorityClass's).
    pub preemption_never: bool,
}

/// What PostFilter decided.
pub(crate) struct PostFilterOutcome {
    /// Each plugin's status, in order.
    pub statuses: Vec<PluginStatus>,
    /// `PostFilterMsg` (empty on success).
    pub message: String,
    /// The preemption record (for the trace), when DefaultPreemption ran.
    pub preemption: Option<PreemptionTrace>,
    /// Whether the nominated node is to be cleared (no candidate, or no helpful node).
    pub clear_nomination: bool,
    /// The claim (namespace, name) DynamicResources deallocated.
    pub dra_deallocate: Option<(String, String)>,
    /// The preempt calls to extenders (with details on).
    pub extender_calls: Vec<ExtenderCall>,
}

/// `RunPostFilterPlugins` after a FitError.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_post_filter(
    profile: &Profile,
    cx: &Cx,
    result: &CycleResult,
    nominations: &Nominations,
    nominated: Option<NodeId>,
    rng: &mut Rng,
    facts: &PodFacts,
    extenders: Option<&Caller>,
) -> PostFilterOutcome {
    let mut out = PostFilterOutcome {
        statuses: Vec::new(),
        message: String::new(),
        preemption: None,
        clear_nomination: false,
        dra_deallocate: None,
        extender_calls: Vec::new(),
    };
    let mut reasons: Vec<String> = Vec::new();
    for &i in &profile.points[Point::PostFilter as usize] {
        let e = &profile.plugins[i];
        let name = e.spec.name;
        let status = if let Some(dp) = e.plugin.as_any().downcast_ref::<DefaultPreemption>() {
            let (status, trace, clear) = preempt(
                dp,
                profile,
                cx,
                result,
                (nominations, nominated),
                rng,
                facts,
                extenders.map(|c| (c, &mut out.extender_calls)),
            );
            out.preemption = Some(trace);
            out.clear_nomination = clear;
            status
        } else if name == "DynamicResources" {
            let (status, deallocate) = super::plugins::dynamic_resources::post_filter(
                result.dra_pre_filter_ran,
                result.states.get(i),
                cx.pod,
            );
            out.dra_deallocate = deallocate;
            status
        } else {
            Status::new(Code::Unschedulable, "")
        };
        let message = status.message();
        out.statuses.push(PluginStatus {
            plugin: name,
            code: status.code,
            message: message.clone(),
        });
        match status.code {
            Code::Success | Code::UnschedulableAndUnresolvable => {
                out.message = message;
                return out;
            }
            Code::Unschedulable => {
                if !message.is_empty() {
                    reasons.push(message);
                }
            }
            _ => {
                out.message = message;
                return out;
            }
        }
    }
    out.message = reasons.join(", ");
    out
}

/// DefaultPreemption's `PostFilter`: the evaluator's status (prefixed `preemption: `), its
/// record, and whether the preemptor's nomination is cleared.
#[allow(clippy::too_many_arguments)]
fn preempt(
    dp: &DefaultPreemption,
    profile: &Profile,
    cx: &Cx,
    result: &CycleResult,
    (nominations, nominated): (&Nominations, Option<NodeId>),
    rng: &mut Rng,
    facts: &PodFacts,
    extenders: Option<(&Caller, &mut Vec<ExtenderCall>)>,
) -> (Status, PreemptionTrace, bool) {
    let mut t = PreemptionTrace {
        not_eligible: None,
        potential: 0,
        skipped_unresolvable: 0,
        candidates: Vec::new(),
        pick: None,
        cleared_nominations: Vec::new(),
    };
    let d = &result.diagnosis;
    let prefixed = |code: Code, msg: String| Status::new(code, format!("preemption: {msg}"));
    // 1. PodEligibleToPreemptOthers.
    if facts.preemption_never {
        let msg = "not eligible due to preemptionPolicy=Never.".to_string();
        t.not_eligible = Some(msg.clone());
        return (prefixed(Code::Unschedulable, msg), t, false);
    }
    if let Some(node) = nominated {
        let unresolvable = d.code_of(node) == Some(Code::UnschedulableAndUnresolvable);
        let waiting = cx.cluster.nodes()[node]
            .pods()
            .iter()
            .any(|&p| cx.cluster.priority(p) < cx.pod.priority && (facts.terminating)(p));
        if !unresolvable && waiting {
            let msg = "not eligible due to a terminating pod on the nominated node.".to_string();
            t.not_eligible = Some(msg.clone());
            return (prefixed(Code::Unschedulable, msg), t, false);
        }
    }
    // 2. nodesWherePreemptionMightHelp.
    let mut statuses = Diagnosis::default();
    let mut potential: Vec<NodeId> = Vec::new();
    for &node in cx.order {
        match d.code_of(node) {
            Some(Code::Unschedulable) => potential.push(node),
            _ => {
                t.skipped_unresolvable += 1;
            }
        }
    }
    t.potential = potential.len();
    if potential.is_empty() {
        let msg = preemption_fit_error(cx.order.len(), &statuses);
        return (prefixed(Code::Unschedulable, msg), t, true);
    }
    // 3. How many candidates, and where to start.
    let n = potential.len() as i64;
    let (pct, abs) = dp.args();
    let num_candidates = (n * i64::from(pct) / 100).max(i64::from(abs)).min(n);
    let offset = rng.intn(n as u64) as usize;
    // 4. DryRunPreemption.
    let filters = &result.filters;
    let (mut violating_count, mut non_violating_count) = (0i64, 0i64);
    let mut candidates: Vec<Candidate> = Vec::new();
    for k in 0..potential.len() {
        let node = potential[(offset + k) % potential.len()];
        match select_victims_on_node(
            profile,
            filters,
            cx,
            &result.states,
            node,
            nominations,
            facts,
        ) {
            Ok(Some((victims, violations))) => {
                if violations == 0 {
                    non_violating_count += 1;
                } else {
                    violating_count += 1;
                }
                candidates.push(Candidate {
                    node,
                    victims,
                    pdb_violations: violations,
                });
                if non_violating_count > 0
                    && non_violating_count + violating_count >= num_candidates
                {
                    break;
                }
            }
            Ok(None) => unreachable!("select_victims_on_node reports a status for a failure"),
            Err((code, reasons)) => {
                statuses.push_reasons(node, code, reasons);
            }
        }
    }
    if candidates.is_empty() {
        let msg = preemption_fit_error(cx.order.len(), &statuses);
        return (prefixed(Code::Unschedulable, msg), t, true);
    }
    // 5. callExtenders: an extender's error ends preemption with an Error status; when no
    // candidate is left, SelectCandidate finds none.
    if let Some((c, calls)) = extenders {
        match c.preempt(cx.cluster, cx.pod, candidates, calls) {
            Ok(left) => candidates = left,
            Err(e) => return (prefixed(Code::Error, e), t, false),
        }
        if candidates.is_empty() {
            let msg = "no candidate node for preemption".to_string();
            return (prefixed(Code::Unschedulable, msg), t, false);
        }
    }
    // 7. pickOneNodeForPreemption.
    let pick = pick_one_node_for_preemption(&candidates, cx.cluster, &|p| (facts.start)(p));
    t.pick = pick;
    t.candidates = candidates;
    (Status::success(), t, false)
}

/// The FitError of preemption: the dry run's statuses, every other node
/// `Preemption is not helpful for scheduling`.
fn preemption_fit_error(all: usize, statuses: &Diagnosis) -> String {
    let mut d = statuses.clone();
    d.absent = Some(Status::new(Code::UnschedulableAndUnresolvable, NOT_HELPFUL));
    super::cycle::fit_error_message(all, &d)
}

/// `SelectVictimsOnNode`: `Ok(Some((victims, violations)))` when the pod fits once they are
/// gone, else the node's status.
#[allow(clippy::type_complexity)]
fn select_victims_on_node(
    profile: &Profile,
    filters: &[(usize, usize)],
    cx: &Cx,
    states: &CycleStates,
    node: NodeId,
    nominations: &Nominations,
    facts: &PodFacts,
) -> Result<Option<(Victims, usize)>, (Code, Vec<Reason>)> {
    let cluster = cx.cluster;
    let priority = cx.pod.priority;
    let original = &cluster.nodes()[node];
    let mut lower: Vec<PodId> = original
        .pods()
        .iter()
        .copied()
        .filter(|&p| cluster.priority(p) < priority)
        .collect();
    if lower.is_empty() {
        return Err((
            Code::UnschedulableAndUnresolvable,
            vec![Reason::from(NO_VICTIMS)],
        ));
    }
    let mut copy: NodeInfo = original.clone();
    copy.copy_keeping(original, cluster.pods(), |p| {
        cluster.priority(p) >= priority
    });
    let mut st = states.clone();
    for &v in &lower {
        remove_from_states(profile, cx, &mut st, v, &copy);
    }
    let fits = |copy: &NodeInfo, st: &CycleStates| -> Result<(), (Code, Vec<Reason>)> {
        let mut reasons = Vec::new();
        let mut record = NodeFilterRecord::default();
        match filter_with_nominated(
            profile,
            filters,
            st,
            cx,
            copy,
            nominations,
            &mut reasons,
            &mut record,
            false,
        ) {
            Ok(Code::Success) => Ok(()),
            Ok(code) => Err((code, reasons)),
            Err(msg) => Err((Code::Error, vec![Reason::from(msg)])),
        }
    };
    fits(&copy, &st)?;
    // MoreImportantPod: higher priority first, then earlier start.
    lower.sort_by_key(|&p| {
        (
            std::cmp::Reverse(cluster.priority(p)),
            (facts.start)(p).order_key(),
        )
    });
    // filterPodsWithPDBViolation: each matching budget is decremented per pod.
    let mut budgets: Vec<i64> = cluster
        .pdbs()
        .iter()
        .map(|b| b.status.disruptions_allowed)
        .collect();
    let (mut violating, mut other) = (Vec::new(), Vec::new());
    for &p in &lower {
        let info = &cluster.pods()[p];
        let mut violates = false;
        for (b, budget) in cluster.pdbs().iter().zip(budgets.iter_mut()) {
            if b.covers(&info.namespace, info.labels())
                && !b
                    .status
                    .disrupted_pods
                    .contains_key(&info.pod.metadata.name)
            {
                *budget -= 1;
                if *budget < 0 {
                    violates = true;
                }
            }
        }
        if violates {
            violating.push(p);
        } else {
            other.push(p);
        }
    }
    let mut victims = Victims::new();
    let mut violations = 0;
    let groups = [(&violating, true), (&other, false)];
    for (group, counts) in groups {
        for &p in group {
            let mark = copy.mark();
            cluster.add_to(&mut copy, p);
            let mut with = st.clone();
            add_to_states(profile, cx, &mut with, p, &copy);
            if fits(&copy, &with).is_ok() {
                st = with;
            } else {
                copy.undo_add(mark);
                victims.push(p);
                violations += usize::from(counts);
            }
        }
    }
    if !violating.is_empty() && !other.is_empty() {
        victims.sort_by_key(|&p| {
            (
                std::cmp::Reverse(cluster.priority(p)),
                (facts.start)(p).order_key(),
            )
        });
    }
    Ok(Some((victims, violations)))
}

fn remove_from_states(
    profile: &Profile,
    cx: &Cx,
    st: &mut CycleStates,
    pod: PodId,
    node: &NodeInfo,
) {
    for &i in &profile.points[Point::PreFilter as usize] {
        if let Some(s) = st.get_mut(i) {
            profile.plugins[i]
                .plugin
                .remove_pod(cx, s, &cx.cluster.pods()[pod], node);
        }
    }
}

fn add_to_states(profile: &Profile, cx: &Cx, st: &mut CycleStates, pod: PodId, node: &NodeInfo) {
    for &i in &profile.points[Point::PreFilter as usize] {
        if let Some(s) = st.get_mut(i) {
            profile.plugins[i]
                .plugin
                .add_pod(cx, s, &cx.cluster.pods()[pod], node);
        }
    }
}
