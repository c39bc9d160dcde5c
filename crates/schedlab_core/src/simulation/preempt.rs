//! `Scheduler.preempt` of v1.17 (reference `queue-preemption.md` C.1, C.2 step 2, C.6): the
//! caller's side of preemption. It checks `podEligibleToPreemptOthers`, asks
//! [`crate::v117::preemption`] for a node, then nominates the preemptor, deletes the
//! victims gracefully (`Preempted` events; each is deleted when its
//! `terminationGracePeriodSeconds`, default 30 s, has passed) and clears the nominations of
//! lower-priority pods nominated to that node.

use super::engine::{delete_pod, event};
use super::{PodPhase, StartTime, State};
use crate::cluster::PodId;
use crate::model::workload::priority_class;
use crate::model::Millis;
use crate::sched::extender::calls::Caller;
use crate::sched::fit_error::FailedNodes;
use crate::sched::nominations::Nominations;
use crate::sched::victims::pick_one_node_for_preemption;
use crate::simulation::Event;
use crate::trace::ExtenderCall;
use crate::trace::PreemptionTrace;
use crate::v117::preemption::{nodes_where_preemption_might_help, select_nodes_for_preemption};
use crate::v117::Algorithm;

/// `DefaultTerminationGracePeriodSeconds`.
pub(super) const DEFAULT_TERMINATION_GRACE_PERIOD: Millis = Millis::secs(30);

/// Whether the pod's `preemptionPolicy` (its own, else its PriorityClass's) is `Never`.
pub(super) fn preemption_policy_never(state: &State, pod: PodId) -> bool {
    let info = &state.cluster.pods()[pod];
    let policy = info.pod.spec.preemption_policy.clone().or_else(|| {
        priority_class(
            state.cluster.priority_classes(),
            &info.pod.spec.priority_class_name,
        )
        .and_then(|c| c.preemption_policy.clone())
    });
    policy.as_deref() == Some("Never")
}

/// `podEligibleToPreemptOthers`: why the pod may not preempt, if so.
fn not_eligible(state: &State, pod: PodId) -> Option<String> {
    let info = &state.cluster.pods()[pod];
    if preemption_policy_never(state, pod) {
        return Some("its preemptionPolicy is Never".to_string());
    }
    let nominated = state.pods[pod].nominated.as_deref()?;
    let node = *state.cluster.node_index().get(nominated)?;
    let waiting = state.cluster.nodes()[node]
        .pods()
        .iter()
        .any(|&p| state.pods[p].terminating && state.cluster.priority(p) < info.priority);
    waiting.then(|| {
        format!("it is nominated to {nominated}, where lower-priority pods are still terminating")
    })
}

/// Clears a pod's nomination (a status-only update: the pod stays in its sub-queue).
pub(super) fn clear_nomination(state: &mut State, pod: PodId) {
    let old = state.pods[pod].nominated.take();
    if state.queue.queue_of(pod).is_some() {
        let priority = state.cluster.pods()[pod].priority;
        state
            .queue
            .update(pod, priority, old.as_deref(), None, false, state.now);
    } else {
        state.queue.delete_nominated_pod_if_exists(pod);
    }
}

/// Runs preemption for `pod`, whose cycle `cycle` just failed with `failed`; appends the
/// `Preempted` events to `events`. The extenders with a preempt verb (and the calls' record)
/// may shrink the candidates before the pick (`processPreemptionWithExtenders`).
pub(super) fn preempt(
    state: &mut State,
    algorithm: &Algorithm,
    pod: PodId,
    (nominations, failed): (&Nominations, &FailedNodes),
    extenders: Option<(&Caller, &mut Vec<ExtenderCall>)>,
    cycle: usize,
    events: &mut Vec<Event>,
) -> PreemptionTrace {
    let mut t = PreemptionTrace {
        not_eligible: None,
        potential: 0,
        skipped_unresolvable: 0,
        candidates: Vec::new(),
        pick: None,
        cleared_nominations: Vec::new(),
    };
    if let Some(why) = not_eligible(state, pod) {
        t.not_eligible = Some(why);
        return t;
    }
    let (potential, skipped) = nodes_where_preemption_might_help(&state.order, failed);
    t.potential = potential.len();
    t.skipped_unresolvable = skipped;
    if potential.is_empty() {
        // "Preemption will not help": the preemptor's own nomination is cleared.
        if state.pods[pod].nominated.is_some() {
            clear_nomination(state, pod);
            t.cleared_nominations.push(pod);
        }
        return t;
    }
    let now = state.now;
    let State { cluster, pods, .. } = &mut *state;
    let start = |p: PodId| pods[p].start_time.unwrap_or(StartTime::Virtual(now));
    let candidates =
        match select_nodes_for_preemption(algorithm, cluster, &potential, pod, nominations, &start)
        {
            Ok(c) => c,
            // A filter error aborts preemption as it aborts the cycle upstream.
            Err(_) => return t,
        };
    let candidates = match extenders {
        Some((c, calls)) => match c.preempt(cluster, &cluster.pods()[pod], candidates, calls) {
            Ok(candidates) => candidates,
            // An extender's error ends preemption (logged upstream): no nomination.
            Err(_) => return t,
        },
        None => candidates,
    };
    t.pick = pick_one_node_for_preemption(&candidates, cluster, &start);
    t.candidates = candidates;
    let Some(chosen) = t.chosen().cloned() else {
        return t;
    };
    let preemptor = state.cluster.pods()[pod].full_name.clone();
    act_on(state, pod, &chosen, &preemptor, cycle, events, &mut t);
    t
}

/// Acts on the chosen candidate: nominates `pod` to its node, deletes the victims gracefully
/// (`Preempted by <by> on node <node>` events) and clears the nominations of lower-priority
/// pods nominated there (recorded in `t`).
pub(super) fn act_on(
    state: &mut State,
    pod: PodId,
    chosen: &crate::sched::victims::Candidate,
    by: &str,
    cycle: usize,
    events: &mut Vec<Event>,
    t: &mut PreemptionTrace,
) {
    let node_name = state.node_names[chosen.node].clone();
    let priority = state.cluster.pods()[pod].priority;
    let lower: Vec<PodId> = state
        .queue
        .nominated_pods_for_node(&node_name)
        .iter()
        .copied()
        .filter(|&q| q != pod && state.cluster.priority(q) < priority)
        .collect();
    // Nominate, in memory first, then in the pod's status.
    state.queue.update_nominated_pod_for_node(pod, &node_name);
    state.pods[pod].nominated = Some(node_name.clone());
    for &v in &chosen.victims {
        let message = format!("Preempted by {by} on node {node_name}");
        events.push(event(state, false, "Preempted", v, message, cycle));
        delete_gracefully(state, v);
    }
    for q in lower {
        clear_nomination(state, q);
        t.cleared_nominations.push(q);
    }
}

/// A `Delete` with default options: a bound victim terminates for its grace period, then is
/// deleted; a victim whose binding is still in flight is dropped at once.
fn delete_gracefully(state: &mut State, v: PodId) {
    match state.pods[v].phase {
        PodPhase::Bound if !state.pods[v].terminating => {
            let grace = state.cluster.pods()[v]
                .pod
                .spec
                .termination_grace_period_seconds
                .map_or(DEFAULT_TERMINATION_GRACE_PERIOD, |s| {
                    Millis::secs(s.max(0) as u64)
                });
            state.pods[v].terminating = true;
            let seq = state.binding_seq;
            state.binding_seq += 1;
            state.deletions.insert((state.now.plus(grace), seq), v);
        }
        PodPhase::Assumed(_) => {
            delete_pod(state, v);
        }
        _ => {}
    }
}
