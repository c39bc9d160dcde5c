//! `genericScheduler.Preempt` of kube-scheduler v1.17 (reference `queue-preemption.md` C.2–C.5):
//! which nodes preemption might help, the minimal victims on each, and the one node chosen.
//!
//! The caller (the simulation) checks `podEligibleToPreemptOthers`, then acts on the decision
//! (nomination, victims' graceful deletion, lower-priority nominations cleared).
//!
//! Deviations, stated:
//! - Candidates are examined in the cycle's node order, one after another; upstream examines
//!   them in parallel and walks a map, so "the first" node (a node without victims, or the last
//!   tie-break) is random there and the first in node order here.
//! - When a filter's `pre_filter` reads pods of other nodes (inter-pod affinity, spreading,
//!   service affinity), the victims are taken off the real cache and `pre_filter` runs again
//!   (upstream updates the plugin state with `RemovePod`/`AddPod`); the pods are put back
//!   afterwards, at the end of their node's list.

use super::runner::{FailedNodes, NodeChecker, Nomination};
use super::{CycleError, Profile};
use crate::cluster::{Cluster, NodeId, PodId};
use crate::queue::Millis;

/// When a pod started, for `MoreImportantPod` and the start-time criterion. Start times given
/// in the input (`status.startTime`) all lie before the simulation's t = 0 and keep their order;
/// pods the simulation binds start at a virtual time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StartTime {
    /// An input `status.startTime`: seconds and nanoseconds since the Unix epoch.
    Input(i64, u32),
    /// A virtual time of the simulation.
    Virtual(Millis),
}

/// One node where preemption would make room, with its minimal victims.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The node.
    pub node: NodeId,
    /// The victims: those that would violate a PodDisruptionBudget first, then the others,
    /// each group most important first.
    pub victims: Vec<PodId>,
    /// How many victims violate a PodDisruptionBudget.
    pub pdb_violations: usize,
}

/// The criterion of `pickOneNodeForPreemption` that chose the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Criterion {
    /// The only candidate.
    OnlyCandidate,
    /// 1. A node that needs no victims.
    NoVictims,
    /// 2. The fewest PodDisruptionBudget violations.
    FewestPdbViolations,
    /// 3. The lowest priority of the highest-priority victim.
    LowestHighestPriorityVictim,
    /// 4. The lowest sum of victim priorities.
    LowestPrioritySum,
    /// 5. The fewest victims.
    FewestVictims,
    /// 6. The latest start time of the highest-priority victims.
    LatestStartTime,
    /// 7. The first remaining node.
    First,
}

impl Criterion {
    /// The report spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Criterion::OnlyCandidate => "onlyCandidate",
            Criterion::NoVictims => "noVictims",
            Criterion::FewestPdbViolations => "fewestPDBViolations",
            Criterion::LowestHighestPriorityVictim => "lowestHighestPriorityVictim",
            Criterion::LowestPrioritySum => "lowestPrioritySum",
            Criterion::FewestVictims => "fewestVictims",
            Criterion::LatestStartTime => "latestStartTime",
            Criterion::First => "first",
        }
    }
}

/// The chosen candidate, the criterion that chose it, and the candidate it beat at that step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick {
    /// Index into the candidates.
    pub chosen: usize,
    /// The deciding criterion.
    pub decided_by: Criterion,
    /// The best of the candidates the deciding criterion ruled out (for the explanation).
    pub runner_up: Option<usize>,
}

/// `nodesWherePreemptionMightHelp` (v1.17): every node except those whose failure reasons
/// include an unresolvable one. Returns the potential nodes in `order` and how many were
/// skipped.
pub fn nodes_where_preemption_might_help(
    order: &[NodeId],
    failed: &FailedNodes,
) -> (Vec<NodeId>, usize) {
    let mut unresolvable = vec![false; order.iter().max().map_or(0, |m| m + 1)];
    for (node, reasons) in failed {
        if reasons.iter().any(|r| r.is_unresolvable()) {
            if let Some(u) = unresolvable.get_mut(*node) {
                *u = true;
            }
        }
    }
    let potential: Vec<NodeId> = order
        .iter()
        .copied()
        .filter(|&n| !unresolvable[n])
        .collect();
    let skipped = order.len() - potential.len();
    (potential, skipped)
}

/// `util.MoreImportantPod` as a sort key: higher priority first, then the earlier start.
fn importance(
    cluster: &Cluster,
    start: &dyn Fn(PodId) -> StartTime,
    p: PodId,
) -> (std::cmp::Reverse<i32>, StartTime) {
    (std::cmp::Reverse(cluster.pods[p].priority), start(p))
}

/// v1.17 `filterPodsWithPDBViolation`: a pod is violating when a PodDisruptionBudget covering it
/// allows no disruption (no per-call budget accounting in v1.17).
fn violates_pdb(cluster: &Cluster, p: PodId) -> bool {
    let info = &cluster.pods[p];
    cluster
        .pdbs
        .iter()
        .any(|b| b.covers(&info.namespace, info.labels()) && b.status.disruptions_allowed <= 0)
}

/// `selectNodesForPreemption`: the candidates among `potential` nodes, in that order. The
/// cluster is changed while a node is examined (see the module docs) and restored after.
pub fn select_nodes_for_preemption(
    profile: &Profile,
    cluster: &mut Cluster,
    potential: &[NodeId],
    pod: PodId,
    nominations: &[Nomination],
    start: &dyn Fn(PodId) -> StartTime,
) -> Result<Vec<Candidate>, CycleError> {
    let checker = NodeChecker::new(profile, cluster, pod)?;
    let slow = checker.reads_other_pods();
    let priority = cluster.pods[pod].priority;
    let mut scratch: Option<crate::cluster::NodeInfo> = None;
    let mut out = Vec::with_capacity(potential.len());
    for &node in potential {
        // With nothing to remove the node is as the failed cycle saw it: it still fails.
        if !cluster.nodes[node]
            .pods
            .iter()
            .any(|&p| cluster.pods[p].priority < priority)
        {
            continue;
        }
        let found = if slow {
            victims_changing_the_cache(profile, cluster, node, pod, nominations, start)?
        } else {
            let info = match &mut scratch {
                Some(info) => {
                    info.clone_from(&cluster.nodes[node]);
                    info
                }
                None => scratch.insert(cluster.nodes[node].clone()),
            };
            victims_on_a_copy(&checker, cluster, info, pod, nominations, start)?
        };
        if let Some((victims, pdb_violations)) = found {
            out.push(Candidate {
                node,
                victims,
                pdb_violations,
            });
        }
    }
    Ok(out)
}

/// The lower-priority pods on `node`, most important first, split into PDB-violating and
/// other pods (stable).
fn potential_victims(
    cluster: &Cluster,
    node: NodeId,
    pod: PodId,
    start: &dyn Fn(PodId) -> StartTime,
) -> (Vec<PodId>, Vec<PodId>, Vec<PodId>) {
    let priority = cluster.pods[pod].priority;
    let all: Vec<PodId> = cluster.nodes[node]
        .pods
        .iter()
        .copied()
        .filter(|&p| cluster.pods[p].priority < priority)
        .collect();
    let mut sorted = all.clone();
    sorted.sort_by_key(|&p| importance(cluster, start, p));
    let (violating, other) = sorted.into_iter().partition(|&p| violates_pdb(cluster, p));
    (all, violating, other)
}

/// `selectVictimsOnNode` on a copy of the node (filters whose state does not depend on other
/// nodes' pods).
fn victims_on_a_copy(
    checker: &NodeChecker,
    cluster: &Cluster,
    info: &mut crate::cluster::NodeInfo,
    pod: PodId,
    nominations: &[Nomination],
    start: &dyn Fn(PodId) -> StartTime,
) -> Result<Option<(Vec<PodId>, usize)>, CycleError> {
    let (_, violating, other) = potential_victims(cluster, info.id, pod, start);
    let priority = cluster.pods[pod].priority;
    info.retain_pods(&cluster.pods, |p| cluster.pods[p].priority >= priority);
    if !checker.fits(cluster, info, nominations)? {
        return Ok(None);
    }
    let mut victims = Vec::new();
    let mut violations = 0;
    for (group, violating) in [(violating, true), (other, false)] {
        for p in group {
            info.add_pod(p, &cluster.pods[p]);
            if !checker.fits(cluster, info, nominations)? {
                info.remove_pod(p, &cluster.pods);
                victims.push(p);
                violations += usize::from(violating);
            }
        }
    }
    Ok(Some((victims, violations)))
}

/// `selectVictimsOnNode` on the cache itself, re-running `pre_filter` after each change; the
/// pods are bound back before returning.
fn victims_changing_the_cache(
    profile: &Profile,
    cluster: &mut Cluster,
    node: NodeId,
    pod: PodId,
    nominations: &[Nomination],
    start: &dyn Fn(PodId) -> StartTime,
) -> Result<Option<(Vec<PodId>, usize)>, CycleError> {
    let (all, violating, other) = potential_victims(cluster, node, pod, start);
    for &p in &all {
        cluster.unbind(p);
    }
    let fits = |cluster: &Cluster| -> Result<bool, CycleError> {
        let checker = NodeChecker::new(profile, cluster, pod)?;
        checker.fits(cluster, &cluster.nodes[node], nominations)
    };
    let result = (|| {
        if !fits(cluster)? {
            return Ok(None);
        }
        let mut victims = Vec::new();
        let mut violations = 0;
        for (group, violating) in [(violating, true), (other, false)] {
            for p in group {
                cluster.bind(p, node);
                if !fits(cluster)? {
                    cluster.unbind(p);
                    victims.push(p);
                    violations += usize::from(violating);
                }
            }
        }
        Ok(Some((victims, violations)))
    })();
    // Put back every pod still off the node.
    for &p in &all {
        if cluster.pod_node[p].is_none() {
            cluster.bind(p, node);
        }
    }
    result
}

/// `pickOneNodeForPreemption` (C.5), deterministic: "first" is the first in candidate order.
pub fn pick_one_node_for_preemption(
    candidates: &[Candidate],
    cluster: &Cluster,
    start: &dyn Fn(PodId) -> StartTime,
) -> Option<Pick> {
    if candidates.is_empty() {
        return None;
    }
    if let Some(i) = candidates.iter().position(|c| c.victims.is_empty()) {
        return Some(Pick {
            chosen: i,
            decided_by: Criterion::NoVictims,
            runner_up: None,
        });
    }
    if candidates.len() == 1 {
        return Some(Pick {
            chosen: 0,
            decided_by: Criterion::OnlyCandidate,
            runner_up: None,
        });
    }
    let priority = |p: PodId| i64::from(cluster.pods[p].priority);
    // Criteria 2–5, each lower is better: PDB violations, the first victim's priority, the sum
    // of (priority + 2^31) over the victims, the number of victims.
    let criteria = [
        Criterion::FewestPdbViolations,
        Criterion::LowestHighestPriorityVictim,
        Criterion::LowestPrioritySum,
        Criterion::FewestVictims,
    ];
    let keys: Vec<[i64; 4]> = candidates
        .iter()
        .map(|c| {
            [
                c.pdb_violations as i64,
                priority(c.victims[0]),
                c.victims
                    .iter()
                    .map(|&p| priority(p) + i64::from(i32::MAX) + 1)
                    .sum(),
                c.victims.len() as i64,
            ]
        })
        .collect();
    let mut set: Vec<usize> = (0..candidates.len()).collect();
    for (k, criterion) in criteria.into_iter().enumerate() {
        let best = set.iter().map(|&i| keys[i][k]).min()?;
        let (kept, ruled_out): (Vec<usize>, Vec<usize>) =
            set.iter().partition(|&&i| keys[i][k] == best);
        if kept.len() == 1 {
            let runner_up = ruled_out.iter().copied().min_by_key(|&i| (keys[i][k], i));
            return Some(Pick {
                chosen: kept[0],
                decided_by: criterion,
                runner_up,
            });
        }
        set = kept;
    }
    // 6: the latest of the earliest start times among each node's highest-priority victims.
    let earliest = |c: &Candidate| {
        let top = priority(c.victims[0]);
        c.victims
            .iter()
            .filter(|&&p| priority(p) == top)
            .map(|&p| start(p))
            .min()
    };
    let mut chosen = set[0];
    let mut latest = earliest(&candidates[chosen]);
    for &i in &set[1..] {
        let t = earliest(&candidates[i]);
        if t > latest {
            latest = t;
            chosen = i;
        }
    }
    let others: Vec<usize> = set.iter().copied().filter(|&i| i != chosen).collect();
    let strictly_latest = others.iter().all(|&i| earliest(&candidates[i]) < latest);
    let runner_up = others
        .iter()
        .copied()
        .max_by_key(|&i| (earliest(&candidates[i]), std::cmp::Reverse(i)));
    Some(Pick {
        chosen,
        decided_by: if strictly_latest {
            Criterion::LatestStartTime
        } else {
            Criterion::First
        },
        runner_up,
    })
}
