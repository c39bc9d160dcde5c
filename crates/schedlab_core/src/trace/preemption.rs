//! Preemption in plain words: why a node was chosen, against which other node, by which of
//! `pickOneNodeForPreemption`'s criteria.

use super::{CycleTrace, PreemptionTrace};
use crate::cluster::{Cluster, PodId};
use crate::sched::victims::{Candidate, Criterion};

fn names(cluster: &Cluster, pods: &[PodId]) -> String {
    pods.iter()
        .map(|&p| cluster.pods()[p].full_name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn highest(cluster: &Cluster, c: &Candidate) -> i32 {
    cluster.pods()[c.victims[0]].priority
}

fn priority_sum(cluster: &Cluster, c: &Candidate) -> i64 {
    c.victims
        .iter()
        .map(|&p| i64::from(cluster.pods()[p].priority))
        .sum()
}

/// Why `chosen` won, compared with `other` when the criterion had one to rule out.
fn why(cluster: &Cluster, trace: &CycleTrace, p: &PreemptionTrace) -> String {
    let pick = p.pick.expect("called with a pick");
    let c = &p.candidates[pick.chosen];
    let other = pick.runner_up.map(|i| &p.candidates[i]);
    let on = |c: &Candidate| trace.node_name(cluster, c.node).to_string();
    match (pick.decided_by, other) {
        (Criterion::OnlyCandidate, _) => {
            "it is the only node where removing lower-priority pods makes room".to_string()
        }
        (Criterion::NoVictims, _) => "the pod fits there without evicting anyone".to_string(),
        (Criterion::FewestPdbViolations, Some(o)) => format!(
            "its victims violate {} PodDisruptionBudget(s), {}'s would violate {}",
            c.pdb_violations,
            on(o),
            o.pdb_violations
        ),
        (Criterion::LowestHighestPriorityVictim, Some(o)) => format!(
            "its highest victim has priority {}, {}'s has {}",
            highest(cluster, c),
            on(o),
            highest(cluster, o)
        ),
        (Criterion::LowestPrioritySum, Some(o)) => format!(
            "its victims' priorities sum to {}, {}'s to {}",
            priority_sum(cluster, c),
            on(o),
            priority_sum(cluster, o)
        ),
        (Criterion::FewestVictims, Some(o)) => format!(
            "it needs {} victim(s), {} needs {}",
            c.victims.len(),
            on(o),
            o.victims.len()
        ),
        (Criterion::LatestStartTime, Some(o)) => format!(
            "its highest-priority victims started later than {}'s, so less work is lost",
            on(o)
        ),
        (Criterion::First, Some(o)) => format!(
            "it ties with {} on every criterion and comes first in node order",
            on(o)
        ),
        (criterion, None) => format!("decided by {}", criterion.as_str()),
    }
}

/// The explanation of a cycle's preemption attempt, if it made one.
pub(crate) fn explain_preemption(cluster: &Cluster, trace: &CycleTrace) -> Option<String> {
    let p = trace.preemption.as_deref()?;
    let pod = &cluster.pods()[trace.pod].full_name;
    if let Some(why) = &p.not_eligible {
        return Some(format!("Preemption: {pod} may not preempt: {why}."));
    }
    if p.potential == 0 {
        return Some(if trace.modern.is_some() {
            // v1.35: only nodes whose status is Unschedulable are tried.
            format!(
                "Preemption cannot help: every node's status is UnschedulableAndUnresolvable \
                 (node selector or affinity, taints, cordon, volumes, devices for resource \
                 claims, or a request larger than the node: {} node(s)).",
                p.skipped_unresolvable
            )
        } else {
            format!(
                "Preemption cannot help: every node failed for a reason that evicting pods does \
                 not fix (node selector, taints, cordon, volumes: {} node(s)).",
                p.skipped_unresolvable
            )
        });
    }
    let Some(chosen) = p.chosen() else {
        return Some(format!(
            "Preemption found no node: even without its lower-priority pods, {pod} fits none of \
             the {} node(s) where preemption might help.",
            p.potential
        ));
    };
    let node = trace.node_name(cluster, chosen.node);
    let mut out = format!("Preemption: {node} chosen: {}.", why(cluster, trace, p));
    if chosen.victims.is_empty() {
        out.push_str(" No pod is evicted.");
    } else {
        out.push_str(&format!(
            " Victims (Preempted, deleted after their grace period): {}.",
            names(cluster, &chosen.victims)
        ));
    }
    out.push_str(&format!(
        " {pod} is nominated to {node} and is retried once room is free."
    ));
    let others: Vec<PodId> = p
        .cleared_nominations
        .iter()
        .copied()
        .filter(|&q| q != trace.pod)
        .collect();
    if !others.is_empty() {
        out.push_str(&format!(
            " Lower-priority pods lose their nomination to {node}: {}.",
            names(cluster, &others)
        ));
    }
    Some(out)
}
