//! `EvenPodsSpreadPriority` (alpha in v1.17; runs when a Policy names it): soft
//! `topologySpreadConstraints` (`whenUnsatisfiable: ScheduleAnyway`).
//!
//! Scored nodes carrying every constraint's key are eligible; their (key, value) domains count
//! the matching pods on every node that passes the pod's nodeSelector/required node affinity and
//! carries every key (no namespace filter in this alpha version). An eligible node's count is the
//! sum over constraints of its domains' counts; with `total` the sum over eligible nodes and
//! `min` the smallest count, it scores `int64(100 * (total - count) / (total - min))`, or 100 when
//! `total == min`. Ineligible nodes score 0.

use super::PrioritySpec;
use super::MAX_NODE_SCORE;
use crate::cluster::NodeInfo;
use crate::model::pod::{TopologySpreadConstraint, SCHEDULE_ANYWAY};
use crate::model::selector::selector_matches;
use crate::v117::predicates::even_pods_spread::shared_key;
use crate::v117::predicates::match_node_selector::pod_matches_node;
use crate::v117::{CycleContext, CycleError, ScorePlugin, State};
use std::collections::HashMap;
/// `EvenPodsSpreadPriority` in the legacy registry.
pub(crate) static SPEC: PrioritySpec = PrioritySpec {
    name: "EvenPodsSpreadPriority",
    default_weight: 1,
    default_provider: false,
    build: || Box::new(EvenPodsSpreadPriority),
};

/// The priority. Counts come from the cluster's [`crate::cluster::TopologyIndex`] under the
/// same conditions as the `EvenPodsSpread` predicate's fast path; otherwise from [`Reference`].
pub(crate) struct EvenPodsSpreadPriority;

/// The same priority counting every pod each cycle (the tested reference).
pub(crate) struct Reference;

struct FastMeta {
    constraints: Vec<TopologySpreadConstraint>,
    key: usize,
    counts: Vec<i64>,
}

struct Meta {
    constraints: Vec<TopologySpreadConstraint>,
    pair_counts: HashMap<(String, String), i64>,
}

fn eligible(node: &NodeInfo, constraints: &[TopologySpreadConstraint]) -> bool {
    constraints
        .iter()
        .all(|c| node.labels().contains_key(&c.topology_key))
}

impl ScorePlugin for EvenPodsSpreadPriority {
    fn pre_score(&self, cx: &CycleContext, nodes: &[&NodeInfo]) -> Result<State, CycleError> {
        let soft: Vec<&TopologySpreadConstraint> = cx
            .pod
            .pod
            .spec
            .topology_spread_constraints
            .iter()
            .filter(|c| c.when_unsatisfiable == SCHEDULE_ANYWAY)
            .collect();
        let Some(key) = shared_key(cx, &soft) else {
            return Reference.pre_score(cx, nodes);
        };
        let index = &cx.cluster.topology();
        let mut counts = vec![0i64; index.keys[key].values.len()];
        for c in &soft {
            for g in &index.groups {
                if selector_matches(c.label_selector.as_ref(), &g.labels) {
                    #[allow(
                        clippy::iter_over_hash_type,
                        reason = "sums per domain: the order is not seen"
                    )]
                    for (&v, &n) in &g.counts[key] {
                        counts[v as usize] += n;
                    }
                }
            }
        }
        Ok(State::new(FastMeta {
            constraints: soft.into_iter().cloned().collect(),
            key,
            counts,
        }))
    }

    fn score(&self, cx: &CycleContext, state: &State, node: &NodeInfo) -> Result<i64, CycleError> {
        let Some(meta) = state.get::<FastMeta>() else {
            return Reference.score(cx, state, node);
        };
        Ok(
            match cx.cluster.topology().node_value(meta.key, node.id()) {
                Some(v) => meta.counts[v as usize] * meta.constraints.len() as i64,
                None => 0,
            },
        )
    }

    fn normalize(&self, cx: &CycleContext, state: &State, nodes: &[&NodeInfo], scores: &mut [i64]) {
        let Some(meta) = state.get::<FastMeta>() else {
            return Reference.normalize(cx, state, nodes, scores);
        };
        let index = &cx.cluster.topology();
        normalize_counts(!meta.constraints.is_empty(), nodes, scores, |n| {
            index.node_value(meta.key, n.id()).is_some()
        });
    }
}

fn normalize_counts(
    any_constraint: bool,
    nodes: &[&NodeInfo],
    scores: &mut [i64],
    eligible: impl Fn(&NodeInfo) -> bool,
) {
    if !any_constraint {
        scores.iter_mut().for_each(|s| *s = 0);
        return;
    }
    let mut total = 0i64;
    let mut min = i64::MAX;
    for (n, &s) in nodes.iter().zip(scores.iter()) {
        if eligible(n) {
            total += s;
            min = min.min(s);
        }
    }
    let diff = total - min;
    for (n, s) in nodes.iter().zip(scores.iter_mut()) {
        *s = if !eligible(n) {
            0
        } else if diff == 0 {
            MAX_NODE_SCORE
        } else {
            (MAX_NODE_SCORE as f64 * ((total - *s) as f64 / diff as f64)) as i64
        };
    }
}

impl ScorePlugin for Reference {
    fn pre_score(&self, cx: &CycleContext, nodes: &[&NodeInfo]) -> Result<State, CycleError> {
        let constraints: Vec<TopologySpreadConstraint> = cx
            .pod
            .pod
            .spec
            .topology_spread_constraints
            .iter()
            .filter(|c| c.when_unsatisfiable == SCHEDULE_ANYWAY)
            .cloned()
            .collect();
        let mut pair_counts: HashMap<(String, String), i64> = HashMap::new();
        if constraints.is_empty() {
            return Ok(State::new(Meta {
                constraints,
                pair_counts,
            }));
        }
        for n in nodes.iter().filter(|n| eligible(n, &constraints)) {
            for c in &constraints {
                pair_counts.insert(
                    (c.topology_key.clone(), n.labels()[&c.topology_key].clone()),
                    0,
                );
            }
        }
        for node in cx.cluster.nodes() {
            if !eligible(node, &constraints) || !pod_matches_node(&cx.pod.pod, node.object()) {
                continue;
            }
            for c in &constraints {
                let key = (
                    c.topology_key.clone(),
                    node.labels()[&c.topology_key].clone(),
                );
                if let Some(slot) = pair_counts.get_mut(&key) {
                    *slot += node
                        .pods()
                        .iter()
                        .filter(|&&p| {
                            selector_matches(
                                c.label_selector.as_ref(),
                                cx.cluster.pods()[p].labels(),
                            )
                        })
                        .count() as i64;
                }
            }
        }
        Ok(State::new(Meta {
            constraints,
            pair_counts,
        }))
    }

    fn score(&self, _: &CycleContext, state: &State, node: &NodeInfo) -> Result<i64, CycleError> {
        let Some(meta) = state.get::<Meta>() else {
            return Ok(0);
        };
        if meta.constraints.is_empty() || !eligible(node, &meta.constraints) {
            return Ok(0);
        }
        Ok(meta
            .constraints
            .iter()
            .map(|c| {
                let key = (
                    c.topology_key.clone(),
                    node.labels()[&c.topology_key].clone(),
                );
                meta.pair_counts.get(&key).copied().unwrap_or(0)
            })
            .sum())
    }

    fn normalize(&self, _: &CycleContext, state: &State, nodes: &[&NodeInfo], scores: &mut [i64]) {
        let Some(meta) = state.get::<Meta>() else {
            return;
        };
        normalize_counts(!meta.constraints.is_empty(), nodes, scores, |n| {
            eligible(n, &meta.constraints)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::json;

    #[test]
    fn emptier_domains_score_higher() {
        let nodes = vec![
            node(json!({"metadata": {"name": "a", "labels": {"zone": "a"}}})),
            node(json!({"metadata": {"name": "b", "labels": {"zone": "b"}}})),
            node(json!({"metadata": {"name": "c", "labels": {"zone": "c"}}})),
            node(json!({"metadata": {"name": "x"}})),
        ];
        let web = || pod(json!({"metadata": {"labels": {"app": "web"}}}));
        let c = cluster(nodes, vec![(web(), 0), (web(), 0), (web(), 1)]);
        let p = pod(
            json!({"metadata": {"labels": {"app": "web"}}, "spec": {"topologySpreadConstraints": [
            {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway",
             "labelSelector": {"matchLabels": {"app": "web"}}}]}}),
        );
        let (raw, norm) = score_all(&EvenPodsSpreadPriority, &c, p);
        assert_eq!(raw, [2, 1, 0, 0]);
        // total 3, min 0: a 100*(1/3) = 33, b 100*(2/3) = 66, c 100, x ineligible 0
        assert_eq!(norm, [33, 66, 100, 0]);
        assert_eq!(
            score_all(&EvenPodsSpreadPriority, &c, web()).1,
            [0, 0, 0, 0]
        );
    }
}
