//! The step function: what happens next, and applying it to the state.

use super::{
    Binding, Event, PodPhase, PodScheduledCondition, PodState, Setup, StartTime, State, Step,
    StepKind, StepOutput,
};
use crate::cluster::{NodeId, PodId, PodInfo};
use crate::model::pod::parse_rfc3339;
use crate::model::timeline::Change;
use crate::model::Millis;
use crate::model::Node;
use crate::queue::{
    ClusterChange, ClusterEvent, InformerEvent, MoveReport, NodeChange, QueuedPodInfo,
};
use crate::sched::extender::calls::Caller;
use crate::sched::fit_error::FailedNodes;
use crate::sched::nominations::Nominations;
use crate::sched::volume_binder::bindings_for;
use crate::scheduler::Scheduler;
use crate::trace::{CycleTrace, Outcome};
use crate::v117::cycle::schedule_one;
use crate::v117::predicates::match_inter_pod_affinity::term_matches;
use std::sync::Arc;

/// `v1.PodReasonUnschedulable`.
pub(super) const REASON_UNSCHEDULABLE: &str = "Unschedulable";
/// `SchedulerError`.
pub(super) const REASON_SCHEDULER_ERROR: &str = "SchedulerError";

/// What the next step does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum What {
    Change,
    Deletion,
    Binding,
    BackoffFlush,
    LeftoverFlush,
    Cycle,
}

/// A pod's state as the inputs give it: bound or pending, its start time, its nomination,
/// whether it is already being deleted.
pub(super) fn initial_pod_state(info: &PodInfo, bound: bool) -> PodState {
    let pod = &info.pod;
    let mut s = PodState::new(if bound {
        PodPhase::Bound
    } else {
        PodPhase::Pending
    });
    s.start_time = pod
        .status
        .start_time
        .as_deref()
        .and_then(parse_rfc3339)
        .map(|(secs, nanos)| StartTime::Input(secs, nanos));
    s.nominated = pod
        .status
        .nominated_node_name
        .clone()
        .filter(|n| !n.is_empty());
    s.terminating = pod.metadata.deletion_timestamp.is_some();
    s
}

/// Rebuilds the node order and the node-name table after the node set changed.
pub(super) fn refresh_nodes(state: &mut State) {
    state.node_epoch += 1;
    state.order = Arc::from(state.cluster.node_tree_order());
    state.node_names = state
        .cluster
        .nodes()
        .iter()
        .map(|n| n.name().to_string())
        .collect();
}

/// The next step and its time, or `None` when the run is over (the contract's "End of the
/// run": no timeline change left, no binding in flight, activeQ and podBackoffQ empty, and
/// every unschedulable pod tried since the latest change to the cluster).
pub(super) fn next(state: &State, setup: &Setup) -> Option<(Millis, What)> {
    let mut best: Option<(Millis, What)> = None;
    // Ties go to the earlier kind (the order of `What`).
    let consider = |best: &mut Option<(Millis, What)>, t: Millis, w: What| {
        if best.is_none_or(|(bt, bw)| (t, w as u8) < (bt, bw as u8)) {
            *best = Some((t, w));
        }
    };
    if let Some(c) = setup.timeline.changes.get(state.next_change) {
        consider(&mut best, c.at.max(state.now), What::Change);
    }
    if let Some((&(t, _), _)) = state.deletions.first_key_value() {
        consider(&mut best, t, What::Deletion);
    }
    if let Some((&(t, _), _)) = state.bindings.first_key_value() {
        consider(&mut best, t, What::Binding);
    }
    // v1.35 pops the head of podBackoffQ when activeQ is empty (the queue's mode says).
    if state.queue.can_pop() {
        consider(&mut best, state.now, What::Cycle);
    }
    if let Some(t) = state.queue.next_backoff_flush(state.now) {
        // v1.35 retries a pod that failed with an error (no rejector plugin) after backoff,
        // forever; the run still ends once every such pod was tried since the latest change.
        // (v1.17's queue has no podErrorBackoffQ.)
        let stale_errors_only = state.queue.num_backoff_pods() > 0
            && state.queue.error_backoff_pods().count() == state.queue.num_backoff_pods()
            && state
                .queue
                .error_backoff_pods()
                .all(|p| state.pods[p].tried_at_change == state.changes);
        if !stale_errors_only || best.is_some() {
            consider(&mut best, t, What::BackoffFlush);
        }
    }
    if let Some(t) = state.queue.next_leftover_flush(state.now) {
        // Leftover flushes keep the run going only while something else is pending or some
        // unschedulable pod has not been tried since the latest change.
        let stale = || {
            state
                .queue
                .unschedulable_pods()
                .any(|p| state.pods[p].tried_at_change != state.changes)
        };
        if best.is_some() || stale() {
            consider(&mut best, t, What::LeftoverFlush);
        }
    }
    best
}

/// Applies the step `what` (as returned by [`next`]).
pub(super) fn apply(
    state: &mut State,
    setup: &Setup,
    (time, what): (Millis, What),
    detail: bool,
) -> StepOutput {
    // `next` never returns a time before the clock.
    state.now = state.now.max(time);
    let mut out = StepOutput {
        step: Step {
            time: state.now,
            kind: StepKind::LeftoverFlush,
            move_event: None,
            moved: Vec::new(),
            extender: None,
        },
        cycle: None,
        events: Vec::new(),
    };
    match what {
        What::Change => {
            let index = state.next_change;
            state.next_change += 1;
            out.step.kind = StepKind::Change { index };
            let report = apply_change(state, setup, index);
            state.changes += 1;
            set_moves(&mut out.step, report);
        }
        What::Deletion => {
            let (_, pod) = state.deletions.pop_first().expect("a deletion is due");
            out.step.kind = StepKind::Deleted { pod };
            if delete_pod(state, pod) {
                let report = cluster_event(
                    state,
                    setup,
                    InformerEvent::AssignedPodDelete,
                    ClusterChange::PodDelete(pod),
                );
                set_moves(&mut out.step, report);
            }
            state.changes += 1;
        }
        What::Binding => {
            let (_, b) = state.bindings.pop_first().expect("a binding is due");
            complete_binding(state, setup, b, &mut out, detail);
            state.changes += 1;
        }
        What::BackoffFlush => {
            let moved = state.queue.flush_backoff_completed(state.now);
            out.step.kind = StepKind::BackoffFlush { moved };
        }
        What::LeftoverFlush => {
            let report = state.queue.flush_unschedulable_leftover(state.now);
            set_moves(&mut out.step, report);
        }
        What::Cycle => match &*setup.scheduler {
            Scheduler::V117(s) => run_cycle(state, setup, s, detail, &mut out),
            Scheduler::V135(config) => run_cycle_modern(state, setup, config, detail, &mut out),
        },
    }
    state.events += out.events.len();
    state.steps += 1;
    out
}

fn set_moves(step: &mut Step, report: MoveReport) {
    step.move_event = report.event;
    step.moved = report.moved;
}

pub(super) fn event(
    state: &State,
    warning: bool,
    reason: &'static str,
    pod: PodId,
    message: String,
    cycle: usize,
) -> Event {
    Event {
        kind: if warning { "Warning" } else { "Normal" },
        reason,
        object: state.cluster.pods()[pod].full_name.clone(),
        message,
        cycle,
        time: state.now,
        step: state.steps,
    }
}

/// Buffers reused from cycle to cycle. Not part of the state: a clone (a checkpoint) starts
/// with empty ones.
#[derive(Default)]
pub(super) struct Buffers {
    /// The nodes that failed the latest cycle.
    failed: FailedNodes,
}

impl Clone for Buffers {
    fn clone(&self) -> Self {
        Buffers::default()
    }
}

/// Every nomination by node id (cached until the nominations or the node set change).
fn nominations_by_node(state: &mut State) -> Arc<Nominations> {
    let key = (state.queue.nominated().generation(), state.node_epoch);
    let (seen, seen_epoch) = state.nominations.0;
    if (seen, seen_epoch) != key {
        let cluster = &state.cluster;
        let nominated = state.queue.nominated();
        let priority = |p: PodId| cluster.pods()[p].priority;
        // Updated in place unless a checkpoint still shares it.
        let index = Arc::make_mut(&mut state.nominations.1);
        match nominated.changed_since(seen) {
            // The same nodes: only those whose nominations changed are read again.
            Some(changed) if seen_epoch == state.node_epoch => {
                for name in changed {
                    if let Some(&node) = cluster.node_index().get(name) {
                        index.set(node, nominated.for_node(name), priority);
                    }
                }
            }
            _ => {
                let groups = nominated
                    .by_node()
                    .filter_map(|(name, pods)| Some((*cluster.node_index().get(name)?, pods)));
                index.rebuild(cluster.nodes().len(), groups, priority);
            }
        }
        state.nominations.0 = key;
    }
    Arc::clone(&state.nominations.1)
}

/// The scheduler's extenders for one cycle or binding, `None` when it has none.
fn extender_caller(setup: &Setup, detail: bool) -> Option<Caller<'_>> {
    let extenders = setup.scheduler.extenders();
    (!extenders.is_empty()).then(|| Caller {
        extenders,
        answers: &setup.answers,
        flavor: setup.scheduler.extender_flavor(),
        detail,
        nodeinfo_bug: setup.extender_nodeinfo_bug,
    })
}

/// `scheduleOne` for the head of activeQ.
fn run_cycle(
    state: &mut State,
    setup: &Setup,
    scheduler: &crate::v117::Scheduler,
    detail: bool,
    out: &mut StepOutput,
) {
    let algorithm = &scheduler.algorithm;
    let info = state.queue.pop().expect("activeQ is not empty");
    let pod = info.pod;
    let cycle = state.cycles;
    state.cycles += 1;
    out.step.kind = StepKind::Cycle { cycle };
    let pod_scheduling_cycle = state.queue.scheduling_cycle();
    state.pods[pod].tried_at_change = state.changes;
    let pod_info = Arc::clone(&state.cluster.pods()[pod]);

    // skipPodSchedule (a): a pod being deleted is not scheduled and not requeued.
    if pod_info.pod.metadata.deletion_timestamp.is_some() {
        let message = format!("skip schedule deleting pod: {}", pod_info.full_name);
        let mut trace = empty_trace(state, pod);
        trace.message = Some(message.clone());
        out.events
            .push(event(state, true, "FailedScheduling", pod, message, cycle));
        out.cycle = Some(trace);
        return;
    }

    let nominations = nominations_by_node(state);
    let mut failed = std::mem::take(&mut state.buffers.failed);
    let extenders = extender_caller(setup, detail);
    let mut trace = schedule_one(
        algorithm,
        &mut state.scheduler,
        &state.cluster,
        &state.order,
        pod,
        &nominations,
        detail,
        &mut failed,
        extenders.as_ref(),
    );
    trace.time = state.now.as_secs_f64();
    trace.node_names = Arc::clone(&state.node_names);
    match (trace.outcome, trace.node) {
        (Outcome::Scheduled, Some(node)) => {
            assume(state, setup, info, node, cycle, &mut trace);
        }
        _ => {
            // Preemption runs for a FitError only, before the failure is recorded (C.1).
            if trace.outcome == Outcome::Unschedulable && !scheduler.config.disable_preemption {
                let p = super::preempt::preempt(
                    state,
                    algorithm,
                    pod,
                    (&nominations, &failed),
                    extenders.as_ref().map(|c| (c, &mut trace.extenders)),
                    cycle,
                    &mut out.events,
                );
                trace.preemption = Some(Box::new(p));
            }
            record_failure(state, info, pod_scheduling_cycle, cycle, &trace, out);
        }
    }
    state.buffers.failed = failed;
    out.cycle = Some(trace);
}

/// The cycle's node is chosen: assume the pod there (its claims take their volumes, it counts
/// on the node from now on) and start its binding.
fn assume(
    state: &mut State,
    setup: &Setup,
    info: QueuedPodInfo,
    node: NodeId,
    cycle: usize,
    trace: &mut CycleTrace,
) {
    let pod = info.pod;
    // AssumePodVolumes: the claims this node was found to satisfy take their volumes
    // (or are marked for provisioning here).
    let cluster = &mut state.cluster;
    for b in bindings_for(cluster, &cluster.pods()[pod], &cluster.nodes()[node]) {
        match &b.pv {
            Some(pv) => cluster.volumes_mut().bind(&b.namespace, &b.claim, pv),
            None => {
                let name = cluster.nodes()[node].name().to_string();
                cluster
                    .volumes_mut()
                    .select_node(&b.namespace, &b.claim, &name)
            }
        }
        trace
            .volume_bindings
            .push((format!("{}/{}", b.namespace, b.claim), b.pv));
    }
    // assume: the pod counts on the node from now on.
    cluster.bind(pod, node);
    state.pods[pod].phase = PodPhase::Assumed(node);
    state.queue.delete_nominated_pod_if_exists(pod);
    let seq = state.binding_seq;
    state.binding_seq += 1;
    state.bindings.insert(
        (state.now.plus(setup.timeline.bind_latency), seq),
        Binding {
            info,
            node: state.node_names[node].clone(),
            cycle,
        },
    );
}

/// A failed cycle's `FailedScheduling` event and its PodScheduled `False` condition.
fn report_failure(
    state: &mut State,
    pod: PodId,
    cycle: usize,
    trace: &CycleTrace,
    reason: &'static str,
    out: &mut StepOutput,
) {
    let message = trace.message.clone().unwrap_or_default();
    out.events.push(event(
        state,
        true,
        "FailedScheduling",
        pod,
        message.clone(),
        cycle,
    ));
    state.pods[pod].condition = Some(Arc::new(PodScheduledCondition {
        status: false,
        reason,
        message,
    }));
}

/// A failed cycle: the `FailedScheduling` event, PodScheduled `False`, and the pod back in
/// the queue (`AddUnschedulableIfNotPresent`).
fn record_failure(
    state: &mut State,
    info: QueuedPodInfo,
    pod_scheduling_cycle: i64,
    cycle: usize,
    trace: &CycleTrace,
    out: &mut StepOutput,
) {
    let pod = info.pod;
    report_failure(state, pod, cycle, trace, REASON_UNSCHEDULABLE, out);
    let nominated = state.pods[pod].nominated.clone();
    let _ = state.queue.add_unschedulable_if_not_present(
        info,
        pod_scheduling_cycle,
        nominated.as_deref(),
        state.now,
    );
}

/// `scheduleOne` of v1.35 for the head of activeQ: the profile named by the pod's
/// `schedulerName`, the cycle, PostFilter (preemption) on a FitError, then as v1.17.
fn run_cycle_modern(
    state: &mut State,
    setup: &Setup,
    config: &crate::v135::config::Configuration,
    detail: bool,
    out: &mut StepOutput,
) {
    let info = state.queue.pop().expect("activeQ is not empty");
    let pod = info.pod;
    let cycle = state.cycles;
    state.cycles += 1;
    out.step.kind = StepKind::Cycle { cycle };
    state.pods[pod].tried_at_change = state.changes;
    let pod_info = Arc::clone(&state.cluster.pods()[pod]);
    if pod_info.pod.metadata.deletion_timestamp.is_some() {
        let message = format!("skip schedule deleting pod: {}", pod_info.full_name);
        let mut trace = empty_trace(state, pod);
        trace.message = Some(message.clone());
        out.events
            .push(event(state, true, "FailedScheduling", pod, message, cycle));
        out.cycle = Some(trace);
        return;
    }
    let Some(profile) = config.profile(pod_info.pod.scheduler_name()) else {
        // Only pods of a profile are queued.
        out.cycle = Some(empty_trace(state, pod));
        return;
    };
    let nominations = nominations_by_node(state);
    let nominated = state.pods[pod]
        .nominated
        .as_deref()
        .and_then(|n| state.cluster.node_index().get(n).copied());
    let extenders = extender_caller(setup, detail);
    let input = crate::v135::cycle::CycleInput {
        cluster: &state.cluster,
        order: &state.order,
        pod,
        nominations: &nominations,
        nominated,
        detail,
        extenders: extenders.as_ref(),
    };
    let mut result = crate::v135::cycle::schedule_pod(
        profile,
        config.percentage_of_nodes_to_score,
        &mut state.scheduler,
        &input,
    );
    let mut trace = std::mem::replace(&mut result.trace, CycleTrace::new(pod, 0, 0));
    trace.time = state.now.as_secs_f64();
    trace.node_names = Arc::clone(&state.node_names);
    match (trace.outcome, trace.node) {
        (Outcome::Scheduled, Some(node)) => {
            super::dra::assume(state, profile, &result, pod, node);
            assume(state, setup, info, node, cycle, &mut trace);
        }
        _ => {
            if result.fit_error {
                let never = super::preempt::preemption_policy_never(state, pod);
                let now = state.now;
                let post = {
                    let State {
                        cluster,
                        order,
                        pods,
                        scheduler,
                        ..
                    } = &mut *state;
                    let start = |p: PodId| pods[p].start_time.unwrap_or(StartTime::Virtual(now));
                    let terminating = |p: PodId| pods[p].terminating;
                    let facts = crate::v135::preemption::PodFacts {
                        start: &start,
                        terminating: &terminating,
                        preemption_never: never,
                    };
                    let cx = crate::v135::plugin::Cx {
                        cluster,
                        pod: &cluster.pods()[pod],
                        order,
                    };
                    crate::v135::preemption::run_post_filter(
                        profile,
                        &cx,
                        &result,
                        &nominations,
                        nominated,
                        &mut scheduler.rng,
                        &facts,
                        extenders.as_ref(),
                    )
                };
                trace.extenders.extend(post.extender_calls.iter().cloned());
                if let Some((ns, name)) = &post.dra_deallocate {
                    let changed: Vec<_> = super::dra::deallocate(state, ns, name)
                        .into_iter()
                        .collect();
                    let _ = super::dra::claim_events(state, true, &changed);
                }
                if !post.message.is_empty() {
                    let m = trace.message.get_or_insert_with(String::new);
                    m.push(' ');
                    m.push_str(&post.message);
                }
                if let Some(m) = trace.modern.as_mut() {
                    m.post_filter = post.statuses;
                }
                if let Some(mut p) = post.preemption {
                    if let Some(chosen) = p.chosen().cloned() {
                        let preemptor = &state.cluster.pods()[pod];
                        let by = match preemptor.pod.metadata.uid.as_str() {
                            "" => format!("pod {}", preemptor.full_name),
                            uid => format!("pod {uid}"),
                        };
                        super::preempt::act_on(
                            state,
                            pod,
                            &chosen,
                            &by,
                            cycle,
                            &mut out.events,
                            &mut p,
                        );
                    } else if post.clear_nomination && state.pods[pod].nominated.is_some() {
                        super::preempt::clear_nomination(state, pod);
                        p.cleared_nominations.push(pod);
                    }
                    trace.preemption = Some(Box::new(p));
                }
            }
            let rejectors: Vec<&'static str> = result
                .diagnosis
                .unschedulable_plugins
                .iter()
                .copied()
                .collect();
            record_failure_v135(state, info, rejectors, cycle, &trace, out);
        }
    }
    out.cycle = Some(trace);
}

/// A failed v1.35 cycle: the event and condition as [`record_failure`], and the pod back in
/// the queue with the plugins that rejected it (none for an error: error backoff).
fn record_failure_v135(
    state: &mut State,
    info: QueuedPodInfo,
    rejectors: Vec<&'static str>,
    cycle: usize,
    trace: &CycleTrace,
    out: &mut StepOutput,
) {
    let (reason, rejectors) = match trace.outcome {
        Outcome::Unschedulable => (REASON_UNSCHEDULABLE, rejectors),
        _ => (REASON_SCHEDULER_ERROR, Vec::new()),
    };
    report_failure(state, info.pod, cycle, trace, reason, out);
    let _ = state
        .queue
        .add_unschedulable_v135(info, rejectors, false, state.now);
}

fn empty_trace(state: &State, pod: PodId) -> CycleTrace {
    let mut t = CycleTrace::new(
        pod,
        state.order.len(),
        state.scheduler.next_start_node_index,
    );
    t.time = state.now.as_secs_f64();
    t.node_names = Arc::clone(&state.node_names);
    t
}

/// The binding cycle's end: `Scheduled`, or a failure that forgets and requeues the pod.
/// `detail`: the binder extender's call is kept in the step.
fn complete_binding(
    state: &mut State,
    setup: &Setup,
    b: Binding,
    out: &mut StepOutput,
    detail: bool,
) {
    let pod = b.info.pod;
    let node = state.cluster.pod_node()[pod];
    let percent = setup.timeline.bind_failure_percent;
    // Draw for every binding when a failure rate is set, so the draws do not depend on
    // `failBinding` faults.
    let drawn = percent > 0.0
        && (state.fault_rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 100.0 < percent;
    let mut calls = Vec::new();
    // The FailedScheduling message of a failed binding: recordSchedulingFailure's
    // "Binding rejected: ..."; v1.35 reports a binder extender's error as it is.
    let rejected = |e: String| format!("Binding rejected: {e}");
    let failure = if node.is_none() {
        Some(rejected(format!("nodes {:?} not found", b.node)))
    } else if std::mem::take(&mut state.pods[pod].fail_next_binding) {
        Some(rejected("injected fault (failBinding)".to_string()))
    } else if drawn {
        Some(rejected(format!(
            "injected fault (bindFailurePercent {percent})"
        )))
    } else {
        // extendersBinding: a binder extender interested in the pod binds it.
        let info = Arc::clone(&state.cluster.pods()[pod]);
        let caller = extender_caller(setup, detail);
        match caller.and_then(|c| c.bind(&info, &b.node, &mut calls)) {
            Some(Err(e)) => Some(match &*setup.scheduler {
                Scheduler::V135(_) => e,
                Scheduler::V117(_) => rejected(e),
            }),
            _ => None,
        }
    };
    if detail {
        out.step.extender = calls.pop().map(Box::new);
    }
    match failure {
        None => {
            let p = &mut state.pods[pod];
            p.phase = PodPhase::Bound;
            p.start_time = Some(StartTime::Virtual(state.now));
            p.condition = Some(Arc::clone(&setup.scheduled));
            let name = &state.cluster.pods()[pod].full_name;
            let message = format!("Successfully assigned {name} to {}", b.node);
            out.events
                .push(event(state, false, "Scheduled", pod, message, b.cycle));
            out.step.kind = StepKind::Bound {
                pod,
                node: b.node.clone(),
            };
            let changed = super::dra::bound(state, pod, true);
            let v135 = matches!(&*setup.scheduler, Scheduler::V135(_));
            let mut report = super::dra::claim_events(state, v135, &changed);
            merge(&mut report, assigned_pod_added(state, setup, pod));
            set_moves(&mut out.step, report);
        }
        Some(message) => {
            // ForgetPod, then recordSchedulingFailure(SchedulerError, message).
            let _ = super::dra::bound(state, pod, false);
            state.cluster.unbind(pod);
            state.pods[pod].phase = PodPhase::Pending;
            state.pods[pod].condition = Some(Arc::new(PodScheduledCondition {
                status: false,
                reason: REASON_SCHEDULER_ERROR,
                message: message.clone(),
            }));
            out.events.push(event(
                state,
                true,
                "FailedScheduling",
                pod,
                message,
                b.cycle,
            ));
            out.step.kind = StepKind::BindFailed { pod };
            let nominated = state.cluster.pods()[pod]
                .pod
                .status
                .nominated_node_name
                .clone();
            match &*setup.scheduler {
                Scheduler::V117(_) => {
                    let cycle = state.queue.scheduling_cycle();
                    let _ = state.queue.add_unschedulable_if_not_present(
                        b.info,
                        cycle,
                        nominated.as_deref(),
                        state.now,
                    );
                }
                // A binding error has no rejector plugin: error backoff.
                Scheduler::V135(_) => {
                    let _ =
                        state
                            .queue
                            .add_unschedulable_v135(b.info, Vec::new(), false, state.now);
                }
            }
        }
    }
}

/// A cluster event reaching the queue: v1.17's move rules, or v1.35's QueueingHints of each
/// unschedulable pod's rejector plugins ([`crate::v135::queueing`]).
fn cluster_event(
    state: &mut State,
    setup: &Setup,
    legacy: InformerEvent,
    change: ClusterChange,
) -> MoveReport {
    let Scheduler::V135(config) = &*setup.scheduler else {
        return state.queue.on_cluster_event(legacy, state.now, |_| false);
    };
    let event = match legacy {
        InformerEvent::NodeAdd => ClusterEvent::NodeAdd,
        InformerEvent::NodeUpdate(c) => match c.event() {
            Some(e) => e,
            None => {
                return MoveReport {
                    event: None,
                    moved: Vec::new(),
                }
            }
        },
        InformerEvent::AssignedPodAdd => ClusterEvent::AssignedPodAdd,
        InformerEvent::AssignedPodDelete => ClusterEvent::AssignedPodDelete,
        _ => ClusterEvent::Unknown,
    };
    let cluster = &state.cluster;
    state
        .queue
        .move_with_hints(event, state.now, |pod, rejectors| {
            crate::v135::queueing::may_help(
                config,
                &change,
                &cluster.pods()[pod],
                rejectors,
                cluster,
            )
        })
}

/// The informer's assigned-pod add: v1.17's `AssignedPodAdded` moves the unschedulable pods
/// whose required pod-affinity terms match the new pod (a move request either way); v1.35
/// asks the QueueingHints.
fn assigned_pod_added(state: &mut State, setup: &Setup, pod: PodId) -> MoveReport {
    if let Scheduler::V135(_) = &*setup.scheduler {
        return cluster_event(
            state,
            setup,
            InformerEvent::AssignedPodAdd,
            ClusterChange::PodAdd(pod),
        );
    }
    if !setup.any_required_affinity {
        return state.queue.note_move_request(ClusterEvent::AssignedPodAdd);
    }
    let cluster = &state.cluster;
    let added = &cluster.pods()[pod];
    state
        .queue
        .on_cluster_event(InformerEvent::AssignedPodAdd, state.now, |p| {
            let waiting = &cluster.pods()[p];
            waiting.pod.pod_affinity().is_some_and(|a| {
                a.required_during_scheduling_ignored_during_execution
                    .iter()
                    .any(|t| term_matches(t, &waiting.namespace, added))
            })
        })
}

/// What changed between two versions of a node (`nodeSchedulingPropertiesChange`'s inputs).
fn node_change(old: &Node, new: &Node) -> NodeChange {
    NodeChange {
        became_schedulable: old.spec.unschedulable && !new.spec.unschedulable,
        allocatable: old.allocatable() != new.allocatable(),
        labels: old.metadata.labels != new.metadata.labels,
        taints: old.spec.taints != new.spec.taints,
        // Node conditions are not read (they do not filter in v1.17).
        conditions: false,
    }
}

/// Replaces a node and makes the queue move it as an informer node update would.
fn update_node(
    state: &mut State,
    setup: &Setup,
    name: &str,
    edit: impl FnOnce(&mut Node),
) -> MoveReport {
    let Some(&id) = state.cluster.node_index().get(name) else {
        return MoveReport {
            event: None,
            moved: Vec::new(),
        };
    };
    let old = state.cluster.nodes()[id].object().clone();
    let mut new = old.clone();
    edit(&mut new);
    let change = node_change(&old, &new);
    state.cluster.update_node(id, new);
    refresh_nodes(state);
    let id = state.cluster.node_index().get(name).copied().unwrap_or(id);
    cluster_event(
        state,
        setup,
        InformerEvent::NodeUpdate(change),
        ClusterChange::NodeUpdate {
            node: id,
            change,
            old: &old,
        },
    )
}

/// Deletes a pod wherever it is. Returns whether it was on a node (assigned).
pub(super) fn delete_pod(state: &mut State, pod: PodId) -> bool {
    let was_assigned = match state.pods[pod].phase {
        PodPhase::Bound => {
            let changed = super::dra::released(state, pod);
            state.cluster.unbind(pod);
            let _ = super::dra::claim_events(state, true, &changed);
            true
        }
        PodPhase::Assumed(_) => {
            // The binding in flight is dropped with the pod; the cache forgets it.
            state.bindings.retain(|_, b| b.info.pod != pod);
            state.cluster.unbind(pod);
            false
        }
        PodPhase::Pending => false,
        PodPhase::Deleted => return false,
    };
    state.queue.delete(pod);
    state.pods[pod].phase = PodPhase::Deleted;
    state.pods[pod].terminating = false;
    was_assigned
}

/// Adds a pod created by the timeline; it gets the id the scenario resolved for it.
fn create_pod(
    state: &mut State,
    setup: &Setup,
    pod: crate::model::Pod,
    expected: PodId,
) -> MoveReport {
    let priority = pod.spec.priority.unwrap_or(0);
    let index = state.cluster.pods().len();
    let node = (!pod.spec.node_name.is_empty())
        .then(|| state.cluster.node_index().get(&pod.spec.node_name).copied())
        .flatten();
    let ours = setup.scheduler.owns(&pod);
    let nominated = pod.status.nominated_node_name.clone();
    let info = setup.scheduler.pod_info(pod, priority, index);
    let mut pod_state = initial_pod_state(&info, node.is_some());
    let id = state.cluster.add_pod(info);
    debug_assert_eq!(id, expected, "timeline pod ids are resolved at load");
    match node {
        Some(node) => {
            state.cluster.bind(id, node);
            pod_state
                .start_time
                .get_or_insert(StartTime::Virtual(state.now));
            state.pods.push(pod_state);
            assigned_pod_added(state, setup, id)
        }
        None => {
            state.pods.push(pod_state);
            if ours {
                super::enqueue(
                    &mut state.queue,
                    &state.cluster,
                    &setup.scheduler,
                    id,
                    nominated.as_deref(),
                    state.now,
                );
            }
            MoveReport {
                event: None,
                moved: Vec::new(),
            }
        }
    }
}

fn merge(into: &mut MoveReport, more: MoveReport) {
    if more.event.is_some() {
        into.event = more.event;
    }
    into.moved.extend(more.moved);
}

/// Applies timeline change `index`.
fn apply_change(state: &mut State, setup: &Setup, index: usize) -> MoveReport {
    let none = MoveReport {
        event: None,
        moved: Vec::new(),
    };
    let pods = &setup.change_pods[index];
    match &setup.timeline.changes[index].change {
        Change::AddNode(node) => {
            let id = state.cluster.add_node(node.clone());
            refresh_nodes(state);
            cluster_event(
                state,
                setup,
                InformerEvent::NodeAdd,
                ClusterChange::NodeAdd(id),
            )
        }
        Change::UpdateNode(node) => {
            let new = node.clone();
            update_node(state, setup, &node.metadata.name, |n| *n = new)
        }
        Change::CordonNode(name) => {
            update_node(state, setup, name, |n| n.spec.unschedulable = true)
        }
        Change::UncordonNode(name) => {
            update_node(state, setup, name, |n| n.spec.unschedulable = false)
        }
        Change::SetNodeLabels {
            node,
            labels,
            remove,
        } => update_node(state, setup, node, |n| {
            for (k, v) in labels {
                n.metadata.labels.insert(k.clone(), v.clone());
            }
            for k in remove {
                n.metadata.labels.remove(k);
            }
        }),
        Change::SetNodeTaints { node, taints } => {
            update_node(state, setup, node, |n| n.spec.taints = taints.clone())
        }
        Change::DeleteNode(name) => {
            let Some(&id) = state.cluster.node_index().get(name) else {
                return none;
            };
            // Pods bound there are deleted with the node; assumed ones fail their binding.
            let on_node = state.cluster.nodes()[id].pods().to_vec();
            // The last assigned pod deleted stands for the event (one move for all of them).
            let mut deleted_assigned = None;
            for p in on_node {
                if state.pods[p].phase == PodPhase::Bound && delete_pod(state, p) {
                    deleted_assigned = Some(p);
                }
            }
            state.cluster.remove_node(id);
            for p in &mut state.pods {
                if let PodPhase::Assumed(n) = p.phase {
                    if n > id {
                        p.phase = PodPhase::Assumed(n - 1);
                    }
                }
            }
            refresh_nodes(state);
            match deleted_assigned {
                Some(pod) => cluster_event(
                    state,
                    setup,
                    InformerEvent::AssignedPodDelete,
                    ClusterChange::PodDelete(pod),
                ),
                None => none,
            }
        }
        Change::CreatePod(pod) => create_pod(state, setup, pod.as_ref().clone(), pods[0].0),
        Change::CreatePods { template, .. } => {
            let mut report = none;
            for (id, name) in pods {
                let mut pod = template.as_ref().clone();
                pod.metadata.name = name.clone();
                let r = create_pod(state, setup, pod, *id);
                merge(&mut report, r);
            }
            report
        }
        change @ (Change::ApplyDra(_) | Change::DeleteDra { .. }) => {
            let v135 = matches!(&*setup.scheduler, Scheduler::V135(_));
            super::dra::apply_object_change(state, v135, change)
        }
        Change::DeletePod(_) => {
            if delete_pod(state, pods[0].0) {
                cluster_event(
                    state,
                    setup,
                    InformerEvent::AssignedPodDelete,
                    ClusterChange::PodDelete(pods[0].0),
                )
            } else {
                none
            }
        }
        Change::FailBinding(_) => {
            state.pods[pods[0].0].fail_next_binding = true;
            none
        }
    }
}
