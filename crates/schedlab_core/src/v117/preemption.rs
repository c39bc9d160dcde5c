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
//!
//! Speed, with the same decisions: a candidate node is examined on a copy holding only its
//! higher-priority pods (`NodeInfo::copy_keeping`); nominated pods and reprieves that do not
//! fit are added to that copy and undone (`NodeInfo::mark`/`undo_add`); priorities and plain
//! pods' requests are read from the cluster's dense arrays. The copy path and the path that
//! changes the cache agree on random clusters (the tests below).

use super::cycle::NodeChecker;
use super::{Algorithm, CycleError};
use crate::cluster::{Cluster, NodeId, NodeInfo, PodId};
use crate::sched::fit_error::FailedNodes;
use crate::sched::nominations::Nominations;
use crate::sched::victims::{Candidate, StartTime, Victims};

/// `nodesWherePreemptionMightHelp` (v1.17): every node except those whose failure reasons
/// include an unresolvable one. Returns the potential nodes in `order` and how many were
/// skipped.
pub(crate) fn nodes_where_preemption_might_help(
    order: &[NodeId],
    failed: &FailedNodes,
) -> (Vec<NodeId>, usize) {
    let mut unresolvable = vec![false; order.iter().max().map_or(0, |m| m + 1)];
    for (node, reasons) in failed.iter() {
        if reasons.iter().any(|r| r.is_unresolvable()) {
            if let Some(u) = unresolvable.get_mut(node) {
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
    start: &impl Fn(PodId) -> StartTime,
    p: PodId,
) -> (std::cmp::Reverse<i32>, u128) {
    (std::cmp::Reverse(cluster.priority(p)), start(p).order_key())
}

/// v1.17 `filterPodsWithPDBViolation`: a pod is violating when a PodDisruptionBudget covering it
/// allows no disruption (no per-call budget accounting in v1.17).
fn violates_pdb(cluster: &Cluster, p: PodId) -> bool {
    let info = &cluster.pods()[p];
    cluster
        .pdbs()
        .iter()
        .any(|b| b.covers(&info.namespace, info.labels()) && b.status.disruptions_allowed <= 0)
}

/// `selectNodesForPreemption`: the candidates among `potential` nodes, in that order. The
/// cluster is changed while a node is examined (see the module docs) and restored after.
pub(crate) fn select_nodes_for_preemption(
    algorithm: &Algorithm,
    cluster: &mut Cluster,
    potential: &[NodeId],
    pod: PodId,
    nominations: &Nominations,
    start: &impl Fn(PodId) -> StartTime,
) -> Result<Vec<Candidate>, CycleError> {
    let checker = NodeChecker::new(algorithm, cluster, pod)?;
    let slow = checker.reads_other_pods();
    let priority = cluster.priority(pod);
    let mut scratch = Scratch::default();
    let mut out = Vec::with_capacity(potential.len());
    for &node in potential {
        // With nothing to remove the node is as the failed cycle saw it: it still fails.
        if !cluster.nodes()[node]
            .pods()
            .iter()
            .any(|&p| cluster.priority(p) < priority)
        {
            continue;
        }
        let found = if slow {
            victims_changing_the_cache(algorithm, cluster, node, pod, nominations, start)?
        } else {
            let s = &mut scratch;
            victims_on_a_copy(&checker, cluster, node, pod, nominations, start, s)?
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

/// What [`victims_on_a_copy`] reuses from node to node.
#[derive(Default)]
struct Scratch {
    /// The copy of the node being examined.
    node: Option<NodeInfo>,
    /// The node's lower-priority pods.
    lower: Vec<PodId>,
    /// Their sort keys.
    keys: Vec<VictimKey>,
}

/// A potential victim's place in `potential_victims`' order: its importance, then its place
/// on the node (the sort is stable).
type VictimKey = ((std::cmp::Reverse<i32>, u128), PodId);

/// The lower-priority pods on `node`, most important first, into `out`: those that would
/// violate a PodDisruptionBudget first, then the others (each group in that order). Returns how
/// many violate. `keys` is scratch space.
fn potential_victims(
    cluster: &Cluster,
    node: NodeId,
    pod: PodId,
    start: &impl Fn(PodId) -> StartTime,
    out: &mut Vec<PodId>,
    keys: &mut Vec<VictimKey>,
) -> usize {
    let priority = cluster.priority(pod);
    keys.clear();
    keys.extend(
        cluster.nodes()[node]
            .pods()
            .iter()
            .copied()
            .filter(|&p| cluster.priority(p) < priority)
            .map(|p| (importance(cluster, start, p), p)),
    );
    // Each key computed once; stable, so equally important pods keep their node order.
    keys.sort_by_key(|k| k.0);
    out.clear();
    out.extend(keys.iter().map(|&(_, p)| p));
    if cluster.pdbs().is_empty() {
        return 0;
    }
    let (violating, other): (Vec<PodId>, Vec<PodId>) =
        out.iter().partition(|&&p| violates_pdb(cluster, p));
    out.clear();
    out.extend(&violating);
    out.extend(other);
    violating.len()
}

/// `selectVictimsOnNode` on a copy of the node (filters whose state does not depend on other
/// nodes' pods).
fn victims_on_a_copy(
    checker: &NodeChecker,
    cluster: &Cluster,
    node: NodeId,
    pod: PodId,
    nominations: &Nominations,
    start: &impl Fn(PodId) -> StartTime,
    scratch: &mut Scratch,
) -> Result<Option<(Victims, usize)>, CycleError> {
    let Scratch {
        node: copy,
        lower,
        keys,
    } = scratch;
    let priority = cluster.priority(pod);
    let keep = |p: PodId| cluster.priority(p) >= priority;
    let info = copy.get_or_insert_with(|| cluster.nodes()[node].clone());
    info.copy_keeping(&cluster.nodes()[node], cluster.pods(), keep);
    // Checked before the victims are sorted: a node where even that fails needs no order.
    if !checker.fits_in_place(cluster, info, nominations)? {
        return Ok(None);
    }
    let violating = potential_victims(cluster, node, pod, start, lower, keys);
    let mut victims = Victims::new();
    let mut violations = 0;
    for (i, &p) in lower.iter().enumerate() {
        let mark = info.mark();
        cluster.add_to(info, p);
        if !checker.fits_in_place(cluster, info, nominations)? {
            info.undo_add(mark);
            victims.push(p);
            violations += usize::from(i < violating);
        }
    }
    Ok(Some((victims, violations)))
}

/// `selectVictimsOnNode` on the cache itself, re-running `pre_filter` after each change; the
/// pods are bound back before returning.
fn victims_changing_the_cache(
    algorithm: &Algorithm,
    cluster: &mut Cluster,
    node: NodeId,
    pod: PodId,
    nominations: &Nominations,
    start: &impl Fn(PodId) -> StartTime,
) -> Result<Option<(Victims, usize)>, CycleError> {
    let mut all = Vec::new();
    let violating = potential_victims(cluster, node, pod, start, &mut all, &mut Vec::new());
    for &p in &all {
        cluster.unbind(p);
    }
    let mut scratch = None;
    let mut fits = |cluster: &Cluster| -> Result<bool, CycleError> {
        let checker = NodeChecker::new(algorithm, cluster, pod)?;
        checker.fits(cluster, &cluster.nodes()[node], nominations, &mut scratch)
    };
    let result = (|| {
        if !fits(cluster)? {
            return Ok(None);
        }
        let mut victims = Victims::new();
        let mut violations = 0;
        for (i, &p) in all.iter().enumerate() {
            cluster.bind(p, node);
            if !fits(cluster)? {
                cluster.unbind(p);
                victims.push(p);
                violations += usize::from(i < violating);
            }
        }
        Ok(Some((victims, violations)))
    })();
    // Put back every pod still off the node.
    for &p in &all {
        if cluster.pod_node()[p].is_none() {
            cluster.bind(p, node);
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Millis;
    use crate::testing::{cluster, four_nodes_with_pods, node, pod};
    use serde_json::json;

    fn at(c: &Cluster) -> impl Fn(PodId) -> StartTime + '_ {
        // v3 started latest (2 s), the others at 1 s.
        move |p| {
            StartTime::Virtual(Millis(if c.pods()[p].full_name == "default/v3" {
                2000
            } else {
                1000
            }))
        }
    }

    /// The copy path (`victims_on_a_copy`: copies, in-place nominated passes, undone adds,
    /// dense counts) against the plain one (`victims_changing_the_cache`: pods unbound and
    /// bound again on the cluster itself, a fresh copy for the nominated pass), which the
    /// default filters allow both: on random clusters with host ports, scalar resources,
    /// priorities and nominations they must find the same victims, node by node.
    #[test]
    fn the_copy_path_finds_the_same_victims_as_changing_the_cache() {
        use crate::rng::Rng;
        use crate::v117::policy::{self, config::SchedulerConfiguration};
        let algorithm = policy::build(None, &SchedulerConfiguration::default())
            .expect("default algorithm")
            .algorithm;
        let mut rng = Rng::new(17);
        fn pick(rng: &mut Rng, n: u64) -> i64 {
            rng.intn(n) as i64
        }
        fn spec(rng: &mut Rng, prio: i64) -> crate::model::Pod {
            let cpu = 100 + 100 * pick(rng, 12);
            let mut requests = json!({"cpu": format!("{cpu}m")});
            let mut c = json!({"name": "c"});
            if pick(rng, 3) == 0 {
                requests["example.com/gpu"] = json!(pick(rng, 2));
            }
            if pick(rng, 3) == 0 {
                let port = 8000 + pick(rng, 2);
                c["ports"] = json!([{"containerPort": port, "hostPort": port}]);
            }
            c["resources"] = json!({"requests": requests});
            pod(
                json!({"metadata": {"name": format!("p{}", pick(rng, 1 << 30))},
                "spec": {"priority": prio, "containers": [c]}}),
            )
        }
        let mut compared = 0;
        for round in 0..60 {
            let nodes: Vec<_> = (0..4)
                .map(|i| {
                    let (cpu, pods, gpu) = (
                        1 + pick(&mut rng, 3),
                        3 + pick(&mut rng, 4),
                        pick(&mut rng, 3),
                    );
                    node(
                        json!({"metadata": {"name": format!("n{i}")}, "status": {"allocatable":
                        {"cpu": format!("{cpu}"), "pods": pods, "example.com/gpu": gpu}}}),
                    )
                })
                .collect();
            let bound: Vec<_> = (0..10)
                .map(|_| {
                    let prio = pick(&mut rng, 4);
                    (spec(&mut rng, prio), pick(&mut rng, 4) as usize)
                })
                .collect();
            let mut c = cluster(nodes, bound);
            let preemptor = c.add_pod(crate::cluster::PodInfo::new(spec(&mut rng, 3), 3, 100));
            let mut waiting = Vec::new();
            for i in 0..3 {
                let prio = 2 + pick(&mut rng, 3) as i32;
                let p = spec(&mut rng, i64::from(prio));
                let p = c.add_pod(crate::cluster::PodInfo::new(p, prio, 200 + i));
                waiting.push((pick(&mut rng, 4) as usize, p));
            }
            let mut nominations = Nominations::new();
            let groups: Vec<(NodeId, Vec<PodId>)> = (0..4)
                .map(|n| {
                    (
                        n,
                        waiting.iter().filter(|w| w.0 == n).map(|w| w.1).collect(),
                    )
                })
                .collect();
            nominations.rebuild(4, groups.iter().map(|(n, p)| (*n, p.as_slice())), |p| {
                c.priority(p)
            });
            let start = |p: PodId| StartTime::Virtual(Millis(p as u64 % 3));
            let checker = NodeChecker::new(&algorithm, &c, preemptor).expect("checker");
            let mut scratch = Scratch::default();
            for n in 0..4 {
                let copy = victims_on_a_copy(
                    &checker,
                    &c,
                    n,
                    preemptor,
                    &nominations,
                    &start,
                    &mut scratch,
                )
                .expect("no filter error");
                let before: Vec<Vec<PodId>> = c.nodes().iter().map(|x| x.pods().to_vec()).collect();
                let plain = victims_changing_the_cache(
                    &algorithm,
                    &mut c,
                    n,
                    preemptor,
                    &nominations,
                    &start,
                )
                .expect("no filter error");
                assert_eq!(copy, plain, "round {round}, node n{n}");
                // The plain path puts every pod back (possibly in another order on its node).
                for (x, b) in c.nodes().iter().zip(&before) {
                    let (mut got, mut want) = (x.pods().to_vec(), b.clone());
                    got.sort_unstable();
                    want.sort_unstable();
                    assert_eq!(got, want);
                }
                compared += usize::from(plain.is_some());
            }
        }
        // Enough of the nodes had room to make after removals for this to say something.
        assert!(compared > 40, "{compared}");
    }

    #[test]
    fn more_important_pods_sort_first_even_at_the_priority_limits() {
        let c = four_nodes_with_pods(&[(0, i32::MIN), (0, i32::MAX), (0, 0)]);
        let start = at(&c);
        let mut ids = vec![0, 1, 2];
        ids.sort_by_key(|&p| importance(&c, &start, p));
        assert_eq!(ids, [1, 2, 0]);
    }
}
